"""Play a seeded bot-vs-bot game of the Shevardino example and print a summary.

Run from the repository root: ``python -m examples.triumph_and_glory [seed] [scenario]``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import CHANCE, END, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.state import State
from hexwar.grid.edges import Facing

from .rules import TriumphAndGlory, facing, stack, unit_facing, where


def score(state: State, action: Action) -> int:
    """A greedy bot's taste: assault, try orders, fire, advance on (or hold) the objective,
    face foes."""
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    goal = rules.scenario.objective
    if action.kind in ("assault", "request"):
        return 100
    if action.kind == "fire":  # 3.0 C.3.a: the guns always fire
        return 50
    if action.kind == "orders":
        return len(action.args)
    if action.kind == "move":
        side, here, there = (
            rules.units[action.args[0]].side,
            where(state, action.args[0]),
            (rules.hexes[action.args[1]]),
        )
        gain = here.distance(goal) - there.distance(goal)
        return 10 * gain if side == "french" or here.distance(goal) > 1 else -1
    if action.kind == "face":
        h, side = where(state, action.args[0]), rules.units[action.args[0]].side

        def foes(f: Facing) -> int:
            return sum(1 for n in f.front() for u in stack(state, n) if rules.units[u].side != side)

        return 5 * (foes(Facing(h, action.int_arg(1))) - foes(unit_facing(state, action.args[0])))
    if action.kind == "pick":
        return 0 if action.args[0] == "pass" else 1
    return 0


def play(seed: int, scenario: str = "shevardino") -> State:
    """A whole game: chance by :class:`SeededDriver`, decisions by the greedy bot."""
    dice, rng = SeededDriver(seed), random.Random(seed)
    state = TriumphAndGlory(scenario).new_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(dice.pick(state.chance_outcomes()))
            continue
        legal = state.legal_actions()
        scored = [(score(state, a), a) for a in legal]
        best = max(s for s, _ in scored)
        choice = rng.choice([a for s, a in scored if s == best])
        state.apply(END if best <= 0 and END in legal else choice)
    return state


def summary(state: State) -> str:
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    kinds = Counter(a.kind for a in state.history)
    lines = [
        f"Triumph & Glory example: {rules.scenario.name}",
        f"outcome: {state.outcome}",
        f"turns: {state.turn}, actions: {len(state.history)} "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
    ]
    for side in rules.sides:
        units = rules.pieces.pieces_of(state, side)
        lines.append(
            f"{side}: {len(units)} of "
            f"{sum(1 for u in rules.units.values() if u.side == side)} units left"
        )
    for h, uids in sorted(rules.pieces.positions(state).items()):
        faces = " / ".join(f"{u}>{unit_facing(state, u).corner}" for u in uids)
        lines.append(f"  {rules.map.label(h)} (facing {facing(state, h).corner}): {faces}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``[seed] [scenario]``: a seeded bot game (default 1812, Shevardino)."""
    try:
        seed = int(argv[0]) if argv else 1812
        print(summary(play(seed, argv[1] if len(argv) > 1 else "shevardino")))
    except (ValueError, HexwarError) as exc:
        print(f"triumph_and_glory: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
