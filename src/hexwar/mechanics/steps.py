"""Step counters: units that lose strength one step at a time, and the pool of the dead.

A classic counter prints its values on each of its *steps* (full on the front, reduced on
the back; some games have three or four steps on two counters). A :class:`StepTrack`
holds the printed values of each step, strongest first; :class:`StepCounters` keeps each
piece's current step in a state table (``steps[piece] = index``, ``0`` = full) and the
eliminated pieces in a pool table (``eliminated[piece] = side``), so clone, undo, save
files and replay cover them. Losing steps returns a :class:`Loss` that says how much
*printed* strength went with them — what an exchange "by printed points" counts.

>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> class Game(Ruleset):
...     sides = ("red", "blue")
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> state, reg = Game().new_state(), Pieces(HEX_CODEC)
>>> infantry = StepTrack.of({"attack": 6, "defence": 5}, {"attack": 3, "defence": 2})
>>> counters = StepCounters({"r-5ta": infantry}, pieces=reg)
>>> reg.place(state, "r-5ta", Hex(0, 0), "red")
>>> counters.value(state, "r-5ta", "attack")
6
>>> loss = counters.lose(state, "r-5ta")
>>> loss.printed("attack"), loss.eliminated, counters.value(state, "r-5ta", "attack")
(3, False, 3)
>>> gone = counters.lose(state, "r-5ta")
>>> gone.eliminated, counters.eliminated(state), reg.is_placed(state, "r-5ta")
(True, ['r-5ta'], False)
>>> counters.rebuild(state, "r-5ta", Hex(1, 0), step=1)
>>> counters.step(state, "r-5ta"), counters.eliminated(state), reg.where(state, "r-5ta")
(1, [], Hex(q=1, r=0))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

import attrs

from hexwar.base.errors import DataError, StepError
from hexwar.board.pieces import Pieces
from hexwar.engine.state import State

__all__ = ["Loss", "StepCounters", "StepTrack", "cheapest_cover"]

#: The default table names: each piece's step, and the pool of eliminated pieces.
STEPS_TABLE: Final = "steps"
POOL_TABLE: Final = "eliminated"


def _frozen_steps(steps: Iterable[Mapping[str, int]]) -> tuple[Mapping[str, int], ...]:
    return tuple(MappingProxyType(dict(s)) for s in steps)


@attrs.frozen
class StepTrack:
    """The printed values of a counter's steps, strongest first (every step names the same
    values, e.g. ``attack``, ``defence``, ``move``)."""

    steps: tuple[Mapping[str, int], ...] = attrs.field(converter=_frozen_steps)

    def __attrs_post_init__(self) -> None:
        if not self.steps:
            raise DataError("a step track needs at least one step")
        names = set(self.steps[0])
        for i, s in enumerate(self.steps):
            if set(s) != names:
                raise DataError(f"step {i} names {sorted(s)}, step 0 names {sorted(names)}")
            for name, v in s.items():
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise DataError(f"step {i}: {name} must be a non-negative integer, not {v!r}")

    @classmethod
    def of(cls, *steps: Mapping[str, int]) -> StepTrack:
        """A track from its steps, strongest first."""
        return cls(steps)

    def __len__(self) -> int:
        return len(self.steps)

    def value(self, step: int, name: str) -> int:
        """The printed ``name`` of step ``step``; 0 past the last step (eliminated)."""
        return self.steps[step][name] if step < len(self.steps) else 0


@attrs.frozen
class Loss:
    """What losing steps took from one piece: the step it was on and is on now (``after
    == len(track)``: eliminated)."""

    piece: str
    track: StepTrack
    before: int
    after: int

    @property
    def steps(self) -> int:
        """How many steps were lost."""
        return self.after - self.before

    @property
    def eliminated(self) -> bool:
        """Whether the piece is gone (it went to the pool)."""
        return self.after >= len(self.track)

    def printed(self, name: str) -> int:
        """The printed ``name`` the piece lost (all of it when eliminated)."""
        return self.track.value(self.before, name) - self.track.value(self.after, name)


def _tracks(
    value: Mapping[str, StepTrack | Sequence[Mapping[str, int]]],
) -> Mapping[str, StepTrack]:
    if all(isinstance(t, StepTrack) for t in value.values()):
        return value  # type: ignore[return-value]  # every value is a track
    return {p: t if isinstance(t, StepTrack) else StepTrack(tuple(t)) for p, t in value.items()}


@attrs.frozen
class StepCounters:
    """The step state of a game's pieces: ``tracks`` by piece id (every piece that has
    steps; a track, or its steps as data, strongest first), kept in the state tables
    ``table`` and ``pool``.

    >>> tracks = {"r1": ({"attack": 4}, {"attack": 2})}
    >>> StepCounters(tracks).track("r1").value(1, "attack")
    2

    ``pieces``: the game's position registry; when given, an eliminated piece leaves the
    map and a rebuilt one is placed on it.
    """

    tracks: Mapping[str, StepTrack] = attrs.field(converter=_tracks)
    pieces: Pieces[Any] | None = None
    table: str = STEPS_TABLE
    pool: str = POOL_TABLE

    def track(self, piece: str) -> StepTrack:
        """The piece's track; :class:`StepError` if it has none."""
        found = self.tracks.get(piece)
        if found is None:
            raise StepError(f"{piece!r} has no step track")
        return found

    def step(self, state: State, piece: str) -> int:
        """The piece's current step: 0 is full strength, ``len(track)`` eliminated."""
        track = self.track(piece)
        if state.get(self.pool, piece) is not None:
            return len(track)
        value = state.get(self.table, piece, 0)
        assert isinstance(value, int)
        return value

    def value(self, state: State, piece: str, name: str) -> int:
        """The printed ``name`` of the piece's current step (0 when eliminated)."""
        return self.track(piece).value(self.step(state, piece), name)

    def is_eliminated(self, state: State, piece: str) -> bool:
        """Whether the piece is in the pool of eliminated pieces."""
        return state.get(self.pool, piece) is not None

    def eliminated(self, state: State, side: str | None = None) -> list[str]:
        """The eliminated pieces (of ``side``), sorted."""
        return sorted(p for p, s in state.table(self.pool).items() if side is None or s == side)

    def loss(self, state: State, piece: str, steps: int = 1) -> Loss:
        """What losing ``steps`` steps would take, without taking them."""
        if steps < 0:
            raise StepError(f"cannot lose {steps} steps")
        track = self.track(piece)
        before = self.step(state, piece)
        if before >= len(track):
            raise StepError(f"{piece!r} is already eliminated")
        return Loss(piece, track, before, min(len(track), before + steps))

    def lose(self, state: State, piece: str, steps: int = 1, *, side: str | None = None) -> Loss:
        """Take ``steps`` steps from the piece (at most all of them) and return the
        :class:`Loss`. An eliminated piece goes to the pool (with its ``side``, read from
        the registry when there is one) and leaves the map."""
        loss = self.loss(state, piece, steps)
        if loss.eliminated:
            owner = side
            if self.pieces is not None and self.pieces.is_placed(state, piece):
                owner = owner or self.pieces.side(state, piece)
                self.pieces.remove(state, piece)
            state.put(self.pool, piece, owner or "")
            state.delete(self.table, piece)
        else:
            state.put(self.table, piece, loss.after)
        return loss

    def restore(self, state: State, piece: str, steps: int = 1) -> int:
        """Give back up to ``steps`` steps to a piece on the map; returns how many."""
        current = self.step(state, piece)
        if current >= len(self.track(piece)):
            raise StepError(f"{piece!r} is eliminated: rebuild it instead")
        back = min(steps, current)
        if current - back == 0:
            state.delete(self.table, piece)
        else:
            state.put(self.table, piece, current - back)
        return back

    def rebuild(
        self, state: State, piece: str, cell: Any = None, *, step: int = 0, side: str | None = None
    ) -> None:
        """Bring an eliminated piece back at ``step`` (0 = full), onto ``cell`` through
        the registry when there is one (its side: ``side`` or the one it died with)."""
        track = self.track(piece)
        if not self.is_eliminated(state, piece):
            raise StepError(f"{piece!r} is not eliminated")
        if not 0 <= step < len(track):
            raise StepError(f"{piece!r} has no step {step}")
        owner = side or str(state.get(self.pool, piece))
        state.delete(self.pool, piece)
        if step:
            state.put(self.table, piece, step)
        if self.pieces is not None:
            if cell is None:
                raise StepError(f"rebuilding {piece!r} needs a cell")
            self.pieces.place(state, piece, cell, owner)


