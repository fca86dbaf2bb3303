"""Where the games run: in this process, on a local process pool (the default), or on a
Dask cluster (``distributed``: an existing scheduler, or a ``LocalCluster`` started here).

Every backend plays the same :func:`~hexwar.study.runner.play_job`, so the rows do not
depend on it; they come back as games finish.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Final

import attrs

from hexwar.study.game import StudyError
from hexwar.study.results import Row
from hexwar.study.runner import Job, play_job, play_jobs

__all__ = [
    "MAX_BATCH",
    "QUIET_WORKERS",
    "DaskBackend",
    "InlineBackend",
    "PoolBackend",
    "backend_for",
    "batches",
]


class InlineBackend:
    """Every game in this process, one after the other."""

    def run(self, jobs: Sequence[Job]) -> Iterator[Row]:
        for job in jobs:
            yield play_job(job)


@attrs.frozen
class PoolBackend:
    """A ``concurrent.futures.ProcessPoolExecutor`` of ``workers`` processes (default: all
    cores); at most ``2 * workers`` games are queued at a time."""

    workers: int = 0

    def run(self, jobs: Sequence[Job]) -> Iterator[Row]:
        workers = self.workers or os.cpu_count() or 1
        if not jobs:
            return
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            waiting = iter(jobs)
            running: set[Future[Row]] = set()
            while True:
                while len(running) < 2 * workers and (job := next(waiting, None)) is not None:
                    running.add(pool.submit(play_job, job))
                if not running:
                    return
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
        finally:  # stopped early: the queued games are dropped, the running ones finish
            pool.shutdown(wait=True, cancel_futures=True)


#: Dask settings of the workers of a ``LocalCluster`` started for a study: no statistical
#: profiler (it samples the running game's stack every 10 ms) and no GIL monitor — the
#: games are pure Python, so both cost CPU and tell nothing. Give the same settings to
#: the workers of a cluster of your own (``docs/studies.md``).
QUIET_WORKERS: Final = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
}


@attrs.frozen
class DaskBackend:
    """A Dask cluster: the scheduler at ``address`` (``tcp://HOST:8786``), or ``local``
    worker processes of a ``LocalCluster`` started for the study (one thread each).

    Its workers need this package and the game's installed. A worker lost mid-study
    (killed, out of memory) loses only its unfinished games, which the scheduler plays
    again elsewhere; rows already written stay. An unreachable scheduler raises
    :class:`~hexwar.study.game.StudyError` after ``timeout`` seconds.
    """

    address: str | None = None
    local: int = 0
    timeout: float = 5.0

    def _client(self) -> tuple[Any, Any]:
        try:  # untyped: read as Any
            dask: Any = importlib.import_module("distributed")
        except ImportError:  # pragma: no cover - depends on the install
            raise StudyError(
                "a Dask backend needs the [study] extra: pip install 'hexwar[study]'"
            ) from None
        if self.address is None:
            config: Any = importlib.import_module("dask.config")
            with config.set(QUIET_WORKERS):  # the nannies pass it on to their workers
                cluster = dask.LocalCluster(
                    n_workers=self.local,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            return cluster, dask.Client(cluster)
        try:
            return None, dask.Client(self.address, timeout=self.timeout)
        except (OSError, TimeoutError) as exc:
            raise StudyError(
                f"cannot reach the Dask scheduler at {self.address} within "
                f"{self.timeout:g} s ({type(exc).__name__}: {exc})"
            ) from None

    def run(self, jobs: Sequence[Job]) -> Iterator[Row]:
        """Connect (or start the cluster) now, then yield the rows as games finish."""
        cluster, client = self._client()
        return self._rows(cluster, client, jobs)

    def _rows(self, cluster: Any, client: Any, jobs: Sequence[Job]) -> Iterator[Row]:
        dask: Any = importlib.import_module("distributed")
        try:
            workers = max(1, len(client.scheduler_info().get("workers", {})) or self.local)
            futures = client.map(play_jobs, batches(jobs, workers), pure=False)
            for future in dask.as_completed(futures):
                yield from future.result()
                future.release()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def batches(jobs: Sequence[Job], workers: int) -> list[list[Job]]:
    """The jobs in consecutive batches, one cluster task each: about 16 per worker, at
    most :data:`MAX_BATCH` games (a task's overhead on the scheduler is then small beside
    its games; a lost worker loses at most its batches).

    >>> sizes = [len(b) for b in batches(list(range(100)), 2)]
    >>> sizes[0], len(sizes), sum(sizes)
    (3, 34, 100)
    """
    size = max(1, min(MAX_BATCH, len(jobs) // (16 * workers)))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


#: The most games in one cluster task.
MAX_BATCH: Final = 16


def backend_for(
    workers: int = 0, scheduler: str | None = None, dask_local: int = 0, timeout: float = 5.0
) -> InlineBackend | PoolBackend | DaskBackend:
    """The backend the command line asks for: ``--scheduler``, ``--dask-local N``, else a
    process pool of ``--workers`` (1: in this process)."""
    if scheduler is not None and dask_local:
        raise StudyError("--scheduler and --dask-local exclude each other")
    if scheduler is not None:
        return DaskBackend(address=scheduler, timeout=timeout)
    if dask_local:
        return DaskBackend(local=dask_local)
    return InlineBackend() if workers == 1 else PoolBackend(workers)
