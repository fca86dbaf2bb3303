"""«Сталинград» in a balance study (:mod:`hexwar.study`, ``docs/studies.md``): the game,
its bots and its per-game hook.

The hook's figures, every turn: ``losses`` (steps lost per side in the turn, ground and
air: a full counter is 2 steps, a reduced one 1; rebuilt steps do not count against it),
``ring`` (the 6th Army encircled at the end of the turn, ruling S11.1),
``relief_distance`` (hexes from the nearest relief-group unit to the nearest 6th Army unit
in the Stalingrad area, S11.2; ``None`` while either is missing), ``sixth_army`` (6th Army
counters on the map) and ``contact`` (the hexes of a relief contact, S11.2). At the end of
the game: ``margin`` (Wehrmacht steps minus RKKA steps on the map and in the air: the
material balance), ``final_relief_distance`` (as above, at the end), ``cards`` (per side,
the cards it played, S5) and ``hexes``: ``contact`` (a relief contact's hexes) and ``ring``
(the RKKA hexes next to the pocket when it is encircled) — where the game was decided.

    python -m hexwar_stalingrad study --games 100 --length short,long --out results.jsonl
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from hexwar.engine.actions import Action
from hexwar.engine.loop import Player
from hexwar.engine.state import State
from hexwar.mechanics.supply import trace_lengths
from hexwar.render import render_svg
from hexwar.study import StudyGame
from hexwar_stalingrad import air, victory
from hexwar_stalingrad.board import (
    DEAD,
    FULL,
    POOL,
    REDUCED,
    SIDES,
    on_map,
    static,
    step,
    where,
)
from hexwar_stalingrad.ground import zoc_of_side
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.render import STYLE
from hexwar_stalingrad.rules import StalingradRules

__all__ = ["GAME", "StalingradHook", "contact_hexes", "ring_hexes", "steps"]

_STEPS = {FULL: 2, REDUCED: 1}
#: The action kind that plays a card (S5).
PLAY: Final = "play"


def _all_steps(state: State) -> dict[str, int]:
    data = static(state)
    totals = dict.fromkeys(SIDES, 0)
    for unit, info in data.ground.items():
        if where(state, unit) != POOL:
            totals[info.side] += _STEPS.get(step(state, unit), 0)
    for unit, a in data.air.items():
        if air.air_where(state, unit) not in (POOL, DEAD):
            totals[a.side] += _STEPS.get(air.air_step(state, unit), 0)
    return totals


def steps(state: State, side: str) -> int:
    """Steps of ``side`` on the map and in the air (full 2, reduced 1): losses are their
    decrease."""
    return _all_steps(state)[side]


def _sixth_in_area(state: State) -> list[str]:
    data = static(state)
    return sorted(
        lab
        for lab, u in on_map(state, "wehrmacht")
        if victory.SIXTH_ARMY in data.ground[u].groups and lab in data.stalingrad_area
    )


def _relief(state: State) -> list[str]:
    data = static(state)
    return sorted(
        lab for lab, u in on_map(state, "wehrmacht") if victory.RELIEF in data.ground[u].groups
    )


def contact_hexes(state: State) -> list[str]:
    """The hexes of a relief contact (S11.2): relief units next to a 6th Army unit in the
    Stalingrad area, and those 6th Army units; sorted (empty: no contact)."""
    neighbors = static(state).neighbors
    sixth = set(_sixth_in_area(state))
    out: set[str] = set()
    for lab in _relief(state):
        touching = sixth.intersection(neighbors[lab])
        if touching:
            out |= {lab, *touching}
    return sorted(out)


def ring_hexes(state: State) -> list[str]:
    """The RKKA ground units' hexes next to the pocket (the hexes the 6th Army in the
    Stalingrad area can trace to, RKKA units and ZOC blocking as in S11.1), sorted; empty
    unless the 6th Army is encircled."""
    if not victory.encircled(state):
        return []
    data = static(state)
    rkka = {lab for lab, _ in on_map(state, "rkka")}
    blocked = data.impassable_cells | {data.cell(lab) for lab in rkka}
    stops = {data.cell(lab) for lab in zoc_of_side(state, "rkka")}
    sources = [data.cell(lab) for lab in _sixth_in_area(state)]
    pocket = {
        data.label(c) for c in trace_lengths(data.game_map, sources, blocked=blocked, stops=stops)
    }
    return sorted(lab for lab in rkka if pocket.intersection(data.neighbors[lab]))


def _sixth_on_map(state: State) -> int:
    ground = static(state).ground
    return sum(1 for _, u in on_map(state, "wehrmacht") if victory.SIXTH_ARMY in ground[u].groups)


def _relief_distance(state: State) -> int | None:
    data = static(state)
    sixth, relief = _sixth_in_area(state), _relief(state)
    if not sixth or not relief:
        return None
    return min(data.distance(a, b) for a in relief for b in sixth)


class StalingradHook:
    """The per-game figures of «Сталинград» (see the module docstring)."""

    def __init__(self) -> None:
        self.prev: dict[str, int] = {}
        self.lost = dict.fromkeys(SIDES, 0)
        self.cards: dict[str, list[str]] = {s: [] for s in SIDES}

    def step(self, state: State, action: Action) -> None:
        if action.kind == PLAY and action.args:  # S5: a card played
            self.cards.setdefault(state.current_player(), []).append(action.args[0])
        now = _all_steps(state)
        for s in SIDES:
            if s in self.prev and now[s] < self.prev[s]:
                self.lost[s] += self.prev[s] - now[s]
        self.prev = now

    def turn(self, state: State) -> Mapping[str, Any]:
        self.step(state, Action("end"))  # the last action's losses
        figures = {
            "losses": dict(self.lost),
            "ring": victory.encircled(state),
            "relief_distance": _relief_distance(state),
            "sixth_army": _sixth_on_map(state),
            "contact": contact_hexes(state),
        }
        self.lost = dict.fromkeys(SIDES, 0)
        return figures

    def game(self, state: State) -> Mapping[str, Any]:
        now = _all_steps(state)
        return {
            "margin": now["wehrmacht"] - now["rkka"],
            "final_relief_distance": _relief_distance(state),
            "cards": {s: sorted(c) for s, c in sorted(self.cards.items())},
            "hexes": {"contact": contact_hexes(state), "ring": ring_hexes(state)},
        }


def _rules(options: Mapping[str, Any]) -> StalingradRules:
    opts = dict(options)
    scenario = opts.pop("scenario", None)
    if scenario is None:
        return StalingradRules(**opts)
    return StalingradRules.from_scenario(scenario, **opts)


_HEAT_STYLE = attrs.evolve(STYLE, highlight_opacity=0.8)


def _board(tints: Mapping[str, str], title: str) -> str:
    """The theatre map (terrain, rivers, railways, place names, towns) with ``tints``."""
    data = static(StalingradRules(length="short").new_state())
    marked = {data.cell(lab): colour for lab, colour in tints.items()}
    return str(render_svg(data.game_map, style=_HEAT_STYLE, highlight=marked, title=title,
                          width=1100))  # fmt: skip


def _heuristic(seed: int) -> Player:
    return HeuristicBot(seed)


#: «Сталинград» for :mod:`hexwar.study` (``hexwar_stalingrad.study:GAME``); options are
#: :class:`~hexwar_stalingrad.rules.StalingradRules`'s (``length``, ``players``,
#: ``sudden_death``, ``turns``) and ``scenario`` (a scenario directory).
GAME = StudyGame(
    name="stalingrad",
    rules=_rules,
    bots={"heuristic": _heuristic},
    hook=StalingradHook,
    notes={
        "ring": "the 6th Army encircled at the end of the turn (S11.1)",
        "losses": "steps lost in the turn (a full counter 2, a reduced one 1), ground and air",
        "relief_distance": "hexes from the relief group to the nearest 6th Army unit in the "
        "Stalingrad area (S11.2)",
        "sixth_army": "6th Army counters on the map at the end of the turn",
        "contact": "a relief contact with the 6th Army in the Stalingrad area (S11.2)",
        "hexes.contact": "the hexes of the relief contact at the end (S11.2)",
        "hexes.ring": "the RKKA hexes next to the encircled pocket at the end (S11.1)",
        "margin": "Wehrmacht steps minus RKKA steps at the end (material balance)",
        "final_relief_distance": "relief_distance at the end of the game (S11.2)",
    },
    board=_board,
)
