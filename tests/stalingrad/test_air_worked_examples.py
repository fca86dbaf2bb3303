"""The air worked examples W3, W4, W5 (air combat, S10.5) and W6 (air strike, S9.3, S10.6).

Each test reaches the air stage of turn 3 with real play (hidden placements, S10.2/S10.3),
forces the die and checks every consequence the example names.
"""

from __future__ import annotations

from hexwar.engine.actions import END, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.state import State
from hexwar_stalingrad import air, ground
from hexwar_stalingrad.board import static, step, where
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation

RULES = StalingradRules()
TARGET = "1010"  # an RKKA unit in open steppe: the Bf-110's target
TRENCH = "2016"  # a trench hex (S9.2 fortification)
RKKA_UNIT, GERMAN_INFANTRY = "r-21a-a", "w-xi-ak"


def air_stage(units: dict[str, str]) -> State:
    """Turn 3, the start of the air stage (RKKA places bombers), no cards in force."""
    for seed in range(40):
        state = situation(RULES, units, turn=2, stage="rkka", phase="movement", seed=seed)
        driver = SeededDriver(seed)
        while state.turn <= 3 and not (state.turn == 3 and state.stage == "air"):
            if state.is_chance_node():
                state.apply(driver.pick(state.chance_outcomes()))
            elif state.pending:
                state.apply(state.legal_actions()[0])
            else:
                state.apply(END)
        if state.turn == 3 and state.stage == "air":
            for effect in state.effects:
                state.remove_effect(effect)
            assert state.pending[-1].kind == "air_place"
            assert state.current_player() == "rkka"
            return state
    raise AssertionError("no seed reaches a flying turn 3")  # pragma: no cover


def hexes() -> tuple[str, str, str]:
    """Three hexes around TARGET: two for the RKKA fighters, one (next to both) for the 109G."""
    n = static(air_stage_cache()).neighbors
    bf109 = n[TARGET][0]
    a, b = sorted(set(n[TARGET]) & set(n[bf109]))
    return a, b, bf109


_CACHE: list[State] = []


def air_stage_cache() -> State:
    if not _CACHE:
        _CACHE.append(air_stage({RKKA_UNIT: TARGET, GERMAN_INFANTRY: TRENCH}))
    return _CACHE[0].clone()


def place_all(state: State, plans: dict[tuple[str, str], list[str]]) -> None:
    """Answer the hidden placement decisions (S10.2, S10.3): for each ``(side, role)`` the
    listed ``fly`` texts, then ``end`` (a side with nothing left to place is skipped)."""
    while state.pending and state.pending[-1].kind == "air_place":
        decision = state.pending[-1]
        todo = plans.pop((decision.side, str(decision.params[0])), [])
        for text in todo:
            state.apply(text)
        if state.pending and state.pending[-1] == decision:
            state.apply(END)
    assert not plans, f"placements never asked for: {plans}"


def w3_w4_w5(with_bf109: bool) -> State:
    lagg, composite, bf109 = hexes()
    state = air_stage_cache()
    plans = {
        ("wehrmacht", "bomber"): [f"fly wa-bf110 {TARGET}"],
        ("rkka", "fighter"): [f"fly ra-lagg3 {lagg}", f"fly ra-composite {composite}"],
    }
    if with_bf109:
        plans["wehrmacht", "fighter"] = [f"fly wa-bf109g {bf109}"]
    place_all(state, plans)
    assert state.phase == "combat_rkka"
    assert state.current_player() == "rkka"
    return state


def test_w3_14_vs_6_is_2_to_1_die_5_dr_bf110_goes_home_and_an_attacker_takes_its_hex() -> None:
    """W3 (S10.5): LaGG-3 (6) + Yak-1/Il-2/Pe-2 (8) vs Bf-110 (6): 14÷6 → 2:1; die 5 → DR."""
    state = w3_w4_w5(with_bf109=False)
    assert air.air_odds(state, "wa-bf110", ["ra-composite", "ra-lagg3"]) == (14, 6, "2:1")
    state.apply("intercept wa-bf110 ra-composite ra-lagg3")
    assert state.pending[-1].params[:3] == ("combat", "wa-bf110", "2:1")
    state.apply("roll 5")
    # one attacking fighter takes the Bf-110's hex (the attacker chooses which)
    assert state.pending[-1].kind == "air_advance"
    assert state.current_player() == "rkka"
    assert [str(a) for a in state.legal_actions()] == [
        "advance ra-composite",
        "advance ra-lagg3",
    ]
    state.apply("advance ra-lagg3")
    assert air.sky_hex(state, "ra-lagg3") == TARGET
    # the Bf-110 goes back to a free Wehrmacht airfield (its owner chooses which, S10.7)
    if state.pending and state.pending[-1].kind == "air_home":
        assert state.current_player() == "wehrmacht"
        state.apply(state.legal_actions()[0])
    home = air.air_where(state, "wa-bf110")
    assert home in air.airfields(state, "wehrmacht")
    assert air.sky_hex(state, "wa-bf110") is None
    assert step(state, RKKA_UNIT) == "full"
    assert air.air_step(state, "wa-bf110") == "full"
    # ... and does not strike: the stage ends with no strike roll (S10.6)
    while state.stage == "air":
        assert not (state.is_chance_node() and state.pending[-1].params[0] == "strike")
        state.apply(state.legal_actions()[0] if state.pending else END)
    assert step(state, RKKA_UNIT) == "full"


