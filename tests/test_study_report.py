"""The study report (issue 29): no count of wins breaks it (Wilson intervals clamped at
the root), every ordering in it is total, sweeps with their tests, per-game figures,
cards, the records its rows link to, bots registered for every game."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from hexwar.engine.records import GameRecord, replay
from hexwar.study import Cell, Plan, StudyError, StudyGame, register_bot, run_study, wilson
from hexwar.study.backends import InlineBackend
from hexwar.study.cli import main
from hexwar.study.figures import group
from hexwar.study.plots import sweep, win_rates
from hexwar.study.report import card_rates, report, write_report
from hexwar.study.runner import Job, play_job, record_of_row
from hexwar.study.stats import error_bar, two_proportions

BRIDGEHEAD = "examples.classic.study:GAME"


def test_wilson_holds_every_rate_within_zero_and_one() -> None:
    for n in range(1, 61):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0, (k, n)
            assert (lo == 0.0) == (k == 0), (k, n)
            assert (hi == 1.0) == (k == n), (k, n)
            rate, below, above = error_bar(k, n)
            assert below >= 0
            assert above >= 0
            assert rate == k / n
    with pytest.raises(ValueError, match="successes"):
        wilson(4, 3)


def test_every_count_of_wins_draws(tmp_path: Path) -> None:
    """The plots of the report take every count 0..n, for every n up to 60."""
    for n in range(1, 61):
        lines = {"a wins": [(k, n) for k in range(n + 1)]}
        sweep("k", list(range(n + 1)), lines, tmp_path / f"s{n}.png")
    assert len(list(tmp_path.glob("s*.png"))) == 60


def fake_rows(wins: int, n: int, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    rows = []
    for seed in range(n):
        extras = {
            "margin": seed % 5,
            "hexes": {"h": ["0101", "0102"]},
            "cards": {"a": ["c1"] if seed % 2 else []},
        }
        rows.append({
            "game": "nowhere:GAME", "options": options or {},
            "bots": {"a": "random", "b": "random"}, "seed": seed,
            "winner": "a" if seed < wins else "b", "reason": "r", "turns": 1 + seed % 3,
            "actions": 10, "per_turn": [], "extras": extras,
        })  # fmt: skip
    return rows


@pytest.mark.parametrize(("wins", "n"), [(30, 30), (0, 50), (50, 50), (0, 1), (1, 1)])
def test_the_report_of_a_pairing_one_side_always_wins(wins: int, n: int, tmp_path: Path) -> None:
    files = report(fake_rows(wins, n), tmp_path / "r.md")
    text = files[0].read_text(encoding="utf-8")
    assert f"| a wins | {wins}/{n} |" in text
    win_rates(group(fake_rows(wins, n)), tmp_path / "w.png")


def test_the_report_is_the_same_whatever_the_order_of_its_rows(tmp_path: Path) -> None:
    rows = fake_rows(7, 20) + fake_rows(3, 20, {"x": 2}) + fake_rows(12, 20, {"x": 10})
    first = report(rows, tmp_path / "a.md")
    random.Random(4).shuffle(rows)
    second = report(rows, tmp_path / "b.md")
    a, b = (p.read_text(encoding="utf-8") for p in (first[0], second[0]))
    assert a.replace("a/", "X/") == b.replace("b/", "X/")
    for x, y in zip(first[1:], second[1:], strict=True):
        assert x.name == y.name
        assert x.read_bytes() == y.read_bytes()
    assert "- default; a random vs b random: 0101 (20), 0102 (20)" in a  # ties: by label
    assert "## Sweep over `x`" in a  # 2 then 10: by value, not by text
    assert a.index("| 2 | 3/20 | 10 | 12/20 |") > 0


def test_two_proportions_agrees_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for a, n, b, m in [(120, 200, 90, 200), (3, 20, 12, 20), (50, 100, 50, 100), (0, 30, 5, 40)]:
        t = two_proportions(a, n, b, m)
        assert t.p == pytest.approx(2 * stats.norm.sf(abs(t.z)), rel=1e-9)
        assert t.difference == pytest.approx(a / n - b / m)


def test_a_sweep_over_a_data_value(tmp_path: Path) -> None:
    results, out = tmp_path / "b.jsonl", io.StringIO()
    argv = [BRIDGEHEAD, "--games", "6", "--bots", "uniform,uniform", "--vary",
            "towns_to_win=1,3", "--workers", "1", "--out", str(results), "--no-progress",
            "--report", str(tmp_path / "b.md")]  # fmt: skip
    assert main(argv, out=out) == 0
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert sorted({r["options"]["towns_to_win"] for r in rows}) == [1, 3]
    blue = {v: sum(r["winner"] == "blue" for r in rows if r["options"]["towns_to_win"] == v)
            for v in (1, 3)}  # fmt: skip
    text = (tmp_path / "b.md").read_text(encoding="utf-8")
    t = two_proportions(blue[1], 6, blue[3], 6)
    assert f"| 1 | {blue[1]}/6 | 3 | {blue[3]}/6 | {t.difference:+.1%} | {t.z:+.2f} |" in text
    assert (tmp_path / "b" / "sweep-towns_to_win.png").read_bytes().startswith(b"\x89PNG")
    for row in rows:  # the margin is the towns held beyond those needed
        assert (row["extras"]["margin"] >= 0) == (row["winner"] == "blue")
    assert main([*argv[:6], "towns_to_win=1", *argv[7:]], out=out) == 1  # one value: no sweep


def test_every_linked_record_replays_to_its_row(tmp_path: Path) -> None:
    plan = Plan(BRIDGEHEAD, (Cell({"replacement_points": 2}, ("uniform", "random")),), 5)
    rows = list(run_study(plan, InlineBackend(), None, progress=False).rows)
    report(rows, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    records = sorted((tmp_path / "r" / "records").glob("*.json"))
    assert records
    assert all(f"(r/records/{p.name})" in text for p in records)
    from examples.classic.study import StudiedBridgehead

    for path in records:
        seed = int(path.stem.split("-s")[1])
        row = next(r for r in rows if r["seed"] == seed)
        rules = StudiedBridgehead(replacement_points=2)
        record = GameRecord.from_json(rules, path.read_text(encoding="utf-8"), source=str(path))
        state = replay(rules, record)
        assert record.seed == seed
        assert len(state.history) == row["actions"]
        assert state.outcome is not None
        assert state.outcome.winner == row["winner"]
    changed = dict(rows[0], winner="nobody")
    with pytest.raises(StudyError, match="differs from its row"):
        record_of_row(changed)


def test_a_stalingrad_record_opens_with_replay(tmp_path: Path) -> None:
    from hexwar_stalingrad.cli import main as stalingrad

    row = play_job(Job("hexwar_stalingrad.study:GAME", '{"length":"short"}',
                       (("rkka", "random"), ("wehrmacht", "random")), 2))  # fmt: skip
    path = tmp_path / "s2.json"
    path.write_text(record_of_row(row), encoding="utf-8")
    out = io.StringIO()
    assert stalingrad(["replay", str(path)], out=out) == 0
    assert row["reason"] in out.getvalue()
    played = [a for a in json.loads(path.read_text(encoding="utf-8"))["actions"]
              if a.startswith("play ")]  # fmt: skip
    cards = row["extras"]["cards"]
    assert sorted(a.split()[1] for a in played) == sorted(c for cs in cards.values() for c in cs)
    (cell,) = group([row])
    assert {(c, s) for c, s, k, _ in card_rates(cell) if k} == {
        (c, s) for s, cs in cards.items() for c in cs
    }


def test_bots_registered_for_every_game() -> None:
    calls: list[int] = []

    def first(seed: int) -> Any:
        calls.append(seed)
        return lambda state: state.legal_actions()[0]

    register_bot("first-legal", first)
    with pytest.raises(StudyError, match="already registered"):
        register_bot("first-legal", lambda seed: None)  # type: ignore[arg-type, return-value]
    row = play_job(Job(BRIDGEHEAD, "{}", (("blue", "first-legal"), ("red", "uniform")), 3))
    assert calls == [6]
    assert row["bots"] == {"blue": "first-legal", "red": "uniform"}
    with pytest.raises(StudyError, match=r"choose from .*first-legal.*uniform"):
        StudyGame(name="g", rules=lambda o: None).bot("nobody", 0)  # type: ignore[arg-type, return-value]


class _Towns:
    """A hook a ruleset declares itself (``study_hook``)."""

    def step(self, state: Any, action: Any) -> None:
        pass

    def turn(self, state: Any) -> dict[str, Any]:
        return {"towns": 1}

    def game(self, state: Any) -> dict[str, Any]:
        return {"margin": state.turn}


def _hooked_bridgehead() -> type:
    from examples.classic.rules import Bridgehead

    class Hooked(Bridgehead):
        def study_hook(self) -> _Towns:
            return _Towns()

    return Hooked


HOOKED = _hooked_bridgehead()


def test_a_ruleset_may_declare_its_own_hook() -> None:
    game = StudyGame.of_ruleset(HOOKED)
    assert game.hook is not None
    row = play_job(Job(f"{__name__}:HOOKED", "{}", (("blue", "random"), ("red", "random")), 1))
    assert row["extras"] == {"margin": row["turns"]}
    assert all(t["towns"] == 1 for t in row["per_turn"])
    from examples.classic.rules import Bridgehead

    assert StudyGame.of_ruleset(Bridgehead).hook is None


def test_the_server_opens_a_record_of_its_records_folder(tmp_path: Path) -> None:
    testclient = pytest.importorskip("starlette.testclient")
    from examples.classic.web import WEB

    from hexwar.web.app import create_app

    plan = Plan(BRIDGEHEAD, (Cell({}, ("uniform", "uniform")),), 3)
    rows = list(run_study(plan, InlineBackend(), None, progress=False).rows)
    report(rows, tmp_path / "r.md", replay_url="http://testserver/replay/file")
    (tmp_path / "r" / "secret.json").write_text("{}", encoding="utf-8")
    records = tmp_path / "r" / "records"
    app = create_app({WEB.name: WEB}, tmp_path / "games", hosts={"testserver"}, records=records)
    client = testclient.TestClient(app)
    name = sorted(p.name for p in (tmp_path / "r" / "records").glob("*.json"))[0]
    assert f"(http://testserver/replay/file/{name})" in (tmp_path / "r.md").read_text("utf-8")
    answer = client.get(f"/replay/file/{name}", follow_redirects=False)
    assert answer.status_code == 303
    rid = answer.headers["location"].removeprefix("/r/")
    seed = int(name.removesuffix(".json").split("-s")[1])
    row = next(r for r in rows if r["seed"] == seed)
    view = client.get(f"/api/r/{rid}?step=999999").json()
    assert view["steps"] == row["actions"]
    assert view["outcome"] == [row["winner"], row["reason"]]
    for bad in ("..%2Fsecret.json", "missing.json", ".hidden.json", "x.txt"):
        assert client.get(f"/replay/file/{bad}", follow_redirects=False).status_code == 404
    bare = create_app({WEB.name: WEB}, tmp_path / "games2", hosts={"testserver"})
    assert testclient.TestClient(bare).get(f"/replay/file/{name}").status_code == 404


@pytest.mark.slow
def test_the_report_is_the_same_bytes_from_a_pool_and_a_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from hexwar.study.backends import DaskBackend, PoolBackend

    cells = (Cell({"towns_to_win": 1}, ("uniform", "uniform")), Cell({}, ("uniform", "random")))
    plan = Plan(BRIDGEHEAD, cells, 20)
    made = []
    for name, backend in (("pool", PoolBackend(2)), ("dask", DaskBackend(local=2))):
        results = tmp_path / f"{name}.jsonl"
        run_study(plan, backend, results, progress=False)
        folder = tmp_path / name
        folder.mkdir()
        made.append(write_report(results, folder / "report.md", "study"))
    (pool, *pool_images), (dask, *dask_images) = made
    assert pool.read_bytes() == dask.read_bytes()
    assert [p.name for p in pool_images] == [p.name for p in dask_images]
    for a, b in zip(pool_images, dask_images, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    records = sorted((tmp_path / "pool" / "report" / "records").iterdir())
    assert records
    for a in records:
        assert a.read_bytes() == (tmp_path / "dask" / "report" / "records" / a.name).read_bytes()
