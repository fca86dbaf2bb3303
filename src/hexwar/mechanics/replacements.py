"""Replacements: a budget of points per side, spent on restoring steps and rebuilding units.

Most operational games give each side replacement points per turn (a table, a card, a
hook) and let it spend them on *restoring* a reduced unit on the map (one step back) or
*rebuilding* an eliminated unit onto an allowed cell (a city, a supply source, a hex
away from the enemy). :class:`Replacements` keeps the budget in a state table, lists what
may be bought (the game says where a unit may be rebuilt and whether a unit may be
restored) and gives the two actions as token kinds (:meth:`Replacements.kinds`) for a
phase's :class:`~hexwar.engine.kinds.Kinds`:

- ``restore PIECE`` costs ``restore_cost`` per step;
- ``rebuild PIECE CELL`` brings the piece back at its weakest step (or ``rebuild_step``)
  for ``rebuild_cost``.

>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> from hexwar.mechanics.steps import StepCounters, StepTrack
>>> reg = Pieces(HEX_CODEC)
>>> track = StepTrack.of({"attack": 4}, {"attack": 2})
>>> counters = StepCounters({"a": track, "b": track}, pieces=reg)
>>> towns = [Hex(0, 0), Hex(3, 0)]
>>> repl = Replacements(counters, places=lambda state, side, piece: towns)
>>> class Game(Ruleset):
...     sides = ("red",)
...     sequence = TurnSequence((Stage("p", (Phase("r", "red", end_when_idle=False),)),))
>>> state = Game().new_state()
>>> reg.place(state, "a", Hex(1, 0), "red"); reg.place(state, "b", Hex(2, 0), "red")
>>> _ = counters.lose(state, "a"); _ = counters.lose(state, "b", 2)
>>> repl.grant(state, "red", 2)
>>> repl.restorable(state, "red"), repl.rebuildable(state, "red")
(['a'], ['b'])
>>> repl.rebuild_cells(state, "red", "b")
['0,0', '3,0']
>>> repl.rebuild(state, "red", "b", Hex(3, 0))
>>> repl.points(state, "red"), counters.step(state, "b"), repl.restorable(state, "red")
(0, 1, [])

Options: ``restore_rebuilt=False`` — a piece rebuilt in a phase may not be restored in
the same phase (it comes back reduced, and stays so until the next phase of
replacements); ``first_turn`` — the first turn each piece may be rebuilt (a unit that
arrives later); :func:`edge_or_held` — the common ``places``: the side's map edge, or a
city it holds that is in communication with that edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Generic, TypeVar

import attrs

from hexwar.base.errors import ReplacementError
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action
from hexwar.engine.kinds import Kind, Kinds, Values
from hexwar.engine.sequencer import Phase
from hexwar.engine.state import State
from hexwar.mechanics.control import Control
from hexwar.mechanics.steps import StepCounters
from hexwar.mechanics.supply import in_communication

__all__ = ["Replacements", "edge_or_held"]

C = TypeVar("C")
POINTS_TABLE: Final = "replacement_points"


@attrs.frozen
class Replacements(Generic[C]):
    """Replacement points and what they buy (see the module docstring).

    ``places(state, side, piece)``: the cells an eliminated piece may be rebuilt on
    (occupied cells are left out here); ``may_restore(state, side, piece)``: whether a
    reduced piece on the map may take a step back (e.g. not in an enemy ZOC, in supply);
    ``restore_rebuilt``: whether a piece rebuilt in this phase may be restored in it (the
    rebuilt pieces are marked in ``<table>_rebuilt``); ``first_turn``: piece -> the first
    turn it may be rebuilt.
    """

    counters: StepCounters
    places: Callable[[State, str, str], Iterable[C]]
    may_restore: Callable[[State, str, str], bool] | None = None
    restore_cost: int = 1
    rebuild_cost: int = 2
    rebuild_step: int | None = None
    restore_rebuilt: bool = True
    first_turn: Mapping[str, int] = attrs.field(factory=dict, converter=dict)
    table: str = POINTS_TABLE
    restore_kind: str = "restore"
    rebuild_kind: str = "rebuild"
    _kinds: tuple[Kind[str], Kind[str]] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.counters.pieces is None:
            raise ReplacementError("replacements need StepCounters with a Pieces registry")
        object.__setattr__(self, "_kinds", self._build_kinds())

    @property
    def _pieces(self) -> Any:
        return self.counters.pieces

    # -- the budget ------------------------------------------------------------------

    def points(self, state: State, side: str) -> int:
        """The side's unspent points."""
        value = state.get(self.table, side, 0)
        assert isinstance(value, int)
        return value

    def grant(self, state: State, side: str, points: int, *, keep: bool = False) -> None:
        """Give ``side`` its ``points`` for the turn: unspent points are lost unless
        ``keep`` (then they add up)."""
        if points < 0:
            raise ReplacementError(f"cannot grant {points} points")
        total = points + (self.points(state, side) if keep else 0)
        state.put(self.table, side, total)

    def _spend(self, state: State, side: str, cost: int) -> None:
        have = self.points(state, side)
        if cost > have:
            raise ReplacementError(f"{side} has {have} replacement points, needs {cost}")
        state.put(self.table, side, have - cost)

    # -- what may be bought -------------------------------------------------------------

    def restorable(self, state: State, side: str) -> list[str]:
        """The side's reduced pieces on the map it may and can pay to restore, sorted."""
        if self.points(state, side) < self.restore_cost:
            return []
        counters, out = self.counters, []
        for piece in self._pieces.pieces_of(state, side):
            if piece not in counters.tracks or counters.step(state, piece) == 0:
                continue
            if not self.restore_rebuilt and self._rebuilt_now(state, piece):
                continue
            if self.may_restore is None or self.may_restore(state, side, piece):
                out.append(piece)
        return sorted(out)

    def _now(self, state: State) -> str:
        return f"{state.turn}:{state.stage}:{state.phase}"

    def _rebuilt_now(self, state: State, piece: str) -> bool:
        return state.get(f"{self.table}_rebuilt", piece) == self._now(state)

    def rebuildable(self, state: State, side: str) -> list[str]:
        """The side's eliminated pieces it can pay to rebuild on some free cell, sorted."""
        if self.points(state, side) < self.rebuild_cost:
            return []
        first, turn = self.first_turn, state.turn
        return [
            p
            for p in self.counters.eliminated(state, side)
            if first.get(p, turn) <= turn and self._has_free_place(state, side, p)
        ]

    def _has_free_place(self, state: State, side: str, piece: str) -> bool:
        """Whether some cell ``piece`` may be rebuilt on is free (stops at the first)."""
        occupants = self._pieces.occupants
        return any(not occupants(state, c) for c in self.places(state, side, piece))

    def rebuild_cells(self, state: State, side: str, piece: str) -> list[str]:
        """The free cells (as labels, sorted) ``piece`` may be rebuilt on."""
        pieces = self._pieces
        labels = {
            pieces.codec.label(c)
            for c in self.places(state, side, piece)
            if not pieces.occupants(state, c)
        }
        return sorted(labels)

    # -- buying ----------------------------------------------------------------------------

    def restore(self, state: State, side: str, piece: str) -> None:
        """Restore one step of ``piece`` (it must be :meth:`restorable`)."""
        if piece not in self.restorable(state, side):
            raise ReplacementError(f"{piece!r} may not be restored now")
        self._spend(state, side, self.restore_cost)
        self.counters.restore(state, piece)

    def rebuild(self, state: State, side: str, piece: str, cell: C) -> None:
        """Rebuild ``piece`` on ``cell`` at its weakest step (or ``rebuild_step``)."""
        label = self._pieces.codec.label(cell)
        if piece not in self.rebuildable(state, side) or label not in self.rebuild_cells(
            state, side, piece
        ):
            raise ReplacementError(f"{piece!r} may not be rebuilt on {label} now")
        self._spend(state, side, self.rebuild_cost)
        track = self.counters.track(piece)
        step = len(track) - 1 if self.rebuild_step is None else self.rebuild_step
        self.counters.rebuild(state, piece, cell, step=step, side=side)
        if not self.restore_rebuilt:
            state.put(f"{self.table}_rebuilt", piece, self._now(state))

    # -- as actions --------------------------------------------------------------------------

    def phase(self, name: str, side: str | Callable[[State], str], **options: Any) -> Phase:
        """A replacement phase for ``side``: its kinds are :meth:`kinds` (``options`` as
        for :class:`~hexwar.engine.sequencer.Phase`)."""
        return Phase(name, side=side, kinds=Kinds(self.kinds()), **options)

    def kinds(self) -> tuple[Kind[str], Kind[str]]:
        """``restore PIECE`` and ``rebuild PIECE CELL`` as token kinds of a phase whose
        context is the acting side (put them in the phase's ``kinds``)."""
        return self._kinds

    def _build_kinds(self) -> tuple[Kind[str], Kind[str]]:
        restore: Kind[str] = Kind(
            self.restore_kind,
            (Values(lambda state, side, args: self.restorable(state, side)),),
            does=self._play,
        )
        rebuild: Kind[str] = Kind(
            self.rebuild_kind,
            (
                Values(lambda state, side, args: self.rebuildable(state, side)),
                Values(lambda state, side, args: self.rebuild_cells(state, side, args[0])),
            ),
            does=self._play,
        )
        return restore, rebuild

    def _play(self, state: State, action: Action) -> None:
        self.play(state, state.current_player(), action)

    def play(self, state: State, side: str, action: Action) -> bool:
        """Carry out a ``restore`` / ``rebuild`` action; ``False`` for any other kind."""
        if action.kind == self.restore_kind:
            self.restore(state, side, action.args[0])
            return True
        if action.kind == self.rebuild_kind:
            piece, label = action.args
            self.rebuild(state, side, piece, self._pieces.codec.cell_at(label))
            return True
        return False


