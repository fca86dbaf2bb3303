"""The heuristic bot: full games without errors, determinism per seed, sensible choices,
and its win rates over fixed seed ranges (statistical tests with a stated tolerance).

The win-rate tests play a few games (seconds of CPU); each accepts the observed count
when a bot with a true rate at the edge of the target would reach it with probability
at least ``ALPHA`` (an exact binomial tail), so they fail only on a bot clearly off the
target. ``HEXWAR_BALANCE_GAMES=N`` plays ``N`` games per figure instead and then asks
that the Wilson 95 % interval meets the target (the full study: ``benchmarks/balance.py``
and ``docs/stalingrad/balance.md``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable

import networkx as nx
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hexwar.engine.actions import END, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer
from hexwar.engine.loop import play as run
from hexwar.engine.records import record_of
from hexwar.engine.state import State
from hexwar.study import wilson
from hexwar_stalingrad import ground, victory
from hexwar_stalingrad.board import REDUCED, on_map, where
from hexwar_stalingrad.cli import make_bot
from hexwar_stalingrad.heuristic import (
    POCKET_RADIUS,
    HeuristicBot,
    _escapes,
    _screen,
    _step_balance,
    min_vertex_cut,
    objectives,
    plan_inputs,
    ring_plan,
    ring_risk,
    ring_targets,
)
from hexwar_stalingrad.heuristic_flow import index_cut
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation

SHORT = StalingradRules(length="short")
LONG = StalingradRules(length="long")


def play(
    rules: StalingradRules,
    bots: dict[str, Callable[[State], Action]],
    seed: int,
    on_step: Callable[[State, Action], None] | None = None,
) -> State:
    """One game on the one game loop: chance by ``SeededDriver(seed)``."""
    return run(rules.new_state(), bots, SeededDriver(seed), on_step=on_step)


def _bots(seed: int) -> dict[str, HeuristicBot]:
    return {"rkka": HeuristicBot(seed), "wehrmacht": HeuristicBot(seed + 1)}


def test_heuristic_plays_full_games_both_lengths_and_against_random() -> None:
    for rules, bots in (
        (SHORT, _bots(1)),
        (LONG, _bots(2)),
        (SHORT, {"rkka": HeuristicBot(3), "wehrmacht": RandomPlayer(3, legal=State.legal_actions)}),
        (SHORT, {"rkka": RandomPlayer(4, legal=State.legal_actions), "wehrmacht": HeuristicBot(4)}),
    ):
        state = play(rules, bots, seed=7)
        assert state.is_terminal()
        assert state.outcome is not None
        assert state.outcome.winner in ("rkka", "wehrmacht")
        assert state.turn == (5 if rules is SHORT else 10)
        kinds = {a.kind for a in state.history}
        assert {"move", "attack", "play"} <= kinds  # it moves, fights and plays cards


def test_heuristic_is_deterministic_per_seed_and_replays_legally() -> None:
    a = play(SHORT, _bots(5), seed=11)
    b = play(SHORT, _bots(5), seed=11)
    assert record_of(a).actions == record_of(b).actions
    replayed = SHORT.new_state()
    for action in a.history:
        replayed.apply(action)  # checked: every bot action was legal
    assert replayed.outcome == a.outcome


def test_heuristic_attacks_at_the_best_odds_with_fewest_units() -> None:
    ring = ("2116", "2115", "2015", "1916", "2017", "2117")
    state = situation(  # Hollidt's group (outside the 6th Army) in the open
        SHORT,
        {"r-1ga": ring[0], "r-26tc": ring[1], "r-21a-a": ring[2], "w-hollidt": "2016"},
        turn=4,  # not the last turn (there RKKA makes no ground attack, S11.1)
    )
    choice = HeuristicBot(0)(state)
    assert choice.kind == "attack"
    column, _ = ground.attack_odds(state, choice.args[0], choice.args[1:])
    best = max(
        SHORT.data.crt.labels.index(c)
        for a in state.legal_actions()
        if a.kind == "attack" and (c := ground.attack_odds(state, a.args[0], a.args[1:])[0])
    )
    assert SHORT.data.crt.labels.index(str(column)) == best
    same = [
        a
        for a in state.legal_actions()
        if a.kind == "attack" and ground.attack_odds(state, a.args[0], a.args[1:])[0] == column
    ]
    assert len(choice.args) == min(len(a.args) for a in same)


def test_heuristic_does_not_attack_below_2_to_1() -> None:
    # 6 vs 6: only 1:1 is available, so the bot ends the phase instead
    state = situation(SHORT, {"r-21a-a": "2115", "w-hollidt": "2016"}, turn=4)
    assert any(a.kind == "attack" for a in state.legal_actions())
    assert HeuristicBot(0)(state) == END


def _set_up(rules: StalingradRules) -> State:
    state = rules.new_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    return state


def _split_flow_value(
    nb: dict[str, tuple[str, ...]], cells: set[str], src: set[str], dst: set[str]
) -> int:
    """Vertex-disjoint path count by networkx (node splitting): the min cut's size."""
    g = nx.DiGraph()
    for v in cells:
        g.add_edge(("in", v), ("out", v), **({} if v in src else {"capacity": 1}))
        for w in nb[v]:
            if w in cells:
                g.add_edge(("out", v), ("in", w))
    for v in src:
        g.add_edge("S", ("in", v))
    for v in dst - src:
        g.add_edge(("out", v), "T")
    value: int = nx.maximum_flow_value(g, "S", "T")
    return value


