"""Bad input never gives a traceback: illegal and malformed actions on real positions.

Positions: snapshots of seeded random long games (every 37th action). Candidates: random
token sequences drawn from the action space (``rules.space``), legal actions with one
token replaced or one appended, random strings (spaces, tabs, non-ASCII, a lone
surrogate), over-long texts, and non-text objects. Every illegal candidate must raise
:class:`~hexwar.base.errors.IllegalAction` (citing a rule) or
:class:`~hexwar.base.errors.ActionSyntaxError`, leave ``to_data()`` unchanged; non-text
objects raise ``TypeError`` naming what was given. The figures are in
``docs/reliability.md`` (``fuzz_counts``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from random_games import random_game

from hexwar.base.errors import ActionSyntaxError, IllegalAction
from hexwar.engine.actions import MAX_ACTION_TEXT, Action
from hexwar.engine.state import State
from hexwar_stalingrad.rules import StalingradRules

RULES = StalingradRules(length="long")
ALPHABET = "ab 0123\t\n-_é€Ж\ud800"


def snapshots(seeds: range, every: int = 37) -> list[State]:
    found: list[State] = []
    count = [0]

    def grab(state: State, action: Action) -> None:
        count[0] += 1
        if count[0] % every == 0:
            found.append(state.clone())

    for seed in seeds:
        random_game(RULES, seed, on_step=grab)
    return found


def candidate(state: State, rng: random.Random, tokens: list[str]) -> str:
    r = rng.random()
    if r < 0.45:
        return " ".join(rng.choice(tokens) for _ in range(rng.randint(1, 5)))
    legal = state.legal_actions()
    if r < 0.8 and legal:
        action = rng.choice(legal)
        parts = [action.kind, *action.args]
        parts[rng.randrange(len(parts))] = rng.choice(tokens)
        if rng.random() < 0.3:
            parts.append(rng.choice(tokens))
        return " ".join(parts)
    if r < 0.97:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))
    return "move " + "x" * rng.randint(MAX_ACTION_TEXT, 3 * MAX_ACTION_TEXT)


def fuzz_counts(states: list[State], per_state: int, seed: int) -> Counter[str]:
    """Apply ``per_state`` random candidates to each state; count what happened."""
    rng = random.Random(seed)
    tokens = list(RULES.space.tokens)
    counts: Counter[str] = Counter()
    for state in states:
        for _ in range(per_state):
            text = candidate(state, rng, tokens)
            try:
                if state.is_legal(Action.parse(text)):
                    counts["legal (skipped)"] += 1
                    continue
            except ActionSyntaxError:
                pass
            before = state.to_data()
            counts["illegal"] += 1
            try:
                state.apply(text)
                counts["applied"] += 1
            except ActionSyntaxError:
                counts["syntax error"] += 1
            except IllegalAction as exc:
                counts["IllegalAction"] += 1
                counts["cites a rule" if exc.rule else "cites no rule"] += 1
            except Exception as exc:  # counted: must stay 0
                counts[f"traceback {type(exc).__name__}"] += 1
            if state.to_data() != before:
                counts["state changed"] += 1
    return counts


@pytest.fixture(scope="module")
def states() -> list[State]:
    return snapshots(range(2))


def test_illegal_and_malformed_actions_are_clean_errors(states: list[State]) -> None:
    counts = fuzz_counts(states, per_state=30, seed=1)
    clean = counts["syntax error"] + counts["IllegalAction"]
    assert counts["illegal"] > 400
    assert clean == counts["illegal"], counts  # no traceback, nothing applied
    assert counts["state changed"] == 0, counts
    assert counts["IllegalAction"] > 100
    assert counts["cites no rule"] == 0, counts  # every IllegalAction cites S1..S11


@pytest.mark.parametrize("thing", [None, 3, 2.5, b"end", ["end"], ("end",), object()])
def test_apply_of_a_non_action_is_a_type_error_naming_it(states: list[State], thing: Any) -> None:
    state = states[0]
    before = state.to_data()
    with pytest.raises(TypeError, match=type(thing).__name__):
        state.apply(thing)
    assert state.to_data() == before


def test_an_over_long_text_is_refused_before_parsing(states: list[State]) -> None:
    state = states[0]
    with pytest.raises(ActionSyntaxError, match=f"at most {MAX_ACTION_TEXT}"):
        state.apply("move " + "1" * MAX_ACTION_TEXT)
    with pytest.raises(ActionSyntaxError, match=f"at most {MAX_ACTION_TEXT}"):
        Action.parse("end" * 400)


def test_rejected_texts_are_not_kept_in_the_token_cache(states: list[State]) -> None:
    from hexwar.engine import actions

    state = states[0]
    long_token = "q" * 200
    with pytest.raises(IllegalAction):
        state.apply(f"move {long_token}")
    assert long_token not in actions._KNOWN_TOKENS
    assert all(len(t) <= actions._KNOWN_TOKEN_LENGTH for t in actions._KNOWN_TOKENS)
