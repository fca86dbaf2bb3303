"""The one bound of the library's memos of pure results (no imports: every layer, the
engine's actions and legality included, may use it; :mod:`hexwar.engine.memo` re-exports
it)."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["kept"]

K = TypeVar("K")
T = TypeVar("T")


def kept(store: dict[K, T], key: K, value: T, size: int) -> T:
    """``value`` kept in ``store`` under ``key`` and returned; ``store`` emptied first when
    it already holds ``size`` entries. The one bound of the library's memos of pure results
    (of immutable data, or keyed by something exact): memory stays bounded however long a
    process plays, and a memo started afresh only recomputes.

    >>> store: dict[int, int] = {}
    >>> [kept(store, i, i * i, 2) for i in range(3)], store
    ([0, 1, 4], {2: 4})
    """
    if len(store) >= size:
        store.clear()
    store[key] = value
    return value
