"""The ``study`` command of ``python -m hexwar`` and of a game's own command line.

    study GAME [--games N] [--seed S] [--bots A,B ...] [--option KEY=V1,V2 ...]
          [--vary NAME=V1,V2,...] [--out RESULTS]
          [--workers W | --dask-local N | --scheduler tcp://HOST:8786] [--report REPORT.md]
    study report RESULTS [--out REPORT.md] [--replay-url URL]

Every value of every ``--option`` and ``--vary`` is crossed with every other and with every
``--bots`` pairing (a *cell*); each cell plays ``N`` games, seeds ``S`` to ``S + N - 1``.
``--vary`` names an option of the ruleset or a data value the game's study accepts (two
values or more): the report plots the win rate against it and tests the differences.
``--bots`` takes any bot name the game registers. Rows go to ``RESULTS`` (JSON lines) as
games finish; a rerun plays only the missing games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from hexwar.base.errors import HexwarError
from hexwar.study.backends import backend_for
from hexwar.study.figures import group
from hexwar.study.game import StudyError, resolve
from hexwar.study.report import DEFAULT_REPLAY_URL, write_report
from hexwar.study.results import read_rows, row_key
from hexwar.study.runner import Cell, Plan, run_study
from hexwar.study.stats import wilson

__all__ = ["MAX_GAMES", "at_least", "main", "parse_value", "parser"]


def parse_value(text: str) -> Any:
    """An option value: JSON when it reads as JSON (``5``, ``true``), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


#: The most games a command plays (per cell of a study): a stated limit, so that a typo
#: (``--games 99999999999999999999``) is refused at once instead of running for ever.
MAX_GAMES: Final = 1_000_000
#: The largest seed, worker count or other count a command takes.
MAX_COUNT: Final = 2**63 - 1


def at_least(low: int, most: int = MAX_COUNT) -> Callable[[str], int]:
    """An ``argparse`` type: an integer from ``low`` to ``most`` (shared by the games'
    CLIs).

    >>> at_least(1, MAX_GAMES)("99999999999999999999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 99999999999999999999 is above 1000000
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is below {low}")
        if value > most:
            raise argparse.ArgumentTypeError(f"{text[:40]} is above {most}")
        return value

    return parse


def parser(prog: str, game: str | None, flags: Mapping[str, str]) -> argparse.ArgumentParser:
    """The ``study`` (run) parser; ``game``: the game it studies (else a ``GAME``
    argument); ``flags``: ``--NAME`` arguments that set an option (name -> default)."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    if game is None:
        p.add_argument("game", help="MODULE:NAME of a StudyGame or a Ruleset class")
    p.add_argument("--games", type=at_least(1, MAX_GAMES), default=20, help="games per cell")
    p.add_argument("--seed", type=at_least(0), default=0, help="the first seed")
    p.add_argument("--bots", action="append", help="one bot per side, A,B (repeatable)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=V1,V2")
    p.add_argument("--vary", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="sweep an option or data value (two values or more)")  # fmt: skip
    for name, default in flags.items():
        p.add_argument(
            f"--{name}", default=default, help=f"option {name}: V1,V2 (default {default})"
        )
    p.add_argument("--out", default="study.jsonl", help="the results file (JSON lines)")
    p.add_argument("--workers", type=at_least(0), default=0, help="processes (0: all cores)")
    p.add_argument("--dask-local", type=at_least(1), default=0, metavar="N",
                   help="start a Dask LocalCluster of N worker processes")  # fmt: skip
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:8786",
                   help="run on the Dask cluster of this scheduler")  # fmt: skip
    p.add_argument("--timeout", type=float, default=5.0, help="seconds to reach the scheduler")
    p.add_argument("--report", default=None, metavar="REPORT.md", help="then write the report")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _cells(args: argparse.Namespace, flags: Mapping[str, str], default_bots: str) -> list[Cell]:
    grid: dict[str, list[Any]] = {}
    for name in flags:
        value = getattr(args, name.replace("-", "_"))
        if value not in (None, ""):
            grid[name] = [parse_value(v) for v in str(value).split(",")]
    for text in args.option:
        key, sep, values = text.partition("=")
        if not sep or not key:
            raise StudyError(f"--option {text!r}: expected KEY=V1,V2")
        grid[key] = [parse_value(v) for v in values.split(",")]
    for text in args.vary:
        key, sep, values = text.partition("=")
        if not sep or not key or len(values.split(",")) < 2:
            raise StudyError(f"--vary {text!r}: expected NAME=V1,V2,... (two values or more)")
        grid[key] = [parse_value(v) for v in values.split(",")]
    keys = sorted(grid)
    pairings = [tuple(b.split(",")) for b in (args.bots or [default_bots])]
    return [
        Cell(dict(zip(keys, values, strict=True)), bots)
        for values in itertools.product(*(grid[k] for k in keys))
        for bots in pairings
    ]


