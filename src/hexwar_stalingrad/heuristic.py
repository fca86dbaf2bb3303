"""A heuristic bot for «Сталинград»: simple, explainable, deterministic given its seed.

What it does, phase by phase:

- cards (S5): plays a card in the phase where its effect counts (a movement bonus in
  movement, an odds shift in the attack phase, air strength in air combat, a bombardment
  die modifier in the artillery phase, the rest at once in its card phase);
- replacements (S4.1): restores the strongest reduced unit, else rebuilds the strongest
  destroyed unit at full strength, else at reduced strength;
- air (S10): bombers onto the strongest non-tank enemy units (reduced ones first: one loss
  destroys them), fighters next to enemy bombers; attacks at the best odds, 2:1 or better;
- movement and exploitation (S6): each unit moves only if that brings it closer to its
  objective — RKKA armour and cavalry: the 6th Army (the ring, S11.1), one unit to the city;
  RKKA infantry: the nearest enemy; Wehrmacht relief group: the 6th Army (S11.2); the 6th
  Army toward the relief group once it is on the map; artillery: range 2 of an enemy (S7.1);
- artillery (S7): bombards the best target (reduced, not tanks, not fortified);
- ground attacks (S8): the best odds available, 2:1 or better (any odds on artillery,
  S7.4), with the fewest attackers that reach that column;
- decisions: the strongest attacker advances; the weakest takes an attacker's loss; the
  defender (AL) hits a reduced attacker first; retreats go away from the defender's goals.

Ties are broken by a :class:`hexwar.dice.SeededDriver`, so a seed fixes every choice.

>>> from hexwar_stalingrad.rules import StalingradRules
>>> bots = {s: HeuristicBot(seed=1) for s in ("rkka", "wehrmacht")}
>>> state = play(StalingradRules(length="short"), bots, seed=1)
>>> state.is_terminal(), state.turn
(True, 5)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Final

from hexwar.actions import END, Action, Value
from hexwar.dice import SeededDriver
from hexwar.state import Ruleset, State
from hexwar_stalingrad import air, ground
from hexwar_stalingrad.board import FULL, REDUCED, enemy, on_map, static, step, strength, where
from hexwar_stalingrad.bots import Bot, fast_legal_actions
from hexwar_stalingrad.static import Static

__all__ = ["ATTACK_THRESHOLD", "HeuristicBot", "play"]

#: The lowest odds column the bot attacks at (ground S8.2, air S10.5), as an index: 2:1.
ATTACK_THRESHOLD: Final = 1
_MOBILE: Final = frozenset({"tank", "mechanized", "cavalry"})
#: RKKA armour heads for hexes this many steps out from the 6th Army toward its supply.
CUT_NEAR: Final = 2
CUT_FAR: Final = 4
#: Where a card's effect kind counts (S5.4): the phase to play it in (else its card phase).
_CARD_PHASE: Final = {
    "movement_bonus": "movement",
    "odds_shift": "attack",
    "air_strength": "combat",
    "die_modifier": "artillery",
}


class HeuristicBot:
    """A bot: ``bot(state) -> Action`` for the side to act (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._driver = SeededDriver(seed)

    def _pick(self, scored: Sequence[tuple[float, Action]]) -> Action:
        best = max(s for s, _ in scored)
        top = sorted(a for s, a in scored if s == best)
        if len(top) == 1:
            return top[0]
        return self._driver.pick([(a, Fraction(1, len(top))) for a in top])

    def __call__(self, state: State) -> Action:
        actions = fast_legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        side = state.current_player()
        if state.pending:
            return self._decide(state, side, actions)
        card = self._card(state, side, actions)
        if card is not None:
            return card
        kinds = {a.kind for a in actions}
        if "move" in kinds:
            return self._move(state, side, actions)
        if "bombard" in kinds:
            return self._pick(
                [(_bombard_score(state, a), a) for a in actions if a.kind == "bombard"]
            )
        if "attack" in kinds:
            return self._best_attack(state, actions, "attack")
        if "intercept" in kinds:
            return self._best_attack(state, actions, "intercept")
        if kinds & {"restore", "rebuild"}:
            return self._replace(state, actions)
        return END

    # -- cards (S5) ----------------------------------------------------------------------------

    def _card(self, state: State, side: str, actions: list[Action]) -> Action | None:
        data = static(state)
        phase = str(state.phase)
        for a in actions:
            if a.kind != "play":
                continue
            kinds = [e.kind for e in data.cards[a.args[0]].effects]
            wanted = _CARD_PHASE.get(kinds[0]) if kinds else None
            if wanted is None and state.stage == "cards":
                return a
            if wanted is not None and phase.startswith(wanted):
                return a
        return None

    # -- replacements (S4.1) -------------------------------------------------------------------

    def _replace(self, state: State, actions: list[Action]) -> Action:
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
                scored.append(((500 if a.args[2] == FULL else 0) + value(a.args[0]), a))
        return self._pick(scored) if scored else END

    # -- movement (S6) -------------------------------------------------------------------------

    def _move(self, state: State, side: str, actions: list[Action]) -> Action:
        data = static(state)
        goals = objectives(state, side)
        enemies = [lab for lab, _ in on_map(state, enemy(side))]
        here = {u: lab for lab, u in on_map(state, side)}
        scored: list[tuple[float, Action]] = []
        dist = data.distance
        for a in actions:
            if a.kind != "move":
                continue
            unit, target = a.args
            if data.ground[unit].arm in ground.ARTILLERY_ARMS:
                gain = _range_gain(data, here[unit], target, enemies)
            else:
                goal = goals.get(unit)
                if goal is None:
                    continue
                gain = dist(here[unit], goal) - dist(target, goal)
            if gain > 0:
                scored.append((gain - 0.01 * dist(here[unit], target), a))
        return self._pick(scored) if scored else END

    # -- attacks (S8, S10.5) -------------------------------------------------------------------

    def _best_attack(self, state: State, actions: list[Action], kind: str) -> Action:
        data = static(state)
        scored: list[tuple[float, Action]] = []
        for a in actions:
            if a.kind != kind:
                continue
            defender, *attackers = a.args
            if kind == "attack":
                column, shift = ground.attack_odds(state, defender, attackers)
                labels = data.crt.labels
                helpless = data.ground[defender].arm in ground.ARTILLERY_ARMS
            else:
                column = air.air_odds(state, defender, attackers)[2]
                shift, labels, helpless = 0, air.air_table(state).labels, False
            if column is None:
                continue
            index = min(labels.index(column) + shift, len(labels) - 1)
            if index < ATTACK_THRESHOLD and not helpless:
                continue
            reduced_bonus = 0.5 if kind == "attack" and step(state, defender) == REDUCED else 0
            scored.append((index + reduced_bonus - 0.1 * len(attackers), a))
        return self._pick(scored) if scored else END

    # -- decisions -----------------------------------------------------------------------------

    def _decide(self, state: State, side: str, actions: list[Action]) -> Action:
        kind = state.pending[-1].kind
        data = static(state)
        if kind == "air_place":
            return self._place(state, side, actions)
        if kind in ("advance", "air_advance"):
            units = [a for a in actions if a.args[0] != "none"]
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
            goal = objectives(state, data.ground[defender].side).get(defender)
            if goal is not None:
                return self._pick([(data.distance(a.args[0], goal), a) for a in actions])
        return self._pick([(0, a) for a in actions])

    def _place(self, state: State, side: str, actions: list[Action]) -> Action:
        data = static(state)
        flies = [a for a in actions if a.kind == "fly"]
        if not flies:
            return END
        role = str(state.pending[-1].params[0])
        scored: list[tuple[float, Action]] = []
        if role == air.BOMBER:
            for a in flies:
                target = state.get("at", a.args[1])
                assert isinstance(target, str)
                info = data.ground[target]
                value = strength(state, target) + (10 if step(state, target) == REDUCED else 0)
                scored.append((-100 if info.arm == "tank" else value, a))
        else:
            enemy_bombers = [
                h for u in air.aloft(state, enemy(side), air.BOMBER) if (h := air.sky_hex(state, u))
            ]
            taken = {h for u in air.aloft(state, side) if (h := air.sky_hex(state, u))}
            for a in flies:
                near = sum(1 for h in enemy_bombers if data.distance(h, a.args[1]) == 1)
                if near:
                    scored.append((near - (a.args[1] in taken), a))
        return self._pick(scored) if scored and max(s for s, _ in scored) > 0 else END


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


def _range_gain(data: Static, here: str, there: str, enemies: list[str]) -> float:
    """Artillery: get to exactly two hexes from an enemy (S7.1), never next to one."""

    def badness(label: str) -> int:
        if not enemies:
            return 0
        nearest = min(data.distance(label, e) for e in enemies)
        return 10 if nearest <= 1 else abs(nearest - 2)

    return badness(here) - badness(there)


def objectives(state: State, side: str) -> dict[str, str]:
    """The hex each of ``side``'s ground units heads for (see the module docstring)."""
    data = static(state)
    ground_units = data.ground
    mine = on_map(state, side)
    foes = on_map(state, enemy(side))
    sixth = [lab for lab, u in on_map(state, "wehrmacht") if "6th_army" in ground_units[u].groups]
    relief = [
        lab for lab, u in on_map(state, "wehrmacht") if "relief_group" in ground_units[u].groups
    ]

    def nearest(label: str, targets: Sequence[str]) -> str | None:
        return min(targets, key=lambda t: (data.distance(label, t), t)) if targets else None

    goals: dict[str, str | None] = {}
    if side == "rkka":
        enemy_hexes = [lab for lab, _ in foes]
        cuts = cut_hexes(state, sixth)
        in_city = any(lab in data.city for lab, _ in mine)
        city_goer = None
        if not in_city and data.city:
            city = sorted(data.city)
            city_goer = min(
                (u for _, u in mine if ground_units[u].arm not in ground.ARTILLERY_ARMS),
                key=lambda u: (
                    data.distance(where(state, u), nearest(where(state, u), city) or ""),
                    u,
                ),
                default=None,
            )
        for label, unit in mine:
            arm = ground_units[unit].arm
            if unit == city_goer:
                goals[unit] = nearest(label, sorted(data.city))
            elif arm in _MOBILE:
                goals[unit] = nearest(label, cuts or sixth or enemy_hexes)
            else:
                goals[unit] = nearest(label, enemy_hexes)
    else:
        for label, unit in mine:
            groups = ground_units[unit].groups
            if "relief_group" in groups:
                goals[unit] = nearest(label, sixth)
            elif "6th_army" in groups and relief:
                goals[unit] = nearest(label, relief)
    return {u: g for u, g in goals.items() if g is not None}


def cut_hexes(state: State, sixth: Sequence[str]) -> list[str]:
    """Hexes 2-4 steps out on the straight lines from each 6th Army unit to its nearest
    supply source (S11.1): where RKKA armour blocks the way out. Sorted."""
    data = static(state)
    supplies = data.tagged("supply:wehrmacht")
    if not supplies:
        return []
    out = set()
    for label in sixth:
        source = min(supplies, key=lambda t: (data.distance(label, t), t))
        line = data.cell(label).line_to(data.cell(source))
        for cell in line[CUT_NEAR : CUT_FAR + 1]:
            if cell in data.game_map:
                lab = data.label(cell)
                if lab in data.passable and state.get("at", lab) is None:
                    out.add(lab)
    return sorted(out)


def play(
    rules: Ruleset,
    bots: Mapping[str, Bot],
    seed: int = 0,
    *,
    options: Mapping[str, Value] | None = None,
    max_steps: int = 100_000,
    on_step: Callable[[State, Action], None] | None = None,
) -> State:
    """Play one game: chance through ``SeededDriver(seed)``, each side by its bot.

    ``on_step(state, action)`` is called before each action is applied (for summaries).
    """
    driver = SeededDriver(seed)
    state = rules.new_state(options=options)
    for _ in range(max_steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = driver.pick(state.chance_outcomes())
        else:
            action = bots[state.current_player()](state)
        if on_step is not None:
            on_step(state, action)
        state.apply_unchecked(action)
    return state
