"""A study report's replay links in a real browser (issue 29): a row of the report's games
table opens that very game on the replay page of a server started with the report's
records folder (``serve --records``). Headless Chromium driven by Selenium against a real
uvicorn server, as ``tests/web/test_browser.py``.

Opt-in: ``HEXWAR_BROWSER=1 python -m pytest -n 0 tests/web/test_study_browser.py``
(:mod:`tests.web.browser`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.web.browser import By, WebDriver, browser, free_port, out, serve, until

from hexwar.study import Cell, Plan, run_study
from hexwar.study.backends import InlineBackend
from hexwar.study.report import report
from hexwar.web.app import create_app
from hexwar_stalingrad.web import WEB as STALINGRAD

__all__ = ["browser", "out"]  # fixtures, imported for pytest

#: A games-table row of the report: result, last turn, count, then its links.
ROW = re.compile(
    r"^\| (?P<cell>[^|]+) \| (?P<result>[^|]+) \| (?P<turn>\d+) \| \d+ \| "
    r"\[seed (?P<seed>\d+)\]\((?P<record>[^)]+)\) \(\[replay\]\((?P<url>[^)]+)\)\)",
    re.M,
)


def test_a_report_rows_replay_link_opens_that_game(
    tmp_path: Path, browser: Callable[..., WebDriver], out: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    plan = Plan(
        "hexwar_stalingrad.study:GAME", (Cell({"length": "short"}, ("random", "random")),), 4
    )
    rows = run_study(plan, InlineBackend(), None, progress=False).rows
    out = tmp_path / "report.md"
    report(list(rows), out, replay_url=f"{base}/replay/file")
    text = out.read_text(encoding="utf-8")
    found = [m.groupdict() for m in ROW.finditer(text)]
    assert len(found) >= 1
    assert sum(int(m) for m in re.findall(r"\| (\d+) \| \[seed", text)) == 4  # every game counted
    link = found[-1]
    row = next(r for r in rows if r["seed"] == int(link["seed"]))
    assert link["result"] == (f"{row['winner']} wins" if row["winner"] else "no winner")
    assert int(link["turn"]) == row["turns"]
    assert (tmp_path / link["record"]).is_file()  # the record beside the report

    app = create_app({STALINGRAD.name: STALINGRAD}, tmp_path / "games",
                     records=tmp_path / "report" / "records")  # fmt: skip
    driver = browser()
    with serve(app, port):
        driver.get(link["url"])  # the row's link, as a click on it in the rendered report
        until(
            driver,
            lambda d: (
                d.find_element(By.TAG_NAME, "body").get_attribute("data-step")
                == str(row["actions"])
            ),
            "the replay page at the game's last action",
        )
        assert re.search(r"/r/[0-9a-f]{12}$", driver.current_url)
        status = driver.find_element(By.ID, "status").text
        assert f"turn {row['turns']}" in status
        assert row["reason"] in status
        assert f"result: {row['winner'] or 'draw'}" in status
        assert driver.find_element(By.ID, "stepno").text == (
            f"action {row['actions']} of {row['actions']}"
        )
        driver.save_screenshot(str(out / "study-replay-link.png"))
        (tmp_path / "report" / "outside.json").write_text(
            (tmp_path / link["record"]).read_text(encoding="utf-8"), encoding="utf-8"
        )
        for name in ("..%2Foutside.json", "missing.json"):  # only files of the folder
            driver.get(f"{base}/replay/file/{name}")
            assert "/r/" not in driver.current_url
            assert "replayapp" not in driver.page_source
