"""``examples/tutorial/crossing.py`` plays as the tutorial's «Переправа» (The Crossing).

The tutorial (``docs/tutorial.md``) builds the game in doctest blocks; the module is its
importable copy (typed, with declared bounds). The tutorial's code is run here from the
document itself, and both games are played side by side over seeded random games: the
same legal actions, chance outcomes and tables at every step, and the same outcome.
"""

from __future__ import annotations

import doctest
import functools
import random
from pathlib import Path
from typing import Any

import pytest
from examples.tutorial.crossing import Crossing

from hexwar.engine.dice import SeededDriver
from hexwar.engine.state import Ruleset, State

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"


@functools.cache
def tutorial_crossing() -> type[Ruleset]:
    """The ``Crossing`` class of the tutorial, built by running its blocks up to it."""
    text = TUTORIAL.read_text(encoding="utf-8")
    namespace: dict[str, Any] = {}
    for example in doctest.DocTestParser().get_examples(text):
        exec(compile(example.source, str(TUTORIAL), "exec"), namespace)
        if example.source.startswith("class Crossing(Ruleset):"):
            crossing = namespace["Crossing"]
            assert isinstance(crossing, type)
            assert issubclass(crossing, Ruleset)
            return crossing
    raise AssertionError("docs/tutorial.md defines no Crossing ruleset")


def same_position(a: State, b: State) -> list[str]:
    """What differs between two states of the two games (empty: nothing)."""
    diffs = []
    if [str(x) for x in a.legal_actions()] != [str(x) for x in b.legal_actions()]:
        diffs.append(f"legal actions {a.legal_actions()} != {b.legal_actions()}")
    if a.chance_outcomes() != b.chance_outcomes():
        diffs.append("chance outcomes differ")
    if a.current_player() != b.current_player():
        diffs.append(f"player {a.current_player()} != {b.current_player()}")
    if a.to_data() != b.to_data():
        diffs.append("tables, cursor or decisions differ")
    return diffs


def test_the_tutorial_defines_the_game() -> None:
    assert tutorial_crossing().name == Crossing.name == "crossing"


@pytest.mark.parametrize("seed", range(40))
def test_the_module_plays_as_the_tutorial(seed: int) -> None:
    ours, theirs = Crossing().new_state(), tutorial_crossing()().new_state()
    rng, dice = random.Random(seed), SeededDriver(seed)
    steps = 0
    while True:
        assert same_position(ours, theirs) == [], f"seed {seed}, step {steps}"
        if ours.is_terminal():
            break
        if ours.is_chance_node():
            action = dice.pick(ours.chance_outcomes())
        else:
            action = rng.choice(ours.legal_actions())
        ours.apply(action)
        theirs.apply(action)
        steps += 1
    assert theirs.is_terminal()
    assert ours.outcome == theirs.outcome is not None
    assert ours.history == theirs.history
