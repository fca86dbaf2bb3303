"""The play page in a real browser (issue 15): headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium against a real uvicorn server.

Opt-in (about a minute): ``HEXWAR_BROWSER=1 python -m pytest -n 0 tests/web/test_browser.py``
(:mod:`tests.web.browser`); ``.ci/run`` runs them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from examples.classic.web import WEB as BRIDGEHEAD
from tests.web.browser import (
    By,
    Select,
    WebDriver,
    board_ready,
    browser,
    click_cell,
    click_token,
    live_server,
    my_turn,
    new_game,
    out,
    over,
    play_to_end,
    session_of,
    until,
    version,
)

from hexwar.engine.fileformat import position_digest
from hexwar.web.session import Session
from hexwar_stalingrad.board import where as ground_where
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.web import WEB as STALINGRAD
from hexwar_stalingrad.web import attack_preview

__all__ = ["browser", "out"]  # fixtures, imported for pytest

server = live_server(STALINGRAD, BRIDGEHEAD)
SHORT = {"length": "short"}


def bots_game(srv: Any, seed: int) -> Session:
    """A short game of two heuristic bots on the server ``srv`` (not started)."""
    session, _ = Session.create(
        STALINGRAD,
        SHORT,
        {"rkka": "heuristic", "wehrmacht": "heuristic"},
        seed=seed,
        directory=srv.directory,
    )
    srv.sessions[session.id] = session
    return session


def test_a_short_game_played_by_clicks_against_the_heuristic_bot(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    base, app = server
    driver = browser()
    urls = new_game(driver, base, {"rkka": "human", "wehrmacht": "heuristic"}, SHORT)
    assert sorted(urls) == ["rkka"]
    driver.get(urls["rkka"])
    session = session_of(app, urls["rkka"])
    until(driver, my_turn, "RKKA to act")
    until(driver, board_ready, "the board drawn")
    driver.find_element(By.ID, "board").screenshot(str(out / "game-board-start.png"))
    state = session.state
    _to_rkka_movement(driver, state)  # the card phases: one button each

    # click a unit: its legal hexes light up, exactly the engine's tokens
    unit = state.legal_tokens(("move",))[0]
    t0 = time.perf_counter()
    click_cell(driver, ground_where(state, unit))
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.cell.legal"), "highlight")
    latency = time.perf_counter() - t0
    lit = {e.get_attribute("data-label") for e in
           driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")}  # fmt: skip
    assert lit == set(state.legal_tokens(("move", unit))), "highlight = legal_tokens"
    print(f"click on a unit -> highlighted hexes in the browser: {latency * 1000:.0f} ms")
    driver.save_screenshot(str(out / "page-selected.png"))

    # a legal hex: the unit moves there
    target = sorted(lit)[0]
    click_cell(driver, target)
    until(driver, lambda d: "applied: move" in d.find_element(By.ID, "message").text, "the move")
    assert ground_where(state, unit) == target

    # on to the end: "done" or "end" when offered, else the first legal token, by buttons
    clicks = play_to_end(driver, 2000)
    assert state.is_terminal()
    until(driver, lambda d: "result:" in d.find_element(By.ID, "status").text, "the result")
    until(driver, lambda d: "result:" in d.find_element(By.CSS_SELECTOR, "#board svg text.title")
          .text, "the final board (drawn a moment after)")  # fmt: skip
    title = driver.find_element(By.CSS_SELECTOR, "#board svg text.title").text
    assert "result:" in title
    assert state.outcome is not None
    assert state.outcome.reason in title
    driver.find_element(By.ID, "board").screenshot(str(out / "game-board-end.png"))
    driver.save_screenshot(str(out / "game-page-end.png"))
    print(f"game over after {clicks} button clicks: {state.outcome}")


def _to_rkka_movement(driver: WebDriver, state: Any) -> None:
    """End RKKA's phases by buttons until its movement phase."""
    until(driver, my_turn, "RKKA to act")
    while state.phase != "movement":
        before = version(driver)
        assert click_token(driver, "end")  # one click: nothing to confirm
        until(driver, lambda d, v=before: my_turn(d) and version(d) != v and d.find_element(
              By.ID, "prefix").text.startswith("choose"), "the next decision")  # fmt: skip


