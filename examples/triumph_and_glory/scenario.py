"""Scenario data for the Triumph & Glory example: units, groups, commanders, map (TOML),
and the rule values and refusal reasons of ``data/rules.toml`` (:data:`TABLES`).

Every value is checked at load (set-up stacks against 6.21 too); a bad file raises
:class:`hexwar.base.errors.DataError` naming the file and the entry (e.g.
``shevardino.toml: units.57L.arm: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import DataError
from hexwar.board.map_load import load_map
from hexwar.board.maps import GameMap
from hexwar.board.terrain import load_chart
from hexwar.grid.geometry import Hex

from .board import LIMIT

DATA: Final = Path(__file__).parent / "data"
SIDES: Final = ("french", "russian")
ARMS: Final = ("infantry", "cavalry", "artillery")
CAVALRY_TYPES: Final = ("L", "H", "C")  # 2.0: light, heavy, Cossacks
HORSE_ARTILLERY_ALLOWANCE: Final = 8  # 2.0: artillery with a movement allowance of 8


@attrs.frozen
class Unit:
    """A combat unit's printed values (2.0: strength, allowance, cohesion; cavalry type
    L/H/C; infantry's defensive-fire rating; artillery's effective and maximum range;
    6.21: brigade) and, for a reinforcement, its turn of entry (3.0 B.3, 5.25)."""

    id: str
    side: str
    arm: str
    group: str
    brigade: str
    strength: int
    allowance: int
    cohesion: int
    cavalry: str = ""
    dfr: int = 0
    effective_range: int = 0
    max_range: int = 0
    enters: int = 0

    @property
    def horse(self) -> bool:
        """2.0: horse artillery is artillery with a movement allowance of 8."""
        return self.arm == "artillery" and self.allowance == HORSE_ARTILLERY_ALLOWANCE


@attrs.frozen
class Group:
    """An activation group (5.31) with its marker's individual-order rating (5.28) and
    its markers on its turn of entry as reinforcements (5.32: some get one)."""

    id: str
    side: str
    name: str
    io_rating: int
    entry_markers: int = 2


@attrs.frozen
class Commander:
    """A commander-in-chief's four ratings (5.61; ``delay`` is ``None`` for "no roll"),
    his set-up hex and movement allowance (5.62: 8 unless the scenario says otherwise)."""

    side: str
    name: str
    hex: Hex
    order_rating: int
    drm: int
    delay: int | None
    range: int
    allowance: int = 8


@attrs.frozen
class Scenario:
    """Everything a game of the example starts from."""

    name: str
    game_map: GameMap[Hex]
    turns: int
    objective: Hex
    first_facing: Mapping[str, int]
    commanders: Mapping[str, Commander]
    groups: Mapping[str, Group]
    units: Mapping[str, Unit]
    stacks: Mapping[Hex, tuple[str, ...]]  # top unit first (6.24)
    arrivals: Mapping[int, tuple[tuple[str, Hex], ...]] = attrs.field(factory=dict)  # 5.25
    barrage: frozenset[str] = frozenset()  # 5.33: sides with an artillery barrage marker
    combined: Mapping[str, int] = attrs.field(factory=dict)  # 5.34: uses per game and side
    sources: tuple[str, ...] = ()  # where the placeholder order of battle comes from


@attrs.frozen
class RuleTables:
    """``data/rules.toml``: values that belong in a table and the reasons ``explain`` cites."""

    rear_shift: int
    no_orders_drm: int
    all_round_terrain: frozenset[str]
    fire_long_drm: int  # PLACEHOLDER (section 8): beyond effective range
    fire_steps: int  # PLACEHOLDER (section 8): SP a hit costs a disordered unit
    cavalry_shift: Mapping[str, int]  # PLACEHOLDER (section 9): by cavalry type
    reasons: Mapping[str, tuple[str, str]]  # action kind -> (text, rule)


def load_rule_tables(path: Path = DATA / "rules.toml") -> RuleTables:
    """Load and check ``data/rules.toml``."""
    raw, source = read_data_file(path)
    ck = Checker(source)
    values = ck.table(raw.get("values"), "values")
    reasons = {}
    for kind, entry in sorted(ck.table(raw.get("reasons"), "reasons").items()):
        entry = ck.table(entry, f"reasons.{kind}")
        text, rule = (ck.string(entry.get(k), f"reasons.{kind}.{k}") for k in ("text", "rule"))
        reasons[kind] = (text, rule)
    return RuleTables(
        ck.integer(values.get("rear_shift"), "values.rear_shift", minimum=0),
        ck.integer(values.get("no_orders_drm"), "values.no_orders_drm", minimum=0),
        frozenset(ck.str_list(values.get("all_round_terrain"), "values.all_round_terrain")),
        ck.integer(values.get("fire_long_drm"), "values.fire_long_drm", minimum=0),
        ck.integer(values.get("fire_steps"), "values.fire_steps", minimum=0),
        {
            t: ck.integer(shift.get(t), f"values.cavalry_shift.{t}")
            for shift in [ck.table(values.get("cavalry_shift"), "values.cavalry_shift")]
            for t in CAVALRY_TYPES
        },
        reasons,
    )


TABLES: Final = load_rule_tables()


SCENARIOS: Final = ("shevardino", "borodino")


def load_scenario(name: str = "shevardino") -> Scenario:
    """Load ``data/<name>.toml`` with the example's terrain chart and its map
    (``scenario.map``, default ``map.toml``)."""
    if name not in SCENARIOS:
        raise DataError(f"triumph_and_glory: unknown scenario {name!r} (one of {SCENARIOS})")
    raw, source = read_data_file(DATA / f"{name}.toml")
    head = raw.get("scenario")
    map_file = head.get("map", "map.toml") if isinstance(head, dict) else "map.toml"
    if map_file not in {"map.toml", "borodino_map.toml"}:
        raise DataError(f"{source}: scenario.map: unknown map file {map_file!r}")
    game_map = load_map(DATA / str(map_file), load_chart(DATA / "terrain.toml"))
    return build_scenario(raw, game_map, source)


def build_scenario(raw: dict[str, Any], game_map: GameMap[Hex], source: str) -> Scenario:
    """Check parsed scenario data against ``game_map``; errors name ``source``."""

    ck = Checker(source)
    fail = ck.fail

    def get(table: Mapping[str, Any], key: str, entry: str, kind: type) -> Any:
        where = f"{entry}.{key}" if entry else key
        check = {dict: ck.table, str: ck.string, int: ck.integer}[kind]
        return check(table.get(key), where)

    def cell(label: object, entry: str) -> Hex:
        try:
            h = game_map.cell_at(str(label))
        except ValueError as exc:
            raise fail(entry, str(exc)) from None
        if h not in game_map:
            raise fail(entry, f"hex {label!r} is off the map")
        return h

    head = get(raw, "scenario", "", dict)
    facing = get(head, "first_facing", "scenario", dict)
    if sorted(facing) != sorted(SIDES) or any(facing[s] not in range(6) for s in SIDES):
        raise fail("scenario.first_facing", "need a corner 0-5 for each side")
    commanders = {}
    for side in SIDES:
        c = get(get(raw, "commanders", "", dict), side, "commanders", dict)
        entry = f"commanders.{side}"
        delay = c.get("delay")
        if delay != "none" and (not isinstance(delay, int) or isinstance(delay, bool)):
            raise fail(f"{entry}.delay", f"expected an int or 'none', got {delay!r}")
        commanders[side] = Commander(
            side,
            get(c, "name", entry, str),
            cell(c.get("hex"), f"{entry}.hex"),
            get(c, "order_rating", entry, int),
            get(c, "drm", entry, int),
            None if delay == "none" else delay,
            get(c, "range", entry, int),
            ck.integer(c.get("allowance", 8), f"{entry}.allowance", minimum=0),
        )
    groups = {}
    for gid, g in sorted(get(raw, "groups", "", dict).items()):
        entry = f"groups.{gid}"
        side = ck.choice(g.get("side"), SIDES, f"{entry}.side", "side")
        markers = ck.integer(g.get("entry_markers", 2), f"{entry}.entry_markers", minimum=1)
        io = get(g, "io_rating", entry, int)
        groups[gid] = Group(gid, side, get(g, "name", entry, str), io, min(markers, 2))
    units: dict[str, Unit] = {}
    stacks: dict[Hex, tuple[str, ...]] = {}
    arrivals: dict[int, tuple[tuple[str, Hex], ...]] = {}
    for uid, u in get(raw, "units", "", dict).items():  # file order: stack order (6.24)
        entry = f"units.{uid}"
        arm = ck.choice(u.get("arm"), ARMS, f"{entry}.arm", "arm")
        gid = ck.choice(u.get("group"), groups, f"{entry}.group", "activation group")
        printed = ("strength", "allowance", "cohesion")
        values = [ck.integer(u.get(k), f"{entry}.{k}", minimum=1) for k in printed]
        extra: dict[str, Any] = {}  # 2.0: what the counter prints for its arm
        if arm == "cavalry":
            extra["cavalry"] = ck.choice(u.get("type"), CAVALRY_TYPES, f"{entry}.type", "type")
        elif arm == "infantry":
            extra["dfr"] = ck.integer(u.get("dfr"), f"{entry}.dfr", minimum=0)
        else:
            for k in ("effective_range", "max_range"):
                extra[k] = ck.integer(u.get(k), f"{entry}.{k}", minimum=1)
            if extra["max_range"] < extra["effective_range"]:
                raise fail(f"{entry}.max_range", "shorter than the effective range")
        turn = ck.integer(u.get("enters", 0), f"{entry}.enters", minimum=0)
        brigade = get(u, "brigade", entry, str)
        units[uid] = Unit(uid, groups[gid].side, arm, gid, brigade, *values, **extra, enters=turn)
        h = cell(u.get("hex"), f"{entry}.hex")
        if turn > 1:  # 3.0 B.3, 5.25: a reinforcement enters at its hex on its turn
            arrivals[turn] = (*arrivals.get(turn, ()), (uid, h))
        else:
            stacks[h] = (*stacks.get(h, ()), uid)
    for h, uids in sorted(stacks.items()):  # 6.21 holds at set-up too
        reason = LIMIT([units[u] for u in uids])
        if reason is not None:
            raise fail(f"units.{uids[-1]}.hex", f"{reason} (hex {game_map.label(h)})")
    objective = cell(head.get("objective"), "scenario.objective")
    turns = get(head, "turns", "scenario", int)
    barrage = ck.str_list(head.get("barrage", []), "scenario.barrage")
    for i, side in enumerate(barrage):
        ck.choice(side, SIDES, f"scenario.barrage[{i}]", "side")
    combined_raw = ck.table(head.get("combined", {}), "scenario.combined")
    combined = {
        s: ck.integer(combined_raw.get(s, 0), f"scenario.combined.{s}", minimum=0) for s in SIDES
    }
    sources = tuple(ck.str_list(head.get("sources", []), "scenario.sources"))
    return Scenario(
        get(head, "name", "scenario", str),
        game_map,
        turns,
        objective,
        {s: facing[s] for s in SIDES},
        commanders,
        groups,
        units,
        stacks,
        arrivals,
        frozenset(barrage),
        combined,
        sources,
    )
