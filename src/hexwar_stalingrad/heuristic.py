"""A heuristic bot for «Сталинград»: simple, explainable, deterministic given its seed.

It plays the campaign's plan. **RKKA** (Operation «Уран», S11.1) closes the ring around the
6th Army fast and keeps a unit in the city, ringing the pocket in rather than storming it;
in the long game (S11.2) its turn-6 reserves (2nd Guards Army) meet Manstein's relief
(LVII Panzer Corps from Kotelnikovo) on the steppe between the Aksay and the Myshkova
while the armies of the ring hold it. **The Wehrmacht**: the 6th Army holds the pocket and
the city as ordered — its corps out in the small Don bend fall back into the pocket, and
no 6th Army unit leaves the Stalingrad area; the relief group drives for the pocket; the
other formations push toward it too; in the short game the Wehrmacht fights for the city.

Phase by phase:

- cards (S5): a card is played in the phase where its effect counts (a movement bonus in
  movement, an odds shift in the attack phase, air strength in air combat, a bombardment
  die modifier in the artillery phase, the rest at once in its card phase);
- replacements (S4.1): restore the strongest reduced unit, else rebuild the strongest
  destroyed unit at full strength, else at reduced strength (the Wehrmacht rebuilds a
  6th Army unit last: it comes back on a truck hex outside the pocket);
- air (S10): bombers onto the strongest non-tank enemy units (reduced ones first: one loss
  destroys them), fighters next to enemy bombers; attacks at the best odds, 2:1 or better;
- the ring (S11.1): :func:`ring_plan` runs a max-flow query on
  :func:`hexwar_stalingrad.victory.encircled`'s graph (passable hexes minus RKKA units and
  ZOC) from the 6th Army units in the Stalingrad area to the supply sources (and, in the
  long game, to Manstein's relief group): the minimum cut nearest the 6th Army (the
  tightest ring) gives the *gaps* still to block, the pocket behind it and the *wall* of
  ring hexes already held; once closed, the gaps are its thin spots (a ZOC hex of the wall
  next to an open outside hex, which a 6th Army unit could step into, S6.3), and a unit
  standing on the wall counts as holding its hex;
- the screen (S11.2, long game): the relief group (from turn 5: its start hexes, S4.2) is
  cut off by a second minimum cut, nearest the relief, from the hexes next to the pocket;
  those hexes join the gaps;
- movement and exploitation (S6): RKKA units score a move by gaps newly blocked (its hex
  and ZOC) minus ring hexes it alone held and would give up (the last unit in the city
  stays), then by progress toward an objective: a hex that covers open gaps (greedy set
  cover matched to free units by turns to arrive), else (long game, relief on the map,
  turn-6 reserves) the nearest relief unit, else the nearest gap, else the 6th Army; one
  unit goes to the city if none is there. Wehrmacht: the relief and the other formations
  outside the pocket head for the nearest 6th Army unit in the area; a 6th Army unit more
  than ``POCKET_RADIUS`` steps from the city falls back toward it, the others hold; on the
  short game's last turn (S11.1 is judged at its end, after the Wehrmacht's move) a 6th
  Army unit breaks out while the ring is closed: it steps to a hex of the area joined to a
  supply source past RKKA's units and ZOC (its own hex may be in ZOC). On that last turn
  RKKA makes no move after which the ring is weaker (:func:`ring_risk`: open where it was
  closed, or more gaps or thin spots; such a move is ruled out and the next best taken)
  and no ground attack (an EX, AL or advance could open it).
  Progress is counted in hex steps through passable hexes (:meth:`Static.path_steps`);
  artillery of both sides keeps range 2 of an enemy (S7.1);
- artillery (S7): bombards the best target (reduced, not tanks, not fortified);
- ground attacks (S8): the best odds available, 2:1 or better, or worse odds whose expected
  step-loss balance (:class:`hexwar.mechanics.crt_values.Distribution`) favours the
  attacker (any odds on artillery, S7.4), with the fewest attackers. RKKA attacks a 6th
  Army unit in the pocket only at 6:1 (5:1 on a gap of the ring) in the short game and, in
  the long game, neither attacks, bombards nor bombs it before the last turn; it attacks
  relief units at 3:1 or better, before others. The Wehrmacht attacks an RKKA unit in the
  city at any odds in the short game, and one holding the ring on its last two turns;
  before those two turns the 6th Army holds fire (its units in the area attack nothing but
  the city: the order of 24 November 1942 was to hold, and no break-out was allowed). On
  the long game's last turn (the relief from its second-last) both sides go for the
  relief–6th Army contact at any odds;
- decisions: the strongest attacker advances (RKKA: a unit that keeps the ring held; the
  Wehrmacht: a relief unit into contact, a 6th Army unit never out of the area); the
  weakest takes an attacker's loss; the defender (AL) hits a reduced attacker first; a
  retreating 6th Army unit is pushed away from its supply sources, any other unit away
  from its goal.

Speed: distances are :meth:`Hex.distance <hexwar.grid.geometry.Hex.distance>` and
:meth:`Static.path_steps`; the ring plan is reused while it stays exact (same 6th Army and
relief positions, every hex of its wall still blocked and every manned one still manned:
blocking more hexes only shrinks the gaps left, which the move scoring counts afresh). A
unit's best moves are kept for the phase, keyed by everything they read (its end hexes,
goal and hex, and of the ring the open gaps its moves can block, its held hexes, whether
it mans the wall, the city rule), so a new plan within the phase does not score them
again. The bot asks the engine only for what it reads: the phase's action kinds and the
cards, bombardments by prefix (:meth:`~hexwar.engine.state.State.legal_tokens`); in
movement, each unit's end hexes from the movement query behind the ``move`` tokens
(:meth:`hexwar.mechanics.moves.MoveQuery.ends`, the query of :meth:`PieceMoves.query`
answers them), never the phase's whole list, and not at all for a unit that would make no
move whatever they are (a 6th Army unit holding, a unit with no goal); attack odds from
:func:`hexwar_stalingrad.ground.attack_odds`, and RKKA's bonus for a target once per target
(a spared pocket unit is passed over before its odds). Asking the attack phase by prefix
(defenders, then each one's attackers) was tried: the token tree costs more than the
engine's list, even with the spared defenders skipped.

The bot is a plain player for :func:`hexwar.engine.loop.play`; it breaks ties with its own seeded
``random.Random`` (a player's choice, not a chance event), so its seed fixes every choice.

>>> from hexwar.engine.dice import SeededDriver
>>> from hexwar.engine.loop import play
>>> from hexwar_stalingrad.rules import StalingradRules
>>> bots = {"rkka": HeuristicBot(seed=2), "wehrmacht": HeuristicBot(seed=3)}
>>> state = play(StalingradRules(length="short").new_state(), bots, SeededDriver(1))
>>> state.is_terminal(), state.turn
(True, 5)
"""

from __future__ import annotations

