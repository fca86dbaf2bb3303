"""Bridgehead in the browser: ``python -m hexwar serve examples.classic.web:WEB``.

>>> from hexwar.web.session import Session
>>> session, tokens = Session.create(WEB, {}, {"red": "random"})
>>> [unit for unit, _ in board(session.state, "blue").counters][:2]
['b-4arm', 'b-1inf']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hexwar import Ruleset, State
from hexwar.render import CounterView
from hexwar.web.games import BoardView, WebGame

from .data import UNITS
from .rules import COUNTERS, REG, Bridgehead
from .rules import board as game_map

__all__ = ["WEB", "board"]

COLOUR: Final = {"blue": "#3a64b5", "red": "#c8372d"}


def board(state: State, side: str | None) -> BoardView:
    """The map of this turn and every piece on it (nothing in Bridgehead is hidden)."""
    views = []
    for cell, pieces in sorted(REG.positions(state).items()):
        for piece in pieces:
            owner, track, _, _ = UNITS[piece]
            step = COUNTERS.step(state, piece)
            views.append(
                (
                    piece,
                    CounterView(
                        cell,
                        COLOUR[owner],
                        top=piece.split("-")[1],
                        bottom=f"{track.value(step, 'attack')}-{track.value(step, 'move')}",
                        reduced=step > 0,
                        text_colour="#ffffff",
                        title=piece,
                    ),
                )
            )
    return BoardView(game_map(state), views)


def _rules(options: Mapping[str, str]) -> Ruleset:
    return Bridgehead()


WEB: Final = WebGame(name="bridgehead", title="Bridgehead", rules=_rules, board=board)
