"""Game state and rulesets: the OpenSpiel-shaped API every hexwar game is played through.

A game subclasses :class:`Ruleset` (its sides, its :class:`~hexwar.engine.sequencer.TurnSequence`,
the actions of each phase and what they do, hook implementations). A :class:`State`
holds *all* mutable data of one game in a few flat containers:

- ``tables``: named flat mappings ``key -> Value`` (``Value`` is JSON-able and immutable),
  e.g. ``units: {"5TA": ("0912", "full")}``, with a version number per table;
- the sequencer cursor, the stack of pending decisions, the active effects and the
  outcome: immutable values;
- an undo log of the changes each action made (:class:`LogEntry`, whose changes are
  :class:`TableChange` / :class:`FieldChange` records), shared by clones.

So :meth:`State.clone` copies a few dicts, :meth:`State.undo` is exact, and the whole
state serializes to JSON (:mod:`hexwar.engine.savefile`).

Rules code reads with :meth:`State.get` / :meth:`State.table` and writes only through
:meth:`State.put`, :meth:`State.delete`, :meth:`State.push`, :meth:`State.add_effect`,
:meth:`State.hide` and :meth:`State.end_game`; each write is journaled for undo.
Hidden information is marked per entry (:meth:`State.hide`) and masked by
:meth:`State.observation`.

What may be done comes from one source, the ruleset's tokens (or its lists, for a small
game): :meth:`State.legal_tokens` by prefix, :meth:`State.legal_actions` (the whole list,
the token tree walked to its leaves), :meth:`State.is_legal` and the sequencer's idle
test (:meth:`State.phase_busy`); they and :meth:`State.derive` are kept per position
(:attr:`State.version`), under the one bound :data:`~hexwar.base.kept.KEPT_LIMIT`.
Playing on until someone must act is :func:`hexwar.engine.sequencer.settle`'s.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import count, repeat
from types import MappingProxyType
from typing import Any, ClassVar, Final, TypeVar

import attrs

from hexwar.base.errors import (
    GameOverError,
    HexwarError,
    NoActionSpace,
    NothingToUndo,
    NotLegalNow,
)
from hexwar.base.kept import KEPT_LIMIT, kept
from hexwar.engine import sequencer
from hexwar.engine.actions import (
    CHANCE,
    END,
    TERMINAL,
    Action,
    Decision,
    Outcome,
    Seat,
    Value,
    action_key,
    check_chance,
    sorted_outcomes,
    to_action,
)
from hexwar.engine.bounds import Bounds
from hexwar.engine.dice import SeededDriver
from hexwar.engine.hooks import Effect, EffectRule, Expiry, HookPoint, hook_point
from hexwar.engine.sequence import DecisionKinds, PhaseKinds
from hexwar.engine.sequencer import Cursor, TurnSequence
from hexwar.engine.snapshot import HistoryEntry, Snapshot, snapshot_to_data
from hexwar.engine.space import DONE, ActionSpace, tokens_of

__all__ = [
    "HIDDEN",
    "PSEUDO_TABLES",
    "FieldChange",
    "LogEntry",
    "Prefix",
    "Ruleset",
    "State",
    "TableChange",
    "explain_default",
]

#: A prefix of an action's tokens: its kind, then some of its arguments.
Prefix = tuple[str, ...]
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
T = TypeVar("T")
S = TypeVar("S", bound="State")
_Values = Callable[[Any, Any, "Prefix"], Iterable[str]]  # a kind's step: (state, ctx, args)
_END_KIND: Final = END.kind
# The keys of the engine's own answers in a position's memo: objects no key passed to
# State.derive can equal, so derived values are kept under their own keys.
_LEGAL, _LIST, _SET, _TRIE, _FIRST = (object() for _ in range(5))
#: How many legal tokens the default reason for an illegal action lists.
_SHOWN_TOKENS: Final = 8


# -- the journal's records --------------------------------------------------------------------


@attrs.define(slots=True, eq=False)
class TableChange:
    """One journaled write to a table: ``table[key]`` held ``old`` before it
    (``_MISSING``: the key was absent). Written once, read by undo and rollback."""

    table: str
    key: str
    old: Any


@attrs.define(slots=True, eq=False)
class FieldChange:
    """One journaled change of a state field (``_cursor``, ``_pending``, ``_effects``,
    ``_serial``, ``_outcome``), which held ``old`` before it."""

    field: str
    old: Any


@attrs.define(slots=True, eq=False)
class LogEntry:
    """One applied action in the undo log: the action, its changes (``None``: not
    undoable, a history loaded from a snapshot), the side it is private to, the entry
    before it, and the number of actions up to and including it. Written once, shared by
    clones: never changed."""

    action: Action
    changes: tuple[TableChange | FieldChange, ...] | None
    private: str | None
    parent: LogEntry | None
    length: int


# -- the rules ------------------------------------------------------------------------------


class Ruleset:
    """The rules of one game. Subclass it and override what the game needs.

    Required: ``name``, ``sides``, ``sequence``, :meth:`setup`, :meth:`action_space`,
    what may be done and what it does — each phase's kinds (``Phase(..., kinds=...)``,
    :mod:`hexwar.engine.kinds`, each kind saying what it ``does``) or, for a small game,
    :meth:`phase_actions` (the whole list) and :meth:`play`; :attr:`decision_kinds` (or
    :meth:`decision_actions` and :meth:`decide`) if the game pushes decisions;
    :meth:`final_outcome` if the sequence has a turn limit.

    Static hooks are methods named ``hook_<point>(state, value, **context)`` (see
    :mod:`hexwar.engine.hooks`); ``effect_rules`` maps effect kinds to hook contributions.
    """

    name: ClassVar[str] = "game"
    #: The rules' version: a record or save names it, and is refused by another version.
    #: Bump it when a change makes old records replay differently.
    version: ClassVar[str] = "1"
    sides: ClassVar[tuple[str, ...]] = ()
    sequence: TurnSequence = TurnSequence(stages=())
    effect_rules: ClassVar[Mapping[str, Mapping[str, EffectRule]]] = {}
    hook_points: ClassVar[Mapping[str, HookPoint]] = {}
    #: The kinds of decision the game pushes (:class:`~hexwar.engine.kinds.DecisionKind`:
    #: what an answer does, and its token kinds; names distinct): the default
    #: :meth:`decide` and :meth:`decision_tokens` use them.
    decision_kinds: Sequence[DecisionKinds] = ()
    #: The most token steps of a game (the default :meth:`bounds`; ``None``: not declared).
    max_tokens: int | None = None

    # -- set-up ------------------------------------------------------------------------

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        """Fill a fresh state's tables for ``scenario``; may push chance decisions."""

    def new_state(
        self,
        scenario: str = "default",
        options: Mapping[str, Value] | None = None,
        *,
        seed: int | None = None,
    ) -> State:
        """A new game: set up, then advanced to the first decision. With ``seed``, the
        chance events before the first player's decision (a set-up's shuffles) are
        decided by ``SeededDriver(seed)`` (:mod:`hexwar.engine.dice`), applied like any
        action."""
        state = State(self, scenario, dict(options or {}))
        self.setup(state, scenario, state.options)
        state._start()
        if seed is not None:
            driver = SeededDriver(seed)
            while state.is_chance_node():
                state.apply(driver.pick(state.chance_outcomes()))
        return state

    # -- identity and validation (records, save files) ------------------------------------

    def options(self) -> Mapping[str, Value]:
        """The options this ruleset was built with, as data (a game length, a player
        count...): records and save files carry them, and are refused by a ruleset built
        with other options. Default: none."""
        return {}

    def data_digest(self) -> str:
        """A digest of the game data the rules read (map, counters, tables): records and
        save files carry it, and are refused by a ruleset with other data. Default: ``""``
        (no data files)."""
        return ""

    def validate_position(self, state: State) -> None:
        """Raise :class:`~hexwar.base.errors.DataError` (``entry`` naming the table and key)
        unless ``state`` is a position of this game. Run on every load of a save file,
        after the core's own checks (:func:`hexwar.engine.savefile.validate_core`: cursor, pending
        decisions, effects, the engine's tables). Default: nothing more to check."""

    def same_game(self, other: Ruleset) -> bool:
        """Whether ``other`` is the same game: name, version, options and data digest."""
        return self is other or (
            self.name == other.name
            and self.version == other.version
            and dict(self.options()) == dict(other.options())
            and self.data_digest() == other.data_digest()
        )

    # -- what may be done --------------------------------------------------------------

    def action_space(self) -> ActionSpace:
        """Every token the game can ever use (see :mod:`hexwar.engine.space`): phase kinds, decision
        answers, chance outcomes, the engine's ``end`` and the sequencer's ``pick`` /
        ``draw``, and every argument value. Built once per ruleset (:attr:`space`)."""
        raise NoActionSpace(
            f"{type(self).__name__} declares no action space (override Ruleset.action_space)"
        )

    @functools.cached_property
    def space(self) -> ActionSpace:
        """:meth:`action_space`, built once per ruleset instance."""
        return self.action_space()

    def phase_tokens(self, state: State, side: str, prefix: Prefix) -> Sequence[str]:
        """The tokens that may follow ``prefix`` in the current phase, sorted (plain string
        order), with :data:`~hexwar.engine.space.DONE` among them when ``prefix`` is itself a
        complete legal action; ``prefix == ()`` gives the kinds with a legal completion
        (never ``end``: the engine adds it). Never a token from which no legal action
        completes. ``prefix`` is always a legal prefix (the engine walks it token by token).

        This is the one legality source. The default asks the current phase's kinds
        (``Phase(..., kinds=...)``, :mod:`hexwar.engine.kinds`), else derives it from
        :meth:`phase_actions`, so a small game may write only that list.
        """
        kinds = _phase_kinds(state)
        if kinds is None:
            return state._listed_next(prefix)
        return kinds.tokens(state, side, prefix)

    def phase_actions(self, state: State, side: str) -> Iterable[Action]:
        """The actions ``side`` may take in the current phase (without :data:`END`).

        Only read when :meth:`phase_tokens` is not overridden (a game that writes
        :meth:`phase_tokens` need not write this: the engine enumerates the tokens).
        """
        return ()

    def decision_tokens(self, state: State, decision: Decision, prefix: Prefix) -> Sequence[str]:
        """Like :meth:`phase_tokens`, for a pending non-chance decision without fixed
        ``choices``; the default asks its kind's ``answers`` (:attr:`decision_kinds`), else
        derives it from :meth:`decision_actions`."""
        found = self._decision_kind.get(decision.kind)
        if found is None or found.answers is None:
            return state._listed_next(prefix)
        return found.answers.tokens(state, decision, prefix)

    def decision_actions(self, state: State, decision: Decision) -> Iterable[Action]:
        """The answers to a pending non-chance decision without fixed ``choices`` (read
        only when :meth:`decision_tokens` is not overridden)."""
        return ()

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        """Why ``action`` is illegal now: ``(reason, rule)``. Override to cite rules; the
        default names the first token that does not fit the prefix before it, what that
        token should have been (:meth:`step_meaning`) and the tokens that may follow."""
        return explain_default(state, action, lambda prefix: self.step_meaning(state, prefix))

    def step_meaning(self, state: State, prefix: Prefix) -> str | None:
        """What the token after the legal ``prefix`` stands for ("a unit of yours that may
        move now"), for :meth:`explain`; ``None``: say nothing. The default reads the
        steps' ``means`` of the current phase's (or decision's) kinds."""
        if state.pending:
            found = self._decision_kind.get(state.pending[-1].kind)
            return None if found is None or found.answers is None else found.answers.meaning(prefix)
        kinds = _phase_kinds(state)
        return None if kinds is None else kinds.meaning(prefix)

    def action_tags(self, state: State, action: Action) -> frozenset[str]:
        """Tags deciding which seats control ``action`` (by arm, by front, ...; S3.1)."""
        return frozenset()

    def seats(self) -> tuple[Seat, ...]:
        """The seats; by default one per side, named like the side."""
        return tuple(Seat(side, side) for side in self.sides)

    # -- what happens ------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        """Carry out a legal phase action (not :data:`END`): by default what its kind
        ``does`` (the current phase's kinds)."""
        kinds = _phase_kinds(state)
        kind = None if kinds is None else kinds.get(action.kind)
        if kind is None or kind.does is None:
            raise NotImplementedError(f"{type(self).__name__}.play: {action.kind!r}")
        kind.does(state, action)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        """Carry out the answer to ``decision`` (already popped from the stack): by default
        what its kind ``does`` (:attr:`decision_kinds`)."""
        found = self._decision_kind.get(decision.kind)
        if found is None:
            raise NotImplementedError(f"{type(self).__name__}.decide: {decision.kind!r}")
        found.does(state, decision, action)

    def final_outcome(self, state: State) -> Outcome:
        """The outcome when the turn limit is reached (S3.4, S11)."""
        return Outcome(None, "turn limit reached")

    # -- frameworks (:mod:`hexwar.interop`) ---------------------------------------------

    #: Whether no side ever has hidden information (no ``State.hide``, no private
    #: decision); ``None`` (the default): derived from what the game hides
    #: (:func:`hexwar.engine.bounds.hides_anything`); the kit checks a declaration.
    perfect_information: ClassVar[bool | None] = None

    def bounds(self) -> Bounds:
        """The declared bounds: the most token steps of a game, the range of a return.
        Default: :attr:`max_tokens` (``None``: no length declared), returns in ``[-1, 1]``,
        zero-sum."""
        return Bounds(max_tokens=self.max_tokens)

    def reward_signals(self) -> tuple[Any, ...]:
        """Shaped-reward signals for learning agents
        (:class:`hexwar.engine.shaping.Signal`; used only when asked for); default none."""
        return ()

    def scenario_bounds(self, scenario: str) -> Bounds:
        """The bounds of a game of ``scenario`` (the adapters' and the kit's); default
        :meth:`bounds`. A ruleset whose scenarios differ much in length declares them
        here, so each one's ``max_tokens`` is near its real length."""
        return self.bounds()

    def returns(self, state: Any) -> dict[str, float]:
        """Each side's return at the end of ``state`` (``0`` while it goes on): by default
        ``1`` for the winner, ``-1 / (sides - 1)`` for each other side, ``0`` on a draw."""
        out = dict.fromkeys(self.sides, 0.0)
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            losers = max(len(self.sides) - 1, 1)
            for side in self.sides:
                out[side] = 1.0 if side == outcome.winner else -1.0 / losers
        return out

    def observation_view(self) -> Any:
        """The game's :class:`~hexwar.engine.observe.ObservationView` (board, features), or
        ``None`` (the default): the generic sections only."""
        return None

    def resample_hidden(self, state: Any, side: str, rng: random.Random) -> Any:
        """A state ``side`` cannot tell from ``state`` (the same observation), what is
        hidden from it drawn anew with ``rng`` (IS-MCTS). Default: a clone when nothing is
        hidden from ``side``, else :class:`~hexwar.base.errors.HexwarError`
        (:func:`hexwar.engine.resample.deal_hidden` deals hidden cards anew)."""
        if state.hides_from(side):
            raise HexwarError(f"{self.name}: no way to resample hidden information declared")
        return state.clone()

    def evaluation(self) -> Any:
        """The game's evaluation for a search (:mod:`hexwar.search`): an object with
        ``position_value(state, side) -> float``, the chance in ``[0, 1]`` that ``side``
        wins from ``state`` (and, optionally, ``horizon``: after how many actions a
        rollout stops to be scored by it), or ``None`` (the default: rollouts play to
        the end)."""
        return None

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Any:
        """The ruleset whose :meth:`options` are ``options``; default ``cls(**options)``."""
        return cls(**options)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(self.options()), self.data_digest()))

    # -- hooks -------------------------------------------------------------------------

    def static_hook(self, name: str) -> Any:
        """The bound ``hook_<name>`` method, or ``None`` (cached per ruleset)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_hook_cache", {})
        if name not in cache:
            hook_point(name, self.hook_points)
            cache[name] = getattr(self, "hook_" + name, None)
        return cache[name]

    def _hook_folds(self, name: str) -> tuple[Any, frozenset[str]]:
        """Hook point ``name``'s static hook (or ``None``) and the effect kinds that
        contribute to it (from :attr:`effect_rules`), cached per ruleset: a hook with
        neither returns its value at once (:meth:`State.hook`)."""
        found = self._folds.get(name)
        if found is None:
            kinds = frozenset(
                k for k, rules in self.effect_rules.items() if rules.get(name) is not None
            )
            found = self._folds[name] = (self.static_hook(name), kinds)
        return found

    @functools.cached_property
    def _folds(self) -> dict[str, tuple[Any, frozenset[str]]]:
        """:meth:`_hook_folds`' answers by hook point (filled on first use)."""
        return {}

    def _walk_kinds(self, state: State) -> list[Action] | None:
        """The current node's whole list from its declared kinds (each kind's token tree
        walked to its leaves; ``end`` where the phase may end), or ``None`` when the
        node's tokens do not come from declared kinds."""
        cls = type(self)
        if state.pending:
            d = state.pending[-1]
            found = self._decision_kind.get(d.kind)
            if found is None or found.answers is None:
                return None
            if cls.decision_tokens is not Ruleset.decision_tokens:
                return None
            return found.answers.actions(state, d)
        kinds = _phase_kinds(state)
        if kinds is None or cls.phase_tokens is not Ruleset.phase_tokens:
            return None
        out = kinds.actions(state, state.current_player())
        if sequencer.may_end(state):
            out.append(END)
        return out

    @functools.cached_property
    def _decision_kind(self) -> Mapping[str, DecisionKinds]:
        """:attr:`decision_kinds` by name (read on first use: a ruleset may set them in
        ``__init__``); names that repeat are refused."""
        if isinstance(self.decision_kinds, Mapping):
            raise TypeError(f"{type(self).__name__}.decision_kinds: a tuple of DecisionKind")
        found = {k.name: k for k in self.decision_kinds}
        if len(found) != len(self.decision_kinds):
            names = [k.name for k in self.decision_kinds]
            raise ValueError(f"{type(self).__name__}: decision kinds repeat: {names}")
        return found

    @functools.cached_property
    def _tokenized(self) -> tuple[bool, bool, bool]:
        """Whether this ruleset writes its phase / decision legality token by token, and
        whether it keeps the default :meth:`phase_tokens` (a phase's kinds answer)."""
        cls = type(self)
        phases = (p for stage in self.sequence.stages for p in stage.phases)
        default = cls.phase_tokens is Ruleset.phase_tokens
        return (
            not default or any(p.kinds is not None for p in phases),
            cls.decision_tokens is not Ruleset.decision_tokens
            or any(k.answers is not None for k in self._decision_kind.values()),
            default,
        )


