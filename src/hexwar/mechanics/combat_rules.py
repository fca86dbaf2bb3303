"""The data of the combat pipeline (:mod:`hexwar.mechanics.combat`): odds shifts and
their edges, the advance after combat, and the odds an attack gets.

>>> from hexwar.mechanics.crt import OddsTable
>>> from hexwar.mechanics.crt_values import CombatResult
>>> crt = OddsTable.build(columns=["1:1", "2:1"], rows={1: ["NE", "NE"]}, dice="d1",
...                       results=[CombatResult("NE"), CombatResult("AE", rank=-1)])
>>> place_column(crt, OddsRules(below="AE"), 0, -1, Fraction(1), Fraction(1)).automatic
'AE'
>>> place_column(crt, OddsRules(), 1, +3, Fraction(2), Fraction(1)).column   # "highest"
'2:1'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any, Final, Literal

import attrs

from hexwar.base.datafile import record_from
from hexwar.base.errors import AttackRefused, DataError
from hexwar.board.maps import GameMap
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action
from hexwar.engine.state import State
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_values import Distribution
from hexwar.mechanics.steps import StepCounters

__all__ = [
    "ABOVE",
    "ADVANCE_MODES",
    "BELOW",
    "PARTS",
    "AdvanceMode",
    "AdvanceRules",
    "Attack",
    "AttackOdds",
    "GroupNeed",
    "HexsideShift",
    "Odds",
    "OddsRules",
    "ResultForms",
    "ResultHooks",
    "hexside_shift",
    "place_column",
]

#: What happens below the lowest column: ``"refuse"`` (no attack), ``"lowest"`` (fought
#: there), or any other text: the code of the table's result that applies without a roll.
BELOW: Final = ("refuse", "lowest")
#: What happens above the highest column: ``"highest"``, or an automatic result's code.
ABOVE: Final = ("highest",)
AdvanceMode = Literal["none", "optional", "obligatory"]
ADVANCE_MODES: Final = ("none", "optional", "obligatory")


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


def _side_shifts(value: Mapping[str, Mapping[str, int]]) -> Mapping[str, Mapping[str, int]]:
    return {side: dict(shifts) for side, shifts in value.items()}


def _modes(value: Mapping[str, AdvanceMode]) -> Mapping[str, AdvanceMode]:
    return dict(value)


def _spelling(value: Mapping[str, str]) -> Mapping[str, str]:
    return dict(value)


def _names(value: Iterable[str]) -> frozenset[str]:
    return frozenset(value)


def _hexside_shifts(
    value: Iterable[HexsideShift | Mapping[str, Any]],
) -> tuple[HexsideShift, ...]:
    return tuple(record_from(HexsideShift, v, "hexsides") for v in value)


@attrs.frozen
class OddsRules:
    """The odds' shifts and edges as data: ``terrain`` (the defender's terrain ->
    column shift, "forest -1"), ``side_terrain`` (the defending side -> its own terrain
    shifts, added to ``terrain``: "Soviet units in a city -1"), ``tags`` (a tag of the
    defender's cell -> shift, every matching tag counts: "Moscow -2"), ``hexsides``
    (:class:`HexsideShift`, or its fields as a mapping), ``below`` and ``above``
    (:data:`BELOW`, :data:`ABOVE`), ``rule`` (cited by a refusal)."""

    terrain: Mapping[str, int] = attrs.field(factory=dict, converter=_shifts)
    side_terrain: Mapping[str, Mapping[str, int]] = attrs.field(
        factory=dict, converter=_side_shifts
    )
    tags: Mapping[str, int] = attrs.field(factory=dict, converter=_shifts)
    hexsides: tuple[HexsideShift, ...] = attrs.field(default=(), converter=_hexside_shifts)
    below: str = "refuse"
    above: str = "highest"
    rule: str | None = None

    def check(self, table: OddsTable) -> None:
        """:class:`DataError` unless ``below`` and ``above`` are edges or ``table``'s codes."""
        for edge, value, named in (("below", self.below, BELOW), ("above", self.above, ABOVE)):
            if value not in named and value not in table.results:
                raise DataError(
                    f"odds {edge} {value!r}: neither one of {named} nor a result code of "
                    f"{table.name!r} ({sorted(table.results)})"
                )


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
    by_result: Mapping[str, AdvanceMode] = attrs.field(factory=dict, converter=_modes)
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


#: The parts of a result that may ask for a choice (their decision kinds default to
#: ``<name>_loss`` for both step losses, ``<name>_pay``, ``<name>_retreat``, ``<name>_advance``).
PARTS: Final = ("dloss", "aloss", "pay", "retreat", "advance")


@attrs.frozen
class ResultForms:
    """How a game's combat results ask and answer, as data.

    ``kinds``: part (:data:`PARTS`) -> the decision kind a game's records and bots know;
    ``lose``: the answer kind of a step loss (``lose PIECE``; a step-by-step exchange too);
    ``stop``: the answer that declines an advance (kind and arguments, e.g.
    ``("advance", "none")``); ``advance_cell``: ``advance PIECE CELL``, or ``advance
    PIECE`` when only the vacated cell may be entered; ``always_ask``: the parts asked even
    with a single answer (the record shows the choice); ``attacker_loss_by``: who picks the
    attacker's step losses; ``exchange_codes``: result codes that call for the exchange
    besides the exchange flag (an exchange result's attacker steps are the exchange).
    """

    kinds: Mapping[str, str] = attrs.field(factory=dict, converter=_spelling)
    lose: str = "lose"
    stop: tuple[str, ...] = ("stop",)
    advance_cell: bool = True
    always_ask: frozenset[str] = attrs.field(default=frozenset(), converter=_names)
    attacker_loss_by: Literal["attacker", "defender"] = "attacker"
    exchange_codes: frozenset[str] = attrs.field(default=frozenset(), converter=_names)

    def __attrs_post_init__(self) -> None:
        for part in (*self.kinds, *self.always_ask):
            if part not in PARTS:
                raise DataError(f"result part {part!r}: expected one of {PARTS}")
        if self.attacker_loss_by not in ("attacker", "defender"):
            raise DataError(f"attacker_loss_by {self.attacker_loss_by!r}: not attacker/defender")

    @property
    def stop_action(self) -> Action:
        """The answer that declines an advance (``stop``), as an action."""
        return Action(self.stop[0], self.stop[1:])


@attrs.frozen
class ResultHooks:
    """A game's own answers to the result program's questions (all optional).

    ``retreat_cells(state, cell, movers)``: the labels the stack ``movers`` in ``cell``
    may retreat into next (instead of the map search of
    :func:`~hexwar.mechanics.retreat.retreat_options`); ``may_retreat(state, piece)``:
    ``False`` forbids the stack's retreat (a card; the penalty is
    :attr:`~hexwar.mechanics.retreat.RetreatRules.forbidden`); ``may_advance(state,
    piece, cell)``: whether an attacker may enter the vacated cell (instead of adjacency
    and ``AdvanceRules.movement_class``); ``kind_of(piece)``: a step-by-step exchange is
    paid by attackers of a defender's kind first ("same arm first").
    """

    retreat_cells: Callable[[State, str, tuple[str, ...]], Iterable[str]] | None = None
    may_retreat: Callable[[State, str], bool] | None = None
    may_advance: Callable[[State, str, str], bool] | None = None
    kind_of: Callable[[str], object] | None = None


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


def hexside_shift(shifts: Sequence[HexsideShift], crossed: Sequence[frozenset[str]]) -> int:
    """The summed shift of ``shifts`` for attackers that cross the hexside features
    ``crossed`` (one set per attacker, after negation).

    >>> river = HexsideShift("river", -1)
    >>> hexside_shift([river], [{"river"}, {"river"}]), hexside_shift([river], [{"river"}, set()])
    (-1, 0)
    """
    total = 0
    for h in shifts:
        hits = [h.feature in c for c in crossed]
        if hits and (all(hits) if h.when == "all" else any(hits)):
            total += h.shift
    return total


def _exact_sum(values: Iterable[Number | float]) -> Number:
    """The exact sum of strengths: ints stay ints, anything else counts as its exact
    :class:`~fractions.Fraction`.

    >>> _exact_sum([1, 2]), _exact_sum([1, 0.5])
    (3, Fraction(3, 2))
    """
    total: Number = 0
    for v in values:
        total += v if type(v) is int else Fraction(v)
    return total


def place_column(
    table: OddsTable, rules: OddsRules, index: int, shift: int, attack: Fraction, defence: Fraction
) -> Odds:
    """The odds of an attack whose unshifted column is ``index`` (``-1``: below the
    table's threshold) moved by ``shift`` columns, past either edge as ``rules`` say."""
    at, last = index + shift, len(table.columns) - 1
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
    return Odds(attack, defence, table.labels[at], shift)


Number = int | Fraction


class GroupNeed:
    """Attacker groups that must reach a summed strength (the odds' lowest column), named
    in sorted order by a :class:`~hexwar.engine.kinds.Combination`: ``candidates``
    (sorted), their ``strengths`` (missing: 0) and the ``need`` (``None``: any non-empty
    group will do). :meth:`legal` is the combination's ``valid``, :meth:`feasible` its
    monotone pruning (the strongest completion adds every later candidate of positive
    strength), :meth:`groups` lists the legal groups, smallest first.

    >>> need = GroupNeed(("a", "b", "c"), {"a": 1, "b": 3, "c": 2}, 4)
    >>> need.legal(("a", "b")), need.feasible(("a", "c")), need.feasible(("a",))
    (True, False, True)
    >>> need.groups()
    [('a', 'b'), ('b', 'c'), ('a', 'b', 'c')]
    """

    __slots__ = ("best", "candidates", "need", "strengths")

    def __init__(
        self, candidates: Iterable[str], strengths: Mapping[str, Number], need: Number | None
    ) -> None:
        self.candidates = tuple(candidates)
        self.strengths: dict[str, Number] = {u: strengths.get(u, 0) for u in self.candidates}
        self.need = need
        #: per candidate: its strength plus every later candidate's positive strength
        self.best: dict[str, Number] = {}
        after: Number = 0
        for u in reversed(self.candidates):
            self.best[u] = self.strengths[u] + after
            after += max(0, self.strengths[u])

    def legal(self, group: Sequence[str]) -> bool:
        """Whether ``group`` (candidates) reaches the need."""
        return bool(group) and (
            self.need is None or sum(map(self.strengths.__getitem__, group)) >= self.need
        )

    def feasible(self, group: Sequence[str]) -> bool:
        """Whether some legal group is ``group`` (non-empty) plus later candidates."""
        if self.need is None:
            return True
        before = sum(map(self.strengths.__getitem__, group[:-1]))
        return before + self.best[group[-1]] >= self.need

    def groups(self) -> list[tuple[str, ...]]:
        """Every legal group, by size, then in the candidates' order."""
        out: list[tuple[str, ...]] = []
        for k in range(1, len(self.candidates) + 1):
            out.extend(g for g in combinations(self.candidates, k) if self.legal(g))
        return out


class AttackOdds:
    """The odds of an attack now: strengths, shifts and the edges of the table (the
    base of :class:`~hexwar.mechanics.combat.Combat`, which holds the data it reads)."""

    pieces: Pieces[Any]
    counters: StepCounters
    game_map: GameMap[Any]
    table: OddsTable
    odds_rules: OddsRules
    attack_value: str
    defence_value: str
    strength: Callable[[State, str, str], Number] | None
    shift: Callable[[State, Attack], int] | None

    def _cell(self, label: str) -> Any:
        return self.pieces.codec.cell_at(label)

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
        the table's threshold; the highest against a defence of 0), plus the shifts.

        Every attacker must be a piece of ``side`` next to ``cell`` (else
        :class:`~hexwar.base.errors.AttackRefused`)."""
        attackers = tuple(attackers)
        where = self._cell(cell)
        self._check_attackers(state, side, cell, where, attackers)
        strength = self.piece_strength
        attack = _exact_sum(strength(state, p, "attack") for p in attackers)
        defence = _exact_sum(
            strength(state, p, "defend") for p in self.pieces.occupants(state, where)
        )
        if defence == 0:
            index = len(self.table.columns) - 1
        else:
            try:  # exact ints go to the table as ints: it keeps their columns
                index = self.table.column_index(self.table.column_for(attack, defence))
            except AttackRefused:
                index = -1
        shift = self._shift(state, Attack(side, cell, attackers), where)
        return place_column(
            self.table, self.odds_rules, index, shift, Fraction(attack), Fraction(defence)
        )

    def _check_attackers(
        self, state: State, side: str, cell: str, where: Any, attackers: tuple[str, ...]
    ) -> None:
        if where not in self.game_map:
            raise AttackRefused(f"attack on {cell}: not a cell of the map")
        near = set(self.game_map.neighbors(where))
        for piece in attackers:
            placed = self.pieces.is_placed(state, piece)
            if not placed or self.pieces.side(state, piece) != side:
                raise AttackRefused(f"attack on {cell}: {piece} is not a piece of {side} here")
            if self.pieces.where(state, piece) not in near:
                raise AttackRefused(f"attack on {cell}: {piece} is not next to it")

    def _shift(self, state: State, attack: Attack, where: Any) -> int:
        game_map, rules = self.game_map, self.odds_rules
        terrain = game_map.terrain(where)
        shift = rules.terrain.get(terrain, 0)
        if rules.side_terrain:
            defenders = self.pieces.occupants(state, where)
            if defenders:
                defender = self.pieces.side(state, defenders[0])
                shift += rules.side_terrain.get(defender, {}).get(terrain, 0)
        if rules.tags:
            shift += sum(rules.tags.get(tag, 0) for tag in game_map.tags(where))
        if rules.hexsides:
            active, side_of = game_map.chart.active_features, game_map.hexside
            crossed = [
                active(side_of(self.pieces.where(state, p), where)) for p in attack.attackers
            ]
            shift += hexside_shift(rules.hexsides, crossed)
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