def test_heuristic_ring_plan_s11_1_gaps_are_a_minimum_cut_at_the_don_bend() -> None:
    state = _set_up(LONG)
    data = LONG.data
    plan = ring_plan(state)
    assert plan is not None
    assert plan.gaps
    sixth = {lab for lab, u in on_map(state, "wehrmacht") if "6th_army" in data.ground[u].groups}
    blocked = {lab for lab, _ in on_map(state, "rkka")} | ground.zoc_of_side(state, "rkka")
    cells = (set(data.passable) - blocked) | sixth
    supply = set(data.tagged("supply:wehrmacht")) & cells
    # removing the gaps separates every 6th Army unit from supply (the S11.1 graph) ...
    rest = nx.Graph()
    rest.add_nodes_from(cells - plan.gaps)
    rest.add_edges_from(
        (v, w) for v in cells - plan.gaps for w in data.neighbors[v] if w in cells - plan.gaps
    )
    assert not any(nx.has_path(rest, s, t) for s in sixth for t in supply if t in rest)
    # ... and no smaller set does (networkx's maximum flow on the split graph)
    assert len(plan.gaps) == _split_flow_value(dict(data.neighbors), cells, sixth, supply)
    # it is the cut nearest the 6th Army (the tightest ring): no larger pocket than the cut
    # nearest the supply sources, which runs along the Don bend (Kalach within 24 km)
    far = min_vertex_cut(data.neighbors, cells, sixth, supply)
    assert far is not None
    far_pocket = cells - far[1] - far[0]
    assert len(plan.pocket) < len(far_pocket)
    kalach = data.place("kalach")
    assert kalach is not None
    assert min(data.distance(kalach, g) for g in far[0]) <= 3
    # RKKA armour heads for hexes that block gaps; the Wehrmacht only steers its groups
    goals = objectives(state, "rkka", plan)
    assigned = ring_targets(state, plan, [u for _, u in on_map(state, "rkka")])
    tanks = [u for u in assigned if data.ground[u].arm == "tank"]
    assert tanks
    for u in assigned:
        assert goals[u] == assigned[u]
        assert plan.gaps & ({assigned[u]} | set(data.zoc_of[assigned[u]]))
    # the 6th Army holds the pocket: only its corps out in the Don bend have a goal, the
    # city; the formations outside it head for the pocket
    goals = objectives(state, "wehrmacht", plan)
    to_city = data.path_steps(tuple(sorted(data.city)))
    for label, unit in on_map(state, "wehrmacht"):
        if "6th_army" not in data.ground[unit].groups:
            assert goals[unit] in sixth
        elif to_city[label] <= POCKET_RADIUS:
            assert unit not in goals
        else:
            assert goals[unit] in data.city
    assert {"w-xi-ak", "w-376id"} <= set(goals)


def _rim(center: str, radius: int) -> list[str]:
    data = SHORT.data
    return sorted(h for h in data.disk(center, radius) if data.distance(center, h) == radius)


