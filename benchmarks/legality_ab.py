"""Same legality, same games? Every position of seeded games in two source trees, compared.

Run: ``python benchmarks/legality_ab.py --old PATH`` (``PATH``: a checkout of an earlier
commit, e.g. ``git worktree add ../base 0bc0189``), or ``--save FILE`` to keep this tree's
lines and ``--against FILE`` to compare with kept lines. Each tree plays in a fresh worker
process (``python -c``, hash seed 0) with ``src/`` and the repository root of that tree
first on the path, and prints one line per game: its name, seed, number of actions and a
SHA-256 over, at every position,

- the player to act, the legal tokens of the empty prefix and of every prefix of the
  action chosen (the tokens a token-wise player asks for);
- the whole legal list in order (``legal_actions()``), or the chance outcomes with their
  probabilities at a chance node;
- the action chosen; and at the end the outcome (winner and reason).

Games: ``--games`` token-wise random games of «Сталинград» of each length (seed ``s``:
players ``RandomPlayer(s * 31 + i)``, chance ``SeededDriver(s)``), ``--heuristic``
long games of the heuristic bots, and ``--examples`` random games of every example game
(*Crossing*, *Bridgehead*, «Бой отрядов», «Триумф и Слава»). The two trees must print the
same lines; ``--detail NAME:SEED`` prints one game's per-step digests to find where two
trees part.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from trees import run_in_tree

HERE = Path(__file__).resolve().parents[1]

_WORKER = r"""
import hashlib, sys
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play

games, heuristic, examples, detail = map(int, sys.argv[1:5])
only = sys.argv[5] if len(sys.argv) > 5 else ""

def rulesets():
    from hexwar_stalingrad.rules import StalingradRules
    out = [(n, StalingradRules(n), games, None) for n in ("short", "long")]
    from examples.tutorial.crossing import Crossing
    from examples.classic.rules import Bridgehead
    from examples.boy_otryadov.rules import BoyOtryadov
    from examples.triumph_and_glory.rules import TriumphAndGlory
    for name, make, scenario in (("crossing", Crossing, None), ("bridgehead", Bridgehead, None),
                                 ("boy_otryadov", BoyOtryadov, "skirmish"),
                                 ("triumph_and_glory", TriumphAndGlory, None)):
        out.append((name, make(), examples, scenario))
    return out

def trace(name, rules, seed, bots=None, scenario=None):
    h = hashlib.sha256()
    steps = []
    def on_step(state, action):
        who = state.current_player()
        parts = [who, " ".join(state.legal_tokens(()))]
        if state.is_chance_node():
            parts.append(";".join(f"{a}={p}" for a, p in state.chance_outcomes()))
        else:
            tokens = (action.kind, *action.args)
            for i in range(1, len(tokens) + 1):
                parts.append(" ".join(state.legal_tokens(tokens[:i])))
            parts.append(";".join(str(a) for a in state.legal_actions()))
        parts.append(str(action))
        text = "\n".join(parts)
        h.update(text.encode())
        if detail:
            steps.append(hashlib.sha256(text.encode()).hexdigest()[:12] + " " + str(action))
    players = bots or {s: RandomPlayer(seed * 31 + i) for i, s in enumerate(rules.sides)}
    start = rules.new_state() if scenario is None else rules.new_state(scenario)
    state = play(start, players, SeededDriver(seed), on_step=on_step)
    out = state.outcome
    h.update(f"{out.winner if out else None}|{out.reason if out else None}".encode())
    if detail:
        for i, s in enumerate(steps):
            print(i, s)
        print("outcome", out)
        return
    print(name, seed, len(state.history), h.hexdigest()[:16], flush=True)

if only:
    name, seed = only.split(":")
    for n, rules, _, scenario in rulesets():
        if n == name:
            trace(n, rules, int(seed), scenario=scenario)
        elif name == "heuristic" and n == "long":
            from hexwar_stalingrad.heuristic import HeuristicBot
            s = int(seed)
            bots = {x: HeuristicBot(s * 31 + i) for i, x in enumerate(rules.sides)}
            trace("heuristic", rules, s, bots)
else:
    for name, rules, n, scenario in rulesets():
        for seed in range(n):
            trace(name, rules, seed, scenario=scenario)
        if name == "long" and heuristic:
            from hexwar_stalingrad.heuristic import HeuristicBot
            for seed in range(heuristic):
                bots = {x: HeuristicBot(seed * 31 + i) for i, x in enumerate(rules.sides)}
                trace("heuristic", rules, seed, bots)
"""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--old", type=Path, help="a checkout of an earlier commit")
    p.add_argument("--tree", type=Path, default=HERE, help="the tree to check (default: this)")
    p.add_argument("--save", type=Path, help="write this tree's lines to FILE")
    p.add_argument("--against", type=Path, help="compare with lines kept by --save")
    p.add_argument("--games", type=int, default=30, help="random games of each length")
    p.add_argument("--heuristic", type=int, default=4, help="heuristic-bot long games")
    p.add_argument("--examples", type=int, default=20, help="random games of each example")
    p.add_argument("--detail", default="", help="NAME:SEED: one game's per-step digests")
    args = p.parse_args()
    counts = (args.games, args.heuristic, args.examples, int(bool(args.detail)), args.detail)
    new = run_in_tree(args.tree.resolve(), _WORKER, *counts)
    if args.detail:
        print(new, end="")
        return
    if args.save:
        args.save.write_text(new)
        print(f"{len(new.splitlines())} games written to {args.save}")
    if args.old is None and args.against is None:
        return
    old = (
        args.against.read_text()
        if args.against
        else run_in_tree(args.old.resolve(), _WORKER, *counts)
    )
    if new == old:
        print(f"{len(new.splitlines())} games: the same legal tokens, lists and outcomes")
        return
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "old", "new", lineterm="")
    print("\n".join(list(diff)[:60]))
    sys.exit("DIFFERENT")


if __name__ == "__main__":
    main()
