"""Spatial observations and information-state tensors (issue 35, acceptance 2).

Every game with a board (Stalingrad, Crossing, Bridgehead, «Бой отрядов» on squares,
Triumph & Glory) lays its board planes on the map's offset grid: each channel equals the
flat vector's plane at the cells' places, zero on the grid's holes, and the validity
plane marks the cells. The information-state tensor is the observation and the seat's
own last tokens; a state whose token history is unknown raises instead of a silent
empty tensor.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from hexwar.base.errors import HexwarError
from hexwar.engine.registry import register
from hexwar.interop.adapter import TokenGame, TokenState
from hexwar.interop.spatial import Grid
from hexwar.interop.tensor import Dense

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from examples.registry import register_examples

from toy_game import Duel

register_examples()
register("duel", Duel)
BOARDS = ("crossing", "bridgehead", "boy_otryadov", "triumph_and_glory", "stalingrad-short")


def _play(game: TokenGame, seed: int, steps: int) -> list[tuple[TokenState, list[list[int]]]]:
    """Positions of a random game (a clone each) and each seat's tokens chosen so far."""
    rng = random.Random(seed)
    ts = game.new_initial_state()
    chosen: list[list[int]] = [[] for _ in range(game.num_players)]
    out = []
    for _ in range(steps):
        if ts.is_terminal():
            break
        out.append((ts.clone(), [list(c) for c in chosen]))
        if ts.is_chance_node():
            ids, ws = zip(*ts.chance_weights(), strict=True)
            ts.apply(rng.choices(ids, ws)[0])
        else:
            legal = ts.legal_actions()
            action = legal[rng.randrange(len(legal))]
            chosen[ts.current_player()].append(action)
            ts.apply(action)
    return out


@pytest.mark.parametrize("name", BOARDS)
def test_each_spatial_plane_is_the_flat_vectors(name: str) -> None:
    game = TokenGame.from_name(name)
    grid, dense = Grid(game), Dense(game)
    board = game.encoder.view.board
    assert board is not None
    assert board.grid is not None
    planes, cells = game.encoder.board_shape or (0, 0)
    base, size = game.encoder.section("board")
    rows = np.array([r for r, _ in board.grid])
    cols = np.array([c for _, c in board.grid])
    assert grid.shape == (planes + 1, rows.max() + 1, cols.max() + 1)
    valid = np.zeros(grid.shape[1:], bool)
    valid[rows, cols] = True
    out = np.full(grid.shape, 7.0, np.float32)  # written over whole when reused
    checked = 0
    positions = [ts for seed in range(4) for ts, _ in _play(game, seed, 40)]
    for ts in positions:
        for p in range(game.num_players):
            flat = dense.observation(ts, p)
            spatial = grid.spatial(flat)
            assert spatial.shape == grid.shape
            assert spatial.dtype == np.float32
            assert (spatial[-1] == valid).all()
            for k in range(planes):
                plane = flat[base + k * cells : base + (k + 1) * cells]
                assert (spatial[k][rows, cols] == plane).all()
                assert not spatial[k][~valid].any()
            assert (grid.spatial(flat, out) == spatial).all()
            rest = np.delete(flat, np.arange(base, base + size))
            assert (grid.rest(flat) == rest).all()
            checked += 1
    assert checked > 100


def test_a_game_without_a_board_has_no_spatial_observation() -> None:
    with pytest.raises(HexwarError, match="no spatial observation"):
        Grid(TokenGame.from_name("duel"))


@pytest.mark.parametrize("name", ["crossing", "duel", "stalingrad-short"])
def test_information_state_tensor_is_the_observation_and_own_tokens(name: str) -> None:
    game = TokenGame.from_name(name, history_tokens=6)
    base, n, k = game.observation_size, game.space.size, game.history_tokens
    long_enough = 0
    for ts, chosen in _play(game, 1, 300):
        for p in range(game.num_players):
            hot = ts.information_state_hot(p)
            assert sorted(i for i in hot if i < base) == sorted(ts.observation_hot(p))
            mine = chosen[p][-k:]
            assert ts.own_tokens(p) == tuple(mine)
            history = sorted(i - base for i in hot if i >= base)
            assert history == sorted(j * n + t for j, t in enumerate(reversed(mine)))
            tensor = ts.information_state_tensor(p)
            assert len(tensor) == game.information_state_size
            assert np.flatnonzero(tensor).tolist() == sorted(set(hot))
            long_enough += len(chosen[p]) > k
    assert long_enough > 0  # the bound was reached


def test_information_state_tensor_of_an_unknown_history_is_an_error() -> None:
    game = TokenGame.from_name("crossing")
    ts, _ = _play(game, 2, 30)[-1]
    again = game.state_of(ts.state.clone())  # a hexwar state under way: its tokens unknown
    with pytest.raises(HexwarError, match="unknown"):
        again.information_state_tensor(0)
    loaded = TokenState.deserialize(game, ts.serialize())  # the save keeps them
    assert loaded.own_tokens(0) == ts.own_tokens(0)


def test_openspiel_information_state_tensor() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from hexwar.interop.openspiel import register as register_spiel

    game = pyspiel.load_game(register_spiel("crossing"))
    assert game.get_type().provides_information_state_tensor
    assert (
        game.information_state_tensor_size()
        == TokenGame.from_name("crossing").information_state_size
    )
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, ps = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, ps)[0])
            continue
        for p in range(2):
            ours = state.token_state.information_state_tensor(p)
            assert np.asarray(state.information_state_tensor(p)).tolist() == ours
        state.apply_action(rng.choice(state.legal_actions()))
