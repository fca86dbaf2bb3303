"""hexwar.base.datafile: one reader for TOML/JSON data and the typed accessors every loader uses."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import DataError

CK = Checker("data.toml")


# -- read_data_file -----------------------------------------------------------------------


def test_reads_toml_and_json_alike(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('[unit]\nid = "r-1"\nmove = 6\n', encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps({"unit": {"id": "r-1", "move": 6}}))
    toml_data, toml_source = read_data_file(tmp_path / "a.toml")
    json_data, json_source = read_data_file(str(tmp_path / "a.json"))
    assert toml_data == json_data == {"unit": {"id": "r-1", "move": 6}}
    assert (toml_source, json_source) == (str(tmp_path / "a.toml"), str(tmp_path / "a.json"))


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("bad.toml", "[unit\n", "cannot read: not valid TOML"),
        ("bad.json", "{", "cannot read: not valid JSON"),
        ("list.json", "[1, 2]", "top level must be an object"),
        ("bad.yaml", "unit: 1", "unknown extension '.yaml': expected a .toml or .json file"),
        ("bad.pickle", "x", "unknown extension '.pickle'"),
        ("latin.toml", None, "cannot read"),
    ],
)
def test_file_errors_name_the_file(
    tmp_path: Path, name: str, text: str | None, reason: str
) -> None:
    path = tmp_path / name
    if text is None:
        path.write_bytes(b'name = "\xff"\n')  # not UTF-8
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_data_file(path)
    assert info.value.source == str(path)
    assert info.value.entry is None
    assert reason in info.value.reason
    assert str(info.value).startswith(f"{path}: ")


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    with pytest.raises(DataError, match=r"missing\.json: cannot read") as info:
        read_data_file(path)
    assert info.value.source == str(path)


def test_values_are_data_never_code(tmp_path: Path) -> None:
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({"move": "__import__('os').getcwd()"}))
    data, _ = read_data_file(path)
    assert data == {"move": "__import__('os').getcwd()"}


# -- Checker: every failure names the source and the entry ---------------------------------

Call = Callable[[Checker], object]

FAILURES: list[tuple[str, Call, str, str]] = [
    ("table", lambda ck: ck.table([1], "units[0]"), "units[0]", "expected a table, got list"),
    ("items", lambda ck: ck.items({"units": {}}, "units"), "units", "an array of tables"),
    ("items-row", lambda ck: ck.items({"units": [{}, 3]}, "units"), "units[1]", "got int"),
    ("keys-missing", lambda ck: ck.keys({}, ("id",), (), "u[0]"), "u[0]", "missing field 'id'"),
    (
        "keys-unknown",
        lambda ck: ck.keys({"id": 1, "colour": 2}, ("id",), ("arm",), "u[0]"),
        "u[0]",
        "unknown key 'colour' (allowed: ['arm', 'id'])",
    ),
    ("string", lambda ck: ck.string(5, "u.id"), "u.id", "expected a non-empty string, got 5"),
    ("string-empty", lambda ck: ck.string("", "u.id"), "u.id", "non-empty string, got ''"),
    ("integer", lambda ck: ck.integer(1.5, "u.move"), "u.move", "expected an integer, got 1.5"),
    ("integer-bool", lambda ck: ck.integer(True, "u.move"), "u.move", "integer, got True"),
    ("integer-min", lambda ck: ck.integer(0, "u.move", minimum=1), "u.move", ">= 1, got 0"),
    ("number", lambda ck: ck.number("3", "u.lat"), "u.lat", "expected a number, got '3'"),
    ("number-bool", lambda ck: ck.number(False, "u.lat"), "u.lat", "a number, got False"),
    ("boolean", lambda ck: ck.boolean(1, "u.raider"), "u.raider", "true or false, got 1"),
    (
        "choice",
        lambda ck: ck.choice("navy", ("air", "ground"), "u.arm", "arm"),
        "u.arm",
        "unknown arm 'navy' (allowed: ['air', 'ground'])",
    ),
    ("choice-type", lambda ck: ck.choice(3, ("air",), "u.arm"), "u.arm", "non-empty string"),
    ("str_list", lambda ck: ck.str_list("a", "u.tags"), "u.tags", "a list of strings"),
    ("int_list", lambda ck: ck.int_list([1], "r.share", length=2), "r.share", "2 integers"),
    ("int_list-type", lambda ck: ck.int_list(3, "r.share"), "r.share", "a list of integers"),
    (
        "names",
        lambda ck: ck.names("road", {"road"}, "linear feature", "x.only"),
        "x.only",
        "expected a list of linear feature names",
    ),
    ("cost-type", lambda ck: ck.cost("1", "m.clear"), "m.clear", "expected a number, got '1'"),
    ("cost-negative", lambda ck: ck.cost(-1, "m.clear"), "m.clear", ">= 0, got -1"),
    ("cost-inf", lambda ck: ck.cost(math.inf, "m.clear"), "m.clear", ">= 0, got inf"),
]


@pytest.mark.parametrize(
    ("call", "entry", "reason"), [f[1:] for f in FAILURES], ids=[f[0] for f in FAILURES]
)
def test_every_accessor_error_names_source_and_entry(call: Call, entry: str, reason: str) -> None:
    with pytest.raises(DataError) as info:
        call(Checker("oob.toml"))
    assert info.value.source == "oob.toml"
    assert info.value.entry == entry
    assert reason in info.value.reason
    assert str(info.value) == f"oob.toml: {entry}: {info.value.reason}"


def test_fail_builds_the_error_without_raising() -> None:
    error = Checker("oob.toml").fail("units[3]", "duplicate id")
    assert str(error) == "oob.toml: units[3]: duplicate id"
    assert str(Checker("oob.toml").fail(None, "empty file")) == "oob.toml: empty file"


def test_element_errors_name_the_element() -> None:
    with pytest.raises(DataError) as info:
        CK.str_list(["a", 2], "units[0].tags")
    assert info.value.entry == "units[0].tags[1]"
    with pytest.raises(DataError) as info:
        CK.int_list([1, "2"], "rules.share")
    assert info.value.entry == "rules.share[1]"
    with pytest.raises(DataError) as info:
        CK.names(["road", "canal"], {"road", "rail"}, "linear feature", "m.only")
    assert info.value.entry == "m.only[1]"
    assert info.value.reason == "unknown linear feature 'canal' (allowed: ['rail', 'road'])"


def test_keys_defaults_to_the_top_level() -> None:
    with pytest.raises(DataError) as info:
        CK.keys({"x": 1}, optional=("y",))
    assert info.value.entry == "top level"
    CK.keys({"y": 1}, optional=("y",))  # no error


def test_accessors_return_the_checked_values() -> None:
    assert CK.table({"a": 1}, "t") == {"a": 1}
    assert CK.items({}, "units") == []
    assert CK.items({"u": [{"a": 1}]}, "u") == [{"a": 1}]
    assert CK.string("x", "e") == "x"
    assert CK.number(2, "e") == 2.0
    assert isinstance(CK.number(2, "e"), float)
    assert CK.boolean(False, "e") is False
    assert CK.str_list(["a", "b"], "e") == ["a", "b"]
    assert CK.int_list([3, 4], "e") == [3, 4]
    assert CK.names(["a", "a", "b"], "abc", "x", "e") == frozenset("ab")
    assert CK.cost(0, "e") == 0
    assert CK.cost(1.5, "e") == 1.5


@settings(max_examples=60, deadline=None)
@given(value=st.integers(-50, 50), minimum=st.integers(-10, 10))
def test_integer_minimum_is_inclusive(value: int, minimum: int) -> None:
    if value >= minimum:
        assert CK.integer(value, "e", minimum=minimum) == value
    else:
        with pytest.raises(DataError, match=f"must be >= {minimum}, got {value}"):
            CK.integer(value, "e", minimum=minimum)


@settings(max_examples=60, deadline=None)
@given(
    value=st.one_of(
        st.floats(allow_nan=True), st.integers(-(10**6), 10**6), st.booleans(), st.text()
    )
)
def test_cost_accepts_exactly_finite_non_negative_numbers(value: Any) -> None:
    ok = not isinstance(value, bool | str) and math.isfinite(value) and value >= 0
    if ok:
        assert CK.cost(value, "e") == value
    else:
        with pytest.raises(DataError):
            CK.cost(value, "e")
