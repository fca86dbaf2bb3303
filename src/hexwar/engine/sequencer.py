"""The phase sequencer: turn → stage → phase, declared as data; the cursor lives in the state.

A game declares its sequence of play once (the names are the game's own, S4)::

    TurnSequence(
        stages=(
            Stage("cards", (Phase("draw", on_enter=deal),)),
            Stage("air", (Phase("bombers", side="both"), ...), skip=non_flying_weather),
            Stage("rkka", (Phase("movement", side="rkka"), Phase("attack", side="rkka"))),
        ),
        turn_limit=10,
    )

- A :class:`Phase` with a ``side`` waits for that side's actions; it ends when the side
  plays :data:`~hexwar.engine.actions.END` or (``end_when_idle``) has nothing else to do
  ("a stage or phase with nothing to do is skipped", S4). A phase without a side is
  automatic: its ``on_enter`` / ``on_exit`` run and play goes on.
- ``skip`` predicates leave out a stage or phase ("no air stage in non-flying weather").
- A :class:`Segment` is a *dynamic* stage whose order is decided at run time: before
  each activation its ``next`` callback returns a decision that picks a token (a side's
  pick: :func:`token_pick`, or a draw from a cup: :func:`token_draw`), and the segment's
  sub-phases run for that token (Triumph & Glory chit-pull activations). ``next``
  returns ``None`` when the segment is over.

The :class:`Cursor` records the last completed step (``mark``), so any callback may push
a decision (a roll at the start of a phase) or end the game, and play resumes exactly
there — also after saving and loading.
"""

from __future__ import annotations

import attrs

from hexwar.base.errors import SequenceError
from hexwar.base.kept import kept
from hexwar.engine.actions import Action
from hexwar.engine.hooks import Expiry
from hexwar.engine.sequence import (
    MARKS,
    TOKEN,
    Cursor,
    Phase,
    Predicate,
    Segment,
    Sequenced,
    SequencedRules,
    Stage,
    StateFn,
    TokenCup,
    TurnSequence,
    token_draw,
    token_pick,
    validate_cursor,
)

__all__ = [
    "MARKS",
    "TOKEN",
    "Cursor",
    "Phase",
    "Predicate",
    "Segment",
    "Sequenced",
    "SequencedRules",
    "Stage",
    "StateFn",
    "TokenCup",
    "TurnSequence",
    "may_end",
    "phase_at",
    "token_draw",
    "token_pick",
    "validate_cursor",
]


# -- the flow ----------------------------------------------------------------------------

#: The cursors the sequencer has built, by their fields: a cursor is an immutable value,
#: so one object serves every state at that step (the attrs constructor runs once).
_CURSORS: dict[tuple[int, int, int, str, str | None, tuple[str, ...]], Cursor] = {}


def _cursor(
    turn: int,
    stage: int = -1,
    phase: int = -1,
    mark: str = "new",
    token: str | None = None,
    tokens: tuple[str, ...] = (),
) -> Cursor:
    """``Cursor(turn, stage, phase, mark, token, tokens)``, the same object each time."""
    key = (turn, stage, phase, mark, token, tokens)
    found = _CURSORS.get(key)
    if found is None:
        found = Cursor(turn, stage, phase, mark, token, tokens)
        kept(_CURSORS, key, found)
    return found


def _stages(state: Sequenced) -> tuple[Stage | Segment, ...]:
    return state.ruleset.sequence.stages


def phase_at(sequence: TurnSequence, c: Cursor) -> Phase | None:
    """The phase of ``sequence`` entered and not yet exited at cursor ``c``, or ``None``
    (:meth:`~hexwar.engine.state.State.current_phase` keeps it per cursor)."""
    if c.phase < 0 or c.mark != "enter":
        return None
    stages = sequence.stages
    return stages[c.stage].phases[c.phase] if c.stage < len(stages) else None


def current_stage(state: Sequenced) -> Stage | Segment | None:
    """The stage play is in, or ``None`` between turns."""
    c = state.cursor
    stages = _stages(state)
    return stages[c.stage] if 0 <= c.stage < len(stages) else None


def may_end(state: Sequenced) -> bool:
    """Whether the current phase may end now (its ``may_end`` predicate; default yes)."""
    phase = state.current_phase()
    return phase is None or phase.may_end is None or phase.may_end(state)


def _waiting(state: Sequenced, phase: Phase | None) -> bool:
    """Whether a side must act in ``phase``, the current phase (it has actions, or may not
    idle).

    Asks only whether the side has a first token (a kind with a legal completion,
    :meth:`~hexwar.engine.state.Ruleset.phase_tokens` at the empty prefix), never for the full
    list of actions. A phase that may not end (``may_end``) but offers nothing would never end: that
    raises :class:`SequenceError` instead of hanging.
    """
    if phase is None:
        return False
    side = phase.side if phase.side is None or isinstance(phase.side, str) else phase.side(state)
    if phase.may_end is not None and not phase.may_end(state):
        if side is None or not state.phase_busy(side):
            raise SequenceError(
                f"phase {phase.name!r} (turn {state.turn}) may not end yet (may_end is false)"
                f" but {side or 'nobody'} has no action to take"
            )
        return True
    if side is None:
        return False
    return not phase.end_when_idle or state.phase_busy(side)


def _clear(state: Sequenced, tables: tuple[str, ...]) -> None:
    for name in tables:
        for key in sorted(state.table(name)):
            state.delete(name, key)


