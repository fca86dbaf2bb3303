"""``python -m hexwar demo``: a short tour of the core, printed to the terminal;
``python -m hexwar study MODULE:RULESET ...``: a balance study (``docs/studies.md``).

It builds a small map with forest and a river, puts one friendly and two enemy units on
it, and prints where the friendly unit may end its move (ZOC-aware, S6.2-S6.4), the odds
of an attack on a combat results table as exact fractions, and a seeded die roll.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hexwar.board.maps import GameMap, build_map, rectangle
from hexwar.board.movement import reachable
from hexwar.board.terrain import chart_from_dict
from hexwar.engine.dice import D6, SeededDriver
from hexwar.grid.coords import offset_to_hex
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_values import CombatResult

COLUMNS, ROWS = 9, 7
CHART = {
    "terrain": {"clear": {}, "forest": {}},
    "hexside": {"river": {}},
    "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}, "hexside": {"river": 1}}},
}
FOREST = {(3, 2), (3, 3), (4, 3)}
# Every hexside between offset columns 4 and 5 (printed 05 and 06): an even column's
# right-hand neighbours in odd-q are the same row and the row above.
RIVER = [((4, r), (5, r + dr)) for r in range(ROWS) for dr in (-1, 0) if 0 <= r + dr < ROWS]


def demo_map() -> GameMap[Hex]:
    """A 9 x 7 odd-q map: clear, three forest hexes, a river between columns 05 and 06."""
    cells = rectangle(COLUMNS, ROWS, "odd-q")
    terrain = {h: "clear" for h in cells}
    for col, row in FOREST:
        terrain[offset_to_hex(col, row)] = "forest"
    sides = {}
    for (ca, ra), (cb, rb) in RIVER:
        a, b = offset_to_hex(ca, ra), offset_to_hex(cb, rb)
        sides[(a, b)] = {"river"}
    return build_map(chart_from_dict(CHART), terrain, hexsides=sides, offset="odd-q")


def picture(game_map: GameMap[Hex], costs: dict[Hex, float], units: dict[Hex, str]) -> str:
    """The map as text, one row per offset row; odd columns sit half a row lower."""
    lines = []
    for row in range(ROWS):
        for half in (0, 1):
            cells = []
            for col in range(COLUMNS):
                if col % 2 != half:
                    cells.append("   ")
                    continue
                h = offset_to_hex(col, row)
                if h in units:
                    cells.append(f" {units[h]} ")
                elif h in costs:
                    cells.append(f" {int(costs[h])} ")
                else:
                    cells.append(" ^ " if game_map.terrain(h) == "forest" else " . ")
            lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def demo() -> None:
    """Print the tour."""
    game_map = demo_map()
    me, foes = offset_to_hex(1, 3), [offset_to_hex(4, 1), offset_to_hex(5, 5)]
    reach = reachable(game_map, me, "foot", 5, enemies=foes)
    units = {me: "A"} | {f: "E" for f in foes}
    print("hexwar demo")
    print(f"\n1. Where may unit A (5 movement points) end its move? {len(reach)} hexes;")
    print("   digits are costs, ^ forest (2 MP), E enemies; entering an E's neighbour stops A;")
    print("   crossing the river between columns 05 and 06 costs +1.\n")
    print(picture(game_map, dict(reach.costs), units))
    target = max(reach, key=lambda h: (reach.costs[h], h))
    path = " -> ".join(game_map.label(h) for h in reach.path_to(target))
    print(f"\n   one cheapest path to {game_map.label(target)}: {path}")

    table = OddsTable.build(
        columns=["1:1", "2:1", "3:1"],
        rows={
            1: ["AL", "NE", "DR"],
            2: ["NE", "DR", "DR"],
            3: ["NE", "DR", "DE"],
            4: ["DR", "DR", "DE"],
            5: ["DR", "DE", "DE"],
            6: ["DE", "DE", "DE"],
        },
        results={
            "AL": CombatResult("AL", rank=0, attacker_steps=1),
            "NE": CombatResult("NE", rank=1),
            "DR": CombatResult("DR", rank=2, retreat=1),
            "DE": CombatResult("DE", rank=3, eliminated=True),
        },
        rule="S8.2",
    )
    dist = table.distribution(9, 4)
    column = table.column_for(9, 4)
    print(f"\n2. An attack at 9 vs 4 is on the {column} column (odds rounded down):")
    for code, p in dist.outcomes:
        print(f"   {code.code}: {p} ({float(p):.0%})")
    roll = D6.roll(SeededDriver(1942))
    print(f"\n3. A seeded d6 roll (seed 1942) gives {roll}: {table.resolve(9, 4, roll=roll).code}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["study"]:  # its own parser: python -m hexwar study MODULE:RULESET ...
        from hexwar.study.cli import main as study

        return study(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m hexwar", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a short tour of the core")
    sub.add_parser("study", help="a balance study of MODULE:RULESET (docs/studies.md)")
    serve = sub.add_parser("serve", help="play a game in the browser (docs/web.md)")
    serve.add_argument("game", nargs="+", help="MODULE:NAME of a WebGame or a Ruleset class")
    from hexwar.web.serve import add_arguments, resolve, run

    add_arguments(serve)
    args = parser.parse_args(argv)
    if args.command == "serve":
        try:
            games = [resolve(spec) for spec in args.game]
        except (ValueError, ImportError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return run(games, args)
    try:
        if args.command == "demo":
            demo()
            sys.stdout.flush()
    except BrokenPipeError:  # ``python -m hexwar demo | head``: the reader went away
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's last flush is quiet
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
