"""Every hexwar game as a PettingZoo AEC environment (the ``pettingzoo`` extra).

:class:`HexwarAEC` steps one token per agent turn (:mod:`hexwar.interop.adapter`). Agents
are the ruleset's seats, named ``<side>_<seat index>`` (``rkka_0``, ``wehrmacht_1``; with
four Stalingrad players ``rkka_0`` ground, ``rkka_1`` air, ...). Each observation is a
dict: ``observation`` (the seat's
tensor, float32 0/1) and ``action_mask`` (int8, the legal token ids; all zero for an
agent not to act). Chance nodes are answered by the environment's generator, seeded by
``reset(seed=...)``. Rewards come at the end (the seats' returns); a game that reached
its ``max_game_length`` ends truncated (every agent's ``truncations``, rewards 0).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hexwar.interop.adapter import CHANCE_PLAYER, TERMINAL_PLAYER, TokenGame, TokenState
from hexwar.interop.tensor import Dense

__all__ = ["HexwarAEC", "agent_names", "env"]


def agent_names(game: TokenGame) -> list[str]:
    """The PettingZoo agent names of ``game``'s seats."""
    return [
        f"{''.join(c for c in s.side.lower() if c.isalpha()) or 'player'}_{i}"
        for i, s in enumerate(game.seats)
    ]


def pick_chance(ts: TokenState, rng: random.Random) -> int:
    """A chance token drawn by its exact probability (integer weights, one draw)."""
    weights, total = ts._chance_weights()
    k = rng.randrange(total)
    for token, w in weights:
        k -= w
        if k < 0:
            return token
    raise AssertionError("unreachable: the weights sum to the draw's range")  # pragma: no cover


class HexwarAEC(AECEnv):  # type: ignore[misc]
    """A hexwar game as an AEC environment (see the module text)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": ["ansi"],
        "name": "hexwar_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: TokenGame | str, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = TokenGame.from_name(game) if isinstance(game, str) else game
        self.metadata = {**self.metadata, "name": f"hexwar_{self.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.possible_agents = agent_names(self.game)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.game.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rng = random.Random()
        self._dense = Dense(self.game)
        self.ts: TokenState = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.ts = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> bool:
        """Answer chance nodes; select the acting agent, or end the game (``True``)."""
        ts = self.ts
        player = ts.current_player()
        while player == CHANCE_PLAYER:
            ts.apply(pick_chance(ts, self._rng))
            player = ts.current_player()
        if player != TERMINAL_PLAYER:
            self.agent_selection = self.possible_agents[player]
            return False
        returns = ts.returns()
        ended = self.truncations if ts.truncated() else self.terminations  # max_game_length
        for a in self.agents:
            self.rewards[a] = returns[self._index[a]]
            ended[a] = True
        self.agent_selection = self.agents[0]
        return True

    def observe(self, agent: str) -> dict[str, Any]:
        observation, mask = self._dense.observe(self.ts, self._index[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.ts.apply(int(action))  # type: ignore[arg-type]
        if self._settle():  # rewards are zero until the end (the seats' returns)
            self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.ts.render_text()

    def close(self) -> None:
        pass


def env(game: TokenGame | str, render_mode: str | None = None) -> HexwarAEC:
    """An environment of ``game`` (a :class:`TokenGame` or a registry name)."""
    return HexwarAEC(game, render_mode=render_mode)
