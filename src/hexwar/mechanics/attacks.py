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
>>> list(attacks.defenders(state, "red")), attacks.attackers(state, "red", ("b1",))
(['b1'], ['r1', 'r2'])
>>> [str(a) for a in attacks.actions(state, "red")]     # 3 or 2 alone do not reach 4
['attack b1 r1 r2']

A :class:`PieceFire` names a firer and one enemy piece in the cells it reaches
(``reach(state, label)``, e.g. exactly two hexes away):

>>> fire = PieceFire(reg, lambda state, label: [c for c in line if c != label and
...                                              label not in line[c]], kind="bombard")
>>> list(fire.firers(state, "red")), fire.targets(state, "red", ("r1",))    # b1 is too near
([], [])
>>> reg.move(state, "b1", "d"); [str(a) for a in fire.actions(state, "red")]
['bombard r1 b1']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import compress
from operator import itemgetter
from typing import Any

import attrs

from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action
from hexwar.engine.memo import StateMemo
from hexwar.engine.state import State
from hexwar.mechanics.combat_rules import GroupNeed, Number

__all__ = ["PieceAttacks", "PieceFire"]

Args = tuple[str, ...]
_TOP, _SIDE = itemgetter(0), itemgetter(1)
_Entries = Mapping[str, tuple[str, str]]
_Stacks = Mapping[str, tuple[str, ...]]
_Near = Mapping[str, Sequence[str]]
#: A position's pieces (piece -> (label, side)), stacks (label -> pieces) and adjacency.
_Position = tuple[_Entries, _Stacks, _Near]


