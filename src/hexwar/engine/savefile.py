"""State files (save files): the full state as JSON, versioned, validated before use.

:func:`dumps` writes the full state, including hidden information (it is a save file,
not an observation), with a format version, the ruleset's identity and a SHA-256 checksum
over the rest of the file (:mod:`hexwar.engine.fileformat`). :func:`loads` checks the
JSON, the envelope, the checksum, every field and the position itself
(:func:`validate_core`, then the ruleset's
:meth:`~hexwar.engine.state.Ruleset.validate_position`) *before* returning, so a
malformed, truncated or illegal file raises :class:`~hexwar.base.errors.RecordError` and
loads nothing half-way. Nothing is ever pickled.

The checksum catches accidents (a truncated copy, a flipped byte, a hand edit that forgot
it); anyone can recompute it, so it is no protection against a deliberate edit — the
position checks are (as far as they go; see ``docs/reliability.md``).

The undo log is not saved: a loaded state keeps its ``history`` but cannot undo past
the load (replay a :class:`~hexwar.engine.records.GameRecord` for that).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from hexwar.base.errors import DataError, RecordError, SequenceError
from hexwar.engine.actions import CHANCE, Decision, Outcome, Value
from hexwar.engine.fileformat import (
    FORMAT_VERSION,
    action_in,
    envelope,
    expect,
    opt_str,
    options_data,
    options_in,
    parse_json,
    rules_identity,
    seal,
    value_in,
)
from hexwar.engine.hooks import Effect, Expiry, hook_point
from hexwar.engine.sequencer import Cursor, validate_cursor
from hexwar.engine.snapshot import HistoryEntry, Snapshot, canonical
from hexwar.engine.state import Ruleset, State

__all__ = ["dumps", "loads", "state_from_data", "validate_core"]

_STATE_FORMAT: Final = "hexwar-state"


# -- data -> state (strict) ----------------------------------------------------------------


def _fraction_in(text: Any, where: str) -> Fraction:
    try:
        num, den = expect(text, str, where).split("/")
        p = Fraction(int(num), int(den))
    except (ValueError, ZeroDivisionError):
        raise RecordError(f"bad probability {text!r}", entry=where) from None
    if not 0 < p <= 1:
        raise RecordError(f"probability {p} outside (0, 1]", entry=where)
    return p


def _decision_in(data: Any, where: str) -> Decision:
    expect(data, dict, where)
    try:
        outcomes = tuple(
            (action_in(a, f"{where}.outcomes[{i}]"), _fraction_in(p, f"{where}.outcomes[{i}]"))
            for i, (a, p) in enumerate(expect(data["outcomes"], list, where))
        )
        decision = Decision(
            expect(data["kind"], str, f"{where}.kind"),
            expect(data["side"], str, f"{where}.side"),
            value_in(expect(data["params"], list, f"{where}.params"), f"{where}.params"),  # type: ignore[arg-type]
            outcomes,
            tuple(
                action_in(a, f"{where}.choices")
                for a in expect(data["choices"], list, f"{where}.choices")
            ),
            opt_str(data["private"], f"{where}.private"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad decision: {exc!r}", entry=where) from None
    if outcomes and sum(p for _, p in outcomes) != 1:
        raise RecordError("chance probabilities do not sum to 1", entry=where)
    return decision


def _effect_in(data: Any, where: str, ruleset: Ruleset) -> Effect:
    expect(data, dict, where)
    try:
        kind = expect(data["kind"], str, f"{where}.kind")
        if kind not in ruleset.effect_rules:
            raise RecordError(f"unknown effect kind {kind!r}", entry=where)
        params = []
        for i, pair in enumerate(expect(data["params"], list, f"{where}.params")):
            k, v = expect(pair, list, f"{where}.params[{i}]")
            params.append((expect(k, str, f"{where}.params[{i}]"), value_in(v, where)))
        expiry = Expiry(data["expiry"])
        until = data.get("until")
        if until is not None:
            expect(until, int, f"{where}.until")
        return Effect(
            expect(data["precedence"], int, f"{where}.precedence"),
            expect(data["serial"], int, f"{where}.serial"),
            kind,
            tuple(params),
            expiry,
            opt_str(data["owner"], f"{where}.owner"),
            opt_str(data["source"], f"{where}.source"),
            until,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad effect: {exc!r}", entry=where) from None


def state_from_data(ruleset: Ruleset, data: Any, scenario: str, options: dict[str, Value]) -> State:
    """Build a state from :meth:`State.to_data <hexwar.engine.state.State.to_data>` output;
    validates everything first."""
    expect(data, dict, "state")
    expected = {"tables", "cursor", "pending", "effects", "outcome", "serial", "history"}
    if set(data) != expected:
        raise RecordError(f"state fields {sorted(data)} != {sorted(expected)}", entry="state")
    tables: dict[str, dict[str, Value]] = {}
    for name, t in expect(data["tables"], dict, "state.tables").items():
        expect(t, dict, f"state.tables.{name}")
        tables[name] = {k: value_in(v, f"state.tables.{name}.{k}") for k, v in t.items()}
    cur = expect(data["cursor"], list, "state.cursor")
    try:
        turn, stage, phase, mark, token, tokens = cur
        cursor = Cursor(
            expect(turn, int, "state.cursor"),
            expect(stage, int, "state.cursor"),
            expect(phase, int, "state.cursor"),
            expect(mark, str, "state.cursor"),
            opt_str(token, "state.cursor"),
            tuple(expect(t, str, "state.cursor") for t in expect(tokens, list, "state.cursor")),
        )
        validate_cursor(ruleset.sequence, cursor)
    except (ValueError, SequenceError) as exc:
        raise RecordError(str(exc), entry="state.cursor") from None
    pending = tuple(
        _decision_in(d, f"state.pending[{i}]")
        for i, d in enumerate(expect(data["pending"], list, "state.pending"))
    )
    effects = tuple(
        _effect_in(e, f"state.effects[{i}]", ruleset)
        for i, e in enumerate(expect(data["effects"], list, "state.effects"))
    )
    try:
        ordered = list(effects) == sorted(effects)
    except TypeError:  # parameters of different types under one name and serial
        ordered = False
    if not ordered:
        raise RecordError("effects out of order", entry="state.effects")
    out = data["outcome"]
    outcome = None
    if out is not None:
        if len(expect(out, list, "state.outcome")) != 2:
            raise RecordError("outcome must be [winner or null, reason]", entry="state.outcome")
        winner, reason = out
        outcome = Outcome(opt_str(winner, "state.outcome"), expect(reason, str, "state.outcome"))
    serial = expect(data["serial"], int, "state.serial")
    history = []
    for i, entry in enumerate(expect(data["history"], list, "state.history")):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"bad history entry {entry!r}", entry=f"state.history[{i}]")
        history.append(
            (action_in(entry[0], f"state.history[{i}]"), opt_str(entry[1], "state.history"))
        )
    entries = tuple(HistoryEntry(action, private) for action, private in history)
    snap = Snapshot(tables, cursor, pending, effects, outcome, serial, entries)
    return State.from_snapshot(ruleset, scenario, options, snap)


# -- position checks -----------------------------------------------------------------------------


def _bad(reason: str, entry: str) -> RecordError:
    return RecordError(reason, entry=entry)


def validate_core(ruleset: Ruleset, state: State) -> None:
    """What the core knows of a legal position (run on every load, before the ruleset's
    :meth:`~hexwar.engine.state.Ruleset.validate_position`): the cursor within the sequence and
    the turn track, pending decisions by known sides, effects of known kinds with sane
    serials, owners and expiry turns, the engine's own tables (hidden marks, timed markers)."""
    sides = set(ruleset.sides)
    snap = state.snapshot()
    _check_cursor(ruleset, snap.cursor)
    _check_pending(sides, snap.pending)
    _check_effects(ruleset, sides, snap)
    if snap.outcome is not None and snap.outcome.winner not in (None, *sides):
        raise _bad(f"winner {snap.outcome.winner!r} is not a side", "state.outcome")
    _check_engine_tables(sides, snap.tables, snap.cursor.turn)


