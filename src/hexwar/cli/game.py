"""A game's command line: :class:`GameCli`, the commands every game gets, and the
``argparse`` types they check their arguments with.

A game subclasses :class:`GameCli`, names its :class:`~hexwar.study.StudyGame` (its rules
and bots) and fills in the hooks it has (its options, a picture of a position, the lines
a replay reports, a per-turn summary), then adds its own commands beside these:

- ``demo``: a seeded bot-vs-bot game, its summary, the game record (JSON) and a picture
  of the final position;
- ``replay RECORD [--turn N --svg FILE]``: replay and check a record, draw any turn;
- ``simulate --games N --bots A,B``: win rates with Wilson intervals, on all cores,
  deterministic per seed (a study without a results file);
- ``study ...``, ``study report RESULTS``: a balance study (:mod:`hexwar.study.cli`);
- ``serve``: play in the browser (:mod:`hexwar.web.serve`), when the game has a web game.

Every argument is checked by the parser, before any work (a bad one: a usage message,
exit status 2); a :class:`~hexwar.base.errors.HexwarError` or an ``OSError`` while a
command runs is one ``error:`` line on stderr and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TextIO

from hexwar.base.errors import HexwarError, RecordError
from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.fileformat import parse_json
from hexwar.engine.loop import Player, play
from hexwar.engine.records import GameRecord, record_of, replay
from hexwar.engine.state import Ruleset, State
from hexwar.study.backends import backend_for
from hexwar.study.cli import MAX_GAMES, at_least
from hexwar.study.game import StudyGame, resolve
from hexwar.study.runner import Cell, Plan, run_study
from hexwar.study.stats import wilson

if TYPE_CHECKING:
    from hexwar.web.games import WebGame

__all__ = [
    "GameCli",
    "Summary",
    "at_least",
    "existing_file",
    "new_file",
    "out_folder",
    "quiet_broken_pipe",
]


class Summary(Protocol):
    """What ``demo`` prints while it plays: ``step`` sees the state before each action,
    ``finish`` the final state (:meth:`GameCli.summary`)."""

    def step(self, state: State, action: Action) -> None: ...

    def finish(self, state: State) -> None: ...


def new_file(text: str) -> str:
    """An ``argparse`` type: a file to write; its folder must exist (nothing is created
    on the way).

    >>> new_file("/no/such/folder/x.svg")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: folder /no/such/folder does not exist
    """
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {path.parent} does not exist")
    return text


def out_folder(text: str) -> str:
    """An ``argparse`` type: an output folder, created if missing, but only inside a
    folder that exists."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a folder")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {path.parent} does not exist")
    return text


def existing_file(text: str) -> str:
    """An ``argparse`` type: a file that exists."""
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return text


