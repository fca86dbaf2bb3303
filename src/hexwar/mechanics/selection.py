"""Secret selections: a side picks up to N of its items, hidden from the others until revealed.

Triumph & Glory «Триумф и Слава» 5.21-5.23: each player secretly puts up to his
commander's order rating of command groups under orders; a group's status stays hidden
from the opponent until its activation marker is drawn. The same shape serves secretly
plotted fire missions or reserve commitments. A :class:`SecretSelection` asks the side
(a private decision offering every subset of at most ``limit`` candidates, see
:func:`subsets`), stores one boolean per candidate in ``table`` hidden from the other
sides, and :meth:`SecretSelection.reveal` makes one item public and returns it;
:meth:`SecretSelection.resample` draws the statuses hidden from a side anew (a ruleset's
``resample_hidden``, for a search).

>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import HIDDEN, Ruleset
>>> sel = SecretSelection("orders", lambda s, side: ["I", "V"], lambda s, side: 1)
>>> class Game(Ruleset):
...     sides = ("fr", "ru")
...     sequence = TurnSequence((Stage("s", (Phase("o", on_enter=lambda s: sel.ask(s, "fr")),)),))
...     def decide(self, state, decision, action):
...         sel.answer(state, decision, action)
>>> state = Game().new_state()
>>> [str(a) for a in state.legal_actions()]
['orders', 'orders I', 'orders V']
>>> state.apply("orders V")
>>> state.observation("ru")["tables"]["orders"]["V"] == HIDDEN
True
>>> import random
>>> drawn = sel.resample(state, "ru", random.Random(0))
>>> drawn.observation("ru") == state.observation("ru")
True
>>> sel.reveal(state, "V"), state.observation("ru")["tables"]["orders"]["V"]
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

import attrs

from hexwar.base.errors import SelectionError
from hexwar.engine.actions import Action, Decision
from hexwar.engine.resample import hidden_entries, rebuilt
from hexwar.engine.state import State

__all__ = ["SecretSelection", "subsets"]


def subsets(kind: str, items: Sequence[str], at_most: int) -> tuple[Action, ...]:
    """``<kind> <item> ...`` for every subset of ``items`` of at most ``at_most`` items
    (the empty one first; items in the given order).

    >>> [str(a) for a in subsets("orders", ["a", "b", "c"], 2)]
    ['orders', 'orders a', 'orders b', 'orders c', 'orders a b', 'orders a c', 'orders b c']
    """
    top = min(at_most, len(items))
    return tuple(Action(kind, c) for n in range(top + 1) for c in combinations(items, n))


@attrs.frozen
class SecretSelection:
    """A side's secret choice of up to ``limit(state, side)`` of ``items(state, side)``.

    The decision and its action are both of ``kind``; the chosen status of each item
    (``True``/``False``) goes to ``table`` (default: ``kind``), hidden from other sides.
    """

    kind: str
    items: Callable[[State, str], Iterable[str]]
    limit: Callable[[State, str], int]
    table: str = ""

    @property
    def store(self) -> str:
        """The table holding the statuses."""
        return self.table or self.kind

    def ask(self, state: State, side: str) -> None:
        """Push ``side``'s private decision (every allowed subset of its items)."""
        items = tuple(self.items(state, side))
        choices = subsets(self.kind, items, self.limit(state, side))
        state.push(Decision(self.kind, side, items, choices=choices, private=side))

    def answer(self, state: State, decision: Decision, action: Action) -> bool:
        """Record the selection (for ``Ruleset.decide``); ``False`` if ``decision`` is not
        one of this selection's."""
        if decision.kind != self.kind:
            return False
        if not set(action.args) <= set(map(str, decision.params)):
            raise SelectionError(f"{action}: not a selection among {decision.params}")
        for item in map(str, decision.params):
            state.put(self.store, item, item in action.args)
            state.hide(self.store, item, decision.side)
        return True

    def chosen(self, state: State, item: str) -> bool:
        """Whether ``item`` was selected (``False`` if it never was a candidate)."""
        return bool(state.get(self.store, item))

    def reveal(self, state: State, item: str) -> bool:
        """Make ``item``'s status public (its activation) and return it."""
        if state.get(self.store, item) is not None:
            state.reveal(self.store, item)
        return self.chosen(state, item)

    def resample(self, state: State, observer: str, rng: random.Random) -> State:
        """A new state ``observer`` cannot tell from ``state``: each other side's statuses
        hidden from it drawn anew, a subset of the hidden items drawn uniformly among
        those of at most the side's limit less the items it has already revealed as
        chosen (an item revealed after it left ``items``, a group wiped out, is not
        counted)."""
        hidden = hidden_entries(state, observer, self.store)
        values: dict[str, bool] = {}
        for owner in sorted({o for o in hidden.values() if o is not None}):
            keys = [k for k, o in hidden.items() if o == owner]
            shown = sum(
                1
                for item in self.items(state, owner)
                if item not in hidden and self.chosen(state, item)
            )
            room = max(self.limit(state, owner) - shown, 0)
            choices = subsets(self.kind, keys, room)
            picked = choices[rng.randrange(len(choices))]
            values.update({k: k in picked.args for k in keys})
        return rebuilt(state, self.store, values) if values else state.clone()
