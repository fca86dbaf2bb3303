"""The rules of «Сталинград» (Stalingrad) as a :class:`hexwar.engine.state.Ruleset`.

>>> rules = StalingradRules()
>>> state = rules.new_state()
>>> state.current_player()          # set-up: the decks are shuffled card by card (S3.3)
'*chance*'

The sequence of play (S4) is data: five stages per turn — ``cards`` (S5), ``replacements``
(S4.1, not on turn 1), ``air`` (S10, skipped before turn 3 and in non-flying weather; its
phases are filled in by the air rules), ``rkka`` and ``wehrmacht`` (movement, artillery,
attack, exploitation: S6-S8). State layout, action texts and decisions:
``docs/stalingrad/rules.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

import attrs

from hexwar.base.errors import DataError
from hexwar.engine.actions import Action, Decision, Outcome, Seat, Value
from hexwar.engine.hooks import EffectRule, HookPoint
from hexwar.engine.kinds import Combination, DecisionKind, Kind, Kinds, Values
from hexwar.engine.observe import ObservationView
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar_stalingrad import air, cards_rules, ground, observe, reinforce, validate, victory
from hexwar_stalingrad._checks import data_path
from hexwar_stalingrad.board import FULL, POOL, REDUCED, SIDES, place, static
from hexwar_stalingrad.cards import WINDOWS
from hexwar_stalingrad.evaluation import Evaluation
from hexwar_stalingrad.scenario import SHIPPED_NAME, Scenario, data_digest_of
from hexwar_stalingrad.static import Static, load_static

__all__ = [
    "GAME_LENGTHS",
    "GROUND_PHASES",
    "SCENARIOS",
    "SEATS",
    "StalingradRules",
    "shipped_data_digest",
    "weather",
]

#: S3.4: the short game (Uranus only) and the long game.
GAME_LENGTHS: Final = {"short": 5, "long": 10}
#: S4 stages 4 and 5: the four phases of a side's ground forces.
GROUND_PHASES: Final = ("movement", "artillery", "attack", "exploitation")
#: S10.1: aviation operates only from this turn.
FIRST_AIR_TURN: Final = 3
NON_FLYING: Final = "non_flying"

#: The shipped scenario's name (S3.2: the historical set-up); a scenario directory names
#: its own (``scenario.toml``, :mod:`hexwar_stalingrad.scenario`).
SCENARIOS: Final = (SHIPPED_NAME,)

_G, _A = frozenset({"ground"}), frozenset({"air"})


def shipped_data_digest() -> str:
    """SHA-256 over the shipped data files: each file's name, length and bytes, in name
    order (``hexwar_stalingrad/data/*.toml``)."""
    return data_digest_of(data_path("."))


class OptionError(ValueError):
    """A ruleset option out of range (``key`` names it); a ``ValueError``."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key


def check_options(
    length: object, players: object, sudden_death: object, turns: object, track: int
) -> tuple[str, int]:
    """The game (``"short"`` or ``"long"``) and its number of turns, from the options;
    :class:`OptionError` naming the bad one. ``length`` an integer ``n``: an ``n``-turn
    game, short (S11.1) up to the short game's 5 turns, else long (S11.2)."""
    key = "length" if turns is None else "turns"  # the option that sets the turns
    if isinstance(length, int) and not isinstance(length, bool):
        if turns is not None and turns != length:
            raise OptionError("turns", f"S3.4: turns {turns!r} and length {length} disagree")
        turns = length
        length = "short" if length <= GAME_LENGTHS["short"] else "long"
    if not isinstance(length, str) or length not in GAME_LENGTHS:
        raise OptionError(
            "length",
            f"S3.4: game length is one of {sorted(GAME_LENGTHS)} or a number of turns, "
            f"not {length!r}",
        )
    if turns is None:
        turns = GAME_LENGTHS[length]
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= track:
        raise OptionError(
            key,
            f"S3.4: a game of 1 to {track} turns (the turn track), not {turns!r}",
        )
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEATS:
        raise OptionError("players", f"S3.1: 2 to 6 players, not {players!r}")
    if not isinstance(sudden_death, bool):
        raise OptionError(
            "sudden_death", f"S11.2: sudden_death is true or false, not {sudden_death!r}"
        )
    if sudden_death and length != "long":
        raise OptionError("sudden_death", "S11.2: sudden death is a variant of the long game")
    return length, turns


def _fronts(*fronts: str) -> frozenset[str]:
    return frozenset(f"front:{f}" for f in fronts)


#: S3.1: seats per number of players (a seat controls actions carrying any of its tags).
SEATS: Final[Mapping[int, tuple[Seat, ...]]] = {
    2: (Seat("rkka", "rkka"), Seat("wehrmacht", "wehrmacht")),
    3: (
        Seat("rkka-ground", "rkka", _G),
        Seat("rkka-air", "rkka", _A),
        Seat("wehrmacht", "wehrmacht"),
    ),
    4: (
        Seat("rkka-ground", "rkka", _G),
        Seat("rkka-air", "rkka", _A),
        Seat("wehrmacht-ground", "wehrmacht", _G),
        Seat("wehrmacht-air", "wehrmacht", _A),
    ),
    5: (
        Seat("rkka-north", "rkka", _fronts("sw_front", "don_front")),
        Seat("rkka-south", "rkka", _fronts("stalingrad_front")),
        Seat("rkka-air", "rkka", _A),
        Seat("wehrmacht-ground", "wehrmacht", _G),
        Seat("wehrmacht-air", "wehrmacht", _A),
    ),
    6: (
        Seat("rkka-north", "rkka", _fronts("sw_front", "don_front")),
        Seat("rkka-south", "rkka", _fronts("stalingrad_front")),
        Seat("rkka-air", "rkka", _A),
        Seat("wehrmacht-b", "wehrmacht", _fronts("army_group_b")),
        Seat("wehrmacht-don", "wehrmacht", _fronts("army_group_don")),
        Seat("wehrmacht-air", "wehrmacht", _A),
    ),
}

_UNIT_ACTIONS: Final = frozenset({"move", "bombard", "restore", "rebuild", "place"})
#: Every kind of action of the game (phase actions, decision answers, chance outcomes and
#: the engine's ``end``), sorted.
KINDS: Final = (
    "advance",
    "attack",
    "bombard",
    "end",
    "fly",
    "intercept",
    "land",
    "loss",
    "move",
    "place",
    "play",
    "rebuild",
    "restore",
    "retreat",
    "roll",
    "shuffle",
)


#: The rule behind each decision: an answer that is not among its legal ones breaks it.
DECISION_RULES: Final = {
    "shuffle": "S3.3",
    "roll": "S8.3",
    "retreat": "S8.5",
    "advance": "S8.4",
    "al_loss": "S8.4",
    "ex_loss": "S8.4",
    "reserve": "S4.2",
    "air_place": "S10.2",
    "air_roll": "S10.5",
    "air_loss": "S10.5",
    "air_advance": "S10.5",
    "air_home": "S10.6",
}
#: The rule of each kind of phase action (for an illegal one the specific checks missed).
KIND_RULES: Final = {
    "play": "S5.3",
    "move": "S6",
    "bombard": "S7.1",
    "attack": "S8.1",
    "restore": "S4.1",
    "rebuild": "S4.1",
    "intercept": "S10.5",
    "fly": "S10.2",
}


def _fallback_rule(state: State, action: Action) -> str:
    """The rule an illegal action breaks when no specific check named one: the pending
    decision's rule, the kind's own rule when the phase offers that kind, else S4 (the
    sequence of play: this phase offers no such action)."""
    if state.pending:
        return DECISION_RULES.get(state.pending[-1].kind, "S4")
    if action.kind in state.legal_tokens(()):
        return KIND_RULES.get(action.kind, "S4")
    return "S4"


def _restore_units(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return sorted({*reinforce.restore_units(state, side), *air.restore_units(state, side)})


def _rebuild_units(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    return sorted({*reinforce.rebuild_units(state, side), *air.rebuild_units(state, side)})


def _rebuild_hexes(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    if args[0] in static(state).air:
        return air.rebuild_hexes(state, side, args)
    return reinforce.rebuild_hexes(state, side, args)


def _rebuild_levels(state: State, side: str, args: tuple[str, ...]) -> list[str]:
    if args[0] in static(state).air:
        return air.rebuild_levels(state, side, args)
    return reinforce.rebuild_levels(state, side, args)


# The kinds of phase actions (``docs/stalingrad/rules.md``, *Action space*): each step
# yields the values that may follow; the steps are each kind's one legality (the idle
# test, the tokens and the whole list are derived from them), and ``does`` is what a
# legal action of the kind does.
PLAY: Final[Kind[str]] = Kind(
    "play",
    (Values(cards_rules.held_cards, means="a card in your hand that may be played now (S5.3)"),),
    does=lambda state, action: cards_rules.play_card(state, state.current_player(), action.args[0]),
)
MOVE: Final[Kind[str]] = Kind(
    "move",
    (
        Values(ground.move_units, checked=True, means="a unit of yours that may move now (S6)"),
        Values(ground.move_ends, means="a hex that unit may end its move in (S6.2-S6.4)"),
    ),
    does=ground.play_move,
)
BOMBARD: Final[Kind[str]] = Kind(
    "bombard",
    (
        Values(ground.bombard_units, checked=True, means="your unspent artillery (S7.1)"),
        Values(ground.bombard_targets, means="an enemy unit two hexes from it (S7.1)"),
    ),
    does=ground.declare_bombard,
)
ATTACK: Final[Kind[str]] = Kind(
    "attack",
    (
        Values(
            ground.attack_defenders,
            checked=True,
            means="an enemy unit you can attack at 1:1 or better (S8.1, S8.2)",
        ),
        Combination(
            ground.attackers,
            valid=ground.attack_valid,
            feasible=ground.attack_feasible,
            means="an adjacent unit of yours that has not attacked, reaching 1:1 (S8.1, S8.2)",
        ),
    ),
    does=ground.declare_attack,
)
INTERCEPT: Final[Kind[str]] = Kind(
    "intercept",
    (
        Values(air.intercept_defenders, checked=True, means="an enemy aircraft aloft (S10.5)"),
        Combination(
            air.interceptors,
            valid=air.intercept_valid,
            feasible=air.intercept_feasible,
            means="a fighter of yours aloft that may attack it (S10.5)",
        ),
    ),
    does=air.declare_air_attack,
)


def _replace(state: State, action: Action) -> None:
    """``restore`` / ``rebuild`` of an air unit or a ground unit (S4.1)."""
    side = state.current_player()
    if action.args[0] in static(state).air:
        air.play_replacement(state, side, action)
    else:
        reinforce.play_replacement(state, side, action)


RESTORE: Final[Kind[str]] = Kind(
    "restore",
    (Values(_restore_units, means="a reduced unit you can pay to restore (S4.1)"),),
    does=_replace,
)
REBUILD: Final[Kind[str]] = Kind(
    "rebuild",
    (
        Values(_rebuild_units, checked=True, means="a dead unit you can pay to rebuild (S4.1)"),
        Values(_rebuild_hexes, checked=True, means="a free truck hex not in enemy ZOC (S4.1)"),
        Values(_rebuild_levels, means="a level you can pay for (S4.1)"),
    ),
    does=_replace,
)
#: The kinds of each kind of phase (S4): cards may be played whenever the side acts (S5.3).
CARDS_ONLY: Final[Kinds[str]] = Kinds((PLAY,))
REPLACEMENTS: Final[Kinds[str]] = Kinds((PLAY, REBUILD, RESTORE))
AIR_COMBAT: Final[Kinds[str]] = Kinds((INTERCEPT, PLAY))
GROUND: Final = {
    "movement": Kinds((MOVE, PLAY)),
    "exploitation": Kinds((MOVE, PLAY)),
    "artillery": Kinds((BOMBARD, PLAY)),
    "attack": Kinds((ATTACK, PLAY)),
}
#: The answers to a hidden air placement (S10.2, S10.3): ``fly UNIT HEX`` or ``end``.
AIR_PLACEMENT: Final[Kinds[Decision]] = Kinds(
    (
        Kind("end"),
        Kind(
            "fly",
            (
                Values(air.fly_units, checked=True, means="an aircraft of yours to place (S10.2)"),
                Values(air.fly_hexes, means="a hex it may fly to (S10.2, S10.3)"),
            ),
        ),
    )
)


#: The kinds of decision and what an answer to each does (S3.3, S4.2, S8.3-S8.5, S10).
DECISION_KINDS: Final = (
    DecisionKind("shuffle", does=cards_rules.shuffle_step),
    DecisionKind("roll", does=ground.resolve),
    *(
        DecisionKind(k, does=ground.decide_combat)
        for k in ("retreat", "advance", "al_loss", "ex_loss")
    ),
    DecisionKind(
        "reserve", does=lambda state, decision, action: reinforce.decide_reserve(state, action)
    ),
    *(
        DecisionKind(k, does=air.decide, answers=AIR_PLACEMENT if k == "air_place" else None)
        for k in sorted(air.DECISIONS)
    ),
)


def weather(state: State) -> str:
    """The weather of the current turn: the turn track (S1.2), then card effects."""
    turns = static(state).turns
    track = turns[state.turn - 1].weather if 1 <= state.turn <= len(turns) else "fair"
    out: str = state.hook("weather", track)
    return out


def _no_air(state: State) -> bool:
    """S10.1 / S4 stage 3: no air operations before turn 3 or in non-flying weather."""
    return state.turn < FIRST_AIR_TURN or weather(state) == NON_FLYING


def _clear(table: str) -> Any:
    def clear(state: State) -> None:
        for key in sorted(state.table(table)):
            state.delete(table, key)

    return clear


def _turn_start(state: State) -> None:
    _clear("fired")(state)
    _clear("attacked")(state)
    reinforce.air_arrival(state)
    reinforce.place_reserves(state)


def _events(state: State) -> None:
    cards_rules.turn_common_event(state)
    cards_rules.deal(state)


def _replacements_start(side: str) -> Callable[[State], None]:
    return lambda state: reinforce.begin_replacements(state, side)


def _replacements_end(side: str) -> Callable[[State], None]:
    return lambda state: reinforce.end_replacements(state, side)


def _has_no_cards(side: str) -> Any:
    return lambda state: not cards_rules.held_cards(state, side)


def _window(window: str) -> Callable[[State], None]:
    """Ruling S5.3: the start of a card window (``1`` cards still held are played)."""
    if window not in WINDOWS:
        raise ValueError(f"S5.3: {window!r} is not a card window ({list(WINDOWS)})")
    return lambda state: cards_rules.play_due(state, window)


def _chain(*steps: Callable[[State], None] | None) -> Callable[[State], None]:
    todo = tuple(s for s in steps if s is not None)

    def run(state: State) -> None:
        for step_ in todo:
            step_(state)

    return run


class StalingradRules(Ruleset):
    """«Сталинград»: ``length`` ``"short"`` (5 turns, won by S11.1) or ``"long"`` (10,
    S11.2; S3.4), or a number of turns ``n`` (short up to 5, else long); ``turns``: how
    many turns of the track are played (default: the length's); ``players`` 2-6 (seats,
    S3.1); ``sudden_death``: the S11.2 check after every Wehrmacht ground stage of turns
    6-10 (long game only); ``data``: a scenario (:meth:`from_scenario`), the shipped one by
    default. Bad options raise :class:`OptionError` (a ``ValueError``) citing the rule."""

    name = "stalingrad"
    version = "1"
    sides = SIDES
    effect_rules: ClassVar[Mapping[str, Mapping[str, EffectRule]]] = cards_rules.EFFECT_RULES
    decision_kinds = DECISION_KINDS
    hook_points: ClassVar[Mapping[str, HookPoint]] = {
        **cards_rules.HOOK_POINTS,
        "weather": HookPoint(
            "weather",
            "(state, value: str) -> str",
            "The weather of the current turn (S1.2: flying / non-flying).",
        ),
    }

    def __init__(
        self,
        length: str | int = "long",
        players: int = 2,
        *,
        sudden_death: bool = False,
        turns: int | None = None,
        data: Static | Scenario | None = None,
    ) -> None:
        if isinstance(data, Scenario):
            data = data.static()
        self.data: Static = data if data is not None else load_static()
        self.ground = ground.Ground.of(self.data)  # the ground rules' mechanisms (S6-S8)
        self.air_tables = air.AirTables.of(self.data)  # the air units' printed facts (S10)
        self.card_tables = cards_rules.CardTables.of(self.data)  # the cards' effects (S5)
        self.length, self.turns = check_options(
            length, players, sudden_death, turns, len(self.data.turns)
        )
        self.players = players
        self.sudden_death = sudden_death
        #: the token steps a framework allows a game of this length (S3.4; the default bounds)
        self.max_tokens = GAME_LENGTHS[self.length] * observe.TOKENS_PER_TURN
        self.sequence = TurnSequence(
            stages=(
                Stage(
                    "cards",
                    (
                        Phase("events", on_enter=_events, kinds=CARDS_ONLY),
                        *(Phase(s, side=s, skip=_has_no_cards(s), kinds=CARDS_ONLY) for s in SIDES),
                    ),
                ),
                Stage(
                    "replacements",
                    tuple(
                        Phase(
                            s,
                            side=s,
                            on_enter=_replacements_start(s),
                            on_exit=_replacements_end(s),
                            kinds=REPLACEMENTS,
                        )
                        for s in SIDES
                    ),
                    skip=lambda st: st.turn == 1,
                    on_enter=_window("replacements"),
                ),
                self.air_stage(),
                *(self._ground_stage(s) for s in SIDES),
            ),
            turn_limit=self.turns,
            on_turn_start=_turn_start,
        )

    # -- identity (records, save files) ------------------------------------------------------

    @classmethod
    def from_scenario(
        cls,
        path: str | Path,
        *,
        length: str | int = "long",
        players: int = 2,
        sudden_death: bool = False,
        turns: int | None = None,
    ) -> StalingradRules:
        """The rules playing the scenario in directory ``path`` (every data file read from
        there, validated and cross-checked: :func:`hexwar_stalingrad.scenario.load_scenario`,
        a :class:`~hexwar.base.errors.DataError` naming the file and entry), with these options.

        >>> from hexwar_stalingrad._checks import data_path
        >>> rules = StalingradRules.from_scenario(data_path("."), length=3)
        >>> rules.length, rules.turns, rules.options()["turns"], rules.new_state().scenario
        ('short', 3, 3, 'default')
        """
        return cls(length, players, sudden_death=sudden_death, turns=turns, data=load_static(path))

    def options(self) -> Mapping[str, Value]:
        """``length`` (S3.4), ``players`` (S3.1), ``sudden_death`` (S11.2), and ``turns``
        when it is not the length's own (5 or 10)."""
        out: dict[str, Value] = {
            "length": self.length,
            "players": self.players,
            "sudden_death": self.sudden_death,
        }
        if self.turns != GAME_LENGTHS[self.length]:
            out["turns"] = self.turns
        return out

    @classmethod
    def from_options(
        cls,
        options: Mapping[str, object],
        *,
        source: str = "<data>",
        data: Static | Scenario | None = None,
    ) -> StalingradRules:
        """The ruleset of :meth:`options` data (a record's ``rules_options``) on ``data``
        (the shipped scenario by default), checked: :class:`~hexwar.base.errors.DataError`
        naming the bad option."""
        known = {"length", "players", "sudden_death", "turns"}
        for key in sorted(set(options) - known):
            raise DataError(f"unknown option {key!r}", source=source, entry=f"rules_options.{key}")
        length = options.get("length", "long")
        if not isinstance(length, str):  # a record names the game; ``turns`` its length
            length = [length]  # refused below, naming ``length``
        players, sudden, turns = (
            options.get("players", 2),
            options.get("sudden_death", False),
            options.get("turns"),
        )
        try:
            static_data = data.static() if isinstance(data, Scenario) else data
            track = len((static_data or load_static()).turns)
            check_options(length, players, sudden, turns, track)
            return cls(
                length,  # type: ignore[arg-type]  # checked: a str
                players,  # type: ignore[arg-type]  # checked: an int
                sudden_death=bool(sudden),
                turns=turns,  # type: ignore[arg-type]  # checked: an int or None
                data=static_data,
            )
        except OptionError as exc:
            raise DataError(str(exc), source=source, entry=f"rules_options.{exc.key}") from None

    def data_digest(self) -> str:
        """SHA-256 over the scenario's data files (names and bytes, in name order:
        :func:`hexwar_stalingrad.scenario.data_digest_of`); a ruleset built on data made in
        memory says ``"custom"`` (its files are unknown)."""
        return self.data.digest or "custom"

    def new_state(
        self,
        scenario: str | None = None,
        options: Mapping[str, Value] | None = None,
        *,
        seed: int | None = None,
    ) -> State:
        """A new game of this ruleset's scenario (``scenario``: its name, the default);
        ``seed``: the shuffles of the set-up decided (:meth:`Ruleset.new_state`)."""
        name = self.data.name if scenario is None else scenario
        return super().new_state(name, options, seed=seed)

    def validate_position(self, state: State) -> None:
        """Units, hexes, stacking, steps, turn, cards and effects
        (:mod:`hexwar_stalingrad.validate`)."""
        validate.validate_position(state, self.data, self.turns)

    # -- the sequence (S4) ---------------------------------------------------------------------

    def air_stage(self) -> Stage:
        """Stage 3 (S4, S10): the air rules (:mod:`hexwar_stalingrad.air`); its start is the
        ``air`` card window (ruling S5.3)."""
        stage = air.stage(skip=_no_air)
        return attrs.evolve(
            stage,
            on_enter=_chain(stage.on_enter, _window("air")),
            phases=tuple(attrs.evolve(p, kinds=AIR_COMBAT) for p in stage.phases),
        )

    def _ground_stage(self, side: str) -> Stage:
        clear_moved = _clear("moved")

        def on_exit(state: State) -> None:
            if (
                side == "wehrmacht"
                and self.sudden_death
                and state.turn >= reinforce.RESERVE_TURN
                and victory.relief_contact(state)
            ):
                state.end_game(victory.long_game_outcome(state))

        return Stage(
            side,
            tuple(
                Phase(
                    p,
                    side=side,
                    on_enter=_chain(
                        clear_moved if p in ("movement", "exploitation") else None,
                        _window(f"{side}_{p}"),  # ruling S5.3: a card window starts
                    ),
                    kinds=GROUND.get(p, CARDS_ONLY),
                )
                for p in GROUND_PHASES
            ),
            on_exit=on_exit,
        )

    # -- set-up (S3) -----------------------------------------------------------------------------

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        """S3.2: ground units on their start hexes, reserves and aviation set aside; S3.3."""
        if scenario != self.data.name:
            raise DataError(
                f"unknown scenario {scenario!r}; these rules play {self.data.name!r}",
                entry="scenario",
            )
        data = self.data
        for unit in sorted(data.ground):  # the others wait in the pool (S3.2)
            info = data.ground[unit]
            if info.arrives == 1:
                label = data.start_hex(info.side, info.start)
                if label is None:
                    raise ValueError(f"S3.2: no start hex {info.side}:{info.start} for {unit}")
                place(state, unit, label)
        for unit in sorted(data.air):
            state.put("air", unit, (POOL, FULL))
        cards_rules.start_shuffle(state, cards_rules.DECK_ORDER[0])

    def seats(self) -> tuple[Seat, ...]:
        return SEATS[self.players]

    def action_tags(self, state: State, action: Action) -> frozenset[str]:
        if air.is_air_action(state, action):
            return frozenset({"air"})
        ground_units = self.data.ground
        if action.kind in _UNIT_ACTIONS and action.args and action.args[0] in ground_units:
            return frozenset({"ground", f"front:{ground_units[action.args[0]].front}"})
        if action.kind == "attack":
            return frozenset(
                {
                    "ground",
                    *(
                        f"front:{ground_units[u].front}"
                        for u in action.args[1:]
                        if u in ground_units
                    ),
                }
            )
        return frozenset()

    # -- the action space -----------------------------------------------------------------------

    def action_space(self) -> ActionSpace:
        """Every token an action can hold, from the data (``docs/stalingrad/rules.md``):
        the kinds, then the ground and air unit ids, hex labels, card ids, deck names, die
        rolls, replacement levels and the answer ``none``."""
        data = self.data
        vocabularies = (
            ("ground_unit", tuple(sorted(data.ground))),
            ("air_unit", tuple(sorted(data.air))),
            ("hex", tuple(sorted(data.cells))),
            ("card", tuple(sorted(data.cards))),
            ("deck", cards_rules.DECK_ORDER),
            ("roll", tuple(a.args[0] for a, _ in ground.ROLL_OUTCOMES)),
            ("level", (FULL, REDUCED)),
            ("answer", (ground.NO_ADVANCE,)),
        )
        return ActionSpace(KINDS, vocabularies)

    # -- what may be done: each phase's kinds (S4), DECISION_KINDS ---------------------------

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        phase = state.phase
        found_air = air.explain(state, action)
        if found_air is not None:
            return found_air
        if not state.pending and action.kind == "attack" and phase == "attack":
            found = ground.explain_attack(state, action)
            if found is not None:
                return found
        if not state.pending and action.kind == "move" and phase in ("movement", "exploitation"):
            if state.first_illegal_token(action) == 2 and len(action.args) == 2:
                return f"{action}: not a hex the unit may end its move in this phase", "S6"
            return super().explain(state, action)[0], "S6"
        if not state.pending and action.kind == "bombard":
            return f"{action}: needs unspent artillery exactly two hexes from an enemy unit", "S7.1"
        if action.kind in ("restore", "rebuild"):
            return f"{action}: not affordable, not a free truck hex, or in an enemy ZOC", "S4.1"
        reason, rule = super().explain(state, action)
        if rule is None and state.outcome is None:
            rule = _fallback_rule(state, action)
        return reason, rule

    # -- frameworks (hexwar.interop): hooks into hexwar_stalingrad.observe -----------------

    def observation_view(self) -> ObservationView:
        """Board, hand, cards in force, weather (:mod:`hexwar_stalingrad.observe`)."""
        return observe.observation_view(self)

    def reward_signals(self) -> tuple[Any, ...]:
        """Losses, the ring, the relief's distance (:mod:`hexwar_stalingrad.shaping`)."""
        from hexwar_stalingrad.shaping import SIGNALS

        return SIGNALS

    def resample_hidden(self, state: State, side: str, rng: random.Random) -> State:
        """The cards hidden from ``side`` dealt anew (S3.3, S5.2)."""
        return observe.resample_hidden(self, state, side, rng)

    def evaluation(self) -> Evaluation:
        """The search's evaluation: victory conditions and material (S11, S1.3)."""
        return Evaluation()

    def final_outcome(self, state: State) -> Outcome:
        """S11.1 after the short game's last turn (5), S11.2 after the long game's (10)."""
        if self.length == "short":
            return victory.short_game_outcome(state)
        return victory.long_game_outcome(state)
