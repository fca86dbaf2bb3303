"""The verification kit on the toy ruleset, and proof that it catches broken rulesets."""

from __future__ import annotations

import time

import pytest
from hypothesis import settings

from hexwar.actions import Action
from hexwar.state import State
from hexwar.testing import RulesStateMachine, RulesViolation, check_random_games
from toy_game import Duel


def test_200_random_games_of_the_toy_ruleset_pass_every_check() -> None:
    start = time.perf_counter()
    report = check_random_games(lambda: Duel().new_state(), games=200, seed=2024)
    elapsed = time.perf_counter() - start
    assert report.ok, report.violations[:3]
    assert (report.games, report.terminal) == (200, 200)
    assert report.steps > 1000
    assert elapsed < 30  # about 1.5 s on the dev machine


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


class DuelMachine(RulesStateMachine):
    new_state = Duel().new_state


TestDuelMachine = DuelMachine.TestCase
TestDuelMachine.settings = settings(max_examples=25, stateful_step_count=30, deadline=None)
