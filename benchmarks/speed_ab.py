"""«Сталинград» speed against an older tree, as paired ratios (issue 27, point 3).

Run: ``python benchmarks/speed_ab.py --old PATH [--repeats 5]`` (``PATH``: a checkout of an
earlier commit, e.g. ``git worktree add --detach ../base 0bc0189``). Each repeat runs one
worker process per tree (``python -c``, hash seed 0, ``src/`` and the tree first on the
path), the two in alternating order (A, B, B, A, ...), and each worker measures in CPU time
(``time.process_time``):

- ``short_aps`` / ``long_aps``: token-wise random actions per CPU-s over 40 games of each
  length (game ``g`` of repeat ``r``: seed ``s = 1000 + 100 r + g``, players
  ``RandomPlayer(31 s + i)``, chance ``SeededDriver(s)``), after one warm-up game;
- ``chess_pps``: python-chess random-game plies per CPU-s in the same worker (the anchor);
- ``heuristic_s``: the mean CPU-s of two long games of the heuristic bots.

Printed: each figure's min and median per tree, the paired ratios this / old (min, median,
max), and «Сталинград»'s actions per chess ply for each tree.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from trees import run_in_tree

HERE = Path(__file__).resolve().parents[1]

_WORKER = r"""
import json, random, sys, time
import chess
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.rules import StalingradRules

rep = int(sys.argv[1])
out = {}

def players(rules, make, seed):
    return {s: make(seed * 31 + i) for i, s in enumerate(rules.sides)}

for length in ("short", "long"):
    rules = StalingradRules(length)
    play(rules.new_state(), players(rules, RandomPlayer, 0), SeededDriver(0))  # warm-up
    actions, cpu = 0, time.process_time()
    for g in range(40):
        seed = 1000 + rep * 100 + g
        state = play(rules.new_state(), players(rules, RandomPlayer, seed), SeededDriver(seed))
        actions += len(state.history)
    out[length + "_aps"] = actions / (time.process_time() - cpu)

rng, plies, cpu = random.Random(rep), 0, time.process_time()
for _ in range(60):
    board = chess.Board()
    while not board.is_game_over() and board.ply() < 400:
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
out["chess_pps"] = plies / (time.process_time() - cpu)

rules = StalingradRules("long")
play(rules.new_state(), players(rules, HeuristicBot, 0), SeededDriver(0))  # warm-up
times = []
for g in range(2):
    seed = 500 + rep * 10 + g
    cpu = time.process_time()
    play(rules.new_state(), players(rules, HeuristicBot, seed), SeededDriver(seed))
    times.append(time.process_time() - cpu)
out["heuristic_s"] = sum(times) / len(times)
print(json.dumps(out))
"""


def run(tree: Path, rep: int) -> dict[str, float]:
    """One worker's figures, with ``tree``'s sources first on the path."""
    figures: dict[str, float] = json.loads(run_in_tree(tree, _WORKER, rep))
    return figures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--old", type=Path, required=True, help="a checkout of an earlier commit")
    p.add_argument("--repeats", type=int, default=5, help="workers per tree")
    args = p.parse_args()
    trees = {"this": HERE, "old": args.old.resolve()}
    runs: dict[str, list[dict[str, float]]] = {"this": [], "old": []}
    for rep in range(args.repeats):
        order = ["this", "old"] if rep % 2 == 0 else ["old", "this"]
        for name in order:
            runs[name].append(run(trees[name], rep))
    for key in runs["this"][0]:
        for name in trees:
            values = [r[key] for r in runs[name]]
            low, mid = min(values), statistics.median(values)
            print(f"{key:12} {name:4}: min {low:10.3f}  median {mid:10.3f}")
        ratios = [a[key] / b[key] for a, b in zip(runs["this"], runs["old"], strict=True)]
        print(
            f"{key:12} this/old paired: min {min(ratios):.3f}  "
            f"median {statistics.median(ratios):.3f}  max {max(ratios):.3f}"
        )
    for name in trees:
        long = statistics.median(r["long_aps"] / r["chess_pps"] for r in runs[name])
        short = statistics.median(r["short_aps"] / r["chess_pps"] for r in runs[name])
        print(f"anchor {name}: actions per chess ply, long {long:.3f}, short {short:.3f}")


if __name__ == "__main__":
    main()
