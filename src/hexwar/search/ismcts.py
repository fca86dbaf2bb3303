"""Information-set Monte Carlo tree search (single observer, token edges).

:class:`SearchPlayer` searches from the seat to act. Each iteration:

1. *determinise*: a full state drawn from what the seat may know
   (:func:`~hexwar.search.determinise.determinise`); the true state is never searched;
2. *select*: down the tree from the root, one **token** per edge (a kind, a unit, a hex,
   ..., :data:`~hexwar.engine.space.DONE`), so an action made of many choices (an attack
   by any group of units) is searched step by step and never listed. At a node of the
   side ``p`` to act the child maximising ``mean_p + c * sqrt(ln(available) / visits)``
   is taken (UCT with availability counts, as in IS-MCTS: a token counts as available
   each time it is legal when its node is reached); a chance event is drawn with its
   exact probabilities, and an action private to another side (a hidden set-up) is
   drawn by the rollout policy; both lead to one child whatever was drawn when the
   searching seat cannot see it;
3. *expand*: the first untried legal token met is added (one node an iteration);
4. *roll out*: the action under way is completed uniformly token by token, then the
   rollout policy plays on to the end, or to ``horizon`` actions where an evaluation
   (:class:`~hexwar.search.evaluation.PositionValue`) scores the position;
5. *back up*: each edge adds the value of the side that chose it (a win 1, a draw 1/2).

The action returned follows the most visited token from the root down to ``DONE`` (on a
tie of visits the rollout policy's token first). A rollout policy also guides the tree:
its next token is expanded first, and it finishes an action the tree stops short of, so
a small search plays as its policy and a larger one departs from it where it finds
better.
When only one action is legal it is returned at once, without a search (the
explanation says 0 iterations).
Every draw comes from the player's own ``random.Random(seed)`` (a player is outside the
rules), so with an iteration budget the same seed and state give the same action.

>>> from hexwar.engine.actions import Outcome
>>> from hexwar.engine.sequencer import Phase, Stage, TurnSequence
>>> from hexwar.engine.state import Ruleset
>>> class Six(Ruleset):  # add 1 or 2 a turn, three turns: reach 6 to win
...     name = "five"
...     sides = ("a",)
...     sequence = TurnSequence((Stage("s", (Phase("p", side="a"),)),), turn_limit=3)
...     def setup(self, state, scenario, options):
...         state.put("game", "n", 0)
...     def phase_actions(self, state, side):
...         if state.get("game", "turn") == state.turn:
...             return []
...         return [Action.of("add", 1), Action.of("add", 2)]
...     def play(self, state, action):
...         state.put("game", "n", state.get("game", "n") + action.int_arg(0))
...         state.put("game", "turn", state.turn)
...     def final_outcome(self, state):
...         return Outcome("a" if state.get("game", "n") == 6 else None, "six or not")
>>> state = Six().new_state()
>>> player = SearchPlayer(seed=1, iterations=200)
>>> player(state)
Action(kind='add', args=('2',))
>>> print(player.last)
a: add 2 after 200 iterations
  add 2: 135 visits, 87% to win
  end: 41 visits, 50% to win
  add 1: 20 visits, 50% to win
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator

import attrs

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import CHANCE, TERMINAL, Action
from hexwar.engine.loop import Player, sample_action
from hexwar.engine.space import DONE
from hexwar.engine.state import State
from hexwar.search.determinise import determinise, exact_pick
from hexwar.search.evaluation import PositionValue, evaluation_of, horizon_of

__all__ = ["Candidate", "Explanation", "SearchPlayer"]

#: The key of the one child reached through what the searching seat cannot see (a chance
#: draw or a choice private to another side).
UNSEEN = "?"
#: The value of a draw, and of a rollout stopped without an evaluation.
DRAW = 0.5


@attrs.frozen
class Candidate:
    """One complete action the search tried at the root: how often (``visits``) and the
    searching side's mean value after it (``win_chance``, in ``[0, 1]``)."""

    action: Action
    visits: int
    win_chance: float

    def __str__(self) -> str:
        return f"{self.action}: {self.visits} visits, {self.win_chance:.0%} to win"