def test_heuristic_ring_plan_s11_1_thickens_a_closed_ring_with_thin_spots() -> None:
    # six units on the corners of the radius-3 rim close the ring by ZOC alone (S2.1,
    # S11.1); but a 6th Army unit may move into a ZOC hex of the rim (S6.3) and trace a
    # path out from there: the plan names the hexes that make every such step harmless
    data = SHORT.data
    center = "1520"
    assert set(data.disk(center, 5)) <= data.passable
    inner = set(_rim(center, 2))
    corners = [h for h in _rim(center, 3) if sum(n in inner for n in data.neighbors[h]) == 1]
    infantry = ["r-1ga", "r-21a-a", "r-21a-b", "r-24a-a", "r-24a-b", "r-65a-a"]
    units = dict(zip(infantry, corners, strict=True))
    state = situation(SHORT, {**units, "w-xi-ak": center}, phase="movement")
    assert victory.encircled(state)
    plan = ring_plan(state)
    assert plan is not None
    assert plan.gaps
    band = [h for h in _rim(center, 3) if h not in corners]
    for hex_ in band:  # each rim ZOC hex is a thin spot now
        moved = situation(SHORT, {**units, "w-xi-ak": hex_}, phase="movement")
        assert not victory.encircled(moved)
    more = ["r-65a-b", "r-65a-c", "r-66a-a", "r-66a-b", "r-62a", "r-57a"]
    assert len(plan.gaps) <= len(more)
    held = {**units, **dict(zip(more, sorted(plan.gaps), strict=False))}
    for hex_ in band:  # with the planned hexes held, no one step breaks the ring
        moved = situation(SHORT, {**held, "w-xi-ak": hex_}, phase="movement")
        assert victory.encircled(moved)


def test_heuristic_first_move_blocks_a_reachable_gap_s11_1() -> None:
    state = _set_up(SHORT)
    while not (state.stage == "rkka" and state.phase == "movement"):
        state.apply(END)
    plan = ring_plan(state)
    assert plan is not None
    data = SHORT.data
    reach = [
        a
        for a in state.legal_actions()
        if a.kind == "move" and plan.gaps & {a.args[1], *data.zoc_of[a.args[1]]}
    ]
    assert reach  # some unit can reach a gap this phase
    move = HeuristicBot(0)(state)
    assert move in reach


@settings(max_examples=30, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=4),
    st.data(),
)
def test_min_vertex_cut_matches_networkx_flow_on_random_grids(
    cells: set[tuple[int, int]], data: st.DataObject
) -> None:
    names = {c: f"{c[0]}{c[1]}" for c in cells}
    nb = {
        names[(x, y)]: tuple(
            sorted(names[n] for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in names)
        )
        for x, y in cells
    }
    ordered = sorted(nb)
    src = set(data.draw(st.lists(st.sampled_from(ordered), min_size=1, max_size=3)))
    dst = set(data.draw(st.lists(st.sampled_from(ordered), min_size=1, max_size=3))) - src
    assume(dst)
    for near_sources in (False, True):
        found = min_vertex_cut(nb, set(nb), src, dst, near_sources=near_sources)
        assert found is not None
        cut, outside = found
        assert not cut & src
        assert len(cut) == _split_flow_value(nb, set(nb), src, dst)
        rest = nx.Graph()
        rest.add_nodes_from(set(nb) - cut)
        rest.add_edges_from((v, w) for v in set(nb) - cut for w in nb[v] if w not in cut)
        assert not any(nx.has_path(rest, s, t) for s in src for t in dst if t in rest)
        assert dst - cut <= outside


@pytest.mark.parametrize(
    ("width", "height", "closed", "sources", "sinks"),
    [
        (
            9,
            11,
            "2 4 7 8 10 12 16 20 21 24 28 33 36 43 47 48 49 51 59 60 66 71 74 87 88 92 94 97",
            "58 70 92",
            "14 24 35 55 69 70 78 84",
        ),
        (
            12,
            10,
            "0 1 5 8 20 22 26 28 29 30 34 38 40 42 46 50 51 56 57 62 64 66 67 73 76 80 81 87"
            " 88 91 93 102 104 106 108 113 116 118",
            "9 25",
            "18 48 50 53 57 119",
        ),
    ],
)
def test_min_vertex_cut_is_minimum_where_a_path_reroutes_against_another(
    width: int, height: int, closed: str, sources: str, sinks: str
) -> None:
    # two hex-like grids (six neighbours) where an augmenting path crosses an arc carried
    # by an earlier path in the other direction: out(a) -> in(b) and out(b) -> in(a) are two
    # arcs, and pushing along one does not cancel the other (the cut was one hex too big)
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    nb = {
        f"v{v}": tuple(
            sorted(
                f"v{(v // width + dy) * width + v % width + dx}"
                for dx, dy in steps
                if 0 <= v % width + dx < width and 0 <= v // width + dy < height
            )
        )
        for v in range(width * height)
    }
    src = {f"v{v}" for v in sources.split()}
    cells = (set(nb) - {f"v{v}" for v in closed.split()}) | src
    dst = {f"v{v}" for v in sinks.split()} & cells
    for near_sources in (False, True):
        found = min_vertex_cut(nb, cells, src, dst, near_sources=near_sources)
        assert found is not None
        assert len(found[0]) == _split_flow_value(nb, cells, src, dst)


