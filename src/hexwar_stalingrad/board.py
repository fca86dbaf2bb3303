"""Where the counters are: reading and writing the ``units`` and ``at`` tables.

State layout (``docs/stalingrad/rules.md``): ``units[id] = (where, step)`` with ``where``
a map label, ``"pool"`` (not yet arrived: turn-6 reserves, S3.2) or ``"dead"``
(destroyed or surrendered, S4.1), and ``step`` ``"full"`` / ``"reduced"`` (``"gone"`` when
dead); ``at[label] = id`` indexes the ground units on the map (one per hex, S6.2). All
writes go through :func:`place`, :func:`remove` and :func:`set_step`, which keep the two
tables in step.
"""

from __future__ import annotations

from typing import Final

from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.units import GroundUnit

__all__ = [
    "DEAD",
    "FULL",
    "GONE",
    "POOL",
    "REDUCED",
    "SIDES",
    "enemy",
    "on_map",
    "place",
    "remove",
    "set_step",
    "static",
    "step",
    "strength",
    "take_loss",
    "unit_at",
    "where",
]

SIDES: Final = ("rkka", "wehrmacht")
POOL: Final = "pool"
DEAD: Final = "dead"
FULL: Final = "full"
REDUCED: Final = "reduced"
GONE: Final = "gone"


def static(state: State) -> Static:
    """The compiled scenario data of the state's ruleset (a «Сталинград» ruleset's
    ``data``); ``TypeError`` for a state of any other game (no fallback to the shipped
    data)."""
    data = getattr(state.ruleset, "data", None)
    if not isinstance(data, Static):
        raise TypeError(f"{type(state.ruleset).__name__} has no «Сталинград» scenario data")
    return data


def enemy(side: str) -> str:
    """The other side."""
    return SIDES[1 - SIDES.index(side)]


def where(state: State, unit: str) -> str:
    """A ground unit's label, ``"pool"`` or ``"dead"``."""
    value = state.get("units", unit)
    assert isinstance(value, tuple), unit
    w = value[0]
    assert isinstance(w, str)
    return w


def step(state: State, unit: str) -> str:
    """``"full"``, ``"reduced"`` or ``"gone"``."""
    value = state.get("units", unit)
    assert isinstance(value, tuple), unit
    s = value[1]
    assert isinstance(s, str)
    return s


def unit_at(state: State, label: str) -> str | None:
    """The ground unit on ``label``, or ``None``."""
    u = state.get("at", label)
    return u if isinstance(u, str) else None


def on_map(state: State, side: str | None = None) -> list[tuple[str, str]]:
    """``(label, unit)`` of the ground units on the map (of ``side``), sorted by unit.

    Built for both sides at once and memoised on the ``at`` table's version
    (:data:`_ON_MAP`), so positions that differ elsewhere share it; each call returns a
    fresh list."""
    return list(_ON_MAP(state)[side])


def _second(pair: tuple[str, str]) -> str:
    return pair[1]


def _on_map(state: State) -> dict[str | None, tuple[tuple[str, str], ...]]:
    ground = static(state).ground
    every = sorted(
        ((lab, u) for lab, u in state.table("at").items() if isinstance(u, str)), key=_second
    )
    out: dict[str | None, tuple[tuple[str, str], ...]] = {None: tuple(every)}
    for side in SIDES:
        out[side] = tuple(pair for pair in every if ground[pair[1]].side == side)
    return out


#: The units on the map by side: reads only ``at`` (and the ruleset's static data);
#: at most 256 placements kept.
_ON_MAP: Final = StateMemo(reads=("at",), compute=_on_map, size=256)


def place(state: State, unit: str, label: str, unit_step: str | None = None) -> None:
    """Put ``unit`` on ``label`` (moving it if on the map); ``label`` must be empty."""
    old = where(state, unit)
    if unit_at(state, label) is not None:
        raise AssertionError(f"{label} is occupied by {unit_at(state, label)}")
    if old not in (POOL, DEAD):
        state.delete("at", old)
    state.put("units", unit, (label, unit_step or step(state, unit)))
    state.put("at", label, unit)


def remove(state: State, unit: str) -> None:
    """Take ``unit`` off the map: destroyed or surrendered (S8.4; counts as dead, S4.1)."""
    old = where(state, unit)
    if old not in (POOL, DEAD):
        state.delete("at", old)
    state.put("units", unit, (DEAD, GONE))


def set_step(state: State, unit: str, unit_step: str) -> None:
    """Flip a unit to ``unit_step`` where it stands."""
    state.put("units", unit, (where(state, unit), unit_step))


def take_loss(state: State, unit: str) -> bool:
    """One loss (S1.3): full → reduced, reduced → destroyed. True if destroyed."""
    if step(state, unit) == FULL:
        set_step(state, unit, REDUCED)
        return False
    remove(state, unit)
    return True


def _info(state: State, unit: str) -> GroundUnit:
    return static(state).ground[unit]


def strength(state: State, unit: str) -> int:
    """The printed combat strength of the side the unit shows (S1.3)."""
    info = _info(state, unit)
    return info.strength.full if step(state, unit) == FULL else info.strength.reduced
