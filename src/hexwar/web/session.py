"""One game being played on the server: seats, secret tokens, bots, the save file.

A :class:`Session` holds a :class:`~hexwar.engine.state.State` and applies to it only
what the engine says is legal (``state.apply``, checked token by token); everything a
seat may see comes from ``state.observation(side)``. It knows no HTTP: the Starlette app
(:mod:`hexwar.web.app`) turns its :class:`~hexwar.base.errors.RequestRefused` into 4xx
answers.

Saved after every action as JSON (the game's name, its options, the seed, the seats with
the SHA-256 of their tokens, the actions' text forms): loading replays the actions
through ``state.apply``, so a restart loses nothing and an edited file that breaks a
rule is refused. Chance events are drawn by a :class:`~hexwar.engine.dice.SeededDriver`
seeded from the game's seed and the number of actions so far, so they do not depend on
when the server was restarted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.errors import HexwarError, IllegalAction, RequestRefused
from hexwar.engine.actions import CHANCE, TERMINAL, Action, Seat
from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import Player
from hexwar.engine.records import position_digest, record_of
from hexwar.engine.space import DONE
from hexwar.engine.state import HIDDEN, State
from hexwar.render import render_svg
from hexwar.web.games import WebGame

__all__ = ["HUMAN", "SPECTATOR", "Session", "load_sessions"]

#: The "player" of a seat played through its URL.
HUMAN: Final = "human"
#: The observer whose observation is what every side may know.
SPECTATOR: Final = "*spectator*"
SAVE_FORMAT: Final = "hexwar-web-game"
SAVE_VERSION: Final = 1
_LOG_SHOWN: Final = 60
_MAX_PREFIX: Final = 64
_ID: Final = re.compile(r"^[0-9a-f]{12}$")
_CELL_ATTR: Final = re.compile(r'data-cell="([^"]*)"')


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _mix(seed: int, *parts: object) -> int:
    """A seed derived from ``seed`` and ``parts`` (stable across processes)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


@attrs.define
class SeatPlan:
    """A seat of a session: its engine seat, who plays it and its token's digest."""

    seat: Seat
    player: str
    token_sha256: str | None = None