def test_heuristic_attack_score_uses_the_step_loss_balance() -> None:
    data = SHORT.data
    state = _set_up(SHORT)
    unit = "w-xi-ak"
    for label in data.crt.labels:  # a full defender: elimination counts both its steps
        dist = data.crt.distribution_at(label)
        defender = dist.expect(lambda r: 2 if r.eliminated else r.defender_steps)
        assert _step_balance(state, unit, dist) == defender - dist.expected_attacker_steps
    # balance below zero at 1:1 and 2:1, above at 3:1 (why the bot waits for 2:1 or better)
    balances = [_step_balance(state, unit, data.crt.distribution_at(c)) for c in data.crt.labels]
    assert balances[0] < 0
    assert balances[2] > 0


def test_heuristic_artillery_keeps_range_2() -> None:
    state = situation(SHORT, {"r-swf-kat": "1010", "w-xi-ak": "1014"}, phase="movement")
    move = HeuristicBot(0)(state)
    assert move.kind == "move"
    assert move.args[0] == "r-swf-kat"
    assert SHORT.data.distance(move.args[1], "1014") == 2
    assert Action("move", ("r-swf-kat", "1013")) != move  # never next to the enemy


def test_heuristic_screen_s11_2_cuts_the_relief_off_from_the_6th_army() -> None:
    # long game, turn 7: Manstein's relief group is on the map (S4.2); the plan adds a
    # minimum set of hexes that, blocked, keep it from moving next to the 6th Army
    units = {"w-xi-ak": "2016", "w-6pz": "1622", "r-1ga": "1919"}
    state = situation(LONG, units, turn=7, phase="movement")
    data = LONG.data
    relief = {
        lab for lab, u in on_map(state, "wehrmacht") if "relief_group" in data.ground[u].groups
    }
    assert "1622" in relief
    plan = ring_plan(state)
    assert plan is not None
    blocked = {lab for lab, _ in on_map(state, "rkka")} | ground.zoc_of_side(state, "rkka")
    inputs = plan_inputs(state)
    assert inputs is not None
    screen, fence = _screen(state, data.passable - blocked, plan.pocket, inputs)
    assert screen
    assert screen <= plan.gaps
    assert fence <= plan.wall  # the plan holds while the hexes around the relief stay blocked
    near = {"2016", *plan.pocket}
    near |= {n for h in near for n in data.neighbors[h]}
    targets = {n for h in near for n in data.neighbors[h]}
    cells = (set(data.passable) - blocked) | relief
    rest = nx.Graph()
    rest.add_nodes_from(cells - screen)
    rest.add_edges_from(
        (v, w) for v in cells - screen for w in data.neighbors[v] if w in cells - screen
    )
    assert not any(nx.has_path(rest, r, t) for r in relief for t in targets - relief if t in rest)
    assert len(screen) == _split_flow_value(dict(data.neighbors), cells, relief, targets & cells)
    # the short game (S11.1) has no relief to screen
    short = situation(SHORT, units, turn=5, phase="movement")
    short_inputs = plan_inputs(short)
    assert short_inputs is not None
    assert short_inputs.screen == ()
    assert _screen(short, cells, plan.pocket, short_inputs) == (frozenset(), frozenset())


def test_heuristic_long_game_last_turn_breaks_a_relief_contact_s11_2() -> None:
    # turn 10, Manstein's 6th Panzer next to the XI Corps: RKKA attacks the contact at
    # 1:1 (S11.2 is judged at the end of the turn) rather than the Romanian corps at 2:1
    units = {
        "w-xi-ak": "2016",
        "w-6pz": "1916",
        "w-rom-iv": "2214",
        "r-21a-a": "2117",
        "r-21a-b": "2213",
    }
    state = situation(LONG, units, turn=10)
    odds = {
        a.args[0]: ground.attack_odds(state, a.args[0], a.args[1:])[0]
        for a in state.legal_actions()
        if a.kind == "attack"
    }
    assert odds == {"w-rom-iv": "2:1", "w-xi-ak": "1:1"}
    assert HeuristicBot(0)(state) == Action("attack", ("w-xi-ak", "r-21a-a"))
    # before the last turn the 6th Army is spared (S4.1) and the Romanians are hit
    state = situation(LONG, units, turn=9)
    assert HeuristicBot(0)(state) == Action("attack", ("w-rom-iv", "r-21a-b"))


