"""A simple seeded bot for «Бой отрядов»: concentrate fire, assault, then advance.

It only reads the state through the ruleset's public helpers and picks among
``state.legal_actions()``, so it can never play an illegal move. The randomness lives
here (a seeded :class:`random.Random`), never in the rules.
"""

from __future__ import annotations

import random

from hexwar import END, Action, State
from hexwar.grid.square import Square

from .rules import BoyOtryadov, other, side_of


class Bot:
    """Fire at the square already under the most fire; take squares under fire; raiders
    run for the enemy's К-III (XIII), the others close on the nearest enemy."""

    def __init__(self, seed: int = 0, eagerness: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.eagerness = eagerness

    def choose(self, state: State) -> Action:
        rules = state.ruleset
        assert isinstance(rules, BoyOtryadov)
        legal = state.legal_actions()
        if state.pending:
            return self._decide(state, rules, legal)
        held = set(rules.pieces.positions(state))  # no barrage fire (V) for this bot
        fires = [a for a in legal if a.kind == "fire" and rules.board.cell_at(a.args[1]) in held]
        if fires:
            weight = {a: len(state.table("fire").get(a.args[1]) or ()) for a in fires}  # type: ignore[arg-type]
            best = max(weight.values())
            return self.rng.choice([a for a in fires if weight[a] == best])
        units = rules.units(state)
        enemy_cells = {c for u, (_, c) in units.items() if side_of(u) != state.current_player()}
        moves = [a for a in legal if a.kind == "move"]
        assaults = [a for a in moves if rules.board.cell_at(a.args[1]) in enemy_cells]
        if assaults:
            return self.rng.choice(assaults)
        scored = [(self._progress(rules, units, enemy_cells, a), a) for a in moves]
        good = [(p, a) for p, a in scored if p > 0]
        mounts = [a for a in legal if a.kind == "mount"]
        if mounts and self.rng.random() < 0.5:
            return self.rng.choice(mounts)
        if END in legal and (not good or self.rng.random() > self.eagerness):
            return END
        if not good:  # X.4: a figure move is obligatory
            return self.rng.choice([a for a in legal if a.kind != "fire"])
        best = max(p for p, _ in good)
        return self.rng.choice([a for p, a in good if p == best])

    def _progress(
        self,
        rules: BoyOtryadov,
        units: dict[str, tuple[str, Square]],
        enemies: set[Square],
        a: Action,
    ) -> int:
        uid = a.args[0]
        name, here = units[uid]
        there = rules.board.cell_at(a.args[1])
        dist = rules.board.map.topology.distance
        arm = rules.data.arms[name]
        raider = arm.raider and arm.move > 1  # mounted raiders ride for К-III (XIII)
        goals = [rules.board.rear[other(side_of(uid))]] if raider else []
        goals = goals or sorted(enemies, key=lambda c: (dist(here, c), c))[:1]  # ties: by square
        if not goals:
            return 0
        return dist(here, goals[0]) - dist(there, goals[0])

    def _decide(self, state: State, rules: BoyOtryadov, legal: list[Action]) -> Action:
        if state.pending[-1].kind == "raid":  # XIII: take out guns and armour first
            units = rules.units(state)
            rank = {a: rules.data.arms[units[a.args[0]][0]].group == "artillery" for a in legal}
            top = [a for a in legal if rank[a]] or legal
            return self.rng.choice(top)
        return self.rng.choice(legal)


def play(
    scenario: str = "company",
    seed: int = 0,
    turns: int | None = None,
    rules: BoyOtryadov | None = None,
) -> State:
    """A complete bot-vs-bot game (blue's bot seeded ``seed``, red's ``seed + 1``)."""
    rules = rules or BoyOtryadov()
    state = rules.new_state(scenario, {} if turns is None else {"turns": turns})
    bots = {"blue": Bot(seed), "red": Bot(seed + 1)}
    while not state.is_terminal():
        state.apply_unchecked(bots[state.current_player()].choose(state))
    return state
