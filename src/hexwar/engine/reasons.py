"""The default reason an illegal action gives (:meth:`~hexwar.engine.state.Ruleset.explain`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hexwar.engine.actions import Action
from hexwar.engine.legality import Legality
from hexwar.engine.ruleview import Prefix
from hexwar.engine.space import DONE, tokens_of

__all__ = ["explain_default"]

#: How many legal tokens the default reason for an illegal action lists.
_SHOWN_TOKENS: Final = 8


def explain_default(
    state: Legality, action: Action, meaning_of: Callable[[Prefix], str | None]
) -> tuple[str, str | None]:
    """The default reason :meth:`~hexwar.engine.state.Ruleset.explain` gives: the first
    token of ``action`` that does not fit the prefix before it, what it should have been
    (``meaning_of(prefix)``: the ruleset's
    :meth:`~hexwar.engine.state.Ruleset.step_meaning`) and the tokens that may follow."""
    who = state.current_player()
    where = state.phase or (state.pending[-1].kind if state.pending else "-")
    tokens = tokens_of(action)
    at = state.first_illegal_token(action)
    if at is None:
        return f"{action} is legal now", None
    before = tokens[:at]
    meaning = meaning_of(before)
    if at == 0:
        why = f"no `{tokens[0]}` action may be taken here"
    elif at < len(tokens):
        why = f"`{tokens[at]}` may not follow `{' '.join(before)}` here"
        if meaning:
            why += f": it is not {meaning}"
    else:
        why = f"`{action}` is not complete here"
        if meaning:
            why += f": it needs {meaning}"
    legal = [t for t in state.legal_tokens(before) if t != DONE]
    if legal:
        shown = ", ".join(legal[:_SHOWN_TOKENS]) + (", ..." if len(legal) > _SHOWN_TOKENS else "")
        why += f" (may follow: {shown})" if at else f" (offered: {shown})"
    return f"{action} is not a legal action now: {why} ({where}, {who} to act)", None
