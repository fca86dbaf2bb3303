"""The learning curves of examples/learning's runs as one PNG (docs/learning.md).

    python -m examples.learning.plot examples/learning/runs docs/learning-curves.png

One panel per game: the agent's win rate against random (greedy, on ``--eval-games``
games at each point; the last point is the final 1,000-game evaluation) by training
step, one line per seat; a star: the final evaluation (the best point's model, 1,000
fresh games).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

__all__ = ["plot"]


def plot(runs: Path, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = ("crossing", "bridgehead")
    fig, axes = plt.subplots(1, len(games), figsize=(10, 4), sharey=True)
    for ax, game in zip(axes, games, strict=True):
        for path in sorted(runs.glob(f"{game}-seat*-seed*.csv")):
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
            steps = [int(r["steps"]) for r in rows]
            wins = [float(r["win_rate"]) for r in rows]
            seat = path.stem.split("-")[1]
            line = ax.plot(steps[:-1], wins[:-1], marker="o", markersize=3, label=f"{seat}")
            final = f"{seat}: best model, 1,000 games"
            colour = line[0].get_color()
            ax.plot(steps[-1:], wins[-1:], "*", markersize=12, color=colour, label=final)
        ax.axhline(0.9 if game == "crossing" else 0.8, color="grey", linestyle=":", lw=1)
        ax.set_title(game)
        ax.set_xlabel("training steps (agent tokens)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    axes[0].set_ylabel("wins against random")
    fig.suptitle("MaskablePPO against random (seed 0)")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    plot(Path(sys.argv[1]), Path(sys.argv[2]))
