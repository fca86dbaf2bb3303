"""A cup of chits kept in the state: fill it, draw from it (a chance event), take chits out.

Chit-pull games (Triumph & Glory's activation markers, 5.31) put chits into a cup and
draw them one at a time; the side with the initiative may pick the first one itself.
A :class:`Cup` keeps the chits as one tuple in a state table (so clone, undo and save
files cover it) and builds the decisions: :meth:`Cup.next` is a ready-made ``next`` for
a :class:`~hexwar.engine.sequencer.Segment` (``Segment(..., cup=cup)`` also takes the picked
chit out of the cup), :meth:`Cup.draw` a draw outside a segment.

>>> from hexwar.engine.sequencer import Phase, Segment, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> cup = Cup(first=lambda s: s.get("game", "initiative"), owner=lambda s, c: c[0])
>>> act = Phase("act", "a", end_when_idle=False)
>>> fill = lambda s: cup.fill(s, ["a1", "b1", "b2"])
>>> class Chits(Ruleset):
...     sides = ("a", "b")
...     sequence = TurnSequence((Segment("activation", (act,), cup=cup, on_enter=fill),))
...     def setup(self, state, scenario, options):
...         state.put("game", "initiative", "b")
>>> state = Chits().new_state()
>>> state.legal_actions()                     # the initiative side picks one of its own
[Action(kind='pick', args=('b1',)), Action(kind='pick', args=('b2',))]
>>> state.apply("pick b2")
>>> state.token, cup.chits(state)
('b2', ('a1', 'b1'))
>>> state.apply("end")                        # the rest are drawn at random
>>> [(str(a), p) for a, p in state.chance_outcomes()]
[('draw a1', Fraction(1, 2)), ('draw b1', Fraction(1, 2))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import attrs

from hexwar.base.errors import CupError
from hexwar.engine.actions import Action, Decision
from hexwar.engine.dice import draw_outcomes
from hexwar.engine.sequencer import TOKEN, token_draw, token_pick

if TYPE_CHECKING:
    from hexwar.engine.state import State

__all__ = ["Cup"]


@attrs.frozen
class Cup:
    """Chits in a cup: the tuple ``state.get(table, key)``, in the order they went in.

    ``first(state)``: the side that picks the first chit of a segment itself (``None``:
    nobody, everything is drawn); ``owner(state, chit)``: the side a chit belongs to —
    with it the first pick is among that side's own chits only. ``private``: draws are
    seen only by that side.
    """

    table: str = "cup"
    key: str = "chits"
    first: Callable[[State], object] | None = None
    owner: Callable[[State, str], str] | None = None
    private: str | None = None

    def chits(self, state: State) -> tuple[str, ...]:
        """The chits in the cup (``()`` if empty)."""
        return state.get(self.table, self.key, ()) or ()  # type: ignore[return-value]

    def fill(self, state: State, chits: Iterable[str]) -> None:
        """Put exactly ``chits`` in the cup (journaled), replacing what was there."""
        state.put(self.table, self.key, tuple(chits))

    def add(self, state: State, chit: str) -> None:
        """Put one more ``chit`` in the cup."""
        self.fill(state, (*self.chits(state), chit))

    def take(self, state: State, chit: str) -> None:
        """Take one ``chit`` (its first copy) out of the cup; :class:`CupError` if absent."""
        chits = list(self.chits(state))
        if chit not in chits:
            raise CupError(f"chit {chit!r} is not in the cup {self.table}/{self.key}: {chits}")
        chits.remove(chit)
        self.fill(state, chits)

    def draw(self, state: State, kind: str = TOKEN) -> Decision:
        """A chance decision drawing one chit (``draw <chit>``), each chit equally likely.

        Outside a segment, take the drawn chit out in ``decide`` with :meth:`take`.
        """
        chits = self.chits(state)
        if not chits:
            raise CupError(f"cannot draw from the empty cup {self.table}/{self.key}")
        if kind == TOKEN:
            return token_draw(chits, private=self.private)
        outcomes = tuple((Action("draw", (c,)), p) for c, p in draw_outcomes(chits))
        return Decision.chance(kind, outcomes, private=self.private)

    def next(self, state: State) -> Decision | None:
        """A segment's next token: the ``first`` side picks the first one (among its own
        chits, with ``owner``), the others are drawn; ``None`` once the cup is empty."""
        chits = self.chits(state)
        side = None if self.first is None else self.first(state)
        if not state.cursor.tokens and isinstance(side, str):
            own = [c for c in chits if self.owner is None or self.owner(state, c) == side]
            if own:
                return token_pick(side, own)
        return self.draw(state) if chits else None
