"""«Бой отрядов» played by clicks in headless Chromium (issue 32): the hidden set-up by
buttons, then figures moved by a click on the figure and one on a square, for a few turns
against the random bot. Opt-in: ``HEXWAR_BROWSER=1``; screenshots go to
``HEXWAR_BROWSER_OUT`` (default: the test's ``tmp_path``).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("HEXWAR_BROWSER"):
    pytest.skip("browser tests are opt-in: set HEXWAR_BROWSER=1", allow_module_level=True)

import uvicorn
from examples.boy_otryadov.web import WEB
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from hexwar.web.app import create_app

LINK = re.compile(r"/g/([0-9a-f]{12})/([\w-]+)\?t=([\w-]+)")
WAIT = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    app = create_app({WEB.name: WEB}, tmp_path_factory.mktemp("games"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="wsproto")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def driver() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1400",
                "--disable-dev-shm-usage"):  # fmt: skip
        options.add_argument(arg)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    made = webdriver.Chrome(options=options, service=service)
    yield made
    made.quit()


def until(driver: WebDriver, test: Callable[[WebDriver], Any], what: str) -> Any:
    return WebDriverWait(
        driver, WAIT, poll_frequency=0.05,
        ignored_exceptions=(StaleElementReferenceException, NoSuchElementException),
    ).until(test, what)  # fmt: skip


def version(driver: WebDriver) -> str | None:
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")


def my_turn(driver: WebDriver) -> bool:
    status = driver.find_element(By.ID, "status")
    return status.get_attribute("data-your-turn") == "1" and bool(
        driver.find_elements(By.CSS_SELECTOR, "button.token")
    )


def board_ready(driver: WebDriver) -> bool:
    return driver.find_element(By.ID, "board").get_attribute("data-version") == version(driver)


def click(driver: WebDriver, css: str) -> None:
    el = driver.find_elements(By.CSS_SELECTOR, css)[-1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", el)
    el.click()


def button(driver: WebDriver) -> None:
    """One step by buttons: ``done`` if offered, else the first token."""
    tokens = driver.execute_script(
        "return [...document.querySelectorAll('button.token')].map(b => b.dataset.token)"
    )
    token = "done" if "done" in tokens else tokens[0]
    before = version(driver)
    try:
        driver.find_element(By.CSS_SELECTOR, f'button.token[data-token="{token}"]').click()
    except (StaleElementReferenceException, NoSuchElementException):
        return
    until(driver, lambda d: version(d) != before or d.find_element(By.ID, "chosen").text
          != "choose an action:", "the next step")  # fmt: skip


def test_set_up_and_move_figures_by_clicks_against_the_random_bot(
    server: tuple[str, Any], driver: WebDriver, tmp_path: Path
) -> None:
    out = Path(os.environ.get("HEXWAR_BROWSER_OUT", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    base, app = server
    driver.get(base + "/")
    Select(driver.find_element(By.NAME, "opt:scenario")).select_by_visible_text("skirmish")
    Select(driver.find_element(By.NAME, "seat:blue")).select_by_visible_text("human")
    Select(driver.find_element(By.NAME, "seat:red")).select_by_visible_text("random")
    driver.find_element(By.CSS_SELECTOR, "form.newgame button").click()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "a.seatlink"), "the seat link")
    url = driver.find_element(By.CSS_SELECTOR, "a.seatlink").get_attribute("href") or ""
    session = app.state.server.sessions[LINK.search(url).group(1)]  # type: ignore[union-attr]
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
        uid = sorted(state.legal_tokens(("move",)))[0]
        label = rules.board.label(rules.pieces.where(state, uid))
        click(driver, f'g.counter[data-label="{label}"] > rect:first-of-type')
        until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.cell.legal"), "lit")
        lit = {e.get_attribute("data-label")
               for e in driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")}  # fmt: skip
        assert lit == set(state.legal_tokens(("move", uid)))
        driver.find_element(By.ID, "board").screenshot(str(out / f"boy-selected-{moved}.png"))
        target = sorted(lit)[0]
        click(driver, f'polygon.cell[data-label="{target}"]')
        until(driver, lambda d: "applied: move" in d.find_element(By.ID, "message").text, "move")
        assert rules.board.label(rules.pieces.where(state, uid)) == target
        moved += 1
        while state.current_player() == "blue" and not state.is_terminal() and my_turn(driver):
            if "end" in state.legal_tokens(()):
                before = version(driver)
                driver.find_element(By.CSS_SELECTOR, 'button.token[data-token="end"]').click()
                until(driver, lambda d, v=before: version(d) != v, "the end of the turn")
                break
            button(driver)
    assert moved == 3 or state.is_terminal()
    until(driver, board_ready, "the board")
    driver.find_element(By.ID, "board").screenshot(str(out / "boy-board.png"))
    assert state.turn >= 3 or state.is_terminal()