import functools
import math
import random
from collections import deque
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from itertools import chain
from typing import Any, Final, TypeVar

import attrs

from hexwar.engine.actions import END, Action
from hexwar.engine.state import State
from hexwar.mechanics.crt_values import Distribution
from hexwar_stalingrad import air, ground, reinforce
from hexwar_stalingrad.board import (
    FULL,
    PIECES,
    POOL,
    REDUCED,
    enemy,
    on_map,
    static,
    step,
    strength,
    unit_at,
    where,
)
from hexwar_stalingrad.heuristic_flow import FLOW_LIMIT, index_cut, min_vertex_cut
from hexwar_stalingrad.reinforce import RESERVE_TURN
from hexwar_stalingrad.static import Static
from hexwar_stalingrad.victory import RELIEF, SIXTH_ARMY, SUPPLY_TAG

__all__ = [
    "ATTACK_THRESHOLD",
    "HeuristicBot",
    "RingPlan",
    "min_vertex_cut",
    "objectives",
    "ring_plan",
    "ring_risk",
    "ring_targets",
]

#: The lowest odds column the bot attacks at (ground S8.2, air S10.5), as an index: 2:1.
ATTACK_THRESHOLD: Final = 1
_MOBILE: Final = frozenset({"tank", "mechanized", "cavalry"})
SIXTH: Final = SIXTH_ARMY
SUPPLY: Final = SUPPLY_TAG
#: The lowest odds column (index: 3:1) at which RKKA attacks a 6th Army unit in the
#: Stalingrad area that is not on or next to a gap of the ring: S11.1 asks for the ring,
#: and in November 1942 the Fronts closed it rather than storm the pocket.
POCKET_THRESHOLD: Final = 5
#: Steps from the city within which the 6th Army holds (the pocket of late November 1942
#: reached west to Marinovka, six hexes out); its units farther out fall back to it.
POCKET_RADIUS: Final = 6
#: Which minimum cut the ring takes: nearest the 6th Army (True) or nearest the supply
#: sources (False: the pincers meet on the Don bend, at Kalach and Sovetsky, as on 23 Nov).
RING_NEAR_POCKET: Final = True
#: Score of one ring gap blocked (or one ring hex given up) by a move, against the one
#: hex of progress toward a unit's objective (S11.1).
RING_WEIGHT: Final = 10
#: Ring hexes' worth of the last RKKA unit in Stalingrad (S11.1: it must stay there).
CITY_WEIGHT: Final = 5
#: Attack score bonus of a relief-group unit for RKKA in the long game (S11.2): it is
#: attacked before other targets at equal odds (at 2:1 or a favourable balance, like any).
RELIEF_BONUS: Final = 0.5
#: The lowest odds column (index: 3:1) at which RKKA attacks a relief unit before the last
#: turn: the Myshkova screen held its line (until the counter-offensive of 24 December).
SCREEN_THRESHOLD: Final = 2
#: The attack score bonus from which a target is attacked at any odds.
MUST_ATTACK: Final = 1.0
#: Attack score bonus, on the long game's last turn, of a unit in a relief-6th Army
#: contact (S11.2 is judged at the end of the turn): any odds, before anything else.
CONTACT_BONUS: Final = 2.0
#: Attack score bonus of an RKKA unit in a Stalingrad city hex for the Wehrmacht in the
#: short game (S11.1: with no RKKA unit in the city, the Wehrmacht wins): any odds.
CITY_BONUS: Final = 1.0
#: Attack score bonus, for the Wehrmacht on the short game's last two turns, of an RKKA unit
#: within two hexes of a 6th Army unit in the area (it holds the ring, S11.1): any odds.
RING_BREAK_BONUS: Final = 1.0
#: Move score of a 6th Army unit's step, on the short game's last turn, to a hex joined to a
#: supply source past RKKA's units and ZOC (the ring is then open at the end, S11.1).
BREAKOUT_WEIGHT: Final = 1000.0
#: Steps beyond any reach: the distance of a hex no passable path joins.
FAR: Final = 10_000
#: Where a card's effect kind counts (S5.4): the phase to play it in (else its card phase).
_T = TypeVar("_T")
_NO_STEPS: Final[Mapping[str, int]] = {}
_NOTHING: Final[tuple[float, tuple[str, ...]]] = (-math.inf, ())
_NO_HEXES: Final[frozenset[str]] = frozenset()
_CARD_PHASE: Final = {
    "movement_bonus": "movement",
    "odds_shift": "attack",
    "air_strength": "combat",
    "die_modifier": "artillery",
}


