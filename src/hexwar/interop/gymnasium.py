"""Any hexwar game as a single-agent Gymnasium environment (the ``gymnasium`` extra).

:class:`HexwarEnv` plays one seat (``seat``); the other seats are played by an opponent:
``"random"`` (a uniform legal token), a bot ``(TokenState, random.Random) -> token id``,
or any hexwar player ``(State) -> Action`` (:class:`~hexwar.engine.loop.RandomPlayer`,
a game's heuristic bot, a search player): its action is fed in token by token. Chance is
drawn by the environment's generator (``reset(seed=...)``). An action is a token id
(:mod:`hexwar.interop.adapter`); ``info["action_mask"]`` and :meth:`HexwarEnv.action_masks`
(sb3-contrib's convention) hold the legal ones. The reward is the seat's return at the end
(``truncated`` when the game reached its ``max_game_length``). An illegal token ends the
episode at once with the lowest return (``info["illegal"]``): a masked agent never sees
that. ``shaping=True`` adds the ruleset's shaped rewards
(:meth:`~hexwar.engine.state.Ruleset.reward_signals`, :mod:`hexwar.engine.shaping`) to
each step's reward (``info["shaping"]`` holds them by signal); off by default.
``observation="spatial"``: a dict of ``board`` (:class:`~hexwar.interop.spatial.Grid`,
channels x height x width) and ``rest`` (the other sections) instead of the flat vector.
:class:`~hexwar.interop.vector.HexwarVectorEnv` steps several at once.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hexwar.engine.actions import Action
from hexwar.engine.space import DONE
from hexwar.engine.state import State
from hexwar.interop.adapter import TokenGame, TokenState
from hexwar.interop.pettingzoo import pick_chance
from hexwar.interop.spatial import Grid
from hexwar.interop.tensor import Dense

__all__ = ["Bot", "HexwarEnv", "player_bot", "random_bot"]

Bot = Callable[[TokenState, random.Random], int]
Array = np.ndarray[Any, Any]


def random_bot(ts: TokenState, rng: random.Random) -> int:
    """A uniformly random legal token."""
    legal = ts.legal_actions()
    return legal[rng.randrange(len(legal))]


def play_action(ts: TokenState, action: Action) -> None:
    """Apply hexwar ``action`` to ``ts`` token by token (from the prefix it has; the
    adapter takes forced tokens itself), until it is applied."""
    tokens = (action.kind, *action.args, DONE)
    version, ids = ts.state.version, ts.game.space.id
    while not ts.is_terminal():
        k = len(ts.prefix)
        if ts.prefix != tokens[:k] or k >= len(tokens):
            return  # the action was completed by forced tokens; the next one has begun
        ts.apply(ids(tokens[k]))
        if tokens[k] == DONE or ts.state.version != version:
            return


def player_bot(player: Callable[[State], Action]) -> Bot:
    """A hexwar player ``(State) -> Action`` as a bot: asked at the start of an action,
    its action is then fed in token by token."""
    chosen: list[tuple[int, tuple[str, ...]]] = []

    def bot(ts: TokenState, rng: random.Random) -> int:
        if not ts.prefix or not chosen or chosen[0][0] != ts.state.version:
            action = player(ts.state)
            chosen[:] = [(ts.state.version, (action.kind, *action.args, DONE))]
        tokens = chosen[0][1]
        return ts.game.space.id(tokens[len(ts.prefix)])

    return bot


def _as_bot(opponent: str | Callable[..., Any]) -> Bot:
    if opponent == "random":
        return random_bot
    if not callable(opponent):
        raise ValueError(f"opponent: 'random', a bot or a player, not {opponent!r}")
    try:
        params = inspect.signature(opponent).parameters.values()
        required = [p for p in params if p.default is p.empty and p.kind != p.VAR_KEYWORD]
    except (TypeError, ValueError):  # pragma: no cover - a builtin: take it as a bot
        return opponent
    return player_bot(opponent) if len(required) == 1 else opponent


class HexwarEnv(gymnasium.Env):
    """One seat of a hexwar game against an opponent (see the module text)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        game: TokenGame | str,
        *,
        seat: int = 0,
        opponent: str | Callable[..., Any] = "random",
        observation: str = "flat",
        shaping: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.game = TokenGame.from_name(game) if isinstance(game, str) else game
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat {seat} is not one of 0..{self.game.num_players - 1}")
        self.seat = seat
        self.opponent: Bot = _as_bot(opponent)
        self.render_mode = render_mode
        self._dense = Dense(self.game)
        self._grid: Grid | None = None
        size = self.game.observation_size
        if observation == "flat":
            self.observation_space: spaces.Space[Any] = spaces.Box(0.0, 1.0, (size,), np.float32)
        elif observation == "spatial":
            self._grid = grid = Grid(self.game)
            self.observation_space = spaces.Dict(
                {
                    "board": spaces.Box(0.0, 1.0, grid.shape, np.float32),
                    "rest": spaces.Box(0.0, 1.0, (grid.rest_size,), np.float32),
                }
            )
        else:
            raise ValueError(f"observation: 'flat' or 'spatial', not {observation!r}")
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._rng = random.Random()
        self._mask: Array = np.zeros(self.game.num_distinct_actions, np.int8)
        self._side = self.game.seats[seat].side
        self._signals = tuple(self.game.ruleset.reward_signals()) if shaping else ()
        #: each signal's value when it was last paid, and the turn of that
        self._paid: dict[str, float] = {}
        self._paid_turn = 0
        self.ts: TokenState = self.game.new_initial_state()

    def _shape(self, flat: Array) -> Any:
        grid = self._grid
        if grid is None:
            return flat
        return {"board": grid.spatial(flat), "rest": grid.rest(flat)}

    def _obs_info(self) -> tuple[Any, dict[str, Any]]:
        observation, mask = self._dense.observe(self.ts, self.seat)
        self._mask = mask
        return self._shape(observation), {"action_mask": mask}

    def action_masks(self) -> Array:
        """The legal tokens of the seat now, as booleans (sb3-contrib's ``MaskablePPO``)."""
        return self._mask.astype(bool)

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
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.ts = self.game.new_initial_state()
        self._advance()
        self._paid = {s.name: s.value(self.ts.state, self._side) for s in self._signals}
        self._paid_turn = self.ts.state.turn
        return self._obs_info()

    def _shaped(self) -> dict[str, float]:
        """Each signal's pay for the step just taken (see :mod:`hexwar.engine.shaping`)."""
        state = self.ts.state
        new_turn = state.turn != self._paid_turn or self.ts.is_terminal()
        out = {}
        for s in self._signals:
            if s.every == "step" or new_turn:
                now = s.value(state, self._side)
                out[s.name] = s.weight * (now - self._paid[s.name])
                self._paid[s.name] = now
        if new_turn:
            self._paid_turn = state.turn
        return out

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if int(action) not in self.ts.legal_actions(self.seat):
            observation, info = self._obs_info()
            info["illegal"] = True
            return observation, float(self.game.utility[0]), True, False, info
        self.ts.apply(int(action))
        self._advance()
        ts = self.ts
        truncated = ts.truncated()
        done = ts.is_terminal() and not truncated
        reward = ts.returns()[self.seat] if done else 0.0
        observation, info = self._obs_info()
        if self._signals:
            shaped = self._shaped()
            info["shaping"] = shaped
            reward += sum(shaped.values())
        return observation, float(reward), done, truncated, info

    def render(self) -> str | None:
        return None if self.render_mode is None else self.ts.render_text()