def _check_cursor(ruleset: Ruleset, cursor: Cursor) -> None:
    seq = ruleset.sequence
    try:
        validate_cursor(seq, cursor)
    except SequenceError as exc:
        raise _bad(str(exc), "state.cursor") from None
    last = seq.turn_limit  # the game ends when that turn does: the cursor never passes it
    if cursor.turn < seq.first_turn or (last is not None and cursor.turn > last):
        raise _bad(
            f"turn {cursor.turn} outside the turn track {seq.first_turn}..{seq.turn_limit}",
            "state.cursor",
        )


def _check_pending(sides: set[str], pending: tuple[Decision, ...]) -> None:
    for i, d in enumerate(pending):
        where = f"state.pending[{i}]"
        if d.side not in sides and d.side != CHANCE:
            raise _bad(f"decision for unknown side {d.side!r}", where)
        if d.is_chance and d.side != CHANCE:
            raise _bad("a chance event decided by a side", where)
        if len({a for a, _ in d.outcomes}) != len(d.outcomes):
            raise _bad("repeated chance outcome", where)
        if len(set(d.choices)) != len(d.choices):
            raise _bad("repeated choice", where)


def _check_effects(ruleset: Ruleset, sides: set[str], snap: Snapshot) -> None:
    serials = set()
    for i, e in enumerate(snap.effects):
        where = f"state.effects[{i}]"
        if e.kind not in ruleset.effect_rules:
            raise _bad(f"unknown effect kind {e.kind!r}", where)
        for point in ruleset.effect_rules[e.kind]:
            hook_point(point, ruleset.hook_points)
        if e.owner is not None and e.owner not in sides:
            raise _bad(f"effect owned by unknown side {e.owner!r}", where)
        if not 0 <= e.serial < snap.serial or e.serial in serials:
            raise _bad(f"effect serial {e.serial} repeated or not below {snap.serial}", where)
        serials.add(e.serial)
        if e.until is not None and e.until <= snap.cursor.turn:
            raise _bad(f"effect until turn {e.until} has lapsed (turn {snap.cursor.turn})", where)
        keys = [k for k, _ in e.params]
        if keys != sorted(set(keys)):
            raise _bad("effect params not sorted by unique names", where)


