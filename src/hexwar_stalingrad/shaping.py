"""Shaped rewards for learning agents (:meth:`StalingradRules.reward_signals`; off unless an
environment is asked for them, :mod:`hexwar.engine.shaping`). Each is a potential from
one side's view (the other side's is its negative, so the game stays zero-sum):

- ``losses`` (S1.3, S1.4): the side's share of the ground strength on the map, every step;
- ``ring`` (S11.1): ``+1`` for the RKKA while the 6th Army is encircled, every turn;
- ``relief`` (S11.2): the hexes between Manstein's relief group and the 6th Army in the
  Stalingrad area, over the map's width (closer is better for the Wehrmacht), every turn.
"""

from __future__ import annotations

from typing import Final

from hexwar.engine.shaping import Signal
from hexwar.engine.state import State
from hexwar_stalingrad.board import on_map, static
from hexwar_stalingrad.evaluation import material_share
from hexwar_stalingrad.victory import RELIEF, SIXTH_ARMY, encircled

__all__ = ["SIGNALS", "losses", "relief", "ring"]

#: The distance the ``relief`` signal counts in full (about the map's width in hexes).
RELIEF_SCALE: Final = 30


def _sign(side: str) -> float:
    return 1.0 if side == "rkka" else -1.0


def losses(state: State, side: str) -> float:
    """S1.3, S1.4: ``side``'s share of the ground strength, centred on 0."""
    return material_share(state, side) - 0.5


def ring(state: State, side: str) -> float:
    """S11.1: ``+1`` for the RKKA (``-1`` for the Wehrmacht) while the ring is closed."""
    return _sign(side) if encircled(state) else 0.0


def relief(state: State, side: str) -> float:
    """S11.2: the nearest relief unit's distance to a 6th Army unit in the area, scaled
    (good for the RKKA, bad for the Wehrmacht); ``0`` without either."""
    data = static(state)
    mine = [(lab, data.ground[u].groups) for lab, u in on_map(state, "wehrmacht")]
    sixth = [lab for lab, g in mine if SIXTH_ARMY in g and lab in data.stalingrad_area]
    group = [lab for lab, g in mine if RELIEF in g]
    if not sixth or not group:
        return 0.0
    near = min(data.distance(a, b) for a in group for b in sixth)
    return _sign(side) * min(near, RELIEF_SCALE) / RELIEF_SCALE


SIGNALS: Final = (
    Signal("losses", losses, weight=1.0, every="step", rule="S1.3"),
    Signal("ring", ring, weight=0.2, every="turn", rule="S11.1"),
    Signal("relief", relief, weight=0.2, every="turn", rule="S11.2"),
)
