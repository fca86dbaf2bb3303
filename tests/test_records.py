"""Game records and state files: round trips, replay in other processes, bad files refused."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.base.errors import RecordError
from hexwar.engine.actions import CHANCE
from hexwar.engine.dice import SeededDriver
from hexwar.engine.fileformat import FORMAT_VERSION
from hexwar.engine.records import GameRecord, record_of, replay
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import State
from hexwar.testing import outputs_under_hash_seeds
from toy_game import Duel

RULES = Duel()
TESTS = Path(__file__).parent

SCRIPT = """
import random, sys
sys.path.insert(0, sys.argv[1])
from toy_game import Duel
from hexwar.engine.actions import CHANCE
from hexwar.engine.dice import SeededDriver
from hexwar.engine.records import record_of
from hexwar.engine.savefile import dumps
seed = int(sys.argv[2])
driver, rng = SeededDriver(seed), random.Random(seed)
state = Duel().new_state()
while not state.is_terminal():
    if state.current_player() == CHANCE:
        state.apply(driver.pick(state.chance_outcomes()))
    else:
        state.apply(rng.choice(state.legal_actions()))
print(record_of(state, seed=seed).to_json())
print(dumps(state))
"""


def seeded_game(seed: int, stop: int | None = None) -> State:
    driver, rng = SeededDriver(seed), random.Random(seed)
    state = RULES.new_state()
    while not state.is_terminal() and (stop is None or len(state.history) < stop):
        if state.current_player() == CHANCE:
            state.apply(driver.pick(state.chance_outcomes()))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def reseal(envelope: dict[str, Any]) -> str:
    """Recompute the checksum as anyone can: SHA-256 of the canonical JSON of the rest."""
    envelope.pop("digest", None)
    body = json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    envelope["digest"] = hashlib.sha256(body.encode()).hexdigest()
    return json.dumps(envelope)


def hand_record(game: str, actions: tuple[str, ...]) -> GameRecord:
    return GameRecord(
        game,
        "default",
        (),
        None,
        actions,
        rules_version=RULES.version,
        rules_options=(),
        data_digest=RULES.data_digest(),
    )


def test_state_file_round_trips_and_play_continues_identically() -> None:
    state = seeded_game(5, stop=8)
    text = dumps(state)
    loaded = loads(RULES, text)
    assert loaded == state
    assert dumps(loaded) == text
    assert loaded.history == state.history
    assert not loaded.can_undo()  # the undo log is not saved
    for action in seeded_game(5).history[8:]:
        state.apply(action)
        loaded.apply(action)
        assert loaded == state


def test_record_replays_to_the_same_state() -> None:
    state = seeded_game(11)
    record = record_of(state, seed=11)
    again = GameRecord.from_json(RULES, record.to_json())
    assert again == record
    assert replay(RULES, again) == state


def test_replay_is_identical_under_different_hash_seeds(tmp_path: Path) -> None:
    outputs = outputs_under_hash_seeds(SCRIPT, [str(TESTS), "7"], timeout=120)
    assert outputs[0] == outputs[1]
    record_text, state_text = outputs[0].splitlines()
    record = GameRecord.from_json(RULES, record_text)
    assert record.seed == 7
    assert dumps(replay(RULES, record)) == state_text == dumps(seeded_game(7))


def test_replay_of_an_illegal_action_names_its_index() -> None:
    record = hand_record("duel", ("deal dud", "deal dud", "move red 6"))
    with pytest.raises(RecordError, match=r"actions\[2\]"):
        replay(RULES, record)
    with pytest.raises(RecordError, match="not 'duel'"):
        replay(RULES, hand_record("chess", ()))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: t[: len(t) // 2], "not valid JSON"),
        (lambda t: "[1, 2]", "not a hexwar-state file"),
        (lambda t: t.replace(f'"version":{FORMAT_VERSION}', '"version":99'), "format version 99"),
        (lambda t: t.replace('"game":"duel"', '"game":"chess"'), "game 'chess'"),
        (lambda t: t.replace('"units":{"blue":[', '"units":{"blue":[0,'), "digest mismatch"),
    ],
)
def test_bad_state_files_are_refused(mutate: Any, message: str) -> None:
    text = dumps(seeded_game(3, stop=6))
    with pytest.raises(RecordError, match=message):
        loads(RULES, mutate(text), source="save.json")


@pytest.mark.parametrize(
    ("path", "value", "entry"),
    [
        (("cursor",), [1, 0, 9, "enter", None, []], "state.cursor"),
        (("cursor",), [1, 0, 0, "bogus", None, []], "state.cursor"),
        (("tables", "units", "red"), {"q": 1}, "state.tables.units.red"),
        (("tables", "units", "red"), 1.5, "state.tables.units.red"),
        (("history",), [["move  red", None]], "state.history[0]"),
        (("outcome",), "red", "state.outcome"),
        (("serial",), "x", "state.serial"),
        (("effects",), [{"kind": "teleport"}], "state.effects[0]"),
        (
            ("pending",),
            [
                {
                    "kind": "roll",
                    "side": CHANCE,
                    "params": [],
                    "choices": [],
                    "private": None,
                    "outcomes": [["roll 1", "1/2"]],
                }
            ],
            "state.pending[0]",
        ),
        (
            ("pending",),
            [
                {
                    "kind": "roll",
                    "side": CHANCE,
                    "params": [],
                    "choices": [],
                    "private": None,
                    "outcomes": [["roll 1", "0/1"]],
                }
            ],
            "state.pending[0]",
        ),
        (("junk",), 1, "state"),
    ],
)
def test_tampered_but_resealed_files_fail_validation(
    path: tuple[str, ...], value: Any, entry: str
) -> None:
    envelope = json.loads(dumps(seeded_game(3, stop=6)))
    target = envelope["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError, match="^" + re.escape(f"save.json: {entry}")):
        loads(RULES, reseal(envelope), source="save.json")


def test_bad_records_are_refused() -> None:
    good = json.loads(record_of(seeded_game(2), seed=2).to_json())
    assert good["version"] == FORMAT_VERSION
    for key, value in (("actions", "deal dud"), ("seed", "x"), ("options", []), ("scenario", 3)):
        bad = {**good, key: value}
        with pytest.raises(RecordError, match="digest mismatch"):
            GameRecord.from_json(RULES, json.dumps(bad))
        with pytest.raises(RecordError, match=key):
            GameRecord.from_json(RULES, reseal(bad))


def test_options_and_scenario_are_kept() -> None:
    state = Duel().new_state("default", {"hill": False})
    loaded = loads(RULES, dumps(state))
    assert dict(loaded.options) == {"hill": False}
    assert record_of(state).options == (("hill", False),)


def _tamper(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data["state"])
    return reseal(data)


def test_effect_until_turn_round_trips_and_is_validated() -> None:
    state = Duel().new_state()
    state.add_effect("ambush", until=3)
    state.add_effect("ambush")  # no until: the effect's data has no "until" key
    text = dumps(state)
    back = loads(state.ruleset, text)
    assert [e.until for e in back.effects] == [3, None]
    assert back.to_data() == state.to_data()
    assert "until" not in json.loads(text)["state"]["effects"][1]

    def bad(body: Any) -> None:
        body["effects"][0]["until"] = "soon"

    with pytest.raises(RecordError, match=r"effects\[0\]\.until"):
        loads(state.ruleset, _tamper(text, bad))


def test_equal_states_need_the_same_game_not_the_same_ruleset_object() -> None:
    state = seeded_game(4, stop=7)
    other = Duel()
    assert other is not RULES
    assert loads(other, dumps(state)) == state  # same game, version, options, data digest
    assert replay(other, record_of(state)) == state
    moved = seeded_game(4, stop=8)
    assert moved != state  # another position


def test_another_version_or_option_set_is_another_game() -> None:
    class Duel2(Duel):
        version = "2"

    class Armoured(Duel):
        def options(self) -> dict[str, Any]:
            return {"armour": True}

    state = seeded_game(4, stop=7)
    text = dumps(state)
    assert Duel2().new_state() != RULES.new_state()
    with pytest.raises(RecordError, match="rules version '1' is not '2'"):
        loads(Duel2(), text)
    with pytest.raises(RecordError, match=r"rules options differ \(armour: file '<missing>'"):
        loads(Armoured(), text)
    with pytest.raises(RecordError, match="rules options differ"):
        GameRecord.from_json(Armoured(), record_of(state).to_json())


def test_scenario_and_options_are_inside_the_checksum() -> None:
    state = Duel().new_state("default", {"hill": False})
    data = json.loads(dumps(state))
    for key, value in (("options", {"hill": True}), ("scenario", "other")):
        with pytest.raises(RecordError, match="digest mismatch"):
            loads(RULES, json.dumps({**data, key: value}))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, "nested deeper"),
        ("{" + '"a":' * 3 + "1" * 5000 + "}", "not valid JSON"),
        (b"\xff", "not valid UTF-8"),
        ('"\\ud800"', "lone surrogate"),
        ('{"x": Infinity}', "Infinity"),
    ],
)
def test_hostile_json_is_a_record_error(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(RULES, text)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(RULES, text)


def test_apply_of_none_or_a_number_is_a_type_error() -> None:
    state = seeded_game(4, stop=3)
    for thing in (None, 3):
        with pytest.raises(TypeError, match=f"not {type(thing).__name__}"):
            state.apply(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("thing", [b"end", None, 3, ["end"], ("end",), 1.5])
def test_to_action_refuses_every_bad_type_with_a_hexwar_error(thing: object) -> None:
    """Issue 30: a bad-typed action is a ``HexwarError`` (and still a ``TypeError``)."""
    from hexwar.base.errors import ActionTypeError, HexwarError
    from hexwar.engine.actions import Action, to_action

    for convert in (to_action, Action.parse):
        with pytest.raises(HexwarError, match=f"not {type(thing).__name__}") as caught:
            convert(thing)  # type: ignore[arg-type]
        assert isinstance(caught.value, ActionTypeError | TypeError)


def test_apply_of_bytes_is_a_hexwar_error() -> None:
    from hexwar.base.errors import HexwarError

    state = seeded_game(4, stop=3)
    with pytest.raises(HexwarError):
        state.apply(b"end")  # type: ignore[arg-type]
