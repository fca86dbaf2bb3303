"""Loading the server's saved games (:meth:`hexwar.web.session.Session.save` writes them).

A save is JSON: the game's name, options, seed, the data digest, the seats with the
SHA-256 of their tokens, the actions' text forms and who applied each. Loading replays
every action through ``state.apply``, so an edited file that breaks a rule is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action
from hexwar.web.games import WebGame
from hexwar.web.seats import SeatPlan
from hexwar.web.session import SAVE_FORMAT, SAVE_VERSION, Session

__all__ = ["load_session", "load_sessions"]

_ID: Final = re.compile(r"^[0-9a-f]{12}$")


def load_session(path: Path, games: Mapping[str, WebGame]) -> Session:
    """A saved game, its actions replayed through the rules (``HexwarError`` or
    ``ValueError`` for a file that is not one of our saves or breaks a rule)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path}: not a {SAVE_FORMAT} file")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(f"{path}: save version {data.get('version')!r}, not {SAVE_VERSION}")
    name = data["game"]
    if name not in games:
        raise ValueError(f"{path}: game {name!r} is not served here")
    game = games[name]
    game_id = data["id"]
    if not isinstance(game_id, str) or not _ID.match(game_id):
        raise ValueError(f"{path}: bad game id {game_id!r}")
    ruleset = game.ruleset(data["options"])
    engine_seats = {s.name: s for s in ruleset.seats()}
    plans = {
        s["name"]: SeatPlan(engine_seats[s["name"]], s["player"], s["token_sha256"])
        for s in data["seats"]
    }
    if data.get("data_digest", ruleset.data_digest()) != ruleset.data_digest():
        raise ValueError(f"{path}: saved with other game data (another scenario?)")
    session = Session(game_id, game, data["options"], int(data["seed"]), plans, path)
    for n, text in enumerate(data["actions"]):
        if session.state.is_chance_node():
            session.chance.add(n)
        session.state.apply(Action.parse(text))
    by = data.get("by", [None] * len(data["actions"]))
    if not isinstance(by, list) or len(by) != len(data["actions"]):
        raise ValueError(f"{path}: `by` must list who applied each action")
    if not all(b is None or (isinstance(b, str) and b in plans) for b in by):
        raise ValueError(f"{path}: `by` names a seat this game does not have")
    session.by = by
    return session


def load_sessions(directory: Path, games: Mapping[str, WebGame]) -> dict[str, Session]:
    """Every saved game in ``directory``; a file that fails to load raises ``ValueError``
    naming it (the server does not start over a save it cannot trust)."""
    out = {}
    for path in sorted(directory.glob("*.json")):
        try:
            session = load_session(path, games)
        except (HexwarError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: cannot load this saved game: {exc}") from None
        out[session.id] = session
    return out
