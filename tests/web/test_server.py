"""The web server through Starlette's TestClient (issue 15): legality only from the engine,
refusals leave the game unchanged, seat tokens, hidden information, bots, restarts."""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's TestClient: a deprecation note about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from examples.boy_otryadov.rules import BoyOtryadov
from examples.classic.web import WEB as BRIDGEHEAD
from examples.triumph_and_glory.rules import TriumphAndGlory
from tests.toy_game import Duel

from hexwar.engine.fileformat import position_digest
from hexwar.engine.records import GameRecord, replay
from hexwar.web.app import create_app
from hexwar.web.games import generic
from hexwar.web.saves import load_session
from hexwar.web.session import Session
from hexwar.web.views import draw
from hexwar_stalingrad.board import where as ground_where
from hexwar_stalingrad.web import WEB as STALINGRAD

GAMES = {
    g.name: g
    for g in (
        STALINGRAD,
        BRIDGEHEAD,
        generic(Duel),
        generic(BoyOtryadov, scenario="skirmish"),
        generic(TriumphAndGlory),
    )
}
LINK = re.compile(r"/g/([0-9a-f]{12})/([\w-]+)\?t=([\w-]+)")
#: How long a test waits for the bots and dice to settle (never reached when they work).
SETTLE = 300.0


class Client(TestClient):
    """A TestClient that, after each request, waits until every game's runner has stopped
    (its bots and dice played in the worker processes), so a test sees the position the
    game waits in, as a player would after the bots' replies."""

    def request(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        answer = super().request(*args, **kwargs)
        settle(self.app)
        return answer


def settle(app: Any) -> None:
    server = app.state.server
    deadline = time.monotonic() + SETTLE
    while any(not server.idle(gid) for gid in list(server.sessions)):
        assert time.monotonic() < deadline, "the bots did not settle"
        time.sleep(0.005)


def make_client(games: Any, folder: Path) -> Client:
    """A client of a new app (``with`` it: the app's lifespan starts and stops it)."""
    return Client(create_app(games, folder, hosts={"testserver"}))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with make_client(GAMES, tmp_path) as made:
            yield made


def new_game(client: TestClient, game: str, **form: str) -> tuple[str, dict[str, str]]:
    """POST the new-game form; the game id and each human seat's token (from the links)."""
    r = client.post("/new", data={"game": game, **form})
    assert r.status_code == 200, r.text
    links = LINK.findall(r.text)
    ids = {gid for gid, _, _ in links}
    assert len(ids) <= 1
    gid = ids.pop() if ids else re.search(r"/g/([0-9a-f]{12})'", r.text).group(1)  # type: ignore[union-attr]
    return gid, {seat: token for _, seat, token in links}


def session_of(client: TestClient, gid: str) -> Session:
    return client.app.state.server.sessions[gid]  # type: ignore[attr-defined, no-any-return]


def stalingrad_vs_bot(client: TestClient) -> tuple[str, str, dict[str, str]]:
    """RKKA human against the heuristic Wehrmacht, moved on to RKKA's first movement phase."""
    gid, tokens = new_game(
        client, "stalingrad", **{"opt:length": "short", "seat:wehrmacht": "heuristic"}
    )
    h = {"x-hexwar-token": tokens["rkka"]}
    session = session_of(client, gid)
    while session.state.phase != "movement":
        assert client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": ["end"]},
                           headers=h).status_code == 200  # fmt: skip
    return gid, tokens["rkka"], h


def first_action(client: TestClient, gid: str, h: dict[str, str]) -> list[str]:
    """An action for RKKA built through the tokens API: ``end`` if legal, else the first
    legal token at each step."""
    prefix: list[str] = []
    while True:
        r = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": prefix}, headers=h)
        assert r.status_code == 200, r.text
        legal = r.json()["tokens"]
        if "done" in legal:
            return prefix
        prefix.append("end" if "end" in legal else legal[0])


def test_legal_tokens_come_from_the_engine(client: TestClient) -> None:
    gid, _, h = stalingrad_vs_bot(client)
    state = session_of(client, gid).state
    view = client.get(f"/api/g/{gid}/view?seat=rkka", headers=h).json()
    assert view["your_turn"]
    assert view["phase"] == "movement"
    assert view["tokens"] == list(state.legal_tokens(()))
    units = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": ["move"]},
                        headers=h).json()["tokens"]  # fmt: skip
    assert units == list(state.legal_tokens(("move",)))
    assert units
    hexes = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": ["move", units[0]]},
                        headers=h).json()["tokens"]  # fmt: skip
    assert hexes == list(state.legal_tokens(("move", units[0])))
    assert hexes


