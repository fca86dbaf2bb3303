"""What a study needs of a game: :class:`StudyGame` (its rules, bots, hook, map cells),
and :func:`resolve` of a ``MODULE:NAME`` naming one (or a bare ruleset class)."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

import attrs

from hexwar.base.errors import StudyError
from hexwar.engine.actions import Action
from hexwar.engine.loop import Player, RandomPlayer
from hexwar.engine.state import Ruleset, State
from hexwar.search import SearchPlayer

__all__ = [
    "GameHook",
    "StudiedRuleset",
    "StudyError",
    "StudyGame",
    "register_bot",
    "resolve",
]

Json = Any
"""A JSON-able value (``None``, bool, number, string, list, dict with string keys)."""


class GameHook(Protocol):
    """Per-game figures, one hook object per game (made by :attr:`StudyGame.hook`).

    ``step`` sees the state before each action is applied; ``turn`` gives the figures of
    a turn when it is over (``state`` is then in the next turn, or over); ``game`` the
    figures of the whole game at its end. By convention (the report reads them): a
    per-turn bool is an event (the report shows the turn it first holds), a mapping
    ``side -> number`` a per-side count (losses: a curve per side), a number or ``None``
    a measure; ``game()["hexes"]`` maps a category to the labels of the hexes where the
    game was decided (a heat map when the game gives :attr:`StudyGame.cells`).
    """

    def step(self, state: State, action: Action) -> None: ...

    def turn(self, state: State) -> Mapping[str, Json]: ...

    def game(self, state: State) -> Mapping[str, Json]: ...


@runtime_checkable
class StudiedRuleset(Protocol):
    """A ruleset that declares its per-game figures itself: ``study_hook()`` makes the
    :class:`GameHook` of one game. A study of the bare ruleset class (``MODULE:Ruleset``)
    looks it up (:meth:`StudyGame.of_ruleset`); a :class:`StudyGame` names its hook."""

    def study_hook(self) -> GameHook: ...


def _random_bot(seed: int) -> Player:
    return RandomPlayer(seed)


@attrs.frozen
class StudyGame:
    """A game as a study plays it.

    ``rules(options)`` builds the ruleset of a set of options (the study's ``--option``
    values; called once per options per process); ``bots`` maps a bot name to a factory
    ``seed -> player``; ``hook`` makes a :class:`GameHook` per game; ``cells()`` gives
    every hex label's polygon (screen ``x, y``, y down) for the report's heat maps, on
    which ``regions()`` (name -> hex labels) are outlined;
    ``notes`` describes the hook's figures for the report (figure name -> text);
    ``board(tints, title)`` draws the game's own map as SVG (its renderer's layers) with
    the hexes of ``tints`` (label -> colour) tinted: the report's heat maps then use it
    rather than ``cells``. A bot name not in ``bots`` is looked up among the players
    registered for every game (:func:`register_bot`).
    """

    name: str
    rules: Callable[[Mapping[str, Json]], Ruleset]
    bots: Mapping[str, Callable[[int], Player]] = attrs.field(
        factory=lambda: {"random": _random_bot}
    )
    hook: Callable[[], GameHook] | None = None
    cells: Callable[[], Mapping[str, Sequence[tuple[float, float]]]] | None = None
    regions: Callable[[], Mapping[str, Sequence[str]]] | None = None
    notes: Mapping[str, str] = attrs.field(factory=dict)
    board: Callable[[Mapping[str, str], str], str] | None = None

    def bot_names(self) -> tuple[str, ...]:
        """The bots a study of this game may name: its own, then those registered for
        every game (:func:`register_bot`)."""
        return (*self.bots, *(name for name in _BOTS if name not in self.bots))

    def bot(self, name: str, seed: int) -> Player:
        """The bot ``name`` seeded with ``seed``: the game's own, else one registered for
        every game (:class:`StudyError` if neither)."""
        factory = self.bots.get(name) or _BOTS.get(name)
        if factory is None:
            known = ", ".join(sorted({*self.bots, *_BOTS}))
            raise StudyError(f"{self.name}: unknown bot {name!r}; choose from {known}")
        return factory(seed)

    @classmethod
    def of_ruleset(cls, ruleset: type[Ruleset]) -> StudyGame:
        """A ruleset class studied as it is: ``ruleset(**options)``, the bots registered
        for every game, and its own hook when it is a :class:`StudiedRuleset`."""

        def rules(options: Mapping[str, Json]) -> Ruleset:
            try:
                return ruleset(**options)
            except TypeError as exc:
                raise StudyError(
                    f"{ruleset.__name__}: bad options {dict(options)}: {exc}"
                ) from None

        hook = None
        if issubclass(ruleset, StudiedRuleset):  # its hook from a ruleset of default options
            hook = ruleset().study_hook
        return cls(name=ruleset.name, rules=rules, hook=hook)


def _uniform_bot(seed: int) -> Player:
    return RandomPlayer(seed, legal=lambda state: state.legal_actions())


#: The ``search`` bot's budget: iterations of :class:`~hexwar.search.SearchPlayer` per
#: complete action (with the ruleset's own evaluation, if any; about a CPU-second an
#: action or less on every game of the repository, see ``docs/agents.md``).
SEARCH_ITERATIONS = 100


def _search_bot(seed: int) -> Player:
    return SearchPlayer(seed, iterations=SEARCH_ITERATIONS)


#: Players any game may use, by name (:func:`register_bot`).
_BOTS: dict[str, Callable[[int], Player]] = {
    "random": _random_bot,
    "uniform": _uniform_bot,
    "search": _search_bot,
}


def register_bot(name: str, factory: Callable[[int], Player], *, replace: bool = False) -> None:
    """Make ``name`` a bot of every study (``--bots``): ``factory(seed)`` gives the player
    of one game. Built in: ``random`` (uniform over the kinds of action, then token by
    token), ``uniform`` (uniform over the legal actions) and ``search``
    (:class:`~hexwar.search.SearchPlayer`, :data:`SEARCH_ITERATIONS` iterations an
    action). A game's own bot of the same name wins over it.

    >>> def first(seed):
    ...     return lambda state: state.legal_actions()[0]
    >>> register_bot("first", first)
    >>> callable(StudyGame(name="g", rules=lambda o: None).bot("first", 0))
    True
    """
    if name in _BOTS and _BOTS[name] is not factory and not replace:
        raise StudyError(f"a bot named {name!r} is already registered")
    _BOTS[name] = factory


_RESOLVED: dict[str, StudyGame] = {}


def _maker(found: object) -> TypeGuard[Callable[[], object]]:
    """A function that takes no argument (it may return a :class:`StudyGame`)."""
    if not inspect.isfunction(found):
        return False
    return all(p.default is not p.empty for p in inspect.signature(found).parameters.values())


def resolve(spec: str) -> StudyGame:
    """The game ``MODULE:NAME`` names: a :class:`StudyGame`, a function returning one, or
    a :class:`~hexwar.engine.state.Ruleset` subclass (:meth:`StudyGame.of_ruleset`).
    Cached per process (a worker resolves each game once). :class:`StudyError` if none."""
    if spec in _RESOLVED:
        return _RESOLVED[spec]
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise StudyError(f"expected MODULE:NAME, got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise StudyError(f"{spec}: cannot import {module_name}: {exc}") from None
    found = getattr(module, name, None)
    if isinstance(found, type) and issubclass(found, Ruleset):
        game = StudyGame.of_ruleset(found)
    elif isinstance(found, StudyGame):
        game = found
    elif _maker(found) and isinstance(made := found(), StudyGame):
        game = made
    else:
        raise StudyError(f"{spec} is neither a StudyGame nor a Ruleset class")
    _RESOLVED[spec] = game
    return game
