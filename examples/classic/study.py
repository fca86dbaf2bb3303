"""Bridgehead in a balance study (``docs/studies.md``): ``examples.classic.study:GAME``.

Besides the ruleset as it is, a study may vary one of Bridgehead's data values:
``replacement_points`` (``data.REPLACEMENT_POINTS``, the points each side receives per
turn). A ruleset with another value carries it as a rules option, so its game records
say which game they are. The hook gives, per turn, the towns Blue holds (``blue_towns``);
per game, the ``margin`` (towns Blue holds beyond the two it needs: 0 or more, Blue won)
and, as deciding hexes, the towns Blue holds at the end (``blue_towns``).

    python -m hexwar study examples.classic.study:GAME --vary replacement_points=0,1,2,3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from hexwar.engine.actions import Action, Value
from hexwar.engine.sequencer import TurnSequence
from hexwar.engine.state import State
from hexwar.render import Style, render_svg
from hexwar.study import StudyError, StudyGame

from .data import MAP, REPLACEMENT_POINTS, SIDES, TOWNS, TURNS, cell
from .rules import REPLACEMENTS, TOWN_CONTROL, Bridgehead, side_stage

__all__ = ["GAME", "StudiedBridgehead", "margin"]

#: Towns Blue must hold at the end to win (the rules' victory condition).
TOWNS_TO_WIN = 2


class StudiedBridgehead(Bridgehead):
    """Bridgehead with ``replacement_points`` points per side and turn (default: the
    data's); a non-default value is a rules option (records and saves carry it)."""

    def __init__(self, replacement_points: int = REPLACEMENT_POINTS) -> None:
        if isinstance(replacement_points, bool) or not isinstance(replacement_points, int):
            raise StudyError(f"replacement_points must be an integer, not {replacement_points!r}")
        if replacement_points < 0:
            raise StudyError(f"replacement_points must be 0 or more, not {replacement_points}")
        self.replacement_points = replacement_points
        self.sequence = TurnSequence(
            (side_stage("blue"), side_stage("red"), Bridgehead.end),
            TURNS,
            on_turn_start=self._grant,
        )

    def _grant(self, state: State) -> None:
        for side in SIDES:  # points are kept from turn to turn
            REPLACEMENTS.grant(state, side, self.replacement_points, keep=True)

    def options(self) -> Mapping[str, Value]:
        if self.replacement_points == REPLACEMENT_POINTS:
            return {}
        return {"replacement_points": self.replacement_points}


def margin(state: State) -> int:
    """Towns Blue holds beyond the two it needs (0 or more: Blue wins at the end)."""
    return TOWN_CONTROL.count(state, "blue") - TOWNS_TO_WIN


class BridgeheadHook:
    """Towns held per turn; the margin and the towns Blue holds at the end."""

    def step(self, state: State, action: Action) -> None:
        pass

    def turn(self, state: State) -> Mapping[str, Any]:
        return {"blue_towns": TOWN_CONTROL.count(state, "blue")}

    def game(self, state: State) -> Mapping[str, Any]:
        held = sorted(MAP.label(c) for c in TOWN_CONTROL.held(state, "blue"))
        return {"margin": margin(state), "hexes": {"blue_towns": held}}


def _rules(options: Mapping[str, Any]) -> Bridgehead:
    unknown = sorted(set(options) - {"replacement_points"})
    if unknown:
        raise StudyError(f"bridgehead: unknown option {unknown[0]!r} (known: replacement_points)")
    return StudiedBridgehead(**options)


_STYLE = attrs.evolve(Style(), highlight_opacity=0.8)


def _board(tints: Mapping[str, str], title: str) -> str:
    """The map (terrain, river and bridge, hex labels) with ``tints`` on it."""
    marked = {MAP.cell_at(lab): colour for lab, colour in tints.items()}
    return str(render_svg(MAP, style=_STYLE, labels=True, highlight=marked, title=title,
                          width=640))  # fmt: skip


#: Bridgehead for :mod:`hexwar.study`.
GAME = StudyGame(
    name="bridgehead",
    rules=_rules,
    hook=BridgeheadHook,
    board=_board,
    notes={
        "blue_towns": f"towns Blue holds at the end of the turn (of {len(TOWNS)}: "
        + ", ".join(TOWNS)
        + ")",
        "margin": f"towns Blue holds at the end beyond the {TOWNS_TO_WIN} it needs "
        "(0 or more: Blue won)",
        "hexes.blue_towns": "the towns Blue holds at the end",
    },
)
assert all(MAP.label(cell(t)) == t for t in TOWNS)
