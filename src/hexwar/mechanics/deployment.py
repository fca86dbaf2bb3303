"""Hidden set-up: each side places its pieces behind a screen, then all are revealed.

«Бой отрядов» X.2: each side sets its figures up in its own neutral zone, at most two a
square, with limits per row, unseen by the enemy until both are done (X.3: the screens are
lifted). A :class:`Deployment` runs that as a chain of private decisions, one per piece:

- :meth:`Deployment.begin` (from ``Ruleset.setup``) records each side's pieces, in the
  order they are to be placed (most constrained first, so every piece finds a cell),
  and pushes the first decision ``Decision(kind, side, (piece,), private=side)``;
- :meth:`Deployment.actions` answers ``Ruleset.decision_actions``: ``place <piece>
  <label>`` for every legal cell (``cells(state, side, piece)``, within ``per_cell``
  pieces of the side per cell and ``per_row(state, side, row)`` per row);
- :meth:`Deployment.answer` answers ``Ruleset.decide``: places the piece in the
  :class:`~hexwar.board.pieces.Pieces` registry, hides it from the other sides, and pushes the
  next decision; after the last one every placed piece is revealed and ``on_done`` runs.

The sides deploy one after the other (in the order of ``begin``'s plan); the decisions
are private, so neither the placements nor the actions are in the other side's
observation until the reveal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

from hexwar.base.errors import DeploymentError
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action, Decision
from hexwar.engine.state import State

__all__ = ["Deployment"]

C = TypeVar("C")


@attrs.frozen
class Deployment(Generic[C]):
    """A hidden set-up of pieces into a :class:`~hexwar.board.pieces.Pieces` registry.

    - ``cells(state, side, piece)``: the cells the piece may be set up in (its zone, its
      rows, ...), before the limits below;
    - ``per_cell``: at most this many pieces of the side in one cell (``None``: no limit);
    - ``row(cell)`` and ``per_row(state, side, row)``: at most this many pieces of the
      side in one row (``None``: no limit for that row);
    - ``kind``: the decision kind and action kind (``place``); ``table``: where the
      queues of pieces still to place are kept (``deploy``);
    - ``on_done(state)``: runs after the reveal (e.g. to mark the game started).
    """

    pieces: Pieces[C]
    cells: Callable[[State, str, str], Iterable[C]]
    per_cell: int | None = 1
    row: Callable[[C], str] | None = None
    per_row: Callable[[State, str, str], int | None] | None = None
    kind: str = "place"
    table: str = "deploy"
    on_done: Callable[[State], None] | None = None

    def begin(self, state: State, plan: Mapping[str, Sequence[str]]) -> None:
        """Start the set-up: ``plan`` maps each side (in deployment order) to its pieces
        (in placement order)."""
        seen: set[str] = set()
        for side, ids in plan.items():
            for piece in ids:
                if piece in seen or self.pieces.is_placed(state, piece):
                    raise DeploymentError(f"piece {piece!r} is planned twice or already placed")
                seen.add(piece)
            state.put(self.table, side, tuple(ids))
        state.put(self.table, "$order", tuple(plan))
        self._next(state)

    def done(self, state: State) -> bool:
        """Whether every planned piece has been placed (and revealed)."""
        return state.get(self.table, "$order") == ()

    def waiting(self, state: State, side: str) -> tuple[str, ...]:
        """The pieces of ``side`` still to place, in placement order (the one being
        placed first); ``()`` once the side is done.

        A game whose limits can leave a later piece without a cell filters its ``cells``
        with this (for instance by counting the room left per row)."""
        return state.get(self.table, side, ())  # type: ignore[return-value]

    def legal_cells(self, state: State, side: str, piece: str) -> list[C]:
        """Where ``piece`` of ``side`` may be set up now, in the candidates' order."""
        reg = self.pieces
        mine = reg.positions(state, side)
        rows: dict[str, int] = {}
        if self.row is not None:
            for cell, ids in mine.items():
                r = self.row(cell)
                rows[r] = rows.get(r, 0) + len(ids)
        out = []
        for cell in self.cells(state, side, piece):
            if self.per_cell is not None and len(mine.get(cell, ())) >= self.per_cell:
                continue
            if self.row is not None and self.per_row is not None:
                r = self.row(cell)
                limit = self.per_row(state, side, r)
                if limit is not None and rows.get(r, 0) >= limit:
                    continue
            out.append(cell)
        return out

    def actions(self, state: State, decision: Decision) -> list[Action]:
        """The answers to a placement decision (for ``Ruleset.decision_actions``)."""
        piece = str(decision.params[0])
        label = self.pieces.codec.label
        return [
            Action.of(self.kind, piece, label(c))
            for c in self.legal_cells(state, decision.side, piece)
        ]

    def answer(self, state: State, decision: Decision, action: Action) -> bool:
        """Carry out a placement (for ``Ruleset.decide``); ``False`` if ``decision`` is not
        one of this deployment's (so the ruleset handles it)."""
        if decision.kind != self.kind:
            return False
        piece = str(decision.params[0])
        if action.kind != self.kind or len(action.args) != 2 or action.args[0] != piece:
            raise DeploymentError(f"{action} does not answer the placement of {piece!r}")
        cell = self.pieces.codec.cell_at(action.args[1])
        side = decision.side
        queue: tuple[str, ...] = state.get(self.table, side, ())  # type: ignore[assignment]
        state.put(self.table, side, queue[1:])
        self.pieces.place(state, piece, cell, side)
        self.pieces.hide(state, piece, side)
        self._next(state)
        return True

    def _next(self, state: State) -> None:
        order: tuple[str, ...] = state.get(self.table, "$order", ())  # type: ignore[assignment]
        for side in order:
            queue: tuple[Any, ...] = state.get(self.table, side, ())  # type: ignore[assignment]
            if queue:
                state.push(Decision(self.kind, side, (queue[0],), private=side))
                return
        for side in order:
            for piece in self.pieces.pieces_of(state, side):
                self.pieces.reveal(state, piece)
            state.delete(self.table, side)
        state.put(self.table, "$order", ())
        if self.on_done is not None:
            self.on_done(state)
