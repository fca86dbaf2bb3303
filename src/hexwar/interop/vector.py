"""Several games of one seat stepped together: a Gymnasium vector environment.

:class:`HexwarVectorEnv` holds ``num_envs`` :class:`~hexwar.interop.gymnasium.HexwarEnv`
(the same game, seat, opponent and observation) and steps them with one batch of
actions: observations ``(num_envs, ...)``, rewards, terminations and truncations
``(num_envs,)``, and ``info["action_mask"]`` ``(num_envs, actions)`` (also
:meth:`HexwarVectorEnv.action_masks`, as booleans). A finished game is reset in the same
step (Gymnasium's ``SAME_STEP`` autoreset): its last observation and info are in
``info["final_obs"]`` / ``info["final_info"]`` (with the ``_final_obs`` flags), the
batch holds the new game's first observation. ``reset(seed=s)`` seeds game ``i`` with
``s + i``.

>>> env = HexwarVectorEnv("stalingrad-short", 3)
>>> obs, info = env.reset(seed=0)
>>> obs.shape == (3, env.single_observation_space.shape[0]), info["action_mask"].shape[0]
(True, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from hexwar.interop.adapter import TokenGame
from hexwar.interop.gymnasium import HexwarEnv

__all__ = ["HexwarVectorEnv"]

Array = np.ndarray[Any, Any]


class HexwarVectorEnv(VectorEnv):
    """``num_envs`` games of one seat stepped together (see the module text)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's convention
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: TokenGame | str,
        num_envs: int,
        *,
        seat: int = 0,
        opponent: str | Callable[..., Any] = "random",
        observation: str = "flat",
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        token_game = TokenGame.from_name(game) if isinstance(game, str) else game
        self.envs = [
            HexwarEnv(token_game, seat=seat, opponent=opponent, observation=observation)
            for _ in range(num_envs)
        ]
        self.game = token_game
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs: Any = create_empty_array(self.single_observation_space, num_envs)
        self._masks: Array = np.zeros((num_envs, token_game.num_distinct_actions), np.int8)

    def _batch(self, items: Sequence[Any]) -> Any:
        return concatenate(self.single_observation_space, items, self._obs)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        items = []
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            obs, info = env.reset(seed=s, options=options)
            items.append(obs)
            self._masks[i] = info["action_mask"]
        return self._batch(items), {"action_mask": self._masks.copy()}

    def step(self, actions: Any) -> tuple[Any, Array, Array, Array, dict[str, Any]]:
        n = self.num_envs
        rewards = np.zeros(n, np.float64)
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        final_obs = np.full(n, None, object)
        final_info = np.full(n, None, object)
        items = []
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            obs, reward, done, cut, info = env.step(int(action))
            rewards[i], terminated[i], truncated[i] = reward, done, cut
            if done or cut:  # same-step autoreset: the batch gets the next game's start
                final_obs[i], final_info[i] = obs, info
                obs, info = env.reset()
            items.append(obs)
            self._masks[i] = info["action_mask"]
        infos: dict[str, Any] = {"action_mask": self._masks.copy()}
        ended = terminated | truncated
        if ended.any():
            infos |= {
                "final_obs": final_obs,
                "_final_obs": ended,
                "final_info": final_info,
                "_final_info": ended,
            }
        return self._batch(items), rewards, terminated, truncated, infos

    def action_masks(self) -> Array:
        """The legal tokens of each game now, as booleans ``(num_envs, actions)``."""
        return self._masks.astype(bool)
