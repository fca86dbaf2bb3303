"""Balance study of «Сталинград»: the figures of ``docs/stalingrad/balance.md``.

Run: ``python benchmarks/balance.py [--games N] [--vs-random N] [--seed S] [--workers W]
[--only short|long]``. For each game length it plays ``N`` heuristic-vs-heuristic games
and ``--vs-random`` games of the heuristic bot against the random bot on each side, and
prints, with Wilson 95 % intervals:

- the RKKA win rate (S11.1 short, S11.2 long);
- short games: how often the ring around the 6th Army (``victory.encircled``) is closed at
  the end of turn 3 (the historical 23 November), and the 6th Army counters left on the map
  at the end of turn 5;
- long games: of the Wehrmacht wins, how many are a relief contact with a 6th Army unit
  inside the Stalingrad area (ruling S11.2, Dec 2026);
- the heuristic bot's win rate against the random bot, as RKKA and as the Wehrmacht.

Game ``i`` is played as ``simulate`` plays it: seed ``S + i`` for the chance driver, the
RKKA bot seeded ``2 (S + i)``, the Wehrmacht bot ``2 (S + i) + 1``; so the figures do not
depend on ``W`` (processes of a ``multiprocessing`` pool; default 1).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from typing import Any

from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import play
from hexwar.engine.state import State
from hexwar.study import wilson
from hexwar_stalingrad import victory
from hexwar_stalingrad.board import on_map, static
from hexwar_stalingrad.cli import make_bot
from hexwar_stalingrad.rules import StalingradRules

_RULES: dict[str, StalingradRules] = {}


def _rules(length: str) -> StalingradRules:
    if length not in _RULES:
        _RULES[length] = StalingradRules(length=length)
    return _RULES[length]


def _sixth_in_area(state: State) -> list[str]:
    data = static(state)
    return [
        lab
        for lab, u in on_map(state, "wehrmacht")
        if "6th_army" in data.ground[u].groups and lab in data.stalingrad_area
    ]


def _contact_in_area(state: State) -> bool:
    """A relief unit next to a 6th Army unit inside the Stalingrad area (S11.2, Dec 2026)."""
    data = static(state)
    sixth = set(_sixth_in_area(state))
    relief = [
        lab for lab, u in on_map(state, "wehrmacht") if "relief_group" in data.ground[u].groups
    ]
    return any(sixth.intersection(data.neighbors[lab]) for lab in relief)


def play_one(job: tuple[int, str, str, str]) -> dict[str, Any]:
    """One game: its winner and what the study reads from it."""
    seed, rkka, wehrmacht, length = job
    bots = {"rkka": make_bot(rkka, 2 * seed), "wehrmacht": make_bot(wehrmacht, 2 * seed + 1)}
    ends: dict[int, tuple[bool, int]] = {}  # turn -> (encircled, 6th Army counters on map)

    def watch(state: State, action: Action) -> None:
        done = state.turn - 1
        if done >= 1 and done not in ends:
            sixth = static(state).ground
            count = sum(1 for _, u in on_map(state, "wehrmacht") if "6th_army" in sixth[u].groups)
            ends[done] = (victory.encircled(state), count)

    start = time.process_time()
    state = play(_rules(length).new_state(), bots, SeededDriver(seed), on_step=watch)
    cpu = time.process_time() - start
    assert state.outcome is not None
    sixth = static(state).ground
    last = state.turn
    ends[last] = (
        victory.encircled(state),
        sum(1 for _, u in on_map(state, "wehrmacht") if "6th_army" in sixth[u].groups),
    )
    return {
        "seed": seed,
        "winner": state.outcome.winner,
        "closed3": ends.get(3, (False, 0))[0],
        "sixth5": ends.get(5, (False, 0))[1],
        "contact_in_area": _contact_in_area(state),
        "cpu": cpu,
    }


def _rate(label: str, hits: int, n: int) -> str:
    lo, hi = wilson(hits, n)
    rate = hits / n if n else 0.0
    return f"  {label:58s} {hits:4d}/{n:<4d} {rate:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]"


def study(
    length: str, bots: tuple[str, str], games: int, seed: int, workers: int
) -> list[dict[str, Any]]:
    jobs = [(seed + i, bots[0], bots[1], length) for i in range(games)]
    if workers <= 1:
        return [play_one(j) for j in jobs]
    with multiprocessing.Pool(workers) as pool:
        return pool.map(play_one, jobs, chunksize=4)


def report(length: str, bots: tuple[str, str], games: list[dict[str, Any]], seed: int) -> None:
    n = len(games)
    print(
        f"{length} game, rkka={bots[0]} vs wehrmacht={bots[1]}, seeds {seed}..{seed + n - 1}"
        f" (median {statistics.median(g['cpu'] for g in games):.2f} CPU-s a game)"
    )
    rkka = sum(g["winner"] == "rkka" for g in games)
    print(_rate("RKKA wins", rkka, n))
    if bots == ("heuristic", "heuristic"):
        if length == "short":
            print(_rate("ring closed at the end of turn 3", sum(g["closed3"] for g in games), n))
            left = sorted(g["sixth5"] for g in games)
            print(
                f"  6th Army counters on the map at the end of turn 5: median "
                f"{statistics.median(left)}, quartiles {left[n // 4]}-{left[3 * n // 4]}"
            )
        else:
            wins = [g for g in games if g["winner"] == "wehrmacht"]
            print(
                _rate(
                    "Wehrmacht wins by a contact inside the Stalingrad area",
                    sum(g["contact_in_area"] for g in wins),
                    len(wins),
                )
            )
    sys.stdout.flush()


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=400, help="heuristic-vs-heuristic games per length")
    p.add_argument("--vs-random", type=int, default=200, help="games per side vs the random bot")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--only", choices=("short", "long"), default=None)
    p.add_argument(
        "--pairings",
        default="hh,hr,rh",
        help="which pairings to play (comma-separated): hh heuristic vs heuristic, hr heuristic"
        " RKKA vs random Wehrmacht, rh random RKKA vs heuristic Wehrmacht",
    )
    args = p.parse_args()
    wanted = set(args.pairings.split(","))
    print(
        f"python benchmarks/balance.py --games {args.games} --vs-random {args.vs_random} "
        f"--seed {args.seed} --workers {args.workers}"
        + (f" --only {args.only}" if args.only else "")
        + (f" --pairings {args.pairings}" if wanted != {"hh", "hr", "rh"} else "")
    )
    for length in ("short", "long"):
        if args.only not in (None, length):
            continue
        for name, bots, n in (
            ("hh", ("heuristic", "heuristic"), args.games),
            ("hr", ("heuristic", "random"), args.vs_random),
            ("rh", ("random", "heuristic"), args.vs_random),
        ):
            if n and name in wanted:
                report(length, bots, study(length, bots, n, args.seed, args.workers), args.seed)


if __name__ == "__main__":
    main()
