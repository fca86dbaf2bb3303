"""Ground movement (S6), artillery (S7) and ground attacks (S8) on the real map."""

from __future__ import annotations

from hexwar.engine.actions import Action
from hexwar.engine.state import State
from hexwar_stalingrad import ground
from hexwar_stalingrad.board import counters, static, step, unit_at, where
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation

RULES = StalingradRules()
TRENCH = "2016"
RING = ("2116", "2115", "2015", "1916", "2017", "2117")  # neighbours of TRENCH, in order


def moves(state: State, unit: str) -> set[str]:
    return {a.args[1] for a in state.legal_actions() if a.kind == "move" and a.args[0] == unit}


def die_for(state: State, column: str, code: str) -> int:
    """The die roll giving ``code`` in ``column`` of the scenario's CRT."""
    crt = static(state).crt
    return next(d for d in range(1, 7) if crt.result_at(column, d).code == code)


# -- movement (S6) ---------------------------------------------------------------------------


def test_s6_1_one_action_per_reachable_end_hex_within_the_allowance() -> None:
    state = situation(RULES, {"r-1ga": "1010"}, phase="movement")
    ends = moves(state, "r-1ga")
    acts = [a for a in state.legal_actions() if a.kind == "move"]
    assert len(acts) == len(ends)  # one action per end hex
    data = static(state)
    assert ends
    assert all(1 <= data.distance("1010", h) <= 3 for h in ends)
    assert "1010" not in ends


def test_s6_2_ends_only_in_empty_hexes_passes_friends_never_enemies() -> None:
    state = situation(
        RULES, {"r-1ga": "1010", "r-21a-a": "1011", "w-xi-ak": "1030"}, phase="movement"
    )
    assert "1011" not in moves(state, "r-1ga")  # friendly unit there
    assert "1012" in moves(state, "r-1ga")  # through the friend
    state = situation(RULES, {"r-1ga": "1010", "w-xi-ak": "1012"}, stage="rkka", phase="movement")
    assert "1012" not in moves(state, "r-1ga")


def test_s6_3_entering_enemy_zoc_stops_the_unit() -> None:
    state = situation(RULES, {"r-26tc": "1010", "w-xi-ak": "1012"}, phase="movement")
    ends = moves(state, "r-26tc")
    data = static(state)
    zoc = set(data.zoc_of["1012"])
    assert "1011" in ends
    assert "1011" in zoc
    # ...but a ZOC hex is never a step on the way: every end hex beyond the ZOC is reached
    # by a path avoiding it, so the hexes directly behind the enemy stay out of reach
    behind = [h for h in data.neighbors["1012"] if data.distance("1010", h) == 3]
    assert behind
    assert not (set(behind) - zoc) & ends - {h for h in ends if h not in zoc}
    assert all(
        h not in ends
        for h in behind
        if h in zoc and not any(n in ends and n not in zoc for n in data.neighbors[h])
    )


def test_s6_4_a_unit_starting_in_zoc_may_leave_but_stops_in_the_next_zoc_hex() -> None:
    state = situation(RULES, {"r-1ga": "1011", "w-xi-ak": "1012"}, phase="movement")
    data = static(state)
    zoc = set(data.zoc_of["1012"])
    ends = moves(state, "r-1ga")
    assert "1010" in ends
    assert any(data.distance("1011", h) == 3 for h in ends)
    # a ZOC hex next to the start is an end hex, never a hex passed through: no end hex is
    # reachable only through it
    assert "1111" in ends
    assert "1111" in zoc


def test_s6_unit_moves_once_per_phase() -> None:
    state = situation(RULES, {"r-1ga": "1010", "r-21a-a": "0505"}, phase="movement")
    state.apply("move r-1ga 1011")
    assert where(state, "r-1ga") == "1011"
    assert not moves(state, "r-1ga")
    assert moves(state, "r-21a-a")


def test_s6_5_exploitation_tanks_cavalry_mechanized_and_rkka_katyushas_only() -> None:
    units = {
        "r-1ga": "1010",
        "r-26tc": "0505",
        "r-8cc": "0510",
        "r-13tc": "1505",
        "r-swf-kat": "1515",
        "r-swf-art": "2005",
    }
    state = situation(RULES, units, phase="exploitation")
    movers = {a.args[0] for a in state.legal_actions() if a.kind == "move"}
    assert movers == {"r-26tc", "r-8cc", "r-13tc", "r-swf-kat"}
    units = {"w-xi-ak": "1010", "w-16pz": "0505", "w-3mot": "1505", "w-6a-art": "2005"}
    state = situation(RULES, units, stage="wehrmacht", phase="exploitation")
    movers = {a.args[0] for a in state.legal_actions() if a.kind == "move"}
    assert movers == {"w-16pz", "w-3mot"}  # no Wehrmacht infantry or artillery


