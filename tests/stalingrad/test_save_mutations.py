"""Save files that refuse nonsense: a real mid-game save of «Сталинград», mutated many
ways, its checksum recomputed (anyone can), must be refused with
:class:`~hexwar.base.errors.RecordError` naming the entry — never accepted, never a traceback.

Every mutation makes the position illegal by construction (two units on one hex, a unit
on the Volga, an unknown unit id, turn 10¹⁸, a card in two places, effect parameters of
the wrong type, ...); each kind is applied with random units, hexes, cards and values.
The counts are in ``docs/reliability.md`` (``mutation_counts``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from random_games import random_game

from hexwar.base.errors import RecordError
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import State
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.static import load_static

RULES = StalingradRules(length="long")
DATA = load_static()
IMPASSABLE = sorted(
    label
    for label, cell in DATA.cells.items()
    if DATA.game_map.chart.terrains[DATA.game_map.terrain(cell)].impassable
)
Mutation = Callable[[dict[str, Any], random.Random], None]


def reseal(envelope: dict[str, Any]) -> str:
    """Recompute the checksum as anyone can (``docs/architecture.md``, *Records*)."""
    envelope.pop("digest", None)
    body = json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    envelope["digest"] = hashlib.sha256(body.encode()).hexdigest()
    return json.dumps(envelope, ensure_ascii=False)


def mid_game_save() -> State:
    """A long game between random players, stopped on turn 7 (cards held, effects in
    force, aviation based, reserves arrived)."""
    found: list[State] = []

    def grab(state: State, action: Any) -> None:
        if not found and state.turn == 7 and state.phase == "movement":
            found.append(state.clone())

    random_game(RULES, 5, on_step=grab)
    assert found, "the seeded game reached turn 7"
    return found[0]


def _tables(env: dict[str, Any]) -> dict[str, Any]:
    return env["state"]["tables"]  # type: ignore[no-any-return]


def _on_map(env: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((label, stack[0]) for label, stack in _tables(env)["stacks"].items())


def _pieces(env: dict[str, Any]) -> dict[str, Any]:
    return _tables(env)["pieces"]  # type: ignore[no-any-return]


def _stacks(env: dict[str, Any]) -> dict[str, Any]:
    return _tables(env)["stacks"]  # type: ignore[no-any-return]


def two_on_one_hex(env: dict[str, Any], rng: random.Random) -> None:
    (hex_a, unit_a), (hex_b, unit_b) = rng.sample(_on_map(env), 2)
    _pieces(env)[unit_b][0] = hex_a
    del _stacks(env)[hex_b]
    if rng.random() < 0.5:  # the stack says so too
        _stacks(env)[hex_a] = [unit_a, unit_b]


def on_impassable_hex(env: dict[str, Any], rng: random.Random) -> None:
    label, unit = rng.choice(_on_map(env))
    target = rng.choice(IMPASSABLE)
    _pieces(env)[unit][0] = target
    del _stacks(env)[label]
    _stacks(env)[target] = [unit]


def off_the_map(env: dict[str, Any], rng: random.Random) -> None:
    label, unit = rng.choice(_on_map(env))
    target = rng.choice(["9999", "0000", "", "pool ", "x" * 50])
    _pieces(env)[unit][0] = target
    del _stacks(env)[label]
    if target:
        _stacks(env)[target] = [unit]


def unknown_unit_id(env: dict[str, Any], rng: random.Random) -> None:
    label, unit = rng.choice(_on_map(env))
    name = rng.choice(["r-99a", "w-ghost", unit.upper(), unit + " "])
    _pieces(env)[name] = _pieces(env).pop(unit)
    _stacks(env)[label] = [name]


def extra_unit(env: dict[str, Any], rng: random.Random) -> None:
    name = f"r-new-{rng.randint(1, 99)}"
    _tables(env).setdefault(rng.choice(["eliminated", "steps"]), {})[name] = 1


def wrong_side(env: dict[str, Any], rng: random.Random) -> None:
    _label, unit = rng.choice(_on_map(env))
    side = DATA.ground[unit].side
    _pieces(env)[unit][1] = rng.choice(["wehrmacht" if side == "rkka" else "rkka", "", "RKKA"])


def dead_and_placed(env: dict[str, Any], rng: random.Random) -> None:
    _label, unit = rng.choice(_on_map(env))
    _tables(env).setdefault("eliminated", {})[unit] = DATA.ground[unit].side


def stacks_disagree(env: dict[str, Any], rng: random.Random) -> None:
    (hex_a, _unit_a), (_hex_b, unit_b) = rng.sample(_on_map(env), 2)
    _stacks(env)[hex_a] = [unit_b]


def stacks_extra_entry(env: dict[str, Any], rng: random.Random) -> None:
    _label, unit = rng.choice(_on_map(env))
    free = sorted(set(DATA.cells) - set(_stacks(env)))
    _stacks(env)[rng.choice(free)] = rng.choice([[unit], [], [unit, unit], unit])


def bad_step(env: dict[str, Any], rng: random.Random) -> None:
    unit = rng.choice(sorted(DATA.ground))
    steps = _tables(env).setdefault("steps", {})
    steps[unit] = rng.choice(["half", "reduced", "", 0, 2, -1, True])


def bad_unit_value(env: dict[str, Any], rng: random.Random) -> None:
    unit = rng.choice(sorted(_pieces(env)))
    _pieces(env)[unit] = rng.choice(
        [None, 3, "0912", [], ["0912"], ["0912", "rkka", "x"], [1, 2], True]
    )


def turn_off_the_track(env: dict[str, Any], rng: random.Random) -> None:
    env["state"]["cursor"][0] = rng.choice([10**18, 11, 0, -1, -(10**18)])


def bad_cursor(env: dict[str, Any], rng: random.Random) -> None:
    cursor = env["state"]["cursor"]
    i = rng.choice([1, 2, 3])
    cursor[i] = rng.choice([99, -5, "x", None, 10**18]) if i < 3 else "later"


def card_in_two_places(env: dict[str, Any], rng: random.Random) -> None:
    cards = _tables(env)["cards"]
    held = [(k, c) for k, v in cards.items() if isinstance(v, list) for c in v]
    key, card = rng.choice(held)
    deck = DATA.cards[card].deck
    other = f"hand:{deck}" if key.startswith("deck:") else f"deck:{deck}"
    if deck == "common":
        other = "common" if key.startswith("deck:") else "deck:common"
        if other == "common":
            cards["common"] = card
            return
    cards[other] = sorted([*cards.get(other, []), card])


def card_twice_in_a_deck(env: dict[str, Any], rng: random.Random) -> None:
    cards = _tables(env)["cards"]
    decks = [k for k, v in cards.items() if k.startswith("deck:") and v]
    key = rng.choice(decks)
    cards[key] = [*cards[key], rng.choice(cards[key])]


def card_in_the_wrong_deck(env: dict[str, Any], rng: random.Random) -> None:
    cards = _tables(env)["cards"]
    key = rng.choice(["deck:rkka", "deck:wehrmacht", "hand:rkka", "hand:wehrmacht"])
    side = key.partition(":")[2]
    foreign = sorted(c for c, info in DATA.cards.items() if info.deck != side)
    cards[key] = sorted([*cards.get(key, []), rng.choice(foreign)])


def unknown_card(env: dict[str, Any], rng: random.Random) -> None:
    cards = _tables(env)["cards"]
    key = rng.choice(sorted(k for k, v in cards.items() if isinstance(v, list)))
    cards[key] = sorted([*cards[key], rng.choice(["rkka-joker", "x", ""])])


def unknown_card_place(env: dict[str, Any], rng: random.Random) -> None:
    _tables(env)["cards"][rng.choice(["discard", "hand:nobody", "deck:"])] = []


def card_removed(env: dict[str, Any], rng: random.Random) -> None:
    """A card taken out of a deck or a hand (27 → 26 cards in play: S5 conservation)."""
    cards = _tables(env)["cards"]
    key = rng.choice(sorted(k for k, v in cards.items() if isinstance(v, list) and v))
    cards[key] = [c for c in cards[key] if c != rng.choice(cards[key])]


def hidden_mark_removed(env: dict[str, Any], rng: random.Random) -> None:
    """A deck's or hand's ``$hidden`` mark dropped (the other side would see it: S5.2)."""
    hidden = _tables(env)["$hidden"]
    del hidden[rng.choice(sorted(k for k in hidden if k.startswith("cards/")))]


def effect_params_wrong_type(env: dict[str, Any], rng: random.Random) -> None:
    effects = [e for e in env["state"]["effects"] if e["params"]]
    effect = rng.choice(effects)
    pair = rng.choice(effect["params"])
    pair[1] = rng.choice(["lots", 10**18, -3, None, True, [1, 2], [[[]]]])
    if pair[1] == effect_value(env, effect, pair[0]):
        pair[1] = "lots"


def effect_value(env: dict[str, Any], effect: dict[str, Any], name: str) -> Any:
    card = DATA.cards[effect["source"]]
    for e in card.effects:
        if e.kind == effect["kind"] and name in e.params:
            return e.params[name]
    return object()


def effect_params_reshaped(env: dict[str, Any], rng: random.Random) -> None:
    effect = rng.choice(env["state"]["effects"])
    choice = rng.randrange(3)
    if choice == 0 or not effect["params"]:
        effect["params"] = [*effect["params"], ["zzz_extra", 1]]
    elif choice == 1:
        effect["params"] = effect["params"][1:]
    else:
        effect["params"] = [[effect["params"][0][0], 1], *effect["params"]]


def effect_of_another_card(env: dict[str, Any], rng: random.Random) -> None:
    effect = rng.choice(env["state"]["effects"])
    others = sorted(c for c in DATA.cards if c != effect["source"])
    effect["source"] = rng.choice([*others[:3], "no-such-card", None])


def effect_owner_wrong(env: dict[str, Any], rng: random.Random) -> None:
    effect = rng.choice(env["state"]["effects"])
    card = DATA.cards[effect["source"]]
    options = ["rkka", "wehrmacht", "nobody"]
    effect["owner"] = rng.choice([o for o in options if o != effect["owner"]])
    if card.deck == "common" and effect["owner"] is None:  # pragma: no cover
        effect["owner"] = "rkka"


def effect_kind_unknown(env: dict[str, Any], rng: random.Random) -> None:
    rng.choice(env["state"]["effects"])["kind"] = rng.choice(["teleport", "", "ODDS_SHIFT"])


def effect_serial_repeated(env: dict[str, Any], rng: random.Random) -> None:
    effects = env["state"]["effects"]
    effect = rng.choice(effects)
    effect["serial"] = rng.choice([env["state"]["serial"], 10**18, -1])


def air_unit_nowhere(env: dict[str, Any], rng: random.Random) -> None:
    air = _tables(env)["air"]
    unit = rng.choice(sorted(air))
    air[unit] = [rng.choice(["9999", "moon", "aloft"]), "full"]


def air_unit_off_its_airfields(env: dict[str, Any], rng: random.Random) -> None:
    air = _tables(env)["air"]
    unit = rng.choice(sorted(air))
    side = DATA.air[unit].side
    other = "wehrmacht" if side == "rkka" else "rkka"
    wrong = sorted(set(DATA.cells) - set(DATA.tagged(f"airfield:{side}")))
    air[unit] = [rng.choice([*DATA.tagged(f"airfield:{other}"), *wrong[:20]]), "full"]


def airfield_shared(env: dict[str, Any], rng: random.Random) -> None:
    air = _tables(env)["air"]
    based = sorted((v[0], u) for u, v in air.items() if v[0] in DATA.cells)
    (field, unit) = rng.choice(based)
    side = DATA.air[unit].side
    mates = sorted(u for u in air if DATA.air[u].side == side and u != unit)
    air[rng.choice(mates)] = [field, "full"]


def air_unit_unknown(env: dict[str, Any], rng: random.Random) -> None:
    air = _tables(env)["air"]
    unit = rng.choice(sorted(air))
    air["xa-" + unit] = air.pop(unit)


def sky_without_aloft(env: dict[str, Any], rng: random.Random) -> None:
    unit = rng.choice(sorted(_tables(env)["air"]))
    _tables(env).setdefault("sky", {})[unit] = ["0912", ""]


def replacement_points_bad(env: dict[str, Any], rng: random.Random) -> None:
    key, value = rng.choice([("rp:rkka", -4), ("rp:wehrmacht", "3"), ("bogus", 1)])
    _tables(env).setdefault("game", {})[key] = value


def mark_unknown_unit(env: dict[str, Any], rng: random.Random) -> None:
    table = rng.choice(["moved", "fired", "attacked", "air_spent"])
    _tables(env).setdefault(table, {})[rng.choice(["r-99a", "ghost"])] = True


def mark_not_true(env: dict[str, Any], rng: random.Random) -> None:
    table = rng.choice(["moved", "fired", "attacked"])
    unit = rng.choice(sorted(DATA.ground))
    _tables(env).setdefault(table, {})[unit] = rng.choice([False, 1, "yes", None])


def unknown_table(env: dict[str, Any], rng: random.Random) -> None:
    _tables(env)[rng.choice(["units2", "$secret", "x"])] = {"a": 1}


def hidden_mark_dangling(env: dict[str, Any], rng: random.Random) -> None:
    _tables(env)["$hidden"][rng.choice(["cards/hand:nobody", "pieces/r-99a", "nope"])] = None


def hidden_from_unknown_side(env: dict[str, Any], rng: random.Random) -> None:
    hidden = _tables(env)["$hidden"]
    hidden[rng.choice(sorted(hidden))] = rng.choice(["romania", "RKKA"])


def pending_by_unknown_side(env: dict[str, Any], rng: random.Random) -> None:
    env["state"]["pending"].append(
        {
            "kind": "reserve",
            "side": rng.choice(["italy", "", "RKKA"]),
            "params": ["r-2ga"],
            "outcomes": [],
            "choices": ["place 0912"],
            "private": None,
        }
    )


def outcome_unknown_winner(env: dict[str, Any], rng: random.Random) -> None:
    env["state"]["outcome"] = [rng.choice(["italy", "draw", ""]), "S11"]


def value_of_a_wrong_type(env: dict[str, Any], rng: random.Random) -> None:
    table = rng.choice(sorted(t for t in _tables(env) if not t.startswith("$")))
    key = rng.choice(sorted(_tables(env)[table]))
    _tables(env)[table][key] = rng.choice([1.5, {"q": 1}, [1.5], 1e300])


MUTATIONS: tuple[Mutation, ...] = (
    two_on_one_hex,
    on_impassable_hex,
    off_the_map,
    unknown_unit_id,
    extra_unit,
    wrong_side,
    dead_and_placed,
    stacks_disagree,
    stacks_extra_entry,
    bad_step,
    bad_unit_value,
    turn_off_the_track,
    bad_cursor,
    card_in_two_places,
    card_twice_in_a_deck,
    card_in_the_wrong_deck,
    unknown_card,
    unknown_card_place,
    card_removed,
    hidden_mark_removed,
    effect_params_wrong_type,
    effect_params_reshaped,
    effect_of_another_card,
    effect_owner_wrong,
    effect_kind_unknown,
    effect_serial_repeated,
    air_unit_nowhere,
    air_unit_off_its_airfields,
    airfield_shared,
    air_unit_unknown,
    sky_without_aloft,
    replacement_points_bad,
    mark_unknown_unit,
    mark_not_true,
    unknown_table,
    hidden_mark_dangling,
    hidden_from_unknown_side,
    pending_by_unknown_side,
    outcome_unknown_winner,
    value_of_a_wrong_type,
)


def mutation_counts(text: str, rounds: int, seed: int) -> Counter[str]:
    """Apply each mutation ``rounds`` times (random targets), reseal, load; count."""
    rng = random.Random(seed)
    original = json.loads(text)
    counts: Counter[str] = Counter()
    for _ in range(rounds):
        for mutate in MUTATIONS:
            env = copy.deepcopy(original)
            for _ in range(10):  # a random pick may change nothing (a step set to itself)
                mutate(env, rng)
                if env != original:
                    break
            else:  # pragma: no cover
                counts["unchanged"] += 1
                continue
            counts["mutated"] += 1
            try:
                loads(RULES, reseal(env), source="save.json")
                counts["illegal position accepted"] += 1
                counts[f"accepted: {mutate.__name__}"] += 1
            except RecordError as exc:
                counts["refused"] += 1
                if exc.entry and exc.source == "save.json":
                    counts["refusal names the entry"] += 1
            except Exception as exc:  # counted: must stay 0
                counts[f"traceback {type(exc).__name__}: {mutate.__name__}"] += 1
    return counts


@pytest.fixture(scope="module")
def save_text() -> str:
    return dumps(mid_game_save())


def test_the_unmutated_save_loads(save_text: str) -> None:
    state = loads(RULES, save_text)
    assert state.turn == 7
    assert state.effects, "the save has effects in force (their checks are exercised)"
    assert loads(RULES, reseal(json.loads(save_text))) == state


def test_mutated_saves_are_refused_naming_the_entry(save_text: str) -> None:
    counts = mutation_counts(save_text, rounds=6, seed=11)
    assert counts["mutated"] == 6 * len(MUTATIONS)
    assert counts["illegal position accepted"] == 0, counts
    assert counts["refused"] == counts["mutated"], counts  # no other exception
    assert counts["refusal names the entry"] >= counts["refused"] * 9 // 10, counts


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 10_000 + "]" * 10_000, "nested deeper"),
        ('{"version": ' + "9" * 5000 + "}", "not valid JSON"),
        (b'{"format": "\xff\xfe"}', "not valid UTF-8"),
        ('{"format": "\\ud800"}', "lone surrogate"),
        ('{"format": NaN}', "NaN"),
        ("", "not valid JSON"),
    ],
)
def test_hostile_json_is_one_record_error(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(RULES, text, source="save.json")


def test_a_save_of_other_options_or_data_is_refused(save_text: str) -> None:
    short = StalingradRules(length="short")
    with pytest.raises(RecordError, match=r"rules_options: rules options differ \(length"):
        loads(short, save_text)
    env = json.loads(save_text)
    env["data_digest"] = "0" * 64
    with pytest.raises(RecordError, match="data_digest: data digest"):
        loads(RULES, reseal(env))
    env = json.loads(save_text)
    env["options"] = {"length": ["long"]}
    with pytest.raises(RecordError, match="digest mismatch"):  # options are in the checksum
        loads(RULES, json.dumps(env))
    env = json.loads(save_text)
    env["scenario"] = "bogus"
    with pytest.raises(RecordError, match="digest mismatch"):  # so is the scenario
        loads(RULES, json.dumps(env))
    env.pop("rules_version")
    with pytest.raises(RecordError, match="missing field 'rules_version'"):
        loads(RULES, json.dumps(env))


def test_a_pending_decision_naming_a_unit_twice_is_refused() -> None:
    """An attacker listed twice in a pending roll would count twice (S8.2): refused."""
    found: list[State] = []

    def grab(state: State, action: Any) -> None:
        top = state.pending[-1] if state.pending else None
        if not found and top is not None and top.kind == "roll" and top.params[0] == "attack":
            found.append(state.clone())

    random_game(RULES, 5, on_step=grab)
    assert found, "the seeded game declared a ground attack"
    env = json.loads(dumps(found[0]))
    assert loads(RULES, reseal(copy.deepcopy(env))) == found[0]
    params = env["state"]["pending"][-1]["params"]
    params.append(params[-1])  # the last attacker again
    with pytest.raises(RecordError, match="more than once") as caught:
        loads(RULES, reseal(env), source="save.json")
    assert caught.value.entry == "state.pending[0].params"
