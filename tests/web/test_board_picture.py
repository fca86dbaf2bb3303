"""The board as a wargamer reads it (issue 15), checked on the SVG itself: no two place
names overlap, and every counter's texts fit inside the counter (widths from DejaVu Sans,
the font Chromium and librsvg both draw ``sans-serif`` with here)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from hexwar.render.metrics import text_width
from hexwar.render.texts import overlap
from hexwar.web.views import draw
from hexwar_stalingrad.board import on_map, static
from hexwar_stalingrad.render import STYLE, counters, designation, map_svg
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.web import WEB

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


def _group(root: ET.Element, cls: str) -> ET.Element | None:
    return next((g for g in root.iter(f"{NS}g") if g.get("class") == cls), None)


def name_boxes(svg: str) -> list[tuple[str, Box]]:
    """Each place name's line and its box, from the text's position and font size."""
    root = ET.fromstring(svg)
    names = _group(root, "names")
    assert names is not None
    out = []
    for t in names.iter(f"{NS}text"):
        size = float(t.get("font-size", names.get("font-size", "0")))
        x, baseline, text = float(t.get("x", "0")), float(t.get("y", "0")), t.text or ""
        half = text_width(text, size) / 2.0
        out.append((text, (x - half, baseline - 0.8 * size, x + half, baseline + 0.25 * size)))
    return out


@pytest.mark.parametrize("units", [True, False])
def test_no_two_place_names_overlap(units: bool) -> None:
    svg = map_svg(units=units)
    boxes = name_boxes(svg)
    assert len(boxes) >= 60  # every place of the map, some on two lines
    clashes = [
        (a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1 :] if overlap(ba, bb)
    ]
    assert clashes == []
    texts = {t for t, _ in boxes}
    for place in ("Pitomnik airfield", "Stalingrad centre (Tsaritsa mouth)", "Krasnaya Sloboda"):
        assert any(t.startswith(place) for t in texts), place


def test_counter_texts_fit_their_counters() -> None:
    state = StalingradRules(length="short").new_state()
    svg = draw(WEB, state, None)
    assert svg is not None
    root = ET.fromstring(svg)
    counters = _group(root, "counters")
    assert counters is not None
    checked = 0
    for g in counters.findall(f"{NS}g"):
        frame = g.find(f"{NS}rect")
        assert frame is not None
        side = float(frame.get("width", "0"))
        assert side == pytest.approx(STYLE.counter_size * 30.0)
        for t in g.iter(f"{NS}text"):
            bold = t.get("font-weight") == "bold"
            width = text_width(t.text or "", float(t.get("font-size", "0")), bold=bold)
            assert width <= 0.9 * side, (t.text, width, side)
            checked += 1
    assert checked == 2 * len(counters.findall(f"{NS}g")) >= 100  # designation, strength


def test_the_board_has_a_legend_and_tells_lakes_from_crossings() -> None:
    svg = map_svg()
    legend = _group(ET.fromstring(svg), "legend")
    assert legend is not None
    words = " ".join(t.text or "" for t in legend.iter(f"{NS}text"))
    for entry in ("lake: impassable", "Volga crossing", "trenches", "airfield", "supply source",
                  "set-up hex", "reserve", "tanks", "infantry", "rocket artillery"):  # fmt: skip
        assert entry in words, entry
    assert STYLE.terrain_colour("lake") != STYLE.terrain_colour("volga_crossing")
    assert STYLE.terrain_colour("lake") != STYLE.terrain_colour("volga")


def test_every_counter_tells_its_unit_apart() -> None:
    """Designations, not "inf Romanian" for every Romanian division (issue 15)."""
    state = StalingradRules(length="long").new_state()
    data = static(state)
    names = [designation(u) for u in data.ground]
    assert len(set(names)) == len(names)
    assert designation("w-22pz") == "22Pz"
    assert designation("r-5ta-a") == "5TA-A"
    shown = {cv.top for cv in counters(state) if cv.symbol != "air"}
    assert len(shown) == len(on_map(state))
