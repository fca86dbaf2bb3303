"""How the kit's random player picks (:func:`hexwar.testing.check_random_games`'s ``policy``).

A policy is ``policy(state, rng) -> Action``: a legal action of the current player (the kit
draws chance outcomes itself). :func:`uniform` is the plain token-by-token draw
(:func:`hexwar.engine.loop.sample_action`): at a phase's start ``end`` is as likely as every
other kind together, so a player ends most phases after a move or two and seldom fights.
:class:`Weighted` — the kit's default — weighs the first token (the action's kind) instead:
``end`` counts ``0.1`` against ``1`` for every other kind, so a side keeps acting until little
is left to do, and combat is reached. Any bot is a policy too:
``lambda state, rng: bot(state)``.

>>> import random
>>> from hexwar.engine.actions import Action
>>> class Fake:
...     def legal_tokens(self, prefix):
...         return {(): ("end", "move"), ("end",): ("done",),
...                 ("move",): ("a",), ("move", "a"): ("done",)}[prefix]
>>> rng = random.Random(1)
>>> picks = [Weighted()(Fake(), rng).kind for _ in range(1000)]
>>> picks.count("end") < 150 < 850 < picks.count("move")
True
>>> Weighted({"end": 1.0})(Fake(), random.Random(0)) in (Action("end"), Action("move", ("a",)))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from hexwar.engine.actions import Action
from hexwar.engine.loop import sample_action
from hexwar.engine.space import DONE
from hexwar.engine.state import State

__all__ = ["Policy", "Weighted", "uniform"]

#: A random player for the kit: ``(state, rng) -> a legal action``.
Policy = Callable[[State, random.Random], Action]


def uniform(state: State, rng: random.Random) -> Action:
    """Uniform over the legal tokens at each step (:func:`~hexwar.engine.loop.sample_action`)."""
    return sample_action(state, rng)


def _weights(value: Mapping[str, float]) -> dict[str, float]:
    out = dict(value)
    for kind, weight in out.items():
        if not weight > 0:
            raise ValueError(f"weight of {kind!r} must be > 0, got {weight}")
    return out


@attrs.frozen
class Weighted:
    """The first token (the kind) drawn by weight — ``weights[kind]``, else ``default`` —
    the next tokens uniformly, as :func:`uniform`."""

    weights: Mapping[str, float] = attrs.field(factory=lambda: {"end": 0.1}, converter=_weights)
    default: float = 1.0

    def __call__(self, state: State | Any, rng: random.Random) -> Action:
        tokens = tuple(state.legal_tokens(()))
        if not tokens:
            raise ValueError("no legal token at the start: the game has no legal action")
        weights = [self.weights.get(t, self.default) for t in tokens]
        prefix: tuple[str, ...] = (rng.choices(tokens, weights)[0],)
        while True:
            following = state.legal_tokens(prefix)
            token = following[rng.randrange(len(following))]
            if token == DONE:
                return Action(prefix[0], prefix[1:])
            prefix = (*prefix, token)