class HeuristicBot:
    """A player: ``bot(state) -> Action`` for the side to act (see the module docstring).

    ``seed`` seeds the bot's own ``random.Random``, which breaks ties between equally
    scored actions (as :class:`hexwar.engine.loop.RandomPlayer` picks its actions).
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._plan: RingPlan | None = None
        self._balances: tuple[object, dict[tuple[str, str], float]] = (None, {})
        self._scores: tuple[Any, dict[str, Any]] = (None, {})
        self._vetoed: tuple[object, set[tuple[str, str]]] = (None, set())
        #: Moves ruled out so far because they left the ring weaker (S11.1, last turn).
        self.ruled_out = 0
        self._phase_goals: tuple[object, frozenset[tuple[str, str]], dict[str, str]] | None = None

    def _pick(self, scored: Sequence[tuple[float, Action]]) -> Action:
        best = max(s for s, _ in scored)
        top = [a for s, a in scored if s == best]
        return top[0] if len(top) == 1 else self._rng.choice(sorted(top))

    def __call__(self, state: State) -> Action:
        side = state.current_player()
        if state.pending:
            actions = state.legal_actions()
            if len(actions) == 1:
                return actions[0]
            return self._decide(state, side, actions)
        # the phase's action kinds, then only the arguments the bot reads, asked by prefix
        # (the engine's token tree): never the whole list of a movement phase
        kinds = state.legal_tokens(())
        if END.kind not in kinds:  # the phase may not end: one action may be all there is
            actions = state.legal_actions()
            if len(actions) == 1:
                return actions[0]
        elif len(kinds) == 1:
            return END
        if "play" in kinds:
            card = self._card(state, side, state.legal_tokens(("play",)))
            if card is not None:
                return card
        if "move" in kinds:
            return self._move(state, side)
        if "bombard" in kinds:
            return self._bombard(state)
        if "attack" in kinds:
            return self._best_attack(state, state.legal_actions(), "attack")
        if "intercept" in kinds:
            return self._best_attack(state, state.legal_actions(), "intercept")
        if "restore" in kinds or "rebuild" in kinds:
            return self._replace(state, side, state.legal_actions())
        return END

    def _bombard(self, state: State) -> Action:
        """The best bombardment target (S7; none in a spared pocket), else ``end``."""
        targets = []
        for unit in state.legal_tokens(("bombard",)):
            for target in state.legal_tokens(("bombard", unit)):
                if not _spared(state, target):
                    a = Action("bombard", (unit, target))
                    targets.append((_bombard_score(state, a), a))
        return self._pick(targets) if targets else END

    # -- cards (S5) ----------------------------------------------------------------------------

    def _card(self, state: State, side: str, cards: Sequence[str]) -> Action | None:
        """The first card of ``cards`` (sorted) to play now (see the module docstring)."""
        data = static(state)
        phase = str(state.phase)
        for card in cards:
            kinds = [e.kind for e in data.cards[card].effects]
            wanted = _CARD_PHASE.get(kinds[0]) if kinds else None
            if wanted is None and state.stage == "cards":
                return Action("play", (card,))
            if wanted is not None and phase.startswith(wanted):
                return Action("play", (card,))
        return None

    # -- replacements (S4.1) -------------------------------------------------------------------

    def _replace(self, state: State, side: str, actions: Sequence[Action]) -> Action:
        data = static(state)

        def value(unit: str) -> int:
            if unit in data.ground:
                return data.ground[unit].strength.full
            return data.air[unit].strength.full

        scored = []
        for a in actions:
            if a.kind == "restore":
                scored.append((1000 + value(a.args[0]), a))
            elif a.kind == "rebuild":
                unit = a.args[0]
                # a 6th Army unit comes back outside the pocket (S4.1), where it counts for
                # neither S11.1 nor S11.2: the Wehrmacht rebuilds it last
                outside = unit in data.ground and SIXTH in data.ground[unit].groups
                base = 100 if side == "wehrmacht" and outside else 500
                scored.append(((base if a.args[2] == FULL else 0) + value(unit), a))
        return self._pick(scored) if scored else END

    # -- movement (S6) -------------------------------------------------------------------------

    def plan(self, state: State) -> RingPlan | None:
        """The ring plan (S11.1, S11.2) for ``state``: the last one while it stays exact
        (:meth:`RingPlan.holds`), else a new :func:`ring_plan`."""
        inputs = plan_inputs(state)
        if inputs is None:
            return None
        last = self._plan
        if last is None or not last.holds(state, inputs):
            last = self._plan = ring_plan(state, inputs)
        return last

    def _advance_in_ring(self, state: State, actions: Sequence[Action], plan: RingPlan) -> Action:
        """RKKA advance after combat (S8.4): never with a unit that opens the ring."""
        vacated = str(state.pending[-1].params[0])
        mine = _on_map(state, "rkka")
        ring = _RingMoves(state, plan, mine)
        scored: list[tuple[float, Action]] = []
        fallback: list[tuple[float, Action]] = []
        for a in actions:
            unit = a.args[0]
            if unit == "none":
                scored.append((0.0, a))
                continue
            new, lost = ring.change(unit, where(state, unit), vacated)
            score = 1 + RING_WEIGHT * (new - lost) + 0.01 * _power(state, unit)
            (scored if lost == 0 else fallback).append((score, a))
        return self._pick(scored or fallback)

    def _move(self, state: State, side: str) -> Action:
        plan = self.plan(state) if side == "rkka" else None
        enemies = tuple(sorted(lab for lab, _ in _on_map(state, enemy(side))))
        goals = self._goals(state, side, plan, enemies)
        mine = _on_map(state, side)
        here = {u: lab for lab, u in mine}
        ring = _RingMoves(state, plan, mine) if plan is not None else None
        hold = _holding(state, side)
        # a unit's best moves are kept for the phase, keyed by all they read: its end
        # hexes (asked of the engine unit by unit), its goal and hex, and of the ring (the
        # plan may change in the phase) the open gaps its moves can block, its held hexes,
        # whether it mans the wall and the city rule
        phase = (state.turn, str(state.stage), str(state.phase), side, enemies, plan)
        if self._scores[0] != phase[:5]:
            self._scores = (phase[:5], {})
        vetoed = self._vetoes(phase)
        while True:
            top = self._top_moves(state, side, goals, here, ring, hold, vetoed)
            if not top:
                return END
            choice = self._choose(top)
            if side != "rkka" or plan is None or not _short(state) or not _last_turn(state):
                return choice
            # S11.1 is judged at the end of this turn: no move may leave the ring weaker
            # (open, or with more thin spots) than it is
            after = state.clone()
            after.apply(choice)
            if ring_risk(after) <= ring_risk(state):
                return choice
            vetoed.add((choice.args[0], choice.args[1]))
            self.ruled_out += 1

    def _vetoes(self, phase: object) -> set[tuple[str, str]]:
        """The moves ruled out in this phase (``(unit, hex)``: they weaken the ring)."""
        if self._vetoed[0] != phase:
            self._vetoed = (phase, set())
        return self._vetoed[1]

    def _top_moves(
        self,
        state: State,
        side: str,
        goals: Mapping[str, str],
        here: Mapping[str, str],
        ring: _RingMoves | None,
        hold: frozenset[str],
        vetoed: AbstractSet[tuple[str, str]],
    ) -> list[Action]:
        """The equally best moves of the position (sorted), none of them ``vetoed``."""
        memo = self._scores[1]
        best = -math.inf
        top: list[tuple[str, str]] = []
        # the engine's movement query (S6, S6.5), the one behind the legal tokens
        # ``move UNIT`` and ``move UNIT HEX``: asked once per decision, unit by unit
        movers = ground.mechanisms(state).moves.query(state, side)
        data = static(state)
        escapes = _escapes(state) if hold and _short(state) and _last_turn(state) else None
        disks = data.zoc_disks
        for unit, origin in movers.units():
            goal = goals.get(unit)
            if _idle(data, unit, origin, goal, ring, hold, escapes):
                continue  # it makes no move: its end hexes are not asked
            points = movers.points(unit)
            if points <= 0:
                continue  # it may not move (S6.1, S6.5)
            held = ring.held(origin) if ring is not None else _NO_HEXES
            ends = movers.ends(unit, origin, points)
            if vetoed:
                ends = [t for t in ends if (unit, t) not in vetoed]
            if not ends:
                continue
            ringside: tuple[object, ...] | None = None
            if ring is not None:
                gaps = ring.open_gaps
                ringside = (
                    gaps & frozenset().union(*map(disks.__getitem__, ends)) if gaps else gaps,
                    held,
                    origin in ring.manned,
                    unit == ring.last_in_city,
                )
            key = (ends, goal, origin, ringside)
            found = memo.get(unit)
            if found is None or found[0] != key:
                found = memo[unit] = (
                    key,
                    self._unit_moves(state, unit, origin, ends, goals, ring, held, hold),
                )
            score, targets = found[1]
            if score > best:
                best, top = score, [(unit, t) for t in targets]
            elif score == best:
                top.extend((unit, t) for t in targets)
        top.sort()  # (unit, hex): the order of the actions ``move UNIT HEX``
        return [Action("move", (u, t)) for u, t in top]

    def _choose(self, top: Sequence[Action]) -> Action:
        """One of the equally best actions ``top`` (sorted): the bot's seeded tie-break."""
        return top[0] if len(top) == 1 else self._rng.choice(top)

    def _unit_moves(
        self,
        state: State,
        unit: str,
        origin: str,
        ends: Sequence[str],
        goals: Mapping[str, str],
        ring: _RingMoves | None,
        held: frozenset[str],
        hold: frozenset[str],
    ) -> tuple[float, tuple[str, ...]]:
        """The best score of ``unit``'s moves worth making (see the module docstring) and
        the end hexes that reach it; ``(-inf, ())`` if none is worth making."""
        data = static(state)
        area, cells, disks = data.stalingrad_area, data.cells, data.zoc_disks
        artillery = data.ground[unit].arm in ground.ARTILLERY_ARMS
        goal = goals.get(unit)
        # the 6th Army holds (S11): it stays in the area, and without a goal it stays put
        # unless it is artillery finding its range
        final = _short(state) and _last_turn(state)
        escapes = _escapes(state) if final and unit in hold else frozenset()
        if unit in hold and (origin not in area or (goal is None and not artillery)):
            out = tuple(t for t in ends if t in escapes)
            return (BREAKOUT_WEIGHT, out) if out else _NOTHING
        if goal is None and not artillery and ring is None:
            return _NOTHING
        steps = data.path_steps((goal,)) if goal is not None else _NO_STEPS
        start = steps.get(origin, FAR)
        near = cells[origin]
        careful = bool(held) or (ring is not None and unit == ring.last_in_city)
        enemies = self._scores[0][4] if self._scores[0] else ()
        # S11.1 is judged at the end of this turn and the Wehrmacht moves last: a 6th Army
        # unit that steps next to the open country breaks the ring (the break-out)
        best = -math.inf
        top: list[str] = []
        holds = unit in hold
        for target in ends:
            if holds and target not in area:
                continue
            if escapes and target in escapes:
                score = BREAKOUT_WEIGHT
            else:
                if artillery:
                    gain = self._range_gain(data, origin, target, enemies)
                    if ring is not None and held and ring.change(unit, origin, target, held)[1]:
                        continue  # artillery holding the ring stays (S11.1)
                else:
                    gain = start - steps.get(target, FAR) if steps else 0.0
                    if ring is not None:
                        new = ring.fresh.get(target)
                        if new is None:
                            new = ring.fresh[target] = len(ring.open_gaps & disks[target])
                        lost = ring.change(unit, origin, target, held)[1] if careful else 0
                        gain = RING_WEIGHT * (new - lost) + (gain if lost == 0 else 0)
                if gain <= 0:
                    continue
                score = gain - 0.01 * near.distance(cells[target])
            if score > best:
                best, top = score, [target]
            elif score == best:
                top.append(target)
        return best, tuple(top)

    def _goals(
        self, state: State, side: str, plan: RingPlan | None, enemies: tuple[str, ...]
    ) -> dict[str, str]:
        """:func:`objectives` once per phase: reused while the phase (turn, stage, phase),
        the plan and the enemy's hexes are the same and every own unit that has not moved
        this phase stands where it stood (S6: only own moves happen in between)."""
        moved = state.table("moved")
        unmoved = frozenset((u, lab) for lab, u in _on_map(state, side) if not moved.get(u))
        key = (state.turn, str(state.stage), str(state.phase), side, plan, enemies)
        last = self._phase_goals
        if last is not None and last[0] == key and unmoved <= last[1]:
            return last[2]
        goals = objectives(state, side, plan)
        self._phase_goals = (key, unmoved, goals)
        return goals

    def _range_gain(self, data: Static, here: str, there: str, enemies: tuple[str, ...]) -> float:
        """Artillery: get to exactly two hexes from an enemy (S7.1), never next to one."""
        if not enemies:
            return 0.0
        return self._badness(data, here, enemies) - self._badness(data, there, enemies)

    def _badness(self, data: Static, label: str, enemies: tuple[str, ...]) -> int:
        """How far artillery on ``label`` is from range 2 of the nearest of ``enemies``
        (S7.1; 10 next to one)."""
        here, cells = data.cells[label], data.cells
        found = min(here.distance(cells[e]) for e in enemies)
        return 10 if found <= 1 else abs(found - 2)

    # -- attacks (S8, S10.5) -------------------------------------------------------------------

    def _best_attack(self, state: State, actions: Sequence[Action], kind: str) -> Action:
        data = static(state)
        scored: list[tuple[float, Action]] = []
        rkka = state.current_player() == "rkka"
        if kind == "attack" and rkka and _short(state) and _last_turn(state):
            return END  # S11.1 is judged at the end of the turn: no risk to the ring
        plan = self._plan if kind == "attack" and rkka else None
        crt_labels = data.crt.labels
        # RKKA's bonus for a target depends on the target alone (read once per target):
        # with it below CONTACT_BONUS, a spared unit of the pocket is never attacked
        targets: dict[str, tuple[float, bool]] = {}
        for a in actions:
            if a.kind != kind:
                continue
            defender, *attackers = a.args
            if kind == "attack":
                if rkka:
                    target = targets.get(defender)
                    if target is None:
                        b = _attack_bonus(state, defender, attackers, plan)
                        target = targets[defender] = (
                            b,
                            b < CONTACT_BONUS and _spared(state, defender),
                        )
                    if target[1]:
                        continue  # RKKA rings the 6th Army in; it does not storm the pocket
                column, shift = ground.attack_odds(state, defender, attackers)
                labels = crt_labels
                helpless = data.ground[defender].arm in ground.ARTILLERY_ARMS
            else:
                column = air.air_odds(state, defender, attackers)[2]
                shift, labels, helpless = 0, air.air_table(state).labels, False
            if column is None:
                continue
            index = min(max(labels.index(column) + shift, 0), len(labels) - 1)
            balance = bonus = reduced_bonus = 0.0
            if kind == "attack":
                balance = self._balance(data, labels[index], step(state, defender))
                bonus = (
                    targets[defender][0]
                    if rkka
                    else _attack_bonus(state, defender, attackers, plan)
                )
                forced = bonus >= MUST_ATTACK  # a target worth any odds
                if not rkka and not forced and _holds_fire(state, attackers):
                    continue  # the 6th Army holds the pocket (S11.1, before its last turns)
                if index < ATTACK_THRESHOLD and balance <= 0 and not helpless and not forced:
                    continue
                if bonus == RELIEF_BONUS and index < SCREEN_THRESHOLD:
                    continue  # the screen holds the line rather than trade with the panzers
                storm = bonus < CONTACT_BONUS and _in_pocket(state, defender)
                if storm and (_spared(state, defender) or index < POCKET_THRESHOLD - (bonus > 0)):
                    continue  # RKKA rings the 6th Army in; it does not storm the pocket
                reduced_bonus = 0.5 if step(state, defender) == REDUCED else 0.0
            elif index < ATTACK_THRESHOLD:
                continue
            scored.append((index + reduced_bonus + balance + bonus - 0.1 * len(attackers), a))
        return self._pick(scored) if scored else END

    def _balance(self, data: Static, column: str, defender_step: str) -> float:
        """:func:`_step_balance` at ``column`` against a defender on ``defender_step``,
        worked out once per combat results table."""
        crt, memo = self._balances
        if crt is not data.crt:
            memo = {}
            self._balances = (data.crt, memo)
        key = (column, defender_step)
        if key not in memo:
            dist = data.crt.distribution_at(column)
            memo[key] = float(_balance_of(dist, 2 if defender_step == FULL else 1))
        return memo[key]

    # -- decisions -----------------------------------------------------------------------------

    def _decide(self, state: State, side: str, actions: Sequence[Action]) -> Action:
        kind = state.pending[-1].kind
        data = static(state)
        if kind == "air_place":
            return self._place(state, side, actions)
        if kind == "advance" and side == "rkka" and self._plan is not None:
            return self._advance_in_ring(state, actions, self._plan)
        if kind in ("advance", "air_advance"):
            units = [a for a in actions if a.args[0] != "none"]
            if kind == "advance" and side == "wehrmacht":
                vacated = str(state.pending[-1].params[0])
                hold = _holding(state, side)
                if vacated not in data.stalingrad_area:  # the 6th Army does not march out
                    units = [a for a in units if a.args[0] not in hold] or units
                pocket = {lab for lab in _group(state, SIXTH) if lab in data.stalingrad_area}
                if pocket & set(data.neighbors[vacated]):  # the relief advances into contact
                    units = [a for a in units if RELIEF in data.ground[a.args[0]].groups] or units
            return self._pick([(_power(state, a.args[0]), a) for a in units]) if units else END
        if kind in ("ex_loss", "air_loss"):
            return self._pick([(-_power(state, a.args[0]), a) for a in actions])
        if kind == "al_loss":  # the defender chooses the attacker that loses
            return self._pick(
                [
                    ((step(state, a.args[0]) == REDUCED) * 100 + _power(state, a.args[0]), a)
                    for a in actions
                ]
            )
        if kind == "retreat":  # the attacker pushes the defender away from its goals
            defender = str(state.pending[-1].params[0])
            if SIXTH in data.ground[defender].groups:  # deeper into the pocket
                supply = data.path_steps(data.tagged(SUPPLY))
                return self._pick([(supply.get(a.args[0], FAR), a) for a in actions])
            goal = objectives(state, data.ground[defender].side).get(defender)
            if goal is not None:
                steps = data.path_steps((goal,))
                return self._pick([(steps.get(a.args[0], FAR), a) for a in actions])
        return self._pick([(0, a) for a in actions])

    def _place(self, state: State, side: str, actions: Sequence[Action]) -> Action:
        data = static(state)
        flies = [a for a in actions if a.kind == "fly"]
        if not flies:
            return END
        role = str(state.pending[-1].params[0])
        scored: list[tuple[float, Action]] = []
        if role == air.BOMBER:
            for a in flies:
                target = unit_at(state, a.args[1])
                assert isinstance(target, str)
                info = data.ground[target]
                if _spared(state, target):
                    continue
                value = strength(state, target) + (10 if step(state, target) == REDUCED else 0)
                scored.append((-100 if info.arm == "tank" else value, a))
        else:
            enemy_bombers = [
                h for u in air.aloft(state, enemy(side), air.BOMBER) if (h := air.sky_hex(state, u))
            ]
            taken = {h for u in air.aloft(state, side) if (h := air.sky_hex(state, u))}
            for a in flies:
                there = data.cells[a.args[1]]
                near = sum(1 for h in enemy_bombers if data.cells[h].distance(there) == 1)
                if near:
                    scored.append((near - (a.args[1] in taken), a))
        return self._pick(scored) if scored and max(s for s, _ in scored) > 0 else END


