"""The context of one activation: which token, in what status, with which units and flags.

Chit-pull and impulse games activate one group of units at a time (Triumph & Glory
«Триумф и Слава» 5.3: a drawn marker activates its group, under orders or not; 5.5: a
reserve activation). While the activation lasts, rules ask "which group, which status,
which units act, which of them have moved / assaulted already". An :class:`Activation`
keeps that in state tables that are emptied when the next activation begins: pass
:attr:`Activation.scratch` as a :class:`~hexwar.engine.sequencer.Segment`'s ``token_scratch``.

>>> from hexwar.engine.state import Ruleset
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
>>> state = Game().new_state()
>>> act = Activation(flags=("moved", "fired"), owner=lambda state, token: "french")
>>> act.begin(state, "I-Corps", ["25L", "57L", "61L"], status="orders")
>>> act.token(state), act.side(state), act.status(state), act.units(state)
('I-Corps', 'french', 'orders', ('25L', '57L', '61L'))
>>> skip = act.skip_unless("orders", "reserve")     # a Phase(skip=...) predicate
>>> skip(state)
False
>>> act.flag(state, "moved", "57L")
>>> act.flag(state, "fired", "25L")
>>> act.ready(state, "moved"), act.ready(state, "moved", "fired")
(['25L', '61L'], ['61L'])
>>> act.unflag(state, "moved", "57L")
>>> act.ready(state, "moved")
['25L', '57L', '61L']
>>> act.scratch
('act', 'moved', 'fired')

:func:`alternate` is a ready-made ``Segment.next`` for activations that the sides take
in turn (T&G 5.5: the reserve activation, one group per side or a pass).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from hexwar.base.errors import ActivationError
from hexwar.engine.actions import Decision
from hexwar.engine.sequencer import token_draw, token_pick
from hexwar.engine.state import State

__all__ = ["Activation", "alternate"]


@attrs.frozen
class Activation:
    """Per-activation context in ``table`` (token, status, units) and per-unit ``flags``
    tables (unit -> ``True``). With ``present(state, unit)`` (e.g. a
    :meth:`~hexwar.board.pieces.Pieces.is_placed`), :meth:`units` leaves out the units for
    which it is false (eliminated during the activation). ``owner(state, token)``: the
    side a token belongs to (see :meth:`side`; also a :class:`~hexwar.mechanics.cups.Cup` owner)."""

    table: str = "act"
    flags: tuple[str, ...] = ()
    present: Callable[[State, str], bool] | None = None
    owner: Callable[[State, str], str] | None = None

    @property
    def scratch(self) -> tuple[str, ...]:
        """The tables to empty when an activation begins (``Segment.token_scratch``)."""
        return (self.table, *self.flags)

    def begin(
        self, state: State, token: str, units: Iterable[str], *, status: str | None = None
    ) -> None:
        """Start the activation of ``token`` with ``units`` in ``status`` (journaled)."""
        state.put(self.table, "token", token)
        state.put(self.table, "status", status)
        state.put(self.table, "units", tuple(units))

    def active(self, state: State) -> bool:
        """Whether an activation has begun (since the scratch tables were last emptied)."""
        return state.get(self.table, "token") is not None

    def token(self, state: State) -> str:
        """The token (group, marker) being activated; :class:`ActivationError` if none."""
        token = state.get(self.table, "token")
        if token is None:
            raise ActivationError("no activation has begun")
        return str(token)

    def status(self, state: State) -> str | None:
        """The activation's status (``None`` if none was given, or no activation)."""
        status = state.get(self.table, "status")
        return None if status is None else str(status)

    def side(self, state: State) -> str:
        """The side whose activation it is, ``owner(state, token)`` (a phase's ``side``)."""
        if self.owner is None:
            raise ActivationError("an Activation without owner= cannot tell the active side")
        return self.owner(state, self.token(state))

    def skip_unless(self, *statuses: str) -> Callable[[State], bool]:
        """A phase ``skip`` predicate: true unless the activation's status is one of
        ``statuses`` (no activation, or another status: the phase is left out)."""
        return lambda state: self.status(state) not in statuses

    def set_status(self, state: State, status: str | None) -> None:
        """Change the status (an individual order that succeeded or failed)."""
        state.put(self.table, "status", status)

    def units(self, state: State) -> tuple[str, ...]:
        """The activated units (those still ``present``), in given order."""
        units: tuple[str, ...] = state.get(self.table, "units", ()) or ()  # type: ignore[assignment]
        if self.present is None:
            return units
        return tuple(u for u in units if self.present(state, u))

    def flag(self, state: State, name: str, *units: str) -> None:
        """Mark ``units`` with flag ``name`` (has moved, has fired, ...)."""
        self._check(name)
        for unit in units:
            state.put(name, unit, True)

    def unflag(self, state: State, name: str, *units: str) -> None:
        """Clear flag ``name`` of ``units`` (T&G 6.12: a unit that moved may turn again)."""
        self._check(name)
        for unit in units:
            if state.get(name, unit):
                state.delete(name, unit)

    def flagged(self, state: State, *names: str) -> set[str]:
        """The units marked with any of the flags ``names``.

        >>> Activation(flags=("moved",)).flagged(None, "fired")  # type: ignore[arg-type]
        Traceback (most recent call last):
        ...
        hexwar.base.errors.ActivationError: 'fired' is not a flag of ...
        """
        for name in names:
            self._check(name)
        return {u for name in names for u, v in state.table(name).items() if v}

    def ready(self, state: State, *names: str) -> list[str]:
        """The activated units (sorted) not marked with any of the flags ``names``."""
        done = self.flagged(state, *names)
        return sorted(u for u in self.units(state) if u not in done)

    def _check(self, name: str) -> None:
        if name not in self.flags:
            raise ActivationError(f"{name!r} is not a flag of this activation {self.flags}")


