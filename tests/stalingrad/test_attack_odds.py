"""The exact distribution of a ground attack's results (S8.2, S8.3, S7.3, S7.4, S5.4)
against a brute force: every die face, the strengths and covering artillery summed from
the printed counters, the column found by scanning the table's ratios, the card hooks
asked directly; and against the results the game's own roll resolves to."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from random_games import random_game

from hexwar.base.errors import AttackRefused
from hexwar.engine.state import State
from hexwar_stalingrad import ground
from hexwar_stalingrad.board import SIDES, static, strength, unit_at, where
from hexwar_stalingrad.rules import StalingradRules


def _power(state: State, unit: str, role: str) -> int:
    return int(state.hook("combat_strength", strength(state, unit), unit=unit, role=role))


def _brute_force(state: State, defender: str, attackers: tuple[str, ...]) -> dict[str, Fraction]:
    """The distribution by enumeration; ``{}`` when the odds are below 1:1 (S8.2)."""
    data = static(state)
    crt, info = data.crt, data.ground[defender]
    if info.arm in ground.ARTILLERY_ARMS:  # S7.4: helpless in close combat, 6:1
        index = crt.labels.index(ground.HELPLESS_COLUMN)
    else:
        attack = sum(_power(state, u, "attack") for u in attackers)
        defence = _power(state, defender, "defend")
        for n in data.neighbors[where(state, defender)]:  # S7.3: adjacent own artillery
            u = unit_at(state, n)
            cover = data.ground[u] if u is not None else None
            if cover and cover.side == info.side and cover.arm in ground.ARTILLERY_ARMS:
                defence += _power(state, u, "cover")  # type: ignore[arg-type]
        ratio = Fraction(attack, max(defence, 1))
        below = [i for i, c in enumerate(crt.columns) if c <= ratio]
        if not below:
            return {}
        index = below[-1]
    shift = int(state.hook("odds_shift", 0, attacker=attackers, defender=defender))
    side = data.ground[attackers[0]].side
    modifier = int(state.hook("die_modifier", 0, side=side, combat="ground"))
    column = min(max(index + shift, 0), len(crt.columns) - 1)
    low, high = crt.row_range
    counts: Counter[str] = Counter()
    faces = list(itertools.product(crt.dice.faces(), repeat=crt.dice.count))
    for dice in faces:
        row = min(max(sum(dice) + modifier, low), high)
        counts[crt.cells[row - low][column]] += 1
    return {code: Fraction(n, len(faces)) for code, n in counts.items()}


def _check(state: State, seen: Counter[str]) -> None:
    if state.pending or state.outcome is not None or state.phase != "attack":
        return
    side = state.current_player()
    if side not in SIDES or state.stage != side:
        return
    legal = [a for a in state.legal_actions() if a.kind == "attack"]
    for a in legal:  # legal attacks: never refused, twice (the second from the memos)
        defender, attackers = a.args[0], a.args[1:]
        want = _brute_force(state, defender, attackers)
        assert want, a
        for _ in range(2):
            got = ground.attack_distribution(state, defender, attackers)
            assert {r.code: p for r, p in got} == want, a
            assert sum(p for _, p in got) == 1
        column, shift = ground.attack_odds(state, defender, attackers)
        assert column is not None
        rolled: Counter[str] = Counter()
        for roll in range(1, 7):  # the game's own resolution of each roll (S8.3)
            rolled[ground.attack_result(state, defender, column, shift, attackers, roll).code] += 1
        assert {c: Fraction(n, 6) for c, n in rolled.items()} == want, a
        seen["legal"] += 1
        seen["shifted"] += shift != 0
    for defender in ground.attack_defenders(state, side):  # lone attackers: some refused
        for unit in ground.attackers(state, side, (defender,)):
            want = _brute_force(state, defender, (unit,))
            if want:
                got = ground.attack_distribution(state, defender, (unit,))
                assert {r.code: p for r, p in got} == want
                continue
            with pytest.raises(AttackRefused):
                ground.attack_distribution(state, defender, (unit,))
            assert ground.attack_odds(state, defender, (unit,)) == (None, 0)
            seen["refused"] += 1


def test_attack_distribution_matches_the_brute_force_in_a_random_game() -> None:
    seen: Counter[str] = Counter()

    def on_step(state: State, action: Any) -> None:
        _check(state, seen)

    random_game(StalingradRules(length="long"), 3, on_step=on_step)
    assert seen["legal"] > 100, seen
    assert seen["refused"] > 0, seen
    assert seen["shifted"] > 0, seen
