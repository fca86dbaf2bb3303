"""Loading «Бой отрядов» data: the chart and map (core formats) and ``rules.toml``.

``rules.toml`` holds the arms (IV, V), the fire-effect rows (VI, IX), the set-up limits
(X.2) and the scenarios (XII). Every error is a :class:`hexwar.errors.DataError` naming
the file and the entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import attrs

from hexwar.errors import DataError
from hexwar.maps import GameMap, load_map
from hexwar.terrain import load_chart, read_data_file

DATA = Path(__file__).parent / "data"
RESULTS = ("destroy", "retreat", "pin", "dismount", "neutralise")
SQUARES = ("strong", "weak", "masking")


@attrs.frozen
class Arm:
    """One arm of service (IV moves, V fire); see the comments in ``rules.toml``."""

    name: str
    title: str
    movement: str
    move: int
    target: str
    range: int = 0
    shots: int = 1
    los: str = "direct"
    group: str = "small_arms"
    retreat: str = "back"
    assault: str | None = None
    raider: bool = False
    cuts_rail: bool = False
    fires_from_masking: bool = True
    free_in_front_row: bool = False
    behind_front: bool = False
    setup_rows: tuple[str, ...] = ("I", "II", "III")
    setup_on: str | None = None
    mount: str | None = None
    dismount: str | None = None


@attrs.frozen
class EffectRow:
    """A fire-effect row (VI): conditions, then ``result``; the first matching row wins."""

    target: str
    result: str
    squares: tuple[str, ...] = SQUARES
    fire: int = 0
    artillery: int = 0
    within: int | None = None


@attrs.frozen
class Scenario:
    name: str
    title: str
    turns: int
    figures: tuple[tuple[str, int], ...]


@attrs.frozen(eq=False)
class GameData:
    """Everything the rules read: map, arms, effect rows, scenarios and the ``[rules]``."""

    game_map: GameMap[Any]
    arms: Mapping[str, Arm]
    effects: tuple[EffectRow, ...]
    scenarios: Mapping[str, Scenario]
    params: Mapping[str, Any]

    def share(self, key: str) -> Fraction:
        num, den = self.params[key]
        return Fraction(num, den)


_ARM_TYPES: dict[str, type | tuple[type, ...]] = {
    "movement": str, "move": int, "target": str, "range": int, "shots": int, "los": str,
    "group": str, "retreat": str, "assault": str, "raider": bool, "cuts_rail": bool,
    "fires_from_masking": bool, "free_in_front_row": bool, "behind_front": bool,
    "setup_rows": list, "setup_on": str, "mount": str, "dismount": str, "name": str,
}  # fmt: skip
_CHOICES = {
    "los": ("direct", "overhead", "indirect"),
    "group": ("small_arms", "artillery"),
    "retreat": ("back", "any"),
    "assault": ("weak", "open"),
}
_PARAMS = {
    "attack_strip": list, "attack_strip_figures": int, "stack": int, "stack_masking": int,
    "stack_setup": int, "front_row_others": int, "second_row_share": list,
    "neutralised_turns": int, "raid_removes": int, "withdrawal_from_turn": int,
    "draw_loss_share": list,
}  # fmt: skip


def _typed(value: object, kind: type | tuple[type, ...], fail: Any, entry: str) -> Any:
    bad = isinstance(value, bool) and kind is int
    if bad or not isinstance(value, kind):
        raise fail(entry, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def game_data_from_dict(raw: Mapping[str, Any], game_map: GameMap[Any], source: str) -> GameData:
    """Validate the parsed ``rules.toml`` against the map's chart."""

    def fail(entry: str, reason: str) -> DataError:
        return DataError(reason, source=source, entry=entry)

    unknown = sorted(set(raw) - {"rules", "arms", "effects", "scenarios"})
    if unknown:
        raise fail(unknown[0], "unknown top-level key")
    params = dict(_typed(raw.get("rules"), dict, fail, "rules"))
    for key, kind in _PARAMS.items():
        if key not in params:
            raise fail(f"rules.{key}", "missing field")
        _typed(params[key], kind, fail, f"rules.{key}")
    for key in sorted(set(params) - set(_PARAMS)):
        raise fail(f"rules.{key}", "unknown key")
    arms: dict[str, Arm] = {}
    raw_arms = _typed(raw.get("arms"), dict, fail, "arms")
    for name in sorted(raw_arms):
        entry = f"arms.{name}"
        spec = dict(_typed(raw_arms[name], dict, fail, entry))
        for key in sorted(spec):
            if key not in _ARM_TYPES:
                raise fail(f"{entry}.{key}", "unknown key")
            _typed(spec[key], _ARM_TYPES[key], fail, f"{entry}.{key}")
        for key in ("movement", "move", "target"):
            if key not in spec:
                raise fail(f"{entry}.{key}", "missing field")
        if spec["movement"] not in game_map.chart.movement_classes:
            raise fail(f"{entry}.movement", f"unknown movement class {spec['movement']!r}")
        for key, allowed in _CHOICES.items():
            if spec.get(key, allowed[0]) not in allowed:
                raise fail(f"{entry}.{key}", f"expected one of {allowed}")
        if not set(spec.get("setup_rows", [])) <= {"I", "II", "III"}:
            raise fail(f"{entry}.setup_rows", "rows are 'I', 'II', 'III'")
        title = spec.pop("name", name)
        if "setup_rows" in spec:
            spec["setup_rows"] = tuple(spec["setup_rows"])
        arms[name] = Arm(name, title, **spec)
    for arm in arms.values():
        for link in (arm.mount, arm.dismount):
            if link is not None and link not in arms:
                raise fail(f"arms.{arm.name}", f"unknown arm {link!r}")
    targets = {a.target for a in arms.values()}
    effects = []
    for i, row in enumerate(_typed(raw.get("effects"), list, fail, "effects")):
        entry = f"effects[{i}]"
        row = dict(_typed(row, dict, fail, entry))
        if row.get("target") not in targets or row.get("result") not in RESULTS:
            raise fail(entry, f"unknown target or result (targets {sorted(targets)})")
        squares = tuple(row.pop("square", SQUARES))
        if not squares or not set(squares) <= set(SQUARES):
            raise fail(f"{entry}.square", f"expected classes among {SQUARES}")
        try:
            effects.append(EffectRow(squares=squares, **row))
        except TypeError as e:
            raise fail(entry, str(e)) from None
    scenarios = {}
    for name, spec in sorted(_typed(raw.get("scenarios"), dict, fail, "scenarios").items()):
        entry = f"scenarios.{name}"
        figures = _typed(spec.get("figures"), dict, fail, f"{entry}.figures")
        for arm, n in figures.items():
            if arm not in arms or _typed(n, int, fail, f"{entry}.figures.{arm}") < 1:
                raise fail(f"{entry}.figures.{arm}", "unknown arm or count < 1")
        turns = _typed(spec.get("turns"), int, fail, f"{entry}.turns")
        title = _typed(spec.get("name", name), str, fail, f"{entry}.name")
        scenarios[name] = Scenario(name, title, turns, tuple(sorted(figures.items())))
    return GameData(game_map, arms, tuple(effects), scenarios, params)


@cache
def load_game_data(directory: Path = DATA) -> GameData:
    """Load ``chart.toml``, ``map.toml`` and ``rules.toml`` from ``directory`` (cached)."""
    game_map = load_map(directory / "map.toml", load_chart(directory / "chart.toml"))
    raw, source = read_data_file(directory / "rules.toml")
    return game_data_from_dict(raw, game_map, source)
