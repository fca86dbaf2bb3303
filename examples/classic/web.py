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
from hexwar.web.combat import combat_support
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
    towns = [
        Marker(town, "★", COLOUR.get(owner or "", "#555555"), f"town held by {owner or 'nobody'}")
        for town in sorted(TOWN_CONTROL.cells)
        for owner in [TOWN_CONTROL.owner(state, town)]
    ]
    return BoardView(game_map(state), views, markers=towns)


def _rules(options: Mapping[str, str]) -> Ruleset:
    return Bridgehead()


WEB: Final = combat_support(  # the odds before an attack, the CRT result beside the roll
    WebGame(name="bridgehead", title="Bridgehead", rules=_rules, board=board), COMBAT
)
