"""Rule hooks and active effects: where a game's rules and its cards plug into the engine.

A *hook point* is a named question the engine (or a game's rules code) asks, with a
documented signature: ``value = state.hook("die_modifier", 0, side="red")``. The answer
is folded in two layers:

1. the ruleset's static implementation, a method named ``hook_<point>`` taking
   ``(state, value, **context)`` and returning the new value (python-chess style: a game
   subclasses :class:`~hexwar.engine.state.Ruleset` and overrides what it needs);
2. every *active effect* in the state, in precedence order, whose kind the ruleset maps
   to this point (``Ruleset.effect_rules[kind][point]``), each called as
   ``(state, effect, value, **context)``.

Effects are data (:class:`Effect`: a kind name, parameters, an :class:`Expiry`, a
precedence), so clone, undo, serialization and replay cover them. The sequencer removes
``PHASE`` effects when a phase ends, ``TURN`` effects when a turn ends, and effects with
an ``until`` turn at the start of that turn ("neutralised for 3 turns": «Бой отрядов» IX).

Hot paths ask a hook once per query (once per move search, per attack), never once per
graph edge: e.g. fold a ``movement_allowance`` before the search, not inside it.

The standard points below are the ones the engine asks (``phase_start``, ``phase_end``,
``victory_check``) and the ones most games share; each names exactly the context its
askers pass (``tests/test_hooks.py`` checks every call). A game declares its own in
``Ruleset.hook_points``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from hexwar.engine.actions import Value

__all__ = [
    "HOOK_POINTS",
    "Effect",
    "EffectRule",
    "Expiry",
    "HookPoint",
    "hook_point",
]


class Expiry(enum.StrEnum):
    """When an effect lapses."""

    PHASE = "phase"  #: at the end of the current phase
    TURN = "turn"  #: at the end of the current turn
    GAME = "game"  #: never (S1.5 ``∞`` cards)


@attrs.frozen(order=True)
class Effect:
    """An active effect (a card in force, an event): data the ruleset interprets.

    Effects apply in ``(precedence, serial)`` order: a lower precedence applies first
    (so a later "double it" card with a higher precedence sees earlier "+1"s);
    ``serial`` is the order of arrival, assigned by the state. ``until``: the turn at
    whose start the effect lapses, whatever its ``expiry`` ("for 3 turns"); ``None``: no
    such limit.
    """

    precedence: int
    serial: int
    kind: str
    params: tuple[tuple[str, Value], ...] = ()
    expiry: Expiry = Expiry.TURN
    owner: str | None = None
    source: str | None = None
    until: int | None = None
    #: ``params`` by name (the first of a repeated name), for :meth:`param`
    _by_name: dict[str, Value] = attrs.field(init=False, eq=False, order=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_name", dict(reversed(self.params)))

    def param(self, name: str, default: Value = None) -> Value:
        """The parameter ``name``, or ``default``."""
        return self._by_name.get(name, default)


#: ``(state, effect, value, **context) -> value``: an effect kind's contribution to a point.
EffectRule = Callable[..., Any]


@attrs.frozen
class HookPoint:
    """A named hook point and its documented signature (the context keywords it passes)."""

    name: str
    signature: str
    doc: str


_POINTS = (
    HookPoint(
        "movement_allowance",
        "(state, value: int, *, unit: str) -> int",
        "Movement points of a unit this phase (S6.1).",
    ),
    HookPoint(
        "combat_strength",
        "(state, value: int | Fraction, *, unit: str, role: str) -> int | Fraction",
        "A unit's strength as attacker or defender (role 'attack'/'defend'; S8.2); a "
        "Fraction halves exactly (hexwar.mechanics.status).",
    ),
    HookPoint(
        "odds_shift",
        "(state, value: int, *, attacker: tuple[str, ...], defender: str) -> int",
        "Column shift on the combat table (positive favours the attacker units).",
    ),
    HookPoint(
        "die_modifier",
        "(state, value: int, **context) -> int",
        "Added to a die roll; the context says which roll (side, table, ...).",
    ),
    HookPoint(
        "replacement_points",
        "(state, value: int, *, side: str, group: str | None) -> int",
        "Replacement points a side receives this turn (``group``: a unit group's extra"
        " points, ``None``: the side's base; S4.1).",
    ),
    HookPoint(
        "phase_start",
        "(state, value: None, *, phase: str) -> None",
        "Called after a phase's own on_enter; may change the state.",
    ),
    HookPoint(
        "phase_end",
        "(state, value: None, *, phase: str) -> None",
        "Called before a phase's own on_exit; may change the state.",
    ),
    HookPoint(
        "victory_check",
        "(state, value: Outcome | None) -> Outcome | None",
        "At the end of every turn: an Outcome ends the game (S11).",
    ),
)

#: The standard hook points, by name. A ruleset may declare more (``Ruleset.hook_points``).
HOOK_POINTS: Final[Mapping[str, HookPoint]] = {p.name: p for p in _POINTS}


def hook_point(name: str, extra: Mapping[str, HookPoint] | None = None) -> HookPoint:
    """Look up a hook point by name (standard ones, then ``extra``).

    >>> hook_point("die_modifier").signature
    '(state, value: int, **context) -> int'
    >>> hook_point("morale")
    Traceback (most recent call last):
    ...
    KeyError: "unknown hook point 'morale'"
    """
    point = HOOK_POINTS.get(name) or (extra or {}).get(name)
    if point is None:
        raise KeyError(f"unknown hook point {name!r}")
    return point
