"""Proportions with their uncertainty: the Wilson score interval, and the two-proportion
test between two settings."""

from __future__ import annotations

import math
from typing import Final

import attrs

__all__ = ["Z95", "TwoProportions", "error_bar", "two_proportions", "wilson"]

#: The two-sided 95 % quantile of the standard normal distribution.
Z95: Final = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default), clamped to ``[0, 1]``
    and always holding the observed rate (rounding cannot leave it outside).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(30, 30)[1], wilson(0, 50)[0]
    (1.0, 0.0)
    """
    if n == 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes == n else max(p, min(1.0, centre + half))
    return lo, hi


def error_bar(successes: int, n: int) -> tuple[float, float, float]:
    """``(rate, below, above)``: the rate and the Wilson interval's distances from it,
    never negative (what a plot's error bar takes).

    >>> rate, below, above = error_bar(30, 30)
    >>> rate, round(below, 4), above
    (1.0, 0.1135, 0.0)
    """
    lo, hi = wilson(successes, n)
    rate = successes / n if n else 0.0
    return rate, rate - lo, hi - rate


@attrs.frozen
class TwoProportions:
    """The two-sided two-proportion z test of ``a/n`` against ``b/m`` (pooled variance):
    the difference of the rates, its z score and p value."""

    difference: float
    z: float
    p: float


def two_proportions(a: int, n: int, b: int, m: int) -> TwoProportions:
    """Do two settings differ? ``a`` wins of ``n`` games against ``b`` of ``m``.

    >>> t = two_proportions(120, 200, 90, 200)
    >>> round(t.difference, 3), round(t.z, 2), round(t.p, 4)
    (0.15, 3.0, 0.0027)
    >>> two_proportions(0, 10, 0, 10).p
    1.0
    """
    if n <= 0 or m <= 0:
        raise ValueError("both settings need games")
    p1, p2 = a / n, b / m
    pooled = (a + b) / (n + m)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    if se == 0:
        return TwoProportions(p1 - p2, 0.0, 1.0)
    z = (p1 - p2) / se
    return TwoProportions(p1 - p2, z, math.erfc(abs(z) / math.sqrt(2)))
