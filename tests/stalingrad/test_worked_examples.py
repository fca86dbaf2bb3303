"""The worked examples of the source, W1, W2 and W6-W10 (W3-W5 are air combat).

Each test sets up the exact situation with :func:`situation`, forces the die and checks
every consequence the example names.
"""

from __future__ import annotations

from hexwar.base.errors import NotLegalNow
from hexwar.engine.actions import Action
from hexwar.engine.state import State
from hexwar.testing import check_rejects
from hexwar_stalingrad import ground
from hexwar_stalingrad.board import static, step, unit_at, where
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation
from hexwar_stalingrad.static import load_static

RULES = StalingradRules()
TRENCH = "2016"  # a trench hex (S9.2 fortification) in open steppe
RING = ("2116", "2115", "2015", "1916", "2017", "2117")  # its neighbours, in direction order
OPEN = "1010"  # open steppe
ELSEWHERE = {"r-4cc": "0505", "w-rom-1cav": "0506"}  # a legal attack far away (keeps the phase)


def test_w1_odds_17_to_4_are_4_to_1() -> None:
    """W1 (S8.2): 7 + 6 + 4 = 17 against 4 → 17 ÷ 4 = 4.25 → 4:1, played through ``apply``."""
    state = situation(
        RULES,
        {"r-26tc": RING[0], "r-1tc": RING[1], "r-5ta-a": (RING[2], "reduced"), "w-li-n": TRENCH},
    )
    assert ground.attack_strength(state, ["r-26tc", "r-1tc", "r-5ta-a"]) == 17
    assert ground.defence_strength(state, "w-li-n") == 4
    attack = Action.parse("attack w-li-n r-1tc r-26tc r-5ta-a")
    assert attack in state.legal_actions()
    state.apply(attack)
    assert state.is_chance_node()
    assert state.pending[-1].params[:4] == ("attack", "w-li-n", "4:1", 0)


def _w2(die: int) -> State:
    state = situation(
        RULES, {"r-1ga": RING[0], "r-26tc": RING[1], "r-21a-a": RING[2], "w-xi-ak": TRENCH}
    )
    attack = Action.parse("attack w-xi-ak r-1ga r-21a-a r-26tc")
    assert attack in state.legal_actions()
    assert ground.attack_strength(state, attack.args[1:]) == 19  # 6 + 6 + 7
    assert ground.defence_strength(state, "w-xi-ak") == 6  # the trench adds nothing (S8.5)
    state.apply(attack)
    assert state.is_chance_node()
    assert state.pending[-1].params[:4] == ("attack", "w-xi-ak", "3:1", 0)  # 19:6 → 3:1
    state.apply(f"roll {die}")
    return state


def test_w2_die_4_defender_retreats_where_the_attacker_picks_and_one_attacker_advances() -> None:
    """W2, die 4 → DR (S8.4, S8.5): attacker picks the retreat hex, then who advances (one
    must)."""
    state = _w2(4)
    assert state.current_player() == "rkka"  # the attacker decides, out of turn order
    assert state.pending[-1].kind == "retreat"
    # only RING[4] is empty and out of the RKKA ZOC (RING[3] and RING[5] touch attackers)
    assert state.legal_actions() == [Action("retreat", (RING[4],))]
    state.apply(f"retreat {RING[4]}")
    assert where(state, "w-xi-ak") == RING[4]
    assert step(state, "w-xi-ak") == "full"
    assert state.pending[-1].kind == "advance"
    # one attacker must move in (S8.4 DR «тут же занимается»), the attacker choosing which
    assert {str(a) for a in state.legal_actions()} == {
        "advance r-1ga",
        "advance r-21a-a",
        "advance r-26tc",
    }
    state.apply("advance r-26tc")
    assert unit_at(state, TRENCH) == "r-26tc"
    assert unit_at(state, RING[1]) is None
    for u in ("r-1ga", "r-26tc", "r-21a-a"):
        assert step(state, u) == "full"
        assert state.get("attacked", u) is True  # S8.1: spent for this turn
    # nothing left to attack with: the phase ends by itself (S4), exploitation follows
    assert state.phase == "exploitation"
    assert state.current_player() == "rkka"


def test_w2_die_2_exchange_flips_the_defender_and_one_rkka_infantry() -> None:
    """W2, die 2 → EX (S8.4): the German unit and one RKKA *infantry* unit flip."""
    state = _w2(2)
    assert step(state, "w-xi-ak") == "reduced"
    assert where(state, "w-xi-ak") == TRENCH
    assert state.pending[-1].kind == "ex_loss"
    assert state.current_player() == "rkka"
    # same type as the defender (infantry): the tank is not a choice
    assert [str(a) for a in state.legal_actions()] == ["loss r-1ga", "loss r-21a-a"]
    state.apply("loss r-21a-a")
    assert step(state, "r-21a-a") == "reduced"
    assert step(state, "r-1ga") == "full"
    assert step(state, "r-26tc") == "full"
    assert not state.pending


