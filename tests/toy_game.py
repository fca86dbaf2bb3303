"""«Дуэль» (Duel): a tiny two-unit game written only against hexwar's public API.

It exercises every engine feature on a seven-hex line ``Hex(0,0) .. Hex(6,0)``:

- set-up: each side is dealt a hidden card from a cup of ``ambush, dud, dud`` (chance
  events whose outcome only the receiver sees);
- each turn: a ``red`` stage then a ``blue`` stage, each with two phases, ``move`` (up to
  2 hexes, never through the enemy) and ``fire`` (skipped unless the units are adjacent);
- ``attack`` rolls a d6 (a chance node); a modified 4+ hits, and the *defender* decides
  out of turn whether to ``absorb`` the hit (lose a step) or ``retreat`` one hex;
- the ``ambush`` card, played in a fire phase, is an effect (+2 to its owner's rolls
  this phase); a defender on the hill (column 3) gets -1 (option ``hill``);
- a unit that loses both steps is destroyed and the other side wins at once; a unit on
  the hill at the end of a turn from turn 3 on, facing a reduced enemy, wins; after the
  turn limit the side with more steps wins, else it is a draw.

Seats: red is split into a driver (moves and retreats) and a gunner (fires, plays cards).

Action space: 20 tokens (``done``, 8 kinds, the sides, columns 0-6, the two cards; the
die's 1-6 share the columns' tokens). Legality is written as lists; the engine derives
the token tree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from hexwar.engine.actions import Action, Decision, Outcome, Seat, Value
from hexwar.engine.dice import D6, draw_outcomes
from hexwar.engine.hooks import Effect, EffectRule, Expiry
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex

SIDES = ("red", "blue")
BOARD = tuple(Hex(q, 0) for q in range(7))
HOME = {"red": 0, "blue": 6}
HILL = 3
CUP = ("ambush", "dud", "dud")
HIT = 4  # a modified roll of HIT or more hits
ALLOWANCE = 2
STEPS = 2


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def unit(state: State, side: str) -> tuple[int, int]:
    """``(column, steps)`` of a side's unit."""
    value = state.get("units", side)
    assert isinstance(value, tuple)
    q, n = value
    assert isinstance(q, int)
    assert isinstance(n, int)
    return q, n


def position(state: State, side: str) -> Hex:
    return Hex(unit(state, side)[0], 0)


def steps(state: State, side: str) -> int:
    return unit(state, side)[1]


def adjacent(state: State) -> bool:
    return position(state, "red").distance(position(state, "blue")) == 1


def _clear_done(state: State) -> None:
    for side in SIDES:
        state.delete("done", side)


def _stage(side: str) -> Stage:
    return Stage(
        side,
        (
            Phase("move", side=side, on_enter=_clear_done),
            Phase("fire", side=side, skip=lambda s: not adjacent(s), on_enter=_clear_done),
        ),
    )


def _ambush_bonus(state: State, effect: Effect, value: int, **context: Any) -> int:
    return value + 2 if context.get("side") == effect.owner else value


def _deal(side: str, cup: Iterable[str]) -> Decision:
    outcomes = tuple((Action.of("deal", card), p) for card, p in draw_outcomes(list(cup)))
    return Decision.chance("deal", outcomes, params=(side,), private=side)