def quiet_broken_pipe() -> int:
    """The reader of stdout went away (``... | head``): stop quietly, as the Python docs
    advise (stdout pointed at devnull so the interpreter's final flush cannot fail)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):  # stdout is not a real file (a StringIO)
        os.dup2(devnull, sys.stdout.fileno())
    return 1


class GameCli:
    """The command line of one game (see the module docstring).

    Class attributes: ``prog`` and ``description`` (the parser's), ``module`` (``python
    -m MODULE``), ``game`` (``MODULE:NAME`` of the game's
    :class:`~hexwar.study.StudyGame`: its rules and bots), ``title`` (the demo's heading),
    ``stem`` (the demo's file names), ``picture_title`` (its picture's), ``demo_bot``
    (the bot that plays every side of the demo), ``default_bots`` (of ``simulate`` and
    ``study``), ``study_flags`` (``--NAME`` options of ``study``: name -> default) and
    ``serves`` (whether there is a ``serve`` command: :meth:`web_game`).
    Hooks, each with a default: :meth:`add_options`, :meth:`options`, :meth:`variant`,
    :meth:`new_game`, :meth:`record_rules`, :meth:`last_turn`, :meth:`turn`,
    :meth:`picture`, :meth:`report`, :meth:`summary`, :meth:`web_game` and
    :meth:`add_commands` (the game's own commands: each sets ``run``).
    """

    prog: ClassVar[str] = "game"
    description: ClassVar[str] = ""
    module: ClassVar[str] = "game"
    game: ClassVar[str] = ""
    title: ClassVar[str] = "game"
    stem: ClassVar[str] = "game"
    picture_title: ClassVar[str] = "game"
    demo_bot: ClassVar[str] = "random"
    default_bots: ClassVar[str] = ""
    study_flags: ClassVar[Mapping[str, str]] = {}
    serves: ClassVar[bool] = False

    # -- hooks ---------------------------------------------------------------------------

    def add_options(self, parser: argparse.ArgumentParser, command: str) -> None:
        """Add the game's options to the core's ``command`` (``demo``, ``replay``,
        ``simulate``, ``serve``); default none."""

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        """The study options of a command's arguments (:attr:`StudyGame.rules`' input);
        default none."""
        return {}

    def variant(self, args: argparse.Namespace) -> str | None:
        """The words naming the game played (``short`` in "short game"), or ``None``."""
        return None

    def new_game(self, args: argparse.Namespace) -> State:
        """The start of the game ``demo`` plays; default: the ruleset of :meth:`options`."""
        return self.study().rules(self.options(args)).new_state()

    def record_rules(
        self, options: Mapping[str, Any], source: str, args: argparse.Namespace
    ) -> Ruleset:
        """The ruleset a record's ``rules_options`` name (``source``: the record's file);
        default the study game's rules of them."""
        return self.study().rules(options)

    def last_turn(self, rules: Ruleset) -> int | None:
        """The last turn a game of ``rules`` may reach (``replay --turn``), or ``None``."""
        return None

    def turn(self, text: str) -> int:
        """The ``argparse`` type of ``replay --turn``: a turn, 1 or more."""
        return at_least(1)(text)

    def picture(self, state: State, title: str) -> str | None:
        """An SVG of the position, or ``None`` (no pictures: ``demo`` draws none and
        ``replay`` has no ``--svg``)."""
        return None

    def report(self, state: State, where: str, out: TextIO) -> None:
        """The game's lines after a replay's result, on the position at ``where`` ("the
        end", "turn 3"); default none."""

    def summary(self, out: TextIO) -> Summary | None:
        """What ``demo`` prints while it plays, or ``None``."""
        return None

    def web_game(self, args: argparse.Namespace) -> WebGame:
        """The game ``serve`` serves (when :attr:`serves`)."""
        raise NotImplementedError

    def add_commands(self, sub: Any) -> list[argparse.ArgumentParser]:
        """Add the game's own commands to the subparsers ``sub``; each sets its
        ``run(args, out) -> int`` with ``set_defaults``. Returns their parsers."""
        return []

    # -- the study game --------------------------------------------------------------------

    def study(self) -> StudyGame:
        """The game's :class:`~hexwar.study.StudyGame` (:attr:`game`)."""
        return resolve(self.game)

    def bot(self, name: str, seed: int) -> Player:
        """The bot ``name``, seeded (:meth:`StudyGame.bot`)."""
        return self.study().bot(name, seed)

    def simulate(
        self,
        options: Mapping[str, Any],
        bots: tuple[str, ...],
        games: int,
        seed: int = 0,
        workers: int = 1,
        err: TextIO | None = None,
    ) -> list[str | None]:
        """The winners of ``games`` games of ``options``, game ``i`` played with seed
        ``seed + i`` (so the result does not depend on ``workers``): a
        :mod:`hexwar.study` run without a results file."""
        plan = Plan(self.game, (Cell(dict(options), bots),), games, seed)
        progress = err if err is not None else False
        done = run_study(plan, backend_for(workers), None, progress=progress)
        return [row["winner"] for row in sorted(done.rows, key=lambda r: r["seed"])]

    # -- the commands ----------------------------------------------------------------------

    def _heading(self, args: argparse.Namespace) -> str:
        variant = self.variant(args)
        return f"{self.title} ({variant} game)" if variant else self.title

    def cmd_demo(self, args: argparse.Namespace, out: TextIO) -> int:
        state = self.new_game(args)
        sides = state.ruleset.sides
        bots = {s: self.bot(self.demo_bot, args.seed * 2 + i) for i, s in enumerate(sides)}
        summary = self.summary(out)
        heading = self._heading(args)
        print(f"{heading}, {self.demo_bot} vs {self.demo_bot}, seed {args.seed}", file=out)
        start = time.perf_counter()
        on_step = summary.step if summary is not None else None
        state = play(state, bots, SeededDriver(args.seed), on_step=on_step)
        if summary is not None:
            summary.finish(state)
        elapsed = time.perf_counter() - start
        assert state.outcome is not None
        print(f"result: {state.outcome.winner} — {state.outcome.reason}", file=out)
        print(f"{len(state.history)} actions in {elapsed:.1f} s", file=out)
        folder = Path(args.out)
        folder.mkdir(exist_ok=True)  # its parent exists: checked with the arguments
        variant = self.variant(args)
        stem = (
            f"{self.stem}-{variant}-seed{args.seed}" if variant else f"{self.stem}-seed{args.seed}"
        )
        record_path = folder / f"{stem}.json"
        record_path.write_text(record_of(state, seed=args.seed).to_json(), encoding="utf-8")
        print(f"record: {record_path}", file=out)
        game = f"the {variant} game" if variant else "the game"
        svg = self.picture(state, f"{self.picture_title}, end of {game} (seed {args.seed})")
        if svg is not None:
            svg_path = folder / f"{stem}.svg"
            svg_path.write_text(svg, encoding="utf-8")
            print(f"final position: {svg_path}", file=out)
        return 0

    def load_record(self, path: str, args: argparse.Namespace) -> tuple[Ruleset, GameRecord]:
        """The ruleset the record at ``path`` names (its ``rules_options``,
        :meth:`record_rules`) and the record, checked
        (:class:`~hexwar.base.errors.RecordError` or
        :class:`~hexwar.base.errors.DataError` naming the file and entry)."""
        raw = Path(path).read_bytes()
        data = parse_json(raw, path)
        if not isinstance(data, dict):
            raise RecordError("not a game record (a JSON object)", source=path)
        if "rules_options" not in data:
            raise RecordError(
                "missing field 'rules_options' (a record of an older format: regenerate it)",
                source=path,
                entry="rules_options",
            )
        options = data["rules_options"]
        if not isinstance(options, dict):
            raise RecordError("rules_options must be an object", source=path, entry="rules_options")
        rules = self.record_rules(options, path, args)
        return rules, GameRecord.from_json(rules, raw, source=path)

    def cmd_replay(self, args: argparse.Namespace, out: TextIO) -> int:
        rules, record = self.load_record(args.record, args)
        last = self.last_turn(rules)
        if args.turn is not None and last is not None and args.turn > last:
            print(
                f"error: --turn {args.turn}: the recorded game is turns 1..{last}",
                file=sys.stderr,
            )
            return 2
        try:
            state = replay(rules, record)
        except RecordError as exc:
            raise RecordError(exc.reason, source=args.record, entry=exc.entry) from None
        n = len(record.actions)
        print(f"replayed {n} actions: all legal; checkpoints and final position match", file=out)
        if state.outcome is not None:
            print(f"result: {state.outcome.winner} — {state.outcome.reason}", file=out)
        else:
            print(f"unfinished: the record stops on turn {state.turn} (no result yet)", file=out)
        if args.turn is not None:  # the record is proven: replay it again up to that turn
            state = rules.new_state(record.scenario, dict(record.options))
            for text in record.actions:
                if state.turn > args.turn:
                    break
                state.apply_unchecked(Action.parse(text))
        where = "the end" if args.turn is None else f"turn {min(args.turn, state.turn)}"
        self.report(state, where, out)
        if getattr(args, "svg", None):
            title = f"{self.picture_title}, {where} (record {Path(args.record).name})"
            svg = self.picture(state, title)
            assert svg is not None  # --svg exists only when the game draws
            Path(args.svg).write_text(svg, encoding="utf-8")
            print(f"position at {where}: {args.svg}", file=out)
        return 0

    def cmd_simulate(self, args: argparse.Namespace, out: TextIO) -> int:
        names = tuple(args.bots.split(","))
        study = self.study()
        sides = study.rules(self.options(args)).sides
        known = study.bot_names()
        if len(names) != len(sides) or any(n not in known for n in names):
            print(
                f"--bots takes {len(sides)} of {', '.join(known)} ({sides[0]} first), "
                f"e.g. {self.default_bots}",
                file=sys.stderr,
            )
            return 2
        workers = args.workers or os.cpu_count() or 1
        start = time.perf_counter()
        winners = self.simulate(
            self.options(args), names, args.games, args.seed, workers, sys.stderr
        )
        elapsed = time.perf_counter() - start
        variant = self.variant(args)
        games = f"{args.games} {variant} games" if variant else f"{args.games} games"
        pairing = " vs ".join(f"{s}={n}" for s, n in zip(sides, names, strict=True))
        print(
            f"{games}, {pairing}, seeds {args.seed}..{args.seed + args.games - 1}, "
            f"{workers} workers, {elapsed:.1f} s",
            file=out,
        )
        for side in (*sides, None):
            wins = sum(1 for w in winners if w == side)
            lo, hi = wilson(wins, len(winners))
            name = side or "draw"
            rate = wins / len(winners) if winners else 0.0
            print(f"  {name:10s} {wins:5d}  {rate:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]", file=out)
        return 0

    def cmd_serve(self, args: argparse.Namespace, out: TextIO) -> int:
        from hexwar.web.serve import run

        return run([self.web_game(args)], args)

    # -- the parser and main ---------------------------------------------------------------

    def parser(self) -> argparse.ArgumentParser:
        """The argument parser: the core's commands, then the game's own."""
        p = argparse.ArgumentParser(prog=self.prog, description=self.description)
        sub = p.add_subparsers(dest="command", required=True)
        bots = f"{self.demo_bot}-vs-{self.demo_bot}"
        demo = sub.add_parser("demo", help=f"play a seeded {bots} game")
        demo.add_argument("--seed", type=at_least(0), default=1)
        demo.add_argument(
            "--out", type=out_folder, default="out", help="output folder (default ./out)"
        )
        rep = sub.add_parser("replay", help="replay and check a game record; draw a turn")
        rep.add_argument("record", type=existing_file)
        rep.add_argument(
            "--turn", type=self.turn, default=None, help="stop at the end of this turn"
        )
        if type(self).picture is not GameCli.picture:
            rep.add_argument("--svg", type=new_file, default=None, help="write the position as SVG")
        sim = sub.add_parser("simulate", help="win rates of two bots over many games")
        sim.add_argument("--games", type=at_least(1, MAX_GAMES), default=20)
        sim.add_argument("--bots", default=self.default_bots, help="one bot per side, A,B")
        sim.add_argument("--seed", type=at_least(0), default=0)
        sim.add_argument(
            "--workers", type=at_least(0), default=0, help="processes (default: all cores)"
        )
        sub.add_parser("study", help="a balance study; study report RESULTS (docs/studies.md)")
        commands = {"demo": demo, "replay": rep, "simulate": sim}
        runs = {"demo": self.cmd_demo, "replay": self.cmd_replay, "simulate": self.cmd_simulate}
        if self.serves:
            from hexwar.web.serve import add_arguments

            commands["serve"] = serve = sub.add_parser(
                "serve", help="play in the browser (docs/web.md)"
            )
            add_arguments(serve)
            runs["serve"] = self.cmd_serve
        for name, command in commands.items():
            self.add_options(command, name)
            command.set_defaults(run=runs[name])
        self.add_commands(sub)
        return p

    def main(self, argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
        """Run the command line; returns the exit status (0 done, 1 an error — one
        ``error:`` line on stderr —, 2 bad arguments)."""
        stream = out if out is not None else sys.stdout
        argv = list(sys.argv[1:] if argv is None else argv)
        if argv[:1] == ["study"]:  # its own parser (hexwar.study.cli)
            from hexwar.study.cli import main as study

            return study(argv[1:], prog=f"python -m {self.module} study", game=self.game,
                         flags=self.study_flags, default_bots=self.default_bots,
                         out=stream)  # fmt: skip
        args = self.parser().parse_args(argv)
        try:
            code: int = args.run(args, stream)
            return code
        except (HexwarError, OSError) as exc:
            if isinstance(exc, BrokenPipeError):
                return quiet_broken_pipe()
            print(f"error: {exc}", file=sys.stderr)
            return 1
