"""Every registered hexwar game as an OpenSpiel python game (the ``openspiel`` extra).

:func:`register` registers a game of :mod:`hexwar.engine.registry` with ``pyspiel`` as
``hexwar_<name>`` (``-`` becomes ``_``): ``pyspiel.load_game("hexwar_stalingrad_short")``.
Actions are token ids (:mod:`hexwar.interop.adapter`); the game type is sequential,
explicit stochastic, perfect or imperfect information as the ruleset declares
(:attr:`~hexwar.engine.state.Ruleset.perfect_information`), zero-sum when each side has
as many seats and the ruleset's returns are (else general-sum), terminal rewards. States
clone with :meth:`~hexwar.engine.state.State.clone` and serialize through the save
format (OpenSpiel pickles a python state's attributes; ours pickle as save files).
Observation tensor and string; information-state string (perfect recall) and tensor (the
observation and the seat's own last tokens: ``TokenGame.information_state_size``); and
``resample_from_infostate`` (the ruleset's resampling of what a seat cannot see), so
``pyspiel``'s Python ``ISMCTSBot`` runs on every game with hidden information. OpenSpiel's
``MCTSBot`` searches the true state: on a game with hidden information it sees what its
seat may not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from hexwar.engine import registry
from hexwar.interop.adapter import TokenGame, TokenState
from hexwar.interop.tensor import Dense

__all__ = ["HexwarObserver", "game_name", "register", "register_all"]

_REGISTERED: dict[str, type[pyspiel.Game]] = {}
#: How many seeds one draw of OpenSpiel's probability sampler (a float in [0, 1)) spans.
_SEEDS = 2**53


def game_name(name: str) -> str:
    """The OpenSpiel name of registry game ``name``."""
    return "hexwar_" + name.replace("-", "_")


class HexwarState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`~hexwar.interop.adapter.TokenState`."""

    def __init__(self, game: Any, ts: TokenState | None = None) -> None:
        super().__init__(game)
        self._ts = game.token_game.new_initial_state() if ts is None else ts

    @property
    def token_state(self) -> TokenState:
        """The adapter state (the hexwar state is its ``state``)."""
        return self._ts

    def current_player(self) -> int:
        return self._ts.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._ts.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._ts.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._ts.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._ts.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self._ts.is_terminal()

    def returns(self) -> list[float]:
        return self._ts.returns()

    def __str__(self) -> str:
        return str(self._ts)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> HexwarState:
        """A state seat ``player_id`` cannot tell from this one, what is hidden from it
        drawn anew (:meth:`~hexwar.interop.adapter.TokenState.resample`), with a generator
        seeded by one draw of OpenSpiel's ``probability_sampler``: what IS-MCTS
        (``pyspiel.ISMCTSBot``) asks of a state."""
        seed = int(probability_sampler() * _SEEDS)
        return HexwarState(self.get_game(), self._ts.resample(player_id, random.Random(seed)))


class HexwarObserver:
    """OpenSpiel's python observer: the observation tensor (named sections in ``dict``)
    and string; with ``perfect_recall`` the information-state string and tensor (``dict``:
    ``observation``, and ``history``: one row per slot of the seat's last tokens)."""

    def __init__(self, game: TokenGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        obs = game.observation_size
        size = game.information_state_size if self.perfect_recall else obs
        self.tensor = np.zeros(size, np.float32)
        self._dense = Dense(game)
        self.dict: dict[str, Any] = {}
        if self.perfect_recall:
            self.dict["observation"] = self.tensor[:obs]
            self.dict["history"] = self.tensor[obs:].reshape(game.history_tokens, -1)
        else:
            for name, (offset, n) in game.encoder.sections.items():
                self.dict[name] = self.tensor[offset : offset + n]

    def set_from(self, state: HexwarState, player: int) -> None:
        ts = state.token_state
        if not self.perfect_recall:
            self._dense.observation(ts, player, out=self.tensor)
            return
        mine = ts.own_tokens(player)  # an error, not a silent zero, when unknown
        self._dense.observation(ts, player, out=self.dict["observation"])
        history = self.dict["history"]
        history[:] = 0.0
        for k, t in enumerate(reversed(mine)):
            history[k, t] = 1.0

    def string_from(self, state: HexwarState, player: int) -> str:
        ts = state.token_state
        if self.perfect_recall:
            return ts.information_state_string(player)
        return ts.observation_string(player)


def register(name: str) -> str:
    """Register registry game ``name`` with OpenSpiel (once); its OpenSpiel name."""
    short = game_name(name)
    if short in _REGISTERED:
        return short
    token_game = TokenGame.from_name(name)
    n = token_game.num_players
    info = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"hexwar {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            info.PERFECT_INFORMATION
            if token_game.perfect_information
            else info.IMPERFECT_INFORMATION
        ),
        utility=utility.ZERO_SUM if token_game.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    low, high = token_game.utility
    game_info = pyspiel.GameInfo(
        num_distinct_actions=token_game.num_distinct_actions,
        max_chance_outcomes=token_game.max_chance_outcomes,
        num_players=n,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=0.0 if token_game.zero_sum else None,
        max_game_length=token_game.max_game_length,
    )

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or {})
            self.token_game = token_game

        def new_initial_state(self) -> HexwarState:
            return HexwarState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return HexwarObserver(token_game, iig_obs_type, params)

    Game.__name__ = Game.__qualname__ = f"HexwarGame_{short}"
    pyspiel.register_game(game_type, Game)
    _REGISTERED[short] = Game
    return short


def register_all() -> tuple[str, ...]:
    """Register every game of the registry; their OpenSpiel names."""
    return tuple(register(name) for name in registry.names())
