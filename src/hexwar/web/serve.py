"""``serve``: start the web server for one or more games (``docs/web.md``).

``python -m hexwar serve MODULE:NAME`` serves the :class:`~hexwar.web.games.WebGame`
(or the :class:`~hexwar.engine.state.Ruleset` class, wrapped by
:func:`~hexwar.web.games.generic`) named ``NAME`` in ``MODULE``; ``python -m
hexwar_stalingrad serve`` serves «Сталинград». Binds to 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from hexwar.engine.state import Ruleset
from hexwar.web.games import WebGame, generic

__all__ = ["add_arguments", "resolve", "run"]

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8642
DEFAULT_GAMES: Final = "hexwar-games"
DEFAULT_PACE: Final = 0.3


def resolve(spec: str) -> WebGame:
    """The game ``MODULE:NAME`` names (a ``WebGame``, a ``Ruleset`` subclass, or a function
    returning a ``WebGame``); ``MODULE:NAME@SCENARIO`` for a ruleset's scenario other than
    ``default``. ``ValueError`` when it names none."""
    spec, _, scenario = spec.partition("@")
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise ValueError(f"expected MODULE:NAME, got {spec!r}")
    module = importlib.import_module(module_name)
    try:
        found = getattr(module, name)
    except AttributeError:
        raise ValueError(f"module {module_name} has no {name!r}") from None
    if isinstance(found, WebGame):
        return found
    if isinstance(found, type) and issubclass(found, Ruleset):
        return generic(found, scenario=scenario or "default")
    if callable(found):
        made = found()
        if isinstance(made, WebGame):
            return made
    raise ValueError(f"{spec} is neither a WebGame nor a Ruleset class")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The server's options: ``--host``, ``--port``, ``--games DIR``, ``--pace S``."""
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument(
        "--games",
        default=DEFAULT_GAMES,
        help=f"folder of the saved games (default ./{DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="a folder of game records /replay/file/NAME opens (a study report's links)",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=DEFAULT_PACE,
        help="seconds between two moves of a game of bots only, to watch it live "
        f"(default {DEFAULT_PACE})",
    )


def run(games: Sequence[WebGame], args: argparse.Namespace) -> int:
    """Start uvicorn with the app for ``games``; prints the URL; returns on shutdown."""
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - depends on the install
        print("error: the web server needs the [web] extra: pip install 'hexwar[web]'")
        return 1
    from hexwar.web.app import create_app

    try:
        records = getattr(args, "records", None)
        app = create_app(
            {g.name: g for g in games},
            Path(args.games),
            args.pace,
            Path(records) if records else None,
        )
    except ValueError as exc:
        print(f"error: {exc}")
        return 1
    print(f"hexwar: serving {', '.join(g.title for g in games)} at http://{args.host}:{args.port}/")
    print(f"hexwar: games are saved in {Path(args.games).resolve()}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="wsproto")
    return 0
