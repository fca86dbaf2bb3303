"""Control of cells: who holds each city, town or objective, taken by entering it.

A :class:`Control` keeps the owner of each *controllable* cell (a city, a victory hex)
in a state table (``control[label] = side``), stored through a cell codec (a
:class:`~hexwar.board.maps.GameMap` or :data:`~hexwar.board.pieces.HEX_CODEC`). A unit
takes every controllable cell it enters, along the path it actually took — a move names
its destination, so the game hands over the path: :meth:`Control.enter` with
:meth:`hexwar.board.movement.Reach.path_to` (the cheapest route), or the route the
player chose. ``initial`` gives the owners at set-up.

>>> from hexwar.board.pieces import HEX_CODEC
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> class Game(Ruleset):
...     sides = ("red", "blue")
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> cities = Control(HEX_CODEC, [Hex(1, 0), Hex(2, 0), Hex(0, 3)])
>>> state = Game().new_state()
>>> cities.set_up(state, {Hex(1, 0): "blue", Hex(2, 0): "blue"})
>>> cities.enter(state, "red", [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)])
[Hex(q=1, r=0), Hex(q=2, r=0)]
>>> cities.owner(state, Hex(1, 0)), cities.owner(state, Hex(0, 3)), cities.held(state, "red")
('red', None, [Hex(q=1, r=0), Hex(q=2, r=0)])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Generic, TypeVar

import attrs

from hexwar.base.errors import ControlError
from hexwar.board.pieces import CellCodec
from hexwar.engine.state import State

__all__ = ["Control"]

C = TypeVar("C")
CONTROL_TABLE: Final = "control"


def _frozen(cells: Iterable[Any]) -> frozenset[Any]:
    return frozenset(cells)


@attrs.frozen
class Control(Generic[C]):
    """The controllable ``cells`` and who holds them (``table`` in the state)."""

    codec: CellCodec[C]
    cells: frozenset[C] = attrs.field(converter=_frozen)
    table: str = CONTROL_TABLE

    def owner(self, state: State, cell: C) -> str | None:
        """The side holding ``cell``, or ``None`` (nobody yet, or not controllable)."""
        if cell not in self.cells:
            return None
        value = state.get(self.table, self.codec.label(cell))
        return value if isinstance(value, str) else None

    def held(self, state: State, side: str) -> list[C]:
        """The cells ``side`` holds, sorted by label."""
        labels = sorted(lab for lab, s in state.table(self.table).items() if s == side)
        return [self.codec.cell_at(lab) for lab in labels]

    def count(self, state: State, side: str) -> int:
        """How many cells ``side`` holds."""
        return sum(1 for s in state.table(self.table).values() if s == side)

    def take(self, state: State, cell: C, side: str) -> bool:
        """Give ``cell`` to ``side``; ``True`` if its owner changed."""
        if cell not in self.cells:
            raise ControlError(f"{cell!r} is not a controllable cell")
        label = self.codec.label(cell)
        if state.get(self.table, label) == side:
            return False
        state.put(self.table, label, side)
        return True

    def set_up(self, state: State, owners: Mapping[C, str]) -> None:
        """The owners at the start (in the ruleset's ``setup``)."""
        for cell in sorted(owners, key=self.codec.label):
            self.take(state, cell, owners[cell])

    def enter(self, state: State, side: str, path: Iterable[C]) -> list[C]:
        """A unit of ``side`` moved along ``path`` (its start first): it takes every
        controllable cell it entered; returns those whose owner changed, in path order.
        The start cell is not entered (the unit was there already)."""
        changed: list[C] = []
        for i, cell in enumerate(path):
            if i and cell in self.cells and self.take(state, cell, side):
                changed.append(cell)
        return changed
