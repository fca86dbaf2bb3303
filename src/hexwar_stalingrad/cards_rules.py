"""Action cards in play (S5): decks, the common event, secret draws, playing, effects.

Every effect kind of the card vocabulary (:data:`hexwar_stalingrad.cards.EFFECT_KINDS`) is
an entry of :data:`EFFECT_RULES`: the hook points it contributes to (ruling S5.4). A card's
effects become :class:`hexwar.engine.hooks.Effect` values in the state (kind, the card's
parameters, expiry from the effect's ``duration``; owner = the side that played it, ``None``
for a common event; source = the card id), so clone, undo and saving cover them.

Cards table (``cards``): ``deck:<deck>`` = card ids, top first (hidden from every side);
``hand:<side>`` = the side's held cards (hidden from the opponent, S5.4); ``common`` = the
common event face up (S5.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final, cast

import attrs

from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.hooks import Effect, EffectRule, HookPoint
from hexwar.engine.state import State
from hexwar_stalingrad.board import SIDES, static
from hexwar_stalingrad.cards import WINDOWS, Card
from hexwar_stalingrad.static import Static

__all__ = [
    "DECK_ORDER",
    "EFFECT_RULES",
    "HOOK_POINTS",
    "NOBODY",
    "deal",
    "play_card",
    "play_due",
    "shuffle_step",
    "start_shuffle",
    "turn_common_event",
]

#: Decks shuffled at set-up, in this order (S3.3).
DECK_ORDER: Final = ("rkka", "wehrmacht", "common")
#: ``private`` marker of chance events no side may see (the order of a shuffled deck).
NOBODY: Final = "*nobody*"
#: Usage marks (S1.5): these go face down under their deck once played (S5.3).
RETURNS_TO_DECK: Final = frozenset({"1", "!"})
MUST_PLAY: Final = "1"


# -- effect matching -----------------------------------------------------------------------------


def _side_matches(effect: Effect, side: str) -> bool:
    s = effect.param("side")
    return s in (None, "both", side)


def _unit_matches(state: State, effect: Effect, unit: str) -> bool:
    """Whether the effect applies to the ground unit (:func:`_selected`; a card's effect
    from :class:`CardTables`)."""
    selected = _tables(state).selected.get(effect.params)
    if selected is None:  # an effect no card of the scenario carries (a test's)
        selected = _selected(static(state), effect.params)
    return unit in selected


def _selected(data: Static, params: tuple[tuple[str, Value], ...]) -> frozenset[str]:
    """The ground units an effect with ``params`` applies to: of its ``side`` (S5.4),
    of one of its ``arms``, in its ``group``, each when given (built once per scenario
    and parameters)."""
    named = dict(reversed(params))  # as Effect.param reads them: the first of a name
    side, arms, group = named.get("side"), named.get("arms"), named.get("group")
    return frozenset(
        unit
        for unit, info in data.ground.items()
        if side in (None, "both", info.side)
        and not (isinstance(arms, tuple) and info.arm not in arms)
        and not (isinstance(group, str) and group not in info.groups)
    )


def _int(effect: Effect, name: str) -> int:
    v = effect.param(name)
    assert isinstance(v, int), (effect, name)
    return v


# -- effect kinds → hook contributions (S5.4) --------------------------------------------------


def _movement_bonus(state: State, effect: Effect, value: int, *, unit: str, **_: Any) -> int:
    return value + _int(effect, "amount") if _unit_matches(state, effect, unit) else value


def _odds_shift(
    state: State, effect: Effect, value: int, *, attacker: tuple[str, ...], defender: str, **_: Any
) -> int:
    units = attacker if effect.param("on") == "attack" else (defender,)
    if any(_unit_matches(state, effect, u) for u in units):
        return value + _int(effect, "shift")
    return value


def _die_modifier(state: State, effect: Effect, value: int, **context: Any) -> int:
    side, combat = context.get("side"), context.get("combat")
    if isinstance(side, str) and _side_matches(effect, side) and effect.param("combat") == combat:
        return value + _int(effect, "amount")
    return value


def _replacement_points(state: State, effect: Effect, value: int, **context: Any) -> int:
    side = context.get("side")
    if (
        isinstance(side, str)
        and _side_matches(effect, side)
        and effect.param("group") == context.get("group")
    ):
        return value + _int(effect, "delta")
    return value


def _weather(state: State, effect: Effect, value: str, **_: Any) -> str:
    return "non_flying" if effect.param("non_flying") else value


def _air_strength(state: State, effect: Effect, value: int, **context: Any) -> int:
    side, role = context.get("side"), context.get("role")
    if (
        isinstance(side, str)
        and _side_matches(effect, side)
        and effect.param("role") in (None, role)
    ):
        return value + _int(effect, "amount")
    return value


def _no_exploitation(state: State, effect: Effect, value: bool, *, unit: str, **_: Any) -> bool:
    return False if _unit_matches(state, effect, unit) else value


def _no_retreat(state: State, effect: Effect, value: bool, *, unit: str, **_: Any) -> bool:
    return False if _unit_matches(state, effect, unit) else value


EFFECT_RULES: Final[Mapping[str, Mapping[str, EffectRule]]] = {
    "movement_bonus": {"movement_allowance": _movement_bonus},
    "odds_shift": {"odds_shift": _odds_shift},
    "die_modifier": {"die_modifier": _die_modifier},
    "replacement_points": {"replacement_points": _replacement_points},
    "weather": {"weather": _weather},
    "air_strength": {"air_strength": _air_strength},
    "no_exploitation": {"may_exploit": _no_exploitation},
    "no_retreat": {"may_retreat": _no_retreat},
    # no hook: the ground rules' PieceMoves read these effects as map variants (S6.6)
    "terrain_cost": {},
}
"""Card effect kind → hook point → contribution."""

HOOK_POINTS: Final[Mapping[str, HookPoint]] = {
    p.name: p
    for p in (
        HookPoint(
            "may_exploit",
            "(state, value: bool, *, unit: str) -> bool",
            "Whether a unit of an exploiting arm may move in exploitation (S6.5).",
        ),
        HookPoint(
            "may_retreat",
            "(state, value: bool, *, unit: str) -> bool",
            "Whether a defender may retreat; if not it takes a loss in place (S8.4).",
        ),
        HookPoint(
            "bombard_strength",
            "(state, value: Fraction, *, unit: str) -> Fraction",
            "Bombs an artillery unit strikes with (S7.2).",
        ),
        HookPoint(
            "air_strength",
            "(state, value: int, *, unit: str, side: str, role: str) -> int",
            "An air unit's air-to-air strength (S10.5).",
        ),
    )
}
"""Stalingrad's own hook points (beyond :data:`hexwar.engine.hooks.HOOK_POINTS`)."""


