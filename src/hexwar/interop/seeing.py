"""What a seat of a :class:`~hexwar.interop.adapter.TokenState` sees: the visible prefix,
the observation tensor (:class:`~hexwar.engine.observe.Encoder`), the observation and
information-state strings, the history as a side saw it. :class:`Seeing` is a base of
``TokenState``; nothing else uses it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.base.errors import HexwarError
from hexwar.interop.game import CHANCE_PLAYER, TERMINAL_PLAYER
from hexwar.interop.text import seen_text

if TYPE_CHECKING:
    from hexwar.engine.state import State
    from hexwar.interop.game import TokenGame

__all__ = ["Seeing"]


class Seeing:
    """The observation methods of :class:`~hexwar.interop.adapter.TokenState`."""

    __slots__ = ("_seen", "_seen_at")
    #: each seat's last chosen token ids (``None``: unknown; set by the token state)
    _own: tuple[tuple[int, ...], ...] | None
    #: per side, the history as it saw it (kept up to date action by action by the
    #: token state; valid while the hexwar state's version is ``_seen_at``)
    _seen: dict[str, list[str]] | None
    _seen_at: int

    if TYPE_CHECKING:
        game: TokenGame
        state: State
        prefix: tuple[str, ...]

        def current_player(self) -> int: ...

        def legal_tokens(self) -> tuple[str, ...]: ...

    def visible_prefix(self, player: int | None) -> tuple[str, ...]:
        """The prefix as seat ``player`` sees it (``None``: a spectator): empty while
        building an answer to a decision private to another side (a hidden placement, a
        secret chance event)."""
        pending = self.state.pending
        if self.prefix and pending:
            private = pending[-1].private
            if private is not None and (player is None or private != self.game.seats[player].side):
                return ()
        return self.prefix

    def legal_ids(self) -> tuple[int, ...]:
        """The ids of :meth:`legal_tokens` (in token order, not sorted): the mask's ones."""
        return self.game.space.ids(self.legal_tokens())

    def observation_parts(
        self, player: int, acting: int | None = None
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """Seat ``player``'s observation in :meth:`~hexwar.engine.observe.Encoder.encode_parts`'s
        parts: all but the encoder's :attr:`~hexwar.engine.observe.Encoder.static_hot` and
        the ``legal`` section (the acting seat's :meth:`legal_ids` from
        :attr:`~hexwar.engine.observe.Encoder.legal_base`). ``acting``: the
        :meth:`current_player`, if the caller has it."""
        if acting is None:
            acting = self.current_player()
        return self.game.encoder.parts(
            self.state,
            self.game.seats[player].side,
            player,
            acting if acting >= 0 else None,
            self.visible_prefix(player),
        )

    def observation_hot(self, player: int) -> list[int]:
        """The indices of the ones of seat ``player``'s observation tensor
        (:class:`~hexwar.engine.observe.Encoder`)."""
        encoder = self.game.encoder
        acting = self.current_player()
        planes, fixed, chosen = self.observation_parts(player, acting)
        out = [*encoder.static_hot]
        for part in planes:
            out += part
        out += fixed
        out += chosen
        if acting == player:
            base = encoder.legal_base
            out += [base + i for i in self.legal_ids()]
        return out

    def observation_tensor(self, player: int) -> list[float]:
        """Seat ``player``'s observation as a dense list of 0.0 / 1.0."""
        out = [0.0] * self.game.encoder.size
        for i in self.observation_hot(player):
            out[i] = 1.0
        return out

    def own_tokens(self, player: int) -> tuple[int, ...]:
        """The token ids seat ``player`` chose, at most the game's ``history_tokens``
        last ones, oldest first (chance and forced tokens are not its choices). A
        :class:`~hexwar.base.errors.HexwarError` for a token state made from a game under
        way (``TokenGame.state_of`` a state with a history): its choices are unknown."""
        if self._own is None:
            raise HexwarError(
                f"{self.game.name}: seat {player}'s tokens are unknown (a token state made "
                "from a game under way has no information-state tensor)"
            )
        return self._own[player]

    def information_state_hot(self, player: int) -> list[int]:
        """The ones of seat ``player``'s information-state tensor: its observation
        (:meth:`observation_hot`), then its own last tokens (:meth:`own_tokens`), the
        most recent in the first block (see ``TokenGame.information_state_size``)."""
        game = self.game
        base, n = game.encoder.size, game.space.size
        mine = self.own_tokens(player)
        out = self.observation_hot(player)
        out += [base + k * n + t for k, t in enumerate(reversed(mine))]
        return out

    def information_state_tensor(self, player: int) -> list[float]:
        """Seat ``player``'s information-state tensor as a dense list of 0.0 / 1.0."""
        out = [0.0] * self.game.information_state_size
        for i in self.information_state_hot(player):
            out[i] = 1.0
        return out

    def _acting_name(self) -> str:
        player = self.current_player()
        if player == CHANCE_PLAYER:
            return "chance"
        if player == TERMINAL_PLAYER:
            return "terminal"
        return self.game.seats[player].name

    def observation_string(self, player: int) -> str:
        """What seat ``player`` sees now, as text (hidden values ``?``; no history)."""
        seat = self.game.seats[player]
        prefix = " ".join(self.visible_prefix(player)) or "-"
        seen = seen_text(self.state, seat.side)
        return f"seat {seat.name}; to act {self._acting_name()}; prefix {prefix}; {seen}"

    def information_state_string(self, player: int) -> str:
        """:meth:`observation_string` and the history as seat ``player`` saw it (actions
        private to another side shown as ``?``): perfect recall."""
        history = " | ".join(self.seen_history(self.game.seats[player].side))
        return f"{self.observation_string(player)}; history {history}"

    def seen_history(self, side: str) -> list[str]:
        """The history as ``side`` saw it (:meth:`~hexwar.engine.state.State.observation`'s
        ``history``), kept up to date action by action; do not change it."""
        st = self.state
        if self._seen is None or self._seen_at != st.version:
            self._seen, self._seen_at = {}, st.version
        found = self._seen.get(side)
        if found is None:
            found = self._seen[side] = list(st.observation(side)["history"])
        return found
