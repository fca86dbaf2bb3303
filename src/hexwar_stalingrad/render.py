"""Pictures of a Stalingrad position: the palette and the counters for :mod:`hexwar.render`.

>>> from hexwar_stalingrad.rules import StalingradRules
>>> state = StalingradRules(length="short").new_state()
>>> svg = position_svg(state)
>>> drawn = svg.count('<g class="counter"') + svg.count('<g class="counter reduced"')
>>> drawn == len(counters(state))
True
"""

from __future__ import annotations

import re
from typing import Final

from hexwar.engine.state import Ruleset, State
from hexwar.render import CounterView, Style, SvgImage, render_svg
from hexwar_stalingrad.board import FULL, on_map, static, step, strength

__all__ = [
    "ARM_SYMBOL",
    "SIDE_COLOUR",
    "STYLE",
    "counters",
    "designation",
    "map_svg",
    "position_svg",
]

#: Counter colours: RKKA red, Wehrmacht field grey.
SIDE_COLOUR: Final = {"rkka": "#c8372d", "wehrmacht": "#6b7b8c"}
#: Air units aloft are drawn lighter.
AIR_COLOUR: Final = {"rkka": "#f08a80", "wehrmacht": "#aab8c6"}
#: The NATO-style symbol of each arm (the renderer's ``NATO_SYMBOLS``).
ARM_SYMBOL: Final = {
    "infantry": "infantry",
    "tank": "armour",
    "mechanized": "mechanized",
    "cavalry": "cavalry",
    "artillery": "artillery",
    "katyusha": "rocket",
}
#: Short words in counter designations (the unit's id without its side: ``r-5ta-a`` ->
#: ``5TA-A``, ``w-rom-vi-b`` -> ``Rom VI-B``).
DESIGNATION_WORDS: Final = {
    "pz": "Pz",
    "rom": "Rom",
    "mot": "Mot",
    "art": "Art",
    "kat": "BM-13",
    "id": "",
    "hollidt": "Hollidt",
    "hoth": "Hoth",
}
_SUPPLY_EDGE: Final = 0.16
STYLE: Final = Style().updated(
    terrain={
        "steppe": "#efe8c8",
        "town": "#c9b79c",
        "city": "#9c8468",
        "volga": "#5f93cf",
        "volga_crossing": "#bcd8f2",
        "lake": "#2f5f8f",
    },
    hexside={
        "don": "major_river",
        "chir": "river",
        "aksay": "river",
        "myshkova": "river",
        "karpovka": "river",
        "stream": {"colour": "#6f9fd0", "width": 0.05},
    },
    marks={
        "supply:rkka": {"shape": "edge", "colour": SIDE_COLOUR["rkka"], "size": _SUPPLY_EDGE},
        "supply:wehrmacht": {
            "shape": "edge",
            "colour": SIDE_COLOUR["wehrmacht"],
            "size": _SUPPLY_EDGE,
        },
        "airfield:rkka": {
            "shape": "plane",
            "colour": SIDE_COLOUR["rkka"],
            "size": 0.16,
            "slot": "nw",
        },
        "airfield:wehrmacht": {
            "shape": "plane",
            "colour": SIDE_COLOUR["wehrmacht"],
            "size": 0.16,
            "slot": "nw",
        },
        "start:rkka": {
            "shape": "triangle",
            "colour": SIDE_COLOUR["rkka"],
            "size": 0.14,
            "slot": "ne",
        },
        "start:wehrmacht": {
            "shape": "triangle",
            "colour": SIDE_COLOUR["wehrmacht"],
            "size": 0.14,
            "slot": "ne",
        },
        "reserve:rkka": {
            "shape": "diamond",
            "colour": SIDE_COLOUR["rkka"],
            "size": 0.16,
            "slot": "se",
        },
        "reserve:wehrmacht": {
            "shape": "diamond",
            "colour": SIDE_COLOUR["wehrmacht"],
            "size": 0.16,
            "slot": "se",
        },
        "truck:rkka": {"shape": "square", "colour": SIDE_COLOUR["rkka"], "size": 0.1, "slot": "sw"},
        "truck:wehrmacht": {
            "shape": "square",
            "colour": SIDE_COLOUR["wehrmacht"],
            "size": 0.1,
            "slot": "sw",
        },
        "trench": {"shape": "trench", "colour": "#5a3a1a", "size": 0.13, "slot": "s"},
        "crossing": {"shape": "ferry", "colour": "#1d3d6d", "size": 0.2, "slot": "c"},
    },
    legend_names={
        "legend": "Legend / Условные обозначения",
        "steppe": "steppe / степь",
        "town": "town: fortification (S9.2) / посёлок",
        "city": "Stalingrad city / город",
        "volga": "Volga: impassable / Волга",
        "volga_crossing": "Volga crossing (S6) / переправа",
        "lake": "lake: impassable / озеро",
        "don": "Don / Дон",
        "chir": "river (Chir) / река",
        "aksay": "river (Aksay) / река",
        "myshkova": "river (Myshkova) / река",
        "karpovka": "river (Karpovka) / река",
        "stream": "stream / ручей",
        "bridge": "bridge / мост",
        "rail": "railway / железная дорога",
        "road": "road / дорога",
        "supply:rkka": "RKKA supply source / снабжение РККА",
        "supply:wehrmacht": "German supply source / снабжение вермахта",
        "airfield:rkka": "RKKA airfield / аэродром",
        "airfield:wehrmacht": "German airfield / аэродром",
        "start:rkka": "RKKA set-up hex / расстановка",
        "start:wehrmacht": "German set-up hex / расстановка",
        "reserve:rkka": "RKKA reserve (turn 6) / резерв",
        "reserve:wehrmacht": "German reserve (turn 6) / резерв",
        "truck:rkka": "RKKA rebuild hex (S4.1) / пополнение",
        "truck:wehrmacht": "German rebuild hex (S4.1) / пополнение",
        "trench": "trenches: fortification / окопы",
        "crossing": "ferry crossing / переправа",
        "infantry": "infantry / пехота",
        "armour": "tanks / танки",
        "cavalry": "cavalry / кавалерия",
        "mechanized": "mechanized / мотопехота",
        "artillery": "artillery (S7) / артиллерия",
        "rocket": "rocket artillery BM-13 / «Катюша»",
        "air": "air unit aloft (S10) / авиация",
        "reduced": "reduced side / ослабленная сторона",
    },
    counter_size=0.86,
)
"""The Stalingrad palette (terrain, rivers, map marks, the legend's words)."""


def designation(unit: str) -> str:
    """The counter's designation: the unit's id without its side prefix, short words
    spelt out (``r-5ta-a`` -> ``5TA-A``, ``w-22pz`` -> ``22Pz``)."""
    parts = re.findall(r"\d+|[a-z]+|-", unit.split("-", 1)[1])
    return "".join(DESIGNATION_WORDS.get(p, p.upper()) if p != "-" else "-" for p in parts).strip(
        "-"
    )


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
                top=designation(unit),
                bottom=f"{strength(state, unit)}-{move}",
                reduced=step(state, unit) != FULL,
                text_colour="#ffffff",
                title=f"{info.name} / {info.name_ru} ({unit})",
                symbol=ARM_SYMBOL[info.arm],
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
                symbol="air",
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
        legend=True,
    )
