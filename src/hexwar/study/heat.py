"""The heat map of deciding hexes drawn on the game's own map: the game draws its map (its
renderer's layers: terrain, rivers, names, towns) with the hexes tinted by share of games
(:attr:`~hexwar.study.game.StudyGame.board`); this module picks the tints and adds the
scale under the map, as one SVG."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from typing import Final

__all__ = ["BINS", "heat_svg", "tint"]

#: Upper bounds of the share classes and their colours (ColorBrewer YlOrRd, 5 classes).
BINS: Final = (
    (0.1, "#ffffb2"),
    (0.25, "#fecc5c"),
    (0.5, "#fd8d3c"),
    (0.75, "#f03b20"),
    (1.0, "#bd0026"),
)


def tint(share: float) -> str:
    """The colour of a share of games in ``(0, 1]``.

    >>> tint(0.05), tint(0.3), tint(1.0)
    ('#ffffb2', '#fd8d3c', '#bd0026')
    """
    return next(colour for bound, colour in BINS if share <= bound)


_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')
_VIEW = re.compile(r'viewBox="([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)"')
_TINTED = re.compile(r'<g class="highlight"[^>]*>(.*?)</g>', re.S)
_POINTS = re.compile(r'points="([^"]+)"')

#: A heat map shows the tinted hexes' box grown by this share of its size on each side,
#: when that box is under :data:`CROP_BELOW` of the map's area (a larger drawing of the
#: part of the map where the games are decided; names and towns stay legible).
CROP_MARGIN: Final = 0.12
CROP_BELOW: Final = 0.6


def _cropped(svg: str) -> str:
    """The map's SVG with its view box narrowed to the tinted hexes and their
    surroundings (same pixel width), when they cover a small part of it."""
    view, tinted = _VIEW.search(svg), _TINTED.search(svg)
    if view is None or tinted is None:
        return svg
    xs: list[float] = []
    ys: list[float] = []
    for points in _POINTS.findall(tinted.group(1)):
        for pair in points.split():
            x, y = pair.split(",")
            xs.append(float(x))
            ys.append(float(y))
    if not xs:
        return svg
    vx, vy, vw, vh = (float(v) for v in view.groups())
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    grow = CROP_MARGIN * max(w, h)
    left, top = max(vx, min(xs) - grow), max(vy, min(ys) - grow)
    right, bottom = min(vx + vw, max(xs) + grow), min(vy + vh, max(ys) + grow)
    if (right - left) * (bottom - top) >= CROP_BELOW * vw * vh:
        return svg
    size = _SIZE.search(svg)
    assert size is not None  # checked by the caller
    width = float(size.group(1))
    height = width * (bottom - top) / (right - left)
    svg = _VIEW.sub(f'viewBox="{left:g} {top:g} {right - left:g} {bottom - top:g}"', svg, 1)
    head = svg.index(">", svg.index("<svg")) + 1
    root = re.sub(r'\bheight="[0-9.]+"', f'height="{height:.2f}"', svg[:head], count=1)
    return root + svg[head:]


def heat_svg(
    board: Callable[[Mapping[str, str], str], str],
    counts: Mapping[str, int],
    games: int,
    title: str,
) -> str:
    """The game's map with each hex counted in ``counts`` (hex label -> games) tinted by
    its share of ``games``, and the scale below it.

    >>> def board(tints, title):
    ...     head = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">'
    ...     return f"{head}{len(tints)}</svg>"
    >>> svg = heat_svg(board, {"0101": 3, "0102": 1}, 4, "t")
    >>> svg.count("<svg"), 'height="118"' in svg.split(">")[0]
    (2, True)
    """
    tints = {lab: tint(k / games) for lab, k in sorted(counts.items()) if k}
    inner = board(tints, "")  # the title goes above the map, cropped or not
    if _SIZE.search(inner) is None:
        raise ValueError("the game's board SVG has no width and height")
    inner = _cropped(re.sub(r"^<\?xml[^>]*>\s*", "", inner))
    found = _SIZE.search(inner)
    assert found is not None
    width, height = float(found.group(1)), float(found.group(2))
    row, head = 40.0, 28.0
    height += head
    inner_width = width
    width = max(width, 170.0 + 100.0 * len(BINS))
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width:g}" height="{height + row:g}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{width:g}" height="{height + row:g}" fill="#ffffff"/>',
        f'<text x="8" y="19" font-size="15" font-weight="bold">{html.escape(title)}</text>',
        f'<g transform="translate({(width - inner_width) / 2:g},{head:g})">{inner}</g>',
        f'<text x="8" y="{height + 25:g}" font-size="14">share of {games} games:</text>',
    ]
    x, low = 170.0, 0.0
    for bound, colour in BINS:
        label = html.escape(f"{low:.0%}–{bound:.0%}")
        parts.append(
            f'<rect x="{x:g}" y="{height + 10:g}" width="22" height="20" fill="{colour}" '
            'stroke="#555555"/>'
        )
        parts.append(f'<text x="{x + 27:g}" y="{height + 25:g}" font-size="13">{label}</text>')
        x += 100
        low = bound
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
