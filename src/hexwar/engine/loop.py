"""Playing whole games: players (bots) and the game loop.

A *player* is any callable ``state -> action`` for the side to move; chance nodes are
answered by a :class:`~hexwar.engine.dice.ChanceDriver` (a
:class:`~hexwar.engine.dice.SeededDriver` in play, so a game replays exactly from its seed).

>>> from hexwar.engine.dice import SeededDriver
>>> from hexwar.engine.state import Ruleset
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.actions import Action, Outcome
>>> class Count(Ruleset):
...     name = "count"
...     sides = ("a",)
...     sequence = TurnSequence((Stage("s", (Phase("p", side="a", end_when_idle=False),)),),
...                             turn_limit=3)
...     def setup(self, state, scenario, options):
...         state.put("game", "n", 0)
...     def phase_actions(self, state, side):
...         return [Action.of("add", 1), Action.of("add", 2)]
...     def play(self, state, action):
...         state.put("game", "n", state.get("game", "n") + action.int_arg(0))
...     def final_outcome(self, state):
...         return Outcome("a", f"counted to {state.get('game', 'n')}")
>>> a = play(Count().new_state(), {"a": RandomPlayer(7)}, SeededDriver(7))
>>> b = play(Count().new_state(), {"a": RandomPlayer(7)}, SeededDriver(7))
>>> a.history == b.history and a.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from hexwar.base.errors import NotLegalNow
from hexwar.engine.actions import CHANCE, END, TERMINAL, Action
from hexwar.engine.dice import ChanceDriver
from hexwar.engine.space import DONE
from hexwar.engine.state import State

__all__ = ["Player", "RandomPlayer", "TokenStepper", "play", "sample_action"]

#: The tokens of :data:`~hexwar.engine.actions.END`.
_END_TOKENS: Final = (END.kind,)

Player = Callable[[State], Action]
"""A player (a bot, or a human front end): given the state, the action it takes."""


def sample_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn token by token: uniform among :meth:`State.legal_tokens` at
    each step (:data:`~hexwar.engine.space.DONE` included where legal), without building the
    list of actions.

    So the first token (a kind, or ``end``) is uniform over the kinds that have a legal
    completion, then each next token is uniform over the tokens that may follow; an
    action's probability is the product of ``1 / len(legal tokens)`` along its tokens,
    not ``1 / len(legal_actions())``.
    """
    after = state.legal_tokens
    if type(rng) is not random.Random:  # a subclass may draw otherwise: ask it
        return _sample_by_choice(after, rng.choice)
    bits = rng.getrandbits
    prefix: tuple[str, ...] = ()
    tokens = after(prefix)
    while True:
        n = len(tokens)
        if not n:
            raise NotLegalNow(f"no legal token after {' '.join(prefix) or 'the start'}")
        # rng.choice(tokens) by the generator's own steps (random.Random.choice: as
        # many bits as len(tokens) has, drawn again while out of range): the same draw
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        token = tokens[r]
        if token == DONE:  # END itself, the commonest action, is not built again
            return END if prefix == _END_TOKENS else Action(prefix[0], prefix[1:])
        prefix = (*prefix, token)
        tokens = after(prefix)


def _sample_by_choice(
    after: Callable[[tuple[str, ...]], tuple[str, ...]], choice: Callable[[Sequence[str]], str]
) -> Action:
    """:func:`sample_action` drawing each token with ``choice``."""
    prefix: tuple[str, ...] = ()
    tokens = after(prefix)
    while True:
        if not tokens:
            raise NotLegalNow(f"no legal token after {' '.join(prefix) or 'the start'}")
        token = choice(tokens)
        if token == DONE:
            return Action(prefix[0], prefix[1:])
        prefix = (*prefix, token)
        tokens = after(prefix)


