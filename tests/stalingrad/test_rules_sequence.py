"""Sequence of play (S4), set-up (S3), seats (S3.1), replacements (S4.1), reserves (S4.2)
and victory (S11)."""

from __future__ import annotations

import pytest

from hexwar.engine.actions import Action
from hexwar.engine.state import State
from hexwar.testing import check_step
from hexwar_stalingrad import reinforce, victory
from hexwar_stalingrad.board import on_map, remove, static, step, unit_at, where
from hexwar_stalingrad.rules import SEATS, StalingradRules
from hexwar_stalingrad.situations import ready, situation

RULES = StalingradRules()


class _Phases(StalingradRules):
    """Records every phase entered (``phase_start`` hook), also those where nobody rests."""

    def __init__(self) -> None:
        super().__init__()
        self.entered: list[tuple[int, str | None, str]] = []

    def hook_phase_start(self, state: State, value: None, **context: object) -> None:
        self.entered.append((state.turn, state.stage, str(context["phase"])))
        return value


def stages_of_turn(state: State, turn: int) -> list[tuple[str | None, str | None]]:
    """The (stage, phase) pairs entered in ``turn`` (the state's ruleset is a _Phases)."""
    rules = state.ruleset
    assert isinstance(rules, _Phases)
    while state.turn == turn and not state.is_terminal():
        state.apply("end")
    seen: list[tuple[str | None, str | None]] = []
    for t, stage, phase in rules.entered:
        if t == turn and (stage, phase) not in seen:
            seen.append((stage, phase))
    return seen


def test_s3_2_set_up_places_turn_1_units_and_sets_reserves_and_aviation_aside() -> None:
    state = ready(RULES)
    data = static(state)
    for unit, info in data.ground.items():
        if info.arrives == 1:
            assert where(state, unit) == data.start_hex(info.side, info.start)
        else:
            assert where(state, unit) == "pool"
    assert all(v[0] == "pool" for v in state.table("air").values())  # type: ignore[index]


def test_s4_turn_1_has_no_replacements_no_air_and_every_ground_phase() -> None:
    state = ready(_Phases(), seed=5)
    seen = stages_of_turn(state, 1)
    stages = [s for s, _ in seen]
    assert "replacements" not in stages
    assert "air" not in stages
    for side in ("rkka", "wehrmacht"):
        assert [p for s, p in seen if s == side] == [
            "movement",
            "artillery",
            "attack",
            "exploitation",
        ]
    assert stages.index("rkka") < stages.index("wehrmacht")
    assert state.turn == 2


def test_s4_phase_with_nothing_to_do_is_skipped() -> None:
    state = situation(RULES, {"r-1ga": "1010", "w-xi-ak": "3030"}, phase="movement")
    state.apply("move r-1ga 1011")
    # nothing left to move, no artillery, no attack, infantry does not exploit: next stage
    assert state.stage == "wehrmacht"
    assert state.phase == "movement"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_s3_1_seats_for_2_to_6_players_cover_every_action(players: int) -> None:
    rules = StalingradRules(players=players)
    seats = [s.name for s in rules.seats()]
    assert len(seats) == players
    state = ready(rules, seed=players)
    for _ in range(60):
        assert check_step(state, seats) == []
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 2])


def test_s3_1_front_seats_control_their_own_units_only() -> None:
    rules = StalingradRules(players=6)
    state = situation(
        rules, {"r-1ga": "1010", "r-64a-a": "0505", "w-xi-ak": "3030"}, phase="movement"
    )
    north = {a.args[0] for a in state.legal_actions("rkka-north") if a.kind == "move"}
    south = {a.args[0] for a in state.legal_actions("rkka-south") if a.kind == "move"}
    assert north == {"r-1ga"}
    assert south == {"r-64a-a"}
    assert not [a for a in state.legal_actions("rkka-air") if a.kind == "move"]
    assert state.legal_actions("wehrmacht-b") == []
    with pytest.raises(ValueError, match=r"S3\.1"):
        StalingradRules(players=7)
    assert set(SEATS) == {2, 3, 4, 5, 6}


# -- replacements (S4.1) ---------------------------------------------------------------------


def test_s4_1_two_points_costs_and_truck_hexes() -> None:
    data = static(ready(RULES))
    truck = data.tagged("truck:rkka")[0]
    state = situation(
        RULES,
        {"r-1ga": ("1010", "reduced"), "w-xi-ak": "3030"},
        turn=2,
        stage="replacements",
        phase="rkka",
    )
    remove(state, "r-21a-a")
    legal = {str(a) for a in state.legal_actions()}
    assert "restore r-1ga" in legal
    assert f"rebuild r-21a-a {truck} full" in legal
    assert f"rebuild r-21a-a {truck} reduced" in legal
    state.apply(f"rebuild r-21a-a {truck} full")  # 2 points: nothing left
    assert where(state, "r-21a-a") == truck
    assert step(state, "r-21a-a") == "full"
    assert state.stage != "replacements" or state.phase != "rkka"
    assert step(state, "r-1ga") == "reduced"


