"""The study runner (:mod:`hexwar.study`, issue 16): rows per game, the same on every
backend; resumable; the report. Games of a small non-Stalingrad game (``examples.classic``)
and random Stalingrad games; the Dask tests (a ``LocalCluster``) are ``slow``."""

from __future__ import annotations

import io
import json
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from hexwar.__main__ import main as hexwar_main
from hexwar.study import Cell, Plan, StudyError, read_rows, resolve, run_study, wilson
from hexwar.study.backends import DaskBackend, InlineBackend, PoolBackend, backend_for
from hexwar.study.results import ResultsError, row_key
from hexwar.study.runner import Job, play_job

CLASSIC = "examples.classic.rules:Bridgehead"
STALINGRAD = "hexwar_stalingrad.study:GAME"


def classic_plan(games: int, seed: int = 0) -> Plan:
    return Plan(CLASSIC, (Cell({}, ("random", "random")),), games, seed)


def stalingrad_plan(games: int, seed: int = 0) -> Plan:
    cells = (Cell({"length": 2}, ("random", "random")), Cell({"length": 1}, ("random", "random")))
    return Plan(STALINGRAD, cells, games, seed)


def keyed(rows: Any) -> list[dict[str, Any]]:
    return sorted(rows, key=row_key)


def test_game_i_uses_seed_s_plus_i_and_the_row_depends_on_nothing_else() -> None:
    jobs = classic_plan(3, seed=10).jobs()
    assert [j.seed for j in jobs] == [10, 11, 12]
    row = play_job(jobs[1])
    assert play_job(jobs[1]) == row  # the same game again
    assert row["seed"] == 11
    assert row["bots"] == {"blue": "random", "red": "random"}
    assert row["winner"] in ("blue", "red", None)
    assert row["actions"] > 0
    assert [t["turn"] for t in row["per_turn"]] == list(range(1, row["turns"] + 1))
    assert json.loads(json.dumps(row)) == row  # plain JSON


def test_jobs_go_seed_by_seed_so_a_partial_study_covers_every_cell() -> None:
    jobs = stalingrad_plan(2, seed=5).jobs()
    assert [(json.loads(j.options)["length"], j.seed) for j in jobs] == [
        (2, 5), (1, 5), (2, 6), (1, 6),
    ]  # fmt: skip


def test_rows_are_the_same_in_process_and_on_a_pool(tmp_path: Path) -> None:
    inline = run_study(classic_plan(5), InlineBackend(), None, progress=False)
    pooled = run_study(classic_plan(5), PoolBackend(2), tmp_path / "r.jsonl", progress=False)
    assert pooled.played == 5
    assert keyed(read_rows(tmp_path / "r.jsonl")) == list(inline.rows)
    assert len({r["seed"] for r in inline.rows}) == 5


def test_a_rerun_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    first = run_study(classic_plan(3), InlineBackend(), path, progress=False)
    assert (first.played, first.skipped) == (3, 0)
    second = run_study(classic_plan(6), PoolBackend(2), path, progress=False)
    assert (second.played, second.skipped) == (3, 3)
    again = run_study(classic_plan(6), InlineBackend(), path, progress=False)
    assert (again.played, again.skipped) == (0, 6)
    rows = read_rows(path)
    assert len(rows) == 6 == len({row_key(r) for r in rows})
    fresh = run_study(classic_plan(6), InlineBackend(), None, progress=False)
    assert keyed(rows) == list(fresh.rows)


def test_a_study_stopped_midway_keeps_its_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    seen: list[int] = []

    def stop(row: dict[str, Any]) -> None:
        seen.append(row["seed"])
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(classic_plan(8), PoolBackend(2), path, progress=False, on_row=stop)
    assert sorted(r["seed"] for r in read_rows(path)) == sorted(seen)
    rest = run_study(classic_plan(8), InlineBackend(), path, progress=False)
    assert rest.played == 6
    assert sorted(r["seed"] for r in read_rows(path)) == list(range(8))


def test_a_line_cut_short_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    run_study(classic_plan(3), InlineBackend(), path, progress=False)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 20], encoding="utf-8")  # the last row, cut
    assert len(read_rows(path)) == 2
    again = run_study(classic_plan(3), InlineBackend(), path, progress=False)
    assert again.played == 1
    rows = read_rows(path)
    assert sorted(r["seed"] for r in rows) == [0, 1, 2]
    path.write_text("{not json}\n" + text, encoding="utf-8")
    with pytest.raises(ResultsError, match="line 1"):
        read_rows(path)