def test_s6_5_a_unit_that_moved_may_move_again_in_exploitation() -> None:
    state = situation(RULES, {"r-26tc": "1010", "w-rom-1cav": "2030"}, phase="movement")
    state.apply("move r-26tc 1011")
    while state.phase != "exploitation":
        state.apply("end")
    assert moves(state, "r-26tc")


# -- artillery (S7) ---------------------------------------------------------------------------


def test_s7_1_range_is_exactly_two_and_once_per_turn_several_may_fire_in_sequence() -> None:
    data = static(situation(RULES, {"r-1ga": "1010"}, phase="movement"))
    two = sorted(h for h in data.disk("1012", 2) if data.distance(h, "1012") == 2)
    a, b = two[0], two[-1]
    far = next(h for h in data.disk("1012", 3) if data.distance(h, "1012") == 3)
    near = next(h for h in data.neighbors[a] if data.distance(h, "1012") == 1)
    units = {"r-swf-art": a, "r-df-art": b, "r-stf-art": far, "w-xi-ak": "1012", "w-li-n": near}
    state = situation(RULES, units, phase="artillery")
    shots = {(x.args[0], x.args[1]) for x in state.legal_actions() if x.kind == "bombard"}
    assert ("r-swf-art", "w-xi-ak") in shots
    assert ("r-df-art", "w-xi-ak") in shots
    assert ("r-stf-art", "w-xi-ak") not in shots  # three hexes: out of range
    assert ("r-swf-art", "w-li-n") not in shots  # adjacent: not exactly two
    state.apply("bombard r-swf-art w-xi-ak")
    state.apply("roll 1")
    after = {(x.args[0], x.args[1]) for x in state.legal_actions() if x.kind == "bombard"}
    assert ("r-df-art", "w-xi-ak") in after  # another one fires at the same target
    assert all(s[0] != "r-swf-art" for s in after)  # once per turn


def test_s9_2_lo_spares_tanks() -> None:
    state = situation(RULES, {"w-16pz": "1010"}, stage="wehrmacht", phase="movement")
    lo = static(state).bombardment.resolve(1, roll=4)
    assert lo.code == "Lo"
    assert ground.apply_bombardment(state, "w-16pz", lo) == 0
    assert step(state, "w-16pz") == "full"


def test_s7_3_artillery_covers_adjacent_defenders_and_s7_4_never_attacks() -> None:
    state = situation(
        RULES, {"w-xi-ak": TRENCH, "w-6a-art": RING[4], "r-4mc": RING[0], "r-swf-art": RING[1]}
    )
    assert ground.defence_strength(state, "w-xi-ak") == 6 + 3
    attacks = [a for a in state.legal_actions() if a.kind == "attack"]
    assert attacks
    assert all("r-swf-art" not in a.args[1:] for a in attacks)


# -- attacks (S8) ------------------------------------------------------------------------------


def test_s8_1_attack_once_per_turn() -> None:
    state = situation(RULES, {"r-26tc": RING[0], "w-li-n": TRENCH, "w-rom-i": RING[1]})
    assert Action.parse("attack w-rom-i r-26tc") in state.legal_actions()
    state.apply("attack w-li-n r-26tc")
    state.apply(f"roll {die_for(state, '1:1', 'NE')}")
    assert all("r-26tc" not in a.args for a in state.legal_actions() if a.kind == "attack")


def test_s8_4_al_the_defender_chooses_which_attacker_loses() -> None:
    state = situation(RULES, {"r-1ga": RING[0], "r-21a-a": RING[1], "w-xi-ak": TRENCH})
    state.apply("attack w-xi-ak r-1ga r-21a-a")  # 12:6 → 2:1
    state.apply(f"roll {die_for(state, '2:1', 'AL')}")
    assert state.current_player() == "wehrmacht"
    assert state.pending[-1].kind == "al_loss"
    state.apply("loss r-21a-a")
    assert step(state, "r-21a-a") == "reduced"
    assert step(state, "r-1ga") == "full"
    assert where(state, "r-21a-a") == RING[1]  # AL does not retreat


def test_s8_4_de_destroys_and_the_attacker_may_decline_to_advance() -> None:
    """S8.4 DE: the source names no advance; ours is optional (``advance none``)."""
    state = situation(RULES, {"r-4mc": RING[0], "w-li-n": (TRENCH, "reduced")})
    state.apply("attack w-li-n r-4mc")  # 10:2 → 5:1
    state.apply(f"roll {die_for(state, '5:1', 'DE')}")
    assert where(state, "w-li-n") == "dead"
    assert state.pending[-1].kind == "advance"
    assert [str(a) for a in state.legal_actions()] == ["advance none", "advance r-4mc"]
    state.apply("advance none")
    assert unit_at(state, TRENCH) is None
    assert where(state, "r-4mc") == RING[0]


