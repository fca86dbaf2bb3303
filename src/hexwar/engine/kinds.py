"""Lazy legality, kind by kind and token by token: each kind's legality written once.

An action is its kind, then its arguments, then :data:`~hexwar.engine.space.DONE`
(:mod:`hexwar.engine.space`). A :class:`Kind` names the kind and lists its *steps*, one per
argument, each saying which values may follow the arguments chosen so far:

- :class:`Values` — one argument: ``values(state, ctx, args)`` yields the candidates
  (``ctx`` is the acting side in a phase, or the pending decision; a generator is
  welcome); a candidate is offered only if the rest of the action can still be completed
  legally (the steps after it are asked, stopping at the first completion).
- :class:`Combination` — the last step, for "several units in canonical order, then
  done": each step offers only items after the last one named (sorted order), ``done``
  is offered when the group so far is ``valid``, and ``feasible`` (monotone: once false
  for a group, false for every larger one) prunes groups that can never become valid.

:class:`Kinds` groups a phase's kinds and answers ``phase_tokens`` / ``decision_tokens``
(:meth:`Kinds.tokens`), the idle test (:meth:`Kinds.any`, which stops at the first
candidate with a legal completion) and the whole list (:meth:`Kinds.actions`, the token
tree walked to its leaves): the steps are the one legality of a kind, and every answer
is derived from them. Each step's values are computed once per position
(:meth:`hexwar.engine.state.State.derive`), so the legal tokens and the legal list share
them; the idle test walks a first step written as a generator only to its first
completing candidate (a list is kept and shared). A phase lists its kinds
(``Phase(..., kinds=Kinds(...))``) and each kind says what it ``does``: the
:class:`~hexwar.engine.state.Ruleset` defaults then answer ``phase_tokens`` and ``play``
with no code in the game.

>>> from hexwar.engine.state import State
>>> UNITS = {"a": 2, "b": 1, "c": 0}            # unit -> how far it may move
>>> def movers(state, side, args):
...     yield from (u for u, n in UNITS.items() if n)
>>> def hexes(state, side, args):
...     yield from (str(h) for h in range(1, UNITS[args[0]] + 1))
>>> def strong_enough(state, side, fixed, chosen):      # the group attacks with 1 or more
...     return sum(UNITS[u] for u in chosen) >= 1
>>> def move(state, action):                            # what a move does
...     state.put("moved", action.args[0], True)
>>> MOVE = Kind("move", (Values(movers), Values(hexes)), does=move)
>>> ATTACK = Kind("attack", (Values(lambda s, side, a: ["x"]),
...                          Combination(lambda s, side, a: sorted(UNITS), valid=strong_enough)))
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> PHASE = Phase("p", side="red", end_when_idle=False, kinds=Kinds((MOVE, ATTACK)))
>>> class Game(Ruleset):                 # no phase_tokens, no play: the kinds answer
...     sides = ("red",)
...     sequence = TurnSequence((Stage("s", (PHASE,)),))
>>> state = Game().new_state()
>>> state.legal_tokens(), state.legal_tokens(("move",)), state.legal_tokens(("move", "a"))
(('attack', 'end', 'move'), ('a', 'b'), ('1', '2'))

``c`` alone has strength 0, so no group starts with it (it would be a dead end); after
``b`` it may join, and ``done`` comes once the group is valid:

>>> state.legal_tokens(("attack", "x")), state.legal_tokens(("attack", "x", "b"))
(('a', 'b'), ('c', 'done'))
>>> [str(a) for a in state.legal_actions() if a.kind == "attack"]
['attack x a', 'attack x a b', 'attack x a b c', 'attack x a c', 'attack x b', 'attack x b c']
>>> state.apply("move a 2"); state.get("moved", "a")    # Ruleset.play: MOVE's ``does``
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from hexwar.engine.actions import Action, Decision, action_key
from hexwar.engine.space import DONE
from hexwar.engine.state import State

__all__ = ["Combination", "DecisionKind", "Kind", "Kinds", "Values"]

C = TypeVar("C")
Args = tuple[str, ...]


@attrs.frozen(cache_hash=True)
class Values(Generic[C]):
    """One argument step: ``values(state, ctx, args)`` yields the candidates after ``args``.

    Write it as a generator (or return a list): the idle test asks for candidates one at
    a time and stops at the first that completes; the legal tokens and the whole list
    take all of them, sorted and kept per position (:meth:`State.derive`). A candidate
    is offered only if the rest of the action can still be completed legally. ``means``:
    what a value is, for the reason an illegal action gives ("a unit of yours that may
    move now").
    """

    values: Callable[[State, C, Args], Iterable[str]]
    means: str | None = attrs.field(default=None, eq=False)
    #: a hint, not a second answer: every value given completes (the game's values
    #: function already keeps only those), so no look-ahead runs after it
    checked: bool = False


def _distinct(values: Iterable[str]) -> Args:
    """Candidates sorted and distinct (what :meth:`State.derive` keeps): sorted first,
    repeats dropped only if there are any, so that values a game already gives sorted and
    distinct (most do) cost one pass of the sort, not a sort of a set's arbitrary order."""
    out = sorted(values)
    if len(set(out)) < len(out):
        out = list(dict.fromkeys(out))
    return tuple(out)


def _collect(
    values: Callable[[State, Any, Args], Iterable[str]], state: State, ctx: Any, args: Args
) -> Args:
    """A step's candidates, sorted and distinct (what :meth:`State.derive` keeps)."""
    return _distinct(values(state, ctx, args))


@attrs.frozen(cache_hash=True)
class Combination(Generic[C]):
    """The last step: a group of ``items(state, ctx, fixed)`` named one at a time in
    sorted order, then :data:`~hexwar.engine.space.DONE`.

    ``fixed`` are the kind's arguments before the group (an attack's defender). ``done``
    is offered when the group has ``at_least`` .. ``at_most`` items and
    ``valid(state, ctx, fixed, group)`` holds (default: always). An item is offered only
    if some valid group starts with the group so far plus that item;
    ``feasible(state, ctx, fixed, group)`` must be monotone (false for a group, false
    for every group containing it) and prunes that search (default: always feasible).
    """

    items: Callable[[State, C, Args], Iterable[str]]
    valid: Callable[[State, C, Args, Args], bool] | None = None
    feasible: Callable[[State, C, Args, Args], bool] | None = None
    at_least: int = 1
    at_most: int | None = None
    means: str | None = attrs.field(default=None, eq=False)
    #: this step's part of its keys in the per-position memo (:meth:`State.derive`):
    #: hashed by identity, not by attrs' generated ``__hash__`` in Python on every look-up
    _key: object = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_key", object())

    def _fits(self, state: State, ctx: C, fixed: Args, group: Args) -> bool:
        if len(group) < self.at_least:
            return False
        return self.valid is None or self.valid(state, ctx, fixed, group)

    def _room(self, group: Args) -> bool:
        return self.at_most is None or len(group) < self.at_most

    def _grows(self, state: State, ctx: C, fixed: Args, group: Args) -> bool:
        return self.feasible is None or self.feasible(state, ctx, fixed, group)

    def _completes(self, state: State, ctx: C, fixed: Args, group: Args, rest: Args) -> bool:
        """Whether some valid group is ``group`` plus items of ``rest`` (sorted)."""
        if self._fits(state, ctx, fixed, group):
            return True
        if not self._room(group):
            return False
        for j, item in enumerate(rest):
            more = (*group, item)
            if self._grows(state, ctx, fixed, more) and self._completes(
                state, ctx, fixed, more, rest[j + 1 :]
            ):
                return True
        return False

    def _candidates(self, state: State, ctx: C, fixed: Args) -> Args:
        return state.derive((self._key, ctx, fixed), _collect, self.items, state, ctx, fixed)

    def _rest(self, state: State, ctx: C, fixed: Args, group: Args) -> Args:
        items = self._candidates(state, ctx, fixed)
        if not group:
            return items
        last = group[-1]
        return tuple(i for i in items if i > last)

    def next(self, state: State, ctx: C, fixed: Args, group: Args) -> tuple[str, ...]:
        """The tokens after ``group`` (sorted, ``done`` among them when it is valid)."""
        rest = self._rest(state, ctx, fixed, group)
        out = []
        if self._room(group):
            for j, item in enumerate(rest):
                more = (*group, item)
                if self._grows(state, ctx, fixed, more) and self._completes(
                    state, ctx, fixed, more, rest[j + 1 :]
                ):
                    out.append(item)
        if self._fits(state, ctx, fixed, group):
            out.append(DONE)
        return tuple(sorted(out))

    def exists(self, state: State, ctx: C, fixed: Args, group: Args) -> bool:
        """Whether some valid group starts with ``group``."""
        return self._completes(state, ctx, fixed, group, self._rest(state, ctx, fixed, group))


Step = Values[C] | Combination[C]


def _steps(steps: Sequence[Any]) -> tuple[Any, ...]:
    out = tuple(s if isinstance(s, Values | Combination) else Values(s) for s in steps)
    if any(isinstance(s, Combination) for s in out[:-1]):
        raise ValueError("a Combination can only be the last step of a kind")
    return out


@attrs.frozen(cache_hash=True)
class Kind(Generic[C]):
    """One kind of action: ``name``, then one token per step (see the module docstring).

    ``steps`` may hold plain functions (they become :class:`Values`); ``when(state,
    ctx)``: the kind is offered only while it holds. The steps are the kind's one
    legality: the idle test (:meth:`any`), the tokens (:meth:`next`) and the whole list
    (:meth:`enumerate`) are all derived from them. ``does(state, action)``: what a legal
    action of this kind does (the acting side is ``state.current_player()``), which
    :meth:`hexwar.engine.state.Ruleset.play` reaches through the phase's kinds.
    """

    name: str
    steps: tuple[Step[C], ...] = attrs.field(default=(), converter=_steps)
    when: Callable[[State, C], bool] | None = None
    does: Callable[[State, Action], None] | None = attrs.field(default=None, eq=False)
    #: how many arguments come before the combination (all of them if none)
    _n_fixed: int = attrs.field(init=False, eq=False, repr=False)
    #: this kind's part of its derived keys (see :class:`Combination`)
    _key: object = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        steps = self.steps
        n = len(steps)
        fixed = n - 1 if n and isinstance(steps[-1], Combination) else n
        object.__setattr__(self, "_n_fixed", fixed)
        object.__setattr__(self, "_key", object())

    def applies(self, state: State, ctx: C) -> bool:
        """Whether ``when`` allows the kind now."""
        return self.when is None or self.when(state, ctx)

    def _values(self, state: State, ctx: C, args: Args) -> Args:
        """Step ``len(args)``'s candidates, kept per position under (kind, args, ctx)."""
        step = self.steps[len(args)]
        assert isinstance(step, Values)
        return state.derive(
            (self._key, len(args), ctx, args), _collect, step.values, state, ctx, args
        )

    def completes(self, state: State, ctx: C, args: Args) -> bool:
        """Whether the legal prefix ``(name, *args)`` has a legal completion."""
        i, fixed = len(args), self._n_fixed
        if i < fixed:
            values = self._values(state, ctx, args)
            if i == len(self.steps) - 1 or self.steps[i].checked:  # type: ignore[union-attr]
                return bool(values)
            return any(self.completes(state, ctx, (*args, v)) for v in values)
        if fixed == len(self.steps):
            return True
        combo = self.steps[-1]
        assert isinstance(combo, Combination)
        return combo.exists(state, ctx, args[:fixed], args[fixed:])

    def any(self, state: State, ctx: C) -> bool:
        """Whether the kind applies and has a legal completion (the idle test; the state
        keeps the first tokens of a position, :meth:`State.legal_tokens`, so this is
        asked once per position). It stops at the first candidate that completes: a first
        step written as a generator is walked only that far; a list is kept per position,
        for the tokens."""
        if self.when is not None and not self.when(state, ctx):
            return False
        if not self._n_fixed:  # no steps, or only a combination
            return not self.steps or self.completes(state, ctx, ())
        step = self.steps[0]
        assert isinstance(step, Values)
        values: Iterable[str] = step.values(state, ctx, ())
        if isinstance(values, (list, tuple)):  # computed whole: keep it for the tokens
            if not values:
                return False
            values = state.derive((self._key, 0, ctx, ()), _distinct, values)
        if step.checked or len(self.steps) == 1:
            return next(iter(values), None) is not None
        return any(self.completes(state, ctx, (v,)) for v in values)

    def enumerate(self, state: State, ctx: C) -> list[Action]:
        """Every legal action of this kind (none unless it :meth:`applies`): the token
        tree walked to its leaves (order unspecified)."""
        if not self.applies(state, ctx):
            return []
        out: list[Action] = []
        name, fixed, n = self.name, self._n_fixed, len(self.steps)
        stack: list[Args] = [()]
        while stack:
            args = stack.pop()
            if len(args) == fixed == n:  # every argument given: complete
                out.append(Action(name, args))
                continue
            for t in self.next(state, ctx, args):
                if t == DONE:
                    out.append(Action(name, args))
                else:
                    stack.append((*args, t))
        return out

    def next(self, state: State, ctx: C, args: Args) -> tuple[str, ...]:
        """The tokens after the legal prefix ``(name, *args)``, sorted."""
        i, fixed = len(args), self._n_fixed
        if i < fixed:
            values = self._values(state, ctx, args)
            if i == len(self.steps) - 1 or self.steps[i].checked:  # type: ignore[union-attr]
                return values
            return tuple(v for v in values if self.completes(state, ctx, (*args, v)))
        if fixed == len(self.steps):
            return (DONE,) if i == fixed else ()
        combo = self.steps[-1]
        assert isinstance(combo, Combination)
        return combo.next(state, ctx, args[:fixed], args[fixed:])


def _name(kind: Kind[Any]) -> str:
    return kind.name


@attrs.frozen
class Kinds(Generic[C]):
    """The kinds of one phase (or decision): answers ``phase_tokens`` / ``decision_tokens``.

    Kind names must be distinct; :attr:`names` is what the game's action space lists.
    """

    kinds: tuple[Kind[C], ...]
    _by_name: dict[str, Kind[C]] = attrs.field(init=False, repr=False, eq=False)
    _sorted: tuple[Kind[C], ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        by_name = {k.name: k for k in self.kinds}
        if len(by_name) != len(self.kinds):
            raise ValueError(f"kind names repeat: {[k.name for k in self.kinds]}")
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_sorted", tuple(sorted(self.kinds, key=_name)))

    @property
    def names(self) -> tuple[str, ...]:
        """The kinds' names, in order."""
        return tuple(k.name for k in self.kinds)

    def get(self, name: str) -> Kind[C] | None:
        """The kind called ``name``, or ``None``."""
        return self._by_name.get(name)

    def tokens(self, state: State, ctx: C, prefix: Args) -> tuple[str, ...]:
        """The tokens that may follow the legal ``prefix`` (sorted; ``done`` when complete)."""
        if not prefix:  # a loop, not a comprehension: no function built per position
            found = []
            for k in self._sorted:
                if k.any(state, ctx):
                    found.append(k.name)
            return tuple(found)
        kind = self._by_name.get(prefix[0])
        if kind is None or (kind.when is not None and not kind.when(state, ctx)):
            return ()
        return kind.next(state, ctx, prefix[1:])

    def meaning(self, prefix: Args) -> str | None:
        """What the token after ``prefix`` must be, from the steps' ``means`` (``None``
        when the step does not say): the reason a :meth:`hexwar.engine.state.Ruleset.explain`
        gives (a ruleset returns it from :meth:`~hexwar.engine.state.Ruleset.step_meaning`)."""
        if not prefix:
            return "a kind of action offered now"
        kind = self._by_name.get(prefix[0])
        if kind is None:
            return None
        i = len(prefix) - 1
        if i < len(kind.steps):
            return kind.steps[i].means
        last = kind.steps[-1] if kind.steps else None
        return last.means if isinstance(last, Combination) else None

    def any(self, state: State, ctx: C) -> bool:
        """Whether some kind has a legal completion (the idle test; stops at the first)."""
        return any(k.any(state, ctx) for k in self.kinds)

    def actions(self, state: State, ctx: C) -> list[Action]:
        """Every legal action, sorted by :func:`~hexwar.engine.actions.action_key`: each
        kind's token tree walked to its leaves."""
        out: list[Action] = []
        for kind in self.kinds:
            out += kind.enumerate(state, ctx)
        out.sort(key=action_key)
        return out


@attrs.frozen
class DecisionKind:
    """A kind of decision (``Decision.kind``): what an answer to it ``does(state,
    decision, action)`` (the decision is already off the stack), and, for answers spelled
    token by token, their ``answers`` kinds (their context is the decision). List them in
    :attr:`hexwar.engine.state.Ruleset.decision_kinds` (a tuple): the default ``decide``,
    ``decision_tokens`` and ``step_meaning`` dispatch through them.

    >>> roll = DecisionKind("roll", does=lambda state, decision, action: None)
    >>> roll.name, roll.answers is None
    ('roll', True)
    """

    name: str
    does: Callable[[State, Decision, Action], None] = attrs.field(eq=False)
    answers: Kinds[Decision] | None = None