def cheapest_cover(
    counters: StepCounters,
    state: State,
    candidates: Sequence[str],
    points: int,
    name: str,
) -> list[tuple[str, ...]]:
    """The minimal ways to lose at least ``points`` printed ``name`` by single steps of
    ``candidates``: each way is a tuple of pieces (one step each, a piece may appear as
    often as it has steps left), none of which could drop a step and still cover. When
    the candidates cannot cover it, the one way is every step they have (an exchange
    that runs out of attackers).

    >>> t = StepTrack.of({"a": 6}, {"a": 3})
    >>> c = StepCounters({"x": t, "y": StepTrack.of({"a": 2}, {"a": 1})})
    >>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
    >>> from hexwar.engine.state import Ruleset
    >>> class G(Ruleset):
    ...     sequence = TurnSequence((Stage("p", (Phase("m", "a", end_when_idle=False),)),))
    >>> cheapest_cover(c, G().new_state(), ["x", "y"], 2, "a")
    [('x',), ('y', 'y')]
    >>> cheapest_cover(c, G().new_state(), ["y"], 3, "a")     # runs out: every step
    [('y', 'y')]
    """
    left: dict[str, list[int]] = {}
    for piece in candidates:
        track, at = counters.track(piece), counters.step(state, piece)
        left[piece] = [
            track.value(i, name) - track.value(i + 1, name) for i in range(at, len(track))
        ]
    total = sum(sum(v) for v in left.values())
    if total < points:
        return [tuple(p for p in candidates for _ in left[p])]
    out: set[tuple[str, ...]] = set()

    def grow(i: int, taken: tuple[str, ...], got: int) -> None:
        if got >= points:
            out.add(taken)
            return
        if i == len(candidates):
            return
        piece = candidates[i]
        running = got
        for k, v in enumerate(left[piece]):
            running += v
            grow(i + 1, taken + (piece,) * (k + 1), running)
        grow(i + 1, taken, got)

    grow(0, (), 0)

    # keep the minimal ones: no single step can be dropped
    def covers(way: tuple[str, ...]) -> int:
        return sum(sum(left[p][: way.count(p)]) for p in set(way))

    minimal = [
        way for way in out if all(covers(way[:j] + way[j + 1 :]) < points for j in range(len(way)))
    ]
    return sorted(set(minimal))
