"""Benchmark of the «Сталинград» heuristic bot: CPU time of heuristic-vs-heuristic games.

Run: ``python benchmarks/bench_heuristic.py [--games N] [--seed S] [--length long|short]
[--rounds R] [--old PATH ...] [--records] [--profile]``. Game ``i`` is played as
``simulate`` and a study play it: chance ``SeededDriver(i)``, RKKA ``HeuristicBot(2 i)``,
Wehrmacht ``HeuristicBot(2 i + 1)``. Every figure is CPU time (``time.process_time``) in
a fresh worker process (``python -c``, ``PYTHONHASHSEED=0``) against ``src/`` of this
tree, and with ``--old PATH`` (a checkout of an earlier commit, e.g. ``git worktree add
--detach /work/old main``) of that tree too, the trees' workers interleaved (A, B, B,
A, ...). Each worker imports the library, builds the rules, then plays seeds
``S .. S+N-1`` in order and seed ``S`` once more. Printed per tree:

- ``warm``: a game as a study plays it (a worker plays many): games 2..N+1 of a worker
  (seeds ``S+1 .. S+N-1`` and ``S`` again), each seed's best over the rounds, min and
  median over the seeds. **The issue's figure (target <= 0.5 CPU-s a long game) is the
  warm median.**
- ``cold``: the first game of a process (seed ``S``), min and median over the rounds;
  ``setup`` = cold minus the same game played warm: the map data built on first use, a
  one-time cost per process; ``import``: importing the library and building the rules.

``--records``: instead, each tree plays short games 10000-10019 and long games
10000-10009 and prints each game's action count and SHA-256 of its action texts; with
``--old`` the two trees must print the same lines (the bot's decisions unchanged).
``--profile``: cProfile the warm games of this tree, top functions. It is not a timed
test.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
from pathlib import Path

from trees import run_in_tree

HERE = Path(__file__).resolve().parents[1]

_WORKER = r"""
import hashlib, json, sys, time
t0 = time.process_time()
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import play
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.rules import StalingradRules
mode, length, seed, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def game(rules, i):
    bots = {"rkka": HeuristicBot(2 * i), "wehrmacht": HeuristicBot(2 * i + 1)}
    return play(rules.new_state(), bots, SeededDriver(i))

if mode == "time":
    rules = StalingradRules(length=length)
    out = {"import": time.process_time() - t0, "games": []}
    for i in [*range(seed, seed + games), seed]:
        cpu = time.process_time()
        game(rules, i)
        out["games"].append([i, time.process_time() - cpu])
    print(json.dumps(out))
else:
    for length, first, count in (("short", 10000, 20), ("long", 10000, 10)):
        rules = StalingradRules(length=length)
        for i in range(first, first + count):
            state = game(rules, i)
            text = "\n".join(str(a) for a in state.history).encode()
            digest = hashlib.sha256(text).hexdigest()[:16]
            print(length, i, len(state.history), state.outcome.winner, digest)
"""


def worker(tree: Path, *args: object) -> str:
    """Run the worker against ``tree/src``; its standard output."""
    return run_in_tree(tree, _WORKER, *args)


def _figures(runs: list[dict[str, object]]) -> str:
    """The warm, cold, setup and import figures of one tree's worker runs."""
    best: dict[int, float] = {}
    cold, setup, imports = [], [], []
    for run in runs:
        games = run["games"]
        assert isinstance(games, list)
        first, rest = games[0], games[1:]
        for i, cpu in rest:
            best[i] = min(cpu, best.get(i, cpu))
        cold.append(first[1])
        setup.append(first[1] - rest[-1][1])
        imports.append(float(run["import"]))  # type: ignore[arg-type]

    def mm(values: list[float]) -> str:
        return f"min {min(values):.3f} / median {statistics.median(values):.3f}"

    warm = list(best.values())
    return (
        f"warm {mm(warm)} ({len(warm)} seeds, best of {len(runs)}); cold {mm(cold)}; "
        f"setup {mm(setup)}; import {mm(imports)}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--length", choices=("long", "short"), default="long")
    p.add_argument("--rounds", type=int, default=3, help="fresh workers per tree")
    p.add_argument("--old", type=Path, action="append", default=[], help="an earlier tree")
    p.add_argument("--records", action="store_true", help="game records, not times")
    p.add_argument("--profile", action="store_true", help="cProfile the warm games")
    args = p.parse_args()
    if args.profile:
        _profile(args.length, args.seed, args.games)
        return
    trees = [("new", HERE)] + [
        (f"old{i + 1}" if i else "old", t.resolve()) for i, t in enumerate(args.old)
    ]
    if args.records:
        out = {name: worker(tree, "records", "-", 0, 0) for name, tree in trees}
        sys.stdout.write(out["new"])
        for name, _ in trees[1:]:
            print(f"{name}: {'the same' if out[name] == out['new'] else 'DIFFERENT'} records")
        return
    runs: dict[str, list[dict[str, object]]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        for name, tree in trees if r % 2 == 0 else trees[::-1]:
            text = worker(tree, "time", args.length, args.seed, args.games)
            runs[name].append(json.loads(text.strip().splitlines()[-1]))
    print(f"{args.length} games, seeds {args.seed}-{args.seed + args.games - 1}, CPU-s:")
    for name, tree in trees:
        print(f"{name} ({tree}): {_figures(runs[name])}")


def _profile(length: str, seed: int, games: int) -> None:
    from hexwar.engine.dice import SeededDriver
    from hexwar.engine.loop import play
    from hexwar_stalingrad.heuristic import HeuristicBot
    from hexwar_stalingrad.rules import StalingradRules

    rules = StalingradRules(length=length)

    def game(i: int) -> None:
        bots = {"rkka": HeuristicBot(2 * i), "wehrmacht": HeuristicBot(2 * i + 1)}
        play(rules.new_state(), bots, SeededDriver(i))

    game(seed + games)  # warm the map data
    prof = cProfile.Profile()
    prof.enable()
    for i in range(seed, seed + games):
        game(i)
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
