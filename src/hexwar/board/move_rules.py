"""Movement rules (S6.2-S6.4) as pluggable predicates, and their resolution against units.

:class:`MoveRules` holds the predicates (stacking, passing, blocking, who exerts ZOC);
:data:`DEFAULT_RULES` are Stalingrad's. :func:`resolve_rules` answers them once for one
mover against given friendly and enemy units, by integer cell index
(:class:`ResolvedRules`): the searches of :mod:`hexwar.board.movement` then never call
a predicate per step.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from hexwar.base.errors import OffMapError
from hexwar.board.zoc import every_unit_exerts_zoc, occupants

__all__ = [
    "DEFAULT_RULES",
    "MoveRules",
    "ResolvedRules",
    "Units",
    "enemies_block",
    "friends_passable",
    "one_unit_per_cell",
    "resolve_rules",
]

C = TypeVar("C", bound=Hashable)
Units = Mapping[C, Sequence[Any]] | Collection[C] | None


def one_unit_per_cell(mover: Any, friends: Sequence[Any]) -> bool:
    """S6.2: a unit may end its move only in an empty cell (the default stacking rule)."""
    return not friends


def friends_passable(mover: Any, friends: Sequence[Any]) -> bool:
    """S6.2: a unit may pass through cells holding friendly units."""
    return True


def enemies_block(mover: Any, enemies: Sequence[Any]) -> bool:
    """S6.2: a unit never enters a cell holding enemy units."""
    return bool(enemies)


@attrs.frozen
class MoveRules:
    """The pluggable movement rules; the defaults are Stalingrad's (S2, S6).

    - ``zoc``: apply enemy ZOC (S6.3, S6.4); ``False`` for scripted moves.
    - ``exerts_zoc(unit)``: whether an enemy unit has a ZOC (S2.1: all ground units).
    - ``can_end(mover, friends)``: stacking; may the mover end in a cell holding these
      friendly units? Called once per occupied cell (and once with ``()``).
    - ``can_end_at(mover, cell, friends)``: cell-aware stacking (a limit that depends on
      the cell's terrain, «Бой отрядов» VI.3: two figures in a masking square). When
      given it is used *instead of* ``can_end``, called once per occupied friendly cell
      and once per other cell reached (and for the target of :func:`find_path`).
    - ``can_pass(mover, friends)``: may the mover pass through such a cell?
    - ``enemy_blocks(mover, enemies)``: may the mover not enter such a cell? A cell
      with enemies that does not block is treated as holding no units.

    A cell the mover can end in but not pass through stops it on entry.
    """

    zoc: bool = True
    exerts_zoc: Callable[[Any], bool] = every_unit_exerts_zoc
    can_end: Callable[[Any, Sequence[Any]], bool] = one_unit_per_cell
    can_end_at: Callable[[Any, Any, Sequence[Any]], bool] | None = None
    can_pass: Callable[[Any, Sequence[Any]], bool] = friends_passable
    enemy_blocks: Callable[[Any, Sequence[Any]], bool] = enemies_block


DEFAULT_RULES = MoveRules()
"""Stalingrad's rules (S6.2-S6.4)."""


@attrs.frozen(eq=False)
class ResolvedRules:
    """The rules answered for one mover against fixed units, by cell index.

    ``blocked``: cells the mover may not enter; ``exerting``: enemy cells that exert ZOC;
    ``stop_cells``: friendly cells it may end in but not pass; ``end_ok``: whether it may
    end in each occupied friendly cell; ``end_ok_empty``: whether it may end in an empty
    cell (``False`` when the rules are cell-aware: then it is asked per cell).
    """

    blocked: set[int]
    exerting: set[int]
    stop_cells: set[int]
    end_ok: dict[int, bool]
    end_ok_empty: bool


def resolve_rules(
    rules: MoveRules,
    index: Mapping[C, int],
    mover: Any,
    friends: Units[C],
    enemies: Units[C],
) -> ResolvedRules:
    """Answer ``rules`` for ``mover`` once: each predicate is called once per unit or per
    occupied cell (S6.2 blocking and stacking, S6.3 who exerts ZOC)."""
    blocked, exerting = _enemy_cells(rules, index, mover, enemies)
    end_at = rules.can_end_at
    end_ok_empty = rules.can_end(mover, ()) if end_at is None else False
    end_ok: dict[int, bool] = {}
    stop_cells: set[int] = set()
    for cell, units in occupants(friends).items():
        i = index.get(cell)
        if i is None:
            raise OffMapError(f"friendly position {cell!r} is off the map")
        if not units or i in blocked:
            continue
        can_end = rules.can_end(mover, units) if end_at is None else end_at(mover, cell, units)
        end_ok[i] = can_end
        if not rules.can_pass(mover, units):
            if can_end:
                stop_cells.add(i)  # may end there, may not go on
            else:
                blocked = blocked | {i}
    return ResolvedRules(blocked, exerting, stop_cells, end_ok, end_ok_empty)


def _enemy_cells(
    rules: MoveRules, index: Mapping[C, int], mover: Any, enemies: Units[C]
) -> tuple[set[int], set[int]]:
    """The enemy cells that block the mover (S6.2) and those that exert ZOC (S6.3)."""
    exerts = rules.exerts_zoc
    always = exerts is every_unit_exerts_zoc
    try:
        if rules.enemy_blocks is enemies_block and always:
            # every enemy unit blocks and exerts ZOC: the cells holding any (a plain
            # collection of cells: one unit each) by index, no predicate asked
            if isinstance(enemies, Mapping):
                enemies = [c for c, units in enemies.items() if units]
            blocked = set(map(index.__getitem__, enemies or ()))
            return blocked, blocked if rules.zoc else set()
        enemy_units = occupants(enemies)
        blocked = {index[c] for c, u in enemy_units.items() if u and rules.enemy_blocks(mover, u)}
        exerting: set[int] = set()
        if rules.zoc:
            exerting = {
                index[c]
                for c, u in enemy_units.items()
                if u and (always or any(exerts(x) for x in u))
            }
        return blocked, exerting
    except KeyError as e:
        raise OffMapError(f"enemy position {e.args[0]!r} is off the map") from None
