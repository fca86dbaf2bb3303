"""The verification kit: check *your* ruleset the way OpenSpiel checks its games.

- :func:`check_random_games` plays random games of any ruleset and checks at every step
  (the per-state checks are :mod:`hexwar.testing.checks`) that only the current player
  has legal actions; legal actions are sorted, their text
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

import collections
import functools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any, TextIO

import attrs

from hexwar.base.errors import IllegalAction, StaleMemo, UndeclaredRead
from hexwar.engine.actions import CHANCE, Action
from hexwar.engine.loop import sample_action
from hexwar.engine.memo import read_checking
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import State
from hexwar.testing.checks import check_step
from hexwar.testing.failures import Progress, write_record
from hexwar.testing.policies import Policy, Weighted

__all__ = [
    "RulesViolation",
    "SimulationReport",
    "Violation",
    "check_random_games",
    "check_rejects",
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
    #: The actions applied, counted by kind (chance outcomes included): what the games
    #: reached (``kinds["attack"] / games``: attacks a game).
    kinds: collections.Counter[str] = attrs.Factory(collections.Counter)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.violations


def _pick(state: State, rng: random.Random, policy: Policy = sample_action) -> Action:
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
    return policy(state, rng)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


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
    policy: Policy | None = None,
) -> SimulationReport:
    """Play ``games`` random games (reproducible from ``seed``), checking every step.

    The players' actions are drawn by ``policy`` (:mod:`hexwar.testing.policies`; default
    :class:`~hexwar.testing.policies.Weighted`: the kind by weight, ``end`` ten times less
    likely than any other kind, then token by token), chance outcomes by their
    probabilities; :attr:`SimulationReport.kinds` counts the actions applied by kind.
    ``invariants`` and the history check run at every
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
            Weighted() if policy is None else policy,
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
    policy: Policy = sample_action,
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
        applied: list[Action] = list(state.history)
        fail = functools.partial(
            _report, report, state, applied, seed, folder, raise_on_first, game
        )
        run = _GameRun(state, applied, fail, report, invariants, check_serialization, policy)
        for step in range(max_steps + 1):
            full = step % full_check_every == 0 or state.is_terminal()
            with checking() if full else nullcontext():
                if not run.check_position(step, full):
                    break
                if state.is_terminal() or step == max_steps:
                    break
                if not run.advance(step, rng, (step + 1) % full_check_every == 0):
                    break
        report.terminal += state.is_terminal()
        run.walk_back()
        report.games += 1
        if bar is not None:
            bar.update(report.steps, len(report.violations))
    return report


class _GameRun:
    """One random game under check: the state, the actions applied and the snapshots
    that the clone and undo checks compare with."""

    def __init__(
        self,
        state: State,
        applied: list[Action],
        fail: Callable[[int, str, str], None],
        report: SimulationReport,
        invariants: Sequence[Invariant],
        check_serialization: bool,
        policy: Policy = sample_action,
    ) -> None:
        self.policy = policy
        self.state = state
        self.applied = applied
        self.fail = fail
        self.report = report
        self.invariants = invariants
        self.check_serialization = check_serialization
        self.seats = [s.name for s in state.ruleset.seats()]
        self.snapshots: dict[int, dict[str, Any]] = {0: state.to_data()}
        self.first = len(applied)  # actions taken before the checker's first step

    def check_position(self, step: int, full: bool) -> bool:
        """The checks of the position (the costly ones if ``full``); ``False``: stop."""
        state, fail = self.state, self.fail
        if full:
            try:
                for check, message in check_step(state, self.seats):
                    fail(step, check, message)
            except RulesViolation:
                raise
            except Exception as exc:
                fail(step, _kind_of(exc, "legal"), f"{type(exc).__name__}: {exc}")
                return False
        for inv in self.invariants:
            try:
                found = inv(state)
            except AssertionError as exc:
                found = str(exc) or repr(exc)
            if found:
                fail(step, f"invariant {getattr(inv, '__name__', inv)}", found)
        applied = self.applied
        if len(state.history) != len(applied) or (full and list(state.history) != applied):
            fail(step, "history", "history differs from the actions applied")
        if self.check_serialization and full:
            try:
                if loads(state.ruleset, dumps(state)) != state:
                    fail(step, "serialize", "state does not load back equal")
            except Exception as exc:
                fail(step, "serialize", f"{type(exc).__name__}: {exc}")
        return True

    def advance(self, step: int, rng: random.Random, full_next: bool) -> bool:
        """Pick and apply one action (a clone applies it too if ``full_next``, and must
        agree); ``False``: stop."""
        state, fail = self.state, self.fail
        try:
            action = _pick(state, rng, self.policy)
        except Exception as exc:
            fail(step, _kind_of(exc, "legal"), f"{type(exc).__name__}: {exc}")
            return False
        twin = state.clone() if full_next else None
        try:
            state.apply(action)
        except Exception as exc:
            message = f"legal action {action} raised {type(exc).__name__}: {exc}"
            fail(step, _kind_of(exc, "apply"), message)
            return False
        self.applied.append(action)
        self.report.steps += 1
        self.report.kinds[action.kind] += 1
        if twin is None and not state.is_terminal():
            return True
        try:
            snapshot = state.to_data()
            if twin is not None:
                twin.apply(action)
                if twin.to_data() != snapshot:
                    fail(step, "clone", f"clone differs after {action}")
        except Exception as exc:
            fail(step, "serialize", f"{type(exc).__name__}: {exc}")
            return False
        self.snapshots[len(self.applied) - self.first] = snapshot
        return True

    def walk_back(self) -> None:
        """Undo every action the checker applied, comparing with the snapshots taken."""
        for i in range(len(self.applied) - self.first, 0, -1):
            self.state.undo()
            expected = self.snapshots.get(i - 1)
            if expected is not None and self.state.to_data() != expected:
                self.fail(i, "undo", f"undo of action {i} is not exact")
                break


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
