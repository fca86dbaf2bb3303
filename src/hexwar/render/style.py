"""Colours and line styles for :func:`hexwar.render.render_svg`: the game supplies its palette.

A :class:`Style` maps *names the game chose* (terrains, hexside features, linear
features) to colours and strokes, with defaults for common names and a fallback for the
rest, so any map renders. Sizes are fractions of the hex size (centre-to-corner radius,
or the side of a square), so a style works at every scale.

>>> style = Style().updated(terrain={"steppe": "#e9e2b8"}, linear={"rail": RAILWAY})
>>> style.terrain_colour("steppe"), style.terrain_colour("no-such-terrain")
('#e9e2b8', '#d9d9d9')
>>> style.hexside_style("don") == style.hexside_fallback
True
>>> style.linear_style("rail").ties
True
"""

from __future__ import annotations

import enum
import math
import types
from collections.abc import Iterable, Mapping
from typing import Any, Final, TypeAlias, TypeVar

import attrs

from hexwar.base.datafile import record_from
from hexwar.base.errors import RenderError

__all__ = [
    "BRIDGE",
    "DEFAULT_HEXSIDES",
    "DEFAULT_LINEAR",
    "DEFAULT_TERRAIN",
    "MAJOR_RIVER",
    "MARK_SHAPES",
    "RAILWAY",
    "RIVER",
    "ROAD",
    "HexsideKind",
    "HexsideStyle",
    "LineStyle",
    "MarkStyle",
    "Style",
]


