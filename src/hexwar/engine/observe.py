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
per-cell planes ``board`` (:mod:`hexwar.engine.planes`); each :class:`Feature` a section
of its own (a hand of cards, the weather). Board and features read the state only
through an :class:`Observed` view, which masks what the observer may not see
(:meth:`hexwar.engine.state.State.hide`), so a declared view cannot leak a hidden value
by mistake.

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

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from hexwar.base.errors import HexwarError
from hexwar.base.kept import kept
from hexwar.engine.observed import Board, Feature, ObservationView, Observed
from hexwar.engine.planes import BoardPlanes

if TYPE_CHECKING:
    from hexwar.engine.state import Ruleset, State

__all__ = ["Board", "Encoder", "Feature", "ObservationView", "Observed"]

#: Bits of the ``turn`` section when the sequence has no turn limit.
_TURN_BITS: Final = 16
#: Prefix lengths the ``prefix_length`` section tells apart (longer ones share the last).
_PREFIX_LENGTHS: Final = 8
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
        self._seat_sides = tuple(s.side for s in ruleset.seats())
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
        at = sum(size for _, size in sections)
        self._board = None if board is None else BoardPlanes(board, self._sides, at)
        if self._board is not None:
            sections.append(("board", self._board.size))
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
        self.static_hot: tuple[int, ...] = () if self._board is None else self._board.static_hot
        self._features = self._features_memo()
        self._chosen: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._position: dict[
            tuple[Any, ...], tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
        ] = {}
        self._legal_base = offsets["legal"][0]
        self._no_prefix = (offsets["prefix_length"][0],)
        self._prefix_at = tuple(
            offsets[name][0]
            for name in ("prefix_kind", "prefix_first", "prefix_rest", "prefix_length")
        )
        #: the first index of the generic sections ``_generic`` writes
        self._generic_at = tuple(
            offsets[name][0] for name in ("observer", "to_act", "turn", "phase", "decision")
        )

    def _features_memo(self) -> Callable[[State, str], tuple[int, ...]]:
        """The features' indices: each feature memoised on the tables it declares it
        reads (:attr:`Feature.reads`, with the hidden-entry tables ``Observed`` reads), so
        a move of the cursor recomputes only the features that read it, and all of them
        on the union of those tables (one look-up while none changed); when any feature
        declares none, all computed (the caller keeps them per position)."""
        features = self.view.features
        if any(f.reads is None for f in features):
            return self._features_now
        from hexwar.engine.memo import StateMemo
        from hexwar.engine.state import _HIDDEN_KEYS_TABLE, _HIDDEN_TABLE

        memos = tuple(
            StateMemo(
                (*dict.fromkeys((*(f.reads or ()), _HIDDEN_TABLE, _HIDDEN_KEYS_TABLE)),),
                functools.partial(self._feature_now, f),
            )
            for f in features
        )
        if len(memos) == 1:
            return memos[0]

        def each(state: State, side: str) -> tuple[int, ...]:
            out: list[int] = []
            for memo in memos:
                out += memo(state, side)
            return tuple(out)

        union = (*dict.fromkeys(t for memo in memos for t in memo.reads),)
        return StateMemo(union, each)

    def section(self, name: str) -> tuple[int, int]:
        """``(offset, size)`` of section ``name``."""
        return self.sections[name]

    @property
    def board_shape(self) -> tuple[int, int] | None:
        """``(planes, cells)`` of the ``board`` section, or ``None``."""
        b = self._board
        return None if b is None else (b.planes, b.cells)

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
        planes, fixed, chosen = self.encode_parts(
            state, side, seat=seat, acting=acting, prefix=prefix
        )
        base = self.legal_base
        out = [*self.static_hot]
        for part in planes:
            out += part
        return [*out, *fixed, *chosen, *(base + i for i in legal)]

    def planes_change(
        self, was: tuple[tuple[int, ...], ...], now: tuple[tuple[int, ...], ...]
    ) -> tuple[list[int], list[int]] | None:
        """The indices that went from board planes ``was`` and came in ``now`` (both as
        :meth:`parts` gave them) when ``now`` was patched from ``was`` (a board declared
        piece by piece), else ``None``: what a dense copy of ``was`` writes (zeros, then
        ones) to become ``now``. Never change the lists."""
        board = self._board
        return None if board is None else board.change(was, now)

    @property
    def legal_base(self) -> int:
        """The index of the ``legal`` section's first bit (token id 0)."""
        return self._legal_base

    def encode_parts(
        self,
        state: State,
        side: str,
        *,
        seat: int | None = None,
        acting: int | None = None,
        prefix: Sequence[str] = (),
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """:meth:`encode` but :attr:`static_hot` and ``legal`` (whose bits are
        :attr:`legal_base` plus the legal ids), in three parts: the board's planes (a
        tuple: the pieces planes' indices, then each side's ZOC plane's, ascending;
        empty without a board), the generic sections and the features, the prefix's
        sections. Each part (and each tuple of the planes) is the *same* object while
        it is unchanged, so a consumer may key a dense copy of it on its identity.

        The generic sections are kept per position and observer, the features and the
        planes on the tables they read (or per position), the prefix's per position,
        observer and prefix: a game's features and pieces read the position, never the
        history."""
        return self.parts(state, side, seat, acting, prefix)

    def parts(
        self,
        state: State,
        side: str,
        seat: int | None,
        acting: int | None,
        prefix: Sequence[str],
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """:meth:`encode_parts` with positional arguments (the adapters' per-step call)."""
        if type(prefix) is not tuple:
            prefix = tuple(prefix)
        version = state.version
        key: tuple[Any, ...] = (version, side, seat, acting)
        found = self._position.get(key)
        if found is None:  # a new position (else the same one again, another prefix)
            board = self._board
            planes = () if board is None else board.hot(state, side)
            fixed = (*self._generic(state, side, seat, acting), *self._features(state, side))
            found = kept(self._position, key, (planes, fixed))
        if not prefix:  # the same in every position: prefix_length 0 alone
            return found[0], found[1], self._no_prefix
        chosen = self._chosen.get(key := (version, side, prefix))
        if chosen is None:
            chosen = kept(self._chosen, key, self._prefix_now(state, side, prefix))
        return found[0], found[1], chosen

    def _features_now(self, state: State, side: str) -> tuple[int, ...]:
        """The features' indices in the observation (computed)."""
        out: list[int] = []
        for f in self.view.features:
            out += self._feature_now(f, state, side)
        return tuple(out)

    def _feature_now(self, feature: Feature, state: State, side: str) -> tuple[int, ...]:
        """One feature's indices in the observation (computed)."""
        off, size = self.sections[feature.name]
        hot = list(feature.hot(Observed.of(state, side)))
        if hot and not (min(hot) >= 0 and max(hot) < size):
            bad = next(i for i in hot if not 0 <= i < size)
            raise HexwarError(f"feature {feature.name!r}: index {bad} outside 0..{size - 1}")
        return tuple([off + i for i in hot])

    def _prefix_now(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[int, ...]:
        """The sections of a (non-empty) prefix and the ``selected`` plane."""
        kind_at, first_at, rest_at, length_at = self._prefix_at
        ids = self._ids
        out = [kind_at + ids[prefix[0]]]
        if len(prefix) > 1:
            out.append(first_at + ids[prefix[1]])
            if len(prefix) > 2:
                out += sorted({rest_at + ids[t] for t in prefix[2:]})
        out.append(length_at + min(len(prefix), _PREFIX_LENGTHS - 1))
        if self._board is not None and len(prefix) > 1:  # (the first token is a kind)
            out += self._board.selected(state, side, prefix)
        return tuple(out)

    def _generic(
        self,
        state: State,
        side: str,
        seat: int | None,
        acting: int | None,
    ) -> list[int]:
        """The generic sections but ``legal`` and the prefix's: seats, turn, phase,
        decision. They read the outcome, the pending decisions and the cursor, and, when
        ``acting`` is ``None`` in a position that is neither the end nor a chance node,
        the player to act (which may read a game's tables)."""
        observer, to_act, turn_at, phase_at, decision = self._generic_at
        if seat is None:
            seat = self._seat_sides.index(side)
        pending = state.pending  # as State.current_player: the end, a chance event, ...
        if state.outcome is not None:
            acting = len(self.seats) + TERMINAL_SLOT
        elif pending and pending[-1].is_chance:
            acting = len(self.seats) + CHANCE_SLOT
        elif acting is None:  # (``acting`` names a seat of the side to act)
            acting = self._seat_sides.index(state.current_player())
        out = [observer + seat, to_act + acting]
        c = state.cursor
        if self._turns is None:
            out += [turn_at + b for b in range(_TURN_BITS) if c.turn >> b & 1]
        else:
            out.append(turn_at + min(max(c.turn, 0), self._turns - 1))
        out.append(phase_at + self._slots.get((c.stage, c.phase), len(self._slots)))
        if pending and not pending[-1].is_chance:
            out.append(decision)
            if pending[-1].side == side:
                out.append(decision + 1)
        return out

    def tensor(self, state: State, side: str, **kwargs: Any) -> list[float]:
        """:meth:`encode` as a dense list of floats (no numpy needed)."""
        out = [0.0] * self.size
        for i in self.encode(state, side, **kwargs):
            out[i] = 1.0
        return out
