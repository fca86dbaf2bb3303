"""hexwar.interop: every game under OpenSpiel, PettingZoo and Gymnasium (issue 14).

The frameworks' own checks at the issue's counts (acceptance 1-3: 100 OpenSpiel sims of
every small game, 5 of each Stalingrad length, an MCTS game, PettingZoo's and Gymnasium's
checks of every game) are marked ``slow`` (``.ci/run`` runs them with ``HEXWAR_SLOW=1``);
the README's test command runs a quick version of each beside them.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from hexwar.engine.actions import END
from hexwar.engine.bounds import Bounds
from hexwar.engine.dice import integer_weights
from hexwar.engine.registry import register
from hexwar.engine.space import DONE, tokens_of
from hexwar.engine.state import State, _trie
from hexwar.interop.adapter import CHANCE_PLAYER, TERMINAL_PLAYER, TokenGame, TokenState
from hexwar.testing import check_random_games
from hexwar_stalingrad.rules import StalingradRules

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from examples.registry import register_examples

from toy_game import Duel

register_examples()
register("duel", Duel)
SMALL = ("duel", "crossing", "bridgehead", "boy_otryadov", "triumph_and_glory")
STALINGRAD = ("stalingrad-short", "stalingrad-long")
#: The issue's minimum OpenSpiel sims (acceptance 1), and the quick run's.
SIMS = dict.fromkeys(SMALL, 100) | dict.fromkeys(STALINGRAD, 5)
QUICK_SIMS = {
    "duel": 20,
    "crossing": 20,
    "bridgehead": 5,
    "boy_otryadov": 1,
    "triumph_and_glory": 1,
}
#: PettingZoo's api_test hints that a Dict observation space (the action_mask convention)
#: "probably should" be a Box, unless the env is one of PettingZoo's own: those two hints
#: only are allowed, any other warning fails the test.
DICT_HINTS = ("Observation space for each agent probably", "Observation is not a NumPy array")


def random_game(game: TokenGame, seed: int, on_step: object = None) -> TokenState:
    rng = random.Random(seed)
    ts = game.new_initial_state()
    while not ts.is_terminal():
        if ts.is_chance_node():
            ids, ps = zip(*ts.chance_outcomes(), strict=True)
            ts.apply(rng.choices(ids, ps)[0])
        else:
            if callable(on_step):
                on_step(ts)
            legal = ts.legal_actions()
            ts.apply(legal[rng.randrange(len(legal))])
    return ts


# -- the adapter (no framework) ----------------------------------------------------------


def test_chance_tokens_carry_exact_probabilities() -> None:
    ts = TokenGame(Duel()).new_initial_state()
    assert ts.current_player() == CHANCE_PLAYER
    outcomes = ts.exact_chance_outcomes()  # the deal: ambush 1/3, dud 2/3 (one token each)
    space = ts.game.space
    assert {space.token(i): str(p) for i, p in outcomes} == {"ambush": "1/3", "dud": "2/3"}


def test_a_forced_token_is_taken_at_once() -> None:
    game = TokenGame(StalingradRules("short"))
    ts = random_game(game, 1)
    assert ts.current_player() == TERMINAL_PLAYER
    steps = len(ts.state.history)
    assert steps > 0
    # every step the adapter stopped at offered a choice
    ts2 = game.new_initial_state()
    rng = random.Random(1)
    while not ts2.is_terminal():
        if ts2.is_chance_node():
            assert len(ts2.chance_outcomes()) > 1
            ts2.apply(ts2.chance_outcomes()[0][0])
        else:
            legal = ts2.legal_actions()
            assert len(legal) > 1
            ts2.apply(legal[rng.randrange(len(legal))])


def test_an_illegal_token_changes_nothing() -> None:
    ts = TokenGame(StalingradRules("short")).new_initial_state()
    while ts.is_chance_node():
        ts.apply(ts.chance_outcomes()[0][0])
    before = ts.serialize()
    illegal = next(i for i in range(ts.game.space.size) if i not in ts.legal_actions())
    with pytest.raises(Exception, match="may not start an action"):
        ts.apply(illegal)
    assert ts.serialize() == before


def test_seats_of_a_side_act_in_order() -> None:
    """S3.1, four players: at every step exactly one seat has legal tokens, it controls
    them, and the side's seats take the phase in seat order."""
    game = TokenGame(StalingradRules("short", players=4))
    assert game.num_players == 4

    def check(ts: TokenState) -> None:
        acting = ts.current_player()
        with_tokens = [p for p in range(4) if ts.legal_actions(p)]
        assert with_tokens == [acting]

    random_game(game, 3, check)


