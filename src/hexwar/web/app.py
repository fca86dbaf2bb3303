"""The Starlette application: pages and a small JSON API over :class:`Session` objects.

Pages: ``/`` (new game form, games on this server), ``/g/ID`` (a spectator's page: the
board and what every side may know), ``/g/ID/SEAT?t=TOKEN`` (a seat's page). API (JSON;
a seat's requests carry its token in the ``X-Hexwar-Token`` header):

- ``GET /api/g/ID/view[?seat=S]``: status, board SVG, log, the seat's hidden information;
- ``POST /api/g/ID/tokens`` ``{"seat", "prefix"}``: the legal next tokens;
- ``POST /api/g/ID/click`` ``{"seat", "prefix", "label"}``: the prefix after a click on a hex;
- ``POST /api/g/ID/act`` ``{"seat", "tokens"}``: apply an action;
- ``POST /api/g/ID/undo`` ``{"seat"}``: ask to take back the last human action (done
  when every human seat has asked);
- ``POST /api/g/ID/hint`` ``{"seat"}`` (the seat's side to act): a search player's advice,
  thought in a bot worker (:class:`~hexwar.web.bots.HintJob`): ``{"side", "iterations",
  "chosen", "candidates": [{"action", "visits", "win_chance"}]}``;
- ``GET /api/g/ID/record``: the game record, once the game is over;
- ``POST /api/g/ID/replay`` (a finished game) or ``POST /api/replay`` (a record file's
  text): a replay's id; ``/r/RID`` its page, ``GET /api/r/RID?step=N`` the position
  after N actions (:mod:`hexwar.web.replay`); ``GET /replay/file/NAME`` the replay of a
  record of the ``--records`` folder (a study report's links).

- ``/ws/g/ID``: a WebSocket pushing ``view`` to the page after every change
  (:mod:`hexwar.web.live`); the page polls ``view`` only when it cannot connect.

A refused request answers 4xx with ``{"error": reason, "rule": rule}`` and changes
nothing: a foreign ``Host`` or ``Origin`` 403 (:class:`~hexwar.web.http.Guard`), a body
past its limit 413 (read as a stream, stopped there), too many new games 429. Bots and
chance events are played by the game's runner (:mod:`hexwar.web.server`; the bots think
in worker processes, :mod:`hexwar.web.bots`), and the live pages are sent each position
they reach.
"""

from __future__ import annotations

import contextlib
import html
import json
from collections.abc import AsyncIterator, Collection, Mapping
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from hexwar.base.errors import RequestRefused, WorkerFailed
from hexwar.web.games import WebGame
from hexwar.web.http import MAX_BODY, Guard, handler, parse, raw_body, seat_of
from hexwar.web.http import body as json_body
from hexwar.web.limits import Limits
from hexwar.web.live import live
from hexwar.web.pages import record_json, seat_view, titles
from hexwar.web.replay import load_record
from hexwar.web.seats import HUMAN
from hexwar.web.server import Server
from hexwar.web.session import Session

__all__ = ["create_app"]

STATIC: Final = Path(__file__).parent / "static"
#: The largest record file ``/api/replay`` takes (a long game's record is well under).
MAX_RECORD: Final = 4 * 1024 * 1024


