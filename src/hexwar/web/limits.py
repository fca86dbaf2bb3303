"""What the web server takes on (:class:`Limits`): kept apart from the server so that the
command line can read the defaults without the web extra (Starlette) installed."""

from __future__ import annotations

from typing import Final

import attrs

__all__ = ["DEFAULT_LIVE_GAMES", "DEFAULT_PER_MINUTE", "Limits"]

#: The default caps: games not yet over, and new games per client address per minute.
DEFAULT_LIVE_GAMES: Final = 100
DEFAULT_PER_MINUTE: Final = 10


@attrs.frozen
class Limits:
    """What the server takes on: ``live_games`` (games not over, at most), ``per_minute``
    (new games per client address in any minute), ``bot_workers`` (processes for the
    bots), ``pace`` (seconds between two actions of a game without human seats)."""

    live_games: int = DEFAULT_LIVE_GAMES
    per_minute: int = DEFAULT_PER_MINUTE
    bot_workers: int = 1
    pace: float = 0.0
