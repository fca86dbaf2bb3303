"""A position's value for a side, for the search player (:mod:`hexwar.search`).

:class:`Evaluation` is a :class:`~hexwar.search.evaluation.PositionValue`: the chance in
``[0, 1]`` that a side wins, estimated from the victory conditions (S11) and the
material on the map (S1.3 strengths, the reduced side's when reduced, S1.4):

- short game (S11.1): RKKA wins with a unit in a Stalingrad city hex *and* the 6th Army
  encircled; each of the two counts half of the conditions' share for RKKA;
- long game (S11.2): the Wehrmacht wins when the relief group reaches the 6th Army: its
  contact is the whole conditions' share for the Wehrmacht;
- material: each side's share of the ground strength on the map.

The value is ``conditions * conditions_share + material * (1 - conditions_share)``
(:class:`Weights`); the other side's value is one minus it. The ruleset hands it to a
search (:meth:`~hexwar_stalingrad.rules.StalingradRules.evaluation`).

>>> from hexwar_stalingrad.rules import StalingradRules
>>> state = StalingradRules("short").new_state()
>>> ev = state.ruleset.evaluation()
>>> round(ev.position_value(state, "rkka") + ev.position_value(state, "wehrmacht"), 9)
1.0
"""

from __future__ import annotations

import attrs

from hexwar.engine.state import State
from hexwar_stalingrad import victory
from hexwar_stalingrad.board import FULL, on_map, static, step

__all__ = ["Evaluation", "Weights", "material_share"]


@attrs.frozen
class Weights:
    """How the evaluation weighs its parts: ``conditions`` is the share of the victory
    conditions (S11), the rest the material's."""

    conditions: float = 0.6


def material_share(state: State, side: str) -> float:
    """``side``'s share of the ground strength on the map (S1.3, S1.4), ``0.5`` when the
    map is empty."""
    ground = static(state).ground
    totals = {}
    for who in ("rkka", "wehrmacht"):
        total = 0
        for _, unit in on_map(state, who):
            strength = ground[unit].strength
            total += strength.full if step(state, unit) == FULL else strength.reduced
        totals[who] = total
    both = sum(totals.values())
    return 0.5 if not both else totals[side] / both


@attrs.frozen
class Evaluation:
    """«Сталинград»'s evaluation for the search (see the module text)."""

    weights: Weights = Weights()
    #: After how many actions a search's rollout stops to be scored (the search's default
    #: ``horizon``): about two phases of a turn.
    horizon: int = 40

    def position_value(self, state: State, side: str) -> float:
        """The chance that ``side`` wins from ``state`` (S11, material)."""
        if getattr(state.ruleset, "length", "long") == "short":  # S11.1
            rkka = (victory.rkka_in_city(state) + victory.encircled(state)) / 2
        else:  # S11.2
            rkka = 0.0 if victory.relief_contact(state) else 1.0
        share = self.weights.conditions
        value = share * rkka + (1 - share) * material_share(state, "rkka")
        return value if side == "rkka" else 1.0 - value
