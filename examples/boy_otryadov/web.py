"""«Бой отрядов» in the browser: ``python -m hexwar serve examples.boy_otryadov.web:WEB``.

The board: squares in their four colours (I), roads and the railway, the neutral zones;
during the hidden set-up (X.2) the other side's zone lies under a screen and its figures
are not drawn. Figures by arm and side; markers for barrage (V), gas and persistent gas
(XIV), neutralised guns (IX), villages (XVI) and, in 1941, stations. A click on a figure,
then on a square, moves it (or takes the square: VIII); fire and the rest are buttons.

>>> from hexwar.web.session import Session
>>> session, _ = Session.create(WEB, {}, {"red": "random"})
>>> view = board(session.state, "blue")
>>> view.labels(RULES.board.cell_at("К-IIIb"))
'К-IIIb'
>>> sum(m.text == SCREEN for m in view.markers)  # red's zone is behind the screen
30
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hexwar import Ruleset, State
from hexwar.render import CounterView, Style
from hexwar.render.style import RAILWAY, ROAD
from hexwar.web.games import BoardView, Marker, WebGame

from .board import SIDES
from .rules import DEFAULT, BoyOtryadov, side_of

__all__ = ["RULES", "WEB", "board"]

RULES: Final = BoyOtryadov()
COLOUR: Final = {"blue": "#2f5fb3", "red": "#c0392b"}
SCREEN: Final = "▒"
#: The tint of the other side's set-up zone while it is screened (X.2).
SCREEN_TINT: Final = "#8c8c8c"
# I: red strong, white weak, green masking, blue impassable squares.
STYLE: Final = Style().updated(
    terrain={
        "strong": "#e8a0a0",
        "weak": "#fbfbf6",
        "masking": "#8fc98f",
        "marsh": "#7fa7dd",
        "lake": "#4f7fc8",
    },
    linear={"road": ROAD, "rail": RAILWAY},
)
# Figures by arm: a short name and a NATO-style symbol.
ARMS: Final = {
    "rifle": ("стр", "infantry"), "lmg": ("рп", "infantry"), "hmg": ("сп", "infantry"),
    "hmg_cavalry": ("сп", "infantry"), "commander": ("ком", "infantry"),
    "cavalry": ("кав", "cavalry"), "cavalry_dismounted": ("кав↓", "infantry"),
    "tachanka": ("тач", "cavalry"), "tank": ("танк", "armour"),
    "armoured_car": ("бм", "mechanized"), "armoured_train": ("бп", "mechanized"),
    "battalion_gun": ("ба", "artillery"), "field_gun": ("па", "artillery"),
    "horse_artillery": ("ка", "cavalry"), "horse_artillery_firing": ("ка", "artillery"),
    "chemical": ("хим", "infantry"), "partisan": ("парт", "infantry"),
}  # fmt: skip


def board(state: State, side: str | None) -> BoardView:
    """The map for ``side``: behind the screens (X.2) only its own figures."""
    rules = state.ruleset
    assert isinstance(rules, BoyOtryadov)
    b, hidden = rules.board, not rules.deployment.done(state)
    counters = []
    for uid, (arm, cell) in sorted(rules.units(state).items()):
        if hidden and side_of(uid) != side:
            continue
        short, symbol = ARMS.get(arm, (arm[:4], None))
        title = f"{uid}: {rules.data.arms[arm].title} at {b.label(cell)}"
        view = CounterView(cell, COLOUR[side_of(uid)], top=uid, bottom=short,
                           text_colour="#ffffff", title=title, symbol=symbol,
                           reduced=state.get("pinned", uid) is not None)  # fmt: skip
        counters.append((uid if side_of(uid) == side else None, view))
    markers = [Marker(c, "⌂", "#1d5e1d", "village (XVI)") for c in sorted(b.villages)]
    if rules.scenario(state).station:
        markers += [Marker(c, "◉", COLOUR[s], f"{s} station (1941)") for s, c in b.station.items()]
    screened = {c: SCREEN_TINT for c in b.map if hidden and b.zone.get(c) not in (None, side)}
    if hidden:
        markers += [Marker(c, SCREEN, "#555555", f"{s}'s set-up behind the screen (X.2)")
                    for c in b.map for s in SIDES if b.zone.get(c) == s and s != side]  # fmt: skip
    tables = (("barrage", "✕", "barrage fire (V)"), ("gas", "☣", "gas (XIV.а)"),
              ("contaminated", "☠", "persistent gas (XIV.б)"))  # fmt: skip
    for table, text, what in tables:
        for label, owner in sorted(state.table(table).items()):
            markers.append(Marker(b.cell_at(label), text, COLOUR[str(owner)], what))
    for uid in sorted(state.table("neutral")):
        if not hidden or side_of(uid) == side:
            where = rules.pieces.where(state, uid)
            markers.append(Marker(where, "N", "#000000", "neutralised gun (IX)"))
    return BoardView(
        b.map, counters, style=STYLE, labels=b.label, markers=markers, highlight=screened
    )


def _rules(options: Mapping[str, str]) -> Ruleset:
    return BoyOtryadov(default=options["scenario"], gas=options["gas"] == "yes")


#: XII's scenarios (the skirmish first: the default) and XIV's gas by the players' wish.
WEB: Final = WebGame(
    name="boy_otryadov",
    title="Бой отрядов (1930)",
    rules=_rules,
    board=board,
    options={
        "scenario": (DEFAULT, *sorted(n for n in RULES.data.scenarios if n != DEFAULT)),
        "gas": ("no", "yes"),
    },
    unit_kinds=("move", "retreat", "mount", "dismount", "fire"),
    decisions={
        "retreat": "fall back or leave the square (VI, XIV)",
        "raid": "remove an enemy figure (XIII)",
        "place": "set up a figure (X.2)",
    },
)
