"""A broken ruleset and a shrunk failing machine run, counted in the work it took: the
shared fixture of the shrink-budget tests (``tests/test_testing_progress.py`` for the toy game,
``tests/stalingrad/test_kit_shrinking.py`` for «Сталинград»)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action
from hexwar.engine.state import Ruleset, State
from hexwar.testing import FAST_SHRINK, RulesStateMachine

R = TypeVar("R", bound=Ruleset)


def logs_a_list(base: type[R], when: Callable[[Action], bool]) -> type[R]:
    """``base`` with a bug: after an action for which ``when`` holds, ``play`` logs a list,
    which is no state value, so the state no longer serializes."""

    class Broken(base):  # type: ignore[valid-type,misc]
        def play(self, state: State, action: Action) -> None:
            super().play(state, action)
            if when(action):
                state.put("log", "bug", [str(action)])

    Broken.__name__ = Broken.__qualname__ = f"{base.__name__}LogsAList"
    return Broken


def shrunk_failure(
    new_state: Callable[[], State], *, max_examples: int, steps: int
) -> tuple[int, int]:
    """Run :class:`~hexwar.testing.RulesStateMachine` on ``new_state`` (``FAST_SHRINK``)
    until it fails on the unserializable state and is shrunk: the actions applied over
    all the runs (the work, which machine load does not change) and the length of the
    reported (shrunk, last) run's history.

    ``derandomize``: hypothesis draws from a seed of its own making, not one we chose, so
    the figures are the same on every run (a random search's work has a long tail: 22
    random runs of the toy game took 640 to 11,700 actions)."""
    failing: list[int] = []
    applied = [0]

    class Machine(RulesStateMachine):
        def _apply(self, action: Action) -> None:
            applied[0] += 1
            try:
                super()._apply(action)
            except Exception:
                failing.append(len(self.state.history))
                raise

    Machine.new_state = staticmethod(new_state)  # type: ignore[assignment]
    with pytest.raises(HexwarError, match="not a state value"):
        run_state_machine_as_test(
            Machine,
            settings=settings(
                FAST_SHRINK,
                max_examples=max_examples,
                stateful_step_count=steps,
                database=None,
                derandomize=True,
            ),
        )
    return applied[0], failing[-1]