def edge_or_held(
    pieces: Pieces[C],
    game_map: GameMap[C],
    edges: Mapping[str, Iterable[C]],
    control: Control[C] | None = None,
) -> Callable[[State, str, str], list[C]]:
    """A :class:`Replacements` ``places``: the cells of the side's map edge (``edges[side]``)
    and, with ``control``, the cells the side holds that are *in communication* — a trace
    to its edge that enters no enemy unit and no enemy ZOC cell without a friendly unit
    (:func:`~hexwar.mechanics.supply.in_communication` from the held cells, once per
    position and side)."""
    sources = {side: tuple(sorted(cells, key=pieces.codec.label)) for side, cells in edges.items()}
    key = object()  # this function's part of its per-position key (State.derive)

    def communicating(state: State, side: str) -> list[C]:
        assert control is not None
        edge = sources.get(side, ())
        held = [c for c in control.held(state, side) if c not in edge]
        if not held:
            return []
        found = in_communication(pieces, game_map, state, side, edge, held)
        return [c for c in held if c in found]

    def places(state: State, side: str, piece: str) -> list[C]:
        edge = sources.get(side, ())
        if control is None:
            return list(edge)
        # the held cells' traces only (not the map), once per position and side
        return [*edge, *state.derive((key, side), communicating, state, side)]

    return places
