"""Shared mechanisms at scale: µs per action of random games, «Сталинград» short against
*Bridgehead* (``examples/classic``) on its printed 9x7 map and on larger maps.

Run: ``python benchmarks/bench_scale.py [--games N] [--repeats R] [--sizes 9x7,36x28,90x70]
[--old PATH] [--count]``. Each figure comes from a fresh worker process (``python -c``,
hash seed 0) against a source tree; the games are token-wise random games
(:class:`hexwar.engine.loop.RandomPlayer`, seed ``s``: players ``s * 31 + i``, chance
``SeededDriver(s)``), one warm-up game first (the map's compiled data are built once per
map). Printed per game: CPU µs per action (``time.process_time``), actions per game, and
the ratios the issue asks for (*Bridgehead* ÷ «Сталинград» short; each size ÷ 9x7);
beside them, from the same worker as «Сталинград», the anchor: python-chess random-game
plies per CPU-s. With ``--old PATH`` (a checkout of an earlier commit) the same workers run
against that tree too, alternating. *Bridgehead*'s map size is its rules option:
``Bridgehead(columns=90, rows=70)`` (a tree whose Bridgehead has no such option gets its
``data`` map rebuilt at that size before the rules are imported).

``--count`` prints, instead of times, the Python function calls per action (cProfile's
count over the same games), a figure the machine's load does not blur; for machine
instructions run a worker under ``valgrind --tool=callgrind`` (see ``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

_WORKER = r"""
import json, random, sys, time
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
game, games, count = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"

def rules_of(game):
    if game == "stalingrad":
        from hexwar_stalingrad.rules import StalingradRules
        return StalingradRules("short")
    columns, rows = map(int, game.split("x"))
    import inspect
    from examples.classic import data
    if "columns" not in inspect.signature(data.__dict__.get("bridgehead_map", len)).parameters:
        data.COLUMNS, data.ROWS = columns, rows   # an older tree: its map rebuilt
        data.MAP = data._map()
        from examples.classic.rules import Bridgehead
        return Bridgehead()
    from examples.classic.rules import Bridgehead
    return Bridgehead(columns=columns, rows=rows)

def run(rules, seed):
    players = {s: RandomPlayer(seed * 31 + i) for i, s in enumerate(rules.sides)}
    return len(play(rules.new_state(), players, SeededDriver(seed)).history)

rules = rules_of(game)
run(rules, 10_000)  # warm: the map's compiled data, built once per map
out = {}
if count:
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.enable()
    actions = sum(run(rules, seed) for seed in range(games))
    prof.disable()
    calls = sum(v[1] for v in pstats.Stats(prof).stats.values())
    out = {"calls_per_action": calls / actions, "actions_per_game": actions / games}
else:
    cpu = time.process_time()
    actions = sum(run(rules, seed) for seed in range(games))
    cpu = time.process_time() - cpu
    out = {"us_per_action": cpu / actions * 1e6, "actions_per_game": actions / games}
    if game == "stalingrad":
        import chess
        plies, cpu = 0, time.process_time()
        for i in range(20):
            rng, board = random.Random(i), chess.Board()
            while not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
                plies += 1
        out["chess_plies_per_cpu_s"] = plies / (time.process_time() - cpu)
print(json.dumps(out))
"""


def run_in_tree(tree: Path, *args: object) -> str:
    """The worker's output with ``tree/src`` and ``tree`` (its examples) first on the path."""
    path = f"{tree / 'src'}{os.pathsep}{tree}"
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    argv = [sys.executable, "-c", _WORKER, *map(str, args)]
    return subprocess.run(
        argv, env=env, capture_output=True, text=True, check=True, cwd=tree
    ).stdout


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=20, help="random games per figure")
    p.add_argument("--repeats", type=int, default=3, help="workers per figure and tree")
    p.add_argument("--sizes", default="9x7,36x28,90x70", help="Bridgehead's map sizes")
    p.add_argument("--old", type=Path, help="a checkout of an earlier commit, alternating")
    p.add_argument("--count", action="store_true", help="function calls per action")
    args = p.parse_args()
    trees = [("this", HERE)] + ([("old", args.old.resolve())] if args.old else [])
    games = ["stalingrad", *args.sizes.split(",")]
    figure = "calls_per_action" if args.count else "us_per_action"
    runs: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(args.repeats):
        order = trees if r % 2 == 0 else trees[::-1]  # A, B, B, A, ...
        for game in games:
            for name, tree in order:
                line = run_in_tree(tree, game, args.games, int(args.count))
                runs.setdefault((name, game), []).append(json.loads(line))
    for name, _ in trees:
        print(f"tree: {name}")
        med = {g: statistics.median(x[figure] for x in runs[(name, g)]) for g in games}
        for g in games:
            per_game = statistics.median(x["actions_per_game"] for x in runs[(name, g)])
            row = f"  {g:>10}: {figure} {med[g]:9.1f} (actions per game {per_game:.1f})"
            if g != "stalingrad":
                row += f"  ÷ Сталинград short {med[g] / med['stalingrad']:.2f}"
                if g != games[1]:
                    row += f"  ÷ {games[1]} {med[g] / med[games[1]]:.2f}"
            print(row)
        if not args.count:
            chess = statistics.median(
                x["chess_plies_per_cpu_s"] for x in runs[(name, "stalingrad")]
            )
            print(f"  anchor: python-chess random-game plies per CPU-s {chess:,.0f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
