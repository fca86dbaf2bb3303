"""Live pages and the board's controls (issue 15): a WebSocket pushes every change to every
page of a game; every decision of «Сталинград» can be made by clicks on the board (the
hex, a unit on it), attackers toggle on and off with the odds line following, and the
dice are shown as rolled."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.web.test_server import make_client, new_game, session_of

from hexwar.engine.records import position_digest
from hexwar.web.seats import SeatPlan
from hexwar.web.session import Session
from hexwar_stalingrad.board import static
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.web import WEB, attack_preview


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with make_client({WEB.name: WEB}, tmp_path) as made:
            yield made


def test_every_page_of_a_game_is_pushed_each_change(client: TestClient) -> None:
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    session = session_of(client, gid)
    session.advance()  # the deal (chance)
    with (
        client.websocket_connect(f"/ws/g/{gid}") as watcher,
        client.websocket_connect(f"/ws/g/{gid}") as rkka,
    ):
        watcher.send_json({})
        rkka.send_json({"seat": "rkka", "token": tokens["rkka"]})
        first = rkka.receive_json()
        seen = watcher.receive_json()
        assert first["seat"] == "rkka"
        assert first["secrets"]["cards"]["hand:rkka"]
        assert seen["secrets"] == {}
        assert first["version"] == seen["version"] == len(session.state.history)
        side = session.state.current_player()
        seat = "rkka" if side == "rkka" else "wehrmacht"
        h = {"x-hexwar-token": tokens[seat]}
        r = client.post(f"/api/g/{gid}/act", json={"seat": seat, "tokens": ["end"]}, headers=h)
        assert r.status_code == 200, r.text
        n = r.json()["version"]
        for ws in (rkka, watcher):
            while (got := ws.receive_json())["version"] < n:
                pass
            assert got["version"] == n
            assert got["log"][-1][1] == "end"


def test_a_wrong_token_on_the_socket_is_refused(client: TestClient) -> None:
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    with client.websocket_connect(f"/ws/g/{gid}") as ws:
        ws.send_json({"seat": "rkka", "token": tokens["wehrmacht"]})
        assert ws.receive_json()["error"] == "wrong or missing token for seat rkka"
    with client.websocket_connect("/ws/g/000000000000") as ws:
        assert ws.receive_json()["error"] == "no such game on this server"


def _position_of(session: Session) -> dict[str, str]:
    """Unit token -> the hex label it is drawn on (as RKKA sees the board)."""
    return {u: lab for lab, us in session.units_at("rkka").items() for u in us}


def _by_clicks(
    session: Session, plan: SeatPlan, tokens: tuple[str, ...], kinds: Counter[str]
) -> list[str]:
    """Build ``tokens`` as a player would: a click on the hex for every token that is a
    hex or a unit on the board, a button for the others; ``kinds`` counts the actions
    whose every board token was a click. The prefix built."""
    game_map = WEB.board(session.state, "rkka").game_map  # type: ignore[misc]
    labels = {game_map.label(c) for c in game_map.indexed_cells()}
    prefix: list[str] = []
    clicked = True
    for i, token in enumerate(tokens):
        at = _position_of(session)
        where = token if token in labels else at.get(token)
        if where is not None:
            got = session.click(plan, prefix if i else [], where)
            if list(got) == [*prefix, token]:
                prefix.append(token)
                continue
            clicked = False
        assert token in session.tokens(plan, prefix), (prefix, token)
        prefix.append(token)
    if clicked:
        kinds[tokens[0]] += 1
    return prefix


def _play_by_clicks(last_turn: int) -> Counter[str]:
    """RKKA (the heuristic bot's choices) played through clicks against the heuristic
    Wehrmacht up to the end of turn ``last_turn`` (or the game); the kinds clicked."""
    session, tokens = Session.create(WEB, {"length": "short"}, {"wehrmacht": "heuristic"}, seed=5)
    plan = session.authorise("rkka", tokens["rkka"])
    chooser = HeuristicBot(11)
    kinds: Counter[str] = Counter()
    session.advance()
    while not session.state.is_terminal() and session.state.turn <= last_turn:
        action = chooser(session.state)
        built = _by_clicks(session, plan, (action.kind, *action.args), kinds)
        assert "done" in session.tokens(plan, built)
        session.act(plan, built)
        session.advance()
    return kinds


@pytest.mark.slow
def test_every_decision_has_a_control_on_the_board() -> None:
    """A whole short game: every kind of decision with a hex or a unit in it is clicked."""
    clicked = set(_play_by_clicks(99))
    # S6 moves, S8 attacks and their retreats/advances/losses, S7 artillery, S4 restores,
    # S10 air
    kinds = ("move", "attack", "bombard", "advance", "retreat", "loss", "restore", "fly",
             "land", "intercept")  # fmt: skip
    for kind in kinds:
        assert kind in clicked, (kind, clicked)


def test_the_first_turns_decisions_have_controls_on_the_board() -> None:
    """The quick version: turn 1's moves, artillery, attacks and advances, by clicks."""
    clicked = set(_play_by_clicks(1))
    for kind in ("move", "bombard", "attack", "advance"):
        assert kind in clicked, (kind, clicked)


def _to_an_attack_with_two_attackers(
    session: Session, plan: SeatPlan
) -> tuple[str, tuple[str, ...]]:
    chooser = HeuristicBot(3)
    session.advance()
    while True:
        state = session.state
        if state.phase == "attack" and state.current_player() == "rkka" and not state.pending:
            for d in state.legal_tokens(("attack",)):
                first = state.legal_tokens(("attack", d))
                if len(first) >= 2:
                    return d, first[:2]
        action = chooser(state)
        session.act(plan, [action.kind, *action.args])
        session.advance()
        assert not state.is_terminal()


def test_attackers_toggle_on_and_off_and_the_odds_follow() -> None:
    """S8.2, S8.3: clicking an attacker adds it (in the engine's order whatever the click
    order), clicking it again takes it out; the preview is the exact CRT line each time."""
    session, tokens = Session.create(WEB, {"length": "short"}, {"wehrmacht": "heuristic"}, seed=2)
    plan = session.authorise("rkka", tokens["rkka"])
    defender, (a1, a2) = _to_an_attack_with_two_attackers(session, plan)
    at = _position_of(session)
    before = position_digest(session.state)
    p = session.click(plan, [], at[defender])
    assert p == ("attack", defender)
    p = session.click(plan, list(p), at[a2])
    assert p == ("attack", defender, a2)
    one = session.preview(plan, list(p))
    assert one == attack_preview(session.state, p)
    if at[a1] != at[a2]:  # two hexes: the second click adds a1 before a2
        p = session.click(plan, list(p), at[a1])
        assert p == ("attack", defender, a1, a2)
        both = session.preview(plan, list(p))
        assert both == attack_preview(session.state, p)
        p = session.click(plan, list(p), at[a2])  # toggled off
        assert p == ("attack", defender, a1)
        assert session.preview(plan, list(p)) == attack_preview(session.state, p)
    assert position_digest(session.state) == before


def test_the_dice_are_shown_as_rolled(client: TestClient) -> None:
    form = {"opt:length": "short", "seat:rkka": "heuristic", "seat:wehrmacht": "heuristic"}
    gid, _ = new_game(client, "stalingrad", **form)
    session = session_of(client, gid)
    view = client.get(f"/api/g/{gid}/view").json()
    rolls = [n for n, entry in view["log"] if entry.startswith("roll ")]
    assert rolls
    assert set(rolls) <= set(view["chance"])
    assert not {n for n, entry in view["log"] if entry.startswith(("move", "attack"))} & set(
        view["chance"]
    )
    assert session.chance == {
        n for n, a in enumerate(session.state.history) if str(a).startswith(("roll", "shuffle"))
    }


def test_buttons_are_named_by_the_game(client: TestClient) -> None:
    """A card to play (S5) and a unit on a button carry their names, not only their ids."""
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    session = session_of(client, gid)
    session.advance()
    side = session.state.current_player()
    h = {"x-hexwar-token": tokens[side]}
    view = client.get(f"/api/g/{gid}/view?seat={side}", headers=h).json()
    hand = view["secrets"]["cards"][f"hand:{side}"]
    data = static(session.state)
    assert "play" in view["tokens"]  # the first decision: a card may be played (S5)
    r = client.post(f"/api/g/{gid}/tokens", json={"seat": side, "prefix": ["play"]}, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["tokens"]
    for card in r.json()["tokens"]:
        assert card in hand
        assert r.json()["titles"][card].startswith(data.cards[card].name)
