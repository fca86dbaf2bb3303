"""Any ruleset as a game of integer actions: one token = one action (no framework needed).

A :class:`TokenGame` wraps a :class:`~hexwar.engine.state.Ruleset`; its states
(:class:`TokenState`) are a hexwar :class:`~hexwar.engine.state.State` plus the tokens
chosen so far for the action being built (the *prefix*) and, for a side with several
seats, which seat's turn it is. So:

- an integer action is a token id of the ruleset's action space
  (:attr:`~hexwar.engine.state.Ruleset.space`): a stable meaning (``move``, a unit, a hex,
  ``done``) for any game, with no per-game code; a complete game action takes several
  steps, and the prefix is part of the observation;
- a chance node picks one token too, with the exact probability (conditional on the
  prefix) that an outcome starting with it has; so the most chance outcomes is the
  space's size;
- a token that is the only legal one is taken at once (``collapse``): it is no decision
  (``done`` after a complete ``move U H``, a certain chance token such as ``roll``);
- players are the ruleset's seats (:meth:`~hexwar.engine.state.Ruleset.seats`, 2 to 6 of
  them). A decision goes to the first seat (in seat order) that controls one of its
  answers. Within a phase the seats of the side act in seat order: each acts until it
  takes ``end``, which hands the phase to the next seat of the side; the last seat's
  ``end`` ends the phase. A seat is offered only the actions it controls
  (:meth:`~hexwar.engine.state.State.legal_actions` with the seat), and skipped when it
  controls none.

Player ids follow OpenSpiel: seats ``0 .. n - 1``, :data:`CHANCE_PLAYER` (``-1``),
:data:`TERMINAL_PLAYER` (``-4``).

>>> from hexwar.engine.registry import make
>>> game = TokenGame(make("stalingrad-short"))
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.chance_outcomes())      # the decks are shuffled
(-1, 12)
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any, Final

from hexwar.base.errors import HexwarError, NotLegalNow
from hexwar.engine.actions import CHANCE, END, TERMINAL, Action
from hexwar.engine.bounds import token_steps
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Cursor
from hexwar.engine.space import DONE
from hexwar.engine.state import HIDDEN, State, _trie
from hexwar.interop.game import CHANCE_PLAYER, TERMINAL_PLAYER, TokenGame
from hexwar.interop.seeing import Seeing
from hexwar.interop.text import cursor_in, cursor_out, public_digest, public_text
from hexwar.search.determinise import determinise

__all__ = ["CHANCE_PLAYER", "TERMINAL_PLAYER", "TokenGame", "TokenState"]


#: At most this many tokens are taken in a row because each was the only legal one.
_COLLAPSE_LIMIT: Final = 100_000


class TokenState(Seeing):
    """A hexwar state, the prefix of the action being built, and the seat turn."""

    __slots__ = (
        "_own",
        "_seat_at",
        "_seat_pos",
        "_taken",
        "game",
        "prefix",
        "state",
    )

    def __init__(
        self,
        game: TokenGame,
        state: State,
        prefix: tuple[str, ...] = (),
        seat_pos: int = 0,
        seat_at: Cursor | None = None,
        *,
        settle: bool = True,
        own: tuple[tuple[int, ...], ...] | None = None,
        taken: int | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.prefix = prefix
        self._seat_pos = seat_pos
        self._seat_at = seat_at
        #: each seat's last chosen tokens (at most ``game.history_tokens``), oldest first;
        #: ``None`` when unknown (a token state made from a game under way)
        self._own = own
        if own is None and not state.history and not prefix:
            self._own = ((),) * game.num_players
        #: the token steps of the game so far (its history's and the prefix's)
        self._taken = token_steps(state.history) + len(prefix) if taken is None else taken
        self._seen = None
        self._seen_at = -1
        if settle:
            self._collapse()

    # -- who acts ------------------------------------------------------------------------

    def _to_act(self) -> str:
        """The hexwar state's player (a side, ``chance`` or ``terminal``)."""
        return self.state.current_player()

    def current_player(self) -> int:
        """The acting seat's index, :data:`CHANCE_PLAYER` or :data:`TERMINAL_PLAYER`."""
        side = self.state.current_player()
        if side == TERMINAL or self._taken >= self.game.max_game_length:
            return TERMINAL_PLAYER
        if side == CHANCE:
            return CHANCE_PLAYER
        seats = self.game.side_seats[side]
        return seats[0] if len(seats) == 1 else self._acting()

    def is_terminal(self) -> bool:
        """Whether the game is over: ended by its rules, or :meth:`truncated`."""
        return self.state.is_terminal() or self._taken >= self.game.max_game_length

    def truncated(self) -> bool:
        """Whether the game reached the game's ``max_game_length`` token steps before
        its rules ended it: it is over, a draw (every return ``0``)."""
        return self._taken >= self.game.max_game_length and not self.state.is_terminal()

    def is_chance_node(self) -> bool:
        return self._to_act() == CHANCE and not self.truncated()

    def _acting(self) -> int:
        st = self.state
        seats = self.game.side_seats[self._to_act()]
        if len(seats) == 1:
            return seats[0]
        if st.pending:
            for i in seats:
                if self._controlled(i):
                    return i
            return seats[0]
        pos = self._seat_pos if self._seat_at == st.cursor else 0
        while pos < len(seats) - 1 and not self._controlled(seats[pos]):
            pos += 1
        return seats[pos]

    def _controlled(self, seat: int) -> tuple[Action, ...]:
        """The legal actions (``end`` aside) seat ``seat`` controls, once per position."""
        st = self.state
        name = self.game.seats[seat].name
        return st.derive(
            ("interop-seat", name),
            lambda: tuple(a for a in st.legal_actions(name) if a != END),
        )

    def _seat_tokens(self, seat: int) -> tuple[str, ...]:
        st = self.state
        seats = self.game.side_seats[st.current_player()]
        mine = self._controlled(seat)
        if st.pending:
            tree = st.derive(("interop-trie", seat), lambda: _trie(mine))
            return tree.get(self.prefix, ())
        last = seat == seats[-1]
        may_end = END in st.legal_actions()
        if not last and not may_end:
            later = seats[seats.index(seat) + 1 :]
            may_end = any(self._controlled(i) for i in later)
        actions = (*mine, END) if may_end else mine
        tree = st.derive(("interop-trie", seat, may_end), lambda: _trie(actions))
        return tree.get(self.prefix, ())

    # -- what may be done ----------------------------------------------------------------

    def legal_tokens(self) -> tuple[str, ...]:
        """The tokens that may follow the prefix for the acting seat (or chance)."""
        side = self.state.current_player()
        if side == TERMINAL or self._taken >= self.game.max_game_length:
            return ()
        if side == CHANCE or len(self.game.side_seats[side]) == 1:
            return self.state.legal_tokens(self.prefix)
        return self._seat_tokens(self._acting())

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal token ids, ascending (empty unless ``player`` is the one to act)."""
        if player is not None and player != self.current_player():
            return []
        return sorted(self.game.space.ids(self.legal_tokens()))

    def action_mask(self) -> list[int]:
        """0/1 per token id: legal now for the acting seat (or chance)."""
        mask = [0] * self.game.space.size
        for i in self.game.space.ids(self.legal_tokens()):
            mask[i] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: ``(token id, probability)`` of each next token, ascending."""
        return [(i, float(p)) for i, p in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """:meth:`chance_outcomes` with exact probabilities."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(i, Fraction(w, total)) for i, w in weights]

    def chance_weights(self) -> list[tuple[int, int]]:
        """At a chance node: ``(token id, weight)`` of each next token, ascending, the
        weights integers in lowest terms proportional to the probabilities (exact)."""
        return list(self._chance_weights()[0])

    def _chance_weights(self) -> tuple[tuple[tuple[int, int], ...], int]:
        """:meth:`chance_weights` and their sum (:meth:`TokenGame.chance_weights`)."""
        if not self.is_chance_node():
            return (), 0
        return self.game.chance_weights(self.state.pending[-1].outcomes, self.prefix)

    # -- playing ---------------------------------------------------------------------------

    def apply(self, action_id: int) -> None:
        """Take token ``action_id`` (then every forced token after it). An illegal token
        raises :class:`~hexwar.engine.actions.NotLegalNow` and changes nothing."""
        token = self.game.space.token(action_id)
        if token not in self.legal_tokens():
            after = " ".join(self.prefix)
            raise NotLegalNow(
                f"token {token!r} may not follow `{after}` here"
                if after
                else f"token {token!r} may not start an action here"
            )
        own = self._own
        if own is not None:
            player = self.current_player()
            if player >= 0:  # a seat's choice (chance and forced tokens are not)
                mine = (*own[player], action_id)[-self.game.history_tokens :]
                self._own = (*own[:player], mine, *own[player + 1 :])
        self._step(token)
        self._collapse()

    def _step(self, token: str) -> None:
        self._taken += 1
        if token != DONE:  # a legal token after a legal prefix: a legal prefix
            self.prefix = (*self.prefix, token)
            return
        st = self.state
        action = Action(self.prefix[0], self.prefix[1:])
        self.prefix = ()
        if action == END and not st.pending and not st.is_chance_node():
            seats = self.game.side_seats[st.current_player()]
            acting = self._acting()
            if acting != seats[-1]:  # the seat hands the phase on to the next one
                self._seat_pos = seats.index(acting) + 1
                self._seat_at = st.cursor
                return
        private = st.pending[-1].private if st.pending else None  # as the journal keeps it
        fresh = self._seen is not None and self._seen_at == st.version
        st.apply_unchecked(action)
        if fresh:
            assert self._seen is not None
            text = str(action)
            for side, seen in self._seen.items():
                seen.append(text if private is None or private == side else HIDDEN)
            self._seen_at = st.version
        else:
            self._seen = None

    def _collapse(self) -> None:
        if not self.game.collapse:
            return
        for _ in range(_COLLAPSE_LIMIT):
            tokens = self.legal_tokens()  # () at the end
            if len(tokens) != 1:
                return
            self._step(tokens[0])
        raise HexwarError(f"{_COLLAPSE_LIMIT} forced tokens in a row")  # pragma: no cover

    def clone(self) -> TokenState:
        """An independent copy (the hexwar state's :meth:`~hexwar.engine.state.State.clone`)."""
        out = TokenState(
            self.game,
            self.state.clone(),
            self.prefix,
            self._seat_pos,
            self._seat_at,
            settle=False,
            own=self._own,
            taken=self._taken,
        )
        if self._seen is not None and self._seen_at == self.state.version:
            out._seen = {side: list(seen) for side, seen in self._seen.items()}
            out._seen_at = self._seen_at  # a clone starts with its original's version
        return out

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> TokenState:
        return self.clone()

    def returns(self) -> list[float]:
        """Each seat's return (its side's; zeros while the game goes on, or when it was
        :meth:`truncated`)."""
        if not self.state.is_terminal():
            return [0.0] * self.game.num_players
        by_side = self.game.ruleset.returns(self.state)
        return [float(by_side[s.side]) for s in self.game.seats]

    # -- what a seat sees (and Seeing's) ---------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> TokenState:
        """A state that seat ``player`` cannot tell from this one, its hidden information
        drawn anew with ``rng`` (:func:`hexwar.search.determinise`: the ruleset's
        :meth:`~hexwar.engine.state.Ruleset.resample_hidden`, and the other sides' secret
        choices replayed), for IS-MCTS."""
        side = self.game.seats[player].side
        state = determinise(self.state, side, rng)
        prefix = self.visible_prefix(player)
        own = (
            None
            if self._own is None
            else tuple(mine if i == player else () for i, mine in enumerate(self._own))
        )  # the others' choices are not the seat's to know: they go
        taken = self._taken - len(self.prefix) + len(prefix)
        return TokenState(
            self.game,
            state,
            prefix,
            self._seat_pos,
            self._seat_at,
            settle=False,
            own=own,
            taken=taken,
        )

    # -- text and saving ---------------------------------------------------------------------

    def action_to_string(self, action_id: int) -> str:
        """The token of ``action_id``."""
        return self.game.space.token(action_id)

    def __str__(self) -> str:
        """What a spectator may see, in one line: the turn, the phase, who acts, the
        prefix (none while it answers a private decision) and the digest of the public
        position (:func:`~hexwar.interop.text.public_digest`): nothing hidden from any
        side, so states a seat cannot tell apart print the same."""
        prefix = " ".join(self.visible_prefix(None)) or "-"
        return (
            f"{self.game.name} turn {self.state.turn} {self.state.stage}/{self.state.phase}; "
            f"to act {self._acting_name()}; prefix {prefix}; "
            f"public position {public_digest(self.state)}"
        )

    def render_text(self) -> str:
        """:meth:`__str__` and the public position as JSON (the frameworks' ``render``)."""
        return f"{self}\n{public_text(self.state)}"

    def serialize(self) -> str:
        """The state as text: the save file (:func:`hexwar.engine.savefile.dumps`), the
        prefix and the seat turn."""
        cursor = None if self._seat_at is None else cursor_out(self._seat_at)
        return json.dumps(
            {
                "state": dumps(self.state),
                "prefix": list(self.prefix),
                "seat": [self._seat_pos, cursor],
                "own": None if self._own is None else [list(t) for t in self._own],
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def deserialize(cls, game: TokenGame, text: str) -> TokenState:
        """The inverse of :meth:`serialize` (the save file is checked on load)."""
        data = json.loads(text)
        state = loads(game.ruleset, data["state"], source="<token state>")
        pos, cursor = data["seat"]
        at = None if cursor is None else cursor_in(cursor)
        own = data.get("own")
        if own is not None:
            own = tuple(tuple(int(i) for i in mine) for mine in own)
            if len(own) != game.num_players:
                raise HexwarError("token state: 'own' needs one token list per seat")
        out = cls(game, state, tuple(data["prefix"]), int(pos), at, settle=False, own=own)
        for k, t in enumerate(out.prefix):  # each token must have been legal
            before = cls(game, state, out.prefix[:k], int(pos), at, settle=False)
            if t == DONE or t not in before.legal_tokens():
                raise HexwarError(f"token state: prefix {out.prefix} is not legal here")
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_token_state, (self.game, self.serialize()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TokenState):
            return NotImplemented
        return (
            self.game.ruleset.same_game(other.game.ruleset)
            and self.prefix == other.prefix
            and self.state == other.state
            and self.current_player() == other.current_player()
        )

    __hash__ = None  # type: ignore[assignment]


def _load_token_state(game: TokenGame, text: str) -> TokenState:
    return TokenState.deserialize(game, text)


TokenGame.state_type = TokenState
