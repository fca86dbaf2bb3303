"""Bridgehead in a balance study (``docs/studies.md``): ``examples.classic.study:GAME``.

Besides the ruleset as it is, a study may vary Bridgehead's data values
``replacement_points`` (``data.REPLACEMENT_POINTS``, the points each side receives per
turn) and ``towns_to_win`` (``data.TOWNS_TO_WIN``, the towns Blue must hold at the end).
A ruleset with another value carries it as a rules option, so its game records say which
game they are. The hook gives, per turn, the towns Blue holds (``blue_towns``);
per game, the ``margin`` (towns Blue holds beyond those it needs: 0 or more, Blue won)
and, as deciding hexes, the towns Blue holds at the end (``blue_towns``).

    python -m hexwar study examples.classic.study:GAME --vary replacement_points=0,1,2,3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from hexwar import Action, DataError, Outcome, State
from hexwar.render import render_svg
from hexwar.study import StudyGame

from .data import MAP, REPLACEMENT_POINTS, SIDES, TOWNS, TOWNS_TO_WIN, cell
from .rules import REPLACEMENTS, TOWN_CONTROL, VICTORY, Bridgehead

__all__ = ["GAME", "StudiedBridgehead", "margin"]

DATA_VALUES: Final = {"replacement_points": REPLACEMENT_POINTS, "towns_to_win": TOWNS_TO_WIN}


class StudiedBridgehead(Bridgehead):
    """Bridgehead with ``replacement_points`` points per side and turn and
    ``towns_to_win`` towns for Blue's victory (default: the data's); a non-default value is
    a rules option (records and saves carry it)."""

    def __init__(
        self, replacement_points: int = REPLACEMENT_POINTS, towns_to_win: int = TOWNS_TO_WIN
    ) -> None:
        for name, value, top in (
            ("replacement_points", replacement_points, None),
            ("towns_to_win", towns_to_win, len(TOWNS)),  # ControlVictory needs 1 or more
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise DataError(f"{name} must be an integer, not {value!r}")
            low = 0 if top is None else 1
            if value < low or (top is not None and value > top):
                raise DataError(f"{name} must be from {low} to {top or 'any'}, not {value}")
        self.replacement_points = replacement_points
        self.towns_to_win = towns_to_win
        self.sequence = attrs.evolve(Bridgehead.sequence, on_turn_start=self._grant)

    def _grant(self, state: State) -> None:
        for side in SIDES:  # points are kept from turn to turn
            REPLACEMENTS.grant(state, side, self.replacement_points, keep=True)

    def options(self) -> Mapping[str, int]:
        """The data values that differ from the data's (none: the rules as published)."""
        mine = {"replacement_points": self.replacement_points, "towns_to_win": self.towns_to_win}
        return {k: v for k, v in mine.items() if v != DATA_VALUES[k]}

    def final_outcome(self, state: State) -> Outcome:
        return attrs.evolve(VICTORY, need=self.towns_to_win).outcome(state)


def margin(state: State) -> int:
    """Towns Blue holds beyond those it needs (0 or more: Blue wins at the end)."""
    needed = getattr(state.ruleset, "towns_to_win", TOWNS_TO_WIN)
    return TOWN_CONTROL.count(state, "blue") - int(needed)


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
    unknown = sorted(set(options) - set(DATA_VALUES))
    if unknown:
        known = ", ".join(DATA_VALUES)
        raise DataError(f"bridgehead: unknown option {unknown[0]!r} (known: {known})")
    return StudiedBridgehead(**options)


_STYLE: Final = {"highlight_opacity": 0.8}  # the render style's fields that differ


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
        "margin": "towns Blue holds at the end beyond those it needs (0 or more: Blue won)",
        "hexes.blue_towns": "the towns Blue holds at the end",
    },
)
assert all(MAP.label(cell(t)) == t for t in TOWNS)
