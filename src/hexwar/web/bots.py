"""The bots' worker processes: a bot thinks in a process of its own, never in a thread
that answers a page (a :class:`BotPool` the server owns, ``serve --bot-workers N``).

Each game is given to one worker (by its id), which keeps the game's position and its
bots from one decision to the next: a request carries the game's actions so far, the
worker applies the ones it has not seen (checked, through ``state.apply``; after an undo
it rebuilds the position) and answers the seat's bot's action as text. The server then
applies that action to its own state. A bot is seeded from the game's seed, the seat and
the number of actions when the worker first needs it (as
:meth:`hexwar.web.session.Session.step` does in a single process). The workers are
started with ``fork`` (the games, closures included, need no pickling) and run at a
lower priority than the server, so a busy bot slows the other bots, not the pages.
:meth:`BotPool.close` kills them: a bot's long think stops at once on shutdown. A
:class:`HintJob` asks a worker for a search player's advice to a human seat
(:class:`~hexwar.search.Explanation`, as data): the search runs there too, never in a
server thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any, Final

import attrs

from hexwar.base.errors import HexwarError, WorkerFailed
from hexwar.engine.actions import Action
from hexwar.engine.loop import Player
from hexwar.engine.state import State
from hexwar.search import Explanation, SearchPlayer
from hexwar.web.games import WebGame
from hexwar.web.seats import derived_seed
from hexwar.web.views import render_view, snapshot

__all__ = ["HINT_ITERATIONS", "BotJob", "BotPool", "DrawJob", "HintJob", "hint_data"]

log = logging.getLogger("hexwar.web")

#: Games a worker keeps in memory (the least recently asked about is dropped first).
_KEPT: Final = 64
#: How much lower a worker's priority is than the server's (``nice``).
_NICE: Final = 10
#: The budget of a hint's search (:class:`~hexwar.search.SearchPlayer` iterations).
HINT_ITERATIONS: Final = 100


@attrs.frozen
class BotJob:
    """What a worker needs to pick one bot action: the game (by name and options), its
    seed, its actions so far (text) and the seat and bot to play."""

    game_id: str
    game: str
    options: tuple[tuple[str, str], ...]
    seed: int
    actions: tuple[str, ...]
    seat: str
    player: str


@attrs.frozen
class DrawJob:
    """What a worker needs to draw a game's board as ``side`` sees it (``None``: a
    spectator) after ``actions``."""

    game_id: str
    game: str
    options: tuple[tuple[str, str], ...]
    seed: int
    actions: tuple[str, ...]
    side: str | None


@attrs.frozen
class HintJob:
    """What a worker needs to advise the side to act after ``actions``: the game, its
    seed and the seat asking (the search's seed derives from them)."""

    game_id: str
    game: str
    options: tuple[tuple[str, str], ...]
    seed: int
    actions: tuple[str, ...]
    seat: str


def hint_data(explanation: Explanation) -> dict[str, Any]:
    """An explanation as JSON-able data: the side, iterations, the action chosen and the
    candidates (action, visits, win chance).

    >>> from hexwar.engine.actions import Action
    >>> from hexwar.search import Candidate
    >>> move = Action.of("move", "u", 1)
    >>> hint_data(Explanation("a", 10, move, (Candidate(move, 7, 0.75),)))["candidates"]
    [{'action': 'move u 1', 'visits': 7, 'win_chance': 0.75}]
    """
    return {
        "side": explanation.side,
        "iterations": explanation.iterations,
        "chosen": str(explanation.chosen),
        "candidates": [
            {"action": str(c.action), "visits": c.visits, "win_chance": round(c.win_chance, 4)}
            for c in explanation.candidates
        ],
    }


@attrs.define
class _Kept:
    state: State
    actions: list[str]
    bots: dict[str, Player]


def _catch_up(
    games: Mapping[str, WebGame], kept: _Kept | None, job: BotJob | DrawJob | HintJob
) -> _Kept:
    """The worker's position of ``job``'s game, brought to its actions."""
    seen = kept.actions if kept is not None else []
    if kept is None or job.actions[: len(seen)] != tuple(seen):
        game = games[job.game]
        state = game.ruleset(dict(job.options)).new_state(game.scenario)
        kept = _Kept(state, [], {})
    for text in job.actions[len(kept.actions) :]:
        kept.state.apply(Action.parse(text))
        kept.actions.append(text)
    return kept


def _work(conn: Connection, games: Mapping[str, WebGame], nice: int) -> None:  # pragma: no cover
    """A worker's loop (in its own process): answer each job with ``("ok", action)`` (a
    board's SVG for a :class:`DrawJob`) or ``("error", reason)`` until the pipe closes."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    kept: OrderedDict[str, _Kept] = OrderedDict()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            entry = _catch_up(games, kept.pop(job.game_id, None), job)
            kept[job.game_id] = entry
            while len(kept) > _KEPT:
                kept.popitem(last=False)
            if isinstance(job, DrawJob):
                found = snapshot(games[job.game], entry.state, job.side)
                conn.send(("ok", None if found is None else render_view(*found)))
                continue
            if isinstance(job, HintJob):
                seed = derived_seed(job.seed, job.seat, len(job.actions), "hint")
                advice = SearchPlayer(seed, iterations=HINT_ITERATIONS).search(entry.state)
                conn.send(("ok", hint_data(advice)))
                continue
            bot = entry.bots.get(job.seat)
            if bot is None:
                seed = derived_seed(job.seed, job.seat, len(job.actions))
                bot = entry.bots[job.seat] = games[job.game].bots[job.player](seed)
            action = bot(entry.state)
            entry.state.apply(action)  # checked here, off the server's process
            entry.actions.append(str(action))
            reply: tuple[str, str] = ("ok", str(action))
        except (HexwarError, ValueError, KeyError, TypeError, RuntimeError) as exc:
            kept.pop(job.game_id, None)
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and its pipe (one job at a time)."""

    def __init__(self, games: Mapping[str, WebGame], nice: int) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_work, args=(child, games, nice), daemon=True)
        self.process.start()
        child.close()
        self.lock = asyncio.Lock()

    async def ask(self, job: BotJob | DrawJob | HintJob) -> Any:
        async with self.lock:
            loop = asyncio.get_running_loop()
            ready: asyncio.Future[None] = loop.create_future()
            fd = self.conn.fileno()

            def readable() -> None:
                if not ready.done():
                    ready.set_result(None)

            try:
                self.conn.send(job)
                loop.add_reader(fd, readable)
                try:
                    await ready
                finally:
                    loop.remove_reader(fd)
                reply: Any = self.conn.recv()
            except (EOFError, OSError) as exc:
                raise WorkerFailed(
                    f"the bot worker stopped ({exc or type(exc).__name__})"
                ) from None
        status, text = reply
        if status != "ok":
            raise WorkerFailed(text)
        return text

    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(1)
        self.conn.close()


