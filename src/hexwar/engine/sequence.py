"""The sequence of play as data: :class:`TurnSequence` of stages and phases, the :class:`Cursor`.

The declarations a game writes (see :mod:`hexwar.engine.sequencer`, which runs them):
:class:`Phase`, :class:`Stage`, :class:`Segment` (a dynamic stage picking tokens,
:func:`token_pick` / :func:`token_draw`), :class:`TurnSequence`; the serializable
:class:`Cursor`; and the protocols the sequencer needs of a state (:class:`Sequenced`)
and of a ruleset (:class:`SequencedRules`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Protocol

import attrs

from hexwar.base.errors import SequenceError
from hexwar.engine.actions import Action, Decision, Outcome, Value
from hexwar.engine.dice import draw_outcomes
from hexwar.engine.hooks import Expiry

__all__ = [
    "MARKS",
    "TOKEN",
    "Cursor",
    "Phase",
    "Segment",
    "Sequenced",
    "SequencedRules",
    "Stage",
    "TokenCup",
    "TurnSequence",
    "token_draw",
    "token_pick",
    "validate_cursor",
]

#: The kind of the decisions that pick a dynamic segment's next token.
TOKEN: Final = "$token"

#: Callbacks get the :class:`~hexwar.engine.state.State` (typed ``Any`` here: the sequencer
#: sits below the state and knows it only as :class:`Sequenced`).
StateFn = Callable[[Any], None]
Predicate = Callable[[Any], bool]


class SequencedRules(Protocol):
    """What the sequencer reads of a ruleset."""

    @property
    def sequence(self) -> TurnSequence: ...

    def final_outcome(self, state: Any) -> Outcome: ...


class Sequenced(Protocol):
    """What the sequencer needs of a state: :class:`~hexwar.engine.state.State` is one.

    Besides reading and writing through the state's ordinary API, the sequencer alone
    calls :meth:`move_cursor`, :meth:`lapse_effects`, :meth:`lapse_timed` and
    :meth:`phase_busy`; rules code never does.
    """

    @property
    def ruleset(self) -> SequencedRules: ...

    @property
    def cursor(self) -> Cursor: ...

    @property
    def turn(self) -> int: ...

    @property
    def token(self) -> str | None: ...

    @property
    def pending(self) -> tuple[Decision, ...]: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def table(self, name: str) -> Mapping[str, Value]: ...

    def delete(self, table: str, key: str) -> None: ...

    def push(self, decision: Decision) -> None: ...

    def hook(self, name: str, value: Any, **context: Any) -> Any: ...

    def end_game(self, outcome: Outcome) -> None: ...

    def move_cursor(self, cursor: Cursor) -> None:
        """Move the cursor (journaled)."""

    def lapse_effects(self, expiry: Expiry) -> None:
        """Remove the effects lasting until ``expiry``."""

    def lapse_timed(self) -> None:
        """Turn start: lapse the effects and timed markers whose turn has come."""

    def phase_busy(self, side: str) -> bool:
        """Whether ``side`` has a phase action besides END."""

    def current_phase(self) -> Phase | None:
        """The phase play is in (entered, not yet exited), or ``None``."""


class TokenCup(Protocol):
    """A segment's cup (:class:`hexwar.mechanics.cups.Cup` is one)."""

    def next(self, state: Any) -> Decision | None:
        """The decision picking the next token, or ``None`` once the cup is empty."""

    def take(self, state: Any, chit: str) -> None:
        """Take ``chit`` out of the cup."""


@attrs.frozen
class Phase:
    """A phase: who acts (``side``: a name, a function of the state, or ``None``).

    ``scratch``: names of tables emptied (journaled) when the phase is entered, before
    ``on_enter`` — per-phase bookkeeping such as ``("moved", "fired")``.
    ``may_end(state)``: while it is false the side is not offered
    :data:`~hexwar.engine.actions.END` (a mandatory move, «Бой отрядов» X.4); a phase that may
    not end and has no action to offer raises :class:`SequenceError`.
    ``kinds``: what the side may do in the phase, a :class:`~hexwar.engine.kinds.Kinds`
    whose kinds say what they do: the ruleset's default ``phase_tokens``, ``play`` and
    ``step_meaning`` answer from it (a game that overrides them may leave it out).
    """

    name: str
    side: str | Callable[[Any], str] | None = None
    skip: Predicate | None = None
    on_enter: StateFn | None = None
    on_exit: StateFn | None = None
    end_when_idle: bool = True
    scratch: tuple[str, ...] = ()
    may_end: Predicate | None = None
    kinds: PhaseKinds | None = None


class PhaseKinds(Protocol):
    """What a phase's kinds answer (:class:`hexwar.engine.kinds.Kinds`)."""

    def tokens(self, state: Any, ctx: Any, prefix: tuple[str, ...]) -> tuple[str, ...]: ...

    def meaning(self, prefix: tuple[str, ...]) -> str | None: ...

    def get(self, name: str) -> Any: ...

    def actions(self, state: Any, ctx: Any) -> list[Action]: ...


class DecisionKinds(Protocol):
    """A kind of decision (:class:`hexwar.engine.kinds.DecisionKind`)."""

    @property
    def name(self) -> str: ...

    @property
    def answers(self) -> PhaseKinds | None: ...

    @property
    def does(self) -> Any: ...


@attrs.frozen
class Stage:
    """A fixed run of phases; ``scratch`` tables are emptied when the stage is entered."""

    name: str
    phases: tuple[Phase, ...]
    skip: Predicate | None = None
    on_enter: StateFn | None = None
    on_exit: StateFn | None = None
    scratch: tuple[str, ...] = ()


