"""The report's plots (matplotlib, PNG, drawn on a bare ``Figure``: no pyplot state)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hexwar.study.figures import CellRows, first_turns, hex_counts, per_turn_values
from hexwar.study.stats import error_bar

__all__ = [
    "first_turn_histogram",
    "heat_map",
    "lengths",
    "measure_curves",
    "side_curves",
    "sweep",
    "win_rates",
]

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
    """Each side's win rate per cell (and the draws', when a cell has any), with its
    Wilson 95 % interval; the counts are printed right of the axis, clear of the bars."""
    from matplotlib.transforms import blended_transform_factory

    results = [(c, s) for c in cells for s in (*c.sides, None) if s or _draws(c)]
    fig = _figure(8, 0.5 + 0.45 * len(results))
    ax = fig.add_subplot()
    beside = blended_transform_factory(ax.transAxes, ax.transData)
    labels: list[str] = []
    for y, (cell, side) in enumerate(results):
        n = len(cell.rows)
        wins = sum(r["winner"] == side for r in cell.rows)
        rate, below, above = error_bar(wins, n)
        ax.barh(y, rate, color="#7a9cc6" if side else "#bbbbbb")
        ax.errorbar(rate, y, xerr=[[below], [above]], color="black", capsize=4)
        ax.text(1.01, y, f"{wins}/{n}", va="center", fontsize=8, transform=beside)
        labels.append(f"{side + ' wins' if side else 'no winner'}\n{cell.label}")
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.axvline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("win rate (bars: Wilson 95 % interval)")
    _save(fig, path)


def _draws(cell: CellRows) -> int:
    return sum(r["winner"] is None for r in cell.rows)


def sweep(
    name: str,
    values: Sequence[Any],
    lines: Mapping[str, Sequence[tuple[int, int]]],
    path: Path,
) -> None:
    """Win rate against the values of option ``name``: per line (a side in a setting of
    the other options), its rate at each value with the Wilson 95 % band."""
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    xs = [float(v) for v in values] if numeric else list(range(len(values)))
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    for label, counts in lines.items():
        rates = [error_bar(k, n) for k, n in counts]
        mid = [r for r, _, _ in rates]
        line = ax.plot(xs, mid, marker="o", label=label)[0]
        low = [r - b for r, b, _ in rates]
        high = [r + a for r, _, a in rates]
        ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2, lw=0)
        for x, (k, n), y in zip(xs, counts, mid, strict=True):
            ax.annotate(f"{k}/{n}", (x, y), textcoords="offset points", xytext=(4, 6),
                        fontsize=7)  # fmt: skip
    if not numeric:
        ax.set_xticks(xs, [str(v) for v in values])
    else:
        ax.set_xticks(xs, [f"{v:g}" for v in xs])
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel(name)
    ax.set_ylabel("win rate (band: Wilson 95 %)")
    ax.legend(fontsize=7)
    _save(fig, path)


def lengths(cells: Sequence[CellRows], path: Path) -> None:
    """Per cell, how many games ended after each turn, stacked by result (draws too)."""
    last = max(c.last_turn for c in cells)
    first = min(int(r["turns"]) for c in cells for r in c.rows)
    fig = _figure(8, 2.2 * len(cells))
    axes = fig.subplots(len(cells), 1, squeeze=False)[:, 0]
    turns = list(range(first, last + 1))
    for ax, cell in zip(axes, cells, strict=True):
        bottom = [0] * len(turns)
        for side in (*cell.sides, None):
            counts = [
                sum(r["winner"] == side and r["turns"] == t for r in cell.rows) for t in turns
            ]
            if side is None and not any(counts):
                continue
            colour = None if side else "#bbbbbb"
            name = f"{side} wins" if side else "no winner"
            ax.bar(turns, counts, bottom=bottom, label=name, color=colour)
            bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
        ax.set_title(cell.label, fontsize=8)
        ax.set_xticks(turns)
        ax.set_xlabel("last turn played")
        ax.set_ylabel("games")
        ax.legend(fontsize=7)
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
            ax.fill_between(
                turns, lows, highs, color=line.get_color(), alpha=0.2,
                label=f"{side} (quartiles)",
            )  # fmt: skip
        ax.set_title(cell.label, fontsize=8)
        ax.xaxis.set_major_locator(_integer_ticks())
        ax.set_xlabel("turn")
        ax.set_ylabel(f"{name} in the turn\n(line: mean; band: quartiles)")
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
        ax.fill_between(turns, lows, highs, color=line[0].get_color(), alpha=0.15,
                        label=f"{cell.label} (quartiles)")  # fmt: skip
    ax.xaxis.set_major_locator(_integer_ticks())
    ax.set_xlabel("turn")
    ax.set_ylabel(f"{name}, end of turn\n(line: median; band: quartiles)")
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
