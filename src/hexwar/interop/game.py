"""A ruleset as a game of token steps: :class:`TokenGame` (its states:
:class:`hexwar.interop.adapter.TokenState`; see :mod:`hexwar.interop.adapter`)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Final

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action, Value, sorted_outcomes
from hexwar.engine.bounds import hides_anything
from hexwar.engine.dice import integer_weights
from hexwar.engine.memo import kept
from hexwar.engine.observe import Encoder
from hexwar.engine.space import DONE
from hexwar.engine.state import Ruleset, State

__all__ = ["CHANCE_PLAYER", "TERMINAL_PLAYER", "TokenGame"]

#: OpenSpiel's player ids of a chance node and of a finished game.
CHANCE_PLAYER: Final = -1
TERMINAL_PLAYER: Final = -4
#: How many of its own last tokens a seat's information-state tensor holds (default).
HISTORY_TOKENS: Final = 16
#: A chance node's ``(token id, weight)`` pairs and their sum.
Weights = tuple[tuple[tuple[int, int], ...], int]


class TokenGame:
    """A ruleset as a game of token steps (see the module text).

    ``scenario``/``options``: those of :meth:`~hexwar.engine.state.Ruleset.new_state`; the
    set-up is computed once and cloned for each new game. ``name``: the registry name
    (:mod:`hexwar.engine.registry`), used by the frameworks' game names.
    ``history_tokens``: how many of its own last tokens a seat's information-state tensor
    holds.
    """

    #: The class of the states (:class:`hexwar.interop.adapter.TokenState`, set there).
    state_type: ClassVar[Any]

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        scenario: str = "default",
        options: Mapping[str, Value] | None = None,
        name: str | None = None,
        collapse: bool = True,
        history_tokens: int = HISTORY_TOKENS,
    ) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.options = dict(options or {})
        self.name = name or ruleset.name
        self.collapse = collapse
        self.space = ruleset.space
        self.seats = ruleset.seats()
        if not len(self.seats) >= 1:
            raise HexwarError(f"{ruleset.name}: no seats")
        self.num_players = len(self.seats)
        self.side_seats: Mapping[str, tuple[int, ...]] = {
            side: tuple(i for i, s in enumerate(self.seats) if s.side == side)
            for side in ruleset.sides
        }
        bounds = ruleset.scenario_bounds(scenario)
        if bounds.max_tokens is None:
            raise HexwarError(
                f"{ruleset.name}: declare the most token steps of a game "
                "(Ruleset.bounds().max_tokens) to use it with a framework"
            )
        self.max_game_length: int = bounds.max_tokens
        self.utility = bounds.utility
        self.max_chance_outcomes = self.space.size
        self.num_distinct_actions = self.space.size
        counts = {len(v) for v in self.side_seats.values()}
        self.zero_sum = bounds.zero_sum and len(counts) == 1
        declared = ruleset.perfect_information
        #: declared by the ruleset, else derived from what its games hide
        self.perfect_information: bool = (
            not hides_anything(ruleset, scenario, self.options)
            if declared is None
            else bool(declared)
        )
        self.encoder = Encoder(ruleset)
        if history_tokens < 1:
            raise HexwarError(f"history_tokens must be at least 1, not {history_tokens}")
        self.history_tokens = history_tokens
        self._initial: State | None = None
        self._initial_token_state: Any = None
        #: id of a chance event's outcomes -> (those outcomes, prefix -> weights and
        #: their sum): the outcomes are immutable and held, so their id names them
        self._chance: dict[int, tuple[Any, dict[tuple[str, ...], Weights]]] = {}

    @classmethod
    def from_name(cls, name: str, **kwargs: Any) -> TokenGame:
        """The game registered as ``name`` (:mod:`hexwar.engine.registry`), with the
        scenario and options it was registered with."""
        from hexwar.engine import registry

        scenario, options = registry.start(name)
        return cls(registry.make(name), scenario=scenario, options=options, name=name, **kwargs)

    def initial_core_state(self) -> State:
        """A fresh hexwar state at the start (a clone of the one set-up)."""
        if self._initial is None:
            self._initial = self.ruleset.new_state(self.scenario, self.options)
        return self._initial.clone()

    def new_initial_state(self) -> Any:
        """A new game: a clone of the one initial token state (its forced tokens taken)."""
        if self._initial_token_state is None:
            self._initial_token_state = self.state_type(self, self.initial_core_state())
        return self._initial_token_state.clone()

    def state_of(self, state: State) -> Any:
        """A token state at the start of the next action of hexwar state ``state``."""
        return self.state_type(self, state)

    def chance_weights(
        self, outcomes: tuple[tuple[Action, Fraction], ...], prefix: tuple[str, ...]
    ) -> Weights:
        """The ``(token id, weight)`` pairs (ascending; integers in lowest terms, exact) of
        the tokens after ``prefix`` of a chance event's ``outcomes``, and their sum; kept
        per outcomes object and prefix (a die's outcomes are one constant)."""
        entry = self._chance.get(id(outcomes))
        if entry is None or entry[0] is not outcomes:
            entry = kept(self._chance, id(outcomes), (outcomes, {}))
        found = entry[1].get(prefix)
        if found is None:
            k, weights = len(prefix), dict[str, int]()
            ordered = sorted_outcomes(outcomes)
            for (action, _), w in zip(ordered, integer_weights(ordered)[1], strict=True):
                tokens = (action.kind, *action.args)
                if tokens[:k] == prefix:
                    t = tokens[k] if k < len(tokens) else DONE
                    weights[t] = weights.get(t, 0) + w
            g, ids = math.gcd(*weights.values()), self.space.id
            pairs = tuple(sorted((ids(t), w // g) for t, w in weights.items()))
            found = kept(entry[1], prefix, (pairs, sum(w for _, w in pairs)))
        return found

    @property
    def observation_size(self) -> int:
        """The length of an observation tensor."""
        return self.encoder.size

    @property
    def information_state_size(self) -> int:
        """The length of an information-state tensor: the observation, then one one-hot
        block over the token ids per slot of the seat's last :attr:`history_tokens`
        tokens (the most recent first)."""
        return self.encoder.size + self.history_tokens * self.space.size

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _token_game,
            (self.ruleset, self.scenario, json.dumps(self.options), self.name, self.collapse),
        )


_GAMES: Final[dict[tuple[int, str, str, str, bool], TokenGame]] = {}


def _token_game(
    ruleset: Ruleset, scenario: str, options: str, name: str, collapse: bool
) -> TokenGame:
    """The unpickled game: one per ruleset and parameters (they share the set-up)."""
    key = (id(ruleset), scenario, options, name, collapse)
    found = _GAMES.get(key)
    if found is None:
        found = _GAMES[key] = TokenGame(
            ruleset, scenario=scenario, options=json.loads(options), name=name, collapse=collapse
        )
    return found
