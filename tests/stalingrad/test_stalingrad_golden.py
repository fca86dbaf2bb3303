"""Golden files: a committed seeded game record and the committed theatre map picture.

The record is a long game between the core's token-wise random players
(:class:`hexwar.engine.loop.RandomPlayer`, chance by ``SeededDriver(3)``): it follows the rules
and the action space only, so bot changes do not touch it. Regenerating either must give
the committed bytes, so any rules or data change that alters play (or the map) shows up
as a failing test and a reviewable diff. After an intended
change, regenerate with ``HEXWAR_REGENERATE_GOLDEN=1 python -m pytest
tests/stalingrad/test_stalingrad_golden.py`` and commit the new files with the change.
"""

from __future__ import annotations

import os
from pathlib import Path

from random_games import random_game

from hexwar.engine.records import GameRecord, record_of, replay
from hexwar.testing import outputs_under_hash_seeds
from hexwar_stalingrad.board import SIDES
from hexwar_stalingrad.render import map_svg
from hexwar_stalingrad.rules import StalingradRules

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
GOLDEN_RECORD = HERE / "golden" / "long-random-seed3.json"
MAP_SVG = ROOT / "docs" / "stalingrad" / "map.svg"
SEED = 3
REGENERATE = os.environ.get("HEXWAR_REGENERATE_GOLDEN") == "1"


def _golden_game_json() -> str:
    state = random_game(StalingradRules(length="long"), SEED)
    assert state.is_terminal()
    return record_of(state, seed=SEED).to_json()


def _check(path: Path, text: str) -> None:
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path} differs from a regenerated copy"


def test_golden_record_regenerates_byte_for_byte() -> None:
    _check(GOLDEN_RECORD, _golden_game_json())


def test_golden_record_replays_to_a_terminal_state() -> None:
    rules = StalingradRules(length="long")
    record = GameRecord.from_json(rules, GOLDEN_RECORD.read_text(encoding="utf-8"))
    state = replay(rules, record)
    assert state.is_terminal()
    assert state.outcome is not None
    assert state.outcome.winner in SIDES


def test_map_svg_regenerates_byte_for_byte() -> None:
    """``python -m hexwar_stalingrad map`` writes ``docs/stalingrad/map.svg`` (issue 4)."""
    _check(MAP_SVG, map_svg())


_RECORD_SCRIPT = """
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar.engine.records import record_of
from hexwar_stalingrad.rules import StalingradRules
rules = StalingradRules(length="short")
players = {side: RandomPlayer(21 + i) for i, side in enumerate(rules.sides)}
state = play(rules.new_state(), players, SeededDriver(21))
print(record_of(state, seed=21).to_json())
"""


def test_a_seeded_game_is_the_same_under_any_string_hash_seed() -> None:
    """Determinism: no set/dict order over strings decides an action or an outcome."""
    outputs = outputs_under_hash_seeds(_RECORD_SCRIPT)
    assert outputs[0]
    assert outputs[0] == outputs[1]
