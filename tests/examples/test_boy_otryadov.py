"""«Бой отрядов» (1930) on the hexwar core: the example's rules, cited by seed section."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from examples.boy_otryadov.bot import Bot, play
from examples.boy_otryadov.data import DATA, game_data_from_dict, load_game_data
from examples.boy_otryadov.rules import BoyOtryadov, fire_result, side_of

from hexwar.base.errors import DataError
from hexwar.board.terrain import read_data_file
from hexwar.engine.actions import END, Action
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import HIDDEN, State
from hexwar.testing import check_random_games, check_rejects, outputs_under_hash_seeds
from hexwar.testing.policies import Weighted

ROOT = Path(__file__).resolve().parents[2]
RULES = BoyOtryadov()


def position(
    figures: dict[str, tuple[str, str]], scenario: str = "skirmish", gas: bool = False
) -> State:
    """A state at turn 1, blue to act, holding exactly ``figures`` (id -> (arm, label))."""
    state = RULES.new_state(scenario, {"gas": True} if gas else {})
    while state.pending:
        state.apply(state.legal_actions()[0])
    for uid in RULES.pieces.pieces_of(state):
        RULES.pieces.remove(state, uid)
    for uid, (arm, label) in figures.items():
        RULES.pieces.place(state, uid, RULES.board.cell_at(label), side_of(uid))
        state.put("arm", uid, arm)
    return state


def moves(state: State, uid: str) -> set[str]:
    return {a.args[1] for a in state.legal_actions() if a.kind == "move" and a.args[0] == uid}


def fires(state: State, uid: str) -> set[str]:
    """Fire at figures (squares held); fire at empty squares is barrage (V)."""
    held = {RULES.board.label(c) for c in RULES.pieces.positions(state)}
    return {a.args[1] for a in state.legal_actions()
            if a.kind == "fire" and a.args[0] == uid and a.args[1] in held}  # fmt: skip


def end_turn(state: State, uid: str) -> None:
    """X.4: move ``uid`` (a figure move is obligatory), then end the side's turn (unless
    it ended by itself, with nothing left to do, or the game is over)."""
    side = state.current_player()
    assert END not in state.legal_actions()
    state.apply(f"move {uid} {min(moves(state, uid))}")
    if not state.is_terminal() and state.stage == side:
        state.apply(END)
    assert state.is_terminal() or state.stage != side


# -- I: the map and the data ----------------------------------------------------------------


def test_map_has_the_seed_square_counts_i() -> None:
    board = RULES.board
    field = [c for c in board.map if c not in board.zone]
    counts = Counter(board.terrain(c) for c in field)
    assert len(board.map) == 210
    assert len(field) == 150
    assert (counts["strong"], counts["weak"], counts["masking"]) == (23, 88, 19)
    assert counts["marsh"] + counts["lake"] == 20
    assert {board.terrain(c) for c in board.zone} == {"weak"}  # 30 white squares each
    assert board.label(board.rear["red"]) == "К-IIIr"
    assert board.terrain(board.cell_at("К2")) != "weak"


def test_bad_rules_file_names_the_file_and_entry(tmp_path: Path) -> None:
    raw, _ = read_data_file(DATA / "rules.toml")
    raw["arms"]["tank"]["movement"] = "hover"
    with pytest.raises(DataError, match=r"rules\.toml: arms\.tank\.movement: unknown movement"):
        game_data_from_dict(raw, load_game_data().game_map, str(tmp_path / "rules.toml"))
    raw, _ = read_data_file(DATA / "rules.toml")
    raw["effects"][0]["result"] = "vaporise"
    with pytest.raises(DataError, match=r"effects\[0\]"):
        game_data_from_dict(raw, load_game_data().game_map, "rules.toml")
    raw, _ = read_data_file(DATA / "rules.toml")
    raw["rules"]["charge_instead"] = ["dismount", "destroy"]  # VIII.б: not a destruction
    with pytest.raises(DataError, match=r"rules\.charge_instead\[1\]"):
        game_data_from_dict(raw, load_game_data().game_map, "rules.toml")


# -- III, IV, IX, XV: movement per arm ------------------------------------------------------


def test_mounted_cavalry_goes_round_blue_square_2k_iii() -> None:
    state = position({"b01": ("cavalry", "К1"), "r01": ("rifle", "А1")})
    reach = moves(state, "b01")
    assert "К4" in reach
    assert "К2" not in reach
    assert "К5" not in reach  # IV: three squares at most
    state.apply("dismount b01")  # IV note: dismounting is the figure's move
    assert moves(state, "b01") == set()


def test_dismounted_figures_move_one_square_iv() -> None:
    state = position({"b01": ("cavalry_dismounted", "Д8"), "r01": ("rifle", "А1")})
    # Д7, Е7, Д9 are blue; Д8 is green, so only forward (VI.3b): Г8, Г9, Е8, Е9 are not
    assert moves(state, "b01") == {"Г7"}


def test_armoured_car_follows_the_road_iii_b() -> None:
    state = position({"b01": ("armoured_car", "И4"), "r01": ("rifle", "А1")})
    reach = moves(state, "b01")
    assert "З7" in reach  # III b: 4И, 4К, 5К, 6К, 7К, 7И, 7З — six road squares
    assert "И8" not in reach  # a seventh road square is beyond its move
    assert "З4" not in reach
    assert "И5" not in reach


def test_enemies_block_friends_do_not_iii() -> None:
    state = position(
        {"b01": ("armoured_car", "И4"), "b02": ("rifle", "К5"), "r01": ("rifle", "К6")}
    )
    reach = moves(state, "b01")  # through the friend on К5 (full), never into the enemy on К6
    assert reach == {"К4", "И3", "И2", "И1", "И-Ir", "И-IIr", "И-IIIr"}


def test_tank_moves_three_anywhere_but_blue_iv() -> None:
    state = position({"b01": ("tank", "Б10"), "r01": ("rifle", "К1")})
    reach = moves(state, "b01")
    assert "Б7" in reach
    assert "Б13" in reach
    assert "Б6" not in reach
    assert not {"Б6", "В6", "В5", "Б5"} & reach  # no blue squares


def test_armoured_train_rail_only_and_cut_by_enemy_foot_xv() -> None:
    state = position({"b01": ("armoured_train", "А-Ib"), "r01": ("tank", "Б10")})
    reach = moves(state, "b01")
    assert reach
    assert all(label.startswith("А") for label in reach)
    assert "А1" in reach  # a tank does not cut the line
    state = position({"b01": ("armoured_train", "А-Ib"), "r01": ("rifle", "Б10")})
    reach = moves(state, "b01")
    assert "А12" in reach
    assert "А11" not in reach
    assert "А1" not in reach


def test_guns_stay_behind_their_forward_figures_ix() -> None:
    state = position({"b01": ("field_gun", "Б14"), "b02": ("rifle", "Д14"), "r01": ("rifle", "К1")})
    assert moves(state, "b01") == {"А14", "А15", "Б15", "В14", "В15"}  # not to row 13


def test_attack_strip_lets_two_figures_act_per_turn_x4() -> None:
    state = position(
        {"b01": ("rifle", "Б11"), "b02": ("rifle", "Г11"), "b03": ("rifle", "Е11"),
         "b04": ("rifle", "Д14"), "r01": ("rifle", "К1")}
    )  # fmt: skip
    state.apply("move b01 Б10")
    state.apply("move b02 Г10")
    assert moves(state, "b03") == set()  # a third figure in the attack strip may not move
    assert moves(state, "b04")  # the approach strip is free


def test_a_figure_move_is_obligatory_x4() -> None:
    state = position({"b01": ("rifle", "Г13"), "b02": ("rifle", "А15"), "r01": ("rifle", "Г11")})
    assert END not in state.legal_actions()
    state.apply("fire b01 Г11")
    assert END not in state.legal_actions()  # fire alone is not the turn's figure move
    state.apply(f"move b02 {min(moves(state, 'b02'))}")
    assert END in state.legal_actions()
    state.apply(END)  # one fire pins r01 (VI.2): red has no figure that can move
    assert state.current_player() == "red"
    assert moves(state, "r01") == set()
    assert END in state.legal_actions()


# -- V, VI, IX: fire ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("square", "n", "expected"),
    [("weak", 1, "pin"), ("weak", 2, "retreat"), ("weak", 3, "destroy"),
     ("strong", 1, None), ("strong", 2, "pin"), ("strong", 3, "retreat"),
     ("strong", 4, "destroy"), ("masking", 4, "destroy")],
)  # fmt: skip
def test_fire_on_foot_by_square_class_vi(square: str, n: int, expected: str | None) -> None:
    data = load_game_data()
    rifle = data.arms["rifle"]
    assert fire_result(data.effects, rifle, square, [(rifle, 2)] * n) == expected


def test_fire_on_horse_armour_tanks_and_guns_v_vi_ix() -> None:
    data = load_game_data()
    a, gun = data.arms, data.arms["field_gun"]
    rifle = a["rifle"]

    def result(target: str, shots: list[tuple[str, int]], square: str = "weak") -> str | None:
        return fire_result(data.effects, a[target], square, [(a[s], d) for s, d in shots])

    assert result("cavalry", [("rifle", 2)]) == "dismount"
    assert result("cavalry", [("field_gun", 6), ("rifle", 2)]) == "retreat"
    assert result("cavalry", [("field_gun", 6), ("rifle", 2), ("hmg", 3)]) == "destroy"
    assert result("cavalry", [("field_gun", 2)]) == "destroy"  # direct fire at 800 m
    assert result("armoured_car", [("rifle", 1)] * 3) is None
    assert result("armoured_car", [("field_gun", 5), ("hmg", 1)]) == "retreat"
    assert result("tank", [("hmg", 1)] * 5) is None  # V g: small arms do not hurt tanks
    assert result("tank", [("field_gun", 6)]) is None
    assert result("tank", [("field_gun", 4)]) == "retreat"
    assert result("tank", [("field_gun", 2)]) == "destroy"
    assert result("field_gun", [("field_gun", 8)]) == "retreat"
    assert result("field_gun", [("field_gun", 8)] * 2) == "neutralise"
    assert result("field_gun", [("field_gun", 8)] * 3) == "destroy"
    assert fire_result(data.effects, gun, "weak", [(rifle, 2)] * 3) == "destroy"


def test_ranges_lines_of_fire_and_green_squares_v() -> None:
    state = position(
        {"b01": ("rifle", "В13"), "b02": ("hmg", "Б10"), "b03": ("field_gun", "Г15"),
         "r01": ("rifle", "В11"), "r02": ("rifle", "Б8"), "r03": ("rifle", "В10")}
    )  # fmt: skip
    terrain = {
        lb: RULES.board.terrain(RULES.board.cell_at(lb)) for lb in ("В12", "Б10", "Б9", "В10")
    }
    assert terrain == {"В12": "strong", "Б10": "strong", "Б9": "strong", "В10": "masking"}
    assert fires(state, "b01") == set()  # V a: strong В12 blocks the squad; the rest is too far
    assert fires(state, "b02") == {"В11", "Б8"}  # V b: from strong Б10 over strong Б9; not green
    assert fires(state, "b03") == {"В11", "Б8", "В10"}  # V c: guns over everything, into green


def test_three_fires_destroy_a_figure_on_a_weak_square_vi2() -> None:
    state = position(
        {"b01": ("rifle", "Г13"), "b02": ("rifle", "В12"), "b03": ("hmg", "В13"),
         "b04": ("rifle", "А15"), "r01": ("rifle", "Г11"), "r02": ("rifle", "К1")}
    )  # fmt: skip
    for uid in ("b01", "b02"):
        state.apply(f"fire {uid} Г11")
    assert END not in state.legal_actions()  # X.4: a figure move is obligatory
    state.apply(f"move b04 {min(moves(state, 'b04'))}")
    snapshot = state.clone()
    snapshot.apply(END)  # two fires: the red squad must fall back (red decides where)
    assert snapshot.pending[-1].kind == "retreat"
    assert snapshot.current_player() == "red"
    assert {a.args[1] for a in snapshot.legal_actions()} == {"В10", "Г10", "Д10"}
    state.apply("fire b03 Г11")
    state.apply(END)
    assert "r01" not in state.table("pieces")


def test_pinned_figure_may_fire_but_not_move_vi() -> None:
    state = position(
        {"b01": ("rifle", "Г13"), "b02": ("rifle", "А15"), "r01": ("rifle", "Г11"),
         "r02": ("rifle", "К1")}
    )  # fmt: skip
    state.apply("fire b01 Г11")
    end_turn(state, "b02")  # one fire on a weak square: fire only (VI.2)
    assert state.current_player() == "red"
    assert moves(state, "r01") == set()
    assert fires(state, "r01") == {"Г13"}
    end_turn(state, "r02")
    end_turn(state, "b02")  # red's next turn: the pin has lapsed
    assert state.current_player() == "red"
    assert moves(state, "r01")


def test_two_guns_neutralise_a_gun_for_three_turns_ix() -> None:
    state = position(
        {"b01": ("field_gun", "Г15"), "b02": ("field_gun", "В15"), "b03": ("rifle", "А15"),
         "r01": ("field_gun", "Г8"), "r02": ("rifle", "К1")}
    )  # fmt: skip
    state.apply("fire b01 Г8")
    state.apply("fire b02 Г8")
    end_turn(state, "b03")
    until = 1 + RULES.p["neutralised_turns"] + 1  # a timed marker: lapses by itself
    assert state.expires("neutral", "r01") == until
    while state.turn < until:
        assert state.current_player() == "blue" or not moves(state, "r01") | fires(state, "r01")
        end_turn(state, "b03" if state.current_player() == "blue" else "r02")
    assert state.get("neutral", "r01") is None
    assert "r01" in state.table("pieces")  # neutralised, not destroyed


def test_assault_takes_a_weak_square_under_fire_viii() -> None:
    state = position(
        {"b01": ("rifle", "Г13"), "b02": ("rifle", "Д12"), "r01": ("rifle", "Г11"),
         "r02": ("rifle", "К1")}
    )  # fmt: skip
    assert "Г11" not in moves(state, "b02")
    state.apply("fire b01 Г11")
    state.apply("move b02 Г11")
    assert "r01" not in state.table("pieces")


# -- X.2: hidden set-up; X.1 blue first ------------------------------------------------------


def test_set_up_is_hidden_until_the_screens_are_lifted_x2() -> None:
    state = RULES.new_state("skirmish")
    assert state.current_player() == "blue"  # X.1
    while state.current_player() == "blue":
        state.apply(Bot(3).choose(state))
    red_view, blue_view = state.observation("red"), state.observation("blue")
    blue_ids = [k for k in state.table("pieces") if k.startswith("b")]
    assert blue_ids
    assert all(red_view["tables"]["pieces"][k] == HIDDEN for k in blue_ids)
    assert set(red_view["history"]) == {HIDDEN}
    assert all(blue_view["tables"]["pieces"][k] != HIDDEN for k in blue_ids)
    while state.pending:
        state.apply(Bot(4).choose(state))
    red_view = state.observation("red")
    assert all(red_view["tables"]["pieces"][k] != HIDDEN for k in blue_ids)  # X.3
    assert state.turn == 1
    assert state.current_player() == "blue"


def test_set_up_limits_per_row_x2() -> None:
    state = RULES.new_state("skirmish")
    seen: dict[str, set[str]] = {}
    while state.pending:
        legal = state.legal_actions()
        arm = str(state.get("arm", str(state.pending[-1].params[0])))
        seen.setdefault(arm, set()).update(a.args[1] for a in legal)
        state.apply(legal[-1])
    assert all(label.split("-")[1][:-1] == "III" for label in seen["field_gun"] | seen["tank"])
    assert seen["armoured_train"] == {"А-Ib", "А-IIb", "А-IIIb", "А-Ir", "А-IIr", "А-IIIr"}
    for side in ("blue", "red"):
        units = RULES.units(state, side)
        rows = Counter(RULES.board.roman[c] for _, c in units.values())
        cars = sum(a == "armoured_car" and RULES.board.roman[c] == "I" for a, c in units.values())
        assert rows["I"] - cars <= 2
        assert rows["II"] <= len(units) // 2
        assert max(Counter(c for _, c in units.values()).values()) <= 2


# -- XIII: the raid; X: the end -------------------------------------------------------------


def test_raid_on_k_iii_trades_the_raider_for_two_figures_xiii() -> None:
    state = position(
        {"b01": ("rifle", "И-IIIr"), "b02": ("rifle", "А15"),
         "r01": ("rifle", "А1"), "r02": ("hmg", "Б1"), "r03": ("field_gun", "В1")}
    )  # fmt: skip
    state.apply("move b01 К-IIIr")
    assert "b01" not in state.table("pieces")
    assert state.current_player() == "blue"
    assert state.pending[-1].kind == "raid"
    state.apply("remove r03")
    state.apply("remove r02")
    assert sorted(RULES.units(state, "red")) == ["r01"]
    assert not state.pending


def test_tanks_do_not_raid_xiii() -> None:
    state = position({"b01": ("tank", "И-IIr"), "r01": ("rifle", "А1"), "r02": ("rifle", "Б1")})
    state.apply("move b01 К-IIIr")
    assert "b01" in state.table("pieces")
    assert not state.pending


def test_destroying_every_figure_wins_x() -> None:
    state = position({"b01": ("tank", "В13"), "r01": ("armoured_car", "Г12")}, "company")
    state.apply("fire b01 Г12")
    state.apply("move b01 Г12")  # VIII b: tanks assault any open square under fire
    assert state.outcome is not None
    assert state.outcome.winner == "blue"
    assert "destroyed" in state.outcome.reason


@pytest.mark.parametrize(("red_left", "winner"), [(2, "blue"), (8, None)])
def test_withdrawal_into_the_neutral_zone_x(red_left: int, winner: str | None) -> None:
    figures = {
        f"r{i:02d}": ("rifle", f"{'АБВГДЕЖЗИК'[i % 10]}-II{'I' * (i // 10)}r")
        for i in range(red_left)
    }
    state = position({"b01": ("rifle", "А12"), **figures})  # skirmish: 8 figures a side
    while not state.is_terminal():  # red moves only inside its zone (X.4)
        end_turn(state, "b01" if state.current_player() == "blue" else "r00")
    assert state.turn == 3  # X: withdrawal counts from turn 3
    assert state.outcome is not None
    assert state.outcome.winner == winner
    assert ("success" if winner else "draw") in state.outcome.reason


def test_the_search_evaluation_scores_losses_and_contact_x() -> None:
    """X: the losses decide; before any loss, having the enemy in range counts."""
    ev = RULES.evaluation()
    far = position({"b01": ("field_gun", "Г15"), "r01": ("rifle", "Г1")})
    near = position({"b01": ("field_gun", "Г10"), "r01": ("rifle", "Г1")})  # range 9 (V)
    behind = position({"b01": ("field_gun", "Г10"), "r01": ("rifle", "Г1"), "r02": ("rifle", "Г2")})
    for state in (far, near, behind):  # what one side gains the other loses
        assert ev.position_value(state, "blue") + ev.position_value(state, "red") == 1.0
    assert 0.5 < ev.position_value(far, "blue") < ev.position_value(near, "blue")
    assert ev.position_value(behind, "blue") < 0.5  # a figure fewer lost outweighs the reach
    start = RULES.new_state("skirmish")
    assert ev.position_value(start, "blue") == 0.5  # X.2: the set-up is hidden


def test_illegal_actions_are_refused_with_the_rule() -> None:
    state = position({"b01": ("rifle", "В13"), "r01": ("rifle", "В11")})
    err = check_rejects(state, Action.parse("move b01 В10"))
    assert err.rule == "III, IV, VI.3b, VIII, X.4"


# -- the whole game ------------------------------------------------------------------------


class CountingAssaults:
    """The kit's default policy (:class:`~hexwar.testing.policies.Weighted`), counting the
    moves it chooses onto an enemy square (assaults, VIII) and, among them, the charges
    of figures under fire (into the flank or rear, VIII.б). It draws exactly as
    ``Weighted`` does, so the games are the kit's own."""

    def __init__(self) -> None:
        self.policy = Weighted()
        self.assaults = self.flank = 0

    def __call__(self, state: State, rng: random.Random) -> Action:
        action = self.policy(state, rng)
        self.count(state, action)
        return action

    def count(self, state: State, action: Action) -> None:
        """Count ``action`` if it is an assault, before it is applied to ``state``."""
        if action.kind == "move" and not state.pending:
            uid, there = action.args
            enemy = RULES.pieces.positions(state, "red" if side_of(uid) == "blue" else "blue")
            if RULES.board.cell_at(there) in enemy:
                self.assaults += 1
                self.flank += state.get("shot", uid) is not None