class Duel(Ruleset):
    """The toy ruleset (see the module docstring)."""

    name = "duel"
    sides = SIDES
    effect_rules: ClassVar[Mapping[str, Mapping[str, EffectRule]]] = {
        "ambush": {"die_modifier": _ambush_bonus}
    }

    def __init__(self, turns: int = 4) -> None:
        self.sequence = TurnSequence(stages=(_stage("red"), _stage("blue")), turn_limit=turns)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        for side in SIDES:
            state.put("units", side, (HOME[side], STEPS))
        state.put("cup", "chits", CUP)
        state.hide("cup", "chits", None)
        state.push(_deal("red", CUP))

    def seats(self) -> tuple[Seat, ...]:
        return (
            Seat("red-driver", "red", frozenset({"move"})),
            Seat("red-gunner", "red", frozenset({"fire"})),
            Seat("blue", "blue"),
        )

    def action_tags(self, state: State, action: Action) -> frozenset[str]:
        if action.kind in ("move", "retreat", "absorb"):
            return frozenset({"move"})
        if action.kind in ("attack", "play"):
            return frozenset({"fire"})
        return frozenset()

    # -- actions ---------------------------------------------------------------------------

    def action_space(self) -> ActionSpace:
        """8 kinds, the sides, the columns 0-6, the cards, the die (1-6 share the
        columns' tokens): 20 tokens with ``done``."""
        kinds = ("end", "move", "attack", "play", "deal", "roll", "absorb", "retreat")
        return ActionSpace.of(
            kinds, side=SIDES, column=range(len(BOARD)), card=sorted(set(CUP)), die=range(1, 7)
        )

    def phase_actions(self, state: State, side: str) -> list[Action]:
        if state.get("done", side):
            return []
        if state.phase == "move":
            here, there = position(state, side), position(state, other(side))
            reach = state.hook("movement_allowance", ALLOWANCE, unit=side)
            return [
                Action.of("move", side, h.q)
                for h in BOARD
                if 1 <= here.distance(h) <= reach
                and h != there
                and not min(here.q, h.q) < there.q < max(here.q, h.q)
            ]
        actions = [Action.of("attack", side)]
        if state.get("hand", side) == "ambush":
            actions.append(Action.of("play", side, "ambush"))
        return actions

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        assert decision.kind == "hit"
        defender = decision.side
        here, foe = position(state, defender), position(state, other(defender))
        retreats = [
            Action.of("retreat", h.q)
            for h in here.neighbors()
            if h in BOARD and h.distance(foe) > here.distance(foe)
        ]
        return [Action("absorb"), *retreats]

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        if action.kind == "move" and state.phase == "move":
            return (
                f"{action}: not a reachable empty hex (max {ALLOWANCE}, not through the enemy)",
                "D2",
            )
        return super().explain(state, action)

    def play(self, state: State, action: Action) -> None:
        side = action.args[0]
        if action.kind == "move":
            state.put("units", side, (action.int_arg(1), steps(state, side)))
            state.put("done", side, True)
        elif action.kind == "attack":
            state.put("done", side, True)
            outcomes = tuple((Action.of("roll", n), p) for n, p in D6.outcomes())
            state.push(Decision.chance("roll", outcomes, params=(side,)))
        elif action.kind == "play":
            state.add_effect(
                "ambush", expiry=Expiry.PHASE, precedence=10, owner=side, source="ambush"
            )
            state.put("hand", side, "used")
            state.reveal("hand", side)
        else:  # pragma: no cover - legal_actions offers nothing else
            raise AssertionError(action)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        if decision.kind == "deal":
            (side,) = decision.params
            assert isinstance(side, str)
            card = action.args[0]
            cup = [c for c in state.get("cup", "chits") or () if isinstance(c, str)]  # type: ignore[union-attr]
            cup.remove(card)
            state.put("cup", "chits", tuple(cup))
            state.put("hand", side, card)
            state.hide("hand", side, side)
            if side == "red":
                state.push(_deal("blue", cup))
        elif decision.kind == "roll":
            (attacker,) = decision.params
            assert isinstance(attacker, str)
            total = action.int_arg(0) + state.hook("die_modifier", 0, side=attacker)
            if total >= HIT:
                state.push(Decision("hit", other(attacker), (attacker,)))
        elif decision.kind == "hit":
            defender = decision.side
            left = steps(state, defender) - (action.kind == "absorb")
            q = action.int_arg(0) if action.kind == "retreat" else position(state, defender).q
            state.put("units", defender, (q, left))
            if left == 0:
                state.end_game(Outcome(other(defender), f"{defender} unit destroyed"))
        else:  # pragma: no cover
            raise AssertionError(decision)

    # -- hooks -----------------------------------------------------------------------------

    def hook_die_modifier(self, state: State, value: int, *, side: str) -> int:
        on_hill = position(state, other(side)).q == HILL
        return value - 1 if on_hill and state.options.get("hill", True) else value

    def hook_victory_check(self, state: State, value: Outcome | None) -> Outcome | None:
        if state.turn < 3:
            return value
        for side in SIDES:
            if position(state, side).q == HILL and steps(state, other(side)) < STEPS:
                return Outcome(side, f"{side} holds the hill")
        return value

    def final_outcome(self, state: State) -> Outcome:
        red, blue = steps(state, "red"), steps(state, "blue")
        if red == blue:
            return Outcome(None, "turn limit: equal strength")
        return Outcome("red" if red > blue else "blue", "turn limit: stronger")
