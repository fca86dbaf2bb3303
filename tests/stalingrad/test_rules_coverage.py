"""Rules S1.4, S1.6, S2.1-S2.3, S3.4 and S8.3, exercised through the state API."""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction

import pytest
from random_games import random_game

from hexwar.engine.dice import D6
from hexwar.engine.state import State
from hexwar_stalingrad import air
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.board import remove, static, step, where
from hexwar_stalingrad.ground import zoc_of_side
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import ready, situation
from hexwar_stalingrad.units import load_oob, oob_from_dict

RULES = StalingradRules()
TRENCH = "2016"
RING = ("2116", "2115", "2015", "1916", "2017", "2117")  # neighbours of TRENCH, in order
HALF, ONE, TWO = Fraction(1, 2), Fraction(1), Fraction(2)
ONE_STEP_LESS = {TWO: ONE, ONE: HALF, HALF: HALF}  # ruling S1.4, written out
SIX_ROLLS = {str(n): Fraction(1, 6) for n in range(1, 7)}


def moves(state: State, unit: str) -> set[str]:
    return {a.args[1] for a in state.legal_actions() if a.kind == "move" and a.args[0] == unit}


def rolls(state: State) -> dict[str, Fraction]:
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert all(a.kind == "roll" for a, _ in outcomes)
    return {a.args[0]: p for a, p in outcomes}


# -- S1.4 bombs on the reduced side --------------------------------------------------------------


def test_s1_4_every_bomber_in_the_oob_shows_one_bomb_step_less_when_reduced() -> None:
    bombers = [u for u in load_oob().air if u.bombs is not None]
    assert bombers
    for unit in bombers:
        assert unit.role == "bomber"
        assert unit.reduced_bombs == ONE_STEP_LESS[unit.bombs], unit.id
    assert all(u.reduced_bombs is None for u in load_oob().air if u.role == "fighter")


def test_s1_4_loader_derives_reduced_bombs_2_1_and_half() -> None:
    data = tomllib.loads(data_path("oob.toml").read_text(encoding="utf-8"))
    bombers = [raw for raw in data["air"] if "bombs" in raw][:3]
    assert len(bombers) == 3
    for raw, bombs in zip(bombers, (2, 1, 0.5), strict=True):
        raw["bombs"] = bombs
    oob = oob_from_dict(data, "oob.toml (edited)")
    got = [oob.air_unit(raw["id"]).reduced_bombs for raw in bombers]
    assert got == [ONE, HALF, HALF]


def test_s1_4_a_reduced_bomber_strikes_with_one_bomb_step_less() -> None:
    state = ready(RULES)
    field = air.airfields(state, "wehrmacht")[0]
    state.put("air", "wa-ju87-1", (field, "full"))
    assert air.strike_bombs(state, "wa-ju87-1") == TWO
    state.put("air", "wa-ju87-1", (field, "reduced"))
    assert air.strike_bombs(state, "wa-ju87-1") == ONE
    state.put("air", "wa-bf110", (field, "reduced"))
    assert air.strike_bombs(state, "wa-bf110") == HALF


# -- S1.6 one six-sided die ----------------------------------------------------------------------


def test_s1_6_the_tables_are_rolled_with_one_d6() -> None:
    data = static(ready(RULES))
    assert data.crt.dice == D6
    assert data.bombardment.dice == D6


def test_s1_6_a_ground_attack_is_six_equally_likely_rolls_of_one_die() -> None:
    state = situation(RULES, {"r-1ga": RING[0], "r-21a-a": RING[1], "w-xi-ak": TRENCH})
    state.apply("attack w-xi-ak r-1ga r-21a-a")
    assert rolls(state) == SIX_ROLLS
    state.apply("roll 3")
    assert not state.is_chance_node()  # one die, not two


def test_s1_6_a_bombardment_is_six_equally_likely_rolls_of_one_die() -> None:
    units = {"r-swf-art": "1010", "w-xi-ak": "1012", "r-1ga": "3030"}
    state = situation(RULES, units, phase="artillery")
    state.apply("bombard r-swf-art w-xi-ak")
    assert rolls(state) == SIX_ROLLS
    state.apply("roll 1")
    assert not state.is_chance_node()


# -- S2.1 every ground unit has a ZOC; air units have none -------------------------------------


def test_s2_1_zoc_is_the_six_neighbours_including_enemy_occupied_hexes() -> None:
    state = situation(RULES, {"w-xi-ak": "1512", "r-1ga": "1513"}, phase="movement")
    data = static(state)
    ring = set(data.neighbors["1512"])
    assert len(ring) == 6
    assert ring <= data.passable
    assert zoc_of_side(state, "wehrmacht") == ring  # "1513" holds the RKKA unit
    assert zoc_of_side(state, "rkka") == set(data.neighbors["1513"])  # includes "1512"


