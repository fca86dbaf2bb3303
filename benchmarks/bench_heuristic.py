"""Benchmark of the «Сталинград» heuristic bot: CPU time of heuristic-vs-heuristic games.

Run: ``python benchmarks/bench_heuristic.py [--games N] [--seed S] [--length long|short]
[--profile]``. Prints the CPU time (``time.process_time``) of each game, then the min and
the median over the seeds ``S .. S+N-1``; it is not a timed test. Target: <= 0.5 CPU-s per
long game. Game ``i`` is played as ``simulate`` plays it: chance ``SeededDriver(i)``, RKKA
``HeuristicBot(2 i)``, Wehrmacht ``HeuristicBot(2 i + 1)``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import play
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.rules import StalingradRules


def one_game(rules: StalingradRules, seed: int) -> tuple[float, str]:
    """CPU seconds of one heuristic-vs-heuristic game, and its winner."""
    bots = {"rkka": HeuristicBot(2 * seed), "wehrmacht": HeuristicBot(2 * seed + 1)}
    cpu = time.process_time()
    state = play(rules.new_state(), bots, SeededDriver(seed))
    elapsed = time.process_time() - cpu
    assert state.outcome is not None
    return elapsed, state.outcome.winner


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--length", choices=("long", "short"), default="long")
    p.add_argument("--profile", action="store_true", help="cProfile the games, top functions")
    args = p.parse_args()
    rules = StalingradRules(length=args.length)
    one_game(rules, 10_000)  # warm the per-map tables, as a long session would
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for i in range(args.games):
            one_game(rules, args.seed + i)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return
    times = []
    for i in range(args.games):
        seconds, winner = one_game(rules, args.seed + i)
        times.append(seconds)
        print(f"seed {args.seed + i}: {seconds:.3f} CPU-s, {winner}")
    print(
        f"{args.length} game, {args.games} seeds from {args.seed}: CPU-s per game "
        f"min {min(times):.3f}, median {statistics.median(times):.3f}"
    )


if __name__ == "__main__":
    main()