def board_shots(driver: WebDriver, out: Path, name: str) -> None:
    """The board at the page's zoom (counters legible) around Stalingrad, and the whole
    board with its legend (zoomed out): ``NAME-detail.png`` and ``NAME.png``."""
    driver.execute_script(
        "const t = [...document.querySelectorAll('#board g.names text')]"
        ".find(e => e.textContent.startsWith('Stalingrad centre'));"
        "if (t) t.scrollIntoView({block: 'center', inline: 'center'});"
    )
    board = driver.find_element(By.ID, "board")
    board.screenshot(str(out / f"{name}-detail.png"))
    driver.execute_script("document.getElementById('board').style.setProperty('--zoom', '1')")
    board.screenshot(str(out / f"{name}.png"))
    driver.execute_script("document.getElementById('board').style.setProperty('--zoom', '2')")


def test_an_illegal_click_shows_the_reason_and_changes_nothing(
    server: tuple[str, Any], browser: Callable[[], WebDriver]
) -> None:
    base, app = server
    driver = browser()
    urls = new_game(driver, base, {"rkka": "human", "wehrmacht": "heuristic"}, SHORT)
    driver.get(urls["rkka"])
    session = session_of(app, urls["rkka"])
    state = session.state
    _to_rkka_movement(driver, state)
    unit = state.legal_tokens(("move",))[0]
    click_cell(driver, ground_where(state, unit))
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.cell.legal"), "highlight")
    lit = {e.get_attribute("data-label") for e in
           driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")}  # fmt: skip
    before, n = position_digest(state), len(state.history)
    occupied = session.units_at("rkka")
    game_map = STALINGRAD.board(state, "rkka").game_map  # type: ignore[misc]
    labels = [game_map.label(c) for c in game_map.indexed_cells()]
    far = next(lab for lab in labels if lab not in lit and lab not in occupied)
    click_cell(driver, far)
    until(driver, lambda d: "S6" in d.find_element(By.ID, "message").text, "the refusal")
    message = driver.find_element(By.ID, "message")
    assert "refused" in (message.get_attribute("class") or "")
    assert "409" in message.text
    assert position_digest(state) == before
    assert len(state.history) == n
    # the choice is kept: the unit's hexes are still lit, and a legal hex still moves it
    still = {e.get_attribute("data-label") for e in
             driver.find_elements(By.CSS_SELECTOR, "polygon.cell.legal")}  # fmt: skip
    assert still == lit


def test_a_bots_game_is_watched_live(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    """A spectator's page follows a game of two heuristic bots through its WebSocket
    (no polling) to the end; the board at start and end is written as a screenshot."""
    base, app = server
    srv = app.state.server
    session = bots_game(srv, 9)
    session.pace = 1.0  # slow at first: the start is on the page for the screenshot
    driver = browser()
    driver.get(f"{base}/g/{session.id}")  # the page's first request sets the bots going
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live")
          == "1", "the live connection")  # fmt: skip
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board")
    board_shots(driver, out, "board-start")
    session.pace = 0.002
    deadline = time.monotonic() + 240
    while not session.state.is_terminal():
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.5)
    until(driver, over, "the end, pushed")
    assert session.state.outcome is not None
    pushes = int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-pushes") or 0)
    assert pushes >= 3, "the page was sent the game as it went"
    shown = version(driver)
    assert shown == str(len(session.state.history))
    title = driver.find_element(By.CSS_SELECTOR, "#board svg text.title").text
    assert session.state.outcome.reason in title
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg g.legend")
    assert driver.find_elements(By.CSS_SELECTOR, "#board svg g.labels text")
    board_shots(driver, out, "board-end")
    driver.save_screenshot(str(out / "page-end.png"))
    for name in ("board-start", "board-start-detail", "board-end", "board-end-detail"):
        assert (out / f"{name}.png").stat().st_size > 10_000, name
    print(f"watched live: {pushes} pushes, {shown} actions, {session.state.outcome}")