def test_s2_1_a_mover_stops_on_entering_a_hex_next_to_an_enemy_ground_unit() -> None:
    free = moves(situation(RULES, {"r-1ga": "1510", "w-xi-ak": "3030"}, phase="movement"), "r-1ga")
    held = moves(situation(RULES, {"r-1ga": "1510", "w-xi-ak": "1512"}, phase="movement"), "r-1ga")
    data = static(ready(RULES))
    ring = set(data.neighbors["1512"])
    near = {h for h in ring if data.distance("1510", h) == 1}
    far = {h for h in ring if data.distance("1510", h) == 3}
    assert near
    assert far
    assert far <= free
    assert near <= held  # it may enter the ZOC next to its start...
    lost = free - held - {"1512"}
    assert far <= lost  # ...but stops there: the ZOC hexes on the far side are out of reach
    assert lost - ring  # and so are hexes beyond the ring


def test_s2_1_air_units_exert_no_zoc() -> None:
    field = "2417"  # a Wehrmacht airfield in open steppe
    units = {"r-1ga": "2415", "w-xi-ak": "0505"}
    empty = moves(situation(RULES, units, phase="movement"), "r-1ga")
    state = situation(RULES, units, phase="movement")
    assert field in air.airfields(state, "wehrmacht")
    state.put("air", "wa-ju87-1", (field, "full"))
    assert moves(state, "r-1ga") == empty  # the German air unit changes nothing
    assert zoc_of_side(state, "wehrmacht") == set(static(state).neighbors["0505"])
    ground = moves(situation(RULES, {**units, "w-li-n": field}, phase="movement"), "r-1ga")
    assert ground != empty  # a ground unit on the same hex does (the test can fail)


# -- S2.2 ZOC affects replacements ---------------------------------------------------------------


def _replacements(units: dict[str, str | tuple[str, str]]) -> State:
    state = situation(RULES, units, turn=2, stage="replacements", phase="rkka")
    remove(state, "r-21a-a")
    return state


def test_s2_2_a_reduced_unit_in_enemy_zoc_cannot_be_restored() -> None:
    reduced = ("1010", "reduced")
    near = {str(a) for a in _replacements({"r-1ga": reduced, "w-xi-ak": "1011"}).legal_actions()}
    far = {str(a) for a in _replacements({"r-1ga": reduced, "w-xi-ak": "1012"}).legal_actions()}
    assert "restore r-1ga" in far  # two hexes away: no ZOC
    assert "restore r-1ga" not in near


def test_s2_2_a_truck_hex_in_enemy_zoc_cannot_receive_a_rebuilt_unit() -> None:
    data = static(ready(RULES))
    truck = data.tagged("truck:rkka")[0]
    adjacent = data.neighbors[truck][0]
    two_away = next(h for h in sorted(data.disk(truck, 2)) if data.distance(truck, h) == 2)
    for enemy_at, allowed in ((adjacent, False), (two_away, True)):
        state = _replacements({"w-xi-ak": enemy_at, "r-1ga": "1010"})
        legal = {str(a) for a in state.legal_actions()}
        assert (f"rebuild r-21a-a {truck} full" in legal) is allowed, enemy_at
        assert (f"rebuild r-21a-a {truck} reduced" in legal) is allowed, enemy_at


# -- S2.3 ZOC across rivers; impassable hexes in no ZOC ------------------------------------------

# Don hexsides run between 0202|0303 and 0302|0303: a German unit on 0303 controls 0202 and
# 0302 only across the river. The RKKA infantry on 0102 (3 points) reaches 0402 along
# 0102-0202-0302-0402 without crossing any river, but only if 0202 and 0302 are not in ZOC.
ACROSS_E, ACROSS_PATH = "0303", ("0102", "0202", "0302", "0402")


def test_s2_3_zoc_extends_across_rivers() -> None:
    start, *_, goal = ACROSS_PATH
    free = situation(RULES, {"r-1ga": start, "w-xi-ak": "3030"}, phase="movement")
    held = situation(RULES, {"r-1ga": start, "w-xi-ak": ACROSS_E}, phase="movement")
    data = static(held)
    m = data.game_map
    for a, b in itertools.pairwise(ACROSS_PATH):
        assert not m.hexside(data.cell(a), data.cell(b)) & {"don", "chir"}  # same bank
    for h in ACROSS_PATH[1:-1]:
        assert "don" in m.hexside(data.cell(h), data.cell(ACROSS_E))  # controlled across
    assert goal not in data.neighbors[ACROSS_E]
    assert {"0202", "0302"} <= zoc_of_side(held, "wehrmacht")
    assert goal in moves(free, "r-1ga")
    assert "0202" in moves(held, "r-1ga")  # it may enter, and stops there
    assert goal not in moves(held, "r-1ga")


