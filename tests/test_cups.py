"""Cups of chits, per-activation scratch tables and dice-roll decisions (T&G 5.31, 3.0 C)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest

from hexwar.base.errors import ActionSyntaxError, CupError, SequenceError
from hexwar.engine.actions import CHANCE, END, Action, Decision, Outcome, Value
from hexwar.engine.dice import D6, D10, Dice
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import TOKEN, Phase, Segment, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.cups import Cup
from hexwar.testing import check_random_games

OWNER = {"a1": "A", "a2": "A", "b1": "B"}
CUP = Cup(key="markers", first=lambda s: s.get("game", "initiative"), owner=lambda s, c: OWNER[c])


def fill(state: State) -> None:
    CUP.fill(state, ["a1", "a1", "a2", "b1"])


def act(state: State, token: str) -> None:
    state.put("act", "group", token)
    state.put("act", "roll", None)


class Pull(Ruleset):
    """Chit pull: a cup segment whose activations mark units in a per-token scratch table."""

    name = "pull"
    sides = ("A", "B")
    sequence = TurnSequence(
        (
            Segment(
                "activation",
                (Phase("move", side=lambda s: OWNER[str(s.token)], end_when_idle=False),),
                cup=CUP,
                on_enter=fill,
                on_token=act,
                scratch=("segment",),
                token_scratch=("moved", "act"),
            ),
        ),
        turn_limit=2,
    )

    def action_space(self) -> ActionSpace:
        kinds = ["end", "pick", "draw", "mark", "shoot", "roll"]
        return ActionSpace.of(kinds, chit=OWNER, die=range(1, 7))

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        state.put("game", "initiative", options.get("initiative", "A"))

    def phase_actions(self, state: State, side: str) -> list[Action]:
        done = "x" in state.table("moved")
        return [] if done else [Action("mark"), Action("shoot")]

    def play(self, state: State, action: Action) -> None:
        if action.kind == "shoot":
            state.push(Decision.roll("shot", D6, params=(str(state.token),)))
        state.put("moved", "x", True)
        state.put("segment", f"{len(state.table('segment')):02d}", str(state.token))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        assert decision.kind == "shot"
        state.put("act", "roll", decision.rolled(action))

    def final_outcome(self, state: State) -> Outcome:
        return Outcome(None, "draw")


def test_first_pick_among_own_chits_then_draws_5_31() -> None:
    state = Pull().new_state()
    assert state.current_player() == "A"
    assert state.legal_actions() == [Action.of("pick", "a1"), Action.of("pick", "a2")]
    state.apply("pick a1")
    assert CUP.chits(state) == ("a1", "a2", "b1")  # one copy of the picked chit left the cup
    assert dict(state.table("act")) == {"group": "a1", "roll": None}
    state.apply("end")
    assert state.current_player() == CHANCE
    odds = {str(a): p for a, p in state.chance_outcomes()}
    assert odds == {"draw a1": Fraction(1, 3), "draw a2": Fraction(1, 3), "draw b1": Fraction(1, 3)}
    state.apply("draw b1")
    assert (state.token, state.current_player(), CUP.chits(state)) == ("b1", "B", ("a1", "a2"))


def test_no_first_pick_without_own_chits_or_holder() -> None:
    state = Pull().new_state(options={"initiative": None})
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes())[Action.of("draw", "a1")] == Fraction(1, 2)


def test_token_scratch_is_emptied_at_every_activation_not_only_the_segment() -> None:
    state = Pull().new_state()
    state.apply("pick a2")
    state.apply("mark")
    assert dict(state.table("moved")) == {"x": True}
    assert state.legal_actions() == [END]  # flagged: nothing more in this activation
    state.apply("end")
    state.apply("draw a1")
    assert dict(state.table("moved")) == {}  # a fresh activation: the flag is gone
    assert state.legal_actions() == [END, Action("mark"), Action("shoot")]
    assert list(state.table("segment").values()) == ["a2"]  # segment scratch is kept
    state.undo()
    assert dict(state.table("moved")) == {"x": True}  # the clearing is journaled


def test_roll_decision_and_rolled_value_in_decide() -> None:
    state = Pull().new_state()
    state.apply("pick a1")
    state.apply("shoot")
    assert state.pending[-1] == Decision.roll("shot", D6, params=("a1",))
    assert [str(a) for a, _ in state.chance_outcomes()] == [f"roll {n}" for n in range(1, 7)]
    state.apply("roll 5")
    assert state.get("act", "roll") == 5


def test_cup_segment_survives_save_and_load() -> None:
    state = Pull().new_state()
    state.apply("pick a1")
    state.apply("end")
    state.apply("draw a2")
    loaded = loads(state.ruleset, dumps(state))
    assert loaded == state
    assert CUP.chits(loaded) == ("a1", "b1")
    assert loaded.cursor.tokens == ("a1", "a2")


def test_random_cup_games_pass_the_verification_kit() -> None:
    report = check_random_games(Pull().new_state, games=10, seed=3, max_steps=300)
    assert report.ok, report.violations
    assert report.terminal == 10


def test_cup_take_draw_and_errors() -> None:
    state = Pull().new_state()
    cup = Cup(table="bag", key="cards", private="B")
    with pytest.raises(CupError, match="empty cup bag/cards"):
        cup.draw(state, "deal")
    cup.fill(state, ["x", "y"])
    cup.add(state, "x")
    deal = cup.draw(state, "deal")
    assert (deal.kind, deal.private) == ("deal", "B")
    assert dict(deal.outcomes) == {
        Action.of("draw", "x"): Fraction(2, 3),
        Action.of("draw", "y"): Fraction(1, 3),
    }
    assert cup.draw(state).kind == TOKEN
    cup.take(state, "x")
    assert cup.chits(state) == ("y", "x")
    with pytest.raises(CupError, match="'z' is not in the cup"):
        cup.take(state, "z")
    assert Cup().next(state) is None  # an empty cup ends the segment


def test_segment_needs_next_or_cup() -> None:
    with pytest.raises(SequenceError, match="needs next= or cup="):
        Segment("s", ())
    assert isinstance(Stage("x", ()), Stage)


def test_roll_decision_over_any_dice() -> None:
    d = Decision.roll("combat", D10, params=("5TA",), private="A", action="die")
    assert (d.is_chance, d.private, d.params) == (True, "A", ("5TA",))
    assert [str(a) for a, _ in d.outcomes] == [f"die {n}" for n in range(10)]
    two = Decision.roll("move", Dice(2, 6))
    assert dict(two.outcomes)[Action.of("roll", 7)] == Fraction(1, 6)
    assert d.rolled(Action.of("die", 0)) == 0
    with pytest.raises(ActionSyntaxError):
        d.rolled(Action("die"))
