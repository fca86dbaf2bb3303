"""Replays: step through a finished game, or any record file, position by position.

A :class:`Replay` holds the record's game replayed to its end (checked by
:func:`~hexwar.engine.records.replay`: an altered record is refused) and moves a cursor
with ``state.undo()`` and ``apply_unchecked`` — each step is the exact position after
that many actions. The whole record is public by then, so a replay shows every table.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from typing import Any

from hexwar.base.errors import HexwarError, RequestRefused
from hexwar.engine.actions import Action
from hexwar.engine.records import GameRecord, replay
from hexwar.engine.state import State
from hexwar.web.games import WebGame
from hexwar.web.views import draw

__all__ = ["Replay", "load_record"]


class Replay:
    """A game record and a cursor on its positions (``0`` .. ``len(actions)``)."""

    def __init__(self, game: WebGame, options: Mapping[str, str], record: GameRecord) -> None:
        self.game = game
        self.options = dict(options)
        self.record = record
        self.ruleset = game.ruleset(self.options)
        self.actions = tuple(Action.parse(a) for a in record.actions)
        self.state: State = replay(self.ruleset, record)
        self.step = len(self.actions)
        self.lock = threading.Lock()
        self.turns = self._turn_starts()

    def _turn_starts(self) -> list[tuple[int, int]]:
        """``(turn, first step in it)`` for each turn (for the turn slider)."""
        again = self.ruleset.new_state(self.record.scenario, dict(self.record.options))
        out = [(again.turn, 0)]
        for n, action in enumerate(self.actions, 1):
            again.apply_unchecked(action)
            if again.turn != out[-1][0]:
                out.append((again.turn, n))
        return out

    def seek(self, step: int) -> State:
        """The position after ``step`` actions (clamped to the record)."""
        step = max(0, min(step, len(self.actions)))
        while self.step > step:
            self.state.undo()
            self.step -= 1
        while self.step < step:
            self.state.apply_unchecked(self.actions[self.step])
            self.step += 1
        return self.state

    def view(self, step: int) -> dict[str, Any]:
        """The page's data at ``step``: status, board, the log up to there."""
        with self.lock:
            state = self.seek(step)
            board = draw(self.game, state, None)
            outcome = state.outcome
            return {
                "step": self.step,
                "steps": len(self.actions),
                "turns": self.turns,
                "turn": state.turn,
                "stage": state.stage,
                "phase": state.phase,
                "to_act": state.current_player(),
                "outcome": None if outcome is None else [outcome.winner, outcome.reason],
                "log": list(enumerate(self.record.actions[: self.step]))[-60:],
                "board": board,
            }


def load_record(games: Mapping[str, WebGame], text: str | bytes) -> Replay:
    """The replay of a record file for one of ``games`` (tried with each combination of
    the game's options until its ruleset accepts the record); :class:`RequestRefused` 400 when
    no game served here can replay it, with the last reason."""
    last = "no game served here plays this record"
    for game in games.values():
        names = list(game.options)
        for combo in itertools.product(*(game.options[n] for n in names)):
            options = dict(zip(names, combo, strict=True))
            ruleset = game.ruleset(options)
            try:
                record = GameRecord.from_json(ruleset, text, source="<upload>")
                if record.scenario != game.scenario:
                    raise RequestRefused(400, f"scenario {record.scenario!r} is not served here")
                return Replay(game, options, record)
            except HexwarError as exc:
                last = str(exc)
    raise RequestRefused(400, last)