def test_click_a_unit_then_a_hex_moves_it(client: TestClient) -> None:
    gid, _, h = stalingrad_vs_bot(client)
    session = session_of(client, gid)
    unit = session.state.legal_tokens(("move",))[0]
    where = ground_where(session.state, unit)
    r = client.post(f"/api/g/{gid}/click", json={"seat": "rkka", "prefix": [], "label": where},
                    headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json()["prefix"][0] == "move"
    assert r.json()["tokens"]
    chosen = r.json()["prefix"]
    target = r.json()["tokens"][0]
    r = client.post(f"/api/g/{gid}/click", json={"seat": "rkka", "prefix": chosen, "label": target},
                    headers=h)  # fmt: skip
    assert r.json() == {
        "prefix": [*chosen, target],
        "tokens": ["done"],
        "preview": None,
        "titles": {},
    }
    r = client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": [*chosen, target]},
                    headers=h)  # fmt: skip
    assert r.status_code == 200
    assert ground_where(session.state, chosen[1]) == target


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(
    client: TestClient, tmp_path: Path
) -> None:
    gid, _, h = stalingrad_vs_bot(client)
    session = session_of(client, gid)
    unit = session.state.legal_tokens(("move",))[0]
    far = "0101"
    assert far not in session.state.legal_tokens(("move", unit))
    before, n, saved = (
        position_digest(session.state),
        len(session.state.history),
        (tmp_path / f"{gid}.json").read_text(),
    )
    for path, body in (
        ("act", {"seat": "rkka", "tokens": ["move", unit, far]}),
        ("click", {"seat": "rkka", "prefix": ["move", unit], "label": far}),
    ):
        r = client.post(f"/api/g/{gid}/{path}", json=body, headers=h)
        assert r.status_code == 409
        assert r.json()["rule"] == "S6"
        assert r.json()["error"].startswith("S6:")
    assert position_digest(session.state) == before
    assert len(session.state.history) == n
    assert (tmp_path / f"{gid}.json").read_text() == saved


def test_seat_tokens_and_malformed_requests(client: TestClient) -> None:
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    assert sorted(tokens) == ["rkka", "wehrmacht"]
    session = session_of(client, gid)
    before = position_digest(session.state)
    rkka = {"x-hexwar-token": tokens["rkka"]}
    wehr = {"x-hexwar-token": tokens["wehrmacht"]}
    refused = [
        # another seat's token, no token, an unknown seat
        client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": ["end"]}, headers=wehr),
        client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": ["end"]}),
        client.get(f"/api/g/{gid}/view?seat=rkka", headers=wehr),
        client.get(f"/g/{gid}/rkka?t={tokens['wehrmacht']}"),
        client.post(f"/api/g/{gid}/act", json={"seat": "nobody", "tokens": ["end"]}, headers=rkka),
        # malformed bodies
        client.post(f"/api/g/{gid}/act", content=b"{not json", headers=rkka),
        client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": "end"}, headers=rkka),
        client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": [1]}, headers=rkka),
        client.post(f"/api/g/{gid}/act", json=["rkka"], headers=rkka),
        client.post(f"/api/g/{gid}/click", json={"seat": "rkka", "label": 3}, headers=rkka),
        # not this seat's turn (RKKA plays its card phase first), the record before the end
        client.post(
            f"/api/g/{gid}/act", json={"seat": "wehrmacht", "tokens": ["end"]}, headers=wehr
        ),
        client.get(f"/api/g/{gid}/record"),
        client.get("/api/g/000000000000/view"),
    ]
    codes = [r.status_code for r in refused]
    assert codes == [403, 403, 403, 403, 404, 400, 400, 400, 400, 400, 409, 409, 404]
    assert all(r.json()["error"] for r in refused if r.headers["content-type"].startswith("app"))
    assert position_digest(session.state) == before


