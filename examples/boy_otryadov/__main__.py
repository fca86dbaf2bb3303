"""Play a seeded bot-vs-bot game of «Бой отрядов» and print a summary.

Usage (from the repository root)::

    python -m examples.boy_otryadov [--scenario company] [--seed 0] [--turns N]
"""

from __future__ import annotations

import argparse
from collections import Counter

from hexwar.engine.state import State

from .bot import play
from .rules import BoyOtryadov, side_of


def board_text(state: State) -> str:
    """The map as text: figures by side letter (B/R), ``#`` strong, ``*`` green, ``~`` blue."""
    rules = state.ruleset
    assert isinstance(rules, BoyOtryadov)
    marks = {"strong": "#", "weak": ".", "masking": "*", "marsh": "~", "lake": "~"}
    at = {c: side_of(u)[0].upper() for u, (_, c) in rules.units(state).items()}
    lines = []
    for row in range(rules.board.last_row + 1):
        cells = [c for c in rules.board.map if c.row == row]
        label = rules.board.label(cells[0])[1:].lstrip("-")
        lines.append(
            f"{label:>6} " + " ".join(at.get(c, marks[rules.board.terrain(c)]) for c in cells)
        )
    return "\n".join(["       А Б В Г Д Е Ж З И К", *lines])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m examples.boy_otryadov")
    parser.add_argument("--scenario", default="company")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turns", type=int, default=None)
    args = parser.parse_args(argv)
    rules = BoyOtryadov()
    state = play(args.scenario, args.seed, args.turns, rules)
    kinds = Counter(a.kind for a in state.history)
    print(f"«Бой отрядов» — {rules.data.scenarios[args.scenario].title}, seed {args.seed}")
    print(f"outcome: {state.outcome.winner or 'draw'} — {state.outcome.reason} (turn {state.turn})")  # type: ignore[union-attr]
    for side in rules.sides:
        oob = state.get("game", f"oob:{side}")
        print(f"{side}: {len(rules.units(state, side))} of {oob} figures left")
    print("actions: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(board_text(state))


if __name__ == "__main__":
    main()
