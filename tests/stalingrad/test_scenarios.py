"""Custom scenarios: every data file read from the directory, options checked, records
naming the scenario and its data, ``--scenario`` on every CLI command."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from hexwar.base.errors import DataError, RecordError
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar.engine.records import GameRecord, record_of, replay
from hexwar_stalingrad.cli import main
from hexwar_stalingrad.rules import OptionError, StalingradRules
from hexwar_stalingrad.scenario import load_scenario, shipped_data_dir

CRT_ROW_6 = '6 = ["AL", "EX", "DRL", "DE", "DE", "DE"]'


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def variant(tmp_path: Path) -> Path:
    """A named copy of the shipped data with a weaker CRT row 6 and a 3-hex victory area."""
    d = tmp_path / "variant"
    shutil.copytree(shipped_data_dir(), d)
    (d / "scenario.toml").write_text('name = "v1"\ntitle = "A test variant"\n', encoding="utf-8")
    edit(d / "tables.toml", CRT_ROW_6, '6 = ["AL", "AL", "AL", "AL", "AL", "AL"]')
    edit(d / "victory.toml", "area_radius = 15", "area_radius = 3")
    return d


def bots() -> dict[str, RandomPlayer]:
    return {"rkka": RandomPlayer(1), "wehrmacht": RandomPlayer(2)}


def test_every_file_comes_from_the_directory(variant: Path) -> None:
    rules = StalingradRules.from_scenario(variant)
    shipped = StalingradRules()
    # the ground CRT (S9.1) and the air combat table (S10.5) read the directory's tables
    assert rules.data.crt.resolve(6, 1, roll=6).code == "AL"
    assert shipped.data.crt.resolve(6, 1, roll=6).code == "DE"
    assert rules.data.air_crt.resolve(6, 1, roll=6).code == "AL"
    assert rules.data.air_crt.rounding == "nearest"
    # victory.toml (ruling S11.1)
    assert rules.data.victory.area_radius == 3
    assert len(rules.data.stalingrad_area) < len(shipped.data.stalingrad_area)
    assert rules.data.name == "v1"
    assert rules.new_state().scenario == "v1"
    assert rules.data_digest() != shipped.data_digest()
    assert len(rules.data_digest()) == 64


def test_rules_take_a_loaded_scenario(variant: Path) -> None:
    """``StalingradRules(data=load_scenario(dir))`` (an ``AttributeError`` before)."""
    rules = StalingradRules(data=load_scenario(variant))
    assert rules.data.victory.area_radius == 3
    assert rules.data_digest() == StalingradRules.from_scenario(variant).data_digest()


def test_a_copy_of_the_shipped_data_is_the_shipped_game(tmp_path: Path) -> None:
    d = tmp_path / "copy"
    shutil.copytree(shipped_data_dir(), d)
    copy, shipped = StalingradRules.from_scenario(d, length="short"), StalingradRules("short")
    assert copy.same_game(shipped)
    state = play(shipped.new_state(), bots(), SeededDriver(3))
    assert replay(copy, record_of(state)) == state


@pytest.mark.parametrize(
    ("options", "turns", "length"),
    [
        ({"length": 3}, 3, "short"),
        ({"length": 1}, 1, "short"),
        ({"length": 7}, 7, "long"),
        ({"length": "short"}, 5, "short"),
        ({"length": "long", "turns": 8}, 8, "long"),
        ({"length": 10}, 10, "long"),
    ],
)
def test_game_length_as_a_number_of_turns(
    options: dict[str, object], turns: int, length: str
) -> None:
    """S3.4: any number of turns on the track; the short game's S11.1 up to its 5 turns."""
    rules = StalingradRules(**options)  # type: ignore[arg-type]
    assert (rules.turns, rules.length, rules.sequence.turn_limit) == (turns, length, turns)
    assert StalingradRules.from_options(rules.options()).same_game(rules)


def test_a_three_turn_game_ends_after_turn_3_with_s11_1(variant: Path) -> None:
    rules = StalingradRules.from_scenario(variant, length=3)
    state = play(rules.new_state(), bots(), SeededDriver(5))
    assert state.turn == 3
    assert state.outcome is not None
    assert state.outcome.reason.startswith("S11.1")
    record = record_of(state, seed=5)
    assert record.scenario == "v1"
    assert dict(record.rules_options)["turns"] == 3
    assert record.data_digest == rules.data_digest()
    again = StalingradRules.from_scenario(variant, length=3)
    assert replay(again, GameRecord.from_json(again, record.to_json())) == state


@pytest.mark.parametrize(
    ("kwargs", "key", "rule"),
    [
        ({"length": 11}, "length", "S3.4"),
        ({"length": 0}, "length", "S3.4"),
        ({"length": "medium"}, "length", "S3.4"),
        ({"length": True}, "length", "S3.4"),
        ({"length": 4, "turns": 5}, "turns", "S3.4"),
        ({"length": "long", "turns": 12}, "turns", "S3.4"),
        ({"players": 7}, "players", "S3.1"),
        ({"players": True}, "players", "S3.1"),
        ({"sudden_death": "yes"}, "sudden_death", "S11.2"),
        ({"length": "short", "sudden_death": True}, "sudden_death", "S11.2"),
    ],
)
def test_bad_options_are_refused_citing_the_rule(
    kwargs: dict[str, object], key: str, rule: str
) -> None:
    with pytest.raises(OptionError) as info:
        StalingradRules(**kwargs)  # type: ignore[arg-type]
    assert info.value.key == key
    assert str(info.value).startswith(rule)
    assert isinstance(info.value, ValueError)


