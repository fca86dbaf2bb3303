"""Game records and state files: JSON only, versioned, validated before anything is built.

Two formats:

- a **game record** (:class:`GameRecord`): game, scenario id, options, seed and the
  actions in their text forms. :func:`replay` rebuilds the state by applying the actions
  (checked) to a new game; the result is the same in any process, whatever
  ``PYTHONHASHSEED`` is.
- a **state file** (:func:`dumps` / :func:`loads`): the full state, including hidden
  information (it is a save file, not an observation), with a format version and a
  SHA-256 digest of its canonical body. :func:`loads` checks the envelope, the digest and
  every field *before* building the state, so a malformed, truncated or tampered file
  raises :class:`RecordError` and loads nothing half-way. Nothing is ever pickled.

The undo log is not saved: a loaded state keeps its ``history`` but cannot undo past
the load (replay the :class:`GameRecord` for that).
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

import attrs

from hexwar.actions import Action, ActionSyntaxError, Decision, Outcome, Value
from hexwar.errors import DataError, HexwarError
from hexwar.hooks import Effect, Expiry
from hexwar.sequencer import Cursor, SequenceError, validate_cursor

if TYPE_CHECKING:
    from hexwar.state import Ruleset, State

__all__ = [
    "FORMAT_VERSION",
    "GameRecord",
    "RecordError",
    "dumps",
    "loads",
    "record_of",
    "replay",
    "state_from_data",
    "state_to_data",
]

FORMAT_VERSION: Final = 1
_STATE_FORMAT: Final = "hexwar-state"
_RECORD_FORMAT: Final = "hexwar-record"


class RecordError(DataError):
    """A state file or game record that cannot be loaded (the message says where/why)."""


# -- values ------------------------------------------------------------------------------


def _value_out(value: Value) -> Any:
    if isinstance(value, tuple):
        return [_value_out(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    raise HexwarError(f"not a state value (None/bool/int/str/tuple): {value!r}")


def _value_in(data: Any, where: str) -> Value:
    if isinstance(data, list):
        return tuple(_value_in(v, where) for v in data)
    if data is None or isinstance(data, bool | int | str):
        return data
    raise RecordError(f"not a state value: {data!r}", entry=where)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# -- state -> data -------------------------------------------------------------------------


def _decision_out(d: Decision) -> dict[str, Any]:
    return {
        "kind": d.kind,
        "side": d.side,
        "params": _value_out(d.params),
        "outcomes": [[str(a), f"{p.numerator}/{p.denominator}"] for a, p in d.outcomes],
        "choices": [str(a) for a in d.choices],
        "private": d.private,
    }


def _effect_out(e: Effect) -> dict[str, Any]:
    out: dict[str, Any] = {
        "precedence": e.precedence,
        "serial": e.serial,
        "kind": e.kind,
        "params": [[k, _value_out(v)] for k, v in e.params],
        "expiry": e.expiry.value,
        "owner": e.owner,
        "source": e.source,
    }
    if e.until is not None:  # omitted otherwise: older files stay byte-identical
        out["until"] = e.until
    return out


def state_to_data(state: State) -> dict[str, Any]:
    """The full state as canonical JSON-able data (tables sorted, empty tables omitted)."""
    c = state._cursor
    history: list[list[Any]] = []
    node = state._log
    while node is not None:
        history.append([str(node[0]), node[2]])
        node = node[3]
    history.reverse()
    o = state._outcome
    return {
        "tables": {
            name: {k: _value_out(v) for k, v in sorted(t.items())}
            for name, t in sorted(state._tables.items())
            if t
        },
        "cursor": [c.turn, c.stage, c.phase, c.mark, c.token, list(c.tokens)],
        "pending": [_decision_out(d) for d in state._pending],
        "effects": [_effect_out(e) for e in state._effects],
        "outcome": None if o is None else [o.winner, o.reason],
        "serial": state._serial,
        "history": history,
    }


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
    """Build a state from :func:`state_to_data` output; validates everything first."""
    from hexwar.state import State

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
    if list(effects) != sorted(effects):
        raise RecordError("effects out of order", entry="state.effects")
    out = data["outcome"]
    outcome = None
    if out is not None:
        winner, reason = _expect(out, list, "state.outcome")
        outcome = Outcome(_opt_str(winner, "state.outcome"), _expect(reason, str, "state.outcome"))
    serial = _expect(data["serial"], int, "state.serial")
    history = []
    for i, entry in enumerate(_expect(data["history"], list, "state.history")):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"bad history entry {entry!r}", entry=f"state.history[{i}]")
        history.append(
            (_action_in(entry[0], f"state.history[{i}]"), _opt_str(entry[1], "state.history"))
        )
    state = State(ruleset, scenario, options)
    state._tables = tables
    state._cursor = cursor
    state._pending = pending
    state._effects = effects
    state._outcome = outcome
    state._serial = serial
    for i, (action, private) in enumerate(history):
        state._log = (action, None, private, state._log, i + 1)
    return state


# -- files -----------------------------------------------------------------------------------


def dumps(state: State) -> str:
    """The state as a JSON text (versioned, with a digest of its body)."""
    body = state_to_data(state)
    envelope = {
        "format": _STATE_FORMAT,
        "version": FORMAT_VERSION,
        "game": state.ruleset.name,
        "scenario": state.scenario,
        "options": {k: _value_out(v) for k, v in sorted(state.options.items())},
        "digest": hashlib.sha256(_canonical(body).encode()).hexdigest(),
        "state": body,
    }
    return _canonical(envelope)


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise RecordError(f"not valid JSON ({exc})", source=source) from None


def _envelope(data: Any, fmt: str, ruleset: Ruleset, source: str) -> None:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise RecordError(f"not a {fmt} file", source=source)
    if data.get("version") != FORMAT_VERSION:
        raise RecordError(
            f"format version {data.get('version')!r} is not {FORMAT_VERSION}", source=source
        )
    if data.get("game") != ruleset.name:
        raise RecordError(f"game {data.get('game')!r} is not {ruleset.name!r}", source=source)


def _options_in(data: Any, source: str) -> dict[str, Value]:
    if not isinstance(data, dict):
        raise RecordError("options must be an object", source=source, entry="options")
    return {k: _value_in(v, f"options.{k}") for k, v in data.items()}


def loads(ruleset: Ruleset, text: str, *, source: str = "<json>") -> State:
    """Load a state written by :func:`dumps` for ``ruleset``; all-or-nothing."""
    data = _parse_json(text, source)
    _envelope(data, _STATE_FORMAT, ruleset, source)
    body = data.get("state")
    if hashlib.sha256(_canonical(body).encode()).hexdigest() != data.get("digest"):
        raise RecordError("digest mismatch: the file was altered or truncated", source=source)
    scenario = data.get("scenario")
    if not isinstance(scenario, str):
        raise RecordError("scenario must be a string", source=source, entry="scenario")
    options = _options_in(data.get("options"), source)
    try:
        return state_from_data(ruleset, body, scenario, options)
    except RecordError as exc:
        raise RecordError(exc.reason, source=source, entry=exc.entry) from None


# -- game records ----------------------------------------------------------------------------


@attrs.frozen
class GameRecord:
    """What reproduces a game: scenario, options, seed and the actions' text forms."""

    game: str
    scenario: str
    options: tuple[tuple[str, Value], ...]
    seed: int | None
    actions: tuple[str, ...]

    def to_json(self) -> str:
        """The record as JSON text."""
        return _canonical(
            {
                "format": _RECORD_FORMAT,
                "version": FORMAT_VERSION,
                "game": self.game,
                "scenario": self.scenario,
                "options": {k: _value_out(v) for k, v in self.options},
                "seed": self.seed,
                "actions": list(self.actions),
            }
        )

    @classmethod
    def from_json(cls, ruleset: Ruleset, text: str, *, source: str = "<json>") -> GameRecord:
        """Parse a record for ``ruleset`` (the actions are checked by :func:`replay`)."""
        data = _parse_json(text, source)
        _envelope(data, _RECORD_FORMAT, ruleset, source)
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("actions must be a list of strings", source=source, entry="actions")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError("seed must be an integer or null", source=source, entry="seed")
        scenario = data.get("scenario")
        if not isinstance(scenario, str):
            raise RecordError("scenario must be a string", source=source, entry="scenario")
        options = _options_in(data.get("options"), source)
        return cls(ruleset.name, scenario, tuple(sorted(options.items())), seed, tuple(actions))


def record_of(state: State, *, seed: int | None = None) -> GameRecord:
    """The record of ``state``'s game so far."""
    return GameRecord(
        state.ruleset.name,
        state.scenario,
        tuple(sorted(state.options.items())),
        seed,
        tuple(str(a) for a in state.history),
    )


def replay(ruleset: Ruleset, record: GameRecord, *, check: bool = True) -> State:
    """Rebuild a game from its record; an illegal or unparsable action raises
    :class:`RecordError` naming its index."""
    if record.game != ruleset.name:
        raise RecordError(f"record of {record.game!r}, not {ruleset.name!r}")
    state = ruleset.new_state(record.scenario, dict(record.options))
    for i, text in enumerate(record.actions):
        try:
            state.apply(Action.parse(text), check=check)
        except HexwarError as exc:
            raise RecordError(f"{text!r}: {exc}", entry=f"actions[{i}]") from None
    return state