def print_rates(rows: Sequence[dict[str, Any]], out: TextIO) -> None:
    """Each cell's win rates with Wilson 95 % intervals."""
    for cell in group(rows):
        print(f"{cell.label}: {len(cell.rows)} games, seeds {cell.seeds}", file=out)
        for side in (*cell.sides, None):
            wins = sum(1 for r in cell.rows if r["winner"] == side)
            lo, hi = wilson(wins, len(cell.rows))
            rate = wins / len(cell.rows)
            name = side or "draw"
            print(f"  {name:10s} {wins:5d}  {rate:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]", file=out)


def _run(argv: Sequence[str], prog: str, game: str | None, flags: Mapping[str, str],
         default_bots: str, out: TextIO) -> int:  # fmt: skip
    args = parser(prog, game, flags).parse_args(argv)
    spec = game or args.game
    if not default_bots:
        default_bots = ",".join(["random"] * len(resolve(spec).rules({}).sides))
    plan = Plan(spec, tuple(_cells(args, flags, default_bots)), args.games, args.seed)
    backend = backend_for(args.workers, args.scheduler, args.dask_local, args.timeout)
    done = run_study(plan, backend, args.out, progress=not args.no_progress)
    print(f"{done.played} games played, {done.skipped} already in {args.out}", file=out)
    wanted = {j.key for j in plan.jobs()}
    print_rates([r for r in read_rows(args.out) if row_key(r) in wanted], out)
    if args.report:
        command = shlex.join([*prog.split(), *argv])
        written = write_report(args.out, args.report, command)
        print(f"report: {written[0]} ({len(written) - 1} plots)", file=out)
    return 0


def _report(argv: Sequence[str], prog: str, out: TextIO) -> int:
    p = argparse.ArgumentParser(prog=f"{prog} report", description="a study's report")
    p.add_argument("results", help="the results file (JSON lines)")
    p.add_argument("--out", default=None, help="the report (default: RESULTS with .md)")
    p.add_argument("--command", default=None, help="the command line the report names")
    p.add_argument("--note", default=None, help="a paragraph under the report's title")
    p.add_argument("--replay-url", default=DEFAULT_REPLAY_URL,
                   help="base of the replay links ('none': none; default %(default)s)")  # fmt: skip
    args = p.parse_args(argv)
    if not Path(args.results).is_file():
        p.error(f"no such file: {args.results}")
    target = args.out or str(Path(args.results).with_suffix(".md"))
    command = args.command or shlex.join([*prog.split(), "report", *argv])
    url = None if args.replay_url == "none" else args.replay_url
    written = write_report(args.results, target, command, note=args.note, replay_url=url)
    print(f"report: {written[0]} ({len(written) - 1} plots)", file=out)
    return 0


def main(
    argv: Sequence[str],
    *,
    prog: str = "python -m hexwar study",
    game: str | None = None,
    flags: Mapping[str, str] | None = None,
    default_bots: str = "",
    out: TextIO | None = None,
) -> int:
    """Run ``study ...`` (``argv`` without ``study``); 0 done, 1 an error (one ``error:``
    line on stderr), 2 bad arguments."""
    stream = out if out is not None else sys.stdout
    try:
        if argv[:1] == ["report"]:
            return _report(argv[1:], prog, stream)
        return _run(argv, prog, game, flags or {}, default_bots, stream)
    except (HexwarError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