def _check_width(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise RenderError(f"{attribute.name} must be a positive number, got {value!r}")


def _check_colour(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not value or any(c in value for c in "<>&\"'"):
        raise RenderError(f"{attribute.name} must be a CSS colour string, got {value!r}")


def _check_dash(
    instance: object, attribute: attrs.Attribute[tuple[float, ...]], value: tuple[float, ...]
) -> None:
    if any(not (math.isfinite(d) and d > 0) for d in value):
        raise RenderError(f"{attribute.name} must hold positive numbers, got {value!r}")


def _check_fraction(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise RenderError(f"{attribute.name} must be between 0 and 1, got {value!r}")


def _floats(value: Iterable[float]) -> tuple[float, ...]:
    return tuple(float(v) for v in value)


class HexsideKind(enum.Enum):
    """How a hexside feature is drawn.

    ``EDGE``: along the shared edge (a river). ``CROSSING``: a short bar across the
    middle of the edge, from one cell toward the other (a bridge, a ford, a ferry).
    """

    EDGE = "edge"
    CROSSING = "crossing"


@attrs.frozen
class HexsideStyle:
    """The stroke of a hexside feature; ``width`` is a fraction of the hex size."""

    colour: str = attrs.field(validator=_check_colour)
    width: float = attrs.field(validator=_check_width)
    kind: HexsideKind = HexsideKind.EDGE


@attrs.frozen
class LineStyle:
    """The stroke of a linear feature drawn centre to centre (a road, a railway).

    ``dash``: an SVG dash pattern (fractions of the hex size). ``ties``: draw cross-ties
    across the line every ``tie_spacing`` (a railway).
    """

    colour: str = attrs.field(validator=_check_colour)
    width: float = attrs.field(validator=_check_width)
    dash: tuple[float, ...] = attrs.field(default=(), converter=_floats, validator=_check_dash)
    ties: bool = False
    tie_spacing: float = attrs.field(default=0.25, validator=_check_width)


#: The shapes a :class:`MarkStyle` may draw (``edge``: a band along the cell's sides on
#: the map's border, e.g. a supply source off the map).
MARK_SHAPES: Final = frozenset(
    {"dot", "ring", "square", "triangle", "diamond", "star", "plane", "trench", "ferry", "edge"}
)
#: Where in its cell a mark sits (``nw`` .. ``se``: the four sides of the counter).
MARK_SLOTS: Final = {"c": (0.0, 0.0), "nw": (-0.6, -0.3), "ne": (0.6, -0.3),
                     "sw": (-0.6, 0.3), "se": (0.6, 0.3), "n": (0.0, -0.62),
                     "s": (0.0, 0.62)}  # fmt: skip


def _check_shape(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in MARK_SHAPES:
        raise RenderError(f"{attribute.name} must be one of {sorted(MARK_SHAPES)}, got {value!r}")


def _check_slot(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in MARK_SLOTS:
        raise RenderError(f"{attribute.name} must be one of {sorted(MARK_SLOTS)}, got {value!r}")


@attrs.frozen
class MarkStyle:
    """A symbol drawn on every cell carrying a tag (an airfield, a trench, a start hex).

    ``size``: a fraction of the hex size; ``slot``: where in the cell (``MARK_SLOTS``).
    """

    shape: str = attrs.field(validator=_check_shape)
    colour: str = attrs.field(validator=_check_colour)
    size: float = attrs.field(default=0.2, validator=_check_width)
    slot: str = attrs.field(default="ne", validator=_check_slot)


RIVER: Final = HexsideStyle("#2f6fd0", 0.08)
"""A river: blue, along the hexside."""
MAJOR_RIVER: Final = HexsideStyle("#1f4fb0", 0.18)
"""A major river: thicker and darker."""
BRIDGE: Final = HexsideStyle("#5a4632", 0.12, HexsideKind.CROSSING)
"""A bridge: a dark bar across the hexside."""
ROAD: Final = LineStyle("#8a5a2b", 0.06)
"""A road: a brown line."""
RAILWAY: Final = LineStyle("#222222", 0.04, ties=True)
"""A railway: a black line with cross-ties."""

DEFAULT_TERRAIN: Final[Mapping[str, str]] = types.MappingProxyType(
    {
        "clear": "#eae6c8",
        "open": "#eae6c8",
        "steppe": "#e9e2b8",
        "forest": "#93c183",
        "woods": "#93c183",
        "rough": "#c9b891",
        "hills": "#cdb07f",
        "mountain": "#a88c6c",
        "marsh": "#a7c9b0",
        "swamp": "#a7c9b0",
        "desert": "#f0dca0",
        "town": "#d2a980",
        "city": "#b98b6b",
        "water": "#8fb8de",
        "lake": "#8fb8de",
        "sea": "#6f9fd0",
    }
)
"""Colours for common terrain names; a game passes its own in :meth:`Style.updated`."""

DEFAULT_HEXSIDES: Final[Mapping[str, HexsideStyle]] = types.MappingProxyType(
    {
        "river": RIVER,
        "stream": HexsideStyle("#4f8fe0", 0.05),
        "major_river": MAJOR_RIVER,
        "bridge": BRIDGE,
        "ford": HexsideStyle("#7fb0f0", 0.12, HexsideKind.CROSSING),
        "crossing": HexsideStyle("#444444", 0.12, HexsideKind.CROSSING),
        "ferry": HexsideStyle("#444444", 0.12, HexsideKind.CROSSING),
        "wall": HexsideStyle("#555555", 0.08),
        "cliff": HexsideStyle("#6b4b2b", 0.1),
    }
)
"""Strokes for common hexside feature names."""

DEFAULT_LINEAR: Final[Mapping[str, LineStyle]] = types.MappingProxyType(
    {
        "road": ROAD,
        "track": LineStyle("#8a5a2b", 0.04, dash=(0.12, 0.08)),
        "rail": RAILWAY,
        "railway": RAILWAY,
    }
)
"""Strokes for common linear feature names."""


T = TypeVar("T", HexsideStyle, LineStyle, MarkStyle)
#: A style table's entry as :meth:`Style.updated` takes it: the record, the mapping of
#: its fields, or the name of another entry of the table.
Entry: TypeAlias = "T | str | Mapping[str, Any]"


def _entries(
    cls: type[T], table: Mapping[str, T], given: Mapping[str, Entry[T]] | None, kind: str
) -> dict[str, T]:
    """``table`` with the ``given`` entries added (see :meth:`Style.updated`)."""
    out = dict(table)
    for name, value in (given or {}).items():
        if isinstance(value, str):
            if value not in table:
                raise RenderError(f"style.{kind}[{name!r}]: no entry {value!r} to copy")
            out[name] = table[value]
        else:
            out[name] = record_from(cls, value, f"style.{kind}.{name}")
    return out


def _frozen_map(value: Mapping[str, object]) -> Mapping[str, object]:
    return types.MappingProxyType({k: value[k] for k in sorted(value)})


@attrs.frozen(eq=False)
class Style:
    """Everything the renderer does not take from the map: colours, strokes, fonts.

    Unknown terrain names get ``terrain_fallback``; unknown hexside features get
    ``hexside_fallback`` (a river: most hexside features are water); unknown linear
    features get ``linear_fallback``. Sizes are fractions of the hex size.
    """

    terrain: Mapping[str, str] = attrs.field(default=DEFAULT_TERRAIN, converter=_frozen_map)
    terrain_fallback: str = attrs.field(default="#d9d9d9", validator=_check_colour)
    hexside: Mapping[str, HexsideStyle] = attrs.field(
        default=DEFAULT_HEXSIDES, converter=_frozen_map
    )
    hexside_fallback: HexsideStyle = RIVER
    linear: Mapping[str, LineStyle] = attrs.field(default=DEFAULT_LINEAR, converter=_frozen_map)
    linear_fallback: LineStyle = LineStyle("#666666", 0.05)
    background: str = attrs.field(default="#ffffff", validator=_check_colour)
    grid_colour: str = attrs.field(default="#7a7a7a", validator=_check_colour)
    grid_width: float = attrs.field(default=0.02, validator=_check_width)
    font_family: str = "sans-serif"
    text_colour: str = attrs.field(default="#202020", validator=_check_colour)
    halo_colour: str = attrs.field(default="#ffffff", validator=_check_colour)
    name_size: float = attrs.field(default=0.26, validator=_check_width)
    label_size: float = attrs.field(default=0.2, validator=_check_width)
    label_colour: str = attrs.field(default="#555555", validator=_check_colour)
    title_size: float = attrs.field(default=0.5, validator=_check_width)
    margin: float = attrs.field(default=0.5, validator=_check_width)
    highlight_colour: str = attrs.field(default="#ffd400", validator=_check_colour)
    highlight_opacity: float = attrs.field(default=0.45, validator=_check_fraction)
    path_colour: str = attrs.field(default="#d0202a", validator=_check_colour)
    path_width: float = attrs.field(default=0.08, validator=_check_width)
    path_opacity: float = attrs.field(default=0.85, validator=_check_fraction)
    counter_size: float = attrs.field(default=0.8, validator=_check_width)
    counter_border: str = attrs.field(default="#000000", validator=_check_colour)
    reduced_colour: str = attrs.field(default="#ffffff", validator=_check_colour)
    stack_offset: float = attrs.field(default=0.12, validator=_check_fraction)
    #: cell tag -> its mark; a tag ``a:b:c`` takes the entry of ``a:b:c``, else ``a:b``,
    #: else ``a``.
    marks: Mapping[str, MarkStyle] = attrs.field(factory=dict, converter=_frozen_map)
    #: the legend's words for a terrain, a feature, a mark's tag or a counter symbol
    #: (default: the name itself).
    legend_names: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)
    legend_width: float = attrs.field(default=7.0, validator=_check_width)

    def __attrs_post_init__(self) -> None:
        for kind, table, cls in (
            ("terrain", self.terrain, str),
            ("hexside", self.hexside, HexsideStyle),
            ("linear", self.linear, LineStyle),
            ("marks", self.marks, MarkStyle),
            ("legend_names", self.legend_names, str),
        ):
            for name, value in table.items():
                if not isinstance(value, cls):
                    raise RenderError(
                        f"style.{kind}[{name!r}] must be a {cls.__name__}, got {value!r}"
                    )
                bad = isinstance(value, str) and (not value or any(c in value for c in "<>&\"'"))
                if kind == "terrain" and bad:
                    raise RenderError(f"style.terrain[{name!r}] is not a colour: {value!r}")

    def updated(
        self,
        *,
        terrain: Mapping[str, str] | None = None,
        hexside: Mapping[str, Entry[HexsideStyle]] | None = None,
        linear: Mapping[str, Entry[LineStyle]] | None = None,
        marks: Mapping[str, Entry[MarkStyle]] | None = None,
        legend_names: Mapping[str, str] | None = None,
        **changes: object,
    ) -> Style:
        """A copy with the given entries *added to* the tables and other fields replaced.

        A stroke or mark is a record, the mapping of its fields (data), or the name of an
        entry of the same table to copy (``"major_river"``):

        >>> style = Style().updated(
        ...     hexside={"don": "major_river", "stream": {"colour": "#6f9fd0", "width": 0.05}},
        ...     marks={"trench": {"shape": "trench", "colour": "#5a3a1a", "slot": "s"}})
        >>> style.hexside["don"] == MAJOR_RIVER, style.hexside["stream"].width
        (True, 0.05)
        >>> style.marks["trench"].size
        0.2
        """
        return attrs.evolve(
            self,
            terrain={**self.terrain, **(terrain or {})},
            hexside=_entries(HexsideStyle, self.hexside, hexside, "hexside"),
            linear=_entries(LineStyle, self.linear, linear, "linear"),
            marks=_entries(MarkStyle, self.marks, marks, "marks"),
            legend_names={**self.legend_names, **(legend_names or {})},
            **changes,  # type: ignore[arg-type]
        )

    def terrain_colour(self, terrain: str) -> str:
        """The fill colour of ``terrain`` (or the fallback)."""
        return self.terrain.get(terrain, self.terrain_fallback)

    def hexside_style(self, feature: str) -> HexsideStyle:
        """The stroke of hexside feature ``feature`` (or the fallback)."""
        return self.hexside.get(feature, self.hexside_fallback)

    def mark_of(self, tag: str) -> tuple[str, MarkStyle] | None:
        """The mark of cell tag ``tag`` and the entry it came from (``None``: no mark)."""
        parts = tag.split(":")
        for n in range(len(parts), 0, -1):
            key = ":".join(parts[:n])
            if key in self.marks:
                return key, self.marks[key]
        return None

    def legend_name(self, key: str) -> str:
        """What the legend calls ``key``."""
        return self.legend_names.get(key, key.replace("_", " "))

    def linear_style(self, feature: str) -> LineStyle:
        """The stroke of linear feature ``feature`` (or the fallback)."""
        return self.linear.get(feature, self.linear_fallback)
