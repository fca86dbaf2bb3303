"""The command line: ``python -m hexwar_stalingrad`` (``hexwar-stalingrad``).

- ``demo``: a seeded heuristic-vs-heuristic game, a turn-by-turn summary, the game record
  (JSON) and an SVG of the final position;
- ``replay RECORD [--turn N --svg FILE]``: replay and check a record, draw any turn;
- ``odds ATTACK DEFENCE [--air]``: the exact result probabilities on the CRT (S9.1, S10.5);
- ``study ...``, ``study report RESULTS``: a balance study (:mod:`hexwar.study`,
  ``docs/studies.md``): rows per game in a results file, a process pool or a Dask cluster,
  resumable; its Markdown report with plots;
- ``simulate --games N --bots A,B --length short|long|N``: win rates with Wilson
  intervals, all cores, deterministic per seed (a study without a results file).

Every command takes ``--scenario DIR``: a scenario directory (``docs/stalingrad/variants.md``)
instead of the shipped data, loaded and checked before any game starts.

See ``docs/stalingrad/cli.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Final, TextIO

from hexwar.base.errors import AttackRefused, CombatError, HexwarError, RecordError
from hexwar.engine.actions import Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.fileformat import parse_json
from hexwar.engine.loop import Player, RandomPlayer, play
from hexwar.engine.records import GameRecord, record_of, replay
from hexwar.engine.state import State
from hexwar.mechanics.crt import OddsTable
from hexwar.study import Cell, Plan, run_study, wilson
from hexwar.study.backends import backend_for
from hexwar.study.cli import MAX_GAMES, at_least
from hexwar_stalingrad import air, victory
from hexwar_stalingrad.board import DEAD, FULL, POOL, REDUCED, SIDES, static, step, where
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.render import map_svg, position_svg
from hexwar_stalingrad.rules import GAME_LENGTHS, StalingradRules
from hexwar_stalingrad.static import load_static

__all__ = ["BOTS", "main", "simulate", "wilson"]

#: The game of ``study`` and ``simulate`` (:mod:`hexwar_stalingrad.study`).
STUDY_GAME: Final = "hexwar_stalingrad.study:GAME"
#: Bot names for ``simulate --bots``.
BOTS: Final = ("random", "heuristic")


def make_bot(name: str, seed: int) -> Player:
    """A bot by name (``random`` or ``heuristic``), seeded."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "heuristic":
        return HeuristicBot(seed)
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")


# -- summaries -----------------------------------------------------------------------------------


def _steps(state: State, side: str) -> int:
    """Steps on the map and in the air (full 2, reduced 1): losses are their decrease."""
    data = static(state)
    total = 0
    for unit, info in data.ground.items():
        if info.side == side and where(state, unit) != POOL:
            total += {FULL: 2, REDUCED: 1}.get(step(state, unit), 0)
    for unit, a in data.air.items():
        if a.side == side and air.air_where(state, unit) not in ("pool", DEAD):
            total += {FULL: 2, REDUCED: 1}.get(air.air_step(state, unit), 0)
    return total


