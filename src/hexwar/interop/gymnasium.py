"""Any hexwar game as a single-agent Gymnasium environment (the ``gymnasium`` extra).

:class:`HexwarEnv` plays one seat (``seat``); the other seats are built-in bots
(``"random"``: a uniform legal token; or any callable ``(TokenState, random.Random) ->
token id``), chance by the environment's generator (``reset(seed=...)``). An action is
a token id (:mod:`hexwar.interop.adapter`); ``info["action_mask"]`` holds the legal ones.
The reward is the seat's return at the end. An illegal token ends the episode at once
with the lowest return (``info["illegal"]``): a masked agent never sees that.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hexwar.interop.adapter import TokenGame, TokenState
from hexwar.interop.pettingzoo import pick_chance
from hexwar.interop.tensor import Dense

__all__ = ["Bot", "HexwarEnv", "random_bot"]

Bot = Callable[[TokenState, random.Random], int]


def random_bot(ts: TokenState, rng: random.Random) -> int:
    """A uniformly random legal token."""
    legal = ts.legal_actions()
    return legal[rng.randrange(len(legal))]


class HexwarEnv(gymnasium.Env):
    """One seat of a hexwar game against bots (see the module text)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        game: TokenGame | str,
        *,
        seat: int = 0,
        opponent: str | Bot = "random",
        render_mode: str | None = None,
    ) -> None:
        self.game = TokenGame.from_name(game) if isinstance(game, str) else game
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat {seat} is not one of 0..{self.game.num_players - 1}")
        self.seat = seat
        if opponent == "random":
            self.opponent: Bot = random_bot
        elif callable(opponent):
            self.opponent = opponent
        else:
            raise ValueError(f"opponent: 'random' or a callable, not {opponent!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.game.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._rng = random.Random()
        self._dense = Dense(self.game)
        self.ts: TokenState = self.game.new_initial_state()

    def _obs(self) -> np.ndarray[Any, Any]:
        return self._dense.observation(self.ts, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._dense.mask(self.ts, self.seat)}

    def _obs_info(self) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        observation, mask = self._dense.observe(self.ts, self.seat)
        return observation, {"action_mask": mask}

    def _advance(self) -> None:
        ts = self.ts
        while not ts.is_terminal():
            player = ts.current_player()
            if player == self.seat:
                return
            if ts.is_chance_node():
                ts.apply(pick_chance(ts, self._rng))
            else:
                ts.apply(self.opponent(ts, self._rng))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.ts = self.game.new_initial_state()
        self._advance()
        return self._obs_info()

    def step(self, action: int) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        if int(action) not in self.ts.legal_actions(self.seat):
            info = {**self._info(), "illegal": True}
            return self._obs(), float(self.game.utility[0]), True, False, info
        self.ts.apply(int(action))
        self._advance()
        done = self.ts.is_terminal()
        reward = self.ts.returns()[self.seat] if done else 0.0
        observation, info = self._obs_info()
        return observation, float(reward), done, False, info

    def render(self) -> str | None:
        return None if self.render_mode is None else self.ts.render_text()
