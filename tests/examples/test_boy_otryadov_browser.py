"""«Бой отрядов» played by clicks in headless Chromium (issue 32): the hidden set-up by
buttons, then figures moved by a click on the figure and one on a square, for a few turns
against the random bot. Opt-in: ``HEXWAR_BROWSER=1``; screenshots go to
``HEXWAR_BROWSER_OUT`` (default: the test's ``tmp_path``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from examples.boy_otryadov.web import WEB
from tests.web.browser import (
    By,
    WebDriver,
    board_ready,
    browser,
    buttons,
    click_cell,
    click_token,
    live_server,
    my_turn,
    new_game,
    out,
    session_of,
    until,
    version,
)

__all__ = ["browser", "out"]  # fixtures, imported for pytest

server = live_server(WEB)


def on_top(driver: WebDriver, label: str) -> str:
    """The figure drawn last (on top) on square ``label``."""
    counters = driver.find_elements(By.CSS_SELECTOR, f'g.counter[data-label="{label}"] title')
    return (counters[-1].get_attribute("textContent") or "").split(":")[0] if counters else ""


def button(driver: WebDriver) -> None:
    """One step by buttons: ``done`` if offered, else the first token."""
    tokens = buttons(driver)
    token = "done" if "done" in tokens else tokens[0]
    before = version(driver)
    if not click_token(driver, token):
        return
    until(driver, lambda d: version(d) != before or d.find_element(By.ID, "chosen").text
          != "choose an action:", "the next step")  # fmt: skip


def test_set_up_and_move_figures_by_clicks_against_the_random_bot(
    server: tuple[str, Any], browser: Callable[..., WebDriver], out: Path
) -> None:
    base, app = server
    driver = browser(1400, 1400)
    url = new_game(driver, base, {"blue": "human", "red": "random"}, {"scenario": "skirmish"})
    url = url["blue"]
    session = session_of(app, url)
    state = session.state
    rules = state.ruleset
    driver.get(url)

    # X.2: the set-up behind the screens, by buttons; red's zone is screened
    until(driver, my_turn, "blue to set up")
    until(driver, board_ready, "the board")
    screens = [
        e
        for e in driver.find_elements(By.CSS_SELECTOR, "#board text.marker")
        if "behind the screen" in (e.get_attribute("innerHTML") or "")
    ]
    assert len(screens) == 30
    driver.find_element(By.ID, "board").screenshot(str(out / "boy-setup.png"))
    while not rules.deployment.done(state):
        until(driver, lambda d: my_turn(d) or rules.deployment.done(state), "blue's set-up")
        if my_turn(driver) and not rules.deployment.done(state):
            button(driver)

    moved = 0
    for _ in range(3):  # three of blue's turns: a figure by clicks, then `end`
        until(driver, lambda d: my_turn(d) and board_ready(d), "blue's turn")
        if state.is_terminal():
            break
        # a figure drawn on top of its square (a click there selects the top one)
        uid, label = next(
            (u, at)
            for u in sorted(state.legal_tokens(("move",)))
            if on_top(driver, at := rules.board.label(rules.pieces.where(state, u))) == u
        )
        click_cell(driver, label)
        until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.cell.legal"), "lit")
        lit = {e.get_attribute("data-label")
               for e in driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")}  # fmt: skip
        assert lit == set(state.legal_tokens(("move", uid)))
        driver.find_element(By.ID, "board").screenshot(str(out / f"boy-selected-{moved}.png"))
        target = sorted(lit)[0]
        click_cell(driver, target)
        until(driver, lambda d: "applied: move" in d.find_element(By.ID, "message").text, "move")
        assert rules.board.label(rules.pieces.where(state, uid)) == target
        moved += 1
        while state.current_player() == "blue" and not state.is_terminal() and my_turn(driver):
            if "end" in state.legal_tokens(()):
                before = version(driver)
                assert click_token(driver, "end")
                until(driver, lambda d, v=before: version(d) != v, "the end of the turn")
                break
            button(driver)
    assert moved == 3 or state.is_terminal()
    until(driver, board_ready, "the board")
    driver.find_element(By.ID, "board").screenshot(str(out / "boy-board.png"))
    assert state.turn >= 3 or state.is_terminal()
