"""Loading «Бой отрядов» data: the chart and map (core formats) and ``rules.toml``.

``rules.toml`` holds the arms (IV, V), the fire-effect rows (VI, IX), the set-up limits
(X.2) and the scenarios (XII). Every error is a :class:`hexwar.base.errors.DataError` naming
the file and the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from hexwar import GameMap, load_chart, load_map
from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import LabelError
from hexwar.grid.square import SquareLabels

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
    strength: Fraction = Fraction(1)  # VII: fire strength against the rows of VI
    mg: bool = False  # VIII.в: a machine gun (its fire lets foot assault an HMG)
    guarded: bool = False  # VIII.в: foot assault it only under gun or 2-square MG fire
    charge: bool = False  # VIII.б: under fire, charges only into the flank or rear
    melee: str | None = None  # VI.3d: "foot", "horse" or "armour" in green-square melee
    gas_proof: bool = False  # IV: tanks cross gassed squares
    degas: bool = False  # XIV.б: a chemical figure neutralises a contaminated square


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
    """XII: a scenario's order of battle and the variant rules it plays (X.4, XI, 1941)."""

    name: str
    title: str
    turns: int
    figures: tuple[tuple[str, int], ...]
    strip_figures: int | None = None  # X.4: 3 in the cavalry game
    stack_setup: int | None = None  # RULING (battalion): figures a square at set-up
    setup_rows: tuple[str, ...] | None = None  # 1941: the two rows nearest the player
    defender: str | None = None  # XI: this side defends on the battle field
    defender_cut: Fraction = Fraction(0)  # XI: the defender's figures cut by this share
    station: bool = False  # 1941: taking the enemy's railway station wins


@attrs.frozen(eq=False)
class GameData:
    """Everything the rules read: map, labels, arms, effect rows, scenarios, ``[rules]``."""

    game_map: GameMap[Any]
    labels: SquareLabels
    arms: Mapping[str, Arm]
    effects: tuple[EffectRow, ...]
    scenarios: Mapping[str, Scenario]
    params: Mapping[str, Any]

    def share(self, key: str) -> Fraction:
        num, den = self.params[key]
        return Fraction(num, den)


Field = Callable[[Checker, object, str], Any]
_ARM_FIELDS: dict[str, Field] = {
    "movement": Checker.string, "move": Checker.integer, "target": Checker.string,
    "range": Checker.integer, "shots": Checker.integer, "los": Checker.string,
    "group": Checker.string, "retreat": Checker.string, "assault": Checker.string,
    "raider": Checker.boolean, "cuts_rail": Checker.boolean,
    "fires_from_masking": Checker.boolean, "free_in_front_row": Checker.boolean,
    "behind_front": Checker.boolean, "setup_rows": Checker.str_list,
    "setup_on": Checker.string, "mount": Checker.string, "dismount": Checker.string,
    "name": Checker.string, "strength": lambda ck, v, e: ck.int_list(v, e, length=2),
    "mg": Checker.boolean, "guarded": Checker.boolean, "charge": Checker.boolean,
    "melee": Checker.string, "gas_proof": Checker.boolean, "degas": Checker.boolean,
}  # fmt: skip
_CHOICES = {
    "los": ("direct", "overhead", "indirect"),
    "group": ("small_arms", "artillery"),
    "retreat": ("back", "any"),
    "assault": ("weak", "open"),
    "melee": ("foot", "horse", "armour"),
}
ROWS = ("I", "II", "III")


def _pair(ck: Checker, value: object, entry: str) -> list[int]:
    return ck.int_list(value, entry, length=2)


_PARAMS: dict[str, Field] = {
    "attack_strip": _pair, "attack_strip_figures": Checker.integer, "stack": Checker.integer,
    "stack_masking": Checker.integer, "stack_setup": Checker.integer,
    "front_row_others": Checker.integer, "second_row_share": _pair,
    "neutralised_turns": Checker.integer, "raid_removes": Checker.integer,
    "withdrawal_from_turn": Checker.integer, "draw_loss_share": _pair,
    "hmg_assault_mg_squares": Checker.integer, "gas_bomb_turns": Checker.integer,
    "degas_side_turns": Checker.integer, "melee_fired_weight": Checker.integer,
    "charge_instead": Checker.str_list,
}  # fmt: skip
_SCENARIO_FIELDS: dict[str, Field] = {
    "strip_figures": Checker.integer, "stack_setup": Checker.integer,
    "setup_rows": Checker.str_list, "defender": Checker.string, "defender_cut": _pair,
    "station": Checker.boolean,
}  # fmt: skip
_EFFECT_FIELDS: dict[str, Field] = {
    "fire": Checker.integer,
    "artillery": Checker.integer,
    "within": Checker.integer,
}


def _labels(ck: Checker, raw: object, game_map: GameMap[Any]) -> SquareLabels:
    """I: ``[labels]``, a name per map column and row; every map square gets a label."""
    spec = ck.table(raw, "labels")
    ck.keys(spec, required=("columns", "rows"), entry="labels")
    columns, rows = (ck.str_list(spec[k], f"labels.{k}") for k in ("columns", "rows"))
    try:
        labels = SquareLabels(columns, rows)
        for cell in game_map:
            labels.label(cell)
    except LabelError as e:
        raise ck.fail("labels", str(e)) from None
    return labels


