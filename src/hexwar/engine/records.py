"""Game records and state files: JSON only, versioned, validated before anything is built.

Two formats:

- a **game record** (:class:`GameRecord`): the ruleset it was played under (game, rules
  version, rules options, a digest of the game's data), scenario, state options, seed,
  the actions in their text forms, and the ending it reached: checkpoints (short digests
  of the position whenever the turn, stage or phase changed), the outcome and a digest of
  the final position. :func:`replay` rebuilds the state by applying the actions (checked)
  to a new game and refuses it when anything differs from what the record says; the
  result is the same in any process, whatever ``PYTHONHASHSEED`` is.
- a **state file** (:func:`dumps` / :func:`loads`): the full state, including hidden
  information (it is a save file, not an observation), with a format version, the
  ruleset's identity and a SHA-256 checksum over the rest of the file. :func:`loads`
  checks the JSON, the envelope, the checksum, every field and the position itself
  (:func:`validate_core`, then the ruleset's
  :meth:`~hexwar.engine.state.Ruleset.validate_position`) *before* returning, so a malformed,
  truncated or illegal file raises :class:`RecordError` and loads nothing half-way.
  Nothing is ever pickled.

The checksum catches accidents (a truncated copy, a flipped byte, a hand edit that forgot
it); anyone can recompute it, so it is no protection against a deliberate edit — the
position checks are (as far as they go; see ``docs/reliability.md``).

The undo log is not saved: a loaded state keeps its ``history`` but cannot undo past
the load (replay the :class:`GameRecord` for that).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

import attrs

from hexwar.base.errors import ActionSyntaxError, DataError, HexwarError, RecordError, SequenceError
from hexwar.engine.actions import CHANCE, Action, Decision, Outcome, Value
from hexwar.engine.hooks import Effect, Expiry, hook_point
from hexwar.engine.sequencer import Cursor, validate_cursor
from hexwar.engine.snapshot import HistoryEntry, Snapshot, canonical, value_out
from hexwar.engine.state import Ruleset, State

__all__ = [
    "FORMAT_VERSION",
    "MAX_DEPTH",
    "GameRecord",
    "check_rules",
    "dumps",
    "loads",
    "parse_json",
    "position_digest",
    "record_of",
    "replay",
    "rules_identity",
    "state_from_data",
    "validate_core",
]

#: 2: records and state files name the ruleset (version, options, data digest); records
#: carry their ending (checkpoints, outcome, final digest); the checksum covers it all.
FORMAT_VERSION: Final = 2
_STATE_FORMAT: Final = "hexwar-state"
_RECORD_FORMAT: Final = "hexwar-record"


# -- values ------------------------------------------------------------------------------


def _value_in(data: Any, where: str) -> Value:
    if isinstance(data, list):
        return tuple(_value_in(v, where) for v in data)
    if data is None or isinstance(data, bool | int | str):
        return data
    raise RecordError(f"not a state value: {data!r}", entry=where)


# -- data -> state (strict) ----------------------------------------------------------------


def _expect(data: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, kind) or (isinstance(data, bool) and kind in (int, (int,))):
        raise RecordError(f"expected {getattr(kind, '__name__', kind)}, got {data!r}", entry=where)
    return data


def _opt_str(data: Any, where: str) -> str | None:
    return None if data is None else _expect(data, str, where)


def _action_in(text: Any, where: str) -> Action:
    try:
        return Action.parse(_expect(text, str, where))
    except ActionSyntaxError as exc:
        raise RecordError(str(exc), entry=where) from None


def _fraction_in(text: Any, where: str) -> Fraction:
    try:
        num, den = _expect(text, str, where).split("/")
        p = Fraction(int(num), int(den))
    except (ValueError, ZeroDivisionError):
        raise RecordError(f"bad probability {text!r}", entry=where) from None
    if not 0 < p <= 1:
        raise RecordError(f"probability {p} outside (0, 1]", entry=where)
    return p


def _decision_in(data: Any, where: str) -> Decision:
    _expect(data, dict, where)
    try:
        outcomes = tuple(
            (_action_in(a, f"{where}.outcomes[{i}]"), _fraction_in(p, f"{where}.outcomes[{i}]"))
            for i, (a, p) in enumerate(_expect(data["outcomes"], list, where))
        )
        decision = Decision(
            _expect(data["kind"], str, f"{where}.kind"),
            _expect(data["side"], str, f"{where}.side"),
            _value_in(_expect(data["params"], list, f"{where}.params"), f"{where}.params"),  # type: ignore[arg-type]
            outcomes,
            tuple(
                _action_in(a, f"{where}.choices")
                for a in _expect(data["choices"], list, f"{where}.choices")
            ),
            _opt_str(data["private"], f"{where}.private"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad decision: {exc!r}", entry=where) from None
    if outcomes and sum(p for _, p in outcomes) != 1:
        raise RecordError("chance probabilities do not sum to 1", entry=where)
    return decision


def _effect_in(data: Any, where: str, ruleset: Ruleset) -> Effect:
    _expect(data, dict, where)
    try:
        kind = _expect(data["kind"], str, f"{where}.kind")
        if kind not in ruleset.effect_rules:
            raise RecordError(f"unknown effect kind {kind!r}", entry=where)
        params = []
        for i, pair in enumerate(_expect(data["params"], list, f"{where}.params")):
            k, v = _expect(pair, list, f"{where}.params[{i}]")
            params.append((_expect(k, str, f"{where}.params[{i}]"), _value_in(v, where)))
        expiry = Expiry(data["expiry"])
        until = data.get("until")
        if until is not None:
            _expect(until, int, f"{where}.until")
        return Effect(
            _expect(data["precedence"], int, f"{where}.precedence"),
            _expect(data["serial"], int, f"{where}.serial"),
            kind,
            tuple(params),
            expiry,
            _opt_str(data["owner"], f"{where}.owner"),
            _opt_str(data["source"], f"{where}.source"),
            until,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"bad effect: {exc!r}", entry=where) from None


def state_from_data(ruleset: Ruleset, data: Any, scenario: str, options: dict[str, Value]) -> State:
    """Build a state from :meth:`State.to_data <hexwar.engine.state.State.to_data>` output;
    validates everything first."""
    _expect(data, dict, "state")
    expected = {"tables", "cursor", "pending", "effects", "outcome", "serial", "history"}
    if set(data) != expected:
        raise RecordError(f"state fields {sorted(data)} != {sorted(expected)}", entry="state")
    tables: dict[str, dict[str, Value]] = {}
    for name, t in _expect(data["tables"], dict, "state.tables").items():
        _expect(t, dict, f"state.tables.{name}")
        tables[name] = {k: _value_in(v, f"state.tables.{name}.{k}") for k, v in t.items()}
    cur = _expect(data["cursor"], list, "state.cursor")
    try:
        turn, stage, phase, mark, token, tokens = cur
        cursor = Cursor(
            _expect(turn, int, "state.cursor"),
            _expect(stage, int, "state.cursor"),
            _expect(phase, int, "state.cursor"),
            _expect(mark, str, "state.cursor"),
            _opt_str(token, "state.cursor"),
            tuple(_expect(t, str, "state.cursor") for t in _expect(tokens, list, "state.cursor")),
        )
        validate_cursor(ruleset.sequence, cursor)
    except (ValueError, SequenceError) as exc:
        raise RecordError(str(exc), entry="state.cursor") from None
    pending = tuple(
        _decision_in(d, f"state.pending[{i}]")
        for i, d in enumerate(_expect(data["pending"], list, "state.pending"))
    )
    effects = tuple(
        _effect_in(e, f"state.effects[{i}]", ruleset)
        for i, e in enumerate(_expect(data["effects"], list, "state.effects"))
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
        if len(_expect(out, list, "state.outcome")) != 2:
            raise RecordError("outcome must be [winner or null, reason]", entry="state.outcome")
        winner, reason = out
        outcome = Outcome(_opt_str(winner, "state.outcome"), _expect(reason, str, "state.outcome"))
    serial = _expect(data["serial"], int, "state.serial")
    history = []
    for i, entry in enumerate(_expect(data["history"], list, "state.history")):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"bad history entry {entry!r}", entry=f"state.history[{i}]")
        history.append(
            (_action_in(entry[0], f"state.history[{i}]"), _opt_str(entry[1], "state.history"))
        )
    entries = tuple(HistoryEntry(action, private) for action, private in history)
    snap = Snapshot(tables, cursor, pending, effects, outcome, serial, entries)
    return State.from_snapshot(ruleset, scenario, options, snap)


# -- input hygiene ---------------------------------------------------------------------------

#: JSON input nested deeper than this is refused before anything reads it (no recursion
#: error, no stack exhaustion): every hexwar file is a few levels deep.
MAX_DEPTH: Final = 64


def parse_json(text: str | bytes, source: str) -> Any:
    """Parse JSON text strictly: valid UTF-8 (no lone surrogates), no ``NaN``/``Infinity``,
    integers of at most Python's digit limit, at most :data:`MAX_DEPTH` levels."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            where = f"{exc.reason} at byte {exc.start}"
            raise RecordError(f"not valid UTF-8 ({where})", source=source) from None
    if not isinstance(text, str):
        raise RecordError(f"expected JSON text, got {type(text).__name__}", source=source)
    depth = 0
    for ch in text:  # a cheap pre-check: json's own parser recurses per level
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"nested deeper than {MAX_DEPTH} levels", source=source)
        elif ch in "]}":
            depth -= 1

    def constant(name: str) -> Any:
        raise RecordError(f"{name} is not a JSON number hexwar reads", source=source)

    try:
        data = json.loads(text, parse_constant=constant)
    except RecordError:
        raise
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, the int digit limit
        raise RecordError(f"not valid JSON ({exc})", source=source) from None
    _check_strings(data, source)
    return data


