"""The hint button in a real browser (issue 34 acceptance 5): headless Chromium against a
real server, as ``tests/web/test_browser.py`` (opt-in: ``HEXWAR_BROWSER=1``; screenshots
go to ``HEXWAR_BROWSER_OUT``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("HEXWAR_BROWSER"):
    pytest.skip("browser tests are opt-in: set HEXWAR_BROWSER=1", allow_module_level=True)

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait
from tests.web.test_browser import LINK, browser, out, server, session_of, until

from hexwar.engine.actions import Action

__all__ = ["browser", "out", "server"]  # the fixtures, imported for pytest

#: Seconds the test waits for a hint (never reached when it works).
HINT_WAIT = 300.0


def test_the_hint_button_shows_the_search_candidates(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    base, app = server
    d = browser()
    d.get(base + "/")
    form = next(
        f
        for f in d.find_elements(By.CSS_SELECTOR, "form.newgame")
        if f.find_element(By.NAME, "game").get_attribute("value") == "bridgehead"
    )
    Select(form.find_element(By.NAME, "seat:red")).select_by_visible_text("search")
    form.find_element(By.CSS_SELECTOR, "button").click()
    until(d, lambda x: x.find_elements(By.CSS_SELECTOR, "a.seatlink"), "the seat links")
    links = {
        LINK.search(a.get_attribute("href") or "").group(2): a.get_attribute("href")  # type: ignore[union-attr]
        for a in d.find_elements(By.CSS_SELECTOR, "a.seatlink")
    }
    assert set(links) == {"blue"}  # red is the search seat
    d.get(links["blue"])
    until(d, lambda x: "(you)" in x.find_element(By.ID, "status").text, "blue to act")
    hint = d.find_element(By.ID, "hint")
    assert hint.is_displayed()
    hint.click()
    d.save_screenshot(str(out / "search_hint_thinking.png"))
    # the search thinks in a bot worker (100 iterations): up to HINT_WAIT on a busy machine
    WebDriverWait(d, HINT_WAIT, poll_frequency=0.1).until(
        lambda x: (
            x.find_elements(By.CSS_SELECTOR, "table.hint tr.chosen")
            or x.find_element(By.ID, "message").text
        ),
        "the hint",
    )
    assert not d.find_element(By.ID, "message").text
    box = d.find_element(By.ID, "hintbox")
    rows = box.find_elements(By.CSS_SELECTOR, "table.hint tr")[1:]
    assert rows
    chosen = box.find_element(By.CSS_SELECTOR, "tr.chosen td").text
    session = session_of(app, links["blue"])
    assert session.state.is_legal(Action.parse(chosen))
    visits = [int(r.find_elements(By.TAG_NAME, "td")[1].text) for r in rows]
    assert visits == sorted(visits, reverse=True)
    assert "suggests: " + chosen in box.text
    d.save_screenshot(str(out / "search_hint.png"))
    # a spectator has no hint button
    d.get(base + "/g/" + session.id)
    until(d, lambda x: x.find_element(By.ID, "status").text, "the spectator's status")
    assert not d.find_element(By.ID, "hint").is_displayed()
