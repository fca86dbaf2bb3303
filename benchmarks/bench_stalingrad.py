"""Benchmark of «Сталинград»: random games, the token step, clone, exact attack odds, memory.

Run: ``python benchmarks/bench_stalingrad.py [--games N] [--repeats R] [--old PATH]
[--old PATH2 ...] [--profile] [--parts]``. Prints figures (CPU time, this process's
``time.process_time``); it is not a timed test. Each figure comes from a fresh worker
process (``python -c``) run against a
source tree; with ``--old PATH`` (a checkout of an earlier commit, e.g. ``git worktree add
/work/old 3590f28``; repeat ``--old`` for more trees) the same workers run against
``PATH/src`` too, interleaved with this tree's (A, B, B, A, ...), and all are printed as
min / median over the repeats. Token-wise figures run in every tree that has
``hexwar/engine/kinds.py`` (the action space).

Figures:

- ``list``: random long games uniform over ``state.legal_actions()`` (the old random bot's
  games: the same games in both trees), games and actions per CPU second;
- ``token``: random long games of the core's token-wise :class:`hexwar.engine.loop.RandomPlayer`
  (this tree only): games and actions per CPU second; targets >= 20 and >= 25 000; beside
  them, measured in the same worker, the anchor: python-chess random games (uniform over
  the legal moves, to the game's end), plies per CPU second, and the ratio
  ``actions_per_chess_ply`` (actions per CPU-s over plies per CPU-s), which cancels the
  host's speed;
- ``heuristic``: one heuristic-bot long game (both bots), CPU seconds: ``cold_s`` the
  first game of the process (with the map data built on first use, a one-time cost),
  ``warm_s`` the same game played again (a game as a study plays it; the issue's figure,
  over many seeds: ``benchmarks/bench_heuristic.py``);
- ``step``: an agent's token step (:class:`hexwar.engine.loop.TokenStepper`: the legal-token mask,
  then one token applied) along random games, median µs (target <= 50);
- ``clone``: ``clone()`` of a turn-5 state (of a ``list`` game), median µs (target <= 50);
- ``odds``: the exact result distribution of an attack
  (:func:`hexwar_stalingrad.ground.attack_distribution`), median µs (target <= 100);
- ``rss``: the process's peak resident memory after 300 random games, MB (target <= 64
  however many games: by 300 the memos are full).

``--parts`` prints instead the Python bytecodes executed per action of ``--games``
token-wise games in this process, by part (the game's legality by phase and prefix
length, the rules, the core's settle, tokens, player, journal): a count that the
machine's load does not blur.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from trees import run_in_tree

HERE = Path(__file__).resolve().parents[1]

_COMMON = """
import json, random, resource, statistics, sys, time
from hexwar.engine.dice import SeededDriver
from hexwar_stalingrad.rules import StalingradRules
rules = StalingradRules(length="long")
mode, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def list_players(seed):
    out = {}
    for i, side in enumerate(rules.sides):
        rng = random.Random(seed * 7919 + i)
        out[side] = lambda state, rng=rng: rng.choice(state.legal_actions())
    return out

def run(state, players, driver):
    while not state.is_terminal():
        if state.is_chance_node():
            action = driver.pick(state.chance_outcomes())
        else:
            action = players[state.current_player()](state)
        state.apply_unchecked(action)
    return state

def token_players(seed):
    from hexwar.engine.loop import RandomPlayer
    return {s: RandomPlayer(seed * 7919 + i) for i, s in enumerate(rules.sides)}

def games_rate(make):
    run(rules.new_state(), make(10_000), SeededDriver(10_000))  # warm the static data
    actions, cpu = 0, time.process_time()
    for i in range(games):
        actions += len(run(rules.new_state(), make(seed + i), SeededDriver(seed + i)).history)
    cpu = time.process_time() - cpu
    return {"games_per_cpu_s": games / cpu, "actions_per_cpu_s": actions / cpu,
            "actions_per_game": actions / games}

def chess_rate(seed, games=20):
    # the anchor: python-chess random games (uniform over the legal moves, to the game's
    # end) in this process, plies per CPU-s
    try:
        import chess
    except ImportError:
        return {}
    plies, cpu = 0, time.process_time()
    for i in range(games):
        rng, board = random.Random(seed + i), chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    cpu = time.process_time() - cpu
    return {"chess_plies_per_cpu_s": plies / cpu}

def median_us(times):
    return statistics.median(times) * 1e6

