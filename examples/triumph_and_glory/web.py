"""Triumph & Glory in the browser: ``python -m hexwar serve examples.triumph_and_glory.web:WEB``.

The board shows every unit with its vertex facing (a dark wedge on the counter's edge
pointing at the faced vertex, 6.11; artillery may point apart from the troops it stacks
with, 6.14), each stack fanned with its top unit drawn on top and numbered ``1.`` (6.24),
the commanders (``N`` / ``K`` / ``B`` markers) with their command range tinted (5.61), and
the activation: a ``▲`` on every cell with a unit of the active group, ``✓`` once it has
moved, fired or assaulted. A click on a counter starts its move (or fire, or stack order),
then a click on a hex ends it, as in «Сталинград».

>>> from hexwar.web.session import Session
>>> session, tokens = Session.create(WEB, {}, {"russian": "random"})
>>> view = board(session.state, "french")
>>> [u for u, _ in view.counters][:3]
['Cuir-b', 'Cuir-a', 'Pol-b']
>>> sorted(m.text for m in view.markers)[:2]
['B', 'N']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hexwar import Ruleset, State
from hexwar.render import CounterView, Style
from hexwar.web.games import BoardView, Marker, WebGame

from .board import stack, tg
from .rules import ACT, TriumphAndGlory, unit_facing

__all__ = ["WEB", "board"]

COLOUR: Final = {"french": "#3a64b5", "russian": "#2e7d32"}
#: The terrain the default style does not know: villages and redoubts apart at a glance.
STYLE: Final = Style().updated(terrain={"village": "#d2a980", "redoubt": "#a39e93"})
RANGE_TINT: Final = {"french": "#6f9cff", "russian": "#ffd54f"}
SYMBOL: Final = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery"}


def _counter(state: State, uid: str, place: int, size: int) -> CounterView:
    rules = tg(state)
    u = rules.units[uid]
    f = unit_facing(state, uid)
    rating = {"infantry": f"dfr {u.dfr}", "cavalry": u.cavalry, "artillery": f"r{u.max_range}"}
    horse = " horse" if u.horse else ""
    strength = state.get("strength", uid)
    return CounterView(
        f.hex,
        COLOUR[u.side],
        top=f"{place}.{uid}" if size > 1 else uid,
        bottom=f"{strength}-{u.cohesion}-{u.allowance}",
        reduced=bool(state.get("disordered", uid)),
        text_colour="#ffffff",
        title=(
            f"{uid} ({u.arm}{horse}, {rating[u.arm]}; group {u.group}, brigade {u.brigade}) "
            f"{place} of {size} in its stack, facing corner {f.corner}"
            + (", disordered" if state.get("disordered", uid) else "")
        ),
        symbol=SYMBOL[u.arm],
        faces=f.front(),
    )


def board(state: State, side: str | None) -> BoardView:
    """The map, every unit (nothing on the map is hidden; the orders are), the commanders
    with their command ranges and the activation markers."""
    rules = tg(state)
    views = []
    for _, units in sorted(rules.pieces.positions(state).items()):
        for place, uid in reversed(list(enumerate(units, 1))):  # the top unit drawn last
            views.append((uid, _counter(state, uid, place, len(units))))
    markers, tint = [], {}
    for s, c in sorted(rules.scenario.commanders.items()):
        at = rules.leaders.where(state, s)
        markers.append(Marker(at, c.name[0], COLOUR[s], f"{c.name}: command range {c.range}"))
        for h in at.within(c.range):
            if h in rules.map and h != at:
                tint.setdefault(h, RANGE_TINT[s])
    if ACT.active(state):
        done = ACT.flagged(state, "moved", "fired", "assaulted")
        cells = {}
        for uid in ACT.units(state):
            h = rules.pieces.where(state, uid)
            cells[h] = cells.get(h, True) and uid in done
        colour = COLOUR[ACT.side(state)]
        for h, finished in sorted(cells.items()):
            if h not in {m.cell for m in markers}:
                title = f"activation {ACT.token(state)} ({ACT.status(state)})"
                markers.append(Marker(h, "✓" if finished else "▲", colour, title))
    return BoardView(rules.map, views, style=STYLE, markers=markers, highlight=tint)


def _rules(options: Mapping[str, str]) -> Ruleset:
    return TriumphAndGlory(options.get("scenario") or "shevardino")


def _describe(state: State, token: str) -> str | None:
    rules = tg(state)
    if token in rules.units:
        u = rules.units[token]
        return (
            f"{token} ({u.arm}, {len(stack(state, rules.pieces.where(state, token)))} in hex)"
            if rules.pieces.is_placed(state, token)
            else token
        )
    if token in rules.groups:
        return f"{token}: {rules.groups[token].name}"
    return None


WEB: Final = WebGame(
    name="triumph-and-glory",
    title="Triumph & Glory «Триумф и Слава»",
    rules=_rules,
    options={"scenario": ("shevardino", "borodino")},
    board=board,
    unit_kinds=("move", "fire", "top", "face"),
    describe=_describe,
    decisions={
        "orders": "choose the groups under orders (5.21-5.22)",
        "barrage": "place the artillery barrage marker? (5.33)",
        "combine": "place a combined-group marker? (5.34)",
    },
)
