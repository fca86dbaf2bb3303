"""Resampling hidden information consistently with an observer's view (IS-MCTS).

:func:`deal_hidden` deals anew the items (cards) of the entries hidden from a side; a
ruleset's :meth:`~hexwar.engine.state.Ruleset.resample_hidden` calls it for its hands and
decks (``hexwar_stalingrad.observe``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Value
from hexwar.engine.savefile import state_from_data, validate_core
from hexwar.engine.state import _HIDDEN_TABLE, State

__all__ = ["deal_hidden", "hidden_entries", "rebuilt"]


def hidden_entries(state: State, side: str, table: str) -> dict[str, str | None]:
    """The keys of ``table``'s entries hidden from ``side`` -> the side that sees each
    (``None``: nobody), in key order."""
    found = {}
    for ref, owner in state.table(_HIDDEN_TABLE).items():
        name, _, key = ref.partition("/")
        if name == table and owner != side:
            found[key] = None if owner is None else str(owner)
    return dict(sorted(found.items()))


def rebuilt(state: State, table: str, values: Mapping[str, Value]) -> State:
    """A new state: ``state`` with ``table``'s entries set to ``values``, rebuilt from its
    data (:func:`hexwar.engine.savefile.state_from_data`, then the position checks), so
    it keeps the history but cannot undo into the true position."""
    data = state.to_data()
    for key, value in values.items():
        data["tables"][table][key] = list(value) if isinstance(value, tuple) else value
    out = state_from_data(state.ruleset, data, state.scenario, dict(state.options))
    validate_core(state.ruleset, out)
    state.ruleset.validate_position(out)
    return out


def deal_hidden(
    state: State,
    side: str,
    rng: random.Random,
    table: str,
    pool_of: Callable[[str], Hashable] = lambda item: None,
) -> State:
    """A new state that ``side`` cannot tell from ``state``: the items of the entries of
    ``table`` hidden from ``side`` (tuples of strings: hands, decks) dealt anew.

    Items of one pool (``pool_of(item)``: a card's deck) are shuffled among the places
    those items held, so each entry keeps its length and the pools stay apart; an entry
    whose items were sorted (a hand) is sorted again. The state is rebuilt from its data
    (:func:`hexwar.engine.savefile.state_from_data`, then the position checks), so it keeps
    the history but cannot undo into the true position.
    """
    entries = state.table(table)
    keys = list(hidden_entries(state, side, table))
    items: dict[str, list[str]] = {}
    for key in keys:
        value = entries.get(key)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise HexwarError(f"deal_hidden: {table}/{key} is not a tuple of strings")
        items[key] = [str(v) for v in value]
    places: dict[Hashable, list[tuple[str, int]]] = {}
    for key in keys:
        for i, item in enumerate(items[key]):
            places.setdefault(pool_of(item), []).append((key, i))
    dealt = {key: list(v) for key, v in items.items()}
    for spots in places.values():
        pool = [items[k][i] for k, i in spots]
        rng.shuffle(pool)
        for (k, i), item in zip(spots, pool, strict=True):
            dealt[k][i] = item
    new: dict[str, Value] = {}
    for key in keys:
        was_sorted = items[key] == sorted(items[key])
        new[key] = tuple(sorted(dealt[key]) if was_sorted else dealt[key])
    return rebuilt(state, table, new)
