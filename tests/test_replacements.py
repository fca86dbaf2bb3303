"""Step counters and replacements (hexwar.mechanics.steps / .replacements), alone and in
a toy game the verification kit plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from hexwar.base.errors import DataError
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.engine.actions import Action, Outcome, Value
from hexwar.engine.kinds import Kind, Kinds, Values
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.replacements import ReplacementError, Replacements
from hexwar.mechanics.steps import StepCounters, StepError, StepTrack, cheapest_cover
from hexwar.testing import check_random_games

TRACK = StepTrack.of(
    {"attack": 4, "defence": 3}, {"attack": 2, "defence": 2}, {"attack": 1, "defence": 1}
)
REG: Pieces[Hex] = Pieces(HEX_CODEC)
UNITS = {"a1": "red", "a2": "red", "b1": "blue"}
COUNTERS = StepCounters(dict.fromkeys(UNITS, TRACK), pieces=REG)
DEPOTS = {"red": [Hex(0, 0), Hex(0, 1)], "blue": [Hex(3, 0)]}
REPL: Replacements[Hex] = Replacements(
    COUNTERS, places=lambda state, side, piece: DEPOTS[side], restore_cost=1, rebuild_cost=2
)


def _hit_targets(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return sorted(p for p in REG.pieces_of(state) if p in UNITS)


HIT = Kind("hit", (Values(_hit_targets, checked=True),))
RESTORE, REBUILD = REPL.kinds()
PHASES = {"fight": Kinds((HIT,)), "refit": Kinds((RESTORE, REBUILD))}


class Toy(Ruleset):
    """Each turn: red hits any unit (a step lost), then both sides refit (2 points)."""

    name = "toy-replacements"
    sides = ("red", "blue")
    sequence = TurnSequence(
        (
            Stage("fight", (Phase("fight", side="red", end_when_idle=True),)),
            Stage(
                "refit",
                (
                    Phase("refit", side="red", end_when_idle=True),
                    Phase("refit", side="blue", end_when_idle=True),
                ),
            ),
        ),
        turn_limit=6,
        on_turn_start=lambda state: [REPL.grant(state, side, 2) for side in ("red", "blue")],
    )

    def action_space(self) -> ActionSpace:
        cells = sorted({HEX_CODEC.label(c) for cells in DEPOTS.values() for c in cells})
        return ActionSpace.of(["end", "hit", "rebuild", "restore"], unit=sorted(UNITS), cell=cells)

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        REG.place(state, "a1", Hex(1, 0), "red")
        REG.place(state, "a2", Hex(1, 1), "red")
        REG.place(state, "b1", Hex(2, 0), "blue")

    def phase_tokens(self, state: State, side: str, prefix: tuple[str, ...]) -> Sequence[str]:
        return PHASES[str(state.phase)].tokens(state, side, prefix)

    def play(self, state: State, action: Action) -> None:
        if action.kind == "hit":
            COUNTERS.lose(state, action.args[0])
        else:
            assert REPL.play(state, state.current_player(), action)

    def final_outcome(self, state: State) -> Outcome:
        alive = {s: sum(1 for p in REG.pieces_of(state) if UNITS[p] == s) for s in self.sides}
        return Outcome(None, f"units left {alive}")


def test_the_kit_plays_a_game_built_on_steps_and_replacements() -> None:
    report = check_random_games(lambda: Toy().new_state(), games=12, seed=5)
    assert report.ok, report.violations[:3]
    assert report.terminal == 12
    from hexwar.engine.dice import SeededDriver
    from hexwar.engine.loop import RandomPlayer, play

    kinds = set()
    for seed in range(12):
        players = {s: RandomPlayer(seed * 2 + i) for i, s in enumerate(Toy.sides)}
        kinds |= {a.kind for a in play(Toy().new_state(), players, SeededDriver(seed)).history}
    assert {"hit", "restore", "rebuild"} <= kinds  # the games did exercise both buys


def test_losses_restores_and_rebuilds_keep_the_books() -> None:
    state = Toy().new_state()
    assert COUNTERS.value(state, "a1", "attack") == 4
    loss = COUNTERS.lose(state, "a1", 2)
    assert (loss.steps, loss.printed("attack"), loss.printed("defence")) == (2, 3, 2)
    assert not loss.eliminated
    assert COUNTERS.lose(state, "a1", 5).steps == 1  # only one step was left
    assert COUNTERS.eliminated(state, "red") == ["a1"]
    assert not REG.is_placed(state, "a1")
    with pytest.raises(StepError):
        COUNTERS.lose(state, "a1")
    REPL.grant(state, "red", 3)
    assert REPL.rebuildable(state, "red") == ["a1"]
    REPL.rebuild(state, "red", "a1", Hex(0, 1))
    assert COUNTERS.step(state, "a1") == 2  # back at its weakest step
    assert REPL.points(state, "red") == 1
    assert REPL.restorable(state, "red") == ["a1"]
    REPL.restore(state, "red", "a1")
    assert (COUNTERS.step(state, "a1"), REPL.points(state, "red")) == (1, 0)
    with pytest.raises(ReplacementError):
        REPL.restore(state, "red", "a1")  # no points left
    REPL.grant(state, "red", 2, keep=True)
    assert REPL.points(state, "red") == 2
    # a depot held by a unit takes no rebuilt unit
    COUNTERS.lose(state, "a2", 3)
    REG.move(state, "a1", Hex(0, 0))
    assert REPL.rebuild_cells(state, "red", "a2") == ["0,1"]
    with pytest.raises(ReplacementError):
        REPL.rebuild(state, "red", "a2", Hex(0, 0))


def test_undo_takes_steps_back_and_tracks_are_validated() -> None:
    state = Toy().new_state()
    before = state.to_data()
    for _ in range(3):
        state.apply("hit b1")
    assert COUNTERS.is_eliminated(state, "b1")
    assert not REG.is_placed(state, "b1")
    for _ in range(3):
        state.undo()
    assert state.to_data() == before
    assert COUNTERS.step(state, "b1") == 0
    with pytest.raises(DataError):
        StepTrack.of({"attack": 4}, {"defence": 2})
    with pytest.raises(DataError):
        StepTrack.of({"attack": -1})
    with pytest.raises(DataError):
        StepTrack(())


def test_cheapest_cover_against_every_subset() -> None:
    """The minimal covers are exactly the step multisets reaching the points from which
    no single step can be dropped (checked by enumerating every multiset)."""
    import itertools

    state = Toy().new_state()
    COUNTERS.lose(state, "a2")
    pieces = ["a1", "a2", "b1"]
    left = {p: len(TRACK) - COUNTERS.step(state, p) for p in pieces}
    value = {
        p: [
            TRACK.value(i, "attack") - TRACK.value(i + 1, "attack")
            for i in range(COUNTERS.step(state, p), len(TRACK))
        ]
        for p in pieces
    }

    def points(counts: tuple[int, ...]) -> int:
        return sum(sum(value[p][:n]) for p, n in zip(pieces, counts, strict=True))

    for need in range(1, 9):
        want = set()
        for counts in itertools.product(*(range(left[p] + 1) for p in pieces)):
            if points(counts) < need:
                continue
            drops = [(*counts[:i], counts[i] - 1, *counts[i + 1 :]) for i in range(3) if counts[i]]
            if all(points(d) < need for d in drops):
                want.add(tuple(p for p, n in zip(pieces, counts, strict=True) for _ in range(n)))
        got = set(cheapest_cover(COUNTERS, state, pieces, need, "attack"))
        if not want:  # more than every step: the one way is all of them
            assert got == {tuple(p for p in pieces for _ in range(left[p]))}
        else:
            assert got == want, need