def test_s4_1_not_in_enemy_zoc_and_points_are_lost() -> None:
    data = static(ready(RULES))
    truck = data.tagged("truck:rkka")[0]
    near = data.neighbors[truck][0]
    state = situation(
        RULES,
        {"r-1ga": ("1010", "reduced"), "w-xi-ak": "1011", "w-li-n": near},
        turn=2,
        stage="replacements",
        phase="rkka",
    )
    remove(state, "r-21a-a")
    legal = {str(a) for a in state.legal_actions()}
    assert "restore r-1ga" not in legal  # in enemy ZOC
    assert not any(a.startswith(f"rebuild r-21a-a {truck}") for a in legal)  # truck in ZOC
    state.apply("end")
    assert state.get("game", "rp:rkka") is None  # unused points lost
    assert reinforce.REPLACEMENT_POINTS == 2


# -- reserves (S4.2) ---------------------------------------------------------------------------


def test_s4_2_reserves_arrive_on_turn_6_on_their_numbered_hexes() -> None:
    state = situation(
        RULES, {"r-1ga": "1010", "w-xi-ak": "3030"}, turn=5, stage="wehrmacht", phase="movement"
    )
    data = static(state)
    reserves = [u for u, i in data.ground.items() if i.arrives == 6]
    assert all(where(state, u) == "pool" for u in reserves)
    while state.turn < 6:
        state.apply("end")
    for u in reserves:
        info = data.ground[u]
        assert where(state, u) == data.start_hex(info.side, info.start)


def test_s4_2_an_occupied_reserve_hex_sends_the_unit_to_the_nearest_free_hex() -> None:
    data = static(ready(RULES))
    info = data.ground["r-1gsc"]
    home = data.start_hex(info.side, info.start)
    assert home is not None
    state = situation(
        RULES, {"w-xi-ak": home, "w-li-n": "3030"}, turn=5, stage="wehrmacht", phase="movement"
    )
    while state.turn < 6 or state.pending:
        if state.pending and state.pending[-1].kind == "reserve":
            unit = state.pending[-1].params[0]
            choices = state.legal_actions()
            assert all(a.kind == "place" and a.args[0] == unit for a in choices)
            state.apply(choices[0])
            continue
        state.apply("end")
    spot = where(state, "r-1gsc")
    assert spot not in (home, "pool")
    assert unit_at(state, home) == "w-xi-ak"
    assert spot not in data.zoc_of[home]  # not in the enemy ZOC
    assert data.distance(home, spot) == 2


# -- victory (S11) ------------------------------------------------------------------------------


def test_s11_1_encircled_is_a_connectivity_query() -> None:
    data = static(ready(RULES))
    city = sorted(data.city)[0]
    state = situation(RULES, {"w-li-n": city, "r-1ga": "1010"}, phase="movement")
    assert not victory.encircled(state)  # the steppe is open to the west
    assert data.tagged(victory.SUPPLY_TAG)


def test_s11_1_short_game_needs_the_city_and_the_ring() -> None:
    data = static(ready(RULES))
    city = sorted(data.city)
    # the whole 6th Army gone: encircled vacuously; an RKKA unit in the city wins
    state = situation(
        StalingradRules(length="short"), {"r-1ga": city[0], "w-rom-i": "0505"}, phase="movement"
    )
    assert victory.encircled(state)
    assert victory.rkka_in_city(state)
    assert victory.short_game_outcome(state).winner == "rkka"
    state = situation(
        StalingradRules(length="short"), {"r-1ga": "1010", "w-li-n": city[0]}, phase="movement"
    )
    assert victory.short_game_outcome(state).winner == "wehrmacht"


def ring_around(centre: str) -> dict[str, str]:
    """A 6th Army unit on ``centre`` and RKKA infantry on every hex of ring 2 around it
    (with their ZOC, a closed ring), as ``unit -> hex``."""
    data = static(ready(RULES))
    ring2 = sorted(h for h in data.disk(centre, 2) if data.distance(h, centre) == 2)
    rkka = sorted(
        u
        for u, i in data.ground.items()
        if i.side == "rkka" and i.arrives == 1 and i.arm == "infantry"
    )
    assert len(ring2) <= len(rkka)
    return {"w-li-n": centre, **dict(zip(rkka, ring2, strict=False))}


def test_s11_1_a_closed_ring_of_units_and_zoc_encircles() -> None:
    centre = "1515"
    units = ring_around(centre)
    state = situation(RULES, units, phase="movement")
    assert victory.encircled(state)
    # open the west half of the ring (supply sources are on the west edge): not encircled
    west = {u: h for u, h in units.items() if u != "w-li-n" and h[:2] >= centre[:2]}
    state = situation(RULES, {"w-li-n": centre, **west}, phase="movement")
    assert not victory.encircled(state)