def _idle(
    data: Static,
    unit: str,
    origin: str,
    goal: str | None,
    ring: _RingMoves | None,
    hold: frozenset[str],
    escapes: frozenset[str] | None,
) -> bool:
    """Whether :meth:`HeuristicBot._unit_moves` scores no move of ``unit`` worth making
    whatever its end hexes: a 6th Army unit that holds with no break-out hex to step to
    (``escapes``: ``None`` before the short game's last turn), or a unit with no goal, no
    range to find and no ring to block."""
    artillery = data.ground[unit].arm in ground.ARTILLERY_ARMS
    if unit in hold and (origin not in data.stalingrad_area or (goal is None and not artillery)):
        return not escapes
    return goal is None and not artillery and ring is None


def _holding(state: State, side: str) -> frozenset[str]:
    """The Wehrmacht's 6th Army units in the Stalingrad area: they hold the pocket and the
    city as ordered (S11: they stay in the area); none for RKKA."""
    if side != "wehrmacht":
        return frozenset()

    def build() -> frozenset[str]:
        data, entries = static(state), PIECES.entries(state)
        area = data.stalingrad_area
        return frozenset(
            [u for u in _members(data, SIXTH) if (e := entries.get(u)) and e[0] in area]
        )

    return build()


def _attack_bonus(
    state: State, defender: str, attackers: Sequence[str], plan: RingPlan | None
) -> float:
    """Targets worth more than their odds: on the long game's last turn for RKKA either
    unit of a relief–6th Army contact (S11.2), and from its second-last turn for the
    Wehrmacht's relief an RKKA unit next to the pocket (a DR, and the relief advances into
    contact, S8.4); for RKKA a relief unit (S11.2) and a 6th Army unit on a gap of the ring
    (S11.1); for the Wehrmacht in the short game an RKKA unit in the city, and on the last
    turn one holding the ring (S11.1)."""
    data = static(state)
    side = state.current_player()
    groups = data.ground[defender].groups
    here = where(state, defender)
    if not _short(state):
        limit = state.ruleset.sequence.turn_limit
        if side == "rkka" and _last_turn(state):
            other = RELIEF if SIXTH in groups else SIXTH if RELIEF in groups else None
            if other and set(data.neighbors[here]) & set(_group(state, other)):
                return CONTACT_BONUS
        elif side == "wehrmacht" and limit is not None and state.turn >= limit - 1:
            relief = any(RELIEF in data.ground[a].groups for a in attackers)
            pocket = {lab for lab in _group(state, SIXTH) if lab in data.stalingrad_area}
            if relief and pocket & set(data.neighbors[here]):
                return CONTACT_BONUS
    if side != "rkka":
        # S11.1: RKKA must hold a city hex at the end; the 6th Army clears the city
        if not _short(state):
            return 0.0
        if here in data.city:
            return CITY_BONUS
        limit = state.ruleset.sequence.turn_limit
        if limit is not None and state.turn >= limit - 1:  # S11.1 is judged soon: break
            # the ring at any odds
            held = [lab for lab in _group(state, SIXTH) if lab in data.stalingrad_area]
            if any(data.distance(here, lab) <= 2 for lab in held):
                return RING_BREAK_BONUS
        return 0.0
    if RELIEF in groups and not _short(state):
        return RELIEF_BONUS
    if plan is None or SIXTH not in groups:
        return 0.0
    return 1.0 if where(state, defender) in plan.gaps else 0.0