def settle(state: Sequenced) -> None:
    """Advance until a decision is pending, a side must act, or the game is over: the one
    way play goes on (:meth:`~hexwar.engine.state.State.apply` and a new game call it)."""
    while state.outcome is None and not state.pending:
        if _waiting(state, state.current_phase()):
            return
        _step(state)


def end_phase(state: Sequenced, phase: Phase | None = None) -> None:
    """Exit the current phase (the :data:`END` action); ``phase``: the current phase if
    the caller has it at hand."""
    c = state.cursor
    if phase is None:
        phase = state.current_phase()
    if phase is None:
        raise SequenceError(f"no phase to end at {c}")
    if phase.may_end is not None and not phase.may_end(state):
        raise SequenceError(f"phase {phase.name!r} may not end yet (may_end is false)")
    state.move_cursor(_cursor(c.turn, c.stage, c.phase, "exit", c.token, c.tokens))
    state.hook("phase_end", None, phase=phase.name)
    if phase.on_exit is not None:
        phase.on_exit(state)
    state.lapse_effects(Expiry.PHASE)


def take_token(state: Sequenced, action: Action) -> None:
    """Resolve a :data:`TOKEN` decision: the action's last argument is the token."""
    c = state.cursor
    stage = current_stage(state)
    if c.mark != "await" or not isinstance(stage, Segment) or not action.args:
        raise SequenceError(f"no segment awaits a token at {c}")
    token = action.args[-1]
    state.move_cursor(attrs.evolve(c, mark="token", token=token, tokens=(*c.tokens, token)))
    _clear(state, stage.token_scratch)
    if stage.cup is not None:
        stage.cup.take(state, token)
    if stage.on_token is not None:
        stage.on_token(state, token)


def _step(state: Sequenced) -> None:
    c = state.cursor
    seq = state.ruleset.sequence
    stages = seq.stages
    mark = c.mark
    if c.phase >= 0 and mark != "new":  # in a phase or just out of one (the commonest)
        if mark == "enter":  # an automatic or idle phase (current_phase: this one)
            end_phase(state, stages[c.stage].phases[c.phase])
        elif mark == "await":
            raise SequenceError(f"a segment awaits a token decision, but none is pending ({c})")
        else:  # phase exited
            _enter_phase(state, c.phase + 1)
    elif mark == "new":
        state.move_cursor(_cursor(c.turn, -1, -1, "enter"))
        state.lapse_timed()
        if seq.on_turn_start is not None:
            seq.on_turn_start(state)
    elif c.stage == -1:  # turn started
        _enter_stage(state, 0)
    elif c.stage >= len(stages):  # turn ended
        state.move_cursor(_cursor(c.turn + 1))
    elif mark == "enter":  # a stage entered (phase -1 from here on)
        stage = stages[c.stage]
        if isinstance(stage, Segment):
            _ask_token(state, stage)
        else:
            _enter_phase(state, 0)
    elif mark == "token":
        _enter_phase(state, 0)
    elif mark == "exit":
        _enter_stage(state, c.stage + 1)
    else:  # "await"
        raise SequenceError(f"a segment awaits a token decision, but none is pending ({c})")


def _enter_stage(state: Sequenced, index: int) -> None:
    c = state.cursor
    stages = _stages(state)
    while index < len(stages) and (stages[index].skip is not None and stages[index].skip(state)):  # type: ignore[misc]
        index += 1
    if index >= len(stages):
        _end_turn(state)
        return
    stage = stages[index]
    state.move_cursor(_cursor(c.turn, index, -1, "enter"))
    if stage.scratch:
        _clear(state, stage.scratch)
    if stage.on_enter is not None:
        stage.on_enter(state)


def _ask_token(state: Sequenced, stage: Segment) -> None:
    c = state.cursor
    decision = stage.next_token(state)
    if decision is None:
        _exit_stage(state)
        return
    if decision.kind != TOKEN:
        raise SequenceError(f"segment {stage.name!r}: next() must return token_pick/token_draw")
    state.move_cursor(attrs.evolve(c, phase=-1, mark="await", token=None))
    state.push(decision)


def _enter_phase(state: Sequenced, index: int) -> None:
    c = state.cursor
    stage = state.ruleset.sequence.stages[c.stage]
    phases = stage.phases
    while index < len(phases) and phases[index].skip is not None and phases[index].skip(state):  # type: ignore[misc]
        index += 1
    if index >= len(phases):
        if isinstance(stage, Segment):
            _ask_token(state, stage)
        else:
            _exit_stage(state)
        return
    phase = phases[index]
    state.move_cursor(_cursor(c.turn, c.stage, index, "enter", c.token, c.tokens))
    if phase.scratch:
        _clear(state, phase.scratch)
    if phase.on_enter is not None:
        phase.on_enter(state)
    state.hook("phase_start", None, phase=phase.name)


def _exit_stage(state: Sequenced) -> None:
    c = state.cursor
    stage = _stages(state)[c.stage]
    state.move_cursor(_cursor(c.turn, c.stage, -1, "exit"))
    if stage.on_exit is not None:
        stage.on_exit(state)


def _end_turn(state: Sequenced) -> None:
    c = state.cursor
    seq = state.ruleset.sequence
    state.move_cursor(_cursor(c.turn, len(seq.stages), -1, "exit"))
    if seq.on_turn_end is not None:
        seq.on_turn_end(state)
    state.lapse_effects(Expiry.TURN)
    if state.outcome is None:
        outcome = state.hook("victory_check", None)
        if outcome is not None:
            state.end_game(outcome)
    if state.outcome is None and seq.turn_limit is not None and c.turn >= seq.turn_limit:
        state.end_game(state.ruleset.final_outcome(state))
