"""The default reason for an illegal action: the failing token, its meaning, what may follow."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hexwar.base.errors import NotLegalNow
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State

UNITS = {"a": 2, "b": 1, "c": 0}
MOVE = Kind(
    "move",
    (
        Values(
            lambda s, side, a: [u for u, n in UNITS.items() if n],
            checked=True,
            means="a unit that may move",
        ),
        Values(
            lambda s, side, a: [str(h) for h in range(1, UNITS[a[0]] + 1)],
            means="a hex in its reach",
        ),
    ),
)
ATTACK = Kind(
    "attack",
    (
        Values(lambda s, side, a: ["x"]),
        Combination(
            lambda s, side, a: sorted(UNITS),
            valid=lambda s, side, f, g: sum(UNITS[u] for u in g) >= 1,
            means="an attacker",
        ),
    ),
)
PHASE = Kinds((MOVE, ATTACK))


class Game(Ruleset):
    sides = ("red",)
    sequence = TurnSequence((Stage("s", (Phase("p", side="red", end_when_idle=False),)),))

    def action_space(self) -> ActionSpace:
        return ActionSpace.of(["end", "move", "attack"], unit=sorted(UNITS), hex=["1", "2", "x"])

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> Sequence[str]:
        return PHASE.tokens(state, side, prefix)

    def step_meaning(self, state: State, prefix: tuple[str, ...]) -> str | None:
        return PHASE.meaning(prefix)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "move c 1",
            "`c` may not follow `move` here: it is not a unit that may move (may follow: a, b)",
        ),
        (
            "move b 2",
            "`2` may not follow `move b` here: it is not a hex in its reach (may follow: 1)",
        ),
        ("move a", "`move a` is not complete here: it needs a hex in its reach (may follow: 1, 2)"),
        ("attack x c", "`c` may not follow `attack x` here: it is not an attacker"),
        ("fly a", "no `fly` action may be taken here (offered: attack, end, move)"),
    ],
)
def test_the_reason_names_the_token_its_meaning_and_what_may_follow(text: str, says: str) -> None:
    state = Game().new_state()
    before = state.to_data()
    with pytest.raises(NotLegalNow) as info:
        state.apply(text)
    assert says in str(info.value)
    assert state.to_data() == before


def test_meaning_of_each_step() -> None:
    assert PHASE.meaning(()) == "a kind of action offered now"
    assert PHASE.meaning(("move",)) == "a unit that may move"
    assert PHASE.meaning(("move", "a")) == "a hex in its reach"
    assert PHASE.meaning(("attack", "x", "a")) == "an attacker"
    assert PHASE.meaning(("attack",)) is None  # the step does not say
    assert PHASE.meaning(("fly",)) is None
