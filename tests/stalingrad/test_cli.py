"""The command line (``python -m hexwar_stalingrad``): demo, replay, odds, simulate."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from hexwar.study import wilson
from hexwar_stalingrad.cli import main, simulate
from hexwar_stalingrad.tables import air_crt, load_crt


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("out")
    code, text = run("demo", "--length", "short", "--seed", "2", "--out", str(folder))
    assert code == 0
    return folder, text


def test_demo_prints_a_summary_and_writes_record_and_svg(demo: tuple[Path, str]) -> None:
    folder, text = demo
    lines = [line for line in text.splitlines() if line.startswith("turn ")]
    assert [line.split()[1] for line in lines] == ["1", "2", "3", "4", "5"]
    assert all("losses rkka" in line and "ring" in line and "cards:" in line for line in lines)
    record = folder / "stalingrad-short-seed2.json"
    svg = folder / "stalingrad-short-seed2.svg"
    assert f"record: {record}" in text
    assert f"final position: {svg}" in text
    data = json.loads(record.read_text())
    assert data["format"] == "hexwar-record"
    assert data["options"] == {"length": "short"}
    assert svg.read_text().startswith("<svg")


def test_demo_is_deterministic(demo: tuple[Path, str], tmp_path: Path) -> None:
    folder, _ = demo
    run("demo", "--length", "short", "--seed", "2", "--out", str(tmp_path))
    name = "stalingrad-short-seed2.json"
    assert (tmp_path / name).read_text() == (folder / name).read_text()


def test_replay_checks_the_record_and_draws_a_turn(demo: tuple[Path, str], tmp_path: Path) -> None:
    folder, _ = demo
    svg = tmp_path / "t2.svg"
    code, text = run(
        "replay", str(folder / "stalingrad-short-seed2.json"), "--turn", "2", "--svg", str(svg)
    )
    assert code == 0
    assert "all legal" in text
    assert svg.read_text().startswith("<svg")
    code, text = run("replay", str(folder / "stalingrad-short-seed2.json"))
    assert code == 0
    assert "result:" in text
    # both S11.1 conditions beside the result (issue 30: "encircled: True" alone misled)
    encircled = next(ln for ln in text.splitlines() if ln.startswith("6th Army encircled"))
    in_city = next(ln for ln in text.splitlines() if ln.startswith("RKKA ground unit in"))
    result = next(ln for ln in text.splitlines() if ln.startswith("result:"))
    if "rkka" in result:
        assert encircled.endswith("True")
        assert in_city.endswith("True")
    else:
        assert ("not closed" in result) == encircled.endswith("False")
        assert ("no RKKA ground unit" in result) == in_city.endswith("False")


def test_replay_rejects_a_tampered_record(demo: tuple[Path, str], tmp_path: Path) -> None:
    folder, _ = demo
    data = json.loads((folder / "stalingrad-short-seed2.json").read_text())
    data["actions"][len(data["actions"]) // 2] = "move r-1ga 0101"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, _ = run("replay", str(bad))
    assert code == 1


def test_odds_prints_exact_probabilities_from_the_crt() -> None:
    code, text = run("odds", "14", "6", "--air")
    assert code == 0
    assert "column 2:1" in text
    dist = air_crt().distribution(14, 6)
    for result, p in dist:
        assert f"{result.code:4s} {p!s:>5s}" in text
    assert sum(p for _, p in dist) == 1
    code, text = run("odds", "19", "6")
    assert "column 3:1" in text
    assert str(load_crt().distribution(19, 6).probability("DR")) in text


def test_odds_below_the_table_is_refused() -> None:
    code, text = run("odds", "5", "6")
    assert code == 1
    assert "S8.2" in text
    code, text = run("odds", "3", "7", "--air")
    assert code == 1
    assert "S10.5" in text


def test_wilson_interval_contains_the_rate() -> None:
    lo, hi = wilson(7, 10)
    assert lo < 0.7 < hi
    assert lo >= 0
    assert hi <= 1
    # textbook values: 10/10 → [0.722, 1], 0/10 → [0, 0.278]
    assert wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), pytest.approx(1.0))
    assert wilson(0, 10) == (pytest.approx(0.0), pytest.approx(0.2775, abs=1e-4))
    assert Fraction(1, 2) > wilson(1, 100)[1]


def test_simulate_is_deterministic_regardless_of_workers() -> None:
    one = simulate(3, ("random", "heuristic"), "short", seed=4, workers=1)
    two = simulate(3, ("random", "heuristic"), "short", seed=4, workers=2)
    assert one == two
    assert len(one) == 3
    assert all(w in ("rkka", "wehrmacht") for w in one)


def test_simulate_command_prints_rates_and_a_progress_bar() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexwar_stalingrad",
            "simulate",
            "--games",
            "2",
            "--bots",
            "random,random",
            "--length",
            "short",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "95% CI" in proc.stdout
    assert "rkka" in proc.stdout
    assert "2/2" in proc.stderr
    assert "[" in proc.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "hexwar_stalingrad", "simulate", "--bots", "random"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2


@pytest.mark.parametrize("command", [["simulate"], ["study"]])
def test_a_huge_game_count_is_refused_with_a_usage_message(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 30: ``--games 99999999999999999999`` is refused at once (exit status 2)."""
    with pytest.raises(SystemExit) as caught:
        main([*command, "--games", "99999999999999999999"])
    assert caught.value.code == 2
    assert "99999999999999999999 is above 1000000" in capsys.readouterr().err