def test_w6_air_strike_on_infantry_in_a_trench_takes_a_loss() -> None:
    """W6 (S9.3): a full 1-bomb air strike, die 4 → Lo; air ignores the fortification."""
    state = situation(RULES, {"w-xi-ak": TRENCH}, stage="wehrmacht", phase="movement")
    result = static(state).bombardment.resolve(1, roll=4)
    assert result.code == "Lo"
    assert ground.apply_bombardment(state, "w-xi-ak", result, from_air=True) == 1
    assert step(state, "w-xi-ak") == "reduced"
    # the same result from artillery spares the entrenched unit (S9.2, S9.3)
    assert ground.apply_bombardment(state, "w-xi-ak", result) == 0
    assert step(state, "w-xi-ak") == "reduced"


def _artillery_shot(unit: str, die: int, unit_step: str = "full") -> State:
    data = load_static()
    target = next(lab for lab in sorted(data.passable) if data.distance(OPEN, lab) == 2)
    assert OPEN not in data.fortified
    state = situation(RULES, {unit: (target, unit_step), "w-xi-ak": OPEN}, phase="artillery")
    shot = Action("bombard", (unit, "w-xi-ak"))
    assert shot in state.legal_actions()
    state.apply(shot)
    state.apply(f"roll {die}")
    return state


def test_w7_a19_bombards_infantry_in_the_open_die_4_flips_it() -> None:
    """W7 (S7.1, S7.2, S9.2): A-19 at full strength (1 bomb), die 4 → Lo: a flip."""
    assert ground.bombs(situation(RULES, {"r-swf-art": OPEN}, phase="movement"), "r-swf-art") == 1
    state = _artillery_shot("r-swf-art", 4)
    assert step(state, "w-xi-ak") == "reduced"
    assert where(state, "w-xi-ak") == OPEN
    assert state.get("fired", "r-swf-art") is True
    assert Action("bombard", ("r-swf-art", "w-xi-ak")) not in state.legal_actions()  # once


def test_w8_katyusha_same_target_and_die_destroys_the_full_infantry() -> None:
    """W8 (S7.2, ruling S1.7): the full Katyusha strikes with 2 bombs — double the A-19's 1,
    counted once — so die 4 → 2Lo: two losses, the full infantry is destroyed."""
    assert ground.bombs(situation(RULES, {"r-swf-kat": OPEN}, phase="movement"), "r-swf-kat") == 2
    state = _artillery_shot("r-swf-kat", 4)
    assert where(state, "w-xi-ak") == "dead"
    assert unit_at(state, OPEN) is None


def test_w8_a_reduced_katyusha_inflicts_one_loss() -> None:
    """W8 (ruling S1.7): a reduced Katyusha strikes with 1 bomb (the doubling counts once,
    so it is weaker than a full one): same target and die → Lo, one loss."""
    reduced = situation(RULES, {"r-swf-kat": (OPEN, "reduced")}, phase="movement")
    assert ground.bombs(reduced, "r-swf-kat") == 1
    state = _artillery_shot("r-swf-kat", 4, "reduced")
    assert step(state, "w-xi-ak") == "reduced"
    assert where(state, "w-xi-ak") == OPEN


def test_w9_artillery_attacked_in_close_combat_is_resolved_at_6_to_1() -> None:
    """W9 (S7.4): a 2-strength unit attacks 3-strength artillery: 6:1 all the same."""
    state = situation(RULES, {"r-62a-n": RING[0], "w-6a-art": TRENCH})
    assert ground.attack_odds(state, "w-6a-art", ["r-62a-n"])[0] == "6:1"
    state.apply("attack w-6a-art r-62a-n")
    decision = state.pending[-1]
    assert decision.params[:3] == ("attack", "w-6a-art", "6:1")
    state.apply("roll 2")  # 6:1, die 2 → DE
    assert where(state, "w-6a-art") == "dead"


def test_w10_odds_below_1_to_1_are_refused_and_above_6_to_1_count_as_6_to_1() -> None:
    """W10 (S8.2): 5 vs 6 is refused with a reason; 40 vs 4 counts as 6:1."""
    state = situation(RULES, {"r-8cc": RING[0], "w-xi-ak": TRENCH, **ELSEWHERE})
    assert state.phase == "attack"
    attack = Action.parse("attack w-xi-ak r-8cc")
    assert attack not in state.legal_actions()
    err = check_rejects(state, attack)
    assert isinstance(err, NotLegalNow)
    assert err.rule == "S8.2"
    assert "5:6" in str(err)
    assert "below 1:1" in str(err)
    six = {
        "r-26tc": RING[0],
        "r-4tc": RING[1],
        "r-5ta-a": RING[2],
        "r-5ta-b": RING[3],
        "r-1ga": RING[4],
        "r-21a-a": RING[5],
    }
    state = situation(RULES, {**six, "w-li-n": TRENCH})
    assert ground.attack_strength(state, six) == 40
    assert ground.defence_strength(state, "w-li-n") == 4
    big = Action("attack", ("w-li-n", *sorted(six)))
    assert big in state.legal_actions()
    state.apply(big)  # 40 ÷ 4 = 10 → capped at 6:1
    assert state.pending[-1].params[:4] == ("attack", "w-li-n", "6:1", 0)
