"""Legality by prefix (the action space, S4-S10) agrees with the complete action lists.

Along random games, at every player node the tokens :meth:`StalingradRules.phase_tokens`
offers after every prefix are compared with the prefix tree of the complete list built by
each kind's own enumerator (:meth:`StalingradRules.phase_actions`): the same tokens in
the same order, ``done`` exactly after the complete actions, and nothing after a prefix
outside the tree (no dead ends). The hidden air placements (S10.2, S10.3) are
checked the same way against :func:`hexwar_stalingrad.air.decision_actions`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

import pytest
from random_games import random_game

from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.space import DONE, tokens_of
from hexwar.engine.state import State
from hexwar_stalingrad import air
from hexwar_stalingrad.rules import StalingradRules

Prefix = tuple[str, ...]


def tree(actions: Iterable[Action]) -> dict[Prefix, list[str]]:
    """Every prefix of the actions' tokens -> the sorted tokens that may follow it."""
    children: dict[Prefix, set[str]] = {(): set()}
    for action in actions:
        tokens = tokens_of(action)
        for i in range(len(tokens)):
            children.setdefault(tokens[:i], set()).add(tokens[i])
        children.setdefault(tokens, set()).add(DONE)
    return {prefix: sorted(nxt) for prefix, nxt in children.items()}


def compare(expected: dict[Prefix, list[str]], ask: Callable[[Prefix], Sequence[str]]) -> None:
    for prefix, nxt in expected.items():
        assert list(ask(prefix)) == nxt, prefix


def nodes(rules: StalingradRules, seed: int) -> Iterator[State]:
    """The non-chance nodes of a random game (uniform over the complete legal list)."""
    rng, driver = random.Random(seed), SeededDriver(seed)
    state = rules.new_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(driver.pick(state.chance_outcomes()))
            continue
        yield state
        state.apply_unchecked(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("length", "seed"), [("short", 1), ("long", 2), ("long", 3)])
def test_phase_tokens_are_the_prefix_tree_of_the_complete_lists(length: str, seed: int) -> None:
    rules = StalingradRules(length=length)
    kinds: set[str] = set()
    placements = 0
    for state in nodes(rules, seed):
        if state.pending:
            decision = state.pending[-1]
            if decision.kind == "air_place":
                expected = tree(air.decision_actions(state, decision))
                compare(expected, partial(rules.decision_tokens, state, decision))
                placements += 1
            continue
        side = state.current_player()
        expected = tree(rules.phase_actions(state, side))
        compare(expected, partial(rules.phase_tokens, state, side))
        kinds.update(expected[()])
    assert {"move", "attack", "play"} <= kinds
    if length == "long":
        assert {"bombard", "restore", "rebuild", "intercept"} & kinds
        assert placements > 0


@pytest.mark.parametrize("players", [2, 6])
def test_every_action_of_random_games_is_in_the_action_space(players: int) -> None:
    """The space is built from the data before play; every action seen in random games
    (phase actions, decision answers, chance outcomes, ``end``) encodes and decodes."""
    rules = StalingradRules(length="long", players=players)
    space = rules.action_space()
    assert space.size == 1 + len(space.kinds) + sum(len(v) for _, v in space.vocabularies)
    kinds: set[str] = set()
    for seed in range(3):
        state = random_game(rules, seed)
        for action in state.history:
            assert space.decode(space.encode(action)) == action
            kinds.add(action.kind)
    assert kinds <= set(space.kinds)
    assert {"shuffle", "roll", "move", "attack", "end", "play"} <= kinds
