"""The one bound of the library's caches (no imports: every layer, the engine's actions
and legality included, may use it; :mod:`hexwar.engine.memo` re-exports it).

Every cache in the core — a position's derived answers (``State.derive``, the legal
tokens), :class:`~hexwar.engine.memo.StateMemo`, the per-ruleset, per-map and per-encoder
memos of pure results, the interned cursors — keeps its entries with :func:`kept`: at
most :data:`KEPT_LIMIT`, and when full it is emptied before the next one is kept, so
memory stays bounded however long a process plays, and a cache started afresh only
recomputes. The one exception is a map's prepared move searches
(:data:`hexwar.mechanics.move_memo.SEARCH_MEMO_SIZE`): each holds arrays the size of the
map, so few are kept.
"""

from __future__ import annotations

from typing import Final, TypeVar

__all__ = ["KEPT_LIMIT", "kept"]

K = TypeVar("K")
T = TypeVar("T")

#: The most entries any cache of the core holds: an entry is asked again mostly within one
#: phase or position, so a larger bound buys no hits, only memory.
KEPT_LIMIT: Final = 1024


def kept(store: dict[K, T], key: K, value: T, size: int = KEPT_LIMIT) -> T:
    """``value`` kept in ``store`` under ``key`` and returned; ``store`` emptied first when
    it already holds ``size`` entries (:data:`KEPT_LIMIT`; a smaller ``size`` only in
    tests). The one policy of the library's caches.

    >>> store: dict[int, int] = {}
    >>> [kept(store, i, i * i, 2) for i in range(3)], store
    ([0, 1, 4], {2: 4})
    """
    if len(store) >= size:
        store.clear()
    store[key] = value
    return value
