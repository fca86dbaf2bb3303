"""Pictures of a Stalingrad position: the palette and the counters for :mod:`hexwar.render`.

>>> from hexwar_stalingrad.rules import StalingradRules
>>> state = StalingradRules(length="short").new_state()
>>> svg = position_svg(state)
>>> drawn = svg.count('<g class="counter"') + svg.count('<g class="counter reduced"')
>>> drawn == len(counters(state))
True
"""

from __future__ import annotations

from typing import Final

from hexwar.engine.state import Ruleset, State
from hexwar.render import MAJOR_RIVER, RIVER, CounterView, HexsideStyle, Style, SvgImage, render_svg
from hexwar_stalingrad.board import FULL, on_map, static, step, strength

__all__ = ["ARM_LABEL", "SIDE_COLOUR", "STYLE", "counters", "map_svg", "position_svg"]

#: Counter colours: RKKA red, Wehrmacht field grey.
SIDE_COLOUR: Final = {"rkka": "#c8372d", "wehrmacht": "#6b7b8c"}
#: Air units aloft are drawn lighter.
AIR_COLOUR: Final = {"rkka": "#f08a80", "wehrmacht": "#aab8c6"}
#: Short arm labels on counters.
ARM_LABEL: Final = {
    "infantry": "inf",
    "tank": "tk",
    "mechanized": "mech",
    "cavalry": "cav",
    "artillery": "art",
    "katyusha": "BM-13",
}
STYLE: Final = Style().updated(
    terrain={
        "steppe": "#efe8c8",
        "town": "#c9b79c",
        "city": "#9c8468",
        "volga": "#6f9fd0",
        "volga_crossing": "#8fb8e0",
        "lake": "#8fb8e0",
    },
    hexside={
        "don": MAJOR_RIVER,
        "chir": RIVER,
        "aksay": RIVER,
        "myshkova": RIVER,
        "karpovka": RIVER,
        "stream": HexsideStyle("#6f9fd0", 0.05),
    },
)
"""The Stalingrad palette (terrain, rivers; roads and railways use the defaults)."""


def counters(state: State) -> list[CounterView]:
    """One :class:`CounterView` per ground unit on the map and per air unit aloft."""
    data = static(state)
    out = []
    for label, unit in on_map(state):
        info = data.ground[unit]
        move = info.movement.full if step(state, unit) == FULL else info.movement.reduced
        out.append(
            CounterView(
                data.cell(label),
                SIDE_COLOUR[info.side],
                top=f"{ARM_LABEL[info.arm]} {info.name.split(' ')[0]}",
                bottom=f"{strength(state, unit)}-{move}",
                reduced=step(state, unit) != FULL,
                text_colour="#ffffff",
                title=f"{info.name} / {info.name_ru} ({unit})",
            )
        )
    for unit, value in sorted(state.table("sky").items()):
        assert isinstance(value, tuple)
        plane = data.air[unit]
        air_step = state.get("air", unit)
        reduced = isinstance(air_step, tuple) and air_step[1] != FULL
        power = plane.strength.reduced if reduced else plane.strength.full
        out.append(
            CounterView(
                data.cell(str(value[0])),
                AIR_COLOUR[plane.side],
                top=plane.aircraft,
                bottom=str(power),
                reduced=reduced,
                title=f"{plane.aircraft_ru} ({unit})",
            )
        )
    return out


def position_svg(state: State, *, title: str | None = None, width: int | None = 1400) -> SvgImage:
    """The map with every counter (a deterministic SVG)."""
    data = static(state)
    return render_svg(
        data.game_map, counters=counters(state), style=STYLE, title=title, width=width
    )


def map_svg(
    *,
    units: bool = True,
    labels: bool = True,
    width: int | None = 1400,
    rules: Ruleset | None = None,
) -> SvgImage:
    """The theatre map (``docs/stalingrad/map.svg``): terrain, rivers, railways and roads,
    place names, hex labels, and (``units=True``) the counters of the 19 November set-up;
    of ``rules``'s scenario (the shipped one by default).

    Deterministic: the same data gives a byte-identical SVG.
    """
    from hexwar_stalingrad.rules import StalingradRules  # the rules import this module

    state = (rules or StalingradRules(length="long")).new_state()
    title = "«Сталинград» / Stalingrad, 19 November 1942: the Don–Volga theatre"
    return render_svg(
        static(state).game_map,
        counters=counters(state) if units else (),
        style=STYLE,
        labels=labels,
        title=title,
        width=width,
    )
