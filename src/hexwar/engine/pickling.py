"""Pickling a :class:`~hexwar.engine.state.State` through the save format
(:func:`hexwar.engine.savefile.dumps` / :func:`~hexwar.engine.savefile.loads`), never its
internals: registered with :mod:`copyreg` when ``hexwar`` is imported. The ruleset pickles
as its class and options (:class:`hexwar.engine.state.Ruleset`). A loaded
state keeps its history but cannot undo past the load.
(``tests/test_interop.py`` pickles Stalingrad states.)
"""

from __future__ import annotations

import copyreg
from typing import Any

from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import Ruleset, State

__all__: list[str] = []


def _reduce(state: State) -> tuple[Any, ...]:
    return (_load, (state.ruleset, dumps(state)))


def _load(ruleset: Ruleset, text: str) -> State:
    return loads(ruleset, text, source="<pickle>")


copyreg.pickle(State, _reduce)
