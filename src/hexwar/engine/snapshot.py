"""A state's content as one immutable record, and its canonical JSON-able data.

:meth:`State.snapshot <hexwar.engine.state.State.snapshot>` gives a :class:`Snapshot` (the
tables, cursor, pending decisions, effects, outcome, effect serial and history);
:meth:`State.from_snapshot <hexwar.engine.state.State.from_snapshot>` builds a state from
one. :func:`snapshot_to_data` turns it into the canonical data that save files, equality
and position digests use (:mod:`hexwar.engine.savefile` reads it back, strictly). This is
the engine's one explicit interface to a state's content: nothing outside
:mod:`hexwar.engine.state` reads the state's private fields.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action, Decision, Outcome, Value
from hexwar.engine.hooks import Effect
from hexwar.engine.sequencer import Cursor

__all__ = ["HistoryEntry", "Snapshot", "canonical", "snapshot_to_data", "value_out"]


@attrs.frozen
class HistoryEntry:
    """One applied action, and the side it is private to (``None``: public)."""

    action: Action
    private: str | None = None


@attrs.frozen
class Snapshot:
    """Everything a state holds. ``tables`` is the state's own mapping: read it, never
    change it (a state built from a snapshot takes the mapping over)."""

    tables: Mapping[str, Mapping[str, Value]]
    cursor: Cursor
    pending: tuple[Decision, ...]
    effects: tuple[Effect, ...]
    outcome: Outcome | None
    serial: int
    history: tuple[HistoryEntry, ...]


def value_out(value: Value) -> Any:
    """A state value as JSON-able data (tuples become lists)."""
    if isinstance(value, tuple):
        return [value_out(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    raise HexwarError(f"not a state value (None/bool/int/str/tuple): {value!r}")


def canonical(data: Any) -> str:
    """The canonical JSON text of ``data`` (sorted keys, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _decision_out(d: Decision) -> dict[str, Any]:
    return {
        "kind": d.kind,
        "side": d.side,
        "params": value_out(d.params),
        "outcomes": [[str(a), f"{p.numerator}/{p.denominator}"] for a, p in d.outcomes],
        "choices": [str(a) for a in d.choices],
        "private": d.private,
    }


def _effect_out(e: Effect) -> dict[str, Any]:
    out: dict[str, Any] = {
        "precedence": e.precedence,
        "serial": e.serial,
        "kind": e.kind,
        "params": [[k, value_out(v)] for k, v in e.params],
        "expiry": e.expiry.value,
        "owner": e.owner,
        "source": e.source,
    }
    if e.until is not None:  # omitted otherwise: older files stay byte-identical
        out["until"] = e.until
    return out


def snapshot_to_data(snap: Snapshot, *, history: bool = True) -> dict[str, Any]:
    """The canonical JSON-able data of ``snap`` (tables sorted, empty tables omitted);
    ``history=False``: the position only."""
    c = snap.cursor
    o = snap.outcome
    data: dict[str, Any] = {
        "tables": {
            name: {k: value_out(v) for k, v in sorted(t.items())}
            for name, t in sorted(snap.tables.items())
            if t
        },
        "cursor": [c.turn, c.stage, c.phase, c.mark, c.token, list(c.tokens)],
        "pending": [_decision_out(d) for d in snap.pending],
        "effects": [_effect_out(e) for e in snap.effects],
        "outcome": None if o is None else [o.winner, o.reason],
        "serial": snap.serial,
    }
    if history:
        data["history"] = [[str(h.action), h.private] for h in snap.history]
    return data