def _holds_fire(state: State, attackers: Sequence[str]) -> bool:
    """Short game, before its last two turns: a 6th Army unit in the Stalingrad area does not
    attack out of the pocket (S11.1; the order of 24 November 1942 was to hold, and the
    break-out Paulus asked for was refused), save for the city (:data:`CITY_BONUS`)."""
    limit = state.ruleset.sequence.turn_limit
    if not _short(state) or limit is None or state.turn >= limit - 1:
        return False
    hold = _holding(state, "wehrmacht")
    return any(u in hold for u in attackers)


def _escapes(state: State) -> frozenset[str]:
    """Hexes of the Stalingrad area from which a 6th Army unit would trace a path to a
    supply source (ruling S11.1: its own hex may lie in RKKA ZOC), read once per position;
    none while the ring is open (the Wehrmacht has broken out already)."""

    def compute() -> frozenset[str]:
        data = static(state)
        blocked = _rkka_hexes(state) | _rkka_zoc(state)
        passable, neighbors = data.passable, data.neighbors
        reached = {s for s in data.tagged(SUPPLY) if s in passable and s not in blocked}
        queue = deque(sorted(reached))
        while queue:
            for n in neighbors[queue.popleft()]:
                if n not in reached and n in passable and n not in blocked:
                    reached.add(n)
                    queue.append(n)
        sixth = [lab for lab in _group(state, SIXTH) if lab in data.stalingrad_area]
        if any(lab in reached or reached.intersection(neighbors[lab]) for lab in sixth):
            return frozenset()
        return frozenset(
            lab
            for lab in data.stalingrad_area
            if lab in passable
            and lab not in blocked - _rkka_zoc(state)
            and (lab in reached or reached.intersection(neighbors[lab]))
        )

    return compute()