def _page(title: str, body: str, script: bool = False) -> HTMLResponse:
    js = '<script src="/static/play.js" defer></script>' if script else ""
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title>"
        '<link rel="stylesheet" href="/static/play.css">'
        f"{js}</head><body>{body}</body></html>",
        headers={"Referrer-Policy": "same-origin", "Cache-Control": "no-store"},
    )


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def index(request: Request) -> Response:
    server = _server(request)
    forms = []
    for game in server.games.values():
        rows = []
        for opt, choices in game.options.items():
            items = "".join(f"<option>{html.escape(c)}</option>" for c in choices)
            rows.append(
                f"<label>{html.escape(opt)} <select name='opt:{html.escape(opt)}'>"
                f"{items}</select></label>"
            )
        for seat in game.ruleset({}).seats():
            items = "".join(f"<option>{html.escape(p)}</option>" for p in (HUMAN, *game.bots))
            rows.append(
                f"<label>seat {html.escape(seat.name)} ({html.escape(seat.side)}) "
                f"<select name='seat:{html.escape(seat.name)}'>{items}</select></label>"
            )
        forms.append(
            f"<form method=post action='/new' class=newgame><h2>{html.escape(game.title)}"
            f"</h2><input type=hidden name=game value='{html.escape(game.name)}'>"
            + "".join(f"<p>{r}</p>" for r in rows)
            + "<p><button type=submit>New game</button></p></form>"
        )
    listed = "".join(
        f"<li><a href='/g/{s.id}'>{s.id}</a> {html.escape(s.game.title)}: "
        + html.escape(
            f"over ({s.state.outcome.winner}: {s.state.outcome.reason})"
            if s.state.outcome
            else f"turn {s.state.turn}"
        )
        + "</li>"
        for s in server.sessions.values()
    )
    return _page(
        "hexwar",
        "<h1>hexwar</h1>"
        + "".join(forms)
        + f"<h2>Games here (watch)</h2><ul>{listed}</ul>"
        + "<p><a href='/replay'>Replay a game record file</a></p>",
    )


async def new(request: Request) -> Response:
    server = _server(request)
    raw = await raw_body(request, MAX_BODY)
    try:
        pairs = parse_qsl(raw.decode("utf-8"), strict_parsing=bool(raw), max_num_fields=200)
    except (ValueError, UnicodeDecodeError):
        raise RequestRefused(400, "the form must be URL-encoded text") from None
    form = dict(pairs)
    name = form.get("game")
    if not isinstance(name, str) or name not in server.games:
        raise RequestRefused(400, f"no game {name!r} here; games: {sorted(server.games)}")
    options = {k[4:]: v for k, v in form.items() if k.startswith("opt:")}
    players = {k[5:]: v for k, v in form.items() if k.startswith("seat:")}
    server.admit(request.client.host if request.client else "")
    session, tokens = Session.create(
        server.games[name], options, players, directory=server.directory
    )
    server.add(session)
    links = "".join(
        f"<li>seat {html.escape(n)}: <a class=seatlink href='/g/{session.id}/{n}?t={t}'>"
        f"/g/{session.id}/{html.escape(n)}?t={t}</a></li>"
        for n, t in sorted(tokens.items())
    )
    return _page(
        "new game",
        f"<h1>Game {session.id}</h1><p>Each link is that seat's secret: "
        "open it in the browser of whoever plays the seat (on one machine: one tab "
        f"per seat).</p><ul>{links}</ul>"
        f"<p>Watch: <a href='/g/{session.id}'>/g/{session.id}</a></p>",
    )


