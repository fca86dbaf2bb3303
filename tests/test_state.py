"""State API: legality, chance nodes, out-of-turn decisions, seats, undo, clone, observation."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import (
    ActionSyntaxError,
    GameOverError,
    IllegalAction,
    NothingToUndo,
    NotLegalNow,
)
from hexwar.engine.actions import CHANCE, END, TERMINAL, Action, Decision
from hexwar.engine.savefile import dumps
from hexwar.engine.state import HIDDEN, State
from hexwar.testing import check_rejects, random_states
from toy_game import Duel

RULES = Duel()


def play(state: State, *texts: str) -> State:
    for text in texts:
        state.apply(text)
    return state


def adjacent_fight(red_card: str = "dud", blue_card: str = "dud") -> State:
    """Turn 2, red's fire phase with red on 3 and blue on 4."""
    state = RULES.new_state()
    return play(
        state,
        f"deal {red_card}",
        f"deal {blue_card}",
        "move red 2",
        "move blue 4",
        "move red 3",
    )


def test_action_text_round_trips_and_orders() -> None:
    a = Action.of("move", "red", 3)
    assert str(a) == "move red 3"
    assert Action.parse(str(a)) == a
    assert sorted([Action.of("b"), Action.of("a", 2), Action.of("a", 1)]) == [
        Action.of("a", 1),
        Action.of("a", 2),
        Action.of("b"),
    ]
    with pytest.raises(ActionSyntaxError):
        Action.parse("")
    with pytest.raises(ActionSyntaxError):
        Action("move", ("two words",))
    with pytest.raises(ActionSyntaxError):
        Action.of("3d6")
    with pytest.raises(ActionSyntaxError, match="not an integer"):
        Action.of("roll", "x").int_arg(0)


@pytest.mark.parametrize(
    "args", [("two words",), ("",), ("ok", 3), ("ok", ["x"]), ["ok"], ("ok", "tab\there")]
)
def test_bad_action_arguments_are_refused_even_after_good_ones_were_seen(args: object) -> None:
    Action("move", ("ok", "fine"))  # known tokens take the fast path next time
    Action("move", ("ok", "fine"))
    with pytest.raises(ActionSyntaxError):
        Action("move", args)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["", "3d6", "two words", "-x", 7])
def test_bad_action_kinds_are_refused_even_after_good_ones_were_seen(kind: object) -> None:
    Action("move")
    Action("move")
    with pytest.raises(ActionSyntaxError):
        Action(kind)  # type: ignore[arg-type]


def test_new_game_starts_at_a_chance_node_with_exact_probabilities() -> None:
    state = RULES.new_state()
    assert state.current_player() == CHANCE
    assert state.is_chance_node()
    assert state.chance_outcomes() == [
        (Action.of("deal", "ambush"), Fraction(1, 3)),
        (Action.of("deal", "dud"), Fraction(2, 3)),
    ]
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()]
    # the second draw comes from what is left in the cup
    state.apply("deal ambush")
    assert state.chance_outcomes() == [(Action.of("deal", "dud"), Fraction(1))]


def test_phases_and_sides_follow_the_sequence() -> None:
    state = play(RULES.new_state(), "deal dud", "deal ambush")
    assert (state.turn, state.stage, state.phase, state.current_player()) == (
        1,
        "red",
        "move",
        "red",
    )
    assert END in state.legal_actions()
    assert Action.of("move", "red", 2) in state.legal_actions()
    assert state.chance_outcomes() == []
    state.apply("move red 2")  # red has nothing left: the move phase ends by itself
    # units are 4 apart: red's fire phase is skipped (S4: nothing to do is skipped)
    assert (state.stage, state.phase, state.current_player()) == ("blue", "move", "blue")


def test_illegal_action_raises_specific_error_citing_the_rule_and_changes_nothing() -> None:
    state = play(RULES.new_state(), "deal dud", "deal ambush")
    before = dumps(state)
    with pytest.raises(NotLegalNow, match=r"^D2: move red 5: not a reachable") as info:
        state.apply("move red 5")
    assert isinstance(info.value, IllegalAction)
    assert isinstance(info.value, ValueError)
    assert info.value.rule == "D2"
    assert dumps(state) == before
    with pytest.raises(NotLegalNow, match="not a legal action now"):
        state.apply("attack red")
    assert dumps(state) == before


