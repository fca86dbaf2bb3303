"""The per-cell planes of an observation (:class:`BoardPlanes`, used by
:class:`hexwar.engine.observe.Encoder`): terrain, each side's pieces by status and count,
each side's ZOC, the cells the prefix selects.

The terrain planes are the same in every observation (:attr:`BoardPlanes.static_hot`,
listed once); the pieces and ZOC planes are memoised on the tables the board declares it
reads (:attr:`~hexwar.engine.observed.Board.reads`, through
:class:`~hexwar.engine.memo.StateMemo`, so read checking covers them), else per position.
A piece costs one dict lookup (its ``(cell, side, status)`` index, kept once seen).

A board declared piece by piece (:attr:`~hexwar.engine.observed.Board.piece`) is not
listed anew when its tables change: each observer's planes keep, per piece id, its
indices and ZOC cells, the counts per index, and a copy of the ``keyed`` tables (and of
the hidden-entry tables) they were built from. A new position is compared with those
copies entry by entry (the tables whose versions differ only), and only the pieces whose
entries changed are asked again. The comparison is with the tables' contents, not the
engine's journal, so it is exact whatever wrote them (an action, an undo, a set-up, a
resampling, a test's ``put``) and for any state (a clone, another line of play). Under
read checking each such result is compared with the planes listed anew. The patch notes
which indices went and came (a count fell to or rose from zero), kept with the planes
it gave and the planes it started from (:meth:`BoardPlanes.change`, on their identity),
so a dense copy of the planes before writes only those.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import compress, repeat
from operator import is_not
from typing import TYPE_CHECKING, Any, Final

from hexwar.base.errors import HexwarError, StaleMemo
from hexwar.engine.memo import KEPT_LIMIT, StateMemo, checking, kept
from hexwar.engine.observed import Board, Observed
from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE

if TYPE_CHECKING:
    from hexwar.engine.state import State

__all__ = ["BoardPlanes"]

_MISSING: Final[Any] = object()
#: A table as :class:`_Track` keeps it: its keys and its values, in the table's order.
_Copy = tuple[tuple[str, ...], tuple[Any, ...]]
_NONE: Final[_Copy] = ((), ())  # an empty table's copy


class _Track:
    """One observer's planes of a board declared piece by piece, and what they were
    built from (see the module text)."""

    __slots__ = ("counts", "entries", "hot", "last", "tables", "versions", "zoc_counts", "zocs")

    def __init__(self, zoc_planes: int) -> None:
        #: table -> a copy of it (:data:`_Copy`) and its version, as last compared
        self.tables: dict[str, _Copy] = {}
        self.versions: dict[str, int] = {}
        #: piece id -> its indices in the first count level's planes (``-1``s dropped)
        self.entries: dict[str, tuple[int, ...]] = {}
        #: piece id -> (its ZOC plane's number, the indices of its ZOC cells)
        self.zocs: dict[str, tuple[int, tuple[int, ...]]] = {}
        self.counts: dict[int, int] = {}  # index -> pieces there
        self.zoc_counts: list[dict[int, int]] = [{} for _ in range(zoc_planes)]
        self.hot: list[tuple[int, ...]] = [() for _ in range(1 + zoc_planes)]
        #: the planes last handed out (the ``hot`` parts, in one tuple)
        self.last: tuple[tuple[int, ...], ...] | None = None


def _changed_keys(old: _Copy, now: Mapping[str, Any]) -> tuple[list[str], _Copy]:
    """The keys whose entry differs between the copy ``old`` and the table ``now``, and a
    copy of ``now``. An entry is compared by identity (values are immutable, so an
    unchanged one is the same object); while the keys are the same in the same order
    (an entry rewritten) the values are compared in place, in C, with no dict built."""
    keys, values = tuple(now), tuple(now.values())
    old_keys, old_values = old
    if keys == old_keys:
        return list(compress(keys, map(is_not, values, old_values))), (keys, values)
    was = dict(zip(old_keys, old_values, strict=True))
    changed = list(compress(keys, map(is_not, values, map(was.get, keys, repeat(_MISSING)))))
    if len(keys) - sum(1 for k in changed if k not in was) != len(was):  # some went
        changed += [k for k in old_keys if k not in now]
    return changed, (keys, values)


def _resorted(
    was: tuple[int, ...], went: list[int], came: list[int], now: Mapping[int, int]
) -> tuple[int, ...]:
    """The ascending keys of ``now``, from ``was`` (its keys before) with ``went`` taken
    out and ``came`` put in where they are (``went``: indices ``now`` lacks, ``came``:
    indices it holds; either may repeat or name one ``was`` already lacks or holds): a
    few binary searches instead of sorting the whole plane; sorted anew when many
    changed."""
    if 4 * (len(went) + len(came)) > len(was):
        return tuple(sorted(now))
    out = list(was)
    for at in went:
        i = bisect_left(out, at)
        if i < len(out) and out[i] == at:
            del out[i]
    for at in came:
        i = bisect_left(out, at)
        if i == len(out) or out[i] != at:
            out.insert(i, at)
    return tuple(out)


class BoardPlanes:
    """The planes of ``board`` for a game of ``sides``, the first at index ``base`` of
    the observation: one per terrain name (sorted), one per (side, status, count level),
    one ZOC plane per side (if ``board.zoc``), and ``selected``."""

    def __init__(self, board: Board, sides: Sequence[str], base: int) -> None:
        self.board = board
        n = self.cells = len(board.cells)
        self.terrains = tuple(sorted(set(board.terrain)))
        self.cell_index = {c: i for i, c in enumerate(board.cells)}
        n_status, depth = len(board.statuses), board.depth
        self.planes = (
            len(self.terrains)
            + len(sides) * n_status * depth
            + (len(sides) if board.zoc is not None else 0)
            + 1
        )
        self.size = self.planes * n
        t_index = {t: i for i, t in enumerate(self.terrains)}
        #: the ones every observation has (the terrain planes), ascending
        self.static_hot = tuple(base + t_index[t] * n + i for i, t in enumerate(board.terrain))
        first_piece = base + len(self.terrains) * n
        #: (side, status) -> the first index of its first count level's plane
        self._plane_at = {
            (side, status): first_piece + (s * n_status + k) * depth * n
            for s, side in enumerate(sides)
            for k, status in enumerate(board.statuses)
        }
        zoc_base = first_piece + len(sides) * n_status * depth * n
        self._zoc_at = tuple((side, zoc_base + s * n) for s, side in enumerate(sides))
        self._zoc_cache: dict[tuple[int, frozenset[str]], tuple[int, ...]] = {}
        self._zoc_slot = {side: (s, base) for s, (side, base) in enumerate(self._zoc_at)}
        self._tracks: dict[str, _Track] = {}  # observer -> its planes, piece by piece
        #: id(planes) -> (the planes, those patched into them, the indices gone, come)
        self._changes: dict[int, tuple[Any, Any, list[int], list[int]]] = {}
        #: (ZOC plane's number, a piece's ZOC labels) -> (the number, their indices)
        self._zoc_cells: dict[tuple[int, tuple[str, ...]], tuple[int, tuple[int, ...]]] = {}
        #: (label, side, status) -> its index in the first count level's plane
        self._index: dict[tuple[str, str, str], int] = {}
        self._index_limit = n * len(self._plane_at)
        self.selected_base = base + (self.planes - 1) * n
        self.hot = self._memo()

    def _memo(self) -> Callable[[State, str], tuple[tuple[int, ...], ...]]:
        """The pieces and ZOC planes of ``(state, side)``, memoised (see the module text)."""
        compute = self._now if self.board.piece is None else self._patched
        if self.board.reads is None:
            cache: dict[tuple[int, str], tuple[tuple[int, ...], ...]] = {}

            def per_position(state: State, side: str) -> tuple[tuple[int, ...], ...]:
                key = (state.version, side)
                found = cache.get(key)
                if found is None:
                    found = kept(cache, key, compute(state, side))
                return found

            return per_position
        reads = (*self.board.reads, _HIDDEN_TABLE, _HIDDEN_KEYS_TABLE)
        return StateMemo(reads, compute)

    def _now(self, state: State, side: str) -> tuple[tuple[int, ...], ...]:
        """The ones of the pieces planes, then of each side's ZOC plane (computed)."""
        board = self.board
        view = Observed.of(state, side)
        index, index_of = self._index, self._index_of
        depth, n = board.depth, self.cells
        pieces = board.pieces
        assert pieces is not None  # given, or derived from ``piece``
        if depth == 1:  # a set of indices; -1: off the board (a pool, a box)
            ones = {index[p] if p in index else index_of(p) for p in pieces(view)}
            ones.discard(-1)
            hot = sorted(ones)
        else:
            counts: dict[int, int] = {}  # (side, status) plane's index + cell -> pieces
            for piece in pieces(view):
                at = index[piece] if piece in index else index_of(piece)
                if at >= 0:
                    counts[at] = counts.get(at, 0) + 1
            hot = sorted(at + k * n for at, c in counts.items() for k in range(min(c, depth)))
        if board.zoc is None:
            return (tuple(hot),)
        zoc = board.zoc
        return (tuple(hot), *[self._zoc_plane(base, zoc(view, s)) for s, base in self._zoc_at])

    def _patched(self, state: State, side: str) -> tuple[tuple[int, ...], ...]:
        """:meth:`_now` of a board declared piece by piece, from the observer's last
        planes and the entries changed since (see the module text)."""
        track = self._tracks.get(side)
        if track is None:
            track = self._tracks[side] = _Track(len(self._zoc_at) if self.board.piece_zoc else 0)
        try:
            found = self._patch(state, side, track)
        except BaseException:
            del self._tracks[side]  # half patched: build anew next time
            raise
        if checking() and found != (fresh := self._now(state, side)):
            raise StaleMemo(f"board planes of {side!r}: patched {found} but listed {fresh}")
        return found

    def _changed(self, state: State, track: _Track) -> set[str]:
        """The piece ids whose entries in the ``keyed`` tables (or whose hidden-entry
        marks) changed since ``track`` was built; ``track`` then holds the tables now."""
        keyed = self.board.keyed
        ids: set[str] = set()
        names, versions = (*keyed, _HIDDEN_TABLE, _HIDDEN_KEYS_TABLE), track.versions
        for name, version in zip(names, state.table_versions(names), strict=True):
            if versions.get(name) == version:
                continue
            now = state.table(name)
            keys, track.tables[name] = _changed_keys(track.tables.get(name, _NONE), now)
            track.versions[name] = version
            if name in keyed:
                ids.update(keys)
                continue
            for ref in keys:  # "table/key": the piece ``key`` if ``table`` is keyed
                for table in keyed:
                    if ref.startswith(table) and ref[len(table) : len(table) + 1] == "/":
                        ids.add(ref[len(table) + 1 :])
        return ids

    def _patch(self, state: State, side: str, track: _Track) -> tuple[tuple[int, ...], ...]:
        """Bring ``track`` to ``state`` (the changed pieces asked again); its planes."""
        board, changed, last = self.board, self._changed(state, track), track.last
        if not changed and last is not None:  # (only other entries hidden or shown)
            return last  # the same planes, the same tuple: a dense copy writes nothing
        view, piece, piece_zoc = Observed.of(state, side), board.piece, board.piece_zoc
        assert piece is not None
        index, index_of, entries = self._index, self._index_of, track.entries
        #: plane (-1: the pieces planes, s >= 0: side s's ZOC plane) -> the indices whose
        #: count fell to 0, and those whose count rose from 0
        moved: dict[int, tuple[list[int], list[int]]] = {}
        for i in changed:
            new = tuple(
                at for p in piece(view, i) if (at := index[p] if p in index else index_of(p)) >= 0
            )
            old = entries.get(i, ())
            if new != old:
                counts = track.counts
                went, came = moved.get(-1) or moved.setdefault(-1, ([], []))
                for at in old:  # _count, inline: most pieces hold one index
                    c = counts[at] - 1
                    if c:
                        counts[at] = c
                    else:
                        del counts[at]
                        went.append(at)
                for at in new:
                    c = counts.get(at, 0)
                    if not c:
                        came.append(at)
                    counts[at] = c + 1
                if new:
                    entries[i] = new
                else:
                    del entries[i]
            if piece_zoc is not None:
                self._patch_zoc(track, i, piece_zoc(view, i), moved)
        hot, moves = track.hot, self._replan(track, moved)
        if board.zoc is not None and piece_zoc is None:  # a whole-view ZOC
            return (hot[0], *[self._zoc_plane(b, board.zoc(view, s)) for s, b in self._zoc_at])
        planes = tuple(hot)
        if last is not None and moves is not None:
            kept(self._changes, id(planes), (planes, last, *moves))
        track.last = planes
        return planes

    def _replan(
        self, track: _Track, moved: dict[int, tuple[list[int], list[int]]]
    ) -> tuple[list[int], list[int]] | None:
        """The planes of ``track`` that ``moved`` names, anew; the indices that went and
        came over all of them (``None`` when count levels moved: not listed)."""
        hot = track.hot
        gone: list[int] | None = []
        come: list[int] = []
        for d, (went, came) in moved.items():
            counts = track.zoc_counts[d] if d >= 0 else track.counts
            if d < 0 and self.board.depth > 1:
                depth, n = self.board.depth, self.cells
                each = counts.items()
                hot[0] = tuple(sorted(at + k * n for at, c in each for k in range(min(c, depth))))
                gone = None
                continue
            plane = 1 + d if d >= 0 else 0
            # a count may fall to 0 and rise again (or rise and fall): net, then merged
            went = [at for at in went if at not in counts]
            came = [at for at in came if at in counts]
            hot[plane] = _resorted(hot[plane], went, came, counts)
            if gone is not None:
                gone += went
                come += came
        return None if gone is None else (gone, come)

    def change(
        self, was: tuple[tuple[int, ...], ...], now: tuple[tuple[int, ...], ...]
    ) -> tuple[list[int], list[int]] | None:
        """The indices that are one in planes ``was`` but not in ``now`` and those one in
        ``now`` but not in ``was`` (both handed out by :attr:`hot`), when ``now`` was
        patched from ``was`` (kept, on the tuples' identity), else ``None``: what a dense
        copy of ``was`` writes to become ``now``. Never change the lists."""
        found = self._changes.get(id(now))
        if found is None or found[0] is not now or found[1] is not was:
            return None
        return found[2], found[3]

    def _patch_zoc(
        self,
        track: _Track,
        piece: str,
        found: tuple[str, Iterable[str]] | None,
        moved: dict[int, tuple[list[int], list[int]]],
    ) -> None:
        """Put ``piece``'s ZOC ``found`` (``(side, labels)`` or ``None``) in ``track``, the
        indices whose count fell to 0 or rose from 0 in ``moved`` (see :meth:`_patch`)."""
        slot = None if found is None else self._zoc_slot.get(found[0])
        zoc = None
        if slot is not None:
            assert found is not None
            labels = found[1]
            key = (slot[0], labels) if type(labels) is tuple else None
            zoc = None if key is None else self._zoc_cells.get(key)
            if zoc is None:
                cells = self.cell_index
                zoc = slot[0], tuple(sorted({slot[1] + cells[c] for c in labels if c in cells}))
                if key is not None and len(self._zoc_cells) < KEPT_LIMIT:
                    self._zoc_cells[key] = zoc
        was = track.zocs.get(piece)
        if zoc == was:
            return
        if was is not None:
            counts = track.zoc_counts[was[0]]
            went = (moved.get(was[0]) or moved.setdefault(was[0], ([], [])))[0]
            for at in was[1]:
                c = counts[at] - 1
                if c:
                    counts[at] = c
                else:
                    del counts[at]
                    went.append(at)
        if zoc is None:
            del track.zocs[piece]
        else:
            track.zocs[piece] = zoc
            counts = track.zoc_counts[zoc[0]]
            came = (moved.get(zoc[0]) or moved.setdefault(zoc[0], ([], [])))[1]
            for at in zoc[1]:
                c = counts.get(at, 0)
                if not c:
                    came.append(at)
                counts[at] = c + 1

    def _index_of(self, piece: tuple[str, str, str]) -> int:
        """The index of a ``(label, side, status)`` piece in its plane's first count
        level (kept), ``-1`` off the board."""
        label, owner, status = piece
        i = self.cell_index.get(label)
        at = self._plane_at.get((owner, status))
        if at is None and i is not None:
            raise HexwarError(
                f"board: piece of side {owner!r} with status {status!r} is not declared"
            )
        found = -1 if i is None or at is None else at + i
        if len(self._index) < self._index_limit:
            self._index[piece] = found
        return found

    def _zoc_plane(self, base: int, labels: Iterable[str]) -> tuple[int, ...]:
        """The ones of a ZOC plane starting at ``base`` (kept per frozenset of labels)."""
        key = (base, labels) if isinstance(labels, frozenset) else None
        found = None if key is None else self._zoc_cache.get(key)
        if found is None:
            cells = self.cell_index
            found = tuple(sorted([base + cells[lab] for lab in labels if lab in cells]))
            if key is not None:
                kept(self._zoc_cache, key, found)
        return found

    def selected(self, state: State, side: str, prefix: Sequence[str]) -> list[int]:
        """The ``selected`` plane: cells the prefix names or where a piece it names is."""
        board = self.board
        cells = self.cell_index
        marked = {cells[t] for t in prefix[1:] if t in cells}
        if board.pieces_named is not None:
            view = Observed.of(state, side)
            for t in prefix[1:]:
                where = board.pieces_named(view, t)
                if where is not None and where in cells:
                    marked.add(cells[where])
        base = self.selected_base
        return [base + i for i in sorted(marked)]