class RandomPlayer:
    """A random player with its own seeded generator: picks token by token
    (:func:`sample_action`) — uniform over the legal kinds, then uniform over the legal
    next token, and so on to :data:`~hexwar.engine.space.DONE` — so it never builds the list of
    legal actions.

    A player is outside the rules: its choices are the player's, not chance events, so it
    owns a ``random.Random`` (seeded, hence reproducible). ``legal``: pick instead
    uniformly among the actions of this list source (it must equal
    ``state.legal_actions()``; test that in the game's own tests): uniform over actions.
    """

    def __init__(
        self, seed: int = 0, *, legal: Callable[[State], Sequence[Action]] | None = None
    ) -> None:
        self._rng = random.Random(seed)
        self._legal = legal

    def __call__(self, state: State) -> Action:
        if self._legal is not None:
            return self._rng.choice(self._legal(state))
        return sample_action(state, self._rng)


class TokenStepper:
    """Build and apply actions one token at a time: the basis for agents with a fixed
    output layer (OpenSpiel, PettingZoo) and for "click a unit, then a hex" play.

    :meth:`mask` gives the ids (in the ruleset's :attr:`~hexwar.engine.state.Ruleset.space`) of
    the tokens legal after :attr:`prefix`; :meth:`step` appends one, and when it is
    :data:`~hexwar.engine.space.DONE` applies the action built (already checked token by token)
    and starts the next one. With ``apply=False`` it only returns the action (a player
    inside :func:`play`, which applies it).

    >>> # see docs/architecture.md, "The action space"
    """

    def __init__(self, state: State, *, apply: bool = True) -> None:
        self.state = state
        self.space = state.ruleset.space
        self.apply = apply
        self._prefix: tuple[str, ...] = ()

    @property
    def prefix(self) -> tuple[str, ...]:
        """The tokens chosen so far for the action being built."""
        return self._prefix

    def tokens(self) -> tuple[str, ...]:
        """The legal tokens after :attr:`prefix`, sorted (the state keeps them per position)."""
        return self.state.legal_tokens(self._prefix)

    def mask(self) -> tuple[int, ...]:
        """The ids of the legal tokens after :attr:`prefix` (in token order)."""
        return self.space.ids(self.tokens())

    def step(self, token_id: int) -> Action | None:
        """Append the token with id ``token_id``; when it is :data:`~hexwar.engine.space.DONE`,
        apply the action (unless ``apply=False``) and return it (else ``None``). An
        illegal token raises :class:`~hexwar.base.errors.NotLegalNow` and changes nothing."""
        return self.step_token(self.space.token(token_id))

    def step_token(self, token: str) -> Action | None:
        """:meth:`step` by the token itself."""
        if token not in self.tokens():
            after = " ".join(self._prefix)
            raise NotLegalNow(f"`{token}` may not follow `{after}` here" if after else
                              f"no `{token}` action may be taken here")  # fmt: skip
        if token != DONE:
            self._prefix = (*self._prefix, token)
            return None
        action = Action(self._prefix[0], self._prefix[1:])
        self._prefix = ()
        if self.apply:
            self.state.apply_unchecked(action)
        return action

    def reset(self) -> None:
        """Forget the tokens chosen so far (the state is unchanged)."""
        self._prefix = ()


def play(
    state: State,
    players: Mapping[str, Player],
    driver: ChanceDriver,
    *,
    max_steps: int = 100_000,
    on_step: Callable[[State, Action], Any] | None = None,
    check: bool = False,
) -> State:
    """Play ``state`` on to the end (or ``max_steps`` actions) and return it.

    Chance nodes are answered by ``driver``; otherwise ``players[state.current_player()]``
    chooses a complete action (a token-by-token agent builds it with a
    ``TokenStepper(state, apply=False)``). ``on_step(state, action)`` is called before
    each action is applied (for summaries and logs). Actions are applied unchecked (the
    players are trusted to pick legal actions) unless ``check=True``.
    """
    for _ in range(max_steps):
        who = state.current_player()  # one look: TERMINAL, CHANCE or the side to act
        if who == TERMINAL:
            break
        action = driver.pick(state.chance_outcomes()) if who == CHANCE else players[who](state)
        if on_step is not None:
            on_step(state, action)
        if check:
            state.apply(action)
        else:
            state.apply_unchecked(action)
    return state
