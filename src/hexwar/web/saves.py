"""Loading the server's saved games (:meth:`hexwar.web.session.Session.save` writes them).

A save is JSON: the game's name, options, seed, the data digest, the seats with the
SHA-256 of their tokens, the actions' text forms and who applied each. Loading replays
every action through ``state.apply``, so an edited file that breaks a rule is refused.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action
from hexwar.engine.fileformat import parse_json
from hexwar.web.games import WebGame
from hexwar.web.seats import HUMAN, SeatPlan
from hexwar.web.session import SAVE_FORMAT, SAVE_VERSION, Session

__all__ = ["MAX_SAVE", "load_session", "load_sessions"]

log = logging.getLogger("hexwar.web")

_ID: Final = re.compile(r"^[0-9a-f]{12}$")
#: A save file larger than this is not read (a long game's save is well under 1 MB).
MAX_SAVE: Final = 16 * 1024 * 1024


def load_session(path: Path, games: Mapping[str, WebGame]) -> Session:
    """A saved game, its actions replayed through the rules (``HexwarError`` or
    ``ValueError`` for a file that is not one of our saves or breaks a rule)."""
    if path.stat().st_size > MAX_SAVE:
        raise ValueError(f"{path}: larger than {MAX_SAVE} bytes")
    data = parse_json(path.read_bytes(), source=str(path))
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
    options, seats, actions = data["options"], data["seats"], data["actions"]
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise ValueError(f"{path}: `options` must map names to strings")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ValueError(f"{path}: `actions` must list the actions' texts")
    ruleset = game.ruleset(options)
    engine_seats = {s.name: s for s in ruleset.seats()}
    plans = {}
    for entry in seats if isinstance(seats, list) else [None]:
        if not isinstance(entry, dict) or entry.get("name") not in engine_seats:
            raise ValueError(f"{path}: bad seat entry {entry!r}")
        player, digest = entry.get("player"), entry.get("token_sha256")
        if not isinstance(player, str) or not (digest is None or isinstance(digest, str)):
            raise ValueError(f"{path}: bad seat entry {entry!r}")
        if player != HUMAN and player not in game.bots:
            raise ValueError(f"{path}: seat {entry['name']}: no bot {player!r} here")
        plans[entry["name"]] = SeatPlan(engine_seats[entry["name"]], player, digest)
    if not isinstance(data.get("seed"), int) or isinstance(data["seed"], bool):
        raise ValueError(f"{path}: the seed must be an integer")
    if data.get("data_digest", ruleset.data_digest()) != ruleset.data_digest():
        raise ValueError(f"{path}: saved with other game data (another scenario?)")
    session = Session(game_id, game, options, data["seed"], plans, path)
    for n, text in enumerate(actions):
        action = Action.parse(text)
        if session.state.is_chance_node():
            session.note_chance(action)
        try:
            session.state.apply(action)
        except HexwarError as exc:
            raise ValueError(f"{path}: action {n + 1} `{text}`: {exc}") from None
    by = data.get("by", [None] * len(actions))
    if not isinstance(by, list) or len(by) != len(actions):
        raise ValueError(f"{path}: `by` must list who applied each action")
    if not all(b is None or (isinstance(b, str) and b in plans) for b in by):
        raise ValueError(f"{path}: `by` names a seat this game does not have")
    session.by = by
    return session


def load_sessions(directory: Path, games: Mapping[str, WebGame]) -> dict[str, Session]:
    """Every saved game in ``directory`` that loads; a file that does not (not a save,
    truncated, breaking a rule, a game not served here) is logged with its name and
    reason and skipped, as is a second file holding a game id already loaded (both named).
    """
    out: dict[str, Session] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            session = load_session(path, games)
        except (HexwarError, ValueError, KeyError, TypeError, OSError) as exc:
            said = f"missing entry {exc}" if isinstance(exc, KeyError) else str(exc)
            reason = said if said.startswith(str(path)) else f"{path}: {said}"
            log.warning("hexwar: skipped a saved game: %s", reason)
            continue
        first = out.get(session.id)
        if first is not None:
            log.warning(
                "hexwar: skipped a saved game: %s holds game %s, already loaded from %s",
                path,
                session.id,
                first.path,
            )
            continue
        out[session.id] = session
    return out
