r"""Writing SVG text: fixed-precision numbers, escaping, one element per line.

>>> num(1.0), num(-0.001), num(2.345678)
('1', '0', '2.35')
>>> svg = SvgWriter()
>>> svg.leaf("text", ("x", 1.5), text="<&>")
>>> svg.result()
'<text x="1.5">&lt;&amp;&gt;</text>\n'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from hexwar.base.errors import RenderError
from hexwar.grid.layout import Point
from hexwar.render.metrics import fitted_size

__all__ = ["SvgWriter", "line_attrs", "num", "points_attr", "text_at"]

_PRECISION: Final = 2
_XML_ILLEGAL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def num(x: float) -> str:
    """A number with fixed precision, without trailing zeros, never ``-0``."""
    if not math.isfinite(x):
        raise RenderError(f"cannot draw a non-finite coordinate {x!r}")
    s = f"{x:.{_PRECISION}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _text(s: str) -> str:
    return escape(_XML_ILLEGAL.sub("\ufffd", s))


def _attr(s: str) -> str:
    return quoteattr(_XML_ILLEGAL.sub("\ufffd", s), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


class SvgWriter:
    def __init__(self) -> None:
        self.lines: list[str] = []

    @staticmethod
    def _tag(tag: str, attrs: Sequence[tuple[str, str | float]]) -> str:
        parts = [tag]
        for k, v in attrs:
            parts.append(f"{k}={_attr(num(v) if isinstance(v, float | int) else v)}")
        return " ".join(parts)

    def open(self, tag: str, *attrs: tuple[str, str | float]) -> None:
        self.lines.append(f"<{self._tag(tag, attrs)}>")

    def close(self, tag: str) -> None:
        self.lines.append(f"</{tag}>")

    def leaf(self, tag: str, *attrs: tuple[str, str | float], text: str | None = None) -> None:
        if text is None:
            self.lines.append(f"<{self._tag(tag, attrs)}/>")
        else:
            self.lines.append(f"<{self._tag(tag, attrs)}>{_text(text)}</{tag}>")

    def raw(self, text: str) -> None:
        """Append the output of another writer as it is."""
        if text:
            self.lines.append(text.removesuffix("\n"))

    def result(self) -> str:
        return "\n".join(self.lines) + "\n"


def points_attr(points: Iterable[Point]) -> str:
    return " ".join(f"{num(p.x)},{num(p.y)}" for p in points)


def line_attrs(a: Point, b: Point) -> tuple[tuple[str, float], ...]:
    return (("x1", a.x), ("y1", a.y), ("x2", b.x), ("y2", b.y))


def text_at(
    svg: SvgWriter,
    text: str,
    x: float,
    y: float,
    size: float,
    *extra: tuple[str, str | float],
    fit: float | None = None,
    bold: bool = False,
) -> None:
    """Centred text whose middle is at ``(x, y)``; a smaller font if it is wider than
    ``fit`` pixels (DejaVu Sans widths: it fits in Chromium and librsvg alike)."""
    if fit is not None and size:
        size = fitted_size(text, size, fit, bold=bold)
    attrs: list[tuple[str, str | float]] = [("x", x), ("y", y + 0.35 * size)]
    if size:
        attrs.append(("font-size", size))
    attrs.extend(extra)
    svg.leaf("text", *attrs, text=text)
