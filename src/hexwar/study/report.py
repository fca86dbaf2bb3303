"""``study report RESULTS``: a Markdown report of a results file, with its plots.

The same report for any game: win rates with Wilson 95 % intervals per cell (options and
bots), game lengths and reasons; then, when the game's hook gives them, per event the turn
it first holds and how often it holds at the end of each turn, per per-side figure its
curves, per measure its medians, and per category of deciding hexes a heat map on the
game's map (when the game gives its cells). Plots are PNG files in a folder named after
the report.
"""

from __future__ import annotations

import contextlib
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hexwar.study import plots
from hexwar.study.figures import (
    CellRows,
    first_turns,
    group,
    held_at,
    hex_categories,
    hex_counts,
    kinds,
    per_turn_values,
)
from hexwar.study.game import StudyError, StudyGame, resolve
from hexwar.study.results import Row, read_rows
from hexwar.study.stats import wilson

__all__ = ["report", "write_report"]


def _pct(hits: int, n: int) -> str:
    lo, hi = wilson(hits, n)
    rate = hits / n if n else 0.0
    return f"{hits}/{n} | {rate:.1%} | [{lo:.1%}, {hi:.1%}]"


def _win_table(cells: Sequence[CellRows]) -> list[str]:
    out = ["| cell | result | count | rate | Wilson 95 % |", "|---|---|---|---|---|"]
    for cell in cells:
        n = len(cell.rows)
        for side in (*cell.sides, None):
            wins = sum(r["winner"] == side for r in cell.rows)
            if side is None and not wins:
                continue
            name = f"{side} wins" if side else "no winner"
            out.append(f"| {cell.label} (seeds {cell.seeds}) | {name} | {_pct(wins, n)} |")
    return out


def _length_table(cells: Sequence[CellRows]) -> list[str]:
    out = ["| cell | turns (median) | actions (median, min–max) | reasons |", "|---|---|---|---|"]
    for cell in cells:
        turns = statistics.median(r["turns"] for r in cell.rows)
        acts = [r["actions"] for r in cell.rows]
        reasons = Counter(r["reason"] for r in cell.rows)
        text = "; ".join(f"{why}: {k}" for why, k in sorted(reasons.items()))
        out.append(
            f"| {cell.label} | {turns:g} | {statistics.median(acts):g}, "
            f"{min(acts)}–{max(acts)} | {text} |"
        )
    return out


def _event_section(cells: Sequence[CellRows], name: str, image: str) -> list[str]:
    last = max(c.last_turn for c in cells)
    head = " | ".join(f"turn {t}" for t in range(1, last + 1))
    out = [
        f"![first turn of `{name}`]({image})",
        "",
        f"Games in which `{name}` held at the end of each turn:",
        "",
        f"| cell | {head} | never |",
        "|---|" + "---|" * (last + 1),
    ]
    for cell in cells:
        held = []
        for t in range(1, last + 1):
            hits, n = held_at(cell, name, t)
            held.append(f"{hits}/{n} ({hits / n:.0%})" if n else "–")
        never = sum(f is None for f in first_turns(cell, name))
        out.append(f"| {cell.label} | {' | '.join(held)} | {never}/{len(cell.rows)} |")
    return out


def _sides_section(cells: Sequence[CellRows], name: str, image: str) -> list[str]:
    out = [f"![`{name}` per turn]({image})", "", f"Mean `{name}` over the whole game:", ""]
    out += ["| cell | " + " | ".join(cells[0].sides) + " |", "|---|" + "---|" * len(cells[0].sides)]
    for cell in cells:
        totals = []
        for side in cell.sides:
            games = [sum(t[name][side] for t in r["per_turn"] if name in t) for r in cell.rows]
            totals.append(f"{statistics.fmean(games):.1f}")
        out.append(f"| {cell.label} | {' | '.join(totals)} |")
    return out


def _measure_section(cells: Sequence[CellRows], name: str, image: str) -> list[str]:
    out = [f"![`{name}` per turn]({image})", "", f"Median `{name}` at the end of each turn:", ""]
    for cell in cells:
        values = per_turn_values(cell, name)
        text = ", ".join(
            f"turn {t + 1}: {statistics.median(v):g} ({len(v)} games)"
            for t, v in enumerate(values)
            if v
        )
        out.append(f"- {cell.label}: {text or 'no value'}")
    return out