#: Rulesets rebuilt by unpickling, shared: (class, options JSON) -> ruleset.
_REBUILT: Final[dict[tuple[type, str], Any]] = {}


def _rebuild(cls: type[Ruleset], options: dict[str, Any], digest: str) -> Any:
    key = (cls, json.dumps(options, sort_keys=True))
    found = _REBUILT.get(key)
    if found is None:
        found = cls.from_options(options)
        if found.data_digest() != digest:
            raise HexwarError(
                f"cannot unpickle a {cls.__name__}: its data digest {digest[:12]!r} is not"
                f" this installation's {found.data_digest()[:12]!r}"
            )
        _REBUILT[key] = found
    return found


def _phase_kinds(state: State) -> PhaseKinds | None:
    """The current phase's kinds (``Phase(..., kinds=...)``), or ``None``."""
    phase = state._phase
    return None if phase is None else phase.kinds


class State:
    """All mutable data of one game, and the API to play it (see the module docstring).

    >>> # see docs/architecture.md and tests/toy_game.py for a complete game
    """

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
        "_pending",
        "_phase",
        "_serial",
        "_tables",
        "_tokenized",
        "_tv",
        "_version",
        "options",
        "ruleset",
        "scenario",
    )

    def __init__(self, ruleset: Ruleset, scenario: str, options: dict[str, Value]) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.options: Mapping[str, Value] = MappingProxyType(options)
        self._tables: dict[str, dict[str, Value]] = {}
        self._cursor = Cursor(ruleset.sequence.first_turn)
        self._pending: tuple[Decision, ...] = ()
        self._effects: tuple[Effect, ...] = ()
        self._outcome: Outcome | None = None
        self._serial = 0
        self._log: LogEntry | None = None
        self._frame: list[TableChange | FieldChange] | None = None
        self._version = next(_VERSIONS)
        self._base = self._version
        self._tv: dict[str, int] = {}
        #: the answers derived at _memo_version (derive, the legal list), and the
        #: legal tokens by prefix
        self._memo: dict[Any, Any] = {}
        self._lt: dict[Prefix, tuple[str, ...]] = {}
        self._memo_version = -1
        self._hfx: tuple[Effect, ...] | None = None  # the effects _hfc is for (hook)
        self._hfc: dict[str, tuple[tuple[Effect, Any], ...]] = {}
        #: the phase of _cursor (current_phase), set wherever the cursor is
        self._phase: sequencer.Phase | None = None
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

    def table_versions(self, names: Iterable[str]) -> tuple[int, ...]:
        """:meth:`table_version` of each of ``names``, in one call (a memo's key)."""
        return tuple(map(self._tv.get, names, repeat(self._base)))

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
            out.append(node.action)
            node = node.parent
        out.reverse()
        return tuple(out)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    # -- writing (for rules code) -------------------------------------------------------

    def _set(self, field: str, value: Any) -> None:
        self._tv[_FIELD_TABLES[field]] = self._version = _new_version()
        if self._frame is not None:
            self._frame.append(FieldChange(field, getattr(self, field)))
        setattr(self, field, value)

    def _rollback(self, changes: Iterable[TableChange | FieldChange]) -> None:
        self._tv["$turn"] = version = self._version = next(_VERSIONS)  # (may restore a turn)
        tv = self._tv
        for change in reversed(list(changes)):
            if type(change) is TableChange:
                t = self._tables.setdefault(change.table, {})
                if change.old is _MISSING:
                    t.pop(change.key, None)
                else:
                    t[change.key] = change.old
                tv[change.table] = version
            else:
                assert type(change) is FieldChange
                object.__setattr__(self, change.field, change.old)
                tv[_FIELD_TABLES[change.field]] = version
        self._cursor_moved()

    def put(self, table: str, key: str, value: Value) -> None:
        """Set ``table[key] = value`` (journaled)."""
        t = self._tables.get(table)
        if t is None:
            t = self._tables[table] = {}
        self._tv[table] = self._version = _new_version()
        frame = self._frame
        if frame is not None:
            frame.append(TableChange(table, key, t.get(key, _MISSING)))
        t[key] = value

    def delete(self, table: str, key: str) -> None:
        """Remove ``table[key]`` if present (journaled)."""
        t = self._tables.get(table)
        if t is None or key not in t:
            return
        self._tv[table] = self._version = _new_version()
        frame = self._frame
        if frame is not None:
            frame.append(TableChange(table, key, t[key]))
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
        expiry: Expiry | str = Expiry.TURN,
        precedence: int = 0,
        owner: str | None = None,
        source: str | None = None,
        until: int | None = None,
    ) -> Effect:
        """Put an effect in force (a card played, an event); see :mod:`hexwar.engine.hooks`.
        ``expiry``: an :class:`~hexwar.engine.hooks.Expiry` or its value (``"phase"``,
        ``"turn"``, ``"game"``, as data spells it).

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

    def move_cursor(self, cursor: Cursor) -> None:
        """Move the sequencer's cursor (journaled); only the sequencer calls it."""
        old = self._cursor  # _set, inline: the sequencer moves the cursor on every step
        tv = self._tv
        tv["$cursor"] = self._version = version = _new_version()
        if cursor.turn != old.turn:
            tv["$turn"] = version
        if self._frame is not None:
            self._frame.append(FieldChange("_cursor", old))
        self._cursor = cursor
        self._phase = sequencer.phase_at(self.ruleset.sequence, cursor)

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

    def hides_from(self, side: str) -> bool:
        """Whether any entry is hidden from ``side`` (:meth:`hide`)."""
        return any(owner != side for owner in self._tables.get(_HIDDEN_TABLE, _EMPTY).values())

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
            folds = self._hfc.get(name) if self._hfx is effects else None
            if folds is None:
                folds = self._effect_folds(name, kinds)
            for effect, rule in folds:
                value = rule(self, effect, value, **context)
        return value

    def contributes(self, name: str) -> bool:
        """Whether :meth:`hook` ``name`` may change a value now: the ruleset has a static
        ``hook_<name>`` or an effect in force folds into it. When not, ``hook(name, value)``
        returns ``value``: a query over many pieces asks this once and skips the hook for
        each piece."""
        static, kinds = self.ruleset._folds.get(name) or self.ruleset._hook_folds(name)
        return static is not None or bool(
            kinds and self._effects and self._effect_folds(name, kinds)
        )

    def _effect_folds(
        self, name: str, kinds: frozenset[str]
    ) -> tuple[tuple[Effect, EffectRule], ...]:
        """The effects in force of ``kinds`` (those folding into hook point ``name``) with
        their rules, found once per tuple of effects (:meth:`hook`,
        :meth:`contributes`)."""
        effects = self._effects
        if self._hfx is not effects:  # the effects changed: pick the folds again
            self._hfx, self._hfc = effects, {}
        folds = self._hfc.get(name)
        if folds is None:
            rules = self.ruleset.effect_rules
            folds = self._hfc[name] = tuple(
                (e, rules[e.kind][name]) for e in effects if e.kind in kinds
            )
        return folds

    @property
    def stage(self) -> str | None:
        """The current stage's name, or ``None`` between turns."""
        stage = sequencer.current_stage(self)
        return None if stage is None else stage.name

    @property
    def phase(self) -> str | None:
        """The current phase's name, or ``None``."""
        phase = self._phase
        return None if phase is None else phase.name

    def current_phase(self) -> sequencer.Phase | None:
        """The phase play is in (entered, not yet exited), or ``None``: found when the
        cursor moves (:meth:`move_cursor`, undo, a loaded position), read here."""
        return self._phase

    def _cursor_moved(self) -> None:
        self._phase = sequencer.phase_at(self.ruleset.sequence, self._cursor)

    def current_player(self) -> str:
        """The side to act, :data:`CHANCE` for a chance node, :data:`TERMINAL` at the end."""
        if self._outcome is not None:
            return TERMINAL
        if self._pending:
            return self._pending[-1].side
        phase = self._phase
        side = None if phase is None else phase.side
        if side is None:  # pragma: no cover - settle() never stops here
            raise HexwarError(f"no side to act at {self._cursor}")
        return side if isinstance(side, str) else side(self)

    def legal_actions(self, seat: str | None = None) -> list[Action]:
        """The legal actions, sorted by :func:`~hexwar.engine.actions.action_key`.

        Derived from the one legality source: the ruleset's lists when it writes only
        those, else the tree of :meth:`legal_tokens` enumerated to its leaves. With
        ``seat`` (a seat or side name), only the actions that seat controls (S3.1):
        nothing unless the seat's side is the current player.
        """
        legal = self._legal()
        if seat is None:
            return list(legal)
        side = self.current_player()
        return [a for a in legal if self._seat_controls(seat, side, a)]

    def legal_tokens(self, prefix: Sequence[str] = ()) -> tuple[str, ...]:
        """The tokens that may follow ``prefix`` (sorted; :data:`~hexwar.engine.space.DONE` when
        ``prefix`` is a complete legal action): of the pending decision, the chance
        outcomes, or the phase — with ``end`` when the phase may end. Empty when
        ``prefix`` is not a legal prefix, or the game is over.

        >>> # see docs/architecture.md, "The action space"
        """
        if type(prefix) is not tuple:
            prefix = tuple(prefix)
        answers = self._lt if self._memo_version == self._version else self._answers()
        found = answers.get(prefix)
        if found is None:
            legal = True
            if prefix:  # a prefix is legal only if each token was (the parent's answer
                # is at hand when a player walks the tokens: no call to find it)
                last, parent = prefix[-1], prefix[:-1]
                before = answers.get(parent)
                if before is None:
                    before = self.legal_tokens(parent)
                legal = last != DONE and last in before
            found = self._next(prefix) if legal and self._outcome is None else ()
            if len(answers) >= KEPT_LIMIT:
                answers.clear()
            answers[prefix] = found
        return found

    def legal_token_ids(self, prefix: Sequence[str] = ()) -> tuple[int, ...]:
        """The ids (in :attr:`Ruleset.space`) of :meth:`legal_tokens`: the action mask."""
        return self.ruleset.space.ids(self.legal_tokens(prefix))

    def first_illegal_token(self, action: Action) -> int | None:
        """``None`` if ``action`` is legal, else the index of its first token that does not
        fit the tokens before it (``len(args) + 1``: the action is not complete)."""
        if self._outcome is not None:
            return 0
        tokens = tokens_of(action)
        if self._listed_node() and action in self._listed_set():
            return None
        for i in range(len(tokens) + 1):
            if (tokens[i] if i < len(tokens) else DONE) not in self.legal_tokens(tokens[:i]):
                return i
        return None

    def _legal(self) -> tuple[Action, ...]:
        memo = self._memo_now()
        found: tuple[Action, ...] | None = memo.get(_LEGAL)
        if found is None:
            if self._outcome is not None:
                found = ()
            elif self._listed_node():
                actions = list(self._listed())
                if not self._pending and sequencer.may_end(self):
                    actions.append(END)
                found = tuple(sorted(set(actions), key=action_key))
            else:
                found = tuple(sorted(self._enumerate(), key=action_key))
            memo[_LEGAL] = found
        return found

    def _listed_node(self) -> bool:
        """Whether the current node's actions come as a list (not token by token)."""
        if self._pending:
            d = self._pending[-1]
            return d.is_chance or bool(d.choices) or not self._tokenized[1]
        return not self._tokenized[0]

    def _listed(self) -> tuple[Action, ...]:
        """The current node's actions as listed by the ruleset (phase: without END)."""
        memo = self._memo_now()
        found: tuple[Action, ...] | None = memo.get(_LIST)
        if found is None:
            if self._pending:
                d = self._pending[-1]
                if d.is_chance:
                    found = tuple(a for a, _ in d.outcomes)
                elif d.choices:
                    found = d.choices
                else:
                    found = tuple(self.ruleset.decision_actions(self, d))
            else:
                found = tuple(self.ruleset.phase_actions(self, self.current_player()))
            memo[_LIST] = found
        return found

    def _listed_set(self) -> frozenset[Action]:
        memo = self._memo_now()
        found: frozenset[Action] | None = memo.get(_SET)
        if found is None:
            ends = () if self._pending or not sequencer.may_end(self) else (END,)
            found = memo[_SET] = frozenset((*self._listed(), *ends))
        return found

    def _listed_next(self, prefix: Prefix) -> tuple[str, ...]:
        """The tokens after ``prefix`` in the tree of :meth:`_listed` (the default
        :meth:`Ruleset.phase_tokens` / :meth:`Ruleset.decision_tokens`)."""
        memo = self._memo_now()
        trie: dict[Prefix, tuple[str, ...]] | None = memo.get(_TRIE)
        if trie is None:
            d = self._pending[-1] if self._pending else None
            chance = d.outcomes if d is not None and d.is_chance else None  # kept per event
            trie = memo[_TRIE] = _trie(self._listed()) if chance is None else _outcomes_trie(chance)
        return trie.get(prefix, ())

    def _next(self, prefix: Prefix) -> tuple[str, ...]:
        """The tokens after ``prefix``, assumed legal (:meth:`legal_tokens` keeps them)."""
        if self._pending:
            d = self._pending[-1]
            if d.is_chance or d.choices or not self._tokenized[1]:
                return self._listed_next(prefix)
            if not prefix:
                return self._first(self.ruleset.decision_tokens, d)
            return tuple(self.ruleset.decision_tokens(self, d, prefix))
        if prefix:
            if prefix[0] == _END_KIND:
                return (DONE,) if len(prefix) == 1 and sequencer.may_end(self) else ()
            if self._tokenized[0]:
                # the side to act: the phase's, else current_player()
                phase = self._phase
                side = None if phase is None else phase.side
                if type(side) is not str:
                    side = self.current_player()
                return tuple(self._phase_asker()(self, side, prefix))
            return self._listed_next(prefix)
        # the side to act and may_end with one look
        phase = self._phase
        if self._tokenized[0]:
            side = None if phase is None else phase.side
            if type(side) is not str:
                side = self.current_player()
            found = self._first(self._phase_asker(), side)
        else:
            found = self._listed_next(prefix)
        if phase is None or phase.may_end is None or phase.may_end(self):
            found = tuple(sorted((*found, END.kind)))
        return found

    def _phase_asker(self) -> Callable[[Any, Any, Prefix], Sequence[str]]:
        """What answers the current phase's tokens: its kinds' ``tokens`` when the ruleset
        keeps the default :meth:`Ruleset.phase_tokens` (what that default asks, without
        finding the phase again), else the ruleset's own ``phase_tokens``."""
        phase = self._phase
        if self._tokenized[2] and phase is not None and phase.kinds is not None:
            return phase.kinds.tokens
        return self.ruleset.phase_tokens

    def _first(self, ask: Callable[[Any, Any, Prefix], Sequence[str]], ctx: Any) -> tuple[str, ...]:
        """The ruleset's first tokens (without ``end``) of the current position,
        ``ask(self, ctx, ())``: shared by the idle test (:meth:`phase_busy`) and
        :meth:`legal_tokens`."""
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        found: tuple[str, ...] | None = memo.get(_FIRST)
        if found is None:
            found = memo[_FIRST] = tuple(ask(self, ctx, ()))
        return found

    def _enumerate(self) -> list[Action]:
        """Every leaf of the token tree of the current node (a token-defined one)."""
        listed = self.ruleset._walk_kinds(self)
        if listed is not None:  # the declared kinds' trees, walked without the prefix checks
            return listed
        out: list[Action] = []
        stack: list[Prefix] = [()]
        while stack:
            prefix = stack.pop()
            for t in self.legal_tokens(prefix):
                if t == DONE:
                    if prefix:
                        out.append(Action(prefix[0], prefix[1:]))
                else:
                    stack.append((*prefix, t))
        return out

    def phase_busy(self, side: str) -> bool:
        """Whether ``side`` has a phase action besides END (the sequencer's idle test, S4):
        only a first token is asked for. Part of :class:`~hexwar.engine.sequencer.Sequenced`."""
        if self._tokenized[0]:
            return bool(self._first(self._phase_asker(), side))
        memo = self._memo_now()
        listed = memo.get(_LIST)
        if listed is not None:
            return bool(listed)
        actions = self.ruleset.phase_actions(self, side)
        if isinstance(actions, list | tuple):
            memo[_LIST] = tuple(actions)
            return bool(actions)
        return next(iter(actions), None) is not None

    def derive(self, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
        """``compute(*args)``, once per position: kept until the state next changes (any
        write or undo), shared with clones taken meanwhile. ``key`` names what is derived
        (it must include every argument ``compute`` depends on); ``compute`` must read
        only the state. :mod:`hexwar.engine.kinds` keeps each step's values here, so the
        idle test, the legal tokens and the legal list of one position share them.
        (``args`` spare a caller the closure a ``lambda`` would build on every call.)
        """
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            found = compute(*args)
            if len(memo) >= KEPT_LIMIT:
                memo.clear()
            memo[key] = found
        return found  # type: ignore[no-any-return]

    def _memo_now(self) -> dict[Any, Any]:
        """The derived answers (legal list, token trees) of the current position."""
        if self._memo_version != self._version:
            self._memo_version = self._version
            self._memo = {}
            self._lt = {}
        return self._memo

    def _answers(self) -> dict[Prefix, tuple[str, ...]]:
        """The current position's :meth:`legal_tokens` answers (by prefix)."""
        self._memo_now()
        return self._lt

    def _seat_controls(self, seat: str, side: str, action: Action) -> bool:
        if seat == side:
            return True
        for s in self.ruleset.seats():
            if s.name == seat:
                if s.side != side:
                    return False
                tags = self.ruleset.action_tags(self, action)
                return not s.tags or not tags or bool(s.tags & tags)
        return False

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The pending chance event's ``(action, probability)`` pairs, sorted by action."""
        if self._outcome is not None or not self._pending or not self._pending[-1].is_chance:
            return []
        # the actions of a chance event are unique (push checks), so sorting by the
        # action's key gives the pairs' own order, without attrs' slow comparisons
        return sorted_outcomes(self._pending[-1].outcomes)

    def is_chance_node(self) -> bool:
        """True when a chance event is pending."""
        return self.current_player() == CHANCE

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal: each token may follow the ones before it, then
        :data:`~hexwar.engine.space.DONE` (the same source as :meth:`legal_actions`)."""
        return self.first_illegal_token(action) is None

    # -- views ----------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """Everything this state holds, as one record (its ``tables`` are this state's own:
        read them, never change them)."""
        history: list[HistoryEntry] = []
        node = self._log
        while node is not None:
            history.append(HistoryEntry(node.action, node.private))
            node = node.parent
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
        cls: type[S], ruleset: Ruleset, scenario: str, options: dict[str, Value], snap: Snapshot
    ) -> S:
        """A state holding ``snap`` (its tables copied), whose history cannot be undone."""
        state = cls(ruleset, scenario, options)
        state._tables = {name: dict(t) for name, t in snap.tables.items()}
        state._cursor = snap.cursor
        state._cursor_moved()
        state._pending = snap.pending
        state._effects = snap.effects
        state._outcome = snap.outcome
        state._serial = snap.serial
        for i, entry in enumerate(snap.history):
            state._log = LogEntry(entry.action, None, entry.private, state._log, i + 1)
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
            history.append(str(node.action) if node.private in (None, side) else HIDDEN)
            node = node.parent
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

    # -- playing ------------------------------------------------------------------------

    def _start(self) -> None:
        sequencer.settle(self)

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its text form), checked token by token (:meth:`is_legal`).

        Anything but an :class:`~hexwar.engine.actions.Action` or a ``str`` raises
        :class:`~hexwar.base.errors.ActionTypeError` (a ``HexwarError`` and a ``TypeError``);
        a text that does not parse (or is longer than
        :data:`~hexwar.engine.actions.MAX_ACTION_TEXT`) raises
        :class:`~hexwar.base.errors.ActionSyntaxError`.

        Atomic: an illegal action raises :class:`~hexwar.base.errors.NotLegalNow` (or
        :class:`~hexwar.base.errors.GameOverError`) and changes nothing; an exception raised
        by the rules half-way rolls every change back.
        """
        action = to_action(action)
        if self._outcome is not None:
            raise GameOverError(f"the game is over ({self._outcome.reason}): {action}")
        if not self.is_legal(action):
            reason, rule = self.ruleset.explain(self, action)
            raise NotLegalNow(reason, rule=rule)
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """The fast path for trusted callers (bots, replays): :meth:`apply` without the
        legality check (an :class:`~hexwar.engine.actions.Action` only, no text)."""
        self._apply(action)

    def _apply(self, action: Action) -> None:
        frame: list[TableChange | FieldChange] = []
        self._frame = frame
        private = None
        try:
            if self._pending:
                decision = self._pending[-1]
                private = decision.private
                self._set("_pending", self._pending[:-1])
                if decision.kind == sequencer.TOKEN:
                    sequencer.take_token(self, action)
                else:
                    self.ruleset.decide(self, decision, action)
            elif action.kind == _END_KIND and not action.args:  # END, without attrs' __eq__
                sequencer.end_phase(self)
            else:
                self.ruleset.play(self, action)
            sequencer.settle(self)
        except BaseException:
            self._frame = None
            self._rollback(frame)
            raise
        self._frame = None
        log = self._log
        self._log = LogEntry(
            action, tuple(frame), private, log, 1 if log is None else log.length + 1
        )

    def can_undo(self) -> bool:
        """True when the last action can be undone."""
        return self._log is not None and self._log.changes is not None

    def undo(self) -> Action:
        """Take back the last action exactly; returns it."""
        node = self._log
        if node is None or node.changes is None:
            raise NothingToUndo("no action to undo")
        self._rollback(node.changes)
        self._log = node.parent
        self._version = next(_VERSIONS)
        return node.action

    def clone(self) -> State:
        """An independent copy (sharing only immutable data, the undo log included)."""
        new = State.__new__(State)
        new.ruleset = self.ruleset
        new.scenario = self.scenario
        new.options = self.options
        new._tables = {name: t.copy() for name, t in self._tables.items()}
        new._cursor = self._cursor
        new._pending = self._pending
        new._effects = self._effects
        new._outcome = self._outcome
        new._serial = self._serial
        new._log = self._log
        new._frame = None
        new._version = self._version
        new._base = self._base
        new._tv = self._tv.copy()
        # same version, same content: the derived answers stay valid until either changes
        new._memo = self._memo
        new._lt = self._lt
        new._memo_version = self._memo_version
        new._hfx, new._hfc = None, {}
        new._phase = self._phase
        new._tokenized = self._tokenized
        return new

    def __eq__(self, other: object) -> bool:
        """Equal: the rulesets are the same game (:meth:`Ruleset.same_game`: name,
        version, options, data digest), with the same scenario and state options, and the
        positions are equal (tables, cursor, decisions, effects, outcome; not the history,
        which is how the position was reached)."""
        if not isinstance(other, State):
            return NotImplemented
        if not self.ruleset.same_game(other.ruleset):
            return False
        return (
            self.scenario == other.scenario
            and dict(self.options) == dict(other.options)
            and self.to_data(history=False) == other.to_data(history=False)
        )

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy`` of a state is its :meth:`clone` (the ruleset is shared: rules
        are not state); pickling goes through the save format (:mod:`hexwar.engine.pickling`)."""
        return self.clone()

    def __repr__(self) -> str:
        return (
            f"<State {self.ruleset.name} turn {self.turn} {self.stage}/{self.phase} "
            f"to act: {self.current_player()}>"
        )


def _effect_order(effect: Effect) -> tuple[int, int]:
    return effect.precedence, effect.serial


def _to_json(value: Value) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _trie(actions: Iterable[Action]) -> dict[Prefix, tuple[str, ...]]:
    """Every prefix of the actions' tokens -> the sorted tokens that may follow it."""
    children: dict[Prefix, set[str]] = {}
    for action in actions:
        tokens = tokens_of(action)
        for i in range(len(tokens)):
            children.setdefault(tokens[:i], set()).add(tokens[i])
        children.setdefault(tokens, set()).add(DONE)
    return {prefix: tuple(sorted(nxt)) for prefix, nxt in children.items()}


#: id of a chance event's outcomes -> (those outcomes, their :func:`_trie`): the outcomes
#: are immutable and held, so the id names them (a die's outcomes are one constant).
_OUTCOME_TRIES: Final[dict[int, tuple[Any, dict[Prefix, tuple[str, ...]]]]] = {}


def _outcomes_trie(outcomes: tuple[Any, ...]) -> dict[Prefix, tuple[str, ...]]:
    """:func:`_trie` of a chance event's actions, kept per outcomes object (read only)."""
    found = _OUTCOME_TRIES.get(id(outcomes))
    if found is None or found[0] is not outcomes:
        found = (outcomes, _trie(a for a, _ in outcomes))
        kept(_OUTCOME_TRIES, id(outcomes), found)
    return found[1]


def explain_default(
    state: State, action: Action, meaning_of: Callable[[Prefix], str | None]
) -> tuple[str, str | None]:
    """The default reason :meth:`~hexwar.engine.state.Ruleset.explain` gives: the first
    token of ``action`` that does not fit the prefix before it, what it should have been
    (``meaning_of(prefix)``: the ruleset's
    :meth:`~hexwar.engine.state.Ruleset.step_meaning`) and the tokens that may follow."""
    who = state.current_player()
    where = state.phase or (state.pending[-1].kind if state.pending else "-")
    tokens = tokens_of(action)
    at = state.first_illegal_token(action)
    if at is None:
        return f"{action} is legal now", None
    before = tokens[:at]
    meaning = meaning_of(before)
    if at == 0:
        why = f"no `{tokens[0]}` action may be taken here"
    elif at < len(tokens):
        why = f"`{tokens[at]}` may not follow `{' '.join(before)}` here"
        if meaning:
            why += f": it is not {meaning}"
    else:
        why = f"`{action}` is not complete here"
        if meaning:
            why += f": it needs {meaning}"
    legal = [t for t in state.legal_tokens(before) if t != DONE]
    if legal:
        shown = ", ".join(legal[:_SHOWN_TOKENS]) + (", ..." if len(legal) > _SHOWN_TOKENS else "")
        why += f" (may follow: {shown})" if at else f" (offered: {shown})"
    return f"{action} is not a legal action now: {why} ({where}, {who} to act)", None
