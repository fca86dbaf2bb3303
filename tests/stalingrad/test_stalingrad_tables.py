"""The Stalingrad CRT and bombardment table meet every constraint of S9 (and W1-W10)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import AttackRefused
from hexwar_stalingrad.tables import (
    RESULT_ORDER,
    air_crt,
    expected_defender_loss,
    load_bombardment,
    load_crt,
)

CRT = load_crt()
AIR = air_crt()
BOMB = load_bombardment()


@pytest.mark.parametrize(
    ("column", "die", "code"),
    [("3:1", 4, "DR"), ("3:1", 2, "EX"), ("2:1", 5, "DR"), ("1:1", 5, "AL"), ("1:1", 2, "EX")],
)
def test_s9_1a_worked_example_cells(column: str, die: int, code: str) -> None:
    assert CRT.result_at(column, die).code == code


def test_s9_1b_result_order_is_the_tables_rank() -> None:
    ranks = [CRT.results[c].rank for c in RESULT_ORDER]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)
    assert set(CRT.results) == set(RESULT_ORDER)


@settings(max_examples=100)
@given(st.integers(1, 6), st.integers(0, 4))
def test_s9_1b_moving_right_is_never_worse_for_the_attacker(die: int, col: int) -> None:
    left = CRT.result_at(CRT.labels[col], die)
    right = CRT.result_at(CRT.labels[col + 1], die)
    assert RESULT_ORDER.index(right.code) >= RESULT_ORDER.index(left.code)


def test_s9_1b_no_monotonicity_violations() -> None:
    assert CRT.monotonicity_violations() == []


def test_s9_1c_expected_defender_loss_strictly_rises() -> None:
    losses = [expected_defender_loss(CRT.distribution_at(c)) for c in CRT.labels]
    assert all(a < b for a, b in itertools.pairwise(losses)), losses


@settings(max_examples=200)
@given(st.integers(1, 60), st.integers(1, 60))
def test_s8_2_ground_odds_round_down_and_refuse_below_1_to_1(att: int, dfn: int) -> None:
    if att < dfn:
        with pytest.raises(AttackRefused):
            CRT.column_for(att, dfn)
    else:
        assert CRT.column_for(att, dfn) == f"{min(att // dfn, 6)}:1"


def test_worked_examples_w1_w2_w9_w10() -> None:
    assert CRT.column_for(17, 4) == "4:1"  # W1
    assert CRT.resolve(6 + 7 + 6, 6, roll=4).code == "DR"  # W2
    assert CRT.resolve(19, 6, roll=2).code == "EX"
    for roll in range(1, 7):  # W9: artillery in close combat at 6:1, a loss at least
        r = CRT.resolve(1, 10, roll=roll, column="6:1")
        assert r.eliminated or r.defender_steps >= 1
    with pytest.raises(AttackRefused, match=r"S8\.2"):  # W10
        CRT.column_for(5, 6)
    assert CRT.column_for(40, 4) == "6:1"


def test_worked_examples_w3_w4_w5_air_odds() -> None:
    assert AIR.column_for(14, 6) == "2:1"
    assert AIR.resolve(14, 6, roll=5).code == "DR"  # W3
    assert AIR.column_for(14, 21) == "1:1"
    assert AIR.resolve(14, 21, roll=5).code == "AL"  # W4
    assert AIR.resolve(14, 15, roll=2).code == "EX"  # W5
    with pytest.raises(AttackRefused, match=r"S10\.5"):
        AIR.column_for(2, 5)  # 0.4 < 0.5: no attack


def test_s9_2_bombardment_cells() -> None:
    assert BOMB.resolve(1, roll=4).code == "Lo"  # W6, W7
    lo = BOMB.resolve(1, roll=4)
    assert lo.defender_steps == 1
    assert lo.has("outside_fortifications")
    assert lo.has("not_tanks")
    w8 = BOMB.resolve(2 * 2, roll=4)  # W8: Katyusha strikes at double strength
    assert w8.code == "2Lo"
    assert w8.defender_steps == 2
    assert BOMB.columns == (Fraction(1, 2), 1, 2)


def test_s9_2_more_bombs_never_hurt_and_hit_harder_on_average() -> None:
    assert BOMB.monotonicity_violations() == []
    losses = [BOMB.distribution_at(c).expected_defender_steps for c in BOMB.labels]
    assert all(a < b for a, b in itertools.pairwise(losses))
