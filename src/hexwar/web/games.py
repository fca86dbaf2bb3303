"""What the web server needs to know about a game: :class:`WebGame`.

The server knows no game. A game hands it a :class:`WebGame`: how to build its ruleset
from the options chosen on the "new game" form, its bots, and (optionally) how to draw a
position for one side (:class:`BoardView`: a map and the counters on it, each counter
tagged with the unit token a click on it stands for). Legality never comes from here:
every control the page offers is a token of :meth:`~hexwar.engine.state.State.legal_tokens`.

Any ruleset works without an adapter (:func:`generic`): the page then offers the legal
tokens as buttons, without a board.

>>> from hexwar.engine.state import Ruleset
>>> class Nothing(Ruleset):
...     name = "nothing"
...     sides = ("a",)
>>> game = generic(Nothing)
>>> game.name, sorted(game.bots), game.board is None
('nothing', ['random', 'search'], True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from hexwar.board.maps import GameMap
from hexwar.engine.actions import Action
from hexwar.engine.loop import Player, RandomPlayer
from hexwar.engine.state import Ruleset, State
from hexwar.render import CounterView, Style
from hexwar.search import SearchPlayer

if TYPE_CHECKING:
    from hexwar.mechanics.combat import Combat

__all__ = ["SEARCH_ITERATIONS", "BoardView", "Marker", "WebGame", "generic"]

#: The ``search`` seat's budget (:class:`~hexwar.search.SearchPlayer` iterations an
#: action; it thinks in a bot worker, :mod:`hexwar.web.bots`).
SEARCH_ITERATIONS = 100


@attrs.frozen
class Marker:
    """A game's mark on one cell of the board: a short ``text`` or symbol (``"★"``,
    ``"R"``) in ``colour``, drawn at the top of the cell over what is there; ``title``:
    the tooltip (who holds a town, why the cell matters)."""

    cell: Any
    text: str
    colour: str = "#000000"
    title: str | None = None


@attrs.frozen
class BoardView:
    """A position as one side may see it: the map and the counters on it.

    ``counters``: ``(unit token, view)`` pairs; the token (``None``: not clickable) is
    what a click on that counter stands for in an action (``move UNIT HEX``); ``markers``:
    the game's marks on cells (:class:`Marker`: who holds a town); ``labels``: print the
    map's labels (``True``), none, or a function ``cell -> label`` when the game's actions
    name cells by its own labels (``"К-IIIb"``): a click then sends that label;
    ``highlight``: cells tinted in a colour (a leader's command range). Only what the
    viewing side may know belongs here: the server draws it as given.
    """

    game_map: GameMap[Any]
    counters: Sequence[tuple[str | None, CounterView]] = ()
    style: Style | None = None
    labels: bool | Callable[[Any], str] = True
    markers: Sequence[Marker] = ()
    highlight: Mapping[Any, str] = attrs.field(factory=dict)


def _random(seed: int) -> Player:
    return RandomPlayer(seed)


def _search(seed: int) -> Player:
    return SearchPlayer(seed, iterations=SEARCH_ITERATIONS)


def _with_search(bots: Mapping[str, Callable[[int], Player]]) -> dict[str, Callable[[int], Player]]:
    """``bots`` and, unless the game has its own of those names, the ``random`` and
    ``search`` seats."""
    return {**bots, "random": bots.get("random", _random), "search": bots.get("search", _search)}


@attrs.frozen
class WebGame:
    """A game as the web server offers it.

    ``rules(options)`` builds the ruleset from the chosen option values (strings);
    ``options`` maps each option to its choices (the first is the default); ``bots`` maps a
    bot's name to ``seed -> player`` (every game also gets ``random``, the
    :class:`~hexwar.engine.loop.RandomPlayer`, and ``search``, the search player of
    :mod:`hexwar.search`, unless it names its own); ``board(state, side)`` draws the position for
    ``side`` (``None``: a spectator) or is ``None`` (no board: token buttons only);
    ``unit_kinds``: the action kinds a click on a unit starts, in order of preference
    (the first whose legal next tokens hold the unit); ``scenario``: passed to
    :meth:`~hexwar.engine.state.Ruleset.new_state`; ``preview(state, prefix)``: a line
    shown under the action being built (the exact odds of an attack), or ``None``; it
    must only read the state; ``describe(state, token)``: a short name for a token on
    its button (a unit's or a card's name), or ``None``; ``roll_result(state, outcome)``:
    what the game's table makes of a chance outcome about to be applied (``"DR"``), shown
    beside the roll, or ``None``; ``decisions``: the pending decisions' kinds in words
    for the status line (``{"ex_loss": "choose the exchange losses (S8.4)"}``; a kind not
    named there is described by the ruleset's ``step_meaning``, never by its name).
    """

    name: str
    title: str
    rules: Callable[[Mapping[str, str]], Ruleset]
    options: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    bots: Mapping[str, Callable[[int], Player]] = attrs.field(
        factory=lambda: {"random": _random}, converter=_with_search
    )
    board: Callable[[State, str | None], BoardView | None] | None = None
    unit_kinds: tuple[str, ...] = ("move",)
    scenario: str = "default"
    preview: Callable[[State, tuple[str, ...]], str | None] | None = None
    describe: Callable[[State, str], str | None] | None = None
    roll_result: Callable[[State, Action], str | None] | None = None
    decisions: Mapping[str, str] = attrs.field(factory=dict)

    def ruleset(self, chosen: Mapping[str, str]) -> Ruleset:
        """The ruleset for ``chosen`` options (missing ones take their default); an
        unknown option or choice raises ``ValueError``."""
        unknown = sorted(set(chosen) - set(self.options))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; options: {sorted(self.options)}")
        values = {}
        for name, choices in self.options.items():
            value = chosen.get(name, choices[0])
            if value not in choices:
                raise ValueError(f"option {name} is one of {list(choices)}, not {value!r}")
            values[name] = value
        return self.rules(values)

    def with_combat(self, *combats: Combat) -> WebGame:
        """This game with the odds preview, roll results and decision words of the shared
        combat mechanism ``combats`` (:func:`hexwar.web.combat.combat_support`)."""
        from hexwar.web.combat import combat_support  # here: that module reads this one

        made: WebGame = combat_support(self, *combats)
        return made


def generic(
    ruleset: type[Ruleset] | Callable[[], Ruleset],
    title: str | None = None,
    scenario: str = "default",
) -> WebGame:
    """A :class:`WebGame` for any ruleset class (built without arguments) and scenario:
    no options, a random bot, no board; when the ruleset's module plays the shared
    combat mechanism (:class:`~hexwar.mechanics.combat.Combat`), its odds preview, roll
    results and decision names (:mod:`hexwar.web.combat`)."""
    from hexwar.web.combat import combat_support, combats_of

    made = ruleset()
    name = made.name if scenario == "default" else f"{made.name}-{scenario}"
    game = WebGame(
        name=name,
        title=title or (made.name if scenario == "default" else f"{made.name} ({scenario})"),
        rules=lambda _options: ruleset(),
        scenario=scenario,
    )
    found = combats_of(made)
    return combat_support(game, *found) if found else game
