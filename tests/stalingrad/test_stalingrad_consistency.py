"""Consistency of the Stalingrad data across files (S1.1, S1.3, S3.2, S4, S11)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import networkx as nx
import pytest

from hexwar.board.zoc import zoc_cells
from hexwar_stalingrad.cards import EFFECT_KINDS
from hexwar_stalingrad.scenario import Scenario, load_scenario
from hexwar_stalingrad.units import ARMS, SIDES


@pytest.fixture(scope="module")
def sc() -> Scenario:
    return load_scenario()


def test_every_start_number_is_used_exactly_once(sc: Scenario) -> None:
    on_map = Counter(t for c in sc.game_map for t in sc.game_map.tags(c) if t.startswith("start:"))
    assert all(n == 1 for n in on_map.values())
    used = Counter(f"start:{u.side}:{u.start}" for u in sc.oob.ground)
    assert used == on_map


def test_no_two_units_share_a_hex_and_all_stand_on_passable_hexes(sc: Scenario) -> None:
    hexes = [sc.start_hex(u) for u in sc.oob.ground]
    assert len(set(hexes)) == len(hexes)
    for h in hexes:
        assert not sc.chart.terrains[sc.game_map.terrain(h)].impassable


def test_turn6_units_sit_on_reserve_markers(sc: Scenario) -> None:
    for u in sc.oob.ground:
        assert (f"reserve:{u.side}" in sc.game_map.tags(sc.start_hex(u))) == (u.arrives == 6)
    for side in SIDES:
        assert any(u.arrives == 6 for u in sc.oob.side(side))


def test_trucks_and_airfields_are_on_the_map_and_passable(sc: Scenario) -> None:
    for side in SIDES:
        assert len(sc.truck_hexes(side)) >= 3
        assert len(sc.airfields(side)) >= 5
        for h in sc.truck_hexes(side) + sc.airfields(side):
            assert h in sc.game_map
            assert not sc.chart.terrains[sc.game_map.terrain(h)].impassable


def test_air_units_start_on_distinct_own_airfields(sc: Scenario) -> None:
    for wave in (3, 6):
        bases = [sc.base_hex(a) for a in sc.oob.air if a.arrives == wave]
        assert len(set(bases)) == len(bases)
    for a in sc.oob.air:
        assert sc.base_hex(a) in sc.airfields(a.side)


def test_supply_sources_are_reachable_by_every_6th_army_unit_at_the_start(sc: Scenario) -> None:
    """Ruling S11.1: at the start 6th Army is not cut off."""
    m = sc.game_map
    positions = sc.initial_positions()
    rkka = {h for h, u in positions.items() if u.side == "rkka"}
    blocked = rkka | zoc_cells(m, rkka)
    open_cells = [
        c for c in m if c not in blocked and not sc.chart.terrains[m.terrain(c)].impassable
    ]
    sources = set(sc.supply_sources())
    assert sources
    traced = 0
    for h, u in positions.items():
        if "6th_army" in u.groups:
            # the unit's own hex may lie in an RKKA ZOC; every hex it enters may not
            g = m.graph.subgraph([*open_cells, h])
            assert any(s in g and nx.has_path(g, h, s) for s in sources), u.id
            traced += 1
    assert traced == len(sc.oob.group("6th_army"))


def test_the_victory_groups_are_present(sc: Scenario) -> None:
    sixth = sc.oob.group("6th_army")
    relief = sc.oob.group("relief_group")
    assert len(sixth) >= 10
    assert all(u.side == "wehrmacht" and u.arrives == 1 for u in sixth)
    assert len(relief) >= 3
    assert all(u.side == "wehrmacht" and u.arrives == 6 for u in relief)
    # the 6th Army starts between the Don bend and the city: within 120 km of the centre
    centre = sc.place_hex("stalingrad")
    assert all(sc.start_hex(u).distance(centre) <= 15 for u in sixth)
    # Manstein's group (S11.2, docs/stalingrad/oob.md) is LVII Panzer Corps, gathering at
    # Kotelnikovo; XXXXVIII Panzer Corps on the Chir is not in it
    kotelnikovo = sc.place_hex("kotelnikovo")
    assert any(sc.start_hex(u).distance(kotelnikovo) <= 1 for u in relief)
    assert {u.id for u in relief} == {"w-6pz", "w-23pz", "w-17pz"}
    assert all("LVII PzK" in " ".join(u.formations) for u in relief)
    chir = [u for u in sc.oob.ground if u.army == "XXXXVIII Panzer Corps"]
    assert chir
    assert not any("relief_group" in u.groups for u in chir)


def test_counters_cover_every_arm_and_are_bilingual(sc: Scenario) -> None:
    for side in SIDES:
        arms = {u.arm for u in sc.oob.side(side)}
        assert arms >= {"infantry", "tank", "mechanized", "cavalry", "artillery"}
    assert {u.arm for u in sc.oob.ground} == set(ARMS)
    for u in sc.oob.ground:
        assert u.name
        assert u.name_ru
        assert u.name != u.name_ru
        assert u.formations
        assert 1 <= u.strength.reduced <= u.strength.full
        assert u.army
        assert u.front


def test_s1_7_counter_values(sc: Scenario) -> None:
    """S1.7: the counters the worked examples use, with exactly these values."""

    def air(aircraft: str):  # type: ignore[no-untyped-def]
        return [a for a in sc.oob.air if a.aircraft == aircraft]

    assert [(a.strength.full, a.role) for a in air("Bf-110")] == [(6, "bomber")]
    assert [(a.strength.full, a.role) for a in air("Bf-109G")] == [(15, "fighter")]
    assert [(a.strength.full, a.role) for a in air("LaGG-3")] == [(6, "fighter")]
    assert [a.strength.full for a in air("Yak-1/Il-2/Pe-2")] == [8]
    a19 = [u for u in sc.oob.ground if "A-19" in u.name and u.side == "rkka"]
    assert a19
    assert all(u.arm == "artillery" and u.bombs == Fraction(1) for u in a19)
    kat = [u for u in sc.oob.ground if u.arm == "katyusha"]
    assert kat
    assert all(u.bombs == Fraction(2) and "БМ-13" in u.name_ru for u in kat)
    # S7.2 / ruling S1.7: the double strike is the printed value, on both sides of the
    # counter (full 2 = 2 x 1, reduced 1 = 2 x 1/2), applied once
    for k in kat:
        for a in a19:
            assert k.bombs == 2 * a.bombs
            assert k.reduced_bombs == 2 * a.reduced_bombs == 1
    # W2 needs RKKA infantry 6, an RKKA tank 7 and German infantry 6
    assert any(
        u.side == "rkka" and u.arm == "infantry" and u.strength.full == 6 for u in sc.oob.ground
    )
    assert any(u.side == "rkka" and u.arm == "tank" and u.strength.full == 7 for u in sc.oob.ground)
    assert any(
        u.side == "wehrmacht" and u.arm == "infantry" and u.strength.full == 6
        for u in sc.oob.ground
    )


def test_balance_of_forces_follows_the_reference(sc: Scenario) -> None:
    """Soviet superiority at the breakthroughs; 6th Army's weight; LVII PzK; 2nd Gds Army."""

    def total(units) -> int:  # type: ignore[no-untyped-def]
        return sum(u.strength.full for u in units)

    at_start = [u for u in sc.oob.ground if u.arrives == 1]

    # north-western breakthrough (Serafimovich - Kletskaya bridgeheads, rows 1-11 west of col 17)
    def north_west(u) -> bool:  # type: ignore[no-untyped-def]
        col, row = (
            int(sc.game_map.label(sc.start_hex(u))[:2]),
            int(sc.game_map.label(sc.start_hex(u))[2:]),
        )
        return row <= 11 and col <= 15

    nw = [u for u in at_start if north_west(u)]
    rkka_nw = total(u for u in nw if u.side == "rkka")
    axis_nw = total(u for u in nw if u.side == "wehrmacht")
    assert rkka_nw >= 2 * axis_nw  # at least 2:1 on the Romanian 3rd Army's front

    # the south: the Sarpa lakes (rows 22-30, cols 24-30)
    def south(u) -> bool:  # type: ignore[no-untyped-def]
        col, row = (
            int(sc.game_map.label(sc.start_hex(u))[:2]),
            int(sc.game_map.label(sc.start_hex(u))[2:]),
        )
        return 22 <= row <= 30 and col >= 24

    s = [u for u in at_start if south(u)]
    assert total(u for u in s if u.side == "rkka") >= 3 * total(
        u for u in s if u.side == "wehrmacht"
    )
    # 6th Army is the largest German force on the map
    sixth = total(sc.oob.group("6th_army"))
    assert sixth > total(
        u for u in at_start if u.side == "wehrmacht" and "6th_army" not in u.groups
    )
    # LVII Panzer Corps: 6th Pz Div is the strongest counter of the game
    strongest = max(sc.oob.ground, key=lambda u: u.strength.full)
    assert strongest.id == "w-6pz"
    # 2nd Guards Army outweighs LVII Panzer Corps
    second_gds = total(u for u in sc.oob.ground if u.army == "2nd Guards Army")
    lvii = total(u for u in sc.oob.ground if u.army == "4th Panzer Army" and u.arrives == 6)
    assert second_gds > lvii