def test_rules_error_half_way_rolls_back_everything() -> None:
    class Faulty(Duel):
        def play(self, state: State, action: Action) -> None:
            super().play(state, action)
            raise RuntimeError("bug after the move was written")

    state = play(Faulty().new_state(), "deal dud", "deal dud")
    before = dumps(state)
    with pytest.raises(RuntimeError):
        state.apply("move red 1")
    assert dumps(state) == before
    assert len(state.history) == 2


def test_unchecked_fast_path_skips_the_legality_check() -> None:
    state = play(RULES.new_state(), "deal dud", "deal dud")
    state.apply_unchecked(Action.of("move", "red", 5))  # trusted caller: not checked
    assert state.get("units", "red") == (5, 2)


def test_s8_4_defender_decides_out_of_turn() -> None:
    state = adjacent_fight()
    assert (state.phase, state.current_player()) == ("fire", "red")
    state.apply("attack red")
    assert state.current_player() == CHANCE
    state.apply("roll 6")  # 6 >= 4: a hit; the defender (blue) chooses, in red's phase
    assert state.phase == "fire"
    assert state.current_player() == "blue"
    assert state.pending[-1] == Decision("hit", "blue", ("red",))
    assert state.legal_actions() == [Action("absorb"), Action.of("retreat", 5)]
    state.apply("retreat 5")
    assert state.get("units", "blue") == (5, 2)


def test_destroying_the_last_step_ends_the_game() -> None:
    state = play(RULES.new_state(), "deal dud", "deal dud", "move red 2", "move blue 4")
    play(state, "end", "move blue 3", "attack blue", "roll 6", "absorb")  # red reduced
    assert state.turn == 3
    play(state, "end", "attack red", "roll 6", "absorb")  # 6 - 1 (hill) hits: blue reduced
    play(state, "end", "attack blue", "roll 5", "absorb")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("blue", "red unit destroyed")
    assert state.legal_actions() == []
    with pytest.raises(GameOverError):
        state.apply("end")


def test_hill_modifier_and_victory_check_at_turn_end() -> None:
    opening = ("deal dud", "deal dud", "move red 2", "move blue 4", "end", "move blue 3")
    moves = ("attack blue", "roll 1", "end", "attack red", "roll 4")
    state = play(RULES.new_state(), *opening, *moves)  # turn 3: 4 - 1 misses
    assert (state.current_player(), state.pending) == ("blue", ())
    no_hill = play(Duel().new_state(options={"hill": False}), *opening, *moves)
    assert no_hill.pending[-1].kind == "hit"
    hill = adjacent_fight()  # turn 2, red on the hill
    play(hill, "attack red", "roll 6", "absorb", "end", "attack blue", "roll 1")
    assert (hill.turn, hill.outcome) == (3, None)
    play(hill, "end", "end", "end", "end")
    assert hill.outcome is not None
    assert hill.outcome.reason == "red holds the hill"


def test_s3_1_seats_split_a_side_by_tag() -> None:
    state = play(RULES.new_state(), "deal dud", "deal dud")
    driver = state.legal_actions("red-driver")
    assert Action.of("move", "red", 1) in driver
    assert state.legal_actions("red-gunner") == [END]
    assert state.legal_actions("blue") == []
    assert state.legal_actions("nobody") == []
    fight = adjacent_fight()
    assert fight.legal_actions("red-gunner") == [Action.of("attack", "red"), END]
    assert fight.legal_actions("red-driver") == [END]


def test_undo_is_exact_and_history_matches() -> None:
    state = RULES.new_state()
    start = dumps(state)
    with pytest.raises(NothingToUndo):
        state.undo()
    texts = ["deal ambush", "deal dud", "move red 2", "move blue 4", "move red 3"]
    snapshots = [start]
    for text in texts:
        state.apply(text)
        snapshots.append(dumps(state))
    assert [str(a) for a in state.history] == texts
    for i in range(len(texts), 0, -1):
        assert state.undo() == Action.parse(texts[i - 1])
        assert dumps(state) == snapshots[i - 1]


