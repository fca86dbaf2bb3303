"""The search player on top of «Сталинград»'s heuristic bot against the heuristic bot
alone, «Сталинград» short (issue 34, criterion 3): the figures of ``docs/agents.md``.

Run: ``python benchmarks/search_vs_heuristic.py [--games N] [--iterations I ...]
[--horizon H] [--seed S] [--seats SEAT ...] [--progress]``.
For each budget ``I`` and each seat it plays ``N`` games of a :class:`SearchPlayer`
(``I`` iterations an action, the heuristic bot as its rollout policy, «Сталинград»'s
evaluation cutting rollouts after ``H`` actions, by default the evaluation's own
horizon) against :class:`~hexwar_stalingrad.heuristic.HeuristicBot`, after ``N`` games of
the heuristic against the heuristic from the same seeds (budget 0), and prints the wins,
losses and draws, the win rate with its Wilson 95 % interval, and the CPU time
(``time.process_time``) per game: the whole game, both players and the rules.

Game ``g`` (``g = S .. S + N - 1``): the seat's player seeded ``g`` (the search and its
rollout bot, or the heuristic alone), the other side's heuristic ``1000 + g``, the dice
(:class:`~hexwar.engine.dice.SeededDriver`) ``2000 + g``. The default seeds, from 30000,
were never used to choose a budget, horizon or weight.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from examples.registry import register_examples

from hexwar.engine import registry
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import Player, play
from hexwar.engine.state import State
from hexwar.search import SearchPlayer
from hexwar.study.stats import wilson
from hexwar_stalingrad.heuristic import HeuristicBot

GAME = "stalingrad-short"


def _new() -> State:
    scenario, options = registry.start(GAME)
    return registry.make(GAME).new_state(scenario, options)


def _seat_player(iterations: int, horizon: int | None, g: int) -> Player:
    if iterations == 0:
        return HeuristicBot(g)
    return SearchPlayer(seed=g, iterations=iterations, horizon=horizon, rollout=HeuristicBot(g))


def run(
    iterations: int, games: int, seat: str, horizon: int | None, seed: int, progress: bool
) -> None:
    sides = _new().ruleset.sides
    won = lost = drawn = 0
    cpu = 0.0
    for g in range(seed, seed + games):
        players: dict[str, Player] = {s: HeuristicBot(1000 + g) for s in sides}
        players[seat] = _seat_player(iterations, horizon, g)
        start = time.process_time()
        end = play(_new(), players, SeededDriver(2000 + g))
        cpu += time.process_time() - start
        winner = None if end.outcome is None else end.outcome.winner
        if winner == seat:
            won += 1
        elif winner is None:
            drawn += 1
        else:
            lost += 1
        if progress:
            print(f"  {iterations} it. {seat} game {g}: {winner or 'draw'}"
                  f"  (CPU so far {cpu:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
    low, high = wilson(won, games)
    who = "heuristic" if iterations == 0 else f"search {iterations} it."
    print(
        f"{seat:10} {who:16} games {games:3}  won {won:3} lost {lost:3} drawn {drawn:3}  "
        f"win {won / games:6.1%} [{low:.1%}, {high:.1%}]  CPU/game {cpu / games:.1f} s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument(
        "--iterations", type=int, nargs="+", default=[0, 10],
        help="budgets; 0: the heuristic alone (the baseline)",
    )  # fmt: skip
    parser.add_argument("--horizon", type=int, default=None)
    parser.add_argument("--seed", type=int, default=30000)
    parser.add_argument("--seats", nargs="*", default=None, help="only these seats")
    parser.add_argument("--progress", action="store_true", help="a line a game on stderr")
    args: Any = parser.parse_args(argv)
    register_examples()
    horizon = "the evaluation's own" if args.horizon is None else args.horizon
    print(f"{GAME}: horizon {horizon}, seeds from {args.seed}")
    for iterations in args.iterations:
        for seat in args.seats or _new().ruleset.sides:
            run(iterations, args.games, seat, args.horizon, args.seed, args.progress)


if __name__ == "__main__":
    main()