@attrs.frozen
class Segment:
    """A dynamic stage: ``next(state)`` gives the decision picking the next token.

    The picked token is in ``state.token`` while the sub-``phases`` run for it. When a
    token is picked: the ``token_scratch`` tables are emptied (per-activation flags and
    context, e.g. ``("moved", "act")``), the token is taken out of ``cup`` if one is
    given (:class:`hexwar.mechanics.cups.Cup`), then ``on_token(state, token)`` runs. With a
    ``cup``, ``next`` defaults to ``cup.next``. ``scratch`` tables are emptied when the
    segment is entered.
    """

    name: str
    phases: tuple[Phase, ...]
    next: Callable[[Any], Decision | None] | None = None
    on_token: Callable[[Any, str], None] | None = None
    skip: Predicate | None = None
    on_enter: StateFn | None = None
    on_exit: StateFn | None = None
    scratch: tuple[str, ...] = ()
    token_scratch: tuple[str, ...] = ()
    cup: TokenCup | None = None

    def __attrs_post_init__(self) -> None:
        if self.next is None and self.cup is None:
            raise SequenceError(f"segment {self.name!r} needs next= or cup=")

    def next_token(self, state: Sequenced) -> Decision | None:
        """The decision picking the next token (``next``, else ``cup.next``), or ``None``."""
        if self.next is not None:
            return self.next(state)
        assert self.cup is not None  # checked at construction
        return self.cup.next(state)


@attrs.frozen
class TurnSequence:
    """The whole sequence of play: stages in order, repeated each turn up to ``turn_limit``."""

    stages: tuple[Stage | Segment, ...]
    turn_limit: int | None = None
    first_turn: int = 1
    on_turn_start: StateFn | None = None
    on_turn_end: StateFn | None = None

    @classmethod
    def each_side(
        cls,
        sides: Iterable[str],
        phases: Iterable[str] | Callable[[str], Iterable[Phase]],
        turn_limit: int | None = None,
        *,
        end: Iterable[Phase] = (),
        **options: Any,
    ) -> TurnSequence:
        """Each side in turn plays the same phases: one stage per side, named after it, of
        ``phases`` — names (one phase each, acted by the side) or a function of the side
        giving its phases —, then, if ``end`` has phases, a stage ``"end"`` of them
        (``options`` as for the class).

        >>> seq = TurnSequence.each_side(("blue", "red"), ("move", "attack"), turn_limit=3)
        >>> [(st.name, [(ph.name, ph.side) for ph in st.phases]) for st in seq.stages][1]
        ('red', [('move', 'red'), ('attack', 'red')])
        >>> seq.turn_limit
        3
        >>> seq = TurnSequence.each_side("ab", lambda side: (Phase("fire", side=side),),
        ...                              end=(Phase("rally"),))
        >>> [(st.name, [ph.name for ph in st.phases]) for st in seq.stages]
        [('a', ['fire']), ('b', ['fire']), ('end', ['rally'])]
        """
        made: Callable[[str], Iterable[Phase]]
        if callable(phases):
            made = phases
        else:
            names = tuple(phases)

            def made(side: str) -> tuple[Phase, ...]:
                return tuple(Phase(n, side=side) for n in names)

        stages = [Stage(side, tuple(made(side))) for side in sides]
        last = tuple(end)
        if last:
            stages.append(Stage("end", last))
        return cls(tuple(stages), turn_limit, **options)


MARKS: Final = ("new", "enter", "exit", "await", "token")


@attrs.frozen
class Cursor:
    """Where play stands: the last completed step of the sequence (serializable data).

    ``stage``/``phase`` are indexes (``-1``: at turn or stage level); ``mark`` is one of
    ``new`` (turn not started), ``enter``, ``exit``, ``await`` (a segment waits for its
    token decision) and ``token`` (a token was just picked). ``tokens`` lists the tokens
    of the current segment so far, in the order they were decided.
    """

    turn: int
    stage: int = -1
    phase: int = -1
    mark: str = "new"
    token: str | None = None
    tokens: tuple[str, ...] = ()


def token_pick(side: str, tokens: Iterable[str]) -> Decision:
    """A segment decision where ``side`` picks the next token (``pick <token>``)."""
    choices = tuple(Action("pick", (t,)) for t in sorted(set(tokens)))
    if not choices:
        raise SequenceError("token_pick needs at least one token")
    return Decision(TOKEN, side, choices=choices)


def token_draw(cup: Iterable[str], *, private: str | None = None) -> Decision:
    """A segment decision drawing the next token from ``cup`` (``draw <token>``)."""
    outcomes = tuple((Action("draw", (t,)), p) for t, p in draw_outcomes(list(cup)))
    return Decision.chance(TOKEN, outcomes, private=private)


def validate_cursor(sequence: TurnSequence, cursor: Cursor) -> None:
    """Raise :class:`SequenceError` unless ``cursor`` is a position of ``sequence``."""
    stages = sequence.stages
    if cursor.mark not in MARKS:
        raise SequenceError(f"unknown cursor mark {cursor.mark!r}")
    if not -1 <= cursor.stage <= len(stages):
        raise SequenceError(f"cursor stage {cursor.stage} out of range")
    if 0 <= cursor.stage < len(stages):
        if not -1 <= cursor.phase < len(stages[cursor.stage].phases):
            raise SequenceError(f"cursor phase {cursor.phase} out of range")
    elif cursor.phase != -1:
        raise SequenceError(f"cursor phase {cursor.phase} outside a stage")