def test_w4_109g_adjacent_14_vs_21_is_1_to_1_die_5_al_attacker_flips_bf110_still_strikes() -> None:
    """W4 (S10.4, S10.5): + Bf-109G (15) next to the Bf-110: 14÷21 → 1:1; die 5 → AL."""
    state = w3_w4_w5(with_bf109=True)
    assert air.supporters(state, "wa-bf110") == ["wa-bf109g"]
    assert air.air_odds(state, "wa-bf110", ["ra-composite", "ra-lagg3"]) == (14, 21, "1:1")
    state.apply("intercept wa-bf110 ra-composite ra-lagg3")
    state.apply("roll 5")
    # AL: one attacking unit, chosen by the attacker ("по вашему выбору"), flips
    assert state.pending[-1].kind == "air_loss"
    assert state.current_player() == "rkka"
    assert [str(a) for a in state.legal_actions()] == ["loss ra-composite", "loss ra-lagg3"]
    state.apply("loss ra-composite")
    assert air.air_step(state, "ra-composite") == "reduced"
    assert air.air_step(state, "ra-lagg3") == "full"
    assert air.air_step(state, "wa-bf110") == "full"
    assert air.sky_hex(state, "wa-bf110") == TARGET
    # both RKKA fighters are spent: no further RKKA attack (the 109G is adjacent to both)
    assert state.get("air_spent", "ra-lagg3")
    assert state.get("air_spent", "ra-composite")
    assert not any(a.kind == "intercept" for a in state.legal_actions())
    state.apply(END)
    # the Bf-109G supported but is not spent: it may still attack (S10.4)
    assert state.phase == "combat_wehrmacht"
    assert not state.get("air_spent", "wa-bf109g")
    assert Action.parse("intercept ra-lagg3 wa-bf109g") in state.legal_actions()
    state.apply(END)
    # the Bf-110 still strikes this turn (S10.5, S10.6): after the fighters land
    while not state.is_chance_node():
        assert state.stage == "air"
        state.apply(state.legal_actions()[0])
    assert state.pending[-1].params == ("strike", "wa-bf110", RKKA_UNIT)