def test_hidden_information_stays_with_its_seat(client: TestClient) -> None:
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    views = {
        seat: client.get(f"/api/g/{gid}/view?seat={seat}", headers={"x-hexwar-token": token}).json()
        for seat, token in tokens.items()
    }
    watcher = client.get(f"/api/g/{gid}/view").json()
    for seat, other in (("rkka", "wehrmacht"), ("wehrmacht", "rkka")):
        hand = views[seat]["secrets"]["cards"][f"hand:{seat}"]
        assert hand, "each side is dealt a hand (S5)"
        assert f"hand:{other}" not in views[seat]["secrets"]["cards"]
        for card in hand:
            assert card not in json.dumps(views[other]), (card, "shown to", other)
            assert card not in json.dumps(watcher)
    # the state really holds those hands: the view is masked, not empty
    state = session_of(client, gid).state
    assert state.get("cards", "hand:rkka") == tuple(views["rkka"]["secrets"]["cards"]["hand:rkka"])


def test_a_bot_game_is_played_to_the_end_through_the_api(client: TestClient) -> None:
    form = {"opt:length": "short", "seat:rkka": "heuristic", "seat:wehrmacht": "heuristic"}
    gid, tokens = new_game(client, "stalingrad", **form)
    assert tokens == {}
    view = client.get(f"/api/g/{gid}/view").json()  # the bots ran after the answer
    assert view["outcome"] is not None
    assert view["to_act"] == "*terminal*"
    r = client.get(f"/api/g/{gid}/record")
    assert r.status_code == 200
    record = GameRecord.from_json(session_of(client, gid).ruleset, r.text)
    again = replay(session_of(client, gid).ruleset, record)
    assert again.outcome is not None
    assert [again.outcome.winner, again.outcome.reason] == view["outcome"]


@pytest.mark.parametrize(
    "game", ["bridgehead", "duel", "boy_otryadov-skirmish", "triumph-and-glory"]
)
def test_the_other_games_play_through_the_same_server(client: TestClient, game: str) -> None:
    seats = [s.name for s in GAMES[game].ruleset({}).seats()]
    gid, _ = new_game(client, game, **{f"seat:{s}": "random" for s in seats})
    view = client.get(f"/api/g/{gid}/view").json()
    assert view["outcome"] is not None
    # the first view starts the board's drawing (in a worker); the next one has it
    assert view["board"] is None
    assert (view["board_version"] is None) == (game == "bridgehead")
    view = client.get(f"/api/g/{gid}/view").json()
    assert view["board_version"] == view["version"]
    assert (view["board"] is None) == (game != "bridgehead")
    assert view["board"] == draw(GAMES[game], session_of(client, gid).state, None)  # worker's


def test_a_seat_controls_only_its_tagged_actions(client: TestClient) -> None:
    """Duel's red is two seats (S3.1): the gunner may not move."""
    gid, tokens = new_game(client, "duel", **{"seat:blue": "random"})
    session = session_of(client, gid)
    assert session.state.phase == "move"
    assert session.state.current_player() == "red"
    move = next(a for a in session.state.legal_actions() if a.kind == "move")
    gunner = {"x-hexwar-token": tokens["red-gunner"]}
    r = client.post(f"/api/g/{gid}/act", json={"seat": "red-gunner", "tokens": list(
        (move.kind, *move.args))}, headers=gunner)  # fmt: skip
    assert r.status_code == 409
    assert r.json()["rule"] == "S3.1"
    driver = {"x-hexwar-token": tokens["red-driver"]}
    r = client.post(f"/api/g/{gid}/act", json={"seat": "red-driver", "tokens": list(
        (move.kind, *move.args))}, headers=driver)  # fmt: skip
    assert r.status_code == 200


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = make_client(GAMES, tmp_path)
    with first:
        gid, _, h = stalingrad_vs_bot(first)
        state = session_of(first, gid).state
        unit = state.legal_tokens(("move",))[0]
        hexes = state.legal_tokens(("move", unit))
        first.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": ["move", unit,
                   hexes[-1]]}, headers=h)  # fmt: skip
        digest, history = position_digest(state), state.history
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        second = make_client(GAMES, tmp_path)  # a new server on the same folder
    with second:
        again = session_of(second, gid).state
        assert position_digest(again) == digest
        assert again.history == history
        assert again is not state
        # the same token still plays the seat, and the game goes on to its end
        while not again.is_terminal():
            r = second.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": first_action(
                second, gid, h)}, headers=h)  # fmt: skip
            assert r.status_code == 200, r.text
        assert second.get(f"/api/g/{gid}/record").status_code == 200


def test_an_edited_save_file_that_breaks_a_rule_is_refused(tmp_path: Path) -> None:
    session, _ = Session.create(STALINGRAD, {"length": "short"}, {}, directory=tmp_path)
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    data["actions"].append("move r-13tc 0101")
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"action 1 `move r-13tc 0101`: .* not a legal action"):
        load_session(path, GAMES)


