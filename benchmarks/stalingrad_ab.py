"""Same games, same work? «Сталинград» in two source trees, figures that load cannot blur.

Run: ``python benchmarks/stalingrad_ab.py --old PATH [--games N] [--heuristic N]``
(``PATH``: a checkout of an earlier commit). Each figure comes from a fresh worker
process (``python -c``) against ``src/`` of this tree and of ``PATH``:

- ``games``: one line per seeded long game (token-wise :class:`~hexwar.engine.loop.RandomPlayer`
  seeds ``seed * 31 + i``, chance by ``SeededDriver(seed)``; ``--heuristic`` games of
  :class:`~hexwar_stalingrad.heuristic.HeuristicBot` too): action count and SHA-256 of
  the action texts; the two trees must print the same lines;
- ``opcodes``: Python bytecodes executed by one token-wise game (seed 1, static data
  warm), counted with ``sys.settrace`` — deterministic, unlike CPU time on a shared
  machine; ``calls``: Python function calls of 6 such games (``cProfile``);
- ``clone``: ``clone()`` of a turn-5 state, µs of CPU time per clone (min of 7 x 20 000).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from trees import run_in_tree

HERE = Path(__file__).resolve().parents[1]

_WORKER = r"""
import cProfile, hashlib, pstats, random, sys, time
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar_stalingrad.rules import StalingradRules
rules = StalingradRules(length="long")
mode, n, heuristic = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def players(seed):
    return {s: RandomPlayer(seed * 31 + i) for i, s in enumerate(rules.sides)}

def game(seed, bots=None):
    return play(rules.new_state(), bots or players(seed), SeededDriver(seed))

if mode == "games":
    from hexwar_stalingrad.heuristic import HeuristicBot
    runs = [(s, None) for s in range(n)]
    runs += [(s, {x: HeuristicBot(s * 31 + i) for i, x in enumerate(rules.sides)})
             for s in range(heuristic)]
    for seed, bots in runs:
        state = game(seed, bots)
        text = "\n".join(str(a) for a in state.history)
        kind = "random" if bots is None else "heuristic"
        print(kind, seed, len(state.history), hashlib.sha256(text.encode()).hexdigest()[:16])
elif mode == "opcodes":
    game(99)
    count = [0]
    def local(frame, event, arg):
        if event == "opcode":
            count[0] += 1
        return local
    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        return local
    sys.settrace(tracer)
    state = game(1)
    sys.settrace(None)
    print(f"opcodes {count[0]} ({len(state.history)} actions)")
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(6):
        game(seed)
    profile.disable()
    print(f"calls {pstats.Stats(profile).total_calls} (6 games)")
elif mode == "clone":
    state, driver, rng = rules.new_state(), SeededDriver(5), random.Random(5)
    while state.turn < 5 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))
    best = []
    for _ in range(7):
        t = time.process_time()
        for _ in range(20_000):
            state.clone()
        best.append((time.process_time() - t) / 20_000 * 1e6)
    print(f"clone_us {min(best):.2f}")
"""


def worker(tree: Path, mode: str, games: int, heuristic: int) -> str:
    """Run one worker against ``tree/src``; its output."""
    return run_in_tree(tree, _WORKER, mode, games, heuristic)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--old", type=Path, required=True, help="a checkout of an earlier commit")
    p.add_argument("--games", type=int, default=30, help="token-wise random long games")
    p.add_argument("--heuristic", type=int, default=4, help="heuristic-bot long games")
    p.add_argument("--only", default="games,opcodes,clone")
    args = p.parse_args()
    trees = [("new", HERE), ("old", args.old.resolve())]
    for mode in args.only.split(","):
        out = {name: worker(tree, mode, args.games, args.heuristic) for name, tree in trees}
        if mode == "games":
            same = out["new"] == out["old"]
            lines = len(out["new"].splitlines())
            print(f"games: {lines} games, {'the same' if same else 'DIFFERENT'} actions")
            continue
        for name, text in out.items():
            print(f"{mode:8s} {name}: {' / '.join(text.split(chr(10))).strip(' /')}")


if __name__ == "__main__":
    main()