def test_heuristic_counter_attack_s11_2_the_reserves_head_for_the_relief() -> None:
    # long game, turn 7, Manstein's relief on the map (S4.2): the turn-6 reserves (here the
    # 7th Tank Corps and the 2nd Guards Mechanized Corps) that are neither assigned to the
    # ring or the screen nor bound for the city go for the nearest relief unit; the armies
    # of the ring (the 4th Mechanized Corps, there since turn 1) do not
    units = {
        "w-xi-ak": "2016",
        "w-6pz": "1622",
        "w-23pz": "1323",
        "r-62a": "2616",
        "r-1ga": "1919",
        "r-7tc": "1008",
        "r-2gmc": "0910",
        "r-4mc": "2830",
    }
    state = situation(LONG, units, turn=7, phase="movement")
    data = LONG.data
    plan = ring_plan(state)
    assert plan is not None
    mine = [u for _, u in on_map(state, "rkka")]
    assigned = ring_targets(state, plan, mine)
    goals = objectives(state, "rkka", plan)
    relief = sorted(
        lab for lab, u in on_map(state, "wehrmacht") if "relief_group" in data.ground[u].groups
    )
    assert {"1622", "1323"} <= set(relief)
    here_of = {u: lab for lab, u in on_map(state, "rkka")}
    reserves = [u for u in ("r-7tc", "r-2gmc") if u not in assigned]
    assert reserves
    for unit in reserves:
        here = here_of[unit]
        want = min(relief, key=lambda h: (data.path_steps((h,))[here], h))
        assert goals[unit] == want
    if "r-4mc" not in assigned:
        assert goals["r-4mc"] not in relief


def test_heuristic_screen_attacks_the_relief_at_3_to_1_and_first_s11_2() -> None:
    # 8 + 6 vs the 6th Panzer's 11: only 1:1, and the screen holds its line (S11.2) ...
    attackers = {"r-24a-a": "2115", "r-21a-a": "2116"}
    state = situation(LONG, {**attackers, "w-6pz": "2016"}, turn=7)
    odds = {
        ground.attack_odds(state, a.args[0], a.args[1:])[0]
        for a in state.legal_actions()
        if a.kind == "attack"
    }
    assert odds == {"1:1"}
    assert HeuristicBot(0)(state) == END
    # ... but at 3:1 (8 + 6 vs the 17th Panzer's 4) it attacks the relief
    units = {"r-24a-a": "2115", "r-21a-a": "2116", "w-17pz": "2016"}
    state = situation(LONG, units, turn=7)
    choice = HeuristicBot(0)(state)
    assert choice.kind == "attack"
    assert choice.args[0] == "w-17pz"
    assert ground.attack_odds(state, choice.args[0], choice.args[1:])[0] == "3:1"


def test_heuristic_6th_army_holds_the_pocket_and_its_don_bend_corps_fall_back_s11() -> None:
    # Wehrmacht movement: the 51st Corps' unit in the pocket stays put, the XI Corps out in
    # the small Don bend walks back toward the city, and no 6th Army unit leaves the area
    units = {"w-li-c": "2516", "w-xi-ak": "2010", "r-21a-a": "1208"}
    state = situation(SHORT, units, stage="wehrmacht", phase="movement")
    data = SHORT.data
    to_city = data.path_steps(tuple(sorted(data.city)))
    assert to_city["2010"] > POCKET_RADIUS >= to_city["2516"]
    bot = HeuristicBot(0)
    moved = []
    while state.stage == "wehrmacht" and state.phase == "movement":
        action = bot(state)
        if action == END:
            break
        assert action.kind == "move"
        moved.append(action.args[0])
        assert action.args[1] in data.stalingrad_area
        state.apply(action)
    assert moved == ["w-xi-ak"]
    assert to_city[where(state, "w-xi-ak")] < to_city["2010"]
    assert where(state, "w-li-c") == "2516"


