"""Random full games on the real rules, checked by the core's verification kit.

Invariants (S2, S3.2, S6.2, S10.1, S4.2): one ground unit per hex, ``units`` and ``at``
agree, no unit on an impassable hex, valid step states, no turn-6 reserve on the map
before turn 6, no air unit off its pool before turn 3.

Cost: the kit's full checks (clone, serialization, undo at every step) make a 10-turn
game of ~1 000 steps take seconds, so CI runs a few fully checked games, 200 complete
short games with the invariants at every step and the full checks at every 50th step
(``full_check_every``), plus bot games with the invariants checked at every step.

Soak mode (opt-in, not in CI): ``HEXWAR_SOAK_GAMES=10000 python -m pytest
tests/stalingrad/test_rules_random.py -k soak`` plays that many games the same way.
"""

from __future__ import annotations

import os

import pytest
from random_games import random_game

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer
from hexwar.engine.state import State
from hexwar.testing import check_random_games
from hexwar_stalingrad.board import DEAD, FULL, GONE, PIECES, POOL, REDUCED, static, step, where
from hexwar_stalingrad.reinforce import AIR_ARRIVAL_TURN, RESERVE_TURN
from hexwar_stalingrad.rules import StalingradRules


def one_unit_per_hex(state: State) -> str | None:
    """S6.2 and registry consistency: ``stacks`` and ``pieces`` describe the same placement,
    one unit per hex."""
    stacks = PIECES.occupied(state)
    for label, stack in stacks.items():
        if len(stack) != 1:
            return f"stacks[{label}] = {stack}: two ground units share a hex"
        there = PIECES.label_of(state, stack[0])
        if there != label:
            return f"stacks[{label}] = {stack} but {stack[0]} is on {there}"
    if len(PIECES.entries(state)) != len(stacks):
        return "a placed unit is missing from its hex's stack"
    return None


def legal_hexes_and_steps(state: State) -> str | None:
    """No unit on an impassable hex (S6.6) or an unknown cell; steps valid (S1.3), and
    only the dead show ``gone`` (S4.1)."""
    data = static(state)
    for unit in sorted(data.ground):
        label, unit_step = where(state, unit), step(state, unit)
        if (label == DEAD) != (unit_step == GONE):
            return f"{unit} on {label} shows step {unit_step}"
        if unit_step not in (FULL, REDUCED, GONE):
            return f"{unit} has step {unit_step}"
        if label not in (POOL, DEAD) and label not in data.passable:
            return f"{unit} on impassable or unknown hex {label}"
    return None


def reserves_and_air_on_time(state: State) -> str | None:
    """Turn-6 reserves absent before turn 6 (S4.2); no air before turn 3 (S10.1)."""
    data = static(state)
    if state.turn < RESERVE_TURN:
        for unit, info in data.ground.items():
            if info.arrives == RESERVE_TURN and (where(state, unit), step(state, unit)) != (
                POOL,
                FULL,
            ):
                return f"reserve {unit} present on turn {state.turn}"
    for unit, info in data.air.items():
        value = state.get("air", unit)
        if (state.turn < AIR_ARRIVAL_TURN or state.turn < info.arrives) and value != (POOL, FULL):
            return f"air unit {unit} present on turn {state.turn}"
    return None


INVARIANTS = [one_unit_per_hex, legal_hexes_and_steps, reserves_and_air_on_time]


def test_random_short_games_pass_every_kit_check() -> None:
    """The full kit (clone, save/load, undo, seats...) on complete 5-turn games."""
    rules = StalingradRules(length="short", players=6)
    report = check_random_games(
        rules.new_state, games=2, seed=11, max_steps=5000, invariants=INVARIANTS
    )
    assert report.ok, report.violations[:3]
    assert report.terminal == 2
    # the kit's default policy reaches ground and air combat (issue 30)
    assert report.kinds["attack"] >= report.games
    assert report.kinds["intercept"] > 0


CI_GAMES = 200
SOAK_GAMES = int(os.environ.get("HEXWAR_SOAK_GAMES", "0"))


def _sampled_kit_run(games: int, seed: int) -> None:
    rules = StalingradRules(length="short")
    report = check_random_games(
        rules.new_state,
        games=games,
        seed=seed,
        max_steps=5000,
        invariants=INVARIANTS,
        full_check_every=50,
    )
    assert report.ok, report.violations[:3]
    assert report.games == games
    assert report.terminal == games


#: The CI games in chunks of their own seeds, so that pytest-xdist spreads them over cores.
CI_CHUNKS = 4


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CI_CHUNKS))
def test_200_random_short_games_pass_the_kit_with_sampled_full_checks(chunk: int) -> None:
    """200 complete 5-turn games (4 x 50, seeds 2026-2029): invariants every step, full kit
    checks every 50th."""
    _sampled_kit_run(CI_GAMES // CI_CHUNKS, seed=2026 + chunk)


@pytest.mark.skipif(SOAK_GAMES == 0, reason="opt-in soak: set HEXWAR_SOAK_GAMES")
def test_soak_random_games() -> None:
    _sampled_kit_run(SOAK_GAMES, seed=1)


@pytest.mark.slow
def test_random_long_games_pass_the_cheaper_kit_checks() -> None:
    """Complete 10-turn games without the per-step serialization round trip."""
    rules = StalingradRules(length="long", players=4)
    report = check_random_games(
        rules.new_state,
        games=2,
        seed=5,
        max_steps=5000,
        invariants=INVARIANTS,
        check_serialization=False,
    )
    assert report.ok, report.violations[:3]
    assert report.terminal == 2


@pytest.mark.parametrize("length", ["short", "long"])
def test_bot_games_keep_the_invariants_at_every_step(length: str) -> None:
    """Many seeded random games (token-wise players); invariants after every action."""
    rules = StalingradRules(length=length)
    games = 20 if length == "long" else 30
    for seed in range(games):
        state = rules.new_state()
        driver, bot = SeededDriver(seed), RandomPlayer(seed)
        steps = 0
        while not state.is_terminal():
            for inv in INVARIANTS:
                assert inv(state) is None, (seed, steps, inv(state))
            action = driver.pick(state.chance_outcomes()) if state.is_chance_node() else bot(state)
            state.apply_unchecked(action)
            steps += 1
        assert state.outcome is not None
        assert state.outcome.winner in rules.sides


def test_a_seeded_random_game_is_reproducible() -> None:
    rules = StalingradRules(length="short")
    a, b = random_game(rules, seed=4), random_game(rules, seed=4)
    assert a.history == b.history
    assert a.outcome == b.outcome
