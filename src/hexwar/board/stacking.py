"""Stacks: several units in one cell, in an order, under pluggable stacking limits.

A *stack* is a tuple of units, **top first**. Games differ in where a newcomer goes
(Triumph & Glory «Триумф и Слава» 6.24: a unit that moves into an occupied hex goes to
the *bottom*) and in what may share a cell (T&G 6.21: at most 3 units, never infantry
with cavalry, ...; Stalingrad S6.2: one unit per hex; «Бой отрядов»: two figures in a
masking square). So the order operations are plain functions on tuples, and a stacking
limit is a function ``units -> reason | None`` that a game writes and combines.

>>> s = arrive((), "Dumon-a")
>>> s = arrive(s, "Dumon-b")             # newcomers go to the bottom by default
>>> s
('Dumon-a', 'Dumon-b')
>>> to_top(s, "Dumon-b")
('Dumon-b', 'Dumon-a')
>>> three = max_units(3, rule="6.21")
>>> three(["a", "b", "c", "d"])
'6.21: more than 3 units in one cell (4)'
>>> ok = can_end(three)                  # a ``MoveRules.can_end`` predicate
>>> ok("d", ["a", "b"]), ok("d", ["a", "b", "c"])
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from hexwar.base.errors import StackError, StackingViolation

__all__ = [
    "ONE_PER_CELL",
    "StackingLimit",
    "all_limits",
    "arrive",
    "can_end",
    "check_stack",
    "depart",
    "max_units",
    "reorder",
    "to_top",
]

T = TypeVar("T")

#: A stacking limit: given the units of one cell (top first), why they may not stack
#: there (a message, best prefixed with the rule number), or ``None`` when they may.
StackingLimit = Callable[[Sequence[Any]], "str | None"]


def arrive(stack: tuple[T, ...], unit: T, *, on_top: bool = False) -> tuple[T, ...]:
    """``stack`` with ``unit`` added at the bottom (T&G 6.24) or, with ``on_top``, on top."""
    if unit in stack:
        raise StackError(f"{unit!r} is already in the stack {stack!r}")
    return (unit, *stack) if on_top else (*stack, unit)


def depart(stack: tuple[T, ...], unit: T) -> tuple[T, ...]:
    """``stack`` without ``unit``; the others keep their order."""
    if unit not in stack:
        raise StackError(f"{unit!r} is not in the stack {stack!r}")
    return tuple(u for u in stack if u != unit)


def to_top(stack: tuple[T, ...], unit: T) -> tuple[T, ...]:
    """``stack`` with ``unit`` moved to the top; the others keep their order."""
    return (unit, *depart(stack, unit))


def reorder(stack: tuple[T, ...], order: Sequence[T]) -> tuple[T, ...]:
    """``order`` as the new stack, checked to be a permutation of ``stack``.

    >>> reorder(("a", "b"), ["a", "c"])
    Traceback (most recent call last):
    ...
    hexwar.base.errors.StackError: new order ['a', 'c'] is not a permutation of ('a', 'b')
    """
    if len(order) != len(stack) or any(order.count(u) != 1 for u in stack):
        raise StackError(f"new order {list(order)!r} is not a permutation of {stack!r}")
    return tuple(order)


def max_units(
    limit: int, *, counts: Callable[[Any], bool] | None = None, rule: str | None = None
) -> StackingLimit:
    """At most ``limit`` units that ``counts`` (default: all; leaders and markers may not).

    >>> troops = max_units(1, counts=lambda u: not u.startswith("leader"))
    >>> troops(["leader-Ney", "3rd-Inf"]) is None
    True
    """
    prefix = f"{rule}: " if rule else ""

    def check(units: Sequence[Any]) -> str | None:
        n = sum(1 for u in units if counts is None or counts(u))
        if n > limit:
            return f"{prefix}more than {limit} units in one cell ({n})"
        return None

    return check


#: The default stacking limit of the core: one unit per cell. Movement
#: (:class:`hexwar.mechanics.moves.PieceMoves`: friendly pieces may be passed, not ended
#: on), retreats (:mod:`hexwar.mechanics.retreat`) and advances after combat
#: (:class:`hexwar.mechanics.combat.Combat`'s ``limit``) all use it unless a game says
#: otherwise (``limit=None``: no limit).
ONE_PER_CELL: Final[StackingLimit] = max_units(1)


def all_limits(*limits: StackingLimit) -> StackingLimit:
    """A limit that holds when every one of ``limits`` does (the first failure is reported).

    >>> pairs = all_limits(max_units(2), lambda us: "no twins" if len(set(us)) < len(us) else None)
    >>> pairs(["x", "x"]), pairs(["x", "y"])
    ('no twins', None)
    """

    def check(units: Sequence[Any]) -> str | None:
        for limit in limits:
            reason = limit(units)
            if reason is not None:
                return reason
        return None

    return check


def check_stack(limit: StackingLimit, units: Sequence[Any], *, rule: str | None = None) -> None:
    """Raise :class:`StackingViolation` (with ``rule``) unless ``units`` may stack."""
    reason = limit(units)
    if reason is not None:
        raise StackingViolation(reason, rule=rule)


def can_end(limit: StackingLimit, *, on_top: bool = False) -> Callable[[Any, Sequence[Any]], bool]:
    """A :class:`hexwar.board.move_rules.MoveRules` ``can_end`` predicate from a stacking limit.

    The mover joins the friendly units at the bottom (or on top, with ``on_top``), and
    may end its move there when the resulting stack is within ``limit``.
    """

    def predicate(mover: Any, friends: Sequence[Any]) -> bool:
        units = (mover, *friends) if on_top else (*friends, mover)
        return limit(units) is None

    return predicate
