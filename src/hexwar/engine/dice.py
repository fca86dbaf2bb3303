"""Dice, cups and decks as *chance events*, and the drivers that decide them.

A chance event is a tuple of ``(outcome, probability)`` pairs with exact
:class:`~fractions.Fraction` probabilities that sum to 1 (the shape of OpenSpiel's
``chance_outcomes()``). Rules code never calls :mod:`random`: it asks a
:class:`ChanceDriver` to ``pick`` one outcome. :class:`SeededDriver` is the only object
in hexwar that owns a :class:`random.Random`; :class:`FixedDriver` forces rolls in tests.

>>> D6.outcomes()[0]
(1, Fraction(1, 6))
>>> str(Dice(2, 6)), Dice.parse("d10(0-9)") == D10
('2d6', True)
>>> dict(Dice.parse("2d6").outcomes())[7]
Fraction(1, 6)
>>> FixedDriver([4]).pick(D6.outcomes())
4

A shuffle is a chance event too, modelled as successive draws without replacement
(:func:`draw_outcomes` on what is left, then remove the drawn item): a deck of ``n``
cards is ``n`` chance events, so an engine may expose each draw as its own chance node.
:func:`shuffle` runs the whole sequence through a driver:

>>> shuffle(["A", "B", "C"], FixedDriver(["C", "A", "B"]))
('C', 'A', 'B')
"""

from __future__ import annotations

import math
import operator
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, Final, Protocol, TypeVar

import attrs

from hexwar.base.errors import ChanceError, DataError

__all__ = [
    "D6",
    "D10",
    "ChanceDriver",
    "Dice",
    "FixedDriver",
    "SeededDriver",
    "draw_outcomes",
    "integer_weights",
    "shuffle",
    "uniform",
    "validate_outcomes",
]

T = TypeVar("T")

Outcomes = tuple[tuple[T, Fraction], ...]


