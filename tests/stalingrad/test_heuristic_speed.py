"""The heuristic bot's shortcuts give the answers of the long way (speed only, S2.1, S6).

Each shortcut the bot takes to skip work is checked against the work itself: a unit it
does not score scores nothing when scored, the map queries it reads instead of a search
bound or equal that search.
"""

from __future__ import annotations

from collections import Counter, deque

import pytest

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import play
from hexwar_stalingrad import ground
from hexwar_stalingrad.heuristic import HeuristicBot, _RingMoves
from hexwar_stalingrad.rules import StalingradRules
from hexwar_stalingrad.static import Static

LONG = StalingradRules(length="long")
SHORT = StalingradRules(length="short")


class _Checking(HeuristicBot):
    """A bot that, whenever it skips a unit (:meth:`HeuristicBot._stays`), scores the
    unit's moves on its real end hexes anyway and counts the skips by kind."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.skips: Counter[str] = Counter()

    def _stays(  # type: ignore[override]
        self,
        data: Static,
        unit: str,
        origin: str,
        goal: str | None,
        ring: _RingMoves | None,
        held: frozenset[str],
        hold: frozenset[str],
        escapes: frozenset[str] | None,
        enemies: tuple[str, ...],
        movers: ground.Movers,
        points: int,
    ) -> bool:
        still = super()._stays(
            data, unit, origin, goal, ring, held, hold, escapes, enemies, movers, points
        )
        if still:
            ends = movers.ends(unit, origin, points)
            goals = {unit: goal} if goal is not None else {}
            score, targets = self._unit_moves(
                movers.state, unit, origin, ends, goals, ring, held, hold
            )
            assert score == float("-inf"), (unit, origin, score)
            assert not targets, (unit, origin, targets)
            artillery = data.ground[unit].arm in ground.ARTILLERY_ARMS
            kind = "artillery" if artillery else "no ring" if ring is None else "ring"
            self.skips[kind + (" holding" if held else "")] += 1
        return still


def _skips(rules: StalingradRules, seed: int) -> Counter[str]:
    """Play a checked game (chance ``SeededDriver(seed)``); the skips by kind."""
    bots = {"rkka": _Checking(2 * seed), "wehrmacht": _Checking(2 * seed + 1)}
    play(rules.new_state(), bots, SeededDriver(seed))
    return bots["rkka"].skips + bots["wehrmacht"].skips


def test_skipped_units_would_score_no_move_s6_s11_1() -> None:
    # every unit the bot passes over without asking its end hexes (artillery in range,
    # S7.1; no nearer hex; a ring unit with no gap within reach, S11.1) scores no move
    # above 0 when its real end hexes are scored (a short game; the long one: below)
    skips = _skips(SHORT, 8)
    assert skips["ring holding"] > 20, skips
    assert skips["artillery"] > 20, skips
    assert skips["no ring"], skips


@pytest.mark.slow
def test_skipped_units_would_score_no_move_long_game_s11_2() -> None:
    # as above in a long game: the relief's screen among the ring's hexes (S11.2)
    skips = _skips(LONG, 7)
    assert skips["ring holding"] > 20, skips
    assert skips["artillery"] > 20, skips
    assert skips["no ring"], skips


def test_zoc_sources_invert_the_zoc_disks_s2_1() -> None:
    data = LONG.data
    pairs = {(lab, h) for lab, disk in data.zoc_disks.items() for h in disk}
    assert pairs == {(lab, h) for h, found in data.zoc_sources.items() for lab in found}


def test_a_move_ends_within_its_points_at_the_cheapest_step_s6() -> None:
    # Static.reach (the engine's movement search, S6.2-S6.4) ends no farther than
    # Static.around(label, points // least_step), with and without enemy units
    data = LONG.data
    labels = sorted(data.passable)[::37]
    enemies = frozenset(labels[3::5])
    checked = 0
    for mclass in sorted(data.game_map.chart.movement_classes):
        least = data.least_step((), mclass)
        assert least > 0
        for label in labels:
            if label in enemies:
                continue
            for points in (1, 2, 4, 6):
                for foes in (frozenset(), enemies):
                    reach = data.reach((), mclass, foes, label, points)
                    assert set(reach) <= data.around(label, int(points // least))
                    checked += bool(reach)
    assert checked > 100


def test_path_steps_are_breadth_first_steps_through_passable_hexes() -> None:
    data = LONG.data
    for sources in [(sorted(data.passable)[100],), tuple(sorted(data.city))]:
        want = dict.fromkeys(sorted(set(sources) & data.passable), 0)
        queue = deque(want)
        while queue:
            lab = queue.popleft()
            for n in data.neighbors[lab]:
                if n in data.passable and n not in want:
                    want[n] = want[lab] + 1
                    queue.append(n)
        assert data.path_steps(sources) == want
