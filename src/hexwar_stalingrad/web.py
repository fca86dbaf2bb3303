"""«Сталинград» in the browser: the :class:`~hexwar.web.games.WebGame` that
``python -m hexwar_stalingrad serve`` serves (``docs/web.md``).

>>> from hexwar.web.session import Session
>>> session, tokens = Session.create(WEB, {"length": "short"}, {"wehrmacht": "heuristic"})
>>> sorted(tokens)
['rkka']
>>> view = board(session.state, "rkka")
>>> len(view.counters) == len(counters(session.state))
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from hexwar.engine.actions import Action
from hexwar.engine.loop import Player
from hexwar.engine.state import Ruleset, State
from hexwar.web.games import BoardView, WebGame
from hexwar_stalingrad import air, ground
from hexwar_stalingrad.board import on_map, static
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.render import STYLE, counters
from hexwar_stalingrad.rules import GAME_LENGTHS, StalingradRules

__all__ = ["DECISIONS", "WEB", "attack_preview", "board", "describe", "roll_result", "web_game"]

#: The kinds a click on a unit starts, in order (S6 move, S8 attack, S7 bombard, S10 air).
UNIT_KINDS: Final = ("move", "attack", "bombard", "fly", "intercept", "land", "loss", "advance")


def board(state: State, side: str | None) -> BoardView:
    """The map and every counter (ground units on the map, air units aloft): all public
    (the hidden air plans and the hands are not drawn)."""
    views = counters(state)
    units = [unit for _, unit in on_map(state)] + sorted(state.table("sky"))
    return BoardView(static(state).game_map, list(zip(units, views, strict=True)), STYLE)


def attack_preview(state: State, prefix: tuple[str, ...]) -> str | None:
    """The exact CRT results of the attack being declared (``attack DEFENDER A1 ...``,
    S8.2, S8.3): its column, the card shifts and die modifiers, from
    :func:`hexwar_stalingrad.ground.attack_distribution`."""
    if state.pending or state.phase != "attack" or prefix[0] != "attack" or len(prefix) < 3:
        return None
    defender, attackers = prefix[1], prefix[2:]
    column, shift = ground.attack_odds(state, defender, attackers)
    if column is None:
        return f"S8.2: {ground.attack_strength(state, attackers)} against {defender}: below 1:1"
    dist = ground.attack_distribution(state, defender, attackers)
    results = ", ".join(f"{r.code} {p}" for r, p in dist.outcomes)
    shifted = f" shifted {shift:+d}" if shift else ""
    return f"odds {column}{shifted}: {results}"


def describe(state: State, token: str) -> str | None:
    """A button's name for a unit (its name), an air unit (its aircraft) or a card (its
    name and text, S5), in English and Russian; ``None`` for other tokens."""
    data = static(state)
    if token in data.ground:
        info = data.ground[token]
        return f"{info.name} / {info.name_ru}"
    if token in data.air:
        plane = data.air[token]
        return f"{plane.aircraft} / {plane.aircraft_ru} ({plane.role})"
    if token in data.cards:
        card = data.cards[token]
        return f"{card.name} / {card.name_ru}: {card.text}"
    return None


#: The decisions in words for the status line (the rules they answer: ``DECISION_RULES``).
DECISIONS: Final = {
    "retreat": "choose the retreat hex (S8.5)",
    "advance": "advance after combat, or stop (S8.4)",
    "al_loss": "choose the attacker that takes the AL loss (S8.4)",
    "ex_loss": "choose the units that pay the exchange (S8.4)",
    "reserve": "place the reserve unit (S4.2)",
    "air_place": "place the air units, in secret (S10.2)",
    "air_loss": "choose the air unit lost (S10.5)",
    "air_advance": "advance the air unit, or not (S10.5)",
    "air_home": "choose the air unit's airfield (S10.6)",
}


def roll_result(state: State, outcome: Action) -> str | None:
    """The table's result of a die roll about to be applied: the CRT for an attack
    (S8.3) or an air combat (S10.5), the bombardment table for artillery (S7.2) or an air
    strike (S9.2); ``None`` for other chance events (the shuffles)."""
    decision = state.pending[-1] if state.pending else None
    if decision is None or decision.kind not in ("roll", "air_roll"):
        return None
    roll = outcome.int_arg(0)
    what, *params = (str(p) for p in decision.params)
    if decision.kind == "roll" and what == "attack":
        defender, column, shift, *attackers = params
        found = ground.attack_result(state, defender, column, int(shift), tuple(attackers), roll)
        return f"{found.code} ({column} column)"
    if decision.kind == "roll" and what == "bombard":
        return f"{ground.bombard_result(state, params[0], params[1], roll).code} (bombardment)"
    if what == "strike":
        return f"{air.strike_result(state, params[0], roll).code} (air strike)"
    column, attacker = params[1], params[2]
    side = static(state).air[attacker].side
    return f"{air.combat_result(state, column, side, roll).code} ({column} column, air)"


def _rules(options: Mapping[str, str]) -> Ruleset:
    return StalingradRules(length=options.get("length", "short"))


def _heuristic(seed: int) -> Player:
    return HeuristicBot(seed)


def web_game(scenario: str | None = None) -> WebGame:
    """The game for a scenario directory (``None``: the shipped data), for ``serve
    --scenario DIR``."""
    if scenario is None:
        return WEB

    def rules(options: Mapping[str, str]) -> Ruleset:
        return StalingradRules.from_scenario(scenario, length=options.get("length", "short"))

    name = StalingradRules.from_scenario(scenario).data.name  # scenario.toml's, or the default
    return attrs.evolve(WEB, rules=rules, title=f"{WEB.title} ({scenario})", scenario=name)


WEB: Final = WebGame(
    name="stalingrad",
    title="«Сталинград» / Stalingrad 1942",
    rules=_rules,
    options={"length": tuple(sorted(GAME_LENGTHS, key=lambda k: GAME_LENGTHS[k]))},
    bots={"heuristic": _heuristic},
    board=board,
    unit_kinds=UNIT_KINDS,
    preview=attack_preview,
    describe=describe,
    roll_result=roll_result,
    decisions=DECISIONS,
)
