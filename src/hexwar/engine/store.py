"""A game's position and its journal: the storage half of :class:`~hexwar.engine.state.State`.

:class:`Store` holds *all* mutable data of one game in a few flat containers (named
tables ``key -> Value``, the sequencer cursor, the pending decisions, the active effects,
the outcome) with a version number per table, and the API rules code reads and writes it
through: :meth:`Store.get` / :meth:`Store.table` to read; :meth:`Store.put`,
:meth:`Store.delete`, :meth:`Store.push`, :meth:`Store.add_effect`, :meth:`Store.hide`,
:meth:`Store.end_game` to write (each write journaled for undo); :meth:`Store.hook` to
fold a hook point. :class:`~hexwar.engine.state.State` adds legality
(:mod:`hexwar.engine.legality`), the views (:mod:`hexwar.engine.views`) and playing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import count
from types import MappingProxyType
from typing import Any, Final

from hexwar.base.errors import HexwarError
from hexwar.engine import sequencer
from hexwar.engine.actions import Action, Decision, Outcome, Value, check_chance
from hexwar.engine.framework import Clonable
from hexwar.engine.hooks import Effect, Expiry
from hexwar.engine.ruleview import Prefix, Rules
from hexwar.engine.sequencer import Cursor

__all__ = ["HIDDEN", "PSEUDO_TABLES", "Store"]

#: What :meth:`State.observation` shows instead of a value hidden from the observer.
HIDDEN: Final = "?"
_HIDDEN_TABLE: Final = "$hidden"
_EXPIRES_TABLE: Final = "$expires"
_HIDDEN_KEYS_TABLE: Final = "$hidden_keys"
_INTERNAL_TABLES: Final = frozenset({_HIDDEN_TABLE, _EXPIRES_TABLE, _HIDDEN_KEYS_TABLE})
#: Source of :attr:`State.version` numbers (never reused within a process).
_VERSIONS: Final = count(1)
#: The next of those numbers (``next(_VERSIONS)`` without the look-up of ``next``).
_new_version: Final = _VERSIONS.__next__
_MISSING: Final = object()
_EMPTY: Final[Mapping[str, Value]] = MappingProxyType({})
#: The pseudo-tables whose versions :meth:`State.table_version` also keeps: the sequencer
#: cursor, the pending decisions, the active effects, the outcome, the cursor's turn.
PSEUDO_TABLES: Final = ("$cursor", "$pending", "$effects", "$outcome", "$turn")
_FIELD_TABLES: Final = {
    "_cursor": "$cursor",
    "_pending": "$pending",
    "_effects": "$effects",
    "_serial": "$effects",
    "_outcome": "$outcome",
}
# Undo log node: (action, changes or None if not undoable, private side, parent, length).
_Node = tuple[Action, "tuple[tuple[Any, ...], ...] | None", "str | None", Any, int]


class Store(Clonable):
    """A game's tables, cursor, decisions, effects and outcome, versioned and journaled."""

    __slots__ = (
        "_base",
        "_cursor",
        "_effects",
        "_frame",
        "_hfc",
        "_hfx",
        "_log",
        "_lt",
        "_memo",
        "_memo_version",
        "_outcome",
        "_pc",
        "_pending",
        "_pp",
        "_serial",
        "_tables",
        "_tokenized",
        "_tv",
        "_version",
        "options",
        "ruleset",
        "scenario",
    )

    def __init__(self, ruleset: Rules, scenario: str, options: dict[str, Value]) -> None:
        self.ruleset: Rules = ruleset
        self.scenario = scenario
        self.options: Mapping[str, Value] = MappingProxyType(options)
        self._tables: dict[str, dict[str, Value]] = {}
        self._cursor = Cursor(ruleset.sequence.first_turn)
        self._pending: tuple[Decision, ...] = ()
        self._effects: tuple[Effect, ...] = ()
        self._outcome: Outcome | None = None
        self._serial = 0
        self._log: _Node | None = None
        self._frame: list[tuple[Any, ...]] | None = None
        self._version = next(_VERSIONS)
        self._base = self._version
        self._tv: dict[str, int] = {}
        self._memo: dict[Any, Any] = {}
        self._lt: dict[Prefix, tuple[str, ...]] = {}
        self._memo_version = -1
        self._hfx: tuple[Effect, ...] | None = None  # the effects _hfc is for (hook)
        self._hfc: dict[str, tuple[tuple[Effect, Any], ...]] = {}
        self._pc: Cursor | None = None  # the cursor whose phase _pp is (_phase)
        self._pp: sequencer.Phase | None = None
        self._tokenized = ruleset._tokenized

    # -- reading -------------------------------------------------------------------------

    def get(self, table: str, key: str, default: Value = None) -> Value:
        """The value at ``table[key]``, or ``default``."""
        t = self._tables.get(table)
        return default if t is None else t.get(key, default)

    @property
    def version(self) -> int:
        """A number that changes whenever what the rules can read changes (the tables, the
        cursor, pending decisions, effects, the outcome: any write, and undo).

        Two reads that see the same version see the same position, so it is a cache key
        for anything the rules derive from it (legal actions, evaluations); the history
        is not part of it (an action's journal entry is added after its writes, so the
        legal actions asked for while the sequencer settles stay valid afterwards).
        Numbers are never reused within a process; a clone starts with its original's
        version (the same content), and the two part ways at their next change.

        >>> # see tests/test_state.py
        """
        return self._version

    def table(self, name: str) -> Mapping[str, Value]:
        """A read-only view of a table (empty if it does not exist)."""
        t = self._tables.get(name)
        return _EMPTY if t is None else MappingProxyType(t)

    def table_version(self, name: str) -> int:
        """A number that changes whenever table ``name`` changes (a write, or an undo or
        rollback touching it); also for the pseudo-tables :data:`PSEUDO_TABLES`.

        Numbers come from the one process-wide counter behind :attr:`version` and are
        never reused; a clone starts with its original's numbers. Two reads that see the
        same number for a table see the same content of it, so a memo keyed by the
        versions of the tables it reads is exact (:class:`hexwar.engine.memo.StateMemo`).
        """
        return self._tv.get(name, self._base)

    @property
    def cursor(self) -> Cursor:
        """The sequencer's position."""
        return self._cursor

    @property
    def turn(self) -> int:
        """The current turn number."""
        return self._cursor.turn

    @property
    def token(self) -> str | None:
        """The token of the current dynamic-segment activation, or ``None``."""
        return self._cursor.token

    @property
    def pending(self) -> tuple[Decision, ...]:
        """The stack of pending decisions (the last one is answered first)."""
        return self._pending

    @property
    def effects(self) -> tuple[Effect, ...]:
        """The active effects, in the order they apply."""
        return self._effects

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the initial state, oldest first."""
        out: list[Action] = []
        node = self._log
        while node is not None:
            out.append(node[0])
            node = node[3]
        out.reverse()
        return tuple(out)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    # -- writing (for rules code) -------------------------------------------------------

    def _set(self, field: str, value: Any) -> None:
        self._tv[_FIELD_TABLES[field]] = self._version = _new_version()
        if self._frame is not None:
            self._frame.append(("f", field, getattr(self, field)))
        setattr(self, field, value)

    def _rollback(self, changes: Iterable[tuple[Any, ...]]) -> None:
        self._tv["$turn"] = version = self._version = next(_VERSIONS)  # (may restore a turn)
        tv = self._tv
        for change in reversed(list(changes)):
            if change[0] == "t":
                _, table, key, old = change
                t = self._tables.setdefault(table, {})
                if old is _MISSING:
                    t.pop(key, None)
                else:
                    t[key] = old
                tv[table] = version
            else:
                object.__setattr__(self, change[1], change[2])
                tv[_FIELD_TABLES[change[1]]] = version

    def put(self, table: str, key: str, value: Value) -> None:
        """Set ``table[key] = value`` (journaled)."""
        t = self._tables.get(table)
        if t is None:
            t = self._tables[table] = {}
        self._tv[table] = self._version = _new_version()
        frame = self._frame
        if frame is not None:
            frame.append(("t", table, key, t.get(key, _MISSING)))
        t[key] = value

    def delete(self, table: str, key: str) -> None:
        """Remove ``table[key]`` if present (journaled)."""
        t = self._tables.get(table)
        if t is None or key not in t:
            return
        self._tv[table] = self._version = _new_version()
        frame = self._frame
        if frame is not None:
            frame.append(("t", table, key, t[key]))
        del t[key]

    def push(self, decision: Decision) -> None:
        """Push a pending decision: it is answered before anything else."""
        if decision.is_chance:
            check_chance(decision)
        self._set("_pending", (*self._pending, decision))

    def add_effect(
        self,
        kind: str,
        params: Mapping[str, Value] | None = None,
        *,
        expiry: Expiry = Expiry.TURN,
        precedence: int = 0,
        owner: str | None = None,
        source: str | None = None,
        until: int | None = None,
    ) -> Effect:
        """Put an effect in force (a card played, an event); see :mod:`hexwar.engine.hooks`.

        ``until=T``: the effect lapses at the start of turn ``T`` ("for N turns" is
        ``until=state.turn + N``); with ``until`` the default expiry is ``GAME``.
        """
        if kind not in self.ruleset.effect_rules:
            raise HexwarError(f"unknown effect kind {kind!r} for {self.ruleset.name}")
        if until is not None and expiry == Expiry.TURN:
            expiry = Expiry.GAME
        if until is not None and until <= self.turn:
            raise HexwarError(f"effect {kind!r}: until turn {until} is not after turn {self.turn}")
        effect = Effect(
            precedence,
            self._serial,
            kind,
            tuple(sorted((params or {}).items())),
            Expiry(expiry),
            owner,
            source,
            until,
        )
        self._set("_serial", self._serial + 1)
        # (precedence, serial) is the effects' order (serials are unique): no attrs compare
        self._set("_effects", tuple(sorted((*self._effects, effect), key=_effect_order)))
        return effect

    def remove_effect(self, effect: Effect) -> None:
        """Take an effect out of force."""
        self._set("_effects", tuple(e for e in self._effects if e != effect))

    def lapse_effects(self, expiry: Expiry) -> None:
        """Remove the effects that last until ``expiry`` (the sequencer, at a phase's or
        turn's end)."""
        for effect in self._effects:  # a loop, not any(): most often there are none
            if effect.expiry == expiry:
                self._set("_effects", tuple(e for e in self._effects if e.expiry != expiry))
                return

    def put_until(self, table: str, key: str, value: Value, turn: int) -> None:
        """Set ``table[key] = value`` as a *timed marker*: the sequencer deletes it at the
        start of turn ``turn`` (a gas square, a neutralised gun: «Бой отрядов» XIV, IX).

        Journaled like :meth:`put`; the expiry is kept in the state's ``$expires`` table,
        so clone, undo and save files cover it. A later :meth:`put_until` on the same key
        replaces the expiry; a plain :meth:`put` keeps it.
        """
        if turn <= self.turn:
            raise HexwarError(f"{table}/{key}: expiry turn {turn} is not after turn {self.turn}")
        self.put(table, key, value)
        self.put(_EXPIRES_TABLE, f"{table}/{key}", turn)

    def expires(self, table: str, key: str) -> int | None:
        """The turn at whose start the timed marker ``table[key]`` lapses, or ``None``."""
        turn = self.get(_EXPIRES_TABLE, f"{table}/{key}")
        return turn if isinstance(turn, int) else None

    def lapse_timed(self) -> None:
        """Turn start: lapse the effects and timed markers whose ``until`` turn has come."""
        turn = self.turn
        if any(e.until is not None and e.until <= turn for e in self._effects):
            self._set(
                "_effects", tuple(e for e in self._effects if e.until is None or e.until > turn)
            )
        timed = self._tables.get(_EXPIRES_TABLE)
        if timed:
            for ref, due in sorted(timed.items()):
                if isinstance(due, int) and due <= turn:
                    table, _, key = ref.partition("/")
                    self.delete(table, key)
                    self.delete(_EXPIRES_TABLE, ref)

    def move_cursor(self, cursor: Cursor, phase: Any = _MISSING) -> None:
        """Move the sequencer's cursor (journaled); only the sequencer calls it, with the
        ``phase`` it is in (``None`` out of a phase), kept for :meth:`Legality._phase`."""
        self._tv["$cursor"] = self._version = version = _new_version()  # _set, inline
        if cursor.turn != self._cursor.turn:
            self._tv["$turn"] = version
        frame = self._frame
        if frame is not None:
            frame.append(("f", "_cursor", self._cursor))
        self._cursor = cursor
        if phase is not _MISSING:
            self._pc, self._pp = cursor, phase

    def end_game(self, outcome: Outcome) -> None:
        """End the game with ``outcome`` (a victory condition was met)."""
        self._set("_outcome", outcome)

    def hide(self, table: str, key: str, side: str | None, *, key_too: bool = False) -> None:
        """Mark ``table[key]`` as known only to ``side`` (a held card, a hidden set-up);
        ``None`` hides it from every side (the order of a shuffled deck).

        The other sides' :meth:`observation` shows the entry's value as ``HIDDEN``; with
        ``key_too`` it leaves the entry out altogether, for tables whose keys are
        themselves secret (which hexes hold a hidden set-up).
        """
        ref = f"{table}/{key}"
        if self._tables.get(_HIDDEN_TABLE, _EMPTY).get(ref, _MISSING) != side:  # else no write
            self.put(_HIDDEN_TABLE, ref, side)
        if key_too:
            self.put(_HIDDEN_KEYS_TABLE, ref, side)
        else:
            self.delete(_HIDDEN_KEYS_TABLE, ref)

    def reveal(self, table: str, key: str) -> None:
        """Make ``table[key]`` public again (a card is played)."""
        ref = f"{table}/{key}"
        self.delete(_HIDDEN_TABLE, ref)
        self.delete(_HIDDEN_KEYS_TABLE, ref)

    # -- hooks --------------------------------------------------------------------------

    def hook(self, name: str, value: Any, **context: Any) -> Any:
        """Fold hook point ``name`` over the ruleset's static hook and the active effects.

        The effect kinds contributing to each hook point are found once per ruleset
        (:attr:`Ruleset.effect_rules` is fixed), so a hook nothing contributes to costs
        a dictionary look-up; the effects in force that fold into it, once per tuple of
        effects (kept until the effects change)."""
        ruleset = self.ruleset
        static, kinds = ruleset._folds.get(name) or ruleset._hook_folds(name)
        if static is not None:
            value = static(self, value, **context)
        effects = self._effects
        if kinds and effects:
            if self._hfx is not effects:  # the effects changed: pick the folds again
                self._hfx, self._hfc = effects, {}
            folds = self._hfc.get(name)
            if folds is None:
                rules = self.ruleset.effect_rules
                folds = self._hfc[name] = tuple(
                    (e, rules[e.kind][name]) for e in effects if e.kind in kinds
                )
            for effect, rule in folds:
                value = rule(self, effect, value, **context)
        return value


def _effect_order(effect: Effect) -> tuple[int, int]:
    return effect.precedence, effect.serial
