"""``study report RESULTS``: a Markdown report of a results file, with its plots.

The same report for any game: win rates with Wilson 95 % intervals per cell (options and
bots), game lengths by result (draws too) and reasons; per option or data value taking
several values, the win rate against it and two-proportion tests; then, when the game's
hook gives them, its per-game figures, per-card win rates, per event the turn it first
holds and how often it holds at the end of each turn, per per-side figure its curves,
per measure its medians, per category of deciding hexes a heat map on the game's own map;
last, a games table linking each result and length to game records and replays. Plots are
PNG (heat maps SVG) files in a folder named after the report; every ordering is total.
"""

from __future__ import annotations

import contextlib
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
from hexwar.study.heat import heat_svg
from hexwar.study.results import Row, canonical, read_rows
from hexwar.study.runner import record_of_row
from hexwar.study.stats import two_proportions, wilson

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
        won = Counter(str(r["winner"] or "no winner") for r in games)
        by = ", ".join(f"{k} won {won[k]}" for k in sorted(won))
        n = len(cell.rows)
        out.append(f"- {cell.label}: {len(games)}/{n} ({len(games) / n:.1%}; {by})")
    out += ["", "Most frequent hexes (games):", ""]
    for cell in cells:
        top = sorted(hex_counts(cell, category).items(), key=lambda kv: (-kv[1], kv[0]))[:8]
        text = ", ".join(f"{lab} ({k})" for lab, k in top)
        out.append(f"- {cell.label}: {text or 'none'}")
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def game_measures(rows: Sequence[Row]) -> list[str]:
    """The names of the per-game numbers of the hook (``extras``), sorted."""
    return sorted({k for r in rows for k, v in r.get("extras", {}).items() if _number(v)})


