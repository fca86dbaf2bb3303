"""Air operations (S10) and air replacements (S4.1): rules beyond the worked examples."""

from __future__ import annotations

from fractions import Fraction

import pytest
from random_games import random_game

from hexwar.base.errors import NotLegalNow
from hexwar.engine.actions import END, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.hooks import Expiry
from hexwar.engine.state import HIDDEN, State
from hexwar.testing import check_random_games, check_rejects
from hexwar_stalingrad import air
from hexwar_stalingrad.board import DEAD, GONE, place, static
from hexwar_stalingrad.rules import REPLACEMENTS, StalingradRules
from hexwar_stalingrad.situations import situation

RULES = StalingradRules(length="short")
RKKA_UNIT, GERMAN_UNIT = "r-21a-a", "w-xi-ak"
TARGET, OTHER = "1010", "2016"


def air_stage(units: dict[str, str], rules: StalingradRules = RULES) -> State:
    """Turn 3, the start of the air stage, no cards in force (see the W3-W6 tests)."""
    for seed in range(40):
        state = situation(rules, units, turn=2, stage="rkka", phase="movement", seed=seed)
        driver = SeededDriver(seed)
        while state.turn <= 3 and not (state.turn == 3 and state.stage == "air"):
            if state.is_chance_node():
                state.apply(driver.pick(state.chance_outcomes()))
            else:
                state.apply(state.legal_actions()[0] if state.pending else END)
        if state.turn == 3 and state.stage == "air":
            for effect in state.effects:
                state.remove_effect(effect)
            return state
    raise AssertionError("no seed reaches a flying turn 3")  # pragma: no cover


@pytest.fixture(scope="module")
def start() -> State:
    return air_stage({RKKA_UNIT: TARGET, GERMAN_UNIT: OTHER})


def test_s10_1_no_air_operations_before_turn_3() -> None:
    state = random_game(RULES, seed=5)
    replay = RULES.new_state()
    flights = 0
    for action in state.history:
        if action.kind == "fly":
            assert replay.turn >= 3
            assert replay.stage == "air"
            flights += 1
        replay.apply(action)
    assert flights > 0, "aviation flies from turn 3 in a random short game"


def test_s10_1_no_air_stage_in_non_flying_weather() -> None:
    state = situation(RULES, {RKKA_UNIT: TARGET, GERMAN_UNIT: OTHER}, turn=2, phase="movement")
    state.add_effect("weather", {"non_flying": True}, expiry=Expiry.GAME, source="test")
    driver = SeededDriver(1)
    while state.turn <= 3:
        assert state.stage != "air"
        if state.is_chance_node():
            state.apply(driver.pick(state.chance_outcomes()))
        else:
            state.apply(state.legal_actions()[0] if state.pending else END)


def test_s10_2_placements_are_hidden_from_the_other_side_until_both_are_in(start: State) -> None:
    state = start.clone()
    assert state.current_player() == "rkka"
    assert state.pending[-1].private == "rkka"
    before = state.observation("wehrmacht")
    state.apply(f"fly ra-il2-8 {OTHER}")
    seen = state.observation("wehrmacht")
    assert seen["tables"]["air_plan"]["rkka:bomber"] == HIDDEN
    assert seen["history"][-1] == HIDDEN  # the action text is private too
    assert seen["tables"]["air"] == before["tables"]["air"]  # the unit has not visibly left
    assert "sky" not in seen["tables"]
    own = state.observation("rkka")
    assert own["tables"]["air_plan"]["rkka:bomber"] == [["ra-il2-8", OTHER, GERMAN_UNIT]]
    # the only target is taken: RKKA's placement is complete; the Wehrmacht commits
    # without seeing it
    assert state.current_player() == "wehrmacht"
    assert state.observation("wehrmacht")["tables"]["air_plan"]["rkka:bomber"] == HIDDEN
    assert state.observation("rkka")["tables"]["air_plan"]["wehrmacht:bomber"] == HIDDEN
    state.apply(f"fly wa-bf110 {TARGET}")  # its only target: the placement is complete
    assert state.phase == "fighters"
    # both in: revealed to both sides, units aloft
    for side in ("rkka", "wehrmacht"):
        sky = state.observation(side)["tables"]["sky"]
        assert sky == {"ra-il2-8": [OTHER, GERMAN_UNIT], "wa-bf110": [TARGET, RKKA_UNIT]}
    assert air.air_where(state, "ra-il2-8") == air.ALOFT


