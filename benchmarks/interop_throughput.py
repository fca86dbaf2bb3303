"""Steps per CPU-second of a learning agent's loop on «Сталинград» (issue 35, acceptance 4),
with python-chess plies per CPU-second from the same process as the anchor.

- ``tokens``: the adapter alone — the legal token ids, one random token, the chance
  nodes after it (no observation);
- ``observed``: the same games, and before each step the acting seat's observation
  tensor and action mask (:class:`hexwar.interop.tensor.Dense`), the token drawn from the
  mask: what a single Gymnasium / PettingZoo agent pays;
- ``vector``: :class:`hexwar.interop.vector.HexwarVectorEnv` of ``--envs`` games of one
  seat against random, each agent step a batch (observations, masks) — per game step;
- ``chess``: python-chess random plies (legal moves, push; a new board at the end).

    python benchmarks/interop_throughput.py [--steps 4000] [--length short]
    python benchmarks/interop_throughput.py --count       # bytecodes per step instead

``--count`` prints the Python bytecodes executed per step of ``tokens`` and ``observed``
(``sys.settrace``: slow, but the same on any machine load) and their ratio; CPU figures
need a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _tokens(game: Any, steps: int, seed: int, observe: bool) -> int:
    """``steps`` agent steps of random-token games; with ``observe`` the acting seat's
    tensor and mask first (the token drawn from the mask). The steps taken."""
    from hexwar.interop.pettingzoo import pick_chance
    from hexwar.interop.tensor import Dense

    dense = Dense(game) if observe else None
    rng, chance = random.Random(seed), random.Random(seed + 1)
    ts, taken = game.new_initial_state(), 0
    while taken < steps:
        if ts.is_terminal():
            ts = game.new_initial_state()
        while ts.is_chance_node():
            ts.apply(pick_chance(ts, chance))
        if ts.is_terminal():
            continue
        if dense is not None:
            _, mask = dense.observe(ts, ts.current_player())
            legal = np.flatnonzero(mask)
            ts.apply(int(legal[rng.randrange(len(legal))]))
        else:
            legal = ts.legal_actions()
            ts.apply(legal[rng.randrange(len(legal))])
        taken += 1
    return taken


def _vector(name: str, steps: int, seed: int, envs: int) -> int:
    from hexwar.interop.vector import HexwarVectorEnv

    env = HexwarVectorEnv(name, envs)
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    taken = 0
    while taken < steps:
        actions = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        _, _, _, _, info = env.step(actions)
        taken += envs
    return taken


def _chess(plies: int, seed: int) -> int:
    import chess

    rng = random.Random(seed)
    board, taken = chess.Board(), 0
    while taken < plies:
        if board.is_game_over(claim_draw=False):
            board = chess.Board()
        moves = list(board.legal_moves)
        board.push(moves[rng.randrange(len(moves))])
        taken += 1
    return taken


def per_cpu_second(run: Callable[[], int]) -> float:
    t0 = time.process_time()
    n = run()
    return n / max(time.process_time() - t0, 1e-9)


def bytecodes(run: Callable[[], int]) -> float:
    """Python bytecodes per step of ``run`` (``sys.settrace``)."""
    count = [0]

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            count[0] += 1
        return trace

    sys.settrace(trace)
    try:
        n = run()
    finally:
        sys.settrace(None)
    return count[0] / n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--length", default="short", choices=["short", "long"])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", action="store_true")
    a = parser.parse_args(argv)
    from hexwar.interop.adapter import TokenGame

    name = f"stalingrad-{a.length}"
    game = TokenGame.from_name(name)
    _tokens(game, 300, a.seed + 99, True)  # warm up the memos and kept arrays
    if a.count:
        plain = bytecodes(lambda: _tokens(game, a.steps, a.seed, False))
        seen = bytecodes(lambda: _tokens(game, a.steps, a.seed, True))
        print(f"{name}: bytecodes per step: tokens {plain:.0f}, observed {seen:.0f}")
        print(f"tokens / observed bytecodes: {plain / seen:.2f} (>= 0.5 asked)")
        return
    plain = per_cpu_second(lambda: _tokens(game, a.steps, a.seed, False))
    seen = per_cpu_second(lambda: _tokens(game, a.steps, a.seed, True))
    vec = per_cpu_second(lambda: _vector(name, a.steps, a.seed, a.envs))
    chess_rate = per_cpu_second(lambda: _chess(a.steps * 10, a.seed))
    best = max(seen, vec)
    print(f"{name}: steps per CPU-s")
    print(f"  tokens (no observation)   {plain:10.0f}")
    print(f"  observed (tensor + mask)  {seen:10.0f}")
    print(f"  vector env ({a.envs} games)     {vec:10.0f}")
    print(f"  python-chess plies        {chess_rate:10.0f}")
    print(f"observed / tokens: {best / plain:.2f} (the better of single and vector; >= 0.5 asked)")


if __name__ == "__main__":
    main()
