"""Hypothesis for rulesets: :func:`random_states`, a strategy of states reached by random
legal play; :class:`RulesStateMachine`, a ``RuleBasedStateMachine`` base (subclass it, set
``new_state``, add ``@invariant`` methods); :data:`FAST_SHRINK`, the settings that let a
failing run shrink fast.

Requires ``hypothesis`` (the ``test`` extra).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from hexwar.engine.actions import CHANCE, Action
from hexwar.engine.memo import read_checking
from hexwar.engine.savefile import dumps
from hexwar.engine.state import State
from hexwar.testing.checks import check_step
from hexwar.testing.kit import _pick

__all__ = ["FAST_SHRINK", "RulesStateMachine", "random_states"]

#: Hypothesis settings for the kit's machines and strategies: every phase but ``explain``
#: (which replays a shrunk failure many more times to say which steps matter, costly when
#: a step is a game action), no deadline and no ``too_slow`` health check (a game step's
#: time varies, and more on a loaded machine). With them a failing
#: :class:`RulesStateMachine` run shrinks within the budgets stated by
#: ``tests/test_testing_progress.py`` and ``tests/stalingrad/test_kit_shrinking.py``:
#: ``run_state_machine_as_test(Machine, settings=FAST_SHRINK)`` or
#: ``Machine.TestCase.settings = FAST_SHRINK``.
FAST_SHRINK: Final = settings(
    phases=tuple(p for p in Phase if p is not Phase.explain),
    deadline=None,
    suppress_health_check=(HealthCheck.too_slow,),
)


def random_states(
    new_state: Callable[[], State], *, max_steps: int = 60
) -> st.SearchStrategy[State]:
    """States reached from ``new_state()`` by up to ``max_steps`` random legal actions."""

    @st.composite
    def build(draw: Any) -> State:
        state = new_state()
        for _ in range(draw(st.integers(0, max_steps))):
            legal = state.legal_actions()
            if not legal:
                break
            state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        return state

    return build()


class RulesStateMachine(RuleBasedStateMachine):
    """A rules state machine: random legal actions, undo and clone checks, the per-state
    checks of :func:`check_step` (token tree and ids included) with memo read checking
    on, your invariants.

    Subclass, set ``new_state`` (a callable returning a fresh state) and add
    ``@invariant()`` methods reading ``self.state``.

    ``chance_seeded`` (default ``True``): chance outcomes are drawn from one seeded
    random generator (the seed drawn by hypothesis once per run), by their
    probabilities, right after the action that led to them, each chance position
    checked like any other; hypothesis's steps are then the players' actions only, so a
    failing run shrinks to the few decisions that matter instead of every die roll and
    card of a long set-up (``tests/test_testing_progress.py`` states the budget). ``False``:
    every chance outcome is a step hypothesis draws and shrinks.
    """

    new_state: Callable[[], State]
    chance_seeded: bool = True

    def __init__(self) -> None:
        super().__init__()
        self.state = type(self).new_state()
        self.snapshots = [dumps(self.state)]
        self.rng: random.Random | None = None

    @initialize(seed=st.integers(0, 2**32 - 1))
    def chance_seed(self, seed: int) -> None:
        if self.chance_seeded:
            self.rng = random.Random(seed)
            self._resolve_chance()

    def _apply(self, action: Action) -> None:
        with read_checking():
            twin = self.state.clone()
            self.state.apply(action)
            twin.apply(action)
        assert twin == self.state, f"clone differs after {action}"
        self.snapshots.append(dumps(self.state))

    def _resolve_chance(self) -> None:
        rng = self.rng
        if rng is None:
            return
        seats = [s.name for s in self.state.ruleset.seats()]
        while not self.state.is_terminal() and self.state.current_player() == CHANCE:
            with read_checking():
                fails = check_step(self.state, seats)
            assert not fails, fails
            self._apply(_pick(self.state, rng))

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        self._resolve_chance()  # after an undo the state may stand on a chance node
        if self.state.is_terminal():
            return
        with read_checking():
            legal = self.state.legal_actions()
        action = data.draw(st.sampled_from(legal), label="action")
        self._apply(action)
        self._resolve_chance()

    @precondition(lambda self: self.state.can_undo())
    @rule()
    def undo(self) -> None:
        self.state.undo()
        self.snapshots.pop()
        assert dumps(self.state) == self.snapshots[-1], "undo is not exact"

    @invariant()
    def kit_checks(self) -> None:
        with read_checking():
            fails = check_step(self.state, [s.name for s in self.state.ruleset.seats()])
        assert not fails, fails
