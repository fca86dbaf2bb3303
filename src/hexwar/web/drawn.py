"""The boards a game's pages are sent (a mixin of :class:`~hexwar.web.session.Session`).

Drawing a large board takes far longer than anything else a page asks for, so the server
draws in worker processes (:class:`~hexwar.web.bots.DrawJob`) and a page is sent the
latest board drawn for its side with the position it shows (``board_version``); when the
board of the current position is ready, the live pages are sent it. :meth:`board_svg`
draws here and now (the Python API, tests).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from hexwar.engine.state import State
from hexwar.web.bots import DrawJob
from hexwar.web.games import WebGame
from hexwar.web.views import render_view, snapshot

__all__ = ["BoardCache"]

#: A drawn position: the number of actions and the last one's text (an undo and another
#: action at the same count is another position).
Key = tuple[int, str]


class BoardCache:
    """The latest board drawn for each side (needs ``id``, ``game``, ``state``,
    ``options``, ``seed``, ``lock`` and ``_drawn`` from the class it is mixed into)."""

    id: str
    game: WebGame
    state: State
    options: Mapping[str, str]
    seed: int
    lock: threading.RLock
    _drawn: dict[str | None, tuple[Key, str | None]]

    def position_key(self) -> Key:
        history = self.state.history
        return (len(history), str(history[-1]) if history else "")

    def board_now(self, side: str | None) -> tuple[int | None, str | None]:
        """The latest board drawn for ``side`` and the number of actions it shows
        (``(None, None)``: none yet). Call under :attr:`lock`."""
        found = self._drawn.get(side)
        return (None, None) if found is None else (found[0][0], found[1])

    def board_current(self, side: str | None) -> bool:
        """Whether ``side``'s latest board is of the current position (or the game draws
        no board). Call under :attr:`lock`."""
        found = self._drawn.get(side)
        return self.game.board is None or (found is not None and found[0] == self.position_key())

    def draw_job(self, side: str | None) -> DrawJob | None:
        """The job drawing ``side``'s board of the current position (``None``: drawn)."""
        with self.lock:
            if self.board_current(side):
                return None
            return DrawJob(
                self.id,
                self.game.name,
                tuple(sorted(self.options.items())),
                self.seed,
                tuple(str(a) for a in self.state.history),
                side,
            )

    def store_board(self, job: DrawJob, svg: str | None) -> bool:
        """Keep the board ``job`` drew if the game is still at that position (or no
        board was drawn yet); whether it was kept."""
        with self.lock:
            key = self.position_key()
            drawn = (len(job.actions), job.actions[-1] if job.actions else "")
            if drawn != key and job.side in self._drawn:
                return False
            self._drawn[job.side] = (drawn, svg)
            return True

    def board_svg(self, side: str | None) -> str | None:
        """The board as ``side`` sees it now, drawn here (outside the lock) if it is not
        yet; each cell and counter tagged ``data-label``."""
        with self.lock:
            if self.board_current(side):
                return self._drawn[side][1] if self.game.board is not None else None
            key = self.position_key()
            found = snapshot(self.game, self.state, side)
        svg = None if found is None else render_view(*found)
        with self.lock:
            if self.position_key() == key:
                self._drawn[side] = (key, svg)
        return svg
