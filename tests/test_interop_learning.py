"""examples/learning: a few hundred steps of action-masked PPO as a smoke test (issue 35,
acceptance 5; the full runs and their figures are in docs/learning.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["crossing", "bridgehead"])
def test_masked_ppo_trains_and_plays_only_legal_tokens(name: str, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from examples.learning.train import train, wilson
    from sb3_contrib import MaskablePPO

    from hexwar.interop.gymnasium import HexwarEnv

    result = train(name, 1, 384, 0, tmp_path, eval_every=256, eval_games=4, final_games=10)
    agent = result["agent"]
    assert sum(agent.values()) == 10
    assert result["agent_wilson"] == tuple(round(x, 3) for x in wilson(agent["win"], 10))
    curve = (tmp_path / f"{name}-seat1-seed0.csv").read_text().splitlines()
    assert curve[0] == "steps,win_rate,draw_rate,cpu_seconds"
    assert len(curve) >= 3
    model = MaskablePPO.load(str(tmp_path / f"{name}-seat1-seed0.zip"))
    env = HexwarEnv(name, seat=1)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done = truncated = False
        while not (done or truncated):
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert mask[int(action)]  # the mask is honoured
            obs, _, done, truncated, info = env.step(int(action))
            assert not info.get("illegal")
    assert np.isfinite(obs).all()
