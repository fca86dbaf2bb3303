"""The phase sequencer: skips, enter/exit order, turn limit, chit-pull dynamic segments."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import pytest

from hexwar.base.errors import HexwarError, SequenceError
from hexwar.engine.actions import CHANCE, Action, Decision, Outcome, Value
from hexwar.engine.dice import D10, uniform
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import (
    Cursor,
    Phase,
    Segment,
    Stage,
    TurnSequence,
    token_draw,
    token_pick,
    validate_cursor,
)
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
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

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(["end", "initiative", "pick", "draw"], side=self.sides, chit=OWNER)

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


def test_s4_idle_test_asks_only_for_a_first_token() -> None:
    """S4: the sequencer skips an idle phase by asking ``phase_tokens`` at the empty
    prefix only — never for a longer prefix, never for the whole list."""
    asked: list[tuple[str | None, tuple[str, ...]]] = []

    class Lazy(Ruleset):
        name = "lazy"
        sides = ("A",)
        sequence = TurnSequence(
            (Stage("s", (Phase("idle", side="A"), Phase("busy", side="A"))),), turn_limit=1
        )

        def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> list[str]:
            asked.append((state.phase, prefix))
            if state.phase != "busy":
                return []
            return ["act"] if not prefix else ["done"]

    state = Lazy().new_state()
    assert state.phase == "busy"
    assert asked == [("idle", ()), ("busy", ())]
    assert state.legal_actions() == [Action.of("act"), Action.of("end")]
    assert state.legal_tokens() == ("act", "end")
    assert asked[2:] == [("busy", ("act",))]  # the first token's answer was reused


def test_idle_test_on_a_generator_list_reads_only_its_first_item() -> None:
    """A game writing ``phase_actions`` as a generator: the idle test takes one item."""
    taken: list[str] = []

    class Gen(Ruleset):
        name = "gen"
        sides = ("A",)
        sequence = TurnSequence((Stage("s", (Phase("p", side="A"),)),), turn_limit=2)

        def phase_actions(self, state: State, side: str) -> Iterable[Action]:
            for kind in ("x", "y") if not state.table("done") else ():
                taken.append(kind)
                yield Action.of(kind)

        def play(self, state: State, action: Action) -> None:
            state.put("done", "it", True)

    state = Gen().new_state()
    assert state.phase == "p"
    assert taken == ["x"]
    assert [str(a) for a in state.legal_actions()] == ["end", "x", "y"]
    state.apply("y")  # then idle: the phase ends by itself, and so does turn 2's
    assert state.is_terminal()


# -- scratch tables, may_end, timed markers and effects ------------------------------------


class Drill(Ruleset):
    """One side moves each piece at most once per phase; it must move ``must`` pieces
    before it may end (``may_end``); ``moved`` is a scratch table of the phase, ``log``
    one of the stage."""

    name = "drill"
    sides = ("A",)
    effect_rules: ClassVar[Mapping[str, Mapping[str, Any]]] = {"gas": {}}

    def __init__(self, must: int = 1, pieces: tuple[str, ...] = ("p", "q")) -> None:
        self.pieces = pieces
        self.sequence = TurnSequence(
            (
                Stage(
                    "s",
                    (
                        Phase(
                            "move",
                            side="A",
                            scratch=("moved",),
                            may_end=lambda s: len(s.table("moved")) >= must,
                        ),
                    ),
                    scratch=("stage_log",),
                ),
            ),
            turn_limit=6,
        )

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(["end", "move"], piece=self.pieces)

    def phase_actions(self, state: State, side: str) -> list[Action]:
        return [Action.of("move", p) for p in self.pieces if state.get("moved", p) is None]

    def play(self, state: State, action: Action) -> None:
        state.put("moved", action.args[0], True)
        state.put("stage_log", action.args[0], state.turn)


def test_scratch_tables_are_cleared_on_entry_and_undo_restores_them() -> None:
    s = Drill().new_state()
    s.apply("move p")
    s.apply("end")  # turn 2: the phase is entered again, "moved" cleared
    assert s.turn == 2
    assert dict(s.table("moved")) == {}
    assert dict(s.table("stage_log")) == {}
    s.undo()
    assert s.turn == 1
    assert dict(s.table("moved")) == {"p": True}


def test_may_end_withholds_end_until_the_mandatory_move() -> None:
    s = Drill(must=1).new_state()
    assert [str(a) for a in s.legal_actions()] == ["move p", "move q"]  # X.4: no "end" yet
    with pytest.raises(SequenceError, match="may not end"):
        s.apply_unchecked(Action.of("end"))
    assert s.turn == 1
    assert s.phase == "move"
    s.apply("move q")
    assert "end" in [str(a) for a in s.legal_actions()]


def test_a_phase_that_may_not_end_and_has_no_action_raises_instead_of_hanging() -> None:
    s = Drill(must=3).new_state()
    s.apply("move p")
    with pytest.raises(SequenceError, match=r"'move' .* may not end yet .* no action"):
        s.apply("move q")
    assert dict(s.table("moved")) == {"p": True}  # rolled back
    with pytest.raises(SequenceError, match="no action"):
        Drill(must=1, pieces=()).new_state()


def test_timed_markers_and_effects_lapse_at_the_start_of_their_turn() -> None:
    s = Drill().new_state()
    s.apply("move p")
    s._frame = frame = []  # journal the rules-code writes like State.apply does
    s.put_until("gas", "К4", True, 3)  # «Бой отрядов» XIV: gas for two turns
    effect = s.add_effect("gas", until=3)
    s._frame = None
    assert s.expires("gas", "К4") == 3
    assert effect.until == 3
    assert loads(s.ruleset, dumps(s)).to_data() == s.to_data()
    s._rollback(frame)
    assert s.get("gas", "К4") is None
    assert s.effects == ()
    s.put_until("gas", "К4", True, 3)
    s.add_effect("gas", until=3)
    s.apply("end")  # -> turn 2
    assert s.get("gas", "К4") is True
    assert len(s.effects) == 1
    saved = dumps(s)
    s.apply("move p")
    s.apply("end")  # -> turn 3: both lapse
    assert s.turn == 3
    assert s.get("gas", "К4") is None
    assert s.effects == ()
    assert s.expires("gas", "К4") is None
    s.undo()
    assert s.get("gas", "К4") is True
    assert len(s.effects) == 1
    again = loads(s.ruleset, saved)
    again.apply("move p")
    again.apply("end")
    assert again.get("gas", "К4") is None
    assert again.effects == ()
    with pytest.raises(HexwarError, match="not after turn"):
        s.put_until("gas", "x", True, s.turn)
    with pytest.raises(HexwarError, match="not after turn"):
        s.add_effect("gas", until=1)


def test_drill_random_games_pass_the_kit() -> None:
    assert check_random_games(lambda: Drill().new_state(), games=10, seed=2).ok
