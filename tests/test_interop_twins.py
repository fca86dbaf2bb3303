"""Twin states through every observation channel (issue 35, acceptance 1).

Twins are states a seat cannot tell apart: the same public play, different hidden
information. Stalingrad's come from the ruleset's resampling (S3.3 deck order, S5.2 the
other hand); «Бой отрядов»' (X.2 hidden set-up) are played in lock step, the hidden
answers drawn by a generator of their own in each twin. Every channel a seat (or a
spectator) reads must be the same in both twins: the observation tensor (hot indices,
the dense array, the mask), the spatial and information-state tensors, the observation
and information-state strings, ``str(state)``, the PettingZoo, Gymnasium and OpenSpiel
renders, strings and tensors.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hexwar.engine.registry import register
from hexwar.interop.adapter import TokenGame, TokenState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from examples.registry import register_examples

from toy_game import Duel

register_examples()
register("duel", Duel)


def channels(ts: TokenState, player: int) -> dict[str, Any]:
    """Everything seat ``player`` (and a spectator) may read of ``ts``, by channel."""
    from hexwar.interop.gymnasium import HexwarEnv
    from hexwar.interop.pettingzoo import HexwarAEC
    from hexwar.interop.tensor import Dense

    game = ts.game
    dense = Dense(game)
    obs, mask = dense.observe(ts, player)
    out: dict[str, Any] = {
        "hot": sorted(ts.observation_hot(player)),
        "dense": obs.tobytes(),
        "mask": mask.tobytes(),
        "legal": ts.legal_actions(player),
        "prefix": ts.visible_prefix(player),
        "observation_string": ts.observation_string(player),
        "information_state_string": ts.information_state_string(player),
        "str": str(ts),
        "render_text": ts.render_text(),
        "information_state_tensor": ts.information_state_tensor(player),
    }
    if game.encoder.board_shape is not None:
        from hexwar.interop.spatial import Grid

        out["spatial"] = Grid(game).spatial(obs).tobytes()
    aec = HexwarAEC(game, render_mode="ansi")
    aec.reset(seed=0)
    aec.ts = ts
    agent = aec.possible_agents[player]
    seen = aec.observe(agent)
    out["pettingzoo_render"] = aec.render()
    out["pettingzoo_observation"] = seen["observation"].tobytes()
    out["pettingzoo_mask"] = seen["action_mask"].tobytes()
    env = HexwarEnv(game, seat=player, render_mode="ansi")
    env.ts = ts
    out["gymnasium_render"] = env.render()
    out["gymnasium_observation"] = env._obs_info()[0].tobytes()
    return out


def openspiel_channels(spiel_game: Any, ts: TokenState, player: int) -> dict[str, Any]:
    from hexwar.interop.openspiel import HexwarState

    state = HexwarState(spiel_game, ts)
    return {
        "openspiel_str": str(state),
        "openspiel_observation_string": state.observation_string(player),
        "openspiel_information_state_string": state.information_state_string(player),
        "openspiel_observation_tensor": np.asarray(state.observation_tensor(player)).tobytes(),
        "openspiel_information_state_tensor": np.asarray(
            state.information_state_tensor(player)
        ).tobytes(),
    }


def differences(a: TokenState, b: TokenState, player: int, spiel_game: Any = None) -> list[str]:
    """The channels in which seat ``player`` could tell ``a`` from ``b``."""
    ca, cb = channels(a, player), channels(b, player)
    if spiel_game is not None:
        ca |= openspiel_channels(spiel_game, a, player)
        cb |= openspiel_channels(spiel_game, b, player)
    assert ca.keys() == cb.keys()
    return sorted(k for k in ca if ca[k] != cb[k])


def _step(ts: TokenState, rng: random.Random) -> None:
    if ts.is_chance_node():
        ids, ws = zip(*ts.chance_weights(), strict=True)
        ts.apply(rng.choices(ids, ws)[0])
    else:
        legal = ts.legal_actions()
        ts.apply(legal[rng.randrange(len(legal))])


def _hidden_to(ts: TokenState, player: int) -> bool:
    """Whether the acting answer is hidden from seat ``player`` (private to another side)."""
    pending = ts.state.pending
    side = ts.game.seats[player].side
    return bool(pending) and pending[-1].private not in (None, side)


def lockstep_twins(
    game: TokenGame, player: int, seed: int, steps: int
) -> Iterator[tuple[TokenState, TokenState]]:
    """Two games played with one generator but for the answers hidden from ``player``
    (each twin its own): every position while something stays hidden from it."""
    shared = random.Random(seed)
    own = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    a, b = game.new_initial_state(), game.new_initial_state()
    for _ in range(steps):
        if a.is_terminal() or b.is_terminal():
            return
        side = game.seats[player].side
        hidden = a.state.hides_from(side) or _hidden_to(a, player)
        if not hidden and a.state.history:  # what was hidden is revealed: the twins part
            return
        yield a, b
        if _hidden_to(a, player) or _hidden_to(b, player):
            # each twin answers its hidden decisions on its own (their counts may differ)
            for twin, rng in ((a, own[0]), (b, own[1])):
                if _hidden_to(twin, player) and not twin.is_terminal():
                    _step(twin, rng)
        else:
            state = shared.getstate()
            _step(a, shared)
            shared.setstate(state)
            _step(b, shared)


def _spiel(name: str) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from hexwar.interop.openspiel import register as register_spiel

    return pyspiel.load_game(register_spiel(name))


def _check(pairs: Callable[[], Iterator[tuple[TokenState, TokenState, int]]], name: str) -> None:
    spiel_game = _spiel(name)
    compared, unlike = 0, 0
    for a, b, player in pairs():
        assert differences(a, b, player, spiel_game) == []
        compared += 1
        unlike += a.state.to_data(history=False) != b.state.to_data(history=False)
    assert compared > 10
    assert unlike > compared // 4  # the twins really differ in what is hidden


def test_stalingrad_twins_by_resampling() -> None:
    """S3.3, S5.2: the other hand and every deck's order drawn anew change no channel."""
    spiel_game = _spiel("stalingrad-short")
    game = spiel_game.new_initial_state().token_state.game

    def pairs() -> Iterator[tuple[TokenState, TokenState, int]]:
        rng = random.Random(5)
        ts = game.new_initial_state()
        n = 0
        while not ts.is_terminal() and n < 400:
            if n % 25 == 0 and not ts.is_chance_node():
                for player in range(game.num_players):
                    yield ts, ts.resample(player, rng), player
            _step(ts, rng)
            n += 1

    _check(pairs, "stalingrad-short")


@pytest.mark.parametrize("name", ["boy_otryadov"])
def test_lockstep_twins(name: str) -> None:
    """X.2 («Бой отрядов»' hidden set-up): the other side's hidden placements change no
    channel of a seat while they stay hidden."""
    spiel_game = _spiel(name)
    game = spiel_game.new_initial_state().token_state.game

    def pairs() -> Iterator[tuple[TokenState, TokenState, int]]:
        for player in range(game.num_players):
            for seed in range(3):
                for a, b in lockstep_twins(game, player, seed, 200):
                    yield a, b, player

    _check(pairs, name)


def test_str_shows_nothing_hidden_to_a_spectator() -> None:
    """``str(state)`` is the spectator's view: twins for either seat print the same."""
    game = TokenGame.from_name("stalingrad-short")
    rng = random.Random(2)
    ts = game.new_initial_state()
    for _ in range(60):
        _step(ts, rng)
    assert "hand:" not in ts.render_text() or '"?"' in ts.render_text()
    for player in (0, 1):
        assert str(ts.resample(player, rng)) == str(ts)
