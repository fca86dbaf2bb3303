"""Live pages: a WebSocket per open page pushes the position to it as it changes.

``/ws/g/ID``: the page sends ``{"seat": S, "token": T}`` (or ``{}`` to watch) first; the
server answers with the page's data (:func:`~hexwar.web.pages.seat_view`, as ``GET
/api/g/ID/view`` would) and again after every change of the game — each action of a
seat, a bot or the dice, an undo request — so every page of a game (seats and watchers)
follows it without polling, and a bots' game can be watched live. Changes that come
faster than a page can be sent are merged: the page gets the latest position. A refused
hello (a wrong token) gets ``{"error", "rule"}`` and the socket is closed with code
4403 (4404: no such game).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexwar.base.errors import RequestRefused
from hexwar.web.http import parse
from hexwar.web.pages import seat_view
from hexwar.web.seats import SeatPlan
from hexwar.web.server import Server
from hexwar.web.session import Session

__all__ = ["live"]

_MAX_HELLO: Final = 4096


async def _hello(websocket: WebSocket, session: Session) -> SeatPlan | None:
    """The seat the page's first message names (``None``: a watcher); parsed strictly
    (:func:`~hexwar.engine.fileformat.parse_json`, at most ``_MAX_HELLO`` bytes)."""
    try:
        message = await asyncio.wait_for(websocket.receive(), timeout=30)
    except TimeoutError:
        raise RequestRefused(400, "the first message is {seat, token} as JSON") from None
    if message.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    if len(raw) > _MAX_HELLO:
        raise RequestRefused(413, f"the first message is at most {_MAX_HELLO} bytes")
    hello: Any = parse(raw, "the first message")
    if not isinstance(hello, dict):
        raise RequestRefused(400, "the first message is {seat, token} as JSON")
    seat, token = hello.get("seat"), hello.get("token")
    if seat is None:
        return None
    if not isinstance(seat, str) or not (token is None or isinstance(token, str)):
        raise RequestRefused(400, "seat and token are strings")
    return session.authorise(seat, token)


async def live(websocket: WebSocket) -> None:
    """Push ``seat_view`` to one page whenever its game changes, until it goes away."""
    server: Server = websocket.app.state.server
    sessions = server.sessions
    await websocket.accept()
    session = sessions.get(websocket.path_params["game"])
    if session is None:
        await websocket.send_json({"error": "no such game on this server", "rule": None})
        await websocket.close(code=4404)
        return
    try:
        plan = await _hello(websocket, session)
    except RequestRefused as exc:
        await websocket.send_json({"error": exc.reason, "rule": exc.rule})
        await websocket.close(code=4000 + exc.status)
        return
    except WebSocketDisconnect:
        return
    changed = asyncio.Event()
    loop = asyncio.get_running_loop()

    def poke() -> None:
        loop.call_soon_threadsafe(changed.set)

    session.listeners.append(poke)
    gone = asyncio.ensure_future(websocket.receive())
    try:
        while True:
            changed.clear()
            await websocket.send_json(await run_in_threadpool(seat_view, session, plan, None))
            server.ensure_drawn(session, None if plan is None else plan.seat.side)
            while not changed.is_set():
                waiting = asyncio.ensure_future(changed.wait())
                await asyncio.wait({gone, waiting}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if gone.done():
                    if gone.result().get("type") == "websocket.disconnect":
                        return
                    gone = asyncio.ensure_future(websocket.receive())  # pings: ignored
    except (WebSocketDisconnect, RuntimeError):  # the page went away mid-send
        return
    finally:
        session.listeners.remove(poke)
        if not gone.done():
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await gone
