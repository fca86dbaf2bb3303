"""Balance studies: many seeded games of one ruleset, one row per game (``docs/studies.md``).

:mod:`~hexwar.study.game` says what a study needs of a game (:class:`StudyGame`: rules,
bots, a per-game hook, map cells); :mod:`~hexwar.study.runner` plays the games (game ``i``
with seed ``S + i``); :mod:`~hexwar.study.backends` runs them in process, on a process pool
or on a Dask cluster; :mod:`~hexwar.study.results` keeps the rows (JSON lines, resumable);
:mod:`~hexwar.study.report` writes the Markdown report with its plots (matplotlib);
:mod:`~hexwar.study.cli` is the ``study`` command of both command lines.

It may import :mod:`hexwar.base` and :mod:`hexwar.engine` only (it knows no map: a game
gives its cells' polygons for the heat maps); ``distributed``, ``tqdm`` and ``matplotlib``
come with the ``[study]`` extra and are imported only where used.
"""

from __future__ import annotations

from hexwar.study.game import GameHook, StudyError, StudyGame, register_bot, resolve
from hexwar.study.results import read_rows
from hexwar.study.runner import Cell, Job, Plan, play_job, run_study
from hexwar.study.stats import wilson

__all__ = [
    "Cell",
    "GameHook",
    "Job",
    "Plan",
    "StudyError",
    "StudyGame",
    "play_job",
    "read_rows",
    "register_bot",
    "resolve",
    "run_study",
    "wilson",
]
