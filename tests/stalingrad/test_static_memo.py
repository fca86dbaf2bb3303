"""``Static``'s derived data (interned actions, disks, path steps, …) is bounded by
``static.KEPT`` per family, and starting a family afresh changes no game (issue 11's
memory bound: a process playing many games keeps a bounded memo)."""

from __future__ import annotations

import pytest

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import Player, RandomPlayer, play
from hexwar_stalingrad import static as static_mod
from hexwar_stalingrad.heuristic import HeuristicBot
from hexwar_stalingrad.rules import StalingradRules

TINY = 3


def _games(rules: StalingradRules, bots: bool) -> list[list[str]]:
    """A random short game, and with ``bots`` a heuristic one: the actions of each."""
    tables: list[dict[str, Player]] = [{s: RandomPlayer(7 + i) for i, s in enumerate(rules.sides)}]
    if bots:
        tables.append({"rkka": HeuristicBot(2), "wehrmacht": HeuristicBot(3)})
    out = []
    for seed, players in enumerate(tables):
        out.append([str(a) for a in play(rules.new_state(), players, SeededDriver(seed)).history])
    return out


@pytest.mark.parametrize("bots", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_full_family_starts_afresh_and_changes_no_game(
    monkeypatch: pytest.MonkeyPatch, bots: bool
) -> None:
    rules = StalingradRules(length="short")
    expected = _games(rules, bots)
    data = rules.data  # the scenario's data, shared by its rulesets
    sizes = data.memo_sizes()
    assert set(sizes) == set(static_mod.KEPT)
    assert all(sizes[f] <= bound for f, bound in static_mod.KEPT.items())
    assert sizes["ring"]  # the families are in use (bombardment's rings, S7.1)
    assert sizes["action"] or not bots  # the bot's interned actions
    assert sizes["path_steps"] or not bots
    data.clear_memos()  # start empty: the families then fill past TINY
    assert not any(data.memo_sizes().values())
    monkeypatch.setattr(static_mod, "KEPT", dict.fromkeys(static_mod.KEPT, TINY))
    assert _games(rules, bots) == expected
    assert all(n <= TINY for n in data.memo_sizes().values())