def test_the_replay_steps_through_a_finished_game_and_a_record_file(client: TestClient) -> None:
    seats = {"seat:blue": "random", "seat:red": "random"}
    gid, _ = new_game(client, "bridgehead", **seats)
    session = session_of(client, gid)
    assert session.state.is_terminal()
    rid = client.post(f"/api/g/{gid}/replay", json={}).json()["replay"]
    assert client.get(f"/r/{rid}").status_code == 200
    steps = len(session.state.history)
    end = client.get(f"/api/r/{rid}?step=999999999").json()
    assert end["step"] == end["steps"] == steps
    assert end["outcome"] == [session.state.outcome.winner, session.state.outcome.reason]  # type: ignore[union-attr]
    assert end["board"] == session.board_svg(None)  # the recorded final position
    # every step is the exact position after that many actions
    again = BRIDGEHEAD.ruleset({}).new_state()
    for n, action in enumerate(session.state.history[:40], 1):
        again.apply(action)
        if n % 13 == 0:
            view = client.get(f"/api/r/{rid}?step={n}").json()
            assert view["step"] == n
            assert view["turn"] == again.turn
            assert view["board"] == draw(BRIDGEHEAD, again, None)
    first = client.get(f"/api/r/{rid}?step=0").json()
    assert first["log"] == []
    assert first["turns"][0] == [1, 0]
    # a record file uploaded: the same replay; an altered one is refused
    text = client.get(f"/api/g/{gid}/record").text
    rid2 = client.post("/api/replay", content=text.encode()).json()["replay"]
    assert client.get(f"/api/r/{rid2}?step=999999999").json()["board"] == end["board"]
    altered = text.replace('"end"', '"moved"', 1)
    r = client.post("/api/replay", content=altered.encode())
    assert r.status_code == 400
    assert r.json()["error"]
    assert client.get(f"/api/r/{rid}?step=x").status_code == 400
    assert client.get("/api/r/000000000000?step=1").status_code == 404


def test_an_attack_shows_its_exact_odds_before_it_is_confirmed(client: TestClient) -> None:
    """S8.2, S8.3: the preview is the CRT distribution of the attack being declared."""
    from fractions import Fraction

    from hexwar_stalingrad import ground
    from hexwar_stalingrad.heuristic import HeuristicBot

    gid, _, h = stalingrad_vs_bot(client)
    session = session_of(client, gid)
    bot = HeuristicBot(1)
    while session.state.phase != "attack":  # RKKA's moves and artillery, by the bot's choice
        a = bot(session.state)
        r = client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": [a.kind, *a.args]},
                        headers=h)  # fmt: skip
        assert r.status_code == 200
    shown = 0
    for defender in session.state.legal_tokens(("attack",)):
        prefix = ["attack", defender]
        while legal := [t for t in session.state.legal_tokens(tuple(prefix)) if t != "done"]:
            prefix.append(legal[0])
        before = position_digest(session.state)
        r = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": prefix}, headers=h)
        assert position_digest(session.state) == before
        line = r.json()["preview"]
        column, _ = ground.attack_odds(session.state, defender, prefix[2:])
        if column is None:
            assert line.startswith("S8.2")
            continue
        dist = ground.attack_distribution(session.state, defender, prefix[2:])
        assert line.startswith(f"odds {column}")
        assert sum(Fraction(p.split()[-1]) for p in line.split(": ", 1)[1].split(", ")) == 1
        assert all(f"{res.code} {p}" in line for res, p in dist.outcomes)
        shown += 1
    assert shown
    r = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": ["attack"]}, headers=h)
    assert r.json()["preview"] is None


def test_a_prefix_that_is_not_an_action_shape_is_refused_not_a_crash(client: TestClient) -> None:
    gid, _, h = stalingrad_vs_bot(client)
    before = position_digest(session_of(client, gid).state)
    for prefix in (["2422"], ["move", "nobody"], ["Move!"]):
        r = client.post(f"/api/g/{gid}/tokens", json={"seat": "rkka", "prefix": prefix}, headers=h)
        assert r.status_code == 409, r.text
        assert r.json()["error"]
        r = client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": prefix}, headers=h)
        assert r.status_code in (400, 409), r.text
    assert position_digest(session_of(client, gid).state) == before