# -- decks (S3.3, S5.1, S5.2) ---------------------------------------------------------------------


def _ids(value: Value) -> list[str]:
    """A deck's or hand's card ids (a tuple of ids, as written here) as a new list."""
    return list(cast("tuple[str, ...]", value)) if isinstance(value, tuple) else []


def deck_cards(state: State, deck: str) -> list[Card]:
    """The cards of ``deck`` in the scenario, sorted by id."""
    return sorted((c for c in static(state).cards.values() if c.deck == deck), key=lambda c: c.id)


def start_shuffle(state: State, deck: str) -> None:
    """Push the first draw of ``deck``'s shuffle (a chance event per card, S3.3)."""
    unplaced = [c.id for c in deck_cards(state, deck)]
    state.put("cards", f"deck:{deck}", ())
    state.hide("cards", f"deck:{deck}", None)
    _push_draw(state, deck, unplaced)


def _push_draw(state: State, deck: str, unplaced: Sequence[str]) -> None:
    """The next card of ``deck`` from the card ids ``unplaced``: each as likely (the
    cards are distinct: :func:`~hexwar.engine.dice.draw_outcomes` of distinct items)."""
    tables = _tables(state)
    draws, share = tables.draws[deck], tables.shares[len(unplaced)]
    outcomes = tuple((draws[c], share) for c in unplaced)
    params = (deck, *sorted(unplaced))
    state.push(Decision.chance("shuffle", outcomes, params=params, private=NOBODY))


def _draws(data: Static) -> Mapping[str, Mapping[str, Action]]:
    """``shuffle DECK CARD`` for each deck and card of the scenario (built once)."""
    out: dict[str, dict[str, Action]] = {}
    for c in data.cards.values():
        out.setdefault(c.deck, {})[c.id] = Action("shuffle", (c.deck, c.id))
    return out


def _share(n: int) -> Fraction:
    """``1/n``: the chance of each of ``n`` distinct cards (S3.3)."""
    return Fraction(1, n)


def shuffle_step(state: State, decision: Decision, action: Action) -> None:
    """The next card of a shuffle goes under the deck; then the next deck (S3.3)."""
    deck, card = action.args
    key, rest = f"deck:{deck}", cast("tuple[str, ...]", decision.params[1:])
    order = state.get("cards", key)
    state.put("cards", key, (*(order if isinstance(order, tuple) else ()), card))
    i = rest.index(card)
    unplaced = rest[:i] + rest[i + 1 :]
    if unplaced:
        _push_draw(state, deck, unplaced)
        return
    i = DECK_ORDER.index(deck)
    if i + 1 < len(DECK_ORDER):
        start_shuffle(state, DECK_ORDER[i + 1])


def _take_top(state: State, deck: str) -> str | None:
    order = _ids(state.get("cards", f"deck:{deck}"))
    if not order:
        return None
    state.put("cards", f"deck:{deck}", tuple(order[1:]))
    return order[0]


def _under(state: State, deck: str, card: str) -> None:
    order = _ids(state.get("cards", f"deck:{deck}"))
    state.put("cards", f"deck:{deck}", (*order, card))


def hand(state: State, side: str) -> list[str]:
    """The cards ``side`` holds (secret, S5.2)."""
    return _ids(state.get("cards", f"hand:{side}"))


