"""What the real-browser tests share: the opt-in skip, a live uvicorn server in a thread,
headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium, and
the page helpers (waits, clicks, the seat links).

Importing this module skips the importing test module unless ``HEXWAR_BROWSER=1`` (the one
place of that opt-in), before Selenium is imported: the test modules take Selenium's names
from here. Screenshots go to ``HEXWAR_BROWSER_OUT`` (default: the test's ``tmp_path``).
Every wait is bounded (:data:`WAIT`).
"""

from __future__ import annotations

import os

import pytest

if not os.environ.get("HEXWAR_BROWSER"):
    pytest.skip("browser tests are opt-in: set HEXWAR_BROWSER=1", allow_module_level=True)

import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from hexwar.web.app import create_app
from hexwar.web.games import WebGame
from hexwar.web.session import Session

__all__ = [
    "LINK",
    "WAIT",
    "By",
    "Select",
    "WebDriver",
    "WebDriverWait",
    "board_ready",
    "browser",
    "buttons",
    "chrome",
    "click_cell",
    "click_token",
    "free_port",
    "live_server",
    "my_turn",
    "new_game",
    "out",
    "over",
    "play_to_end",
    "seat_links",
    "serve",
    "session_of",
    "stepped",
    "until",
    "version",
]

#: A seat's link: the game's id, the seat, its token.
LINK = re.compile(r"/g/([0-9a-f]{12})/([\w-]+)\?t=([\w-]+)")
#: Seconds any one wait of a browser test may take.
WAIT = 60.0


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(app: Any, port: int | None = None) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on ``port`` (a free one if ``None``): its base
    URL, until the block ends."""
    port = free_port() if port is None else port
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="wsproto")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + WAIT
        while not srv.started:
            assert thread.is_alive(), "the server stopped while starting"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


def live_server(*games: WebGame) -> Any:
    """A module-scoped fixture: ``(base URL, app)`` of a server offering ``games``."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
        app = create_app({g.name: g for g in games}, tmp_path_factory.mktemp("games"))
        with serve(app) as base:
            yield base, app

    return server


def chrome(width: int = 1600, height: int = 1100) -> WebDriver:
    """A headless Chromium of that window size."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                f"--window-size={width},{height}", "--disable-dev-shm-usage"):  # fmt: skip
        options.add_argument(arg)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture
def browser() -> Iterator[Callable[..., WebDriver]]:
    """Make browsers (``browser(width, height)``); each is closed after the test."""
    made: list[WebDriver] = []

    def make(width: int = 1600, height: int = 1100) -> WebDriver:
        made.append(chrome(width, height))
        return made[-1]

    yield make
    for d in made:
        d.quit()


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """The screenshots' folder: ``HEXWAR_BROWSER_OUT``, else the test's ``tmp_path``."""
    folder = Path(os.environ.get("HEXWAR_BROWSER_OUT", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def until(
    driver: WebDriver, test: Callable[[WebDriver], Any], what: str, seconds: float = WAIT
) -> Any:
    """``test``'s first true answer, tried every 50 ms for ``seconds`` (then a
    ``TimeoutException`` naming ``what``)."""
    return WebDriverWait(
        driver,
        seconds,
        poll_frequency=0.05,
        ignored_exceptions=(StaleElementReferenceException, NoSuchElementException),
    ).until(test, what)


def seat_links(driver: WebDriver) -> dict[str, str]:
    """The seat links the new-game page answered, by seat."""
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "a.seatlink"), "the seat links")
    links = {}
    for a in driver.find_elements(By.CSS_SELECTOR, "a.seatlink"):
        href = a.get_attribute("href") or ""
        found = LINK.search(href)
        assert found, href
        links[found.group(2)] = href
    return links


def new_game(
    driver: WebDriver, base: str, players: Mapping[str, str], options: Mapping[str, str] = {}
) -> dict[str, str]:
    """Fill the first new-game form on ``/`` (``options`` by their visible text, then the
    seats' players); the seat URLs from the page it answers."""
    driver.get(base + "/")
    for name, value in options.items():
        Select(driver.find_element(By.NAME, f"opt:{name}")).select_by_visible_text(value)
    for seat, player in players.items():
        Select(driver.find_element(By.NAME, f"seat:{seat}")).select_by_visible_text(player)
    driver.find_element(By.CSS_SELECTOR, "form.newgame button").click()
    return seat_links(driver)


def session_of(app: Any, url: str) -> Session:
    """The server's session of a seat's URL."""
    found = LINK.search(url)
    assert found, url
    session: Session = app.state.server.sessions[found.group(1)]
    return session


def version(driver: WebDriver) -> str | None:
    """The number of actions of the position the page shows."""
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-version")


def buttons(driver: WebDriver) -> list[str]:
    """The tokens of the page's buttons."""
    return driver.execute_script(  # type: ignore[no-any-return]
        "return [...document.querySelectorAll('button.token')].map(b => b.dataset.token)"
    )


def my_turn(driver: WebDriver) -> bool:
    status = driver.find_element(By.ID, "status")
    return status.get_attribute("data-your-turn") == "1" and bool(
        driver.find_elements(By.CSS_SELECTOR, "button.token")
    )


def over(driver: WebDriver) -> bool:
    return driver.find_element(By.ID, "status").get_attribute("data-over") == "1"


def board_ready(driver: WebDriver) -> bool:
    """The board of the position shown is drawn (it comes a moment after the rest)."""
    return driver.find_element(By.ID, "board").get_attribute("data-version") == version(driver)


def click_token(driver: WebDriver, token: str) -> bool:
    """Click the button of ``token``; ``False`` if the page redrew its buttons meanwhile."""
    try:
        driver.find_element(By.CSS_SELECTOR, f'button.token[data-token="{token}"]').click()
    except (StaleElementReferenceException, NoSuchElementException):
        return False
    return True


def click_cell(driver: WebDriver, label: str) -> None:
    """A click on hex ``label``: on its top counter if one stands there, else the hex
    (once the board of the position shown is drawn)."""
    until(driver, board_ready, "the board")
    frame = f'g.counter[data-label="{label}"] > rect:first-of-type'
    found = driver.find_elements(By.CSS_SELECTOR, frame)
    el = found[-1] if found else driver.find_element(
        By.CSS_SELECTOR, f'polygon.cell[data-label="{label}"]')  # fmt: skip
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", el)
    el.click()


def stepped(driver: WebDriver, before: str | None, choice: str) -> bool:
    """After a click on ``choice``: the action applied (the page's version moved on from
    ``before``), the game over, or the next token offered."""
    if version(driver) != before or over(driver):
        return True
    return choice != "done" and driver.find_element(By.ID, "chosen").text != "choose an action:"


def play_to_end(driver: WebDriver, limit: int) -> int:
    """Play the page's seat to the game's end by buttons: ``done`` when offered, else
    ``end``, else the first token; the clicks made (at most ``limit``)."""
    clicks = 0
    while not over(driver):
        until(driver, lambda d: over(d) or my_turn(d), "our turn or the end")
        if over(driver):
            break
        tokens = buttons(driver)
        if not tokens:
            continue
        choice = "done" if "done" in tokens else "end" if "end" in tokens else tokens[0]
        before = version(driver)
        if not click_token(driver, choice):
            continue
        clicks += 1
        until(driver, lambda d, v=before, c=choice: stepped(d, v, c), "the next step")
        assert clicks < limit, f"no end after {limit} clicks"
    return clicks
