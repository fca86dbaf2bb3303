"""Counters as the renderer sees them: plain values the *game* builds from its units.

The renderer knows no game. A game turns each unit into a :class:`CounterView` (where
it stands, its side's colour, the texts printed on it) and passes the views to
:func:`hexwar.render.render_svg`.

>>> from hexwar.grid.geometry import Hex
>>> CounterView(Hex(0, 0), "#c03030", top="62 A", bottom="6-4", reduced=True)
CounterView(cell=Hex(q=0, r=0), colour='#c03030', top='62 A', bottom='6-4', reduced=True, \
text_colour='#000000', title=None)
"""

from __future__ import annotations

from collections.abc import Hashable

import attrs

from hexwar.render.style import _check_colour

__all__ = ["CounterView"]


@attrs.frozen
class CounterView:
    """One counter to draw.

    ``cell``: where it stands; ``colour``: the fill (the side's colour); ``top``: the
    small upper text (unit type or name); ``bottom``: the large lower text (strength and
    movement, like ``"6-4"``); ``reduced``: mark the reduced (flipped) side with a
    stripe; ``title``: an optional tooltip. Counters sharing a cell are stacked in the
    order given, the last on top, each shifted by ``Style.stack_offset``.
    """

    cell: Hashable
    colour: str = attrs.field(validator=_check_colour)
    top: str = ""
    bottom: str = ""
    reduced: bool = False
    text_colour: str = attrs.field(default="#000000", validator=_check_colour)
    title: str | None = None
