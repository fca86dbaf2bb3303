"""Bridgehead's data: the map, the counters, the combat results table, the turn track.

Blue attacks from the west across the Vetka river (one bridge, at 0403/0503) toward three
towns Red holds; Red defends and takes its replacements in the towns it still holds.
"""

from __future__ import annotations

from typing import Final

from hexwar import (
    GameMap,
    Hex,
    OddsTable,
    build_map,
    chart_from_dict,
    offset_to_hex,
    rectangle,
)

COLUMNS, ROWS = 9, 7
SIDES: Final = ("blue", "red")
TURNS: Final = 6
#: The weather of each turn: mud makes every step one point dearer (the map variant).
WEATHER: Final = ("dry", "dry", "mud", "dry", "dry", "dry")
MUD_COST: Final = {"clear": 2, "forest": 3, "town": 2}
#: Replacement points each side receives per turn (kept when unspent).
REPLACEMENT_POINTS: Final = 1
#: Towns Blue must hold after the last turn to win.
TOWNS_TO_WIN: Final = 2

CHART = chart_from_dict(
    {
        "terrain": {"clear": {}, "forest": {}, "town": {}},
        "hexside": {"river": {}, "bridge": {"negates": ["river"]}},
        "movement": {
            "foot": {"terrain": {"clear": 1, "forest": 2, "town": 1}, "hexside": {"river": "stop"}},
            "tracked": {
                "terrain": {"clear": 1, "forest": 3, "town": 1},
                "hexside": {"river": "stop"},
            },
        },
    }
)


def cell(label: str) -> Hex:
    """The cell of a printed label ``CCRR`` (columns and rows from 1, odd-q)."""
    return offset_to_hex(int(label[:2]) - 1, int(label[2:]) - 1, "odd-q")


FOREST: Final = ("0202", "0203", "0605", "0606", "0704", "0302", "0805")
TOWNS: Final = ("0602", "0704", "0806")
RIVER_WEST: Final = 4  # the river runs between columns 4 and 5
BRIDGE_ROW: Final = 3


def bridgehead_map(columns: int = COLUMNS, rows: int = ROWS) -> GameMap[Hex]:
    """The map, ``columns`` x ``rows`` hexes (default the printed 9x7): the same forests,
    towns, river and bridge; each side's supply edge is its outermost column."""
    cells = rectangle(columns, rows, "odd-q")
    terrain = {c: "clear" for c in cells}
    terrain |= {cell(lab): "forest" for lab in FOREST}
    terrain |= {cell(lab): "town" for lab in TOWNS}
    west = {c for c in cells if c.q == RIVER_WEST - 1}
    sides: dict[tuple[Hex, Hex], set[str]] = {}
    for a in west:
        for b in a.neighbors():
            if b in terrain and b.q == RIVER_WEST:
                bridge = cell(f"{RIVER_WEST:02d}{BRIDGE_ROW:02d}") == a
                sides[(a, b)] = {"river", "bridge"} if bridge else {"river"}
    tags: dict[Hex, list[str]] = {c: ["supply:blue"] for c in cells if c.q == 0}
    tags |= {c: ["supply:red"] for c in cells if c.q == columns - 1}
    for lab in TOWNS:
        tags[cell(lab)] = [*tags.get(cell(lab), []), "town"]
    return build_map(CHART, terrain, tags=tags, hexsides=sides, offset="odd-q", name="bridgehead")


MAP: Final = bridgehead_map()

#: The counters' steps, strongest first (the back of the counter is the reduced step).
INFANTRY: Final = ({"attack": 4, "defence": 4, "move": 3}, {"attack": 2, "defence": 2, "move": 3})
ARMOUR: Final = ({"attack": 6, "defence": 3, "move": 5}, {"attack": 3, "defence": 2, "move": 4})
MILITIA: Final = ({"attack": 2, "defence": 3, "move": 3}, {"attack": 1, "defence": 2, "move": 2})
#: id -> (side, track, movement class, set-up hex)
UNITS: Final = {
    "b-1inf": ("blue", INFANTRY, "foot", "0103"),
    "b-2inf": ("blue", INFANTRY, "foot", "0105"),
    "b-3arm": ("blue", ARMOUR, "tracked", "0204"),
    "b-4arm": ("blue", ARMOUR, "tracked", "0102"),
    "r-1inf": ("red", INFANTRY, "foot", "0602"),
    "r-2inf": ("red", INFANTRY, "foot", "0504"),
    "r-3mil": ("red", MILITIA, "foot", "0704"),
    "r-4mil": ("red", MILITIA, "foot", "0806"),
}

CRT = OddsTable.build(
    columns=["1:2", "1:1", "2:1", "3:1", "4:1"],
    rows={
        1: ["AE", "AL", "AL", "NE", "DR"],
        2: ["AL", "AL", "NE", "DR", "DR"],
        3: ["AL", "NE", "DR", "DR", "EX"],
        4: ["NE", "DR", "DR", "EX", "DL"],
        5: ["DR", "DR", "EX", "DL", "DE"],
        6: ["DR", "EX", "DL", "DE", "DE"],
    },
    results={
        "AE": {"rank": -2, "attacker_steps": 2},
        "AL": {"rank": -1, "attacker_steps": 1},
        "NE": {},
        "DR": {"rank": 1, "retreat": 1},
        "EX": {"rank": 2, "defender_steps": 1, "flags": ("exchange",)},
        "DL": {"rank": 3, "defender_steps": 1, "retreat": 1},
        "DE": {"rank": 4, "eliminated": True},
    },
    dice="d6",
    name="bridgehead-crt",
)