class Session:
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
        self._drawn: dict[tuple[int, str | None], str | None] = {}

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
        engine_seats = {s.name: s for s in ruleset.seats()}
        unknown = sorted(set(players) - set(engine_seats))
        if unknown:
            raise RequestRefused(400, f"no seat {unknown[0]!r}; seats: {sorted(engine_seats)}")
        plans: dict[str, SeatPlan] = {}
        tokens: dict[str, str] = {}
        for name, seat in engine_seats.items():
            player = players.get(name, HUMAN)
            if player != HUMAN and player not in game.bots:
                raise RequestRefused(
                    400, f"seat {name}: {player!r} is neither human nor a bot ({sorted(game.bots)})"
                )
            plan = SeatPlan(seat, player)
            if player == HUMAN:
                tokens[name] = secrets.token_urlsafe(18)
                plan.token_sha256 = _digest(tokens[name])
            plans[name] = plan
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

    def save(self) -> None:
        """Write the save file (atomically: a crash leaves the old or the new one)."""
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_data(), indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)

    @classmethod
    def load(cls, path: Path, games: Mapping[str, WebGame]) -> Session:
        """A saved game, its actions replayed through the rules (``HexwarError`` or
        ``ValueError`` for a file that is not one of our saves or breaks a rule)."""
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"{path}: not a {SAVE_FORMAT} file")
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"{path}: save version {data.get('version')!r}, not {SAVE_VERSION}")
        name = data["game"]
        if name not in games:
            raise ValueError(f"{path}: game {name!r} is not served here")
        game = games[name]
        game_id = data["id"]
        if not isinstance(game_id, str) or not _ID.match(game_id):
            raise ValueError(f"{path}: bad game id {game_id!r}")
        ruleset = game.ruleset(data["options"])
        engine_seats = {s.name: s for s in ruleset.seats()}
        plans = {
            s["name"]: SeatPlan(engine_seats[s["name"]], s["player"], s["token_sha256"])
            for s in data["seats"]
        }
        if data.get("data_digest", ruleset.data_digest()) != ruleset.data_digest():
            raise ValueError(f"{path}: saved with other game data (another scenario?)")
        session = cls(game_id, game, data["options"], int(data["seed"]), plans, path)
        for text in data["actions"]:
            session.state.apply(Action.parse(text))
        by = data.get("by", [None] * len(data["actions"]))
        if not isinstance(by, list) or len(by) != len(data["actions"]):
            raise ValueError(f"{path}: `by` must list who applied each action")
        if not all(b is None or (isinstance(b, str) and b in plans) for b in by):
            raise ValueError(f"{path}: `by` names a seat this game does not have")
        session.by = by
        return session

    # -- who may do what ----------------------------------------------------------------

    def authorise(self, seat: str, token: str | None) -> SeatPlan:
        """The seat, if ``token`` is its secret (else :class:`RequestRefused` 403/404)."""
        plan = self.seats.get(seat)
        if plan is None:
            raise RequestRefused(404, f"no seat {seat!r} in this game; seats: {sorted(self.seats)}")
        if plan.token_sha256 is None:
            raise RequestRefused(403, f"seat {seat} is played by the {plan.player} bot")
        if not token or not hmac.compare_digest(_digest(token), plan.token_sha256):
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
        """The prefix after a click on the hex ``label`` with ``prefix`` chosen so far:
        the hex itself if it is a legal next token, else a unit of the seat's side there
        that is (after ``prefix``, or starting one of the game's ``unit_kinds``). 409 with
        the rules' reason when the click means nothing legal."""
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
            units = self.units_at(plan.seat.side).get(label, [])
            for unit in units:
                if unit in legal:
                    return (*prefix, unit)
            first = state.legal_tokens(())
            kinds = [k for k in self.game.unit_kinds if k in first]
            kinds += [k for k in first if k not in kinds]
            for unit in units:
                for kind in kinds:
                    if unit in state.legal_tokens((kind,)):
                        return (kind, unit)
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
        bots' and chance's actions after it). Done once every human seat has asked at the
        same position; returns the number of actions taken back (0: still waiting).
        Chance events are drawn from the number of actions, so the same dice come again."""
        with self.lock:
            n = len(self.state.history)
            if self.undo_at != n:
                self.undo_asked, self.undo_at = set(), n
            last = max((i for i, b in enumerate(self.by) if b is not None), default=None)
            if last is None:
                raise RequestRefused(409, "no human action to take back")
            self.undo_asked.add(plan.seat.name)
            if self.undo_asked != set(self.humans()):
                return 0
            for _ in range(n - last):
                self.state.undo()
            del self.by[last:]
            self.undo_asked, self.undo_at = set(), len(self.state.history)
            self._bots = {}  # their plans were for the position taken back
            self._drawn = {}
            self.save()
            return n - last

    # -- bots and chance ------------------------------------------------------------------

    def _bot(self, plan: SeatPlan) -> Player:
        bot = self._bots.get(plan.seat.name)
        if bot is None:
            made = self.game.bots[plan.player]
            bot = made(_mix(self.seed, plan.seat.name, len(self.state.history)))
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
                driver = SeededDriver(_mix(self.seed, "chance", len(state.history)))
                action = driver.pick(state.chance_outcomes())
            else:
                seats = self.acting_seats()
                if not seats or any(p.player == HUMAN for p in seats):
                    return False
                action = self._bot(seats[0])(state)
            state.apply(action)
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
            return n
        finally:
            self._running.release()

    # -- what a seat sees -----------------------------------------------------------------

    def units_at(self, side: str | None) -> dict[str, list[str]]:
        """Hex label -> the unit tokens drawn there, as ``side`` sees the board."""
        view = None if self.game.board is None else self.game.board(self.state, side)
        out: dict[str, list[str]] = {}
        if view is None:
            return out
        for unit, cv in view.counters:
            if unit is not None:
                out.setdefault(view.game_map.label(cv.cell), []).append(unit)
        return out

    def board_svg(self, side: str | None) -> str | None:
        """The board as ``side`` sees it, each cell and counter tagged ``data-label``
        (drawn once per position and side: every page polling it shares the drawing)."""
        key = (len(self.state.history), side)
        if key not in self._drawn:
            self._drawn = {key: self.draw(self.game, self.state, side)} | {
                k: v for k, v in self._drawn.items() if k[0] == key[0]
            }
        return self._drawn[key]

    @staticmethod
    def draw(game: WebGame, state: State, side: str | None) -> str | None:
        """``game``'s board of ``state`` as ``side`` sees it (``None``: no board), each
        cell and counter tagged ``data-label`` (its hex label, the token it stands for)."""
        view = None if game.board is None else game.board(state, side)
        if view is None:
            return None
        game_map = view.game_map
        labels = {repr(c): game_map.label(c) for c in game_map.indexed_cells()}
        svg = render_svg(
            game_map,
            counters=[cv for _, cv in view.counters],
            style=view.style,
            labels=view.labels,
        )

        def tag(m: re.Match[str]) -> str:
            label = labels.get(m.group(1))
            return m.group(0) if label is None else f'{m.group(0)} data-label="{label}"'

        return _CELL_ATTR.sub(tag, str(svg))

    def secrets_of(self, side: str) -> dict[str, dict[str, Any]]:
        """The entries ``side`` sees that some other side does not (its hidden information)."""
        mine = self.state.observation(side)["tables"]
        others = [self.state.observation(s)["tables"] for s in self.ruleset.sides if s != side]
        out: dict[str, dict[str, Any]] = {}
        for table, entries in mine.items():
            for key, value in entries.items():
                if value == HIDDEN:
                    continue
                if any(o.get(table, {}).get(key, HIDDEN) == HIDDEN for o in others):
                    out.setdefault(table, {})[key] = value
        return out

    def view(self, plan: SeatPlan | None, since: int | None = None) -> dict[str, Any]:
        """What the page of ``plan``'s seat (``None``: a spectator) shows, as JSON data;
        ``since``: the version the page shows (unchanged: only ``version`` is sent)."""
        with self.lock:
            state = self.state
            if since == len(state.history) and not self.undo_asked:
                return {"version": since, "unchanged": True}
            side = SPECTATOR if plan is None else plan.seat.side
            obs = state.observation(side)
            mine = (
                plan is not None
                and not state.is_terminal()
                and (state.current_player() == plan.seat.side)
            )
            history = obs["history"]
            return {
                "id": self.id,
                "game": self.game.name,
                "title": self.game.title,
                "options": self.options,
                "seat": None if plan is None else plan.seat.name,
                "side": None if plan is None else plan.seat.side,
                "version": len(history),
                "turn": obs["turn"],
                "stage": obs["stage"],
                "phase": obs["phase"],
                "to_act": obs["to_act"],
                "decision": obs["decision"],
                "your_turn": mine,
                "outcome": obs["outcome"],
                "seats": [
                    {"name": n, "side": p.seat.side, "player": p.player}
                    for n, p in sorted(self.seats.items())
                ],
                "secrets": {} if plan is None else self.secrets_of(plan.seat.side),
                "undo_asked": sorted(self.undo_asked) if self.undo_at == len(history) else [],
                "log": list(enumerate(history))[-_LOG_SHOWN:],
                "tokens": list(state.legal_tokens(())) if mine else [],
                "board": self.board_svg(None if plan is None else plan.seat.side),
                "units": self.units_at(None if plan is None else plan.seat.side),
            }

    def record_json(self) -> str:
        """The game record (:class:`~hexwar.engine.records.GameRecord`) as JSON; only when
        the game is over (before that it would tell the decks and every hidden plan)."""
        with self.lock:
            if not self.state.is_terminal():
                raise RequestRefused(
                    409,
                    "the record holds every hidden thing (decks, plans); "
                    "it can be downloaded once the game is over",
                )
            return record_of(self.state, seed=self.seed).to_json()


def load_sessions(directory: Path, games: Mapping[str, WebGame]) -> dict[str, Session]:
    """Every saved game in ``directory``; a file that fails to load raises ``ValueError``
    naming it (the server does not start over a save it cannot trust)."""
    out = {}
    for path in sorted(directory.glob("*.json")):
        try:
            session = Session.load(path, games)
        except (HexwarError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: cannot load this saved game: {exc}") from None
        out[session.id] = session
    return out
