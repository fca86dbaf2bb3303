"""The movement memo (S6) and the idle-phase test (S4) give exactly the plain answers.

:func:`hexwar_stalingrad.ground.move_actions` keeps each side's move list as a view on the
ruleset, updated by diffs, and memoises each unit's search while the enemy units near it
stay put; :meth:`StalingradRules.has_phase_actions` reads the same view. Along random games
(after undo, in clones, and with two games asking in turn) both are compared with a plain
recomputation: a fresh search with every friendly and enemy unit, as in S6.2-S6.4.
"""

from __future__ import annotations

import random

import pytest

from hexwar.actions import Action
from hexwar.dice import SeededDriver
from hexwar.movement import reachable
from hexwar.state import State
from hexwar_stalingrad import ground
from hexwar_stalingrad.board import enemy, on_map, static
from hexwar_stalingrad.bots import RandomBot, fast_legal_actions
from hexwar_stalingrad.rules import StalingradRules


def plain_move_actions(state: State, side: str, exploitation: bool) -> list[Action]:
    """S6: every unit that may move, every hex it may end in; no memo."""
    data = static(state)
    game_map = data.map_with(ground.terrain_overrides(state))
    mine = on_map(state, side)
    friends = {data.cell(lab) for lab, _ in mine}
    enemies = {data.cell(lab) for lab, _ in on_map(state, enemy(side))}
    out = []
    for label, unit in mine:
        if not ground.may_move_now(state, unit, side, exploitation):
            continue
        points = ground.allowance(state, unit)
        if points <= 0:
            continue
        start = data.cell(label)
        reach = reachable(
            game_map,
            start,
            data.ground[unit].movement_class,
            points,
            friends=friends - {start},
            enemies=enemies,
        )
        ends = sorted(data.label(c) for c in reach.costs if c != start)
        out.extend(Action("move", (unit, lab)) for lab in ends)
    return out


def walk(rules: StalingradRules, seed: int, turns: int):  # type: ignore[no-untyped-def]
    """The player nodes of a random game up to ``turns`` turns."""
    driver = SeededDriver(seed)
    bots = {s: RandomBot(seed + i) for i, s in enumerate(rules.sides)}
    state = rules.new_state()
    while not state.is_terminal() and state.turn <= turns:
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
            continue
        yield state
        state.apply_unchecked(bots[state.current_player()](state))


def check_moves(state: State) -> int:
    """In a movement or exploitation phase of the side to move, check the memoised moves
    against the plain search; 1 if checked, else 0."""
    side, phase = state.current_player(), state.phase
    if state.pending or state.stage != side or phase not in ("movement", "exploitation"):
        return 0
    exploitation = phase == "exploitation"
    assert ground.move_actions(state, side, exploitation) == plain_move_actions(
        state, side, exploitation
    )
    return 1


@pytest.mark.parametrize("seed", [1, 2])
def test_s6_memoised_moves_equal_a_plain_search_along_random_games(seed: int) -> None:
    rules = StalingradRules(length="short")
    checked = sum(check_moves(state) for state in walk(rules, seed, turns=3))
    assert checked > 50


def test_s4_has_phase_actions_is_phase_actions_non_empty_along_random_games() -> None:
    rules = StalingradRules(length="short")
    seen = set()
    for state in walk(rules, 3, turns=5):
        if state.pending:
            continue
        for side in rules.sides:
            expected = bool(list(rules.phase_actions(state, side)))
            assert rules.has_phase_actions(state, side) is expected, (state, side)
            seen.add((state.phase, expected))
    assert ("movement", True) in seen
    assert ("movement", False) in seen  # the other side has no move in our phase


def test_s6_moves_after_undo_and_in_clones_equal_a_plain_search() -> None:
    """The memo lives on the ruleset and is shared by every state: it must not leak
    positions from other lines of play (undo, clones)."""
    rules = StalingradRules(length="short")
    rng = random.Random(5)
    for state in walk(rules, 4, turns=2):
        side = state.current_player()
        if state.pending or state.phase != "movement" or state.stage != side:
            continue
        branch = state.clone()
        for _ in range(3):
            actions = fast_legal_actions(branch)
            if branch.is_terminal() or branch.pending or branch.phase != "movement":
                break
            branch.apply_unchecked(rng.choice(actions))
        while branch.can_undo() and len(branch.history) > len(state.history):
            branch.undo()
        assert ground.move_actions(branch, side, False) == plain_move_actions(branch, side, False)
        assert fast_legal_actions(branch) == branch.legal_actions() == state.legal_actions()


def test_s6_two_games_asking_in_turn_get_their_own_moves() -> None:
    """The view is one per side on the ruleset: two games asking in turn make it diff
    whole positions back and forth, and each must still get exactly its own moves."""
    rules = StalingradRules(length="short")
    games = [walk(rules, 11, turns=3), walk(rules, 12, turns=3)]
    checked = sum(check_moves(a) + check_moves(b) for a, b in zip(*games, strict=False))
    assert checked > 50