def test_heuristic_rkka_rings_the_pocket_rather_than_storms_it_s11_1() -> None:
    # 6 + 8 + 7 = 21 vs the 6th Army's 14th/24th Panzer (4): 5:1; in the pocket (next to
    # Gumrak) RKKA does not attack at that; out in the Don bend it does, as at 6:1 anywhere
    attackers = {"r-1ga": "2116", "r-24a-a": "2215", "r-4tc": "2217"}
    pocket = situation(SHORT, {**attackers, "w-14-24pz": "2216"}, turn=2)
    data = SHORT.data
    to_city = data.path_steps(tuple(sorted(data.city)))
    odds = {
        ground.attack_odds(pocket, a.args[0], a.args[1:])[0]
        for a in pocket.legal_actions()
        if a.kind == "attack"
    }
    assert "5:1" in odds
    assert "6:1" not in odds
    assert to_city["2216"] <= POCKET_RADIUS
    assert HeuristicBot(0)(pocket) == END
    far = {"r-1ga": "1109", "r-24a-a": "1110", "r-4tc": "1009"}
    bend = situation(SHORT, {**far, "w-14-24pz": "1010"}, turn=2)
    assert to_city["1010"] > POCKET_RADIUS
    assert HeuristicBot(0)(bend).kind == "attack"


def test_heuristic_wehrmacht_clears_the_city_at_any_odds_in_the_short_game_s11_1() -> None:
    # 4 + 3 vs the 62nd Army's 5 in a city hex: 1:1, a losing trade on average; in the short
    # game the Wehrmacht attacks all the same (no RKKA unit in the city: S11.1 is lost)
    units = {"w-li-n": "2615", "w-71id": "2617", "r-62a": "2616"}
    state = situation(SHORT, units, stage="wehrmacht")
    assert "2616" in SHORT.data.city
    choice = HeuristicBot(0)(state)
    assert choice.kind == "attack"
    assert choice.args[0] == "r-62a"
    assert ground.attack_odds(state, choice.args[0], choice.args[1:])[0] == "1:1"
    assert HeuristicBot(0)(situation(LONG, units, stage="wehrmacht")) == END


def test_heuristic_6th_army_holds_fire_before_the_short_game_last_two_turns_s11_1() -> None:
    # 14th/24th Panzer and 3rd Motorized of the 6th Army in the pocket against a reduced
    # 4th Cavalry Corps: 4:1. In the short game the 6th Army does not attack out of the
    # pocket before turn 4 (the order to hold); on turns 4-5 it does, and in the long game
    # it does any time; a formation outside the 6th Army (1st Romanian Armoured) attacks on
    # turn 3
    units = {"w-14-24pz": "2216", "w-3mot": "2315", "r-4cc": ("2215", REDUCED)}
    assert {"2216", "2315"} <= SHORT.data.stalingrad_area
    quiet = situation(SHORT, units, stage="wehrmacht", turn=3)
    odds = {
        ground.attack_odds(quiet, a.args[0], a.args[1:])[0]
        for a in quiet.legal_actions()
        if a.kind == "attack"
    }
    assert "4:1" in odds
    assert HeuristicBot(0)(quiet) == END
    for state in (
        situation(SHORT, units, stage="wehrmacht", turn=4),
        situation(LONG, units, stage="wehrmacht", turn=3),
    ):
        choice = HeuristicBot(0)(state)
        assert choice.kind == "attack"
        assert choice.args[0] == "r-4cc"
    outside = {"w-rom-1ad": "2315", "r-4cc": ("2215", REDUCED)}
    choice = HeuristicBot(0)(situation(SHORT, outside, stage="wehrmacht", turn=3))
    assert choice.kind == "attack"
    assert choice.args == ("r-4cc", "w-rom-1ad")


def test_heuristic_6th_army_breaks_out_on_the_short_game_last_turn_s11_1() -> None:
    # the Wehrmacht moves last and S11.1 is judged at the end of turn 5: while the ring is
    # closed and a hex of the area joins a supply source past RKKA's units and ZOC, a 6th
    # Army unit steps there, and the ring is open; the first game of seeds 0.. where the
    # chance arises is checked (one arises within 20 games)
    seen: list[tuple[Action, bool]] = []

    class Watched(HeuristicBot):
        def __call__(self, state: State) -> Action:
            chance = (
                state.turn == 5
                and str(state.phase) == "movement"
                and victory.encircled(state)
                and bool(_escapes(state))
            )
            escapes = _escapes(state) if chance else frozenset()
            choice = super().__call__(state)
            if chance and choice.kind != "play":  # a card played first decides nothing here
                seen.append((choice, choice.kind == "move" and choice.args[1] in escapes))
            return choice

    for seed in range(20):
        state = play(
            SHORT, {"rkka": HeuristicBot(2 * seed), "wehrmacht": Watched(2 * seed + 1)}, seed
        )
        if seen:
            break
    assert seen, "no break-out chance in 20 short games"
    assert seen[0][1], seen[0][0]
    assert not victory.encircled(state)
    assert state.outcome is not None
    assert state.outcome.winner == "wehrmacht"


