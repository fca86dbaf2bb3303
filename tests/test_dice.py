"""Tests for hexwar.engine.dice: dice distributions, chance events, drivers, shuffles."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import ChanceError, DataError, HexwarError
from hexwar.engine.dice import (
    D6,
    D10,
    Dice,
    FixedDriver,
    SeededDriver,
    draw_outcomes,
    integer_weights,
    shuffle,
    uniform,
    validate_outcomes,
)

dice_st = st.builds(
    Dice,
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=1, max_value=10),
    st.booleans(),
)


# -- Dice --------------------------------------------------------------------------------


def test_d6_faces_and_str() -> None:
    assert D6.faces() == (1, 2, 3, 4, 5, 6)
    assert str(D6) == "d6"
    assert str(Dice(2, 6)) == "2d6"


def test_d10_reads_zero_to_nine_triumph_and_glory() -> None:
    # Triumph & Glory: "0 is zero, not 10".
    assert D10.faces() == tuple(range(10))
    assert 10 not in dict(D10.outcomes())
    assert str(D10) == "d10(0-9)"
    assert (D10.minimum, D10.maximum) == (0, 9)


@settings(max_examples=60)
@given(dice_st)
def test_outcomes_match_brute_force(dice: Dice) -> None:
    counts = Counter(sum(roll) for roll in itertools.product(dice.faces(), repeat=dice.count))
    whole = dice.sides**dice.count
    expected = tuple((t, Fraction(counts[t], whole)) for t in sorted(counts))
    assert dice.outcomes() == expected
    assert sum(p for _, p in dice.outcomes()) == 1
    assert [t for t, _ in dice.outcomes()] == sorted(t for t, _ in dice.outcomes())
    assert dice.outcomes()[0][0] == dice.minimum
    assert dice.outcomes()[-1][0] == dice.maximum


@settings(max_examples=60)
@given(dice_st)
def test_str_parse_round_trip(dice: Dice) -> None:
    assert Dice.parse(str(dice)) == dice


@pytest.mark.parametrize(
    ("text", "dice"),
    [("d6", Dice(1, 6)), ("1d6", Dice(1, 6)), ("2D6", Dice(2, 6)), (" d10(0-9) ", D10)],
)
def test_parse_accepts(text: str, dice: Dice) -> None:
    assert Dice.parse(text) == dice


@pytest.mark.parametrize("text", ["", "6", "2x6", "d", "d6(1-6)", "d6(0-9)", "2d6+1", "-1d6"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(ChanceError, match="bad dice"):
        Dice.parse(text)


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (1, 0), (-2, 6), (True, 6)])
def test_dice_rejects_non_positive(count: int, sides: int) -> None:
    with pytest.raises(ChanceError, match="positive int"):
        Dice(count, sides)


def test_dice_errors_are_value_errors() -> None:
    assert issubclass(ChanceError, HexwarError)
    assert issubclass(ChanceError, ValueError)


def test_roll_goes_through_driver() -> None:
    assert Dice(2, 6).roll(FixedDriver([12])) == 12
    assert D10.roll(FixedDriver([0])) == 0


# -- chance events -----------------------------------------------------------------------


def test_uniform() -> None:
    assert uniform(["a", "b", "c"]) == tuple((x, Fraction(1, 3)) for x in "abc")
    with pytest.raises(ChanceError, match="distinct"):
        uniform(["a", "a"])
    with pytest.raises(ChanceError, match="at least one"):
        uniform([])


def test_draw_outcomes_merges_duplicates_in_given_order() -> None:
    cup = ["II", "I", "II", "III", "II"]
    assert draw_outcomes(cup) == (
        ("II", Fraction(3, 5)),
        ("I", Fraction(1, 5)),
        ("III", Fraction(1, 5)),
    )
    with pytest.raises(ChanceError, match="empty"):
        draw_outcomes([])


@settings(max_examples=60)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=12))
def test_draw_outcomes_is_a_chance_event(cup: list[int]) -> None:
    outcomes = draw_outcomes(cup)
    validate_outcomes(outcomes)
    assert [x for x, _ in outcomes] == list(dict.fromkeys(cup))
    for item, p in outcomes:
        assert p == Fraction(cup.count(item), len(cup))


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        ([], "at least one"),
        ([("a", 0.5), ("b", 0.5)], "not a positive Fraction"),
        ([("a", Fraction(0)), ("b", Fraction(1))], "not a positive Fraction"),
        ([("a", Fraction(-1, 2)), ("b", Fraction(3, 2))], "not a positive Fraction"),
        ([("a", Fraction(1, 2))], "sum to 1/2"),
    ],
)
def test_validate_outcomes_rejects(outcomes: list[tuple[str, Fraction]], message: str) -> None:
    with pytest.raises(ChanceError, match=message):
        validate_outcomes(outcomes)


def _shuffle_distribution(deck: list[str]) -> dict[tuple[str, ...], Fraction]:
    """Exact distribution of shuffle(deck): walk the chance tree of successive draws."""
    result: dict[tuple[str, ...], Fraction] = {}

    def walk(remaining: list[str], prefix: tuple[str, ...], p: Fraction) -> None:
        if not remaining:
            result[prefix] = result.get(prefix, Fraction(0)) + p
            return
        for card, q in draw_outcomes(remaining):
            rest = list(remaining)
            rest.remove(card)
            walk(rest, (*prefix, card), p * q)

    walk(deck, (), Fraction(1))
    return result


def test_shuffle_as_successive_draws_is_uniform_over_orderings() -> None:
    deck = ["a", "b", "c", "d"]
    dist = _shuffle_distribution(deck)
    assert set(dist) == set(itertools.permutations(deck))
    assert set(dist.values()) == {Fraction(1, math.factorial(4))}


def test_shuffle_with_duplicates_weights_orderings() -> None:
    dist = _shuffle_distribution(["x", "x", "y"])
    assert dist == {
        ("x", "x", "y"): Fraction(1, 3),
        ("x", "y", "x"): Fraction(1, 3),
        ("y", "x", "x"): Fraction(1, 3),
    }


def test_shuffle_through_fixed_driver() -> None:
    assert shuffle(["A", "B", "C"], FixedDriver(["B", "C", "A"])) == ("B", "C", "A")
    assert shuffle([], FixedDriver([])) == ()


@settings(max_examples=40)
@given(st.lists(st.integers(0, 5), max_size=10), st.integers(0, 2**32))
def test_seeded_shuffle_is_a_permutation_and_reproducible(deck: list[int], seed: int) -> None:
    first = shuffle(deck, SeededDriver(seed))
    assert sorted(first) == sorted(deck)
    assert shuffle(deck, SeededDriver(seed)) == first


# -- drivers -----------------------------------------------------------------------------


class _CountingRng:
    """Stands in for random.Random: randrange returns a prescribed value."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.asked: list[int] = []

    def randrange(self, n: int) -> int:
        self.asked.append(n)
        return self.k