def _set_hand(state: State, side: str, cards: list[str]) -> None:
    state.put("cards", f"hand:{side}", tuple(sorted(cards)))
    state.hide("cards", f"hand:{side}", side)


def _apply_effects(state: State, card: Card, owner: str | None) -> None:
    for kind, params, expiry in _tables(state).effects[card.id]:
        state.add_effect(kind, params, expiry=expiry, owner=owner, source=card.id)


def _card_effects(data: Static, card: str) -> tuple[tuple[str, Mapping[str, Value], str], ...]:
    """The card's effects as the state keeps them: kind, parameters (whole floats as
    ints, lists as tuples), expiry (the card's duration, ``"phase"``, ``"turn"`` or
    ``"game"``: the core's :class:`~hexwar.engine.hooks.Expiry` by name; built once per
    card)."""
    out = []
    for effect in data.cards[card].effects:
        params: dict[str, Value] = {}
        for k, v in effect.params.items():
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            params[k] = tuple(v) if isinstance(v, list) else v
        out.append((effect.kind, MappingProxyType(params), effect.duration))
    return tuple(out)


def turn_common_event(state: State) -> None:
    """S5.1: turn the next common event face up; it replaces the previous one.

    Ruling S5.5: a common event is imposed, not offered to the sides — its effects are in
    force from now until the next one is turned (they last the ``turn``; the next event is
    turned when the next turn starts), whatever its mark; then a ``1`` / ``!`` event goes
    under the common deck. An ``∞`` event's ``game`` effects stay to the end of the game
    and the card leaves the deck.
    """
    previous = state.get("cards", "common")
    if isinstance(previous, str):
        card = static(state).cards[previous]
        for e in state.effects:
            if e.source == previous and e.expiry != "game":
                state.remove_effect(e)
        if card.mark in RETURNS_TO_DECK:
            _under(state, "common", previous)
    top = _take_top(state, "common")
    state.put("cards", "common", top)
    if top is not None:
        _apply_effects(state, static(state).cards[top], None)


def deal(state: State) -> None:
    """S5.2: each side draws the top card of its deck, kept secret."""
    for side in ("rkka", "wehrmacht"):
        top = _take_top(state, side)
        if top is not None:
            _set_hand(state, side, [*hand(state, side), top])


def held_cards(state: State, side: str, args: tuple[str, ...] = ()) -> list[str]:
    """The cards ``side`` may play now: every card it holds (S5.3), sorted."""
    return hand(state, side)


def play_card(state: State, side: str, card_id: str) -> None:
    """S5.3: reveal the card and put its effects in force; ``1``/``!`` go under the deck."""
    card = static(state).cards[card_id]
    held = hand(state, side)
    held.remove(card_id)
    _set_hand(state, side, held)
    _apply_effects(state, card, side)
    if card.mark in RETURNS_TO_DECK:
        _under(state, card.deck, card_id)


def play_due(state: State, window: str) -> None:
    """Ruling S5.3: ``window`` starts — every ``1`` card still held whose window is this one
    or an earlier one (a skipped stage, e.g. no air stage in non-flying weather) is played
    now, RKKA's first, each side's in card order. So a ``1`` card bites in the turn it is
    drawn, also when it harms its holder."""
    position = _WINDOW_AT[window]
    cards = static(state).cards
    for side in SIDES:
        for card_id in hand(state, side):
            card = cards[card_id]
            if card.mark == MUST_PLAY and _WINDOW_AT[card.window] <= position:
                play_card(state, side, card_id)


#: Each card window's place in the sequence of play (S5.3).
_WINDOW_AT: Final = MappingProxyType({w: i for i, w in enumerate(WINDOWS)})


@attrs.frozen(eq=False)
class CardTables:
    """The cards' compiled facts of one scenario, built once with its ruleset (data, not a
    cache): each card's effects as the state keeps them, the ``shuffle`` actions by deck
    and card, the ``1/n`` share of a draw of ``n`` cards and the ground units each card
    effect's parameters select (S5.4)."""

    effects: Mapping[str, tuple[tuple[str, Mapping[str, Value], str], ...]]
    draws: Mapping[str, Mapping[str, Action]]
    shares: Mapping[int, Fraction]
    selected: Mapping[tuple[tuple[str, Value], ...], frozenset[str]]

    @classmethod
    def of(cls, data: Static) -> CardTables:
        """The tables of the scenario ``data``."""
        effects = {card: _card_effects(data, card) for card in sorted(data.cards)}
        draws = _draws(data)
        most = max((len(cards) for cards in draws.values()), default=0)
        keys = {tuple(sorted(p.items())) for found in effects.values() for _, p, _ in found}
        return cls(
            effects,
            draws,
            {n: _share(n) for n in range(1, most + 1)},
            {key: _selected(data, key) for key in sorted(keys, key=repr)},
        )


def _tables(state: State) -> CardTables:
    found: CardTables = state.ruleset.card_tables  # type: ignore[attr-defined]
    return found