def _weights_anew(ts: TokenState) -> list[tuple[int, int]]:
    """The chance weights after the prefix, from the state's outcomes (no memo)."""
    k, weights = len(ts.prefix), {}
    outcomes = ts.state.chance_outcomes()
    for (action, _), w in zip(outcomes, integer_weights(outcomes)[1], strict=True):
        tokens = tokens_of(action)
        if tokens[:k] == ts.prefix:
            t = tokens[k] if k < len(tokens) else DONE
            weights[t] = weights.get(t, 0) + w
    g = math.gcd(*weights.values())
    return sorted((ts.game.space.id(t), w // g) for t, w in weights.items())


@pytest.mark.parametrize("players", [2, 4])
def test_kept_answers_equal_answers_asked_anew(players: int) -> None:
    """The token state's kept player and legal tokens (per version, prefix and seat
    turn), the kept chance weights and chance tries (per outcomes object) equal the
    answers computed afresh, at every step of random games (chance tokens included)."""
    game = TokenGame(StalingradRules("short", players=players))
    for seed in range(3):
        rng = random.Random(seed)
        ts = game.new_initial_state()
        while not ts.is_terminal():
            st = ts.state
            anew = TokenState(game, st, ts.prefix, ts._seat_pos, ts._seat_at, settle=False)
            assert ts.current_player() == anew.current_player()  # (anew: nothing kept)
            assert ts.legal_tokens() == anew.legal_tokens()
            if ts.is_chance_node():
                assert ts.chance_weights() == _weights_anew(ts)
                trie = _trie(a for a, _ in st.chance_outcomes())
                assert st.legal_tokens(ts.prefix) == trie.get(ts.prefix, ())
                ids, ws = zip(*ts.chance_weights(), strict=True)
                ts.apply(rng.choices(ids, ws)[0])
            else:
                legal = ts.legal_actions()
                ts.apply(legal[rng.randrange(len(legal))])


def test_kept_tokens_follow_a_state_changed_underneath() -> None:
    """A prefix built of legal tokens is asked without the walk back only at the version
    it was built at: after the hexwar state changes, the prefix is checked again."""
    game = TokenGame(StalingradRules("short"))
    for seed in range(5):
        rng = random.Random(seed)
        ts = game.new_initial_state()
        while not ts.is_terminal():
            if ts.is_chance_node():
                ts.apply(ts.chance_weights()[0][0])
                continue
            legal = ts.legal_actions()
            ts.apply(legal[rng.randrange(len(legal))])
            if ts.prefix and not ts.is_chance_node() and END in ts.state.legal_actions():
                assert ts.legal_tokens()  # asked (and kept) at the version it was built at
                ts.state.apply(END)  # the phase ends under the prefix
                assert ts.legal_tokens() == ts.state.legal_tokens(ts.prefix)
                break
        else:
            raise AssertionError("no prefix with END legal")


def test_state_deepcopies_and_pickles_through_the_save_format() -> None:
    rules = StalingradRules("short")
    state = rules.new_state()
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    assert copy.deepcopy(state) == state
    loaded = pickle.loads(pickle.dumps(state))
    assert isinstance(loaded, State)
    assert loaded == state
    assert loaded.history == state.history
    assert b"mappingproxy" not in pickle.dumps(state)
    ts = TokenGame(rules).state_of(state)
    again = pickle.loads(pickle.dumps(ts))
    assert again == ts
    assert str(again) == str(ts)


def test_kit_checks_declared_bounds() -> None:
    class Tight(Duel):
        def bounds(self) -> Bounds:
            return Bounds(max_tokens=5)

    report = check_random_games(lambda: Tight().new_state(), games=3, seed=0)
    assert {v.check for v in report.violations} == {"bounds"}


# -- hidden information (S5.2 hands, S10.2 air placements) --------------------------------


def test_observations_never_show_the_other_hand() -> None:
    game = TokenGame(StalingradRules("short"))
    ts = game.new_initial_state()
    rng = random.Random(0)
    while "hand:wehrmacht" not in ts.state.table("cards") or ts.is_chance_node():
        if ts.is_chance_node():
            ts.apply(ts.chance_outcomes()[rng.randrange(len(ts.chance_outcomes()))][0])
        else:
            ts.apply(ts.legal_actions()[0])
    rkka = 0
    seen = set()
    for seed in range(8):
        other = ts.resample(rkka, random.Random(seed))
        # S5.2: rkka sees the same whatever the Wehrmacht holds
        assert other.observation_hot(rkka) == ts.observation_hot(rkka)
        assert other.observation_string(rkka) == ts.observation_string(rkka)
        assert other.information_state_string(rkka) == ts.information_state_string(rkka)
        assert other.state.get("cards", "hand:rkka") == ts.state.get("cards", "hand:rkka")
        seen.add(other.state.get("cards", "hand:wehrmacht"))
    assert len(seen) > 1  # the hidden hand was dealt anew


def test_hidden_air_placements_are_not_observed() -> None:
    """S10.2: while the Wehrmacht places, the RKKA's placements stay hidden from it."""
    rules = StalingradRules("short")
    game = TokenGame(rules)
    found = None
    for seed in range(20):
        rng = random.Random(seed)
        ts = game.new_initial_state()
        while not ts.is_terminal():
            st = ts.state
            plan = st.get("air_plan", "rkka:bomber") or st.get("air_plan", "rkka:fighter")
            if (
                st.pending
                and st.pending[-1].kind == "air_place"
                and st.pending[-1].side == ("wehrmacht")
                and plan
            ):
                found = ts
                break
            if ts.is_chance_node():
                ids, ps = zip(*ts.chance_outcomes(), strict=True)
                ts.apply(rng.choices(ids, ps)[0])
            else:
                legal = ts.legal_actions()
                ts.apply(legal[rng.randrange(len(legal))])
        if found is not None:
            break
    if found is None:
        pytest.fail("no game of 20 reached a Wehrmacht placement after an RKKA one")
    st = found.state
    key = "rkka:bomber" if st.get("air_plan", "rkka:bomber") else "rkka:fighter"
    seen = found.observation_string(1)
    assert "?" in seen
    assert str(st.get("air_plan", key)) not in seen
    twin = found.clone()
    twin.state.put("air_plan", key, ())  # another RKKA plan: the Wehrmacht sees no change
    assert twin.observation_hot(1) == found.observation_hot(1)


# -- the observation encoder's memo and the dense arrays -----------------------------------


def test_board_planes_memo_reads_what_it_declares() -> None:
    """Stalingrad's Board.reads (S1.3 pieces, S10 aircraft, S6.3 ZOC): under read checking
    every observation recomputes its planes, fails on a table read but not declared and
    on a kept result that differs from a fresh one."""
    from hexwar.engine.memo import read_checking

    game = TokenGame(StalingradRules("short"))
    steps = []

    def observe(ts: TokenState) -> None:
        if len(steps) < 150:
            steps.append([ts.observation_hot(p) for p in (0, 1)])

    with read_checking():
        random_game(game, 5, observe)
    assert len(steps) == 150


@pytest.mark.parametrize("name", ["duel", "crossing", "triumph_and_glory"])
def test_observation_memos_read_what_they_declare_in_other_games(name: str) -> None:
    """Under read checking the observation's memos (features, planes) recompute every
    call and fail on an undeclared read: the generic sections are kept per position,
    since the player to act may read a game's tables (Triumph & Glory's ``act``).
    («Бой отрядов» declares no memo of its own: its engine memos make this slow.)"""
    from hexwar.engine.memo import read_checking

    game = TokenGame.from_name(name)
    rng = random.Random(1)
    ts = game.new_initial_state()
    steps = 0
    with read_checking():
        while not ts.is_terminal() and steps < 20:
            if ts.is_chance_node():
                ids, ps = zip(*ts.chance_outcomes(), strict=True)
                ts.apply(rng.choices(ids, ps)[0])
                continue
            for p in range(game.num_players):
                ts.observation_hot(p)
            legal = ts.legal_actions()
            ts.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 5


def test_history_kept_action_by_action_is_the_engines() -> None:
    """The information-state history the token state keeps (S10.2 placements private to
    a side shown as ``?``) equals the engine's observation, through clones too."""
    game = TokenGame(StalingradRules("short"))
    checked = []

    def check(ts: TokenState) -> None:
        if len(ts.state.history) % 7 == 0:
            for side in ("rkka", "wehrmacht"):
                assert ts.seen_history(side) == ts.state.observation(side)["history"]
            twin = ts.clone()
            twin.apply(twin.legal_actions()[0])
            theirs = twin.state.observation("rkka")["history"]
            assert twin.seen_history("rkka") == theirs
            checked.append(len(theirs))

    ts = random_game(game, 4, check)
    assert ts.seen_history("wehrmacht") == ts.state.observation("wehrmacht")["history"]
    assert len(checked) > 10
    assert "?" in " ".join(ts.seen_history("rkka")) + " ".join(ts.seen_history("wehrmacht"))


def test_board_planes_memo_catches_a_missing_read() -> None:
    import attrs

    from hexwar.base.errors import UndeclaredRead
    from hexwar.engine.memo import read_checking
    from hexwar.engine.observe import Encoder, ObservationView

    rules = StalingradRules("short")
    view = rules.observation_view()
    assert view.board is not None
    board = attrs.evolve(view.board, reads=("units",))  # forgets air, sky and at
    encoder = Encoder(rules, ObservationView(board=board, features=view.features))
    state = TokenGame(rules).new_initial_state().state
    with read_checking(), pytest.raises(UndeclaredRead, match="but declares only"):
        encoder.encode(state, "rkka")


def _whole_board(rules: StalingradRules) -> Any:
    """Stalingrad's board listed from the whole view, as it was declared before it was
    declared piece by piece (the reference): ground units from the ``stacks`` table by
    step (S1.3), aircraft from ``air`` and ``sky`` (S10), each side's ZOC from the
    rules' own ``zoc_of_side`` (S6.3)."""
    import attrs

    from hexwar.engine.observe import Observed
    from hexwar_stalingrad.board import FULL, PIECES, REDUCED, STEPS
    from hexwar_stalingrad.ground import zoc_of_side

    data = rules.data
    ground = {unit: info.side for unit, info in data.ground.items()}
    air = {unit: info.side for unit, info in data.air.items()}

    def pieces(view: Observed) -> list[tuple[str, str, str]]:
        reduced = view.table(STEPS)
        out = [
            (label, ground[unit], REDUCED if reduced.get(unit) else FULL)
            for label, stack in view.table(PIECES.stacks).items()
            if isinstance(stack, tuple)
            for unit in stack
            if unit in ground
        ]
        flying = view.table("sky")
        for unit, value in view.table("air").items():
            if isinstance(value, tuple) and unit in air:
                where, step = value
                sky = flying.get(unit)
                out.append(
                    (str(sky[0] if isinstance(sky, tuple) else where), air[unit], f"air-{step}")
                )
        return out

    board = rules.observation_view().board
    assert board is not None
    return attrs.evolve(
        board,
        pieces=pieces,
        zoc=lambda view, side: zoc_of_side(view.state, side),
        piece=None,
        piece_zoc=None,
        keyed=(),
        reads=(*PIECES.reads, STEPS, "air", "sky"),
    )


def _encoders_agree(ts: TokenState, anew: Any, dense: Any) -> None:
    """Every seat's hot indices (the game's encoder: planes patched piece by piece)
    equal ``anew``'s (the whole-view board), and the dense arrays are those indices."""
    import numpy as np

    game = ts.game
    acting = ts.current_player()
    for p, seat in enumerate(game.seats):
        hot = ts.observation_hot(p)
        legal = ts.legal_ids() if acting == p else ()
        prefix = ts.visible_prefix(p)
        again = anew.encode(ts.state, seat.side, seat=p, acting=acting, prefix=prefix, legal=legal)
        assert sorted(hot) == sorted(again)
        arr, mask = dense.observe(ts, p)
        assert np.flatnonzero(arr).tolist() == sorted(set(hot))
        assert np.flatnonzero(mask).tolist() == ts.legal_actions(p)


def test_memoised_planes_equal_planes_computed_anew() -> None:
    """The planes patched piece by piece (S1.3 steps, S10 aircraft, S6.3 ZOC) and kept
    on the declared tables' versions are those of the board listed from the whole view
    per position, and the dense arrays are the hot indices (fresh arrays each call)."""
    pytest.importorskip("numpy")
    import attrs
    import numpy as np

    from hexwar.engine.observe import Encoder, ObservationView
    from hexwar.interop.tensor import Dense

    rules = StalingradRules("short")
    game = TokenGame(rules)
    view = rules.observation_view()
    assert view.board is not None
    assert view.board.reads is not None
    assert all(f.reads is not None for f in view.features)
    per_position = attrs.evolve(_whole_board(rules), reads=None)
    features = tuple(attrs.evolve(f, reads=None) for f in view.features)
    anew = Encoder(rules, ObservationView(board=per_position, features=features))
    dense = Dense(game)
    seen = 0

    def check(ts: TokenState) -> None:
        nonlocal seen
        _encoders_agree(ts, anew, dense)
        for p in (0, 1):
            hot = ts.observation_hot(p)
            assert np.flatnonzero(ts.observation_tensor(p)).tolist() == sorted(set(hot))
            arr = dense.observation(ts, p)
            arr[:] = 0  # a fresh array: the next call is not affected
            assert np.flatnonzero(dense.observation(ts, p)).tolist() == sorted(set(hot))
            assert np.flatnonzero(dense.mask(ts, p)).tolist() == ts.legal_actions(p)
            out = np.ones(dense.size, np.float32)  # written over whole, ``legal`` too
            arr, mask = dense.observe(ts, p, out)
            assert arr is out
            assert np.flatnonzero(out).tolist() == sorted(set(hot))
            mask[:] = 1  # a fresh mask: the kept one (the ``legal`` section) unchanged
            assert np.flatnonzero(dense.mask(ts, p)).tolist() == ts.legal_actions(p)
            assert np.flatnonzero(dense.observation(ts, p)).tolist() == sorted(set(hot))
        seen += 1

    random_game(game, 2, check)
    assert seen > 100


def test_patched_planes_after_clone_undo_resample_and_copies() -> None:
    """The planes each seat keeps are patched from whatever state is observed next: at
    every step of random games, and at each of a clone played on, the hexwar state's
    undo, a resampling of the hidden cards (S5.2), a deep copy, a pickle round trip and
    a write outside any action (a unit reduced, S1.3), the tensors equal those of the
    board listed from the whole view."""
    pytest.importorskip("numpy")
    from hexwar.engine.observe import Encoder, ObservationView
    from hexwar.interop.tensor import Dense
    from hexwar_stalingrad.board import STEPS

    rules = StalingradRules("short")
    game = TokenGame(rules)
    view = rules.observation_view()
    anew = Encoder(rules, ObservationView(board=_whole_board(rules), features=view.features))
    dense = Dense(game)
    rng = random.Random(7)
    kinds: dict[str, int] = {}

    def check(ts: TokenState) -> None:
        _encoders_agree(ts, anew, dense)
        if len(ts.state.history) % 5:
            return
        twin = ts.clone()
        for _ in range(3):  # a clone played on, observed in turn with the original
            if twin.is_terminal():
                break
            legal = twin.legal_actions()
            twin.apply(legal[rng.randrange(len(legal))])
        others = [twin, ts, copy.deepcopy(ts), pickle.loads(pickle.dumps(ts))]
        others.append(ts.resample(rng.randrange(2), rng))
        back = ts.clone()
        if back.state.can_undo():
            back.state.undo()
            others.append(game.state_of(back.state))
        hurt = ts.clone()
        unit = next(iter(hurt.state.table("pieces")), None)
        if unit is not None:
            hurt.state.put(STEPS, unit, 1)  # outside any action: no journal entry
            others.append(hurt)
        for other in others:
            _encoders_agree(other, anew, dense)
        _encoders_agree(ts, anew, dense)
        kinds["branches"] = kinds.get("branches", 0) + len(others)

    random_game(game, 11, check)
    assert kinds["branches"] > 100


def _reference_planes(encoder: Any, state: State, side: str) -> set[int]:
    """The board section's ones, written out from the documented layout (one plane per
    terrain name sorted, per (side, status, count level), per side's ZOC), piece by piece
    with no memo: what the encoder's planes must equal."""
    from hexwar.engine.observe import Observed

    board = encoder.view.board
    base, n = encoder.section("board")[0], len(board.cells)
    cells = {c: i for i, c in enumerate(board.cells)}
    terrains = sorted(set(board.terrain))
    sides = list(encoder.ruleset.sides)
    out = {base + terrains.index(t) * n + i for i, t in enumerate(board.terrain)}
    first = base + len(terrains) * n
    view = Observed(state, side)
    count: dict[tuple[int, int, int], int] = {}
    for label, owner, status in board.pieces(view):
        if label in cells:
            key = (sides.index(owner), board.statuses.index(status), cells[label])
            count[key] = count.get(key, 0) + 1
    for (s, k, i), c in count.items():
        plane = (s * len(board.statuses) + k) * board.depth
        out |= {first + (plane + level) * n + i for level in range(min(c, board.depth))}
    zoc = first + len(sides) * len(board.statuses) * board.depth * n
    for s, name in enumerate(sides):
        out |= {zoc + s * n + cells[lab] for lab in board.zoc(view, name) if lab in cells}
    return out


def test_board_planes_equal_a_reference_encoding() -> None:
    """The kept, per-piece-indexed planes (S1.3 steps, S10 aircraft, S6.3 ZOC) equal
    the layout written out piece by piece, for both seats along random games; the
    encoder's pieces and ZOC parts are ascending."""
    game = TokenGame(StalingradRules("short"))
    encoder = game.encoder
    base, size = encoder.section("board")
    seen = 0

    def check(ts: TokenState) -> None:
        nonlocal seen
        for p, seat in enumerate(game.seats):
            planes, _, _ = ts.observation_parts(p)
            assert all(list(part) == sorted(part) for part in planes)
            board = {i for i in ts.observation_hot(p) if base <= i < base + size}
            selected = encoder.board_shape[0] - 1  # the prefix's plane: not the board's own
            board = {i for i in board if (i - base) // encoder.board_shape[1] != selected}
            assert board == _reference_planes(encoder, ts.state, seat.side)
        seen += 1

    random_game(game, 3, check)
    assert seen > 100


def test_feature_memo_catches_a_missing_read() -> None:
    """Features declaring fewer tables than they read fail under read checking (the
    memo keeps the generic sections and features on the union of their reads: the hand,
    S5.2, reads ``cards``, which nothing else declares)."""
    import attrs

    from hexwar.base.errors import UndeclaredRead
    from hexwar.engine.memo import read_checking
    from hexwar.engine.observe import Encoder, ObservationView

    rules = StalingradRules("short")
    view = rules.observation_view()
    features = tuple(
        attrs.evolve(f, reads=("$effects",)) if f.name == "hand" else f for f in view.features
    )
    encoder = Encoder(rules, ObservationView(board=view.board, features=features))
    state = TokenGame(rules).new_initial_state().state
    with read_checking(), pytest.raises(UndeclaredRead, match="but declares only"):
        encoder.encode(state, "rkka")


# -- the frameworks' own checks ---------------------------------------------------------------


def _random_sims(name: str, sims: int) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from hexwar.interop.openspiel import register as register_spiel

    game = pyspiel.load_game(register_spiel(name))
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    return game


@pytest.mark.slow
@pytest.mark.parametrize("name", [*SMALL, *STALINGRAD])
def test_openspiel_random_sim_test(name: str) -> None:
    """Acceptance 1: 100 sims of each small game, 5 of each Stalingrad length."""
    game = _random_sims(name, SIMS[name])
    if name in STALINGRAD:  # S5.2 hands are hidden; one side wins (S11)
        import pyspiel

        info = game.get_type()
        assert info.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert info.utility == pyspiel.GameType.Utility.ZERO_SUM


@pytest.mark.parametrize("name", SMALL)
def test_openspiel_random_sim_test_quick(name: str) -> None:
    _random_sims(name, QUICK_SIMS[name])


def test_openspiel_random_sim_test_stalingrad_quick() -> None:
    _random_sims("stalingrad-short", 1)


@pytest.mark.slow
def test_openspiel_mcts_plays_a_short_game() -> None:
    """Acceptance 2: OpenSpiel's MCTS bot (random rollouts) plays a short game to its end."""
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from hexwar.interop.openspiel import register as register_spiel

    game = pyspiel.load_game(register_spiel("stalingrad-short"))
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 2, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def _pettingzoo_checks(name: str, cycles: int) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from hexwar.interop.pettingzoo import HexwarAEC

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for hint in DICT_HINTS:
            warnings.filterwarnings("ignore", message=hint)
        api_test(HexwarAEC(name), num_cycles=cycles, verbose_progress=False)
        seed_test(lambda: HexwarAEC(name), num_cycles=cycles)


@pytest.mark.slow
@pytest.mark.parametrize("name", [*SMALL, *STALINGRAD])
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    """Acceptance 3: PettingZoo's api_test and seed_test, every game, no other warning."""
    _pettingzoo_checks(name, 1000)


@pytest.mark.parametrize("name", [*SMALL, "stalingrad-short"])
def test_pettingzoo_api_and_seed_tests_quick(name: str) -> None:
    _pettingzoo_checks(name, 100)


@pytest.mark.parametrize("name", [*SMALL, *STALINGRAD])
def test_gymnasium_check_env(name: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from hexwar.interop.gymnasium import HexwarEnv

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(HexwarEnv(name), skip_render_check=True)
