"""One game being played on the server: seats, secret tokens, bots, the save file.

A :class:`Session` holds a :class:`~hexwar.engine.state.State` and applies to it only
what the engine says is legal (``state.apply``, checked token by token); everything a
seat may see comes from ``state.observation(side)``. It knows no HTTP: the Starlette app
(:mod:`hexwar.web.app`) turns its :class:`~hexwar.base.errors.RequestRefused` into 4xx
answers.

Saved after every action as JSON (:mod:`hexwar.web.saves` loads it back), so a restart
loses nothing. Chance events are drawn by a :class:`~hexwar.engine.dice.SeededDriver`
seeded from the game's seed and the number of actions so far, so they do not depend on
when the server was restarted.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from hexwar.base.errors import HexwarError, IllegalAction, RequestRefused
from hexwar.engine.actions import CHANCE, TERMINAL, Action
from hexwar.engine.dice import SeededDriver
from hexwar.engine.fileformat import position_digest
from hexwar.engine.loop import Player
from hexwar.engine.space import DONE
from hexwar.engine.state import State
from hexwar.web.bots import BotJob, HintJob
from hexwar.web.clicks import first_step, toggled
from hexwar.web.drawn import BoardCache
from hexwar.web.games import WebGame
from hexwar.web.seats import HUMAN, SeatPlan, derived_seed, seat_plans, token_digest
from hexwar.web.views import units_at

__all__ = ["Session"]

SAVE_FORMAT: Final = "hexwar-web-game"
SAVE_VERSION: Final = 1
_MAX_PREFIX: Final = 64


class Session(BoardCache):
    """A game on the server (build one with :meth:`create` or :meth:`load`)."""

    def __init__(
        self,
        game_id: str,
        game: WebGame,
        options: Mapping[str, str],
        seed: int,
        seats: Mapping[str, SeatPlan],
        path: Path | None,
    ) -> None:
        self.id = game_id
        self.game = game
        self.options = dict(options)
        self.seed = seed
        self.seats = dict(seats)
        self.path = path
        self.ruleset = game.ruleset(self.options)
        self.state: State = self.ruleset.new_state(game.scenario)
        self.lock = threading.RLock()
        self._running = threading.Lock()
        self._bots: dict[str, Player] = {}
        #: Who applied each action: a human seat's name, else ``None`` (bots, chance).
        self.by: list[str | None] = []
        #: The human seats asking to take back their side's last move, and the
        #: number of actions when they asked (a new action cancels the requests).
        self.undo_asked: set[str] = set()
        self.undo_at = 0
        self._drawn: dict[str | None, tuple[tuple[int, str], str | None]] = {}
        #: The indices (in the history) of the chance events: the dice shown as rolled.
        self.chance: set[int] = set()
        #: What the game's table made of each roll, by its index (``WebGame.roll_result``).
        self.results: dict[int, str] = {}
        #: Called (from any thread) after every change: the live pages' wake-up calls.
        self.listeners: list[Callable[[], None]] = []
        #: Seconds between two bot or chance actions in a game without a human seat to
        #: act (so that a bots' game can be watched live); 0: at once.
        self.pace = 0.0

    # -- making and keeping -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: WebGame,
        options: Mapping[str, str],
        players: Mapping[str, str],
        *,
        seed: int | None = None,
        directory: Path | None = None,
    ) -> tuple[Session, dict[str, str]]:
        """A new game and the secret token of each human seat. ``players`` maps each seat
        to ``"human"`` or a bot's name (a seat left out is human)."""
        try:
            ruleset = game.ruleset(options)
        except (ValueError, HexwarError) as exc:
            raise RequestRefused(400, str(exc)) from None
        plans, tokens = seat_plans(game, ruleset.seats(), players)
        game_id = secrets.token_hex(6)
        path = None if directory is None else directory / f"{game_id}.json"
        try:
            session = cls(
                game_id,
                game,
                options,
                secrets.randbits(48) if seed is None else seed,
                plans,
                path,
            )
        except (ValueError, HexwarError) as exc:  # the scenario's set-up refused
            raise RequestRefused(400, f"cannot set up {game.name}: {exc}") from None
        session.save()
        return session, tokens

    def to_data(self) -> dict[str, Any]:
        """The save file's content."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "id": self.id,
            "game": self.game.name,
            "options": dict(sorted(self.options.items())),
            "seed": self.seed,
            "data_digest": self.ruleset.data_digest(),
            "seats": [
                {"name": n, "player": p.player, "token_sha256": p.token_sha256}
                for n, p in sorted(self.seats.items())
            ],
            "actions": [str(a) for a in self.state.history],
            "by": list(self.by),
        }

    def changed(self) -> None:
        """Tell every live page that the game changed."""
        for call in list(self.listeners):
            call()

    def save(self) -> None:
        """Write the save file (atomically: a crash leaves the old or the new one) and
        tell the live pages."""
        self.changed()
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_data(), indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)

    # -- who may do what ----------------------------------------------------------------

    def authorise(self, seat: str, token: str | None) -> SeatPlan:
        """The seat, if ``token`` is its secret (else :class:`RequestRefused` 403/404)."""
        plan = self.seats.get(seat)
        if plan is None:
            raise RequestRefused(404, f"no seat {seat!r} in this game; seats: {sorted(self.seats)}")
        if plan.token_sha256 is None:
            raise RequestRefused(403, f"seat {seat} is played by the {plan.player} bot")
        if not token or not hmac.compare_digest(token_digest(token), plan.token_sha256):
            raise RequestRefused(403, f"wrong or missing token for seat {seat}")
        return plan

    def acting_seats(self) -> list[SeatPlan]:
        """The seats of the side to act (none at a chance node or the end)."""
        side = self.state.current_player()
        if side in (CHANCE, TERMINAL):
            return []
        return [p for _, p in sorted(self.seats.items()) if p.seat.side == side]

    def humans_to_act(self) -> bool:
        """Whether the game waits for a human seat."""
        return any(p.player == HUMAN for p in self.acting_seats())

    def _must_act(self, plan: SeatPlan) -> None:
        if self.state.is_terminal():
            raise RequestRefused(409, f"the game is over: {self.state.outcome}")
        side = self.state.current_player()
        if side == CHANCE:
            raise RequestRefused(409, "a chance event is being resolved; try again")
        if plan.seat.side != side:
            raise RequestRefused(
                409, f"it is {side}'s decision, not {plan.seat.side}'s (seat {plan.seat.name})"
            )

    # -- acting ---------------------------------------------------------------------------

    @staticmethod
    def _prefix(raw: object) -> tuple[str, ...]:
        if not isinstance(raw, Sequence) or isinstance(raw, str):
            raise RequestRefused(400, "a prefix is a list of tokens")
        if len(raw) > _MAX_PREFIX or not all(isinstance(t, str) and t for t in raw):
            raise RequestRefused(400, f"a prefix is at most {_MAX_PREFIX} non-empty strings")
        return tuple(raw)

    def tokens(self, plan: SeatPlan, raw_prefix: object) -> tuple[str, ...]:
        """The legal tokens after ``prefix`` for ``plan``'s seat (409 if not its turn or
        the prefix is not legal)."""
        prefix = self._prefix(raw_prefix)
        with self.lock:
            self._must_act(plan)
            found = self.state.legal_tokens(prefix)
            if not found:
                raise RequestRefused(409, self._why(prefix), self._rule(prefix))
            return found

    def _explain(self, tokens: tuple[str, ...]) -> tuple[str, str | None]:
        if not tokens:
            return "no action is legal now", None
        try:
            action = Action(tokens[0], tokens[1:])
        except HexwarError:  # not even an action's shape (a hex where a kind goes)
            offered = ", ".join(self.state.legal_tokens(()))
            return f"no action starts with `{tokens[0]}` (offered: {offered})", None
        return self.ruleset.explain(self.state, action)

    def _why(self, tokens: tuple[str, ...]) -> str:
        reason, rule = self._explain(tokens)
        return reason if rule is None or reason.startswith(rule) else f"{rule}: {reason}"

    def _rule(self, tokens: tuple[str, ...]) -> str | None:
        return self._explain(tokens)[1]

    def preview(self, plan: SeatPlan, raw_prefix: object) -> str | None:
        """The game's preview line for the action being built (``None``: none)."""
        prefix = self._prefix(raw_prefix)
        if self.game.preview is None or not prefix:
            return None
        with self.lock:
            self._must_act(plan)
            if not self.state.legal_tokens(prefix):
                return None
            before = position_digest(self.state)
            line = self.game.preview(self.state, prefix)
            assert position_digest(self.state) == before, "a preview must only read the state"
            return line

    def act(self, plan: SeatPlan, raw_tokens: object) -> Action:
        """Apply the action whose tokens are ``raw_tokens`` (``done`` not included) for
        ``plan``'s seat; illegal: :class:`RequestRefused` 409 with the rules' reason, nothing
        changed."""
        tokens = self._prefix(raw_tokens)
        if not tokens:
            raise RequestRefused(400, "an action has at least one token")
        if DONE in tokens:
            raise RequestRefused(400, f"`{DONE}` ends an action; leave it out")
        try:
            action = Action(tokens[0], tokens[1:])
        except HexwarError as exc:
            raise RequestRefused(400, str(exc)) from None
        with self.lock:
            self._must_act(plan)
            if plan.seat.tags and action not in self.state.legal_actions(plan.seat.name):
                why = f"seat {plan.seat.name} does not control `{action}`"
                raise RequestRefused(409, why, "S3.1")
            try:
                self.state.apply(action)
            except IllegalAction as exc:
                raise RequestRefused(409, str(exc), exc.rule) from None
            self.by.append(plan.seat.name)
            self.save()
        return action

    def click(self, plan: SeatPlan, raw_prefix: object, label: object) -> tuple[str, ...]:
        """The prefix after a click on the hex ``label`` with ``prefix`` chosen so far
        (:mod:`hexwar.web.clicks`: the hex, a unit there added or toggled off, or a fresh
        action). 409 with the rules' reason when the click means nothing legal."""
        prefix = self._prefix(raw_prefix)
        if not isinstance(label, str) or not label or len(label) > 100:
            raise RequestRefused(400, "a click names a hex label")
        with self.lock:
            self._must_act(plan)
            state = self.state
            legal = state.legal_tokens(prefix)
            if prefix and not legal:
                raise RequestRefused(409, self._why(prefix), self._rule(prefix))
            if label in legal:
                return (*prefix, label)
            # the counter drawn last is on top: a click means it first
            units = self.units_at(plan.seat.side).get(label, [])[::-1]
            for unit in units:
                if unit in legal:
                    return (*prefix, unit)
            for unit in units if prefix else ():
                found = toggled(state.legal_tokens, prefix, unit)
                if found is not None:
                    return found
            fresh = first_step(state, units, label, self.game.unit_kinds)
            if fresh is not None:
                return fresh
            if prefix:
                attempt = (*prefix, label)
                raise RequestRefused(409, self._why(attempt), self._rule(attempt))
            if units:
                units_there = ", ".join(units)
                raise RequestRefused(409, f"no action may start with {units_there} at {label} now")
            raise RequestRefused(409, f"nothing to do at {label} now")

    def humans(self) -> list[str]:
        """The human seats' names, sorted."""
        return sorted(n for n, p in self.seats.items() if p.player == HUMAN)

    def ask_undo(self, plan: SeatPlan) -> int:
        """``plan``'s seat asks to take back the last action a human seat applied (and the
        bots' actions after it). Done once every human seat has asked at the same position;
        returns the number of actions taken back (0: still waiting).

        **Undo stops at the last chance event**: an action followed by a chance event (a
        roll, a draw) cannot be taken back, so a roll once seen is never replayed on
        another choice (the dice are drawn from the game's seed and the number of actions:
        taking an attack back would otherwise tell the next attack's roll). 409 then."""
        with self.lock:
            n = len(self.state.history)
            if self.undo_at != n:
                self.undo_asked, self.undo_at = set(), n
            last = max((i for i, b in enumerate(self.by) if b is not None), default=None)
            if last is None:
                raise RequestRefused(409, "no human action to take back")
            rolled = [i for i in self.chance if i > last]
            if rolled:
                raise RequestRefused(
                    409,
                    f"the dice were rolled after that action (action {min(rolled) + 1}): "
                    "undo stops at the last chance event",
                )
            self.undo_asked.add(plan.seat.name)
            if self.undo_asked != set(self.humans()):
                self.changed()
                return 0
            for _ in range(n - last):
                self.state.undo()
            del self.by[last:]
            self.undo_asked, self.undo_at = set(), len(self.state.history)
            self._bots = {}  # their plans were for the position taken back
            self.save()
            return n - last

    # -- bots and chance ------------------------------------------------------------------

    def _bot(self, plan: SeatPlan) -> Player:
        bot = self._bots.get(plan.seat.name)
        if bot is None:
            made = self.game.bots[plan.player]
            bot = made(derived_seed(self.seed, plan.seat.name, len(self.state.history)))
            self._bots[plan.seat.name] = bot
        return bot

    def step(self) -> bool:
        """One chance event or bot action, if the game waits for one; ``False`` if it
        waits for a human or is over."""
        with self.lock:
            state = self.state
            if state.is_terminal():
                return False
            if state.is_chance_node():
                driver = SeededDriver(derived_seed(self.seed, "chance", len(state.history)))
                action = driver.pick(state.chance_outcomes())
                self.note_chance(action)
            else:
                seats = self.acting_seats()
                if not seats or any(p.player == HUMAN for p in seats):
                    return False
                action = self._bot(seats[0])(state)
            state.apply(action)
            self.by.append(None)
            self.save()
            return True

    def note_chance(self, action: Action) -> None:
        """Before ``action`` (the chance event's outcome) is applied: mark it as a chance
        event and keep what the game's table makes of it (``WebGame.roll_result``)."""
        n = len(self.state.history)
        self.chance.add(n)
        decision = self.state.pending[-1] if self.state.pending else None
        if self.game.roll_result is not None and decision is not None and not decision.private:
            found = self.game.roll_result(self.state, action)
            if found:
                self.results[n] = found

    def next_job(self) -> BotJob | bool | None:
        """For the server's bot runner: play a chance event here (``True``), or the job
        of the bot to act (its worker picks the action: :meth:`apply_bot`), or ``None``
        when the game is over or waits for a human."""
        with self.lock:
            state = self.state
            if state.is_terminal():
                return None
            if state.is_chance_node():
                return self.step()
            seats = self.acting_seats()
            if not seats or any(p.player == HUMAN for p in seats):
                return None
            return BotJob(
                self.id,
                self.game.name,
                tuple(sorted(self.options.items())),
                self.seed,
                tuple(str(a) for a in state.history),
                seats[0].seat.name,
                seats[0].player,
            )

    def hint_job(self, plan: SeatPlan) -> HintJob:
        """The job of a search's advice to ``plan``'s seat, whose side must be to act
        (else :class:`RequestRefused` 409)."""
        with self.lock:
            self._must_act(plan)
            return HintJob(
                self.id,
                self.game.name,
                tuple(sorted(self.options.items())),
                self.seed,
                tuple(str(a) for a in self.state.history),
                plan.seat.name,
            )

    def apply_bot(self, job: BotJob, text: str) -> bool:
        """Apply the action ``text`` a worker's bot picked for ``job`` (already checked
        there against the same position); ``False`` (nothing done) if the game moved on
        meanwhile (an undo)."""
        with self.lock:
            if len(self.state.history) != len(job.actions) or self.state.is_chance_node():
                return False
            if [str(a) for a in self.state.history[-3:]] != list(job.actions[-3:]):
                return False
            self.state.apply_unchecked(Action.parse(text))
            self.by.append(None)
            self.save()
            return True

    def waiting(self) -> bool:
        """Whether the game is over or waits for a human (no bot or chance to play)."""
        with self.lock:
            return self.state.is_terminal() or (
                not self.state.is_chance_node() and self.humans_to_act()
            )

    def advance(self, max_steps: int = 1_000_000) -> int:
        """Play chance events and bots until a human is to act or the game ends; the
        number of actions taken (0 at once if another thread is advancing this game)."""
        if not self._running.acquire(blocking=False):
            return 0
        try:
            n = 0
            while n < max_steps and self.step():
                n += 1
                if self.pace and not self.state.is_terminal() and not self.humans():
                    time.sleep(self.pace)
            return n
        finally:
            self._running.release()

    # -- what a seat sees -----------------------------------------------------------------

    def units_at(self, side: str | None) -> dict[str, list[str]]:
        """Hex label -> the unit tokens drawn there, as ``side`` sees the board."""
        return units_at(self.game, self.state, side)
