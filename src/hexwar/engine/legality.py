"""Legality: the one source (the ruleset's tokens or lists), asked by prefix, kept per position.

:class:`Legality` is the half of :class:`~hexwar.engine.state.State` that answers what may
be done: :meth:`~Legality.legal_tokens` (by prefix, :data:`~hexwar.engine.space.DONE` when
complete), :meth:`~Legality.legal_actions` (the whole list, from the kinds' enumerators or
the token tree), :meth:`~Legality.is_legal`, the sequencer's idle test
(:meth:`~Legality.phase_busy`: the first tokens only) and :meth:`~Legality.derive` (values
kept until the position changes). Answers are kept per position (:attr:`Store.version`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final, TypeVar

from hexwar.base.errors import HexwarError
from hexwar.base.kept import kept
from hexwar.engine import sequencer
from hexwar.engine.actions import CHANCE, END, TERMINAL, Action, action_key, sorted_outcomes
from hexwar.engine.ruleview import Prefix
from hexwar.engine.space import DONE, tokens_of
from hexwar.engine.store import _MISSING, Store

__all__ = ["Legality"]

#: At most this many derived legality answers are kept per position (:meth:`Legality._memo`).
_MEMO_LIMIT: Final = 4096
T = TypeVar("T")
_Values = Callable[[Any, Any, Prefix], Iterable[str]]  # a kind's step: (state, ctx, args)
_END_KIND: Final = END.kind
# The keys of the engine's own answers in a position's memo: objects no key passed to
# Legality.derive can equal, so derived values are kept under their own keys.
_LEGAL, _LIST, _SET, _TRIE, _FIRST = (object() for _ in range(5))


class Legality(Store):
    """What may be done now (see the module docstring)."""

    __slots__ = ()

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

    def current_player(self) -> str:
        """The side to act, :data:`CHANCE` for a chance node, :data:`TERMINAL` at the end."""
        if self._outcome is not None:
            return TERMINAL
        if self._pending:
            return self._pending[-1].side
        phase = self._pp if self._cursor is self._pc else self._phase()
        side = None if phase is None else phase.side
        if side is None:  # pragma: no cover - settle() never stops here
            raise HexwarError(f"no side to act at {self._cursor}")
        return side if isinstance(side, str) else side(self)

    def _phase(self) -> sequencer.Phase | None:
        """:func:`sequencer.current_phase`, kept for the current cursor object (a cursor is
        immutable and every move replaces it). The hottest callers read the kept phase
        first (``self._pp if self._cursor is self._pc else self._phase()``)."""
        c = self._cursor
        if c is not self._pc:
            self._pp = sequencer.current_phase(self)
            self._pc = c
        return self._pp

    def _settle(self) -> None:
        """:func:`sequencer.settle` with the phase through :meth:`_phase`."""
        while self._outcome is None and not self._pending:
            phase = self._pp if self._cursor is self._pc else self._phase()
            if phase is not None:
                side = phase.side
                if type(side) is str and phase.may_end is None:
                    # the commonest phase (a fixed side, no may_end): sequencer._waiting,
                    # with phase_busy's first tokens asked at once for a token-wise game
                    if not phase.end_when_idle:
                        return
                    if self._tokenized[0]:
                        if self._first(self.ruleset.phase_tokens, side):
                            return
                    elif self.phase_busy(side):
                        return
                elif sequencer._waiting(self, phase):
                    return
            sequencer._step(self)

    def _may_end(self) -> bool:
        """:func:`sequencer.may_end` through :meth:`_phase`."""
        phase = self._phase()
        return phase is None or phase.may_end is None or phase.may_end(self)

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
            if prefix and (prefix[-1] == DONE or prefix[-1] not in self.legal_tokens(prefix[:-1])):
                found = ()  # a prefix is legal only if each token was
            else:  # what _after would answer, without its second look in answers
                found = () if self._outcome is not None else self._next(prefix)
            if len(answers) < _MEMO_LIMIT:
                answers[prefix] = found
        return found

    def _after(self, prefix: Prefix) -> tuple[str, ...]:
        """:meth:`legal_tokens` of a prefix known to be legal (built from legal tokens):
        no walk back along it (the random player, the tree walk of the whole list)."""
        answers = self._lt if self._memo_version == self._version else self._answers()
        found = answers.get(prefix)
        if found is None:
            found = () if self._outcome is not None else self._next(prefix)
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
            if (tokens[i] if i < len(tokens) else DONE) not in self._after(tokens[:i]):
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
            else:  # the token tree walked to its leaves
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
        """The tokens after ``prefix``, assumed legal (:meth:`_after` keeps them)."""
        if self._pending:
            d = self._pending[-1]
            if d.is_chance or d.choices or not self._tokenized[1]:
                return self._listed_next(prefix)
            if not prefix:
                return self._first(self.ruleset.decision_tokens, d)
            return tuple(self.ruleset.decision_tokens(self, d, prefix))
        if prefix:
            if prefix[0] == _END_KIND:
                return (DONE,) if len(prefix) == 1 and self._may_end() else ()
            if self._tokenized[0]:
                # the side to act: the phase's, else current_player()
                phase = self._pp if self._cursor is self._pc else self._phase()
                side = None if phase is None else phase.side
                if type(side) is not str:
                    side = self.current_player()
                return tuple(self.ruleset.phase_tokens(self, side, prefix))
            return self._listed_next(prefix)
        # the side to act and may_end with one look
        phase = self._pp if self._cursor is self._pc else self._phase()
        if self._tokenized[0]:
            side = None if phase is None else phase.side
            if type(side) is not str:
                side = self.current_player()
            found = self._first(self.ruleset.phase_tokens, side)
        else:
            found = self._listed_next(prefix)
        if phase is None or phase.may_end is None or phase.may_end(self):
            found = tuple(sorted((*found, END.kind)))
        return found

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
            for t in self._after(prefix):
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
            return bool(self._first(self.ruleset.phase_tokens, side))
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
            if len(memo) < _MEMO_LIMIT:
                memo[key] = found
        return found  # type: ignore[no-any-return]

    def _step_values(self, key: Hashable, values: _Values, ctx: Any, args: Prefix) -> Prefix:
        """:meth:`derive` of ``tuple(sorted(set(values(self, ctx, args))))`` (a kind's step
        values, :mod:`hexwar.engine.kinds`), called directly rather than through
        ``compute(*args)``. Read checking patches it as it does :meth:`derive`."""
        memo = self._memo if self._memo_version == self._version else self._memo_now()
        found: tuple[str, ...] | None = memo.get(key)
        if found is None:
            found = tuple(sorted(set(values(self, ctx, args))))
            if len(memo) < _MEMO_LIMIT:
                memo[key] = found
        return found

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
_OUTCOME_LIMIT: Final = 256


def _outcomes_trie(outcomes: tuple[Any, ...]) -> dict[Prefix, tuple[str, ...]]:
    """:func:`_trie` of a chance event's actions, kept per outcomes object (read only)."""
    found = _OUTCOME_TRIES.get(id(outcomes))
    if found is None or found[0] is not outcomes:
        found = (outcomes, _trie(a for a, _ in outcomes))
        kept(_OUTCOME_TRIES, id(outcomes), found, _OUTCOME_LIMIT)
    return found[1]
