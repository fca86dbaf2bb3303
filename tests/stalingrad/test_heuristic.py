"""The heuristic bot: full games without errors, determinism per seed, sensible choices."""

from __future__ import annotations

from hexwar.actions import END, Action
from hexwar.records import record_of
from hexwar_stalingrad import ground
from hexwar_stalingrad.bots import RandomBot
from hexwar_stalingrad.heuristic import HeuristicBot, cut_hexes, objectives, play
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.situations import situation

SHORT = StalingradRules(length="short")
LONG = StalingradRules(length="long")


def _bots(seed: int) -> dict[str, HeuristicBot]:
    return {"rkka": HeuristicBot(seed), "wehrmacht": HeuristicBot(seed + 1)}


def test_heuristic_plays_full_games_both_lengths_and_against_random() -> None:
    for rules, bots in (
        (SHORT, _bots(1)),
        (LONG, _bots(2)),
        (SHORT, {"rkka": HeuristicBot(3), "wehrmacht": RandomBot(3)}),
        (SHORT, {"rkka": RandomBot(4), "wehrmacht": HeuristicBot(4)}),
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
    state = situation(
        SHORT,
        {"r-1ga": ring[0], "r-26tc": ring[1], "r-21a-a": ring[2], "w-xi-ak": "2016"},
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
    state = situation(SHORT, {"r-21a-a": "2115", "w-xi-ak": "2016"})
    assert any(a.kind == "attack" for a in state.legal_actions())
    assert HeuristicBot(0)(state) == END


def test_heuristic_objectives_rkka_armour_cuts_the_6th_army_from_supply() -> None:
    state = LONG.new_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    goals = objectives(state, "rkka")
    data = LONG.data
    tanks = [u for u in goals if data.ground[u].arm == "tank"]
    cuts = cut_hexes(
        state,
        [
            lab
            for lab, u in state.table("at").items()
            if isinstance(u, str) and "6th_army" in data.ground[u].groups
        ],
    )
    assert tanks
    assert cuts
    assert all(goals[u] in cuts for u in tanks)
    relief = objectives(state, "wehrmacht")
    assert all(
        "relief_group" in data.ground[u].groups or "6th_army" in data.ground[u].groups
        for u in relief
    )


def test_heuristic_artillery_keeps_range_2() -> None:
    state = situation(SHORT, {"r-swf-kat": "1010", "w-xi-ak": "1014"}, phase="movement")
    move = HeuristicBot(0)(state)
    assert move.kind == "move"
    assert move.args[0] == "r-swf-kat"
    assert SHORT.data.distance(move.args[1], "1014") == 2
    assert Action("move", ("r-swf-kat", "1013")) != move  # never next to the enemy
