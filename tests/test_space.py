"""The action space (``engine.space``, ``engine.kinds``), legality by prefix, token players."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import HexwarError, NoActionSpace, NotLegalNow, UnknownToken
from hexwar.engine.actions import END, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.loop import RandomPlayer, TokenStepper, play, sample_action
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import DONE, ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.testing import random_states
from toy_game import Duel

RULES = Duel()


def _at_move(*deals: str) -> State:
    state = RULES.new_state()
    for text in deals or ("deal dud", "deal ambush"):
        state.apply(text)
    return state


def tree(state: State, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every leaf of the token tree below ``prefix`` (asserting no dead ends)."""
    tokens = state.legal_tokens(prefix)
    assert tokens, f"dead end after {prefix}"
    assert list(tokens) == sorted(set(tokens)), tokens
    leaves = []
    for t in tokens:
        leaves += [prefix] if t == DONE else tree(state, (*prefix, t))
    return leaves


# -- ActionSpace ------------------------------------------------------------------------


def test_space_lists_done_then_kinds_then_values_first_occurrence_wins() -> None:
    space = ActionSpace(("end", "move"), (("side", ("red", "blue")), ("n", ("1", "red", "2"))))
    assert space.tokens == ("done", "end", "move", "red", "blue", "1", "2")
    assert space.size == len(space) == 7
    assert [space.id(t) for t in space.tokens] == list(range(7))
    assert space.vocabulary("n") == ("1", "red", "2")
    assert "blue" in space
    assert "green" not in space


def test_space_encodes_and_decodes_actions() -> None:
    space = RULES.space
    action = Action.of("move", "red", 2)
    ids = space.encode(action)
    assert ids[-1] == 0
    assert space.token(ids[0]) == "move"
    assert space.decode(ids) == action
    assert space.decode(space.encode(END)) == END


def test_space_refuses_unknown_tokens_and_malformed_ids() -> None:
    space = RULES.space
    with pytest.raises(UnknownToken, match="'green'"):
        space.id("green")
    with pytest.raises(UnknownToken):
        space.token(space.size)
    with pytest.raises(UnknownToken, match="then 'done'"):
        space.decode((space.id("move"), space.id("red")))  # no closing token
    with pytest.raises(UnknownToken):
        space.decode((0,))
    with pytest.raises(UnknownToken):
        space.encode(Action.of("move", "green", 2))
    assert isinstance(UnknownToken("x"), HexwarError)


def test_space_refuses_the_reserved_token_and_bad_tokens() -> None:
    with pytest.raises(HexwarError, match="reserved"):
        ActionSpace(("end",), (("x", ("done",)),))
    with pytest.raises(HexwarError, match="reserved"):
        ActionSpace(("done",))
    with pytest.raises(HexwarError):
        ActionSpace(("end",), (("x", ("a b",)),))
    with pytest.raises(HexwarError):
        ActionSpace(("1st",))


def test_a_ruleset_without_a_space_says_so() -> None:
    class Bare(Ruleset):
        pass

    with pytest.raises(NoActionSpace, match="Bare declares no action space"):
        _ = Bare().space


def test_the_space_is_built_once_per_ruleset() -> None:
    rules = Duel()
    assert rules.space is rules.space
    assert rules.space is not Duel().space


# -- legality by prefix, on the Duel (derived from its lists) ----------------------------


def test_duel_tokens_follow_its_lists() -> None:
    state = _at_move()
    assert state.legal_tokens() == ("end", "move")
    assert state.legal_tokens(("move",)) == ("red",)
    assert state.legal_tokens(("move", "red")) == ("1", "2")
    assert state.legal_tokens(("move", "red", "2")) == (DONE,)
    assert state.legal_tokens(("end",)) == (DONE,)
    assert state.legal_tokens(("move", "blue")) == ()  # not a legal prefix
    assert state.legal_tokens(("move", "red", "2", DONE)) == ()
    space = RULES.space
    assert state.legal_token_ids(("move",)) == (space.id("red"),)


def test_is_legal_walks_the_prefix() -> None:
    state = _at_move()
    assert state.is_legal(Action.of("move", "red", 2))
    assert not state.is_legal(Action.of("move", "red"))  # a prefix, not an action
    assert not state.is_legal(Action.of("move", "red", 2, 3))
    assert state.first_illegal_token(Action.of("move", "red", 5)) == 2
    assert state.first_illegal_token(Action.of("move", "red")) == 2
    assert state.first_illegal_token(Action.of("attack", "red")) == 0
    assert state.first_illegal_token(END) is None


def test_chance_nodes_and_choices_have_tokens_too() -> None:
    state = RULES.new_state()
    assert state.legal_tokens() == ("deal",)
    assert state.legal_tokens(("deal",)) == ("ambush", "dud")
    assert {a for a, _ in state.chance_outcomes()} == {Action(p[0], p[1:]) for p in tree(state)}


