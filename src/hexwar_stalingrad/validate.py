"""Is a loaded state a position of «Сталинград»? The checks behind
``StalingradRules.validate_position`` (:mod:`hexwar_stalingrad.rules`).

Run on every load of a save file (:func:`hexwar.engine.savefile.loads`), after the core's own
checks (cursor, decisions, effects, the engine's tables). Each check cites the rule or the
state layout (``docs/stalingrad/rules.md``, *State layout*) it protects; a refusal raises
:class:`~hexwar.base.errors.DataError` whose ``entry`` names the table and key
(``state.tables.pieces.r-5ta-a``).

>>> from hexwar.engine.savefile import dumps, loads
>>> from hexwar_stalingrad.rules import StalingradRules
>>> rules = StalingradRules()
>>> state = rules.new_state()
>>> loads(rules, dumps(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hexwar.base.errors import DataError
from hexwar.engine.actions import Value
from hexwar.engine.state import State
from hexwar_stalingrad.board import (
    DEAD,
    ELIMINATED,
    FULL,
    GONE,
    PIECES,
    POOL,
    REDUCED,
    SIDES,
    STEPS,
)
from hexwar_stalingrad.cards_rules import DECK_ORDER
from hexwar_stalingrad.static import Static

__all__ = ["validate_position"]

#: The tables of the game (``docs/stalingrad/rules.md``, ``air.md``); any other is refused.
TABLES: Final = frozenset(
    {PIECES.table, PIECES.stacks, STEPS, ELIMINATED}
    | {"air", "moved", "fired", "attacked", "cards", "game", "sky", "ground"}
    | {"air_plan", "air_spent"}
)
_ENGINE_TABLES: Final = frozenset({"$hidden", "$hidden_keys", "$expires"})
#: Where an air unit may be besides an airfield (S10, ``air.md``).
ALOFT: Final = "aloft"
_LIVE_STEPS: Final = (FULL, REDUCED)
#: A reduced ground unit's entry in the step counters' table (S1.3: step 1 of 0, 1).
_REDUCED_STEP: Final = 1


def _fail(reason: str, table: str, key: str | None = None) -> DataError:
    entry = f"state.tables.{table}" if key is None else f"state.tables.{table}.{key}"
    return DataError(reason, entry=entry)


def _pair(value: Value, table: str, key: str, shape: str = "(where, step)") -> tuple[str, str]:
    if (
        not isinstance(value, tuple)
        or len(value) != 2
        or not all(isinstance(v, str) for v in value)
    ):
        raise _fail(f"expected {shape}, got {value!r}", table, key)
    return str(value[0]), str(value[1])


def _ground(state: State, data: Static) -> None:
    """S6.2, S1.3, S4.1: the registry holds known ground units of their own side on
    existing, passable hexes, one per hex, its two tables agreeing; the dead are off the
    map with their side and no step; a step entry marks a unit reduced. A unit in none of
    these tables is in the pool (S3.2)."""
    pieces, stacks = state.table(PIECES.table), state.table(PIECES.stacks)
    reduced, dead = state.table(STEPS), state.table(ELIMINATED)
    for unit in sorted(pieces):
        _on_its_hex(data, unit, pieces[unit], stacks)
    for label in sorted(stacks):
        held = stacks[label]
        if not isinstance(held, tuple) or len(held) != 1 or held[0] not in pieces:
            reason = f"a hex holds one ground unit of the registry, not {held!r} (S6.2)"
            raise _fail(reason, PIECES.stacks, label)
        there = _pair(pieces[str(held[0])], PIECES.table, str(held[0]))[0]
        if there != label:
            raise _fail(f"{held[0]} stands on {there!r}, not here (S6.2)", PIECES.stacks, label)
    for unit in sorted(dead):
        if unit not in data.ground:
            raise _fail("unknown ground unit", ELIMINATED, unit)
        if dead[unit] != data.ground[unit].side:
            raise _fail(f"side {dead[unit]!r} is not the unit's (S4.1)", ELIMINATED, unit)
        if unit in pieces or unit in reduced:
            raise _fail("a dead unit is off the map and has no step (S4.1)", ELIMINATED, unit)
    for unit in sorted(reduced):
        if unit not in data.ground:
            raise _fail("unknown ground unit", STEPS, unit)
        value = reduced[unit]
        if type(value) is not int or value != _REDUCED_STEP:
            raise _fail(f"step {value!r} is not {_REDUCED_STEP} (S1.3)", STEPS, unit)


def _on_its_hex(data: Static, unit: str, entry: Value, stacks: Mapping[str, Value]) -> None:
    info = data.ground.get(unit)
    if info is None:
        raise _fail("unknown ground unit", PIECES.table, unit)
    where, side = _pair(entry, PIECES.table, unit, "(label, side)")
    if side != info.side:
        raise _fail(f"side {side!r} is not the unit's {info.side!r}", PIECES.table, unit)
    cell = data.cells.get(where)
    if cell is None:
        raise _fail(f"hex {where!r} is not on the map", PIECES.table, unit)
    if data.game_map.chart.terrains[data.game_map.terrain(cell)].impassable:
        raise _fail(f"hex {where} is impassable (S2.3)", PIECES.table, unit)
    if stacks.get(where) != (unit,):
        reason = f"stands on {where} but stacks[{where}] is {stacks.get(where)!r} (S6.2)"
        raise _fail(reason, PIECES.table, unit)


def _air(state: State, data: Static) -> None:
    """S10, ``air.md``: every air unit known and listed, on an airfield of the map, aloft
    (with its ``sky`` entry), in the pool or dead; ``sky`` only for aloft units."""
    air = state.table("air")
    sky = state.table("sky")
    based: dict[str, str] = {}
    for unit in sorted(air):
        if unit not in data.air:
            raise _fail("unknown air unit", "air", unit)
    for unit in sorted(data.air):
        if unit not in air:
            raise _fail("air unit missing from the table (S3.2)", "air", unit)
        where, step = _pair(air[unit], "air", unit)
        if where == DEAD:
            if step not in (GONE, *_LIVE_STEPS):
                raise _fail(f"bad step {step!r}", "air", unit)
            continue
        if step not in _LIVE_STEPS:
            raise _fail(f"step {step!r} is not one of {_LIVE_STEPS} (S1.3)", "air", unit)
        if where == ALOFT:
            if unit not in sky:
                raise _fail("aloft without a sky entry (S10.2)", "air", unit)
        elif where != POOL:
            side = data.air[unit].side
            if where not in data.tagged(f"airfield:{side}"):
                raise _fail(f"{where!r} is not an airfield of {side} (S10.7)", "air", unit)
            if based.setdefault(where, unit) != unit:
                raise _fail(f"airfield {where} also holds {based[where]} (S10.7)", "air", unit)
    for unit in sorted(sky):
        if air.get(unit, (None,))[0] != ALOFT:  # type: ignore[index]
            raise _fail("in the sky but not aloft", "sky", unit)
        value = sky[unit]
        if not isinstance(value, tuple) or len(value) != 2 or value[0] not in data.cells:
            raise _fail(f"expected (hex, target), got {value!r}", "sky", unit)
        target = value[1]
        if target != "" and target not in data.ground:
            raise _fail(f"target {target!r} is not a ground unit", "sky", unit)
    for key in sorted(state.table("air_spent")):
        if key not in data.air or state.get("air_spent", key) is not True:
            raise _fail("not an air unit marked True", "air_spent", key)
    for key in sorted(state.table("air_plan")):
        side, _, role = key.partition(":")
        value = state.get("air_plan", key)
        if side not in SIDES or not role or not isinstance(value, tuple):
            raise _fail(f"expected side:role -> placements, got {value!r}", "air_plan", key)
        for item in value:
            if (
                not isinstance(item, tuple)
                or len(item) != 3
                or item[0] not in data.air
                or item[1] not in data.cells
                or not isinstance(item[2], str)
            ):
                raise _fail(f"bad placement {item!r} (S10.2)", "air_plan", key)


def _marks(state: State, data: Static) -> None:
    """S6, S7.1, S8.1: the per-phase / per-turn marks name known units and are True."""
    for table in ("moved", "fired", "attacked"):
        for key in sorted(state.table(table)):
            if key not in data.ground and key not in data.air:
                raise _fail("unknown unit", table, key)
            if state.get(table, key) is not True:
                raise _fail(f"expected True, got {state.get(table, key)!r}", table, key)


def _game(state: State) -> None:
    """S4.1: replacement points are whole numbers, a side's total never negative."""
    for key in sorted(state.table("game")):
        value = state.get("game", key)
        parts = key.split(":")
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(f"expected an integer, got {value!r}", "game", key)
        if parts[0] == "rp" and len(parts) == 2 and parts[1] in SIDES:
            if value < 0:
                raise _fail(f"negative replacement points {value} (S4.1)", "game", key)
        elif not (parts[0] == "rpg" and len(parts) == 3 and parts[1] in SIDES and parts[2]):
            raise _fail("unknown entry", "game", key)


