# ruff: noqa: E501  (the table of edits below: one edit per line)
"""Bad scenario data is refused at load, naming the file and the entry.

A copy of the shipped data directory is edited one way at a time — each kind of edit
below is an error an author could make (a typo, a wrong type, an id with a space, an
unknown front, an oversized value, a huge map, a misspelt or missing file, ...) — and
loaded with :func:`hexwar_stalingrad.scenario.load_scenario` (what
``StalingradRules.from_scenario`` and ``--scenario`` use). Every kind must raise a
:class:`~hexwar.errors.DataError` whose message names the file and whose ``entry`` names
the entry (``None`` only for an error about the file as a whole: a missing, unknown,
oversized or unparsable file). The counts are in ``docs/reliability.md``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from hexwar.base.errors import DataError
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.scenario import LIMITS, load_scenario

Edit = Callable[[Path], None]


def sub(name: str, old: str, new: str, count: int = 1) -> Edit:
    """Replace ``old`` by ``new`` in ``name`` (``count`` times; 0: every one)."""

    def edit(d: Path) -> None:
        path = d / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, count or -1), encoding="utf-8")

    return edit


def resub(name: str, pattern: str, new: str) -> Edit:
    """Replace every match of ``pattern`` in ``name``."""

    def edit(d: Path) -> None:
        path = d / name
        text = path.read_text(encoding="utf-8")
        out, n = re.subn(pattern, new, text, flags=re.MULTILINE)
        assert n, (name, pattern)
        path.write_text(out, encoding="utf-8")

    return edit


def append(name: str, text: str) -> Edit:
    def edit(d: Path) -> None:
        with (d / name).open("a", encoding="utf-8") as f:
            f.write(text)

    return edit


def write(name: str, text: str | bytes) -> Edit:
    def edit(d: Path) -> None:
        if isinstance(text, bytes):
            (d / name).write_bytes(text)
        else:
            (d / name).write_text(text, encoding="utf-8")

    return edit


def delete(name: str) -> Edit:
    return lambda d: (d / name).unlink()


def both(*edits: Edit) -> Edit:
    def edit(d: Path) -> None:
        for e in edits:
            e(d)

    return edit


BIG = str(LIMITS["number"] * 10)
LONG_TEXT = "x" * (LIMITS["text"] + 1)
_STEPPE = '[terrain.steppe]\nname = "Steppe / Степь"\n'
_BF109G = 'id = "wa-bf109g"'
_R5TA = 'id = "r-5ta-a"'
_ORDER227 = 'id = "rkka-order-227"'
_VOLGA_FREEZES = 'terrain = "volga_crossing", cost = 1'
_TURN10 = "number = 10\n"

#: kind -> (file the error must name, the edit, whole-file error?)
MUTATIONS: dict[str, tuple[str, Edit, bool]] = {
    # -- the directory ----------------------------------------------------------------------
    "missing oob.toml": ("oob.toml", delete("oob.toml"), True),
    "missing victory.toml": ("victory.toml", delete("victory.toml"), True),
    "missing terrain.toml": ("terrain.toml", delete("terrain.toml"), True),
    "misspelt extra file": ("victroy.toml", write("victroy.toml", "area_radius = 3\n"), True),
    "unknown extra file": ("rules.toml", write("rules.toml", "x = 1\n"), True),
    "oversized file": (
        "oob.toml",
        append("oob.toml", "#" * (LIMITS["file_bytes"] + 1) + "\n"),
        True,
    ),
    "not UTF-8": ("cards.toml", write("cards.toml", b'[[card]]\nid = "\xff\xfe"\n'), True),
    "unparsable TOML": ("terrain.toml", append("terrain.toml", "[[movement\n"), True),
    "scenario name with a space": (
        "scenario.toml",
        write("scenario.toml", 'name = "my variant"\n'),
        False,
    ),
    "scenario file unknown key": (
        "scenario.toml",
        write("scenario.toml", 'name = "v1"\nauthor = "me"\n'),
        False,
    ),
    "scenario file without a name": (
        "scenario.toml",
        write("scenario.toml", 'title = "A variant"\n'),
        False,
    ),
    # -- size limits (any file) ---------------------------------------------------------------
    "text beyond the limit": ("oob.toml", sub("oob.toml", 'name = "1st Tank Corps"', f'name = "{LONG_TEXT}"'), False),
    "number beyond the limit": ("oob.toml", sub("oob.toml", "strength = [7, 4]", f"strength = [{BIG}, 4]"), False),
    "float infinity": ("terrain.toml", sub("terrain.toml", "volga_crossing = 2 }", "volga_crossing = inf }"), False),
    "nested too deep": ("oob.toml", sub("oob.toml", 'basis = "136 tanks', "basis = [[[[[[[[[[1]]]]]]]]]]\nxbasis = \"136 tanks"), False),
    "array too long": (
        "oob.toml",
        sub("oob.toml", 'formations = ["1st TC (Butkov), ~136 tanks"]', "formations = [" + ", ".join(['"x"'] * (LIMITS["items"] + 1)) + "]"),
        False,
    ),
    "huge rectangular map": ("map.toml", sub("map.toml", "columns = 33\nrows = 35", "columns = 100000\nrows = 100000"), False),
    "huge hexagonal map": ("map.toml", sub("map.toml", 'shape = "rectangle"\ncolumns = 33\nrows = 35', 'shape = "hexagon"\nradius = 90000'), False),
    # -- terrain.toml ---------------------------------------------------------------------------
    "terrain unknown key": ("terrain.toml", sub("terrain.toml", _STEPPE, _STEPPE + 'colour = "green"\n'), False),
    "terrain impassable not a boolean": ("terrain.toml", sub("terrain.toml", "impassable = true", 'impassable = "yes"'), False),
    "negative movement cost": ("terrain.toml", sub("terrain.toml", "volga_crossing = 2 }", "volga_crossing = -2 }"), False),
    "oversized movement cost": ("terrain.toml", sub("terrain.toml", "volga_crossing = 2 }", "volga_crossing = 500 }"), False),
    "movement cost a string": ("terrain.toml", sub("terrain.toml", "volga_crossing = 2 }", 'volga_crossing = "two" }'), False),
    "cost of an unknown terrain": ("terrain.toml", sub("terrain.toml", "steppe = 1, town = 1, city = 1", "steppe = 1, tundra = 1, city = 1"), False),
    "cost of an unknown hexside": ("terrain.toml", sub("terrain.toml", "hexside = { don = 1 }", "hexside = { nile = 1 }"), False),
    "bridge negating an unknown feature": ("terrain.toml", sub("terrain.toml", 'negates = ["don"', 'negates = ["amazon", "don"'), False),
    "a movement class removed": ("oob.toml", resub("terrain.toml", r"^\[movement\.cavalry\]\n(.+\n)+", ""), False),
    # -- map.toml -------------------------------------------------------------------------------
    "unknown terrain on the map": ("map.toml", sub("map.toml", 'terrain = "town"', 'terrain = "swamp"'), False),
    "off-map cell": ("map.toml", sub("map.toml", 'at = "0103"', 'at = "9903"'), False),
    "cell label with a space": ("map.toml", sub("map.toml", 'at = "0103"', 'at = "01 03"'), False),
    "cell listed twice": ("map.toml", sub("map.toml", 'at = "3301"', 'at = "0101"'), False),
    "unknown hexside feature": ("map.toml", sub("map.toml", 'features = ["don"]', 'features = ["amazon"]'), False),
    "hexside between non-adjacent hexes": ("map.toml", sub("map.toml", 'between = ["0102", "0203"]', 'between = ["0102", "0909"]'), False),
    "path with a jump": ("map.toml", sub("map.toml", 'cells = ["2617", "2518"', 'cells = ["2617", "0101"'), False),
    "unknown linear feature": ("map.toml", sub("map.toml", 'feature = "rail"', 'feature = "canal"'), False),
    "map columns zero": ("map.toml", sub("map.toml", "columns = 33", "columns = 0"), False),
    "map rows a string": ("map.toml", sub("map.toml", "rows = 35", 'rows = "35"'), False),
    "map unknown key": ("map.toml", sub("map.toml", 'grid = "hex"', 'grid = "hex"\nscale = 8'), False),
    "unknown map offset": ("map.toml", sub("map.toml", 'offset = "odd-r"', 'offset = "diagonal"'), False),
    "two start numbers on one hex": ("map.toml", sub("map.toml", 'tags = ["start:rkka:1"]', 'tags = ["start:rkka:1", "start:rkka:99"]'), False),
    "start tag of an unknown side": ("map.toml", sub("map.toml", 'tags = ["start:rkka:1"]', 'tags = ["start:nobody:1"]'), False),
    "malformed start tag": ("map.toml", sub("map.toml", 'tags = ["start:rkka:1"]', 'tags = ["start:rkka:one"]'), False),
    "start hex with no counter": ("map.toml", sub("map.toml", 'at = "0105"\ntags = ["supply:wehrmacht"]', 'at = "0105"\ntags = ["supply:wehrmacht", "start:rkka:77"]'), False),
    "start tag removed": ("oob.toml", sub("map.toml", 'tags = ["start:rkka:1"]', "tags = []"), False),
    "start hex impassable": ("oob.toml", sub("map.toml", 'at = "0905"\ntags', 'at = "0905"\nterrain = "volga"\ntags'), False),
    "reserve marker removed": ("oob.toml", sub("map.toml", '"reserve:rkka", "start:rkka:42"', '"start:rkka:42"'), False),
    "reserve marker of an unknown side": ("map.toml", sub("map.toml", '"reserve:rkka", "start:rkka:42"', '"reserve:red", "start:rkka:42"'), False),
    "airfield of an unknown side": ("map.toml", sub("map.toml", '"airfield:wehrmacht", "place:kalach"', '"airfield:luftwaffe", "place:kalach"'), False),
    "no city hex": ("map.toml", sub("map.toml", 'terrain = "city"', 'terrain = "town"', 0), False),
    "no supply source": ("map.toml", sub("map.toml", '"supply:wehrmacht"', '"supply:rkka"', 0), False),
    "a place on two hexes": ("map.toml", sub("map.toml", '"airfield:wehrmacht", "place:oblivskaya"', '"airfield:wehrmacht", "place:kalach"'), False),
    "unknown tag kind": ("map.toml", sub("map.toml", 'tags = ["start:rkka:1"]', 'tags = ["start:rkka:1", "minefield"]'), False),
    # -- oob.toml -------------------------------------------------------------------------------
    "duplicate ground id": ("oob.toml", sub("oob.toml", 'id = "r-5ta-b"', _R5TA), False),
    "air id same as a ground id": ("oob.toml", sub("oob.toml", _BF109G, 'id = "r-1tc"'), False),
    "id with a space": ("oob.toml", sub("oob.toml", _R5TA, 'id = "r-5ta a"'), False),
    "id with a tab": ("oob.toml", sub("oob.toml", _R5TA, 'id = "r-5ta\\ta"'), False),
    "id in capitals": ("oob.toml", sub("oob.toml", _R5TA, 'id = "R-5TA-A"'), False),
    "id empty": ("oob.toml", sub("oob.toml", _R5TA, 'id = ""'), False),
    "id too long": ("oob.toml", sub("oob.toml", _R5TA, f'id = "{"r" * 60}"'), False),
    "id a reserved word": ("oob.toml", sub("oob.toml", _R5TA, 'id = "none"'), False),
    "id same as a card id": ("cards.toml", sub("oob.toml", _R5TA, 'id = "rkka-order-227"'), False),
    "id not a string": ("oob.toml", sub("oob.toml", _R5TA, "id = 7"), False),
    "missing field": ("oob.toml", sub("oob.toml", 'arm = "tank"\n', ""), False),
    "unknown field": ("oob.toml", sub("oob.toml", 'arm = "tank"\n', 'arm = "tank"\ncolour = "red"\n'), False),
    "unknown section": ("oob.toml", append("oob.toml", "[[navy]]\nid = \"x\"\n"), False),
    "unknown arm": ("oob.toml", sub("oob.toml", 'arm = "cavalry"', 'arm = "dragoons"'), False),
    "unknown side": ("oob.toml", sub("oob.toml", 'side = "rkka"', 'side = "finland"'), False),
    "unknown front": ("oob.toml", sub("oob.toml", 'front = "sw_front"', 'front = "volkhov_front"'), False),
    "front of the other side": ("oob.toml", sub("oob.toml", 'front = "sw_front"', 'front = "army_group_b"'), False),
    "strength a string": ("oob.toml", sub("oob.toml", "strength = [7, 4]", 'strength = ["seven", 4]'), False),
    "strength one value": ("oob.toml", sub("oob.toml", "strength = [7, 4]", "strength = [7]"), False),
    "strength zero": ("oob.toml", sub("oob.toml", "strength = [7, 4]", "strength = [0, 0]"), False),
    "strength oversized": ("oob.toml", sub("oob.toml", "strength = [7, 4]", "strength = [500, 4]"), False),
    "reduced above full": ("oob.toml", sub("oob.toml", "strength = [7, 4]", "strength = [4, 7]"), False),
    "movement oversized": ("oob.toml", sub("oob.toml", "movement = [3, 3]", "movement = [100, 3]"), False),
    "movement a float": ("oob.toml", sub("oob.toml", "movement = [3, 3]", "movement = [3.5, 3]"), False),
    "start number reused": ("oob.toml", sub("oob.toml", "start = 2\n", "start = 1\n"), False),
    "start number not on the map": ("oob.toml", sub("oob.toml", "start = 45\n", "start = 46\n"), False),
    "start number zero": ("oob.toml", sub("oob.toml", "start = 2\n", "start = 0\n"), False),
    "ground unit arrives on turn 3": ("oob.toml", sub("oob.toml", "arrives = 1\n", "arrives = 3\n"), False),
    "unknown group": ("oob.toml", sub("oob.toml", 'groups = ["6th_army"]', 'groups = ["7th_army"]'), False),
    "no formations": ("oob.toml", sub("oob.toml", 'formations = ["1st TC (Butkov), ~136 tanks"]', "formations = []"), False),
    "bad bombs": ("oob.toml", sub("oob.toml", "bombs = 2\n", "bombs = 3\n"), False),
    "fighter with bombs": ("oob.toml", sub("oob.toml", 'role = "fighter"\n', 'role = "fighter"\nbombs = 1\n'), False),
    "unknown air role": ("oob.toml", sub("oob.toml", 'role = "fighter"', 'role = "drone"'), False),
    "air strength oversized": ("oob.toml", sub("oob.toml", "strength = [15, 8]", "strength = [900, 8]"), False),
    "air unit arrives on turn 1": ("oob.toml", sub("oob.toml", 'base = "morozovsk"\narrives = 3', 'base = "morozovsk"\narrives = 1'), False),
    "air base not an airfield": ("oob.toml", sub("oob.toml", 'base = "morozovsk"', 'base = "tormosin"'), False),
    "air base unknown place": ("oob.toml", sub("oob.toml", 'base = "morozovsk"', 'base = "atlantis"'), False),
    "air base off the map": ("oob.toml", sub("oob.toml", 'base = "@1102"', 'base = "@9999"'), False),
    "air base garbage label": ("oob.toml", sub("oob.toml", 'base = "@1102"', 'base = "@x y"'), False),
    "name not a string": ("oob.toml", sub("oob.toml", 'name = "1st Tank Corps"', "name = 1"), False),
    # -- cards.toml -----------------------------------------------------------------------------
    "duplicate card id": ("cards.toml", sub("cards.toml", 'id = "rkka-maskirovka"', _ORDER227), False),
    "card id with a space": ("cards.toml", sub("cards.toml", _ORDER227, 'id = "order 227"'), False),
    "card id a reserved word": ("cards.toml", sub("cards.toml", _ORDER227, 'id = "done"'), False),
    "unknown deck": ("cards.toml", sub("cards.toml", 'deck = "rkka"', 'deck = "navy"'), False),
    "deck below ten cards": ("cards.toml", sub("cards.toml", 'deck = "common"', 'deck = "rkka"'), False),
    "unknown effect kind": ("cards.toml", sub("cards.toml", 'kind = "no_retreat"', 'kind = "teleport"'), False),
    "effect parameter out of range": ("cards.toml", sub("cards.toml", "shift = 1, on", "shift = 5, on"), False),
    "unknown effect parameter": ("cards.toml", sub("cards.toml", 'side = "rkka", duration', 'side = "rkka", colour = "red", duration'), False),
    "effect without a kind": ("cards.toml", sub("cards.toml", '{ kind = "no_retreat", ', "{ "), False),
    "no effects": ("cards.toml", sub("cards.toml", 'effects = [{ kind = "no_retreat", side = "rkka", duration = "turn" }]', "effects = []"), False),
    "bad mark": ("cards.toml", sub("cards.toml", 'mark = "!"', 'mark = "?"'), False),
    "unknown window": ("cards.toml", sub("cards.toml", 'window = "wehrmacht_attack"', 'window = "teatime"'), False),
    "missing window": ("cards.toml", sub("cards.toml", 'window = "rkka_attack"\n', ""), False),
    "common event for one phase": ("cards.toml", sub("cards.toml", 'non_flying = true, duration = "turn"', 'non_flying = true, duration = "phase"'), False),
    "infinite card for a turn": ("cards.toml", sub("cards.toml", 'amount = 1, duration = "game"', 'amount = 1, duration = "turn"'), False),
    "card naming an unknown terrain": ("cards.toml", sub("cards.toml", _VOLGA_FREEZES, 'terrain = "ice", cost = 1'), False),
    "card naming an unknown movement class": ("cards.toml", sub("cards.toml", _VOLGA_FREEZES, _VOLGA_FREEZES + ', movement_class = "naval"'), False),
    "card cost oversized": ("cards.toml", sub("cards.toml", _VOLGA_FREEZES, 'terrain = "volga_crossing", cost = 900'), False),
    "card text beyond the limit": ("cards.toml", sub("cards.toml", 'name = "Maskirovka"', f'name = "{LONG_TEXT}"'), False),
    # -- tables.toml ----------------------------------------------------------------------------
    "incomplete CRT row": ("tables.toml", sub("tables.toml", '6 = ["AL", "EX", "DRL", "DE", "DE", "DE"]', '6 = ["AL", "EX"]'), False),
    "CRT roll missing": ("tables.toml", sub("tables.toml", '6 = ["AL", "EX", "DRL", "DE", "DE", "DE"]\n', ""), False),
    "CRT unknown result": ("tables.toml", sub("tables.toml", '6 = ["AL", "EX", "DRL", "DE", "DE", "DE"]', '6 = ["AL", "EX", "DRL", "DE", "DE", "XX"]'), False),
    "CRT of the wrong kind": ("tables.toml", sub("tables.toml", 'kind = "odds"', 'kind = "strength"'), False),
    "CRT unknown dice": ("tables.toml", sub("tables.toml", 'dice = "d6"', 'dice = "d7"'), False),
    "CRT columns out of order": ("tables.toml", sub("tables.toml", '["1:1", "2:1"', '["2:1", "1:1"'), False),
    "CRT unknown rounding": ("tables.toml", sub("tables.toml", 'rounding = "floor"', 'rounding = "sideways"'), False),
    "bombardment table missing": ("tables.toml", resub("tables.toml", r"^\[bombardment(\.\w+)?\]\n(.+\n?)+", ""), False),
    "unknown table": ("tables.toml", append("tables.toml", '\n[naval]\nkind = "odds"\n'), False),
    "result with an unknown key": ("tables.toml", sub("tables.toml", "NE = { rank = 1,", "NE = { rank = 1, morale = 2,"), False),
    # -- turns.toml -----------------------------------------------------------------------------
    "turn in the wrong operation": ("turns.toml", sub("turns.toml", 'operation = "winter_storm"', 'operation = "uranus"'), False),
    "turn number skipped": ("turns.toml", sub("turns.toml", _TURN10, "number = 11\n"), False),
    "dates backwards": ("turns.toml", sub("turns.toml", "end = 1942-12-23", "end = 1942-12-01"), False),
    "date a string": ("turns.toml", sub("turns.toml", "end = 1942-12-23", 'end = "23 Dec"'), False),
    "unknown weather": ("turns.toml", sub("turns.toml", 'weather = "variable"', 'weather = "hail"'), False),
    "an eleventh turn": ("turns.toml", append("turns.toml", '\n[[turn]]\nnumber = 11\nstart = 1942-12-24\nend = 1942-12-25\nweather = "fair"\noperation = "winter_storm"\nevents = "x"\nevents_ru = "x"\n'), False),
    "operations missing": ("turns.toml", resub("turns.toml", r"^\[operations\.\w+\]\n(name.*\n)+", ""), False),
    # -- victory.toml ---------------------------------------------------------------------------
    "victory radius a string": ("victory.toml", sub("victory.toml", "area_radius = 15", 'area_radius = "far"'), False),
    "victory radius negative": ("victory.toml", sub("victory.toml", "area_radius = 15", "area_radius = -1"), False),
    "victory radius beyond the map": ("victory.toml", sub("victory.toml", "area_radius = 15", "area_radius = 5000"), False),
    "victory radius beyond the limit": ("victory.toml", sub("victory.toml", "area_radius = 15", f"area_radius = {BIG}"), False),
    "victory unknown key": ("victory.toml", append("victory.toml", "sudden_death = true\n"), False),
    "victory radius missing": ("victory.toml", sub("victory.toml", "area_radius = 15", "radius = 15"), False),
    # -- the map builder's sources --------------------------------------------------------------
    "geography text beyond the limit": ("geography.toml", sub("geography.toml", 'id = "marinovka"', f'id = "{LONG_TEXT}"'), False),
    "features number beyond the limit": ("map_features.toml", sub("map_features.toml", "number = 2\n", f"number = {BIG}\n"), False),
    "corrections unparsable": ("map_corrections.toml", append("map_corrections.toml", "[[correction\n"), True),
}  # fmt: skip


@pytest.fixture
def data(tmp_path: Path) -> Path:
    d = tmp_path / "scenario"
    shutil.copytree(data_path("map.toml").parent, d)
    return d


def test_the_unedited_copy_loads_and_plays(data: Path) -> None:
    """The control: a copy of the shipped data is a valid scenario, the same game."""
    rules = StalingradRules.from_scenario(data, length=2)
    assert rules.data_digest() == StalingradRules().data_digest()
    assert rules.new_state().legal_actions()


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_bad_scenario_data_is_refused(data: Path, kind: str) -> None:
    name, edit, whole_file = MUTATIONS[kind]
    edit(data)
    with pytest.raises(DataError) as info:
        load_scenario(data)
    err = info.value
    assert Path(err.source).name == name, (kind, str(err))
    if whole_file:
        assert err.entry is None, (kind, str(err))
    else:
        assert err.entry, (kind, str(err))


def test_the_mutation_kinds_are_counted() -> None:
    """≥ 80 kinds of bad scenario data (``docs/reliability.md``); each file is edited."""
    files = {name for name, _, _ in MUTATIONS.values()}
    whole = sum(1 for _, _, w in MUTATIONS.values() if w)
    assert len(MUTATIONS) >= 80
    assert {"map.toml", "oob.toml", "cards.toml", "tables.toml", "turns.toml"} <= files
    assert {"terrain.toml", "victory.toml", "scenario.toml"} <= files
    assert whole < 12