def test_undo_when_every_human_seat_agrees(client: TestClient, tmp_path: Path) -> None:
    gid, tokens = new_game(client, "stalingrad", **{"opt:length": "short"})
    session = session_of(client, gid)
    rkka, wehr = ({"x-hexwar-token": tokens[s]} for s in ("rkka", "wehrmacht"))
    before = position_digest(session.state)
    n = len(session.state.history)
    assert client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": ["end"]},
                       headers=rkka).status_code == 200  # fmt: skip
    after = position_digest(session.state)
    r = client.post(f"/api/g/{gid}/undo", json={"seat": "rkka"}, headers=rkka)
    assert r.json() == {"undone": 0, "asked": ["rkka"]}
    assert position_digest(session.state) == after  # one seat alone cannot take it back
    seen = client.get(f"/api/g/{gid}/view?seat=wehrmacht&since={n + 1}", headers=wehr).json()
    assert seen["undo_asked"] == ["rkka"]
    assert client.post(f"/api/g/{gid}/undo", json={"seat": "wehrmacht"},
                       headers=rkka).status_code == 403  # fmt: skip
    r = client.post(f"/api/g/{gid}/undo", json={"seat": "wehrmacht"}, headers=wehr)
    assert r.json()["undone"] == 1
    assert position_digest(session.state) == before
    assert len(session.state.history) == n
    # the save says so too: a restarted server has the position before the action
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = make_client(GAMES, tmp_path)
    assert position_digest(session_of(again, gid).state) == before
    # nothing human left to take back
    r = client.post(f"/api/g/{gid}/undo", json={"seat": "rkka"}, headers=rkka)
    assert r.status_code == 409


def test_undo_against_a_bot_stops_at_the_last_chance_event(client: TestClient) -> None:
    """The bot's reply is taken back with the human action; past a roll or a draw, undo
    is refused (409) and nothing changes — a roll once seen never goes to another choice."""
    gid, _, h = stalingrad_vs_bot(client)
    session = session_of(client, gid)
    taken = refused = 0
    for _ in range(40):
        if (taken and refused) or session.state.is_terminal():
            break
        before, n = position_digest(session.state), len(session.state.history)
        tokens = first_action(client, gid, h)
        r = client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": tokens}, headers=h)
        assert r.status_code == 200, r.text
        after, m = position_digest(session.state), len(session.state.history)
        rolled = any(i >= n for i in session.chance)
        r = client.post(f"/api/g/{gid}/undo", json={"seat": "rkka"}, headers=h)
        if rolled:
            assert r.status_code == 409, r.text
            assert "undo stops at the last chance event" in r.json()["error"]
            assert position_digest(session.state) == after
            refused += 1
        else:
            assert r.status_code == 200, r.text
            assert r.json()["undone"] == m - n
            assert position_digest(session.state) == before
            taken += m - n > 1
            again = client.post(f"/api/g/{gid}/act", json={"seat": "rkka", "tokens": tokens},
                                headers=h)  # fmt: skip
            assert again.status_code == 200
    assert taken, "no bot reply without dice was taken back"
    assert refused, "no undo past a roll was refused"


def test_a_scenario_directory_is_served_and_its_saves_know_their_data(tmp_path: Path) -> None:
    from hexwar_stalingrad._checks import data_path
    from hexwar_stalingrad.web import web_game

    game = web_game(str(data_path(".")))
    session, _ = Session.create(game, {"length": "short"}, {}, directory=tmp_path)
    session.advance()
    path = tmp_path / f"{session.id}.json"
    assert position_digest(load_session(path, {game.name: game}).state) == position_digest(
        session.state
    )
    data = json.loads(path.read_text())
    data["data_digest"] = "0" * 64  # saved with other data: refused, not replayed wrongly
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="other game data"):
        load_session(path, {game.name: game})


def test_serve_scenario_plays_a_named_scenario_directory(tmp_path: Path) -> None:
    """``serve --scenario DIR`` for a directory with its own ``scenario.toml`` name (the
    variant docs/stalingrad/variants.md teaches): the session is set up under that name."""
    import shutil

    from hexwar_stalingrad.scenario import shipped_data_dir
    from hexwar_stalingrad.web import web_game

    variant = tmp_path / "romanians-hold"
    shutil.copytree(shipped_data_dir(), variant)
    (variant / "scenario.toml").write_text('name = "romanians-hold"\n', encoding="utf-8")
    game = web_game(str(variant))
    session, _ = Session.create(game, {"length": "short"}, {}, directory=tmp_path)
    assert game.scenario == session.state.scenario == "romanians-hold"