def alternate(
    state: State,
    sides: Sequence[str],
    first: str | None,
    options: Callable[[State, str], Iterable[str]],
    *,
    rounds: int = 1,
    pass_token: str = "pass",
) -> Decision | None:
    """A :class:`~hexwar.engine.sequencer.Segment` ``next`` for activations taken in turn.

    The segment's first token is the side that starts: ``first`` picks it (the
    initiative holder) or, when ``first`` is ``None``, it is drawn at random (a roll-off
    with ties rolled again). Then, from that side on, the sides take turns picking one
    of ``options(state, side)`` or ``pass_token``, ``rounds`` times each; ``None`` after
    that (the segment ends). T&G 5.51-5.52: one reserve group per side.

    >>> from hexwar.engine.sequencer import Phase, Segment, TurnSequence
    >>> from hexwar.engine.state import Ruleset
    >>> groups = {"fr": ["I", "V"], "ru": ["N27"]}
    >>> nxt = lambda s: alternate(s, ("fr", "ru"), "ru", lambda s, side: groups[side])
    >>> class Game(Ruleset):
    ...     sides = ("fr", "ru")
    ...     sequence = TurnSequence((Segment("reserve", (Phase("act"),), nxt),))
    >>> state = Game().new_state()
    >>> [str(a) for a in state.legal_actions()]     # the Russians choose who starts
    ['pick fr', 'pick ru']
    >>> state.apply("pick fr")
    >>> [str(a) for a in state.legal_actions()]
    ['pick I', 'pick V', 'pick pass']
    >>> state.apply("pick V")
    >>> [str(a) for a in state.legal_actions()]
    ['pick N27', 'pick pass']
    >>> state.apply("pick pass")
    >>> state.turn, state.cursor.tokens
    (2, ())
    """
    tokens = state.cursor.tokens
    if not tokens:
        return token_draw(sides) if first is None else token_pick(first, sides)
    if len(tokens) > rounds * len(sides):
        return None
    side = sides[(sides.index(tokens[0]) + len(tokens) - 1) % len(sides)]
    return token_pick(side, [*options(state, side), pass_token])