def test_heuristic_ring_plan_reused_only_while_exact_s11_1() -> None:
    # at every RKKA move of a game's first three turns, the plan the bot uses separates
    # every 6th Army unit in the area from the supply sources once its open gaps are
    # blocked (S11.1): a reused plan is never stale
    bot = HeuristicBot(3)
    checked = 0

    def rkka(state: State) -> Action:
        nonlocal checked
        if state.turn <= 3 and not state.pending and state.phase in ("movement", "exploitation"):
            plan = bot.plan(state)
            if plan is not None and plan.gaps:
                data = SHORT.data
                blocked = {lab for lab, _ in on_map(state, "rkka")}
                blocked |= ground.zoc_of_side(state, "rkka")
                sixth = [
                    lab
                    for lab, u in on_map(state, "wehrmacht")
                    if "6th_army" in data.ground[u].groups and lab in data.stalingrad_area
                ]
                cells = (set(data.passable) - blocked - plan.gaps) | set(sixth)
                supply = set(data.tagged("supply:wehrmacht")) & cells
                graph = nx.Graph()
                graph.add_nodes_from(cells)
                graph.add_edges_from((v, w) for v in cells for w in data.neighbors[v] if w in cells)
                assert not any(nx.has_path(graph, s, t) for s in sixth for t in supply)
                checked += 1
        return bot(state)

    play(SHORT, {"rkka": rkka, "wehrmacht": HeuristicBot(4)}, seed=3)
    assert checked > 10


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 10), st.integers(3, 10), st.data())
def test_ring_query_started_from_earlier_paths_gives_the_same_cut(
    width: int, height: int, data: st.DataObject
) -> None:
    # index_cut started from the flow paths of an earlier query on a graph a few hexes
    # apart (the bot's ring plans, S11.1) gives the cuts it gives from nothing, nearest
    # the sources and nearest the sinks: those of every maximum flow
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    n = width * height
    graph = tuple(
        tuple(
            sorted(
                (v // width + dy) * width + v % width + dx
                for dx, dy in steps
                if 0 <= v % width + dx < width and 0 <= v // width + dy < height
            )
        )
        for v in range(n)
    )
    cells = st.integers(0, n - 1)
    is_open = [not b for b in data.draw(st.lists(st.booleans(), min_size=n, max_size=n))]
    sources = sorted(set(data.draw(st.lists(cells, min_size=1, max_size=4))))
    sinks = [False] * n
    for t in data.draw(st.lists(cells, min_size=1, max_size=6)):
        sinks[t] = True
    paths: list[list[int]] = []
    for _ in range(4):
        for near in (False, True):
            fresh = index_cut(graph, list(is_open), sources, list(sinks), 400, near)
            assert index_cut(graph, list(is_open), sources, list(sinks), 400, near, paths) == fresh
        for v in data.draw(st.lists(cells, min_size=1, max_size=4)):
            is_open[v] = not is_open[v]
        sources = sorted(set(sources) | set(data.draw(st.lists(cells, max_size=1))))


def test_heuristic_last_short_turn_never_weakens_the_ring_s11_1() -> None:
    # S11.1 is judged at the end of turn 5: there RKKA makes no move after which the ring
    # is open where it was closed or has more gaps or thin spots (ring_risk), and no ground
    # attack; checked at every RKKA decision of turn 5 in the short games of seeds 0..,
    # up to the first where the rule rules some best-scored move out (within 20 games)
    moves = ruled_out = 0
    for seed in range(20):
        bot = HeuristicBot(2 * seed)

        def rkka(state: State, bot: HeuristicBot = bot) -> Action:
            nonlocal moves
            choice = bot(state)
            if state.turn == 5 and not state.pending:
                assert choice.kind != "attack", choice
                if choice.kind == "move":
                    after = state.clone()
                    after.apply(choice)
                    assert ring_risk(after) <= ring_risk(state), choice
                    moves += 1
            return choice

        play(SHORT, {"rkka": rkka, "wehrmacht": HeuristicBot(2 * seed + 1)}, seed)
        ruled_out += bot.ruled_out
        if ruled_out and moves > 10:
            break
    assert moves > 10
    assert ruled_out > 0, "no move ruled out in 20 games: the test no longer exercises it"


# -- win rates over fixed seed ranges ---------------------------------------------------------

#: A fixed-range test fails when a bot whose true rate sits at the edge of the target would
#: do this badly (or well) with probability below ALPHA (exact binomial tail).
ALPHA = 0.02
BALANCE_GAMES = int(os.environ.get("HEXWAR_BALANCE_GAMES", "0"))


def _tail_at_most(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _accepts(k: int, n: int, low: float, high: float = 1.0) -> bool:
    """Whether ``k`` successes of ``n`` are consistent with a rate in ``[low, high]``: at
    the stated tolerance (``ALPHA``), or, for an opt-in study, by the Wilson interval."""
    if BALANCE_GAMES:
        lo, hi = wilson(k, n)
        return hi >= low and lo <= high
    too_few = _tail_at_most(k, n, low) < ALPHA
    too_many = high < 1 and 1 - _tail_at_most(k - 1, n, high) < ALPHA
    return not too_few and not too_many


def test_accepts_is_the_stated_binomial_tolerance() -> None:
    if BALANCE_GAMES:
        pytest.skip("the opt-in study judges by the Wilson interval")
    # 12 games, target [35 %, 65 %]: only 0 and 12 are too far out at ALPHA = 2 %
    assert [k for k in range(13) if _accepts(k, 12, 0.35, 0.65)] == list(range(1, 12))
    # 6 games at >= 90 %: 3 wins or fewer would be too few
    assert [k for k in range(7) if _accepts(k, 6, 0.9)] == [4, 5, 6]


def _games(length: str, bots: tuple[str, str], seeds: range) -> list[tuple[str, bool, bool]]:
    """``(winner, ring closed at the end of turn 3, contact inside the area)`` per game,
    played as ``simulate`` plays game ``i``."""
    rules = SHORT if length == "short" else LONG
    data = rules.data
    out = []
    for seed in seeds:
        ends: dict[int, bool] = {}

        def watch(state: State, action: Action, ends: dict[int, bool] = ends) -> None:
            if state.turn - 1 not in ends:
                ends[state.turn - 1] = victory.encircled(state)

        players = {
            "rkka": make_bot(bots[0], 2 * seed),
            "wehrmacht": make_bot(bots[1], 2 * seed + 1),
        }
        state = play(rules, players, seed, on_step=watch)
        assert state.outcome is not None
        sixth = {
            lab
            for lab, u in on_map(state, "wehrmacht")
            if "6th_army" in data.ground[u].groups and lab in data.stalingrad_area
        }
        contact = any(
            sixth & set(data.neighbors[lab])
            for lab, u in on_map(state, "wehrmacht")
            if "relief_group" in data.ground[u].groups
        )
        out.append((state.outcome.winner, ends.get(3, False), contact))
    return out


@pytest.mark.slow
def test_heuristic_balance_short_game_s11_1() -> None:
    # seeds 0..9 (or the opt-in count): RKKA wins 35-65 %; the ring (S11.1) is closed at
    # the end of turn 3, the historical 23 November, in at least 60 % of the games
    n = BALANCE_GAMES or 10
    games = _games("short", ("heuristic", "heuristic"), range(n))
    rkka = sum(w == "rkka" for w, _, _ in games)
    closed = sum(c for _, c, _ in games)
    assert _accepts(rkka, n, 0.35, 0.65), f"RKKA won {rkka} of {n}"
    assert _accepts(closed, n, 0.60), f"ring closed by turn 3 in {closed} of {n}"


@pytest.mark.slow
def test_heuristic_balance_long_game_s11_2() -> None:
    # seeds 0..9 (or the opt-in count): RKKA wins 35-65 %, and every Wehrmacht win is a
    # relief contact with a 6th Army unit inside the Stalingrad area (ruling S11.2)
    n = BALANCE_GAMES or 10
    games = _games("long", ("heuristic", "heuristic"), range(n))
    rkka = sum(w == "rkka" for w, _, _ in games)
    assert _accepts(rkka, n, 0.35, 0.65), f"RKKA won {rkka} of {n}"
    assert all(contact for w, _, contact in games if w == "wehrmacht")


@pytest.mark.parametrize("side", ["rkka", "wehrmacht"])
def test_heuristic_beats_random_short_game(side: str) -> None:
    # seeds 0..5 (or the opt-in count) of the short game: the heuristic bot wins >= 90 %
    n = BALANCE_GAMES or 6
    bots = ("heuristic", "random") if side == "rkka" else ("random", "heuristic")
    wins = sum(w == side for w, _, _ in _games("short", bots, range(n)))
    assert _accepts(wins, n, 0.90), f"the heuristic {side} won {wins} of {n}"
