"""«Сталинград» for frameworks: its observation view, declared bounds and resampling.

:class:`~hexwar_stalingrad.rules.StalingradRules` hands these to the core
(:meth:`~hexwar.engine.state.Ruleset.observation_view`,
:attr:`~hexwar.engine.state.Ruleset.max_tokens`,
:meth:`~hexwar.engine.state.Ruleset.resample_hidden`); :mod:`hexwar.interop` does the rest.

- Board: the map's hexes and terrain; ground units by side and step (S1.3), aircraft by
  side and step at their airfield or over the hex they fly to (S10); each side's ZOC
  (S6.3). Hidden air placements (S10.2) are not on the board until revealed.
- Features: the observer's own hand (S5.2: the other hand is hidden), the cards in force
  (S5.3, public), the turn's weather (S1.2).
- Bounds (S3.4): the token steps a framework allows a game, per turn of the game length
  (:data:`TOKENS_PER_TURN`; the rules' ``max_tokens``, read by the core's default bounds).
- Resampling: the cards hidden from a side (the other hand, every deck's order; S3.3,
  S5.2) dealt anew within each deck. Hidden air placements are *not* resampled (kept).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final, TypeAlias

from hexwar.engine.observe import Board, Feature, ObservationView, Observed
from hexwar.engine.resample import deal_hidden
from hexwar.engine.state import State
from hexwar_stalingrad.board import FULL, PIECES, REDUCED, STEPS
from hexwar_stalingrad.board import where as ground_where

if TYPE_CHECKING:
    from hexwar_stalingrad.rules import StalingradRules

__all__ = [
    "STATUSES",
    "TOKENS_PER_TURN",
    "observation_view",
    "resample_hidden",
]

STATUSES: Final = (FULL, REDUCED, f"air-{FULL}", f"air-{REDUCED}")
PieceEntries: TypeAlias = Callable[[Observed, str], Iterable[tuple[str, str, str]]]
PieceZoc: TypeAlias = Callable[[Observed, str], "tuple[str, Iterable[str]] | None"]
#: Token steps per game turn (S3.4) a framework lets a game take before it ends it as
#: truncated (a draw): about three times the longest turn of uniform random games (the
#: longest of 1,000 short games takes ~125 a turn; ``tests/test_interop_bounds.py`` checks
#: it is never reached by them and within 3x of their longest). The kit's default policy
#: weighs ``end`` down and plays longer turns (up to ~290 token steps seen).
TOKENS_PER_TURN: Final = 375


def _piece(rules: StalingradRules) -> tuple[PieceEntries, PieceZoc]:
    """What one counter puts on the board (the board is declared piece by piece, so the
    planes follow the entries an action changes): a ground unit at its hex by step (S1.3),
    an aircraft by step at its airfield or over the hex it flies to (S10); a ground
    unit's ZOC (S2.1, S6.3: the hexes next to it, as :func:`~hexwar_stalingrad.ground.zoc_of_side`
    reads them)."""
    data = rules.data
    ground = {unit: info.side for unit, info in data.ground.items()}
    air = {unit: info.side for unit, info in data.air.items()}
    air_status = {step: f"air-{step}" for step in (FULL, REDUCED)}
    zoc_of = data.zoc_of

    def piece(view: Observed, unit: str) -> tuple[tuple[str, str, str], ...]:
        side = ground.get(unit)
        if side is not None:
            entry = view.get(PIECES.table, unit)
            if not isinstance(entry, tuple):
                return ()
            return ((str(entry[0]), side, REDUCED if view.get(STEPS, unit) else FULL),)
        side = air.get(unit)
        value = view.get("air", unit)
        if side is None or not isinstance(value, tuple):  # S10.2: a hidden placement
            return ()
        where, step = value
        sky = view.get("sky", unit)
        if isinstance(sky, tuple):
            where = sky[0]
        status = air_status.get(step) if isinstance(step, str) else None
        return ((str(where), side, status or f"air-{step}"),)

    def piece_zoc(view: Observed, unit: str) -> tuple[str, Iterable[str]] | None:
        entry = view.get(PIECES.table, unit)  # (hex, side), as the ZOC rules read it
        if not isinstance(entry, tuple):
            return None
        label, side = entry
        return str(side), zoc_of[str(label)]

    return piece, piece_zoc


def _terrain(rules: StalingradRules) -> tuple[str, ...]:
    """Each hex's terrain in plane order (kept on the map)."""
    game_map = rules.data.game_map
    return game_map.derived(
        ("observe-terrain",), lambda: tuple(game_map.terrain(c) for c in game_map.indexed_cells())
    )


def observation_view(rules: StalingradRules) -> ObservationView:
    """The board (hexes, terrain, units, ZOC) and the card and weather features."""
    from hexwar_stalingrad.rules import weather as weather_now  # (the rules import this module)

    data = rules.data
    cells = data.index_labels
    piece, piece_zoc = _piece(rules)

    def named(view: Observed, token: str) -> str | None:
        if token in data.ground:
            return ground_where(view.state, token)
        v = view.get("air", token)
        return str(v[0]) if isinstance(v, tuple) else None

    keyed = (PIECES.table, STEPS, "air", "sky")  # by unit: what piece and piece_zoc read
    board = Board(
        cells=cells,
        terrain=_terrain(rules),
        statuses=STATUSES,
        pieces_named=named,
        piece=piece,
        piece_zoc=piece_zoc,
        keyed=keyed,
        reads=keyed,  # the planes' memo
        grid=data.game_map.offset_grid(),  # the cells are the map's indexed cells
    )
    card_ids = tuple(sorted(data.cards))
    card_index = {c: i for i, c in enumerate(card_ids)}
    weathers = tuple(sorted({t.weather for t in data.turns} | {"fair"}))
    hands = {side: f"hand:{side}" for side in rules.sides}

    def hand(view: Observed) -> Iterable[int]:
        held = view.get("cards", hands.get(view.side) or f"hand:{view.side}")
        return sorted(card_index[str(c)] for c in held) if isinstance(held, tuple) else []

    def in_force(view: Observed) -> Iterable[int]:
        return sorted({card_index[e.source] for e in view.state.effects if e.source in card_index})

    def weather(view: Observed) -> Iterable[int]:
        w = weather_now(view.state)  # public: the turn track and cards in force (S1.2)
        return [weathers.index(w)] if w in weathers else []

    return ObservationView(
        board=board,
        features=(  # what each reads, so they are kept while those are unchanged
            Feature("hand", len(card_ids), hand, reads=("cards",)),
            Feature("cards_in_force", len(card_ids), in_force, reads=("$effects",)),
            Feature("weather", len(weathers), weather, reads=("$turn", "$effects")),
        ),
    )


def resample_hidden(rules: StalingradRules, state: State, side: str, rng: random.Random) -> State:
    """The cards hidden from ``side`` dealt anew, each deck on its own (S3.3, S5.2)."""
    cards = rules.data.cards
    return deal_hidden(state, side, rng, "cards", lambda card: cards[card].deck)
