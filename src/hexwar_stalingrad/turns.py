"""The turn track (S1.2): ten turns with dates, weather and operation.

>>> track = load_turns()
>>> [t.number for t in track if t.non_flying]
[1, 2]
>>> track[5].operation, track[5].reserves, track[5].days
('winter_storm', True, 2)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar_stalingrad._checks import data_path

__all__ = ["OPERATION_TURNS", "WEATHER", "Turn", "load_turns"]

WEATHER: Final = ("non_flying", "poor", "variable", "fair")
OPERATION_TURNS: Final = {"uranus": range(1, 6), "winter_storm": range(6, 11)}
"""S1.2: Uranus on turns 1-5, Winter Storm on turns 6-10."""


@attrs.frozen
class Turn:
    """One box of the turn track."""

    number: int
    start: dt.date
    end: dt.date
    weather: str
    operation: str
    events: str
    events_ru: str
    reserves: bool = False

    @property
    def days(self) -> int:
        """How many days the turn stands for."""
        return (self.end - self.start).days + 1

    @property
    def non_flying(self) -> bool:
        """No air operations this turn (S1.2, S10.1)."""
        return self.weather == "non_flying"


def load_turns(path: str | Path | None = None) -> tuple[Turn, ...]:
    """Load and validate ``turns.toml``: turns 1..10, dates in order, operations per S1.2."""
    data, source = read_data_file(path if path is not None else data_path("turns.toml"))
    return turns_from_dict(data, source)


def turns_from_dict(data: dict[str, Any], source: str = "<data>") -> tuple[Turn, ...]:
    """Build and validate the turn track from parsed TOML."""
    ck = Checker(source)
    ops = ck.table(data.get("operations", {}), "operations")
    if sorted(ops) != sorted(OPERATION_TURNS):
        raise ck.fail("operations", f"expected operations {sorted(OPERATION_TURNS)}")
    turns: list[Turn] = []
    for i, raw in enumerate(ck.items(data, "turn")):
        e = f"turn[{i}]"
        ck.keys(
            raw,
            ("number", "start", "end", "weather", "operation", "events", "events_ru"),
            ("reserves",),
            e,
        )
        number = ck.integer(raw["number"], f"{e}.number", 1)
        if number != i + 1:
            raise ck.fail(f"{e}.number", f"expected turn {i + 1}, got {number}")
        start, end = raw["start"], raw["end"]
        for key, value in (("start", start), ("end", end)):
            if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
                raise ck.fail(f"{e}.{key}", f"wrong type: expected a date, got {value!r}")
        if end < start or (turns and start <= turns[-1].end):
            raise ck.fail(e, "dates must run forward and not overlap the previous turn")
        operation = ck.choice(raw["operation"], tuple(OPERATION_TURNS), f"{e}.operation")
        if number not in OPERATION_TURNS[operation]:
            raise ck.fail(f"{e}.operation", f"turn {number} is not in {operation} (S1.2)")
        turns.append(
            Turn(
                number,
                start,
                end,
                ck.choice(raw["weather"], WEATHER, f"{e}.weather"),
                operation,
                ck.string(raw["events"], f"{e}.events"),
                ck.string(raw["events_ru"], f"{e}.events_ru"),
                ck.boolean(raw.get("reserves", False), f"{e}.reserves"),
            )
        )
    if len(turns) != 10:
        raise ck.fail("turn", f"the track has {len(turns)} turns, S1.2 needs 10")
    return tuple(turns)
