"""The server's games: the sessions being played, the caps on new games, the replays, and
the runners that play each game's bots and chance events (:class:`Server`).

A game whose next action is a bot's or the dice's gets a runner, an asyncio task on the
server's event loop: a chance event is drawn at once; a bot's action is asked of the
:class:`~hexwar.web.bots.BotPool` (a worker process) and then applied — so no thread that
answers a page ever thinks for a bot. The runners stop when their game waits for a human
or ends; :meth:`Server.close` cancels them and kills the workers.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from hexwar.base.errors import RequestRefused, WorkerFailed
from hexwar.web.bots import BotJob, BotPool, DrawJob
from hexwar.web.games import WebGame
from hexwar.web.limits import Limits
from hexwar.web.replay import Replay
from hexwar.web.saves import load_sessions
from hexwar.web.session import Session

__all__ = ["Server"]

log = logging.getLogger("hexwar.web")

_REPLAYS_KEPT: Final = 32
_MINUTE: Final = 60.0
#: The drawing workers' priority below the server's (above the bots': ``bots._NICE``).
_DRAW_NICE: Final = 5


class Server:
    """The games offered and the sessions being played (kept in ``directory``)."""

    def __init__(self, games: Mapping[str, WebGame], directory: Path, limits: Limits) -> None:
        self.games = dict(games)
        self.directory = directory
        self.limits = limits
        directory.mkdir(parents=True, exist_ok=True)
        self.sessions: dict[str, Session] = load_sessions(directory, self.games)
        for session in self.sessions.values():
            session.pace = limits.pace
        self.replays: dict[str, Replay] = {}
        #: A folder of game records ``/replay/file/NAME`` opens (``serve --records``).
        self.records: Path | None = None
        self.pool = BotPool(self.games, limits.bot_workers)
        self.drawers = BotPool(self.games, limits.bot_workers, nice=_DRAW_NICE)
        self._drawing: dict[tuple[str, str | None], asyncio.Task[None]] = {}
        self._wanted: set[tuple[str, str | None]] = set()
        self._new: dict[str, deque[float]] = {}
        self._runners: dict[str, asyncio.Task[None]] = {}
        self._poked: set[str] = set()
        self.closing = False

    # -- games and replays ------------------------------------------------------------

    def session(self, request: Request) -> Session:
        found = self.sessions.get(request.path_params["game"])
        if found is None:
            raise RequestRefused(404, "no such game on this server")
        return found

    def admit(self, client: str) -> None:
        """Refuse (429) a new game past the caps: live games, and games per client
        address per minute."""
        live = sum(1 for s in self.sessions.values() if not s.state.is_terminal())
        if live >= self.limits.live_games:
            raise RequestRefused(
                429, f"this server plays at most {self.limits.live_games} games at once; "
                "try again when one has ended"
            )  # fmt: skip
        now = time.monotonic()
        recent = self._new.setdefault(client, deque())
        while recent and recent[0] <= now - _MINUTE:
            recent.popleft()
        if len(recent) >= self.limits.per_minute:
            wait = int(recent[0] + _MINUTE - now) + 1
            raise RequestRefused(
                429, f"at most {self.limits.per_minute} new games a minute from one address; "
                f"try again in {wait} s"
            )  # fmt: skip
        recent.append(now)
        for key in [k for k, v in self._new.items() if not v or v[-1] <= now - _MINUTE]:
            del self._new[key]

    def add(self, session: Session) -> None:
        session.pace = self.limits.pace
        self.sessions[session.id] = session
        self.kick(session)

    def add_replay(self, found: Replay) -> str:
        """Keep ``found`` (the oldest dropped past ``_REPLAYS_KEPT``); its id."""
        rid = secrets.token_hex(6)
        self.replays[rid] = found
        while len(self.replays) > _REPLAYS_KEPT:
            del self.replays[next(iter(self.replays))]
        return rid

    # -- the runners ----------------------------------------------------------------------

    def kick(self, session: Session) -> None:
        """Make sure ``session``'s bots and dice are played (call on the event loop after
        anything that may have changed whose turn it is)."""
        if self.closing:
            return
        self._poked.add(session.id)
        if session.id not in self._runners:
            task = asyncio.get_running_loop().create_task(self._run(session))
            self._runners[session.id] = task

    def kick_all(self) -> None:
        """Start the runners of every game that waits for a bot or the dice (at start-up)."""
        for session in self.sessions.values():
            self.kick(session)

    def idle(self, game_id: str) -> bool:
        """Whether no runner plays ``game_id`` now (it waits for a human, or is over) and
        none of its boards is being drawn."""
        return game_id not in self._runners and all(k[0] != game_id for k in self._drawing)

    def ensure_drawn(self, session: Session, side: str | None) -> None:
        """Have ``side``'s board of ``session``'s current position drawn (in a drawing
        worker), unless it is or is being drawn; the live pages are told when it is."""
        key = (session.id, side)
        if self.closing:
            return
        if key in self._drawing:  # asked again meanwhile: draw again after this one
            self._wanted.add(key)
            return
        job = session.draw_job(side)
        if job is not None:
            self._drawing[key] = asyncio.get_running_loop().create_task(self._draw(job, session))

    async def _draw(self, job: DrawJob, session: Session) -> None:
        try:
            svg = await self.drawers.draw(job)
            if await run_in_threadpool(session.store_board, job, svg):
                session.changed()
        except WorkerFailed as exc:
            if not self.closing:
                log.error("hexwar: game %s: the board was not drawn: %s", session.id, exc)
        finally:
            key = (job.game_id, job.side)
            self._drawing.pop(key, None)
            if key in self._wanted:
                self._wanted.discard(key)
                self.ensure_drawn(session, job.side)

    async def _run(self, session: Session) -> None:
        try:
            while not self.closing:
                self._poked.discard(session.id)
                job = await run_in_threadpool(session.next_job)
                if job is None:
                    if session.id in self._poked:
                        continue
                    return
                if isinstance(job, BotJob):
                    try:
                        text = await self.pool.decide(job)
                    except WorkerFailed as exc:
                        if not self.closing:
                            log.error("hexwar: game %s: the bot stopped: %s", session.id, exc)
                        return
                    await run_in_threadpool(session.apply_bot, job, text)
                if session.pace and not session.humans():
                    await asyncio.sleep(session.pace)
        finally:
            self._runners.pop(session.id, None)

    async def close(self) -> None:
        """Stop every runner and kill the bot workers (within a second)."""
        self.closing = True
        self.pool.close()
        self.drawers.close()
        tasks = [*self._runners.values(), *self._drawing.values()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)