def test_seeded_driver_is_exact() -> None:
    # Every integer 0..L-1 maps to one outcome, and each outcome gets exactly p*L of them.
    outcomes = (("a", Fraction(1, 3)), ("b", Fraction(1, 4)), ("c", Fraction(5, 12)))
    picks: Counter[str] = Counter()
    for k in range(12):
        driver = SeededDriver(0)
        fake = _CountingRng(k)
        driver._rng = fake  # type: ignore[assignment]
        picks[driver.pick(outcomes)] += 1
        assert fake.asked == [12]
    assert picks == {"a": 4, "b": 3, "c": 5}


class _OwnRandom(random.Random):
    """A subclass: the driver draws through its ``randrange``, not by bits."""


def test_seeded_driver_draws_exactly_as_randrange() -> None:
    # pick draws a plain random.Random by getrandbits, repeating randrange's steps; a
    # subclass is asked through randrange itself: the same picks, the generator left in
    # the same state, for denominators at, below and above powers of two
    cups = [list(range(n)) for n in (1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100)]
    events = [D6.outcomes(), *(draw_outcomes(cup) for cup in cups)]
    events.append((("a", Fraction(1, 3)), ("b", Fraction(1, 4)), ("c", Fraction(5, 12))))
    for seed in range(20):
        plain, own = SeededDriver(seed), SeededDriver(seed)
        own._rng = _OwnRandom(seed)
        for outcomes in events * 3:
            assert plain.pick(outcomes) == own.pick(outcomes)  # type: ignore[arg-type]
            assert plain._rng.getstate() == own._rng.getstate()


def test_seeded_driver_same_seed_same_rolls() -> None:
    a, b = SeededDriver(2024), SeededDriver(2024)
    rolls = [a.pick(D6.outcomes()) for _ in range(50)]
    assert rolls == [b.pick(D6.outcomes()) for _ in range(50)]
    assert set(rolls) <= set(D6.faces())
    c = SeededDriver(2025)
    assert rolls != [c.pick(D6.outcomes()) for _ in range(50)]


