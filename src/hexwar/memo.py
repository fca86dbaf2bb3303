"""Memoising a costly function of the state on the tables it reads.

Legal-action generation is asked for the same position several times per step (the
legal list, "may the phase end?", "is this action legal?"). A :class:`TableMemo` wraps
a function ``compute(state, *args)`` that reads only the named state ``tables`` (and its
arguments) and caches its results keyed on those tables' contents, so a repeated call
on an unchanged position — in this state, an undo, or a clone — costs one key build.

It is only correct if ``compute`` reads nothing else (no turn, cursor or other table):
list every table it reads. The cache is bounded: it is emptied when it reaches ``size``.
When any change of the position should count, :attr:`~hexwar.state.State.version` is a
cheaper exact key (it does not build a key from table contents, but hits only for the
same position of the same line of play).

>>> from hexwar.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.state import Ruleset
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> calls = []
>>> def count(state, side):
...     calls.append(side)
...     return len(state.table("units"))
>>> memo = TableMemo(("units",), count)
>>> state = Game().new_state()
>>> memo(state, "red"), memo(state, "red"), calls
(0, 0, ['red'])
>>> state.put("units", "a", 1)
>>> memo(state, "red"), memo(state, "blue"), calls
(1, 1, ['red', 'red', 'blue'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import attrs

from hexwar.state import State

__all__ = ["TableMemo"]

T = TypeVar("T")


@attrs.frozen(eq=False)
class TableMemo(Generic[T]):
    """``compute(state, *args)`` cached on ``args`` and the contents of ``tables``."""

    tables: tuple[str, ...]
    compute: Callable[..., T]
    size: int = 256
    _store: dict[tuple[Any, ...], T] = attrs.field(factory=dict, init=False, repr=False)

    def __call__(self, state: State, *args: Hashable) -> T:
        key = (args, *(tuple(sorted(state.table(t).items())) for t in self.tables))
        if key not in self._store:
            if len(self._store) >= self.size:
                self._store.clear()
            self._store[key] = self.compute(state, *args)
        return self._store[key]

    def clear(self) -> None:
        """Forget every cached result."""
        self._store.clear()
