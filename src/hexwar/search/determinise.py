"""Determinisation: a full state drawn from what one side may know (IS-MCTS).

:func:`determinise` is the search's only way to a state: it never hands the true hidden
state on. What is hidden from the side is drawn anew with the search's generator:

- by the ruleset's :meth:`~hexwar.engine.state.Ruleset.resample_hidden` when the ruleset
  declares one (the cards of «Сталинград»), through a generator whose ``shuffle`` sorts
  its list first, so the draw depends on the hidden items as a set, never on where they
  truly are (two states the side cannot tell apart give the same determinisation);
- when the last actions of the history are secret ones (each private to a side) and
  one of them is another side's choice (a hidden set-up, the secret air placements of
  «Сталинград», S10.2), they are undone on a copy first, what was hidden before them is
  resampled, then they are replayed: the side's own as recorded, each of the others
  drawn anew (a choice uniformly token by token, a draw by its probabilities); a replay
  whose observation by the side differs from the true one is drawn again (when none
  fits in :data:`REPLAY_ATTEMPTS`, a secret action revealed since, the ruleset's own
  resampling is used alone);
- a ruleset without its own resampling is replayed so from its start
  (:func:`replay_hidden`).

>>> from hexwar.engine.state import Ruleset
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> class Open(Ruleset):  # nothing hidden
...     name = "open"
...     sides = ("a",)
...     sequence = TurnSequence((Stage("s", (Phase("p", side="a"),)),), turn_limit=1)
...     def setup(self, state, scenario, options):
...         state.put("game", "n", 0)
>>> state = Open().new_state()
>>> determinise(state, "a", random.Random(1)) == state   # a clone
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
from hexwar.engine.loop import sample_action
from hexwar.engine.snapshot import HistoryEntry
from hexwar.engine.state import Ruleset, State

__all__ = ["determinise", "exact_pick", "replay_hidden"]

T = TypeVar("T")

#: How many replays :func:`determinise` tries before it gives up (a replay fails when
#: a recorded action the side saw is not legal after the hidden ones drawn).
REPLAY_ATTEMPTS = 50
#: How often one hidden action is drawn again until the next action is hidden, or not,
#: as in the game (a secret placement that ends too early).
LOCAL_TRIES = 30


def _key(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


class OrderFreeRandom(random.Random):
    """A generator whose :meth:`shuffle` sorts the list before shuffling it: the result
    depends only on the list's items, not on their order (still uniform).

    >>> a, b = ["x", "y", "z"], ["z", "x", "y"]
    >>> OrderFreeRandom(3).shuffle(a); OrderFreeRandom(3).shuffle(b); a == b
    True
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
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
    return state.hides_from(side)


def determinise(state: State, side: str, rng: random.Random) -> State:
    """A state ``side`` cannot tell from ``state``, what is hidden from it drawn anew with
    ``rng`` (a clone when nothing is hidden). See the module text."""
    if not hides_from(state, side):
        return state.clone()
    base, run = _secret_run(state, side)
    if base is not None:
        view = state.observation(side)
        for _ in range(REPLAY_ATTEMPTS):
            drawn = _redrawn(_resampled(base, side, rng), run, side, rng, state)
            if drawn is not None and drawn.observation(side) == view:
                return drawn
        if not _declares_resampling(state):
            raise _no_replay(state, side)
    return _resampled(state, side, rng)


def _declares_resampling(state: State) -> bool:
    return type(state.ruleset).resample_hidden is not Ruleset.resample_hidden


def replay_hidden(state: State, side: str, rng: random.Random) -> State:
    """``state``'s game replayed from its start with the actions hidden from ``side``
    drawn anew (see :func:`determinise`); the recorded hidden actions are never read.

    A replay that does not end in a position ``side`` sees as ``state`` is drawn again
    (up to :data:`REPLAY_ATTEMPTS` times, then :class:`~hexwar.base.errors.HexwarError`).
    """
    history = state.snapshot().history
    view = state.observation(side)
    for _ in range(REPLAY_ATTEMPTS):
        start = state.ruleset.new_state(state.scenario, dict(state.options))
        drawn = _redrawn(start, history, side, rng, state)
        if drawn is not None and drawn.observation(side) == view:
            return drawn
    raise _no_replay(state, side)


def _no_replay(state: State, side: str) -> HexwarError:
    return HexwarError(
        f"{state.ruleset.name}: no replay of the history consistent with {side}'s view in "
        f"{REPLAY_ATTEMPTS} attempts (the game should declare Ruleset.resample_hidden)"
    )


def _secret_run(state: State, side: str) -> tuple[State | None, tuple[HistoryEntry, ...]]:
    """The last actions each private to a side (choices and draws of a hand), undone on
    a copy, and those entries — when one of them is a choice of another side (``None``
    and ``()`` otherwise, or when the log cannot undo them: a state loaded from data)."""
    history = state.snapshot().history
    sides = state.ruleset.sides
    base = state.clone()
    start = len(history)
    choice = False
    while start and history[start - 1].private in sides and base.can_undo():
        base.undo()
        start -= 1
        if history[start].private != side and base.current_player() != CHANCE:
            choice = True
    if not choice or (start and history[start - 1].private in sides):
        return None, ()
    return base, history[start:]


def _resampled(state: State, side: str, rng: random.Random) -> State:
    """``state`` with what is hidden from ``side`` drawn anew: the ruleset's resampling
    (through :class:`OrderFreeRandom`), else :func:`replay_hidden`."""
    if not hides_from(state, side):
        return state.clone()
    ruleset = state.ruleset
    if _declares_resampling(state):
        drawn: State = ruleset.resample_hidden(state, side, OrderFreeRandom(rng.getrandbits(64)))
        return drawn
    return replay_hidden(state, side, rng)


def _unseen_next(state: State, side: str) -> bool:
    """Whether the next action is hidden from ``side`` (a decision or a chance draw
    private to another side)."""
    pending = state.pending
    return not state.is_terminal() and bool(pending) and pending[-1].private not in (None, side)


def _redrawn(
    state: State,
    entries: Sequence[HistoryEntry],
    side: str,
    rng: random.Random,
    target: State,
) -> State | None:
    """``state`` (changed) with ``entries`` replayed: the ones ``side`` saw applied as
    recorded, each one hidden from it replaced by a fresh draw (chance by its
    probabilities, a choice uniformly token by token) after which the next action is
    hidden, or not, as it was in the game that led to ``target`` (drawn again up to
    :data:`LOCAL_TRIES` times); ``None`` when a recorded action cannot follow."""
    n = len(entries)
    for i, entry in enumerate(entries):
        hidden_now = _unseen_next(state, side)
        if entry.private is None or entry.private == side:
            if hidden_now or not state.is_legal(entry.action):
                return None
            state.apply_unchecked(entry.action)
            continue
        if not hidden_now:
            return None
        if i + 1 < n:
            nxt = entries[i + 1].private
            hidden_next = nxt is not None and nxt != side
        else:
            hidden_next = _unseen_next(target, side)
        for _ in range(LOCAL_TRIES):
            drawn: Action
            if state.current_player() == CHANCE:
                drawn = exact_pick(state.chance_outcomes(), rng)
            else:
                drawn = sample_action(state, rng)
            state.apply_unchecked(drawn)
            if _unseen_next(state, side) == hidden_next:
                break
            state.undo()
        else:
            return None
    return state
