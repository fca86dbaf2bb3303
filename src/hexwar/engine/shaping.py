"""Shaped rewards a ruleset may declare for learning agents (off unless asked for).

A :class:`Signal` is a *potential*: ``value(state, side)``, how well ``side`` stands by
one measure (its material, a victory condition, a distance). An environment that is asked
to shape its rewards (:class:`hexwar.interop.gymnasium.HexwarEnv` with ``shaping=True``)
pays the seat ``weight x (value after - value before)`` of each signal over each of its
steps (``every="step"``), or at each new game turn only (``every="turn"``, for signals
costly to compute): a potential-based shaping, which leaves the best policy unchanged
(Ng, Harada & Russell, 1999). :meth:`hexwar.engine.state.Ruleset.reward_signals` declares
them; the default is none.

>>> signal = Signal("material", lambda state, side: 0.5, every="turn")
>>> signal.weight, signal.every
(1.0, 'turn')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from hexwar.base.errors import HexwarError

__all__ = ["EVERY", "Signal"]

#: When a signal is paid: each step of the agent, or each new game turn.
EVERY: Final = ("step", "turn")


@attrs.frozen
class Signal:
    """One shaped-reward signal (see the module text); ``rule``: the rule it follows."""

    name: str
    value: Callable[[Any, str], float]
    weight: float = 1.0
    every: str = "step"
    rule: str = ""

    def __attrs_post_init__(self) -> None:
        if self.every not in EVERY:
            raise HexwarError(f"signal {self.name!r}: every is one of {EVERY}, not {self.every!r}")
