"""Secret selections (T&G 5.21-5.23 hidden orders): limits, privacy, reveal, subsets."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import SelectionError
from hexwar.engine.actions import Action, Decision
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import HIDDEN, Ruleset, State
from hexwar.mechanics.selection import SecretSelection, subsets

GROUPS = {"fr": ["I", "RC", "V"], "ru": ["C4", "N27"]}
RATING = {"fr": 2, "ru": 1}
ORDERS = SecretSelection("orders", lambda s, side: GROUPS[side], lambda s, side: RATING[side])


def ask_both(state: State) -> None:
    for side in ("ru", "fr"):  # pushed last = decided first: the French
        ORDERS.ask(state, side)


class Game(Ruleset):
    sides = ("fr", "ru")
    sequence = TurnSequence(
        (
            Stage(
                "s", (Phase("orders", on_enter=ask_both), Phase("wait", "fr", end_when_idle=False))
            ),
        )
    )

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        assert ORDERS.answer(state, decision, action)


def test_at_most_the_order_rating_of_groups_5_22() -> None:
    state = Game().new_state()
    legal = state.legal_actions()
    assert max(len(a.args) for a in legal) == 2
    assert len(legal) == 1 + 3 + 3  # none, one of 3, two of 3
    with pytest.raises(ValueError, match="not a legal action"):
        state.apply("orders I RC V")


def test_statuses_are_hidden_until_revealed_5_23() -> None:
    state = Game().new_state()
    state.apply("orders I V")
    state.apply("orders N27")
    seen = state.observation("ru")
    assert seen["tables"]["orders"]["I"] == HIDDEN
    assert seen["tables"]["orders"]["N27"] is True  # a side knows its own
    assert HIDDEN in seen["history"]  # the French decision is private
    assert ORDERS.reveal(state, "I") is True
    assert ORDERS.reveal(state, "RC") is False
    seen = state.observation("ru")
    assert (seen["tables"]["orders"]["I"], seen["tables"]["orders"]["RC"]) == (True, False)
    assert seen["tables"]["orders"]["V"] == HIDDEN
    assert ORDERS.chosen(state, "V") is True
    assert ORDERS.chosen(state, "unknown") is False


def test_a_new_selection_replaces_the_old_statuses() -> None:
    state = Game().new_state()
    state.apply("orders I V")
    state.apply("orders")
    ORDERS.ask(state, "fr")
    state.apply("orders RC")
    assert [ORDERS.chosen(state, g) for g in GROUPS["fr"]] == [False, True, False]


def test_answers_outside_the_candidates_are_refused() -> None:
    state = Game().new_state()
    decision = state.pending[-1]
    with pytest.raises(SelectionError, match="not a selection among"):
        ORDERS.answer(state, decision, Action.of("orders", "N27"))
    assert not ORDERS.answer(state, Decision("other", "fr"), Action.of("orders"))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 7))
def test_subsets_are_every_combination_up_to_the_limit(n: int, at_most: int) -> None:
    items = [f"g{i}" for i in range(n)]
    out = subsets("orders", items, at_most)
    expected = sum(math.comb(n, k) for k in range(min(n, at_most) + 1))
    assert len(out) == len(set(out)) == expected
    assert all(len(a.args) <= at_most and set(a.args) <= set(items) for a in out)
    assert out[0] == Action("orders")
