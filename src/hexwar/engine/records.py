"""Game records: what reproduces a game and proves, on replay, that it is the same game.

A **game record** (:class:`GameRecord`) names the ruleset it was played under (game,
rules version, rules options, a digest of the game's data), the scenario, state options,
seed, the actions in their text forms, and the ending it reached: checkpoints (short
digests of the position whenever the turn, stage or phase changed), the outcome and a
digest of the final position. :func:`record_of` makes one from a state; :func:`replay`
rebuilds the state by applying the actions (checked) to a new game and refuses it when
anything differs from what the record says; the result is the same in any process,
whatever ``PYTHONHASHSEED`` is. The JSON form shares the file format of save files
(:mod:`hexwar.engine.fileformat`; save files themselves: :mod:`hexwar.engine.savefile`).
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from hexwar.base.errors import HexwarError, RecordError
from hexwar.engine.actions import Action, Outcome, Value
from hexwar.engine.fileformat import (
    FORMAT_VERSION,
    check_rules,
    envelope,
    options_in,
    parse_json,
    position_digest,
    required,
    rules_identity,
    seal,
)
from hexwar.engine.snapshot import canonical, value_out
from hexwar.engine.state import Ruleset, State

__all__ = ["Checkpoint", "GameRecord", "record_of", "replay"]

_RECORD_FORMAT: Final = "hexwar-record"


Checkpoint = tuple[int, str]
_CHECK_DIGITS: Final = 16


@attrs.frozen
class GameRecord:
    """What reproduces a game and proves what it replays: the ruleset's identity (game,
    version, options, data digest), scenario, state options, seed, the actions' text forms
    and the recorded ending — checkpoints (a short digest of the position after each action
    that changed the turn, stage or phase), the outcome and the final position's digest.

    Its JSON form also carries a checksum (``digest``: SHA-256 of the canonical JSON of
    the rest) against accidents; the proof against a deliberate edit is the replay."""

    game: str
    scenario: str
    options: tuple[tuple[str, Value], ...]
    seed: int | None
    actions: tuple[str, ...]
    rules_version: str = attrs.field(kw_only=True)
    rules_options: tuple[tuple[str, Value], ...] = attrs.field(kw_only=True)
    data_digest: str = attrs.field(kw_only=True)
    checkpoints: tuple[Checkpoint, ...] = attrs.field(default=(), kw_only=True)
    outcome: Outcome | None = attrs.field(default=None, kw_only=True)
    #: SHA-256 of the final position (:func:`position_digest`); ``None``: not recorded
    #: (a record made by hand: :func:`replay` checks its actions' legality only).
    final_digest: str | None = attrs.field(default=None, kw_only=True)

    def to_json(self) -> str:
        """The record as JSON text."""
        o = self.outcome
        data = {
            "format": _RECORD_FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "rules_options": {k: value_out(v) for k, v in self.rules_options},
            "data_digest": self.data_digest,
            "scenario": self.scenario,
            "options": {k: value_out(v) for k, v in self.options},
            "seed": self.seed,
            "actions": list(self.actions),
            "checkpoints": [list(c) for c in self.checkpoints],
            "outcome": None if o is None else [o.winner, o.reason],
            "final_digest": self.final_digest,
        }
        data["digest"] = seal(data)
        return canonical(data)

    @classmethod
    def from_json(
        cls, ruleset: Ruleset, text: str | bytes, *, source: str = "<json>"
    ) -> GameRecord:
        """Parse a record for ``ruleset``: refused unless it names this ruleset (game,
        version, options, data digest); the actions are checked by :func:`replay`."""
        data = envelope(parse_json(text, source), _RECORD_FORMAT, ruleset, source)
        for name in ("scenario", "options", "seed", "actions", "checkpoints", "outcome"):
            required(data, name, source)
        if seal(data) != required(data, "digest", source):
            raise RecordError("digest mismatch: the record was altered or truncated", source=source)
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("actions must be a list of strings", source=source, entry="actions")
        seed = data["seed"]
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError("seed must be an integer or null", source=source, entry="seed")
        scenario = data["scenario"]
        if not isinstance(scenario, str):
            raise RecordError("scenario must be a string", source=source, entry="scenario")
        options = options_in(data["options"], source)
        final = required(data, "final_digest", source)
        if not isinstance(final, str):
            raise RecordError("final_digest must be a string", source=source, entry="final_digest")
        return cls(
            ruleset.name,
            scenario,
            tuple(sorted(options.items())),
            seed,
            tuple(actions),
            rules_version=ruleset.version,
            rules_options=tuple(sorted(ruleset.options().items())),
            data_digest=ruleset.data_digest(),
            checkpoints=_checkpoints_in(data["checkpoints"], source),
            outcome=_outcome_in(data["outcome"], source),
            final_digest=final,
        )


def _checkpoints_in(raw: Any, source: str) -> tuple[Checkpoint, ...]:
    if not isinstance(raw, list):
        raise RecordError("checkpoints must be a list", source=source, entry="checkpoints")
    checkpoints: list[Checkpoint] = []
    last = 0
    for i, c in enumerate(raw):
        if (
            not isinstance(c, list)
            or len(c) != 2
            or isinstance(c[0], bool)
            or not isinstance(c[0], int)
            or not isinstance(c[1], str)
            or not last < c[0]
        ):
            raise RecordError(
                "a checkpoint is [action count, digest], counts rising within the record",
                source=source,
                entry=f"checkpoints[{i}]",
            )
        last = c[0]
        checkpoints.append((c[0], c[1]))
    return tuple(checkpoints)


def _outcome_in(out: Any, source: str) -> Outcome | None:
    if out is None:
        return None
    if (
        not isinstance(out, list)
        or len(out) != 2
        or not (out[0] is None or isinstance(out[0], str))
        or not isinstance(out[1], str)
    ):
        raise RecordError(
            "outcome must be [winner or null, reason] or null", source=source, entry="outcome"
        )
    return Outcome(out[0], out[1])


def _where(state: State) -> tuple[int, int, int]:
    c = state.cursor
    return c.turn, c.stage, c.phase


def _checkpoint(state: State) -> str:
    return position_digest(state)[:_CHECK_DIGITS]


def record_of(state: State, *, seed: int | None = None) -> GameRecord:
    """The record of ``state``'s game so far, with its ending: the history is replayed
    (unchecked) from a new game to take the checkpoints, and must reach ``state``'s
    position (else :class:`RecordError`: the state was not made by its history)."""
    ruleset = state.ruleset
    actions = state.history
    again = ruleset.new_state(state.scenario, dict(state.options))
    checkpoints: list[Checkpoint] = []
    where = _where(again)
    for n, action in enumerate(actions, 1):
        again.apply_unchecked(action)
        now = _where(again)
        if now != where:
            checkpoints.append((n, _checkpoint(again)))
            where = now
    final = position_digest(state)
    if position_digest(again) != final:
        raise RecordError("the state's history does not lead to its position (a loaded state?)")
    return GameRecord(
        ruleset.name,
        state.scenario,
        tuple(sorted(state.options.items())),
        seed,
        tuple(str(a) for a in actions),
        rules_version=ruleset.version,
        rules_options=tuple(sorted(ruleset.options().items())),
        data_digest=ruleset.data_digest(),
        checkpoints=tuple(checkpoints),
        outcome=state.outcome,
        final_digest=final,
    )


def _diverged(record: GameRecord, lo: int, hi: int, state: State, why: str) -> RecordError:
    first = record.actions[lo] if lo < len(record.actions) else "-"
    last = record.actions[hi - 1] if 0 < hi <= len(record.actions) else "-"
    span = f"actions[{lo}]" if hi - lo <= 1 else f"actions[{lo}..{hi - 1}]"
    return RecordError(
        f"the replay diverges from the record: {why}; the first diverging action is "
        f"{span} ({first!r}{'' if hi - lo <= 1 else f' .. {last!r}'}; turn {state.turn})",
        entry=span,
    )


def replay(
    ruleset: Ruleset, record: GameRecord, *, check: bool = True, upto: int | None = None
) -> State:
    """Rebuild a game from its record and prove it is the recorded game.

    Refused (:class:`RecordError`) when the record names another ruleset (game, version,
    options, data digest) or scenario, when an action is illegal or unparsable (named by
    its index), or when the replay diverges from what the record says: a checkpoint,
    the outcome or the final position's digest differs (the error names the first
    action that may have diverged). ``upto``: stop after that many actions (no ending
    check; the checkpoints passed are still checked).
    """
    theirs = {
        "game": record.game,
        "rules_version": record.rules_version,
        "rules_options": {k: value_out(v) for k, v in record.rules_options},
        "data_digest": record.data_digest,
    }
    if theirs != rules_identity(ruleset):
        check_rules(ruleset, theirs, "<record>")
    try:
        state = ruleset.new_state(record.scenario, dict(record.options))
    except HexwarError as exc:
        raise RecordError(str(exc), entry="scenario") from None
    stop = len(record.actions) if upto is None else min(upto, len(record.actions))
    proof = _Proof(record, state) if record.final_digest is not None else None
    for i in range(stop):  # a hand-made record (no final digest) states no ending
        text = record.actions[i]
        try:
            action = Action.parse(text)
            if check:
                state.apply(action)
            else:
                state.apply_unchecked(action)
        except HexwarError as exc:
            raise RecordError(f"{text!r}: {exc}", entry=f"actions[{i}]") from None
        if proof is not None:
            proof.after(i + 1)
    if proof is not None and stop == len(record.actions):
        proof.ending(stop)
    return state


class _Proof:
    """A replay's comparison with the record: its checkpoints, outcome and final digest."""

    def __init__(self, record: GameRecord, state: State) -> None:
        self.record = record
        self.state = state
        self.expected = record.checkpoints
        self.k = 0  # the next recorded checkpoint
        self.lo = 0  # the actions after the last checkpoint passed
        self.where = _where(state)

    def after(self, n: int) -> None:
        """Compare the position after ``n`` actions with the record."""
        now = _where(self.state)
        made = now != self.where
        due = self.k < len(self.expected) and self.expected[self.k][0] == n
        if made or due:
            if made != due or _checkpoint(self.state) != self.expected[self.k][1]:
                why = f"the position after actions[{n - 1}] differs"
                raise _diverged(self.record, self.lo, n, self.state, why)
            self.k += 1
            self.lo = n
            self.where = now

    def ending(self, stop: int) -> None:
        """Compare the ending after all ``stop`` actions with the record's."""
        record, state = self.record, self.state
        if self.k != len(self.expected):
            why = (
                f"the actions stop at {stop}, before the recorded checkpoint after "
                f"{self.expected[self.k][0]} (a truncated record?)"
            )
            raise _diverged(record, self.lo, stop, state, why)
        if state.outcome != record.outcome:
            got, said = _ending_text(state.outcome), _ending_text(record.outcome)
            raise _diverged(record, self.lo, stop, state, f"outcome {got}, the record says {said}")
        if position_digest(state) != record.final_digest:
            why = "the final position differs from the recorded one"
            raise _diverged(record, self.lo, stop, state, why)


def _ending_text(outcome: Outcome | None) -> str:
    return "unfinished" if outcome is None else f"{outcome.winner}: {outcome.reason}"
