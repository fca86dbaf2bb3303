"""What frameworks need from a ruleset (:mod:`hexwar.interop`): the hooks
:class:`~hexwar.engine.state.Ruleset` inherits, each with a default.

- :attr:`FrameworkHooks.perfect_information`, :meth:`~FrameworkHooks.bounds`
  (:mod:`hexwar.engine.bounds`), :meth:`~FrameworkHooks.returns`;
- :meth:`~FrameworkHooks.observation_view`: the board and features of the observation
  tensor (:mod:`hexwar.engine.observe`); :meth:`~FrameworkHooks.resample_hidden`;
- pickling: a ruleset pickles as its class (by name), :meth:`options` and data digest and
  is rebuilt by :meth:`~FrameworkHooks.from_options` (a state pickles through the save
  format: :mod:`hexwar.engine.pickling`).

It imports nothing of the engine's state (the states are duck-typed here).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from hexwar.base.errors import HexwarError
from hexwar.engine.bounds import Bounds

__all__ = ["HIDDEN_TABLE", "Clonable", "FrameworkHooks"]

#: The state's table of hidden entries (``table/key`` -> the side that may see it; the
#: engine's own name, ``hexwar.engine.state._HIDDEN_TABLE``).
HIDDEN_TABLE: Final = "$hidden"


class Clonable:
    """``copy.deepcopy`` of a state is its ``clone()`` (the ruleset is shared: rules are
    not state); pickling goes through the save format (:mod:`hexwar.engine.pickling`)."""

    __slots__ = ()

    def clone(self) -> Any:
        raise NotImplementedError  # pragma: no cover - State's

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self.clone()


class FrameworkHooks:
    """The framework hooks of a ruleset (see the module text)."""

    name: ClassVar[str] = "game"
    sides: ClassVar[tuple[str, ...]] = ()
    #: Whether no side ever has hidden information (no ``State.hide``, no private
    #: decision); the default is the safe ``False``.
    perfect_information: ClassVar[bool] = False

    def options(self) -> Mapping[str, Any]:
        raise NotImplementedError  # pragma: no cover - Ruleset's

    def data_digest(self) -> str:
        raise NotImplementedError  # pragma: no cover - Ruleset's

    def bounds(self) -> Bounds:
        """The declared bounds: the most token steps of a game, the range of a return.
        Default: no length declared, returns in ``[-1, 1]``, zero-sum."""
        return Bounds()

    def returns(self, state: Any) -> dict[str, float]:
        """Each side's return at the end of ``state`` (``0`` while it goes on): by default
        ``1`` for the winner, ``-1 / (sides - 1)`` for each other side, ``0`` on a draw."""
        out = dict.fromkeys(self.sides, 0.0)
        outcome = state.outcome
        if outcome is not None and outcome.winner is not None:
            losers = max(len(self.sides) - 1, 1)
            for side in self.sides:
                out[side] = 1.0 if side == outcome.winner else -1.0 / losers
        return out

    def observation_view(self) -> Any:
        """The game's :class:`~hexwar.engine.observe.ObservationView` (board, features), or
        ``None`` (the default): the generic sections only."""
        return None

    def resample_hidden(self, state: Any, side: str, rng: random.Random) -> Any:
        """A state ``side`` cannot tell from ``state`` (the same observation), what is
        hidden from it drawn anew with ``rng`` (IS-MCTS). Default: a clone when nothing is
        hidden from ``side``, else :class:`~hexwar.base.errors.HexwarError`
        (:func:`hexwar.engine.resample.deal_hidden` deals hidden cards anew)."""
        if any(owner != side for owner in state.table(HIDDEN_TABLE).values()):
            raise HexwarError(f"{self.name}: no way to resample hidden information declared")
        return state.clone()

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Any:
        """The ruleset whose :meth:`options` are ``options``; default ``cls(**options)``."""
        return cls(**options)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(self.options()), self.data_digest()))


#: Rulesets rebuilt by unpickling, shared: (class, options JSON) -> ruleset.
_REBUILT: Final[dict[tuple[type, str], Any]] = {}


def _rebuild(cls: type[FrameworkHooks], options: dict[str, Any], digest: str) -> Any:
    key = (cls, json.dumps(options, sort_keys=True))
    found = _REBUILT.get(key)
    if found is None:
        found = cls.from_options(options)
        if found.data_digest() != digest:
            raise HexwarError(
                f"cannot unpickle a {cls.__name__}: its data digest {digest[:12]!r} is not"
                f" this installation's {found.data_digest()[:12]!r}"
            )
        _REBUILT[key] = found
    return found
