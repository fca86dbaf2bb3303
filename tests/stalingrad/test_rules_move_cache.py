"""The movement answers (S6) and the idle-phase test (S4) equal a plain search.

The move tokens (``state.legal_tokens(("move", ...))``), the complete move list
(the legal list, walked from the MOVE kind's steps) and the first-token test the sequencer asks
(:meth:`MOVE.any <hexwar.engine.kinds.Kind.any>`) share the end hexes memoised on their arguments
(:meth:`hexwar_stalingrad.static.Static.reach`). Along random games (after undo, in clones,
with two games asking in turn, under a static hook that reads another table) they are
compared with a plain recomputation: a fresh search with every friendly and enemy unit,
as in S6.2-S6.4.
"""

from __future__ import annotations

import random

import pytest
from random_games import random_players

from hexwar.board.movement import reachable
from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.space import DONE
from hexwar.engine.state import State
from hexwar_stalingrad import ground
from hexwar_stalingrad.board import enemy, on_map, static
from hexwar_stalingrad.rules import MOVE, StalingradRules
from hexwar_stalingrad.units import EXPLOITING_ARMS


def may_move_now(state: State, unit: str, side: str, exploitation: bool) -> bool:
    """Whether ``unit`` may move in this phase: not moved yet; in the exploitation phase
    an exploiting arm whose exploitation no card forbids (S6.5)."""
    if state.get("moved", unit):
        return False
    if not exploitation:
        return True
    arm = static(state).ground[unit].arm
    return arm in EXPLOITING_ARMS[side] and bool(state.hook("may_exploit", True, unit=unit))


def plain_move_actions(state: State, side: str, exploitation: bool) -> list[Action]:
    """S6: every unit that may move, every hex it may end in; no memo."""
    data = static(state)
    game_map = data.game_map.with_movement_costs(
        ground.mechanisms(state).moves.terrain_costs(state)
    )
    mine = on_map(state, side)
    friends = {data.cell(lab) for lab, _ in mine}
    enemies = {data.cell(lab) for lab, _ in on_map(state, enemy(side))}
    out = []
    for label, unit in mine:
        if not may_move_now(state, unit, side, exploitation):
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
    bots = random_players(rules, seed)
    state = rules.new_state()
    while not state.is_terminal() and state.turn <= turns:
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
            continue
        yield state
        state.apply_unchecked(bots[state.current_player()](state))


def _moves(state: State) -> list[Action]:
    """The legal ``move`` actions (S6), in the legal list's order (by unit, then hex)."""
    return [a for a in state.legal_actions() if a.kind == "move"]


def check_moves(state: State) -> int:
    """In a movement or exploitation phase of the side to move, check the move list and
    the move tokens against the plain search; 1 if checked, else 0."""
    side, phase = state.current_player(), state.phase
    if state.pending or state.stage != side or phase not in ("movement", "exploitation"):
        return 0
    exploitation = phase == "exploitation"
    plain = plain_move_actions(state, side, exploitation)
    assert _moves(state) == plain
    units = tuple(sorted({a.args[0] for a in plain}))
    assert state.legal_tokens(("move",)) == units
    for unit in units[:3]:
        ends = tuple(a.args[1] for a in plain if a.args[0] == unit)
        assert state.legal_tokens(("move", unit)) == ends
        assert state.legal_tokens(("move", unit, ends[0])) == (DONE,)
    assert MOVE.any(state, side) is bool(plain)  # the idle test, from the steps
    assert ("move" in state.legal_tokens()) is bool(plain)
    return 1


@pytest.mark.parametrize("seed", [1, 2])
def test_s6_moves_equal_a_plain_search_along_random_games(seed: int) -> None:
    rules = StalingradRules(length="short")
    checked = sum(check_moves(state) for state in walk(rules, seed, turns=5))
    assert checked > 20


def test_s4_first_token_is_phase_actions_non_empty_along_random_games() -> None:
    """The sequencer's idle test asks only for a first token (S4)."""
    rules = StalingradRules(length="short")
    seen = set()
    for state in walk(rules, 3, turns=5):
        if state.pending:
            continue
        side = state.current_player()
        expected = any(a.kind != "end" for a in state.legal_actions())  # the tree's leaves
        assert bool(rules.phase_tokens(state, side, ())) is expected, (state, side)
        seen.add((state.phase, expected))
    assert ("movement", True) in seen
    # the sequencer stops only where the side has something to do (S4: idle phases end)
    assert all(busy for _, busy in seen), sorted(seen)


def test_s6_moves_after_undo_and_in_clones_equal_a_plain_search() -> None:
    """The memo is shared by every state of the ruleset: it must not leak positions from
    other lines of play (undo, clones)."""
    rules = StalingradRules(length="short")
    rng = random.Random(5)
    checked = 0
    for state in walk(rules, 4, turns=3):
        side = state.current_player()
        if state.pending or state.phase != "movement" or state.stage != side:
            continue
        before = state.legal_actions()
        branch = state.clone()
        for _ in range(3):
            if branch.is_terminal() or branch.pending or branch.phase != "movement":
                break
            branch.apply_unchecked(rng.choice(branch.legal_actions()))
            checked += check_moves(branch)
        while branch.can_undo() and len(branch.history) > len(state.history):
            branch.undo()
        checked += check_moves(branch)
        assert branch.legal_actions() == state.legal_actions() == before
    assert checked > 10


def test_s6_two_games_asking_in_turn_get_their_own_moves() -> None:
    """Two games asking in turn share the memo; each must still get exactly its own moves."""
    rules = StalingradRules(length="short")
    games = [walk(rules, 11, turns=5), walk(rules, 12, turns=5)]
    checked = sum(check_moves(a) + check_moves(b) for a, b in zip(*games, strict=False))
    assert checked > 20


class _Tired(StalingradRules):
    """A static ``movement_allowance`` hook reading another table (``fired``): units of a
    side that has fired artillery this turn move one point less (a test rule)."""

    def hook_movement_allowance(self, state: State, value: int, *, unit: str) -> int:
        side = static(state).ground[unit].side
        fired = any(static(state).ground[u].side == side for u in state.table("fired"))
        return value - 1 if fired else value


def test_s6_an_allowance_hook_reading_another_table_is_followed() -> None:
    """The lists are not kept by hand-chosen diffs: a hook reading one more table (the
    bug a table-diffing view once missed) still gives the plain search's answer."""
    rules = _Tired(length="short")
    checked = 0
    for state in walk(rules, 6, turns=5):
        if state.pending or state.phase not in ("movement", "exploitation"):
            continue
        side = state.current_player()
        exploitation = state.phase == "exploitation"
        assert _moves(state) == plain_move_actions(state, side, exploitation)
        if state.table("fired"):
            checked += 1
    assert checked > 0