def test_clone_is_independent() -> None:
    state = adjacent_fight("ambush")
    twin = state.clone()
    assert twin == state
    twin.apply("play red ambush")
    assert twin != state
    assert state.get("hand", "red") == "ambush"
    assert len(state.effects) == 0
    assert len(twin.effects) == 1


def test_observation_hides_the_other_sides_card_and_deal() -> None:
    state = play(RULES.new_state(), "deal ambush", "deal dud")
    red, blue = state.observation("red"), state.observation("blue")
    assert red["tables"]["hand"] == {"blue": HIDDEN, "red": "ambush"}
    assert blue["tables"]["hand"] == {"blue": "dud", "red": HIDDEN}
    assert blue["history"] == [HIDDEN, "deal dud"]
    assert red["history"] == ["deal ambush", HIDDEN]
    assert red["tables"]["cup"] == {"chits": HIDDEN}  # hidden from both
    assert "ambush" not in str(blue)


def test_playing_a_card_reveals_it() -> None:
    state = adjacent_fight("ambush")
    state.apply("play red ambush")
    assert state.observation("blue")["tables"]["hand"]["red"] == "used"


@settings(max_examples=40, deadline=None)
@given(state=random_states(RULES.new_state, max_steps=40), data=st.data())
def test_random_illegal_actions_are_refused_atomically(state: State, data: st.DataObject) -> None:
    legal = set(state.legal_actions())
    token = st.sampled_from(["red", "blue", "0", "3", "6", "7", "ambush", "dud", "x"])
    kind = st.sampled_from(["move", "attack", "play", "roll", "deal", "retreat", "absorb", "end"])
    action = data.draw(
        st.builds(lambda k, a: Action(k, tuple(a)), kind, st.lists(token, max_size=3))
    )
    if action in legal:
        return
    error = check_rejects(state, action)
    assert isinstance(error, NotLegalNow | GameOverError)
    assert error.reason


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["d6", "draw", "deal"]), st.integers(0, 20)),
        min_size=1,
        max_size=12,
        unique=True,
    )
)
def test_chance_outcomes_are_sorted_like_the_pairs_themselves(
    picks: list[tuple[str, int]],
) -> None:
    """The keyed sort of chance outcomes gives the same order as sorting the pairs."""
    outcomes = tuple((Action.of(k, n), Fraction(1, len(picks))) for k, n in picks)
    state = RULES.new_state().clone()
    state.push(Decision.chance("any", outcomes))
    assert state.chance_outcomes() == sorted(outcomes)


def test_version_changes_with_every_change_and_only_then() -> None:
    state = RULES.new_state()
    seen = {state.version}
    v = state.version
    assert state.version == v  # reading changes nothing
    state.legal_actions()
    state.clone()
    assert state.version == v
    twin = state.clone()
    assert twin.version == v  # same content, same version
    state.put("scratch", "x", 1)
    assert state.version not in seen
    seen.add(state.version)
    state.delete("scratch", "x")
    assert state.version not in seen
    seen.add(state.version)
    state.delete("scratch", "absent")  # no change: same version
    assert state.version in seen
    action = (
        state.legal_actions()[0] if not state.is_chance_node() else (state.chance_outcomes()[0][0])
    )
    state.apply(action)
    assert state.version not in seen
    seen.add(state.version)
    state.undo()
    assert state.version not in seen
    seen.add(state.version)
    twin.put("scratch", "y", 2)  # the clone parts ways with its own new number
    assert twin.version not in seen


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_equal_versions_mean_equal_content_along_random_games(seed: int) -> None:
    """Walk a random game forward, with an undo every fifth step, and note each state."""
    rng = random.Random(seed)
    state = RULES.new_state()
    versions: dict[int, str] = {}
    for step in range(80):
        if state.is_terminal():
            break
        position = state.to_data()
        del position["history"]  # not part of the version (see State.version)
        found = versions.setdefault(state.version, json.dumps(position, sort_keys=True))
        assert found == json.dumps(position, sort_keys=True)
        if step % 5 == 4 and state.can_undo():
            state.undo()
            continue
        if state.is_chance_node():
            state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert len(versions) > 5
