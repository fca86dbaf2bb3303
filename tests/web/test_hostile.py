"""Hostile requests (issue 28): foreign Origin and Host, nested, huge and malformed bodies,
lone surrogates, bad WebSocket hellos, too many new games, bad files in ``--games``. Each
gets a 4xx answer (never a 500), the server stays up, and no game changes."""

from __future__ import annotations

import json
import logging
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from examples.classic.web import WEB as BRIDGEHEAD
from tests.web.test_server import Client, make_client, new_game, session_of

from hexwar.__main__ import main as hexwar_main
from hexwar.engine.fileformat import position_digest
from hexwar.web.app import MAX_RECORD, create_app
from hexwar.web.http import MAX_BODY
from hexwar.web.limits import Limits
from hexwar.web.session import Session
from hexwar_stalingrad.cli import main as stalingrad_main

GAMES = {BRIDGEHEAD.name: BRIDGEHEAD}
EVIL = "http://evil.example"
FORM = {"content-type": "application/x-www-form-urlencoded"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with make_client(GAMES, tmp_path) as made:
            yield made


def hot_seat(client: TestClient) -> tuple[str, dict[str, str], Session]:
    gid, tokens = new_game(client, "bridgehead")
    return gid, tokens, session_of(client, gid)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_hostile_requests_get_4xx_and_change_nothing(client: Client) -> None:
    gid, tokens, session = hot_seat(client)
    blue = {"x-hexwar-token": tokens["blue"]}
    before, games = position_digest(session.state), set(client.app.state.server.sessions)  # type: ignore[attr-defined]
    act = f"/api/g/{gid}/act"
    end = {"seat": "blue", "tokens": ["end"]}
    answers: dict[str, int] = {}

    def check(name: str, status: int, expected: int) -> None:
        answers[name] = status
        assert status == expected, (name, status)

    # another site's page: its Origin, or a cross-site fetch without one
    check("new from evil", client.post("/new", data={"game": "bridgehead"},
          headers={"origin": EVIL}).status_code, 403)  # fmt: skip
    check("act from evil", client.post(act, json=end, headers=blue | {"origin": EVIL}).status_code,
          403)  # fmt: skip
    check("undo from evil", client.post(f"/api/g/{gid}/undo", json={"seat": "blue"},
          headers=blue | {"origin": EVIL}).status_code, 403)  # fmt: skip
    check("origin null", client.post(act, json=end, headers=blue | {"origin": "null"}).status_code,
          403)  # fmt: skip
    check("cross-site", client.post(act, json=end, headers=blue | {"sec-fetch-site":
          "cross-site"}).status_code, 403)  # fmt: skip
    # a DNS-rebinding page: the server named by another host name
    check("index for evil host", client.get("/", headers={"host": "evil.example"}).status_code, 403)
    check("view for evil host", client.get(f"/api/g/{gid}/view",
          headers={"host": "evil.example:8642"}).status_code, 403)  # fmt: skip
    check("bad host", client.get("/", headers={"host": "[::1"}).status_code, 403)
    # bodies: nested, huge (declared and streamed), not UTF-8, surrogates, NaN, not objects
    for name, raw in {
        "nested": nested(30_000),
        "nested object": '{"seat": "blue", "tokens": ' + nested(5000) + "}",
        "lone surrogate": '{"seat": "blue", "prefix": ["\\ud800"]}',
        "surrogate seat": '{"seat": "\\udfff"}',
        "NaN": '{"seat": "blue", "tokens": NaN}',
        "huge number": '{"seat": "blue", "tokens": [' + "9" * 5000 + "]}",
        "not an object": '["blue"]',
        "not JSON": "{seat: blue",
        "empty": "",
    }.items():
        for path in ("act", "tokens", "click", "undo"):
            r = client.post(f"/api/g/{gid}/{path}", content=raw.encode(), headers=blue)
            check(f"{name} to {path}", r.status_code, 400)
            assert "error" in r.json()
    r = client.post(act, content=b"\xff\xfe{}", headers=blue)
    check("not UTF-8", r.status_code, 400)
    big = b'{"seat": "blue", "pad": "' + b"x" * (MAX_BODY + 10) + b'"}'
    check("huge body", client.post(act, content=big, headers=blue).status_code, 413)
    check("huge streamed body", client.post(act, content=iter([big[:1000]] * 200),
          headers=blue).status_code, 413)  # fmt: skip
    check("huge form", client.post("/new", content=b"game=" + b"x" * (MAX_BODY + 1),
          headers=FORM).status_code, 413)  # fmt: skip
    check("bad form", client.post("/new", content=b"\xff=\xfe",
          headers=FORM).status_code, 400)  # fmt: skip
    # record uploads: huge, nested, not a record
    huge = b'{"actions": ["' + b"x" * MAX_RECORD + b'"]}'
    check("huge record", client.post("/api/replay", content=huge).status_code, 413)
    check("nested record", client.post("/api/replay", content=nested(10_000).encode()).status_code,
          400)  # fmt: skip
    check("not a record", client.post("/api/replay", content=b'{"a": 1}').status_code, 400)
    check("bad record", client.post("/api/replay", content=json.dumps(
        {"format": "x", "actions": ["end"]}).encode()).status_code, 400)  # fmt: skip
    # query strings and paths
    check("since", client.get(f"/api/g/{gid}/view?since=" + "9" * 5000).status_code, 200)
    check("step", client.get("/api/r/none?step=-1").status_code, 404)
    check("no game", client.get("/api/g/%ff%fe/view").status_code, 404)
    assert all(400 <= s < 500 for n, s in answers.items() if n != "since")
    assert position_digest(session.state) == before
    assert set(client.app.state.server.sessions) == games  # type: ignore[attr-defined]
    assert client.get(f"/api/g/{gid}/view?seat=blue", headers=blue).status_code == 200


def test_hostile_websocket_hellos_are_closed_with_a_reason(client: Client) -> None:
    gid, tokens, session = hot_seat(client)
    before = position_digest(session.state)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/g/{gid}", headers={"origin": EVIL}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/g/{gid}", headers={"host": "evil.example"}) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4403
    for hello, code in (
        (nested(1000), 4400),
        (nested(10_000), 4413),
        ('{"seat": "\\ud800", "token": "x"}', 4400),
        ("not json", 4400),
        ("[1, 2]", 4400),
        ('{"seat": 5}', 4400),
        ('{"seat": "blue", "token": "wrong"}', 4403),
        ('{"seat": "blue", "pad": "' + "x" * 5000 + '"}', 4413),
    ):
        with client.websocket_connect(f"/ws/g/{gid}") as ws:
            ws.send_text(hello)
            assert "error" in ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code, hello[:40]
    with client.websocket_connect(f"/ws/g/{gid}") as ws:
        ws.send_bytes(b"\xff\xfe")
        assert "error" in ws.receive_json()
    # the server still answers, the game is as it was
    with client.websocket_connect(f"/ws/g/{gid}") as ws:
        ws.send_json({"seat": "blue", "token": tokens["blue"]})
        assert ws.receive_json()["seat"] == "blue"
    assert position_digest(session.state) == before