def test_w5_14_vs_15_is_1_to_1_die_2_ex_both_flip_neither_attacks_again_both_support() -> None:
    """W5 (S10.5): the same two attack the Bf-109G (15): 14÷15 → 1:1; die 2 → EX: the
    Bf-109G and the LaGG-3 flip; neither attacks again this turn, both may still support
    («Обе фишки больше не будут атаковать в этом ходу, но могут «прикрывать»»)."""
    lagg, composite, bf109 = hexes()
    state = air_stage_cache()
    # a third RKKA fighter next to the Bf-110 (not to the Bf-109G): it may still attack
    n = static(state).neighbors
    yak = next(h for h in n[TARGET] if h not in (lagg, composite, bf109) and bf109 not in n[h])
    place_all(
        state,
        {
            ("wehrmacht", "bomber"): [f"fly wa-bf110 {TARGET}"],
            ("wehrmacht", "fighter"): [f"fly wa-bf109g {bf109}"],
            ("rkka", "fighter"): [
                f"fly ra-composite {composite}",
                f"fly ra-lagg3 {lagg}",
                f"fly ra-yak1 {yak}",
            ],
        },
    )
    assert state.phase == "combat_rkka"
    # the Bf-110 beside it supports it too (S10.5: bombers support): 14÷21 is still 1:1
    assert air.supporters(state, "wa-bf109g") == ["wa-bf110"]
    assert air.air_odds(state, "wa-bf109g", ["ra-composite", "ra-lagg3"]) == (14, 21, "1:1")
    state.apply("intercept wa-bf109g ra-composite ra-lagg3")
    state.apply("roll 2")
    assert air.air_step(state, "wa-bf109g") == "reduced"  # the defender flips first
    assert state.pending[-1].kind == "air_loss"
    assert state.current_player() == "rkka"
    state.apply("loss ra-lagg3")
    assert air.air_step(state, "ra-lagg3") == "reduced"
    assert air.air_step(state, "ra-composite") == "full"
    assert air.sky_hex(state, "wa-bf109g") is not None  # EX: nobody leaves the sky
    # the flipped LaGG-3 (and the composite) attacked: no RKKA attack names them again
    legal = [a for a in state.legal_actions() if a.kind == "intercept"]
    assert legal, "the Yak-1 may still attack"
    assert all(a.args[1:] == ("ra-yak1",) for a in legal)
    # the flipped Bf-109G still supports the Bf-110: its reduced 8 adds to the defence
    assert air.supporters(state, "wa-bf110") == ["wa-bf109g"]
    assert air.air_odds(state, "wa-bf110", ["ra-yak1"]) == (7, 6 + 8, "1:1")
    assert Action.parse("intercept wa-bf110 ra-yak1") in legal
    state.apply(END)
    # ... but it may not attack: in the Wehrmacht's combat phase it has no air attack at
    # all (before the ruling it could attack the flipped LaGG-3 or the Yak-1)
    while state.stage == "air":
        intercepts = [a for a in state.legal_actions() if a.kind == "intercept"]
        assert not any("wa-bf109g" in a.args[1:] for a in intercepts)
        if state.phase == "combat_wehrmacht" and not state.pending:
            assert intercepts == []  # (a phase with nothing to do is skipped, S4)
        state.apply(state.legal_actions()[0] if state.pending else END)
    assert air.air_step(state, "wa-bf109g") == "reduced"


def test_w6_full_air_strike_1_bomb_die_4_lo_on_infantry_in_a_trench_takes_a_loss() -> None:
    """W6 (S9.3, S10.6): air strikes ignore the fortification exemption of Lo."""
    state = air_stage({GERMAN_INFANTRY: TRENCH, RKKA_UNIT: TARGET})
    assert TRENCH in static(state).fortified
    assert static(state).air["ra-il2-8"].bombs == 1
    place_all(state, {("rkka", "bomber"): [f"fly ra-il2-8 {TRENCH}"]})
    # no air combat (no fighters aloft): the combat phases are skipped; fighters: none
    while not state.is_chance_node():
        state.apply(state.legal_actions()[0] if state.pending else END)
    assert state.pending[-1].params == ("strike", "ra-il2-8", GERMAN_INFANTRY)
    result = air.strike_result(state, "ra-il2-8", 4)
    assert result.code == "Lo"
    assert result.has("outside_fortifications")
    # artillery with the same result would not touch the unit in the trench (ruling S9.3)
    assert ground.apply_bombardment(state.clone(), GERMAN_INFANTRY, result) == 0
    state.apply("roll 4")
    assert step(state, GERMAN_INFANTRY) == "reduced"
    assert where(state, GERMAN_INFANTRY) == TRENCH


def test_s10_5_an_adjacent_friendly_bomber_supports_in_air_combat() -> None:
    """S10.5: «Каждая фишка бомбардировщиков и истребителей может атаковать, наносить
    авиаудар или поддерживать свои фишки» — a bomber supports too: La-5 (9) against a
    Bf-110 (6) with a Ju-87 (3) beside it is 9÷9 = 1:1, not 9÷6 → 2:1; supporting does
    not spend the Ju-87, which still strikes (S10.4)."""
    n = static(air_stage_cache()).neighbors
    beside = next(h for h in n[TARGET] if h != TRENCH)
    state = air_stage({RKKA_UNIT: TARGET, "r-21a-b": beside, GERMAN_INFANTRY: TRENCH})
    la5 = next(h for h in n[TARGET] if h != beside and h in n[beside])
    place_all(
        state,
        {
            ("wehrmacht", "bomber"): [f"fly wa-bf110 {TARGET}", f"fly wa-ju87-2 {beside}"],
            ("rkka", "fighter"): [f"fly ra-la5 {la5}"],
        },
    )
    assert air.supporters(state, "wa-bf110") == ["wa-ju87-2"]
    assert air.air_odds(state, "wa-bf110", ["ra-la5"]) == (9, 9, "1:1")
    state.apply("intercept wa-bf110 ra-la5")
    assert not state.get("air_spent", "wa-ju87-2")