KIT_SEED = 32  # the README's table: 50 games a scenario, 3 turns, gas on (XIV)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(RULES.data.scenarios))
def test_random_games_of_every_scenario_pass_the_kit_and_fight(scenario: str) -> None:
    """50 random games (the kit's weighted policy: ``end`` seldom) of each scenario (XII,
    XI, 1941), 3 turns each, gas on (XIV): no violation, and they fire (V) and gas (XIV).
    Prints the README's row (``pytest -s``): assaults (VIII) are counted, not required —
    in 3 turns random figures seldom meet."""
    counting = CountingAssaults()
    report = check_random_games(
        lambda: RULES.new_state(scenario, {"turns": 3, "gas": True}),
        games=50, seed=KIT_SEED, full_check_every=50, policy=counting,
    )  # fmt: skip
    k = report.kinds
    print(f"| {scenario} | {report.games} | {len(report.violations)} | {report.steps} | "
          f"{k['fire']} | {counting.assaults} | {counting.flank} | {k['bomb']} | "
          f"{k['contaminate']} |")  # fmt: skip
    assert report.ok, report.violations[:3]
    assert report.terminal == report.games == 50
    assert k["fire"] > 50
    assert k["bomb"] > 0  # XIV


@pytest.mark.slow
def test_random_games_in_contact_pass_the_kit() -> None:
    start = play("skirmish", seed=11, turns=40)
    assert start.is_terminal()
    # Rebuild a mid-game position from the bot's record, then play randomly from there.
    fired = [i for i, a in enumerate(start.history) if a.kind == "fire"]
    prefix = start.history[: fired[len(fired) // 2]]  # just before a fire move mid-game
    base = RULES.new_state("skirmish", {"turns": 40})
    for action in prefix:
        base.apply(action)
    text = dumps(base)
    assert any(a.kind == "fire" for a in base.legal_actions())  # in contact
    counting = CountingAssaults()
    report = check_random_games(
        lambda: loads(RULES, text), games=20, seed=3, max_steps=120, full_check_every=5,
        policy=counting,
    )  # fmt: skip
    k = report.kinds
    print(f"| skirmish, from contact | {report.games} | {len(report.violations)} | "
          f"{report.steps} | {k['fire']} | {counting.assaults} | {counting.flank} |")  # fmt: skip
    assert report.ok, report.violations[:3]
    assert report.steps > 800
    assert counting.assaults > 0


@pytest.mark.slow
def test_bot_games_assault_and_charge_into_the_flank_viii() -> None:
    """VIII, VIII.б: ten seeded bot games of the skirmish with gas (the bot takes a square
    under fire whenever it can): assaults happen, some of them charges of figures under
    fire into the flank or rear. Prints the README's figures (``pytest -s``)."""
    counting = CountingAssaults()
    fired = bombs = 0
    for seed in range(10):
        state = RULES.new_state("skirmish", {"gas": True})
        bots = {"blue": Bot(seed), "red": Bot(seed + 1)}
        while not state.is_terminal():
            action = bots[state.current_player()].choose(state)
            counting.count(state, action)
            fired += action.kind == "fire"
            bombs += action.kind == "bomb"
            state.apply(action)
    print(f"bot games: 10, fire {fired}, assaults {counting.assaults}, "
          f"flank {counting.flank}, bombs {bombs}")  # fmt: skip
    assert counting.flank > 0
    assert counting.assaults > counting.flank


@pytest.mark.slow
def test_bot_games_end_and_are_reproducible() -> None:
    a, b = play("company1941", seed=5), play("company1941", seed=5)
    assert a.is_terminal()
    assert a.history == b.history
    assert a.outcome == b.outcome
    kinds = Counter(x.kind for x in a.history)
    assert kinds["fire"] > 0
    assert kinds["move"] > 0


def test_main_prints_a_summary() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "examples.boy_otryadov", "--scenario", "skirmish", "--seed", "2"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    assert "outcome:" in out
    assert "figures left" in out
    assert "К" in out


def test_hidden_set_up_does_not_show_which_squares_are_held_x2() -> None:
    """X.2: behind the screen the other side cannot even tell which squares are occupied."""
    from examples.boy_otryadov.rules import BoyOtryadov

    state = BoyOtryadov().new_state("skirmish")
    while state.current_player() == "blue" and not state.is_terminal():
        state.apply(state.legal_actions()[0])
    blue_cells = {v[0] for v in state.table("pieces").values() if v[1] == "blue"}
    assert blue_cells
    red_stacks = state.observation("red")["tables"].get("stacks", {})
    assert not blue_cells & set(red_stacks)


def test_bot_games_do_not_depend_on_the_hash_seed() -> None:
    """Neither the rules nor the bot let set order decide (squares hash differently per run)."""
    code = (
        "from examples.boy_otryadov.bot import play; "
        "print([str(a) for a in play('skirmish', 1, 6).history])"
    )
    runs = set(outputs_under_hash_seeds(code, hash_seeds=("1", "3", "5"), cwd=ROOT, timeout=120))
    assert len(runs) == 1


def test_labels_come_from_the_data_and_must_name_every_square_i(tmp_path: Path) -> None:
    board = RULES.board
    assert [board.label(c) for c in board.map if c.col == 9][:4] == [
        "К-IIIr",
        "К-IIr",
        "К-Ir",
        "К1",
    ]
    assert board.cell_at("А-Ib") in board.zone
    assert board.roman[board.cell_at("А-Ib")] == "I"
    raw, _ = read_data_file(DATA / "rules.toml")
    raw["labels"]["rows"] = raw["labels"]["rows"][:-1]  # the map has 21 rows
    with pytest.raises(DataError, match=r"rules\.toml: labels: .* has no label"):
        game_data_from_dict(raw, load_game_data().game_map, str(tmp_path / "rules.toml"))


# -- the rest of the 1930 text, section by section ------------------------------------------


def test_fire_counts_by_strength_vii() -> None:
    """VII: an HMG equals three LMGs; a squad, an HMG, a car, a tank count one."""
    arms = RULES.data.arms
    lmg, rifle, hmg = arms["lmg"], arms["rifle"], arms["hmg"]
    assert fire_result(RULES.data.effects, rifle, "weak", [(lmg, 1)] * 3) == "pin"
    assert fire_result(RULES.data.effects, rifle, "weak", [(rifle, 1)] * 3) == "destroy"
    assert fire_result(RULES.data.effects, rifle, "weak", [(hmg, 1), (lmg, 1), (lmg, 2)]) == "pin"
    assert fire_result(RULES.data.effects, rifle, "weak", [(hmg, 1)] + [(lmg, 1)] * 3) == "retreat"
    assert arms["cavalry"].strength * 2 == rifle.strength == arms["tank"].strength


def test_barrage_on_an_empty_square_bars_it_for_one_enemy_turn_v() -> None:
    """V: fire at an empty square (огонь заграждения); RULING: it bars that square to the
    enemy during its next turn, and never falls behind the screens."""
    state = position(
        {"b01": ("rifle", "Г13"), "b02": ("rifle", "А15"), "r01": ("rifle", "Г10"),
         "r02": ("rifle", "К1")}
    )  # fmt: skip
    barrage = {a.args[1] for a in state.legal_actions() if a.kind == "fire" and a.args[0] == "b01"}
    assert "Г11" in barrage
    assert not any("-" in t for t in barrage)
    state.apply("fire b01 Г11")
    end_turn(state, "b02")
    assert state.table("barrage") == {"Г11": "blue"}
    assert "Г11" not in moves(state, "r01")
    end_turn(state, "r02")
    assert state.table("barrage") == {}


def test_from_a_green_square_only_forward_vi3b() -> None:
    """VI.3b: from a green square figures move and fire only forward (guns fire anywhere)."""
    state = position(
        {"b01": ("rifle", "В10"), "b02": ("field_gun", "Б11"), "r01": ("rifle", "В8"),
         "r02": ("rifle", "Д10")}
    )  # fmt: skip
    assert fires(state, "b01") == {"В8"}  # Д10 is level with В10
    assert all(int(t[1:]) < 10 for t in moves(state, "b01"))
    assert {"В8", "Д10"} <= fires(state, "b02")


def end_blue(state: State) -> None:
    """Move b03 and end blue's turn (a decision may follow for red)."""
    state.apply(f"move b03 {min(moves(state, 'b03'))}")
    state.apply(END)


def test_melee_between_adjacent_green_squares_vi3d() -> None:
    """VI.3d: the stronger foot wins (VII); foot always drive off mounted cavalry."""
    state = position(
        {"b01": ("rifle", "Д8"), "b02": ("lmg", "Д8"), "b03": ("rifle", "А15"),
         "r01": ("rifle", "Е8"), "r02": ("cavalry", "Ж10"), "r03": ("rifle", "К1")}
    )  # fmt: skip
    end_blue(state)
    assert state.pending[-1].kind == "retreat"
    assert state.pending[-1].params[0] == "r01"
    even = position(
        {"b01": ("rifle", "Д8"), "b03": ("rifle", "А15"), "r01": ("rifle", "Е8"),
         "r03": ("rifle", "К1")}
    )  # fmt: skip
    end_blue(even)
    assert not even.pending  # equal strength: neither gives way
    horse = position(
        {"b01": ("lmg", "Д8"), "b03": ("rifle", "А15"), "r01": ("cavalry", "Е8"),
         "r03": ("rifle", "К1")}
    )  # fmt: skip
    end_blue(horse)
    assert horse.pending[-1].params[0] == "r01"  # a third of a squad still drives off horse


def test_encircled_figures_on_green_squares_are_removed_vi3e() -> None:
    ring = ["Е9", "Ж9", "Е10", "З10", "Е11", "З11"]  # Ж10's passable neighbours
    figures = {f"b0{i + 1}": ("rifle", sq) for i, sq in enumerate(ring)}
    state = position(
        {**figures, "b07": ("rifle", "А15"), "r01": ("rifle", "Ж10"), "r02": ("rifle", "К1")}
    )
    end_turn(state, "b07")
    assert "r01" not in state.table("pieces")
    open_ring = position(
        {**figures, "b06": ("rifle", "А14"), "b07": ("rifle", "А15"), "r01": ("rifle", "Ж10"),
         "r02": ("rifle", "К1")}
    )  # fmt: skip
    end_turn(open_ring, "b07")
    assert "r01" in open_ring.table("pieces")  # З11 is open: a way out


def test_light_machine_guns_do_not_assault_viii_a() -> None:
    """VIII.а: "any figure except artillery and machine guns" assaults."""
    state = position(
        {"b01": ("rifle", "В12"), "b02": ("lmg", "Г12"), "b03": ("rifle", "Д12"),
         "r01": ("rifle", "Г11"), "r02": ("rifle", "К1")}
    )  # fmt: skip
    state.apply("fire b01 Г11")
    assert "Г11" not in moves(state, "b02")
    assert "Г11" in moves(state, "b03")


def test_foot_take_a_heavy_mg_only_under_guns_or_two_mg_squares_viii_v() -> None:
    state = position(
        {"b01": ("lmg", "Г13"), "b02": ("lmg", "В13"), "b03": ("rifle", "Д12"),
         "r01": ("hmg", "Г11"), "r02": ("rifle", "К1")}
    )  # fmt: skip
    state.apply("fire b01 Г11")
    assert "Г11" not in moves(state, "b03")  # MG fire from one square is not enough
    state.apply("fire b02 Г11")
    assert "Г11" in moves(state, "b03")


def charge_position(arm: str, at: str, target: str, rifle: str, red_fires: bool) -> State:
    """VIII.б: blue's ``arm`` at ``at``; red's rifle at ``target`` fires at it (or not) in
    red's turn; in blue's next turn blue's rifle at ``rifle`` fires at ``target``."""
    state = position(
        {"b01": ("rifle", rifle), "b02": (arm, at), "b03": ("rifle", "А15"),
         "r01": ("rifle", target), "r02": ("rifle", "К1")}
    )  # fmt: skip
    end_turn(state, "b03")
    if red_fires:
        state.apply(f"fire r01 {at}")
    end_turn(state, "r02")
    state.apply(f"fire b01 {target}")
    return state


@pytest.mark.parametrize("arm", ["cavalry", "tank"])
def test_cavalry_cars_and_tanks_charge_only_when_not_under_fire_viii_b(arm: str) -> None:
    """VIII.б: a figure under fire at Е11, reached from Е13 only from the front (Д12, Ж12;
    its flanks Д11, Ж11 are marsh, its rear three squares away), is taken only by a
    figure not itself under fire."""
    assert "Е11" in moves(charge_position(arm, "Е13", "Е11", "З12", red_fires=False), "b02")
    state = charge_position(arm, "Е13", "Е11", "З12", red_fires=True)
    assert "Е11" not in moves(state, "b02")
    assert check_rejects(state, Action.parse("move b02 Е11")).rule == "VIII.б"


def test_under_fire_cavalry_charges_into_the_flank_instead_of_dismounting_viii_b() -> None:
    """VIII.б: "if the cavalry is itself under fire it may attack by a combined move
    (instead of dismounting or a forced fall-back), i.e. into the flank or rear".
    Red's one fire leaves the cavalry at Б12 mounted until its turn (VI.2's dismount is
    its to take); it may then take Г11 from В11, Г11's flank (RULING: a neighbour no
    further forward than the target, as the target's side advances), and only that."""
    state = charge_position("cavalry", "Б12", "Г11", "В12", red_fires=True)
    assert state.get("arm", "b02") == "cavalry"
    mine = {str(a) for a in state.legal_actions() if a.args and a.args[0] == "b02"}
    assert mine == {"dismount b02", "move b02 Г11"}
    assert check_rejects(state, END).rule == "VIII.б"  # the choice comes first
    assert check_rejects(state, Action.parse("move b02 В11")).rule == "VIII.б"
    charged = state.clone()
    charged.apply("move b02 Г11")  # the charge replaces the dismount
    assert RULES.units(charged)["b02"] == ("cavalry", RULES.board.cell_at("Г11"))
    assert "r01" not in RULES.units(charged)
    state.apply("dismount b02")  # or the fire's effect: dismounted and pinned, may fire
    assert state.get("arm", "b02") == "cavalry_dismounted"
    assert state.get("pinned", "b02")
    assert not state.table("moved")
    assert moves(state, "b02") == set()
    assert fires(state, "b02")


def test_car_under_gun_fire_falls_back_in_its_turn_unless_it_can_charge_viii_b() -> None:
    """VI.2, VIII.б: guns and one other figure make a car fall back; it does so in its
    own turn, where a charge into the flank or rear could replace it. On the road from
    Г13 the car reaches Г11 only from the front (Г12), so it must fall back."""
    state = position(
        {"b01": ("rifle", "В13"), "b02": ("armoured_car", "Г13"), "b03": ("rifle", "А15"),
         "r01": ("rifle", "Г11"), "r02": ("field_gun", "Г5"), "r03": ("rifle", "К1")}
    )  # fmt: skip
    end_turn(state, "b03")
    state.apply("fire r01 Г13")
    state.apply("fire r02 Г13")
    end_turn(state, "r03")
    assert RULES.units(state)["b02"][1] == RULES.board.cell_at("Г13")
    state.apply("fire b01 Г11")
    falls = {a.args[1] for a in state.legal_actions() if a.kind == "retreat"}
    assert falls
    assert "Г11" not in moves(state, "b02")
    assert all(a.args[0] == "b02" for a in state.legal_actions() if a.kind == "retreat")
    state.apply(f"retreat b02 {min(falls)}")
    assert state.get("pinned", "b02")
    assert state.get("shot", "b02") is True


def test_the_cavalry_game_moves_three_figures_in_the_attack_strip_x4() -> None:
    state = position(
        {"b01": ("cavalry", "Б11"), "b02": ("cavalry", "Г11"), "b03": ("cavalry", "Е11"),
         "b04": ("cavalry", "З11"), "r01": ("rifle", "К1")},
        scenario="squadron",
    )  # fmt: skip
    for uid in ("b01", "b02", "b03"):
        state.apply(f"move {uid} {min(moves(state, uid))}")
    assert moves(state, "b04") == set()


def test_defence_sets_up_on_the_field_with_fewer_figures_xi() -> None:
    state = RULES.new_state("defence")
    while state.pending:
        state.apply(state.legal_actions()[-1])
    red, blue = RULES.units(state, "red"), RULES.units(state, "blue")
    assert (len(blue), len(red)) == (28, 23)  # a quarter fewer of each arm, rounded (RULING)
    assert all(c not in RULES.board.zone and c.row - 2 <= 8 for _, c in red.values())
    assert state.current_player() == "blue"  # the attacker moves first


@pytest.mark.parametrize(
    ("scenario", "figures"),
    [("battalion", 61), ("cavalry_regiment", 42), ("company", 28), ("squadron", 15),
     ("company1941", 19), ("skirmish", 8), ("default", 8)],
)  # fmt: skip
def test_scenarios_of_xii_set_up_in_full(scenario: str, figures: int) -> None:
    """XII: the orders of battle (1941: the 20 figures less the aircraft); ``default`` is
    the skirmish."""
    state = RULES.new_state(scenario)
    while state.pending:
        state.apply(state.legal_actions()[0])
    assert len(RULES.units(state, "blue")) == len(RULES.units(state, "red")) == figures


@pytest.mark.parametrize("scenario", ["cavalry_regiment", "battalion", "company1941"])
def test_a_random_set_up_never_strands_a_figure_x2(scenario: str) -> None:
    """RULING (X.2): a square is offered only if the figures still to place fit after it,
    so random set-ups of the fullest scenarios, with the chemical figure (XIV.б) placed
    last, always complete (cavalry_regiment stranded it before: seed 32, game 0)."""
    import random

    for seed in range(4):
        rng = random.Random(seed)
        state = RULES.new_state(scenario, {"gas": True})
        while state.pending and state.pending[-1].kind == "place":
            state.apply(rng.choice(state.legal_actions()))
        total = len(RULES.units(state, "blue")) + len(RULES.units(state, "red"))
        assert total == RULES.oob(state, "blue") + RULES.oob(state, "red")


def test_the_action_space_names_every_figure_of_the_largest_scenario_with_gas() -> None:
    """XIV.б: the chemical figure is one more than the largest order of battle."""
    state = RULES.new_state("battalion", {"gas": True})
    space = RULES.action_space()
    planned = [u for side in ("blue", "red") for u in RULES.deployment.waiting(state, side)]
    assert len(planned) == 2 * 62
    assert all(uid in space for uid in planned)


def test_air_bomb_and_persistent_gas_xiv() -> None:
    """XIV.а: the bomb drives the figure out and bars the square (tanks pass, IV);
    XIV.б: persistent gas, as a move, until a chemical figure holds it 4 side-turns."""
    state = position(
        {"b01": ("rifle", "А15"), "b02": ("tank", "Г13"), "b03": ("chemical", "Д13"),
         "r01": ("rifle", "Г11"), "r02": ("rifle", "К1")},
        gas=True,
    )  # fmt: skip
    state.apply("bomb Г11")
    assert state.pending[-1].kind == "retreat"
    assert state.current_player() == "red"
    state.apply(state.legal_actions()[0])
    assert "Г11" in state.table("gas")
    assert not any(a.kind == "bomb" for a in state.legal_actions())
    assert "Г11" in moves(state, "b02")
    assert "Г11" not in moves(state, "b01")
    state.apply("contaminate Д10")
    assert END in state.legal_actions()  # it counted as the figure move
    state.apply(END)
    assert all(a.args[1] != "Д10" for a in state.legal_actions() if a.kind == "move")
    state.apply(f"move r02 {min(moves(state, 'r02'))}")
    state.apply(END)
    assert state.table("contaminated") == {"Д10": "blue"}
    assert state.expires("gas", "Г11") == 4  # RULING: 6 side-turns = 3 turns


def test_chemical_figure_degasses_after_four_side_turns_xiv_b() -> None:
    state = position(
        {"b01": ("rifle", "А15"), "r01": ("chemical", "Д10"), "r02": ("rifle", "К1")}, gas=True
    )
    state.put("contaminated", "Д10", "blue")
    held = 0
    while "Д10" in state.table("contaminated"):
        end_turn(state, "b01" if state.current_player() == "blue" else "r02")
        held += 1
    assert held == 4


def test_raider_through_a_village_becomes_partisans_xvi() -> None:
    state = position(
        {"b01": ("rifle", "Е2"), "b02": ("rifle", "А15"), "r01": ("rifle", "А1"),
         "r02": ("hmg", "Б1"), "r03": ("field_gun", "В1")}
    )  # fmt: skip
    state.apply("move b01 Е1")  # the village
    RULES.pieces.move(state, "b01", RULES.board.cell_at("И-IIIr"))  # later, by its moves
    state.put("moved", "b01", False)
    state.apply("move b01 К-IIIr")
    assert state.get("arm", "b01") == "partisan"
    assert "b01" in state.table("pieces")
    assert state.pending[-1].kind == "raid"  # XIII still applies
    marsh = position({"b01": ("partisan", "Д3"), "r01": ("rifle", "Д1")})
    assert "Д2" in moves(marsh, "b01")  # XVI: partisans cross marshes (not lakes)
    on_marsh = position({"b01": ("rifle", "Г3"), "r01": ("partisan", "Д2")})
    assert fires(on_marsh, "b01") == set()  # fire on blue squares is ineffective


def test_1941_station_two_rows_and_one_figure_a_square() -> None:
    """1941 fragment: set up in the two nearest rows, one a square; take the station."""
    state = RULES.new_state("company1941")
    while state.pending:
        state.apply(state.legal_actions()[-1])
    for side in ("blue", "red"):
        cells = [c for _, c in RULES.units(state, side).values()]
        assert len(set(cells)) == len(cells)
        assert {RULES.board.roman[c] for c in cells} <= {"II", "III"}
    raid = position(
        {"b01": ("cavalry", "Б-IIr"), "b02": ("rifle", "А15"), "r01": ("rifle", "К1")},
        scenario="company1941",
    )  # fmt: skip
    raid.apply("move b01 А-IIIr")
    assert raid.outcome is not None
    assert raid.outcome.winner == "blue"
    assert "station" in raid.outcome.reason


def test_every_move_is_recorded_and_a_game_resumes_from_the_record_ii_x() -> None:
    """II: fire moves are declared and written down "to avoid disputes"; X note: an
    interrupted game is written down (figures and squares) and resumed."""
    state = play("skirmish", seed=3, turns=3)
    fired = [a for a in state.history if a.kind == "fire"]
    assert fired
    assert all(RULES.board.cell_at(a.args[1]) in RULES.board.map for a in fired)
    half = RULES.new_state("skirmish", {"turns": 3})
    for action in state.history[: len(state.history) // 2]:
        half.apply(action)
    resumed = loads(RULES, dumps(half))
    assert resumed.table("pieces") == half.table("pieces")
    assert resumed.legal_actions() == half.legal_actions()


def test_a_figure_falls_back_from_a_green_square_vi3b() -> None:
    """VI.3b binds a figure's own moves, not its falling back under fire (VI.1)."""
    state = position(
        {"b01": ("field_gun", "А15"), "b02": ("field_gun", "Б15"), "b03": ("field_gun", "В15"),
         "b04": ("rifle", "А14"), "r01": ("rifle", "Д8"), "r02": ("rifle", "К1")}
    )  # fmt: skip
    for uid in ("b01", "b02", "b03"):  # only guns fire into a green square (V)
        state.apply(f"fire {uid} Д8")
    end_blue_with(state, "b04")
    assert state.pending[-1].kind == "retreat"
    assert {a.args[1] for a in state.legal_actions()} == {"Г7"}  # back; Д7, Е7 are blue


def end_blue_with(state: State, uid: str) -> None:
    state.apply(f"move {uid} {min(moves(state, uid))}")
    state.apply(END)
