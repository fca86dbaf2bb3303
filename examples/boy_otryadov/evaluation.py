"""A position's value for a side, for the search player (:mod:`hexwar.search`).

:class:`Evaluation` is a :class:`~hexwar.search.evaluation.PositionValue` read from the
end conditions of X: a destroyed side loses, and at the turn limit the side that lost
the smaller share of its figures wins. Before that, the value of ``side`` is
``1/2 + scale * (other's loss share - side's loss share) + contact * (side's reach -
other's reach)``, kept in ``[0, 1]``. A side's *reach* is the mean, over its figures, of
``1 / (1 + g)`` with ``g`` the squares a figure still lacks to have the nearest enemy
figure in its fire range (V; a figure that cannot fire counts its move, IV): it rewards
coming into contact, which a side must do to win at all (X), and makes it worth more to
have the enemy in range than to be in the enemy's. During the hidden set-up (X.2) nobody
has lost anything or moved, and the value is ``1/2``. The ruleset
hands it to a search (:meth:`~examples.boy_otryadov.rules.BoyOtryadov.evaluation`).

>>> from hexwar.engine import registry
>>> from examples.registry import register_examples
>>> _ = register_examples()
>>> state = registry.make("boy_otryadov").new_state(*registry.start("boy_otryadov"))
>>> ev = state.ruleset.evaluation()
>>> ev.position_value(state, "red"), ev.horizon
(0.5, 24)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import attrs

from hexwar.engine.state import State

from .board import SIDES

if TYPE_CHECKING:
    from .rules import BoyOtryadov

__all__ = ["Evaluation"]


@attrs.frozen
class Evaluation:
    """«Бой отрядов»' evaluation for the search (see the module text)."""

    #: How much a difference of loss shares moves the value from 1/2: with 2, losing one
    #: figure of ten more than the other side is worth 0.3 (a win at the turn limit, X).
    scale: float = 2.0
    #: How much being closer to fire than the enemy is worth (the reach, see above).
    contact: float = 0.2
    #: After how many actions a search's rollout stops to be scored: about two turns of
    #: both sides (a figure's move and its fire moves, X.4).
    horizon: int = 24

    def position_value(self, state: State, side: str) -> float:
        """The chance that ``side`` wins from ``state`` (X: losses)."""
        rules = cast("BoyOtryadov", state.ruleset)
        if not rules.deployment.done(state):  # X.2: the set-up is still hidden
            return 0.5
        lost = {s: float(rules.lost_share(state, s)) for s in SIDES}
        (other,) = (s for s in SIDES if s != side)
        reach = self._reach(rules, state, side, other) - self._reach(rules, state, other, side)
        value = 0.5 + self.scale * (lost[other] - lost[side]) + self.contact * reach
        return min(1.0, max(0.0, value))

    @staticmethod
    def _reach(rules: BoyOtryadov, state: State, side: str, enemy: str) -> float:
        """The mean of ``1 / (1 + g)`` over ``side``'s figures (see the module text)."""
        pieces, distance = rules.pieces, rules.board.map.topology.distance
        targets = [pieces.where(state, u) for u in pieces.pieces_of(state, enemy)]
        own = pieces.pieces_of(state, side)
        if not targets or not own:
            return 0.0
        total = 0.0
        for uid in own:
            arm, cell = rules.arm(state, uid), pieces.where(state, uid)
            gap = min(distance(cell, t) for t in targets) - (arm.range or arm.move)
            total += 1.0 / (1 + max(0, gap))
        return total / len(own)
