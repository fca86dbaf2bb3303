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

from hexwar.base.errors import HexwarError
from hexwar.engine.observed import Board, Feature, ObservationView, Observed

if TYPE_CHECKING:
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
        #: the ones every observation has (the terrain planes), ascending
        self.static_hot: tuple[int, ...] = ()
        self._planes = self._planes_memo(board)
        self._zoc_cache: dict[tuple[int, frozenset[str]], tuple[int, ...]] = {}
        self._fixed: dict[tuple[Any, ...], tuple[int, ...]] = {}
        if board is not None:
            base, c = offsets["board"][0], len(board.cells)
            t_index = {t: i for i, t in enumerate(self._terrains)}
            self.static_hot = tuple(base + t_index[t] * c + i for i, t in enumerate(board.terrain))

    def _planes_memo(self, board: Board | None) -> Callable[[State, str], tuple[int, ...]]:
        """The pieces and ZOC planes, memoised on the tables ``board.reads`` names (and
        the hidden-entry tables ``Observed`` reads), or else on the position."""
        if board is None or board.reads is None:
            cache: dict[tuple[int, str], tuple[int, ...]] = {}

            def per_position(state: State, side: str) -> tuple[int, ...]:
                key = (state.version, side)
                found = cache.get(key)
                if found is None:
                    if len(cache) >= _CACHE_LIMIT:
                        cache.clear()
                    found = cache[key] = self._board_now(state, side)
                return found

            return per_position
        from hexwar.engine.memo import StateMemo
        from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE

        reads = (*board.reads, _HIDDEN_TABLE, _HIDDEN_KEYS_TABLE)
        return StateMemo(reads, self._board_now, _CACHE_LIMIT)

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
        planes, rest = self.encode_parts(
            state, side, seat=seat, acting=acting, prefix=prefix, legal=legal
        )
        return [*self.static_hot, *planes, *rest]

    def encode_parts(
        self,
        state: State,
        side: str,
        *,
        seat: int | None = None,
        acting: int | None = None,
        prefix: Sequence[str] = (),
        legal: Sequence[int] = (),
    ) -> tuple[tuple[int, ...], list[int]]:
        """:meth:`encode` but :attr:`static_hot`, in two parts: the pieces and ZOC planes
        (ascending; the *same* tuple object while they are unchanged, so a consumer may
        key a dense copy of them on its identity) and the rest (a new list).

        The sections that depend on the position are kept per position (its version)
        and observer, the prefix's per position, observer and prefix: a game's features
        and pieces read the position, never the history."""
        if type(prefix) is not tuple:
            prefix = tuple(prefix)
        version = state.version
        key: tuple[Any, ...] = (version, side, seat, acting)
        fixed = self._fixed.get(key)
        if fixed is None:
            if len(self._fixed) >= _CACHE_LIMIT:
                self._fixed.clear()
            fixed = self._fixed[key] = self._fixed_now(state, side, seat, acting)
        key = (version, side, prefix)
        chosen = self._fixed.get(key)
        if chosen is None:
            chosen = self._fixed[key] = self._prefix_now(state, side, prefix)
        out = [*fixed, *chosen]
        if legal:
            base = self.sections["legal"][0]
            out.extend([base + i for i in legal])
        planes = () if self.view.board is None else self._planes(state, side)
        return planes, out

    def _fixed_now(
        self, state: State, side: str, seat: int | None, acting: int | None
    ) -> tuple[int, ...]:
        """The generic sections but the prefix's and ``legal``, and the features."""
        out = self._generic(state, side, seat, acting)
        if self.view.features:
            sec = self.sections
            view = Observed(state, side)
            for f in self.view.features:
                off, size = sec[f.name]
                for i in f.hot(view):
                    if not 0 <= i < size:
                        raise HexwarError(f"feature {f.name!r}: index {i} outside 0..{size - 1}")
                    out.append(off + i)
        return tuple(out)

    def _prefix_now(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[int, ...]:
        """The prefix's sections and the ``selected`` plane."""
        sec, ids = self.sections, self._ids
        out: list[int] = []
        if prefix:
            out.append(sec["prefix_kind"][0] + ids[prefix[0]])
            if len(prefix) > 1:
                out.append(sec["prefix_first"][0] + ids[prefix[1]])
                rest = sec["prefix_rest"][0]
                out.extend(sorted({rest + ids[t] for t in prefix[2:]}))
        out.append(sec["prefix_length"][0] + min(len(prefix), _PREFIX_LENGTHS - 1))
        if self.view.board is not None and prefix:
            out.extend(self._selected(state, side, prefix))
        return tuple(out)

    def _generic(
        self,
        state: State,
        side: str,
        seat: int | None,
        acting: int | None,
    ) -> list[int]:
        """The generic sections but ``legal`` and the prefix's: seats, turn, phase,
        decision."""
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
        return out

    def _selected(self, state: State, side: str, prefix: Sequence[str]) -> list[int]:
        """The ``selected`` plane: cells the prefix names or where a piece it names is."""
        board = self.view.board
        assert board is not None
        cells = self._cell_index
        marked = {cells[t] for t in prefix[1:] if t in cells}
        if board.pieces_named is not None:
            view = Observed(state, side)
            for t in prefix[1:]:
                where = board.pieces_named(view, t)
                if where is not None and where in cells:
                    marked.add(cells[where])
        if not marked:
            return []
        planes, n = self._board_shape  # type: ignore[misc]
        base = self.sections["board"][0] + (planes - 1) * n
        return [base + i for i in sorted(marked)]

    def _board_now(self, state: State, side: str) -> tuple[int, ...]:
        board = self.view.board
        assert board is not None
        view = Observed(state, side)
        n = len(board.cells)
        first_piece = self.sections["board"][0] + len(self._terrains) * n
        cells, statuses, sides = self._cell_index, self._status_index, self._side_index
        n_status, depth = len(board.statuses), board.depth
        counts: dict[int, int] = {}  # first plane index of (side, status) + cell -> pieces
        for label, owner, status in board.pieces(view):
            i = cells.get(label)
            if i is None:
                continue  # off the board (a pool, a box)
            try:
                at = first_piece + (sides[owner] * n_status + statuses[status]) * depth * n + i
            except KeyError:
                raise HexwarError(
                    f"board: piece of side {owner!r} with status {status!r} is not declared"
                ) from None
            counts[at] = counts.get(at, 0) + 1
        if depth == 1:
            hot = list(counts)
        else:
            hot = [at + level * n for at, c in counts.items() for level in range(min(c, depth))]
        if board.zoc is not None:
            zoc_base = first_piece + len(sides) * n_status * depth * n
            for s, name in enumerate(self._sides):
                hot.extend(self._zoc_plane(zoc_base + s * n, board.zoc(view, name)))
        return tuple(sorted(hot))

    def _zoc_plane(self, base: int, labels: Iterable[str]) -> tuple[int, ...]:
        """The ones of a ZOC plane starting at ``base`` (kept per frozenset of labels)."""
        key = (base, labels) if isinstance(labels, frozenset) else None
        found = None if key is None else self._zoc_cache.get(key)
        if found is None:
            cells = self._cell_index
            found = tuple(base + cells[lab] for lab in labels if lab in cells)
            if key is not None:
                if len(self._zoc_cache) >= _CACHE_LIMIT:
                    self._zoc_cache.clear()
                self._zoc_cache[key] = found
        return found

    def tensor(self, state: State, side: str, **kwargs: Any) -> list[float]:
        """:meth:`encode` as a dense list of floats (no numpy needed)."""
        out = [0.0] * self.size
        for i in self.encode(state, side, **kwargs):
            out[i] = 1.0
        return out