def test_unknown_games_bots_and_options_fail_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="MODULE:NAME"):
        resolve("no_colon")
    with pytest.raises(StudyError, match="cannot import"):
        resolve("no_such_module_here:X")
    with pytest.raises(StudyError, match="neither"):
        resolve("hexwar.study:wilson")
    with pytest.raises(StudyError, match="unknown bot 'clever'"):
        Plan(CLASSIC, (Cell({}, ("random", "clever")),), 2).jobs()
    with pytest.raises(StudyError, match="one bot each"):
        Plan(CLASSIC, (Cell({}, ("random",)),), 2).jobs()
    with pytest.raises(StudyError, match="bad options"):
        Plan(CLASSIC, (Cell({"colour": "mauve"}, ("random", "random")),), 2).jobs()
    with pytest.raises(StudyError, match="exclude"):
        backend_for(scheduler="tcp://127.0.0.1:1", dask_local=2)


def run_classic(results: Path) -> tuple[str, int]:
    """``python -m hexwar study`` of 4 classic games: its output, the red wins."""
    out = io.StringIO()
    from hexwar.study.cli import main

    argv = [CLASSIC, "--games", "4", "--workers", "1", "--out", str(results), "--no-progress"]
    assert main(argv, out=out) == 0
    wins = sum(r["winner"] == "red" for r in read_rows(results))
    return out.getvalue(), wins


def test_the_generic_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, wins = run_classic(tmp_path / "c.jsonl")
    assert "4 games played, 0 already in" in text
    lo, hi = wilson(wins, 4)
    assert f"  red        {wins:5d}  {wins / 4:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]" in text
    argv = ["study", CLASSIC, "--bots", "random", "--out", str(tmp_path / "c.jsonl")]
    assert hexwar_main(argv) == 1
    assert capsys.readouterr().err.startswith("error: ")
    with pytest.raises(SystemExit) as info:
        hexwar_main(["study", "report", str(tmp_path / "missing.jsonl")])
    assert info.value.code == 2


@pytest.mark.slow
def test_the_generic_report(tmp_path: Path) -> None:
    results = tmp_path / "c.jsonl"
    _, wins = run_classic(results)
    assert hexwar_main(["study", "report", str(results)]) == 0
    report = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert f"| red wins | {wins}/4 |" in report
    assert (tmp_path / "c" / "win-rates.png").read_bytes().startswith(b"\x89PNG")
    assert "per turn" not in report  # the game gives no per-turn figures
    assert hexwar_main(["study", CLASSIC, "--bots", "random", "--out", str(results)]) == 1


@pytest.mark.slow
def test_an_unreachable_scheduler_fails_after_its_timeout(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    match = r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9 within 2 s"
    with pytest.raises(StudyError, match=match):
        run_study(classic_plan(2), DaskBackend("tcp://127.0.0.1:9", timeout=2), tmp_path / "r")
    assert not (tmp_path / "r").exists() or read_rows(tmp_path / "r") == []


@pytest.mark.slow
def test_rows_are_the_same_on_a_local_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    pooled = run_study(stalingrad_plan(4), PoolBackend(2), None, progress=False)
    path = tmp_path / "d.jsonl"
    dask = run_study(stalingrad_plan(4), DaskBackend(local=2), path, progress=False)
    assert dask.played == 8
    assert keyed(read_rows(path)) == list(pooled.rows)


@pytest.mark.slow
def test_killing_a_dask_worker_mid_study_loses_no_finished_game(tmp_path: Path) -> None:
    """A worker process killed (SIGKILL) while games run: the rows written stay; the study
    is stopped there; a rerun plays the rest; the full set, each game once."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    path = tmp_path / "k.jsonl"
    client = distributed.Client(cluster)
    try:
        pids = sorted(client.run(os.getpid).values())
        killed: list[int] = []

        def kill_then_stop(row: dict[str, Any]) -> None:
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            elif len(read_rows(path)) >= 4:
                raise KeyboardInterrupt  # the study stopped midway too

        backend = DaskBackend(cluster.scheduler_address)
        with pytest.raises(KeyboardInterrupt):
            run_study(stalingrad_plan(6), backend, path, progress=False, on_row=kill_then_stop)
        assert killed
        kept = read_rows(path)
        assert 4 <= len(kept) < 12
        rest = run_study(stalingrad_plan(6), backend, path, progress=False)
        assert rest.played == 12 - len(kept)
    finally:
        client.close()
        cluster.close()
    rows = read_rows(path)
    assert len(rows) == 12 == len({row_key(r) for r in rows})
    fresh = run_study(stalingrad_plan(6), InlineBackend(), None, progress=False)
    assert keyed(rows) == list(fresh.rows)


def test_jobs_pickle(tmp_path: Path) -> None:
    import pickle

    job = Job(CLASSIC, "{}", (("blue", "random"), ("red", "random")), 3)
    assert pickle.loads(pickle.dumps(job)) == job
    assert threading.current_thread() is threading.main_thread()
