"""Game state and rulesets: the OpenSpiel-shaped API every hexwar game is played through.

A game subclasses :class:`Ruleset` (its sides, its :class:`~hexwar.engine.sequencer.TurnSequence`,
the actions of each phase and what they do, hook implementations). A :class:`State`
holds *all* mutable data of one game in a few flat containers:

- ``tables``: named flat mappings ``key -> Value`` (``Value`` is JSON-able and immutable),
  e.g. ``units: {"5TA": ("0912", "full")}``;
- the sequencer cursor, the stack of pending decisions, the active effects and the
  outcome: immutable values;
- an undo log of the changes each action made (inverse operations), shared by clones.

So :meth:`State.clone` copies a few dicts, :meth:`State.undo` is exact, and the whole
state serializes to JSON (:mod:`hexwar.engine.savefile`).

Rules code reads with :meth:`State.get` / :meth:`State.table` and writes only through
:meth:`State.put`, :meth:`State.delete`, :meth:`State.push`, :meth:`State.add_effect`,
:meth:`State.hide` and :meth:`State.end_game`; each write is journaled for undo.
Hidden information is marked per entry (:meth:`State.hide`) and masked by
:meth:`State.observation`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import count
from types import MappingProxyType
from typing import Any, ClassVar, Final, TypeVar

from hexwar.base.errors import GameOverError, HexwarError, NoActionSpace, NothingToUndo, NotLegalNow
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
)
from hexwar.engine.dice import integer_weights
from hexwar.engine.framework import Clonable, FrameworkHooks
from hexwar.engine.hooks import Effect, EffectRule, Expiry, HookPoint, hook_point
from hexwar.engine.sequencer import Cursor, TurnSequence
from hexwar.engine.snapshot import HistoryEntry, Snapshot, snapshot_to_data
from hexwar.engine.space import DONE, ActionSpace, tokens_of

__all__ = ["HIDDEN", "PSEUDO_TABLES", "Ruleset", "State"]

#: What :meth:`State.observation` shows instead of a value hidden from the observer.
HIDDEN: Final = "?"
_HIDDEN_TABLE: Final = "$hidden"
_EXPIRES_TABLE: Final = "$expires"
_HIDDEN_KEYS_TABLE: Final = "$hidden_keys"
_INTERNAL_TABLES: Final = frozenset({_HIDDEN_TABLE, _EXPIRES_TABLE, _HIDDEN_KEYS_TABLE})
#: Source of :attr:`State.version` numbers (never reused within a process).
_VERSIONS: Final = count(1)
_MISSING: Final = object()
_EMPTY: Final[Mapping[str, Value]] = MappingProxyType({})
#: The pseudo-tables whose versions :meth:`State.table_version` also keeps: the sequencer
#: cursor, the pending decisions, the active effects, the outcome.
PSEUDO_TABLES: Final = ("$cursor", "$pending", "$effects", "$outcome")
_FIELD_TABLES: Final = {
    "_cursor": "$cursor",
    "_pending": "$pending",
    "_effects": "$effects",
    "_serial": "$effects",
    "_outcome": "$outcome",
}
#: At most this many derived legality answers are kept per position (:meth:`State._memo`).
_MEMO_LIMIT: Final = 4096
#: How many legal tokens the default reason for an illegal action lists.
_SHOWN_TOKENS: Final = 8
Prefix = tuple[str, ...]
T = TypeVar("T")


class Ruleset(FrameworkHooks):
    """The rules of one game. Subclass it and override what the game needs.

    Required: ``name``, ``sides``, ``sequence``, :meth:`setup`, :meth:`action_space`,
    what may be done — :meth:`phase_tokens` (legality token by token) or, for a small
    game, :meth:`phase_actions` (the whole list) — and :meth:`play`; :meth:`decision_tokens`
    or :meth:`decision_actions` and :meth:`decide` if the game pushes decisions;
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

    # -- set-up ------------------------------------------------------------------------

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        """Fill a fresh state's tables for ``scenario``; may push chance decisions."""

    def new_state(
        self, scenario: str = "default", options: Mapping[str, Value] | None = None
    ) -> State:
        """A new game: set up, then advanced to the first decision."""
        state = State(self, scenario, dict(options or {}))
        self.setup(state, scenario, state.options)
        state._start()
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

        This is the one legality source; the default derives it from :meth:`phase_actions`,
        so a small game may write only that list. :mod:`hexwar.engine.kinds` writes it lazily.
        """
        return state._listed_next(prefix)

    def phase_actions(self, state: State, side: str) -> Iterable[Action]:
        """The actions ``side`` may take in the current phase (without :data:`END`).

        Only read when :meth:`phase_tokens` is not overridden (a game that writes
        :meth:`phase_tokens` need not write this: the engine enumerates the tokens).
        """
        return ()

    def phase_enumeration(self, state: State, side: str) -> Iterable[Action] | None:
        """The complete list of the current phase's actions (without :data:`END`) from the
        game's own enumerators, for :meth:`State.legal_actions` in a game that writes
        :meth:`phase_tokens`; ``None`` (the default): the engine walks the token tree to
        its leaves. A second answer to what :meth:`phase_tokens` says, so it must give the
        same actions: :func:`hexwar.testing.check_tokens` compares the two at every step
        of the kit's random games. :meth:`hexwar.engine.kinds.Kinds.actions` gives it from the
        kinds' own enumerators (``Kind(..., actions=...)``).
        """
        return None

    def decision_enumeration(self, state: State, decision: Decision) -> Iterable[Action] | None:
        """Like :meth:`phase_enumeration`, for a decision answered by
        :meth:`decision_tokens`."""
        return None

    def decision_tokens(self, state: State, decision: Decision, prefix: Prefix) -> Sequence[str]:
        """Like :meth:`phase_tokens`, for a pending non-chance decision without fixed
        ``choices``; the default derives it from :meth:`decision_actions`."""
        return state._listed_next(prefix)

    def decision_actions(self, state: State, decision: Decision) -> Iterable[Action]:
        """The answers to a pending non-chance decision without fixed ``choices`` (read
        only when :meth:`decision_tokens` is not overridden)."""
        return ()

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        """Why ``action`` is illegal now: ``(reason, rule)``. Override to cite rules; the
        default names the first token that does not fit the prefix before it, what that
        token should have been (:meth:`step_meaning`) and the tokens that may follow."""
        who = state.current_player()
        where = state.phase or (state.pending[-1].kind if state.pending else "-")
        tokens = tokens_of(action)
        at = state.first_illegal_token(action)
        if at is None:
            return f"{action} is legal now", None
        before = tokens[:at]
        meaning = self.step_meaning(state, before)
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
            shown = ", ".join(legal[:_SHOWN_TOKENS]) + (
                ", ..." if len(legal) > _SHOWN_TOKENS else ""
            )
            why += f" (may follow: {shown})" if at else f" (offered: {shown})"
        return f"{action} is not a legal action now: {why} ({where}, {who} to act)", None

    def step_meaning(self, state: State, prefix: Prefix) -> str | None:
        """What the token after the legal ``prefix`` stands for ("a unit of yours that may
        move now"), for :meth:`explain`; ``None``: say nothing. A ruleset written with
        :mod:`hexwar.engine.kinds` returns its phase's ``Kinds.meaning(prefix)``."""
        return None

    def action_tags(self, state: State, action: Action) -> frozenset[str]:
        """Tags deciding which seats control ``action`` (by arm, by front, ...; S3.1)."""
        return frozenset()

    def seats(self) -> tuple[Seat, ...]:
        """The seats; by default one per side, named like the side."""
        return tuple(Seat(side, side) for side in self.sides)

    # -- what happens ------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        """Carry out a legal phase action (not :data:`END`)."""
        raise NotImplementedError

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        """Carry out the answer to ``decision`` (already popped from the stack)."""
        raise NotImplementedError

    def final_outcome(self, state: State) -> Outcome:
        """The outcome when the turn limit is reached (S3.4, S11)."""
        return Outcome(None, "turn limit reached")

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
        cache: dict[str, tuple[Any, frozenset[str]]] = self.__dict__.setdefault(
            "_hook_folds_cache", {}
        )
        found = cache.get(name)
        if found is None:
            kinds = frozenset(
                k for k, rules in self.effect_rules.items() if rules.get(name) is not None
            )
            found = cache[name] = (self.static_hook(name), kinds)
        return found


# Undo log node: (action, changes or None if not undoable, private side, parent, length).
_Node = tuple[Action, "tuple[tuple[Any, ...], ...] | None", "str | None", Any, int]


class State(Clonable):
    """All mutable data of one game, and the API to play it.

    >>> # see docs/architecture.md and tests/toy_game.py for a complete game
    """

    __slots__ = (
        "_base",
        "_cursor",
        "_effects",
        "_frame",
        "_log",
        "_memo",
        "_memo_version",
        "_outcome",
        "_pending",
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
        self._log: _Node | None = None
        self._frame: list[tuple[Any, ...]] | None = None
        self._version = next(_VERSIONS)
        self._base = self._version
        self._tv: dict[str, int] = {}
        self._memo: dict[Any, Any] = {"lt": {}}
        self._memo_version = -1
        self._tokenized = _tokenized(type(ruleset))

    def _start(self) -> None:
        sequencer.settle(self)

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
        rollback touching it); also for the pseudo-tables :data:`PSEUDO_TABLES`
        (``$cursor``, ``$pending``, ``$effects``, ``$outcome``).

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
    def stage(self) -> str | None:
        """The current stage's name, or ``None`` between turns."""
        stage = sequencer.current_stage(self)
        return None if stage is None else stage.name

    @property
    def phase(self) -> str | None:
        """The current phase's name, or ``None``."""
        phase = sequencer.current_phase(self)
        return None if phase is None else phase.name

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

    def current_player(self) -> str:
        """The side to act, :data:`CHANCE` for a chance node, :data:`TERMINAL` at the end."""
        if self._outcome is not None:
            return TERMINAL
        if self._pending:
            return self._pending[-1].side
        side = sequencer.phase_side(self)
        if side is None:  # pragma: no cover - settle() never stops here
            raise HexwarError(f"no side to act at {self._cursor}")
        return side

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
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        answers: dict[Prefix, tuple[str, ...]] = memo["lt"]
        found = answers.get(prefix)
        if found is None:
            if self._outcome is not None:
                found = ()
            elif prefix and (
                prefix[-1] == DONE or prefix[-1] not in self.legal_tokens(prefix[:-1])
            ):
                found = ()  # a prefix is legal only if each of its tokens was (walked, cached)
            else:
                found = self._next(prefix)
            if len(answers) < _MEMO_LIMIT:
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
            if (tokens[i] if i < len(tokens) else DONE) not in self._next(tokens[:i]):
                return i
        return None

    def _legal(self) -> tuple[Action, ...]:
        memo = self._memo_now()
        found: tuple[Action, ...] | None = memo.get("legal")
        if found is None:
            if self._outcome is not None:
                found = ()
            elif self._listed_node():
                actions = list(self._listed())
                if not self._pending and sequencer.may_end(self):
                    actions.append(END)
                found = tuple(sorted(set(actions), key=action_key))
            else:
                if self._pending:
                    listed = self.ruleset.decision_enumeration(self, self._pending[-1])
                else:
                    listed = self.ruleset.phase_enumeration(self, self.current_player())
                if listed is None:
                    actions = self._enumerate()
                else:
                    actions = list(listed)
                    if not self._pending and sequencer.may_end(self):
                        actions.append(END)
                found = tuple(sorted(actions, key=action_key))
            memo["legal"] = found
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
        found: tuple[Action, ...] | None = memo.get("list")
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
            memo["list"] = found
        return found

    def _listed_set(self) -> frozenset[Action]:
        memo = self._memo_now()
        found: frozenset[Action] | None = memo.get("set")
        if found is None:
            ends = () if self._pending or not sequencer.may_end(self) else (END,)
            found = memo["set"] = frozenset((*self._listed(), *ends))
        return found

    def _listed_next(self, prefix: Prefix) -> tuple[str, ...]:
        """The tokens after ``prefix`` in the tree of :meth:`_listed` (the default
        :meth:`Ruleset.phase_tokens` / :meth:`Ruleset.decision_tokens`)."""
        memo = self._memo_now()
        trie: dict[Prefix, tuple[str, ...]] | None = memo.get("trie")
        if trie is None:
            trie = memo["trie"] = _trie(self._listed())
        return trie.get(prefix, ())

    def _next(self, prefix: Prefix) -> tuple[str, ...]:
        """The tokens after ``prefix``, assumed legal (cached per position)."""
        if self._pending:
            d = self._pending[-1]
            if d.is_chance or d.choices or not self._tokenized[1]:
                return self._listed_next(prefix)
            return self._asked(prefix, lambda p: self.ruleset.decision_tokens(self, d, p))
        if prefix and prefix[0] == END.kind:
            return (DONE,) if len(prefix) == 1 and sequencer.may_end(self) else ()
        if self._tokenized[0]:
            side = self.current_player()
            found = self._asked(prefix, lambda p: self.ruleset.phase_tokens(self, side, p))
        else:
            found = self._listed_next(prefix)
        if not prefix and sequencer.may_end(self):
            found = tuple(sorted((*found, END.kind)))
        return found

    def _asked(self, prefix: Prefix, ask: Callable[[Prefix], Sequence[str]]) -> tuple[str, ...]:
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        key = ("t", prefix)
        found: tuple[str, ...] | None = memo.get(key)
        if found is None:
            found = tuple(ask(prefix))
            if len(memo) < _MEMO_LIMIT:
                memo[key] = found
        return found

    def _enumerate(self) -> list[Action]:
        """Every leaf of the token tree of the current node (a token-defined one)."""
        out: list[Action] = []
        stack: list[Prefix] = [()]
        while stack:
            prefix = stack.pop()
            for t in self._next(prefix):
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
            return bool(self._asked((), lambda p: self.ruleset.phase_tokens(self, side, p)))
        memo = self._memo_now()
        listed = memo.get("list")
        if listed is not None:
            return bool(listed)
        actions = self.ruleset.phase_actions(self, side)
        if isinstance(actions, list | tuple):
            memo["list"] = tuple(actions)
            return bool(actions)
        return next(iter(actions), None) is not None

    def derive(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, once per position: kept until the state next changes (any write
        or undo), shared with clones taken meanwhile. ``key`` names what is derived (it
        must include every argument ``compute`` depends on); ``compute`` must read only
        the state. :mod:`hexwar.engine.kinds` keeps each step's values here, so the idle test,
        the legal tokens and the legal list of one position share them.
        """
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        found = memo.get(("d", key), _MISSING)
        if found is _MISSING:
            found = compute()
            if len(memo) < _MEMO_LIMIT:
                memo["d", key] = found
        return found  # type: ignore[no-any-return]

    def _memo_now(self) -> dict[Any, Any]:
        """The derived answers (legal list, token trees) of the current position."""
        if self._memo_version != self._version:
            self._memo_version = self._version
            self._memo = {"lt": {}}
        return self._memo

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
        return sorted(self._pending[-1].outcomes, key=_outcome_key)

    def is_chance_node(self) -> bool:
        """True when a chance event is pending."""
        return self.current_player() == CHANCE

    # -- playing ------------------------------------------------------------------------

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal: each token may follow the ones before it, then
        :data:`~hexwar.engine.space.DONE` (the same source as :meth:`legal_actions`)."""
        return self.first_illegal_token(action) is None

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its text form), checked token by token (:meth:`is_legal`).

        Anything but an :class:`~hexwar.engine.actions.Action` or a ``str`` raises ``TypeError``;
        a text that does not parse (or is longer than
        :data:`~hexwar.engine.actions.MAX_ACTION_TEXT`) raises
        :class:`~hexwar.base.errors.ActionSyntaxError`.

        Atomic: an illegal action raises :class:`~hexwar.base.errors.NotLegalNow` (or
        :class:`~hexwar.base.errors.GameOverError`) and changes nothing; an exception raised
        by the rules half-way rolls every change back.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise TypeError(
                f"apply() takes an Action or its text, not {type(action).__name__}: {action!r:.80}"
            )
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
        frame: list[tuple[Any, ...]] = []
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
            elif action == END:
                sequencer.end_phase(self)
            else:
                self.ruleset.play(self, action)
            sequencer.settle(self)
        except BaseException:
            self._frame = None
            self._rollback(frame)
            raise
        self._frame = None
        length = 1 if self._log is None else self._log[4] + 1
        self._log = (action, tuple(frame), private, self._log, length)

    def can_undo(self) -> bool:
        """True when the last action can be undone."""
        return self._log is not None and self._log[1] is not None

    def undo(self) -> Action:
        """Take back the last action exactly; returns it."""
        node = self._log
        if node is None or node[1] is None:
            raise NothingToUndo("no action to undo")
        self._rollback(node[1])
        self._log = node[3]
        self._version = next(_VERSIONS)
        return node[0]

    def _rollback(self, changes: Iterable[tuple[Any, ...]]) -> None:
        version = self._version = next(_VERSIONS)
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
        new._memo_version = self._memo_version
        new._tokenized = self._tokenized
        return new

    # -- writing (for rules code) -------------------------------------------------------

    def _set(self, field: str, value: Any) -> None:
        self._tv[_FIELD_TABLES[field]] = self._version = next(_VERSIONS)
        if self._frame is not None:
            self._frame.append(("f", field, getattr(self, field)))
        object.__setattr__(self, field, value)

    def put(self, table: str, key: str, value: Value) -> None:
        """Set ``table[key] = value`` (journaled)."""
        t = self._tables.get(table)
        if t is None:
            t = self._tables[table] = {}
        self._tv[table] = self._version = next(_VERSIONS)
        if self._frame is not None:
            self._frame.append(("t", table, key, t.get(key, _MISSING)))
        t[key] = value

    def delete(self, table: str, key: str) -> None:
        """Remove ``table[key]`` if present (journaled)."""
        t = self._tables.get(table)
        if t is None or key not in t:
            return
        self._tv[table] = self._version = next(_VERSIONS)
        if self._frame is not None:
            self._frame.append(("t", table, key, t[key]))
        del t[key]

    def push(self, decision: Decision) -> None:
        """Push a pending decision: it is answered before anything else."""
        if decision.is_chance:
            try:  # integer arithmetic: positive probabilities summing to exactly 1
                integer_weights(decision.outcomes)
                malformed = len({a for a, _ in decision.outcomes}) != len(decision.outcomes)
            except HexwarError:
                malformed = True
            if malformed:
                raise HexwarError(f"malformed chance event {decision.kind!r}: {decision.outcomes}")
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
        self._set("_effects", tuple(sorted((*self._effects, effect))))
        return effect

    def remove_effect(self, effect: Effect) -> None:
        """Take an effect out of force."""
        self._set("_effects", tuple(e for e in self._effects if e != effect))

    def lapse_effects(self, expiry: Expiry) -> None:
        """Remove the effects that last until ``expiry`` (the sequencer, at a phase's or
        turn's end)."""
        if any(e.expiry == expiry for e in self._effects):
            self._set("_effects", tuple(e for e in self._effects if e.expiry != expiry))

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
        self._set("_cursor", cursor)

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
        a dictionary look-up."""
        static, kinds = self.ruleset._hook_folds(name)
        if static is not None:
            value = static(self, value, **context)
        if kinds and self._effects:
            rules = self.ruleset.effect_rules
            for effect in self._effects:
                if effect.kind in kinds:
                    value = rules[effect.kind][name](self, effect, value, **context)
        return value

    # -- views ----------------------------------------------------------------------------

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
        cls, ruleset: Ruleset, scenario: str, options: dict[str, Value], snap: Snapshot
    ) -> State:
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

    def __repr__(self) -> str:
        return (
            f"<State {self.ruleset.name} turn {self.turn} {self.stage}/{self.phase} "
            f"to act: {self.current_player()}>"
        )


def _tokenized(cls: type[Ruleset]) -> tuple[bool, bool]:
    """Whether a ruleset class writes its phase / decision legality token by token."""
    return (
        cls.phase_tokens is not Ruleset.phase_tokens,
        cls.decision_tokens is not Ruleset.decision_tokens,
    )


def _trie(actions: Iterable[Action]) -> dict[Prefix, tuple[str, ...]]:
    """Every prefix of the actions' tokens -> the sorted tokens that may follow it."""
    children: dict[Prefix, set[str]] = {}
    for action in actions:
        tokens = tokens_of(action)
        for i in range(len(tokens)):
            children.setdefault(tokens[:i], set()).add(tokens[i])
        children.setdefault(tokens, set()).add(DONE)
    return {prefix: tuple(sorted(nxt)) for prefix, nxt in children.items()}


def _outcome_key(outcome: tuple[Action, Fraction]) -> tuple[str, tuple[str, ...]]:
    return action_key(outcome[0])


def _to_json(value: Value) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value
