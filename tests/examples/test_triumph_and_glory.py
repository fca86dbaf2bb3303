"""The Triumph & Glory example: sections 3-6 of the seed, played on the hexwar core."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from examples.triumph_and_glory import TriumphAndGlory
from examples.triumph_and_glory.__main__ import play
from examples.triumph_and_glory.board import MOVE_RULES, join
from examples.triumph_and_glory.rules import (
    ACT,
    LIMIT,
    STAGES,
    activate_reserve,
    attacked_in_rear,
    check_reserve,
    displace,
    facing,
    groups,
    in_command,
    in_range,
    stack,
    unit_facing,
    where,
)
from examples.triumph_and_glory.scenario import (
    DATA,
    TABLES,
    Unit,
    build_scenario,
    load_rule_tables,
)

from hexwar.base.errors import DataError
from hexwar.engine.actions import CHANCE, END, Action
from hexwar.engine.state import HIDDEN, State
from hexwar.testing import check_random_games
from hexwar.testing.policies import Weighted

RULES = TriumphAndGlory()
SHORT = TriumphAndGlory(turns=1)


def start(french: str = "orders I V", russian: str = "orders N27") -> State:
    state = RULES.new_state()
    state.apply(french)  # 5.21: the French decide first, then the Russians
    state.apply(russian)
    return state


def finish_activation(state: State) -> None:
    """Decline everything until the next marker is decided."""
    while state.pending == () or state.pending[-1].kind != "$token":
        state.apply(END)


def unit(uid: str, arm: str, brigade: str, strength: int = 3, group: str = "G") -> Unit:
    """A French unit with just what 6.21 looks at."""
    return Unit(uid, "french", arm, group, brigade, strength, 4, 6)


# -- 4.0 initiative ---------------------------------------------------------------------


def test_initiative_tie_gives_nobody_the_first_pick_4_0() -> None:
    state = start()
    assert state.pending[-1].kind == "initiative"
    state.apply("roll 3")  # French 3 + rating 2 = 5
    state.apply("roll 4")  # Russians 4 + rating 1 = 5: a tie
    assert state.get("game", "initiative") is None
    assert state.current_player() == CHANCE  # the first marker is drawn, nobody picks
    odds = dict(state.chance_outcomes())
    assert len(odds) == 5
    assert odds[Action.of("draw", "I")] == Fraction(2, 10)


def test_initiative_winner_picks_one_of_his_own_markers_first_3_0_b() -> None:
    state = start()
    state.apply("roll 1")  # French 3
    state.apply("roll 9")  # Russians 10
    assert state.get("game", "initiative") == "russian"
    assert state.current_player() == "russian"
    assert state.legal_actions() == [Action.of("pick", "C4"), Action.of("pick", "N27")]


# -- 5.3 chit pull, 5.23 hidden orders ----------------------------------------------------


def test_chit_pull_order_with_initiative_pick_5_31() -> None:
    state = start()
    state.apply("roll 9")
    state.apply("roll 0")
    assert state.legal_actions() == [Action.of("pick", g) for g in ("I", "RC", "V")]
    state.apply("pick RC")
    assert (state.token, state.current_player()) == ("RC", "french")
    assert state.get("cup", "markers") == ("C4", "C4", "I", "I", "N27", "N27", "RC", "V", "V")
    finish_activation(state)
    assert state.current_player() == CHANCE
    odds = {str(a): p for a, p in state.chance_outcomes()}
    assert odds == {
        "draw C4": Fraction(2, 9),
        "draw I": Fraction(2, 9),
        "draw N27": Fraction(2, 9),
        "draw RC": Fraction(1, 9),
        "draw V": Fraction(2, 9),
    }
    state.apply("draw N27")
    assert state.token == "N27"
    assert state.cursor.tokens == ("RC", "N27")


def test_order_statuses_are_hidden_until_the_group_activates_5_23() -> None:
    state = start()
    seen = state.observation("russian")
    assert seen["tables"]["orders"]["I"] == HIDDEN
    assert seen["tables"]["orders"]["N27"] is True  # the Russians know their own
    assert HIDDEN in seen["history"]  # the French orders decision is private
    state.apply("roll 9")
    state.apply("roll 0")
    state.apply("pick I")
    assert state.observation("russian")["tables"]["orders"]["I"] is True
    assert state.observation("russian")["tables"]["orders"]["V"] == HIDDEN


def test_order_rating_limits_groups_under_orders_5_22() -> None:
    state = RULES.new_state()
    assert max(len(a.args) for a in state.legal_actions()) == 2  # Napoleon: rating 2
    with pytest.raises(ValueError, match=r"5\.22"):
        state.apply("orders I RC V")


def test_individual_order_uses_marker_rating_and_commander_drm_5_28() -> None:
    state = start(french="orders")  # nothing under orders
    state.apply("roll 9")
    state.apply("roll 0")
    state.apply("barrage pass")  # 5.33: a barrage marker is offered for the unused rating
    state.apply("pick I")
    assert state.phase == "individual-order"
    state.apply("request")
    # Davout's marker rates 6; Napoleon (drm 2) is within range 3 of the I Corps: 8 passes
    state.apply("roll 8")
    assert state.get("act", "status") == "orders-io"
    assert state.phase == "arrange"


def test_order_delay_roll_from_turn_two_5_29() -> None:
    state = start()
    state.apply("roll 9")
    state.apply("roll 0")
    while state.turn == 1:
        legal = state.legal_actions()
        state.apply(END if END in legal else legal[0])
    # Napoleon never rolls; Bagration (delay 4) rolls 7: the Russian orders stand
    assert [d.params for d in state.pending] == [("russian",)]
    state.apply("roll 7")
    assert state.get("delay", "russian") == 1
    assert state.current_player() == "french"  # only the French issue new orders
    state.apply("orders")
    assert state.pending[-1].kind == "initiative"


# -- 6.1 facing --------------------------------------------------------------------------


def test_facing_arcs_rear_flank_and_all_round_6_11() -> None:
    state = RULES.new_state()
    cav = RULES.hexes["0802"]  # Kharkov / Chernigov, facing corner 3
    f = facing(state, cav)
    for h in f.flank():  # cavalry in good order: flank hexes count as front
        assert not attacked_in_rear(state, h, cav)
    for h in f.back():
        assert attacked_in_rear(state, h, cav)
    for h in f.front():
        assert not attacked_in_rear(state, h, cav)
    state.put("disordered", "Kharkov", True)  # disordered: standard facing
    assert all(attacked_in_rear(state, h, cav) for h in f.flank())
    redoubt = RULES.hexes["0604"]  # infantry in a redoubt: all six hexes are front
    assert not any(attacked_in_rear(state, h, redoubt) for h in redoubt.neighbors())


def to_move_phase(group: str = "I") -> State:
    state = start()
    russian = group in ("N27", "C4")
    state.apply("roll 0" if russian else "roll 9")
    state.apply("roll 9" if russian else "roll 0")
    state.apply(f"pick {group}")
    state.apply(END)  # arrange
    state.apply(END)  # fire (3.0 C.3.a)
    assert state.phase == "move"
    return state


def test_facing_changes_any_time_during_and_at_the_end_of_a_move_6_12() -> None:
    state = to_move_phase()
    assert Action.of("face", "25L", 2) in state.legal_actions()  # before moving
    state.apply("face 25L 2")
    assert state.get("facing", "25L") == 2
    assert not any(a.kind == "face" and a.args[0] == "25L" for a in state.legal_actions())
    state.apply("move 25L 0303")  # free: no movement points spent on the turn
    state.apply("face 25L 4")  # and again at the end of the move (6.12)
    assert unit_facing(state, "25L").corner == 4


def test_artillery_faces_apart_from_the_infantry_it_stacks_with_6_14() -> None:
    state = to_move_phase()
    h = RULES.hexes["0204"]
    assert stack(state, h) == ("25L", "I-art")
    state.apply("face I-art 5")  # the guns turn alone
    assert (state.get("facing", "I-art"), state.get("facing", "25L")) == (5, 0)
    assert facing(state, h).corner == 0  # 6.14: the infantry's facing counts in an assault
    state.apply("face 25L 1")  # 6.11: the infantry turns, the guns keep theirs
    assert (state.get("facing", "I-art"), state.get("facing", "25L")) == (5, 1)
    state.apply("move I-art 0203")  # a newcomer faces as its kind there; none: its own
    assert state.get("facing", "I-art") == 5
    state.apply("move 25L 0303")
    state.apply("move 61L 0303")  # joins 25L: faces as the infantry there (6.11)
    assert state.get("facing", "61L") == 1


def test_stack_assaults_with_every_unit_of_the_top_units_group_6_23() -> None:
    state = to_move_phase("N27")
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    h = RULES.hexes["0605"]
    assert rules.attackers(state, h) == ["Vilna", "Simbirsk"]  # both of N27: one mass
    state.put("disordered", "Vilna", True)  # the leader cannot go: nobody goes (6.23)
    assert rules.attackers(state, h) == []
    state.put("disordered", "Vilna", False)
    rules.pieces.remove(state, "Simbirsk")  # a unit of another group below the top one
    rules.pieces.move(state, "Akhtyrka", h)  # (a set-up for 6.23 alone; 6.21 would refuse it)
    assert rules.attackers(state, h) == ["Vilna"]  # C4's unit does not join N27's assault
    rules.pieces.restack(state, h, ("Akhtyrka", "Vilna"))
    assert rules.attackers(state, h) == []  # the top unit is not of the active group


# -- 6.2 stacking ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "ok"),
    [
        ([unit("a", "infantry", "X"), unit("b", "cavalry", "X")], False),
        ([unit("a", "infantry", "X"), unit("b", "infantry", "Y")], True),
        (
            [unit("a", "infantry", "X"), unit("b", "infantry", "Y"), unit("c", "infantry", "X")],
            False,
        ),
        ([unit("a", "cavalry", "X"), unit("b", "cavalry", "X"), unit("c", "cavalry", "X")], True),
        ([unit("a", "artillery", "A", 3), unit("b", "artillery", "B", 3)], True),
        ([unit("a", "artillery", "A", 4), unit("b", "artillery", "B", 3)], False),
        ([unit("a", "artillery", "A", 2), unit("b", "artillery", "B", 2, group="H")], False),
        (
            [unit("a", "artillery", "A"), unit("b", "artillery", "B"), unit("c", "infantry", "X")],
            False,
        ),
        (
            [unit("g", "artillery", "A"), unit("a", "infantry", "X"), unit("b", "infantry", "X")],
            True,
        ),
        (
            [unit("g", "artillery", "A"), unit("a", "infantry", "X"), unit("b", "infantry", "Y")],
            False,
        ),
        ([unit(c, "cavalry", "X") for c in "abcd"], False),
    ],
)
def test_stacking_limits_6_21(units: list[Unit], ok: bool) -> None:
    reason = LIMIT(units)
    assert (reason is None) == ok
    if not ok:
        assert reason is not None
        assert reason.startswith("6.21")


def test_mover_joins_the_bottom_and_full_stacks_are_refused_6_24() -> None:
    state = start()
    state.apply("roll 9")
    state.apply("roll 0")
    state.apply("pick I")
    state.apply(END)  # arrange
    state.apply(END)  # fire (3.0 C.3.a)
    assert state.phase == "move"
    state.apply("move 25L 0303")  # 0303 is empty: 25L keeps its own facing
    state.apply("move I-art 0203")  # onto 57L / 61L (one brigade): allowed, at the bottom
    assert stack(state, RULES.hexes["0203"]) == ("57L", "61L", "I-art")
    assert facing(state, RULES.hexes["0203"]).corner == 0
    with pytest.raises(ValueError, match=r"6\.21"):  # three infantry of two brigades
        state.apply("move 25L 0203")
    assert where(state, "25L") == RULES.hexes["0303"]


# -- whole games -------------------------------------------------------------------------


def rules(state: State) -> TriumphAndGlory:
    assert isinstance(state.ruleset, TriumphAndGlory)
    return state.ruleset


def stacks_are_legal(state: State) -> str | None:
    """6.21 holds wherever units stand (checked where moves and retreats end)."""
    for label, uids in state.table("stacks").items():
        reason = LIMIT([rules(state).units[u] for u in uids])  # type: ignore[union-attr]
        if reason is not None:
            return f"{label}: {reason}"
    return None


def tables_agree(state: State) -> str | None:
    """Every unit on the map is in exactly the stack of its hex, with a strength, and the
    infantry/cavalry of a hex face one way (6.11; artillery may face apart, 6.14)."""
    listed = sorted(u for uids in state.table("stacks").values() for u in uids)  # type: ignore[union-attr]
    if listed != sorted(state.table("pieces")) or listed != sorted(state.table("strength")):
        return f"stacks {listed} != pieces {sorted(state.table('pieces'))} or strengths"
    bad = [u for u in listed if u not in stack(state, where(state, u))]
    if bad:
        return f"units not in their hex's stack: {bad}"
    for label, uids in state.table("stacks").items():
        troops = [u for u in uids if rules(state).units[u].arm != "artillery"]  # type: ignore[union-attr]
        if len({state.get("facing", u) for u in troops}) > 1:
            return f"{label}: infantry/cavalry of one hex face different ways"
    return None


def assaults_go_into_front_hexes(state: State) -> str | None:
    """6.13: a unit may assault only an enemy in one of its two front hexes."""
    for a in state.legal_actions():
        if a.kind == "assault":
            frm, to = rules(state).hexes[a.args[0]], rules(state).hexes[a.args[1]]
            if to not in facing(state, frm).front():
                return f"{a} is not into a front hex"
    return None


@pytest.mark.slow
def test_random_games_pass_the_verification_kit() -> None:
    report = check_random_games(
        lambda: SHORT.new_state(),
        games=40,
        seed=5,
        invariants=[stacks_are_legal, tables_agree, assaults_go_into_front_hexes],
        full_check_every=5,  # invariants at every step; clone/undo/save checks every 5th
    )
    assert report.ok, report.violations[:3]
    assert report.terminal == 40


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["shevardino", "borodino"])
def test_fifty_random_games_of_each_scenario(scenario: str) -> None:
    """The figures of the README: 50 full games a scenario, with fire and assaults
    (its row printed with ``pytest -s``)."""
    rules = TriumphAndGlory(scenario)
    report = check_random_games(
        lambda: rules.new_state(),
        games=50,
        seed=33,
        invariants=[stacks_are_legal, tables_agree, assaults_go_into_front_hexes],
        policy=Weighted({"end": 0.05}),
        full_check_every=25,
    )
    k = report.kinds
    print(f"| {scenario} | {report.games} | {report.terminal} | {report.steps} | "
          f"{len(report.violations)} | {k['fire']} | {k['assault']} | {k['lead']} | "
          f"{k['barrage']} | {k['move']} | {k['face']} |")  # fmt: skip
    assert report.ok, report.violations[:3]
    assert report.terminal == 50
    assert min(k[kind] for kind in ("fire", "assault", "lead", "barrage")) > 0


def test_full_length_random_games_end_with_an_outcome() -> None:
    report = check_random_games(
        lambda: RULES.new_state(),
        games=2,
        seed=11,
        invariants=[stacks_are_legal, tables_agree],
        check_serialization=False,
    )
    assert report.ok, report.violations[:3]
    assert report.terminal == 2


def test_bot_game_is_reproducible_and_finishes() -> None:
    a, b = play(7), play(7)
    assert a.is_terminal()
    assert a.outcome is not None
    assert a.history == b.history
    assert a.turn == RULES.scenario.turns
    assert any(x.kind == "assault" for x in a.history)


def test_bad_scenario_data_names_file_and_entry() -> None:
    raw = tomllib.loads((DATA / "shevardino.toml").read_text(encoding="utf-8"))
    raw["units"]["57L"]["arm"] = "dragoons"
    with pytest.raises(DataError, match=r"bad\.toml: units\.57L\.arm: unknown arm"):
        build_scenario(raw, RULES.map, "bad.toml")
    raw["units"]["57L"]["arm"] = "infantry"
    raw["units"]["57L"]["hex"] = "9999"
    with pytest.raises(DataError, match=r"units\.57L\.hex"):
        build_scenario(raw, RULES.map, "bad.toml")
    raw["units"]["57L"]["hex"] = "0802"  # 6.21: the cavalry listed later joins it there
    with pytest.raises(DataError, match=r"bad\.toml: units\.Chernigov\.hex: 6\.21: infantry and"):
        build_scenario(raw, RULES.map, "bad.toml")


def test_rule_tables_load_and_bad_ones_name_file_and_entry(tmp_path: Path) -> None:
    tables = load_rule_tables()
    assert tables.reasons["orders"][1] == "5.22"
    assert tables.all_round_terrain == {"village", "redoubt"}  # 6.11
    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    bad = tmp_path / "rules.toml"
    bad.write_text(text.replace("rear_shift = 1", 'rear_shift = "one"'), encoding="utf-8")
    with pytest.raises(DataError, match=r"rules\.toml: values\.rear_shift"):
        load_rule_tables(bad)
    bad.write_text(text.replace('rule = "5.22", ', ""), encoding="utf-8")
    with pytest.raises(DataError, match=r"rules\.toml: reasons\.orders\.rule"):
        load_rule_tables(bad)


def test_refused_actions_cite_their_rule() -> None:
    state = start()
    state.apply("roll 9")
    state.apply("roll 0")
    with pytest.raises(ValueError, match=r"4\.0") as refused:
        state.apply("pick N27")  # the French hold the initiative: only their own markers
    assert "one of his own markers" in str(refused.value)


# -- 3.0 C.3.a artillery fire, 2.0 counters, 5.5 reserve ----------------------------------


def to_fire_phase(group: str = "I", **kw: str) -> State:
    state = start(**kw)
    russian = group in ("N27", "C4")
    state.apply("roll 0" if russian else "roll 9")
    state.apply("roll 9" if russian else "roll 0")
    state.apply(f"pick {group}")
    state.apply(END)  # arrange
    assert state.phase == "fire"
    return state


def test_artillery_fires_first_through_its_front_hexsides_within_range_3_0_c_3_a_6_13() -> None:
    state = to_fire_phase("N27")
    gun = RULES.units["Redoubt-art"]  # in the redoubt, facing corner 3, ranges 2 / 5
    f = unit_facing(state, "Redoubt-art")
    fires = [a for a in state.legal_actions() if a.kind == "fire"]
    assert fires, "the French are in range"
    for a in fires:
        t = RULES.hexes[a.args[1]]
        assert a.args[0] == "Redoubt-art"
        assert f.sees(t)
        assert f.hex.distance(t) <= gun.max_range
        assert RULES.units[stack(state, t)[0]].side == "french"
    seen = {a.args[1] for a in fires}
    for h in RULES.map:  # every French stack in range and in the sector may be fired on
        foes = stack(state, h)
        if foes and RULES.units[foes[0]].side == "french" and f.sees(h):
            assert (RULES.map.label(h) in seen) == (f.hex.distance(h) <= gun.max_range)
    target = RULES.hexes[sorted(seen)[0]]
    state.apply(Action.of("fire", "Redoubt-art", RULES.map.label(target)))
    state.apply("roll 0")  # PLACEHOLDER table: 0 (+3 beyond effective range) < 4 SP: a hit
    assert all(state.get("disordered", u) for u in stack(state, target))  # 6.23: all of them
    assert state.phase == "move"  # it fired once (3.0 C.3.a); nothing else fires
    assert not any(a.args[0] == "Redoubt-art" for a in state.legal_actions() if a.kind == "move")


def test_fire_sector_is_the_120_degrees_through_the_front_hexsides_6_13() -> None:
    f = facing(RULES.new_state(), RULES.hexes["0604"])
    near = [h for h in f.hex.within(1) if f.sees(h)]
    assert sorted(near) == sorted(f.front())  # the flank and rear hexes are not seen
    far = [h for h in f.hex.within(3) if f.sees(h)]
    assert all(f.hex.distance(h) <= 3 for h in far)
    assert len(far) == 2 + 5 + 6  # ring hexes within 60° of the vertex (distance 2: the diagonals)


def test_counters_print_cavalry_type_dfr_ranges_and_horse_artillery_2_0() -> None:
    units = RULES.units
    assert (units["Cuir-a"].cavalry, units["Bruyere"].cavalry) == ("H", "L")
    assert (units["57L"].dfr, units["Odessa"].dfr) == (2, 1)
    assert (units["I-art"].effective_range, units["I-art"].max_range) == (2, 4)
    assert (units["Horse-art"].horse, units["I-art"].horse) == (True, False)  # allowance 8
    raw = tomllib.loads((DATA / "shevardino.toml").read_text(encoding="utf-8"))
    del raw["units"]["Kharkov"]["type"]
    with pytest.raises(DataError, match=r"units\.Kharkov\.type"):
        build_scenario(raw, RULES.map, "bad.toml")
    raw = tomllib.loads((DATA / "shevardino.toml").read_text(encoding="utf-8"))
    raw["units"]["I-art"]["max_range"] = 1
    with pytest.raises(DataError, match=r"units\.I-art\.max_range"):
        build_scenario(raw, RULES.map, "bad.toml")


def test_reserve_artillery_rolls_if_it_fired_not_if_it_moved_5_55_5_56() -> None:
    state = RULES.new_state()
    ACT.begin(state, "N27", ["Odessa", "Redoubt-art", "Tarnopol", "Vilna"], status="reserve")
    ACT.flag(state, "moved", "Odessa", "Redoubt-art")  # the guns moved: no roll (5.55)
    ACT.flag(state, "fired", "Redoubt-art")  # ... but they fired: a roll
    before = len(state.pending)
    check_reserve(state)
    rolled = [d.params[0] for d in state.pending[before:]]
    assert sorted(rolled) == ["Odessa", "Redoubt-art"]  # Tarnopol, Vilna did nothing (5.56)


# -- 5.6 commanders ------------------------------------------------------------------------


def test_commanders_move_in_their_own_phase_within_their_allowance_5_62() -> None:
    state = start()
    assert not any(a.kind == "lead" for a in state.legal_actions())
    while not (state.phase or "").startswith("lead-"):
        legal = state.legal_actions()
        state.apply(END if END in legal else legal[0])
    side = state.current_player()
    leads = [a for a in state.legal_actions() if a.kind == "lead"]
    here = RULES.leaders.where(state, side)
    assert leads
    assert all(here.distance(RULES.hexes[a.args[0]]) <= 8 for a in leads)
    state.apply(leads[0])
    assert RULES.leaders.where(state, side) == RULES.hexes[leads[0].args[0]]
    assert RULES.leads(state, side) == []  # once a phase
    assert state.current_player() != side  # then the other side's commander (4.0)


def test_commander_is_displaced_when_enemies_enter_his_hex_5_63() -> None:
    state = RULES.new_state()
    bagration = RULES.leaders.where(state, "russian")
    assert RULES.map.label(bagration) == "0903"
    assert in_range(state, "russian", RULES.hexes["0802"])  # 5.61: range 2 from his counter
    join(state, "Cuir-a", bagration)  # French cavalry enters his hex
    displace(state, bagration)
    moved = RULES.leaders.where(state, "russian")
    assert moved != bagration
    assert stack(state, moved)  # onto the nearest Russian stack
    assert RULES.units[stack(state, moved)[0]].side == "russian"
    assert moved.distance(bagration) == 1  # 0802 (Kharkov) is next to 0903


# -- 5.2 reinforcements, 5.3 markers -------------------------------------------------------


def test_reinforcements_enter_on_their_turn_with_one_marker_5_25_5_32() -> None:
    state = start()
    assert not RULES.pieces.is_placed(state, "Kiev-gr")
    while state.turn < 3 or state.phase in ("reinforce",):
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(END if END in legal else legal[0])
    assert stack(state, RULES.hexes["0904"])[-2:] == ("Kiev-gr", "Moscow-gr")  # 3.0 B.3
    assert "G2" in groups(state, "russian")  # 5.25: it may be given orders
    while not state.get("cup", "markers"):  # until the turn's markers are in the cup
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(END if END in legal else legal[0])
    chits = list(state.get("cup", "markers"))  # type: ignore[arg-type]
    assert (chits.count("G2"), chits.count("C4")) == (1, 2)  # 5.32


def test_barrage_marker_costs_a_point_of_order_rating_5_33_5_35() -> None:
    state = start()  # Napoleon spent both points: no barrage offered
    state.apply("roll 9")
    state.apply("roll 0")
    assert state.pending[-1].kind != "barrage"
    state = start(french="orders I")
    state.apply("roll 9")
    state.apply("roll 0")
    assert state.legal_actions() == [Action("barrage"), Action.of("barrage", "pass")]  # 5.35
    state.apply("barrage")
    assert "barrage-french" in state.get("cup", "markers")  # type: ignore[operator]
    state.apply("pick barrage-french")  # 5.35: the initiative player may pick it first
    assert (ACT.status(state), state.phase) == ("barrage", "fire")
    guns = [u for u, x in RULES.units.items() if x.side == "french" and x.arm == "artillery"]
    assert sorted(ACT.units(state)) == sorted(guns)
    while state.phase == "fire":
        state.apply(END)
    assert state.current_player() == CHANCE  # nothing but fire: the next marker


def test_combined_group_marker_activates_two_groups_as_one_5_34() -> None:
    raw = tomllib.loads((DATA / "shevardino.toml").read_text(encoding="utf-8"))
    raw["scenario"]["combined"] = {"french": 1, "russian": 0}
    raw["scenario"]["barrage"] = []
    rules = TriumphAndGlory(build_scenario(raw, RULES.map, "combined.toml"))
    state = rules.new_state()
    state.apply("orders I V")
    state.apply("orders N27")
    state.apply("roll 9")
    state.apply("roll 0")
    assert Action.of("combine", "I", "V") in state.legal_actions()
    state.apply("combine I V")
    cup = state.get("cup", "markers")
    assert cup is not None
    assert [cup.count(g) for g in ("I", "V", "combined-french")] == [1, 1, 1]  # type: ignore[union-attr]
    state.apply("pick combined-french")
    assert ACT.status(state) == "orders"  # both under orders
    assert {rules.units[u].group for u in ACT.units(state)} == {"I", "V"}


def test_reserve_only_for_groups_with_a_marker_this_turn_in_command_range_5_52_5_57() -> None:
    state = start()
    assert in_command(state, "french") == []  # before the cup is filled: no marker yet
    state.apply("roll 9")
    state.apply("roll 0")
    assert sorted(in_command(state, "french")) == ["I", "RC", "V"]  # Napoleon at 0104, range 3
    assert in_command(state, "russian") == ["C4", "N27"]
    RULES.leaders.place(state, "russian", RULES.hexes["0101"])  # far from every Russian
    assert in_command(state, "russian") == []


def test_the_d10_reads_0_to_9_2_0() -> None:
    state = start()
    assert [str(a) for a, _ in state.chance_outcomes()] == [f"roll {n}" for n in range(10)]


def test_no_orders_moves_or_assaults_plus_one_outside_range_and_top_dfr_5_26_5_27_6_23() -> None:
    def no_orders() -> State:
        state = start(russian="orders")  # the 27th Division without orders
        state.apply("roll 0")
        state.apply("roll 9")
        state.apply("pick N27")
        assert state.phase == "individual-order"
        return state

    state = no_orders()
    state.apply("request")  # 5.28 ... and it fails: the group only rallies
    state.apply("roll 9")
    assert ACT.status(state) == "halted"
    state = no_orders()
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    state.apply(END)  # no individual order: No Orders (5.27)
    state.apply(END)  # arrange
    if state.phase == "fire":
        state.apply(END)
    assert state.phase == "move"
    h = RULES.hexes["0605"]
    front = facing(state, h).front()[0]
    rules.pieces.move(state, "25L", front)  # a French infantry (DFR 1) in a front hex
    RULES.leaders.place(state, "russian", RULES.hexes["0101"])  # Bagration far away
    assert rules.attackers(state, h) == ["Vilna", "Simbirsk"]
    mover = rules.attackers(state, h)[0]
    ACT.flag(state, "moved", mover)  # 5.27: a No Orders unit that moved does not assault
    assert mover not in rules.attackers(state, h)
    state.put("moved", mover, False)
    while state.phase != "assault":
        state.apply(END)
    label = RULES.map.label(front)
    state.apply(Action.of("assault", "0605", label))
    params = state.pending[-1].params
    shift, drm = params[2:4]
    assert drm == TABLES.no_orders_drm + RULES.units["25L"].dfr  # 5.27 +1, 6.23 top DFR
    assert shift in (0, TABLES.rear_shift)


def test_under_orders_a_unit_may_move_and_then_assault_5_26() -> None:
    state = to_move_phase("N27")
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    h = RULES.hexes["0605"]
    ACT.flag(state, "moved", "Vilna", "Simbirsk")
    assert rules.attackers(state, h) == ["Vilna", "Simbirsk"]


def test_never_into_or_through_an_enemy_hex_6_22() -> None:
    state = to_move_phase("RC")
    enemy = {where(state, u) for u in RULES.pieces.pieces_of(state, "russian")}
    targets = {RULES.hexes[a.args[1]] for a in state.legal_actions() if a.kind == "move"}
    assert targets
    assert not targets & enemy


def test_reserve_units_next_to_an_enemy_stay_and_movers_roll_cohesion_5_51_5_53_5_54() -> None:
    state = RULES.new_state()
    RULES.pieces.move(state, "Cuir-a", RULES.hexes["0504"])  # next to Odessa's redoubt 0604
    activate_reserve(state, "N27")
    acting = ACT.units(state)
    assert ACT.status(state) == "reserve"  # 5.53: as No Orders
    assert "Odessa" not in acting
    assert "Tarnopol" in acting  # 5.52: not adjacent to an enemy
    ACT.flag(state, "moved", "Tarnopol")
    check_reserve(state)
    state.apply("roll 9")  # above cohesion 6: disordered (5.54)
    assert state.get("disordered", "Tarnopol") is True


def test_rally_of_units_that_did_nothing_3_0_c_3_d() -> None:
    state = to_move_phase()
    state.put("disordered", "61L", True)
    state.put("disordered", "25L", True)
    state.apply("move 25L 0303")
    while state.phase != "rearrange":
        state.apply(END)
    assert state.get("disordered", "61L") is False  # PLACEHOLDER 10.1: it rallies
    assert state.get("disordered", "25L") is True  # it moved


def test_a_detached_unit_keeps_its_groups_status_5_24() -> None:
    state = start()
    RULES.pieces.move(state, "57L", RULES.hexes["0107"])  # far from the rest of I Corps
    state.apply("roll 9")
    state.apply("roll 0")
    state.apply("pick I")
    assert "57L" in ACT.units(state)
    assert ACT.status(state) == "orders"


def test_the_sequence_of_play_3_0() -> None:
    names = [s.name for s in STAGES]  # E. morale (10.5, 10.2) is a PLACEHOLDER: not played
    assert names == ["orders", "initiative", "activation", "reserve", "commanders"]
    assert [p.name for p in STAGES[0].phases] == ["reinforce", "delay", "issue"]  # B.3, A.1-2
    activation = [p.name for p in STAGES[2].phases]
    assert activation.index("fire") < activation.index("move") < activation.index("assault")
    assert activation.index("assault") < activation.index("rally")  # C.3.a-d


def test_placeholder_zoc_entering_an_enemy_adjacent_hex_stops_6_3() -> None:
    state = to_move_phase("RC")  # the French cavalry, allowance 6
    rules = state.ruleset
    assert isinstance(rules, TriumphAndGlory)
    enemy = {where(state, u) for u in rules.pieces.pieces_of(state, "russian")}
    near = {n for h in enemy for n in h.neighbors()}
    u = rules.units["Bruyere"]
    reach = rules.pieces.reach(
        state,
        "Bruyere",
        rules.map,
        u.arm,
        u.allowance,
        rules=MOVE_RULES,
        unit=rules.units.__getitem__,
    )
    ends = {
        RULES.hexes[a.args[1]]
        for a in state.legal_actions()
        if a.kind == "move" and a.args[0] == "Bruyere"
    }
    assert ends & near  # it may enter an enemy-adjacent hex ...
    for d in ends:
        assert not set(reach.path_to(d)[1:-1]) & near  # ... but not move on from one