def _in_pocket(state: State, unit: str) -> bool:
    """RKKA attacking a 6th Army unit in the pocket (within ``POCKET_RADIUS`` steps of
    the city); those still out on the Don are fair game."""
    data = static(state)
    if state.current_player() != "rkka" or SIXTH not in data.ground[unit].groups:
        return False
    return data.path_steps(tuple(sorted(data.city))).get(where(state, unit), FAR) <= POCKET_RADIUS


def _spared(state: State, unit: str) -> bool:
    """RKKA, long game, before the last turn: the pocket is neither attacked, bombarded nor
    bombed (S11.2 asks only to keep the relief off; the assault, Operation «Кольцо», came
    in January 1943)."""
    return not _short(state) and not _last_turn(state) and _in_pocket(state, unit)


def _last_turn(state: State) -> bool:
    """Whether this is the game's last turn (S3.4): nothing destroyed now comes back."""
    limit = state.ruleset.sequence.turn_limit
    return limit is not None and state.turn >= limit


def _short(state: State) -> bool:
    """The short game (S3.4, S11.1): no relief group to screen."""
    return getattr(state.ruleset, "length", None) == "short"


def _step_balance(state: State, defender: str, dist: Distribution) -> Fraction:
    """Expected defender step losses minus attacker step losses of an attack (S8.4, S9.1).

    Destroying a defender counts both its steps; a reduced defender has one to lose.
    """
    return _balance_of(dist, 2 if step(state, defender) == FULL else 1)


def _balance_of(dist: Distribution, left: int) -> Fraction:
    """:func:`_step_balance` against a defender with ``left`` steps."""
    return dist.expect(lambda r: left if r.eliminated else min(r.defender_steps, left)) - (
        dist.expected_attacker_steps
    )


def _power(state: State, unit: str) -> int:
    if unit in static(state).ground:
        return strength(state, unit)
    return air.air_strength(state, unit)


def _bombard_score(state: State, action: Action) -> float:
    data = static(state)
    target = action.args[1]
    info = data.ground[target]
    score = float(strength(state, target))
    if step(state, target) == REDUCED:
        score += 10
    if info.arm == "tank" or where(state, target) in data.fortified:
        score -= 20
    return score


def _on_map(state: State, side: str) -> list[tuple[str, str]]:
    """:func:`on_map` of ``side`` (``(label, unit)`` sorted by unit)."""
    return on_map(state, side)


def _rkka_hexes(state: State) -> frozenset[str]:
    """The hexes of RKKA's ground units."""
    return frozenset(lab for lab, _ in on_map(state, "rkka"))


def _rkka_zoc(state: State) -> frozenset[str]:
    """RKKA's ZOC (S2.1; the core's :class:`~hexwar.mechanics.moves.SideZoc`)."""
    return ground.zoc_of_side(state, "rkka")


def _group(state: State, group: str) -> list[str]:
    """Sorted labels of the Wehrmacht ground units of ``group`` on the map."""
    entries = PIECES.entries(state)
    return sorted([e[0] for u in _members(static(state), group) if (e := entries.get(u))])


def _members(data: Static, group: str) -> tuple[str, ...]:
    """The Wehrmacht ground units of ``group`` (S11: the 6th Army, the relief)."""
    return tuple(u for u in data.side_ground("wehrmacht") if group in data.ground[u].groups)


@attrs.frozen
class PlanInputs:
    """What a :class:`RingPlan` is computed from, besides RKKA's blocked hexes.

    ``sixth``: the 6th Army units' hexes in the Stalingrad area (ruling S11.1);
    ``relief``: the relief group's hexes on the map (S11.2, sinks of the ring); ``screen``:
    the hexes the screen keeps away from the pocket (the relief, or from the turn before
    the reserves arrive its start hexes, S4.2; none in the short game).
    """

    sixth: tuple[str, ...]
    relief: tuple[str, ...]
    screen: tuple[str, ...]


def plan_inputs(state: State) -> PlanInputs | None:
    """The :class:`PlanInputs` of the position, or ``None`` if no 6th Army unit is in the
    Stalingrad area."""
    data = static(state)
    sixth = tuple(lab for lab in _group(state, SIXTH) if lab in data.stalingrad_area)
    if not sixth:
        return None
    relief = tuple(_group(state, RELIEF))
    screen: tuple[str, ...] = ()
    if not _short(state):
        screen = relief
        if not relief and state.turn >= reinforce.RESERVE_TURN - 1:
            screen = tuple(
                sorted(
                    h
                    for u, info in sorted(data.ground.items())
                    if RELIEF in info.groups
                    and info.arrives == reinforce.RESERVE_TURN
                    and where(state, u) == POOL
                    and (h := data.start_hex(info.side, info.start)) is not None
                )
            )
    return PlanInputs(sixth, relief, screen)


