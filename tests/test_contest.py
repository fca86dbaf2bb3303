"""Opposed rolls (T&G 4.0 initiative, 5.51 roll-off): totals, winner, ties, re-rolls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import ContestError
from hexwar.engine.actions import CHANCE, Action, Decision
from hexwar.engine.dice import D6, D10
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.contest import OpposedRoll

RATING = {"fr": 2, "ru": 1, "au": 0}


def game(roll: OpposedRoll) -> State:
    """A one-phase game whose only phase starts ``roll`` (and then waits for red)."""

    class Game(Ruleset):
        sides = roll.sides
        sequence = TurnSequence(
            (
                Stage(
                    "s",
                    (
                        Phase("roll", on_enter=roll.start),
                        Phase("wait", side=roll.sides[0], end_when_idle=False),
                    ),
                ),
            )
        )

        def decide(self, state: State, decision: Decision, action: Action) -> None:
            assert roll.answer(state, decision, action)

    return Game().new_state()


INITIATIVE = OpposedRoll("initiative", D10, ("fr", "ru"), lambda s, side: RATING[side])


def test_initiative_higher_total_wins_4_0() -> None:
    state = game(INITIATIVE)
    assert state.current_player() == CHANCE
    assert state.pending[-1].params[0] == "fr"  # the first side rolls first
    state.apply("roll 1")  # 1 + 2 = 3
    state.apply("roll 4")  # 4 + 1 = 5
    assert (INITIATIVE.total(state, "fr"), INITIATIVE.total(state, "ru")) == (3, 5)
    assert INITIATIVE.winner(state) == "ru"
    assert state.get("contest", "initiative") == "ru"


def test_initiative_tie_gives_nobody_the_initiative_4_0() -> None:
    state = game(INITIATIVE)
    state.apply("roll 3")  # 5
    state.apply("roll 4")  # 5
    assert INITIATIVE.winner(state) is None
    assert state.pending == ()  # no re-roll without reroll_ties


def test_roll_off_rerolls_only_the_tied_sides_5_51() -> None:
    roll_off = OpposedRoll("roll-off", D6, ("fr", "ru", "au"), reroll_ties=True, table="game")
    state = game(roll_off)
    for n in (5, 5, 2):  # fr and ru tie at the top; au is out
        state.apply(f"roll {n}")
    assert [d.params for d in reversed(state.pending)] == [("fr", "fr", "ru"), ("ru", "fr", "ru")]
    assert roll_off.winner(state) is None
    state.apply("roll 6")
    state.apply("roll 1")
    assert roll_off.winner(state) == "fr"
    assert state.get("game", "roll-off") == "fr"
    assert state.pending == ()


def test_a_new_round_replaces_the_old_winner() -> None:
    state = game(INITIATIVE)
    state.apply("roll 9")
    state.apply("roll 0")
    assert INITIATIVE.winner(state) == "fr"
    INITIATIVE.start(state)
    state.apply("roll 0")
    state.apply("roll 9")
    assert INITIATIVE.winner(state) == "ru"


def test_other_decisions_are_not_answered() -> None:
    state = game(INITIATIVE)
    with pytest.raises(ContestError, match="'fr' has not rolled"):
        INITIATIVE.total(state, "fr")
    other = Decision.roll("cohesion", D10, params=("57L",))
    assert not INITIATIVE.answer(state, other, Action.of("roll", 3))


@pytest.mark.parametrize("sides", [("fr",), ("fr", "fr"), ()])
def test_malformed_contests_are_refused(sides: tuple[str, ...]) -> None:
    with pytest.raises(ContestError, match="two or more distinct sides"):
        OpposedRoll("x", D6, sides)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=2))
def test_the_winner_has_the_strictly_highest_total(rolls: list[int]) -> None:
    state = game(INITIATIVE)
    for n in rolls:
        state.apply(f"roll {n}")
    totals = {s: INITIATIVE.total(state, s) for s in ("fr", "ru")}
    assert totals == {"fr": rolls[0] + 2, "ru": rolls[1] + 1}
    won = INITIATIVE.winner(state)
    if won is None:
        assert totals["fr"] == totals["ru"]
    else:
        loser = "ru" if won == "fr" else "fr"
        assert totals[won] > totals[loser]
    state.undo()
    assert state.pending[-1].params[0] == "ru"  # undo takes the last roll back
