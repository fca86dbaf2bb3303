"""Where the counters are: the ground units on the core's piece registry and step counters.

State layout (``docs/stalingrad/rules.md``): a ground unit on the map is in the core
registry :data:`PIECES` (:class:`hexwar.board.pieces.Pieces` over map labels:
``pieces[id] = (label, side)``, ``stacks[label] = (id,)``, one unit per hex, S6.2); its
step is kept by the core's step counters (:func:`counters`,
:class:`hexwar.mechanics.steps.StepCounters`: ``steps[id] = 1`` while reduced, S1.3;
``eliminated[id] = side`` for a destroyed or surrendered unit, S4.1). A unit in neither
table is in the pool: a turn-6 reserve not yet arrived (S3.2). All writes go through
:func:`place`, :func:`remove`, :func:`set_step` and :func:`take_loss`.
"""

from __future__ import annotations

from typing import Final

from hexwar.board.pieces import LABELS, Pieces
from hexwar.engine.state import State
from hexwar.mechanics.steps import StepCounters
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.units import GroundUnit

__all__ = [
    "DEAD",
    "ELIMINATED",
    "FULL",
    "GONE",
    "PIECES",
    "POOL",
    "REDUCED",
    "SIDES",
    "STEPS",
    "counters",
    "enemy",
    "on_map",
    "place",
    "remove",
    "set_aside",
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
#: A step counter's index (0 full, 1 reduced, 2 eliminated: S1.3, S4.1) -> its name.
STEP_NAMES: Final = (FULL, REDUCED, GONE)

#: The ground units on the map (S6.2: one per hex), by map label.
PIECES: Final[Pieces[str]] = Pieces(LABELS)
#: The step counters' tables: a reduced unit's step (1, S1.3) and the dead (S4.1).
STEPS: Final = "steps"
ELIMINATED: Final = "eliminated"


def static(state: State) -> Static:
    """The compiled scenario data of the state's ruleset (a «Сталинград» ruleset's
    ``data``); ``TypeError`` for a state of any other game (no fallback to the shipped
    data)."""
    data = getattr(state.ruleset, "data", None)
    if not isinstance(data, Static):
        raise TypeError(f"{type(state.ruleset).__name__} has no «Сталинград» scenario data")
    return data


def counters(state: State) -> StepCounters:
    """The ground units' step counters (two steps each, S1.3) on :data:`PIECES` (built
    with the ruleset, :class:`hexwar_stalingrad.ground.Ground`)."""
    found: StepCounters = state.ruleset.ground.counters  # type: ignore[attr-defined]
    return found


def enemy(side: str) -> str:
    """The other side."""
    return SIDES[1 - SIDES.index(side)]


def where(state: State, unit: str) -> str:
    """A ground unit's label, ``"pool"`` or ``"dead"``."""
    label = PIECES.label_of(state, unit)
    if label is not None:
        return label
    return DEAD if state.get(ELIMINATED, unit) is not None else POOL


def step(state: State, unit: str) -> str:
    """``"full"``, ``"reduced"`` or ``"gone"`` (:func:`counters`' step, read from its
    tables)."""
    if state.get(ELIMINATED, unit) is not None:
        return GONE
    return REDUCED if state.get(STEPS, unit) else FULL


def unit_at(state: State, label: str) -> str | None:
    """The ground unit on ``label``, or ``None``."""
    stack = PIECES.occupied(state).get(label)
    return stack[0] if stack else None


def on_map(state: State, side: str | None = None) -> list[tuple[str, str]]:
    """``(label, unit)`` of the ground units on the map (of ``side``), sorted by unit (the
    core's :class:`~hexwar.board.occupancy.Placed`); each call returns a fresh list."""
    return list(_ON_MAP(state, side))


#: The units on the map by side (reads only the pieces table).
_ON_MAP: Final = PIECES.placed(SIDES)


def place(state: State, unit: str, label: str, unit_step: str | None = None) -> None:
    """Put ``unit`` on ``label``: moving it if on the map, from the pool, or rebuilding it
    if dead (then ``unit_step`` is required, S4.1); ``label`` must be empty (S6.2)."""
    held = unit_at(state, label)
    if held is not None:
        raise AssertionError(f"{label} is occupied by {held}")
    steps = counters(state)
    if PIECES.is_placed(state, unit):
        PIECES.move(state, unit, label)
    elif steps.is_eliminated(state, unit):
        assert unit_step is not None, f"rebuilding {unit} needs a step (S4.1)"
        steps.rebuild(state, unit, label, step=STEP_NAMES.index(unit_step))
        return
    else:
        PIECES.place(state, unit, label, _info(state, unit).side)
    if unit_step is not None:
        set_step(state, unit, unit_step)


def remove(state: State, unit: str) -> None:
    """Take ``unit`` off the map: destroyed or surrendered (S8.4; counts as dead, S4.1)."""
    steps = counters(state)
    if not steps.is_eliminated(state, unit):
        steps.lose(state, unit, len(steps.track(unit)), side=_info(state, unit).side)


def set_aside(state: State, unit: str) -> None:
    """Put ``unit`` back into the pool at full strength, wherever it was (a test
    situation's set-up, :mod:`hexwar_stalingrad.situations`; no rule does this)."""
    if PIECES.is_placed(state, unit):
        PIECES.remove(state, unit)
    state.delete(ELIMINATED, unit)
    state.delete(STEPS, unit)


def set_step(state: State, unit: str, unit_step: str) -> None:
    """Flip a unit on the map or in the pool to ``unit_step`` (``"full"`` or ``"reduced"``)."""
    steps, now = counters(state), step(state, unit)
    if now == unit_step:
        return
    if unit_step == FULL:
        steps.restore(state, unit)
    else:
        assert unit_step == REDUCED, (unit, unit_step)
        assert now == FULL, (unit, now)
        steps.lose(state, unit)


def take_loss(state: State, unit: str) -> bool:
    """One loss (S1.3): full → reduced, reduced → destroyed. True if destroyed."""
    return counters(state).lose(state, unit).eliminated


def _info(state: State, unit: str) -> GroundUnit:
    return static(state).ground[unit]


def strength(state: State, unit: str) -> int:
    """The printed combat strength of the side the unit shows (S1.3)."""
    info = _info(state, unit)
    return info.strength.full if step(state, unit) == FULL else info.strength.reduced