def game_data_from_dict(raw: Mapping[str, Any], game_map: GameMap[Any], source: str) -> GameData:
    """Validate the parsed ``rules.toml`` against the map's chart."""
    ck = Checker(source)
    top = ck.table(dict(raw), "top level")
    ck.keys(top, required=("rules", "labels", "arms", "effects", "scenarios"))
    labels = _labels(ck, top["labels"], game_map)
    params = dict(ck.table(top["rules"], "rules"))
    ck.keys(params, required=_PARAMS, entry="rules")
    for key, check in _PARAMS.items():
        check(ck, params[key], f"rules.{key}")
    for i, result in enumerate(params["charge_instead"]):  # VIII.б
        ck.choice(result, ("dismount", "retreat"), f"rules.charge_instead[{i}]", "result")
    arms: dict[str, Arm] = {}
    raw_arms = ck.table(top["arms"], "arms")
    for name in sorted(raw_arms):
        entry = f"arms.{name}"
        spec = dict(ck.table(raw_arms[name], entry))
        ck.keys(spec, ("movement", "move", "target"), _ARM_FIELDS, entry)
        for key in sorted(spec):
            _ARM_FIELDS[key](ck, spec[key], f"{entry}.{key}")
        classes = game_map.chart.movement_classes
        ck.choice(spec["movement"], classes, f"{entry}.movement", "movement class")
        for key, allowed in _CHOICES.items():
            if key in spec:
                ck.choice(spec[key], allowed, f"{entry}.{key}", key)
        title = spec.pop("name", name)
        if "strength" in spec:
            num, den = spec["strength"]
            if num < 0 or den < 1:
                raise ck.fail(f"{entry}.strength", "expected [numerator, denominator >= 1]")
            spec["strength"] = Fraction(num, den)
        if "setup_rows" in spec:
            rows = spec["setup_rows"]
            e = f"{entry}.setup_rows"
            spec["setup_rows"] = tuple(
                ck.choice(r, ROWS, f"{e}[{i}]", "row") for i, r in enumerate(rows)
            )
        arms[name] = Arm(name, title, **spec)
    for arm in arms.values():
        for link in (arm.mount, arm.dismount):
            if link is not None and link not in arms:
                raise ck.fail(f"arms.{arm.name}", f"unknown arm {link!r}")
    targets = sorted({a.target for a in arms.values()})
    effects = []
    for i, row in enumerate(ck.items(top, "effects")):
        entry = f"effects[{i}]"
        ck.keys(row, ("target", "result"), ("square", *_EFFECT_FIELDS), entry)
        target = ck.choice(row["target"], targets, f"{entry}.target", "target")
        result = ck.choice(row["result"], RESULTS, f"{entry}.result", "result")
        squares = tuple(ck.str_list(row.get("square", list(SQUARES)), f"{entry}.square"))
        if not squares or not set(squares) <= set(SQUARES):
            raise ck.fail(f"{entry}.square", f"expected classes among {SQUARES}")
        numbers = {
            k: check(ck, row[k], f"{entry}.{k}") for k, check in _EFFECT_FIELDS.items() if k in row
        }
        effects.append(EffectRow(target, result, squares, **numbers))
    scenarios = {}
    raw_scenarios = ck.table(top["scenarios"], "scenarios")
    for name in sorted(raw_scenarios):
        entry = f"scenarios.{name}"
        spec = ck.table(raw_scenarios[name], entry)
        ck.keys(spec, ("figures", "turns"), ("name", *_SCENARIO_FIELDS), entry)
        figures = ck.table(spec["figures"], f"{entry}.figures")
        for arm_name, n in figures.items():
            ck.choice(arm_name, arms, f"{entry}.figures", "arm")
            ck.integer(n, f"{entry}.figures.{arm_name}", minimum=1)
        turns = ck.integer(spec["turns"], f"{entry}.turns", minimum=1)
        title = ck.string(spec.get("name", name), f"{entry}.name")
        extra = {
            k: f(ck, spec[k], f"{entry}.{k}") for k, f in _SCENARIO_FIELDS.items() if k in spec
        }
        if "setup_rows" in extra:
            for i, r in enumerate(extra["setup_rows"]):
                ck.choice(r, ROWS, f"{entry}.setup_rows[{i}]", "row")
            extra["setup_rows"] = tuple(extra["setup_rows"])
        if "defender" in extra:
            ck.choice(extra["defender"], ("blue", "red"), f"{entry}.defender", "side")
        if "defender_cut" in extra:
            extra["defender_cut"] = Fraction(*extra["defender_cut"])
        scenarios[name] = Scenario(name, title, turns, tuple(sorted(figures.items())), **extra)
    return GameData(game_map, labels, arms, tuple(effects), scenarios, params)


def load_game_data(directory: Path = DATA) -> GameData:
    """Load ``chart.toml``, ``map.toml`` and ``rules.toml`` from ``directory``."""
    game_map = load_map(directory / "map.toml", load_chart(directory / "chart.toml"))
    raw, source = read_data_file(directory / "rules.toml")
    return game_data_from_dict(raw, game_map, source)
