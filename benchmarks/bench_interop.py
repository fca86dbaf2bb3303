"""The PettingZoo step on «Сталинград» (issue 14, acceptance 4).

One agent step is ``env.last()`` (the observation tensor and the action mask) and
``env.step`` (one token — the whole action when it completes one — then the chance nodes
after it), for random legal tokens. CPU time (``time.process_time_ns``) per step over
random-token games: the median over all steps (and the minimum of the per-game medians),
the medians of the steps that applied an action and of those that only extended the
prefix, and the two halves (``last``, ``step``) apart; ``last()`` by kind of position (the
same as the step before's, a new one whose pieces tables and hidden entries are
unchanged, or one where they changed: what the observation's memos keep or recompute).

    python benchmarks/bench_interop.py [--games 3] [--length short]
    python benchmarks/bench_interop.py --repeats 5 --old /tmp/main-tree
    python benchmarks/bench_interop.py --repeats 5 --tokens-all --old build/accel
    python benchmarks/bench_interop.py --count --old /tmp/main-tree

With ``--old TREE`` (a checkout whose ``src`` holds another hexwar) each repeat runs one
worker process per tree (``PYTHONPATH=<tree>/src``), interleaved A, B, B, A, ..., with the
same seeds; the table gives the min / median over the repeats of each figure. The steps
without a tensor (``--tokens``) run in this tree only, or in every tree with
``--tokens-all`` (a tree with the same sources, such as the compiled copy of
``tools/build_accel.py``).

``--count`` prints instead the Python bytecodes executed and the calls made (Python and
C functions both) per step by ``env.last()`` and by ``env.step()``, over the same games
after one warm-up game (``sys.settrace`` and ``sys.setprofile``: slow, but the same
count on any machine load; with ``--old``, one fresh process per tree).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()
#: The steps by what changed since the step before (``last()`` medians apart).
KINDS = (
    "applied",
    "prefix_only",
    "last(), same position",
    "last(), new position, same pieces",
    "last(), pieces or hidden entries changed",
)


def _reads(env: Any) -> tuple[str, ...]:
    """The tables the board's planes read, and the hidden-entry tables."""
    from hexwar.engine import state as core_state

    board = env.game.encoder.view.board
    hidden = (core_state._HIDDEN_TABLE, core_state._HIDDEN_KEYS_TABLE)
    return (*(board.reads or ()), *hidden) if board is not None else hidden


def _kind(
    env: Any, reads: tuple[str, ...], seen: tuple[int, tuple[int, ...]] | None
) -> tuple[str, tuple[int, tuple[int, ...]]]:
    """The kind of the position ``env`` observes next (see ``KINDS``), and what it saw."""
    st = env.ts.state
    before, tables = st.version, tuple(st.table_version(t) for t in reads)
    if seen is not None and seen[0] == before:
        kind = "last(), same position"
    elif seen is not None and seen[1] == tables:
        kind = "last(), new position, same pieces"
    else:
        kind = "last(), pieces or hidden entries changed"
    return kind, (before, tables)


def bench(name: str, games: int, seed: int) -> dict[str, list[float]]:
    """Per-step CPU times (µs) of ``games`` random-token games of ``name``."""
    from hexwar.interop.pettingzoo import HexwarAEC

    env = HexwarAEC(name)
    rng = random.Random(seed)
    out: dict[str, list[float]] = {k: [] for k in (*KINDS, "all", "game_medians", "last", "step")}
    reads = _reads(env)
    clock = time.process_time_ns
    for game in range(games):
        env.reset(seed=seed + game)
        mine: list[float] = []
        seen: tuple[int, tuple[int, ...]] | None = None
        while not all(env.terminations.values()):
            before = env.ts.state.version
            kind, seen = _kind(env, reads, seen)  # the kind of position (not timed)
            t0 = clock()
            obs, _, _, _, _ = env.last()  # the observation tensor and the action mask
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            t1 = clock()
            env.step(action)  # one token (the action when it is complete), then chance
            t2 = clock()
            took = (t2 - t0) / 1000
            mine.append(took)
            out["last"].append((t1 - t0) / 1000)
            out["step"].append((t2 - t1) / 1000)
            out[kind].append((t1 - t0) / 1000)
            out["applied" if env.ts.state.version != before else "prefix_only"].append(took)
        out["all"] += mine
        out["game_medians"].append(statistics.median(mine))
    return out


def bench_tokens(name: str, games: int, seed: int) -> list[float]:
    """The same games' steps without the observation: the legal token ids, one token
    (then the chance nodes): what the rules and the adapter cost, with no tensor."""
    from hexwar.interop.adapter import TokenGame
    from hexwar.interop.pettingzoo import pick_chance

    game = TokenGame.from_name(name)
    rng = random.Random(seed)
    out: list[float] = []
    clock = time.process_time_ns
    for g in range(games):
        chance = random.Random(seed + g)
        ts = game.new_initial_state()
        while ts.is_chance_node():
            ts.apply(pick_chance(ts, chance))
        while not ts.is_terminal():
            t0 = clock()
            legal = sorted(ts.legal_ids())
            ts.apply(legal[rng.randrange(len(legal))])
            while ts.is_chance_node():
                ts.apply(pick_chance(ts, chance))
            out.append((clock() - t0) / 1000)
    return out