@attrs.frozen
class Explanation:
    """What a search found: the side, the iterations run, the action chosen, and the
    most visited complete actions (best first)."""

    side: str
    iterations: int
    chosen: Action
    candidates: tuple[Candidate, ...]

    def __str__(self) -> str:
        lines = [f"{self.side}: {self.chosen} after {self.iterations} iterations"]
        lines += [f"  {c}" for c in self.candidates]
        return "\n".join(lines)


class _Node:
    """A tree node: its children by token (or chance key), and the statistics of the edge
    into it, for the side that chose that edge."""

    __slots__ = ("available", "children", "guided", "then", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        #: Whether the rollout policy chose this edge (it wins a tie of visits).
        self.guided = False
        #: The rest of the rollout policy's action after this edge's token (ending with
        #: ``DONE``), when the policy chose the edge: what completes the action here.
        self.then: tuple[str, ...] = ()

    def child(self, key: str) -> _Node:
        found = self.children.get(key)
        if found is None:
            found = self.children[key] = _Node()
        return found


def _complete(state: State, prefix: tuple[str, ...], rng: random.Random) -> Action:
    """An action of ``state`` begun with ``prefix``, completed uniformly token by token."""
    tokens = state.legal_tokens(prefix)
    while True:
        if not tokens:
            raise HexwarError(f"no legal token after {' '.join(prefix) or 'the start'}")
        token = tokens[rng.randrange(len(tokens))]
        if token == DONE:
            return Action(prefix[0], prefix[1:])
        prefix = (*prefix, token)
        tokens = state.legal_tokens(prefix)


def _legal_path(state: State, prefix: tuple[str, ...], then: tuple[str, ...]) -> bool:
    """Whether the tokens ``then`` (ending with ``DONE``) are legal one after the other
    after ``prefix`` in ``state``."""
    for token in then:
        if token not in state.legal_tokens(prefix):
            return False
        prefix = (*prefix, token)
    return True


def _forced(state: State) -> Action | None:
    """The one legal action of ``state``, when there is exactly one (``None`` otherwise):
    each token from the start is the only one legal, down to ``DONE``."""
    prefix: tuple[str, ...] = ()
    while True:
        tokens = state.legal_tokens(prefix)
        if len(tokens) != 1:
            return None
        if tokens[0] == DONE:
            return Action(prefix[0], prefix[1:])
        prefix = (*prefix, tokens[0])


def _most_visited(item: tuple[str, _Node]) -> tuple[int, bool, float, str]:
    """The order of the final choice: visits, then the rollout policy's edge, then the
    value, then the token."""
    key, node = item
    return node.visits, node.guided, node.total, key


def _tokens_after(action: Action, prefix: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens of ``action`` after ``prefix`` (ending with ``DONE``), or ``()`` when
    ``action`` does not begin with ``prefix``."""
    tokens = (action.kind, *action.args)
    if tokens[: len(prefix)] != prefix:  # a shorter action cannot equal the prefix
        return ()
    return (*tokens[len(prefix) :], DONE)


class SearchPlayer:
    """An IS-MCTS player for any ruleset (see the module text); a
    :data:`~hexwar.engine.loop.Player`.

    - ``seed``: its generator's seed; ``iterations``: the budget (reproducible);
      ``cpu_seconds``: an optional cap on the CPU time (``time.process_time``) of one
      search, which stops it earlier (then the result depends on the machine);
    - ``exploration``: UCT's ``c`` (values are in ``[0, 1]``);
    - ``rollout``: the rollout policy, any player (default: uniform token by token);
    - ``evaluation`` and ``horizon``: rollouts stop after ``horizon`` actions and are
      scored by ``evaluation`` (default: the ruleset's own,
      :meth:`~hexwar.engine.state.Ruleset.evaluation`, and the evaluation's own
      ``horizon``; without either the rollouts play to the end);
      ``max_rollout_actions``: a rollout stopped there without an evaluation counts as a
      draw;
    - ``top``: how many candidates :attr:`last` explains.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 200,
        cpu_seconds: float | None = None,
        exploration: float = 0.7,
        rollout: Player | None = None,
        evaluation: PositionValue | None = None,
        horizon: int | None = None,
        max_rollout_actions: int = 100_000,
        top: int = 5,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.cpu_seconds = cpu_seconds
        self.exploration = exploration
        self.rollout = rollout
        self.evaluation = evaluation
        self.horizon = horizon
        self.max_rollout_actions = max_rollout_actions
        self.top = top
        #: The explanation of the last search (``None`` before the first).
        self.last: Explanation | None = None

    def __call__(self, state: State) -> Action:
        return self.search(state).chosen

    # -- the search ---------------------------------------------------------------------

    def search(self, state: State) -> Explanation:
        """Search ``state`` for the side to act; the explanation (also kept in
        :attr:`last`)."""
        side = state.current_player()
        if side in (CHANCE, TERMINAL):
            raise HexwarError(f"no side to act: the state is at {side}")
        forced = _forced(state)
        if forced is not None:  # one legal action: nothing to search
            self.last = Explanation(side, 0, forced, ())
            return self.last
        evaluation = self.evaluation or evaluation_of(state.ruleset)
        root = _Node()
        deadline = None if self.cpu_seconds is None else time.process_time() + self.cpu_seconds
        done = 0
        while done < self.iterations:
            self._iterate(state, side, root, evaluation)
            done += 1
            if deadline is not None and time.process_time() >= deadline:
                break
        chosen = self._chosen(state, side, root)
        candidates = sorted(
            self._candidates(root, ()),
            key=lambda c: (-c.visits, -c.win_chance, str(c.action)),
        )
        self.last = Explanation(side, done, chosen, tuple(candidates[: self.top]))
        return self.last

    def _iterate(
        self, state: State, side: str, root: _Node, evaluation: PositionValue | None
    ) -> None:
        rng = self._rng
        det = determinise(state, side, rng)
        node = root
        prefix: tuple[str, ...] = ()
        path: list[tuple[_Node, str]] = []
        expanded = False
        while not expanded:
            who = det.current_player()
            if who == TERMINAL:
                break
            if who == CHANCE:
                pending = det.pending[-1]
                outcome = exact_pick(det.chance_outcomes(), rng)
                seen = pending.private is None or pending.private == side
                det.apply_unchecked(outcome)
                node = node.child(f"chance {outcome}" if seen else UNSEEN)
                continue
            if not prefix and det.pending and det.pending[-1].private not in (None, side):
                det.apply(self._policy(det))  # another side's private choice
                node = node.child(UNSEEN)
                continue
            tokens = det.legal_tokens(prefix)
            best: tuple[float, str, _Node] | None = None
            log_of: Callable[[int], float] = math.log
            for token in tokens:
                child = node.children.get(token)
                if child is None:
                    if not expanded:
                        untried = [t for t in tokens if t not in node.children]
                        token, then = self._guide(det, prefix, untried)
                        child = node.child(token)
                        child.guided, child.then = bool(then), then[1:]
                        expanded = True
                        best = (math.inf, token, child)
                    continue
                child.available += 1
                if expanded:
                    continue
                score = child.total / child.visits + self.exploration * math.sqrt(
                    log_of(child.available) / child.visits
                )
                if best is None or score > best[0]:
                    best = (score, token, child)
            if best is None:
                raise HexwarError(f"no legal token after {' '.join(prefix) or 'the start'}")
            _, token, node = best
            if expanded:
                node.available += 1
            path.append((node, who))
            if token == DONE:
                det.apply_unchecked(Action(prefix[0], prefix[1:]))
                prefix = ()
            else:
                prefix = (*prefix, token)
        values = self._rollout(det, prefix, evaluation, node.then if expanded else ())
        for node, who in path:
            node.visits += 1
            node.total += values[who]

    def _guide(
        self, det: State, prefix: tuple[str, ...], untried: list[str]
    ) -> tuple[str, tuple[str, ...]]:
        """The untried token to expand, and, when the rollout policy chose it, the
        policy's tokens from it to ``DONE`` (else ``()``): the policy's next token when
        it has one and that token is untried (a policy's choice is searched first), else
        one drawn uniformly."""
        if self.rollout is not None:
            tokens = _tokens_after(self.rollout(det), prefix)
            if tokens and tokens[0] in untried:
                return tokens[0], tokens
        return untried[self._rng.randrange(len(untried))], ()

    def _finish(self, det: State, prefix: tuple[str, ...], then: tuple[str, ...] = ()) -> Action:
        """An action of ``det`` begun with ``prefix``: ``prefix`` and ``then`` (the rest
        of the policy's action where the policy chose the last edge) when they are legal
        here, else the rollout policy's action when it begins with ``prefix``, else
        ``prefix`` completed uniformly token by token."""
        if then and _legal_path(det, prefix, then):
            return Action(prefix[0], (*prefix[1:], *then[:-1]))
        if self.rollout is not None:
            action = self.rollout(det)
            if _tokens_after(action, prefix):
                return action
        return _complete(det, prefix, self._rng)

    def _policy(self, det: State) -> Action:
        return sample_action(det, self._rng) if self.rollout is None else self.rollout(det)

    def _rollout(
        self,
        det: State,
        prefix: tuple[str, ...],
        evaluation: PositionValue | None,
        then: tuple[str, ...] = (),
    ) -> dict[str, float]:
        """Play ``det`` on (the action begun with ``prefix`` first, completed by
        ``then`` when the policy chose its last token); each side's value."""
        rng = self._rng
        if prefix:
            det.apply_unchecked(self._finish(det, prefix, then))
        steps = 0
        horizon = None
        if evaluation is not None:
            horizon = self.horizon if self.horizon is not None else horizon_of(evaluation)
        while True:
            who = det.current_player()
            if who == TERMINAL:
                return self._final(det)
            if who == CHANCE:
                det.apply_unchecked(exact_pick(det.chance_outcomes(), rng))
                continue
            if horizon is not None and steps >= horizon and evaluation is not None:
                return {s: evaluation.position_value(det, s) for s in det.ruleset.sides}
            if steps >= self.max_rollout_actions:
                return dict.fromkeys(det.ruleset.sides, DRAW)
            if self.rollout is None:
                det.apply_unchecked(sample_action(det, rng))
            else:
                det.apply(self.rollout(det))
            steps += 1

    @staticmethod
    def _final(det: State) -> dict[str, float]:
        outcome = det.outcome
        winner = None if outcome is None else outcome.winner
        if winner is None:
            return dict.fromkeys(det.ruleset.sides, DRAW)
        return {s: 1.0 if s == winner else 0.0 for s in det.ruleset.sides}

    # -- reading the tree ---------------------------------------------------------------

    def _chosen(self, state: State, side: str, root: _Node) -> Action:
        """The action along the most visited tokens; where the tree stops short of
        ``DONE``, completed on a determinised copy as a rollout completes it (the
        policy's own rest of the action when the policy chose the last token)."""
        node = root
        prefix: tuple[str, ...] = ()
        while True:
            visited = [(k, c) for k, c in node.children.items() if c.visits]
            if not visited:
                break
            key, node = max(visited, key=_most_visited)
            if key == DONE:
                return Action(prefix[0], prefix[1:])
            prefix = (*prefix, key)
        det = determinise(state, side, self._rng)
        return self._finish(det, prefix, node.then)

    def _candidates(self, node: _Node, prefix: tuple[str, ...]) -> Iterator[Candidate]:
        """The complete actions of the root's own turn in the tree."""
        for key, child in node.children.items():
            if not child.visits:
                continue
            if key == DONE:
                yield Candidate(Action(prefix[0], prefix[1:]), child.visits,
                                child.total / child.visits)  # fmt: skip
            elif key != UNSEEN and not key.startswith("chance "):
                yield from self._candidates(child, (*prefix, key))
