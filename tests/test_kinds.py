"""Kinds as the one legality channel, and as what an action does (``engine.kinds``)."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

import pytest

from hexwar.engine.actions import Action, Decision
from hexwar.engine.kinds import DecisionKind, Kind, Kinds, Values
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import DONE
from hexwar.engine.state import Ruleset, State

ENDS = {"a": (), "b": ("1", "2"), "c": ("3",)}  # unit -> the hexes it may end in
ASKED: list[str] = []


def units(state: State, side: str, args: tuple[str, ...]) -> Iterator[str]:
    yield from (u for u in sorted(ENDS) if not state.get("moved", u))


def ends(state: State, side: str, args: tuple[str, ...]) -> Iterator[str]:
    ASKED.append(args[0])
    yield from ENDS[args[0]]


def move(state: State, action: Action) -> None:
    state.put("moved", action.args[0], True)
    if action.args[0] == "c":
        state.push(Decision("pick", "red", params=("c",)))


MOVE = Kind("move", (Values(units), Values(ends)), does=move)
PICK = Kinds((Kind("take", (Values(lambda s, d, a: ("x", "y")),)),))


def picked(state: State, decision: Decision, action: Action) -> None:
    state.put("picked", str(decision.params[0]), action.args[0])


class Game(Ruleset):
    """Phases and decisions declared with their kinds: no tokens, play or decide here."""

    name = "kinds-game"
    sides = ("red",)
    sequence = TurnSequence(
        (Stage("s", (Phase("p", side="red", kinds=Kinds((MOVE,))),)),), turn_limit=1
    )
    decision_kinds = (DecisionKind("pick", does=picked, answers=PICK),)


def test_the_idle_test_stops_at_the_first_candidate_that_completes() -> None:
    ASKED.clear()
    state = Game().new_state()
    assert MOVE.any(state, "red")
    assert ASKED == ["a", "b"]  # a has no end; b completes; c is never asked
    assert state.legal_tokens(("move",)) == ("b", "c")  # a would be a dead end


def test_the_whole_list_is_the_steps_walked_in_order() -> None:
    state = Game().new_state()
    assert [str(a) for a in state.legal_actions()] == ["end", "move b 1", "move b 2", "move c 3"]
    assert state.legal_tokens(("move", "b", "1")) == (DONE,)
    assert not state.is_legal(Action("move", ("a", "1")))


def test_play_and_decide_reach_the_rule_through_the_kinds() -> None:
    state = Game().new_state()
    state.apply("move c 3")  # MOVE's does; it pushes a pick, answered by PICK's tokens
    assert state.get("moved", "c") is True
    assert state.legal_tokens() == ("take",)
    assert state.legal_tokens(("take",)) == ("x", "y")
    state.apply("take y")  # the DecisionKind's does
    assert state.get("picked", "c") == "y"
    assert state.ruleset.step_meaning(state, ()) == "a kind of action offered now"


def test_a_kind_without_does_or_a_game_without_kinds_is_refused_by_the_defaults() -> None:
    bare = Kind("move", (Values(units), Values(ends)))

    class NoDoes(Game):
        sequence = TurnSequence((Stage("s", (Phase("p", side="red", kinds=Kinds((bare,))),)),))

    state = NoDoes().new_state()
    with pytest.raises(NotImplementedError, match="move"):
        state.ruleset.play(state, Action("move", ("b", "1")))
    with pytest.raises(NotImplementedError, match="pick"):
        Ruleset().decide(state, Decision("pick", "red"), Action("take", ("x",)))


def test_decision_kind_names_must_be_distinct() -> None:
    kind = DecisionKind("pick", does=picked)

    class Twice(Game):
        decision_kinds = (kind, kind)

    with pytest.raises(ValueError, match="Twice: decision kinds repeat"):
        Twice().new_state()

    class ByName(Game):
        decision_kinds = MappingProxyType({"pick": kind})  # type: ignore[assignment]  # old

    with pytest.raises(TypeError, match=r"ByName\.decision_kinds: a tuple of DecisionKind"):
        ByName().new_state()
