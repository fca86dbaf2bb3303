"""hexwar.mechanics.crt: odds and strength tables, rounding, refusal, distributions, loading.

The tables here are small examples made for the tests, not Stalingrad's real tables.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hexwar.base.errors import AttackRefused, CombatError, DataError, IllegalAction
from hexwar.base.kept import KEPT_LIMIT
from hexwar.engine.dice import D6, Dice, FixedDriver, SeededDriver, validate_outcomes
from hexwar.mechanics.crt import OddsTable, StrengthTable, load_table, table_from_data
from hexwar.mechanics.crt_values import CombatResult, format_ratio, parse_ratio

RESULTS = [
    CombatResult("AL", rank=0, attacker_steps=1),
    CombatResult("NE", rank=1),
    CombatResult("EX", rank=2, defender_steps=1, attacker_steps=1),
    CombatResult("DR", rank=3, retreat=1),
    CombatResult("DRL", rank=4, defender_steps=1, retreat=1),
    CombatResult("DE", rank=5, eliminated=True),
]
COLUMNS = ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
ROWS = {
    1: ["AL", "AL", "NE", "EX", "DR", "DRL"],
    2: ["EX", "EX", "EX", "DR", "DRL", "DE"],
    3: ["NE", "NE", "DR", "DR", "DRL", "DE"],
    4: ["NE", "DR", "DR", "DRL", "DE", "DE"],
    5: ["AL", "DR", "DRL", "DE", "DE", "DE"],
    6: ["AL", "NE", "DRL", "DE", "DE", "DE"],
}


def ground(rule: str | None = "X8.2", rounding: str = "floor") -> OddsTable:
    return OddsTable.build(
        name="test CRT",
        columns=COLUMNS,
        rows=ROWS,
        results=RESULTS,
        rule=rule,
        rounding=rounding,
    )


CRT = ground()
AIR = ground(rule="X10.5", rounding="nearest")

BOMB = StrengthTable.build(
    name="test bombardment",
    columns=["1/2", 1, 2],
    rows={
        1: ["NE", "NE", "Lo"],
        2: ["NE", "NE", "Lo"],
        3: ["NE", "Lo", "L"],
        4: ["NE", "Lo", "2Lo"],
        5: ["Lo", "L", "2Lo"],
        6: ["L", "L", "2L"],
    },
    results=[
        CombatResult("NE", rank=0),
        CombatResult("Lo", rank=1, defender_steps=1, flags=["outside_fortifications", "not_tanks"]),
        CombatResult("L", rank=2, defender_steps=1),
        CombatResult(
            "2Lo", rank=3, defender_steps=2, flags=["outside_fortifications", "not_tanks"]
        ),
        CombatResult("2L", rank=4, defender_steps=2),
    ],
    rule="X9.2",
)


def base_data() -> dict[str, Any]:
    return {
        "kind": "odds",
        "name": "test CRT",
        "rule": "X8.2",
        "dice": "d6",
        "rounding": "floor",
        "columns": list(COLUMNS),
        "results": {
            r.code: {
                "rank": r.rank,
                "defender_steps": r.defender_steps,
                "attacker_steps": r.attacker_steps,
                "retreat": r.retreat,
                "eliminated": r.eliminated,
            }
            for r in RESULTS
        },
        "rows": {str(k): list(v) for k, v in ROWS.items()},
    }


# -- odds columns ----------------------------------------------------------------------


def test_w1_floor_17_vs_4_is_4_to_1() -> None:
    assert CRT.column_for(17, 4) == "4:1"
    assert CRT.ratio(17, 4) == Fraction(17, 4)


def test_w10_below_1_to_1_refused_with_rule_from_data() -> None:
    with pytest.raises(AttackRefused, match=r"^X8\.2: odds 5:6 .*below the lowest column 1:1"):
        CRT.column_for(5, 6)
    with pytest.raises(IllegalAction) as info:
        CRT.resolve(5, 6, roll=1)
    assert info.value.rule == "X8.2"
    assert isinstance(info.value, ValueError)


def test_refusal_without_rule_has_no_prefix() -> None:
    with pytest.raises(AttackRefused, match=r"^odds 0:3") as info:
        ground(rule=None).column_for(0, 3)
    assert info.value.rule is None


def test_w10_above_6_to_1_counts_as_6_to_1() -> None:
    assert CRT.column_for(40, 4) == "6:1"
    assert CRT.resolve(40, 4, roll=1) == CRT.result_at("6:1", 1)


def test_w9_s7_4_forced_6_to_1_whatever_the_strengths() -> None:
    for roll in D6.faces():
        forced = CRT.resolve(1, 10, roll=roll, column="6:1")
        assert forced == CRT.result_at("6:1", roll)
    assert CRT.distribution(1, 10, column="6:1") == CRT.distribution_at("6:1")


def test_forced_unknown_column() -> None:
    with pytest.raises(CombatError, match="no column '7:1'"):
        CRT.resolve(1, 1, roll=1, column="7:1")


def test_floor_exact_boundaries() -> None:
    assert CRT.column_for(6, 6) == "1:1"
    assert CRT.column_for(11, 6) == "1:1"
    assert CRT.column_for(12, 6) == "2:1"
    assert CRT.column_for(Fraction(7, 2), Fraction(7, 4)) == "2:1"


def test_s10_5_nearest_rounding_examples() -> None:
    assert AIR.column_for(14, 6) == "2:1"  # W3
    assert AIR.column_for(14, 21) == "1:1"  # W4
    assert AIR.column_for(14, 15) == "1:1"  # W5
    assert AIR.column_for(20, 6) == "3:1"
    assert AIR.column_for(100, 6) == "6:1"


def test_s10_5_nearest_halves_round_up_and_below_half_refused() -> None:
    assert AIR.column_for(5, 2) == "3:1"  # 2.5 -> 3
    assert AIR.column_for(3, 2) == "2:1"  # 1.5 -> 2
    assert AIR.column_for(13, 2) == "6:1"
    assert AIR.column_for(1, 2) == "1:1"  # exactly 0.5: attack allowed
    assert AIR.threshold == Fraction(1, 2)
    with pytest.raises(AttackRefused, match=r"^X10\.5: "):
        AIR.column_for(49, 100)


def test_ratio_columns_below_one_and_three_halves() -> None:
    table = OddsTable.build(
        columns=["1:3", "1:2", "1:1", "3:2", "2:1"],
        rows={1: ["AL", "AL", "NE", "DR", "DE"]},
        results=RESULTS,
        dice="d1",
    )
    assert table.labels == ("1:3", "1:2", "1:1", "3:2", "2:1")
    assert table.column_for(1, 3) == "1:3"
    assert table.column_for(5, 8) == "1:2"
    assert table.column_for(7, 5) == "1:1"
    assert table.column_for(3, 2) == "3:2"
    with pytest.raises(AttackRefused):
        table.column_for(1, 4)
    nearest = OddsTable.build(
        columns=["1:2", "1:1", "3:2", "2:1"],
        rows={1: ["AL", "NE", "DR", "DE"]},
        results=RESULTS,
        dice="d1",
        rounding="nearest",
        refuse_below=Fraction(1, 3),
    )
    assert nearest.column_for(3, 4) == "1:1"  # tie between 1:2 and 1:1 -> higher
    assert nearest.column_for(1, 3) == "1:2"
    with pytest.raises(AttackRefused):
        nearest.column_for(1, 4)


def test_parse_and_format_ratio() -> None:
    assert parse_ratio("3:2") == Fraction(3, 2)
    assert format_ratio(parse_ratio("2:4")) == "1:2"
    for bad in ["3", "0:1", "1:0", "1.5:1", "a:b"]:
        with pytest.raises(ValueError, match="bad odds ratio"):
            parse_ratio(bad)


@pytest.mark.parametrize(
    ("attack", "defence", "message"),
    [
        (-1, 3, "must not be negative"),
        (3, 0, "defence strength must be positive"),
        (1.5, 1, "int or Fraction"),
        (True, 1, "int or Fraction"),
    ],
)
def test_bad_strengths(attack: Any, defence: Any, message: str) -> None:
    with pytest.raises(CombatError, match=message):
        CRT.column_for(attack, defence)


# -- shifts, modifiers, rolls ------------------------------------------------------------


def test_shifts_move_and_clamp() -> None:
    assert CRT.resolve(17, 4, roll=1, shift=1) == CRT.result_at("5:1", 1)
    assert CRT.resolve(17, 4, roll=1, shift=-2) == CRT.result_at("2:1", 1)
    assert CRT.resolve(17, 4, roll=1, shift=+9) == CRT.result_at("6:1", 1)
    assert CRT.resolve(17, 4, roll=1, shift=-9) == CRT.result_at("1:1", 1)


def test_shift_does_not_rescue_a_refused_attack() -> None:
    with pytest.raises(AttackRefused):
        CRT.resolve(5, 6, roll=3, shift=+2)


def test_modifiers_add_and_clamp_to_rows() -> None:
    assert CRT.resolve(17, 4, roll=2, modifier=2) == CRT.result_at("4:1", 4)
    assert CRT.resolve(17, 4, roll=2, modifier=9) == CRT.result_at("4:1", 6)
    assert CRT.resolve(17, 4, roll=5, modifier=-9) == CRT.result_at("4:1", 1)


def test_row_range_beyond_the_dice_for_modified_rolls() -> None:
    data = base_data()
    data["row_range"] = [0, 7]
    data["rows"]["0"] = ["AL"] * 6
    data["rows"]["7"] = ["DE"] * 6
    table = table_from_data(data)
    assert isinstance(table, OddsTable)
    assert table.resolve(3, 1, roll=6, modifier=1).code == "DE"
    assert table.resolve(3, 1, roll=6, modifier=5).code == "DE"
    assert table.resolve(3, 1, roll=1, modifier=-1).code == "AL"
    assert table.resolve(3, 1, roll=3).code == "DR"
    assert table.distribution(3, 1, modifier=1).probability("DE") == Fraction(1, 6)


def test_roll_must_be_on_the_dice() -> None:
    for bad in (0, 7):
        with pytest.raises(CombatError, match=f"roll {bad} is not a possible d6 roll"):
            CRT.resolve(3, 1, roll=bad)


def test_roll_through_a_driver() -> None:
    assert CRT.resolve(19, 6, roll=FixedDriver([4])) == CRT.result_at("3:1", 4)
    seeded = [CRT.resolve(19, 6, roll=SeededDriver(5)) for _ in range(3)]
    assert len(set(seeded)) == 1


# -- bombardment (strength categories) -----------------------------------------------------


def test_s9_2_bombardment_columns() -> None:
    assert BOMB.labels == ("1/2", "1", "2")
    assert BOMB.column_for(Fraction(1, 2)) == "1/2"
    assert BOMB.column_for(1) == "1"
    assert BOMB.column_for(2 * 1) == "2"  # S7.2 Katyusha: double strength
    assert BOMB.column_for(Fraction(3, 2)) == "1"
    assert BOMB.column_for(5) == "2"
    with pytest.raises(AttackRefused, match=r"^X9\.2: strength 1/4 .*lowest column 1/2"):
        BOMB.column_for(Fraction(1, 4))


def test_bombardment_results_carry_their_parts() -> None:
    lo = BOMB.resolve(1, roll=4)
    assert lo.code == "Lo"
    assert lo.has("outside_fortifications")
    assert lo.has("not_tanks")
    two = BOMB.resolve(2, roll=4)
    assert (two.code, two.defender_steps) == ("2Lo", 2)
    assert BOMB.resolve(1, roll=4, shift=1) == two
    assert BOMB.resolve(Fraction(1, 4), roll=4, column="1") == lo
    d = BOMB.distribution(2)
    assert d.expected_defender_steps == Fraction(1 + 1 + 1 + 2 + 2 + 2, 6)


def test_bombardment_loads_with_unicode_half() -> None:
    data: dict[str, Any] = {
        "kind": "strength",
        "columns": ["½", 1, 2],
        "results": {"NE": {"rank": 0}},
        "rows": {str(r): ["NE", "NE", "NE"] for r in range(1, 7)},
    }
    table = table_from_data(data)
    assert isinstance(table, StrengthTable)
    assert table.columns == (Fraction(1, 2), Fraction(1), Fraction(2))


# -- distributions ---------------------------------------------------------------------


def brute_force(table: OddsTable, attack: int, defence: int, **kw: Any) -> dict[str, Fraction]:
    counts: Counter[str] = Counter()
    weight: dict[int, int] = Counter()
    faces = table.dice.faces()
    for dice in itertools.product(faces, repeat=table.dice.count):
        weight[sum(dice)] += 1
    for total, n in weight.items():
        counts[table.resolve(attack, defence, roll=total, **kw).code] += n
    whole = sum(weight.values())
    return {code: Fraction(n, whole) for code, n in counts.items()}


def test_distribution_of_a_6_column_d6_table_matches_brute_force() -> None:
    for attack in range(4, 45):
        d = CRT.distribution(attack, 4)
        total = sum((p for _, p in d), Fraction(0))
        assert total == 1
        assert isinstance(total, Fraction)
        assert {r.code: p for r, p in d} == brute_force(CRT, attack, 4)


def test_distribution_expectations() -> None:
    d = CRT.distribution(19, 6)  # 3:1: NE EX DR DR DRL DRL
    assert [r.code for r, _ in d] == ["NE", "EX", "DR", "DRL"]  # by rank
    assert d.probability("DR") == Fraction(1, 3)
    assert d.probability("DE") == 0
    assert d.expected_defender_steps == Fraction(1, 6) + Fraction(2, 6)
    assert d.expected_attacker_steps == Fraction(1, 6)
    assert d.p_retreat == Fraction(4, 6)
    assert d.p_eliminated == 0
    assert CRT.distribution_at("6:1").p_eliminated == Fraction(5, 6)
    assert d.expect(lambda r: r.rank) == Fraction(1 + 2 + 3 + 3 + 4 + 4, 6)


def test_monotonicity_violations_found() -> None:
    assert CRT.monotonicity_violations() == []
    rows = copy.deepcopy(ROWS)
    rows[3][4] = "AL"  # 5:1 worse than 4:1 on row 3, and 6:1 better again
    table = OddsTable.build(columns=COLUMNS, rows=rows, results=RESULTS)
    assert table.monotonicity_violations() == [(3, "4:1", "5:1")]


@st.composite
def odds_tables(draw: st.DrawFn) -> OddsTable:
    n = draw(st.integers(1, 6))
    columns = sorted(set(draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))))
    dice = draw(st.sampled_from([Dice(1, 6), Dice(2, 6), Dice(1, 10, zero_based=True)]))
    codes = [r.code for r in RESULTS]
    rows = {
        roll: draw(st.lists(st.sampled_from(codes), min_size=len(columns), max_size=len(columns)))
        for roll in range(dice.minimum, dice.maximum + 1)
    }
    return OddsTable.build(
        columns=[f"{c}:1" for c in columns],
        rows=rows,
        results=RESULTS,
        dice=dice,
        rounding=draw(st.sampled_from(["floor", "nearest"])),
    )


@settings(max_examples=60, deadline=None)
@given(
    odds_tables(),
    st.integers(8, 80),
    st.integers(1, 8),
    st.integers(-3, 3),
    st.integers(-4, 4),
)
def test_distribution_sums_to_one_and_matches_brute_force(
    table: OddsTable, attack: int, defence: int, shift: int, modifier: int
) -> None:
    assume(attack >= table.threshold * defence)
    d = table.distribution(attack, defence, shift=shift, modifier=modifier)
    assert sum((p for _, p in d), Fraction(0)) == 1
    assert all(p > 0 for _, p in d)
    assert {r.code: p for r, p in d} == brute_force(
        table, attack, defence, shift=shift, modifier=modifier
    )


@settings(max_examples=60, deadline=None)
@given(odds_tables(), st.integers(0, 60), st.integers(0, 60), st.integers(1, 20))
def test_column_monotone_in_attack_and_antitone_in_defence(
    table: OddsTable, a1: int, a2: int, defence: int
) -> None:
    low, high = sorted((a1, a2))

    def index(attack: int, d: int) -> int:
        try:
            return table.labels.index(table.column_for(attack, d))
        except AttackRefused:
            return -1

    assert index(low, defence) <= index(high, defence)
    assert index(high, defence + 1) <= index(high, defence)
    if index(low, defence) >= 0:
        assert index(high, defence) >= 0


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 100), st.integers(1, 100))
def test_nearest_is_within_half_a_column_of_the_ratio(attack: int, defence: int) -> None:
    r = Fraction(attack, defence)
    try:
        label = AIR.column_for(attack, defence)
    except AttackRefused:
        assert r < Fraction(1, 2)
        return
    column = parse_ratio(label)
    assert abs(column - r) <= Fraction(1, 2) or column == 6


# -- building and loading --------------------------------------------------------------


def test_built_and_loaded_tables_are_equal(tmp_path: Path) -> None:
    data = base_data()
    assert table_from_data(data) == CRT
    json_path = tmp_path / "crt.json"
    json_path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_table(json_path)
    assert (loaded.columns, loaded.cells, loaded.results) == (CRT.columns, CRT.cells, CRT.results)


TOML = """
[crt]
kind = "odds"
name = "test CRT"
rule = "X8.2"
columns = ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]

