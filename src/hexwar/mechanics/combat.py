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
4. **The result** (:class:`~hexwar.mechanics.crt.Result`) runs as a small program kept
   in a state table — eliminate, defender step losses, the exchange, attacker step
   losses, the retreat, the advance — each part asking its owner when there is a
   choice (a chained :class:`~hexwar.engine.actions.Decision`; a single choice is taken
   at once). The program is plain data, so save, load and undo work between any two
   decisions. Step losses go through :class:`~hexwar.mechanics.steps.StepCounters`; an
   exchange is paid by steps or by printed points
   (:func:`~hexwar.mechanics.steps.cheapest_cover`, the attacker choosing among the
   minimal covers); a retreat of N cells follows
   :class:`~hexwar.mechanics.retreat.RetreatRules`, one cell per decision; the advance
   after combat follows :class:`AdvanceRules`.

>>> from hexwar.board.maps import build_map, hexagon
>>> from hexwar.board.pieces import HEX_CODEC, Pieces
>>> from hexwar.board.terrain import chart_from_dict
>>> from hexwar.engine.sequencer import Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.grid.geometry import Hex
>>> from hexwar.mechanics.crt import OddsTable, Result
>>> from hexwar.mechanics.steps import StepCounters, StepTrack
>>> chart = chart_from_dict({"terrain": {"clear": {}, "forest": {}},
...     "movement": {"foot": {"terrain": {"clear": 1, "forest": 2}}}})
>>> board = build_map(chart, dict.fromkeys(hexagon(3), "clear") | {Hex(1, 0): "forest"})
>>> crt = OddsTable.build(columns=["1:1", "2:1", "3:1"], dice="d2",
...     rows={1: ["AL", "DR", "DR"], 2: ["DR", "DR", "DE"]},
...     results=[Result("AL", rank=-1, attacker_steps=1), Result("DR", rank=1, retreat=2),
...              Result("DE", rank=2, eliminated=True)])
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

from hexwar.base.errors import DataError, IllegalAction
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.board.stacking import StackingLimit
from hexwar.board.zoc import every_unit_exerts_zoc, zoc_cells
from hexwar.engine.actions import Action, Decision, Value, action_key
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.sequencer import Phase
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import State
from hexwar.mechanics.crt import AttackRefused, Distribution, OddsTable, Result
from hexwar.mechanics.retreat import RetreatRules, retreat_options
from hexwar.mechanics.steps import StepCounters, cheapest_cover

__all__ = [
    "ABOVE",
    "BELOW",
    "AdvanceRules",
    "Attack",
    "Combat",
    "HexsideShift",
    "Odds",
    "OddsRules",
]

#: What happens below the lowest column: ``"refuse"`` (no attack), ``"lowest"`` (fought
#: there), or any other text: the code of the table's result that applies without a roll.
BELOW: Final = ("refuse", "lowest")
#: What happens above the highest column: ``"highest"``, or an automatic result's code.
ABOVE: Final = ("highest",)
AdvanceMode = Literal["none", "optional", "obligatory"]
ADVANCE_MODES: Final = ("none", "optional", "obligatory")
Number = int | Fraction
#: The answers' action kinds (besides the declaration's ``attack`` / ``resolve``).
ANSWER_KINDS: Final = ("roll", "lose", "pay", "retreat", "advance", "stop")


@attrs.frozen
class HexsideShift:
    """A column shift for attacking across a hexside ``feature`` (after a bridge's
    negation): when ``"all"`` attackers cross it ("all across a river: -1") or ``"any"``."""

    feature: str
    shift: int
    when: Literal["all", "any"] = "all"

    def __attrs_post_init__(self) -> None:
        if self.when not in ("all", "any"):
            raise DataError(f"hexside shift {self.feature!r}: when {self.when!r}, not all/any")


def _shifts(value: Mapping[str, int]) -> Mapping[str, int]:
    return dict(value)


@attrs.frozen
class OddsRules:
    """The odds' shifts and edges as data: ``terrain`` (the defender's terrain ->
    column shift, "forest -1"), ``hexsides`` (:class:`HexsideShift`), ``below`` and
    ``above`` (:data:`BELOW`, :data:`ABOVE`), ``rule`` (cited by a refusal)."""

    terrain: Mapping[str, int] = attrs.field(factory=dict, converter=_shifts)
    hexsides: tuple[HexsideShift, ...] = attrs.field(default=(), converter=tuple)
    below: str = "refuse"
    above: str = "highest"
    rule: str | None = None