def test_new_games_are_capped_with_a_clear_429(tmp_path: Path) -> None:
    limits = Limits(live_games=5, per_minute=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(GAMES, tmp_path, limits=limits, hosts={"testserver"})
    with Client(app) as client:
        for _ in range(3):
            new_game(client, "bridgehead")
        r = client.post("/new", data={"game": "bridgehead"})
        assert r.status_code == 429
        assert "at most 3 new games a minute" in r.json()["error"]
        app.state.server.limits = Limits(live_games=5, per_minute=100)
        for _ in range(2):
            new_game(client, "bridgehead")
        r = client.post("/new", data={"game": "bridgehead"})
        assert r.status_code == 429
        assert "at most 5 games at once" in r.json()["error"]
        assert len(app.state.server.sessions) == 5
        assert len(list(tmp_path.glob("*.json"))) == 5


def test_bad_files_in_the_games_folder_are_skipped_and_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good, _ = Session.create(BRIDGEHEAD, {}, {}, directory=tmp_path)
    assert good.path is not None
    text = good.path.read_text()
    data = json.loads(text)
    bad = {
        "notes.json": '{"todo": "buy milk"}',
        "truncated.json": text[: len(text) // 2],
        "nested.json": nested(100_000),
        "illegal.json": json.dumps(data | {"id": "0" * 12, "actions": ["move b-1inf 0909"]}),
        "unknown-game.json": json.dumps(data | {"id": "1" * 12, "game": "chess"}),
        "bad-seat.json": json.dumps(data | {"id": "2" * 12, "seats": [{"name": 7}]}),
        "latin1.json": "\xe9".encode("latin-1"),
        "surrogate.json": json.dumps(data | {"id": "3" * 12, "options": {"\ud800": "x"}}),
    }
    for name, content in bad.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
    (tmp_path / "folder.json").mkdir()
    copy = tmp_path / "zz-copy.json"
    shutil.copy(good.path, copy)
    with caplog.at_level(logging.WARNING, logger="hexwar.web"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = create_app(GAMES, tmp_path, hosts={"testserver"})
    assert set(app.state.server.sessions) == {good.id}
    said = "\n".join(r.getMessage() for r in caplog.records)
    for name in [*bad, "folder.json"]:
        assert str(tmp_path / name) in said, name
    assert f"{copy} holds game {good.id}, already loaded from {good.path}" in said
    assert "action 1 `move b-1inf 0909`" in said
    assert "nested deeper than" in said
    with Client(app) as client:
        assert client.get(f"/api/g/{good.id}/view").status_code == 200
    assert good.path.read_text() == text


@pytest.mark.parametrize("cli", ["hexwar", "hexwar_stalingrad"])
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "99999"], "a port is 1 to 65535"),
        (["--port", "-1"], "a port is 1 to 65535"),
        (["--port", "x"], "a port is a number"),
        (["--pace", "-1"], "a pace is 0 seconds or more"),
        (["--pace", "nan"], "a pace is 0 seconds or more"),
        (["--bot-workers", "0"], "expected 1 or more"),
    ],
)
def test_serve_checks_its_arguments_before_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cli: str, args: list[str], said: str
) -> None:
    folder = tmp_path / "games"
    main = hexwar_main if cli == "hexwar" else stalingrad_main
    target = ["examples.classic.web:WEB"] if cli == "hexwar" else []
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *target, "--games", str(folder), *args])
    assert stopped.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1
    assert said in errors[0]
    assert not folder.exists()


@pytest.mark.parametrize("target", ["os:system", "os:path", "no_such_module:X", "os", "json:loads"])
def test_serve_refuses_what_is_not_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    folder = tmp_path / "games"
    assert hexwar_main(["serve", target, "--games", str(folder)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("error: ")
    assert not folder.exists()
