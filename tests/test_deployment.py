"""Hidden set-up («Бой отрядов» X.2, X.3): private placement chains, limits, the reveal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from hexwar.base.errors import DeploymentError
from hexwar.board.pieces import SQUARE_CODEC, Pieces
from hexwar.engine.actions import Action, Decision, Value
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import HIDDEN, Ruleset, State
from hexwar.grid.square import Square
from hexwar.mechanics.deployment import Deployment
from hexwar.testing import check_random_games

REG = Pieces(SQUARE_CODEC)
ZONE = {"blue": (3, 4), "red": (0, 1)}  # own rows: (front row, rear row)


def zone_cells(state: State, side: str, piece: str) -> Iterable[Square]:
    rows = ZONE[side][:1] if piece.endswith("g") else ZONE[side]  # guns: front row only
    return [Square(c, r) for r in rows for c in range(3)]


def front_limit(state: State, side: str, row: str) -> int | None:
    return 2 if row == str(ZONE[side][0]) else None  # X.2-like: at most 2 in the front row


DEPLOY = Deployment(
    REG,
    zone_cells,
    per_cell=2,
    row=lambda c: str(c.row),
    per_row=front_limit,
    on_done=lambda s: s.put("game", "started", True),
)


class Setup(Ruleset):
    name = "setup"
    sides = ("blue", "red")
    sequence = TurnSequence(
        (Stage("play", (Phase("move", side="blue", end_when_idle=False),)),), turn_limit=1
    )

    def action_space(self) -> ActionSpace:
        pieces = ("b1g", "b2", "b3", "r1g", "r2", "r3", "r4")
        cells = [f"{c},{r}" for r in range(5) for c in range(3)]
        return ActionSpace.of(["end", "place"], piece=pieces, cell=cells)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        DEPLOY.begin(state, {"blue": ["b1g", "b2", "b3"], "red": ["r1g", "r2", "r3", "r4"]})

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        return DEPLOY.actions(state, decision)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        assert DEPLOY.answer(state, decision, action)


def test_x2_each_side_places_in_turn_behind_a_screen() -> None:
    s = Setup().new_state()
    assert s.current_player() == "blue"
    assert s.pending[-1].params == ("b1g",)
    assert [str(a) for a in s.legal_actions()] == [
        "place b1g 0,3",
        "place b1g 1,3",
        "place b1g 2,3",
    ]
    s.apply("place b1g 0,3")
    s.apply("place b2 0,3")
    # per cell 2, and the front row (row 3) is full with 2
    assert [str(a) for a in s.legal_actions()] == ["place b3 0,4", "place b3 1,4", "place b3 2,4"]
    s.apply("place b3 1,4")
    assert s.current_player() == "red"
    red_view = s.observation("red")
    assert red_view["tables"]["pieces"]["b1g"] == HIDDEN
    assert "0,3" not in red_view["tables"].get("stacks", {})  # not even which cells are held
    assert red_view["history"] == [HIDDEN, HIDDEN, HIDDEN]
    assert s.observation("blue")["tables"]["pieces"]["b1g"] == ["0,3", "blue"]
    for text in ("place r1g 2,0", "place r2 2,0", "place r3 1,1", "place r4 1,1"):
        assert not DEPLOY.done(s)
        s.apply(text)
    assert DEPLOY.done(s)
    assert s.get("game", "started") is True
    assert s.observation("red")["tables"]["pieces"]["b1g"] == ["0,3", "blue"]  # X.3 revealed
    assert REG.occupants(s, Square(1, 1)) == ("r3", "r4")


def test_deployment_is_undoable_and_saved() -> None:
    s = Setup().new_state()
    s.apply("place b1g 1,3")
    before = s.to_data()
    s.apply("place b2 1,3")
    again = loads(s.ruleset, dumps(s))
    assert again.to_data() == s.to_data()
    s.undo()
    assert s.to_data() == before


def test_wrong_answers_and_plans_are_refused() -> None:
    s = Setup().new_state()
    with pytest.raises(DeploymentError, match="does not answer"):
        DEPLOY.answer(s, s.pending[-1], Action.of("place", "b2", "0,3"))
    assert not DEPLOY.answer(s, Decision("retreat", "blue", ("x",)), Action.of("x"))
    with pytest.raises(DeploymentError, match="planned twice"):
        DEPLOY.begin(Setup().new_state(), {"blue": ["x", "x"]})


def test_random_set_ups_pass_the_verification_kit() -> None:
    report = check_random_games(lambda: Setup().new_state(), games=15, seed=3)
    assert report.ok, report.violations
