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
from hexwar.web.games import BoardView, Marker, WebGame

from .data import UNITS
from .rules import COMBAT, COUNTERS, REG, TOWN_CONTROL, Bridgehead
from .rules import board as game_map

__all__ = ["WEB", "board"]

COLOUR: Final = {"blue": "#3a64b5", "red": "#c8372d"}


def board(state: State, side: str | None) -> BoardView:
    """The map of this turn, every piece on it (nothing in Bridgehead is hidden) and a
    star on each town in the colour of the side holding it."""
    views = []
    for cell, pieces in sorted(REG.positions(state).items()):
        for piece in pieces:
            owner = UNITS[piece][0]
            step = COUNTERS.step(state, piece)
            attack, move = (COUNTERS.value(state, piece, v) for v in ("attack", "move"))
            views.append(
                (
                    piece,
                    CounterView(
                        cell,
                        COLOUR[owner],
                        top=piece.split("-")[1],
                        bottom=f"{attack}-{move}",
                        reduced=step > 0,
                        text_colour="#ffffff",
                        title=piece,
                    ),
                )
            )
    towns = [
        Marker(town, "★", COLOUR.get(owner or "", "#555555"), f"town held by {owner or 'nobody'}")
        for town in sorted(TOWN_CONTROL.cells)
        for owner in [TOWN_CONTROL.owner(state, town)]
    ]
    return BoardView(game_map(state), views, markers=towns)


def _rules(options: Mapping[str, str]) -> Ruleset:
    return Bridgehead()


#: With the odds before an attack and the CRT result beside the roll.
WEB: Final = WebGame(name="bridgehead", title="Bridgehead", rules=_rules, board=board).with_combat(
    COMBAT
)
