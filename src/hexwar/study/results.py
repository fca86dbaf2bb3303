"""The results file of a study: JSON lines, one game per line, appended as games finish.

Why JSON lines (not Parquet): a row is written and flushed the moment its game is done,
so a study stopped at any point keeps every finished game; a Parquet file is written
whole (appending means a new file per batch). Rows are nested (per-turn figures, hex
lists), read with nothing but the standard library, and diff and ``grep`` well.

A row's *key* is its game, options, bots and seed: a rerun skips the keys already in the
file. A last line cut short (the process killed while writing it) is dropped on reading
and cut off before appending.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hexwar.base.errors import ResultsError

__all__ = ["ResultsError", "Row", "RowKey", "append_rows", "canonical", "read_rows", "row_key"]

Row = dict[str, Any]
"""One game's row (JSON object): see :func:`hexwar.study.runner.play_job`."""

RowKey = tuple[str, str, str, int]
"""``(game, options as canonical JSON, bots as canonical JSON, seed)``."""


def canonical(value: Any) -> str:
    """``value`` as compact JSON with sorted keys: equal data, equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_key(row: Mapping[str, Any]) -> RowKey:
    """The key of a row: what a rerun compares to skip a game already played."""
    return (row["game"], canonical(row["options"]), canonical(row["bots"]), int(row["seed"]))


def read_rows(path: str | Path) -> list[Row]:
    """Every complete row of ``path`` in file order (``[]`` if there is no file)."""
    path = Path(path)
    if not path.exists():
        return []
    rows: list[Row] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):  # the last line, cut short: the game is played again
                break
            raise ResultsError(f"{path}, line {number}: not a JSON object") from None
        if not isinstance(row, dict) or not {"game", "options", "bots", "seed"} <= set(row):
            raise ResultsError(f"{path}, line {number}: not a study row")
        rows.append(row)
    return rows


def _cut_partial_line(path: Path) -> None:
    """Drop a last line without its newline (a write cut short)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


class Appender:
    """Appends rows to a results file, each flushed to disk as it comes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _cut_partial_line(self.path)
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, row: Row) -> None:
        self._file.write(canonical(row) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def append_rows(path: str | Path, rows: Iterable[Row]) -> None:
    """Append ``rows`` to ``path`` (created if missing)."""
    out = Appender(path)
    try:
        for row in rows:
            out.write(row)
    finally:
        out.close()
