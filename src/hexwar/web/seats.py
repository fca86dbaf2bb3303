"""The seats of a game on the server: who plays each (a human through a secret link, or a
bot) and the SHA-256 of each human seat's token (the token itself is never stored)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from hexwar.base.errors import RequestRefused
from hexwar.engine.actions import Seat
from hexwar.web.games import WebGame

__all__ = ["HUMAN", "SeatPlan", "derived_seed", "seat_plans", "token_digest"]

#: The "player" of a seat played through its URL.
HUMAN: Final = "human"


@attrs.define
class SeatPlan:
    """A seat of a session: its engine seat, who plays it and its token's digest."""

    seat: Seat
    player: str
    token_sha256: str | None = None


def token_digest(token: str) -> str:
    """The SHA-256 (hex) of a seat token: what the save file keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def derived_seed(seed: int, *parts: object) -> int:
    """A seed derived from ``seed`` and ``parts`` (stable across processes)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def seat_plans(
    game: WebGame, seats: Iterable[Seat], players: Mapping[str, str]
) -> tuple[dict[str, SeatPlan], dict[str, str]]:
    """The plans of ``seats`` (``players``: seat -> ``"human"`` or a bot of ``game``; a
    seat left out is human) and each human seat's new secret token; a seat or bot that
    does not exist: :class:`~hexwar.base.errors.RequestRefused` 400."""
    engine_seats = {s.name: s for s in seats}
    unknown = sorted(set(players) - set(engine_seats))
    if unknown:
        raise RequestRefused(400, f"no seat {unknown[0]!r}; seats: {sorted(engine_seats)}")
    plans: dict[str, SeatPlan] = {}
    tokens: dict[str, str] = {}
    for name, seat in engine_seats.items():
        player = players.get(name, HUMAN)
        if player != HUMAN and player not in game.bots:
            raise RequestRefused(
                400, f"seat {name}: {player!r} is neither human nor a bot ({sorted(game.bots)})"
            )
        plan = SeatPlan(seat, player)
        if player == HUMAN:
            tokens[name] = secrets.token_urlsafe(18)
            plan.token_sha256 = token_digest(tokens[name])
        plans[name] = plan
    return plans, tokens