def test_two_seats_see_their_own_hands_only(
    server: tuple[str, Any], browser: Callable[[], WebDriver]
) -> None:
    base, app = server
    first = browser()
    urls = new_game(first, base, {"rkka": "human", "wehrmacht": "human"}, SHORT)
    second = browser()  # another browser: another profile, no shared storage
    pages = {"rkka": first, "wehrmacht": second}
    for seat, driver in pages.items():
        driver.get(urls[seat])
        until(driver, lambda d: d.find_element(By.ID, "secrets").text, "the secrets panel")
    state = session_of(app, urls["rkka"]).state
    for seat, other in (("rkka", "wehrmacht"), ("wehrmacht", "rkka")):
        mine = state.get("cards", f"hand:{seat}")
        theirs = state.get("cards", f"hand:{other}")
        assert isinstance(mine, tuple)
        assert isinstance(theirs, tuple)
        assert mine
        assert theirs
        shown = pages[seat].find_element(By.ID, "secrets").text
        assert all(card in shown for card in mine)
        source = pages[seat].page_source
        assert not any(card in source for card in theirs)
    # one seat's token cannot act for the other, from inside its own page
    code = second.execute_script(
        "const t = new URLSearchParams(location.search).get('t');"
        "return fetch(location.pathname.replace(/\\/g\\/(\\w+)\\/.*/, '/api/g/$1/act'), {"
        "method: 'POST', headers: {'Content-Type': 'application/json', 'X-Hexwar-Token': t},"
        "body: JSON.stringify({seat: 'rkka', tokens: ['end']})}).then(r => r.status);"
    )
    assert code == 403


def test_the_replay_viewer_steps_through_a_record(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    base, app = server
    srv = app.state.server
    session = bots_game(srv, 7)
    session.advance()
    state = session.state
    assert state.outcome is not None
    driver = browser()
    driver.get(f"{base}/g/{session.id}")  # the spectator's page of the finished game
    until(driver, over, "the finished game")
    driver.find_element(By.ID, "replay").click()
    until(driver, lambda d: d.find_elements(By.ID, "replayapp"), "the replay page")
    steps = len(state.history)
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step")
          == str(steps), "the last step")  # fmt: skip
    status = driver.find_element(By.ID, "status").text
    assert state.outcome.reason in status
    assert "game over" in status
    final = driver.find_element(By.ID, "board").get_attribute("innerHTML")
    recorded = session.board_svg(None)
    assert final
    assert recorded
    assert final.count('class="counter') == recorded.count('class="counter')
    driver.find_element(By.ID, "board").screenshot(str(out / "replay-end.png"))
    driver.find_element(By.ID, "prev").click()
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step")
          == str(steps - 1), "one step back")  # fmt: skip
    Select(driver.find_element(By.ID, "turn")).select_by_visible_text("turn 2")
    until(driver, lambda d: "turn 2" in d.find_element(By.ID, "status").text, "turn 2")
    driver.find_element(By.ID, "first").click()
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step")
          == "0", "the start")  # fmt: skip
    assert driver.find_elements(By.CSS_SELECTOR, "#log li") == []


def _lone_attack(session: Session) -> tuple[str, str] | None:
    """A defender and an attacker that may attack it alone, with nobody else to add."""
    state = session.state
    if state.phase != "attack" or state.current_player() != "rkka" or state.pending:
        return None
    for d in state.legal_tokens(("attack",)):
        for a in state.legal_tokens(("attack", d)):
            if state.legal_tokens(("attack", d, a)) == ("done",):
                return d, a
    return None


