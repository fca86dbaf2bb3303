"""«Сталинград»'s study hook (:mod:`hexwar_stalingrad.study`) and the ``study`` command of
``python -m hexwar_stalingrad`` (issue 16). The figures are checked against the game
replayed independently, turn by turn (S11.1 ring, S11.2 contact)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar.engine.state import State
from hexwar.study import read_rows
from hexwar.study.report import report
from hexwar.study.runner import Job, play_job
from hexwar_stalingrad import victory
from hexwar_stalingrad.board import SIDES, on_map, static
from hexwar_stalingrad.cli import main
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.study import GAME, contact_hexes, ring_hexes, steps

BOTH = (("rkka", "heuristic"), ("wehrmacht", "heuristic"))
RANDOM = (("rkka", "random"), ("wehrmacht", "random"))
SPEC = "hexwar_stalingrad.study:GAME"


@pytest.fixture(scope="module")
def long_rows() -> list[dict[str, Any]]:
    """Two heuristic long games (seeds 0 and 1), as a study plays them."""
    return [play_job(Job(SPEC, '{"length":"long"}', BOTH, s)) for s in (0, 1)]


def replay_turn_ends(seed: int, length: str, bot: Any) -> list[State]:
    """The same game played again outside the study: the state at the end of each turn."""
    rules = StalingradRules(length=length)
    ends: list[State] = []
    seen = [1]

    def watch(state: State, action: Action) -> None:
        if state.turn != seen[-1]:
            ends.append(state.clone())
            seen.append(state.turn)

    bots = {"rkka": bot(2 * seed), "wehrmacht": bot(2 * seed + 1)}
    final = play(rules.new_state(), bots, SeededDriver(seed), on_step=watch)
    return [*ends, final]


def check_row(row: dict[str, Any], ends: list[State]) -> None:
    assert len(row["per_turn"]) == len(ends) == row["turns"]
    for figures, state in zip(row["per_turn"], ends, strict=True):
        assert figures["ring"] == victory.encircled(state)  # S11.1
        assert figures["contact"] == contact_hexes(state)
        assert (figures["contact"] != []) == victory.relief_contact(state)  # S11.2
        sixth = [
            u for _, u in on_map(state, "wehrmacht") if "6th_army" in static(state).ground[u].groups
        ]
        assert figures["sixth_army"] == len(sixth)
    final = ends[-1]
    assert final.outcome is not None
    assert row["winner"] == final.outcome.winner
    assert row["extras"]["hexes"] == {"contact": contact_hexes(final), "ring": ring_hexes(final)}
    start = StalingradRules(length=row["options"]["length"]).new_state()
    for side in SIDES:  # gross losses are at least the net decrease
        lost = sum(t["losses"][side] for t in row["per_turn"])
        assert lost >= steps(start, side) - steps(final, side)
        assert lost > 0


def test_the_hook_agrees_with_a_random_game_replayed() -> None:
    row = play_job(Job(SPEC, '{"length":"short"}', RANDOM, 3))
    check_row(row, replay_turn_ends(3, "short", RandomPlayer))
    assert all(t["relief_distance"] is None for t in row["per_turn"])  # no relief yet


@pytest.mark.slow
def test_the_hook_agrees_with_heuristic_long_games(long_rows: list[dict[str, Any]]) -> None:
    for row in long_rows:
        check_row(row, replay_turn_ends(row["seed"], "long", HeuristicBot))
        # S11.2: the Wehrmacht wins the long game exactly when the relief is in contact
        assert (row["winner"] == "wehrmacht") == bool(row["extras"]["hexes"]["contact"])
    assert any(t["relief_distance"] is not None for t in long_rows[0]["per_turn"])


@pytest.mark.slow
def test_ring_hexes_are_rkka_units_next_to_the_pocket() -> None:
    ends = replay_turn_ends(1, "long", HeuristicBot)
    closed = [s for s in ends if victory.encircled(s)]
    assert closed, "seed 1: the ring closes at some turn's end"
    state = closed[-1]
    ring = ring_hexes(state)
    rkka = {lab for lab, _ in on_map(state, "rkka")}
    assert ring
    assert set(ring) <= rkka
    assert all(ring_hexes(s) == [] for s in ends if not victory.encircled(s))


def test_the_study_command(tmp_path: Path) -> None:
    results, out = tmp_path / "s.jsonl", io.StringIO()
    argv = ["study", "--games", "2", "--bots", "random,random", "--length", "1,2",
            "--workers", "1", "--out", str(results), "--no-progress"]  # fmt: skip
    assert main(argv, out=out) == 0
    assert "4 games played, 0 already in" in out.getvalue()
    assert main([*argv[:2], "3", *argv[3:]], out=out) == 0
    assert "2 games played, 4 already in" in out.getvalue()
    rows = read_rows(results)
    assert sorted((r["options"]["length"], r["seed"]) for r in rows) == [
        (n, s) for n in (1, 2) for s in range(3)
    ]
    assert all(r["bots"] == {"rkka": "random", "wehrmacht": "random"} for r in rows)
    assert main(["study", "--bots", "random,clever", "--out", str(results)]) == 1


@pytest.mark.slow
def test_the_report_shows_every_figure(long_rows: list[dict[str, Any]], tmp_path: Path) -> None:
    files = report(long_rows, tmp_path / "r.md", command="python -m hexwar_stalingrad study")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    names = sorted(p.name for p in files[1:])
    assert names == [
        "event-ring.png", "hexes-contact-0.svg", "hexes-ring-0.svg", "lengths.png",
        "measure-relief_distance.png", "measure-sixth_army.png", "sides-losses.png",
        "win-rates.png",
    ]  # fmt: skip
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in files[1:] if p.suffix == ".png")
    heat = (tmp_path / "r" / "hexes-contact-0.svg").read_text(encoding="utf-8")
    assert 'class="highlight"' in heat
    assert "Stalingrad" in heat
    assert "## Per-game figures" in text
    assert "## Cards" in text
    assert "## Games" in text
    wins = sum(r["winner"] == "rkka" for r in long_rows)
    assert f"| rkka wins | {wins}/2 |" in text
    assert GAME.notes["ring"] in text
    assert "## Where games are decided: `contact` hexes" in text
