"""Generic SVG rendering of a map and the counters on it (``docs/rendering.md``).

The renderer knows no game: a game supplies a :class:`Style` (its palette) and turns its
units into :class:`CounterView` values. Standard library only; deterministic output. The
render layer may import :mod:`hexwar.base`, :mod:`hexwar.grid` and :mod:`hexwar.board`
(it draws a :class:`~hexwar.board.maps.GameMap`), never the engine or the mechanics.
"""

from __future__ import annotations

from hexwar.base.errors import RenderError
from hexwar.render.cells import HexGeometry, SquareLayout
from hexwar.render.counters import NATO_SYMBOLS, CounterView
from hexwar.render.style import (
    BRIDGE,
    DEFAULT_HEXSIDES,
    DEFAULT_LINEAR,
    DEFAULT_TERRAIN,
    MAJOR_RIVER,
    RAILWAY,
    RIVER,
    ROAD,
    HexsideKind,
    HexsideStyle,
    LineStyle,
    MarkStyle,
    Style,
)
from hexwar.render.svg import (
    DEFAULT_HEX_SIZE,
    DEFAULT_SQUARE_SIZE,
    SvgImage,
    render_svg,
    write_svg,
)

__all__ = [
    "BRIDGE",
    "DEFAULT_HEXSIDES",
    "DEFAULT_HEX_SIZE",
    "DEFAULT_LINEAR",
    "DEFAULT_SQUARE_SIZE",
    "DEFAULT_TERRAIN",
    "MAJOR_RIVER",
    "NATO_SYMBOLS",
    "RAILWAY",
    "RIVER",
    "ROAD",
    "CounterView",
    "HexGeometry",
    "HexsideKind",
    "HexsideStyle",
    "LineStyle",
    "MarkStyle",
    "RenderError",
    "SquareLayout",
    "Style",
    "SvgImage",
    "render_svg",
    "write_svg",
]
