"""The report's plots (matplotlib, PNG, drawn on a bare ``Figure``: no pyplot state)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hexwar.study.figures import CellRows, first_turns, hex_counts, per_turn_values
from hexwar.study.stats import wilson

__all__ = ["first_turn_histogram", "heat_map", "measure_curves", "side_curves", "win_rates"]

_DPI = 100
_META = {"Software": None}  # no matplotlib version in the file: the same data, same bytes


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _integer_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _save(fig: Any, path: Path) -> None:
    fig.savefig(path, dpi=_DPI, metadata=_META)


def win_rates(cells: Sequence[CellRows], path: Path) -> None:
    """Each side's win rate per cell, with its Wilson 95 % interval."""
    fig = _figure(8, 0.5 + 0.45 * sum(len(c.sides) for c in cells))
    ax = fig.add_subplot()
    labels: list[str] = []
    for cell in cells:
        n = len(cell.rows)
        for side in cell.sides:
            wins = sum(r["winner"] == side for r in cell.rows)
            lo, hi = wilson(wins, n)
            y = len(labels)
            rate = wins / n if n else 0.0
            ax.barh(y, rate, color="#7a9cc6")
            ax.errorbar(rate, y, xerr=[[rate - lo], [hi - rate]], color="black", capsize=4)
            ax.text(min(hi + 0.01, 0.9), y, f"{wins}/{n}", va="center", fontsize=8)
            labels.append(f"{side} wins\n{cell.label}")
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.axvline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("win rate (bars: Wilson 95 % interval)")
    _save(fig, path)


def first_turn_histogram(cells: Sequence[CellRows], name: str, path: Path) -> None:
    """The turn at whose end the event first held, per cell (``never`` last)."""
    last = max(c.last_turn for c in cells)
    fig = _figure(8, 3.5)
    ax = fig.add_subplot()
    width = 0.8 / len(cells)
    for k, cell in enumerate(cells):
        firsts = first_turns(cell, name)
        n = len(firsts)
        shares = [sum(f == t for f in firsts) / n for t in range(1, last + 1)]
        shares.append(sum(f is None for f in firsts) / n)
        xs = [x + (k - (len(cells) - 1) / 2) * width for x in range(last + 1)]
        ax.bar(xs, shares, width=width, label=cell.label)
    ax.set_xticks(range(last + 1), [str(t) for t in range(1, last + 1)] + ["never"])
    ax.set_xlabel(f"turn at whose end `{name}` first held")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=7)
    _save(fig, path)


def side_curves(cells: Sequence[CellRows], name: str, path: Path) -> None:
    """Per cell, the mean of a per-side figure in each turn (lines) and its quartiles
    (band), one line per side."""
    fig = _figure(8, 2.6 * len(cells))
    axes = fig.subplots(len(cells), 1, squeeze=False)[:, 0]
    for ax, cell in zip(axes, cells, strict=True):
        for side in cell.sides:
            values = per_turn_values(cell, name, side)
            turns = [t + 1 for t, v in enumerate(values) if v]
            kept = [v for v in values if v]
            means = [statistics.fmean(v) for v in kept]
            lows = [_quantile(v, 0.25) for v in kept]
            highs = [_quantile(v, 0.75) for v in kept]
            line = ax.plot(turns, means, marker="o", label=f"{side} (mean)")[0]
            ax.fill_between(turns, lows, highs, color=line.get_color(), alpha=0.2)
        ax.set_title(cell.label, fontsize=8)
        ax.xaxis.set_major_locator(_integer_ticks())
        ax.set_xlabel("turn")
        ax.set_ylabel(f"{name} in the turn")
        ax.legend(fontsize=7)
    _save(fig, path)


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure_curves(cells: Sequence[CellRows], name: str, path: Path) -> None:
    """The median of a measure at the end of each turn, per cell, with its quartiles."""
    fig = _figure(8, 3.5)
    ax = fig.add_subplot()
    for cell in cells:
        values = per_turn_values(cell, name)
        turns = [t + 1 for t, v in enumerate(values) if v]
        if not turns:
            continue
        kept = [v for v in values if v]
        line = ax.plot(turns, [statistics.median(v) for v in kept], marker="o", label=cell.label)
        lows, highs = [_quantile(v, 0.25) for v in kept], [_quantile(v, 0.75) for v in kept]
        ax.fill_between(turns, lows, highs, color=line[0].get_color(), alpha=0.15)
    ax.xaxis.set_major_locator(_integer_ticks())
    ax.set_xlabel("turn")
    ax.set_ylabel(f"{name}, end of turn (median)")
    ax.legend(fontsize=7)
    _save(fig, path)


_REGION_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf")


def heat_map(
    cells: Sequence[CellRows],
    category: str,
    polygons: Mapping[str, Sequence[tuple[float, float]]],
    path: Path,
    regions: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Per cell, the share of its games in which each hex was a ``category`` hex, on the
    game's map (hex polygons; screen y down); hexes never counted are grey; ``regions``
    (name -> labels) are outlined."""
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Patch

    labels = sorted(polygons)
    cmap = colormaps["inferno_r"].with_extremes(bad="#eeeeee")
    fig = _figure(6 * len(cells), 5.5)
    axes = fig.subplots(1, len(cells), squeeze=False)[0]
    for ax, cell in zip(axes, cells, strict=True):
        counts = hex_counts(cell, category)
        n = len(cell.rows)
        shares = np.ma.masked_equal([counts.get(lab, 0) / n for lab in labels], 0.0)
        shapes = PolyCollection([polygons[lab] for lab in labels], cmap=cmap, edgecolors="white")
        shapes.set_linewidth(0.3)
        shapes.set_array(shares)
        shapes.set_clim(0, max(float(shares.max() or 0), 1e-9))
        ax.add_collection(shapes)
        handles = []
        for k, (name, members) in enumerate(sorted((regions or {}).items())):
            colour = _REGION_COLOURS[k % len(_REGION_COLOURS)]
            outline = PolyCollection([polygons[lab] for lab in members if lab in polygons])
            outline.set_facecolor("none")
            outline.set_edgecolor(colour)
            outline.set_linewidth(1.6)
            ax.add_collection(outline)
            handles.append(Patch(facecolor="none", edgecolor=colour, label=name))
        if handles:
            ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(0.0, 0.0))
        ax.autoscale_view()
        ax.set_aspect("equal")
        ax.invert_yaxis()
        ax.set_axis_off()
        hit = int(shares.count())
        ax.set_title(f"{cell.label}\n{hit} hexes, {n} games", fontsize=8)
        fig.colorbar(shapes, ax=ax, shrink=0.7, label=f"share of games, `{category}` hex")
    _save(fig, path)
