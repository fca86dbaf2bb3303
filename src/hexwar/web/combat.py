"""The page's help for games on the shared combat mechanism
(:class:`~hexwar.mechanics.combat.Combat`): the odds of the attack being declared, the
table's result beside each roll, and the combat's decisions in words.

All three only read the state, through the mechanism's public queries
(:meth:`~hexwar.mechanics.combat.Combat.odds`, ``distribution``, the table's
``result_at``, ``decision_kind``). :func:`~hexwar.web.games.generic` adds them to any
ruleset whose module holds a ``Combat``; a game's own :class:`~hexwar.web.games.WebGame`
adds them with :func:`combat_support`.

>>> class Nothing(Ruleset):
...     name = "nothing"
...     sides = ("a",)
>>> combats_of(Nothing())
[]
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.combat import Combat

__all__ = ["combat_support", "combats_of", "decision_words", "odds_line", "roll_line"]

#: The result program's parts in words (a game may spell the kinds its own way).
_PARTS = {
    "dloss": "the defender chooses the steps lost",
    "aloss": "the attacker chooses the steps lost",
    "pay": "choose the units that pay the exchange",
    "retreat": "choose the retreat",
    "advance": "advance after combat, or stop",
}


def combats_of(ruleset: Ruleset) -> list[Combat]:
    """The :class:`Combat` objects a ruleset plays: its own attributes, its classes',
    and its class's module's (in that order, each once)."""
    places: list[Mapping[str, Any]] = [vars(ruleset)]
    places += [vars(k) for k in type(ruleset).__mro__]
    module = sys.modules.get(type(ruleset).__module__)
    if module is not None:
        places.append(vars(module))
    found: list[Combat] = []
    for place in places:
        for value in place.values():
            if isinstance(value, Combat) and all(value is not c for c in found):
                found.append(value)
    return found


def _percent(p: Fraction) -> str:
    return f"{float(p):.0%}"


def odds_line(combats: Sequence[Combat], state: State, prefix: tuple[str, ...]) -> str | None:
    """The odds of the attack ``prefix`` declares (``attack CELL A1 ...``) and the
    probability of each result; ``None`` when ``prefix`` is not such an attack."""
    if state.pending or len(prefix) < 3:
        return None
    for combat in combats:
        if prefix[0] != combat.attack_kind:
            continue
        side, cell, attackers = state.current_player(), prefix[1], prefix[2:]
        try:
            odds = combat.odds(state, side, cell, attackers)
            ratio = f"{odds.attack}:{odds.defence}"
            if odds.refused:
                return f"{ratio}: below the table, the attack is refused"
            if odds.automatic is not None:
                return f"{ratio}: automatic {odds.automatic}"
            dist = combat.distribution(state, side, cell, attackers)
        except (HexwarError, KeyError, ValueError):
            return None
        shifted = f" shifted {odds.shift:+d}" if odds.shift else ""
        results = ", ".join(f"{r.code} {_percent(p)}" for r, p in dist.outcomes)
        return f"{ratio} on the {odds.column} column{shifted}: {results}"
    return None


def roll_line(combats: Sequence[Combat], state: State, outcome: Action) -> str | None:
    """The table's result of the roll ``outcome`` about to answer a combat's roll."""
    decision = state.pending[-1] if state.pending else None
    if decision is None:
        return None
    for combat in combats:
        if decision.kind != combat.decision_kind("roll"):
            continue
        _cell, column, modifier = decision.params
        modified = f" {int(str(modifier)):+d}" if modifier else ""
        rolled = decision.rolled(outcome)
        result = combat.table.result_at(str(column), rolled, modifier=int(str(modifier)))
        return f"{result.code} ({column} column{modified})"
    return None


def decision_words(combat: Combat) -> dict[str, str]:
    """The combat's decision kinds in words, for the status line (both step losses
    share one kind unless the game spells them apart)."""
    out: dict[str, str] = {}
    for part, words in _PARTS.items():
        kind = combat.decision_kind(part)
        out[kind] = "choose the steps lost" if kind in out else words
    return out


def combat_support(game: Any, *combats: Combat) -> Any:
    """``game`` with the odds preview, roll results and decision words of ``combats``
    (what the game gives itself is kept). ``game`` is a
    :class:`~hexwar.web.games.WebGame` (typed ``Any``: ``games.generic`` imports this module)."""
    words: dict[str, str] = {}
    for combat in combats:
        words |= decision_words(combat)

    def preview(state: State, prefix: tuple[str, ...]) -> str | None:
        return odds_line(combats, state, prefix)

    def roll_result(state: State, outcome: Action) -> str | None:
        return roll_line(combats, state, outcome)

    return attrs.evolve(
        game,
        preview=game.preview or preview,
        roll_result=game.roll_result or roll_result,
        decisions=words | dict(game.decisions),
    )
