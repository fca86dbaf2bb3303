"""Lazy legality, kind by kind and token by token: write ``phase_tokens`` in a few lines.

An action is its kind, then its arguments, then :data:`~hexwar.engine.space.DONE`
(:mod:`hexwar.engine.space`). A :class:`Kind` names the kind and lists its *steps*, one per
argument, each saying which values may follow the arguments chosen so far:

- :class:`Values` — one argument: ``values(state, ctx, args)`` gives the candidates
  (``ctx`` is the acting side in a phase, or the pending decision); a candidate is
  offered only if the rest of the action can still be completed legally (the steps after
  it are asked, stopping at the first completion), unless the step is ``checked`` (every
  value it gives is known to complete) or is the last one.
- :class:`Combination` — the last step, for "several units in canonical order, then
  done": each step offers only items after the last one named (sorted order), ``done``
  is offered when the group so far is ``valid``, and ``feasible`` (monotone: once false
  for a group, false for every larger one) prunes groups that can never become valid.

:class:`Kinds` groups a phase's kinds and answers ``phase_tokens`` / ``decision_tokens``
(:meth:`Kinds.tokens`), the idle test (:meth:`Kinds.any`, which stops at the first kind
with a legal completion) and the whole list (:meth:`Kinds.actions`: each kind's own
enumerator where it has one, ``Kind(..., actions=...)``, else its tree). Each
step's values are computed once per position (:meth:`hexwar.engine.state.State.derive`), so the
idle test, the legal tokens and the legal list share them; memoise costlier functions
across positions with :class:`hexwar.engine.memo.StateMemo`.

>>> from hexwar.engine.state import State
>>> UNITS = {"a": 2, "b": 1, "c": 0}            # unit -> how far it may move
>>> def movers(state, side, args):
...     return [u for u, n in UNITS.items() if n]
>>> def hexes(state, side, args):
...     return [str(h) for h in range(1, UNITS[args[0]] + 1)]
>>> def strong_enough(state, side, fixed, chosen):      # the group attacks with 1 or more
...     return sum(UNITS[u] for u in chosen) >= 1
>>> MOVE = Kind("move", (Values(movers, checked=True), Values(hexes)))
>>> ATTACK = Kind("attack", (Values(lambda s, side, a: ["x"]),
...                          Combination(lambda s, side, a: sorted(UNITS), valid=strong_enough)))
>>> PHASE = Kinds((MOVE, ATTACK))
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> class Game(Ruleset):
...     sides = ("red",)
...     sequence = TurnSequence((Stage("s", (Phase("p", side="red", end_when_idle=False),)),))
...     def phase_tokens(self, state, side, prefix):
...         return PHASE.tokens(state, side, prefix)
>>> state = Game().new_state()
>>> state.legal_tokens(), state.legal_tokens(("move",)), state.legal_tokens(("move", "a"))
(('attack', 'end', 'move'), ('a', 'b'), ('1', '2'))

``c`` alone has strength 0, so no group starts with it (it would be a dead end); after
``b`` it may join, and ``done`` comes once the group is valid:

>>> state.legal_tokens(("attack", "x")), state.legal_tokens(("attack", "x", "b"))
(('a', 'b'), ('c', 'done'))
>>> [str(a) for a in state.legal_actions() if a.kind == "attack"]
['attack x a', 'attack x a b', 'attack x a b c', 'attack x a c', 'attack x b', 'attack x b c']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from hexwar.engine.actions import Action, action_key
from hexwar.engine.space import DONE
from hexwar.engine.state import State

__all__ = ["Combination", "Kind", "Kinds", "Values"]

C = TypeVar("C")
Args = tuple[str, ...]


@attrs.frozen(cache_hash=True)
class Values(Generic[C]):
    """One argument step: ``values(state, ctx, args)`` are the candidates after ``args``.

    ``checked``: every value given has a legal completion (the game knows it: a unit
    offered only if it has a hex to go to), so no look-ahead runs. ``exists(state, ctx,
    args)``: a faster "is some value completable?" for the idle test and the look-ahead
    of earlier steps (it must agree with the values). ``means``: what a value is, for
    the reason an illegal action gives ("a unit of yours that may move now").
    """

    values: Callable[[State, C, Args], Iterable[str]]
    checked: bool = False
    exists: Callable[[State, C, Args], bool] | None = None
    means: str | None = attrs.field(default=None, eq=False)


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
        return state._step_values((self._key, ctx, fixed), self.items, ctx, fixed)

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


# How Kind.any asks a kind with neither ``exists`` nor ``when`` deciding: no steps (always
# completes), the first step's ``exists``, the first step's values (checked or the only
# step: any value completes), else completes() with its look-ahead, kept per position.
_ANY_TRUE, _ANY_EXISTS, _ANY_VALUES, _ANY_STEPS = range(4)


@attrs.frozen(cache_hash=True)
class Kind(Generic[C]):
    """One kind of action: ``name``, then one token per step (see the module docstring).

    ``steps`` may hold plain functions (they become :class:`Values`); ``when(state,
    ctx)``: the kind is offered only while it holds; ``exists(state, ctx)``: a faster
    "has this kind a legal completion?" (it must agree with the steps); ``actions(state,
    ctx)``: the kind's own complete enumeration (every legal action of this kind, any
    order), used for the whole list (:meth:`Kinds.actions`) instead of walking the
    steps to their leaves. Both are second answers to what the steps say, so they must
    agree with them: :func:`hexwar.testing.check_tokens` (run at every step of the kit's
    random games) compares the list with the token tree.
    """

    name: str
    steps: tuple[Step[C], ...] = attrs.field(default=(), converter=_steps)
    when: Callable[[State, C], bool] | None = None
    exists: Callable[[State, C], bool] | None = None
    actions: Callable[[State, C], Iterable[Action]] | None = None
    #: how many arguments come before the combination (all of them if none)
    _n_fixed: int = attrs.field(init=False, eq=False, repr=False)
    #: this kind's part of its derived keys (see :class:`Combination`)
    _key: object = attrs.field(init=False, eq=False, repr=False)
    #: how :meth:`any` asks the steps (:data:`_ANY_STEPS`, ``_ANY_TRUE``, ...)
    _any_by: int = attrs.field(init=False, eq=False, repr=False)
    #: the first step's ``exists``, when it has one (:meth:`any` asks it)
    _first_exists: Callable[[State, C, Args], bool] | None = attrs.field(
        init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        steps = self.steps
        n = len(steps)
        fixed = n - 1 if n and isinstance(steps[-1], Combination) else n
        object.__setattr__(self, "_n_fixed", fixed)
        object.__setattr__(self, "_key", object())
        first = steps[0] if fixed else None
        first_exists = first.exists if isinstance(first, Values) else None
        if not n:
            any_by = _ANY_TRUE
        elif first_exists is not None:
            any_by = _ANY_EXISTS
        elif isinstance(first, Values) and (first.checked or n == 1):
            any_by = _ANY_VALUES
        else:  # a look-ahead (or a combination's search): kept per position
            any_by = _ANY_STEPS
        object.__setattr__(self, "_any_by", any_by)
        object.__setattr__(self, "_first_exists", first_exists)

    def applies(self, state: State, ctx: C) -> bool:
        """Whether ``when`` allows the kind now."""
        return self.when is None or self.when(state, ctx)

    def completes(self, state: State, ctx: C, args: Args) -> bool:
        """Whether the legal prefix ``(name, *args)`` has a legal completion."""
        i, fixed = len(args), self._n_fixed
        if i < fixed:
            step = self.steps[i]
            assert isinstance(step, Values)
            if step.exists is not None:
                return step.exists(state, ctx, args)
            values = state._step_values((self._key, i, ctx, args), step.values, ctx, args)
            if step.checked or (i == len(self.steps) - 1):
                return bool(values)
            return any(self.completes(state, ctx, (*args, v)) for v in values)
        if fixed == len(self.steps):
            return True
        combo = self.steps[-1]
        assert isinstance(combo, Combination)
        return combo.exists(state, ctx, args[:fixed], args[fixed:])

    def any(self, state: State, ctx: C) -> bool:
        """Whether the kind applies and has a legal completion (stops at the first)."""
        if self.when is not None and not self.when(state, ctx):
            return False
        if self.exists is not None:
            return self.exists(state, ctx)
        # what completes(()) would answer, without its frames where the first step decides
        first_exists = self._first_exists
        if first_exists is not None:
            return first_exists(state, ctx, ())
        any_by = self._any_by
        if any_by == _ANY_VALUES:
            first = self.steps[0]
            assert isinstance(first, Values)
            return bool(state._step_values((self._key, 0, ctx, ()), first.values, ctx, ()))
        if any_by == _ANY_TRUE:
            return True
        return state.derive((self._key, ctx), self.completes, state, ctx, ())

    def enumerate(self, state: State, ctx: C) -> list[Action]:
        """Every legal action of this kind (none unless it :meth:`applies`): its own
        ``actions`` enumerator if it has one, else its token tree walked to the leaves
        (order unspecified)."""
        if not self.applies(state, ctx):
            return []
        if self.actions is not None:
            return list(self.actions(state, ctx))
        out: list[Action] = []
        stack: list[Args] = [()]
        while stack:
            args = stack.pop()
            for t in self.next(state, ctx, args):
                if t == DONE:
                    out.append(Action(self.name, args))
                else:
                    stack.append((*args, t))
        return out

    def next(self, state: State, ctx: C, args: Args) -> tuple[str, ...]:
        """The tokens after the legal prefix ``(name, *args)``, sorted."""
        i, fixed = len(args), self._n_fixed
        if i < fixed:
            step = self.steps[i]
            assert isinstance(step, Values)
            # a step's values, kept per position under (kind, step index, ctx, args)
            values = state._step_values((self._key, i, ctx, args), step.values, ctx, args)
            if step.checked or i == len(self.steps) - 1:
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
        """Every legal action, sorted by :func:`~hexwar.engine.actions.action_key`: each kind's
        own enumerator where it has one (``Kind(..., actions=...)``), else its token tree.
        A ruleset returns this from ``phase_actions`` / ``decision_actions`` beside
        ``phase_tokens`` / ``decision_tokens``, and :meth:`State.legal_actions` takes the
        list from there (see :meth:`hexwar.engine.state.Ruleset.phase_actions`)."""
        out: list[Action] = []
        for kind in self.kinds:
            out += kind.enumerate(state, ctx)
        out.sort(key=action_key)
        return out
