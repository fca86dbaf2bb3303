"""Observation tensors: a fixed-size encoding of what one side may see, for any game.

An :class:`Encoder` turns a state, an observer and the tokens chosen so far for the
action being built (the *prefix*) into the indices of the ones of a flat 0/1 vector of
fixed size (:attr:`Encoder.size`; named sections in :attr:`Encoder.sections`). Every
game gets the generic sections from its ruleset alone:

- ``observer`` / ``to_act``: the observing seat, the acting seat (or chance, or the end);
- ``turn`` (one-hot up to the turn limit, else 16 bits), ``phase`` (one-hot over the
  sequence's stage/phase slots), ``decision`` (a decision is pending; the observer's own);
- ``prefix_kind``, ``prefix_first``, ``prefix_rest`` (one-hot, one-hot, many-hot over the
  action space's token ids), ``prefix_length``;
- ``legal``: the legal next tokens, shown only to the seat that acts.

A game adds its board and extras by declaring an :class:`ObservationView`
(:meth:`hexwar.engine.state.Ruleset.observation_view`): a :class:`Board` (cells, their
terrain, where each side's pieces stand and in what state, zones of control) gives
per-cell planes ``board``; each :class:`Feature` a section of its own (a hand of cards, the
weather). Board and features read the state only through an :class:`Observed` view,
which masks what the observer may not see (:meth:`hexwar.engine.state.State.hide`), so a
declared view cannot leak a hidden value by mistake.

>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.space import ActionSpace
>>> from hexwar.engine.state import Ruleset
>>> class Hidden(Ruleset):
...     name = "hidden"
...     sides = ("a", "b")
...     sequence = TurnSequence((Stage("s", (Phase("p", side="a"),)),), turn_limit=2)
...     def action_space(self):
...         return ActionSpace.of(["end"])
...     def setup(self, state, scenario, options):
...         state.put("hand", "a", ("ace",))
...         state.hide("hand", "a", "a")
...     def observation_view(self):
...         def held(view):  # 1 if the observer's own hand holds the ace
...             return [0] if "ace" in (view.get("hand", view.side) or ()) else []
...         return ObservationView(features=(Feature("ace", 1, held),))
>>> state = Hidden().new_state()
>>> enc = Encoder(state.ruleset)
>>> enc.section("ace")
(30, 1)
>>> 30 in enc.encode(state, "a"), 30 in enc.encode(state, "b")
(True, False)
>>> Observed(state, "b").get("hand", "a")
'?'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from hexwar.base.errors import HexwarError

if TYPE_CHECKING:
    from hexwar.engine.actions import Value
    from hexwar.engine.state import Ruleset, State

__all__ = ["Board", "Encoder", "Feature", "ObservationView", "Observed"]

#: Bits of the ``turn`` section when the sequence has no turn limit.
_TURN_BITS: Final = 16
#: Prefix lengths the ``prefix_length`` section tells apart (longer ones share the last).
_PREFIX_LENGTHS: Final = 8
#: Board encodings kept per encoder (by position version and observer).
_CACHE_LIMIT: Final = 512
#: ``to_act`` slots after the seats.
CHANCE_SLOT: Final = 0
TERMINAL_SLOT: Final = 1


class Observed:
    """Read-only reads of ``state`` as ``side`` sees it: a value hidden from ``side``
    reads as :data:`hexwar.engine.state.HIDDEN`, an entry whose key is secret is absent."""

    __slots__ = ("_hidden", "_keys", "side", "state")

    def __init__(self, state: State, side: str) -> None:
        from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE

        self.state = state
        self.side = side
        self._hidden = state.table(_HIDDEN_TABLE)
        self._keys = state.table(_HIDDEN_KEYS_TABLE)

    def get(self, table: str, key: str, default: Value = None) -> Value:
        """``table[key]`` as the observer sees it (``default`` if absent or secret)."""
        from hexwar.engine.state import HIDDEN

        if self._hidden:
            ref = f"{table}/{key}"
            if self._keys.get(ref, self.side) != self.side:
                return default
            if self._hidden.get(ref, self.side) != self.side:
                return HIDDEN if key in self.state.table(table) else default
        return self.state.get(table, key, default)

    def table(self, name: str) -> Mapping[str, Value]:
        """The entries of table ``name`` the observer sees (hidden values masked)."""
        t = self.state.table(name)
        if not self._hidden:
            return t
        return {key: v for key in t if (v := self.get(name, key, _ABSENT)) is not _ABSENT}

    @property
    def turn(self) -> int:
        """The turn number (public)."""
        return self.state.turn


_ABSENT: Final[Any] = object()


@attrs.frozen
class Board:
    """Per-cell planes of a game board.

    ``cells``: the cells' labels in plane order; ``terrain``: each cell's terrain name
    (same order); ``pieces(view)`` yields ``(cell label, side, status)`` for each piece the
    observer sees on the board (``status`` among ``statuses``: a step state, a facing...);
    ``depth``: how many pieces of one side and status per cell the planes count (``>= 1``,
    ``>= 2``, ...); ``zoc(view, side)``: the labels of the cells in ``side``'s zone of
    control (``None``: no ZOC planes). :func:`hexwar.board.planes.board_of_map` builds one
    from a :class:`~hexwar.board.maps.GameMap`.

    Planes, in order: one per terrain name (sorted), one per (side, status, count level),
    one ZOC plane per side, and ``selected`` (cells named by the prefix, or holding a piece
    it names: ``pieces_named``).
    """

    cells: tuple[str, ...]
    terrain: tuple[str, ...]
    pieces: Callable[[Observed], Iterable[tuple[str, str, str]]]
    statuses: tuple[str, ...] = ("",)
    depth: int = 1
    zoc: Callable[[Observed, str], Iterable[str]] | None = None
    #: piece id -> its cell label as the observer sees it (for the ``selected`` plane)
    pieces_named: Callable[[Observed, str], str | None] | None = None

    def __attrs_post_init__(self) -> None:
        if len(self.terrain) != len(self.cells):
            raise HexwarError(f"board: {len(self.cells)} cells but {len(self.terrain)} terrains")
        if len(set(self.cells)) != len(self.cells):
            raise HexwarError("board: cell labels repeat")
        if self.depth < 1 or not self.statuses:
            raise HexwarError("board: depth >= 1 and at least one status")


@attrs.frozen
class Feature:
    """A game-specific section of ``size`` bits: ``hot(view)`` gives the indices (0 ..
    size - 1) that are one for the observer (``view.side``)."""

    name: str
    size: int
    hot: Callable[[Observed], Iterable[int]]


@attrs.frozen
class ObservationView:
    """What a game adds to the generic sections: its :class:`Board` and its features."""

    board: Board | None = None
    features: tuple[Feature, ...] = ()


def _phase_slots(ruleset: Ruleset) -> dict[tuple[int, int], int]:
    slots: dict[tuple[int, int], int] = {}
    for i, stage in enumerate(ruleset.sequence.stages):
        slots[(i, -1)] = len(slots)
        for j, _ in enumerate(stage.phases):
            slots[(i, j)] = len(slots)
    return slots


class Encoder:
    """The observation encoding of one ruleset (see the module text)."""

    def __init__(self, ruleset: Ruleset, view: ObservationView | None = None) -> None:
        self.ruleset = ruleset
        self.view = view or ruleset.observation_view() or ObservationView()
        space = ruleset.space
        self._ids = space._ids
        n = space.size
        self.seats = tuple(s.name for s in ruleset.seats())
        self._sides = tuple(ruleset.sides)
        limit = ruleset.sequence.turn_limit
        self._turns = None if limit is None else limit + 1
        self._slots = _phase_slots(ruleset)
        sections: list[tuple[str, int]] = [
            ("observer", len(self.seats)),
            ("to_act", len(self.seats) + 2),
            ("turn", _TURN_BITS if self._turns is None else self._turns),
            ("phase", len(self._slots) + 1),
            ("decision", 2),
            ("prefix_kind", n),
            ("prefix_first", n),
            ("prefix_rest", n),
            ("prefix_length", _PREFIX_LENGTHS),
            ("legal", n),
        ]
        board = self.view.board
        self._board_shape: tuple[int, int] | None = None
        if board is not None:
            self._terrains = tuple(sorted(set(board.terrain)))
            self._cell_index = {c: i for i, c in enumerate(board.cells)}
            self._status_index = {s: i for i, s in enumerate(board.statuses)}
            self._side_index = {s: i for i, s in enumerate(self._sides)}
            planes = (
                len(self._terrains)
                + len(self._sides) * len(board.statuses) * board.depth
                + (len(self._sides) if board.zoc is not None else 0)
                + 1
            )
            self._board_shape = (planes, len(board.cells))
            sections.append(("board", planes * len(board.cells)))
        names = {name for name, _ in sections}
        for f in self.view.features:
            if f.name in names or f.size < 0:
                raise HexwarError(f"observation feature {f.name!r}: name taken or negative size")
            names.add(f.name)
            sections.append((f.name, f.size))
        offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in sections:
            offsets[name] = (at, size)
            at += size
        self.sections: Mapping[str, tuple[int, int]] = offsets
        self.size = at
        self._terrain_hot: tuple[int, ...] = ()
        if board is not None:
            base = offsets["board"][0]
            c = len(board.cells)
            t_index = {t: i for i, t in enumerate(self._terrains)}
            self._terrain_hot = tuple(
                base + t_index[t] * c + i for i, t in enumerate(board.terrain)
            )
        self._cache: dict[tuple[int, str], tuple[int, ...]] = {}

    def section(self, name: str) -> tuple[int, int]:
        """``(offset, size)`` of section ``name``."""
        return self.sections[name]

    @property
    def board_shape(self) -> tuple[int, int] | None:
        """``(planes, cells)`` of the ``board`` section, or ``None``."""
        return self._board_shape

    def encode(
        self,
        state: State,
        side: str,
        *,
        seat: int | None = None,
        acting: int | None = None,
        prefix: Sequence[str] = (),
        legal: Sequence[int] = (),
    ) -> list[int]:
        """The indices of the ones for observer ``side`` (seat index ``seat``, default the
        first seat of ``side``): ``acting`` is the acting seat's index (``None``: worked out
        from the state's side to act, its first seat), ``prefix`` the tokens of the action
        being built *that the observer may see*, ``legal`` the legal next token ids (pass
        them only to the acting seat)."""
        sec = self.sections
        out = self._generic(state, side, seat, acting, prefix)
        base = sec["legal"][0]
        out.extend(base + i for i in legal)
        if self.view.board is not None:
            out.extend(self._board(state, side, prefix))
        if self.view.features:
            view = Observed(state, side)
            for f in self.view.features:
                off, size = sec[f.name]
                for i in f.hot(view):
                    if not 0 <= i < size:
                        raise HexwarError(f"feature {f.name!r}: index {i} outside 0..{size - 1}")
                    out.append(off + i)
        return out

    def _generic(
        self,
        state: State,
        side: str,
        seat: int | None,
        acting: int | None,
        prefix: Sequence[str],
    ) -> list[int]:
        """The generic sections but ``legal``: seats, turn, phase, decision, prefix."""
        from hexwar.engine.actions import CHANCE, TERMINAL

        sec = self.sections
        out: list[int] = []
        seats = self.ruleset.seats()
        if seat is None:
            seat = next(i for i, s in enumerate(seats) if s.side == side)
        out.append(sec["observer"][0] + seat)
        player = state.current_player()
        to_act, n_seats = sec["to_act"][0], len(self.seats)
        if player == CHANCE:
            out.append(to_act + n_seats + CHANCE_SLOT)
        elif player == TERMINAL:
            out.append(to_act + n_seats + TERMINAL_SLOT)
        else:
            if acting is None:
                acting = next(i for i, s in enumerate(seats) if s.side == player)
            out.append(to_act + acting)
        turn = state.turn
        if self._turns is None:
            base = sec["turn"][0]
            out.extend(base + b for b in range(_TURN_BITS) if turn >> b & 1)
        else:
            out.append(sec["turn"][0] + min(max(turn, 0), self._turns - 1))
        c = state.cursor
        slot = self._slots.get((c.stage, c.phase), len(self._slots))
        out.append(sec["phase"][0] + slot)
        pending = state.pending
        if pending and not pending[-1].is_chance:
            out.append(sec["decision"][0])
            if pending[-1].side == side:
                out.append(sec["decision"][0] + 1)
        ids = self._ids
        if prefix:
            out.append(sec["prefix_kind"][0] + ids[prefix[0]])
            if len(prefix) > 1:
                out.append(sec["prefix_first"][0] + ids[prefix[1]])
                rest = sec["prefix_rest"][0]
                out.extend(sorted({rest + ids[t] for t in prefix[2:]}))
        out.append(sec["prefix_length"][0] + min(len(prefix), _PREFIX_LENGTHS - 1))
        return out

    def _board(self, state: State, side: str, prefix: Sequence[str]) -> list[int]:
        board = self.view.board
        assert board is not None
        key = (state.version, side)
        found = self._cache.get(key)
        if found is None:
            found = self._board_now(state, side, board)
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[key] = found
        out = list(found)
        if prefix:
            cells = self._cell_index
            marked = {cells[t] for t in prefix[1:] if t in cells}
            if board.pieces_named is not None:
                view = Observed(state, side)
                for t in prefix[1:]:
                    where = board.pieces_named(view, t)
                    if where is not None and where in cells:
                        marked.add(cells[where])
            if marked:
                planes, n = self._board_shape  # type: ignore[misc]
                base = self.sections["board"][0] + (planes - 1) * n
                out.extend(base + i for i in sorted(marked))
        return out

    def _board_now(self, state: State, side: str, board: Board) -> tuple[int, ...]:
        view = Observed(state, side)
        n = len(board.cells)
        base = self.sections["board"][0]
        first_piece = base + len(self._terrains) * n
        counts: dict[tuple[int, int, int], int] = {}
        cells, statuses, sides = self._cell_index, self._status_index, self._side_index
        for label, owner, status in board.pieces(view):
            i = cells.get(label)
            if i is None:
                continue  # off the board (a pool, a box)
            try:
                slot = (sides[owner], statuses[status], i)
            except KeyError:
                raise HexwarError(
                    f"board: piece of side {owner!r} with status {status!r} is not declared"
                ) from None
            counts[slot] = counts.get(slot, 0) + 1
        hot = list(self._terrain_hot)
        n_status, depth = len(board.statuses), board.depth
        for (s, k, i), count in counts.items():
            plane = (s * n_status + k) * depth
            for level in range(min(count, depth)):
                hot.append(first_piece + (plane + level) * n + i)
        if board.zoc is not None:
            zoc_base = first_piece + len(sides) * n_status * depth * n
            for s, name in enumerate(self._sides):
                hot.extend(
                    zoc_base + s * n + cells[lab] for lab in board.zoc(view, name) if lab in cells
                )
        return tuple(sorted(hot))

    def tensor(self, state: State, side: str, **kwargs: Any) -> list[float]:
        """:meth:`encode` as a dense list of floats (no numpy needed)."""
        out = [0.0] * self.size
        for i in self.encode(state, side, **kwargs):
            out[i] = 1.0
        return out
