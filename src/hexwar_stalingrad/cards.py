"""Action cards (S5): three decks, usage marks and machine-readable effects.

Every card effect is one *kind* from the closed vocabulary :data:`EFFECT_KINDS`, with typed
parameters and a duration (``phase``, ``turn`` or ``game``); the rules implement one hook
per kind (ruling S5.4). Every card names the *window* it acts in (ruling S5.3,
:data:`WINDOWS`). Unknown kinds, unknown or ill-typed parameters, bad marks and
durations are rejected at load with the file and the card named. Vocabulary and card
texts: ``docs/stalingrad/cards.md``.

>>> cards = load_cards()
>>> sorted({c.deck for c in cards})
['common', 'rkka', 'wehrmacht']
>>> card = next(c for c in cards if c.id == "rkka-maskirovka")
>>> card.mark, card.window, card.effects[0].kind, card.effects[0].params["shift"]
('!', 'rkka_attack', 'odds_shift', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.base.errors import DataError
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.units import ARMS, GROUPS

__all__ = [
    "DECKS",
    "DURATIONS",
    "EFFECT_KINDS",
    "MARKS",
    "WINDOWS",
    "Card",
    "Effect",
    "load_cards",
]

DECKS: Final = ("rkka", "wehrmacht", "common")
MARKS: Final = ("1", "!", "∞")
"""S1.5: ``1`` use this turn; ``!`` hold and use in any turn; ``∞`` in force to the end."""
DURATIONS: Final = ("phase", "turn", "game")
WINDOWS: Final = (
    "replacements",
    "air",
    "rkka_movement",
    "rkka_artillery",
    "rkka_attack",
    "rkka_exploitation",
    "wehrmacht_movement",
    "wehrmacht_artillery",
    "wehrmacht_attack",
    "wehrmacht_exploitation",
)
"""Ruling S5.3: the windows a card acts in, in the order of the sequence of play (S4):
the start of the replacement stage, of the air stage, and of each phase of each side's
ground stage (``<side>_<phase>``). A ``1`` card still held when its window starts is
played then."""
_EFFECT_SIDES: Final = ("rkka", "wehrmacht", "both")

Param = Callable[[Checker, object, str], object]


def _side(ck: Checker, v: object, e: str) -> object:
    return ck.choice(v, _EFFECT_SIDES, e)


def _int_in(low: int, high: int) -> Param:
    def check(ck: Checker, v: object, e: str) -> object:
        n = ck.integer(v, e)
        if not low <= n <= high or n == 0:
            raise ck.fail(e, f"bad parameter: must be a non-zero integer in {low}..{high}, got {n}")
        return n

    return check


def _one_of(allowed: Collection[str]) -> Param:
    return lambda ck, v, e: ck.choice(v, allowed, e)


def _arms(ck: Checker, v: object, e: str) -> object:
    arms = ck.str_list(v, e)
    for i, a in enumerate(arms):
        ck.choice(a, ARMS, f"{e}[{i}]")
    if not arms:
        raise ck.fail(e, "bad parameter: an empty list of arms")
    return tuple(sorted(set(arms)))


def _true(ck: Checker, v: object, e: str) -> object:
    if ck.boolean(v, e) is not True:
        raise ck.fail(e, "bad parameter: must be true")
    return True


def _cost(ck: Checker, v: object, e: str) -> object:
    if v == "impassable":
        return v
    n = ck.number(v, e)
    if n < 0:
        raise ck.fail(e, f"bad parameter: a cost must be >= 0, got {n}")
    return n


def _name(ck: Checker, v: object, e: str) -> object:
    return ck.string(v, e)


EFFECT_KINDS: Final[Mapping[str, tuple[Mapping[str, Param], Mapping[str, Param]]]] = {
    # kind: (required parameters, optional parameters)
    "movement_bonus": (
        {"side": _side, "amount": _int_in(-3, 3)},
        {"arms": _arms, "group": _one_of(GROUPS)},
    ),
    "odds_shift": (
        {"side": _side, "shift": _int_in(-2, 2), "on": _one_of(("attack", "defence"))},
        {"arms": _arms, "group": _one_of(GROUPS)},
    ),
    "die_modifier": (
        {
            "side": _side,
            "combat": _one_of(("ground", "air", "bombardment")),
            "amount": _int_in(-2, 2),
        },
        {},
    ),
    "replacement_points": ({"side": _side, "delta": _int_in(-2, 2)}, {"group": _one_of(GROUPS)}),
    "weather": ({"non_flying": _true}, {}),
    "air_strength": (
        {"side": _side, "amount": _int_in(-3, 3)},
        {"role": _one_of(("fighter", "bomber"))},
    ),
    "no_exploitation": ({"side": _side}, {"group": _one_of(GROUPS)}),
    "no_retreat": ({"side": _side}, {"group": _one_of(GROUPS)}),
    "terrain_cost": ({"terrain": _name, "cost": _cost}, {"movement_class": _name}),
}
"""The closed effect vocabulary: kind → (required, optional) parameters and their checks."""


@attrs.frozen
class Effect:
    """One effect of a card: a kind, its parameters and how long it lasts."""

    kind: str
    duration: str
    params: Mapping[str, Any]


@attrs.frozen
class Card:
    """An action card (S5): deck, usage mark, the window it acts in (:data:`WINDOWS`),
    bilingual name and text, effects."""

    id: str
    deck: str
    mark: str
    name: str
    name_ru: str
    text: str
    text_ru: str
    effects: tuple[Effect, ...]
    history: str = ""
    window: str = WINDOWS[0]


def _effect(ck: Checker, raw: object, e: str) -> Effect:
    t = ck.table(raw, e)
    if "kind" not in t:
        raise ck.fail(e, "missing field 'kind'")
    kind = ck.string(t["kind"], f"{e}.kind")
    if kind not in EFFECT_KINDS:
        raise ck.fail(f"{e}.kind", f"unknown effect kind {kind!r} (known: {sorted(EFFECT_KINDS)})")
    required, optional = EFFECT_KINDS[kind]
    ck.keys(t, ("kind", "duration", *required), tuple(optional), e)
    duration = ck.choice(t["duration"], DURATIONS, f"{e}.duration")
    params = {}
    for name in sorted(set(t) - {"kind", "duration"}):
        check = required.get(name) or optional[name]
        params[name] = check(ck, t[name], f"{e}.{name}")
    return Effect(kind, duration, params)


def load_cards(path: str | Path | None = None) -> tuple[Card, ...]:
    """Load and validate ``cards.toml`` (the shipped one by default)."""
    data, source = read_data_file(path if path is not None else data_path("cards.toml"))
    return cards_from_dict(data, source)


def cards_from_dict(data: dict[str, Any], source: str = "<data>") -> tuple[Card, ...]:
    """Build and validate the cards from parsed TOML."""
    ck = Checker(source)
    unknown = sorted(set(data) - {"card"})
    if unknown:
        raise ck.fail(unknown[0], f"unknown section {unknown[0]!r}")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, raw in enumerate(ck.items(data, "card")):
        e = f"card[{i}] ({raw['id']})" if isinstance(raw.get("id"), str) else f"card[{i}]"
        ck.keys(
            raw,
            ("id", "deck", "mark", "window", "name", "name_ru", "text", "text_ru", "effects"),
            ("history",),
            e,
        )
        id_ = ck.string(raw["id"], f"{e}.id")
        if id_ in seen:
            raise ck.fail(e, f"duplicate id {id_!r}")
        seen.add(id_)
        mark = raw["mark"]
        if mark not in MARKS:
            raise ck.fail(f"{e}.mark", f"bad mark {mark!r} (use one of {list(MARKS)})")
        effects_raw = raw["effects"]
        if not isinstance(effects_raw, list) or not effects_raw:
            raise ck.fail(f"{e}.effects", "wrong type: expected a non-empty array of effects")
        effects = tuple(_effect(ck, x, f"{e}.effects[{k}]") for k, x in enumerate(effects_raw))
        deck = ck.choice(raw["deck"], DECKS, f"{e}.deck")
        for k, eff in enumerate(effects):
            if deck == "common" and eff.duration == "phase":
                raise ck.fail(
                    f"{e}.effects[{k}].duration",
                    "a common event is in force until the next one is turned: its effects "
                    "last the 'turn' (or the 'game' if it is '∞'), not a 'phase' (ruling S5.5)",
                )
            if (mark == "∞") != (eff.duration == "game"):
                raise ck.fail(
                    f"{e}.effects[{k}].duration",
                    f"a '{mark}' card cannot have a {eff.duration!r} effect "
                    "(only '∞' cards last the game, S5.3)",
                )
        cards.append(
            Card(
                id_,
                deck,
                mark,
                ck.string(raw["name"], f"{e}.name"),
                ck.string(raw["name_ru"], f"{e}.name_ru"),
                ck.string(raw["text"], f"{e}.text"),
                ck.string(raw["text_ru"], f"{e}.text_ru"),
                effects,
                ck.string(raw["history"], f"{e}.history") if "history" in raw else "",
                ck.choice(raw["window"], WINDOWS, f"{e}.window", "window"),
            )
        )
    return tuple(cards)


def check_decks(cards: Collection[Card], source: str = "cards.toml") -> None:
    """S5.4: every deck has at least 10 cards and uses all three marks."""
    for deck in DECKS:
        in_deck = [c for c in cards if c.deck == deck]
        if len(in_deck) < 10:
            raise DataError(
                f"has {len(in_deck)} cards, needs at least 10 (S5.4)", source=source, entry=deck
            )
        missing = sorted(set(MARKS) - {c.mark for c in in_deck})
        if missing:
            raise DataError(f"uses no {missing[0]!r} card (S5.4)", source=source, entry=deck)