def _cards(state: State, data: Static) -> None:
    """S5: decks hold their own cards, hands their side's; each card in at most one
    place (a deck, a hand, face up as the common event; an ``∞`` card used up is in none)."""
    cards = state.table("cards")
    seen: dict[str, str] = {}
    allowed = {f"deck:{d}" for d in DECK_ORDER} | {f"hand:{s}" for s in SIDES} | {"common"}
    for key in sorted(cards):
        if key not in allowed:
            raise _fail("unknown card place", "cards", key)
        value = cards[key]
        ids: tuple[Value, ...]
        if key == "common":
            ids = () if value is None else (value,)
        elif isinstance(value, tuple):
            ids = value
        else:
            raise _fail(f"expected a tuple of card ids, got {value!r}", "cards", key)
        owner = key.partition(":")[2]
        for card_id in ids:
            if not isinstance(card_id, str) or card_id not in data.cards:
                raise _fail(f"unknown card {card_id!r}", "cards", key)
            deck = data.cards[card_id].deck
            if (key == "common" and deck != "common") or (key != "common" and deck != owner):
                raise _fail(f"card {card_id} belongs to the {deck} deck (S5)", "cards", key)
            if card_id in seen:
                raise _fail(f"card {card_id} is also in {seen[card_id]} (S5)", "cards", key)
            seen[card_id] = key
        if key.startswith("hand:") and list(ids) != sorted(str(i) for i in ids):
            raise _fail("a hand is kept sorted", "cards", key)


