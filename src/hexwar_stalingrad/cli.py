"""The command line: ``python -m hexwar_stalingrad`` (``hexwar-stalingrad``), the core's
:class:`hexwar.cli.GameCli` with «Сталинград»'s options, pictures and summary.

- ``demo``: a seeded heuristic-vs-heuristic game, a turn-by-turn summary, the game record
  (JSON) and an SVG of the final position;
- ``replay RECORD [--turn N --svg FILE]``: replay and check a record, draw any turn;
- ``map``: the theatre map with the start set-up as SVG;
- ``odds ATTACK DEFENCE [--air]``: the exact result probabilities on the CRT (S9.1, S10.5);
- ``study ...``, ``study report RESULTS``: a balance study (:mod:`hexwar.study`,
  ``docs/studies.md``): rows per game in a results file, a process pool or a Dask cluster,
  resumable; its Markdown report with plots;
- ``simulate --games N --bots A,B --length short|long|N``: win rates with Wilson
  intervals, all cores, deterministic per seed (a study without a results file);
- ``serve``: play in the browser (:mod:`hexwar_stalingrad.web`).

Every command takes ``--scenario DIR``: a scenario directory (``docs/stalingrad/variants.md``)
instead of the shipped data, loaded and checked before any game starts.

See ``docs/stalingrad/cli.md``.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Final, TextIO

from hexwar.base.errors import AttackRefused, CombatError
from hexwar.cli import GameCli, new_file
from hexwar.engine.actions import Action
from hexwar.engine.loop import Player
from hexwar.engine.state import Ruleset, State
from hexwar.mechanics.crt import OddsTable
from hexwar.web.games import WebGame
from hexwar_stalingrad import victory
from hexwar_stalingrad.board import SIDES
from hexwar_stalingrad.render import map_svg, position_svg
from hexwar_stalingrad.rules import GAME_LENGTHS, StalingradRules
from hexwar_stalingrad.static import load_static
from hexwar_stalingrad.study import GAME, steps

__all__ = ["CLI", "StalingradCli", "main", "make_bot", "simulate"]


def make_bot(name: str, seed: int) -> Player:
    """A bot by name (``heuristic``, or one every game has: ``random`` ...), seeded."""
    return GAME.bot(name, seed)


# -- summaries -----------------------------------------------------------------------------------


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
        now = {s: steps(state, s) for s in SIDES}
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


# -- the game's own commands ----------------------------------------------------------------


def _game_rules(length: str | int, scenario: str | None) -> StalingradRules:
    """The rules of a ``length`` game of the scenario directory (the shipped data if None)."""
    if scenario is None:
        return StalingradRules(length=length)
    return StalingradRules.from_scenario(scenario, length=length)


def cmd_map(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.out)  # its folder exists: checked with the arguments
    rules = _game_rules("long", args.scenario)
    svg = map_svg(units=not args.no_units, labels=not args.no_labels, rules=rules)
    path.write_text(svg, encoding="utf-8")
    print(f"map: {path}", file=out)
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
    shipped data if ``None``): :meth:`GameCli.simulate`."""
    options: dict[str, str | int] = {"length": length}
    if scenario is not None:
        options["scenario"] = scenario
    return CLI.simulate(options, bots, games, seed, workers, err)


