"""The search player (:mod:`hexwar.search`) against uniform random, on every game of the
repository: the figures of ``docs/agents.md``.

Run: ``python benchmarks/search_vs_random.py [--games N] [--iterations I] [--horizon H]
[--seed S] [--only NAME ...] [--seats SEAT ...] [--rollout bot] [--progress]``.
For each game and each seat it plays ``N`` games of the search (``I`` iterations an
action; where the game has an evaluation it cuts rollouts after ``H`` actions, by default
the evaluation's own horizon; ``--rollout bot``: the game's own bot plays the rollouts,
«Сталинград»'s heuristic bot or «Бой отрядов»' :class:`~examples.boy_otryadov.bot.Bot`;
``heuristic`` is another name for it) against :class:`~hexwar.engine.loop.RandomPlayer`,
and ``N`` games of random against random from the same seeds, and prints the wins,
losses and draws, the win rate with its Wilson 95 % interval, and the CPU time
(``time.process_time``) per action the search chose (forced actions, played without a
search, included).

Game ``g`` (``g = S .. S + N - 1``): the search seeded ``g``, the random player
``1000 + g``, the dice (:class:`~hexwar.engine.dice.SeededDriver`) ``2000 + g``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from examples.boy_otryadov.bot import Bot
from examples.classic.rules import Bridgehead
from examples.registry import register_examples

from hexwar.engine import registry
from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import Player, RandomPlayer, play
from hexwar.engine.state import State
from hexwar.search import SearchPlayer
from hexwar.study.stats import wilson
from hexwar_stalingrad.heuristic import HeuristicBot

#: The games: name -> a new state.
GAMES: dict[str, Callable[[], State]] = {}


def _registered(name: str) -> Callable[[], State]:
    def new() -> State:
        scenario, options = registry.start(name)
        return registry.make(name).new_state(scenario, options)

    return new


def _games() -> dict[str, Callable[[], State]]:
    register_examples()
    games = {name: _registered(name) for name in ("crossing", "boy_otryadov", "triumph_and_glory")}
    games["bridgehead"] = lambda: Bridgehead().new_state()
    games["stalingrad-short"] = _registered("stalingrad-short")
    return games


def _bot(name: str, seed: int) -> Player:
    """The game's own bot seeded ``seed``, as a rollout policy."""
    if name.startswith("stalingrad"):
        return HeuristicBot(seed)
    if name == "boy_otryadov":
        return Bot(seed).choose
    raise SystemExit(f"{name} has no bot of its own: use --rollout random")


def run(
    name: str,
    games: int,
    iterations: int,
    horizon: int | None,
    seed: int,
    progress: bool = False,
    seats: list[str] | None = None,
    rollout: str = "random",
) -> None:
    new = _games()[name]
    sides = new().ruleset.sides
    for seat in seats or sides:
        tally = {"search": [0, 0, 0], "random": [0, 0, 0]}
        cpu, actions = 0.0, 0
        for g in range(seed, seed + games):
            for who in ("search", "random"):
                players: dict[str, Player] = {s: RandomPlayer(1000 + g) for s in sides}
                if who == "search":
                    searcher = SearchPlayer(
                        seed=g, iterations=iterations, horizon=horizon,
                        rollout=None if rollout == "random" else _bot(name, g),
                    )  # fmt: skip

                    def timed(state: State, searcher: SearchPlayer = searcher) -> Action:
                        nonlocal cpu, actions
                        start = time.process_time()
                        action = searcher(state)
                        cpu += time.process_time() - start
                        actions += 1
                        return action

                    players[seat] = timed
                end = play(new(), players, SeededDriver(2000 + g))
                winner = None if end.outcome is None else end.outcome.winner
                tally[who][0 if winner == seat else 2 if winner is None else 1] += 1
                if progress:
                    print(f"  {name} {seat} game {g} {who}: {winner or 'draw'}"
                          f"  (search CPU so far {cpu:.0f} s, {actions} actions)",
                          file=sys.stderr, flush=True)  # fmt: skip
        for who, (won, lost, drawn) in tally.items():
            low, high = wilson(won, games)
            line = (
                f"{name:18} {seat:10} {who:6} games {games:3}  won {won:3} lost {lost:3} "
                f"drawn {drawn:3}  win {won / games:6.1%} [{low:.1%}, {high:.1%}]"
            )
            if who == "search":
                line += f"  CPU/action {cpu / max(actions, 1):.3f} s ({actions} actions)"
            print(line, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--horizon", type=int, default=None)
    parser.add_argument("--progress", action="store_true", help="a line a game on stderr")
    parser.add_argument("--seats", nargs="*", default=None, help="only these seats")
    parser.add_argument(
        "--rollout", choices=("random", "bot", "heuristic"), default="random",
        help="the rollout policy: uniform random, or the game's own bot (heuristic: the same)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None)
    args: Any = parser.parse_args(argv)
    names = args.only or list(_games())
    horizon = "the evaluation's own" if args.horizon is None else args.horizon
    print(f"iterations {args.iterations}, horizon {horizon}, seeds from {args.seed}")
    for name in names:
        run(
            name,
            args.games,
            args.iterations,
            args.horizon,
            args.seed,
            args.progress,
            args.seats,
            args.rollout,
        )


if __name__ == "__main__":
    main()
