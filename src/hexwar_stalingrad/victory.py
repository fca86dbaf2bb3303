"""Victory (S11): the ring around the 6th Army, Stalingrad, Manstein's relief.

Both S11.1 (the ring) and S11.2 (the relief's contact) count only the 6th Army units in
the Stalingrad area (``victory.toml``).

:func:`encircled` answers ruling S11.1 at any moment with the core's trace to a source
(:func:`hexwar.mechanics.supply.trace_lengths`): the 6th Army is encircled when none of
its ground units in the Stalingrad area (``victory.toml``) can trace a path of passable
hexes to a Wehrmacht supply source (``supply:wehrmacht`` cells) without entering a hex
that holds an RKKA ground unit or lies in an RKKA ZOC (its own hex may be in one).
"""

from __future__ import annotations

from typing import Final

from hexwar.engine.actions import Outcome
from hexwar.engine.state import State
from hexwar.mechanics.supply import trace_lengths
from hexwar_stalingrad.board import on_map, static
from hexwar_stalingrad.ground import zoc_of_side

__all__ = [
    "RELIEF",
    "SIXTH_ARMY",
    "SUPPLY_TAG",
    "encircled",
    "long_game_outcome",
    "relief_contact",
    "rkka_in_city",
    "short_game_outcome",
]

SIXTH_ARMY: Final = "6th_army"
RELIEF: Final = "relief_group"
SUPPLY_TAG: Final = "supply:wehrmacht"


def _group_cells(state: State, group: str) -> list[str]:
    ground = static(state).ground
    return [lab for lab, u in on_map(state, "wehrmacht") if group in ground[u].groups]


def encircled(state: State) -> bool:
    """Ruling S11.1: no 6th Army unit in the Stalingrad area can reach a supply source
    (vacuously true if there is none).

    The area is the hexes within ``victory.toml``'s ``area_radius`` of a city hex (the
    source: the 6th Army units "в Сталинграде"); a unit rebuilt on a far truck hex (S4.1)
    is not in it.
    """
    data = static(state)
    area = data.stalingrad_area
    sixth = [lab for lab in _group_cells(state, SIXTH_ARMY) if lab in area]
    if not sixth:
        return True
    cell = data.cell
    blocked = data.impassable_cells | {cell(lab) for lab, _ in on_map(state, "rkka")}
    stops = {cell(lab) for lab in zoc_of_side(state, "rkka")}
    sources = [cell(lab) for lab in data.tagged(SUPPLY_TAG)]
    reached = trace_lengths(data.game_map, sources, blocked=blocked, stops=stops)
    return not any(cell(lab) in reached for lab in sixth)


def rkka_in_city(state: State) -> bool:
    """S11.1: at least one RKKA ground unit in a Stalingrad city hex."""
    city = static(state).city
    return any(lab in city for lab, _ in on_map(state, "rkka"))


def relief_contact(state: State) -> bool:
    """S11.2: a relief-group (Manstein) unit adjacent to a 6th Army (Paulus) unit in the
    Stalingrad area.

    Ruling S11.2 (Dec 2026): only the 6th Army units in the S11.1 area (``victory.toml``)
    count — the relief must reach the pocket; a 6th Army unit rebuilt on a far truck hex
    (S4.1) or marched out of the area is no contact.
    """
    data = static(state)
    area, neighbors = data.stalingrad_area, data.neighbors
    sixth = {lab for lab in _group_cells(state, SIXTH_ARMY) if lab in area}
    return any(sixth.intersection(neighbors[lab]) for lab in _group_cells(state, RELIEF))


def short_game_outcome(state: State) -> Outcome:
    """S11.1, the 5-turn game: the reason names each condition the RKKA missed."""
    in_city, ring = rkka_in_city(state), encircled(state)
    if in_city and ring:
        return Outcome("rkka", "S11.1: RKKA in Stalingrad and the 6th Army encircled")
    missed = [
        *([] if ring else ["the ring around the 6th Army is not closed"]),
        *([] if in_city else ["no RKKA ground unit is in Stalingrad"]),
    ]
    return Outcome("wehrmacht", "S11.1: " + " and ".join(missed))


def long_game_outcome(state: State) -> Outcome:
    """S11.2, the 10-turn game."""
    if relief_contact(state):
        return Outcome("wehrmacht", "S11.2: Manstein's relief has reached the 6th Army")
    return Outcome("rkka", "S11.2: the relief did not reach the 6th Army")
