"""Games by name: a registry from a game name to a factory of its :class:`Ruleset`.

Frameworks rebuild games from a name (OpenSpiel's ``load_game("hexwar_stalingrad_short")``,
a saved experiment's config), so each game registers a factory under a name. Installed
games register through the ``hexwar.games`` entry-point group (``name = "module:callable"``,
read on first use); any other (an example, a test's game) calls :func:`register`.

>>> from hexwar.engine.state import Ruleset
>>> class Nim(Ruleset):
...     name = "nim"
>>> register("nim-doc", Nim)
>>> make("nim-doc").name, "nim-doc" in names()
('nim', True)
>>> make("no-such-game")
Traceback (most recent call last):
...
hexwar.base.errors.UnknownGame: no game 'no-such-game' is registered (known: ...)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Final

from hexwar.base.errors import HexwarError, UnknownGame
from hexwar.engine.actions import Value
from hexwar.engine.state import Ruleset

__all__ = ["ENTRY_POINTS", "UnknownGame", "make", "names", "register", "start"]

#: The entry-point group installed games register in.
ENTRY_POINTS: Final = "hexwar.games"

Factory = Callable[[], Ruleset]
_FACTORIES: Final[dict[str, Factory]] = {}
#: name -> (scenario, state options) a framework starts the game with
_STARTS: Final[dict[str, tuple[str, dict[str, Value]]]] = {}
_LOADED: list[bool] = [False]


def register(
    name: str,
    factory: Factory,
    *,
    scenario: str = "default",
    options: Mapping[str, Value] | None = None,
    replace: bool = False,
) -> None:
    """Register ``factory`` (a callable returning a new :class:`Ruleset`) under ``name``;
    a game started by name uses ``scenario`` and state ``options`` (:func:`start`).

    Registering the same factory again is a no-op; another factory under a taken name
    raises :class:`~hexwar.base.errors.HexwarError` unless ``replace``."""
    if not name or any(c.isspace() for c in name):
        raise HexwarError(f"game name {name!r}: non-empty, no whitespace")
    old = _FACTORIES.get(name)
    if old is not None and old is not factory and not replace:
        raise HexwarError(f"game name {name!r} is already registered")
    _FACTORIES[name] = factory
    _STARTS[name] = (scenario, dict(options or {}))


def _load_entry_points() -> None:
    if _LOADED[0]:
        return
    _LOADED[0] = True
    for ep in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda e: e.name):
        if ep.name not in _FACTORIES:
            _FACTORIES[ep.name] = _lazy(ep)


def _lazy(ep: metadata.EntryPoint) -> Factory:
    def factory() -> Ruleset:
        target = ep.load()
        ruleset = target()
        if not isinstance(ruleset, Ruleset):
            raise HexwarError(f"entry point {ep.name!r} ({ep.value}) gave no Ruleset")
        return ruleset

    return factory


def names() -> tuple[str, ...]:
    """The registered game names, sorted."""
    _load_entry_points()
    return tuple(sorted(_FACTORIES))


def make(name: str) -> Ruleset:
    """A new ruleset of the game registered as ``name``."""
    _load_entry_points()
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(sorted(_FACTORIES)) or "none"
        raise UnknownGame(f"no game {name!r} is registered (known: {known})")
    return factory()


def start(name: str) -> tuple[str, dict[str, Value]]:
    """The scenario and state options the game registered as ``name`` starts with."""
    make_known = names()
    if name not in make_known:
        raise UnknownGame(f"no game {name!r} is registered (known: {', '.join(make_known)})")
    scenario, options = _STARTS.get(name, ("default", {}))
    return scenario, dict(options)
