"""ChosenRemoval: a side picks pieces to remove, one decision each («Бой отрядов» XIII)."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.base.errors import RemovalError
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.engine.actions import Action, Decision
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.removal import ChosenRemoval

REG: Pieces[Hex] = Pieces(HEX_CODEC)
RAID = ChosenRemoval(REG, "raid", lambda state, side: REG.pieces_of(state, "blue"))


class Game(Ruleset):
    sides = ("red", "blue")
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))

    def decision_actions(self, state: State, decision: Decision) -> Any:
        return RAID.actions(state, decision)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        assert RAID.answer(state, decision, action)


def _state(n: int) -> State:
    state = Game().new_state()
    for i in range(n):
        REG.place(state, f"b{i}", Hex(i, 0), "blue")
    return state


@pytest.mark.parametrize(
    ("present", "asked", "removed"), [(5, 2, 2), (1, 2, 1), (0, 2, 0), (3, 0, 0)]
)
def test_removes_the_chosen_pieces_up_to_n_xiii(present: int, asked: int, removed: int) -> None:
    state = _state(present)
    RAID.start(state, "red", asked)
    while state.pending:
        assert state.current_player() == "red"
        state.apply(state.legal_actions()[-1])  # the highest id each time
    left = REG.pieces_of(state)
    assert len(left) == present - removed
    assert left == [f"b{i}" for i in range(present - removed)]


def test_decision_counts_down_and_offers_only_candidates() -> None:
    state = _state(3)
    RAID.start(state, "red", 2)
    assert state.pending[-1].params == (2,)
    assert [str(a) for a in state.legal_actions()] == ["remove b0", "remove b1", "remove b2"]
    state.apply("remove b1")
    assert state.pending[-1].params == (1,)
    assert [str(a) for a in state.legal_actions()] == ["remove b0", "remove b2"]


def test_answer_refuses_a_piece_that_is_not_a_candidate() -> None:
    state = _state(2)
    RAID.start(state, "red", 1)
    decision = state.pending[-1]
    with pytest.raises(RemovalError, match="not one of the pieces"):
        RAID.answer(state, decision, Action.of("remove", "r9"))
    assert not RAID.answer(state, Decision("other", "red"), Action.of("remove", "b0"))