@attrs.frozen(eq=False)
class PieceAttacks:
    """The declaration of attacks on pieces (see the module docstring).

    ``pieces``: the registry (cells by label); ``neighbors(state)``: label -> adjacent
    labels; ``may_attack(state, piece)``: whether a piece of the side may attack now
    (default: every piece); ``kind``: the action kind; ``name``: the key of the derived
    values. The strength an attack needs is either ``need(state, side, defender,
    candidates)`` (the :class:`GroupNeed` of an attack on ``defender`` by the sorted
    ``candidates``) or, cheaper, ``strength(state, piece)`` (an attacker's) with
    ``threshold(state, side, defender)`` (the summed strength a group needs, ``None``:
    any group): then "may the defender be attacked?" adds the candidates' strengths
    until they reach it, and a ``GroupNeed`` is built only for a defender named.
    """

    pieces: Pieces[Any]
    neighbors: Callable[[State], Mapping[str, Sequence[str]]]
    need: Callable[[State, str, str, list[str]], GroupNeed] | None = None
    may_attack: Callable[[State, str], bool] | None = None
    kind: str = "attack"
    name: str = "piece-attacks"
    strength: Callable[[State, str], Number] | None = None
    threshold: Callable[[State, str, str], Number | None] | None = None
    _contacts: StateMemo[tuple[str, ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        by_sum = (self.strength is not None, self.threshold is not None)
        if by_sum not in ((False, False), (True, True)) or (self.need is None) != all(by_sum):
            raise ValueError("PieceAttacks needs either need= or strength= and threshold=")
        reads = (self.pieces.stacks, self.pieces.table)
        memo = StateMemo(reads=reads, compute=self._find_contacts)
        object.__setattr__(self, "_contacts", memo)

    def contacts(self, state: State, side: str) -> tuple[str, ...]:
        """The enemy pieces next to one of ``side``'s pieces, sorted."""
        return self._contacts(state, side)

    def _find_contacts(self, state: State, side: str) -> tuple[str, ...]:
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        # a cell is the side's when its top piece is; the scan runs in C (map, compress)
        tops = map(_SIDE, map(entries.__getitem__, map(_TOP, at.values())))
        own = set(compress(at, map(side.__eq__, tops)))
        touched = set().union(*map(self.neighbors(state).__getitem__, own))
        return tuple(
            sorted([p for label in touched.intersection(at.keys() - own) for p in at[label]])
        )

    def candidates(self, state: State, side: str, label: str) -> list[str]:
        """The side's pieces next to ``label`` that may attack, sorted."""
        return sorted(self._candidates(state, side, label, *self._position(state)))

    def _position(self, state: State) -> _Position:
        """What :meth:`_candidates` reads of the position (asked once per question)."""
        return self.pieces.entries(state), self.pieces.occupied(state), self.neighbors(state)

    def _candidates(
        self, state: State, side: str, label: str, entries: _Entries, at: _Stacks, near: _Near
    ) -> list[str]:
        """:meth:`candidates` in no set order (sort them where the order counts)."""
        may = self.may_attack
        return [
            p
            for n in at.keys() & near[label]  # the occupied neighbours
            for p in at[n]
            if entries[p][1] == side and (may is None or may(state, p))
        ]

    def _near(self, state: State, side: str, defender: str, *position: Any) -> list[str] | None:
        """The candidates against ``defender`` in no set order, ``None`` unless it is an
        enemy piece on the map; ``position``: :meth:`_position` (asked here if not given)."""
        entries, at, near = position or self._position(state)
        entry = entries.get(defender)
        if entry is None or entry[1] == side:
            return None
        return self._candidates(state, side, entry[0], entries, at, near)

    def group(self, state: State, side: str, defender: str) -> GroupNeed | None:
        """The attack on ``defender`` by ``side`` now; ``None`` unless it is an enemy piece
        on the map (kept for the position)."""
        return state.derive((self.name, side, defender), self._group, state, side, defender)

    def _group(self, state: State, side: str, defender: str) -> GroupNeed | None:
        near = self._near(state, side, defender)
        strength, threshold = self.strength, self.threshold
        if near is not None:
            near.sort()
        if near is None or strength is None or threshold is None:
            need = self.need
            return None if near is None or need is None else need(state, side, defender, near)
        power = {u: strength(state, u) for u in near}
        return GroupNeed(near, power, threshold(state, side, defender) if near else None)

    def _open(self, state: State, side: str, defender: str, position: _Position) -> bool:
        """Whether some group may attack ``defender`` (kept for the position)."""
        key = (self.name, "open", side, defender)
        return state.derive(key, self._opens, state, side, defender, position)

    def _opens(self, state: State, side: str, defender: str, position: _Position) -> bool:
        """:meth:`_open`: with ``strength`` and ``threshold``, the positive strengths added
        until they reach the threshold (the strongest group), else the :class:`GroupNeed`."""
        strength, threshold = self.strength, self.threshold
        if strength is None or threshold is None:
            group = self.group(state, side, defender)
            return group is not None and any(group.feasible((u,)) for u in group.candidates)
        near = self._near(state, side, defender, *position)  # in any order: a sum
        if not near:
            return False
        need = threshold(state, side, defender)
        if need is None:
            return True
        total: Number = 0
        best: Number | None = None
        for u in near:
            s = strength(state, u)
            if s > 0:
                total += s
                if total >= need:
                    return True
            elif best is None or s > best:
                best = s
        # no positive strength: the strongest group is the strongest single piece
        return total >= need if total > 0 else best is not None and best >= need

    def defenders(self, state: State, side: str, args: Args = ()) -> Iterator[str]:
        """The enemy pieces some group of the side's pieces may attack, sorted (lazily:
        an idle test stops at the first)."""
        position = self._position(state)
        for d in self.contacts(state, side):
            if self._open(state, side, d, position):
                yield d

    def exists(self, state: State, side: str) -> bool:
        """Whether ``side`` has at least one legal attack (stops at the first)."""
        position = self._position(state)
        return any(self._open(state, side, d, position) for d in self.contacts(state, side))

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
    cells it reaches from ``label``). ``armed(state, side)``: the side's pieces that can
    fire at all (a fixed list from the game's data, e.g. its artillery; default: every
    placed piece of the side), so only those are asked."""

    pieces: Pieces[Any]
    reach: Callable[[State, str], Iterable[str]]
    may_fire: Callable[[State, str], bool] | None = None
    kind: str = "fire"
    armed: Callable[[State, str], Iterable[str]] | None = None
    _placed: StateMemo[tuple[tuple[str, str], ...]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        memo = StateMemo(reads=(self.pieces.table,), compute=self._find_placed)
        object.__setattr__(self, "_placed", memo)

    def _find_placed(self, state: State, side: str) -> tuple[tuple[str, str], ...]:
        """``(piece, label)`` of the side's placed (armed) pieces, sorted."""
        entries = self.pieces.entries(state)
        if self.armed is None:
            return tuple(sorted((p, e[0]) for p, e in entries.items() if e[1] == side))
        found = [(p, e) for p in self.armed(state, side) if (e := entries.get(p)) is not None]
        return tuple(sorted((p, e[0]) for p, e in found if e[1] == side))

    def _targets(self, state: State, side: str, piece: str, label: str) -> list[str]:
        if self.may_fire is not None and not self.may_fire(state, piece):
            return []
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        out = []
        for c in at.keys() & self.reach(state, label):  # the occupied cells in reach
            out += [p for p in at[c] if entries[p][1] != side]
        out.sort()
        return out

    def _hits(self, state: State, side: str, piece: str, label: str) -> bool:
        """Whether :meth:`_targets` is not empty (stops at the first target)."""
        if self.may_fire is not None and not self.may_fire(state, piece):
            return False
        at, entries = self.pieces.occupied(state), self.pieces.entries(state)
        for c in at.keys() & self.reach(state, label):  # the occupied cells in reach
            for p in at[c]:
                if entries[p][1] != side:
                    return True
        return False

    def firers(self, state: State, side: str, args: Args = ()) -> Iterator[str]:
        """The side's pieces that may fire at something now, sorted (lazily)."""
        hits = self._hits
        for p, lab in self._placed(state, side):
            if hits(state, side, p, lab):
                yield p

    def exists(self, state: State, side: str) -> bool:
        """Whether some piece of the side may fire now (stops at the first)."""
        hits = self._hits
        return any(hits(state, side, p, lab) for p, lab in self._placed(state, side))

    def targets(self, state: State, side: str, args: Args) -> list[str]:
        """The enemy pieces the side's piece ``args[0]`` may fire at, sorted."""
        entry, armed = self.pieces.entries(state).get(args[0]), self.armed
        if entry is None or entry[1] != side or (armed and args[0] not in armed(state, side)):
            return []
        return self._targets(state, side, args[0], entry[0])

    def actions(self, state: State, side: str) -> list[Action]:
        """Every legal fire action, by firer, then by target."""
        return [
            Action(self.kind, (p, t))
            for p, lab in self._placed(state, side)
            for t in self._targets(state, side, p, lab)
        ]