def _quartiles(values: Sequence[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:g}" if values else "–"
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{q2:g} [{q1:g}, {q3:g}]"


def _measures_section(cells: Sequence[CellRows], names: Sequence[str], note: Any) -> list[str]:
    out = ["## Per-game figures", ""]
    out += [f"- `{n}`: {note(n)}" for n in names if note(n)]
    out += ["", "Median [quartiles] over the games, then by result:", ""]
    out += [
        "| cell | figure | all games | " + " | ".join(("by winner",)) + " |",
        "|---|---|---|---|",
    ]
    for cell in cells:
        for name in names:
            values = [float(r["extras"][name]) for r in cell.rows if _number(r["extras"].get(name))]
            by = []
            for side in (*cell.sides, None):
                mine = [
                    float(r["extras"][name])
                    for r in cell.rows
                    if r["winner"] == side and _number(r["extras"].get(name))
                ]
                if mine:
                    by.append(f"{side or 'no winner'} ({len(mine)}): {_quartiles(mine)}")
            out.append(f"| {cell.label} | `{name}` | {_quartiles(values)} | {'; '.join(by)} |")
    return out


def card_rates(cell: CellRows) -> list[tuple[str, str, int, int]]:
    """``(card, side, games the side played it in, of them won)`` from ``extras.cards``
    (side -> cards played), by card then side."""
    played: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for row in cell.rows:
        for side, cards in sorted(row.get("extras", {}).get("cards", {}).items()):
            for card in sorted(set(cards)):
                played[card, side] += 1
                won[card, side] += row["winner"] == side
    return [(c, s, played[c, s], won[c, s]) for c, s in sorted(played)]


def _cards_section(cells: Sequence[CellRows]) -> list[str]:
    out = [
        "## Cards",
        "",
        "Per card, the games in which a side played it and how many of them that side won "
        "(against its rate over all the cell's games). A card played mostly when its side is "
        "already winning or losing shows that too: a hint, not a cause.",
        "",
        "| cell | card | side | played in | won | rate | Wilson 95 % | side's rate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for cell in cells:
        n = len(cell.rows)
        overall = {s: sum(r["winner"] == s for r in cell.rows) / n for s in cell.sides}
        for card, side, k, w in card_rates(cell):
            lo, hi = wilson(w, k)
            out.append(
                f"| {cell.label} | {card} | {side} | {k} | {w} | {w / k:.0%} | "
                f"[{lo:.0%}, {hi:.0%}] | {overall.get(side, 0.0):.0%} |"
            )
    return out


def sweeps(cells: Sequence[CellRows]) -> dict[str, list[Any]]:
    """Each option that takes two or more values over the cells: its values, sorted
    (numbers by value, else by their JSON text)."""
    found: dict[str, dict[str, Any]] = {}
    for cell in cells:
        for key, value in cell.options.items():
            found.setdefault(key, {})[canonical(value)] = value
    out: dict[str, list[Any]] = {}
    for key in sorted(found):
        values = list(found[key].values())
        if len(values) < 2:
            continue
        if all(_number(v) for v in values):
            out[key] = sorted(values)
        else:
            out[key] = [found[key][t] for t in sorted(found[key])]
    return out


def _sweep_lines(
    cells: Sequence[CellRows], name: str, values: Sequence[Any]
) -> dict[str, list[tuple[int, int]]]:
    """Per side and setting of everything else (other options, bots): wins and games at
    each value of ``name`` (settings missing a value are left out)."""
    groups: dict[str, dict[str, CellRows]] = {}
    for cell in cells:
        if name not in cell.options:
            continue
        rest = {k: v for k, v in cell.options.items() if k != name}
        other = ", ".join(f"{k}={v}" for k, v in sorted(rest.items()))
        bots = " vs ".join(f"{s} {b}" for s, b in cell.bots.items())
        key = f"{other + '; ' if other else ''}{bots}"
        groups.setdefault(key, {})[canonical(cell.options[name])] = cell
    lines: dict[str, list[tuple[int, int]]] = {}
    for key in sorted(groups):
        by_value = groups[key]
        if len(by_value) != len(values):
            continue
        ordered = [by_value[canonical(v)] for v in values]
        for side in ordered[0].sides:
            lines[f"{side} wins ({key})"] = [
                (sum(r["winner"] == side for r in c.rows), len(c.rows)) for c in ordered
            ]
    return lines


def _sweep_section(name: str, values: Sequence[Any], lines: Any, image: str) -> list[str]:
    out = [
        f"## Sweep over `{name}`",
        "",
        f"![win rate against `{name}`]({image})",
        "",
        "Two-proportion z tests (two-sided, pooled): does the win rate differ between two "
        f"values of `{name}`? Each value against the next, and the first against the last.",
        "",
        f"| result | `{name}` | wins | `{name}` | wins | difference | z | p |",
        "|---|---|---|---|---|---|---|---|",
    ]
    pairs = [(i, i + 1) for i in range(len(values) - 1)]
    if len(values) > 2:
        pairs.append((0, len(values) - 1))
    for label, counts in lines.items():
        for i, j in pairs:
            (a, n), (b, m) = counts[i], counts[j]
            t = two_proportions(a, n, b, m)
            out.append(
                f"| {label} | {values[i]} | {a}/{n} | {values[j]} | {b}/{m} | "
                f"{t.difference:+.1%} | {t.z:+.2f} | {t.p:.3g} |"
            )
    return out


_SECTIONS = {"event": _event_section, "sides": _sides_section, "measure": _measure_section}
_DRAWERS = {
    "event": plots.first_turn_histogram,
    "sides": plots.side_curves,
    "measure": plots.measure_curves,
}


class _Report:
    """The report being written: its lines and its image files."""

    def __init__(self, rows: Sequence[Row], out: Path, replay_url: str | None) -> None:
        self.rows, self.cells = rows, group(rows)
        names = sorted({r["game"] for r in rows})
        self.game: StudyGame | None = None
        if len(names) == 1:
            # the game not installed here: no notes, no heat maps, no records
            with contextlib.suppress(StudyError):
                self.game = resolve(names[0])
        self.title = self.game.name if self.game is not None else ", ".join(names)
        self.folder = out.with_suffix("")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.images: list[Path] = []
        self.lines: list[str] = []
        self.replay_url = replay_url

    def image(self, stem: str, suffix: str = "png") -> tuple[Path, str]:
        path = self.folder / f"{stem}.{suffix}"
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
        path, ref = self.image("lengths")
        plots.lengths(self.cells, path)
        self.lines += ["", "## Game lengths and results", "", f"![game lengths]({ref})", ""]
        self.lines += [*_length_table(self.cells), ""]

    def sweeps(self) -> None:
        for name, values in sweeps(self.cells).items():
            lines = _sweep_lines(self.cells, name, values)
            if not lines:
                continue
            path, ref = self.image(f"sweep-{name}")
            plots.sweep(name, values, lines, path)
            self.lines += [*_sweep_section(name, values, lines, ref), ""]

    def figures(self) -> None:
        names = game_measures(self.rows)
        if names:
            self.lines += [*_measures_section(self.cells, names, self.note), ""]
        if any(r.get("extras", {}).get("cards") for r in self.rows):
            self.lines += [*_cards_section(self.cells), ""]

    def games(self) -> None:
        """Per cell and result, the games by last turn, each linked to its record (and
        to the browser's replay page when ``replay_url`` is given)."""
        if self.game is None:
            return
        records = self.folder / "records"
        records.mkdir(exist_ok=True)
        self.lines += [
            "## Games",
            "",
            f"Up to {EXAMPLES} games of each result and length, each linked to its game record "
            "(played again from its seed: `replay` opens it)"
            + (" and to the browser's replay page of a server started with `serve … "
               f"--records {self.folder.name}/records` (from the report's folder)."
               if self.replay_url else "."),
            "",
            "| cell | result | last turn | games | examples |",
            "|---|---|---|---|---|",
        ]  # fmt: skip
        for k, cell in enumerate(self.cells):
            for side in (*cell.sides, None):
                mine = [r for r in cell.rows if r["winner"] == side]
                for turn in sorted({int(r["turns"]) for r in mine}):
                    chosen = [r for r in mine if r["turns"] == turn]
                    links = [self.record_link(k, r, records) for r in chosen[:EXAMPLES]]
                    name = f"{side} wins" if side else "no winner"
                    self.lines.append(
                        f"| {cell.label} | {name} | {turn} | {len(chosen)} | {' · '.join(links)} |"
                    )
        self.lines.append("")

    def record_link(self, k: int, row: Row, records: Path) -> str:
        name = f"c{k}-s{row['seed']}.json"
        (records / name).write_text(record_of_row(row) + "\n", encoding="utf-8")
        link = f"[seed {row['seed']}]({self.folder.name}/records/{name})"
        if self.replay_url:
            link += f" ([replay]({self.replay_url.rstrip('/')}/{name}))"
        return link

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
            if game is not None and game.board is not None:
                for k, cell in enumerate(shown):
                    path, ref = self.image(f"hexes-{category}-{k}", "svg")
                    title = f"{category} hexes: {cell.label}"
                    svg = heat_svg(game.board, hex_counts(cell, category), len(cell.rows), title)
                    path.write_text(svg, encoding="utf-8", newline="\n")
                    self.lines += [f"![`{category}` hexes, {cell.label}]({ref})", ""]
            elif polygons is not None:
                path, ref = self.image(f"hexes-{category}")
                plots.heat_map(shown, category, polygons, path, regions)
                self.lines += [f"![`{category}` hexes]({ref})", ""]
            self.lines += [*_heat_section(shown, category), ""]


#: Games linked per cell, result and last turn in the report's games table.
EXAMPLES = 2

#: Where the report's replay links point: a server on this machine
#: (``python -m hexwar serve GAME --records REPORT/records``).
DEFAULT_REPLAY_URL = "http://127.0.0.1:8642/replay/file"


def report(
    rows: Sequence[Row],
    out: Path,
    command: str | None = None,
    note: str | None = None,
    *,
    replay_url: str | None = DEFAULT_REPLAY_URL,
) -> list[Path]:
    """Write the Markdown report of ``rows`` to ``out`` and its plots beside it (folder
    ``out`` without suffix; the linked games' records in its ``records`` folder);
    returns the report and its images. ``command``: the command line that regenerates
    it, printed at the top; ``note``: a paragraph under the title; ``replay_url``: the
    base of the browser replay links (``None``: none)."""
    if not rows:
        raise StudyError("no rows to report on")
    doc = _Report(rows, out, replay_url)
    doc.head(command, note)
    doc.sweeps()
    doc.figures()
    doc.per_turn()
    doc.hexes()
    doc.games()
    out.write_text("\n".join(doc.lines).rstrip("\n") + "\n", encoding="utf-8")
    return [out, *doc.images]


def write_report(
    results: str | Path,
    out: str | Path,
    command: str | None = None,
    note: str | None = None,
    *,
    replay_url: str | None = DEFAULT_REPLAY_URL,
) -> list[Path]:
    """:func:`report` of the rows of the results file ``results``."""
    return report(read_rows(results), Path(out), command, note, replay_url=replay_url)
