"""Train an action-masked PPO agent (sb3-contrib's ``MaskablePPO``) on one seat of a hexwar
game against random, and evaluate it (docs/learning.md).

    nice -n 19 python -m examples.learning.train crossing --seat 0 --steps 60000 --seed 0

Each run writes ``<out>/<game>-seat<seat>-seed<seed>.csv`` (the learning curve: win rate
against random every ``--eval-every`` steps, from ``--eval-games`` games, seeds apart from
the training's) and ``.zip`` (the model of the best point of the curve: PPO's greedy policy
moves between good and less good ones); the last line printed is the final evaluation of
that model on ``--final-games`` fresh games (other seeds again) with its Wilson interval,
and a random player's from the same seat. The CPU time used (``time.process_time``) is in
the CSV's last column.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from examples.registry import register_examples  # noqa: E402

from hexwar.interop.adapter import TokenGame  # noqa: E402
from hexwar.interop.gymnasium import HexwarEnv  # noqa: E402

__all__ = ["evaluate", "main", "train", "wilson"]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` in ``n`` (95 % by default).

    >>> tuple(round(x, 3) for x in wilson(90, 100))
    (0.826, 0.945)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def evaluate(model: Any, game: TokenGame, seat: int, games: int, seed: int) -> dict[str, int]:
    """``games`` games of ``model`` (greedy on the masked policy) at ``seat`` against
    random, chance and the opponent drawn from ``seed``: wins, draws, losses."""
    env = HexwarEnv(game, seat=seat)
    out = {"win": 0, "draw": 0, "loss": 0}
    for g in range(games):
        obs, _ = env.reset(seed=seed * 1_000_003 + g)
        done = truncated = False
        reward = 0.0
        while not (done or truncated):
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, truncated, _ = env.step(int(action))
        out["win" if reward > 0 else "loss" if reward < 0 else "draw"] += 1
    return out


def random_baseline(game: TokenGame, seat: int, games: int, seed: int) -> dict[str, int]:
    """The same evaluation for a random player at ``seat``."""
    rng = random.Random(seed)

    class Random:
        def predict(self, obs: Any, action_masks: Any, deterministic: bool) -> tuple[int, None]:
            return int(rng.choice(list(np.flatnonzero(action_masks)))), None

    return evaluate(Random(), game, seat, games, seed)


def train(
    name: str,
    seat: int,
    steps: int,
    seed: int,
    out: Path,
    *,
    eval_every: int = 5000,
    eval_games: int = 200,
    final_games: int = 1000,
    n_envs: int = 4,
) -> dict[str, Any]:
    """Train and evaluate (see the module text); the final evaluation's figures."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    register_examples()
    game = TokenGame.from_name(name)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{name}-seat{seat}-seed{seed}"

    def make(i: int) -> Any:
        def build() -> HexwarEnv:
            env = HexwarEnv(game, seat=seat)
            env.reset(seed=seed * 1000 + i)
            return env

        return build

    venv = DummyVecEnv([make(i) for i in range(n_envs)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        seed=seed,
        n_steps=128,
        batch_size=128,
        n_epochs=10,
        learning_rate=5e-4,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        verbose=0,
        device="cpu",
    )
    rows: list[list[Any]] = []
    start = time.process_time()

    best = [-1.0]

    class Curve(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.next = 0

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.next += eval_every
                r = evaluate(model, game, seat, eval_games, seed + 7)
                rows.append(
                    [self.num_timesteps, r["win"] / eval_games, r["draw"] / eval_games,
                     round(time.process_time() - start, 1)]
                )  # fmt: skip
                print(name, seat, *rows[-1], flush=True)
                if rows[-1][1] >= best[0]:  # the best point so far: keep its model
                    best[0] = rows[-1][1]
                    model.save(str(stem) + ".zip")
            return True

    model.learn(total_timesteps=steps, callback=Curve())
    cpu = time.process_time() - start
    chosen = MaskablePPO.load(str(stem) + ".zip", device="cpu")
    final = evaluate(chosen, game, seat, final_games, seed + 1_000)
    rows.append([steps, final["win"] / final_games, final["draw"] / final_games, round(cpu, 1)])
    with open(str(stem) + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["steps", "win_rate", "draw_rate", "cpu_seconds"])
        w.writerows(rows)
    base = random_baseline(game, seat, final_games, seed + 1_000)
    lo, hi = wilson(final["win"], final_games)
    blo, bhi = wilson(base["win"], final_games)
    result = {
        "game": name, "seat": seat, "seed": seed, "steps": steps,
        "cpu_seconds": round(cpu, 1), "agent": final, "random": base,
        "agent_wilson": (round(lo, 3), round(hi, 3)),
        "random_wilson": (round(blo, 3), round(bhi, 3)),
    }  # fmt: skip
    print(result, flush=True)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["crossing", "bridgehead"])
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--steps", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=5_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=1_000)
    parser.add_argument("--out", type=Path, default=Path("examples/learning/runs"))
    a = parser.parse_args(argv)
    train(
        a.game, a.seat, a.steps, a.seed, a.out,
        eval_every=a.eval_every, eval_games=a.eval_games, final_games=a.final_games,
    )  # fmt: skip


if __name__ == "__main__":
    main()