def _check_strings(data: Any, source: str) -> None:
    """Refuse strings that are not Unicode text (a lone surrogate such as ``\\ud800``)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            items: list[Any] = [item]
        elif isinstance(item, list):
            stack.extend(item)
            continue
        elif isinstance(item, dict):
            stack.extend(item.values())
            items = list(item)
        else:
            continue
        for text in items:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise RecordError(
                    f"string {text[:40]!r} is not Unicode text (lone surrogate)", source=source
                ) from None


# -- the ruleset's identity ---------------------------------------------------------------------


def _options_data(options: Mapping[str, Value]) -> dict[str, Any]:
    return {k: value_out(v) for k, v in sorted(options.items())}


def rules_identity(ruleset: Ruleset) -> dict[str, Any]:
    """What a file names of the ruleset it was written for: the game, its version, its
    options and the digest of its data."""
    return {
        "game": ruleset.name,
        "rules_version": ruleset.version,
        "rules_options": _options_data(ruleset.options()),
        "data_digest": ruleset.data_digest(),
    }


def check_rules(ruleset: Ruleset, data: Mapping[str, Any], source: str) -> None:
    """Refuse a file written for another game, rules version, option set or data."""
    for name in ("game", "rules_version", "rules_options", "data_digest"):
        if name not in data:
            raise RecordError(
                f"missing field {name!r} (a file of an older format: regenerate it)",
                source=source,
                entry=name,
            )
    mine = rules_identity(ruleset)
    if data["game"] != mine["game"]:
        raise RecordError(f"game {data['game']!r} is not {mine['game']!r}", source=source)
    if data["rules_version"] != mine["rules_version"]:
        raise RecordError(
            f"rules version {data['rules_version']!r} is not {mine['rules_version']!r}",
            source=source,
            entry="rules_version",
        )
    theirs = data["rules_options"]
    if theirs != mine["rules_options"]:
        if not isinstance(theirs, dict):
            raise RecordError("rules_options must be an object", source=source)
        ours = mine["rules_options"]
        diff = [
            f"{k}: file {theirs.get(k, '<missing>')!r}, rules {ours.get(k, '<missing>')!r}"
            for k in sorted(set(theirs) | set(ours))
            if theirs.get(k, _ABSENT) != ours.get(k, _ABSENT)
        ]
        raise RecordError(
            f"rules options differ ({'; '.join(diff)})", source=source, entry="rules_options"
        )
    if data["data_digest"] != mine["data_digest"]:
        raise RecordError(
            f"data digest {str(data['data_digest'])[:16]!r}... is not this ruleset's "
            f"{mine['data_digest'][:16]!r}... (written with other scenario data)",
            source=source,
            entry="data_digest",
        )


_ABSENT: Final = object()


# -- position checks -----------------------------------------------------------------------------


def _bad(reason: str, entry: str) -> RecordError:
    return RecordError(reason, entry=entry)


def validate_core(ruleset: Ruleset, state: State) -> None:
    """What the core knows of a legal position (run on every load, before the ruleset's
    :meth:`~hexwar.engine.state.Ruleset.validate_position`): the cursor within the sequence and
    the turn track, pending decisions by known sides, effects of known kinds with sane
    serials, owners and expiry turns, the engine's own tables (hidden marks, timed markers)."""
    sides = set(ruleset.sides)
    seq = ruleset.sequence
    snap = state.snapshot()
    cursor = snap.cursor
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
    for i, d in enumerate(snap.pending):
        where = f"state.pending[{i}]"
        if d.side not in sides and d.side != CHANCE:
            raise _bad(f"decision for unknown side {d.side!r}", where)
        if d.is_chance and d.side != CHANCE:
            raise _bad("a chance event decided by a side", where)
        if len({a for a, _ in d.outcomes}) != len(d.outcomes):
            raise _bad("repeated chance outcome", where)
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
        if e.until is not None and e.until <= cursor.turn:
            raise _bad(f"effect until turn {e.until} has lapsed (turn {cursor.turn})", where)
        keys = [k for k, _ in e.params]
        if keys != sorted(set(keys)):
            raise _bad("effect params not sorted by unique names", where)
    if snap.outcome is not None and snap.outcome.winner not in (None, *sides):
        raise _bad(f"winner {snap.outcome.winner!r} is not a side", "state.outcome")
    tables = snap.tables
    for name in (_HIDDEN, _HIDDEN_KEYS):
        for ref, side in tables.get(name, {}).items():
            where = f"state.tables.{name}.{ref}"
            if side is not None and side not in sides:
                raise _bad(f"hidden from unknown side {side!r}", where)
            table, sep, key = ref.partition("/")
            if not sep or key not in tables.get(table, {}):
                raise _bad("marks an entry that does not exist", where)
    for ref, turn in tables.get(_EXPIRES, {}).items():
        where = f"state.tables.{_EXPIRES}.{ref}"
        table, sep, key = ref.partition("/")
        if not sep or key not in tables.get(table, {}):
            raise _bad("times an entry that does not exist", where)
        if isinstance(turn, bool) or not isinstance(turn, int) or turn <= cursor.turn:
            raise _bad(f"expiry turn {turn!r} is not a turn after {cursor.turn}", where)


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


