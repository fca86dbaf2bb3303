"""Bridgehead (examples/classic): the tutorial's classic game, verified by the kit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from examples.classic import rules
from examples.classic.data import cell
from examples.classic.rules import COMBAT, COUNTERS, REG, TOWN_CONTROL, Bridgehead

from hexwar import DataError
from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play
from hexwar.testing import check_random_games

RULES_FILE = Path(rules.__file__)


def test_the_kit_finds_no_violation_in_random_games() -> None:
    report = check_random_games(lambda: Bridgehead().new_state(), games=20, seed=11)
    assert report.ok, report.violations[:3]
    assert report.terminal == 20
    # the kit's default policy fights (issue 30: the uniform draw ended most phases at once)
    assert report.kinds["attack"] >= report.games
    assert sum(report.kinds.values()) == report.steps


def test_the_rules_fit_in_200_lines() -> None:
    """Imports aside (the formatter puts one imported name a line)."""
    tree = ast.parse(RULES_FILE.read_text(encoding="utf-8"))
    imports = sum(
        node.end_lineno - node.lineno + 1
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom) and node.end_lineno is not None
    )
    assert len(RULES_FILE.read_text(encoding="utf-8").splitlines()) - imports <= 200


def test_random_games_use_every_mechanism() -> None:
    kinds: set[str] = set()
    for seed in range(30):
        players = {s: RandomPlayer(seed * 2 + i) for i, s in enumerate(Bridgehead.sides)}
        kinds |= {
            a.kind for a in play(Bridgehead().new_state(), players, SeededDriver(seed)).history
        }
    assert {"move", "attack", "roll", "retreat", "advance", "restore", "rebuild"} <= kinds


def test_a_move_takes_the_towns_on_its_path_and_mud_slows_it() -> None:
    state = Bridgehead().new_state()
    for unit in ("r-1inf", "r-2inf", "r-3mil"):
        REG.remove(state, unit)  # clear the way
    assert TOWN_CONTROL.owner(state, cell("0602")) == "red"
    # the armour crosses at the bridge and drives through the town 0602 to 0702
    REG.move(state, "b-3arm", cell("0403"))
    path = rules.MOVES.path(state, Action.parse("move b-3arm 0702"))
    assert cell("0602") in path
    state.apply("move b-3arm 0702")
    assert TOWN_CONTROL.owner(state, cell("0602")) == "blue"
    dry = REG.reach(state, "b-4arm", rules.MAP, "tracked", 5).costs
    mud = REG.reach(state, "b-4arm", rules.MUD_MAP, "tracked", 5).costs
    assert set(mud) < set(dry)
    players = {s: RandomPlayer(i) for i, s in enumerate(Bridgehead.sides)}
    driver = SeededDriver(3)
    while state.turn < 3:
        state.apply_unchecked(
            driver.pick(state.chance_outcomes())
            if state.is_chance_node()
            else players[state.current_player()](state)
        )
    assert rules.board(state) is rules.MUD_MAP


def test_odds_shift_for_terrain_and_the_river() -> None:
    state = Bridgehead().new_state()
    target = cell("0504")  # r-2inf, in the clear, east of the river
    west = sorted(c for c in target.neighbors() if c.q == target.q - 1)
    assert cell("0403") in west  # one attacker may come over the bridge
    bank = next(c for c in west if c != cell("0403"))
    REG.move(state, "b-1inf", bank)
    REG.move(state, "b-2inf", cell("0403"))
    both = COMBAT.odds(state, "blue", "0504", ("b-1inf", "b-2inf"))
    assert (both.attack, both.defence, both.shift) == (8, 4, 0)  # not all across
    alone = COMBAT.odds(state, "blue", "0504", ("b-1inf",))
    assert alone.shift == -1  # all (one) across the river
    # the militia in the town 0704 defends at -2 (the attacker beside it, no river)
    REG.move(
        state, "b-3arm", next(c for c in cell("0704").neighbors() if not REG.occupants(state, c))
    )
    assert COMBAT.odds(state, "blue", "0704", ("b-3arm",)).shift == -2


def test_attrition_takes_a_step_from_a_cut_off_unit() -> None:
    state = Bridgehead().new_state()
    REG.move(state, "r-4mil", cell("0101"))  # deep behind Blue's line, no trace east
    before = COUNTERS.step(state, "r-4mil")
    rules.attrition(state)
    assert COUNTERS.step(state, "r-4mil") == before + 1
    assert COUNTERS.step(state, "r-1inf") == 0  # in supply: untouched


def test_a_retreat_goes_on_through_a_friend_and_rebuilds_follow_communication() -> None:
    """Issue 30's mechanisms in Bridgehead: a one-hex retreat into a friend's hex goes on
    to an empty hex (``until_free``); a side rebuilds on its edge or in a held town in
    communication with it (``edge_or_held``); Blue wins holding two towns."""
    state = Bridgehead().new_state()
    red = rules.REPLACEMENTS.places(state, "red", "r-1inf")
    assert [cell(t) for t in ("0602", "0704", "0806")] == red[-3:]
    assert rules.REPLACEMENTS.places(state, "blue", "b-1inf") == list(rules.EDGES["blue"])
    REG.move(state, "b-3arm", cell("0403"))
    state.apply("end")  # Blue's movement
    state.apply("attack 0504 b-3arm")
    state.apply("roll 5")  # DR, one hex
    REG.move(state, "r-1inf", cell("0603"))  # a friend on one of the retreat's hexes
    assert "retreat 0603" in [str(a) for a in state.legal_actions()]
    state.apply("retreat 0603")
    assert state.pending[-1].kind == "combat_retreat"  # on: 0603 holds r-1inf
    state.apply(state.legal_actions()[0])
    assert len(REG.occupants(state, REG.where(state, "r-2inf"))) == 1
    for town in ("0602", "0704"):
        TOWN_CONTROL.take(state, cell(town), "blue")
    assert rules.VICTORY.outcome(state).winner == "blue"


def test_the_map_size_is_a_rules_option() -> None:
    """Issue 31: the same units on a larger map (Red's edge moves to its last column)."""
    big = Bridgehead(columns=36, rows=28)
    assert Bridgehead().options() == {}
    assert big.options() == {"columns": 36, "rows": 28}
    assert Bridgehead.from_options(big.options()).options() == big.options()
    assert len(big.parts.map) == 36 * 28
    assert {c.q for c in big.parts.edges["red"]} == {35}
    assert len(big.parts.edges["red"]) == 28
    report = check_random_games(big.new_state, games=3, seed=5)
    assert report.ok, report.violations[:3]
    assert report.terminal == 3
    for bad in ({"columns": 8}, {"rows": 100}, {"columns": True}):
        with pytest.raises(DataError, match="bridgehead"):
            Bridgehead(**bad)  # type: ignore[arg-type]
