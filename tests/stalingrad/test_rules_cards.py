"""Action cards (S5): decks, draws, marks, and every effect kind as a hook (S5.4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from hexwar.engine.actions import END, Action
from hexwar.engine.hooks import Expiry
from hexwar.engine.state import HIDDEN, State
from hexwar_stalingrad import cards_rules, ground, reinforce
from hexwar_stalingrad.board import SIDES, enemy, static, step, where
from hexwar_stalingrad.cards import EFFECT_KINDS, WINDOWS, Card, load_cards
from hexwar_stalingrad.rules import StalingradRules, weather
from hexwar_stalingrad.situations import ready, situation

RULES = StalingradRules()
TRENCH = "2016"
RING = ("2116", "2115", "2015", "1916", "2017", "2117")


def advance_to_turn(state: State, turn: int) -> None:
    """End phases (and decline optional decisions) until ``turn`` starts."""
    while state.turn < turn:
        state.apply("end")


def test_every_effect_kind_of_the_vocabulary_has_a_hook() -> None:
    assert set(EFFECT_KINDS) == set(cards_rules.EFFECT_RULES)


# -- set-up, draws, marks ---------------------------------------------------------------------


def test_s3_3_decks_are_shuffled_by_chance_events_hidden_from_both_sides() -> None:
    state = RULES.new_state()
    assert state.is_chance_node()
    assert state.pending[-1].kind == "shuffle"
    state = ready(RULES, seed=1)
    decks = {d: list(state.get("cards", f"deck:{d}") or ()) for d in cards_rules.DECK_ORDER}
    held = {s: cards_rules.hand(state, s) for s in RULES.sides}
    for d in cards_rules.DECK_ORDER:
        all_ids = {c.id for c in cards_rules.deck_cards(state, d)}
        in_play = set(decks[d]) | set(held.get(d, [])) | {state.get("cards", "common")}
        assert all_ids <= in_play
    obs = state.observation("rkka")
    assert obs["tables"]["cards"]["deck:rkka"] == HIDDEN
    assert all(h == HIDDEN for h in obs["history"][:10])  # the shuffle draws


def test_s5_2_each_side_draws_a_secret_card_s5_4_hidden_from_the_opponent() -> None:
    state = ready(RULES, seed=2)
    for side, other in (("rkka", "wehrmacht"), ("wehrmacht", "rkka")):
        assert len(cards_rules.hand(state, side)) == 1
        assert state.observation(other)["tables"]["cards"][f"hand:{side}"] == HIDDEN
        assert state.observation(side)["tables"]["cards"][f"hand:{side}"] != HIDDEN


def test_s5_1_the_newest_common_event_replaces_the_previous() -> None:
    state = ready(RULES, seed=3)
    first = state.get("cards", "common")
    assert isinstance(first, str)
    assert any(e.source == first for e in state.effects)
    advance_to_turn(state, 2)
    second = state.get("cards", "common")
    assert second != first
    mark = static(state).cards[first].mark
    lasting = [e for e in state.effects if e.source == first]
    assert bool(lasting) == (mark == "∞")
    if mark != "∞":
        assert list(state.get("cards", "deck:common") or ())[-1] == first  # under the deck


def _with_card(card: str) -> State:
    state = situation(RULES, {"r-26tc": "1010", "w-xi-ak": "3030"}, phase="movement")
    deck = tuple(c for c in state.get("cards", "deck:rkka") or () if c != card)
    state.put("cards", "deck:rkka", deck)  # as if just drawn
    state.put("cards", "hand:rkka", (card,))
    return state


def test_s5_3_a_bang_card_is_played_later_and_goes_under_its_deck() -> None:
    state = _with_card("rkka-into-the-breach")  # "!": movement +1 for tanks, this turn
    before = ground.allowance(state, "r-26tc")
    state.apply("play rkka-into-the-breach")
    assert ground.allowance(state, "r-26tc") == before + 1
    assert cards_rules.hand(state, "rkka") == []
    assert list(state.get("cards", "deck:rkka") or ())[-1] == "rkka-into-the-breach"
    assert "play rkka-into-the-breach" in state.observation("wehrmacht")["history"]  # revealed


def test_s5_3_an_infinity_card_stays_in_force_for_the_game() -> None:
    state = _with_card("rkka-stavka-reserves")
    state.apply("play rkka-stavka-reserves")
    assert "rkka-stavka-reserves" not in (state.get("cards", "deck:rkka") or ())
    advance_to_turn(state, 3)
    assert any(
        e.source == "rkka-stavka-reserves" and e.expiry == Expiry.GAME for e in state.effects
    )


def test_s5_3_a_one_card_still_held_is_played_at_the_start_of_its_window() -> None:
    """Ruling S5.3: Filippov's raid (``1``, window ``rkka_exploitation``) is not played by
    its holder; it is played when the RKKA exploitation phase starts, and its ``phase``
    effect is in force for that phase."""
    state = _with_card("rkka-filippov-raid")
    assert static(state).cards["rkka-filippov-raid"].window == "rkka_exploitation"
    before = ground.allowance(state, "r-26tc")
    while state.phase != "exploitation":
        assert cards_rules.hand(state, "rkka") == ["rkka-filippov-raid"]
        state.apply("end")
    assert cards_rules.hand(state, "rkka") == []
    assert ground.allowance(state, "r-26tc") == before + 2
    assert list(state.get("cards", "deck:rkka") or ())[-1] == "rkka-filippov-raid"


def test_s5_3_fuel_shortage_bites_the_wehrmacht_in_the_turn_it_is_drawn() -> None:
    """Ruling S5.3: the Wehrmacht moves second, but its ``1`` Fuel Shortage is played when
    its movement phase starts: a 6th Army tank moves one hex less, and does not exploit."""
    state = situation(
        RULES, {"w-16pz": "1010", "r-1ga": "3030"}, stage="wehrmacht", phase="movement"
    )
    free = {a.args[1] for a in state.legal_actions() if a.kind == "move"}
    state = situation(RULES, {"w-16pz": "1010", "r-1ga": "3030"}, stage="rkka", phase="movement")
    state.put("cards", "hand:wehrmacht", ("wehrmacht-fuel-shortage",))
    while state.stage != "wehrmacht":
        state.apply("end")
    assert cards_rules.hand(state, "wehrmacht") == []  # played when its window started
    assert ground.allowance(state, "w-16pz") == static(state).ground["w-16pz"].movement.full - 1
    short = {a.args[1] for a in state.legal_actions() if a.kind == "move"}
    assert short < free
    state.apply("end")
    while state.phase != "exploitation":
        state.apply("end")
    assert not any(a.kind == "move" for a in state.legal_actions())  # no exploitation


# -- each effect kind: its effect and its expiry (S5.4) ----------------------------------------


def test_movement_bonus_applies_to_its_arms_and_lapses_with_the_phase() -> None:
    state = situation(
        RULES, {"r-26tc": "1010", "r-1ga": "0505", "w-xi-ak": "3030"}, phase="movement"
    )
    state.add_effect(
        "movement_bonus", {"side": "rkka", "arms": ("tank",), "amount": 2}, expiry=Expiry.PHASE
    )
    assert ground.allowance(state, "r-26tc") == 6
    assert ground.allowance(state, "r-1ga") == 3
    state.apply("end")
    assert ground.allowance(state, "r-26tc") == 4


def test_odds_shift_on_attack_and_on_defence_lapses_with_the_turn() -> None:
    state = situation(RULES, {"r-1ga": RING[0], "r-21a-a": RING[1], "w-xi-ak": TRENCH})
    state.add_effect("odds_shift", {"side": "rkka", "shift": 1, "on": "attack"})
    state.add_effect(
        "odds_shift", {"side": "wehrmacht", "shift": -2, "on": "defence", "arms": ("tank",)}
    )  # not a tank: no effect
    assert ground.attack_odds(state, "w-xi-ak", ["r-1ga", "r-21a-a"]) == ("2:1", 1)
    while state.turn == 1:
        state.apply("end")
    assert not state.effects or all(e.kind != "odds_shift" for e in state.effects)


def test_die_modifier_changes_the_bombardment_roll() -> None:
    data = static(situation(RULES, {"r-1ga": "1010"}, phase="movement"))
    target = next(h for h in data.disk("1010", 2) if data.distance(h, "1010") == 2)
    state = situation(RULES, {"r-swf-art": target, "w-xi-ak": "1010"}, phase="artillery")
    assert ground.bombard_result(state, "r-swf-art", "w-xi-ak", 3).code == "Lo"
    state.add_effect(
        "die_modifier", {"side": "rkka", "combat": "bombardment", "amount": -1}, expiry=Expiry.PHASE
    )
    assert ground.bombard_result(state, "r-swf-art", "w-xi-ak", 3).code == "NE"
    state.add_effect("die_modifier", {"side": "rkka", "combat": "ground", "amount": 5})
    assert ground.bombard_result(state, "r-swf-art", "w-xi-ak", 3).code == "NE"  # other combat


def test_replacement_points_general_and_group_scoped() -> None:
    state = situation(
        RULES,
        {"w-xi-ak": ("1010", "reduced"), "w-rom-i": ("3030", "reduced")},
        turn=2,
        stage="replacements",
        phase="wehrmacht",
    )
    assert state.get("game", "rp:wehrmacht") == 2
    state.add_effect("replacement_points", {"side": "wehrmacht", "delta": -1})
    state.add_effect("replacement_points", {"side": "wehrmacht", "delta": 1, "group": "6th_army"})
    reinforce.begin_replacements(state, "wehrmacht")
    assert state.get("game", "rp:wehrmacht") == 1
    assert state.get("game", "rpg:wehrmacht:6th_army") == 1
    state.apply("restore w-xi-ak")  # 6th Army: paid from its own extra point
    assert state.get("game", "rp:wehrmacht") == 1
    state.apply("restore w-rom-i")
    assert step(state, "w-rom-i") == "full"
    assert state.get("game", "rp:wehrmacht") is None


def test_weather_grounds_aviation_for_the_turn() -> None:
    state = situation(
        RULES, {"r-1ga": "1010", "w-xi-ak": "3030"}, turn=3, stage="rkka", phase="movement"
    )
    assert weather(state) != "non_flying"
    state.add_effect("weather", {"non_flying": True})
    assert weather(state) == "non_flying"
    advance_to_turn(state, 4)
    assert all(e.kind != "weather" or e.source is not None for e in state.effects)  # lapsed


def test_air_strength_hook_for_the_air_rules() -> None:
    state = situation(RULES, {"r-1ga": "1010"}, phase="movement")
    state.add_effect("air_strength", {"side": "rkka", "role": "fighter", "amount": 1})
    assert state.hook("air_strength", 6, unit="ra-lagg3", side="rkka", role="fighter") == 7
    assert state.hook("air_strength", 6, unit="ra-x", side="rkka", role="bomber") == 6
    assert state.hook("air_strength", 6, unit="wa-x", side="wehrmacht", role="fighter") == 6


def test_no_exploitation_keeps_the_group_in_place() -> None:
    state = situation(
        RULES,
        {"w-16pz": "1010", "w-rom-1ad": "0505", "r-1ga": "3030"},
        stage="wehrmacht",
        phase="exploitation",
    )
    state.add_effect("no_exploitation", {"side": "wehrmacht", "group": "6th_army"})
    movers = {a.args[0] for a in state.legal_actions() if a.kind == "move"}
    assert movers == {"w-rom-1ad"}


def test_no_retreat_turns_a_retreat_into_a_loss_in_place() -> None:
    state = situation(
        RULES, {"r-1ga": RING[0], "r-26tc": RING[1], "r-21a-a": RING[2], "w-xi-ak": TRENCH}
    )
    state.add_effect("no_retreat", {"side": "wehrmacht"})
    state.apply("attack w-xi-ak r-1ga r-21a-a r-26tc")
    crt = static(state).crt
    state.apply(f"roll {next(d for d in range(1, 7) if crt.result_at('3:1', d).code == 'DR')}")
    assert where(state, "w-xi-ak") == TRENCH
    assert step(state, "w-xi-ak") == "reduced"


def test_terrain_cost_closes_and_opens_the_volga_crossing() -> None:
    state = situation(RULES, {"r-1ga": "2816", "w-xi-ak": "1010"}, phase="movement")
    ends = {a.args[1] for a in state.legal_actions() if a.kind == "move"}
    assert "2815" in ends  # a Volga crossing
    state.add_effect(
        "terrain_cost", {"terrain": "volga_crossing", "cost": "impassable"}, expiry=Expiry.PHASE
    )
    ends = {a.args[1] for a in state.legal_actions() if a.kind == "move"}
    assert "2815" not in ends
    state.apply("end")
    assert not state.effects


SAMPLE_PARAMS = {
    "movement_bonus": {"side": "rkka", "amount": 1},
    "odds_shift": {"side": "rkka", "shift": 1, "on": "attack"},
    "die_modifier": {"side": "rkka", "combat": "ground", "amount": 1},
    "replacement_points": {"side": "rkka", "delta": 1},
    "weather": {"non_flying": True},
    "air_strength": {"side": "rkka", "amount": 1},
    "no_exploitation": {"side": "rkka"},
    "no_retreat": {"side": "rkka"},
    "terrain_cost": {"terrain": "volga_crossing", "cost": 1},
}


def test_every_effect_kind_lapses_by_its_expiry() -> None:
    """S5.3/S5.4: ``turn`` effects end with the turn, ``game`` (``∞``) effects never."""
    assert set(SAMPLE_PARAMS) == set(EFFECT_KINDS)
    state = situation(RULES, {"r-1ga": "1010", "w-xi-ak": "3030"}, phase="movement")
    for kind, params in sorted(SAMPLE_PARAMS.items()):
        state.add_effect(kind, params, expiry=Expiry.TURN, source=f"t-{kind}")
        state.add_effect(kind, params, expiry=Expiry.GAME, source=f"g-{kind}")
    advance_to_turn(state, 2)
    sources = {e.source for e in state.effects}
    for kind in SAMPLE_PARAMS:
        assert f"t-{kind}" not in sources
        assert f"g-{kind}" in sources


# -- ruling S5.3: every card bites in the turn it is drawn ------------------------------------

DRAWN = 3  # a flying turn (S10.1) with a replacement stage (S4)


def _window_index(stage: str, phase: str) -> int:
    """Where a phase start lies among the card windows (-1: the cards stage)."""
    if stage in ("replacements", "air"):
        return WINDOWS.index(stage)
    if stage in SIDES:
        return WINDOWS.index(f"{stage}_{phase}")
    return -1


def _unit(state: State, side: str, params: Mapping[str, object]) -> str:
    """A ground unit of ``side`` that an effect with ``params`` names."""
    arms, group = params.get("arms"), params.get("group")
    return next(
        u
        for u, info in sorted(static(state).ground.items())
        if info.side == side
        and (not isinstance(arms, tuple) or info.arm in arms)
        and (group is None or group in info.groups)
    )


def _value(state: State, kind: str, params: Mapping[str, object]) -> object:
    """What the hook of effect ``kind`` answers now for a unit or side the effect names."""
    side = params.get("side")
    side = "rkka" if side in (None, "both") else str(side)
    if kind == "movement_bonus":
        return state.hook("movement_allowance", 3, unit=_unit(state, side, params))
    if kind == "odds_shift":
        mine, foe = _unit(state, side, params), _unit(state, enemy(side), {})
        if params["on"] == "attack":
            return state.hook("odds_shift", 0, attacker=(mine,), defender=foe)
        return state.hook("odds_shift", 0, attacker=(foe,), defender=mine)
    if kind == "die_modifier":
        return state.hook("die_modifier", 0, side=side, combat=params["combat"])
    if kind == "replacement_points":
        return state.hook("replacement_points", 2, side=side, group=params.get("group"))
    if kind == "weather":
        return weather(state)
    if kind == "air_strength":
        role = params.get("role", "fighter")
        unit = next(u for u, a in sorted(static(state).air.items()) if a.side == side)
        return state.hook("air_strength", 6, unit=unit, side=side, role=role)
    if kind == "no_exploitation":
        return state.hook("may_exploit", True, unit=_unit(state, side, params))
    if kind == "no_retreat":
        return state.hook("may_retreat", True, unit=_unit(state, side, params))
    assert kind == "terrain_cost", kind
    return ground.mechanisms(state).moves.terrain_costs(state)


class _Watch(StalingradRules):
    """Records at every phase start (``phase_start`` hook) what ``probe`` sees."""

    def __init__(self) -> None:
        super().__init__()
        self.probe: Callable[[State], tuple[bool, bool]] | None = None
        self.seen: list[tuple[int, int, str, str, tuple[bool, bool]]] = []

    def hook_phase_start(self, state: State, value: None, **context: object) -> None:
        if self.probe is not None and state.turn == DRAWN:
            stage, phase = str(state.stage), str(context["phase"])
            where_ = _window_index(stage, phase)
            self.seen.append((state.turn, where_, stage, phase, self.probe(state)))
        return value


def _on_top(state: State, card: Card) -> None:
    """Put ``card`` on top of its deck (it is drawn / turned up next, S5.1, S5.2)."""
    key = f"deck:{card.deck}"
    rest = tuple(c for c in state.get("cards", key) or () if c != card.id)
    state.put("cards", key, (card.id, *rest))
    if state.get("cards", "common") == card.id:
        state.put("cards", "common", None)


@pytest.mark.parametrize("card_id", sorted(c.id for c in load_cards()))
def test_s5_3_every_card_bites_in_the_turn_it_is_drawn(card_id: str) -> None:
    """Ruling S5.3 / S5.5: a card drawn (or turned up) on a turn is in force at the start
    of its window on that same turn, and its effects change what the rules answer there.
    A ``1`` card is not played by its holder: it is held until its window, then played
    automatically; a ``!`` or ``∞`` card is played by its holder in the cards stage; a
    common event is in force from when it is turned (ruling S5.5)."""
    rules = _Watch()
    state = situation(
        rules,
        {"r-1ga": "1010", "w-xi-ak": "3030"},
        turn=DRAWN - 1,
        stage="wehrmacht",
        phase="movement",
    )
    card = static(state).cards[card_id]
    holder = None if card.deck == "common" else card.deck

    def probe(st: State) -> tuple[bool, bool]:
        held = holder is not None and card.id in cards_rules.hand(st, holder)
        mine = [e for e in st.effects if e.source == card.id]
        if not mine:
            return held, False
        bare = st.clone()
        for e in mine:
            bare.remove_effect(e)
        bites = all(
            _value(st, e.kind, e.params) != _value(bare, e.kind, e.params) for e in card.effects
        )
        return held, bites

    _on_top(state, card)
    rules.probe = probe
    window = WINDOWS.index(card.window)
    cleared = played = False
    while not any(w >= window for _, w, *_ in rules.seen):
        assert state.turn <= DRAWN, "the window never came"
        if state.turn == DRAWN and not cleared:  # the other draws do not interfere
            for side in SIDES:
                if side != holder:
                    state.put("cards", f"hand:{side}", ())
            for e in state.effects:
                if e.source != card.id:
                    state.remove_effect(e)
            cleared = True
        if (
            state.turn == DRAWN
            and not state.pending
            and card.mark != "1"
            and holder is not None
            and state.current_player() == holder
            and not played
        ):
            state.apply(f"play {card.id}")  # the holder plays it at once (S5.3)
            played = True
            continue
        if state.pending:
            legal = state.legal_actions()
            state.apply(END if END in legal else legal[0])
        else:
            state.apply(END)
    _, _, stage, phase, (held, bites) = next(r for r in rules.seen if r[1] >= window)
    assert not held, f"{card.id} still held at {stage}/{phase}"
    assert bites, f"{card.id} not in force, or changing nothing, at {stage}/{phase}"
    if card.mark == "1" and holder is not None:
        earlier = [r for r in rules.seen if 0 <= r[1] < window or r[2] == "cards"]
        assert earlier
        assert all(r[4][0] for r in earlier)  # held (not played) until its window
    if any(e.kind == "weather" for e in card.effects):
        assert not any(r[2] == "air" for r in rules.seen)  # S4: no air stage this turn


def test_s5_3_every_window_starts_once_a_turn_in_the_order_of_play() -> None:
    """Ruling S5.3: the windows are the starts of the replacement and air stages and of
    each ground phase (S4), met in the order of :data:`WINDOWS` on a flying turn."""
    rules = _Watch()
    state = situation(
        rules,
        {"r-1ga": "1010", "w-xi-ak": "3030"},
        turn=DRAWN - 1,
        stage="wehrmacht",
        phase="movement",
    )
    rules.probe = lambda st: (False, False)
    while state.turn <= DRAWN and not state.is_terminal():
        if state.pending:
            legal = state.legal_actions()
            state.apply(END if END in legal else legal[0])
        else:
            state.apply(END)
    starts = [w for _, w, stage, phase, _ in rules.seen if w >= 0]
    firsts = sorted(set(starts), key=starts.index)
    assert firsts == list(range(len(WINDOWS)))


def _step(state: State) -> None:
    if state.pending:
        legal = state.legal_actions()
        state.apply(END if END in legal else legal[0])
    else:
        state.apply(END)


def test_s5_5_a_common_event_is_in_force_until_the_next_is_turned_an_infinity_one_stays() -> None:
    """Ruling S5.5: a common event is imposed at once — never offered to a side — and is in
    force until the next one is turned; then a ``1``/``!`` event goes under the deck, while
    an ``∞`` event stays in force to the end of the game (and leaves the deck)."""
    freeze, frost, short = "common-volga-freezes", "common-clear-frost", "common-short-day"
    state = situation(
        RULES, {"r-1ga": "1010", "w-xi-ak": "3030"}, turn=2, stage="wehrmacht", phase="movement"
    )
    marks = {c: static(state).cards[c].mark for c in (freeze, frost, short)}
    assert marks == {freeze: "∞", frost: "!", short: "1"}
    rest = [c for c in state.get("cards", "deck:common") or () if c not in marks]
    state.put("cards", "deck:common", (freeze, frost, short, *rest))

    def sources() -> set[str | None]:
        return {e.source for e in state.effects}

    while state.turn < 3:
        _step(state)
    assert state.get("cards", "common") == freeze
    assert freeze in sources()
    while state.turn < 4:
        _step(state)
    # turn 4: the "!" event is in force at once and through the whole turn, never offered
    assert state.get("cards", "common") == frost
    while state.turn == 4:
        assert frost in sources()
        assert freeze in sources()  # the "∞" event stays after it was replaced
        for side in SIDES:
            assert frost not in cards_rules.hand(state, side)
        assert Action("play", (frost,)) not in state.legal_actions()
        _step(state)
    # turn 5: the next event is turned: the "!" one ends and goes under the deck
    assert state.get("cards", "common") == short
    assert frost not in sources()
    assert short in sources()
    deck = list(state.get("cards", "deck:common") or ())
    assert deck[-1] == frost
    assert freeze not in deck  # the "∞" event left the deck ...
    assert any(e.source == freeze and e.expiry == Expiry.GAME for e in state.effects)
    while state.turn < 7:
        _step(state)
    assert freeze in sources()  # ... and is still in force two events later
