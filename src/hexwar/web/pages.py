"""The data of a seat's page (:func:`seat_view`) and the downloadable record."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from hexwar.base.errors import RequestRefused
from hexwar.engine.records import record_of
from hexwar.engine.state import HIDDEN
from hexwar.web.seats import SeatPlan
from hexwar.web.session import Session
from hexwar.web.views import secrets_of

__all__ = ["SPECTATOR", "decision_text", "record_json", "seat_view", "titles"]

#: The spectator: its observation is what every side may know.
SPECTATOR: Final = "*spectator*"
_LOG_SHOWN: Final = 60


def seat_view(session: Session, plan: SeatPlan | None, since: int | None) -> dict[str, Any]:
    """What the page of ``plan``'s seat (``None``: a spectator) shows, as JSON data;
    ``since``: the version the page shows (unchanged, board included: only ``version`` is
    sent). ``board`` is the latest board drawn for the seat's side and ``board_version``
    the number of actions it shows (:mod:`hexwar.web.drawn`: the server draws the current
    one meanwhile)."""
    side = None if plan is None else plan.seat.side
    with session.lock:
        state = session.state
        current = session.board_current(side)
        if since == len(state.history) and not session.undo_asked and current:
            return {"version": since, "unchanged": True}
        data = _view(session, plan)
        if session.game.board is None:
            data["board"], data["board_version"] = None, data["version"]
        else:
            data["board_version"], data["board"] = session.board_now(side)
    return data


def _view(session: Session, plan: SeatPlan | None) -> dict[str, Any]:
    """The page's data but the board (under the game's lock)."""
    state = session.state
    side = SPECTATOR if plan is None else plan.seat.side
    obs = state.observation(side)
    mine = (
        plan is not None and not state.is_terminal() and (state.current_player() == plan.seat.side)
    )
    history = obs["history"]
    shown = [(n, _log_line(session, n, e)) for n, e in enumerate(history)][-_LOG_SHOWN:]
    return {
        "id": session.id,
        "game": session.game.name,
        "title": session.game.title,
        "options": session.options,
        "seat": None if plan is None else plan.seat.name,
        "side": None if plan is None else plan.seat.side,
        "version": len(history),
        "turn": obs["turn"],
        "stage": obs["stage"],
        "phase": obs["phase"],
        "to_act": obs["to_act"],
        "decision": obs["decision"],
        "decision_text": decision_text(session, obs["decision"]),
        "your_turn": mine,
        "outcome": obs["outcome"],
        "seats": [
            {"name": n, "side": p.seat.side, "player": p.player}
            for n, p in sorted(session.seats.items())
        ],
        "secrets": {} if plan is None else secrets_of(state, plan.seat.side),
        "undo_asked": sorted(session.undo_asked) if session.undo_at == len(history) else [],
        "log": [(n, line) for n, line in shown if line is not None],
        "chance": sorted(i for i in session.chance if i >= len(history) - _LOG_SHOWN),
        "results": {
            str(i): r for i, r in sorted(session.results.items()) if i >= len(history) - _LOG_SHOWN
        },
        "tokens": list(state.legal_tokens(())) if mine else [],
        "titles": titles(session, state.legal_tokens(())) if mine else {},
        "board": None,
        "units": session.units_at(None if plan is None else plan.seat.side),
    }


def _log_line(session: Session, n: int, entry: str) -> str | None:
    """A log entry as the page shows it: a hidden chance event (a shuffle, a card dealt)
    is left out, another side's hidden choice is said in words."""
    if entry != HIDDEN:
        return entry
    return None if n in session.chance else "(a choice kept secret from you)"


def decision_text(session: Session, kind: str | None) -> str | None:
    """The pending decision in words: the game's (``WebGame.decisions``), else what the
    ruleset says its answer is (``step_meaning``), never its internal name."""
    if kind is None:
        return None
    found = session.game.decisions.get(kind)
    if found:
        return found
    with session.lock:
        state = session.state
        meaning = None if state.is_chance_node() else state.ruleset.step_meaning(state, ())
    return f"choose {meaning}" if meaning else "a decision to make (the buttons below)"


def titles(session: Session, tokens: Iterable[str]) -> dict[str, str]:
    """What the game calls each of ``tokens`` (a unit's or a card's name) for the
    buttons; none when the game gives no ``describe``."""
    describe = session.game.describe
    if describe is None:
        return {}
    with session.lock:
        return {t: d for t in tokens if (d := describe(session.state, t))}


def record_json(session: Session) -> str:
    """The game record (:class:`~hexwar.engine.records.GameRecord`) as JSON; only when
    the game is over (before that it would tell the decks and every hidden plan)."""
    with session.lock:
        if not session.state.is_terminal():
            raise RequestRefused(
                409,
                "the record holds every hidden thing (decks, plans); "
                "it can be downloaded once the game is over",
            )
        return record_of(session.state, seed=session.seed).to_json()