def _card_conservation(state: State, data: Static) -> None:
    """S5: no card is lost or added. Once a deck is shuffled (S3.3), each of its cards is in
    exactly one place: the deck, a hand, face up as the common event, a pending shuffle
    draw, or — an ``∞`` card played — beside its owner, its ``game`` effects in force; a
    deck not yet shuffled has none of its cards anywhere."""
    cards = state.table("cards")
    where: dict[str, list[str]] = {}
    for key in sorted(cards):
        value = cards[key]
        for card in value if isinstance(value, tuple) else (value,) if value else ():
            where.setdefault(str(card), []).append(f"cards.{key}")
    for i, decision in enumerate(state.pending):
        if decision.kind == "shuffle":
            for card in decision.params[1:]:
                where.setdefault(str(card), []).append(f"pending[{i}]")
    sources = {e.source or "" for e in state.effects if e.expiry == "game"}
    in_play = {c for c in sources if c in data.cards and data.cards[c].mark == "∞"}
    for card in sorted(in_play - {str(cards.get("common"))}):  # the face-up event: in play
        where.setdefault(card, []).append("in play")
    for deck in DECK_ORDER:
        shuffling = any(d.kind == "shuffle" and d.params[:1] == (deck,) for d in state.pending)
        started = f"deck:{deck}" in cards or shuffling
        for card in sorted(c.id for c in data.cards.values() if c.deck == deck):
            places = where.get(card, [])
            if started and len(places) != 1:
                raise DataError(
                    f"card {card} is in {len(places)} places {places} (S5: each card once)",
                    entry=f"state.tables.cards.deck:{deck}",
                )
            if not started and places:
                raise DataError(
                    f"card {card} is in {places} before its deck is shuffled (S3.3)",
                    entry=f"state.tables.cards.deck:{deck}",
                )


