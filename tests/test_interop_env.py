"""The Gymnasium environments for learning agents (issue 35): the vector environment
(N games stepped together, same-step autoreset, batched masks), any opponent (random, a
hexwar player object, Stalingrad's heuristic bot), shaped rewards (off by default)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from hexwar.engine.loop import RandomPlayer
from hexwar.interop.adapter import TokenGame
from hexwar.interop.gymnasium import HexwarEnv
from hexwar.interop.vector import HexwarVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from examples.registry import register_examples

register_examples()


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    return int(rng.choice(list(np.flatnonzero(mask))))


def test_vector_env_steps_games_as_single_envs_do() -> None:
    """Game i of a vector env seeded s is the single env seeded s + i, step by step;
    a finished game restarts in the same step, its last observation in ``final_obs``."""
    n, game = 4, TokenGame.from_name("crossing")
    vec = HexwarVectorEnv(game, n, seat=1)
    singles = [HexwarEnv(game, seat=1) for _ in range(n)]
    obs, info = vec.reset(seed=10)
    firsts = [env.reset(seed=10 + i) for i, env in enumerate(singles)]
    assert (obs == np.stack([o for o, _ in firsts])).all()
    rng, ended = random.Random(0), 0
    for _ in range(300):
        masks = vec.action_masks()
        assert (masks == info["action_mask"].astype(bool)).all()
        actions = [_pick(m, rng) for m in masks]
        obs, rewards, terms, truncs, info = vec.step(actions)
        for i, env in enumerate(singles):
            o, r, d, t, inf = env.step(actions[i])
            assert (r, d, t) == (rewards[i], terms[i], truncs[i])
            if d or t:
                assert (info["final_obs"][i] == o).all()
                assert info["_final_obs"][i]
                o, inf = env.reset()
                ended += 1
            assert (obs[i] == o).all()
            assert (info["action_mask"][i] == inf["action_mask"]).all()
    assert ended > 10


def test_vector_env_spatial_observations() -> None:
    vec = HexwarVectorEnv("bridgehead", 2, observation="spatial")
    obs, _ = vec.reset(seed=0)
    board = vec.single_observation_space["board"].shape
    assert obs["board"].shape == (2, *board)
    assert obs["rest"].shape[0] == 2


@pytest.mark.parametrize("seat", [0, 1])
def test_a_hexwar_player_as_the_opponent(seat: int) -> None:
    """A ``(State) -> Action`` player is fed in token by token: its games are those of
    the same player playing the hexwar state directly."""
    env = HexwarEnv("crossing", seat=seat, opponent=RandomPlayer(3))
    rng = random.Random(seat)
    for episode in range(20):
        _, info = env.reset(seed=episode)
        done = truncated = False
        while not (done or truncated):
            assert env.ts.current_player() == seat
            _obs, reward, done, truncated, info = env.step(_pick(info["action_mask"], rng))
        assert env.ts.is_terminal()
        assert reward == env.ts.returns()[seat]


def test_stalingrad_heuristic_as_the_opponent() -> None:
    from hexwar_stalingrad.heuristic import HeuristicBot

    env = HexwarEnv("stalingrad-short", seat=0, opponent=HeuristicBot(1))
    _, info = env.reset(seed=2)
    rng, done, truncated, steps = random.Random(2), False, False, 0
    while not (done or truncated):
        _obs, _reward, done, truncated, info = env.step(_pick(info["action_mask"], rng))
        steps += 1
    assert env.ts.state.is_terminal()
    assert steps > 20


def test_shaped_rewards_are_off_by_default_and_telescope_when_on() -> None:
    """S1.3, S11.1, S11.2: each signal's pays over a game sum to its value at the end
    less its value at the start (a potential); without ``shaping`` there are none."""
    from hexwar_stalingrad.shaping import SIGNALS

    plain = HexwarEnv("stalingrad-long", seat=1)
    shaped = HexwarEnv("stalingrad-long", seat=1, shaping=True)
    rng_a, rng_b = random.Random(5), random.Random(5)
    _, info_a = plain.reset(seed=5)
    _, info_b = shaped.reset(seed=5)
    start = {s.name: s.value(shaped.ts.state, "wehrmacht") for s in SIGNALS}
    paid = dict.fromkeys(start, 0.0)
    done = truncated = False
    while not (done or truncated):
        a = _pick(info_a["action_mask"], rng_a)
        assert a == _pick(info_b["action_mask"], rng_b)
        _, ra, done, truncated, info_a = plain.step(a)
        _, rb, _, _, info_b = shaped.step(a)
        assert "shaping" not in info_a
        assert rb == pytest.approx(ra + sum(info_b["shaping"].values()))
        for k, v in info_b["shaping"].items():
            paid[k] += v
    end = {s.name: s.value(shaped.ts.state, "wehrmacht") for s in SIGNALS}
    for s in SIGNALS:
        assert paid[s.name] == pytest.approx(s.weight * (end[s.name] - start[s.name]))
    assert any(abs(v) > 0 for v in paid.values())
