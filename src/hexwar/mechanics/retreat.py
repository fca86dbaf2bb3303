"""Retreats: where a stack may fall back, one cell farther from its attacker, or N cells.

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

Retreats of N cells: :func:`retreat_paths` lists every legal path of exactly N cells
under :class:`RetreatRules` (data: straight away from the start or from the attackers,
enemy ZOC forbidden / costing a step / ignored, passing friends, terrain and hexsides
closed to retreats, the stacking limit where it ends); :func:`retreat_options` reads the
stack, its friends, the enemies and their ZOC from a registry. Here the stack in
``Hex(0, 0)`` retreats two cells straight away, never into the ZOC of ``x`` (which
covers the friend's cell ``Hex(1, 0)`` too):

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.terrain import chart_from_dict
>>> chart = chart_from_dict({"terrain": {"clear": {}},
...     "movement": {"foot": {"terrain": {"clear": 1}}}})
>>> board = build_map(chart, dict.fromkeys(hexagon(3), "clear"))
>>> paths = retreat_options(reg, state, board, Hex(0, 0), 2)
>>> sorted({p.end for p in paths})
[Hex(q=-2, r=0), Hex(q=-2, r=1), Hex(q=-1, r=-1), Hex(q=0, r=-2), Hex(q=1, r=-2),
 Hex(q=2, r=-2), Hex(q=2, r=-1)]
>>> paths[0].cells, paths[0].zoc
((Hex(q=-1, r=0), Hex(q=-2, r=0)), 0)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Hashable, Mapping, Sequence
from typing import Any, Final, Generic, Literal, TypeVar

import attrs

from hexwar.base.errors import DataError, HexwarError
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.board.stacking import ONE_PER_CELL, StackingLimit
from hexwar.board.zoc import every_unit_exerts_zoc, zoc_cells
from hexwar.engine.state import State
from hexwar.grid.geometry import Hex

__all__ = [
    "RetreatPath",
    "RetreatRules",
    "retreat_cells",
    "retreat_options",
    "retreat_paths",
    "zoc_penalty",
]

C = TypeVar("C", bound=Hashable)


def retreat_cells(
    pieces: Pieces[Hex],
    state: State,
    cell: Hex,
    away: Hex,
    *,
    on_map: Container[Hex],
    limit: StackingLimit | None = ONE_PER_CELL,
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


# -- N-hex retreats ----------------------------------------------------------------------

#: How each step of a retreat must lead away: ``"start"`` — the k-th cell is k steps
#: from the cell the retreat began in (straight away); ``"attackers"`` — each cell is
#: farther from the nearest attacking cell than the one before; ``"any"`` — only never
#: back into a cell already passed.
Away = Literal["start", "attackers", "any"]
#: What an enemy zone of control does to a retreat: ``"forbidden"`` — no entry;
#: ``"step"`` — entry costs the stack a step per ZOC cell entered; ``"ignore"``.
ZocRule = Literal["forbidden", "step", "ignore"]
AWAY: Final = ("start", "attackers", "any")
ZOC_RULES: Final = ("forbidden", "step", "ignore")


@attrs.frozen
class RetreatRules:
    """Where a retreating stack may go, as data (used by :func:`retreat_paths`).

    - ``away``: see :data:`Away`; ``enemy_zoc``: see :data:`ZocRule`;
      ``friends_negate_zoc``: an enemy-ZOC cell holding a friendly unit counts as free;
    - ``through_friends``: the stack may pass cells of friendly units (it may always
      *end* in one when the stacking limit allows);
    - ``until_free``: a retreat whose last cell holds friendly units the stacking limit
      refuses goes on, a cell at a time under the same rules, until it ends in a cell
      the limit allows (*Battle for Moscow*: "retreat through friendly units until it
      ends in an empty hex"); without it no such retreat exists;
    - ``movement_class``: a step must be legal for it on the map (impassable terrain
      and hexsides of the terrain chart); ``impassable`` (terrains) and ``uncrossable``
      (hexside features, after a bridge's negation) close cells and hexsides to a
      retreat whatever the movement chart says;
    - ``chooser`` (``"owner"`` or ``"attacker"``), ``cannot`` (``"eliminate"`` or
      ``"step"``: the penalty when no retreat exists; "surrender") and ``forbidden``
      (the penalty when the game forbids the retreat, ``ResultHooks.may_retreat``) are
      read by :mod:`hexwar.mechanics.combat`.
    """

    away: Away = "start"
    enemy_zoc: ZocRule = "forbidden"
    friends_negate_zoc: bool = False
    through_friends: bool = True
    until_free: bool = False
    movement_class: str | None = None
    impassable: frozenset[str] = attrs.field(default=frozenset(), converter=frozenset)
    uncrossable: frozenset[str] = attrs.field(default=frozenset(), converter=frozenset)
    chooser: Literal["owner", "attacker"] = "owner"
    cannot: Literal["eliminate", "step"] = "eliminate"
    forbidden: Literal["eliminate", "step"] = "step"

    def __attrs_post_init__(self) -> None:
        for name, value, allowed in (
            ("away", self.away, AWAY),
            ("enemy_zoc", self.enemy_zoc, ZOC_RULES),
            ("chooser", self.chooser, ("owner", "attacker")),
            ("cannot", self.cannot, ("eliminate", "step")),
            ("forbidden", self.forbidden, ("eliminate", "step")),
        ):
            if value not in allowed:
                raise DataError(f"retreat {name} {value!r}: expected one of {allowed}")


@attrs.frozen(order=True)
class RetreatPath(Generic[C]):
    """One legal retreat: the ``cells`` entered, in order (the last is where the stack
    ends), and how many of them are in an enemy ZOC (``zoc``: the step penalties under
    ``enemy_zoc = "step"``)."""

    cells: tuple[C, ...]
    zoc: int = 0

    @property
    def end(self) -> C:
        """The cell the stack ends in."""
        return self.cells[-1]


def retreat_paths(
    game_map: GameMap[C],
    start: C,
    length: int,
    *,
    rules: RetreatRules = RetreatRules(),
    enemies: Collection[C] = (),
    zoc: Collection[C] = (),
    friends: Mapping[C, Sequence[Any]] | None = None,
    movers: Sequence[Any] = (),
    limit: StackingLimit | None = ONE_PER_CELL,
    attackers: Collection[C] = (),
    origin: C | None = None,
    passed: Sequence[C] = (),
) -> list[RetreatPath[C]]:
    """Every legal retreat of exactly ``length`` cells from ``start`` (longer under
    ``RetreatRules.until_free``), sorted.

    ``enemies``: cells holding enemy units (never entered); ``zoc``: the cells in the
    enemy's ZOC; ``friends``: cell -> the friendly units there (what ``limit`` expects);
    ``movers``: the retreating stack (top first); ``limit``: the stacking limit in the
    end cell (the movers join at the bottom); ``attackers``: the attacking cells (for
    ``away = "attackers"``). A retreat already under way continues from ``start`` with
    ``origin`` (where it began) and ``passed`` (the cells entered so far, ``start`` the
    last of them): they are never entered again, and ``away = "start"`` counts from
    ``origin``. ``length`` 0 is the one empty retreat.
    """
    if length < 0:
        raise HexwarError(f"a retreat of {length} cells")
    if start not in game_map:
        raise HexwarError(f"retreat from {start!r}: not on the map")
    if rules.away == "attackers" and not attackers:
        raise HexwarError("away = 'attackers' needs the attacking cells")
    first = start if origin is None else origin
    search = _PathSearch(
        game_map, rules, length, frozenset(enemies), frozenset(zoc), friends or {}, tuple(movers),
        limit, tuple(attackers), first, len(passed), {first, start, *passed},
    )  # fmt: skip
    search.grow(start, (), 0)
    return sorted(search.out)


@attrs.define
class _PathSearch(Generic[C]):
    """The depth-first search of :func:`retreat_paths` (its arguments, the cells in use)."""

    game_map: GameMap[C]
    rules: RetreatRules
    length: int
    enemies: frozenset[C]
    zoc: frozenset[C]
    friends: Mapping[C, Sequence[Any]]
    movers: tuple[Any, ...]
    limit: StackingLimit | None
    attackers: tuple[C, ...]
    first: C
    done: int
    seen: set[C]
    out: list[RetreatPath[C]] = attrs.Factory(list)

    def far(self, cell: C) -> int:
        distance = self.game_map.topology.distance
        return min(distance(cell, a) for a in self.attackers)

    def step_ok(self, a: C, b: C, depth: int) -> bool:
        game_map, rules = self.game_map, self.rules
        if b in self.seen or b in self.enemies or b not in game_map:
            return False
        if rules.impassable and game_map.terrain(b) in rules.impassable:
            return False
        crossed = game_map.chart.active_features
        if rules.uncrossable and crossed(game_map.hexside(a, b)) & rules.uncrossable:
            return False
        if rules.movement_class is not None and game_map.cost(a, b, rules.movement_class) is None:
            return False
        distance = game_map.topology.distance
        if rules.away == "start" and distance(self.first, b) != self.done + depth:
            return False
        if rules.away == "attackers" and self.far(b) <= self.far(a):
            return False
        if b in self.friends and not rules.through_friends and depth < self.length:
            return False
        return not (rules.enemy_zoc == "forbidden" and self.in_zoc(b))

    def in_zoc(self, cell: C) -> bool:
        return _in_zoc(cell, self.zoc, self.friends, self.rules)

    def grow(self, cell: C, cells: tuple[C, ...], penalties: int) -> None:
        depth = len(cells)
        if depth >= self.length:
            there = tuple(self.friends.get(cell, ())) if cells else ()
            if not cells or self.limit is None or self.limit((*there, *self.movers)) is None:
                self.out.append(RetreatPath(cells, penalties))
                return
            if not self.rules.until_free:
                return
        for nxt in self.game_map.neighbors(cell):
            if self.step_ok(cell, nxt, depth + 1):
                self.seen.add(nxt)
                hit = self.rules.enemy_zoc == "step" and self.in_zoc(nxt)
                self.grow(nxt, (*cells, nxt), penalties + hit)
                self.seen.discard(nxt)


def _in_zoc(
    cell: Any, zoc: frozenset[Any], friends: Mapping[Any, Any], rules: RetreatRules
) -> bool:
    return cell in zoc and not (rules.friends_negate_zoc and cell in friends)


def retreat_options(
    pieces: Pieces[C],
    state: State,
    game_map: GameMap[C],
    cell: C,
    length: int,
    *,
    rules: RetreatRules = RetreatRules(),
    limit: StackingLimit | None = ONE_PER_CELL,
    unit: Callable[[str], Any] | None = None,
    exerts_zoc: Callable[[Any], bool] | None = None,
    attackers: Collection[C] = (),
    origin: C | None = None,
    passed: Sequence[C] = (),
    movers: Sequence[str] | None = None,
) -> list[RetreatPath[C]]:
    """:func:`retreat_paths` for the stack in ``cell`` (or only its pieces ``movers``,
    the others staying), its friends, enemies and the enemy ZOC read from the registry
    (``unit``: ids -> what ``limit`` and ``exerts_zoc`` expect; every enemy unit exerts
    ZOC by default)."""
    ids = tuple(pieces.occupants(state, cell) if movers is None else movers)
    if not ids:
        return []
    side = pieces.side(state, ids[0])
    friends, enemies = pieces.friends_enemies(state, side, unit=unit)
    friends.pop(cell, None)  # the cell left behind is never entered again
    stack = tuple(p if unit is None else unit(p) for p in ids)
    zoc: frozenset[C] = frozenset()
    if rules.enemy_zoc != "ignore" and enemies:
        zoc = zoc_cells(game_map, enemies, exerts_zoc or every_unit_exerts_zoc)
    return retreat_paths(
        game_map, cell, length, rules=rules, enemies=enemies.keys(), zoc=zoc, friends=friends,
        movers=stack, limit=limit, attackers=attackers, origin=origin, passed=passed,
    )  # fmt: skip


def zoc_penalty(
    pieces: Pieces[C],
    state: State,
    game_map: GameMap[C],
    cell: C,
    side: str,
    *,
    rules: RetreatRules,
    unit: Callable[[str], Any] | None = None,
    exerts_zoc: Callable[[Any], bool] | None = None,
) -> bool:
    """Whether a stack of ``side`` retreating into ``cell`` loses a step there for the
    enemy ZOC (``enemy_zoc = "step"``; a friend in it negates it under
    ``friends_negate_zoc``), the pieces read from the registry as :func:`retreat_options`."""
    if rules.enemy_zoc != "step":
        return False
    friends, enemies = pieces.friends_enemies(state, side, unit=unit)
    if not enemies:
        return False
    zoc = zoc_cells(game_map, enemies, exerts_zoc or every_unit_exerts_zoc)
    return _in_zoc(cell, zoc, friends, rules)
