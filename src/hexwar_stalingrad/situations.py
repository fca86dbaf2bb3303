"""Build exact game situations for tests, examples and analysis.

:func:`ready` plays the set-up (deck shuffles, S3.3) with a seeded driver;
:func:`situation` then clears the board and the cards and puts the given units where the
example needs them, at a given turn, stage and phase (e.g. the RKKA attack phase of turn 1).

>>> from hexwar_stalingrad.rules import StalingradRules
>>> state = situation(StalingradRules(), {"r-1ga": "1010", "w-xi-ak": "1110"},
...                   stage="rkka", phase="attack")
>>> state.stage, state.phase, state.current_player()
('rkka', 'attack', 'rkka')
"""

from __future__ import annotations

from collections.abc import Mapping

from hexwar.engine.actions import END
from hexwar.engine.state import State
from hexwar_stalingrad.board import FULL, place, set_aside, static
from hexwar_stalingrad.rules import StalingradRules

__all__ = ["SituationError", "ready", "situation"]


class SituationError(ValueError):
    """The requested situation cannot be reached (the phase would be skipped)."""


def ready(rules: StalingradRules, seed: int = 0) -> State:
    """A new game with the set-up chance events (shuffles) decided by ``SeededDriver(seed)``
    (``rules.new_state(seed=seed)``)."""
    return rules.new_state(seed=seed)


def _clear_cards(state: State) -> None:
    """No card in force or in a hand: the effects end, and the cards held or in play
    (an ``∞`` card) go under their decks, so every card stays in one place (S5)."""
    cards = static(state).cards
    back: set[str] = set()
    for effect in state.effects:
        state.remove_effect(effect)
        card = cards.get(effect.source or "")
        if card is not None and card.mark == "∞" and state.get("cards", "common") != card.id:
            back.add(card.id)
    for side in state.ruleset.sides:
        held = state.get("cards", f"hand:{side}")
        if isinstance(held, tuple):
            back.update(map(str, held))
        state.put("cards", f"hand:{side}", ())
    for card_id in sorted(back):
        key = f"deck:{cards[card_id].deck}"
        order = state.get("cards", key)
        state.put("cards", key, (*(order if isinstance(order, tuple) else ()), card_id))


def situation(
    rules: StalingradRules,
    units: Mapping[str, str | tuple[str, str]],
    *,
    turn: int = 1,
    stage: str = "rkka",
    phase: str = "attack",
    seed: int = 0,
    keep_cards: bool = False,
) -> State:
    """Only ``units`` on the map (``id -> label`` or ``id -> (label, step)``), no cards or
    effects in force (unless ``keep_cards``), play advanced to ``turn``/``stage``/``phase``.

    Every other ground unit is set aside (``pool``). Phases on the way are ended.
    """
    state = ready(rules, seed)
    if not keep_cards:
        _clear_cards(state)
    for unit in sorted(static(state).ground):
        set_aside(state, unit)
    for unit, spec in sorted(units.items()):
        label, unit_step = (spec, FULL) if isinstance(spec, str) else spec
        place(state, unit, label, unit_step)
    for table in ("moved", "fired", "attacked"):
        for key in sorted(state.table(table)):
            state.delete(table, key)
    target = (turn, stage, phase)
    for _ in range(10_000):
        if (state.turn, state.stage, state.phase) == target and not state.pending:
            if not keep_cards:
                _clear_cards(state)
            return state
        if state.is_terminal() or state.turn > turn:
            break
        if state.pending and END not in state.legal_actions():
            raise SituationError(f"a decision is pending on the way: {state.pending[-1].kind}")
        state.apply(END)  # end a phase, or decline a decision that may be declined (air)
    raise SituationError(f"phase {target} is skipped or unreachable in this situation")