class BotPool:
    """``size`` worker processes playing the bots of ``games`` or drawing their boards
    (started on first use), ``nice`` lower in priority than the server."""

    def __init__(self, games: Mapping[str, WebGame], size: int, nice: int = _NICE) -> None:
        if size < 1:
            raise ValueError(f"a bot pool has at least one worker, not {size}")
        self.games = dict(games)
        self.size = size
        self.nice = nice
        self._workers: list[_Worker | None] = [None] * size
        self.closed = False

    def start(self) -> None:
        """Start every worker now (else each starts when first needed)."""
        for i in range(self.size):
            self._worker(i)

    def _worker(self, i: int) -> _Worker:
        found = self._workers[i]
        if found is None or not found.alive():
            if found is not None:
                log.warning("hexwar: bot worker %d stopped; starting another", i)
                found.kill()
            found = self._workers[i] = _Worker(self.games, self.nice)
        return found

    async def decide(self, job: BotJob) -> str:
        """The action (text) ``job``'s bot picks, from the game's worker."""
        if self.closed:
            raise WorkerFailed("the server is shutting down")
        return str(await self._worker(int(job.game_id, 16) % self.size).ask(job))

    async def hint(self, job: HintJob) -> dict[str, Any]:
        """A search player's advice (:func:`hint_data`) for ``job``'s position, from the
        game's worker."""
        if self.closed:
            raise WorkerFailed("the server is shutting down")
        found: dict[str, Any] = await self._worker(int(job.game_id, 16) % self.size).ask(job)
        return found

    async def draw(self, job: DrawJob) -> str | None:
        """The board ``job`` asks for, drawn by the game's worker."""
        if self.closed:
            raise WorkerFailed("the server is shutting down")
        found = await self._worker(int(job.game_id, 16) % self.size).ask(job)
        return None if found is None else str(found)

    def close(self) -> None:
        """Kill every worker (a bot thinking stops at once)."""
        self.closed = True
        for i, worker in enumerate(self._workers):
            if worker is not None:
                worker.kill()
                self._workers[i] = None