def _position_data(state: State) -> dict[str, Any]:
    data = state.to_data(history=False)
    data["scenario"] = state.scenario
    data["options"] = _options_data(state.options)
    return data


def position_digest(state: State) -> str:
    """SHA-256 of the position (tables, cursor, decisions, effects, outcome, scenario and
    options; not the history): equal positions, equal digests."""
    return hashlib.sha256(canonical(_position_data(state)).encode()).hexdigest()


def _seal(envelope: Mapping[str, Any]) -> str:
    body = {k: v for k, v in envelope.items() if k != "digest"}
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def dumps(state: State) -> str:
    """The state as a JSON text: versioned, naming its ruleset (game, version, options,
    data digest), with a SHA-256 checksum over everything else in the file."""
    envelope: dict[str, Any] = {
        "format": _STATE_FORMAT,
        "version": FORMAT_VERSION,
        **rules_identity(state.ruleset),
        "scenario": state.scenario,
        "options": _options_data(state.options),
        "state": state.to_data(),
    }
    envelope["digest"] = _seal(envelope)
    return canonical(envelope)


def _envelope(data: Any, fmt: str, ruleset: Ruleset, source: str) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise RecordError(f"not a {fmt} file", source=source)
    if data.get("version") != FORMAT_VERSION:
        raise RecordError(
            f"format version {data.get('version')!r} is not {FORMAT_VERSION} (a file of "
            "another hexwar release: regenerate it)",
            source=source,
        )
    check_rules(ruleset, data, source)
    return data