class _Summary:
    """Collects the turn-by-turn summary of a game as it is played."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.turn = 0
        self.serial = -1
        self.cards: list[str] = []
        self.losses = dict.fromkeys(SIDES, 0)
        self.prev: dict[str, int] = {}

    def _collect(self, state: State) -> None:
        for e in state.effects:
            if e.serial > self.serial and e.source is not None:
                who = e.owner or "event"
                text = f"{who}: {e.source}"
                if text not in self.cards:
                    self.cards.append(text)
        self.serial = max([self.serial, *(e.serial for e in state.effects)])
        now = {s: _steps(state, s) for s in SIDES}
        for s in SIDES:
            if s in self.prev and now[s] < self.prev[s]:
                self.losses[s] += self.prev[s] - now[s]
        self.prev = now

    def step(self, state: State, action: Action) -> None:
        if state.turn != self.turn:
            if self.turn:
                self._line(state)
            self.turn = state.turn
        self._collect(state)

    def _line(self, state: State) -> None:
        ring = "closed" if victory.encircled(state) else "open"
        cards = "; ".join(self.cards) or "-"
        print(
            f"turn {self.turn:2d}  losses rkka {self.losses['rkka']:2d} "
            f"wehrmacht {self.losses['wehrmacht']:2d}  ring {ring:6s}  cards: {cards}",
            file=self.out,
        )
        self.cards, self.losses = [], dict.fromkeys(SIDES, 0)

    def finish(self, state: State) -> None:
        self._collect(state)
        self._line(state)


# -- commands --------------------------------------------------------------------------------------


def _game_rules(length: str | int, scenario: str | None) -> StalingradRules:
    """The rules of a ``length`` game of the scenario directory (the shipped data if None)."""
    if scenario is None:
        return StalingradRules(length=length)
    return StalingradRules.from_scenario(scenario, length=length)


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    rules = _game_rules(args.length, args.scenario)
    bots: dict[str, Player] = {s: HeuristicBot(args.seed * 2 + i) for i, s in enumerate(SIDES)}
    summary = _Summary(out)
    start = time.perf_counter()
    print(f"«Сталинград» ({args.length} game), heuristic vs heuristic, seed {args.seed}", file=out)
    state = play(
        rules.new_state(options={"length": args.length}),
        bots,
        SeededDriver(args.seed),
        on_step=summary.step,
    )
    summary.finish(state)
    elapsed = time.perf_counter() - start
    assert state.outcome is not None
    print(f"result: {state.outcome.winner} — {state.outcome.reason}", file=out)
    print(f"{len(state.history)} actions in {elapsed:.1f} s", file=out)
    folder = Path(args.out)
    folder.mkdir(exist_ok=True)  # its parent exists: checked with the arguments
    stem = f"stalingrad-{args.length}-seed{args.seed}"
    record_path = folder / f"{stem}.json"
    svg_path = folder / f"{stem}.svg"
    record_path.write_text(record_of(state, seed=args.seed).to_json(), encoding="utf-8")
    title = f"Stalingrad, end of the {args.length} game (seed {args.seed})"
    svg_path.write_text(position_svg(state, title=title), encoding="utf-8")
    print(f"record: {record_path}", file=out)
    print(f"final position: {svg_path}", file=out)
    return 0


def cmd_map(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.out)  # its folder exists: checked with the arguments
    rules = _game_rules("long", args.scenario)
    svg = map_svg(units=not args.no_units, labels=not args.no_labels, rules=rules)
    path.write_text(svg, encoding="utf-8")
    print(f"map: {path}", file=out)
    return 0


def load_record(path: str, scenario: str | None = None) -> tuple[StalingradRules, GameRecord]:
    """The ruleset the record names (its ``rules_options``: length, players, sudden
    death, turns) on the scenario directory ``scenario`` (the shipped data if ``None``),
    and the record, checked (:class:`~hexwar.base.errors.RecordError` or
    :class:`~hexwar.base.errors.DataError` naming the file and entry: a record of another
    scenario is refused by its data digest)."""
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
    data = None if scenario is None else load_static(scenario)
    rules = StalingradRules.from_options(options, source=path, data=data)
    return rules, GameRecord.from_json(rules, raw, source=path)


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    rules, record = load_record(args.record, args.scenario)
    last = rules.turns
    if args.turn is not None and args.turn > last:
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
    print(f"6th Army encircled at {where}: {victory.encircled(state)}", file=out)
    print(f"RKKA ground unit in Stalingrad at {where}: {victory.rkka_in_city(state)}", file=out)
    if args.svg:
        title = f"Stalingrad, {where} (record {Path(args.record).name})"
        Path(args.svg).write_text(position_svg(state, title=title), encoding="utf-8")
        print(f"position at {where}: {args.svg}", file=out)
    return 0


def cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    data = load_static(args.scenario)
    table: OddsTable = data.air_crt if args.air else data.crt
    rule = "S10.5, nearest column" if args.air else "S8.2, rounded down"
    try:
        column = table.column_for(args.attack, args.defence)
        dist = table.distribution(args.attack, args.defence)
    except (AttackRefused, CombatError) as exc:
        print(f"no attack: {exc}", file=out)
        return 1
    print(f"{args.attack} vs {args.defence}: column {column} ({rule})", file=out)
    for result, p in dist:
        print(f"  {result.code:4s} {p!s:>5s}  {float(p) * 100:6.2f} %", file=out)
    return 0


def simulate(
    games: int,
    bots: tuple[str, str],
    length: str | int,
    seed: int = 0,
    workers: int = 1,
    err: TextIO | None = None,
    scenario: str | None = None,
) -> list[str | None]:
    """The winners of ``games`` games, game ``i`` played with seed ``seed + i`` (so the
    result does not depend on ``workers``), of the scenario directory ``scenario`` (the
    shipped data if ``None``): a :mod:`hexwar.study` run without a results file."""
    options: dict[str, str | int] = {"length": length}
    if scenario is not None:
        options["scenario"] = scenario
    plan = Plan(STUDY_GAME, (Cell(options, bots),), games, seed)
    done = run_study(plan, backend_for(workers), None, progress=err if err is not None else False)
    return [row["winner"] for row in sorted(done.rows, key=lambda r: r["seed"])]


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    names = tuple(args.bots.split(","))
    if len(names) != 2 or any(n not in BOTS for n in names):
        print(
            f"--bots takes two of {', '.join(BOTS)} (RKKA first), e.g. heuristic,random",
            file=sys.stderr,
        )
        return 2
    workers = args.workers or os.cpu_count() or 1
    start = time.perf_counter()
    winners = simulate(
        args.games, (names[0], names[1]), args.length, args.seed, workers, sys.stderr,
        args.scenario,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    print(
        f"{args.games} {args.length} games, rkka={names[0]} vs wehrmacht={names[1]}, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, {workers} workers, {elapsed:.1f} s",
        file=out,
    )
    for side in (*SIDES, None):
        wins = sum(1 for w in winners if w == side)
        lo, hi = wilson(wins, len(winners))
        name = side or "draw"
        rate = wins / len(winners) if winners else 0.0
        print(f"  {name:10s} {wins:5d}  {rate:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]", file=out)
    return 0


def _fraction(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a strength is not negative: {text!r}")
    return value


def _turn(text: str) -> int:
    """A turn of the track (S3.4): 1 to the long game's last turn."""
    value = at_least(1)(text)
    last = max(GAME_LENGTHS.values())
    if value > last:
        raise argparse.ArgumentTypeError(f"turn {value} is not on the track 1..{last} (S3.4)")
    return value


