"""A search player for any hexwar game: information-set Monte Carlo tree search (IS-MCTS).

- :class:`~hexwar.search.ismcts.SearchPlayer`: the player (``state -> action``), searching
  from its seat's point of view, token by token, with chance sampled by its exact
  probabilities and what its seat cannot see drawn anew each iteration;
- :func:`~hexwar.search.determinise.determinise`: that drawing (the ruleset's
  :meth:`~hexwar.engine.state.Ruleset.resample_hidden`, else a replay of the public history
  with the other sides' private choices drawn anew);
- :class:`~hexwar.search.evaluation.PositionValue`: the optional evaluation a ruleset (or
  a game module) supplies to cut rollouts at a horizon.

It imports only ``hexwar.base`` and ``hexwar.engine`` (never a game). See ``docs/agents.md``.
"""

from hexwar.search.determinise import determinise, replay_hidden
from hexwar.search.evaluation import PositionValue, evaluation_of, horizon_of
from hexwar.search.ismcts import Candidate, Explanation, SearchPlayer

__all__ = [
    "Candidate",
    "Explanation",
    "PositionValue",
    "SearchPlayer",
    "determinise",
    "evaluation_of",
    "horizon_of",
    "replay_hidden",
]