def test_s2_3_zoc_across_a_river_forbids_restoring() -> None:
    units: dict[str, str | tuple[str, str]] = {"r-1ga": ("0202", "reduced"), "w-xi-ak": "0303"}
    state = situation(RULES, units, turn=2, stage="replacements", phase="rkka")
    assert "restore r-1ga" not in {str(a) for a in state.legal_actions()}


def test_s2_3_impassable_hexes_are_in_no_zoc() -> None:
    shore = "2522"  # steppe next to a salt lake (2623)
    state = situation(RULES, {"w-xi-ak": shore, "r-1ga": "1010"}, phase="movement")
    data = static(state)
    blocked = {n for n in data.neighbors[shore] if n not in data.passable}
    assert blocked == {"2623"}
    zoc = zoc_of_side(state, "wehrmacht")
    assert zoc == set(data.neighbors[shore]) - blocked
    assert not zoc - data.passable


# -- S3.4 game length ------------------------------------------------------------------------------


def _end_turn(rules: StalingradRules, turn: int) -> State:
    state = situation(
        rules, {"r-1ga": "1010", "w-xi-ak": "3030"}, turn=turn, stage="wehrmacht", phase="movement"
    )
    while not state.is_terminal() and state.turn == turn:
        state.apply("end")
    return state


def test_s3_4_the_short_game_ends_after_turn_5() -> None:
    state = _end_turn(StalingradRules(length="short"), 5)
    assert state.is_terminal()
    assert state.turn == 5
    assert state.outcome is not None
    assert state.outcome.reason.startswith("S11.1")


def test_s3_4_the_long_game_goes_on_after_turn_5_and_ends_after_turn_10() -> None:
    state = _end_turn(StalingradRules(length="long"), 5)
    assert not state.is_terminal()
    assert state.turn == 6
    state = _end_turn(StalingradRules(length="long"), 10)
    assert state.is_terminal()
    assert state.turn == 10
    assert state.outcome is not None
    assert state.outcome.reason.startswith("S11.2")


def test_s3_4_a_random_short_game_lasts_exactly_5_turns() -> None:
    state = random_game(StalingradRules(length="short", sudden_death=False), seed=11)
    assert state.is_terminal()
    assert state.turn == 5


# -- S8.3 one die on the CRT ---------------------------------------------------------------------


def _observed(state: State, defender: str, attackers: tuple[str, ...]) -> str:
    """The CRT code a resolved attack shows on the board and in its pending decision."""
    kinds = {d.kind for d in state.pending}
    lost = [a for a in attackers if step(state, a) != "full"]
    if "al_loss" in kinds or (lost and step(state, defender) == "full"):
        return "AL"
    if "ex_loss" in kinds or lost:
        return "EX"
    if where(state, defender) == "dead":
        return "DE"
    if "retreat" in kinds or where(state, defender) != TRENCH:
        return "DRL" if step(state, defender) == "reduced" else "DR"
    assert step(state, defender) == "full"
    return "NE"


ATTACKS = [
    ("w-xi-ak", ("r-1ga", "r-21a-a")),  # 12:6 -> 2:1
    ("w-xi-ak", ("r-1ga", "r-21a-a", "r-26tc")),  # 19:6 -> 3:1 (W2)
    ("w-li-n", ("r-4mc", "r-26tc")),  # a weaker defender: a high column
]


@pytest.mark.parametrize(("defender", "attackers"), ATTACKS)
def test_s8_3_an_attack_resolves_with_one_roll_on_its_crt_column(
    defender: str, attackers: tuple[str, ...]
) -> None:
    units: dict[str, str | tuple[str, str]] = {defender: TRENCH}
    units.update(zip(attackers, RING, strict=False))
    state = situation(RULES, units)
    data = static(state)
    total = sum(data.ground[a].strength.full for a in attackers)
    column = f"{min(6, total // data.ground[defender].strength.full)}:1"  # S8.2
    state.apply(f"attack {defender} {' '.join(sorted(attackers))}")
    assert state.pending[-1].params[:3] == ("attack", defender, column)
    assert rolls(state) == SIX_ROLLS
    for n in range(1, 7):
        after = state.clone()
        after.apply(f"roll {n}")
        assert not after.is_chance_node()
        assert _observed(after, defender, attackers) == data.crt.result_at(column, n).code, n
