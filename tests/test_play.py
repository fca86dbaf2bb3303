"""``hexwar.engine.loop``: the game loop and the random player, on the toy Duel ruleset."""

from __future__ import annotations

import random

from hexwar.engine.actions import TERMINAL, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import RandomPlayer, play, sample_action
from hexwar.engine.state import State
from toy_game import Duel


def _players(seed: int) -> dict[str, RandomPlayer]:
    return {side: RandomPlayer(seed * 10 + i) for i, side in enumerate(Duel().sides)}


def test_a_seeded_game_replays_exactly_and_ends() -> None:
    a = play(Duel().new_state(), _players(3), SeededDriver(3))
    b = play(Duel().new_state(), _players(3), SeededDriver(3))
    assert a.is_terminal()
    assert a.outcome is not None
    assert a.history == b.history


def test_checked_play_matches_unchecked_play() -> None:
    a = play(Duel().new_state(), _players(5), SeededDriver(5))
    b = play(Duel().new_state(), _players(5), SeededDriver(5), check=True)
    assert a.history == b.history


def test_on_step_sees_every_action_before_it_is_applied() -> None:
    seen: list[tuple[int, Action]] = []

    def log(state: State, action: Action) -> None:
        seen.append((len(state.history), action))

    final = play(Duel().new_state(), _players(1), SeededDriver(1), on_step=log)
    start = len(final.history) - len(seen)
    assert [a for _, a in seen] == list(final.history[start:])
    assert [n for n, _ in seen] == list(range(start, len(final.history)))


def test_max_steps_stops_early() -> None:
    state = play(Duel().new_state(), _players(2), SeededDriver(2), max_steps=3)
    assert len(state.history) <= 3 + len(Duel().new_state().history)


def test_random_player_reads_its_legal_source() -> None:
    calls: list[int] = []

    def counted(state: State) -> list[Action]:
        calls.append(1)
        return state.legal_actions()

    def last_only(state: State) -> list[Action]:
        return state.legal_actions()[-1:]

    class ListPlayer:  # uniform over the list, as RandomPlayer(legal=...) promises
        def __init__(self, seed: int) -> None:
            self.rng = random.Random(seed)

        def __call__(self, state: State) -> Action:
            return self.rng.choice(state.legal_actions())

    plain = play(
        Duel().new_state(), {"red": ListPlayer(40), "blue": ListPlayer(41)}, SeededDriver(4)
    )
    same = {side: RandomPlayer(40 + i, legal=counted) for i, side in enumerate(Duel().sides)}
    assert play(Duel().new_state(), same, SeededDriver(4)).history == plain.history
    assert calls  # the source was used, and the same list gives the same game
    state = Duel().new_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    assert RandomPlayer(1, legal=last_only)(state) == state.legal_actions()[-1]


class _OwnRandom(random.Random):
    """A subclass: the random player draws through its ``choice``, not by bits."""


def test_random_player_draws_exactly_as_random_choice() -> None:
    # sample_action draws a plain random.Random by getrandbits, repeating
    # random.Random.choice's steps; through a subclass it calls choice itself: the same
    # tokens, the same actions and the generator left in the same state
    steps = 0
    for seed in range(8):
        plain, own = random.Random(seed), _OwnRandom(seed)
        state, driver = Duel().new_state(), SeededDriver(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(driver.pick(state.chance_outcomes()))
                continue
            action = sample_action(state, plain)
            assert sample_action(state, own) == action
            assert plain.getstate() == own.getstate()
            state.apply_unchecked(action)
            steps += 1
    assert steps > 50


def test_the_game_loop_ends_at_the_terminal_state() -> None:
    seen: list[str] = []
    state = play(
        Duel().new_state(), _players(6), SeededDriver(6), on_step=lambda s, a: seen.append(str(a))
    )
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert seen == [str(a) for a in state.history[len(state.history) - len(seen) :]]


def test_new_state_with_a_seed_decides_the_chance_before_the_first_decision() -> None:
    """``new_state(seed=s)``: the chance events before the first player's decision
    decided by ``SeededDriver(s)``, as a loop over them would."""
    by_hand, driver = Duel().new_state(), SeededDriver(4)
    assert by_hand.is_chance_node()  # the toy game starts with chance: the test can fail
    while by_hand.is_chance_node():
        by_hand.apply(driver.pick(by_hand.chance_outcomes()))
    seeded = Duel().new_state(seed=4)
    assert not seeded.is_chance_node()
    assert seeded.history == by_hand.history
    assert Duel().new_state().history != seeded.history