def test_an_attack_shows_its_odds_asks_to_confirm_and_the_roll_shows_its_result(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    """Issue 28: a click on a lone attacker shows the odds and waits for *do it*; the dice
    panel then shows the roll and the CRT's result; the status line speaks words."""
    base, app = server
    session, tokens = Session.create(STALINGRAD, {"length": "short"}, {"wehrmacht": "heuristic"},
                                     seed=2, directory=app.state.server.directory)  # fmt: skip
    plan = session.authorise("rkka", tokens["rkka"])
    chooser = HeuristicBot(3)
    session.advance()
    while (found := _lone_attack(session)) is None:
        action = chooser(session.state)
        session.act(plan, [action.kind, *action.args])
        session.advance()
        assert not session.state.is_terminal()
    app.state.server.sessions[session.id] = session
    defender, attacker = found
    state = session.state
    driver = browser()
    driver.get(f"{base}/g/{session.id}/rkka?t={tokens['rkka']}")
    until(driver, my_turn, "RKKA to act")
    n = len(state.history)
    click_cell(driver, ground_where(state, defender))
    until(driver, lambda d: d.find_element(By.ID, "chosen").text == f"attack {defender}",
          "the defender chosen")  # fmt: skip
    click_cell(driver, ground_where(state, attacker))
    until(driver, lambda d: d.find_element(By.ID, "preview").text, "the odds")
    odds = driver.find_element(By.ID, "preview").text
    assert odds == attack_preview(state, ("attack", defender, attacker))
    assert odds.startswith("odds ")
    assert "check the odds" in driver.find_element(By.ID, "message").text
    assert len(state.history) == n, "nothing applied before the confirm"
    driver.save_screenshot(str(out / "attack-confirm.png"))
    assert click_token(driver, "done")
    until(driver, lambda d: f"← attack {defender} {attacker}" in d.find_element(By.ID, "dice").text,
          "the roll and its result")  # fmt: skip
    dice = driver.find_element(By.ID, "dice").text
    assert state.history[n + 1].kind == "roll"
    assert f"roll {state.history[n + 1].args[0]} → {session.results[n + 1]}" in dice
    assert f"attack {defender} {attacker}" in dice
    status = driver.find_element(By.ID, "status").text
    assert "_" not in status, status
    driver.save_screenshot(str(out / "attack-rolled.png"))


def test_the_board_carries_the_games_markers_and_fits_a_small_map(
    server: tuple[str, Any], browser: Callable[[], WebDriver], out: Path
) -> None:
    """Bridgehead's towns carry a star in the colour of their holder (``BoardView.markers``);
    the default zoom shows its whole small map and the legend."""
    base, app = server
    session, tokens = Session.create(BRIDGEHEAD, {}, {}, directory=app.state.server.directory)
    app.state.server.sessions[session.id] = session
    driver = browser()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1,
                            "mobile": False})  # fmt: skip
    driver.get(f"{base}/g/{session.id}/blue?t={tokens['blue']}")
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg text.marker"), "markers")
    stars = driver.find_elements(By.CSS_SELECTOR, "#board svg text.marker")
    assert [s.text for s in stars] == ["★"] * 3
    assert {s.get_attribute("data-label") for s in stars} == {"0602", "0704", "0806"}
    fits = driver.execute_script(
        "const b = document.getElementById('board').getBoundingClientRect();"
        "const s = document.querySelector('#board svg').getBoundingClientRect();"
        "const l = document.querySelector('#board svg g.legend').getBoundingClientRect();"
        "return [s.width <= b.width + 1, s.height <= b.height + 1, l.right <= b.right + 1,"
        " l.bottom <= b.bottom + 1]"
    )
    assert fits == [True, True, True, True]
    driver.save_screenshot(str(out / "bridgehead-markers.png"))