@settings(max_examples=60, deadline=None)
@given(state=random_states(RULES.new_state, max_steps=40))
def test_duel_prefix_tree_equals_legal_actions_and_ids_round_trip(state: State) -> None:
    """Property: the enumerated token tree is exactly ``legal_actions`` (no dead ends),
    every token is in the space and every action's ids decode back to it."""
    legal = state.legal_actions()
    if state.is_terminal():
        assert state.legal_tokens() == ()
        return
    leaves = tree(state)
    assert sorted(Action(p[0], p[1:]) for p in leaves) == sorted(legal)
    space = RULES.space
    for action in legal:
        assert space.decode(space.encode(action)) == action
        assert state.is_legal(action)


# -- a game written token by token with hexwar.engine.kinds -------------------------------------

STRENGTH = {"a": 3, "b": 1, "c": 1, "d": 0}
MOVES = {"a": ("1", "2"), "b": ("2",), "c": (), "d": ("3",)}


def _movers(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return [u for u in STRENGTH if not state.get("moved", u)]


def _hexes(state: State, side: str, args: tuple[str, ...]) -> tuple[str, ...]:
    return MOVES[args[0]]


def _strong(state: State, side: str, fixed: tuple[str, ...], group: tuple[str, ...]) -> bool:
    return sum(STRENGTH[u] for u in group) >= 2


TOKEN_PHASE: Kinds[str] = Kinds(
    (
        Kind("move", (Values(_movers), Values(_hexes))),
        Kind(
            "attack",
            (
                Values(lambda s, side, a: ["x", "y"]),
                Combination(lambda s, side, a: sorted(STRENGTH), valid=_strong, at_most=2),
            ),
        ),
    )
)


class Tokens(Ruleset):
    name = "tokens"
    sides = ("red",)
    sequence = TurnSequence((Stage("s", (Phase("p", side="red"),)),), turn_limit=2)
    asked: list[tuple[str, ...]]

    def __init__(self) -> None:
        self.asked = []

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(["end", *TOKEN_PHASE.names], unit=STRENGTH, hex="123", target="xy")

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> tuple[str, ...]:
        self.asked.append(prefix)
        return TOKEN_PHASE.tokens(state, side, prefix)

    def play(self, state: State, action: Action) -> None:
        state.put("moved", action.args[0], True)


def test_kinds_offer_no_dead_ends() -> None:
    state = Tokens().new_state()
    assert state.legal_tokens(("move",)) == ("a", "b", "d")  # c cannot move anywhere
    # at most 2 attack with strength 2 or more: no group starts with c (c + d = 1) or d
    assert state.legal_tokens(("attack", "x")) == ("a", "b")
    assert state.legal_tokens(("attack", "x", "b")) == ("c",)
    assert state.legal_tokens(("attack", "x", "a")) == ("b", "c", "d", DONE)
    assert state.legal_tokens(("attack", "x", "a", "d")) == (DONE,)
    leaves = tree(state)
    attacks = sorted(" ".join(p) for p in leaves if p[0] == "attack")
    expected = sorted(
        f"attack {t} {' '.join(g)}"
        for t in "xy"
        for n in (1, 2)
        for g in combinations(sorted(STRENGTH), n)
        if sum(STRENGTH[u] for u in g) >= 2
    )
    assert attacks == expected


def test_a_token_game_lists_and_checks_through_its_tokens() -> None:
    rules = Tokens()
    state = rules.new_state()
    legal = state.legal_actions()
    assert legal == sorted([*TOKEN_PHASE.actions(state, "red"), END])
    assert Action.of("move", "a", 2) in legal
    with pytest.raises(NotLegalNow, match="`3` may not follow `move a` here"):
        state.apply("move a 3")
    with pytest.raises(NotLegalNow, match="`move a` is not complete here"):
        state.apply("move a")
    with pytest.raises(NotLegalNow, match="no `fly` action may be taken here"):
        state.apply("fly a")
    state.apply("move a 2")
    assert "a" not in state.legal_tokens(("move",))


def test_kinds_answers_are_shared_within_a_position() -> None:
    calls: list[tuple[str, ...]] = []

    def hexes(state: State, side: str, args: tuple[str, ...]) -> tuple[str, ...]:
        calls.append(args)
        return MOVES[args[0]]

    phase = Kinds((Kind("move", (Values(_movers), Values(hexes))),))
    state = Tokens().new_state()
    first = phase.tokens(state, "red", ("move",))  # looks ahead into each unit's hexes
    assert first == ("a", "b", "d")
    assert phase.tokens(state, "red", ("move", "a")) == ("1", "2")
    assert phase.any(state, "red")
    assert sorted(calls) == [("a",), ("b",), ("c",), ("d",)]  # each asked once


def test_a_combination_must_be_the_last_step() -> None:
    with pytest.raises(ValueError, match="last step"):
        Kind("bad", (Combination(lambda s, c, a: ()), Values(lambda s, c, a: ())))


@settings(max_examples=80, deadline=None)
@given(
    strengths=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    need=st.integers(0, 6),
    at_most=st.integers(1, 6),
    at_least=st.integers(0, 2),
)
def test_combination_tree_equals_brute_force(
    strengths: list[int], need: int, at_most: int, at_least: int
) -> None:
    """Property: the combination's token tree lists exactly the valid groups, in sorted
    order, with no dead end; a monotone feasibility test changes nothing."""
    units = {f"u{i}": n for i, n in enumerate(strengths)}

    def valid(state: State, ctx: str, fixed: tuple[str, ...], group: tuple[str, ...]) -> bool:
        return sum(units[u] for u in group) >= need

    def feasible(state: State, ctx: str, fixed: tuple[str, ...], group: tuple[str, ...]) -> bool:
        return len(group) <= at_most  # monotone

    expected = sorted(
        g
        for n in range(at_least, at_most + 1)
        for g in combinations(sorted(units), n)
        if sum(units[u] for u in g) >= need
    )
    state = Tokens().new_state()
    for feas in (None, feasible):
        combo = Combination(
            lambda s, c, a: list(units), valid=valid, feasible=feas, at_least=at_least,
            at_most=at_most,
        )  # fmt: skip
        phase = Kinds((Kind("attack", (combo,)),))
        assert phase.any(state, "red") == bool(expected)
        if not expected:
            assert phase.tokens(state, "red", ()) == ()
            continue
        found = sorted(tuple(a.args) for a in phase.actions(state, "red"))
        assert found == expected
        stack: list[tuple[str, ...]] = [("attack",)]
        while stack:  # no dead end anywhere in the tree
            prefix = stack.pop()
            tokens = phase.tokens(state, "red", prefix)
            assert tokens, prefix
            stack += [(*prefix, t) for t in tokens if t != DONE]


# -- players ---------------------------------------------------------------------------


def test_token_stepper_builds_and_applies_an_action() -> None:
    state = _at_move()
    stepper = TokenStepper(state)
    space = RULES.space
    assert stepper.mask() == space.ids(("end", "move"))
    assert stepper.step(space.id("move")) is None
    assert stepper.prefix == ("move",)
    before = state.to_data()
    with pytest.raises(NotLegalNow, match="`blue` may not follow `move` here"):
        stepper.step(space.id("blue"))
    assert stepper.prefix == ("move",)
    assert state.to_data() == before
    stepper.step(space.id("red"))
    stepper.step(space.id("2"))
    assert stepper.mask() == (0,)
    assert stepper.step(0) == Action.of("move", "red", 2)
    assert stepper.prefix == ()
    assert state.get("units", "red") == (2, 2)
    stepper.step_token("move")
    stepper.reset()
    assert stepper.prefix == ()


def test_token_stepper_asks_again_after_the_state_changes() -> None:
    # the stepper answers a prefix it built from legal tokens without walking it back,
    # but only at the position it was built in: after any change (an action applied
    # behind its back, an undo) the prefix is checked again, as legal_tokens does
    state = _at_move()
    stepper = TokenStepper(state)
    space = RULES.space
    stepper.step(space.id("move"))
    stepper.step(space.id("red"))
    assert stepper.tokens() == state.legal_tokens(("move", "red")) != ()
    state.apply("move red 2")  # red has moved: ("move", "red") is no longer a legal prefix
    assert state.legal_tokens(("move", "red")) == ()
    assert stepper.tokens() == ()
    with pytest.raises(NotLegalNow):
        stepper.step(space.id("2"))
    state.undo()  # legal again
    assert stepper.tokens() == state.legal_tokens(("move", "red")) != ()
    assert stepper.step(space.id("2")) is None
    assert stepper.step(0) == Action.of("move", "red", 2)


def test_token_stepper_without_apply_is_a_player() -> None:
    def agent(state: State) -> Action:
        stepper = TokenStepper(state, apply=False)
        while True:  # the first legal token each time
            found = stepper.step(stepper.mask()[0])
            if found is not None:
                return found

    final = play(RULES.new_state(), {"red": agent, "blue": agent}, SeededDriver(1), check=True)
    assert final.is_terminal()


def test_random_player_never_builds_the_list() -> None:
    class NoList(Tokens):
        def phase_actions(self, state: State, side: str) -> list[Action]:
            raise AssertionError("the list was asked for")

    state = NoList().new_state()
    original = State.legal_actions
    try:
        State.legal_actions = None  # type: ignore[assignment,method-assign]
        action = RandomPlayer(3)(state)
    finally:
        State.legal_actions = original  # type: ignore[method-assign]
    assert state.is_legal(action)


def test_random_player_is_uniform_token_by_token() -> None:
    """The docstring's distribution: uniform over the first tokens, then over the next."""
    state = Tokens().new_state()

    def probability(tokens: tuple[str, ...]) -> Fraction:
        p = Fraction(1)
        for i in range(len(tokens) + 1):
            p /= len(state.legal_tokens(tokens[:i]))
        return p

    legal = state.legal_actions()
    rng = random.Random(11)
    n = 20_000
    counts = Counter(sample_action(state, rng) for _ in range(n))
    assert set(counts) <= set(legal)
    assert sum(probability((a.kind, *a.args)) for a in legal) == 1
    for action in legal:
        p = float(probability((action.kind, *action.args)))
        sigma = (n * p * (1 - p)) ** 0.5
        assert abs(counts[action] - n * p) <= 5 * sigma + 1, (action, counts[action], n * p)