def _heat_section(cells: Sequence[CellRows], category: str) -> list[str]:
    out = [f"Games with a `{category}` hex:", ""]
    for cell in cells:
        games = [r for r in cell.rows if r.get("extras", {}).get("hexes", {}).get(category)]
        won = Counter(str(r["winner"]) for r in games)
        by = ", ".join(f"{k} won {won[k]}" for k in sorted(won))
        n = len(cell.rows)
        out.append(f"- {cell.label}: {len(games)}/{n} ({len(games) / n:.1%}; {by})")
    out += ["", "Most frequent hexes (games):", ""]
    for cell in cells:
        top = hex_counts(cell, category).most_common(8)
        text = ", ".join(f"{lab} ({k})" for lab, k in top)
        out.append(f"- {cell.label}: {text or 'none'}")
    return out


_SECTIONS = {"event": _event_section, "sides": _sides_section, "measure": _measure_section}
_DRAWERS = {
    "event": plots.first_turn_histogram,
    "sides": plots.side_curves,
    "measure": plots.measure_curves,
}


class _Report:
    """The report being written: its lines and its image files."""

    def __init__(self, rows: Sequence[Row], out: Path) -> None:
        self.rows, self.cells = rows, group(rows)
        names = sorted({r["game"] for r in rows})
        self.game: StudyGame | None = None
        if len(names) == 1:
            # the game not installed here: no notes, no heat maps
            with contextlib.suppress(StudyError):
                self.game = resolve(names[0])
        self.title = self.game.name if self.game is not None else ", ".join(names)
        self.folder = out.with_suffix("")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.images: list[Path] = []
        self.lines: list[str] = []

    def image(self, stem: str) -> tuple[Path, str]:
        path = self.folder / f"{stem}.png"
        self.images.append(path)
        return path, f"{self.folder.name}/{path.name}"

    def note(self, name: str) -> str:
        return self.game.notes.get(name, "") if self.game is not None else ""

    def head(self, command: str | None, note: str | None) -> None:
        self.lines += [f"# Study report: {self.title}", ""]
        if note:
            self.lines += [note, ""]
        if command:
            self.lines += ["Regenerate with", "", f"    {command}", ""]
        self.lines += [f"{len(self.rows)} games in {len(self.cells)} cells (options, bots).", ""]
        path, ref = self.image("win-rates")
        plots.win_rates(self.cells, path)
        self.lines += ["## Win rates", "", f"![win rates]({ref})", "", *_win_table(self.cells)]
        self.lines += ["", "## Game lengths and results", "", *_length_table(self.cells), ""]

    def per_turn(self) -> None:
        for name, kind in kinds(self.rows).items():
            if kind not in _SECTIONS:
                continue
            path, ref = self.image(f"{kind}-{name}")
            _DRAWERS[kind](self.cells, name, path)
            note = self.note(name)
            self.lines += [f"## `{name}` per turn", "", *([note, ""] if note else [])]
            self.lines += [*_SECTIONS[kind](self.cells, name, ref), ""]

    def hexes(self) -> None:
        game = self.game
        polygons = game.cells() if game is not None and game.cells is not None else None
        regions = game.regions() if game is not None and game.regions is not None else None
        for category in hex_categories(self.rows):
            shown = [c for c in self.cells if hex_counts(c, category)]
            if not shown:
                continue
            note = self.note(f"hexes.{category}")
            self.lines += [f"## Where games are decided: `{category}` hexes", ""]
            self.lines += [note, ""] if note else []
            if polygons is not None:
                path, ref = self.image(f"hexes-{category}")
                plots.heat_map(shown, category, polygons, path, regions)
                self.lines += [f"![`{category}` hexes]({ref})", ""]
            self.lines += [*_heat_section(shown, category), ""]


def report(
    rows: Sequence[Row], out: Path, command: str | None = None, note: str | None = None
) -> list[Path]:
    """Write the Markdown report of ``rows`` to ``out`` and its plots beside it (folder
    ``out`` without suffix); returns the files written. ``command``: the command line
    that regenerates it, printed at the top; ``note``: a paragraph under the title."""
    if not rows:
        raise StudyError("no rows to report on")
    doc = _Report(rows, out)
    doc.head(command, note)
    doc.per_turn()
    doc.hexes()
    out.write_text("\n".join(doc.lines).rstrip("\n") + "\n", encoding="utf-8")
    return [out, *doc.images]


def write_report(
    results: str | Path, out: str | Path, command: str | None = None, note: str | None = None
) -> list[Path]:
    """:func:`report` of the rows of the results file ``results``."""
    return report(read_rows(results), Path(out), command, note)
