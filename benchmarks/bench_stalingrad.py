"""Benchmark of «Сталинград»: full random games per second and ``clone()`` of a mid-game state.

Run: ``python benchmarks/bench_stalingrad.py [--games N] [--profile]``. Prints figures; it
is not a timed test. Targets: >= 20 random 10-turn games per second on one core, median
``clone()`` <= 50 µs.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from hexwar.dice import SeededDriver
from hexwar_stalingrad.bots import RandomBot, play_game
from hexwar_stalingrad.rules import StalingradRules


def games_per_second(rules: StalingradRules, games: int, seed: int = 0) -> tuple[float, float, int]:
    """Random long games on one core: (games per second of wall-clock time, of this
    process's CPU time — steadier on a shared machine —, total actions)."""
    play_game(rules, seed=10_000)  # warm the caches (map, reach) as a long session would
    actions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        actions += len(play_game(rules, seed=seed + i).history)
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu), actions


def mid_game(rules: StalingradRules, seed: int = 0):  # type: ignore[no-untyped-def]
    """A random game's state at turn 5 (mid-game: cards, losses, aviation)."""
    driver = SeededDriver(seed)
    bots = {s: RandomBot(seed + i) for i, s in enumerate(rules.sides)}
    state = rules.new_state()
    while state.turn < 5 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
        else:
            state.apply_unchecked(bots[state.current_player()](state))
    return state


def clone_median_us(state, repeats: int = 2000) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        state.clone()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--profile", action="store_true", help="cProfile the games, top functions")
    args = p.parse_args()
    rules = StalingradRules(length="long")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    rate, cpu_rate, actions = games_per_second(rules, args.games)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    print(
        f"random 10-turn games: {rate:.2f} games/s on one core ({cpu_rate:.2f} per CPU "
        f"second; {actions / args.games:.0f} actions per game; target >= 20)"
    )
    state = mid_game(rules)
    tables = sum(len(state.table(t)) for t in ("units", "at", "air", "cards", "zob"))
    print(
        f"clone() of a turn-5 state ({tables} table entries): median "
        f"{clone_median_us(state):.1f} µs (target <= 50)"
    )


if __name__ == "__main__":
    main()
