"""Attacks declared against a piece: ``attack DEFENDER A1 A2 ...`` (:class:`PieceAttacks`),
and fire at a range: ``bombard FIRER TARGET`` (:class:`PieceFire`).

Where :class:`~hexwar.mechanics.combat.Combat` declares an attack on a cell, a game with
one defender per cell may name the defending piece. Its candidates are the side's pieces
next to the defender's cell that may attack; a group must reach the strength the odds
need (:class:`~hexwar.mechanics.combat_rules.GroupNeed`, from the game's ``need``). The
questions of the declaration's :class:`~hexwar.engine.kinds.Kind` — the defenders, one
defender's attackers, a group's validity and its monotone feasibility, whether any
attack exists, every action — are answered from one ``GroupNeed`` per defender and
position (:meth:`~hexwar.engine.state.State.derive`) and the enemy pieces in contact
(memoised on the registry's tables). Cells are labels; ``neighbors(state)`` maps each
label to the adjacent ones.

>>> from hexwar.board.pieces import LABELS, Pieces
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.mechanics.combat_rules import GroupNeed
>>> reg = Pieces(LABELS)
>>> line = {"a": ("b",), "b": ("a", "c"), "c": ("b", "d"), "d": ("c",)}
>>> power = {"r1": 3, "r2": 2, "b1": 4}
>>> attacks = PieceAttacks(reg, lambda state: line,
...     need=lambda state, side, defender, near: GroupNeed(near, power, power[defender]))
>>> class Game(Ruleset):
...     sequence = TurnSequence((Stage("p", (Phase("fight", "red", end_when_idle=False),)),))
>>> state = Game().new_state()
>>> for piece, cell, side in (("r1", "a", "red"), ("b1", "b", "blue"), ("r2", "c", "red")):
...     reg.place(state, piece, cell, side)
>>> attacks.defenders(state, "red"), attacks.attackers(state, "red", ("b1",))
(['b1'], ['r1', 'r2'])
>>> [str(a) for a in attacks.actions(state, "red")]     # 3 or 2 alone do not reach 4
['attack b1 r1 r2']

A :class:`PieceFire` names a firer and one enemy piece in the cells it reaches
(``reach(state, label)``, e.g. exactly two hexes away):

>>> fire = PieceFire(reg, lambda state, label: [c for c in line if c != label and
...                                              label not in line[c]], kind="bombard")
>>> fire.firers(state, "red"), fire.targets(state, "red", ("r1",))    # b1 is too near
([], [])
>>> reg.move(state, "b1", "d"); [str(a) for a in fire.actions(state, "red")]
['bombard r1 b1']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action
from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State
from hexwar.mechanics.combat_rules import GroupNeed

__all__ = ["PieceAttacks", "PieceFire"]

Args = tuple[str, ...]


@attrs.frozen(eq=False)
class PieceAttacks:
    """The declaration of attacks on pieces (see the module docstring).

    ``pieces``: the registry (cells by label); ``neighbors(state)``: label -> adjacent
    labels; ``need(state, side, defender, candidates)``: the :class:`GroupNeed` of an
    attack on ``defender`` by the sorted ``candidates``; ``may_attack(state, piece)``:
    whether a piece of the side may attack now (default: every piece); ``kind``: the
    action kind; ``name``: the key of the derived values.
    """

    pieces: Pieces[Any]
    neighbors: Callable[[State], Mapping[str, Sequence[str]]]
    need: Callable[[State, str, str, list[str]], GroupNeed]
    may_attack: Callable[[State, str], bool] | None = None
    kind: str = "attack"
    name: str = "piece-attacks"
    _contacts: StateMemo[tuple[str, ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        reads = (self.pieces.stacks, self.pieces.table)
        memo = StateMemo(reads=reads, compute=self._find_contacts, size=256)
        object.__setattr__(self, "_contacts", memo)

    def contacts(self, state: State, side: str) -> tuple[str, ...]:
        """The enemy pieces next to one of ``side``'s pieces, sorted."""
        return self._contacts(state, side)

    def _find_contacts(self, state: State, side: str) -> tuple[str, ...]:
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        near = self.neighbors(state)
        own: list[str] = []
        foes: set[str] = set()
        for label, stack in at.items():
            if entries[stack[0]][1] == side:
                own.append(label)
            else:
                foes.update(stack)
        found: set[str] = set()
        for label in own:
            for n in near[label]:
                there = at.get(n)
                if there:
                    found.update(foes.intersection(there))
        return tuple(sorted(found))

    def candidates(self, state: State, side: str, label: str) -> list[str]:
        """The side's pieces next to ``label`` that may attack, sorted."""
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        may = self.may_attack
        out = [
            p
            for n in self.neighbors(state)[label]
            for p in at.get(n, ())
            if entries[p][1] == side and (may is None or may(state, p))
        ]
        out.sort()
        return out

    def group(self, state: State, side: str, defender: str) -> GroupNeed | None:
        """The attack on ``defender`` by ``side`` now; ``None`` unless it is an enemy piece
        on the map (kept for the position)."""

        def build() -> GroupNeed | None:
            label = self.pieces.label_of(state, defender)
            if label is None or self.pieces.side(state, defender) == side:
                return None
            return self.need(state, side, defender, self.candidates(state, side, label))

        return state.derive((self.name, side, defender), build)

    def _open(self, state: State, side: str, defender: str) -> bool:
        group = self.group(state, side, defender)
        return group is not None and any(group.feasible((u,)) for u in group.candidates)

    def defenders(self, state: State, side: str, args: Args = ()) -> list[str]:
        """The enemy pieces some group of the side's pieces may attack, sorted."""
        return [d for d in self.contacts(state, side) if self._open(state, side, d)]

    def exists(self, state: State, side: str) -> bool:
        """Whether ``side`` has at least one legal attack (stops at the first)."""
        return any(self._open(state, side, d) for d in self.contacts(state, side))

    def attackers(self, state: State, side: str, fixed: Args) -> list[str]:
        """The pieces that may attack the defender ``fixed[0]``, sorted."""
        group = self.group(state, side, fixed[0])
        return [] if group is None else list(group.candidates)

    def valid(self, state: State, side: str, fixed: Args, chosen: Args) -> bool:
        """Whether ``chosen`` may attack ``fixed[0]`` (the group reaches the need)."""
        group = self.group(state, side, fixed[0])
        return group is not None and group.legal(chosen)

    def feasible(self, state: State, side: str, fixed: Args, chosen: Args) -> bool:
        """Whether ``chosen`` plus later attackers can reach the need (monotone)."""
        group = self.group(state, side, fixed[0])
        return group is not None and group.feasible(chosen)

    def actions(self, state: State, side: str) -> list[Action]:
        """Every legal attack, by defender, then by group size, then in order."""
        out: list[Action] = []
        for defender in self.contacts(state, side):
            group = self.group(state, side, defender)
            if group is not None:
                out.extend(Action(self.kind, (defender, *g)) for g in group.groups())
        return out


