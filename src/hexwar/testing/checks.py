"""The kit's per-state checks: one state, no action applied (:mod:`hexwar.testing.kit`
runs them at every step of its random games).

- :func:`check_step`: only the current player has legal actions; they are sorted and
  unique, their text forms unique and round-tripping; seats see only their side's
  actions and together every one; chance outcomes are distinct with probabilities in
  (0, 1] summing to exactly 1; a finished game has an outcome, no legal action and no
  more token steps than its ruleset's ``scenario_bounds()``; a ruleset declaring
  ``perfect_information`` hides nothing and has no private decision.
- :func:`check_tokens`: the token tree (:meth:`State.legal_tokens` from the empty
  prefix) has sorted tokens, all in the action space, no dead end, and exactly
  ``legal_actions`` as its leaves; token ids round-trip.

Each returns a list of ``(check, message)`` failures, empty when the state passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import CHANCE, TERMINAL, Action, action_key
from hexwar.engine.space import DONE, ActionSpace
from hexwar.engine.state import State

__all__ = ["check_step", "check_tokens"]

Failures = list[tuple[str, str]]


def check_tokens(state: State, legal: Sequence[Action] | None = None) -> Failures:
    """The action-space checks of one state: a list of ``(check, message)`` failures.

    Walks the whole token tree from the empty prefix: each prefix's tokens are sorted,
    unique and in the ruleset's space, none is a dead end (a legal prefix with nothing
    after it), ``done`` never comes first; the leaves are exactly ``legal_actions``; each
    legal action's ids decode back to it and :meth:`State.is_legal` accepts it, while a
    prefix that is not itself an action is refused.
    """
    try:
        space = state.ruleset.space
    except HexwarError as exc:
        return [("space", str(exc))]
    legal = state.legal_actions() if legal is None else legal
    fails, leaves = _walk_tokens(state, space)
    if leaves != set(legal):
        fails.append(_leaves_differ(state, leaves, set(legal)))
    for action in legal:
        try:
            if space.decode(space.encode(action)) != action:
                fails.append(("ids", f"{action}: ids do not decode back to it"))
        except HexwarError as exc:
            fails.append(("ids", f"{action}: {exc}"))
        if not state.is_legal(action):
            fails.append(("prefix", f"{action}: in legal_actions but is_legal refuses it"))
    return fails


def _walk_tokens(state: State, space: ActionSpace) -> tuple[Failures, set[Action]]:
    """The token tree's failures and its leaves (the actions it spells)."""
    fails: Failures = []
    leaves: set[Action] = set()
    stack: list[tuple[str, ...]] = [()]
    while stack:
        prefix = stack.pop()
        tokens = state.legal_tokens(prefix)
        shown = " ".join(prefix) or "the empty prefix"
        if not tokens:
            if prefix or not state.is_terminal():
                fails.append(("dead end", f"no token may follow {shown}"))
            continue
        if list(tokens) != sorted(set(tokens)):
            fails.append(("tokens", f"tokens after {shown} not sorted and unique: {tokens}"))
        unknown = [t for t in tokens if t not in space]
        if unknown:
            fails.append(("space", f"tokens after {shown} not in the action space: {unknown}"))
        for t in tokens:
            if t != DONE:
                stack.append((*prefix, t))
            elif not prefix:
                fails.append(("tokens", "done offered at the empty prefix"))
            else:
                leaves.add(Action(prefix[0], prefix[1:]))
        if prefix and DONE not in tokens and state.is_legal(Action(prefix[0], prefix[1:])):
            fails.append(("prefix", f"{shown} is legal but not a leaf of the token tree"))
    return fails, leaves


def _leaves_differ(state: State, leaves: set[Action], legal: set[Action]) -> tuple[str, str]:
    extra, missing = sorted(leaves - legal), sorted(legal - leaves)
    return ("prefix", f"token tree leaves differ: extra {extra[:3]}, missing {missing[:3]}")


def check_step(
    state: State, seats: Sequence[str] = (), *, tokens: bool = True
) -> list[tuple[str, str]]:
    """The per-state checks (no action applied): a list of ``(check, message)`` failures
    (with ``tokens``, :func:`check_tokens` too)."""
    fails: list[tuple[str, str]] = []
    player = state.current_player()
    legal = state.legal_actions()
    if state.ruleset.perfect_information:
        top = state.pending[-1] if state.pending else None
        if top is not None and top.private is not None:
            fails.append(("information", f"declared perfect, but {top.kind!r} is private"))
        elif any(state.hides_from(side) for side in state.ruleset.sides):
            fails.append(("information", "declared perfect, but an entry is hidden"))
    if tokens:
        fails += check_tokens(state, legal)
    if state.is_terminal():
        fails += state.ruleset.scenario_bounds(state.scenario).failures(state.history)
        if state.outcome is None or player != TERMINAL:
            fails.append(("terminal", "terminal state without outcome"))
        if legal:
            fails.append(("terminal", f"terminal state has legal actions {legal[:3]}"))
        return fails
    if not legal:
        fails.append(("legal", f"{player} to act but no legal action"))
    if legal != sorted(set(legal), key=action_key):
        fails.append(("legal", "legal actions not sorted and unique"))
    texts = [str(a) for a in legal]
    if len(set(texts)) != len(texts):
        fails.append(("text", "text forms not unique"))
    for action, text in zip(legal, texts, strict=True):
        if Action.parse(text) != action:
            fails.append(("text", f"{text!r} does not parse back"))
    for seat in seats:
        mine = state.legal_actions(seat)
        side = next((s.side for s in state.ruleset.seats() if s.name == seat), seat)
        if mine and side != player:
            fails.append(("seat", f"seat {seat} of {side} has actions while {player} acts"))
        if not set(mine) <= set(legal):
            fails.append(("seat", f"seat {seat} has actions outside legal_actions"))
    if player != CHANCE and seats:
        covered = set().union(*(state.legal_actions(s) for s in seats))
        if covered != set(legal):
            fails.append(("seat", f"actions no seat controls: {sorted(set(legal) - covered)}"))
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        if sorted(actions) != legal or len(set(actions)) != len(actions):
            fails.append(("chance", "chance outcomes differ from legal actions or repeat"))
        if any(not isinstance(p, Fraction) or not 0 < p <= 1 for _, p in outcomes):
            fails.append(("chance", f"probability outside (0, 1]: {outcomes}"))
        if sum((p for _, p in outcomes), Fraction(0)) != 1:
            fails.append(("chance", "probabilities do not sum to 1"))
    elif state.chance_outcomes():
        fails.append(("chance", "chance outcomes at a non-chance node"))
    return fails