def _options_in(data: Any, source: str) -> dict[str, Value]:
    if not isinstance(data, dict):
        raise RecordError("options must be an object", source=source, entry="options")
    return {k: _value_in(v, f"options.{k}") for k, v in data.items()}


def _field(data: Mapping[str, Any], name: str, source: str) -> Any:
    if name not in data:
        raise RecordError(f"missing field {name!r}", source=source, entry=name)
    return data[name]


def loads(ruleset: Ruleset, text: str | bytes, *, source: str = "<json>") -> State:
    """Load a state written by :func:`dumps` for ``ruleset``; all-or-nothing.

    Checks, in order: the JSON itself, the format, the ruleset (game, version, options,
    data digest), the checksum, every field's type, then the position
    (:func:`validate_core` and :meth:`~hexwar.engine.state.Ruleset.validate_position`). Any
    failure raises :class:`RecordError` naming the file and the entry.
    """
    data = _envelope(parse_json(text, source), _STATE_FORMAT, ruleset, source)
    expected = {"format", "version", "game", "rules_version", "rules_options", "data_digest"}
    expected |= {"scenario", "options", "state", "digest"}
    if set(data) != expected:
        extra, missing = sorted(set(data) - expected), sorted(expected - set(data))
        raise RecordError(f"fields: missing {missing}, unknown {extra}", source=source)
    if _seal(data) != data["digest"]:
        raise RecordError("digest mismatch: the file was altered or truncated", source=source)
    scenario = data["scenario"]
    if not isinstance(scenario, str):
        raise RecordError("scenario must be a string", source=source, entry="scenario")
    options = _options_in(data["options"], source)
    try:
        state = state_from_data(ruleset, data["state"], scenario, options)
    except RecordError as exc:
        raise RecordError(exc.reason, source=source, entry=exc.entry) from None
    return _validated(ruleset, state, source)


