"""What the engine's state reads of a ruleset: the :class:`Rules` protocol.

:class:`~hexwar.engine.state.Ruleset` is one; the state's storage and legality halves
(:mod:`hexwar.engine.store`, :mod:`hexwar.engine.legality`) are typed against this
protocol, so they sit below the module that defines the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hexwar.engine.actions import Action, Decision, Outcome
from hexwar.engine.hooks import EffectRule
from hexwar.engine.sequencer import TurnSequence
from hexwar.engine.space import ActionSpace

__all__ = ["Prefix", "Rules"]

#: A prefix of an action's tokens: its kind, then some of its arguments.
Prefix = tuple[str, ...]


class Rules(Protocol):
    """What the storage and legality halves read of a ruleset
    (:class:`~hexwar.engine.state.Ruleset` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def sequence(self) -> TurnSequence: ...

    @property
    def space(self) -> ActionSpace: ...

    @property
    def effect_rules(self) -> Mapping[str, Mapping[str, EffectRule]]: ...

    @property
    def _folds(self) -> dict[str, tuple[Any, frozenset[str]]]: ...

    @property
    def _tokenized(self) -> tuple[bool, bool]: ...

    def _hook_folds(self, name: str) -> tuple[Any, frozenset[str]]: ...

    def final_outcome(self, state: Any) -> Outcome: ...

    def phase_tokens(self, state: Any, side: str, prefix: Prefix) -> Sequence[str]: ...

    def decision_tokens(self, state: Any, decision: Decision, prefix: Prefix) -> Sequence[str]: ...

    def phase_actions(self, state: Any, side: str) -> Any: ...

    def decision_actions(self, state: Any, decision: Decision) -> Any: ...

    def _walk_kinds(self, state: Any) -> list[Action] | None: ...

    def seats(self) -> Any: ...

    def action_tags(self, state: Any, action: Action) -> frozenset[str]: ...