@attrs.frozen
class AdvanceRules:
    """Advance after combat into the vacated cell, as data.

    ``mode`` (``"none"``, ``"optional"``, ``"obligatory"``: one unit must advance when
    one can), overridden per result code by ``by_result``; ``units``: how many attackers
    may advance (``None``: any number within the stacking limit); ``along_path``: an
    advancing unit may follow the defender's retreat path (N > 1) instead of stopping in
    the vacated cell; ``movement_class``: each step must be legal for it on the map.
    """

    mode: AdvanceMode = "optional"
    by_result: Mapping[str, AdvanceMode] = attrs.field(factory=dict, converter=dict)
    units: int | None = 1
    along_path: bool = False
    movement_class: str | None = None

    def __attrs_post_init__(self) -> None:
        for code, mode in (("mode", self.mode), *self.by_result.items()):
            if mode not in ADVANCE_MODES:
                raise DataError(f"advance {code}: {mode!r}, expected one of {ADVANCE_MODES}")

    def mode_after(self, code: str) -> AdvanceMode:
        """The advance after result ``code``."""
        return self.by_result.get(code, self.mode)


@attrs.frozen
class Attack:
    """One attack, as the side-condition callables see it: the attacking ``side``, the
    defending ``cell`` (its label) and the attacking pieces."""

    side: str
    cell: str
    attackers: tuple[str, ...]


@attrs.frozen
class Odds:
    """An attack's odds: the strengths, the ``column`` fought on after ``shift`` columns
    (``None`` when refused or automatic), the ``automatic`` result's code, and whether
    the attack is ``refused``."""

    attack: Fraction
    defence: Fraction
    column: str | None
    shift: int
    automatic: str | None = None
    refused: bool = False


Op = tuple[str, int]


