"""HTTP helpers of the app: refusals as JSON answers, bodies read with a limit and parsed
strictly, the origin check, the seat of a request.

Every body is read as a stream and refused (413) as soon as it passes its limit — before
anything parses it —, then parsed by :func:`~hexwar.engine.fileformat.parse_json` (valid
UTF-8, no lone surrogate, bounded depth): no request of any shape reaches a parser that
could fail with a 500.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from hexwar.base.errors import HexwarError, RequestRefused
from hexwar.engine.fileformat import parse_json
from hexwar.web.seats import SeatPlan
from hexwar.web.session import Session

__all__ = [
    "LOCAL_HOSTS",
    "MAX_BODY",
    "TOKEN_HEADER",
    "Guard",
    "body",
    "check_host",
    "check_origin",
    "handler",
    "raw_body",
    "refused",
    "seat_of",
]

log = logging.getLogger("hexwar.web")

TOKEN_HEADER: Final = "x-hexwar-token"
#: The largest JSON body or form a request may send.
MAX_BODY: Final = 64 * 1024
#: The host names of this machine, always accepted in ``Host`` (with any port).
LOCAL_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})


def refused(exc: RequestRefused) -> JSONResponse:
    return JSONResponse({"error": exc.reason, "rule": exc.rule}, status_code=exc.status)


def handler(
    fn: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """``fn`` with every refusal (and any rules error that slipped through) answered as
    ``{"error", "rule"}`` with its 4xx status: no traceback reaches the client."""

    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except RequestRefused as exc:
            return refused(exc)
        except HexwarError as exc:  # a rule refused what the request asked
            return refused(RequestRefused(409, str(exc), getattr(exc, "rule", None)))

    return wrapped


async def raw_body(request: Request, limit: int) -> bytes:
    """The request's body, read as a stream; 413 as soon as it passes ``limit`` bytes
    (a ``Content-Length`` above it is refused before reading)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise RequestRefused(413, f"a request body is at most {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestRefused(413, f"a request body is at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse(raw: bytes | str, what: str) -> Any:
    """``raw`` parsed by :func:`~hexwar.engine.fileformat.parse_json`; 400 naming ``what``
    and the reason when it is not strict JSON."""
    try:
        return parse_json(raw, source=what)
    except HexwarError as exc:
        raise RequestRefused(400, str(exc)) from None


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes)."""
    data = parse(await raw_body(request, MAX_BODY), "the request body")
    if not isinstance(data, dict):
        raise RequestRefused(400, "the body must be a JSON object")
    return data


def _host_name(netloc: str) -> str:
    """``netloc``'s host without its port (``[::1]:8642`` -> ``::1``); ``""`` if bad."""
    try:
        return (urlsplit("//" + netloc).hostname or "").lower() if netloc.isascii() else ""
    except ValueError:
        return ""


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def check_host(conn: HTTPConnection, hosts: Collection[str]) -> None:
    """Refuse (403) a request whose ``Host`` names this server by a name it is not served
    under: a DNS-rebinding page (``evil.example`` pointed at 127.0.0.1) sends its own name.
    Accepted: this machine's names, any IP address, and ``hosts`` (``--host``,
    ``--allow-host``)."""
    host = conn.headers.get("host", "")
    name = _host_name(host)
    if not name or not (name in LOCAL_HOSTS or name in hosts or _is_ip(name)):
        raise RequestRefused(403, f"this server does not answer for host {host[:80]!r}")


def check_origin(conn: HTTPConnection) -> None:
    """Refuse (403) a request that a page of another site sent: its ``Origin`` is not this
    server's own (``Host``), or, without ``Origin``, ``Sec-Fetch-Site`` says cross-site.
    A client that is not a browser sends neither, and is let through."""
    host = conn.headers.get("host", "")
    origin = conn.headers.get("origin")
    if origin is None:
        if conn.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            raise RequestRefused(403, "a request from another site is refused")
        return
    try:
        parts = urlsplit(origin) if origin.isascii() else None
        ok = parts is not None and parts.scheme in ("http", "https") and parts.netloc == host
    except ValueError:
        ok = False
    if not ok:
        raise RequestRefused(403, f"a request from another origin ({origin[:80]!r}) is refused")


class Guard:
    """ASGI middleware: :func:`check_host` on every request and WebSocket, and
    :func:`check_origin` on every one that may change something (not ``GET`` /
    ``HEAD``) and on every WebSocket upgrade. A refused WebSocket is closed before it is
    accepted (the client sees HTTP 403)."""

    def __init__(self, app: ASGIApp, hosts: Collection[str]) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        try:
            check_host(conn, self.hosts)
            if scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD"):
                check_origin(conn)
        except RequestRefused as exc:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4403, "reason": exc.reason[:100]})
            else:
                await refused(exc)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def seat_of(session: Session, request: Request, name: object) -> SeatPlan:
    if not isinstance(name, str):
        raise RequestRefused(400, "name the seat (a string)")
    return session.authorise(name, request.headers.get(TOKEN_HEADER))
