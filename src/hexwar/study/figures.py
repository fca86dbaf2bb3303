"""The figures a report reads from the rows, cell by cell (options and bots): what the
hook's per-turn values are (events, per-side counts, measures) and their summaries."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from hexwar.study.results import Row, canonical

__all__ = ["CellRows", "first_turns", "group", "hex_counts", "kinds", "per_turn_values"]


@attrs.frozen
class CellRows:
    """The rows of one cell: its options, its bots (side -> name) and its games."""

    options: Mapping[str, Any]
    bots: Mapping[str, str]
    rows: tuple[Row, ...]

    @property
    def label(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "default"
        bots = " vs ".join(f"{s} {b}" for s, b in self.bots.items())
        return f"{opts}; {bots}"

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.bots)

    @property
    def seeds(self) -> str:
        seeds = sorted(int(r["seed"]) for r in self.rows)
        if seeds == list(range(seeds[0], seeds[-1] + 1)):
            return f"{seeds[0]}–{seeds[-1]}"
        return f"{len(seeds)} seeds from {seeds[0]} to {seeds[-1]}"

    @property
    def last_turn(self) -> int:
        return max((int(r["turns"]) for r in self.rows), default=0)


def group(rows: Iterable[Row]) -> list[CellRows]:
    """The rows by cell, cells in sorted order, each cell's rows by seed."""
    cells: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        cells.setdefault((canonical(row["options"]), canonical(row["bots"])), []).append(row)
    return [
        CellRows(rs[0]["options"], rs[0]["bots"], tuple(sorted(rs, key=lambda r: r["seed"])))
        for _, rs in sorted(cells.items())
    ]


def kinds(rows: Iterable[Row]) -> dict[str, str]:
    """Each per-turn figure's kind: ``event`` (bool), ``sides`` (mapping of numbers),
    ``measure`` (number or None), ``hexes`` (list); by name, sorted."""
    found: dict[str, str] = {}
    for row in rows:
        for turn in row["per_turn"]:
            for name, value in turn.items():
                if name == "turn" or value is None or name in found:
                    continue
                if isinstance(value, bool):
                    found[name] = "event"
                elif isinstance(value, dict):
                    found[name] = "sides"
                elif isinstance(value, int | float):
                    found[name] = "measure"
                elif isinstance(value, list):
                    found[name] = "hexes"
    return dict(sorted(found.items()))


def first_turns(cell: CellRows, name: str) -> list[int | None]:
    """Per game, the first turn at whose end the event ``name`` held (``None``: never)."""
    out: list[int | None] = []
    for row in cell.rows:
        turns = [t["turn"] for t in row["per_turn"] if t.get(name) is True]
        out.append(min(turns) if turns else None)
    return out


def held_at(cell: CellRows, name: str, turn: int) -> tuple[int, int]:
    """``(games where the event held at the end of turn, games that reached it)``."""
    hits = n = 0
    for row in cell.rows:
        for t in row["per_turn"]:
            if t["turn"] == turn:
                n += 1
                hits += t.get(name) is True
    return hits, n


def per_turn_values(cell: CellRows, name: str, side: str | None = None) -> list[list[float]]:
    """Per turn (index 0 = turn 1), the values of ``name`` (of ``side`` for a per-side
    figure) over the games that played the turn and gave a value."""
    out: list[list[float]] = [[] for _ in range(cell.last_turn)]
    for row in cell.rows:
        for t in row["per_turn"]:
            value = t.get(name)
            if side is not None and isinstance(value, dict):
                value = value.get(side)
            if isinstance(value, int | float) and not isinstance(value, bool):
                out[int(t["turn"]) - 1].append(float(value))
    return out


def mean_or_none(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def hex_counts(cell: CellRows, category: str) -> Counter[str]:
    """In how many games of the cell each hex was in ``extras.hexes[category]``."""
    counts: Counter[str] = Counter()
    for row in cell.rows:
        counts.update(set(row.get("extras", {}).get("hexes", {}).get(category, [])))
    return counts


def hex_categories(rows: Iterable[Row]) -> list[str]:
    """The categories of ``extras.hexes`` in the rows, sorted."""
    return sorted({c for r in rows for c in r.get("extras", {}).get("hexes", {})})
