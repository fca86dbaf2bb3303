"""``serve``: start the web server for one or more games (``docs/web.md``).

``python -m hexwar serve MODULE:NAME`` serves the :class:`~hexwar.web.games.WebGame`
(or the :class:`~hexwar.engine.state.Ruleset` class, wrapped by
:func:`~hexwar.web.games.generic`) named ``NAME`` in ``MODULE``; ``python -m
hexwar_stalingrad serve`` serves «Сталинград». Binds to 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from hexwar.engine.state import Ruleset
from hexwar.web.games import WebGame, generic
from hexwar.web.limits import DEFAULT_LIVE_GAMES, DEFAULT_PER_MINUTE

__all__ = ["add_arguments", "resolve", "run"]

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8642
DEFAULT_GAMES: Final = "hexwar-games"
DEFAULT_PACE: Final = 0.3
DEFAULT_WORKERS: Final = max(1, (os.cpu_count() or 2) // 2)


def resolve(spec: str) -> WebGame:
    """The game ``MODULE:NAME`` names (a ``WebGame`` or a ``Ruleset`` subclass);
    ``MODULE:NAME@SCENARIO`` for a ruleset's scenario other than ``default``.
    ``ValueError`` when it names none (nothing it names is called)."""
    spec, _, scenario = spec.partition("@")
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise ValueError(f"expected MODULE:NAME, got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name}: {exc}") from None
    try:
        found = getattr(module, name)
    except AttributeError:
        raise ValueError(f"module {module_name} has no {name!r}") from None
    if isinstance(found, WebGame):
        if scenario:
            raise ValueError(f"{spec}: a WebGame has its scenario; @{scenario} is for a Ruleset")
        return found
    if isinstance(found, type) and issubclass(found, Ruleset):
        return generic(found, scenario=scenario or "default")
    raise ValueError(f"{spec} is neither a WebGame nor a Ruleset class")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def _pace(text: str) -> float:
    try:
        pace = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a pace is a number of seconds, not {text!r}") from None
    if not math.isfinite(pace) or pace < 0:
        raise argparse.ArgumentTypeError(f"a pace is 0 seconds or more, not {text}")
    return pace


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {n}")
    return n


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The server's options (each checked as it is parsed, before anything is done)."""
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    parser.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
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
        type=_pace,
        default=DEFAULT_PACE,
        help="seconds between two moves of a game of bots only, to watch it live "
        f"(default {DEFAULT_PACE})",
    )
    parser.add_argument(
        "--bot-workers",
        type=_count,
        default=DEFAULT_WORKERS,
        help=f"processes playing the bots (default {DEFAULT_WORKERS}: half the cores)",
    )
    parser.add_argument(
        "--max-games",
        type=_count,
        default=DEFAULT_LIVE_GAMES,
        help=f"games not yet over, at most (default {DEFAULT_LIVE_GAMES})",
    )
    parser.add_argument(
        "--new-per-minute",
        type=_count,
        default=DEFAULT_PER_MINUTE,
        help=f"new games per client address per minute (default {DEFAULT_PER_MINUTE})",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server is reached by (besides --host, this machine's names "
        "and IP addresses); repeat for more",
    )


def run(games: Sequence[WebGame], args: argparse.Namespace) -> int:
    """Start uvicorn with the app for ``games``; prints the URL; returns on shutdown."""
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - depends on the install
        print("error: the web server needs the [web] extra: pip install 'hexwar[web]'",
              file=sys.stderr)  # fmt: skip
        return 1
    from hexwar.web.app import create_app
    from hexwar.web.limits import Limits

    folder = Path(args.games)
    if folder.exists() and not folder.is_dir():
        print(f"error: --games {folder}: not a folder", file=sys.stderr)
        return 1
    limits = Limits(
        live_games=args.max_games, per_minute=args.new_per_minute, bot_workers=args.bot_workers
    )
    try:
        records = getattr(args, "records", None)
        app = create_app(
            {g.name: g for g in games},
            folder,
            args.pace,
            limits=limits,
            hosts=[args.host, *args.allow_host],
            records=Path(records) if records else None,
        )
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"hexwar: serving {', '.join(g.title for g in games)} at http://{args.host}:{args.port}/")
    print(f"hexwar: games are saved in {folder.resolve()}", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="wsproto",
        timeout_graceful_shutdown=1,
    )
    return 0