async def play_page(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    seat = request.path_params.get("seat")
    if seat is not None:
        session.authorise(seat, request.query_params.get("t"))
    title = f"{session.game.title}: " + (f"seat {seat}" if seat else "watching")
    data = html.escape(json.dumps({"game": session.id, "seat": seat}), quote=True)
    body = (
        f'<div id=app data-config="{data}">'
        f"<header><h1>{html.escape(title)}</h1><div id=status></div></header>"
        "<div id=message role=alert></div>"
        "<main><section id=board></section><aside>"
        "<p class=zoom><button id=zoomout title='smaller'>−</button>"
        "<button id=zoomin title='larger'>+</button> map size</p>"
        "<pre id=dice aria-live=polite></pre>"
        "<div id=controls><div id=prefix></div><div id=preview></div>"
        "<div id=buttons></div></div>"
        "<h3>Only you see</h3><pre id=secrets></pre>"
        "<h3>Log</h3><ol id=log></ol>"
        f"<p><a id=record href='/api/g/{session.id}/record' download>"
        "game record (when over)</a> · <button id=replay>replay (when over)</button>"
        " · <button id=undo>ask to undo</button>"
        "</p><p><button id=hint title='ask the search player'>hint</button></p>"
        "<div id=hintbox aria-live=polite></div>"
        "</aside></main></div>"
    )
    return _page(title, body, script=True)


async def view(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    seat = request.query_params.get("seat")
    plan = None if seat is None else seat_of(session, request, seat)
    since = request.query_params.get("since", "")
    data = await run_in_threadpool(
        seat_view, session, plan, int(since) if since.isdigit() and len(since) < 10 else None
    )
    server.ensure_drawn(session, None if plan is None else plan.seat.side)
    server.kick(session)  # a game loaded or added without its runner: set it going
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def tokens(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    body = await json_body(request)
    plan = seat_of(session, request, body.get("seat"))
    prefix = body.get("prefix", [])
    found = await run_in_threadpool(session.tokens, plan, prefix)
    line = await run_in_threadpool(session.preview, plan, prefix)
    named = await run_in_threadpool(titles, session, found)
    return JSONResponse({"prefix": prefix, "tokens": list(found), "preview": line, "titles": named})


async def click(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    body = await json_body(request)
    plan = seat_of(session, request, body.get("seat"))
    prefix = await run_in_threadpool(session.click, plan, body.get("prefix", []), body.get("label"))
    found = await run_in_threadpool(session.tokens, plan, list(prefix))
    line = await run_in_threadpool(session.preview, plan, list(prefix))
    named = await run_in_threadpool(titles, session, found)
    return JSONResponse(
        {"prefix": list(prefix), "tokens": list(found), "preview": line, "titles": named}
    )


async def act(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    body = await json_body(request)
    plan = seat_of(session, request, body.get("seat"))
    action = await run_in_threadpool(session.act, plan, body.get("tokens"))
    version = len(session.state.history)
    server.kick(session)
    return JSONResponse({"applied": str(action), "version": version})


async def undo(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    body = await json_body(request)
    plan = seat_of(session, request, body.get("seat"))
    taken = await run_in_threadpool(session.ask_undo, plan)
    server.kick(session)
    return JSONResponse({"undone": taken, "asked": sorted(session.undo_asked)})


async def hint(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    body = await json_body(request)
    plan = seat_of(session, request, body.get("seat"))
    job = await run_in_threadpool(session.hint_job, plan)
    try:
        advice = await server.pool.hint(job)
    except WorkerFailed as exc:
        raise RequestRefused(503, f"no hint: {exc}") from None
    return JSONResponse(advice, headers={"Cache-Control": "no-store"})


async def record(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    text = await run_in_threadpool(record_json, session)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{session.id}.json"'},
    )


async def replay_upload_page(request: Request) -> Response:
    return _page(
        "replay a record",
        "<h1>Replay a game record</h1><p><input type=file id=recordfile accept='.json'> "
        "<button id=open>Open</button></p><div id=message role=alert></div>"
        "<script src='/static/replay.js' defer></script><div id=replay></div>",
    )


async def replay_upload(request: Request) -> Response:
    server = _server(request)
    raw = await raw_body(request, MAX_RECORD)
    data = await run_in_threadpool(parse, raw, "the record")
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise RequestRefused(400, "the record: not a game record (a JSON object with actions)")
    found = await run_in_threadpool(load_record, server.games, raw)
    return JSONResponse({"replay": server.add_replay(found)})


async def replay_file(request: Request) -> Response:
    """``GET /replay/file/NAME``: the replay of record file ``NAME`` of the server's
    ``records`` folder (a study report's links: ``docs/studies.md``), redirected to its
    page; 404 without such a folder or file."""
    server = _server(request)
    name = request.path_params["name"]
    folder = server.records
    plain = "/" not in name and "\\" not in name and not name.startswith(".")
    if folder is None or not plain or not name.endswith(".json"):
        raise RequestRefused(404, "no such record (start the server with --records DIR)")
    path = folder / name
    if not path.is_file():
        raise RequestRefused(404, f"no record {name} in {folder}")
    raw = await run_in_threadpool(path.read_bytes)
    found = await run_in_threadpool(load_record, server.games, raw)
    return RedirectResponse(f"/r/{server.add_replay(found)}", status_code=303)


async def replay_of_game(request: Request) -> Response:
    server = _server(request)
    session = server.session(request)
    text = await run_in_threadpool(record_json, session)
    found = await run_in_threadpool(load_record, {session.game.name: session.game}, text)
    rid = server.add_replay(found)
    return JSONResponse({"replay": rid})


async def replay_page(request: Request) -> Response:
    server = _server(request)
    rid = request.path_params["replay"]
    if rid not in server.replays:
        raise RequestRefused(404, "no such replay (replays are kept in memory only)")
    data = html.escape(json.dumps({"replay": rid}), quote=True)
    return _page(
        "replay",
        f'<div id=replayapp data-config="{data}"><header><h1>Replay</h1>'
        "<div id=status></div></header>"
        "<p class=replaybar><button id=first>|◀</button><button id=prev>◀</button>"
        "<input type=range id=step min=0 value=0><button id=next>▶</button>"
        "<button id=last>▶|</button> <select id=turn></select> "
        "<span id=stepno></span></p>"
        "<main><section id=board></section><aside><h3>Log</h3><ol id=log></ol>"
        "</aside></main></div><script src='/static/replay.js' defer></script>",
    )


async def replay_view(request: Request) -> Response:
    server = _server(request)
    found = server.replays.get(request.path_params["replay"])
    if found is None:
        raise RequestRefused(404, "no such replay (replays are kept in memory only)")
    step = request.query_params.get("step", "")
    if not step.isdigit() or len(step) > 9:
        raise RequestRefused(400, "step is a number of actions")
    data = await run_in_threadpool(found.view, int(step))
    return JSONResponse(data)


def create_app(
    games: Mapping[str, WebGame],
    directory: Path,
    pace: float = 0.0,
    *,
    limits: Limits | None = None,
    hosts: Collection[str] = (),
    records: Path | None = None,
) -> Starlette:
    """The application serving ``games`` (by name), keeping its games in ``directory``;
    ``pace``: seconds between two actions of a game without human seats (to watch it);
    ``limits``: the caps and the bot workers (:class:`~hexwar.web.limits.Limits`; its
    ``pace`` is replaced by ``pace``); ``hosts``: the names (besides this machine's and
    IP addresses) the server answers for in ``Host``; ``records``: a folder of game records
    ``/replay/file/NAME`` opens (a study report's links). Saved games that do not load are
    logged and skipped."""
    server = Server(games, directory, attrs.evolve(limits or Limits(), pace=pace))
    server.records = records

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.kick_all()
        try:
            yield
        finally:
            await server.close()

    app = Starlette(
        routes=[
            Route("/", handler(index)),
            Route("/new", handler(new), methods=["POST"]),
            Route("/g/{game}", handler(play_page)),
            Route("/g/{game}/{seat}", handler(play_page)),
            Route("/api/g/{game}/view", handler(view)),
            WebSocketRoute("/ws/g/{game}", live),
            Route("/api/g/{game}/tokens", handler(tokens), methods=["POST"]),
            Route("/api/g/{game}/click", handler(click), methods=["POST"]),
            Route("/api/g/{game}/act", handler(act), methods=["POST"]),
            Route("/api/g/{game}/record", handler(record)),
            Route("/api/g/{game}/undo", handler(undo), methods=["POST"]),
            Route("/api/g/{game}/hint", handler(hint), methods=["POST"]),
            Route("/api/g/{game}/replay", handler(replay_of_game), methods=["POST"]),
            Route("/replay", handler(replay_upload_page)),
            Route("/api/replay", handler(replay_upload), methods=["POST"]),
            Route("/replay/file/{name}", handler(replay_file)),
            Route("/r/{replay}", handler(replay_page)),
            Route("/api/r/{replay}", handler(replay_view)),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(Guard, hosts=hosts)],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