@attrs.frozen(eq=False)
class PieceFire:
    """Fire at a range: ``<kind> FIRER TARGET``, a piece of the side that ``may_fire``
    (default: every piece) at an enemy piece on a cell of ``reach(state, label)`` (the
    cells it reaches from ``label``)."""

    pieces: Pieces[Any]
    reach: Callable[[State, str], Iterable[str]]
    may_fire: Callable[[State, str], bool] | None = None
    kind: str = "fire"
    _placed: StateMemo[tuple[tuple[str, str], ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        memo = StateMemo(reads=(self.pieces.table,), compute=self._find_placed, size=256)
        object.__setattr__(self, "_placed", memo)

    def _find_placed(self, state: State, side: str) -> tuple[tuple[str, str], ...]:
        """``(piece, label)`` of the side's placed pieces, sorted."""
        entries = self.pieces.entries(state)
        return tuple(sorted((p, e[0]) for p, e in entries.items() if e[1] == side))

    def _targets(self, state: State, side: str, piece: str, label: str) -> list[str]:
        if self.may_fire is not None and not self.may_fire(state, piece):
            return []
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        out = []
        for c in self.reach(state, label):
            there = at.get(c)
            if there:
                out += [p for p in there if entries[p][1] != side]
        out.sort()
        return out

    def firers(self, state: State, side: str, args: Args = ()) -> list[str]:
        """The side's pieces that may fire at something now, sorted."""
        return [p for p, lab in self._placed(state, side) if self._targets(state, side, p, lab)]

    def targets(self, state: State, side: str, args: Args) -> list[str]:
        """The enemy pieces the side's piece ``args[0]`` may fire at, sorted."""
        entry = self.pieces.entries(state).get(args[0])
        if entry is None or entry[1] != side:
            return []
        return self._targets(state, side, args[0], entry[0])

    def actions(self, state: State, side: str) -> list[Action]:
        """Every legal fire action, by firer, then by target."""
        return [
            Action(self.kind, (p, t))
            for p, lab in self._placed(state, side)
            for t in self._targets(state, side, p, lab)
        ]