def test_record_options_are_checked_naming_the_option() -> None:
    with pytest.raises(DataError, match=r"rules_options\.turns: S3\.4"):
        StalingradRules.from_options({"length": "long", "turns": 40}, source="r.json")
    with pytest.raises(DataError, match=r"rules_options\.length"):
        StalingradRules.from_options({"length": 3})


def test_a_record_of_another_scenario_is_refused(variant: Path) -> None:
    rules = StalingradRules.from_scenario(variant, length=2)
    text = record_of(play(rules.new_state(), bots(), SeededDriver(1))).to_json()
    with pytest.raises(RecordError, match="data digest"):
        GameRecord.from_json(StalingradRules(length=2), text)
    # the same data under another scenario name: the digest differs (scenario.toml)
    (variant / "scenario.toml").write_text('name = "v2"\n', encoding="utf-8")
    with pytest.raises(RecordError, match="data digest"):
        GameRecord.from_json(StalingradRules.from_scenario(variant, length=2), text)


def test_a_state_of_another_scenario_name_is_refused(variant: Path) -> None:
    rules = StalingradRules.from_scenario(variant)
    with pytest.raises(DataError, match="unknown scenario 'default'; these rules play 'v1'"):
        rules.new_state("default")


# -- the command line -------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_cli_odds_reads_the_scenario_tables(variant: Path) -> None:
    code, mine = run("odds", "6", "1", "--scenario", str(variant))
    _, shipped = run("odds", "6", "1")
    assert code == 0
    body = mine.split("\n", 1)[1]
    assert "AL " not in shipped.split("\n", 1)[1]
    assert "AL     1/6" in body
    code, air = run("odds", "6", "1", "--air", "--scenario", str(variant))
    assert code == 0
    assert "AL     1/6" in air.split("\n", 1)[1]


def test_cli_demo_and_replay_of_a_variant(variant: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, text = run(
        "demo", "--length", "1", "--seed", "3", "--out", str(out), "--scenario", str(variant)
    )
    assert code == 0, text
    record = out / "stalingrad-1-seed3.json"
    code, text = run("replay", str(record), "--scenario", str(variant))
    assert code == 0
    assert "all legal" in text
    # without the directory the record is refused by its data digest: one error, exit 1
    code, text = run("replay", str(record))
    assert code == 1


def test_cli_replay_refuses_a_record_of_another_scenario(
    variant: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = play(StalingradRules(length=1).new_state(), bots(), SeededDriver(2))
    path = tmp_path / "r.json"
    path.write_text(record_of(state).to_json(), encoding="utf-8")
    capsys.readouterr()
    assert run("replay", str(path))[0] == 0
    code, _ = run("replay", str(path), "--scenario", str(variant))
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("error: ")
    assert "data digest" in err
    assert err.count("\n") == 1


def test_cli_simulate_and_map_take_a_scenario(variant: Path, tmp_path: Path) -> None:
    code, text = run(
        "simulate", "--games", "1", "--length", "1", "--bots", "random,random",
        "--workers", "1", "--scenario", str(variant),
    )  # fmt: skip
    assert code == 0
    assert "1 1 games" in text
    svg = tmp_path / "m.svg"
    code, _ = run("map", "--out", str(svg), "--scenario", str(variant))
    assert code == 0
    assert svg.read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize("command", [["demo"], ["map"], ["odds", "1", "1"], ["simulate"]])
def test_cli_scenario_must_be_a_directory(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*command, "--scenario", str(tmp_path / "nowhere")])
    assert info.value.code == 2
    assert "no such scenario directory" in capsys.readouterr().err


def test_cli_bad_scenario_data_is_one_error_line(
    variant: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(variant / "oob.toml", 'front = "sw_front"', 'front = "volkhov_front"')
    code, _ = run("odds", "2", "1", "--scenario", str(variant))
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1
    assert "oob.toml: ground r-5ta-a.front: unknown rkka front" in err


def test_cli_length_argument(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("0", "11", "medium"):
        with pytest.raises(SystemExit) as info:
            main(["simulate", "--length", bad])
        assert info.value.code == 2


#: Legal edits at the stated limits (``scenario.LIMITS``): each variant loads and plays.
EDGE_VARIANTS = {
    "strength at the limit": ("oob.toml", "strength = [7, 4]", "strength = [99, 98]"),
    "movement at the limit": ("oob.toml", "movement = [4, 3]", "movement = [30, 29]"),
    "victory area of radius 0": ("victory.toml", "area_radius = 15", "area_radius = 0"),
    "every turn flying weather": ("turns.toml", 'weather = "non_flying"', 'weather = "fair"'),
    "cost at the limit": ("terrain.toml", "volga_crossing = 2 }", "volga_crossing = 30 }"),
    "a card cost at the limit": (
        "cards.toml",
        'terrain = "volga_crossing", cost = 1',
        'terrain = "volga_crossing", cost = 30',
    ),
}


@pytest.mark.parametrize("kind", sorted(EDGE_VARIANTS))
def test_variants_at_the_limits_play(kind: str, tmp_path: Path) -> None:
    from hexwar.testing import check_random_games

    name, old, new = EDGE_VARIANTS[kind]
    d = tmp_path / "edge"
    shutil.copytree(shipped_data_dir(), d)
    text = (d / name).read_text(encoding="utf-8")
    assert old in text
    (d / name).write_text(text.replace(old, new), encoding="utf-8")
    rules = StalingradRules.from_scenario(d, length=4)
    report = check_random_games(
        rules.new_state, games=1, seed=3, max_steps=3000, full_check_every=200
    )
    assert report.ok, report.violations[:2]
    assert report.terminal == 1
