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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from hexwar.base.errors import GameOverError, NoActionSpace, NothingToUndo, NotLegalNow
from hexwar.engine import sequencer
from hexwar.engine.actions import END, Action, Decision, Outcome, Seat, Value
from hexwar.engine.framework import FrameworkHooks
from hexwar.engine.hooks import EffectRule, HookPoint, hook_point
from hexwar.engine.legality import _trie as _trie  # re-exported (interop)
from hexwar.engine.reasons import explain_default
from hexwar.engine.ruleview import Prefix
from hexwar.engine.sequence import DecisionKinds, PhaseKinds
from hexwar.engine.sequencer import TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.store import _HIDDEN_KEYS_TABLE as _HIDDEN_KEYS_TABLE  # re-exported
from hexwar.engine.store import _HIDDEN_TABLE as _HIDDEN_TABLE  # re-exported
from hexwar.engine.store import _VERSIONS, HIDDEN, PSEUDO_TABLES
from hexwar.engine.views import Views

__all__ = ["HIDDEN", "PSEUDO_TABLES", "Ruleset", "State"]

_END_KIND = END.kind


class Ruleset(FrameworkHooks):
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
    #: Decision kind -> :class:`~hexwar.engine.kinds.DecisionKind` (what an answer does,
    #: and its token kinds): the default :meth:`decide` and :meth:`decision_tokens` use it.
    decision_kinds: Mapping[str, DecisionKinds] = {}

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
        found = self.decision_kinds.get(decision.kind)
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
            found = self.decision_kinds.get(state.pending[-1].kind)
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
        found = self.decision_kinds.get(decision.kind)
        if found is None:
            raise NotImplementedError(f"{type(self).__name__}.decide: {decision.kind!r}")
        found.does(state, decision, action)

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
            found = self.decision_kinds.get(d.kind)
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
    def _tokenized(self) -> tuple[bool, bool]:
        """Whether this ruleset writes its phase / decision legality token by token."""
        cls = type(self)
        phases = (p for stage in self.sequence.stages for p in stage.phases)
        return (
            cls.phase_tokens is not Ruleset.phase_tokens
            or any(p.kinds is not None for p in phases),
            cls.decision_tokens is not Ruleset.decision_tokens
            or any(k.answers is not None for k in self.decision_kinds.values()),
        )


def _phase_kinds(state: State) -> PhaseKinds | None:
    """The current phase's kinds (``Phase(..., kinds=...)``), or ``None``."""
    phase = sequencer.current_phase(state)
    return None if phase is None else phase.kinds


class State(Views):
    """All mutable data of one game, and the API to play it.

    >>> # see docs/architecture.md and tests/toy_game.py for a complete game
    """

    __slots__ = ()
    ruleset: Ruleset

    def __init__(self, ruleset: Ruleset, scenario: str, options: dict[str, Value]) -> None:
        super().__init__(ruleset, scenario, options)

    def _start(self) -> None:
        self._settle()

    # -- playing ------------------------------------------------------------------------

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
            elif action.kind == _END_KIND and not action.args:  # END, without attrs' __eq__
                sequencer.end_phase(self, self._phase())
            else:
                self.ruleset.play(self, action)
            self._settle()
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
        new._pc = self._pc
        new._pp = self._pp
        new._hfx, new._hfc = None, {}
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

    def __repr__(self) -> str:
        return (
            f"<State {self.ruleset.name} turn {self.turn} {self.stage}/{self.phase} "
            f"to act: {self.current_player()}>"
        )
