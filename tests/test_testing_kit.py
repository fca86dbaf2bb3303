"""The verification kit on the toy ruleset, and proof that it catches broken rulesets."""

from __future__ import annotations

import pytest
from hypothesis import settings

from hexwar.engine.actions import Action
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.testing import RulesStateMachine, RulesViolation, check_random_games, check_tokens
from toy_game import Duel


def test_200_random_games_of_the_toy_ruleset_pass_every_check() -> None:
    report = check_random_games(lambda: Duel().new_state(), games=200, seed=2024)
    assert report.ok, report.violations[:3]
    assert (report.games, report.terminal) == (200, 200)
    assert report.steps > 1000


def test_ruleset_invariants_are_checked() -> None:
    def never_on_the_hill(state: State) -> str | None:
        on_hill = [s for s in ("red", "blue") if state.get("units", s)[0] == 3]  # type: ignore[index]
        return f"{on_hill} on the hill" if on_hill else None

    report = check_random_games(
        lambda: Duel().new_state(), games=30, seed=1, invariants=[never_on_the_hill]
    )
    assert not report.ok
    assert {v.check for v in report.violations} == {"invariant never_on_the_hill"}
    assert all(v.history for v in report.violations)
    with pytest.raises(RulesViolation, match="never_on_the_hill"):
        check_random_games(
            lambda: Duel().new_state(),
            games=30,
            seed=1,
            invariants=[never_on_the_hill],
            raise_on_first=True,
        )


class ListValue(Duel):
    """Bug: stores a list (not an immutable Value) in the state."""

    def play(self, state: State, action: Action) -> None:
        super().play(state, action)
        state.put("log", "last", [str(action)])  # type: ignore[arg-type]


class Unjournaled(Duel):
    """Bug: writes behind the state's back, so undo and clones go wrong."""

    def play(self, state: State, action: Action) -> None:
        super().play(state, action)
        state.table("units")  # the public view is read-only; a buggy game reaches inside:
        state._tables.setdefault("moves", {})[str(len(state.history))] = str(action)