def test_card_effects_are_all_known_kinds(sc: Scenario) -> None:
    for card in sc.cards:
        for eff in card.effects:
            assert eff.kind in EFFECT_KINDS
    used = {eff.kind for c in sc.cards for eff in c.effects}
    assert used == set(EFFECT_KINDS)  # every kind in the vocabulary is used by some card


def test_tables_are_complete(sc: Scenario) -> None:
    assert sc.crt.labels == ("1:1", "2:1", "3:1", "4:1", "5:1", "6:1")
    assert sc.bombardment.labels == ("1/2", "1", "2")
    for table in (sc.crt, sc.bombardment):
        assert table.row_range == (1, 6)
        assert all(len(row) == len(table.labels) for row in table.cells)
        assert {code for row in table.cells for code in row} <= set(table.results)


def test_turn_track(sc: Scenario) -> None:
    assert [t.number for t in sc.turns] == list(range(1, 11))
    assert [t.number for t in sc.turns if t.non_flying] == [1, 2]
    assert {t.operation for t in sc.turns[:5]} == {"uranus"}
    assert {t.operation for t in sc.turns[5:]} == {"winter_storm"}
    assert [t.number for t in sc.turns if t.reserves] == [6]
    assert str(sc.turns[0].start) == "1942-11-19"
    assert all(2 <= t.days <= 4 for t in sc.turns)


def test_static_data_comes_only_from_a_stalingrad_ruleset() -> None:
    """board.static() reads the ruleset's own scenario data; another game's state has
    none, and gets no fallback to the shipped data (issue 12)."""
    import pytest

    from hexwar_stalingrad.board import static
    from hexwar_stalingrad.rules import StalingradRules
    from toy_game import Duel

    rules = StalingradRules()
    assert static(rules.new_state()) is rules.data
    with pytest.raises(TypeError, match="no «Сталинград» scenario data"):
        static(Duel().new_state())