def test_s10_2_bombers_only_onto_enemy_units_one_per_hex(start: State) -> None:
    state = start.clone()
    flies = [a for a in state.legal_actions() if a.kind == "fly"]
    assert {a.args[1] for a in flies} == {OTHER}  # the only enemy ground unit
    assert {a.args[0] for a in flies} == set(air.based(state, "rkka", "bomber"))
    state.apply(f"fly ra-il2-8 {OTHER}")
    # the hex is taken: nothing left to place, the RKKA side's placement is over
    assert state.current_player() == "wehrmacht"
    check_rejects(state, Action.parse(f"fly ra-pe2 {OTHER}"))


def test_s10_3_fighters_next_to_bombers_not_on_them(start: State) -> None:
    state = start.clone()
    state.apply(END)
    state.apply(f"fly wa-bf110 {TARGET}")
    assert state.phase == "fighters"
    assert state.current_player() == "rkka"
    hexes = {a.args[1] for a in state.legal_actions() if a.kind == "fly"}
    assert hexes == set(static(state).neighbors[TARGET])
    assert TARGET not in hexes


def _combat(start: State, rkka_fighters: dict[str, str], german: dict[str, str]) -> State:
    state = start.clone()
    state.apply(END)
    for u, h in german.items():
        if air.static(state).air[u].role == "bomber":
            state.apply(f"fly {u} {h}")
    while state.phase == "bombers":
        state.apply(END)
    for u, h in rkka_fighters.items():
        state.apply(f"fly {u} {h}")
    if state.current_player() == "rkka":
        state.apply(END)
    for u, h in german.items():
        if air.static(state).air[u].role == "fighter":
            state.apply(f"fly {u} {h}")
    while state.pending and state.pending[-1].kind == "air_place":
        state.apply(END)
    return state


def test_s10_5_odds_below_half_refused_and_capped_at_6_to_1(start: State) -> None:
    n = static(start).neighbors[TARGET]
    state = _combat(start, {"ra-lagg3": n[0]}, {"wa-bf110": TARGET})
    # 6 vs 6 → 1:1 (nearest)
    assert air.air_odds(state, "wa-bf110", ["ra-lagg3"]) == (6, 6, "1:1")
    state.put("air", "ra-lagg3", (air.ALOFT, "reduced"))
    state.put("air", "wa-bf110", (air.ALOFT, "full"))
    # 3 vs 6 = 0.5: still allowed (not below 0.5), rounds to 1:1
    assert air.air_odds(state, "wa-bf110", ["ra-lagg3"])[2] == "1:1"
    state.put("air", "wa-bf110", (air.ALOFT, "full"))
    state.add_effect("air_strength", {"side": "wehrmacht", "amount": 1}, source="test")
    # 3 vs 7 < 0.5: no attack, with a reason citing S10.5
    assert air.air_odds(state, "wa-bf110", ["ra-lagg3"]) == (3, 7, None)
    error = check_rejects(state, Action.parse("intercept wa-bf110 ra-lagg3"))
    assert isinstance(error, NotLegalNow)
    assert error.rule == "S10.5"
    table = air.air_table(state)
    assert table.column_for(40, 4) == "6:1"
    assert table.threshold == Fraction(1, 2)


def test_s10_4_a_fighter_attacks_once_per_turn(start: State) -> None:
    n = static(start).neighbors[TARGET]
    state = _combat(start, {"ra-la5": n[0]}, {"wa-bf110": TARGET})
    state.apply("intercept wa-bf110 ra-la5")
    state.apply("roll 3")  # 9:6 → 2:1 (nearest of 1.5 → 2:1), die 3 → NE
    assert air.sky_hex(state, "wa-bf110") == TARGET
    error = check_rejects(state, Action.parse("intercept wa-bf110 ra-la5"))
    assert isinstance(error, NotLegalNow)
    assert error.rule == "S10.4"