def test_seeded_driver_roughly_fair() -> None:
    driver = SeededDriver(1)
    counts = Counter(driver.pick(D6.outcomes()) for _ in range(6000))
    assert set(counts) == set(D6.faces())
    assert all(800 < n < 1200 for n in counts.values())


def test_seeded_driver_state_survives_json() -> None:
    driver = SeededDriver(99)
    for _ in range(3):
        driver.pick(D10.outcomes())
    saved = json.loads(json.dumps(driver.getstate()))
    ahead = [driver.pick(Dice(2, 6).outcomes()) for _ in range(20)]
    restored = SeededDriver(0)
    restored.setstate(saved)
    assert restored.seed == 99
    assert [restored.pick(Dice(2, 6).outcomes()) for _ in range(20)] == ahead


def test_seeded_driver_rejects_bad_state() -> None:
    with pytest.raises(DataError, match="bad driver state"):
        SeededDriver(1).setstate({"seed": 1})


def test_seeded_driver_validates_outcomes() -> None:
    with pytest.raises(ChanceError, match="sum to"):
        SeededDriver(1).pick([("a", Fraction(1, 2))])


def test_fixed_driver_errors() -> None:
    driver = FixedDriver([3, 7])
    assert driver.pick(D6.outcomes()) == 3
    with pytest.raises(ChanceError, match="forced value 7 is not among"):
        driver.pick(D6.outcomes())
    with pytest.raises(ChanceError, match="no forced value left"):
        driver.pick(D6.outcomes())


def _reference_weights(probabilities: list[Fraction]) -> tuple[int, tuple[int, ...]]:
    lcd = math.lcm(*(p.denominator for p in probabilities))
    return lcd, tuple(int(p * lcd) for p in probabilities)


@given(st.integers(min_value=1, max_value=40), st.booleans())
def test_integer_weights_of_a_uniform_event(n: int, shared: bool) -> None:
    # one probability object throughout takes the short path, equal copies the loop:
    # the same answer as exact arithmetic either way
    one = Fraction(1, n)
    probabilities = [one if shared else Fraction(1, n) for _ in range(n)]
    outcomes = [(i, p) for i, p in enumerate(probabilities)]
    assert integer_weights(outcomes) == _reference_weights(probabilities) == (n, (1,) * n)


@given(st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=12))
def test_integer_weights_rejects_a_uniform_event_not_summing_to_one(n: int, size: int) -> None:
    one = Fraction(1, size)
    outcomes = [(i, one) for i in range(n)]
    if n == size:
        assert integer_weights(outcomes) == (size, (1,) * n)
    else:
        with pytest.raises(ChanceError):
            integer_weights(outcomes)


@given(dice_st)
def test_integer_weights_of_dice_match_exact_arithmetic(dice: Dice) -> None:
    outcomes = dice.outcomes()
    assert integer_weights(outcomes) == _reference_weights([p for _, p in outcomes])


def test_a_die_and_a_draw_of_distinct_chits_share_one_probability_object() -> None:
    # what lets integer_weights skip its loop (the values are checked above)
    assert len({id(p) for _, p in D6.outcomes()}) == 1
    assert len({id(p) for _, p in draw_outcomes(["a", "b", "c", "d"])}) == 1
    assert draw_outcomes(["a", "b", "a", "c"]) == (
        ("a", Fraction(1, 2)),
        ("b", Fraction(1, 4)),
        ("c", Fraction(1, 4)),
    )


def test_checked_outcomes_stay_checked_and_bad_ones_still_fail() -> None:
    """A chance event's outcomes tuple is checked once (kept by identity, held); a tuple
    never checked, even equal to a bad one seen before, is checked in full."""
    from hexwar.engine.actions import _CHECKED_OUTCOMES, Action, Decision

    good = tuple((Action.of("roll", n), Fraction(1, 6)) for n in range(1, 7))
    first = Decision.chance("roll", good)
    assert _CHECKED_OUTCOMES.get(id(good)) is good
    assert Decision.chance("roll", good).outcomes is first.outcomes
    for _ in range(2):
        bad = ((Action.of("roll", 1), 0.5),)  # a float, not a Fraction
        with pytest.raises(HexwarError, match="Action, Fraction"):
            Decision.chance("roll", bad)  # type: ignore[arg-type]
        assert id(bad) not in _CHECKED_OUTCOMES
