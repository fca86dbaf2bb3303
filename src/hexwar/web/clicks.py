"""What a click on the board means: the action prefix after a click on a hex.

Every answer is a prefix the engine accepts (``state.legal_tokens`` of it is not empty);
nothing here knows a rule. A click on a hex with ``prefix`` chosen so far, in order:

1. the hex itself, if it is a legal next token (``move UNIT HEX``, ``retreat HEX``);
2. a unit drawn there that is a legal next token (an attacker added to ``attack D``);
3. a unit there already chosen after the action's first argument: toggled off (the
   rest of the choice kept, in the engine's order), or one not yet chosen toggled on
   although the engine wants the chosen units in its own order (``attack D A2`` + ``A1``);
4. a fresh action: a unit there that starts one of the game's ``unit_kinds`` (then any
   other legal first kind), or the hex as the first argument of a legal first kind.

>>> rebuild_with(lambda p: {(): ("a",), ("a",): ("x", "y"), ("a", "x"): ("y", "done"),
...     ("a", "y"): ("done",), ("a", "x", "y"): ("done",)}.get(p, ()), ("a",), {"y", "x"})
('a', 'x', 'y')
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from hexwar.engine.space import DONE
from hexwar.engine.state import State

__all__ = ["first_step", "rebuild_with", "toggled"]

Legal = Callable[[tuple[str, ...]], Sequence[str]]


def rebuild_with(
    legal: Legal, base: tuple[str, ...], wanted: Collection[str]
) -> tuple[str, ...] | None:
    """``base`` followed by every token of ``wanted``, each where the engine offers it
    (the first offered at each step); ``None`` if no such order is legal."""
    prefix, left = base, set(wanted)
    while left:
        nxt = next((t for t in legal(prefix) if t in left), None)
        if nxt is None:
            return None
        prefix, left = (*prefix, nxt), left - {nxt}
    return prefix if legal(prefix) else None


def toggled(legal: Legal, prefix: tuple[str, ...], unit: str) -> tuple[str, ...] | None:
    """``prefix`` with ``unit`` taken out (if chosen after the first argument) or put in
    (in the engine's order); ``None`` if neither gives a legal prefix. The kind and its
    first argument (the attack's defender, the moving unit) are never toggled."""
    if unit in prefix[2:]:
        i = prefix.index(unit, 2)
        return rebuild_with(legal, prefix[:i], prefix[i + 1 :])
    if unit in prefix:
        return None
    for k in range(len(prefix), 1, -1):
        found = rebuild_with(legal, prefix[:k], {*prefix[k:], unit})
        if found is not None:
            return found
    return None


def first_step(
    state: State, units: Sequence[str], label: str, unit_kinds: Sequence[str]
) -> tuple[str, ...] | None:
    """A fresh action started by a click on hex ``label`` holding ``units``: a unit
    starting one of ``unit_kinds`` (in that order, then the other legal kinds), else the
    hex as the first argument of a legal kind (``retreat HEX``); ``None``: neither."""
    first = state.legal_tokens(())
    kinds = [k for k in unit_kinds if k in first]
    kinds += [k for k in first if k not in kinds and k != DONE]
    for unit in units:
        for kind in kinds:
            if unit in state.legal_tokens((kind,)):
                return (kind, unit)
    for kind in kinds:
        if label in state.legal_tokens((kind,)):
            return (kind, label)
    return None
