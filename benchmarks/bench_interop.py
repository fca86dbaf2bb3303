"""The PettingZoo step on «Сталинград» (issue 14, acceptance 4): per agent step, the
action mask, the step (one token, with the chance nodes after it) and the observation
tensor (``env.last()``) and the step (one token; the whole action when it completes it,
then the chance nodes after it). CPU time (``time.process_time_ns``) per step over
random-token games: the median, the minimum of the per-game medians, and the medians of
the steps that applied an action and of those that only extended the prefix.

    python benchmarks/bench_interop.py [--games 3] [--length short]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from hexwar.interop.pettingzoo import HexwarAEC


def bench(
    name: str, games: int, seed: int
) -> tuple[list[float], list[float], list[float], list[float]]:
    env = HexwarAEC(name)
    rng = random.Random(seed)
    steps: list[float] = []
    medians: list[float] = []
    applied: list[float] = []
    prefix_only: list[float] = []
    for game in range(games):
        env.reset(seed=seed + game)
        mine: list[float] = []
        while not all(env.terminations.values()):
            t0 = time.process_time_ns()
            obs, _, _, _, _ = env.last()  # the observation tensor and the action mask
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            before = len(env.ts.state.history)
            env.step(action)  # one token (the action when it is complete), then chance
            took = (time.process_time_ns() - t0) / 1000
            mine.append(took)
            if len(env.ts.state.history) != before:
                applied.append(took)
            else:
                prefix_only.append(took)
        steps += mine
        medians.append(statistics.median(mine))
    return steps, medians, applied, prefix_only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--length", default="short", choices=("short", "long"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    steps, medians, applied, prefix_only = bench(f"stalingrad-{args.length}", args.games, args.seed)
    print(
        f"stalingrad-{args.length}: {len(steps)} steps in {args.games} games; per step "
        f"median {statistics.median(steps):.0f} µs, min of game medians {min(medians):.0f} µs, "
        f"mean {statistics.fmean(steps):.0f} µs"
    )
    for what, xs in (("applied an action", applied), ("only extended the prefix", prefix_only)):
        if xs:
            print(f"  {len(xs)} steps {what}: median {statistics.median(xs):.0f} µs")


if __name__ == "__main__":
    main()
