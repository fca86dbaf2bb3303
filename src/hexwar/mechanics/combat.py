"""The combat pipeline: declare attacks, find the odds, roll, and carry out the result.

What nearly every hex-and-counter game does in its combat phase, as data plus a few
callables, usable by any game alone (:class:`Combat`):

1. **Declaration.** ``attack CELL A1 A2 ...``: several attackers against the stack in
   one cell; each attacking piece and each defending cell once per phase (the tables
   are the phase's ``scratch``: :meth:`Combat.phase`). The attacker groups are a
   :class:`~hexwar.engine.kinds.Combination`, so legality is known token by token.
   ``resolution="at_once"`` rolls at once; ``"chosen"`` records the declarations and
   the attacker resolves them later, in the order he picks (``resolve CELL``); no
   declaration follows the first resolution, and the phase may not end while one is
   left (:meth:`Combat.may_end`).
2. **Odds** (:meth:`Combat.odds`): attack ÷ defence on an
   :class:`~hexwar.mechanics.crt.OddsTable`, then column shifts summed from data
   (:class:`OddsRules`: the defender's terrain, hexside features crossed by all or by
   any attacker) and from side conditions (a callable, and the ``odds_shift`` hook);
   below the lowest column the attack is refused, fought on the lowest column or gets
   an automatic result, above the highest it is fought there or gets an automatic
   result — all by data.
3. **The roll** is a chance event (``roll N``), with the ``die_modifier`` hook.
4. **The result** (:class:`~hexwar.mechanics.crt_values.CombatResult`) runs as a small
   program kept in a state table (:mod:`hexwar.mechanics.combat_result`: losses through
   :class:`~hexwar.mechanics.steps.StepCounters`, the exchange by steps or printed
   points, N-cell retreats under :class:`~hexwar.mechanics.retreat.RetreatRules`, the
   advance under :class:`AdvanceRules`), each part asking its owner when there is a
   choice (a chained :class:`~hexwar.engine.actions.Decision`; a single choice is taken
   at once); save, load and undo work between any two decisions.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.board.terrain import chart_from_dict
>>> from hexwar.engine.sequencer import Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> from hexwar.mechanics.crt import OddsTable
>>> from hexwar.mechanics.crt_values import CombatResult
>>> from hexwar.mechanics.steps import StepCounters, StepTrack
>>> chart = chart_from_dict({"terrain": {"clear": {}, "forest": {}},
...     "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}}}})
>>> board = build_map(chart, dict.fromkeys(hexagon(3), "clear") | {Hex(1, 0): "forest"})
>>> crt = OddsTable.build(columns=["1:1", "2:1", "3:1"], dice="d2",
...     rows={1: ["AL", "DR", "DR"], 2: ["DR", "DR", "DE"]},
...     results=[CombatResult("AL", rank=-1, attacker_steps=1),
...              CombatResult("DR", rank=1, retreat=2),
...              CombatResult("DE", rank=2, eliminated=True)])
>>> reg = Pieces(HEX_CODEC)
>>> track = StepTrack.of({"attack": 4, "defence": 2}, {"attack": 2, "defence": 1})
>>> counters = StepCounters(dict.fromkeys(["r1", "r2", "b1"], track), pieces=reg)
>>> combat = Combat(reg, counters, board, crt, odds_rules=OddsRules(terrain={"forest": -1}))
>>> class Game(Ruleset):
...     sides = ("red", "blue")
...     sequence = TurnSequence((Stage("p", (combat.phase("fight", "red", end_when_idle=False),)),))
...     def setup(self, state, scenario, options):
...         for piece, cell, side in (("r1", Hex(0, 0), "red"), ("r2", Hex(2, -1), "red"),
...                                   ("b1", Hex(1, 0), "blue")):
...             reg.place(state, piece, cell, side)
...     def phase_tokens(self, state, side, prefix):
...         return combat.tokens(state, side, prefix)
...     def play(self, state, action):
...         combat.play(state, action)
...     def decide(self, state, decision, action):
...         combat.decide(state, decision, action)
>>> state = Game().new_state()
>>> [str(a) for a in state.legal_actions()]
['attack 1,0 r1', 'attack 1,0 r1 r2', 'attack 1,0 r2', 'end']
>>> odds = combat.odds(state, "red", "1,0", ("r1", "r2"))  # 8:2 is 3:1 (the top), forest -1
>>> odds.attack, odds.defence, odds.column, odds.shift
(Fraction(8, 1), Fraction(2, 1), '2:1', -1)
>>> state.apply("attack 1,0 r1 r2"); state.apply("roll 1")     # DR: retreat 2 cells
>>> reg.where(state, "b1"), state.current_player(), [str(a) for a in state.legal_actions()]
(Hex(q=1, r=1), 'blue', ['retreat 0,2', 'retreat 1,2', 'retreat 2,1'])

Only ``Hex(1, 1)`` was out of the red ZOC, so the first cell was taken at once; the
defender picks the second. The attacker may then advance one unit into the vacated
cell (``stop``: he does not):

>>> state.apply("retreat 1,2")
>>> [str(a) for a in state.legal_actions()]
['advance r1 1,0', 'advance r2 1,0', 'stop']
>>> state.apply("advance r2 1,0")
>>> reg.where(state, "r2"), combat.in_progress(state), state.phase
(Hex(q=1, r=0), False, 'fight')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Literal

import attrs

from hexwar.base.datafile import record_from
from hexwar.base.errors import AttackRefused, DataError, IllegalAction
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.board.stacking import ONE_PER_CELL, StackingLimit
from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.kinds import Combination, DecisionKind, Kind, Kinds, Values
from hexwar.engine.sequencer import Phase
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import State
from hexwar.mechanics.combat_result import ResultProgram
from hexwar.mechanics.combat_rules import (
    ABOVE,
    BELOW,
    PARTS,
    AdvanceRules,
    Attack,
    AttackOdds,
    HexsideShift,
    Odds,
    OddsRules,
    ResultForms,
    ResultHooks,
)
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.retreat import RetreatRules
from hexwar.mechanics.steps import StepCounters

__all__ = [
    "ABOVE",
    "BELOW",
    "AdvanceRules",
    "Attack",
    "Combat",
    "HexsideShift",
    "Odds",
    "OddsRules",
    "ResultForms",
    "ResultHooks",
]

Number = int | Fraction
#: The answers' action kinds (besides the declaration's ``attack`` / ``resolve``).
ANSWER_KINDS: Final = ("roll", "lose", "pay", "retreat", "advance", "stop")
EXCHANGES: Final = ("steps", "points", "stepwise")


def _odds_rules(value: OddsRules | Mapping[str, Any]) -> OddsRules:
    return record_from(OddsRules, value, "odds_rules")


def _retreat(value: RetreatRules | Mapping[str, Any]) -> RetreatRules:
    return record_from(RetreatRules, value, "retreat")


def _advance(value: AdvanceRules | Mapping[str, Any]) -> AdvanceRules:
    return record_from(AdvanceRules, value, "advance")


def _forms(value: ResultForms | Mapping[str, Any]) -> ResultForms:
    return record_from(ResultForms, value, "forms")


def _hooks(value: ResultHooks | Mapping[str, Any]) -> ResultHooks:
    return record_from(ResultHooks, value, "hooks")


@attrs.frozen(eq=False)
class Combat(ResultProgram, AttackOdds):
    """The combat pipeline of one game (see the module docstring).

    ``pieces``: the position registry; ``counters``: the step counters (every piece
    that fights has a track; ``attack_value`` / ``defence_value`` name its printed
    strengths); ``game_map``; ``table``: the CRT. Data: ``odds_rules``, ``retreat``,
    ``advance`` (each its class or a mapping of its fields), ``exchange`` (``"steps"``:
    the attacker loses as many steps as the defender did; ``"points"``: at least the
    printed ``exchange_lost`` value the defender lost, in printed ``exchange_paid`` —
    default the defence and attack values —, the attacker choosing a minimal cover;
    ``"stepwise"``: the same, one step at a time), the result flag ``exchange_flag`` that
    calls for it, ``resolution``, and how results ask and answer (``forms``:
    :class:`ResultForms`, ``hooks``: :class:`ResultHooks`, each also as a mapping of its
    fields).

    Callables (all optional): ``strength(state, piece, role)`` (role ``"attack"`` or
    ``"defend"``; default: the printed value through the ``combat_strength`` hook),
    ``may_attack(state, piece)``, ``shift(state, attack)`` (side conditions, added to the
    ``odds_shift`` hook), ``feasible`` (a monotone pruning of attacker groups, see
    :class:`~hexwar.engine.kinds.Combination`), ``limit`` (stacking, for retreats and
    advances; default :data:`~hexwar.board.stacking.ONE_PER_CELL`, as movement; ``None``:
    no limit), ``unit`` (ids -> what ``limit`` and ``exerts_zoc`` expect).

    ``name`` prefixes the state tables (``<name>`` the result in progress,
    ``<name>_attackers`` and ``<name>_defenders`` the phase's declarations) and the
    decision kinds (``<name>_roll``, ``_loss``, ``_pay``, ``_retreat``, ``_advance``).
    """

    pieces: Pieces[Any]
    counters: StepCounters
    game_map: GameMap[Any]
    table: OddsTable
    odds_rules: OddsRules = attrs.field(factory=OddsRules, converter=_odds_rules)
    retreat: RetreatRules = attrs.field(factory=RetreatRules, converter=_retreat)
    advance: AdvanceRules = attrs.field(factory=AdvanceRules, converter=_advance)
    attack_value: str = "attack"
    defence_value: str = "defence"
    exchange: Literal["steps", "points", "stepwise"] = "steps"
    exchange_lost: str | None = None
    exchange_paid: str | None = None
    exchange_flag: str = "exchange"
    resolution: Literal["at_once", "chosen"] = "at_once"
    strength: Callable[[State, str, str], Number] | None = None
    may_attack: Callable[[State, str], bool] | None = None
    shift: Callable[[State, Attack], int] | None = None
    feasible: Callable[[State, str, tuple[str, ...], tuple[str, ...]], bool] | None = None
    limit: StackingLimit | None = ONE_PER_CELL
    unit: Callable[[str], Any] | None = None
    exerts_zoc: Callable[[Any], bool] | None = None
    name: str = "combat"
    forms: ResultForms = attrs.field(factory=ResultForms, converter=_forms)
    hooks: ResultHooks = attrs.field(factory=ResultHooks, converter=_hooks)
    attack_kind: str = "attack"
    resolve_kind: str = "resolve"
    _kinds: Kinds[str] = attrs.field(init=False, repr=False)
    _answered: frozenset[str] = attrs.field(init=False, repr=False)  # the parts' decision kinds

    def __attrs_post_init__(self) -> None:
        self.odds_rules.check(self.table)
        if self.exchange not in EXCHANGES:
            raise DataError(f"exchange {self.exchange!r}: expected one of {EXCHANGES}")
        if self.resolution not in ("at_once", "chosen"):
            raise DataError(f"resolution {self.resolution!r}: expected 'at_once' or 'chosen'")
        object.__setattr__(self, "_kinds", self._build_kinds())
        object.__setattr__(self, "_answered", frozenset(map(self.decision_kind, PARTS)))

    # -- wiring into a ruleset -------------------------------------------------------------

    def phase(self, name: str, side: str | Callable[[State], str], **options: Any) -> Phase:
        """A combat phase for ``side``: the declaration tables as its ``scratch`` and, with
        ``resolution="chosen"``, no end while a declared attack is unresolved."""
        scratch = (*self.scratch, *options.pop("scratch", ()))
        if self.resolution == "chosen" and "may_end" not in options:
            options["may_end"] = self.may_end
        return Phase(name, side=side, scratch=scratch, **options)

    def may_end(self, state: State) -> bool:
        """Whether no declared attack waits to be resolved (and none is under way)."""
        return not self.declared(state) and not self.in_progress(state)

    @property
    def kinds(self) -> Kinds[str]:
        """The declaration kinds, ``attack`` (and ``resolve``) — merge them into the
        phase's :class:`~hexwar.engine.kinds.Kinds`."""
        return self._kinds

    def _build_kinds(self) -> Kinds[str]:
        attack: Kind[str] = Kind(
            self.attack_kind,
            (
                Values(self._defender_cells, means="a cell of enemy units you may attack now"),
                Combination(
                    self._attackers_of,
                    valid=self._valid,
                    feasible=self.feasible,
                    means="a unit of yours next to it that has not attacked this phase, "
                    "in sorted order, in a group the odds allow",
                ),
            ),
            when=self._may_declare,
            does=self._play,
        )
        kinds = [attack]
        if self.resolution == "chosen":
            declared = Values(self._declared, means="a cell whose declared attack waits")
            kinds.append(Kind(self.resolve_kind, (declared,), does=self._play))
        return Kinds(tuple(kinds))

    def _play(self, state: State, action: Action) -> None:
        self.play(state, action)

    def _decide(self, state: State, decision: Decision, action: Action) -> None:
        self.decide(state, decision, action)

    @property
    def decision_kinds(self) -> tuple[DecisionKind, ...]:
        """The pipeline's decisions (the roll, then the answers), for
        ``Ruleset.decision_kinds``: each answered by :meth:`decide`."""
        names = (self.decision_kind("roll"), *sorted(self._answered))
        return tuple(DecisionKind(n, does=self._decide) for n in names)

    def meaning(self, prefix: tuple[str, ...]) -> str | None:
        """What the token after ``prefix`` stands for (``Ruleset.step_meaning``)."""
        return self.kinds.meaning(prefix)

    def tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        """``Ruleset.phase_tokens`` for a phase with only the combat's kinds."""
        return self.kinds.tokens(state, side, prefix)

    def action_space(self, pieces: Iterable[str], cells: Iterable[str]) -> ActionSpace:
        """The tokens of the pipeline: its kinds, the ``pieces`` ids, the cell labels,
        the die totals (merge with the game's space: :meth:`ActionSpace.merged`)."""
        kinds = (self.attack_kind, *((self.resolve_kind,) * (self.resolution == "chosen")))
        return ActionSpace.of(
            (*kinds, *ANSWER_KINDS),
            piece=sorted(pieces),
            cell=sorted(cells),
            roll=[n for n, _ in self.table.dice.outcomes()],
        )

    def play(self, state: State, action: Action) -> bool:
        """Carry out ``attack`` / ``resolve`` (``Ruleset.play``); ``False`` for other kinds."""
        if action.kind == self.attack_kind:
            side = state.current_player()
            cell, *attackers = action.args
            self.declare(state, side, cell, tuple(attackers))
            return True
        if action.kind == self.resolve_kind and self.resolution == "chosen":
            self.resolve(state, action.args[0])
            return True
        return False

    def decide(self, state: State, decision: Decision, action: Action) -> bool:
        """Carry out an answer to one of the pipeline's decisions (``Ruleset.decide``);
        ``False`` when ``decision`` is not one of them."""
        if decision.kind == self.decision_kind("roll"):
            cell, column, modifier = decision.params
            assert isinstance(modifier, int)
            result = self.table.result_at(str(column), decision.rolled(action), modifier=modifier)
            entry = state.get(self.defenders_table, str(cell))
            self.execute(state, str(cell), tuple(str(a) for a in entry[1:]), result)  # type: ignore[index]
            return True
        if decision.kind in self._answered:
            self._answer(state, action)
            return True
        return False

    # -- declaration ---------------------------------------------------------------------

    def _may_declare(self, state: State, side: str) -> bool:
        if self.in_progress(state):
            return False
        if self.resolution == "chosen":
            return not any(v[0] == "resolved" for v in self._defenders(state).values())  # type: ignore[index]
        return True

    def _defenders(self, state: State) -> Mapping[str, Value]:
        return state.table(self.defenders_table)

    def declared(self, state: State) -> list[str]:
        """The cells whose declared attack waits to be resolved (``"chosen"``), sorted."""
        return sorted(c for c, v in self._defenders(state).items() if v[0] == "declared")  # type: ignore[index]

    def _declared(self, state: State, side: str, args: tuple[str, ...]) -> list[str]:
        return [] if self.in_progress(state) else self.declared(state)

    def eligible(self, state: State, side: str, piece: str) -> bool:
        """Whether ``piece`` of ``side`` may still attack this phase."""
        return (
            self.pieces.is_placed(state, piece)
            and self.pieces.side(state, piece) == side
            and state.get(self.attackers_table, piece) is None
            and (self.may_attack is None or self.may_attack(state, piece))
        )

    def _attackers_of(self, state: State, side: str, fixed: tuple[str, ...]) -> list[str]:
        """The pieces that may attack the cell ``fixed[0]``, sorted."""
        at, eligible = self.pieces.occupied(state), self.eligible
        out = []
        for n in self.pieces.adjacent(self.game_map).get(fixed[0], ()):
            out += [p for p in at.get(n, ()) if eligible(state, side, p)]
        return sorted(out)

    def _defender_cells(self, state: State, side: str, args: tuple[str, ...]) -> list[str]:
        """The cells of enemy stacks next to an eligible attacker, not attacked yet: found
        from the side's eligible pieces and their neighbours (the pieces, not the map)."""
        done, pieces = self._defenders(state), self.pieces
        entries, at, near = (
            pieces.entries(state),
            pieces.occupied(state),
            pieces.adjacent(self.game_map),
        )
        out = set()
        for piece, (label, owner) in entries.items():
            if owner != side or not self.eligible(state, side, piece):
                continue
            for n in near.get(label, ()):  # a label off the map has no neighbours
                stack = at.get(n)
                if not stack or n in done or n in out:
                    continue
                if all(entries[p][1] != side for p in stack):
                    out.add(n)
        return sorted(out)

    def _valid(
        self, state: State, side: str, fixed: tuple[str, ...], group: tuple[str, ...]
    ) -> bool:
        return not self.odds(state, side, fixed[0], group).refused

    def declare(self, state: State, side: str, cell: str, attackers: Sequence[str]) -> None:
        """Declare the attack of ``attackers`` on the stack in ``cell`` (a label); with
        ``resolution="at_once"`` resolve it now. Checked: :class:`AttackRefused` when the
        odds refuse it, :class:`IllegalAction` for a piece that may not attack it."""
        attackers = tuple(attackers)
        if cell in self._defenders(state):
            raise IllegalAction(f"{cell} has already been attacked this phase")
        allowed = set(self._attackers_of(state, side, (cell,)))
        for piece in attackers:
            if piece not in allowed:
                raise IllegalAction(f"{piece} may not attack {cell} now")
        odds = self.odds(state, side, cell, attackers)
        if odds.refused:
            raise AttackRefused(
                f"attack on {cell}: odds {odds.attack}:{odds.defence} are below the lowest "
                f"column of {self.table.name!r}",
                rule=self.odds_rules.rule or self.table.rule,
            )
        for piece in attackers:
            state.put(self.attackers_table, piece, cell)
        state.put(self.defenders_table, cell, ("declared", *attackers))
        if self.resolution == "at_once":
            self.resolve(state, cell)

    def resolve(self, state: State, cell: str) -> None:
        """Resolve the declared attack on ``cell``: the roll (a chance event), or the
        automatic result. Odds are taken now (an attack the odds now refuse is called
        off)."""
        entry = state.get(self.defenders_table, cell)
        if not isinstance(entry, tuple) or entry[0] != "declared":
            raise IllegalAction(f"no declared attack on {cell} waits to be resolved")
        attackers = tuple(str(a) for a in entry[1:])
        state.put(self.defenders_table, cell, ("resolved", *attackers))
        live = tuple(a for a in attackers if self.pieces.is_placed(state, a))
        if not live or not self.pieces.occupants(state, self._cell(cell)):
            return  # nobody left to fight: called off
        side = self.pieces.side(state, live[0])
        odds = self.odds(state, side, cell, live)
        if odds.refused:
            return
        if odds.automatic is not None:
            self.execute(state, cell, attackers, self.table.results[odds.automatic])
            return
        assert odds.column is not None
        modifier = int(state.hook("die_modifier", 0, side=side, table=self.table.name))
        params: tuple[Value, ...] = (cell, odds.column, modifier)
        state.push(Decision.roll(self.decision_kind("roll"), self.table.dice, params=params))