def _positive(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ChanceError(f"Dice.{attribute.name} must be a positive int, got {value!r}")


_DICE_RE: Final = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(\(\s*0\s*-\s*(\d+)\s*\))?\s*$")


@attrs.frozen(order=True)
class Dice:
    """``count`` dice of ``sides`` faces each, summed (``NdM``).

    With ``zero_based`` a die reads ``0 .. sides-1`` instead of ``1 .. sides``
    (Triumph & Glory's d10: "0 is zero, not 10").

    >>> Dice(1, 10, zero_based=True).faces()
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    >>> [p for _, p in Dice(2, 6).outcomes()][:3]
    [Fraction(1, 36), Fraction(1, 18), Fraction(1, 12)]
    """

    count: int = attrs.field(default=1, validator=_positive)
    sides: int = attrs.field(default=6, validator=_positive)
    zero_based: bool = False

    def faces(self) -> tuple[int, ...]:
        """One die's faces, ascending."""
        low = 0 if self.zero_based else 1
        return tuple(range(low, low + self.sides))

    @property
    def minimum(self) -> int:
        """The lowest possible total (the lowest face, :meth:`faces`, on every die)."""
        return 0 if self.zero_based else self.count

    @property
    def maximum(self) -> int:
        """The highest possible total (the highest face on every die)."""
        return self.count * (self.sides - 1 if self.zero_based else self.sides)

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """The exact distribution of the total, ascending; the probabilities sum to 1."""
        ways: dict[int, int] = {0: 1}
        for _ in range(self.count):
            nxt: dict[int, int] = {}
            for total, n in ways.items():
                for face in self.faces():
                    nxt[total + face] = nxt.get(total + face, 0) + n
            ways = nxt
        whole = self.sides**self.count
        shares: dict[int, Fraction] = {}  # one Fraction per count: a die's faces share one
        for n in ways.values():
            if n not in shares:
                shares[n] = Fraction(n, whole)
        return tuple((total, shares[ways[total]]) for total in sorted(ways))

    def roll(self, driver: ChanceDriver) -> int:
        """Roll through ``driver`` (the only way rules code rolls dice)."""
        return driver.pick(self.outcomes())

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        tail = f"(0-{self.sides - 1})" if self.zero_based else ""
        return f"{count}d{self.sides}{tail}"

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Parse ``"d6"``, ``"2d6"``, ``"d10(0-9)"``; the inverse of :func:`str`.

        >>> Dice.parse("3d10(0-9)")
        Dice(count=3, sides=10, zero_based=True)
        >>> Dice.parse("d6(0-9)")
        Traceback (most recent call last):
        ...
        hexwar.base.errors.ChanceError: bad dice 'd6(0-9)': a zero-based d6 reads 0-5
        """
        m = _DICE_RE.match(text)
        if m is None:
            raise ChanceError(f"bad dice {text!r}: expected NdM or NdM(0-K), e.g. '2d6'")
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        zero_based = m.group(3) is not None
        if zero_based and int(m.group(4)) != sides - 1:
            raise ChanceError(f"bad dice {text!r}: a zero-based d{sides} reads 0-{sides - 1}")
        return cls(count, sides, zero_based)


D6: Final = Dice(1, 6)
D10: Final = Dice(1, 10, zero_based=True)


# -- chance events ---------------------------------------------------------------------


def validate_outcomes(outcomes: Sequence[tuple[T, Fraction]]) -> None:
    """Raise :class:`ChanceError` unless ``outcomes`` is a well-formed chance event.

    Well-formed: non-empty, every probability a positive ``Fraction`` (or int), sum 1.

    >>> validate_outcomes([("a", Fraction(1, 3)), ("b", Fraction(1, 3))])
    Traceback (most recent call last):
    ...
    hexwar.base.errors.ChanceError: chance outcomes sum to 2/3, not 1
    """
    if not outcomes:
        raise ChanceError("a chance event needs at least one outcome")
    for item, p in outcomes:
        if isinstance(p, float) or not isinstance(p, Fraction | int) or p <= 0:
            raise ChanceError(f"outcome {item!r} has probability {p!r}, not a positive Fraction")
    total = sum((Fraction(p) for _, p in outcomes), Fraction(0))
    if total != 1:
        raise ChanceError(f"chance outcomes sum to {total}, not 1")


_second: Final = operator.itemgetter(1)
#: No probability read yet (:func:`integer_weights`).
_UNSEEN: Final = object()


def integer_weights(outcomes: Sequence[tuple[T, Fraction]]) -> tuple[int, tuple[int, ...]]:
    """``(L, weights)``: ``L`` the least common denominator of the probabilities and
    ``weights[i] = p_i * L`` (integers summing to ``L``); raises :class:`ChanceError`
    like :func:`validate_outcomes` unless ``outcomes`` is well-formed.

    Integer arithmetic only (no ``Fraction`` is built), so it is cheap enough for every
    chance event of a game.

    >>> integer_weights([("a", Fraction(1, 2)), ("b", Fraction(1, 3)), ("c", Fraction(1, 6))])
    (6, (3, 2, 1))
    """
    probabilities = tuple(map(_second, outcomes))
    first = probabilities[0] if probabilities else None
    if type(first) is Fraction and len(set(map(id, probabilities))) == 1:
        # one probability object throughout (a die, a draw of distinct chits): n/d each,
        # summing to 1 exactly when len * n == d; the weights below, without the loop
        n, d = first.as_integer_ratio()
        if n > 0 and n * len(probabilities) == d:
            return d, (n,) * len(probabilities)
    nums: list[int] = []
    dens: list[int] = []
    last: object = _UNSEEN  # the probability read last: equal ones are often one object
    n = d = 0
    for _, p in outcomes:
        q: object = p
        if q is not last:
            if type(q) is Fraction:
                n, d = q.as_integer_ratio()
            elif type(q) is int:
                n, d = q, 1
            else:  # a subclass, a float, anything else: the full check says what is wrong
                validate_outcomes(outcomes)
                n, d = Fraction(p).as_integer_ratio()
            last = q
        nums.append(n)
        dens.append(d)
    if not nums:
        validate_outcomes(outcomes)
    lcd = math.lcm(*dens)
    weights = tuple([n * (lcd // d) for n, d in zip(nums, dens, strict=True)])
    if sum(weights) != lcd or min(weights) <= 0:
        validate_outcomes(outcomes)  # raises: not positive, or not summing to 1
        raise ChanceError(f"malformed chance outcomes {outcomes!r}")  # pragma: no cover
    return lcd, weights


def uniform(items: Sequence[T]) -> tuple[tuple[T, Fraction], ...]:
    """An equal-probability chance event over distinct ``items``, in the given order.

    >>> uniform(["N", "S"])
    (('N', Fraction(1, 2)), ('S', Fraction(1, 2)))
    """
    if not items:
        raise ChanceError("uniform() needs at least one item")
    if any(items[j] == items[i] for i in range(len(items)) for j in range(i)):
        raise ChanceError(f"uniform() items must be distinct: {list(items)!r}")
    p = Fraction(1, len(items))
    return tuple((item, p) for item in items)


def draw_outcomes(cup: Sequence[T]) -> tuple[tuple[T, Fraction], ...]:
    """Drawing one chit/card from ``cup``: each physical item equally likely.

    Equal items are merged, their probabilities summed; the order is that of each item's
    first appearance in ``cup``.

    >>> draw_outcomes(["red", "blue", "red"])
    (('red', Fraction(2, 3)), ('blue', Fraction(1, 3)))
    """
    if not cup:
        raise ChanceError("cannot draw from an empty cup")
    items: list[T] = []
    counts: list[int] = []
    for chit in cup:
        for i, seen in enumerate(items):
            if seen == chit:
                counts[i] += 1
                break
        else:
            items.append(chit)
            counts.append(1)
    size = len(cup)
    shares: dict[int, Fraction] = {}  # one Fraction per count (most draws: all counts 1)
    for n in counts:
        if n not in shares:
            shares[n] = Fraction(n, size)
    return tuple((item, shares[n]) for item, n in zip(items, counts, strict=True))


def shuffle(deck: Sequence[T], driver: ChanceDriver) -> tuple[T, ...]:
    """Shuffle ``deck`` as ``len(deck)`` successive draws, each decided by ``driver``.

    Every ordering of distinct cards has probability ``1/n!``.
    """
    remaining = list(deck)
    order: list[T] = []
    while remaining:
        card = driver.pick(draw_outcomes(remaining))
        remaining.remove(card)
        order.append(card)
    return tuple(order)


# -- drivers -----------------------------------------------------------------------------


class ChanceDriver(Protocol):
    """Decides chance events: returns one of the outcomes' items."""

    def pick(self, outcomes: Sequence[tuple[T, Fraction]]) -> T:
        """Choose one outcome's item."""
        ...


class SeededDriver:
    """A reproducible driver over its own ``random.Random(seed)``.

    Exact: with ``L`` the common denominator of the probabilities it draws one integer
    ``k`` uniform in ``0 .. L-1`` and returns the outcome whose cumulative numerator range
    holds ``k``, so each outcome has exactly its probability and the same seed gives the
    same picks on every platform. ``getstate()`` is JSON-able, for saved games.

    >>> a, b = SeededDriver(7), SeededDriver(7)
    >>> [a.pick(D6.outcomes()) for _ in range(5)] == [b.pick(D6.outcomes()) for _ in range(5)]
    True
    >>> state = a.getstate()
    >>> x = a.pick(D10.outcomes())
    >>> a.setstate(state)
    >>> a.pick(D10.outcomes()) == x
    True
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def pick(self, outcomes: Sequence[tuple[T, Fraction]]) -> T:
        denominator, weights = integer_weights(outcomes)
        rng = self._rng
        if type(rng) is random.Random:
            # rng.randrange(denominator) by the generator's own steps (Random._randbelow:
            # as many bits as the denominator has, drawn again while out of range): the
            # same draw, without randrange's two Python frames
            bits = rng.getrandbits
            n = denominator.bit_length()
            k = bits(n)
            while k >= denominator:
                k = bits(n)
        else:
            k = rng.randrange(denominator)
        cumulative = 0
        for (item, _), w in zip(outcomes, weights, strict=True):
            cumulative += w
            if k < cumulative:
                return item
        raise AssertionError("unreachable: outcomes sum to 1")  # pragma: no cover

    def getstate(self) -> dict[str, Any]:
        """The driver's state as JSON-able data (``json.dumps`` works on it)."""
        version, internal, gauss = self._rng.getstate()
        return {"seed": self.seed, "version": version, "internal": list(internal), "gauss": gauss}

    def setstate(self, state: dict[str, Any]) -> None:
        """Restore a state from :meth:`getstate` (possibly after a JSON round trip)."""
        try:
            rng_state = (int(state["version"]), tuple(int(x) for x in state["internal"]))
            gauss = state["gauss"]
            self._rng.setstate((*rng_state, None if gauss is None else float(gauss)))
            self.seed = state["seed"]
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"bad driver state: {exc}", entry="SeededDriver") from exc

    def __repr__(self) -> str:
        return f"SeededDriver(seed={self.seed!r})"