def _check_engine_tables(
    sides: set[str], tables: Mapping[str, Mapping[str, Value]], turn: int
) -> None:
    for name in (_HIDDEN, _HIDDEN_KEYS):
        for ref, side in tables.get(name, {}).items():
            where = f"state.tables.{name}.{ref}"
            if side is not None and side not in sides:
                raise _bad(f"hidden from unknown side {side!r}", where)
            table, sep, key = ref.partition("/")
            if not sep or key not in tables.get(table, {}):
                raise _bad("marks an entry that does not exist", where)
    for ref, until in tables.get(_EXPIRES, {}).items():
        where = f"state.tables.{_EXPIRES}.{ref}"
        table, sep, key = ref.partition("/")
        if not sep or key not in tables.get(table, {}):
            raise _bad("times an entry that does not exist", where)
        if isinstance(until, bool) or not isinstance(until, int) or until <= turn:
            raise _bad(f"expiry turn {until!r} is not a turn after {turn}", where)


_HIDDEN: Final = "$hidden"
_HIDDEN_KEYS: Final = "$hidden_keys"
_EXPIRES: Final = "$expires"


def _validated(ruleset: Ruleset, state: State, source: str) -> State:
    try:
        validate_core(ruleset, state)
        ruleset.validate_position(state)
    except DataError as exc:
        raise RecordError(exc.reason, source=source, entry=exc.entry) from None
    return state


# -- files -----------------------------------------------------------------------------------


def dumps(state: State) -> str:
    """The state as a JSON text: versioned, naming its ruleset (game, version, options,
    data digest), with a SHA-256 checksum over everything else in the file."""
    envelope: dict[str, Any] = {
        "format": _STATE_FORMAT,
        "version": FORMAT_VERSION,
        **rules_identity(state.ruleset),
        "scenario": state.scenario,
        "options": options_data(state.options),
        "state": state.to_data(),
    }
    envelope["digest"] = seal(envelope)
    return canonical(envelope)


def loads(ruleset: Ruleset, text: str | bytes, *, source: str = "<json>") -> State:
    """Load a state written by :func:`dumps` for ``ruleset``; all-or-nothing.

    Checks, in order: the JSON itself, the format, the ruleset (game, version, options,
    data digest), the checksum, every field's type, then the position
    (:func:`validate_core` and :meth:`~hexwar.engine.state.Ruleset.validate_position`). Any
    failure raises :class:`RecordError` naming the file and the entry.
    """
    data = envelope(parse_json(text, source), _STATE_FORMAT, ruleset, source)
    expected = {"format", "version", "game", "rules_version", "rules_options", "data_digest"}
    expected |= {"scenario", "options", "state", "digest"}
    if set(data) != expected:
        extra, missing = sorted(set(data) - expected), sorted(expected - set(data))
        raise RecordError(f"fields: missing {missing}, unknown {extra}", source=source)
    if seal(data) != data["digest"]:
        raise RecordError("digest mismatch: the file was altered or truncated", source=source)
    scenario = data["scenario"]
    if not isinstance(scenario, str):
        raise RecordError("scenario must be a string", source=source, entry="scenario")
    options = options_in(data["options"], source)
    try:
        state = state_from_data(ruleset, data["state"], scenario, options)
    except RecordError as exc:
        raise RecordError(exc.reason, source=source, entry=exc.entry) from None
    return _validated(ruleset, state, source)
