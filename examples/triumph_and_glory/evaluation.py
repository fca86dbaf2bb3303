"""A position's value for a side, for the search player (:mod:`hexwar.search`).

:class:`Evaluation` is a :class:`~hexwar.search.evaluation.PositionValue` read from the
(PLACEHOLDER) victory condition of the example: the French win when they hold the
scenario's objective at the end, and a side with no units left loses. Its value for the
French is ``conditions * approach + (1 - conditions) * material`` (:class:`Evaluation`'s
``conditions``), where

- ``approach`` is ``1 / (1 + d)``, ``d`` the distance from the objective to the nearest
  French unit (``1`` when they hold it, ``0`` with no French unit on the map);
- ``material`` is the French share of the strength points on the map (2.0 counters);

and the Russians' value is one minus it. The ruleset hands it to a search
(:meth:`~examples.triumph_and_glory.rules.TriumphAndGlory.evaluation`).

>>> from examples.triumph_and_glory.rules import TriumphAndGlory
>>> state = TriumphAndGlory().new_state()
>>> ev = state.ruleset.evaluation()
>>> round(ev.position_value(state, "french") + ev.position_value(state, "russian"), 9)
1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import attrs

from hexwar.engine.state import State

from .board import side_of, stack, strength, where

if TYPE_CHECKING:
    from .rules import TriumphAndGlory

__all__ = ["Evaluation"]


@attrs.frozen
class Evaluation:
    """«Триумф и Слава»'s evaluation for the search (see the module text)."""

    #: The victory condition's share of the value; the rest is the material's.
    conditions: float = 0.6
    #: After how many actions a search's rollout stops to be scored: about one group's
    #: activation of each side (orders, moves, facings, fire and assaults).
    horizon: int = 30

    def position_value(self, state: State, side: str) -> float:
        """The chance that ``side`` wins from ``state`` (the objective, material)."""
        rules = cast("TriumphAndGlory", state.ruleset)
        goal = rules.scenario.objective
        holders = stack(state, goal)
        placed = {s: rules.pieces.pieces_of(state, s) for s in rules.sides}
        if holders and side_of(state, holders[0]) == "french":
            approach = 1.0
        elif placed["french"]:
            approach = 1 / (1 + min(where(state, u).distance(goal) for u in placed["french"]))
        else:
            approach = 0.0
        points = {s: strength(state, units) for s, units in placed.items()}
        total = sum(points.values())
        material = points["french"] / total if total else 0.5
        french = self.conditions * approach + (1 - self.conditions) * material
        return french if side == "french" else 1.0 - french
