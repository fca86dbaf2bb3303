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
    >>> svg.count("<svg"), 'height="90"' in svg.split(">")[0]
    (2, True)
    """
    tints = {lab: tint(k / games) for lab, k in sorted(counts.items()) if k}
    inner = board(tints, title)
    found = _SIZE.search(inner)
    if found is None:
        raise ValueError("the game's board SVG has no width and height")
    width, height = float(found.group(1)), float(found.group(2))
    inner = re.sub(r"^<\?xml[^>]*>\s*", "", inner)
    row = 40.0
    inner_width = width
    width = max(width, 170.0 + 100.0 * len(BINS))
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width:g}" height="{height + row:g}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{width:g}" height="{height + row:g}" fill="#ffffff"/>',
        f'<g transform="translate({(width - inner_width) / 2:g},0)">{inner}</g>',
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
