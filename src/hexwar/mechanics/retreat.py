"""Retreats: where a stack may fall back, one cell farther from its attacker.

Combat results make a defending stack retreat (Stalingrad S8.4 DR, the Triumph & Glory
example's placeholder DR): into an adjacent cell on the map that is one step farther
from the attacker, free of enemy pieces, and where the stack still fits the stacking
limit. :func:`retreat_cells` lists those cells, sorted, from a
:class:`~hexwar.board.pieces.Pieces` registry; the game picks one (or makes the player pick)
and moves the stack with :meth:`~hexwar.board.pieces.Pieces.move_stack`, or applies its
"cannot retreat" penalty when the list is empty.

>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.board.stacking import max_units
>>> from hexwar.engine.state import Ruleset
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> state, reg = Game().new_state(), Pieces(HEX_CODEC)
>>> reg.place(state, "a", Hex(0, 0), "red")
>>> reg.place(state, "b", Hex(1, 0), "red")
>>> reg.place(state, "x", Hex(0, 1), "blue")
>>> area = set(Hex(0, 0).spiral(2))
>>> retreat_cells(reg, state, Hex(0, 0), Hex(1, -1), on_map=area)   # not into the enemy
[Hex(q=-1, r=0), Hex(q=-1, r=1)]
>>> retreat_cells(reg, state, Hex(0, 0), Hex(0, -1), on_map=area, limit=max_units(1))
[Hex(q=-1, r=1)]
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from hexwar.board.pieces import Pieces
from hexwar.board.stacking import StackingLimit
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex

__all__ = ["retreat_cells"]


def retreat_cells(
    pieces: Pieces[Hex],
    state: State,
    cell: Hex,
    away: Hex,
    *,
    on_map: Container[Hex],
    limit: StackingLimit | None = None,
    unit: Callable[[str], Any] | None = None,
) -> list[Hex]:
    """The cells (sorted) the stack in ``cell`` may retreat to from an attacker in ``away``.

    A candidate is a neighbour of ``cell`` in ``on_map`` one step farther from ``away``
    than ``cell`` is, holds no piece of another side, and where the
    pieces there plus the stack (joining at the bottom) pass ``limit``; ``unit`` maps
    piece ids to what ``limit`` expects (ids by default).
    """
    movers = pieces.occupants(state, cell)
    if not movers:
        return []
    side, far = pieces.side(state, movers[0]), cell.distance(away) + 1
    out = []
    for n in sorted(x for x in cell.neighbors() if x in on_map and x.distance(away) == far):
        there = pieces.occupants(state, n)
        if any(pieces.side(state, p) != side for p in there):
            continue
        stack = [p if unit is None else unit(p) for p in (*there, *movers)]
        if limit is None or limit(stack) is None:
            out.append(n)
    return out
