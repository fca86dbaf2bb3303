"""The result program of the combat pipeline (:mod:`hexwar.mechanics.combat`).

A :class:`~hexwar.mechanics.crt_values.CombatResult` runs as a list of parts kept in the state
table ``<name>`` (``program``: ``(part, n)`` pairs, plain data): ``elim`` (the defending
stack is eliminated), ``dloss`` / ``aloss`` (N defender / attacker steps, one at a time,
the owner choosing the unit — or the defender, ``ResultForms.attacker_loss_by``), ``xch``
(the exchange: by steps; by printed points with
:func:`~hexwar.mechanics.steps.cheapest_cover`; or ``"stepwise"``, one step at a time by
printed points until the defender's loss is covered, a defender's kind first), ``retreat``
(N cells, one decision per cell, a ZOC penalty inserting a ``dloss``; a forbidden or
impossible retreat costs the data's penalty), ``advance``. Each part that needs a choice
pushes a decision with fixed answers and waits (``params``: what it is about — the
fought-over cell, the retreating stack's top piece, the vacated cell — then the part and
its count); its answer carries the part out and the program goes on. The decisions' and
answers' spellings are data (:class:`~hexwar.mechanics.combat_rules.ResultForms`), the
game's own legality questions hooks
(:class:`~hexwar.mechanics.combat_rules.ResultHooks`). The program runs on a local copy of
the record, written to the table when it stops at a decision (and the table emptied when
it ends): a hook called while it runs sees the pieces as the program has left them, and
the table as at the last decision (none yet: empty). :meth:`ResultProgram.execute` runs
a result for a game that declares its attacks itself. :class:`ResultProgram` is the base of
:class:`~hexwar.mechanics.combat.Combat`, which holds the data it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

import attrs

from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.board.stacking import StackingLimit
from hexwar.engine.actions import Action, Decision, Value, action_key
from hexwar.engine.state import State
from hexwar.mechanics.combat_rules import AdvanceRules, ResultForms, ResultHooks
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_values import CombatResult
from hexwar.mechanics.retreat import RetreatRules, retreat_options, zoc_penalty
from hexwar.mechanics.steps import StepCounters, cheapest_cover

__all__ = ["Op", "ResultProgram", "ResultRecord"]

#: One part of the program: its name and its count.
Op = tuple[str, int]


@attrs.define(slots=True)
class ResultRecord:
    """The program's copy of a result's record (table ``<name>``, one entry per field): it
    reads and writes only this, and writes it to the table when it stops at a decision.

    What is fixed when the result starts — the cell fought over, the result's code, the
    attacking side and its foe, the attackers, the cells they attacked from, the
    defenders — then the defenders' cell ``at`` (it moves with a retreat), the
    ``program`` left, and what the parts have counted so far.
    """

    cell: str
    result: str
    side: str
    foe: str
    attackers: tuple[str, ...]
    sources: tuple[str, ...]
    defenders: tuple[str, ...]
    at: str
    program: tuple[Op, ...]
    lost: int = 0  # the defenders' printed points lost (an exchange covers them)
    paid: int = 0  # the attackers' printed points paid
    dsteps: int = 0  # the defenders' steps lost
    path: tuple[str, ...] = ()  # the cells the defenders retreated into
    advanced: tuple[str, ...] = ()  # the attackers that advanced

    @classmethod
    def read(cls, table: Mapping[str, Value]) -> ResultRecord:
        """The record written in ``table``."""
        found: dict[str, Any] = {f.name: table[f.name] for f in _FIELDS if f.name in table}
        return cls(**found)

    def write(self, state: State, name: str) -> None:
        """Write the fields table ``name`` does not hold as they are."""
        table = state.table(name)
        for f in _FIELDS:
            value = getattr(self, f.name)
            if table.get(f.name, _MISSING) is not value:
                state.put(name, f.name, value)


_FIELDS: Final = attrs.fields(ResultRecord)
_MISSING: Final = object()


class ResultProgram:
    """Carries out combat results as chained decisions (see the module docstring)."""

    pieces: Pieces[Any]
    counters: StepCounters
    game_map: GameMap[Any]
    table: OddsTable
    retreat: RetreatRules
    advance: AdvanceRules
    attack_value: str
    defence_value: str
    exchange: Literal["steps", "points", "stepwise"]
    exchange_lost: str | None
    exchange_paid: str | None
    exchange_flag: str
    limit: StackingLimit | None
    unit: Callable[[str], Any] | None
    exerts_zoc: Callable[[Any], bool] | None
    name: str
    forms: ResultForms
    hooks: ResultHooks

    @property
    def attackers_table(self) -> str:
        """Piece -> the cell it attacked this phase."""
        return f"{self.name}_attackers"

    @property
    def defenders_table(self) -> str:
        """Cell -> ``("declared" | "resolved", *attackers)`` this phase."""
        return f"{self.name}_defenders"

    @property
    def scratch(self) -> tuple[str, ...]:
        """The per-phase tables (a combat phase's ``scratch``)."""
        return (self.attackers_table, self.defenders_table)

    def decision_kind(self, part: str) -> str:
        """The kind of the decisions of ``part`` (``roll``, ``dloss``, ``aloss``, ``pay``,
        ``retreat``, ``advance``): the game's spelling, else ``<name>_<part>`` (both step
        losses ``<name>_loss``)."""
        found = self.forms.kinds.get(part)
        if found is not None:
            return found
        return f"{self.name}_{'loss' if part in ('dloss', 'aloss') else part}"

    def _cell(self, label: str) -> Any:
        return self.pieces.codec.cell_at(label)

    def _label(self, cell: Any) -> str:
        return self.pieces.codec.label(cell)

    def in_progress(self, state: State) -> bool:
        """Whether a combat result is being carried out (its decisions are pending)."""
        return state.get(self.name, "program") is not None

    def _answer(self, state: State, action: Action) -> None:
        """Carry out ``action``, the answer to the program's pending decision, and go on."""
        rec = ResultRecord.read(state.table(self.name))
        self._apply(state, rec, rec.program[0], action)
        self._run(state, rec)

    def execute(
        self, state: State, cell: str, attackers: tuple[str, ...], result: CombatResult
    ) -> None:
        """Carry out ``result`` of the attack of ``attackers`` on the stack in ``cell`` (a
        label): as far as it goes without a choice, then the first decision is pushed."""
        defenders = self.pieces.occupants(state, self._cell(cell))
        exchange = result.has(self.exchange_flag) or result.code in self.forms.exchange_codes
        ops: list[Op] = []
        if result.eliminated:
            ops.append(("elim", 0))
        if result.defender_steps:
            ops.append(("dloss", result.defender_steps))
        if exchange:
            ops.append(("xch", 0))
        elif result.attacker_steps:
            ops.append(("aloss", result.attacker_steps))
        if result.retreat:
            ops.append(("retreat", result.retreat))
        ops.append(("advance", 0))
        side, foe = self.pieces.side(state, attackers[0]), ""
        if defenders:
            foe = self.pieces.side(state, defenders[0])
        sources = tuple(self._label(self.pieces.where(state, a)) for a in attackers)
        rec = ResultRecord(
            cell, result.code, side, foe, attackers, sources, defenders, cell, tuple(ops)
        )
        self._run(state, rec)

    def _live(self, state: State, rec: ResultRecord, role: str) -> list[str]:
        """The defenders still in the defending stack, or the attackers still on the map."""
        if role == "attackers":
            return sorted(p for p in rec.attackers if self.pieces.is_placed(state, p))
        at = self._cell(rec.at)
        return sorted(
            p
            for p in rec.defenders
            if self.pieces.is_placed(state, p) and self.pieces.where(state, p) == at
        )

    def _run(self, state: State, rec: ResultRecord) -> None:
        """Carry out the program until a part needs a choice (the record written, the
        decision pushed) or it is done (the table emptied)."""
        while True:
            prog = rec.program
            if not prog:
                for key in sorted(state.table(self.name)):
                    state.delete(self.name, key)
                return
            op = prog[0]
            asked = self._ask(state, rec, op)
            if asked is None:
                continue
            side, part, choices = asked
            if len(choices) == 1 and part not in self.forms.always_ask:
                self._apply(state, rec, op, choices[0])
                continue
            ordered = tuple(sorted(choices, key=action_key))
            params = (self._subject(state, rec, part), op[0], op[1])
            rec.write(state, self.name)
            state.push(Decision(self.decision_kind(part), side, params, choices=ordered))
            return

    def _subject(self, state: State, rec: ResultRecord, part: str) -> str:
        """What a decision is about: the retreating stack's top piece, the vacated cell,
        else the cell fought over."""
        if part == "retreat":
            return self._stack(state, rec)[0]
        return rec.cell if part == "advance" else rec.at

    @staticmethod
    def _pop(rec: ResultRecord, *instead: Op) -> None:
        rec.program = (*instead, *rec.program[1:])

    def _ask(self, state: State, rec: ResultRecord, op: Op) -> tuple[str, str, list[Action]] | None:
        """The choice ``op`` needs now (side, decision part, answers), or ``None`` after
        carrying out (or skipping) what needs no choice."""
        kind, n = op
        side, foe = rec.side, rec.foe
        if kind == "elim":
            for piece in self._live(state, rec, "defenders"):
                self._lose(state, rec, piece, len(self.counters.track(piece)), defender=True)
            self._pop(rec)
            return None
        if kind in ("dloss", "aloss"):
            live = self._live(state, rec, "defenders" if kind == "dloss" else "attackers")
            if n <= 0 or not live:
                self._pop(rec)
                return None
            by_foe = kind == "dloss" or self.forms.attacker_loss_by == "defender"
            return (foe if by_foe else side), kind, [Action(self.forms.lose, (p,)) for p in live]
        if kind == "xch":
            return self._ask_exchange(state, rec, side)
        if kind == "retreat":
            return self._ask_retreat(state, rec, n, side, foe)
        if kind == "advance":
            return self._ask_advance(state, rec, side)
        raise AssertionError(op)  # pragma: no cover - the program holds only these

    def _lose(
        self, state: State, rec: ResultRecord, piece: str, steps: int, *, defender: bool
    ) -> None:
        loss = self.counters.lose(state, piece, steps)
        if loss.eliminated and self.pieces.is_placed(state, piece):
            self.pieces.remove(state, piece)
        if defender:
            lost = self.exchange_lost or self.defence_value
            rec.lost = rec.lost + loss.printed(lost)
            rec.dsteps = rec.dsteps + loss.steps
        else:
            paid = self.exchange_paid or self.attack_value
            rec.paid = rec.paid + loss.printed(paid)

    def _ask_exchange(
        self, state: State, rec: ResultRecord, side: str
    ) -> tuple[str, str, list[Action]] | None:
        live = self._live(state, rec, "attackers")
        if self.exchange == "steps":
            self._pop(rec, *((("aloss", rec.dsteps),) * bool(live)))
            return None
        owed = rec.lost - rec.paid
        if owed <= 0 or not live:
            self._pop(rec)
            return None
        if self.exchange == "stepwise":
            kind_of = self.hooks.kind_of
            if kind_of is not None:
                kinds = {kind_of(p) for p in rec.defenders}
                live = [p for p in live if kind_of(p) in kinds] or live
            return side, "pay", [Action(self.forms.lose, (p,)) for p in live]
        paid = self.exchange_paid or self.attack_value
        covers = cheapest_cover(self.counters, state, live, owed, paid)
        return side, "pay", [Action("pay", way) for way in covers]

    def _retreat_paths(self, state: State, rec: ResultRecord, n: int) -> list[Any]:
        at = self._cell(rec.at)
        passed = tuple(self._cell(c) for c in rec.path)
        return retreat_options(
            self.pieces, state, self.game_map, at, n, rules=self.retreat, limit=self.limit,
            unit=self.unit, exerts_zoc=self.exerts_zoc,
            attackers=[self._cell(c) for c in rec.sources],
            origin=self._cell(rec.cell), passed=passed,
            movers=self._stack(state, rec),
        )  # fmt: skip

    def _stacked_over(self, state: State, cell: Any) -> bool:
        """Whether the pieces in ``cell`` break the stacking limit."""
        if self.limit is None:
            return False
        units = [
            p if self.unit is None else self.unit(p) for p in self.pieces.occupants(state, cell)
        ]
        return self.limit(units) is not None

    def _stack(self, state: State, rec: ResultRecord) -> list[str]:
        """The retreating pieces, in their stack order (top first)."""
        live = set(self._live(state, rec, "defenders"))
        at = self._cell(rec.at)
        return [p for p in self.pieces.occupants(state, at) if p in live]

    def _ask_retreat(
        self, state: State, rec: ResultRecord, n: int, side: str, foe: str
    ) -> tuple[str, str, list[Action]] | None:
        stack, hooks = self._stack(state, rec) if n > 0 else [], self.hooks
        if not stack:  # nothing (left) to retreat
            self._pop(rec)
            return None
        if hooks.may_retreat is not None and not all(hooks.may_retreat(state, p) for p in stack):
            self._pop(rec, ("elim", 0) if self.retreat.forbidden == "eliminate" else ("dloss", 1))
            return None
        if hooks.retreat_cells is not None:
            firsts = sorted(hooks.retreat_cells(state, rec.at, tuple(stack)))
        else:
            firsts = sorted({self._label(p.cells[0]) for p in self._retreat_paths(state, rec, n)})
        if not firsts:
            penalty: Op = ("elim", 0) if self.retreat.cannot == "eliminate" else ("dloss", 1)
            self._pop(rec, penalty)
            return None
        chooser = foe if self.retreat.chooser == "owner" else side
        return chooser, "retreat", [Action("retreat", (c,)) for c in firsts]

    def _advance_moves(self, state: State, rec: ResultRecord) -> list[Action]:
        """``advance PIECE CELL`` for each attacker that may advance and each cell it may
        reach: the vacated cell, and along the retreat path with ``along_path``."""
        rules, side = self.advance, rec.side
        done = rec.advanced
        origin = self._cell(rec.cell)
        if any(self.pieces.side(state, p) != side for p in self.pieces.occupants(state, origin)):
            return []  # the defender held
        route = [origin]
        if rules.along_path:
            for label in rec.path:
                cell = self._cell(label)
                if any(
                    self.pieces.side(state, p) != side for p in self.pieces.occupants(state, cell)
                ):
                    break
                route.append(cell)
        out = []
        for piece in self._live(state, rec, "attackers"):
            if piece in done:
                continue
            here = self.pieces.where(state, piece)
            for depth, cell in enumerate(route):
                before = here if depth == 0 else route[depth - 1]
                if not self._may_step(state, piece, before, cell):
                    break
                there = self.pieces.occupants(state, cell)
                if self.limit is not None:
                    units = [p if self.unit is None else self.unit(p) for p in (*there, piece)]
                    if self.limit(units) is not None:
                        continue
                args = (piece, self._label(cell)) if self.forms.advance_cell else (piece,)
                out.append(Action("advance", args))
        return out

    def _may_step(self, state: State, piece: str, before: Any, cell: Any) -> bool:
        """Whether an advancing ``piece`` may go from ``before`` into ``cell``."""
        if self.hooks.may_advance is not None:
            return self.hooks.may_advance(state, piece, self._label(cell))
        if cell not in self.game_map.neighbors(before):
            return False
        mclass = self.advance.movement_class
        return not mclass or self.game_map.cost(before, cell, mclass) is not None

    def _ask_advance(
        self, state: State, rec: ResultRecord, side: str
    ) -> tuple[str, str, list[Action]] | None:
        rules = self.advance
        mode = rules.mode_after(rec.result)
        done = rec.advanced
        full = rules.units is not None and len(done) >= rules.units
        moves = [] if mode == "none" or full else self._advance_moves(state, rec)
        if not moves:
            self._pop(rec)
            return None
        if mode == "optional" or done:
            moves.append(self.forms.stop_action)
        return side, "advance", moves

    def _apply(self, state: State, rec: ResultRecord, op: Op, action: Action) -> None:
        """Carry out the answer ``action`` to the choice ``op`` asked for."""
        kind, n = op
        if kind in ("dloss", "aloss"):
            self._lose(state, rec, action.args[0], 1, defender=kind == "dloss")
            self._pop(rec, *(((kind, n - 1),) * (n > 1)))
        elif kind == "xch":
            for piece in action.args:
                if self.pieces.is_placed(state, piece):
                    self._lose(state, rec, piece, 1, defender=False)
            if self.exchange != "stepwise":  # stepwise: asked again until it is paid
                self._pop(rec)
        elif kind == "retreat":
            to = self._cell(action.args[0])
            foe = rec.foe
            penalty = zoc_penalty(
                self.pieces, state, self.game_map, to, foe, rules=self.retreat,
                unit=self.unit, exerts_zoc=self.exerts_zoc,
            )  # fmt: skip
            for piece in self._stack(state, rec):  # as a stack, top first; friends there stay
                self.pieces.move(state, piece, to)
            rec.at = action.args[0]
            rec.path = (*rec.path, action.args[0])
            rest: list[Op] = [("dloss", 1)] if penalty else []
            if n > 1:
                rest.append(("retreat", n - 1))
            elif self.retreat.until_free and self._stacked_over(state, to):
                rest.append(("retreat", 1))  # on through the friends (RetreatRules.until_free)
            self._pop(rec, *rest)
        elif kind == "advance":
            if action == self.forms.stop_action:
                self._pop(rec)
                return
            piece = action.args[0]
            label = action.args[1] if self.forms.advance_cell else rec.cell
            self.pieces.move(state, piece, self._cell(label))
            rec.advanced = (*rec.advanced, piece)
        else:  # pragma: no cover - only these ask
            raise AssertionError(op)
