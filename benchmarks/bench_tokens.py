"""Token steps and state primitives on the toy Duel (``tests/toy_game.py``); prints figures.

``python benchmarks/bench_tokens.py``: CPU time (``time.process_time``) of

- a token step: ``TokenStepper.mask()`` + ``step(id)`` (uniformly random among the mask;
  the step that closes an action applies it, with the sequencer's settling), along
  random Duel games — median and min per step, and the timer's own cost;
- ``State.get`` / ``State.put`` (outside an action, so without a journal) / ``clone()``
  on a Duel state at its first move phase — mean over a batch, min and median over
  repeats;
- whole random games (``RandomPlayer`` for both sides) per CPU second.

``--ops-only`` prints only the primitives (it also runs against older sources without
``TokenStepper``: ``PYTHONPATH=<old>/src:<old>/tests``), so before/after runs can be
interleaved by the caller.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))  # after PYTHONPATH

from hexwar.engine.dice import SeededDriver
from toy_game import Duel


def _at_move() -> Any:
    state = Duel().new_state()
    state.apply("deal dud")
    state.apply("deal ambush")
    return state


def _batch(fn: Any, n: int) -> float:
    start = time.process_time()
    fn(n)
    return (time.process_time() - start) / n * 1e6


def primitives(repeats: int, n: int) -> dict[str, list[float]]:
    state = _at_move()
    get = state.get
    put = state.put

    def gets(k: int) -> None:
        for _ in range(k):
            get("units", "red")

    def puts(k: int) -> None:
        for i in range(k):
            put("scratch", "x", i)

    def clones(k: int) -> None:
        for _ in range(k):
            state.clone()

    out: dict[str, list[float]] = {"get": [], "put": [], "clone": []}
    for _ in range(repeats):
        out["get"].append(_batch(gets, n))
        out["put"].append(_batch(puts, n))
        out["clone"].append(_batch(clones, n // 10))
    return out


def token_steps(games: int, seed: int) -> tuple[dict[str, list[float]], float]:
    """Token steps by place: the first of an action (the position's answers are built),
    the inner ones, the closing one (the action is applied and the sequencer settles)."""
    from hexwar.engine.loop import TokenStepper

    rng, driver = random.Random(seed), SeededDriver(seed)
    clock = time.process_time
    steps: dict[str, list[float]] = {"first": [], "inner": [], "closing": []}
    for _ in range(games):
        state = Duel().new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(driver.pick(state.chance_outcomes()))
                continue
            stepper = TokenStepper(state)
            while True:
                first = not stepper.prefix
                start = clock()
                mask = stepper.mask()
                done = stepper.step(mask[rng.randrange(len(mask))])
                took = (clock() - start) * 1e6
                place = "closing" if done is not None else "first" if first else "inner"
                steps[place].append(took)
                if done is not None:
                    break
    overhead = []
    for _ in range(10_000):
        start = clock()
        overhead.append((clock() - start) * 1e6)
    return steps, statistics.median(overhead)


def random_games(games: int, seed: int) -> tuple[float, float]:
    """Random Duel games (RandomPlayer for both sides): games and actions per CPU second."""
    from hexwar.engine.loop import RandomPlayer, play

    start, actions = time.process_time(), 0
    for g in range(games):
        players = {"red": RandomPlayer(seed + 2 * g), "blue": RandomPlayer(seed + 2 * g + 1)}
        actions += len(play(Duel().new_state(), players, SeededDriver(seed + g)).history)
    took = time.process_time() - start
    return games / took, actions / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops-only", action="store_true")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    for name, values in primitives(args.repeats, args.n).items():
        print(f"{name:5} min {min(values):.3f} µs  median {statistics.median(values):.3f} µs")
    per_game, per_action = random_games(args.games, 1)
    print(f"random games per CPU s: {per_game:.0f} ({per_action:.0f} actions per CPU s)")
    if args.ops_only:
        return
    steps, overhead = token_steps(args.games, 1)
    every = [t for ts in steps.values() for t in ts]
    print(f"token step (mask + step) in {args.games} games, timer pair {overhead:.2f} µs included:")
    for place, ts in (*steps.items(), ("all", every)):
        median = statistics.median(ts)
        print(f"  {place:8} {len(ts):5} steps  median {median:5.1f} µs  min {min(ts):5.1f} µs")


if __name__ == "__main__":
    main()