@attrs.frozen(eq=False)
class Combat:
    """The combat pipeline of one game (see the module docstring).

    ``pieces``: the position registry; ``counters``: the step counters (every piece
    that fights has a track; ``attack_value`` / ``defence_value`` name its printed
    strengths); ``game_map``; ``table``: the CRT. Data: ``odds_rules``, ``retreat``,
    ``advance``, ``exchange`` (``"steps"``: the attacker loses as many steps as the
    defender did; ``"points"``: at least the printed ``exchange_lost`` value the defender
    lost, in printed ``exchange_paid`` — default the defence and attack values), the
    result flag ``exchange_flag`` that calls for it, and ``resolution``.

    Callables (all optional): ``strength(state, piece, role)`` (role ``"attack"`` or
    ``"defend"``; default: the printed value through the ``combat_strength`` hook),
    ``may_attack(state, piece)``, ``shift(state, attack)`` (side conditions, added to the
    ``odds_shift`` hook), ``feasible`` (a monotone pruning of attacker groups, see
    :class:`~hexwar.engine.kinds.Combination`), ``limit`` (stacking, for retreats and
    advances), ``unit`` (ids -> what ``limit`` and ``exerts_zoc`` expect).

    ``name`` prefixes the state tables (``<name>`` the result in progress,
    ``<name>_attackers`` and ``<name>_defenders`` the phase's declarations) and the
    decision kinds (``<name>_roll``, ``_loss``, ``_pay``, ``_retreat``, ``_advance``).
    """

    pieces: Pieces[Any]
    counters: StepCounters
    game_map: GameMap[Any]
    table: OddsTable
    odds_rules: OddsRules = OddsRules()
    retreat: RetreatRules = attrs.field(factory=RetreatRules)
    advance: AdvanceRules = AdvanceRules()
    attack_value: str = "attack"
    defence_value: str = "defence"
    exchange: Literal["steps", "points"] = "steps"
    exchange_lost: str | None = None
    exchange_paid: str | None = None
    exchange_flag: str = "exchange"
    resolution: Literal["at_once", "chosen"] = "at_once"
    strength: Callable[[State, str, str], Number] | None = None
    may_attack: Callable[[State, str], bool] | None = None
    shift: Callable[[State, Attack], int] | None = None
    feasible: Callable[[State, str, tuple[str, ...], tuple[str, ...]], bool] | None = None
    limit: StackingLimit | None = None
    unit: Callable[[str], Any] | None = None
    exerts_zoc: Callable[[Any], bool] | None = None
    name: str = "combat"
    attack_kind: str = "attack"
    resolve_kind: str = "resolve"
    _kinds: Kinds[str] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        rules = self.odds_rules
        for edge, value, named in (("below", rules.below, BELOW), ("above", rules.above, ABOVE)):
            if value not in named and value not in self.table.results:
                raise DataError(
                    f"odds {edge} {value!r}: neither one of {named} nor a result code of "
                    f"{self.table.name!r} ({sorted(self.table.results)})"
                )
        if self.exchange not in ("steps", "points"):
            raise DataError(f"exchange {self.exchange!r}: expected 'steps' or 'points'")
        if self.resolution not in ("at_once", "chosen"):
            raise DataError(f"resolution {self.resolution!r}: expected 'at_once' or 'chosen'")
        object.__setattr__(self, "_kinds", self._build_kinds())

    # -- names ---------------------------------------------------------------------------

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
        """The kind of the decisions of ``part`` (``roll``, ``loss``, ``pay``, ``retreat``,
        ``advance``)."""
        return f"{self.name}_{part}"

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
        )
        kinds = [attack]
        if self.resolution == "chosen":
            declared = Values(
                self._declared, checked=True, means="a cell whose declared attack waits"
            )
            kinds.append(Kind(self.resolve_kind, (declared,)))
        return Kinds(tuple(kinds))

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
            assert isinstance(cell, str)
            assert isinstance(column, str)
            assert isinstance(modifier, int)
            result = self.table.result_at(column, decision.rolled(action), modifier=modifier)
            self._start(state, cell, result)
            return True
        if decision.kind in {self.decision_kind(k) for k in ("loss", "pay", "retreat", "advance")}:
            self._apply(state, self._program(state)[0], action)
            self._run(state)
            return True
        return False

    # -- declaration ---------------------------------------------------------------------

    def _cell(self, label: str) -> Any:
        return self.pieces.codec.cell_at(label)

    def _label(self, cell: Any) -> str:
        return self.pieces.codec.label(cell)

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
        cell = self._cell(fixed[0])
        if cell not in self.game_map:
            return []
        out = []
        for n in self.game_map.neighbors(cell):
            out += [p for p in self.pieces.occupants(state, n) if self.eligible(state, side, p)]
        return sorted(out)

    def _defender_cells(self, state: State, side: str, args: tuple[str, ...]) -> list[str]:
        """The cells of enemy stacks next to an eligible attacker, not attacked yet."""
        done = self._defenders(state)
        out = set()
        for cell, stack in self.pieces.positions(state).items():
            if any(self.pieces.side(state, p) == side for p in stack):
                continue
            label = self._label(cell)
            if label in done or cell not in self.game_map:
                continue
            if any(
                self.eligible(state, side, p)
                for n in self.game_map.neighbors(cell)
                for p in self.pieces.occupants(state, n)
            ):
                out.add(label)
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
            self._start(state, cell, self.table.results[odds.automatic])
            return
        assert odds.column is not None
        modifier = int(state.hook("die_modifier", 0, side=side, table=self.table.name))
        params: tuple[Value, ...] = (cell, odds.column, modifier)
        state.push(Decision.roll(self.decision_kind("roll"), self.table.dice, params=params))

    # -- odds ------------------------------------------------------------------------------

    def piece_strength(self, state: State, piece: str, role: str) -> Number:
        """A piece's strength as ``role`` (``"attack"`` / ``"defend"``)."""
        if self.strength is not None:
            return self.strength(state, piece, role)
        name = self.attack_value if role == "attack" else self.defence_value
        value: Number = state.hook(
            "combat_strength", self.counters.value(state, piece, name), unit=piece, role=role
        )
        return value

    def odds(self, state: State, side: str, cell: str, attackers: Sequence[str]) -> Odds:
        """The odds of ``attackers`` against the stack in ``cell`` (see the module
        docstring): the unshifted column (just below the lowest when the ratio is below
        the table's threshold; the highest against a defence of 0), plus the shifts."""
        attackers = tuple(attackers)
        where = self._cell(cell)
        attack = sum(
            (Fraction(self.piece_strength(state, p, "attack")) for p in attackers), Fraction(0)
        )
        defence = sum(
            (
                Fraction(self.piece_strength(state, p, "defend"))
                for p in self.pieces.occupants(state, where)
            ),
            Fraction(0),
        )
        last = len(self.table.columns) - 1
        if defence == 0:
            index = last
        else:
            try:
                index = self.table.column_index(self.table.column_for(attack, defence))
            except AttackRefused:
                index = -1
        shift = self._shift(state, Attack(side, cell, attackers), where)
        at, rules = index + shift, self.odds_rules
        if at < 0:
            if rules.below == "refuse":
                return Odds(attack, defence, None, shift, refused=True)
            if rules.below != "lowest":
                return Odds(attack, defence, None, shift, automatic=rules.below)
            at = 0
        elif at > last:
            if rules.above != "highest":
                return Odds(attack, defence, None, shift, automatic=rules.above)
            at = last
        return Odds(attack, defence, self.table.labels[at], shift)

    def _shift(self, state: State, attack: Attack, where: Any) -> int:
        game_map, rules = self.game_map, self.odds_rules
        shift = rules.terrain.get(game_map.terrain(where), 0)
        if rules.hexsides:
            crossed = [
                game_map.chart.active_features(game_map.hexside(self.pieces.where(state, p), where))
                for p in attack.attackers
            ]
            for h in rules.hexsides:
                hits = [h.feature in c for c in crossed]
                if (all(hits) if h.when == "all" else any(hits)) and hits:
                    shift += h.shift
        if self.shift is not None:
            shift += self.shift(state, attack)
        shift += int(state.hook("odds_shift", 0, attacker=attack.attackers, defender=attack.cell))
        return shift

    def distribution(
        self, state: State, side: str, cell: str, attackers: Sequence[str]
    ) -> Distribution:
        """The exact distribution of results of this attack now (with the die modifier)."""
        odds = self.odds(state, side, cell, attackers)
        if odds.refused:
            raise AttackRefused(f"attack on {cell}: refused", rule=self.odds_rules.rule)
        if odds.automatic is not None:
            return Distribution(((self.table.results[odds.automatic], Fraction(1)),))
        assert odds.column is not None
        modifier = int(state.hook("die_modifier", 0, side=side, table=self.table.name))
        return self.table.distribution_at(odds.column, modifier=modifier)

    # -- the result program ------------------------------------------------------------------

    def in_progress(self, state: State) -> bool:
        """Whether a combat result is being carried out (its decisions are pending)."""
        return state.get(self.name, "program") is not None

    def _get(self, state: State, key: str) -> Any:
        return state.get(self.name, key)

    def _program(self, state: State) -> tuple[Op, ...]:
        prog = state.get(self.name, "program")
        assert isinstance(prog, tuple)
        return prog  # type: ignore[return-value]

    def _set_program(self, state: State, *ops: Op) -> None:
        state.put(self.name, "program", tuple(ops))

    def _start(self, state: State, cell: str, result: Result) -> None:
        entry = state.get(self.defenders_table, cell)
        assert isinstance(entry, tuple)
        attackers = tuple(str(a) for a in entry[1:])
        where = self._cell(cell)
        defenders = self.pieces.occupants(state, where)
        ops: list[Op] = []
        if result.eliminated:
            ops.append(("elim", 0))
        if result.defender_steps:
            ops.append(("dloss", result.defender_steps))
        if result.has(self.exchange_flag):
            ops.append(("xch", 0))
        if result.attacker_steps:
            ops.append(("aloss", result.attacker_steps))
        if result.retreat:
            ops.append(("retreat", result.retreat))
        ops.append(("advance", 0))
        record: dict[str, Value] = {
            "cell": cell,
            "at": cell,
            "result": result.code,
            "side": self.pieces.side(state, attackers[0]),
            "foe": self.pieces.side(state, defenders[0]) if defenders else "",
            "attackers": attackers,
            "sources": tuple(self._label(self.pieces.where(state, a)) for a in attackers),
            "defenders": defenders,
            "lost": 0,
            "dsteps": 0,
            "path": (),
            "advanced": (),
        }
        for key, value in record.items():
            state.put(self.name, key, value)
        self._set_program(state, *ops)
        self._run(state)

    def _finish(self, state: State) -> None:
        for key in sorted(state.table(self.name)):
            state.delete(self.name, key)

    def _live(self, state: State, role: str) -> list[str]:
        """The defenders still in the defending stack, or the attackers still on the map."""
        if role == "attackers":
            return sorted(
                p for p in self._get(state, "attackers") if self.pieces.is_placed(state, p)
            )
        at = self._cell(self._get(state, "at"))
        return sorted(
            p
            for p in self._get(state, "defenders")
            if self.pieces.is_placed(state, p) and self.pieces.where(state, p) == at
        )

    def _run(self, state: State) -> None:
        """Carry out the program until a part needs a choice (pushed) or it is done."""
        while True:
            prog = self._program(state)
            if not prog:
                self._finish(state)
                return
            op = prog[0]
            asked = self._ask(state, op)
            if asked is None:
                continue
            side, part, choices = asked
            if len(choices) == 1:
                self._apply(state, op, choices[0])
                continue
            ordered = tuple(sorted(choices, key=action_key))
            state.push(Decision(self.decision_kind(part), side, (op[0], op[1]), choices=ordered))
            return

    def _pop(self, state: State, *instead: Op) -> None:
        self._set_program(state, *instead, *self._program(state)[1:])

    def _ask(self, state: State, op: Op) -> tuple[str, str, list[Action]] | None:
        """The choice ``op`` needs now (side, decision part, answers), or ``None`` after
        carrying out (or skipping) what needs no choice."""
        kind, n = op
        side, foe = self._get(state, "side"), self._get(state, "foe")
        if kind == "elim":
            for piece in self._live(state, "defenders"):
                self._lose(state, piece, len(self.counters.track(piece)), defender=True)
            self._pop(state)
            return None
        if kind in ("dloss", "aloss"):
            live = self._live(state, "defenders" if kind == "dloss" else "attackers")
            if n <= 0 or not live:
                self._pop(state)
                return None
            return (foe if kind == "dloss" else side), "loss", [Action("lose", (p,)) for p in live]
        if kind == "xch":
            return self._ask_exchange(state, side)
        if kind == "retreat":
            return self._ask_retreat(state, n, side, foe)
        if kind == "advance":
            return self._ask_advance(state, side)
        raise AssertionError(op)  # pragma: no cover - the program holds only these

    def _lose(self, state: State, piece: str, steps: int, *, defender: bool) -> None:
        loss = self.counters.lose(state, piece, steps)
        if loss.eliminated and self.pieces.is_placed(state, piece):
            self.pieces.remove(state, piece)
        if defender:
            lost = self.exchange_lost or self.defence_value
            state.put(self.name, "lost", self._get(state, "lost") + loss.printed(lost))
            state.put(self.name, "dsteps", self._get(state, "dsteps") + loss.steps)

    def _ask_exchange(self, state: State, side: str) -> tuple[str, str, list[Action]] | None:
        live = self._live(state, "attackers")
        if self.exchange == "steps":
            self._pop(state, *((("aloss", self._get(state, "dsteps")),) * bool(live)))
            return None
        owed = self._get(state, "lost")
        if owed <= 0 or not live:
            self._pop(state)
            return None
        paid = self.exchange_paid or self.attack_value
        covers = cheapest_cover(self.counters, state, live, owed, paid)
        return side, "pay", [Action("pay", way) for way in covers]

    def _enemy_zoc(self, state: State, foe: str) -> frozenset[Any]:
        _, enemies = self.pieces.friends_enemies(state, foe, unit=self.unit)
        if not enemies:
            return frozenset()
        return zoc_cells(self.game_map, enemies, self.exerts_zoc or every_unit_exerts_zoc)

    def _retreat_paths(self, state: State, n: int) -> list[Any]:
        at = self._cell(self._get(state, "at"))
        passed = tuple(self._cell(c) for c in self._get(state, "path"))
        return retreat_options(
            self.pieces, state, self.game_map, at, n, rules=self.retreat, limit=self.limit,
            unit=self.unit, exerts_zoc=self.exerts_zoc,
            attackers=[self._cell(c) for c in self._get(state, "sources")],
            origin=self._cell(self._get(state, "cell")), passed=passed,
            movers=self._stack(state),
        )  # fmt: skip

    def _stack(self, state: State) -> list[str]:
        """The retreating pieces, in their stack order (top first)."""
        live = set(self._live(state, "defenders"))
        at = self._cell(self._get(state, "at"))
        return [p for p in self.pieces.occupants(state, at) if p in live]

    def _ask_retreat(
        self, state: State, n: int, side: str, foe: str
    ) -> tuple[str, str, list[Action]] | None:
        if n <= 0 or not self._live(state, "defenders"):
            self._pop(state)
            return None
        paths = self._retreat_paths(state, n)
        if not paths:
            penalty: Op = ("elim", 0) if self.retreat.cannot == "eliminate" else ("dloss", 1)
            self._pop(state, penalty)
            return None
        firsts = sorted({self._label(p.cells[0]) for p in paths})
        chooser = foe if self.retreat.chooser == "owner" else side
        return chooser, "retreat", [Action("retreat", (c,)) for c in firsts]

    def _advance_moves(self, state: State) -> list[Action]:
        """``advance PIECE CELL`` for each attacker that may advance and each cell it may
        reach: the vacated cell, and along the retreat path with ``along_path``."""
        rules, side = self.advance, self._get(state, "side")
        done = self._get(state, "advanced")
        origin = self._cell(self._get(state, "cell"))
        if any(self.pieces.side(state, p) != side for p in self.pieces.occupants(state, origin)):
            return []  # the defender held
        route = [origin]
        if rules.along_path:
            for label in self._get(state, "path"):
                cell = self._cell(label)
                if any(
                    self.pieces.side(state, p) != side for p in self.pieces.occupants(state, cell)
                ):
                    break
                route.append(cell)
        out = []
        for piece in self._live(state, "attackers"):
            if piece in done:
                continue
            here = self.pieces.where(state, piece)
            for depth, cell in enumerate(route):
                before = here if depth == 0 else route[depth - 1]
                if cell not in self.game_map.neighbors(before):
                    break
                if (
                    rules.movement_class
                    and self.game_map.cost(before, cell, rules.movement_class) is None
                ):
                    break
                there = self.pieces.occupants(state, cell)
                if self.limit is not None:
                    units = [p if self.unit is None else self.unit(p) for p in (*there, piece)]
                    if self.limit(units) is not None:
                        continue
                out.append(Action("advance", (piece, self._label(cell))))
        return out

    def _ask_advance(self, state: State, side: str) -> tuple[str, str, list[Action]] | None:
        rules = self.advance
        mode = rules.mode_after(self._get(state, "result"))
        done = self._get(state, "advanced")
        full = rules.units is not None and len(done) >= rules.units
        moves = [] if mode == "none" or full else self._advance_moves(state)
        if not moves:
            self._pop(state)
            return None
        if mode == "optional" or done:
            moves.append(Action("stop"))
        return side, "advance", moves

    def _apply(self, state: State, op: Op, action: Action) -> None:
        """Carry out the answer ``action`` to the choice ``op`` asked for."""
        kind, n = op
        if kind in ("dloss", "aloss"):
            self._lose(state, action.args[0], 1, defender=kind == "dloss")
            self._pop(state, *(((kind, n - 1),) * (n > 1)))
        elif kind == "xch":
            for piece in action.args:
                if self.pieces.is_placed(state, piece):
                    self._lose(state, piece, 1, defender=False)
            self._pop(state)
        elif kind == "retreat":
            to = self._cell(action.args[0])
            foe = self._get(state, "foe")
            penalty = self.retreat.enemy_zoc == "step" and to in self._enemy_zoc(state, foe)
            if penalty and self.retreat.friends_negate_zoc:
                penalty = not any(
                    self.pieces.side(state, p) == foe for p in self.pieces.occupants(state, to)
                )
            for piece in self._stack(state):  # as a stack, top first; friends there stay
                self.pieces.move(state, piece, to)
            state.put(self.name, "at", action.args[0])
            state.put(self.name, "path", (*self._get(state, "path"), action.args[0]))
            rest: list[Op] = [("dloss", 1)] if penalty else []
            if n > 1:
                rest.append(("retreat", n - 1))
            self._pop(state, *rest)
        elif kind == "advance":
            if action.kind == "stop":
                self._pop(state)
                return
            piece, label = action.args
            self.pieces.move(state, piece, self._cell(label))
            state.put(self.name, "advanced", (*self._get(state, "advanced"), piece))
        else:  # pragma: no cover - only these ask
            raise AssertionError(op)
