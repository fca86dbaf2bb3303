"""What a page shows: the board drawn for one side, the units a click may mean, and the
hidden information of a side (what its observation holds and another side's hides)."""

from __future__ import annotations

import re
from typing import Any, Final

from hexwar.engine.state import HIDDEN, State
from hexwar.render import render_svg
from hexwar.web.games import BoardView, WebGame

__all__ = ["draw", "position_title", "render_view", "secrets_of", "snapshot", "units_at"]

_CELL_ATTR: Final = re.compile(r'data-cell="([^"]*)"')


def units_at(game: WebGame, state: State, side: str | None) -> dict[str, list[str]]:
    """Hex label -> the unit tokens drawn there, as ``side`` sees ``game``'s board."""
    view = None if game.board is None else game.board(state, side)
    out: dict[str, list[str]] = {}
    if view is None:
        return out
    for unit, cv in view.counters:
        if unit is not None:
            out.setdefault(view.game_map.label(cv.cell), []).append(unit)
    return out


def draw(game: WebGame, state: State, side: str | None) -> str | None:
    """``game``'s board of ``state`` as ``side`` sees it (``None``: no board), each
    cell and counter tagged ``data-label`` (its hex label, the token it stands for)."""
    found = snapshot(game, state, side)
    return None if found is None else render_view(*found)


def snapshot(game: WebGame, state: State, side: str | None) -> tuple[BoardView, str] | None:
    """What drawing the board needs from ``state`` (quick: take it under the game's lock
    and draw with :func:`render_view` outside it)."""
    view = None if game.board is None else game.board(state, side)
    return None if view is None else (view, position_title(state))


def render_view(view: BoardView, title: str) -> str:
    """The SVG of a board view, each cell and counter tagged ``data-label``."""
    game_map = view.game_map
    labels = {repr(c): game_map.label(c) for c in game_map.indexed_cells()}
    svg = render_svg(
        game_map,
        counters=[cv for _, cv in view.counters],
        style=view.style,
        labels=view.labels,
        title=title,
        legend=True,
    )

    def tag(m: re.Match[str]) -> str:
        label = labels.get(m.group(1))
        return m.group(0) if label is None else f'{m.group(0)} data-label="{label}"'

    return _CELL_ATTR.sub(tag, str(svg))


def position_title(state: State) -> str:
    """The board's heading: turn, stage, phase, and the result once the game is over."""
    parts = [f"turn {state.turn}"]
    parts += [f"{k} {v}" for k, v in (("stage", state.stage), ("phase", state.phase)) if v]
    if state.outcome is not None:
        winner = state.outcome.winner or "draw"
        parts = [f"turn {state.turn}", f"result: {winner} — {state.outcome.reason}"]
    return " · ".join(parts)


def secrets_of(state: State, side: str) -> dict[str, dict[str, Any]]:
    """The entries ``side`` sees that some other side does not (its hidden information)."""
    mine = state.observation(side)["tables"]
    others = [state.observation(s)["tables"] for s in state.ruleset.sides if s != side]
    out: dict[str, dict[str, Any]] = {}
    for table, entries in mine.items():
        for key, value in entries.items():
            if value == HIDDEN:
                continue
            if any(o.get(table, {}).get(key, HIDDEN) == HIDDEN for o in others):
                out.setdefault(table, {})[key] = value
    return out