class FixedDriver:
    """Forces the picks, in order: for tests ("the die shows 4").

    >>> d = FixedDriver([6, 2])
    >>> d.pick(D6.outcomes()), d.pick(D6.outcomes())
    (6, 2)
    >>> d.pick(D6.outcomes())
    Traceback (most recent call last):
    ...
    hexwar.base.errors.ChanceError: FixedDriver has no forced value left (2 used)
    >>> FixedDriver([0]).pick(D6.outcomes())
    Traceback (most recent call last):
    ...
    hexwar.base.errors.ChanceError: forced value 0 is not among the outcomes [1, 2, 3, 4, 5, 6]
    """

    def __init__(self, values: Iterable[object]) -> None:
        self._values: Iterator[object] = iter(values)
        self.used = 0

    def pick(self, outcomes: Sequence[tuple[T, Fraction]]) -> T:
        validate_outcomes(outcomes)
        try:
            forced = next(self._values)
        except StopIteration:
            raise ChanceError(f"FixedDriver has no forced value left ({self.used} used)") from None
        for item, _ in outcomes:
            if item == forced:
                self.used += 1
                return item
        items = [item for item, _ in outcomes]
        raise ChanceError(f"forced value {forced!r} is not among the outcomes {items!r}")

    def __repr__(self) -> str:
        return f"FixedDriver(used={self.used})"
