"""The search player on the web server (issue 34 acceptance 5): a ``search`` seat for
every game, and a hint for the seat to act, thought in a bot worker."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.test_server import GAMES, Client, make_client, new_game, session_of

from hexwar.engine.actions import Action
from hexwar.search import SearchPlayer
from hexwar.web.bots import HINT_ITERATIONS, hint_data
from hexwar.web.seats import derived_seed


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with make_client(GAMES, tmp_path) as made:
            yield made


def test_every_game_offers_a_search_seat(client: Client) -> None:
    page = client.get("/").text
    for game in GAMES.values():
        assert "search" in game.bots, game.name
    assert page.count("<option>search</option>") == sum(
        len(g.ruleset({}).seats()) for g in GAMES.values()
    )


def test_a_search_seat_plays_and_the_hint_advises_the_seat_to_act(client: Client) -> None:
    gid, tokens = new_game(client, "bridgehead", **{"seat:red": "search"})
    assert set(tokens) == {"blue"}
    h = {"x-hexwar-token": tokens["blue"]}
    session = session_of(client, gid)
    assert session.state.current_player() == "blue"
    r = client.post(f"/api/g/{gid}/hint", json={"seat": "blue"}, headers=h)
    assert r.status_code == 200, r.text
    advice = r.json()
    assert advice["side"] == "blue"
    assert advice["iterations"] == HINT_ITERATIONS
    assert session.state.is_legal(Action.parse(advice["chosen"]))
    assert advice["candidates"]
    # the worker's search is the search player's, seeded from the game, seat and actions
    seed = derived_seed(session.seed, "blue", len(session.state.history), "hint")
    expected = SearchPlayer(seed, iterations=HINT_ITERATIONS).search(session.state)
    assert advice == hint_data(expected)
    assert session.state.history == ()  # a hint is advice: nothing was played
    # blue ends its turn; the search seat (red) answers in the worker
    while session.state.current_player() == "blue":
        assert client.post(f"/api/g/{gid}/act", json={"seat": "blue", "tokens": ["end"]},
                           headers=h).status_code == 200  # fmt: skip
    assert any(a.kind != "end" for a in session.state.history), session.state.history


def test_a_hint_is_only_for_the_seat_to_act_with_its_token(client: Client) -> None:
    gid, tokens = new_game(client, "bridgehead")
    r = client.post(f"/api/g/{gid}/hint", json={"seat": "red"},
                    headers={"x-hexwar-token": tokens["red"]})  # fmt: skip
    assert r.status_code == 409
    assert "blue" in r.json()["error"]
    r = client.post(f"/api/g/{gid}/hint", json={"seat": "blue"})
    assert r.status_code == 403
    r = client.post(f"/api/g/{gid}/hint", json={"seat": "blue"},
                    headers={"x-hexwar-token": tokens["red"]})  # fmt: skip
    assert r.status_code == 403
