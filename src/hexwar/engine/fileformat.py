"""What save files and game records share: strict JSON, the ruleset's identity, checksums.

Both kinds of file (:mod:`hexwar.engine.savefile`, :mod:`hexwar.engine.records`) are JSON
read by :func:`parse_json` (strict: valid UTF-8, no ``NaN``, bounded depth), carry a
format version (:data:`FORMAT_VERSION`), name the ruleset they were written for
(:func:`rules_identity`, refused by :func:`check_rules` when it differs) and a SHA-256
checksum over the rest of the file (:func:`seal`). The readers here (:func:`expect`,
:func:`value_in`, :func:`action_in`, ...) raise :class:`~hexwar.base.errors.RecordError`
naming the entry; :func:`position_digest` is the digest both files use for a position.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Final

from hexwar.base.errors import ActionSyntaxError, RecordError
from hexwar.engine.actions import Action, Value
from hexwar.engine.snapshot import canonical, value_out
from hexwar.engine.state import Ruleset, State

__all__ = [
    "FORMAT_VERSION",
    "MAX_DEPTH",
    "action_in",
    "check_rules",
    "envelope",
    "expect",
    "opt_str",
    "options_data",
    "options_in",
    "parse_json",
    "position_digest",
    "required",
    "rules_identity",
    "seal",
    "value_in",
]

#: 2: records and state files name the ruleset (version, options, data digest); records
#: carry their ending (checkpoints, outcome, final digest); the checksum covers it all.
FORMAT_VERSION: Final = 2

#: JSON input nested deeper than this is refused before anything reads it (no recursion
#: error, no stack exhaustion): every hexwar file is a few levels deep.
MAX_DEPTH: Final = 64


# -- input hygiene ---------------------------------------------------------------------------


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


# -- strict readers --------------------------------------------------------------------------


def value_in(data: Any, where: str) -> Value:
    """A state value (``None``, bool, int, str or a nested tuple of them) from JSON."""
    if isinstance(data, list):
        return tuple(value_in(v, where) for v in data)
    if data is None or isinstance(data, bool | int | str):
        return data
    raise RecordError(f"not a state value: {data!r}", entry=where)


def expect(data: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """``data`` if it is a ``kind`` (a bool is no int), else :class:`RecordError`."""
    if not isinstance(data, kind) or (isinstance(data, bool) and kind in (int, (int,))):
        raise RecordError(f"expected {getattr(kind, '__name__', kind)}, got {data!r}", entry=where)
    return data


def opt_str(data: Any, where: str) -> str | None:
    """A string or ``None``."""
    return None if data is None else expect(data, str, where)


def action_in(text: Any, where: str) -> Action:
    """An action from its text form."""
    try:
        return Action.parse(expect(text, str, where))
    except ActionSyntaxError as exc:
        raise RecordError(str(exc), entry=where) from None


def options_in(data: Any, source: str) -> dict[str, Value]:
    """State options from a JSON object."""
    if not isinstance(data, dict):
        raise RecordError("options must be an object", source=source, entry="options")
    return {k: value_in(v, f"options.{k}") for k, v in data.items()}


def required(data: Mapping[str, Any], name: str, source: str) -> Any:
    """The field ``name`` of a file, or :class:`RecordError` naming it."""
    if name not in data:
        raise RecordError(f"missing field {name!r}", source=source, entry=name)
    return data[name]


# -- the ruleset's identity ---------------------------------------------------------------------


def options_data(options: Mapping[str, Value]) -> dict[str, Any]:
    """Options as canonical JSON-able data (sorted by name)."""
    return {k: value_out(v) for k, v in sorted(options.items())}


def rules_identity(ruleset: Ruleset) -> dict[str, Any]:
    """What a file names of the ruleset it was written for: the game, its version, its
    options and the digest of its data."""
    return {
        "game": ruleset.name,
        "rules_version": ruleset.version,
        "rules_options": options_data(ruleset.options()),
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


def envelope(data: Any, fmt: str, ruleset: Ruleset, source: str) -> dict[str, Any]:
    """``data`` if it is a file of format ``fmt``, this format version and ``ruleset``."""
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


# -- digests -------------------------------------------------------------------------------------


def seal(data: Mapping[str, Any]) -> str:
    """The checksum of a file: SHA-256 of the canonical JSON of all but its ``digest``."""
    body = {k: v for k, v in data.items() if k != "digest"}
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def position_digest(state: State) -> str:
    """SHA-256 of the position (tables, cursor, decisions, effects, outcome, scenario and
    options; not the history): equal positions, equal digests."""
    data = state.to_data(history=False)
    data["scenario"] = state.scenario
    data["options"] = options_data(state.options)
    return hashlib.sha256(canonical(data).encode()).hexdigest()