def count(name: str, games: int, seed: int) -> dict[str, float]:
    """Bytecodes and calls per step of ``env.last()`` and ``env.step()`` (see the module
    text), the steps as in :func:`bench`; one warm-up game first (seed ``seed + games``)."""
    from hexwar.interop.pettingzoo import HexwarAEC

    env = HexwarAEC(name)
    per_step: dict[str, list[list[int]]] = {"last": [], "step": []}
    now = [0, 0]

    def opcodes(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            now[0] += 1
        return opcodes

    def calls(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            now[1] += 1

    reads = _reads(env)
    by_kind: dict[str, list[int]] = {k: [] for k in KINDS[2:]}
    for game in (games, *range(games)):
        rng = random.Random(seed + game)
        env.reset(seed=seed + game)
        seen: tuple[int, tuple[int, ...]] | None = None
        while not all(env.terminations.values()):
            kind, seen = _kind(env, reads, seen)
            now[:] = 0, 0
            sys.settrace(opcodes)
            sys.setprofile(calls)
            obs, _, _, _, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            last, now[:] = list(now), (0, 0)
            env.step(action)
            sys.settrace(None)
            sys.setprofile(None)
            if game != games:
                per_step["last"].append(last)
                per_step["step"].append(list(now))
                by_kind[kind].append(last[0])
    out: dict[str, float] = {"steps": len(per_step["last"])}
    for kind, xs in by_kind.items():
        out[f"{kind}: bytecodes, median"] = statistics.median(xs) if xs else float("nan")
    for part, counts in per_step.items():
        for i, what in enumerate(("bytecodes", "calls")):
            xs = [c[i] for c in counts]
            out[f"{part}: {what} per step, mean"] = statistics.fmean(xs)
            out[f"{part}: {what} per step, median"] = statistics.median(xs)
    return out


def figures(times: dict[str, list[float]]) -> dict[str, float]:
    """The figures of one run."""
    med = statistics.median
    return {
        "steps": len(times["all"]),
        "median": med(times["all"]),
        "min game median": min(times["game_medians"]),
        "mean": statistics.fmean(times["all"]),
        "% of steps ≤ 100 µs": 100 * sum(t <= 100 for t in times["all"]) / len(times["all"]),
        "applied median": med(times["applied"]) if times["applied"] else float("nan"),
        "prefix-only median": med(times["prefix_only"]) if times["prefix_only"] else float("nan"),
        "last() median": med(times["last"]),
        "step() median": med(times["step"]),
        **{f"{k}: median": med(times[k]) for k in KINDS[2:] if times[k]},
        **{f"{k}: % of steps": 100 * len(times[k]) / len(times["all"]) for k in KINDS[2:]},
    }


def _worker(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, str(HERE), "--worker", "--games", str(args.games)]
    cmd += ["--length", args.length, "--seed", str(args.seed)] + ["--count"] * args.count
    mine = tree == HERE.parents[1] or args.tokens_all
    cmd += ["--tokens"] if (args.tokens or args.tokens_all) and mine else []
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _table(runs: dict[str, list[dict[str, float]]], unit: str = "µs") -> None:
    names = list(runs)
    keys = [k for k in runs[names[0]][0] if k != "steps"]
    nan = float("nan")
    print(f"| figure ({unit}) | " + " | ".join(f"{n} (min / median)" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for k in keys:
        cells = []
        for n in names:
            xs = [r.get(k, nan) for r in runs[n]]
            known = [x for x in xs if x == x]
            cells.append(f"{min(known):.0f} / {statistics.median(known):.0f}" if known else "—")
        print(f"| {k} | " + " | ".join(cells) + " |")
    steps = {n: int(runs[n][0]["steps"]) for n in names}
    print(f"steps per run: {steps}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--length", default="short", choices=("short", "long"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--old", type=Path, action="append", default=[])
    parser.add_argument("--tokens", action="store_true", help="also the steps without a tensor")
    parser.add_argument(
        "--tokens-all",
        action="store_true",
        help="--tokens in the --old trees too (the same sources, e.g. a compiled copy)",
    )
    parser.add_argument("--count", action="store_true", help="bytecodes and calls per step")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    name = f"stalingrad-{args.length}"
    if args.count and args.worker:
        print(json.dumps(count(name, args.games, args.seed)))
        return
    if args.count and not args.old:
        f = count(name, args.games, args.seed)
        print(f"{name}: {f.pop('steps'):.0f} steps in {args.games} games")
        for k, v in f.items():
            print(f"  {k}: {v:.0f}")
        return
    if args.worker:
        f = figures(bench(name, args.games, args.seed))
        if args.tokens:
            f["token step, no observation: median"] = statistics.median(
                bench_tokens(name, args.games, args.seed)
            )
        print(json.dumps(f))
        return
    if not args.old and args.repeats == 1:
        f = figures(bench(name, args.games, args.seed))
        if args.tokens:
            f["token step, no observation: median"] = statistics.median(
                bench_tokens(name, args.games, args.seed)
            )
        print(f"{name}: {f.pop('steps'):.0f} steps in {args.games} games")
        for k, v in f.items():
            print(f"  {k}: {v:.0f}" + ("" if "%" in k else " µs"))
        return
    trees = {"this tree": HERE.parents[1], **{str(p): p for p in args.old}}
    runs: dict[str, list[dict[str, float]]] = {n: [] for n in trees}
    order = list(trees)
    for r in range(args.repeats):
        for n in order if r % 2 == 0 else order[::-1]:
            runs[n].append(_worker(trees[n], args))
    print(f"{name}, {args.games} games a run (seeds {args.seed}-{args.seed + args.games - 1}),")
    print(f"{args.repeats} runs per tree, interleaved:")
    _table(runs, "count" if args.count else "µs")


if __name__ == "__main__":
    main()
