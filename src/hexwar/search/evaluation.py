"""The evaluation hook of a search: how good a position is for a side, in ``[0, 1]``.

An evaluation is any object with a method ``position_value(state, side) -> float``; a
ruleset hands its own to every search by its hook
:meth:`~hexwar.engine.state.Ruleset.evaluation` (default ``None``), and a caller may pass
any to :class:`~hexwar.search.ismcts.SearchPlayer` (``evaluation=``). ``1`` is a sure win
for ``side``, ``0`` a sure loss, ``0.5`` even; the search cuts its rollouts at a horizon
(the player's ``horizon``, else the evaluation's ``horizon`` attribute if it has one) and
scores them with it.

>>> class Half:
...     horizon = 10
...     def position_value(self, state, side):
...         return 0.5
>>> isinstance(Half(), PositionValue)
True
>>> from hexwar.engine.state import Ruleset
>>> evaluation_of(Ruleset()) is None
True
>>> class Judged(Ruleset):
...     def evaluation(self):
...         return Half()
>>> evaluation_of(Judged()).position_value(None, "a"), horizon_of(Half())
(0.5, 10)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from hexwar.base.errors import HexwarError
from hexwar.engine.state import Ruleset, State

__all__ = ["PositionValue", "evaluation_of", "horizon_of"]


@runtime_checkable
class PositionValue(Protocol):
    """An evaluation: ``position_value(state, side)``, the chance in ``[0, 1]`` that
    ``side`` wins from ``state`` (it reads ``state`` as given: a search hands it a
    determinised copy, never the true hidden state)."""

    def position_value(self, state: State, side: str) -> float: ...


def evaluation_of(ruleset: Ruleset) -> PositionValue | None:
    """The ruleset's own evaluation (its :meth:`~hexwar.engine.state.Ruleset.evaluation`
    hook), ``None`` when it has none; :class:`~hexwar.base.errors.HexwarError` when the
    hook returns something without ``position_value``."""
    found = ruleset.evaluation()
    if found is None or isinstance(found, PositionValue):
        return found
    raise HexwarError(
        f"{ruleset.name}: Ruleset.evaluation() returned {type(found).__name__}, "
        "which has no position_value(state, side)"
    )


def horizon_of(evaluation: Any) -> int | None:
    """The evaluation's own ``horizon`` (an ``int`` attribute), else ``None``."""
    horizon = getattr(evaluation, "horizon", None)
    return horizon if isinstance(horizon, int) else None