out = {}
if mode == "list":
    out = games_rate(list_players)
elif mode == "token":
    out = games_rate(token_players)
    out.update(chess_rate(seed))
elif mode == "heuristic":
    from hexwar_stalingrad.heuristic import HeuristicBot
    for name in ("cold_s", "warm_s"):  # the first game of the process, then the same again
        bots = {s: HeuristicBot(seed * 2 + i) for i, s in enumerate(rules.sides)}
        cpu = time.process_time()
        state = run(rules.new_state(), bots, SeededDriver(seed))
        out[name] = time.process_time() - cpu
    out["actions"] = len(state.history)
elif mode == "rss":
    make = token_players if games > 0 else list_players
    for i in range(abs(games)):
        run(rules.new_state(), make(seed + i), SeededDriver(seed + i))
    out = {"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
elif mode == "micro":
    from hexwar.engine.loop import TokenStepper
    from hexwar_stalingrad import ground
    steps, clones, odds = [], [], []
    for g in range(games):
        rng, driver = random.Random(seed + g), SeededDriver(seed + g)
        state = rules.new_state()
        stepper = TokenStepper(state)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(driver.pick(state.chance_outcomes()))
                continue
            t = time.process_time()
            mask = stepper.mask()
            action = stepper.step(mask[rng.randrange(len(mask))])
            steps.append(time.process_time() - t)
            if state.phase == "attack" and not state.pending and len(odds) < 2000:
                for a in state.legal_actions():
                    if a.kind == "attack":
                        t = time.perf_counter()
                        ground.attack_distribution(state, a.args[0], a.args[1:])
                        odds.append(time.perf_counter() - t)
    out = {"step_us": median_us(steps), "step_mean_us": 1e6 * sum(steps) / len(steps),
           "odds_us": median_us(odds), "steps": len(steps)}
elif mode == "clone":
    state, players, driver = rules.new_state(), list_players(seed), SeededDriver(seed)
    while state.turn < 5 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
        else:
            state.apply_unchecked(players[state.current_player()](state))
    clones = []
    for _ in range(2000):
        t = time.perf_counter()
        state.clone()
        clones.append(time.perf_counter() - t)
    out = {"clone_us": median_us(clones)}
print(json.dumps(out))
"""


def worker(tree: Path, mode: str, games: int, seed: int) -> dict[str, float]:
    """Run one worker against ``tree/src`` and return its figures."""
    out = run_in_tree(tree, _COMMON, mode, games, seed)
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def _summary(runs: list[dict[str, float]], key: str) -> str:
    values = [r[key] for r in runs if r.get(key) is not None]
    if not values:
        return "-"
    low, mid = min(values), statistics.median(values)
    digits = 1 if mid >= 10 else 3
    return f"min {low:.{digits}f} / median {mid:.{digits}f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10, help="games per worker (list, token)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument(
        "--old",
        type=Path,
        action="append",
        default=[],
        help="a checkout of an earlier commit (repeatable: old, old2, ...)",
    )
    p.add_argument("--profile", action="store_true", help="cProfile token games, top functions")
    p.add_argument(
        "--parts",
        action="store_true",
        help="bytecodes per action by part of the engine and the rules (deterministic)",
    )
    p.add_argument("--only", default="list,token,heuristic,micro,clone,rss")
    args = p.parse_args()
    if args.profile:
        _profile(args.games)
        return
    if args.parts:
        _parts(args.games)
        return
    olds = [(f"old{i + 1}" if i else "old", tree.resolve()) for i, tree in enumerate(args.old)]
    trees = [("new", HERE), *olds]
    for name, tree in olds:
        print(f"{name}: {tree} ({_commit(tree)})")
    modes = args.only.split(",")
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(args.repeats):
        order = trees if r % 2 == 0 else trees[::-1]
        for mode in modes:
            for name, tree in order:
                tokenwise = any(
                    (tree / "src" / "hexwar" / sub / "kinds.py").exists() for sub in ("", "engine")
                )
                if mode in ("token", "micro") and not tokenwise:
                    continue  # a tree before the action space: no token-wise player
                games = {"heuristic": 1, "micro": 3, "rss": 300}.get(mode, args.games)
                if mode == "rss" and not tokenwise:
                    games = -300  # the old tree's random bot: uniform over the legal list
                results.setdefault((mode, name), []).append(worker(tree, mode, games, 100 * r))
    for (mode, name), runs in sorted(results.items()):
        for run in runs:
            if run.get("chess_plies_per_cpu_s"):
                chess = run["chess_plies_per_cpu_s"]
                run["actions_per_chess_ply"] = run["actions_per_cpu_s"] / chess
        keys = sorted({k for run in runs for k in run})
        figures = ", ".join(f"{k}: {_summary(runs, k)}" for k in keys)
        print(f"{mode:9s} {name:4s} ({len(runs)} runs) {figures}")


def _commit(tree: Path) -> str:
    run = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return run.stdout.strip() or "?"


def _profile(games: int) -> None:
    import cProfile
    import pstats

    from hexwar.engine.dice import SeededDriver
    from hexwar.engine.loop import RandomPlayer, play
    from hexwar_stalingrad.rules import StalingradRules

    rules = StalingradRules(length="long")
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        players = {s: RandomPlayer(seed * 7919 + i) for i, s in enumerate(rules.sides)}
        play(rules.new_state(), players, SeededDriver(seed))
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


def _parts(games: int) -> None:
    """Python bytecodes executed per action in token-wise random long games (seeds
    ``0 .. games-1``, static data warmed by one game first), by the innermost enclosing
    part: the game's legality by phase and prefix length, the rules carrying out
    actions, the core's settle, legal tokens, random player, ``_apply``, chance picks.
    ``sys.settrace`` counts them (slow, but the same count on any machine load)."""
    import collections

    import attrs

    import hexwar.engine.dice as dice
    import hexwar.engine.loop as loop
    import hexwar.engine.sequencer as sequencer
    import hexwar.engine.state as state_mod
    import hexwar_stalingrad.rules as srules
    from hexwar.engine.dice import SeededDriver
    from hexwar.engine.loop import RandomPlayer, play
    from hexwar_stalingrad.board import static
    from hexwar_stalingrad.rules import StalingradRules
    from hexwar_stalingrad.static import Static

    parts = {
        (srules.__file__, "phase_tokens"): "legality",
        (srules.__file__, "decision_tokens"): "legality",
        (srules.__file__, "play"): "rules: play",
        (srules.__file__, "decide"): "rules: decide",
        (sequencer.__file__, "settle"): "core: settle, idle test, steps (+ on_enter)",
        (state_mod.__file__, "legal_tokens"): "core: legal_tokens",
        (loop.__file__, "sample_action"): "core: random player",
        (state_mod.__file__, "_apply"): "core: _apply",
        (dice.__file__, "pick"): "chance picks",
        (loop.__file__, "play"): "core: game loop",
    }
    rules = StalingradRules(length="long")
    first = rules.new_state()
    play(first, {s: RandomPlayer(1) for s in rules.sides}, SeededDriver(10_000))
    # every one-time table built before counting, not only those one game asks for
    # (attrs turns a slotted class's cached properties into slots beside its fields)
    data, fields = static(first), {f.name for f in attrs.fields(Static)}
    for name in Static.__slots__:
        if name not in fields and not name.startswith("__"):
            getattr(data, name)
    counts: collections.Counter[str] = collections.Counter()
    stack = ["other"]

    def part_of(frame: Any) -> str | None:
        code = frame.f_code
        part = parts.get((code.co_filename, code.co_name))
        if part == "legality":
            local, prefix = frame.f_locals, frame.f_locals.get("prefix", ())
            if code.co_name == "decision_tokens":
                return f"legality: decision {local['decision'].kind}, prefix {len(prefix)}"
            return f"legality: {local['state'].phase}, prefix {len(prefix)}"
        return part

    def inner(part: str) -> Any:
        def trace(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[part] += 1
            elif event == "return":
                stack.pop()
            return trace

        return trace

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
            part = part_of(frame)
            if part is not None:
                stack.append(part)
                return inner(part)
            return trace
        if event == "opcode":
            counts[stack[-1]] += 1
        return trace

    actions = 0
    sys.settrace(trace)
    try:
        for seed in range(games):
            players = {s: RandomPlayer(seed * 7919 + i) for i, s in enumerate(rules.sides)}
            actions += len(play(rules.new_state(), players, SeededDriver(seed)).history)
    finally:
        sys.settrace(None)
    total = sum(counts.values())
    print(f"{games} games, {actions} actions, {total / actions:.0f} bytecodes per action")
    for part, n in counts.most_common():
        print(f"{n / actions:8.0f}  {100 * n / total:5.1f} %  {part}")


if __name__ == "__main__":
    main()