def test_s11_1_the_reason_names_the_condition_that_failed() -> None:
    """S11.1 needs both the city and the ring: a game lost with the ring closed but no RKKA
    unit in Stalingrad says so (it used to read "the ring ... is not closed")."""
    units = ring_around("1515")
    state = situation(StalingradRules(length="short"), units, phase="movement")
    assert victory.encircled(state)
    assert not victory.rkka_in_city(state)
    outcome = victory.short_game_outcome(state)
    assert outcome.winner == "wehrmacht"
    assert outcome.reason == "S11.1: no RKKA ground unit is in Stalingrad"
    city = sorted(static(state).city)[0]
    state = situation(
        StalingradRules(length="short"), {"r-1ga": "1010", "w-li-n": city}, phase="movement"
    )
    assert victory.short_game_outcome(state).reason == (
        "S11.1: the ring around the 6th Army is not closed and no RKKA ground unit is in Stalingrad"
    )


def test_s11_1_only_6th_army_units_in_the_stalingrad_area_must_be_blocked() -> None:
    """Ruling S11.1 (the source: the 6th Army units "в Сталинграде"): a 6th Army unit
    rebuilt on a far truck hex (S4.1) does not open a closed ring; one inside the area
    but outside the ring does."""
    data = static(ready(RULES))
    centre = "1515"
    units = ring_around(centre)
    far_truck = max(
        data.tagged("truck:wehrmacht"), key=lambda h: min(data.distance(h, c) for c in data.city)
    )
    assert far_truck not in data.stalingrad_area
    assert centre in data.stalingrad_area
    state = situation(RULES, {**units, "w-li-s": far_truck}, phase="movement")
    assert victory.encircled(state)
    outside_ring = next(
        h
        for h in sorted(data.stalingrad_area & data.passable)
        if data.distance(h, centre) > 4 and h not in data.city
    )
    state = situation(RULES, {**units, "w-li-s": outside_ring}, phase="movement")
    assert not victory.encircled(state)


POCKET = ("2016", "2017")  # two adjacent hexes in the Stalingrad area (S11.1)


def test_s11_2_long_game_and_sudden_death() -> None:
    data = static(ready(RULES))
    assert all(h in data.stalingrad_area for h in POCKET)
    assert POCKET[1] in data.neighbors[POCKET[0]]
    contact = {"w-6pz": POCKET[0], "w-li-n": POCKET[1], "r-1ga": "3030"}
    state = situation(RULES, contact, turn=6, stage="wehrmacht", phase="movement")
    assert victory.relief_contact(state)
    assert victory.long_game_outcome(state).winner == "wehrmacht"
    rules = StalingradRules(sudden_death=True)
    state = situation(rules, contact, turn=6, stage="wehrmacht", phase="movement")
    while state.stage == "wehrmacht" and not state.is_terminal():
        state.apply("end")
    assert state.is_terminal()
    assert state.outcome is not None
    assert state.outcome.winner == "wehrmacht"
    assert state.turn == 6
    state = situation(
        RULES,
        {"w-6pz": POCKET[0], "w-li-n": "1030", "r-1ga": "3030"},
        turn=6,
        stage="wehrmacht",
        phase="movement",
    )
    assert victory.long_game_outcome(state).winner == "rkka"
    assert Action("end") in state.legal_actions()


def test_s11_2_a_6th_army_unit_rebuilt_on_a_far_truck_hex_is_no_contact() -> None:
    """Ruling S11.2 (Dec 2026): a destroyed 6th Army unit rebuilt (S4.1) on the truck hex
    next to the 23rd Panzer's start hex is outside the Stalingrad area: no contact."""
    data = static(ready(RULES))
    start = data.start_hex("wehrmacht", data.ground["w-23pz"].start)
    assert start is not None
    truck = next(t for t in data.tagged("truck:wehrmacht") if t in data.neighbors[start])
    assert truck not in data.stalingrad_area
    state = situation(
        RULES,
        {"w-23pz": start, "r-1ga": "3030"},
        turn=6,
        stage="replacements",
        phase="wehrmacht",
    )
    for _, unit in on_map(state):  # the turn-6 reserves arrived on the way (S4.2)
        if unit not in ("w-23pz", "r-1ga"):
            remove(state, unit)
    assert where(state, "w-23pz") == start
    remove(state, "w-li-n")
    state.apply(f"rebuild w-li-n {truck} reduced")
    assert where(state, "w-li-n") == truck
    assert "6th_army" in data.ground["w-li-n"].groups
    assert "relief_group" in data.ground["w-23pz"].groups
    assert not victory.relief_contact(state)
    assert victory.long_game_outcome(state).winner == "rkka"


def test_s11_2_contact_inside_the_area_counts_and_only_lvii_panzer_corps_is_the_relief() -> None:
    """S11.2: a relief unit next to a 6th Army unit in the area is contact; a XXXXVIII
    Panzer Corps unit (not Manstein's strike group, docs/stalingrad/oob.md) is not."""
    state = situation(
        RULES,
        {"w-23pz": POCKET[0], "w-li-n": POCKET[1], "r-1ga": "3030"},
        turn=6,
        stage="wehrmacht",
        phase="movement",
    )
    assert victory.relief_contact(state)
    state = situation(
        RULES,
        {"w-11pz": POCKET[0], "w-li-n": POCKET[1], "r-1ga": "3030"},
        turn=6,
        stage="wehrmacht",
        phase="movement",
    )
    assert not victory.relief_contact(state)
