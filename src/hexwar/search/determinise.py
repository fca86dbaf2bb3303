"""Determinisation: a full state drawn from what one side may know (IS-MCTS).

:func:`determinise` is the search's only way to a state: it never hands the true hidden
state on. What is hidden from the side is drawn anew with the search's generator:

- by the ruleset's :meth:`~hexwar.engine.state.Ruleset.resample_hidden` when the ruleset
  declares one (the cards of «Сталинград»), through a generator whose ``shuffle`` sorts
  its list first, so the draw depends on the hidden items as a set, never on where they
  truly are (two states the side cannot tell apart give the same determinisation);
- else by :func:`replay_hidden`: the game replayed from its start, the other sides'
  private choices and private chance draws (a hidden set-up) drawn anew, every other
  action applied as recorded.

>>> from examples.tutorial.crossing import Crossing
>>> import random
>>> state = Crossing().new_state()
>>> determinise(state, "blue", random.Random(1)) == state   # nothing is hidden: a clone
True
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import CHANCE, Action
from hexwar.engine.dice import integer_weights
from hexwar.engine.framework import HIDDEN_TABLE, FrameworkHooks
from hexwar.engine.loop import sample_action
from hexwar.engine.state import State

__all__ = ["determinise", "exact_pick", "replay_hidden"]

T = TypeVar("T")

#: How many replays :func:`replay_hidden` tries before it gives up (a replay fails when
#: a recorded public action is not legal after the private choices drawn).
REPLAY_ATTEMPTS = 50


def _key(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


class OrderFreeRandom(random.Random):
    """A generator whose :meth:`shuffle` sorts the list before shuffling it: the result
    depends only on the list's items, not on their order (still uniform).

    >>> a, b = ["x", "y", "z"], ["z", "x", "y"]
    >>> OrderFreeRandom(3).shuffle(a); OrderFreeRandom(3).shuffle(b); a == b
    True
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        x[:] = sorted(x, key=_key)
        super().shuffle(x)


def exact_pick(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """One outcome drawn with exactly its probability (integer weights, one ``randrange``).

    >>> exact_pick([("a", Fraction(1))], random.Random(0))
    'a'
    """
    denominator, weights = integer_weights(outcomes)
    k = rng.randrange(denominator)
    for (item, _), w in zip(outcomes, weights, strict=True):
        if k < w:
            return item
        k -= w
    raise AssertionError("unreachable: outcomes sum to 1")  # pragma: no cover


def hides_from(state: State, side: str) -> bool:
    """Whether any entry of ``state`` is hidden from ``side``."""
    return any(owner != side for owner in state.table(HIDDEN_TABLE).values())


def determinise(state: State, side: str, rng: random.Random) -> State:
    """A state ``side`` cannot tell from ``state``, what is hidden from it drawn anew with
    ``rng`` (a clone when nothing is hidden). See the module text."""
    if not hides_from(state, side):
        return state.clone()
    ruleset = state.ruleset
    own = type(ruleset).resample_hidden is not FrameworkHooks.resample_hidden
    if own:
        drawn: State = ruleset.resample_hidden(state, side, OrderFreeRandom(rng.getrandbits(64)))
        return drawn
    return replay_hidden(state, side, rng)


def replay_hidden(state: State, side: str, rng: random.Random) -> State:
    """``state``'s game replayed from its start with the actions private to another side
    drawn anew (choices uniformly token by token, chance draws by their probabilities);
    the recorded actions of those entries are never read.

    A replay in which a recorded action is no longer legal is drawn again (up to
    :data:`REPLAY_ATTEMPTS` times, then :class:`~hexwar.base.errors.HexwarError`).
    """
    history = state.snapshot().history
    ruleset = state.ruleset
    for _ in range(REPLAY_ATTEMPTS):
        replay = ruleset.new_state(state.scenario, dict(state.options))
        for entry in history:
            if entry.private is not None and entry.private != side:
                drawn: Action
                if replay.current_player() == CHANCE:
                    drawn = exact_pick(replay.chance_outcomes(), rng)
                else:
                    drawn = sample_action(replay, rng)
                replay.apply_unchecked(drawn)
                continue
            if not replay.is_legal(entry.action):
                break
            replay.apply_unchecked(entry.action)
        else:
            if replay.current_player() == state.current_player():
                return replay
    raise HexwarError(
        f"{ruleset.name}: no replay of the history consistent with {side}'s view in "
        f"{REPLAY_ATTEMPTS} attempts"
    )