# -- game records ----------------------------------------------------------------------------


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
        data["digest"] = _seal(data)
        return canonical(data)

    @classmethod
    def from_json(
        cls, ruleset: Ruleset, text: str | bytes, *, source: str = "<json>"
    ) -> GameRecord:
        """Parse a record for ``ruleset``: refused unless it names this ruleset (game,
        version, options, data digest); the actions are checked by :func:`replay`."""
        data = _envelope(parse_json(text, source), _RECORD_FORMAT, ruleset, source)
        for name in ("scenario", "options", "seed", "actions", "checkpoints", "outcome"):
            _field(data, name, source)
        if _seal(data) != _field(data, "digest", source):
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
        options = _options_in(data["options"], source)
        checkpoints: list[Checkpoint] = []
        raw = data["checkpoints"]
        if not isinstance(raw, list):
            raise RecordError("checkpoints must be a list", source=source, entry="checkpoints")
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
        out = data["outcome"]
        outcome = None
        if out is not None:
            if (
                not isinstance(out, list)
                or len(out) != 2
                or not (out[0] is None or isinstance(out[0], str))
                or not isinstance(out[1], str)
            ):
                raise RecordError(
                    "outcome must be [winner or null, reason] or null",
                    source=source,
                    entry="outcome",
                )
            outcome = Outcome(out[0], out[1])
        final = _field(data, "final_digest", source)
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
            checkpoints=tuple(checkpoints),
            outcome=outcome,
            final_digest=final,
        )


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
    mine = rules_identity(ruleset)
    theirs = {
        "game": record.game,
        "rules_version": record.rules_version,
        "rules_options": {k: value_out(v) for k, v in record.rules_options},
        "data_digest": record.data_digest,
    }
    check_rules(ruleset, theirs, "<record>") if theirs != mine else None
    try:
        state = ruleset.new_state(record.scenario, dict(record.options))
    except HexwarError as exc:
        raise RecordError(str(exc), entry="scenario") from None
    stop = len(record.actions) if upto is None else min(upto, len(record.actions))
    expected = list(record.checkpoints)
    verify = record.final_digest is not None  # a hand-made record states no ending
    k = 0
    where = _where(state)
    lo = 0
    for i in range(stop):
        text = record.actions[i]
        try:
            action = Action.parse(text)
            if check:
                state.apply(action)
            else:
                state.apply_unchecked(action)
        except HexwarError as exc:
            raise RecordError(f"{text!r}: {exc}", entry=f"actions[{i}]") from None
        n = i + 1
        if not verify:
            continue
        now = _where(state)
        made = now != where
        due = k < len(expected) and expected[k][0] == n
        if made or due:
            if made != due or _checkpoint(state) != expected[k][1]:
                raise _diverged(record, lo, n, state, f"the position after actions[{i}] differs")
            k += 1
            lo = n
            where = now
    if upto is not None and stop < len(record.actions):
        return state
    if verify:
        if k != len(expected):
            raise _diverged(
                record,
                lo,
                stop,
                state,
                f"the actions stop at {stop}, before the recorded checkpoint after "
                f"{expected[k][0]} (a truncated record?)",
            )
        if state.outcome != record.outcome:
            got = (
                "unfinished"
                if state.outcome is None
                else f"{state.outcome.winner}: {state.outcome.reason}"
            )
            said = (
                "unfinished"
                if record.outcome is None
                else f"{record.outcome.winner}: {record.outcome.reason}"
            )
            raise _diverged(record, lo, stop, state, f"outcome {got}, the record says {said}")
        if position_digest(state) != record.final_digest:
            raise _diverged(
                record, lo, stop, state, "the final position differs from the recorded one"
            )
    return state
