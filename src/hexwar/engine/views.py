"""The views of a state: its snapshot, its JSON data, what one side may observe.

:class:`Views` is the half of :class:`~hexwar.engine.state.State` that shows the position:
:meth:`~Views.snapshot` (everything, one record), :meth:`~Views.from_snapshot`,
:meth:`~Views.to_data` (canonical JSON-able data, :mod:`hexwar.engine.savefile`) and
:meth:`~Views.observation` (hidden entries and private actions masked).
"""

from __future__ import annotations

from typing import Any, TypeVar

from hexwar.engine.actions import Value
from hexwar.engine.legality import Legality
from hexwar.engine.ruleview import Rules
from hexwar.engine.snapshot import HistoryEntry, Snapshot, snapshot_to_data
from hexwar.engine.store import (
    _HIDDEN_KEYS_TABLE,
    _HIDDEN_TABLE,
    _INTERNAL_TABLES,
    HIDDEN,
)

__all__ = ["Views"]

S = TypeVar("S", bound="Views")


class Views(Legality):
    """Snapshots, data and observations of the position (see the module docstring)."""

    __slots__ = ()

    def snapshot(self) -> Snapshot:
        """Everything this state holds, as one record (its ``tables`` are this state's own:
        read them, never change them)."""
        history: list[HistoryEntry] = []
        node = self._log
        while node is not None:
            history.append(HistoryEntry(node[0], node[2]))
            node = node[3]
        history.reverse()
        return Snapshot(
            self._tables,
            self._cursor,
            self._pending,
            self._effects,
            self._outcome,
            self._serial,
            tuple(history),
        )

    @classmethod
    def from_snapshot(
        cls: type[S], ruleset: Rules, scenario: str, options: dict[str, Value], snap: Snapshot
    ) -> S:
        """A state holding ``snap`` (its tables copied), whose history cannot be undone."""
        state = cls(ruleset, scenario, options)
        state._tables = {name: dict(t) for name, t in snap.tables.items()}
        state._cursor = snap.cursor
        state._pending = snap.pending
        state._effects = snap.effects
        state._outcome = snap.outcome
        state._serial = snap.serial
        for i, entry in enumerate(snap.history):
            state._log = (entry.action, None, entry.private, state._log, i + 1)
        return state

    def to_data(self, *, history: bool = True) -> dict[str, Any]:
        """The whole state as canonical JSON-able data (see :mod:`hexwar.engine.savefile`);
        ``history=False``: the position only."""
        return snapshot_to_data(self.snapshot(), history=history)

    def observation(self, side: str) -> dict[str, Any]:
        """What ``side`` may know: hidden entries of other sides and private actions masked."""
        hidden = self._tables.get(_HIDDEN_TABLE, {})
        secret_keys = self._tables.get(_HIDDEN_KEYS_TABLE, {})
        tables: dict[str, dict[str, Any]] = {}
        for name in sorted(self._tables):
            if name in _INTERNAL_TABLES or not self._tables[name]:
                continue
            tables[name] = {
                key: (HIDDEN if hidden.get(f"{name}/{key}", side) != side else _to_json(value))
                for key, value in sorted(self._tables[name].items())
                if secret_keys.get(f"{name}/{key}", side) == side
            }
        history: list[str] = []
        node = self._log
        while node is not None:
            history.append(str(node[0]) if node[2] in (None, side) else HIDDEN)
            node = node[3]
        history.reverse()
        top = self._pending[-1] if self._pending else None
        return {
            "side": side,
            "turn": self.turn,
            "stage": self.stage,
            "phase": self.phase,
            "to_act": self.current_player(),
            "decision": None if top is None else top.kind,
            "tables": tables,
            "effects": [[e.kind, e.owner, e.expiry.value] for e in self._effects],
            "outcome": None
            if self._outcome is None
            else [self._outcome.winner, self._outcome.reason],
            "history": history,
        }


def _to_json(value: Value) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value