@attrs.frozen
class RingPlan:
    """Where the ring around the 6th Army is open (S11.1), from one max-flow query.

    ``gaps``: a minimum set of hexes that RKKA units must still block (occupy or hold in
    ZOC) so that no 6th Army unit in the Stalingrad area can trace a path to a supply
    source (or, in the long game, to Manstein's relief group, S11.2) — the cut nearest
    the 6th Army, so the ring hugs the pocket rather than chasing along the Don — plus, in
    the long game, the relief's screen (:func:`ring_plan`); ``pocket``: the open hexes on
    the 6th Army's side of that cut; ``wall``: the blocked hexes next to the pocket (the
    ring already held) and next to the relief's side of the screen; ``manned``: the wall
    hexes an RKKA unit stood on; ``inputs``: the rest of what it was computed from.
    """

    gaps: frozenset[str]
    pocket: frozenset[str]
    wall: frozenset[str]
    manned: frozenset[str] = frozenset()
    inputs: PlanInputs | None = None
    closed: bool = False
    #: The hexes a move may block or give up: ``gaps | wall``.
    important: frozenset[str] = attrs.field(init=False, eq=False, repr=False)

    @important.default
    def _important(self) -> frozenset[str]:
        return self.gaps | self.wall

    def holds(self, state: State, inputs: PlanInputs) -> bool:
        """Whether the plan is still exact for ``state``: the same inputs, every wall hex
        still blocked and every manned one still manned. (Blocking more hexes only
        shrinks the open gaps, and the move scoring counts those afresh.)"""
        if inputs != self.inputs:
            return False
        at = PIECES.occupied(state)
        if any(h not in at for h in self.manned):
            return False
        sources, held = static(state).zoc_sources, _rkka_hexes(state)
        return all(not held.isdisjoint(sources[h]) for h in self.wall)


def ring_plan(
    state: State,
    inputs: PlanInputs | None = None,
) -> RingPlan | None:
    """The :class:`RingPlan` of the position, or ``None`` if no 6th Army unit is in the
    Stalingrad area.

    The graph is :func:`hexwar_stalingrad.victory.encircled`'s: passable hexes minus RKKA
    units and RKKA ZOC, plus the 6th Army's own hexes (sources, never cut).
    """
    inputs = inputs or plan_inputs(state)
    if inputs is None:
        return None
    data = static(state)
    sixth = set(inputs.sixth)
    manned = _rkka_hexes(state)
    blocked = manned | _rkka_zoc(state)
    free = data.passable - blocked
    open_cells = free | sixth
    sinks = (set(data.tagged(SUPPLY)) | set(inputs.relief)) & open_cells
    flows: dict[str, list[list[int]]] = {}  # each query's flow paths, for its next one
    ring = flows.setdefault("ring", [])
    found = _map_cut(data, open_cells, sixth, sinks, ring, near_sources=RING_NEAR_POCKET)
    if found is None:
        return None
    gaps, outside = found
    pocket = frozenset(open_cells - outside - gaps)
    wall = (
        frozenset(n for lab in pocket for n in data.neighbors[lab] if n not in open_cells)
        & data.passable
    )
    screen, fence = _screen(state, free, pocket, inputs, flows.setdefault("screen", []))
    open_ring = bool(gaps)
    if not gaps:
        # Closed: a 6th Army unit may still step into a ZOC hex of the wall (S6.3) and from
        # there trace a path out; such a hex next to an open outside hex is a thin spot.
        # The cut with those hexes as sources gives the hexes that thicken the ring.
        band = wall - manned
        thick = flows.setdefault("band", [])
        found = _map_cut(data, open_cells | band, sixth | band, sinks - band, thick)
        if found is not None and found[0]:
            gaps, outside = found
            deep = frozenset(open_cells - outside - gaps)
            reach = open_cells | band
            wall |= (
                frozenset(n for lab in deep | band for n in data.neighbors[lab] if n not in reach)
                & data.passable
            )
        # the thin spots depend on which wall hexes a unit stands on (the band is the rest)
        crew = frozenset(wall & manned)
    else:
        crew = frozenset()
    return RingPlan(frozenset(gaps) | screen, pocket, wall | fence, crew, inputs, not open_ring)


def ring_risk(state: State) -> tuple[int, int]:
    """How far the ring (S11.1) is from safe, once per position: ``(1, hexes to block)``
    while it is open, ``(0, hexes that thicken it)`` while closed with thin spots (a 6th
    Army unit could step into one and out), ``(0, 0)`` when no one step opens it."""

    def compute() -> tuple[int, int]:
        plan = ring_plan(state)
        if plan is None:
            return 0, 0
        return (0 if plan.closed else 1), len(plan.gaps)

    return compute()


def _screen(
    state: State,
    free: AbstractSet[str],
    pocket: AbstractSet[str],
    inputs: PlanInputs,
    paths: list[list[int]] | None = None,
) -> tuple[frozenset[str], frozenset[str]]:
    """Long game (S11.2): the hexes to block so that Manstein's relief group cannot move
    (stopping only on entering RKKA ZOC, S6.3) next to a 6th Army unit or the pocket, and
    the blocked hexes around the relief's side of that cut.

    The minimum cut nearest the relief (its units on the map, else, from the turn before
    the reserves arrive, their start hexes, S4.2) between it and the hexes next to the
    6th Army, in the graph of hexes free of RKKA units and ZOC.
    """
    relief = set(inputs.screen)
    if not relief:
        return frozenset(), frozenset()
    data = static(state)
    neighbors = data.neighbors
    near = set(inputs.sixth) | set(pocket)
    near.update(chain.from_iterable([neighbors[h] for h in near]))
    cells = set(free) | relief
    targets = set(chain.from_iterable([neighbors[h] for h in near])) & cells
    found = _map_cut(data, cells, relief, targets - relief, paths, near_sources=True)
    if found is None:
        return frozenset(), frozenset()
    cut, outside = found
    inside = cells - outside - cut
    fence = frozenset(n for h in inside for n in data.neighbors[h] if n not in cells)
    return frozenset(cut), fence & data.passable


def _map_cut(
    data: Static,
    open_cells: AbstractSet[str],
    sources: AbstractSet[str],
    sinks: AbstractSet[str],
    paths: list[list[int]] | None = None,
    *,
    near_sources: bool = False,
) -> tuple[set[str], set[str]] | None:
    """:func:`min_vertex_cut` on the map's own cell-index graph (no relabelling), started
    from ``paths`` (:func:`~hexwar_stalingrad.heuristic_flow.index_cut`)."""
    index, labels = data.label_indices, data.index_labels
    is_open = [False] * len(labels)
    for lab in open_cells:
        is_open[index[lab]] = True
    is_sink = [False] * len(labels)
    for lab in sinks:
        is_sink[index[lab]] = True
    found = index_cut(
        data.neighbor_indices,
        is_open,
        sorted(index[s] for s in sources),
        is_sink,
        FLOW_LIMIT,
        near_sources,
        paths,
    )
    if found is None:
        return None
    return {labels[i] for i in found[0]}, {labels[i] for i in found[1]}


