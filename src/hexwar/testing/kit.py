"""The verification kit: check *your* ruleset the way OpenSpiel checks its games.

- :func:`check_random_games` plays random games of any ruleset and checks at every step
  that only the current player has legal actions; legal actions are sorted, their text
  forms unique and round-tripping; the token tree (:meth:`State.legal_tokens` from the
  empty prefix) has sorted tokens, all in the action space, no dead end, and exactly
  ``legal_actions`` as its leaves; token ids round-trip; a clone behaves like the
  original under the same action; the state serializes and loads back equal; chance
  outcomes are distinct with probabilities in (0, 1] summing to exactly 1; ``history``
  equals the actions applied; undo walks back exactly; a finished game has an outcome and
  no more token steps than its ruleset's ``bounds()``; plus your own invariants. Memo read
  checking (:func:`checking_reads`) is on.
- :func:`~hexwar.testing.machine.random_states`, :class:`~hexwar.testing.machine.RulesStateMachine`
  and :data:`~hexwar.testing.machine.FAST_SHRINK` (in :mod:`hexwar.testing.machine`):
  hypothesis strategies and the rules state machine.
- :func:`check_rejects` asserts an illegal action is refused cleanly and atomically.
- :func:`outputs_under_hash_seeds` runs a script under several ``PYTHONHASHSEED`` values,
  to show that no set or dict order over strings decides a game.
- :func:`checking_reads` (:func:`hexwar.engine.memo.read_checking`): undeclared memo reads fail.

Requires ``hypothesis`` (the ``test`` extra); a worked example: ``docs/architecture.md``.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

import attrs

from hexwar.base.errors import HexwarError, IllegalAction, StaleMemo, UndeclaredRead
from hexwar.engine.actions import CHANCE, TERMINAL, Action, action_key
from hexwar.engine.loop import sample_action
from hexwar.engine.memo import read_checking
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.space import DONE
from hexwar.engine.state import State
from hexwar.testing.failures import Progress, write_record

__all__ = [
    "RulesViolation",
    "SimulationReport",
    "Violation",
    "check_random_games",
    "check_rejects",
    "check_step",
    "check_tokens",
    "checking_reads",
    "outputs_under_hash_seeds",
]

#: Memo read checking (see :func:`hexwar.engine.memo.read_checking`), re-exported for tests.
checking_reads = read_checking

#: An invariant: returns ``None`` (or raises ``AssertionError``) when it holds, else a message.
Invariant = Callable[[State], "str | None"]


class RulesViolation(AssertionError):
    """A check of the kit failed (raised with ``raise_on_first``)."""


@attrs.frozen
class Violation:
    """One failed check: which game and step, which check, and the actions leading there
    (``history``; ``record``: the path of a game record of them, which
    :func:`hexwar.engine.records.replay` replays to the failing position)."""

    game: int
    step: int
    check: str
    message: str
    history: tuple[str, ...]
    record: str | None = None


@attrs.define
class SimulationReport:
    """The result of :func:`check_random_games`."""

    games: int = 0
    steps: int = 0
    terminal: int = 0
    violations: list[Violation] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.violations


def _pick(state: State, rng: random.Random) -> Action:
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        den = 1
        for _, p in outcomes:
            den = den * p.denominator // _gcd(den, p.denominator)
        k = rng.randrange(den)
        for action, p in outcomes:
            k -= int(p * den)
            if k < 0:
                return action
    return sample_action(state, rng)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def check_tokens(state: State, legal: Sequence[Action] | None = None) -> list[tuple[str, str]]:
    """The action-space checks of one state: a list of ``(check, message)`` failures.

    Walks the whole token tree from the empty prefix: each prefix's tokens are sorted,
    unique and in the ruleset's space, none is a dead end (a legal prefix with nothing
    after it), ``done`` never comes first; the leaves are exactly ``legal_actions`` (an
    ``enumeration`` failure when the list comes from the game's own enumerators:
    :meth:`~hexwar.engine.state.Ruleset.phase_enumeration`, ``Kind(..., actions=...)``); each
    legal action's ids decode back to it and :meth:`State.is_legal` accepts it, while a
    prefix that is not itself an action is refused.
    """
    fails: list[tuple[str, str]] = []
    try:
        space = state.ruleset.space
    except HexwarError as exc:
        return [("space", str(exc))]
    legal = state.legal_actions() if legal is None else legal
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
    if leaves != set(legal):
        extra, missing = sorted(leaves - set(legal)), sorted(set(legal) - leaves)
        if _enumerated(state):
            # the list came from the game's own enumerators (Kind(..., actions=...)):
            # they disagree with the token tree, the one legality source
            fails.append(
                (
                    "enumeration",
                    f"the ruleset's enumeration differs from the token tree: not in the list"
                    f" {extra[:3]}, not in the tree {missing[:3]}",
                )
            )
        else:
            fails.append(
                ("prefix", f"token tree leaves differ: extra {extra[:3]}, missing {missing[:3]}")
            )
    for action in legal:
        try:
            if space.decode(space.encode(action)) != action:
                fails.append(("ids", f"{action}: ids do not decode back to it"))
        except HexwarError as exc:
            fails.append(("ids", f"{action}: {exc}"))
        if not state.is_legal(action):
            fails.append(("prefix", f"{action}: in legal_actions but is_legal refuses it"))
    return fails


def _enumerated(state: State) -> bool:
    """Whether ``state.legal_actions()`` comes from the ruleset's own enumeration
    (:meth:`Ruleset.phase_enumeration` / :meth:`Ruleset.decision_enumeration`)."""
    if state.is_terminal():
        return False
    rules = state.ruleset
    if state.pending:
        d = state.pending[-1]
        if d.is_chance or d.choices:
            return False
        return rules.decision_enumeration(state, d) is not None
    return rules.phase_enumeration(state, state.current_player()) is not None


def check_step(
    state: State, seats: Sequence[str] = (), *, tokens: bool = True
) -> list[tuple[str, str]]:
    """The per-state checks (no action applied): a list of ``(check, message)`` failures
    (with ``tokens``, :func:`check_tokens` too)."""
    fails: list[tuple[str, str]] = []
    player = state.current_player()
    legal = state.legal_actions()
    if tokens:
        fails += check_tokens(state, legal)
    if state.is_terminal():
        fails += state.ruleset.bounds().failures(state.history)
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


def check_random_games(
    new_state: Callable[[], State],
    *,
    games: int = 100,
    seed: int = 0,
    max_steps: int = 2000,
    invariants: Sequence[Invariant] = (),
    raise_on_first: bool = False,
    check_serialization: bool = True,
    full_check_every: int = 1,
    check_reads: bool = True,
    progress: bool | TextIO = False,
    failure_records: str | os.PathLike[str] | None = None,
) -> SimulationReport:
    """Play ``games`` random games (reproducible from ``seed``), checking every step.

    Actions are drawn token by token (:func:`hexwar.engine.loop.sample_action`), chance
    outcomes by their probabilities. ``invariants`` and the history check run at every
    step. The costlier checks (legal actions and their text forms, the token tree and
    ids, seats, clone, serialization, and the undo walk-back comparison) run at every
    step by default; ``full_check_every=N`` runs them at every N-th step only (and at
    the last one), for rulesets with large action lists — undo still walks back through
    every action and is compared at those steps. ``check_reads``: memo read checking
    (:func:`checking_reads`) is on for the set-up and the full steps (their checks, the
    choice and the action applied), so with ``full_check_every=N`` it is sampled like
    the other costly checks; a memo that reads an undeclared table, or returns a stale
    result, is reported as a ``memo`` violation.

    ``progress``: show the games done on stderr (or on the stream given) — a ``tqdm``
    bar if tqdm is installed, else ``rich``'s, else a text line. On a violation the
    game so far is written as a game record (:func:`hexwar.engine.records.record_of`) into
    ``failure_records`` (a folder, created if missing; default a new temporary folder):
    :attr:`Violation.record` and the :class:`RulesViolation` message give its path, and
    ``replay(ruleset, GameRecord.from_json(ruleset, text))`` rebuilds the failing
    position (the failing action itself, when applying it raised, is in the message).
    """
    if full_check_every < 1:
        raise ValueError(f"full_check_every must be >= 1, got {full_check_every}")
    bar = None
    if progress:
        bar = Progress(games, None if progress is True else progress)
    folder = None if failure_records is None else Path(failure_records)
    try:
        return _check_games(
            new_state, games, seed, max_steps, invariants, raise_on_first,
            check_serialization, full_check_every, check_reads, bar, folder,
        )  # fmt: skip
    finally:
        if bar is not None:
            bar.close()


def _kind_of(exc: Exception, check: str) -> str:
    return "memo" if isinstance(exc, UndeclaredRead | StaleMemo) else check


def _report(
    report: SimulationReport,
    state: State,
    applied: list[Action],
    seed: int,
    folder: Path | None,
    raise_on_first: bool,
    game: int,
    step: int,
    check: str,
    message: str,
) -> None:
    """Record a violation (with the game's record file on its first one); raise it if
    ``raise_on_first``."""
    first_here = not any(v.game == game for v in report.violations)
    path = write_record(state, game, seed, folder) if first_here else None
    report.violations.append(
        Violation(game, step, check, message, tuple(str(a) for a in applied), path)
    )
    if raise_on_first:
        where = f"; its record: {path}" if path else ""
        raise RulesViolation(f"{check}: {message} (game {game}, step {step}{where})")


def _check_games(
    new_state: Callable[[], State],
    games: int,
    seed: int,
    max_steps: int,
    invariants: Sequence[Invariant],
    raise_on_first: bool,
    check_serialization: bool,
    full_check_every: int,
    check_reads: bool,
    bar: Progress | None = None,
    folder: Path | None = None,
) -> SimulationReport:
    rng = random.Random(seed)
    checking = read_checking if check_reads else nullcontext
    report = SimulationReport()
    for game in range(games):
        try:
            with checking():
                state = new_state()
        except Exception as exc:
            check = _kind_of(exc, "setup")
            report.violations.append(Violation(game, 0, check, f"{type(exc).__name__}: {exc}", ()))
            if raise_on_first:
                raise RulesViolation(f"{check}: {exc} (game {game}, set-up)") from exc
            report.games += 1
            continue
        seats = [s.name for s in state.ruleset.seats()]
        snapshots: dict[int, dict[str, Any]] = {0: state.to_data()}
        applied: list[Action] = list(state.history)
        first = len(applied)  # actions taken before the checker's first step

        fail = functools.partial(
            _report, report, state, applied, seed, folder, raise_on_first, game
        )

        for step in range(max_steps + 1):
            full = step % full_check_every == 0 or state.is_terminal()
            with checking() if full else nullcontext():
                if full:
                    try:
                        for check, message in check_step(state, seats):
                            fail(step, check, message)
                    except RulesViolation:
                        raise
                    except Exception as exc:
                        fail(step, _kind_of(exc, "legal"), f"{type(exc).__name__}: {exc}")
                        break
                for inv in invariants:
                    try:
                        found = inv(state)
                    except AssertionError as exc:
                        found = str(exc) or repr(exc)
                    if found:
                        fail(step, f"invariant {getattr(inv, '__name__', inv)}", found)
                if len(state.history) != len(applied) or (full and list(state.history) != applied):
                    fail(step, "history", "history differs from the actions applied")
                if check_serialization and full:
                    try:
                        if loads(state.ruleset, dumps(state)) != state:
                            fail(step, "serialize", "state does not load back equal")
                    except Exception as exc:
                        fail(step, "serialize", f"{type(exc).__name__}: {exc}")
                if state.is_terminal() or step == max_steps:
                    break
                try:
                    action = _pick(state, rng)
                except Exception as exc:
                    fail(step, _kind_of(exc, "legal"), f"{type(exc).__name__}: {exc}")
                    break
                full_next = (step + 1) % full_check_every == 0
                twin = state.clone() if full_next else None
                try:
                    state.apply(action)
                except Exception as exc:
                    message = f"legal action {action} raised {type(exc).__name__}: {exc}"
                    fail(step, _kind_of(exc, "apply"), message)
                    break
                applied.append(action)
                report.steps += 1
                if twin is None and not state.is_terminal():
                    continue
                try:
                    snapshot = state.to_data()
                    if twin is not None:
                        twin.apply(action)
                        if twin.to_data() != snapshot:
                            fail(step, "clone", f"clone differs after {action}")
                except Exception as exc:
                    fail(step, "serialize", f"{type(exc).__name__}: {exc}")
                    break
                snapshots[len(applied) - first] = snapshot
        report.terminal += state.is_terminal()
        for i in range(len(applied) - first, 0, -1):
            state.undo()
            expected = snapshots.get(i - 1)
            if expected is not None and state.to_data() != expected:
                fail(i, "undo", f"undo of action {i} is not exact")
                break
        report.games += 1
        if bar is not None:
            bar.update(report.steps, len(report.violations))
    return report


def check_rejects(state: State, action: Action) -> IllegalAction:
    """Assert ``state`` refuses ``action`` with a specific reason and stays unchanged."""
    before = dumps(state)
    try:
        state.apply(action)
    except IllegalAction as exc:
        if not exc.reason:
            raise RulesViolation(f"{action}: refused without a reason") from exc
        if dumps(state) != before:
            raise RulesViolation(f"{action}: refused but the state changed") from exc
        return exc
    raise RulesViolation(f"{action} was accepted at {state!r}")


def outputs_under_hash_seeds(
    code: str,
    args: Sequence[str] = (),
    *,
    hash_seeds: Sequence[str] = ("1", "4242"),
    cwd: str | os.PathLike[str] | None = None,
    timeout: float = 300,
) -> list[str]:
    """The standard output of ``python -c code args...`` run once per ``PYTHONHASHSEED``
    in ``hash_seeds`` (a failing run raises ``CalledProcessError``).

    String hashing, hence set and dict order over strings, changes with the seed; a
    deterministic game prints the same record under every one, so the outputs must all
    be equal — compare them in the test:

    >>> outs = outputs_under_hash_seeds("print(sorted({'b', 'a'}))")
    >>> [out.strip() for out in outs]
    ["['a', 'b']", "['a', 'b']"]
    """
    outputs = []
    for seed in hash_seeds:
        run = subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=cwd,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        )
        outputs.append(run.stdout)
    return outputs