def _hidden_marks(state: State) -> None:
    """S5.2, S10.2: what the rules hide stays hidden — every deck's order from every side,
    a hand and a side's air placements from the other side (``$hidden``)."""
    marks = state.table("$hidden")
    required: list[tuple[str, str | None]] = []
    for key in sorted(state.table("cards")):
        if key.startswith("deck:"):
            required.append((f"cards/{key}", None))
        elif key.startswith("hand:"):
            required.append((f"cards/{key}", key.partition(":")[2]))
    for key in sorted(state.table("air_plan")):
        required.append((f"air_plan/{key}", key.partition(":")[0]))
    for ref, side in required:
        if ref not in marks or marks[ref] != side:
            seen = "every side" if side is None else f"all but {side}"
            raise _fail(f"not hidden from {seen} (S5.2, S10.2)", "$hidden", ref)


def _pending(state: State, data: Static) -> None:
    """A pending decision names each unit and card at most once (an attacker listed twice
    would count twice: S8.2, S10.5; a card twice in a shuffle would be drawn twice: S3.3)."""
    ids = data.ground.keys() | data.air.keys() | data.cards.keys()
    for i, decision in enumerate(state.pending):
        named = [p for p in decision.params if isinstance(p, str) and p in ids]
        if len(named) != len(set(named)):
            twice = sorted({p for p in named if named.count(p) > 1})
            raise DataError(f"names {twice} more than once", entry=f"state.pending[{i}].params")


def _effect_params(params: Mapping[str, object]) -> tuple[tuple[str, Value], ...]:
    """A card effect's parameters as the rules put them in force (cards_rules)."""
    out: dict[str, Value] = {}
    for k, v in params.items():
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        out[k] = tuple(v) if isinstance(v, list) else v  # type: ignore[assignment]
    return tuple(sorted(out.items()))


def _effects(state: State, data: Static) -> None:
    """S5.3, S5.5: every effect in force comes from a card, as that card states it (kind,
    parameters, duration), owned by the card's side (``None`` for a common event)."""
    for i, e in enumerate(state.effects):
        where = f"state.effects[{i}]"
        card = data.cards.get(e.source or "")
        if card is None:
            raise DataError(f"effect source {e.source!r} is not a card (S5)", entry=where)
        owner = None if card.deck == "common" else card.deck
        if card.deck != "common" and e.owner != owner:
            raise DataError(f"owner {e.owner!r}; {card.id} is {owner}'s card", entry=where)
        if card.deck == "common" and e.owner is not None:
            raise DataError("a common event has no owner (S5.5)", entry=where)
        forms = {(c.kind, _effect_params(c.params), c.duration) for c in card.effects}
        if (e.kind, e.params, e.expiry.value) not in forms:
            raise DataError(
                f"{e.kind} {dict(e.params)!r} ({e.expiry.value}) is not an effect of card "
                f"{card.id} (S5)",
                entry=where,
            )


def validate_position(state: State, data: Static, turn_limit: int) -> None:
    """Raise :class:`~hexwar.base.errors.DataError` unless ``state`` is a Stalingrad position
    (see the module docstring); ``turn_limit``: the game length's last turn (S3.4)."""
    for name in sorted(state.snapshot().tables):
        if name not in TABLES and name not in _ENGINE_TABLES:
            raise _fail("not a table of the game", name)
    if not 1 <= state.turn <= turn_limit:
        raise DataError(
            f"turn {state.turn} outside the track 1..{turn_limit} (S3.4)", entry="state.cursor"
        )
    if not any(t.number == state.turn for t in data.turns):
        raise DataError(f"turn {state.turn} has no box on the turn track", entry="state.cursor")
    _ground(state, data)
    _air(state, data)
    _marks(state, data)
    _game(state)
    _cards(state, data)
    _card_conservation(state, data)
    _hidden_marks(state)
    _pending(state, data)
    _effects(state, data)