def test_s8_4_surrender_when_no_retreat_hex_and_an_attacker_must_advance() -> None:
    """S8.4 DR: a defender with no retreat hex surrenders; the vacated hex is occupied at
    once by an attacker of the attacker's choice («тут же занимается»): no ``none``."""
    units = {"r-1ga": RING[0], "r-21a-a": RING[2], "r-26tc": RING[4], "w-li-n": TRENCH}
    state = situation(RULES, units)  # every neighbour empty but in RKKA ZOC
    state.apply("attack w-li-n r-1ga r-21a-a r-26tc")  # 19:4 → 4:1
    state.apply(f"roll {die_for(state, '4:1', 'DR')}")
    assert where(state, "w-li-n") == "dead"  # surrendered
    assert state.pending[-1].kind == "advance"
    assert state.current_player() == "rkka"
    assert [str(a) for a in state.legal_actions()] == [
        "advance r-1ga",
        "advance r-21a-a",
        "advance r-26tc",
    ]
    state.apply("advance r-21a-a")
    assert unit_at(state, TRENCH) == "r-21a-a"


def test_s8_4_dr_a_single_attacker_advances_at_once() -> None:
    """S8.4 DR: the advance is obligatory, so a lone attacker moves in without a decision."""
    state = situation(RULES, {"r-26tc": RING[0], "w-li-n": (TRENCH, "reduced")})
    state.apply("attack w-li-n r-26tc")  # 7:2 → 3:1
    state.apply(f"roll {die_for(state, '3:1', 'DR')}")
    assert state.pending[-1].kind == "retreat"
    state.apply(state.legal_actions()[0])
    assert not state.pending
    assert unit_at(state, TRENCH) == "r-26tc"
    assert unit_at(state, RING[0]) is None


def test_s8_4_dr_no_advance_when_no_attacker_may_enter() -> None:
    """S8.4 DR: no advance only when no attacker may legally enter the vacated hex — here a
    terrain effect (as a ``terrain_cost`` card puts in force) closes steppe to motor units."""
    state = situation(RULES, {"r-26tc": RING[0], "w-li-n": (TRENCH, "reduced")})
    data = static(state)
    assert data.ground["r-26tc"].movement_class == "motorized"
    assert data.game_map.terrain(data.cell(TRENCH)) == "steppe"
    params = {"terrain": "steppe", "cost": "impassable", "movement_class": "motorized"}
    state.add_effect("terrain_cost", params, source="test")
    assert not ground.may_advance(state, "r-26tc", TRENCH)
    state.apply("attack w-li-n r-26tc")
    state.apply(f"roll {die_for(state, '3:1', 'DR')}")
    state.apply(state.legal_actions()[0])  # the (foot) defender retreats
    assert where(state, "w-li-n") != TRENCH
    assert not state.pending
    assert unit_at(state, TRENCH) is None
    assert where(state, "r-26tc") == RING[0]


def test_s8_4_drl_flips_then_retreats_and_the_advance_is_optional() -> None:
    """S8.4 DRL: loss, then retreat; the source's DRL text names no advance: optional."""
    state = situation(
        RULES, {"r-1ga": RING[0], "r-26tc": RING[1], "r-21a-a": RING[2], "w-xi-ak": TRENCH}
    )
    state.apply("attack w-xi-ak r-1ga r-21a-a r-26tc")
    state.apply(f"roll {die_for(state, '3:1', 'DRL')}")
    assert step(state, "w-xi-ak") == "reduced"
    assert state.pending[-1].kind == "retreat"
    state.apply(state.legal_actions()[0])
    assert state.pending[-1].kind == "advance"
    assert [str(a) for a in state.legal_actions()] == [
        "advance none",
        "advance r-1ga",
        "advance r-21a-a",
        "advance r-26tc",
    ]


# -- EX (S8.4 and its ruling): the attacker loses at least the defender's strength ----------

EX_DIE = 2  # die 2 → EX at 1:1 (S9.1a) ... 4:1


class _TripleAttack(StalingradRules):
    """A variant whose attackers fight at triple strength (a static ``combat_strength``
    hook), so that a weak group can attack and then run out of steps to lose."""

    def hook_combat_strength(self, state: State, value: int, **context: object) -> int:
        return value * 3 if context.get("role") == "attack" else value


def _ex(
    rules: StalingradRules,
    units: dict[str, str | tuple[str, str]],
    attack: str,
    column: str = "1:1",
) -> State:
    state = situation(rules, units)
    assert static(state).crt.result_at(column, EX_DIE).code == "EX"
    state.apply(attack)
    assert state.pending[-1].params[2] == column
    state.apply(f"roll {EX_DIE}")
    return state


