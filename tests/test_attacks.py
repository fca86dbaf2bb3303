"""Attacks on a piece (hexwar.mechanics.attacks) and the strength a group needs
(hexwar.mechanics.combat_rules.GroupNeed), against brute force."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.board.pieces import LABELS, Pieces
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.attacks import PieceAttacks, PieceFire
from hexwar.mechanics.combat_rules import GroupNeed

NAMES = ("a", "b", "c", "d", "e")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-2, 6), min_size=0, max_size=5),
    st.one_of(st.none(), st.integers(-1, 15)),
)
def test_group_need_matches_brute_force(strengths: list[int], need: int | None) -> None:
    names = NAMES[: len(strengths)]
    group = GroupNeed(names, dict(zip(names, strengths, strict=True)), need)
    every = [g for k in range(1, len(names) + 1) for g in combinations(names, k)]

    def legal(g: tuple[str, ...]) -> bool:
        return need is None or sum(strengths[names.index(u)] for u in g) >= need

    assert group.groups() == [g for g in every if legal(g)]
    for g in every:
        assert group.legal(g) is legal(g)
        rest = names[names.index(g[-1]) + 1 :]
        later = [r for k in range(len(rest) + 1) for r in combinations(rest, k)]
        assert group.feasible(g) is any(legal((*g, *r)) for r in later)


class Game(Ruleset):
    sequence = TurnSequence((Stage("p", (Phase("fight", "red", end_when_idle=False),)),))


#: A ring of six cells, each next to the two beside it.
RING = {str(i): (str((i - 1) % 6), str((i + 1) % 6)) for i in range(6)}
REG = Pieces(LABELS)
POWER = {"r1": 2, "r2": 3, "r3": 1, "b1": 3, "b2": 5, "b3": 1}


def need(state: State, side: str, defender: str, near: list[str]) -> GroupNeed:
    return GroupNeed(near, POWER, POWER[defender])


def spent(state: State, piece: str) -> bool:
    return piece != "r3"  # r3 may never attack


ATTACKS = PieceAttacks(REG, lambda state: RING, need, may_attack=spent)


@settings(max_examples=60, deadline=None)
@given(st.permutations(("r1", "r2", "r3", "b1", "b2", "b3")))
def test_piece_attacks_match_brute_force(order: list[str]) -> None:
    state = Game().new_state()
    for cell, piece in enumerate(order):
        REG.place(state, piece, str(cell), "red" if piece[0] == "r" else "blue")
    want = []
    for defender in sorted(p for p in order if p[0] == "b"):
        cell = REG.label_of(state, defender)
        assert cell is not None
        near = sorted(
            p for n in RING[cell] for p in REG.occupied(state).get(n, ()) if p in ("r1", "r2")
        )
        assert ATTACKS.attackers(state, "red", (defender,)) == near
        for k in range(1, len(near) + 1):
            for g in combinations(near, k):
                if sum(POWER[u] for u in g) >= POWER[defender]:
                    want.append(f"attack {defender} {' '.join(g)}")
    assert [str(a) for a in ATTACKS.actions(state, "red")] == want
    assert list(ATTACKS.defenders(state, "red")) == sorted({w.split()[1] for w in want})
    assert ATTACKS.exists(state, "red") is bool(want)
    assert ATTACKS.group(state, "red", "r1") is None  # not an enemy piece


def opposite(state: State, label: str) -> list[str]:
    return [str((int(label) + 3) % 6)]  # the cell across the ring


FIRE = PieceFire(REG, opposite, may_fire=lambda state, piece: piece != "r2", kind="bombard")


@settings(max_examples=60, deadline=None)
@given(st.permutations(("r1", "r2", "r3", "b1", "b2", "b3")))
def test_piece_fire_matches_brute_force(order: list[str]) -> None:
    state = Game().new_state()
    for cell, piece in enumerate(order):
        REG.place(state, piece, str(cell), "red" if piece[0] == "r" else "blue")
    across = {p: order[(i + 3) % 6] for i, p in enumerate(order)}
    want = [(p, across[p]) for p in ("r1", "r3") if across[p][0] == "b"]
    assert [tuple(a.args) for a in FIRE.actions(state, "red")] == want
    assert list(FIRE.firers(state, "red")) == [p for p, _ in want]
    for p in ("r1", "r2", "r3"):
        assert FIRE.targets(state, "red", (p,)) == [t for q, t in want if q == p]
    assert FIRE.targets(state, "red", ("b1",)) == []  # not the side's piece


PIECES6 = ("r1", "r2", "r3", "b1", "b2", "b3")


@settings(max_examples=80, deadline=None)
@given(
    st.permutations(PIECES6),
    st.lists(st.integers(-2, 5), min_size=6, max_size=6),
    st.lists(st.one_of(st.none(), st.integers(-1, 9)), min_size=6, max_size=6),
)
def test_strength_and_threshold_answer_as_the_group_need(
    order: list[str], strengths: list[int], thresholds: list[int | None]
) -> None:
    """``strength=`` / ``threshold=`` (a defender open once the positive strengths reach
    the threshold, no ``GroupNeed`` built for it) give what ``need=`` gives with the same
    numbers: defenders, the idle test, attackers, valid and feasible groups, actions."""
    power = dict(zip(PIECES6, strengths, strict=True))
    needed = dict(zip(PIECES6, thresholds, strict=True))
    by_need = PieceAttacks(
        REG,
        lambda state: RING,
        lambda state, side, defender, near: GroupNeed(near, power, needed[defender]),
        may_attack=spent,
        name="by-need",
    )
    by_sum = PieceAttacks(
        REG,
        lambda state: RING,
        may_attack=spent,
        name="by-sum",
        strength=lambda state, piece: power[piece],
        threshold=lambda state, side, defender: needed[defender],
    )
    state = Game().new_state()
    for cell, piece in enumerate(order):
        REG.place(state, piece, str(cell), "red" if piece[0] == "r" else "blue")
    for side in ("red", "blue"):
        assert list(by_sum.defenders(state, side)) == list(by_need.defenders(state, side))
        assert by_sum.exists(state, side) is by_need.exists(state, side)
        assert by_sum.actions(state, side) == by_need.actions(state, side)
        for defender in by_need.contacts(state, side):
            near = by_need.attackers(state, side, (defender,))
            assert by_sum.attackers(state, side, (defender,)) == near
            for k in range(1, len(near) + 1):
                for g in combinations(near, k):
                    fixed = (defender,)
                    assert by_sum.valid(state, side, fixed, g) is by_need.valid(
                        state, side, fixed, g
                    )
                    assert by_sum.feasible(state, side, fixed, g) is by_need.feasible(
                        state, side, fixed, g
                    )


def test_piece_attacks_needs_one_way_to_the_need() -> None:
    with pytest.raises(ValueError, match="either need= or strength= and threshold="):
        PieceAttacks(REG, lambda state: RING)
    with pytest.raises(ValueError, match="either need="):
        PieceAttacks(REG, lambda state: RING, need, strength=lambda s, p: 1, threshold=None)
    with pytest.raises(ValueError, match="either need="):
        PieceAttacks(REG, lambda state: RING, strength=lambda s, p: 1)


ARMED = PieceFire(
    REG,
    opposite,
    may_fire=lambda state, piece: piece != "r2",
    kind="bombard",
    armed=lambda state, side: ("r3", "r2") if side == "red" else ("b1",),
)


@settings(max_examples=60, deadline=None)
@given(st.permutations(PIECES6))
def test_armed_fire_asks_only_the_armed_pieces(order: list[str]) -> None:
    """``armed=``: only the listed pieces fire (sorted, whatever the list's order);
    ``exists`` is whether any action is."""
    state = Game().new_state()
    for cell, piece in enumerate(order):
        REG.place(state, piece, str(cell), "red" if piece[0] == "r" else "blue")
    across = {p: order[(i + 3) % 6] for i, p in enumerate(order)}
    want = [(p, across[p]) for p in ("r3",) if across[p][0] == "b"]
    assert [tuple(a.args) for a in ARMED.actions(state, "red")] == want
    assert list(ARMED.firers(state, "red")) == [p for p, _ in want]
    assert ARMED.exists(state, "red") is bool(want)
    assert ARMED.targets(state, "red", ("r1",)) == []  # not armed
    assert ARMED.targets(state, "red", ("r3",)) == [t for _, t in want]
    blue = [("b1", across["b1"])] if across["b1"][0] == "r" else []
    assert [tuple(a.args) for a in ARMED.actions(state, "blue")] == blue
    assert FIRE.exists(state, "red") is bool(FIRE.actions(state, "red"))