[crt.results]
AL  = { rank = 0, attacker_steps = 1, text = "attacker loses a step" }
NE  = { rank = 1 }
EX  = { rank = 2, defender_steps = 1, attacker_steps = 1 }
DR  = { rank = 3, retreat = 1 }
DRL = { rank = 4, defender_steps = 1, retreat = 1 }
DE  = { rank = 5, eliminated = true }

[crt.rows]
1 = ["AL", "AL", "NE", "EX", "DR",  "DRL"]
2 = ["EX", "EX", "EX", "DR", "DRL", "DE"]
3 = ["NE", "NE", "DR", "DR", "DRL", "DE"]
4 = ["NE", "DR", "DR", "DRL", "DE", "DE"]
5 = ["AL", "DR", "DRL", "DE", "DE",  "DE"]
6 = ["AL", "NE", "DRL", "DE", "DE", "DE"]
"""


def test_load_toml_subtable(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(TOML, encoding="utf-8")
    table = load_table(path, key="crt")
    assert isinstance(table, OddsTable)
    assert (table.columns, table.cells, table.results) == (CRT.columns, CRT.cells, CRT.results)
    assert table.column_for(17, 4) == "4:1"
    with pytest.raises(DataError, match=r"rules\.toml: bombardment: no table"):
        load_table(path, key="bombardment")


def test_load_toml_error_names_file_and_entry(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(TOML.replace('3 = ["NE", "NE", "DR"', '3 = ["NE", "XX", "DR"'), "utf-8")
    with pytest.raises(
        DataError, match=r"rules\.toml: crt\.rows\.3\[1\]: unknown result code 'XX'"
    ):
        load_table(path, key="crt")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.toml", "kind = [", "not valid TOML"),
        ("bad.json", "{", "not valid JSON"),
        ("bad.yaml", "kind: odds", "expected a .toml or .json"),
    ],
)
def test_load_file_errors(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        load_table(path)
    assert info.value.source == str(path)


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        load_table(tmp_path / "nope.toml")


def _set(path: str, value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        target = data
        for p in parents:
            target = target[p]
        if value is _DELETE:
            del target[last]
        else:
            target[last] = value

    return edit


_DELETE = object()


@pytest.mark.parametrize(
    ("edit", "entry", "message"),
    [
        (_set("rows/4", ["NE", "DR", "DR", "DRL", "DE"]), "rows.4", "missing or extra cell"),
        (_set("rows/4", ["NE"] * 7), "rows.4", "missing or extra cell"),
        (_set("rows/2", ["EX", "EX", "EX", "DR", "DRX", "DE"]), r"rows.2\[4\]", "unknown result"),
        (_set("rows/7", ["NE"] * 6), "rows.7", "die row 7 is out of range 1..6"),
        (_set("rows/0", ["NE"] * 6), "rows.0", "out of range"),
        (_set("rows/x", ["NE"] * 6), "rows.x", "not an integer"),
        (_set("rows/5", _DELETE), "rows.5", r"missing die row\(s\) \[5\]"),
        (_set("rows/5", "NE NE"), "rows.5", "list of result codes"),
        (_set("columns", ["1:1", "3:1", "2:1"]), r"columns\[2\]", "strictly ascending"),
        (_set("columns", ["1:1", "1:1"]), r"columns\[1\]", "strictly ascending"),
        (_set("columns", ["1-1"]), r"columns\[0\]", "bad odds ratio"),
        (_set("columns", []), "columns", "non-empty list"),
        (_set("kind", "ratio"), "kind", "unknown kind"),
        (_set("kind", _DELETE), "kind", "missing required key"),
        (_set("rounding", "up"), "rounding", "unknown rounding"),
        (_set("dice", "2x6"), "dice", "bad dice"),
        (_set("colums", []), "colums", "unknown key"),
        (_set("results/DE/rank", _DELETE), "results.DE", "missing 'rank'"),
        (_set("results/DE/steps", 2), "results.DE", "unknown part"),
        (_set("results/DR/retreat", -1), "results.DR", "must not be negative"),
        (_set("results/DR/retreat", "1"), "results.DR", "must be an int"),
        (_set("results/DE/eliminated", 1), "results.DE", "true or false"),
        (_set("results/DE/flags", "x"), "results.DE", "list of strings"),
        (_set("results", {}), "results", "non-empty mapping"),
        (_set("row_range", [6, 1]), "row_range", "row_range must be"),
        (_set("refuse_below", "half"), "refuse_below", ""),
        (_set("rule", 8), "rule", "rule must be a string"),
    ],
)
def test_loading_errors_name_the_entry(edit: Any, entry: str, message: str) -> None:
    data = base_data()
    edit(data)
    with pytest.raises(DataError, match=rf"^crt\.toml: {entry}: .*{message}"):
        table_from_data(data, source="crt.toml")


def test_row_range_must_cover_the_dice() -> None:
    data = base_data()
    data["row_range"] = [2, 6]
    del data["rows"]["1"]
    with pytest.raises(DataError, match="do not cover every d6 roll"):
        table_from_data(data, source="crt.toml")


def test_strength_table_rejects_odds_keys() -> None:
    data = base_data()
    data["kind"] = "strength"
    data["columns"] = [1, 2, 3, 4, 5, 6]
    with pytest.raises(DataError, match="applies to odds tables only"):
        table_from_data(data, source="b.toml")
    del data["rounding"]
    assert isinstance(table_from_data(data, source="b.toml"), StrengthTable)


def test_build_errors() -> None:
    with pytest.raises(DataError, match="consecutive"):
        OddsTable.build(columns=["1:1"], rows={1: ["NE"], 3: ["NE"]}, results=RESULTS, dice="d3")
    with pytest.raises(DataError, match="do not cover"):
        OddsTable.build(columns=["1:1"], rows={1: ["NE"]}, results=RESULTS)
    with pytest.raises(DataError, match="bad odds column"):
        OddsTable.build(columns=[1], rows={1: ["NE"]}, results=RESULTS, dice="d1")
    with pytest.raises(DataError, match="unknown rounding"):
        OddsTable.build(
            columns=["1:1"], rows={1: ["NE"]}, results=RESULTS, dice="d1", rounding="up"
        )


def test_result_validation() -> None:
    with pytest.raises(DataError, match="non-empty"):
        CombatResult("")
    with pytest.raises(DataError, match="must be an int"):
        CombatResult("X", rank=True)
    with pytest.raises(DataError, match="must not be negative"):
        CombatResult("X", attacker_steps=-1)
    assert CombatResult("X", flags="solo").flags == ("solo",)
    assert CombatResult("X", flags=["b", "a", "b"]).flags == ("a", "b")


def test_bad_column_values_in_data() -> None:
    data = base_data()
    data["columns"] = [1, 2, 3, 4, 5, 6]  # odds columns must be "A:D"
    with pytest.raises(DataError, match=r"^crt\.toml: columns\[0\]: bad odds ratio 1"):
        table_from_data(data, source="crt.toml")
    strength = {
        "kind": "strength",
        "columns": ["1½"],
        "results": {"NE": {"rank": 0}},
        "rows": {str(r): ["NE"] for r in range(1, 7)},
    }
    with pytest.raises(DataError, match=r"columns\[0\]: bad amount '1½'"):
        table_from_data(strength, source="b.toml")


def test_distribution_is_a_chance_event_for_drivers() -> None:
    d = CRT.distribution(19, 6)
    validate_outcomes(d.outcomes)
    picked = SeededDriver(3).pick(d.outcomes)
    assert picked in {r for r, _ in d}
    assert FixedDriver([CRT.results["DR"]]).pick(d.outcomes).code == "DR"


# -- answers kept per table (the same as worked out afresh) ----------------------------


def _fresh(table: OddsTable) -> OddsTable:
    return ground(rule=table.rule, rounding=table.rounding)


def test_kept_answers_equal_fresh_ones_and_stay_bounded() -> None:
    """A table keeps the columns of exact int strengths, the bombardment columns and the
    distributions it worked out (immutable data); each answer equals a fresh table's,
    ``try_column`` is ``None`` exactly where ``column_for`` refuses, and at most
    KEPT_LIMIT answers are kept however many strengths are asked."""
    for table in (ground(), ground(rounding="nearest")):
        pairs = [(a, d) for a in range(40) for d in range(1, 12)]
        for a, d in pairs + pairs[::-1]:  # the second pass from the kept answers
            fresh = _fresh(table)
            try:
                want: str | None = fresh.column_for(a, d)
            except AttackRefused:
                want = None
            assert table.try_column(a, d) == want == fresh.try_column(a, d)
            if want is None:
                with pytest.raises(AttackRefused):
                    table.column_for(a, d)
                continue
            assert table.column_for(a, d) == want
            for shift, modifier in itertools.product((-2, 0, 3), (-1, 0, 2)):
                got = table.distribution(a, d, shift=shift, modifier=modifier)
                assert got == fresh.distribution(a, d, shift=shift, modifier=modifier)
                assert {r.code: p for r, p in got} == brute_force(
                    fresh, a, d, shift=shift, modifier=modifier
                )
        assert table.try_column(Fraction(7, 2), 2) == _fresh(table).try_column(Fraction(7, 2), 2)
        for a in range(5000):
            table.try_column(a + 1, 1)
        assert len(table._memo) <= KEPT_LIMIT
    for amount in (Fraction(1, 2), 1, Fraction(3, 2), 2, 7) * 2:
        want_label = {Fraction(1, 2): "1/2", 1: "1", Fraction(3, 2): "1"}.get(amount, "2")
        assert BOMB.column_for(amount) == want_label
    with pytest.raises(CombatError):
        BOMB.column_for(True)  # a bool is not an amount, kept answers or not


def test_kept_answers_keep_the_errors() -> None:
    assert CRT.try_column(2, 1) == "2:1"
    for bad in (True, 2.0, "2"):
        with pytest.raises(CombatError):
            CRT.column_for(bad, 1)  # type: ignore[arg-type]
        with pytest.raises(CombatError):
            CRT.try_column(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(CombatError):
        CRT.column_for(-1, 1)
    assert CRT.try_column(-1, 1) is None  # below 1:1: refused
    for defence in (0, -1, True):
        with pytest.raises(CombatError):
            CRT.try_column(2, defence)
    with pytest.raises(CombatError):
        CRT.column_index(2)  # type: ignore[arg-type]
