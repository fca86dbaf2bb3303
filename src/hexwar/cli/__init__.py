"""A game's command line (:mod:`hexwar.cli.game`): ``demo``, ``replay``, ``simulate``,
``study`` and ``serve`` for every game, its own commands beside them.

It may import every layer but ``interop`` and ``testing``; ``hexwar.web`` only for
``serve``.
"""

from __future__ import annotations

from hexwar.cli.game import (
    GameCli,
    Summary,
    at_least,
    existing_file,
    new_file,
    out_folder,
    quiet_broken_pipe,
)

__all__ = [
    "GameCli",
    "Summary",
    "at_least",
    "existing_file",
    "new_file",
    "out_folder",
    "quiet_broken_pipe",
]