def _choices(state: State) -> list[str]:
    assert state.pending[-1].kind == "ex_loss"
    return [str(a) for a in state.legal_actions()]


def test_s8_4_ex_a_6_to_3_loss_is_not_paid_by_one_step_of_a_2_1_unit() -> None:
    """Ruling S8.4 EX: the defender loses 6 − 3 = 3; each step of a 2/1 unit loses 1, so
    the attacker keeps choosing infantry steps (same type) until it has lost 3."""
    units = {"r-62a-n": RING[0], "r-87rd": RING[1], "r-4cc": RING[2], "w-xi-ak": TRENCH}
    state = _ex(RULES, units, "attack w-xi-ak r-4cc r-62a-n r-87rd")  # 7:6 → 1:1
    assert step(state, "w-xi-ak") == "reduced"
    assert counters(state).loss(state, "r-62a-n").printed("strength") == 1
    assert _choices(state) == ["loss r-62a-n", "loss r-87rd"]  # the cavalry is no choice
    state.apply("loss r-62a-n")  # lost 1 of 3
    assert _choices(state) == ["loss r-62a-n", "loss r-87rd"]
    state.apply("loss r-87rd")  # lost 2 of 3
    assert _choices(state) == ["loss r-62a-n", "loss r-87rd"]
    state.apply("loss r-62a-n")  # removal of a reduced 2/1: 1 more → 3
    assert not state.pending
    assert where(state, "r-62a-n") == "dead"
    assert step(state, "r-87rd") == "reduced"
    assert step(state, "r-4cc") == "full"


def test_s8_4_ex_two_steps_when_one_is_not_enough() -> None:
    """Ruling S8.4 EX: a 4/2 infantry flipping loses 2 < 3: a second step follows (the only
    infantry again, removed: 2 more), taken at once as the only allowed choice."""
    units = {"r-51a-b": RING[0], "r-4cc": RING[1], "w-xi-ak": TRENCH}
    state = _ex(RULES, units, "attack w-xi-ak r-4cc r-51a-b")  # 7:6 → 1:1
    assert not state.pending  # both steps had a single choice
    assert step(state, "w-xi-ak") == "reduced"
    assert where(state, "r-51a-b") == "dead"
    assert step(state, "r-4cc") == "full"


def test_s8_4_ex_one_step_is_enough_when_it_loses_as_much() -> None:
    """Ruling S8.4 EX: a 6/3 infantry flipping loses 3 ≥ 3: the exchange ends (W2)."""
    units = {"r-1ga": RING[0], "w-xi-ak": TRENCH}
    state = _ex(RULES, units, "attack w-xi-ak r-1ga")  # 6:6 → 1:1
    assert not state.pending
    assert step(state, "r-1ga") == "reduced"


def test_s8_4_ex_same_type_first_then_any_attacker() -> None:
    """Ruling S8.4 EX: the infantry pays while it lasts (1 + 1), then the tank (3)."""
    units = {"r-62a-n": RING[0], "r-26tc": RING[1], "w-xi-ak": TRENCH}
    state = _ex(RULES, units, "attack w-xi-ak r-26tc r-62a-n")  # 9:6 → 1:1
    assert not state.pending  # one allowed choice at every step
    assert where(state, "r-62a-n") == "dead"
    assert step(state, "r-26tc") == "reduced"


def test_s8_4_ex_ends_when_every_attacker_is_gone() -> None:
    """Ruling S8.4 EX: a lone 2/1 (at triple strength in a variant) owes 3 but has only
    two steps (1 + 1): it is destroyed and the exchange ends."""
    rules = _TripleAttack()
    state = _ex(rules, {"r-62a-n": RING[0], "w-xi-ak": TRENCH}, "attack w-xi-ak r-62a-n")
    assert not state.pending
    assert step(state, "w-xi-ak") == "reduced"
    assert where(state, "r-62a-n") == "dead"


def test_s8_4_ex_destroyed_defender_then_the_optional_advance() -> None:
    """EX with the defender destroyed: once the attacker has paid, the optional advance."""
    units = {"r-1ga": RING[0], "w-xi-ak": (TRENCH, "reduced")}
    state = _ex(RULES, units, "attack w-xi-ak r-1ga", "2:1")  # 6:3 → 2:1
    assert where(state, "w-xi-ak") == "dead"  # lost its remaining 3
    assert step(state, "r-1ga") == "reduced"  # lost 6 − 3 = 3: paid
    assert state.pending[-1].kind == "advance"
    assert [str(a) for a in state.legal_actions()] == ["advance none", "advance r-1ga"]
