"""The evaluation hook of a search: how good a position is for a side, in ``[0, 1]``.

A ruleset implements it by a method ``position_value(state, side) -> float`` (so
``isinstance(ruleset, PositionValue)``); a game may also hand any object with that method
to :class:`~hexwar.search.ismcts.SearchPlayer` (``evaluation=``). ``1`` is a sure win
for ``side``, ``0`` a sure loss, ``0.5`` even; the search cuts its rollouts at a horizon
and scores them with it.

>>> class Half:
...     def position_value(self, state, side):
...         return 0.5
>>> isinstance(Half(), PositionValue)
True
>>> evaluation_of(object()) is None
True
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from hexwar.engine.state import State

__all__ = ["PositionValue", "evaluation_of"]


@runtime_checkable
class PositionValue(Protocol):
    """An evaluation: ``position_value(state, side)``, the chance in ``[0, 1]`` that
    ``side`` wins from ``state`` (it reads ``state`` as given: a search hands it a
    determinised copy, never the true hidden state)."""

    def position_value(self, state: State, side: str) -> float: ...


def evaluation_of(ruleset: Any) -> PositionValue | None:
    """The ruleset's own evaluation (itself, when it has ``position_value``), else ``None``."""
    return ruleset if isinstance(ruleset, PositionValue) else None
