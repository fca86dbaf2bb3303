"""The hint button in a real browser (issue 34 acceptance 5): headless Chromium against a
real server (:mod:`tests.web.browser`; opt-in: ``HEXWAR_BROWSER=1``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from examples.classic.web import WEB as BRIDGEHEAD
from tests.web.browser import (
    By,
    Select,
    WebDriver,
    browser,
    live_server,
    out,
    seat_links,
    session_of,
    until,
)

from hexwar.engine.actions import Action

__all__ = ["browser", "out"]  # fixtures, imported for pytest

server = live_server(BRIDGEHEAD)


def answered(driver: WebDriver) -> bool:
    """The hint came (its "suggests" line) or was refused (the message)."""
    box = driver.find_element(By.ID, "hintbox").text
    return "suggests: " in box or bool(driver.find_element(By.ID, "message").text)


def test_the_hint_button_shows_the_search_candidates(
    server: tuple[str, Any], browser: Callable[..., WebDriver], out: Path
) -> None:
    base, app = server
    d = browser()
    d.get(base + "/")
    Select(d.find_element(By.NAME, "seat:red")).select_by_visible_text("search")
    d.find_element(By.CSS_SELECTOR, "form.newgame button").click()
    links = seat_links(d)
    assert set(links) == {"blue"}  # red is the search seat
    d.get(links["blue"])
    until(d, lambda x: "(you)" in x.find_element(By.ID, "status").text, "blue to act")
    hint = d.find_element(By.ID, "hint")
    assert hint.is_displayed()
    hint.click()
    d.save_screenshot(str(out / "search_hint_thinking.png"))
    until(d, answered, "the hint (thought in a bot worker: 100 iterations)")
    assert not d.find_element(By.ID, "message").text
    box = d.find_element(By.ID, "hintbox")
    chosen = box.find_element(By.TAG_NAME, "p").text.split("suggests: ")[1]
    session = session_of(app, links["blue"])
    assert session.state.is_legal(Action.parse(chosen))
    rows = box.find_elements(By.CSS_SELECTOR, "table.hint tr")[1:]
    assert rows
    listed = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
    visits = [int(r.find_elements(By.TAG_NAME, "td")[1].text) for r in rows]
    assert visits == sorted(visits, reverse=True)
    for action in listed:
        assert session.state.is_legal(Action.parse(action)), action
    marked = [r.find_element(By.TAG_NAME, "td").text for r in rows if r.get_attribute("class")]
    notes = box.find_elements(By.CSS_SELECTOR, "p.hintnote")
    if chosen in listed:  # the chosen row is marked, and no note
        assert marked == [chosen]
        assert not notes
    else:  # completed past the search tree: said under the table, no row marked
        assert marked == []
        assert [n.text.split(":")[0] for n in notes] == [chosen]
    d.save_screenshot(str(out / "search_hint.png"))
    # a spectator has no hint button
    d.get(base + "/g/" + session.id)
    until(d, lambda x: x.find_element(By.ID, "status").text, "the spectator's status")
    assert not d.find_element(By.ID, "hint").is_displayed()