def _new_file(text: str) -> str:
    """A file to write: its folder must exist (nothing is created on the way)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {path.parent} does not exist")
    return text


def _out_folder(text: str) -> str:
    """An output folder: created if missing, but only inside a folder that exists."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a folder")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {path.parent} does not exist")
    return text


def _length(text: str) -> str | int:
    """A game length (S3.4): ``short``, ``long`` or a number of turns on the track."""
    if text in GAME_LENGTHS:
        return text
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: {' or '.join(sorted(GAME_LENGTHS))} or a number of turns"
        ) from None
    return _turn(str(value))


def _scenario_dir(text: str) -> str:
    """A scenario directory: it must exist (its files are checked when it is loaded)."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"no such scenario directory: {text}")
    return text


def _existing_file(text: str) -> str:
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return text


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``hexwar-stalingrad``: every argument is checked here,
    before any work (a bad one: usage message, exit status 2)."""
    p = argparse.ArgumentParser(
        prog="hexwar-stalingrad", description="«Сталинград» (Stalingrad 1942) on hexwar"
    )
    sub = p.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a seeded heuristic-vs-heuristic game")
    demo.add_argument("--seed", type=at_least(0), default=1)
    demo.add_argument(
        "--length", type=_length, default="long", help="short, long or a number of turns"
    )
    demo.add_argument(
        "--out", type=_out_folder, default="out", help="output folder (default ./out)"
    )
    mp = sub.add_parser("map", help="draw the theatre map with the start set-up as SVG")
    mp.add_argument(
        "--out", type=_new_file, default="docs/stalingrad/map.svg", help="the SVG file to write"
    )
    mp.add_argument("--no-units", action="store_true", help="the map without counters")
    mp.add_argument("--no-labels", action="store_true", help="no hex labels")
    rep = sub.add_parser("replay", help="replay and check a game record; draw a turn")
    rep.add_argument("record", type=_existing_file)
    rep.add_argument("--turn", type=_turn, default=None, help="stop at the end of this turn")
    rep.add_argument("--svg", type=_new_file, default=None, help="write the position as SVG")
    odds = sub.add_parser("odds", help="exact result probabilities on the CRT")
    odds.add_argument("attack", type=_fraction)
    odds.add_argument("defence", type=_fraction)
    odds.add_argument("--air", action="store_true", help="air combat: nearest column (S10.5)")
    sim = sub.add_parser("simulate", help="win rates of two bots over many games")
    sim.add_argument("--games", type=at_least(1, MAX_GAMES), default=20)
    sim.add_argument("--bots", default="heuristic,heuristic", help="RKKA,Wehrmacht")
    sim.add_argument(
        "--length", type=_length, default="short", help="short, long or a number of turns"
    )
    sim.add_argument("--seed", type=at_least(0), default=0)
    sim.add_argument(
        "--workers", type=at_least(0), default=0, help="processes (default: all cores)"
    )
    sub.add_parser("study", help="a balance study; study report RESULTS (docs/studies.md)")
    serve = sub.add_parser("serve", help="play in the browser (docs/web.md)")
    for command in (demo, mp, rep, odds, sim, serve):
        command.add_argument(
            "--scenario",
            type=_scenario_dir,
            default=None,
            metavar="DIR",
            help="a scenario directory (default: the shipped data)",
        )
    from hexwar.web.serve import add_arguments

    add_arguments(serve)
    return p


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """``serve``: «Сталинград» in the browser (:mod:`hexwar_stalingrad.web`)."""
    from hexwar.web.serve import run
    from hexwar_stalingrad.web import web_game

    return run([web_game(args.scenario)], args)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 1 an error — one
    ``error:`` line on stderr —, 2 bad arguments)."""
    stream = out if out is not None else sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["study"]:  # its own parser (hexwar.study.cli)
        from hexwar.study.cli import main as study

        flags = {"length": "short", "scenario": ""}
        prog = "python -m hexwar_stalingrad study"
        return study(argv[1:], prog=prog, game=STUDY_GAME, flags=flags,
                     default_bots="heuristic,heuristic", out=stream)  # fmt: skip
    args = parser().parse_args(argv)
    commands = {
        "map": cmd_map,
        "demo": cmd_demo,
        "replay": cmd_replay,
        "odds": cmd_odds,
        "simulate": cmd_simulate,
        "serve": cmd_serve,
    }
    try:
        return commands[args.command](args, stream)
    except (HexwarError, OSError) as exc:
        if isinstance(exc, BrokenPipeError):
            return quiet_broken_pipe()
        print(f"error: {exc}", file=sys.stderr)
        return 1


def quiet_broken_pipe() -> int:
    """The reader of stdout went away (``... | head``): stop quietly, as the Python docs
    advise (stdout pointed at devnull so the interpreter's final flush cannot fail)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):  # stdout is not a real file (a StringIO)
        os.dup2(devnull, sys.stdout.fileno())
    return 1