def _fraction(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a strength is not negative: {text!r}")
    return value


def _scenario_dir(text: str) -> str:
    """A scenario directory: it must exist (its files are checked when it is loaded)."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"no such scenario directory: {text}")
    return text


def _scenario_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario",
        type=_scenario_dir,
        default=None,
        metavar="DIR",
        help="a scenario directory (default: the shipped data)",
    )


class StalingradCli(GameCli):
    """«Сталинград»'s command line: the core's commands with ``--length`` and
    ``--scenario``, the map and the odds beside them."""

    prog = "hexwar-stalingrad"
    description = "«Сталинград» (Stalingrad 1942) on hexwar"
    module = "hexwar_stalingrad"
    game = "hexwar_stalingrad.study:GAME"
    title = "«Сталинград»"
    stem = "stalingrad"
    picture_title = "Stalingrad"
    demo_bot = "heuristic"
    default_bots = "heuristic,heuristic"
    study_flags: ClassVar[Mapping[str, str]] = {"length": "short", "scenario": ""}
    serves = True

    def add_options(self, parser: argparse.ArgumentParser, command: str) -> None:
        if command in ("demo", "simulate"):
            default = "long" if command == "demo" else "short"
            parser.add_argument(
                "--length",
                type=self.length,
                default=default,
                help="short, long or a number of turns",
            )
        _scenario_option(parser)

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        options: dict[str, Any] = {"length": args.length}
        if args.scenario is not None:
            options["scenario"] = args.scenario
        return options

    def variant(self, args: argparse.Namespace) -> str | None:
        return str(args.length)

    def new_game(self, args: argparse.Namespace) -> State:
        return _game_rules(args.length, args.scenario).new_state(options={"length": args.length})

    def record_rules(
        self, options: Mapping[str, Any], source: str, args: argparse.Namespace
    ) -> Ruleset:
        """The record's length, players, sudden death and turns on the scenario directory
        ``--scenario`` (a record of another scenario is refused by its data digest)."""
        data = None if args.scenario is None else load_static(args.scenario)
        return StalingradRules.from_options(options, source=source, data=data)

    def last_turn(self, rules: Ruleset) -> int | None:
        assert isinstance(rules, StalingradRules)
        return rules.turns

    def turn(self, text: str) -> int:
        """A turn of the track (S3.4): 1 to the long game's last turn."""
        value = super().turn(text)
        last = max(GAME_LENGTHS.values())
        if value > last:
            raise argparse.ArgumentTypeError(f"turn {value} is not on the track 1..{last} (S3.4)")
        return value

    def length(self, text: str) -> str | int:
        """A game length (S3.4): ``short``, ``long`` or a number of turns on the track."""
        if text in GAME_LENGTHS:
            return text
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r}: {' or '.join(sorted(GAME_LENGTHS))} or a number of turns"
            ) from None
        return self.turn(str(value))

    def picture(self, state: State, title: str) -> str | None:
        return position_svg(state, title=title)

    def report(self, state: State, where: str, out: TextIO) -> None:
        print(f"6th Army encircled at {where}: {victory.encircled(state)}", file=out)
        in_city = victory.rkka_in_city(state)
        print(f"RKKA ground unit in Stalingrad at {where}: {in_city}", file=out)

    def summary(self, out: TextIO) -> _Summary:
        return _Summary(out)

    def web_game(self, args: argparse.Namespace) -> WebGame:
        from hexwar_stalingrad.web import web_game

        return web_game(args.scenario)

    def add_commands(self, sub: Any) -> list[argparse.ArgumentParser]:
        mp = sub.add_parser("map", help="draw the theatre map with the start set-up as SVG")
        mp.add_argument(
            "--out", type=new_file, default="docs/stalingrad/map.svg", help="the SVG file to write"
        )
        mp.add_argument("--no-units", action="store_true", help="the map without counters")
        mp.add_argument("--no-labels", action="store_true", help="no hex labels")
        odds = sub.add_parser("odds", help="exact result probabilities on the CRT")
        odds.add_argument("attack", type=_fraction)
        odds.add_argument("defence", type=_fraction)
        odds.add_argument("--air", action="store_true", help="air combat: nearest column (S10.5)")
        for command, run in ((mp, cmd_map), (odds, cmd_odds)):
            _scenario_option(command)
            command.set_defaults(run=run)
        return [mp, odds]


#: The command line's one object.
CLI: Final = StalingradCli()


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 1 an error — one
    ``error:`` line on stderr —, 2 bad arguments)."""
    return CLI.main(argv, out)
