"""Playing a study: one :class:`Job` per game, :func:`play_job` gives its row,
:func:`run_study` plays the jobs not yet in the results file on a backend.

Game ``i`` of a cell (options and bots) is played with seed ``S + i``: chance by
``SeededDriver(S + i)``, the bot of the ``k``-th side seeded ``2 (S + i) + k``. A row
depends on nothing else: not on the backend, the worker or the order games finish in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

import attrs

from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import play
from hexwar.engine.records import record_of
from hexwar.engine.state import Ruleset, State
from hexwar.study.game import GameHook, Json, StudyError, resolve
from hexwar.study.progress import Progress
from hexwar.study.results import Appender, Row, RowKey, canonical, read_rows, row_key

__all__ = [
    "Backend",
    "Cell",
    "Job",
    "Plan",
    "StudyRun",
    "job_of",
    "play_job",
    "play_jobs",
    "record_of_row",
    "run_study",
]


@attrs.frozen
class Job:
    """One game to play (plain data, so it pickles to any worker)."""

    game: str
    options: str  # canonical JSON of the options mapping
    bots: tuple[tuple[str, str], ...]  # (side, bot name), in the ruleset's side order
    seed: int

    @property
    def key(self) -> RowKey:
        return (self.game, self.options, canonical(dict(self.bots)), self.seed)


@attrs.frozen
class Cell:
    """Options and bots (one name per side, in side order) played over the seed range."""

    options: Mapping[str, Json]
    bots: tuple[str, ...]


@attrs.frozen
class Plan:
    """A study: the game (``MODULE:NAME``), its cells, ``games`` seeds from ``seed``."""

    game: str
    cells: tuple[Cell, ...]
    games: int
    seed: int = 0

    def jobs(self) -> list[Job]:
        """Every game of the study, seed by seed and, for each seed, cell by cell (so a
        study stopped early has as many games of every cell); bots checked here."""
        game = resolve(self.game)
        cells: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        for cell in self.cells:
            opts = canonical(dict(cell.options))
            sides = _rules(self.game, opts).sides
            if len(cell.bots) != len(sides):
                raise StudyError(f"{game.name} has sides {', '.join(sides)}: name one bot each")
            for name in cell.bots:
                game.bot(name, 0)  # an unknown name fails before any game
            cells.append((opts, tuple(zip(sides, cell.bots, strict=True))))
        seeds = range(self.seed, self.seed + self.games)
        return [Job(self.game, opts, bots, s) for s in seeds for opts, bots in cells]


_RULES: dict[tuple[str, str], Ruleset] = {}


def _rules(game: str, options: str) -> Ruleset:
    """The ruleset of a game and options, built once per process."""
    key = (game, options)
    if key not in _RULES:
        _RULES[key] = resolve(game).rules(json.loads(options))
    return _RULES[key]


class _Watch:
    """Calls the hook at every step and at the end of every turn."""

    def __init__(self, hook: GameHook | None, turn: int) -> None:
        self.hook, self.turn = hook, turn
        self.per_turn: list[dict[str, Json]] = []

    def step(self, state: State, action: Action) -> None:
        if self.hook is not None:
            self.hook.step(state, action)
        if state.turn != self.turn:
            self.close_turn(state)
            self.turn = state.turn

    def close_turn(self, state: State) -> None:
        figures = dict(self.hook.turn(state)) if self.hook is not None else {}
        self.per_turn.append({"turn": self.turn, **figures})


def play_job(job: Job) -> Row:
    """Play one game and return its row: ``game``, ``options``, ``bots`` (side -> name),
    ``seed``, ``winner`` (``None``: a draw or unfinished), ``reason``, ``turns`` (the
    last turn played), ``actions`` (applied, chance included), ``per_turn`` (the hook's
    figures of each turn, with its ``turn``) and ``extras`` (the hook's game figures)."""
    return _played(job)[0]


def play_jobs(jobs: Sequence[Job]) -> list[Row]:
    """The rows of several games, in order (a batch: one task on a cluster)."""
    return [play_job(job) for job in jobs]


def _played(job: Job) -> tuple[Row, State]:
    game = resolve(job.game)
    rules = _rules(job.game, job.options)
    players = {side: game.bot(name, 2 * job.seed + k) for k, (side, name) in enumerate(job.bots)}
    state = rules.new_state()
    hook = game.hook() if game.hook is not None else None
    watch = _Watch(hook, state.turn)
    state = play(state, players, SeededDriver(job.seed), on_step=watch.step)
    watch.close_turn(state)
    outcome = state.outcome
    row = {
        "game": job.game,
        "options": json.loads(job.options),
        "bots": dict(job.bots),
        "seed": job.seed,
        "winner": None if outcome is None else outcome.winner,
        "reason": "unfinished" if outcome is None else outcome.reason,
        "turns": state.turn,
        "actions": len(state.history),
        "per_turn": watch.per_turn,
        "extras": dict(hook.game(state)) if hook is not None else {},
    }
    return json.loads(canonical(row)), state


def job_of(row: Mapping[str, Any]) -> Job:
    """The job that played ``row`` (its game, options, bots and seed)."""
    return Job(row["game"], canonical(row["options"]), tuple(row["bots"].items()), row["seed"])


def record_of_row(row: Mapping[str, Any]) -> str:
    """The game record (JSON, :mod:`hexwar.engine.records`) of the game of ``row``: the
    game is played again from its seed and must give the same row (else
    :class:`StudyError`: the game or its bots changed since the study)."""
    again, state = _played(job_of(row))
    if canonical(again) != canonical(row):
        raise StudyError(
            f"{row['game']} seed {row['seed']} ({canonical(row['options'])}): the game "
            "played again differs from its row (the rules or bots changed since the study)"
        )
    return record_of(state, seed=int(row["seed"])).to_json()


class Backend(Protocol):
    """Plays jobs somewhere; yields each row as its game finishes (in any order)."""

    def run(self, jobs: Sequence[Job]) -> Iterator[Row]: ...


@attrs.frozen
class StudyRun:
    """What :func:`run_study` did: games played now, games already in the file."""

    played: int
    skipped: int
    rows: tuple[Row, ...] = ()


def run_study(
    plan: Plan,
    backend: Backend,
    results: str | Path | None,
    *,
    progress: bool | TextIO = True,
    on_row: Callable[[Row], Any] | None = None,
) -> StudyRun:
    """Play the games of ``plan`` not yet in ``results`` on ``backend``, appending each
    row to ``results`` as it comes (``None``: no file; the rows are returned sorted by
    key). ``progress``: a bar on stderr (or on this stream). ``on_row`` sees each new row
    once it is on disk; an exception there (or a ``KeyboardInterrupt``) stops the study
    with every finished game kept."""
    jobs = plan.jobs()
    done = {row_key(r) for r in read_rows(results)} if results is not None else set()
    todo = [j for j in jobs if j.key not in done]
    rows = backend.run(todo)  # a cluster is reached (or fails) before the bar shows
    out = Appender(results) if results is not None else None
    kept: list[Row] = []
    stream = None if isinstance(progress, bool) else progress
    bar = Progress(len(todo), f"{resolve(plan.game).name} study", stream) if progress else None
    try:
        for row in _unique(rows):
            if out is not None:
                out.write(row)
            else:
                kept.append(row)
            if bar is not None:
                bar.update()
            if on_row is not None:
                on_row(row)
    finally:
        close = getattr(rows, "close", None)
        if close is not None:  # stop the backend's games (a pool, a cluster) now
            close()
        if out is not None:
            out.close()
        if bar is not None:
            bar.close()
    kept.sort(key=row_key)
    return StudyRun(played=len(todo), skipped=len(jobs) - len(todo), rows=tuple(kept))


def _unique(rows: Iterable[Row]) -> Iterator[Row]:
    """Each key once (a backend that re-ran a game after losing a worker may repeat it)."""
    seen: set[RowKey] = set()
    for row in rows:
        key = row_key(row)
        if key not in seen:
            seen.add(key)
            yield row
