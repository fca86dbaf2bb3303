"""Honest bounds and information types (issue 35, acceptance 3).

``max_tokens`` (OpenSpiel's ``max_game_length``) is checked by the kit for every game:
no random game reaches it and it is within 3x of the longest (1,000 games each in the
slow set, 300 of the two games of whole turns of many pieces, seed 0). A game reaching it
is ended by the adapter as truncated. The information type is derived from what a ruleset
hides unless declared, and the kit fails a declaration of perfect information that hides something.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

import pytest

from hexwar.engine import registry
from hexwar.engine.bounds import Bounds, hides_anything
from hexwar.interop.adapter import TERMINAL_PLAYER, TokenGame
from hexwar.testing import check_length_bound, check_random_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from examples.registry import register_examples

from toy_game import Duel

register_examples()
GAMES = (
    "crossing",
    "bridgehead",
    "boy_otryadov",
    "triumph_and_glory",
    "stalingrad-short",
    "stalingrad-long",
)
QUICK = {"crossing": 100, "bridgehead": 50, "stalingrad-short": 20}
#: Random games of the slow check: 1,000, or 300 where one costs a third of a CPU-second.
SLOW = dict.fromkeys(GAMES, 1000) | {"boy_otryadov": 300, "triumph_and_glory": 300}


def _report(name: str, games: int) -> object:
    scenario, options = registry.start(name)
    report = check_length_bound(registry.make(name), scenario, options, games=games, seed=0)
    print(name, report)
    return report


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_declared_length_within_3x_of_the_longest_random_game(name: str) -> None:
    report = _report(name, SLOW[name])
    assert report.ok, str(report)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(QUICK))
def test_declared_length_quick(name: str) -> None:
    report = _report(name, QUICK[name])
    assert report.ok, str(report)  # type: ignore[attr-defined]


def test_a_bound_too_loose_or_too_tight_fails() -> None:
    class Loose(Duel):
        def bounds(self) -> Bounds:
            return Bounds(max_tokens=100_000)

    class Tight(Duel):
        def bounds(self) -> Bounds:
            return Bounds(max_tokens=4)

    assert not check_length_bound(Loose(), games=20).ok
    assert not check_length_bound(Tight(), games=20).ok


def test_a_game_reaching_the_bound_is_truncated() -> None:
    class Short(Duel):
        def bounds(self) -> Bounds:
            return Bounds(max_tokens=12)

    game = TokenGame(Short())
    ts = game.new_initial_state()
    while not ts.is_terminal():
        if ts.is_chance_node():
            ts.apply(ts.chance_weights()[0][0])
        else:
            ts.apply(ts.legal_actions()[0])
    assert ts.truncated()
    assert not ts.state.is_terminal()
    assert ts.current_player() == TERMINAL_PLAYER
    assert ts.legal_actions() == []
    assert ts.returns() == [0.0] * game.num_players
    assert len(ts.state.history) < 12


@pytest.mark.parametrize(
    ("name", "perfect"),
    [
        ("crossing", True),  # declared
        ("bridgehead", True),  # derived: nothing hidden
        ("boy_otryadov", False),  # X.2 hidden set-up
        ("stalingrad-short", False),  # S3.3, S5.2 cards
    ],
)
def test_information_type_from_what_the_game_hides(name: str, perfect: bool) -> None:
    scenario, options = registry.start(name)
    assert hides_anything(registry.make(name), scenario, options) is not perfect
    assert TokenGame.from_name(name).perfect_information is perfect


def test_kit_fails_a_false_declaration_of_perfect_information() -> None:
    class Liar(Duel):
        perfect_information: ClassVar[bool | None] = True

    report = check_random_games(lambda: Liar().new_state(), games=2, seed=0)
    assert "information" in {v.check for v in report.violations}
    assert TokenGame(Duel()).perfect_information is False  # the deal is private


def test_truncated_games_pass_the_frameworks_checks() -> None:
    """A game cut at its bound ends as truncated in PettingZoo and Gymnasium, and both
    frameworks' checks (and OpenSpiel's sims) pass on such games."""
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from hexwar.interop.gymnasium import HexwarEnv
    from hexwar.interop.pettingzoo import HexwarAEC

    class Short(Duel):
        def bounds(self) -> Bounds:
            return Bounds(max_tokens=12)

    game = TokenGame(Short(), name="short-duel")
    env = HexwarAEC(game)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(obs["action_mask"].argmax()))
    assert env.ts.truncated()
    api_test(HexwarAEC(game), num_cycles=50, verbose_progress=False)
    check_env(HexwarEnv(game), skip_render_check=True)
    gym = HexwarEnv(game)
    _, info = gym.reset(seed=0)
    done = truncated = False
    while not (done or truncated):
        _, reward, done, truncated, info = gym.step(int(info["action_mask"].argmax()))
    assert truncated
    assert not done
    assert reward == 0.0
