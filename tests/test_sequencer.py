"""The phase sequencer: skips, enter/exit order, turn limit, chit-pull dynamic segments."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from hexwar.actions import CHANCE, Action, Decision, Outcome, Value
from hexwar.dice import D10, uniform
from hexwar.records import dumps, loads
from hexwar.sequencer import (
    Cursor,
    Phase,
    Segment,
    SequenceError,
    Stage,
    TurnSequence,
    token_draw,
    token_pick,
    validate_cursor,
)
from hexwar.state import Ruleset, State
from hexwar.testing import check_random_games
from toy_game import Duel

OWNER = {"g1": "A", "g2": "B"}  # activation group -> side


def log(state: State, entry: str) -> None:
    n = len(state.table("log"))
    state.put("log", f"{n:04d}", entry)


def entries(state: State) -> list[Value]:
    return [v for _, v in sorted(state.table("log").items())]


def roll_initiative(state: State) -> None:
    outcomes = tuple((Action.of("initiative", side), p) for side, p in uniform(["A", "B"]))
    state.push(Decision.chance("initiative", outcomes))


def next_activation(state: State) -> Decision | None:
    cup = state.get("cup", "chits")
    assert isinstance(cup, tuple)
    if not cup:
        return None
    if not state.cursor.tokens:  # the initiative holder picks the first marker (T&G)
        holder = state.get("game", "initiative")
        assert isinstance(holder, str)
        return token_pick(holder, [c for c in cup if isinstance(c, str)])
    return token_draw([c for c in cup if isinstance(c, str)])


def take_chit(state: State, token: str) -> None:
    cup = list(state.get("cup", "chits"))  # type: ignore[arg-type]
    cup.remove(token)
    state.put("cup", "chits", tuple(cup))


def owner(state: State) -> str:
    assert state.token is not None
    return OWNER[state.token]


def logged(name: str) -> Phase:
    return Phase(
        name,
        side=owner,
        on_enter=lambda s: log(s, f"{s.turn}:{s.token}:{name}"),
        end_when_idle=False,
    )


class ChitPull(Ruleset):
    """Triumph & Glory-like: initiative roll, then activations drawn from a cup."""

    name = "chitpull"
    sides = ("A", "B")
    sequence = TurnSequence(
        stages=(
            Stage("orders", (Phase("initiative", on_enter=roll_initiative),)),
            Segment(
                "activation",
                (logged("move"), logged("fire")),
                next=next_activation,
                on_token=take_chit,
                on_enter=lambda s: s.put("cup", "chits", ("g1", "g1", "g2", "g2")),
            ),
            Stage(
                "morale",
                (Phase("morale", on_enter=lambda s: log(s, f"{s.turn}:morale")),),
                skip=lambda s: s.turn == 1,
            ),
        ),
        turn_limit=2,
    )

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        state.put("cup", "chits", ())

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        assert decision.kind == "initiative"
        state.put("game", "initiative", action.args[0])

    def final_outcome(self, state: State) -> Outcome:
        return Outcome(None, "draw")


def test_chit_pull_order_is_decided_at_run_time() -> None:
    state = ChitPull().new_state()
    assert (state.stage, state.phase, state.current_player()) == ("orders", "initiative", CHANCE)
    state.apply("initiative B")
    # the initiative holder picks the first marker
    assert state.current_player() == "B"
    assert state.legal_actions() == [Action.of("pick", "g1"), Action.of("pick", "g2")]
    state.apply("pick g1")
    assert (state.token, state.phase, state.current_player()) == ("g1", "move", "A")
    state.apply("end")
    assert state.phase == "fire"
    state.apply("end")
    # then markers are drawn from the cup: chance, with exact odds from what is left
    assert state.current_player() == CHANCE
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [
        ("draw g1", pytest.approx(1 / 3)),
        ("draw g2", pytest.approx(2 / 3)),
    ]
    for chit in ("g2", "g2", "g1"):
        state.apply(f"draw {chit}")
        state.apply("end")
        state.apply("end")
    assert state.turn == 2
    assert entries(state) == [
        f"1:{t}:{p}" for t in ("g1", "g2", "g2", "g1") for p in ("move", "fire")
    ]


def test_cursor_survives_save_and_load_mid_segment() -> None:
    rules = ChitPull()
    state = rules.new_state()
    for text in ("initiative A", "pick g2", "end", "end", "draw g1"):
        state.apply(text)
    assert (state.token, state.phase) == ("g1", "move")
    loaded = loads(rules, dumps(state))
    assert loaded == state
    assert loaded.cursor.tokens == ("g2", "g1")
    for s in (state, loaded):
        for text in ("end", "end", "draw g2", "end", "end", "draw g1", "end"):
            s.apply(text)
    assert loaded == state
    assert state.phase == "fire"


def test_skip_predicates_and_turn_limit() -> None:
    state = ChitPull().new_state()
    for _turn in (1, 2):
        state.apply("initiative A")
        state.apply("pick g1")
        for _ in range(3):
            state.apply("end")
            state.apply("end")
            state.apply(f"draw {state.legal_actions()[0].args[0]}")
        state.apply("end")
        state.apply("end")
    morale = [e for e in entries(state) if isinstance(e, str) and e.endswith("morale")]
    assert morale == ["2:morale"]  # skipped on turn 1
    assert state.outcome == Outcome(None, "draw")


def test_chit_pull_random_games_pass_the_kit() -> None:
    report = check_random_games(lambda: ChitPull().new_state(), games=30, seed=3)
    assert report.ok, report.violations[:3]
    assert report.terminal == 30


def test_idle_phases_end_by_themselves_and_fire_is_skipped_when_apart() -> None:
    state = Duel().new_state()
    state.apply("deal dud")
    state.apply("deal dud")
    phases = []
    while state.turn == 1:
        phases.append((state.stage, state.phase))
        state.apply(state.legal_actions()[-1] if state.phase == "move" else "end")
    assert ("red", "fire") not in phases
    assert ("blue", "fire") not in phases


def test_token_decisions_and_cursor_validation() -> None:
    assert token_pick("A", ["b", "a", "b"]).choices == (
        Action.of("pick", "a"),
        Action.of("pick", "b"),
    )
    draw = token_draw(["x", "y", "y"], private="A")
    assert draw.side == CHANCE
    assert draw.private == "A"
    with pytest.raises(SequenceError):
        token_pick("A", [])
    seq = ChitPull.sequence
    validate_cursor(seq, Cursor(1, 1, 1, "enter", "g1", ("g1",)))
    for bad in (Cursor(1, 9), Cursor(1, 0, 5, "enter"), Cursor(1, 0, 0, "bogus"), Cursor(1, 3, 0)):
        with pytest.raises(SequenceError):
            validate_cursor(seq, bad)


def test_d10_initiative_style_chance_at_phase_start_is_resumable() -> None:
    """A roll pushed by an on_enter callback waits; play resumes in the same phase."""

    def roll(state: State) -> None:
        state.push(
            Decision.chance("order", tuple((Action.of("d10", n), p) for n, p in D10.outcomes()))
        )

    class Orders(Ruleset):
        name = "orders"
        sides = ("A",)
        sequence = TurnSequence(
            (
                Stage(
                    "orders",
                    (Phase("delay", on_enter=roll), Phase("act", side="A", end_when_idle=False)),
                ),
            ),
            turn_limit=1,
        )

        def decide(self, state: State, decision: Decision, action: Action) -> None:
            state.put("rolls", str(state.turn), action.int_arg(0))

    state = Orders().new_state()
    assert state.phase == "delay"
    assert len(state.chance_outcomes()) == 10
    state.apply("d10 0")  # "0 is zero, not 10"
    assert (state.phase, state.get("rolls", "1")) == ("act", 0)
    state.apply("end")
    assert state.is_terminal()


def test_sequencer_asks_has_phase_actions_to_skip_idle_phases() -> None:
    """The sequencer asks ``has_phase_actions`` (not the full list) whether a phase is idle."""
    asked: list[tuple[str | None, str]] = []

    class Lazy(Ruleset):
        name = "lazy"
        sides = ("A",)
        sequence = TurnSequence(
            (Stage("s", (Phase("idle", side="A"), Phase("busy", side="A"))),), turn_limit=1
        )

        def phase_actions(self, state: State, side: str) -> list[Action]:
            return [Action.of("act")] if state.phase == "busy" else []

        def has_phase_actions(self, state: State, side: str) -> bool:
            asked.append((state.phase, side))
            return super().has_phase_actions(state, side)

    state = Lazy().new_state()
    assert state.phase == "busy"
    assert asked == [("idle", "A"), ("busy", "A")]


def test_default_has_phase_actions_matches_phase_actions() -> None:
    """The default ``has_phase_actions`` is ``phase_actions`` non-empty, also for generators."""

    class Gen(Ruleset):
        name = "gen"
        sides = ("A",)
        sequence = TurnSequence((Stage("s", (Phase("p", side="A", end_when_idle=False),)),))
        offer: tuple[Action, ...] = ()

        def phase_actions(self, state: State, side: str) -> Iterable[Action]:
            yield from self.offer

    rules = Gen()
    state = rules.new_state()
    assert state.phase == "p"
    assert rules.has_phase_actions(state, "A") is False
    rules.offer = (Action.of("x"), Action.of("y"))
    assert rules.has_phase_actions(state, "A") is True
