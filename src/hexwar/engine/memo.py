"""Memoising a costly function of the state on the versions of the tables it reads.

Legal-action generation is asked for the same position several times per step (the idle
test, the legal tokens, "is this action legal?") and for positions that differ only in
tables it does not read (a move list does not change when a card is played). A
:class:`StateMemo` wraps ``compute(state, *args)`` that reads only the tables it
*declares* (and its arguments), and caches each result keyed by the arguments and those
tables' :meth:`~hexwar.engine.state.State.table_version` numbers — so a repeated call costs one
key of a few integers, and the result is exact: a version changes with every write to
its table (pseudo-tables ``$cursor``, ``$pending``, ``$effects``, ``$outcome`` cover the
sequencer cursor, the pending decisions, the active effects and the outcome; ``$turn``
the cursor's turn alone, which ``$cursor`` covers too).

It is only correct if ``compute`` reads nothing else. :func:`read_checking` (the
verification kit turns it on) makes every memo recompute each call, records what the
computation reads through :class:`~hexwar.engine.state.State`'s reading API, and raises
:class:`UndeclaredRead` for a table it did not declare, or :class:`StaleMemo` when a
cached result differs from a fresh one. The cache is bounded as every cache of the core
(:func:`kept`): at most :data:`KEPT_LIMIT` entries, emptied when full.

>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> calls = []
>>> @state_memo(reads=("units",))
... def count(state, side):
...     calls.append(side)
...     return len(state.table("units"))
>>> state = Game().new_state()
>>> count(state, "red"), count(state, "red"), calls
(0, 0, ['red'])
>>> state.put("cards", "x", 1)             # a table it does not read: still cached
>>> count(state, "red"), calls
(0, ['red'])
>>> state.put("units", "a", 1)
>>> count(state, "red"), count(state, "blue"), calls
(1, 1, ['red', 'red', 'blue'])

A function that reads a table it does not declare is caught in checking mode:

>>> @state_memo(reads=("units",))
... def weighed(state):
...     return len(state.table("units")) * (state.get("weather", "now") or 1)
>>> with read_checking():
...     weighed(state)
Traceback (most recent call last):
...
hexwar.base.errors.UndeclaredRead: memo weighed read ['weather'] but declares only ('units',)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final, Generic, TypeVar

import attrs

from hexwar.base.errors import HexwarError, StaleMemo, UndeclaredRead
from hexwar.base.kept import KEPT_LIMIT, kept
from hexwar.engine.state import State

__all__ = ["KEPT_LIMIT", "StateMemo", "kept", "read_checking", "state_memo"]

T = TypeVar("T")

#: What a memo can never declare: these change with every position, not per table.
_UNTRACKED: Final = frozenset({"$version", "$history"})
_MISSING: Final = object()


# -- checking mode -------------------------------------------------------------------------

#: One set per memoised computation running in checking mode (nested ones too).
_RECORDERS: list[set[str]] = []
_CHECKING: list[None] = []  # one entry per read_checking() entered


def checking() -> bool:
    """Whether :func:`read_checking` is on."""
    return bool(_CHECKING)


def _note(*names: str) -> None:
    for found in _RECORDERS:
        found.update(names)


class _Reading(State):
    """The one seam of read checking: while a memoised computation runs in checking mode,
    its state is a ``_Reading`` state (the same object, its class swapped for the run), whose
    reading API notes what it reads — a table by name, the rest as the pseudo-tables of
    :data:`_NOTES` — and which keeps nothing per position (``derive`` computes afresh, so
    every read is seen). :class:`State` itself is never changed."""

    __slots__ = ()

    def get(self, table: str, key: str, default: Any = None) -> Any:
        _note(table)
        return State.get(self, table, key, default)

    def table(self, name: str) -> Any:
        _note(name)
        return State.table(self, name)

    def derive(self, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
        return compute(*args)


#: The rest of State's reading API and the pseudo-tables each reads (``$version``: the
#: whole position; the cursor's phase is kept per cursor object, so the player reads it).
_NOTES: Final = {
    "hook": ("$effects",),
    "current_player": ("$outcome", "$pending", "$cursor"),
    "cursor": ("$cursor",),
    "current_phase": ("$cursor",),
    "phase": ("$cursor",),
    "turn": ("$turn",),  # (declaring $cursor covers it)
    "token": ("$cursor",),
    "pending": ("$pending",),
    "effects": ("$effects",),
    "outcome": ("$outcome",),
    "version": ("$version",),
    "history": ("$history",),
    "legal_actions": ("$version",),
    "legal_tokens": ("$version",),
    "is_legal": ("$version",),
    "to_data": ("$version",),
    "observation": ("$version",),
}


def _noting(reader: Any, names: tuple[str, ...]) -> Any:
    """``reader`` (a method or property of State) noting reads of ``names`` first."""
    if isinstance(reader, property):
        fget = reader.fget
        assert fget is not None

        def read(self: State) -> Any:
            _note(*names)
            return fget(self)

        return property(read, doc=reader.__doc__)

    def call(self: State, *args: Any, **kwargs: Any) -> Any:
        _note(*names)
        return reader(self, *args, **kwargs)

    return call


for _name, _names in _NOTES.items():
    setattr(_Reading, _name, _noting(inspect.getattr_static(State, _name), _names))


@contextmanager
def _reading(state: State) -> Iterator[None]:
    """``state`` a :class:`_Reading` state for the block (nested: already one)."""
    before = state.__class__
    state.__class__ = _Reading
    try:
        yield
    finally:
        state.__class__ = before


@contextmanager
def read_checking() -> Iterator[None]:
    """Checking mode: every :class:`StateMemo` call recomputes, fails with
    :class:`UndeclaredRead` if the computation reads (through ``State.get``, ``table``,
    ``hook``, the cursor, pending decisions, effects or outcome) a table it does not
    declare, and with :class:`StaleMemo` if the cached result differs. Costly; for tests.
    Inside a memoised computation ``State.derive`` caches nothing. Nests; changes no class
    (a computation's own state reads through :class:`_Reading` while it runs).
    """
    _CHECKING.append(None)
    try:
        yield
    finally:
        _CHECKING.pop()


# -- the memo ---------------------------------------------------------------------------------


def _reads(value: str | Iterable[str]) -> tuple[str, ...]:
    reads = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(r, str) for r in reads):
        raise HexwarError(f"memo reads must be table names: {reads!r}")
    bad = sorted(set(reads) & _UNTRACKED)
    if bad:
        raise HexwarError(f"a memo cannot declare {bad}: they change with every position")
    return reads


@attrs.frozen(eq=False)
class StateMemo(Generic[T]):
    """``compute(state, *args)`` cached on ``args`` and the versions of the tables it
    ``reads`` (pseudo-tables ``$cursor``, ``$pending``, ``$effects``, ``$outcome``,
    ``$turn`` included); at most ``size`` entries (:data:`KEPT_LIMIT`; a smaller one
    only in tests), emptied when full (:func:`kept`).

    Exact across clones (a clone starts with its original's versions) and for positions
    reached again only by the same line of play: an undo gives the tables it touches
    new numbers, so it misses (and recomputes) rather than return a stale result.
    """

    reads: tuple[str, ...] = attrs.field(converter=_reads)
    compute: Callable[..., T]
    size: int = KEPT_LIMIT
    _store: dict[tuple[Any, ...], T] = attrs.field(factory=dict, init=False, repr=False)

    @property
    def name(self) -> str:
        """The computation's name (for messages)."""
        return getattr(self.compute, "__qualname__", repr(self.compute))

    def __call__(self, state: State, *args: Hashable) -> T:
        key = (args, state.table_versions(self.reads))
        if _CHECKING:
            return self._checked(state, args, key)
        store = self._store
        found = store.get(key, _MISSING)
        if found is _MISSING:
            found = kept(store, key, self.compute(state, *args), self.size)
        return found  # type: ignore[return-value]

    def _checked(self, state: State, args: tuple[Any, ...], key: tuple[Any, ...]) -> T:
        seen: set[str] = set()
        _RECORDERS.append(seen)
        try:
            with _reading(state):
                fresh = self.compute(state, *args)
        finally:
            _RECORDERS.pop()
        _note(*seen)  # an enclosing memo read them too
        extra = seen.difference(self.reads)
        if "$cursor" in self.reads:
            extra.discard("$turn")  # the turn is a part of the cursor
        if extra:
            raise UndeclaredRead(
                f"memo {self.name} read {sorted(extra)} but declares only {self.reads}"
            )
        cached = self._store.get(key, _MISSING)
        if cached is not _MISSING and cached != fresh:
            raise StaleMemo(f"memo {self.name}{args}: cached {cached!r} but now {fresh!r}")
        if cached is _MISSING:
            kept(self._store, key, fresh, self.size)
        return fresh

    def __len__(self) -> int:
        return len(self._store)

    def clear(self) -> None:
        """Forget every cached result."""
        self._store.clear()


def state_memo(
    reads: tuple[str, ...] | str, *, size: int = KEPT_LIMIT
) -> Callable[[Callable[..., T]], StateMemo[T]]:
    """Decorator form of :class:`StateMemo`: ``@state_memo(reads=("at", "units"))``."""

    def wrap(compute: Callable[..., T]) -> StateMemo[T]:
        return StateMemo(reads, compute, size)

    return wrap
