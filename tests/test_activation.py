"""Per-activation context (T&G 5.3/5.5) and alternating activations (T&G 5.51-5.52)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hexwar.base.errors import ActivationError
from hexwar.engine.actions import CHANCE, END, Action, Decision
from hexwar.engine.sequencer import Phase, Segment, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.activation import Activation, alternate
from hexwar.mechanics.cups import Cup

GROUPS = {"I": ("fr", ["25L", "57L"]), "V": ("fr", ["Dumon"]), "N27": ("ru", ["Odessa"])}
GONE: set[str] = set()
ACT = Activation(
    flags=("moved", "fired"),
    present=lambda s, u: u not in GONE,
    owner=lambda s, g: GROUPS[g][0],
)
CUP = Cup(owner=ACT.owner)


def fill(state: State) -> None:
    CUP.fill(state, sorted(GROUPS))


def begin(state: State, group: str) -> None:
    ACT.begin(state, group, GROUPS[group][1], status="orders" if group != "V" else "halted")


class Chits(Ruleset):
    """Chit-pull: one phase per marker, played by the marker's owner unless halted."""

    sides = ("fr", "ru")
    sequence = TurnSequence(
        (
            Segment(
                "activation",
                (Phase("act", side=ACT.side, skip=ACT.skip_unless("orders")),),
                on_token=begin,
                on_enter=fill,
                cup=CUP,
                token_scratch=ACT.scratch,
            ),
        )
    )

    def phase_actions(self, state: State, side: str) -> list[Action]:
        return [Action.of("move", u) for u in ACT.ready(state, "moved")]

    def play(self, state: State, action: Action) -> None:
        ACT.flag(state, "moved", action.args[0])


def test_context_of_the_drawn_marker_5_31() -> None:
    state = Chits().new_state()
    assert state.current_player() == CHANCE
    state.apply("draw I")
    assert (ACT.token(state), ACT.status(state), ACT.side(state)) == ("I", "orders", "fr")
    assert state.current_player() == "fr"
    assert state.legal_actions() == [END, Action.of("move", "25L"), Action.of("move", "57L")]
    state.apply("move 57L")
    assert ACT.flagged(state, "moved") == {"57L"}
    assert ACT.ready(state, "moved") == ["25L"]


def test_flags_and_context_are_emptied_when_the_next_activation_begins() -> None:
    state = Chits().new_state()
    state.apply("draw I")
    state.apply("move 25L")
    state.apply(END)
    state.apply("draw N27")
    assert ACT.token(state) == "N27"
    assert ACT.flagged(state, "moved") == set()
    assert dict(state.table("moved")) == {}
    assert state.current_player() == "ru"


def test_a_status_the_phase_does_not_want_skips_it() -> None:
    state = Chits().new_state()
    state.apply("draw V")  # halted: the phase is skipped, the next marker is drawn
    assert state.current_player() == CHANCE
    assert ACT.status(state) == "halted"
    ACT.set_status(state, "orders")
    assert ACT.status(state) == "orders"


def test_units_no_longer_present_drop_out() -> None:
    state = Chits().new_state()
    state.apply("draw I")
    GONE.add("25L")
    try:
        assert ACT.units(state) == ("57L",)
        assert ACT.ready(state) == ["57L"]
    finally:
        GONE.clear()
    assert ACT.units(state) == ("25L", "57L")


def test_misuse_raises_activation_errors() -> None:
    state = Chits().new_state()
    assert not ACT.active(state)
    with pytest.raises(ActivationError, match="no activation has begun"):
        ACT.token(state)
    with pytest.raises(ActivationError, match="'assaulted' is not a flag"):
        ACT.flag(state, "assaulted", "25L")
    with pytest.raises(ActivationError, match="without owner="):
        Activation().side(state)
    assert ACT.status(state) is None
    assert ACT.units(state) == ()


# -- alternate (T&G 5.5: reserve activation) ---------------------------------------------

RESERVES = {"fr": ["I", "V"], "ru": ["N27"], "au": []}


def reserve_game(
    first: str | None, sides: tuple[str, ...] = ("fr", "ru"), rounds: int = 1
) -> State:
    class Reserve(Ruleset):
        sequence = TurnSequence(
            (
                Segment(
                    "reserve",
                    (Phase("act"),),
                    lambda s: alternate(
                        s, sides, first, lambda s, side: RESERVES[side], rounds=rounds
                    ),
                ),
            ),
            turn_limit=1,
        )

        def decide(self, state: State, decision: Decision, action: Action) -> None:
            raise AssertionError("no decisions here")

    Reserve.sides = sides
    return Reserve().new_state()


def test_the_holder_picks_who_starts_then_sides_alternate_5_51() -> None:
    state = reserve_game("ru")
    assert state.legal_actions() == [Action.of("pick", "fr"), Action.of("pick", "ru")]
    state.apply("pick ru")
    assert state.current_player() == "ru"
    assert state.legal_actions() == [Action.of("pick", "N27"), Action.of("pick", "pass")]
    state.apply("pick N27")
    assert state.current_player() == "fr"
    state.apply("pick pass")
    assert state.is_terminal()  # one pick each, then the segment (and the 1-turn game) ends
    assert state.history[-3:] == (
        Action.of("pick", "ru"),
        Action.of("pick", "N27"),
        Action.of("pick", "pass"),
    )


def test_without_a_holder_a_roll_off_draws_who_starts_5_51() -> None:
    state = reserve_game(None)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [
        (Action.of("draw", "fr"), Fraction(1, 2)),
        (Action.of("draw", "ru"), Fraction(1, 2)),
    ]
    state.apply("draw fr")
    assert state.current_player() == "fr"


def test_three_sides_and_two_rounds_take_turns_in_order() -> None:
    state = reserve_game("fr", ("fr", "ru", "au"), rounds=2)
    state.apply("pick ru")
    order = []
    while not state.is_terminal():
        order.append(state.current_player())
        state.apply("pick pass")
    assert order == ["ru", "au", "fr", "ru", "au", "fr"]