class Stateful(Duel):
    """Bug: keeps game data on the ruleset object, shared by every state and clone."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def play(self, state: State, action: Action) -> None:
        super().play(state, action)
        self.count += 1
        state.put("log", "count", self.count)


@pytest.mark.parametrize(
    ("rules", "check"),
    [(ListValue, "serialize"), (Unjournaled, "undo"), (Stateful, "clone")],
)
def test_the_kit_catches_broken_rulesets(rules: type[Duel], check: str) -> None:
    report = check_random_games(lambda: rules().new_state(), games=20, seed=0)
    assert check in {v.check for v in report.violations}


@pytest.mark.parametrize(
    ("rules", "check"),
    [(ListValue, "serialize"), (Unjournaled, "undo"), (Stateful, "clone")],
)
def test_sampled_full_checks_still_catch_broken_rulesets(rules: type[Duel], check: str) -> None:
    """``full_check_every=3``: the costly checks run on every third step only."""
    report = check_random_games(lambda: rules().new_state(), games=20, seed=0, full_check_every=3)
    assert check in {v.check for v in report.violations}


def test_sampled_full_checks_play_the_same_games() -> None:
    every = check_random_games(lambda: Duel().new_state(), games=30, seed=7)
    sampled = check_random_games(lambda: Duel().new_state(), games=30, seed=7, full_check_every=5)
    assert sampled.ok
    assert (sampled.games, sampled.steps, sampled.terminal) == (
        every.games,
        every.steps,
        every.terminal,
    )


def test_full_check_every_must_be_positive() -> None:
    with pytest.raises(ValueError, match="full_check_every"):
        check_random_games(lambda: Duel().new_state(), games=1, full_check_every=0)


# -- the action-space checks --------------------------------------------------------------


class DeadEnd(Duel):
    """Bug: offers ``move red 9`` whose last token leads nowhere (no ``done`` after it)."""

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        found = tuple(super().phase_tokens(state, side, prefix))
        if prefix == ("move", side):
            return tuple(sorted((*found, "9")))
        return () if prefix == ("move", side, "9") else found


class Unsorted(Duel):
    """Bug: tokens in the wrong order."""

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(reversed(super().phase_tokens(state, side, prefix)))


class SmallSpace(Duel):
    """Bug: the declared space forgets column 6."""

    def action_space(self) -> ActionSpace:
        kinds = ("end", "move", "attack", "play", "deal", "roll", "absorb", "retreat")
        return ActionSpace.of(kinds, side=("red", "blue"), column=range(6), card=("ambush", "dud"))


class NoSpace(Duel):
    """Bug: declares no action space."""

    def action_space(self) -> ActionSpace:
        return super(Duel, self).action_space()


@pytest.mark.parametrize(
    ("rules", "check"),
    [(DeadEnd, "dead end"), (Unsorted, "tokens"), (SmallSpace, "space"), (NoSpace, "space")],
)
def test_the_kit_catches_broken_action_spaces(rules: type[Duel], check: str) -> None:
    report = check_random_games(lambda: rules().new_state(), games=20, seed=0)
    assert check in {v.check for v in report.violations}, report.violations[:2]


def test_check_tokens_names_the_dead_end() -> None:
    state = DeadEnd().new_state()
    state.apply("deal dud")
    state.apply("deal ambush")
    assert ("dead end", "no token may follow move red 9") in check_tokens(state)
    assert check_tokens(Duel().new_state()) == []


UNITS = {"a": 2, "b": 1, "c": 0}
LAZY = Kinds(
    (
        Kind("move", (Values(lambda s, side, a: [u for u in UNITS if not s.get("moved", u)]),
                      Values(lambda s, side, a: [str(n) for n in range(1, UNITS[a[0]] + 1)]))),
        Kind("attack", (Values(lambda s, side, a: ["x"]),
                        Combination(lambda s, side, a: [u for u in UNITS if not s.get("moved", u)],
                                    valid=lambda s, side, f, g: sum(UNITS[u] for u in g) >= 2))),
    )
)  # fmt: skip


class Lazy(Ruleset):
    """A token-by-token game (``hexwar.engine.kinds``), no lists at all."""

    name = "lazy"
    sides = ("red",)
    sequence = TurnSequence((Stage("s", (Phase("p", side="red"),)),), turn_limit=3)

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(["end", *LAZY.names], unit=UNITS, n=(1, 2), target=("x",))

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        return LAZY.tokens(state, side, prefix)

    def phase_actions(self, state: State, side: str) -> list[Action]:
        raise AssertionError("a token game is never asked for its list")

    def play(self, state: State, action: Action) -> None:
        for unit in action.args if action.kind == "attack" else action.args[:1]:
            if unit in UNITS:
                state.put("moved", unit, True)


def test_a_token_game_passes_the_kit() -> None:
    report = check_random_games(lambda: Lazy().new_state(), games=30, seed=4)
    assert report.ok, report.violations[:3]
    assert report.terminal == 30


def test_the_legal_list_is_the_kinds_steps_walked_in_order() -> None:
    """No enumerator beside the steps: the whole list is their token tree's leaves."""
    state = Lazy().new_state()
    assert [str(a) for a in state.legal_actions()] == [
        "attack x a", "attack x a b", "attack x a b c", "attack x a c", "end",
        "move a 1", "move a 2", "move b 1",
    ]  # fmt: skip
    assert check_tokens(state) == []


class DuelMachine(RulesStateMachine):
    new_state = Duel().new_state


TestDuelMachine = DuelMachine.TestCase
TestDuelMachine.settings = settings(max_examples=25, stateful_step_count=30, deadline=None)


def test_the_report_counts_actions_by_kind_and_a_policy_picks() -> None:
    """Issue 30: the report counts what the games reached; the default policy weighs
    ``end`` down (``Weighted``), ``uniform`` is the plain token draw, any bot is a policy."""
    from hexwar.engine.actions import END
    from hexwar.testing import Weighted, uniform

    report = check_random_games(lambda: Duel().new_state(), games=10, seed=3)
    assert sum(report.kinds.values()) == report.steps
    plain = check_random_games(lambda: Duel().new_state(), games=10, seed=3, policy=uniform)
    assert sum(plain.kinds.values()) == plain.steps
    assert report.kinds["end"] / report.steps < plain.kinds["end"] / plain.steps
    ender = check_random_games(
        lambda: Duel().new_state(),
        games=3,
        seed=3,
        policy=lambda state, rng: END if END in state.legal_actions() else uniform(state, rng),
    )
    assert ender.ok
    with pytest.raises(ValueError, match="must be > 0"):
        Weighted({"end": 0})