class _RingMoves:
    """RKKA moves scored against a :class:`RingPlan`: gaps newly blocked, ring hexes lost."""

    def __init__(
        self,
        state: State,
        plan: RingPlan,
        mine: Sequence[tuple[str, str]],
    ) -> None:
        self.data = data = static(state)
        self.disks = data.zoc_disks
        # how many of the units block each ring hex (only those hexes are ever asked)
        hexes, sources = frozenset([label for label, _ in mine]), data.zoc_sources
        count = {h: n for h in plan.important if (n := len(sources[h] & hexes))}
        self.count = count
        self.open_gaps = frozenset([g for g in plan.gaps if g not in count])
        self.important = plan.important
        self.manned = plan.manned
        self.fresh: dict[str, int] = {}  # target hex -> open gaps it blocks
        in_city = [u for lab, u in mine if lab in data.city]
        self.last_in_city = in_city[0] if len(in_city) == 1 else None

    def held(self, origin: str) -> frozenset[str]:
        """Ring hexes only the unit on ``origin`` blocks, and ``origin`` itself if it is a
        manned hex of a closed ring (left, a 6th Army unit could step in, S6.3)."""
        near = self.disks[origin] & self.important
        if near:
            count = self.count
            near = frozenset([h for h in near if count.get(h) == 1])
        return near | {origin} if origin in self.manned else near

    def change(
        self, unit: str, origin: str, target: str, held: frozenset[str] | None = None
    ) -> tuple[int, int]:
        """``(gaps newly blocked, ring hexes given up)`` by ``move unit target``."""
        disk = self.disks[target]
        new = self.fresh.get(target)
        if new is None:
            new = self.fresh[target] = len(self.open_gaps & disk)
        mine = self.held(origin) if held is None else held
        lost = len(mine - disk) if mine else 0
        if origin in self.manned and origin in disk:
            lost += 1  # the hex stays blocked, but only by ZOC
        if unit == self.last_in_city and target not in self.data.city:
            lost += CITY_WEIGHT
        return new, lost


def _nearest(data: Static, label: str, targets: Sequence[str]) -> str | None:
    """The target fewest passable steps from ``label`` (:meth:`Static.path_steps`; ties:
    the first label), ``None`` without targets."""
    if not targets:
        return None
    return min(sorted(targets), key=lambda t: data.path_steps((t,)).get(label, FAR))


def ring_targets(state: State, plan: RingPlan, units: Sequence[str]) -> dict[str, str]:
    """Assign hexes that block the open gaps to free RKKA ``units`` (S11.1).

    Greedy set cover of the open gaps by unit positions (hex and ZOC), then a greedy
    matching of the free units (those holding no ring hex alone) by turns to arrive.
    """
    data = static(state)
    disks = data.zoc_disks
    mine = _on_map(state, "rkka")
    moves = _RingMoves(state, plan, mine)
    here = {u: lab for lab, u in mine}
    open_gaps = set(moves.open_gaps)
    anchors: list[str] = []
    candidates = sorted(
        {n for g in open_gaps for n in disks[g] if n in data.passable and unit_at(state, n) is None}
    )
    while open_gaps and candidates:
        best = max(candidates, key=lambda c: (len(open_gaps & disks[c]), c not in plan.pocket))
        if not open_gaps & disks[best]:
            break
        anchors.append(best)
        open_gaps -= disks[best]
        candidates.remove(best)
    free = [
        u
        for u in units
        if u in here and data.ground[u].arm not in ground.ARTILLERY_ARMS and not moves.held(here[u])
    ]

    speed = {u: max(ground.allowance(state, u, hooked=False), 1) for u in free}
    steps = {a: data.path_steps((a,)) for a in anchors}
    turns = []  # (turns to arrive, steps, unit, anchor)
    for u in free:
        at, pace = here[u], speed[u]
        for a in anchors:
            d = steps[a].get(at, FAR)
            turns.append((-(-d // pace), d, u, a))
    turns.sort()
    out: dict[str, str] = {}
    for t in turns:
        unit, anchor = t[2], t[3]
        if unit not in out and anchor not in out.values():
            out[unit] = anchor
    return out


def objectives(state: State, side: str, plan: RingPlan | None = None) -> dict[str, str]:
    """The hex each of ``side``'s ground units heads for (see the module docstring)."""
    data = static(state)
    near = functools.partial(_nearest, data)
    ground_units = data.ground
    mine = _on_map(state, side)
    foes = _on_map(state, enemy(side))
    sixth = _group(state, SIXTH)
    relief = _group(state, RELIEF)
    goals: dict[str, str | None] = {}
    if side == "rkka":
        enemy_hexes = [lab for lab, _ in foes]
        assigned = ring_targets(state, plan, [u for _, u in mine]) if plan else {}
        gaps = sorted(plan.gaps) if plan else []
        city = sorted(data.city)
        city_goer = None
        if city and not any(lab in data.city for lab, _ in mine):
            to_city = data.path_steps(tuple(city))
            city_goer = min(
                (u for _, u in mine if ground_units[u].arm not in ground.ARTILLERY_ARMS),
                key=lambda u: (to_city.get(where(state, u), FAR), u),
                default=None,
            )
        for label, unit in mine:
            arm = ground_units[unit].arm
            if unit == city_goer:
                goals[unit] = near(label, city)
            elif unit in assigned:
                goals[unit] = assigned[unit]
            elif relief and not _short(state) and ground_units[unit].arrives == RESERVE_TURN:
                # long game (S11.2): the turn-6 reserves (2nd Guards Army, 5th Shock Army)
                # go for the relief, as on the Myshkova; the armies of the ring hold it
                goals[unit] = near(label, relief)
            elif arm in _MOBILE or plan is not None:  # close up on the ring
                goals[unit] = near(label, gaps or sixth or enemy_hexes)
            else:
                goals[unit] = near(label, enemy_hexes)
    else:
        pocket = [lab for lab in sixth if lab in data.stalingrad_area] or sixth
        city = sorted(data.city)
        to_city = data.path_steps(tuple(city))
        for label, unit in mine:
            if SIXTH in ground_units[unit].groups and label in data.stalingrad_area:
                # the 6th Army holds the pocket and the city; the corps west of it (the
                # small Don bend) fall back into it, as XI Corps did on 23-26 November
                if to_city.get(label, FAR) > POCKET_RADIUS:
                    goals[unit] = near(label, city)
                continue
            goals[unit] = near(label, pocket)
    return {u: g for u, g in goals.items() if g is not None}
