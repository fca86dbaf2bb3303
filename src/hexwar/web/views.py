"""What a page shows: the board drawn for one side, the units a click may mean, and the
hidden information of a side (what its observation holds and another side's hides)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any, Final

from hexwar.engine.state import HIDDEN, State
from hexwar.render import RenderError, render_svg
from hexwar.web.games import BoardView, WebGame

__all__ = ["draw", "position_title", "render_view", "secrets_of", "snapshot", "units_at"]

_CELL_ATTR: Final = re.compile(r'data-cell="([^"]*)"')
_POLYGON: Final = re.compile(r'<polygon class="cell" data-cell="([^"]*)"[^>]*? points="([^"]*)"')


def units_at(game: WebGame, state: State, side: str | None) -> dict[str, list[str]]:
    """Hex label -> the unit tokens drawn there, as ``side`` sees ``game``'s board."""
    view = None if game.board is None else game.board(state, side)
    out: dict[str, list[str]] = {}
    if view is None:
        return out
    for unit, cv in view.counters:
        if unit is not None:
            out.setdefault(cell_label(view)(cv.cell), []).append(unit)
    return out


def cell_label(view: BoardView) -> Callable[[Any], str]:
    """How ``view`` names a cell: its own ``labels`` function, else the map's labels."""
    return view.labels if callable(view.labels) else view.game_map.label


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
    """The SVG of a board view, each cell and counter tagged ``data-label`` (the map's
    label, or the view's own ``labels`` function: the cell tokens of the game's actions)."""
    game_map = view.game_map
    label_of = cell_label(view)
    labels = {repr(c): label_of(c) for c in game_map.indexed_cells()}
    svg = render_svg(
        game_map,
        counters=[cv for _, cv in view.counters],
        style=view.style,
        labels=view.labels,
        title=title,
        legend=True,
        highlight=view.highlight,
    )

    def tag(m: re.Match[str]) -> str:
        label = labels.get(m.group(1))
        return m.group(0) if label is None else f'{m.group(0)} data-label="{label}"'

    drawn = _CELL_ATTR.sub(tag, str(svg))
    return _with_markers(drawn, view, label_of) if view.markers else drawn


def _with_markers(svg: str, view: BoardView, label_of: Callable[[Any], str]) -> str:
    """``svg`` with the view's markers drawn at the top of their cells (found by the
    cells' polygons), over everything else; clicks go through them."""
    centres: dict[str, tuple[float, float, float]] = {}
    for cell, points in _POLYGON.findall(svg):
        xy = [tuple(map(float, p.split(","))) for p in points.split()]
        cx = sum(x for x, _ in xy) / len(xy)
        cy = sum(y for _, y in xy) / len(xy)
        centres[cell] = (cx, cy, max(abs(x - cx) for x, _ in xy))
    out = ['<g class="markers" text-anchor="middle" pointer-events="none">']
    for marker in view.markers:
        found = centres.get(html.escape(repr(marker.cell), quote=True))
        if found is None:
            raise RenderError(f"marker {marker.text!r}: cell {marker.cell!r} is not on the map")
        cx, cy, r = found
        title = f"<title>{html.escape(marker.title)}</title>" if marker.title else ""
        out.append(
            f'<text class="marker" x="{cx - 0.66 * r:.2f}" y="{cy + 0.14 * r:.2f}" '
            f'font-size="{0.4 * r:.2f}" font-weight="bold" '
            f'fill="{html.escape(marker.colour, quote=True)}" stroke="#ffffff" '
            f'stroke-width="{0.08 * r:.2f}" paint-order="stroke" '
            f'data-label="{html.escape(label_of(marker.cell), quote=True)}">'
            f"{title}{html.escape(marker.text)}</text>"
        )
    out.append("</g>")
    end = svg.rindex("</svg>")
    return svg[:end] + "".join(out) + svg[end:]


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
