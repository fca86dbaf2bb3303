"""HTTP helpers of the app: refusals as JSON answers, the JSON body, the seat of a request."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from hexwar.base.errors import RequestRefused
from hexwar.web.seats import SeatPlan
from hexwar.web.session import Session

__all__ = ["TOKEN_HEADER", "body", "handler", "refused", "seat_of"]

TOKEN_HEADER: Final = "x-hexwar-token"
_MAX_BODY: Final = 64 * 1024


def refused(exc: RequestRefused) -> JSONResponse:
    return JSONResponse({"error": exc.reason, "rule": exc.rule}, status_code=exc.status)


def handler(
    fn: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except RequestRefused as exc:
            return refused(exc)

    return wrapped


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > _MAX_BODY:
        raise RequestRefused(413, f"a request body is at most {_MAX_BODY} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise RequestRefused(400, "the body must be JSON") from None
    if not isinstance(data, dict):
        raise RequestRefused(400, "the body must be a JSON object")
    return data


def seat_of(session: Session, request: Request, name: object) -> SeatPlan:
    if not isinstance(name, str):
        raise RequestRefused(400, "name the seat (a string)")
    return session.authorise(name, request.headers.get(TOKEN_HEADER))
