"""Triumph & Glory on its drawn board in headless Chromium (issue 33): the French, by clicks,
give orders, fire, turn and move through a few activations against the random bot.

Opt-in: ``HEXWAR_BROWSER=1 python -m pytest -n 0 tests/web/test_browser_triumph.py``
(:mod:`tests.web.browser`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from examples.triumph_and_glory.rules import ACT, stack, where
from examples.triumph_and_glory.web import WEB
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
    play_to_end,
    session_of,
    until,
    version,
)

__all__ = ["browser", "out"]  # fixtures, imported for pytest

server = live_server(WEB)


def choose(driver: WebDriver, *tokens: str) -> None:
    """Click the buttons of ``tokens`` (each once it is there, then gone)."""
    v = version(driver)
    for token in tokens:
        until(driver, lambda d, t=token: click_token(d, t), f"the button {token}")
        until(driver, lambda d, t=token: version(d) != v or t not in buttons(d), "the click")


def press(driver: WebDriver, *tokens: str) -> None:
    """Build an action by its buttons, then apply it (``do it`` if asked)."""
    v = version(driver)
    choose(driver, *tokens)
    until(driver, lambda d: version(d) != v or "done" in buttons(d), "the action")
    if version(driver) == v:
        assert click_token(driver, "done")
    until(driver, lambda d: version(d) != v, "the action applied")


def test_activations_by_clicks_on_the_drawn_board(
    server: tuple[str, Any], browser: Callable[..., WebDriver], out: Path
) -> None:
    base, app = server
    driver = browser()
    url = new_game(driver, base, {"french": "human", "russian": "random"})["french"]
    driver.get(url)
    state = session_of(app, url).state
    until(driver, my_turn, "the French to give orders")
    until(driver, board_ready, "the board drawn")
    driver.find_element(By.ID, "board").screenshot(str(out / "tg-board-start.png"))
    svg = driver.find_element(By.CSS_SELECTOR, "#board svg")
    assert svg.find_elements(By.CSS_SELECTOR, "polygon.facing")  # 6.11: facing wedges
    assert "N" in [m.text for m in svg.find_elements(By.CSS_SELECTOR, "text.marker")]
    press(driver, "orders", "I", "V")  # 5.21-5.22: Napoleon's two orders

    moved, fired, turned, activations = [], [], [], set()
    while len(activations) < 3 and state.turn == 1:
        until(driver, lambda d: my_turn(d) or state.turn > 1, "the French to act")
        if state.turn > 1:
            break
        tokens = buttons(driver)
        if ACT.active(state) and state.phase in ("fire", "move"):
            activations.add(ACT.token(state) + str(len(state.cursor.tokens)))
        if state.phase == "fire" and "fire" in tokens:  # 3.0 C.3.a: click the guns' hex
            gun, target = state.legal_actions()[1].args  # [0] is `end`
            choose(driver, "fire", gun)
            v = version(driver)
            click_cell(driver, target)
            until(driver, lambda d, v=v: version(d) != v, "the fire")
            fired.append(gun)
            continue
        if state.phase == "move" and "move" in tokens and len(moved) <= len(activations):
            # a unit on top of its stack, clicked on the board, then a legal hex
            unit = next(
                u for u in state.legal_tokens(("move",)) if stack(state, where(state, u))[0] == u
            )
            frm = state.ruleset.map.label(where(state, unit))
            click_cell(driver, frm)
            until(
                driver,
                lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.cell.legal"),
                "lit hexes",
            )
            lit = {
                e.get_attribute("data-label")
                for e in driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")
            }
            assert lit == set(state.legal_tokens(("move", unit)))
            target = sorted(lit)[-1]
            click_cell(driver, target)
            at = state.ruleset.map.label
            until(driver, lambda d, u=unit, t=target, at=at: at(where(state, u)) == t, "the move")
            until(
                driver, lambda d: "applied: move" in d.find_element(By.ID, "message").text, "said"
            )
            moved.append(unit)
            if "face" in buttons(driver) and unit in state.legal_tokens(("face",)):  # 6.12
                corner = state.legal_tokens(("face", unit))[0]
                press(driver, "face", unit, corner)
                assert str(state.get("facing", unit)) == corner
                turned.append(unit)
                driver.find_element(By.ID, "board").screenshot(
                    str(out / f"tg-board-moved-{len(moved)}.png")
                )
            continue
        choice = "end" if "end" in tokens else tokens[0]
        if choice == "end":
            v = version(driver)
            until(driver, lambda d: click_token(d, "end"), "the end button")
            until(driver, lambda d, v=v: version(d) != v, "the end of a phase")
        else:
            first = state.legal_actions()[0]
            press(driver, first.kind, *first.args)
    driver.save_screenshot(str(out / "tg-page.png"))
    driver.find_element(By.ID, "board").screenshot(str(out / "tg-board-after.png"))
    assert len(activations) >= 2
    assert moved
    assert turned
    print(f"activations {sorted(activations)}, moved {moved}, fired {fired}, turned {turned}")

    # on to the end by buttons: "done" or "end" when offered, else the first token
    clicks = play_to_end(driver, 3000)
    assert state.is_terminal()
    until(driver, lambda d: "result:" in d.find_element(By.ID, "status").text, "the result")
    driver.find_element(By.ID, "board").screenshot(str(out / "tg-board-end.png"))
    print(f"game over after {clicks} more button clicks: {state.outcome}")