def test_s10_7_airfield_free_only_without_enemy_ground_on_or_next_to_it(start: State) -> None:
    state = start.clone()
    field = air.airfields(state, "rkka")[0]
    assert field in [air.air_where(state, u) for u in static(state).air]  # a based unit
    assert not air.airfield_is_free(state, field, "rkka")
    label = air.air_where(state, "ra-lagg3")
    assert label not in air.free_airfields(state, "rkka")  # holds the LaGG-3
    state.put("air", "ra-lagg3", (DEAD, GONE))
    assert label in air.free_airfields(state, "rkka")
    place(state, GERMAN_UNIT, static(state).neighbors[label][0])
    assert not air.airfield_is_free(state, label, "rkka")
    assert label not in air.free_airfields(state, "rkka")


def test_s10_7_no_free_airfield_on_return_destroys_the_unit(start: State) -> None:
    n = static(start).neighbors[TARGET]
    state = _combat(start, {"ra-lagg3": n[0]}, {"wa-bf110": TARGET})
    # every other RKKA airfield holds a unit that stayed on the ground; a German unit
    # moves next to the one the LaGG-3 left
    assert air.free_airfields(state, "rkka") == [static(state).place("srednyaya_akhtuba")]
    home = air.free_airfields(state, "rkka")[0]
    place(state, GERMAN_UNIT, static(state).neighbors[home][0])
    assert air.free_airfields(state, "rkka") == []
    while state.stage == "air":
        state.apply(state.legal_actions()[0] if state.pending else END)
    assert state.get("air", "ra-lagg3") == (DEAD, GONE)


def _air_replacements(state: State) -> list[Action]:
    """The Soviet ``restore`` / ``rebuild`` actions of air units (S4.1), from the kinds."""
    return [a for a in REPLACEMENTS.actions(state, "rkka") if a.args[0] in static(state).air]


def test_s4_1_air_units_rebuilt_on_free_own_airfields() -> None:
    state = air_stage({RKKA_UNIT: TARGET, GERMAN_UNIT: OTHER})
    state.put("air", "ra-lagg3", (DEAD, GONE))
    state.put("air", "ra-yak1", (air.air_where(state, "ra-yak1"), "reduced"))
    state.put("game", "rp:rkka", 2)
    actions = {str(a) for a in _air_replacements(state)}
    free = air.free_airfields(state, "rkka")
    assert free
    assert "ra-il4" in static(state).air
    assert {f"rebuild ra-lagg3 {f} full" for f in free} <= actions
    assert "restore ra-yak1" in actions
    base_il4 = static(state).place(static(state).air["ra-il4"].base)
    assert not any(a.endswith(f"{base_il4} full") for a in actions)
    air.play_replacement(state, "rkka", Action.parse(f"rebuild ra-lagg3 {free[0]} reduced"))
    assert state.get("air", "ra-lagg3") == (free[0], "reduced")
    assert state.get("game", "rp:rkka") == 1
    state.put("game", "rp:rkka", 0)
    assert _air_replacements(state) == []


def test_s3_1_air_actions_belong_to_the_air_seat() -> None:
    rules = StalingradRules(length="short", players=3)
    state = air_stage({RKKA_UNIT: TARGET, GERMAN_UNIT: OTHER}, rules)
    assert state.legal_actions("rkka-ground") == [END]
    assert any(a.kind == "fly" for a in state.legal_actions("rkka-air"))


def test_kit_checks_hold_through_the_air_stages(start: State) -> None:
    """Clone, serialize, undo, sorted unique actions... at every step of random play from
    the first air stage to the end of the short game (hexwar.testing)."""
    # token-wise random play (the kit's) ends phases sooner: ~40 steps a game from here
    report = check_random_games(lambda: start.clone(), games=8, seed=3, max_steps=250)
    assert report.ok, report.violations[:3]
    assert report.steps > 100
