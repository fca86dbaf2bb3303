"""«Бой отрядов» (Squad battle, N. Shabanov & S. Stratonovich, 1930) on hexwar's core.

Roman numbers cite the sections of the seed text (``002_ae95fddb942d7462.txt``):

- I: a square grid, 10 columns А–К x 15 battle rows, and a 3-row neutral zone at each end
  (rows I–III, I nearest the field); squares strong, weak, masking or impassable
  (``data/map.toml``, ``data/chart.toml``);
- X.2: hidden set-up in one's own neutral zone, with limits per row
  (:class:`hexwar.mechanics.deployment.Deployment`); X.1: blue moves first;
- III, IV: moves in 8 directions, through friends, never through enemies or blue squares;
  move lengths and road-only / rail-only arms per arm (``data/rules.toml``); XV: enemy
  foot or horse next to the railway cuts it; IX: guns stay behind their forward figures;
- V, VI, IX: fire moves with ranges and lines of fire; their effect depends on how many
  figures fired at a square this turn and on its class (``[[effects]]`` rows);
- VIII: a figure may take an enemy square that is under fire (assault);
- XIII: a foot or mounted figure reaching the enemy's К-III is lost but removes two
  enemy figures of its side's choice;
- X: the game ends when one side is destroyed (defeat / victory) or withdraws into its
  neutral zone (withdrawal / success; a draw if it lost at most 1/4 of its figures).

Also: VII fire strengths (an LMG is a third of a squad), V barrage fire on an empty square,
VI.3 green squares (only forward, melee, encirclement), VIII.б-в assault conditions, X.4
the cavalry game, XI defence, XIV gas (option ``gas``), XVI partisans and villages, the
1941 station (scenario ``company1941``). ``RULING`` marks a number the source leaves open.

State: the figures' squares in a :class:`hexwar.board.pieces.Pieces` registry (tables
``pieces`` / ``stacks``, labelled in the seed's notation), each figure's arm in ``arm``;
the per-turn tables ``fire``, ``moved``, ``shots``, ``strip`` are phase scratch tables;
``neutral`` holds timed markers (IX); ``barrage``, ``gas``, ``contaminated``, ``degas``
the squares barred by fire or gas (V, XIV). Not modelled (see README): the 1941 aircraft.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from itertools import combinations
from typing import Any, cast

from hexwar import (
    Action,
    ActionSpace,
    Bounds,
    Decision,
    MoveRules,
    Outcome,
    Phase,
    Pieces,
    Ruleset,
    Stage,
    State,
    TurnSequence,
    Value,
    find_path,
    reachable,
)
from hexwar.engine.observe import ObservationView
from hexwar.grid.square import Square, line_clear
from hexwar.mechanics.deployment import Deployment
from hexwar.mechanics.removal import ChosenRemoval
from hexwar.mechanics.victory import eliminated, fewer_losses, loss_share, withdrawn

from .board import SIDES, Board
from .data import ROWS, SQUARES, Arm, EffectRow, GameData, Scenario, load_game_data
from .evaluation import Evaluation

PREFIX = {"blue": "b", "red": "r"}
SCRATCH = ("fire", "moved", "shots", "strip")  # emptied when a side's turn begins (X.4)
UNIT_KINDS = ("move", "mount", "dismount", "fire", "retreat", "lost")  # a figure id first
DEFAULT = "skirmish"  # the scenario ``default`` names (the smallest, for ``serve``)
Units = dict[str, tuple[str, Square]]


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def side_of(uid: str) -> str:
    return "blue" if uid.startswith("b") else "red"


def fire_result(
    effects: Iterable[EffectRow], arm: Arm, square: str, shooters: Iterable[tuple[Arm, int]]
) -> str | None:
    """VI, IX: the first effect row matching ``(shooter arm, range)`` pairs fired at a figure."""
    shots = list(shooters)
    strength = sum(a.strength for a, _ in shots)  # VII: fire counts by strength
    for row in effects:
        if row.target != arm.target or square not in row.squares or strength < row.fire:
            continue
        guns = [d for a, d in shots if a.group == "artillery" and d <= (row.within or d)]
        if len(guns) >= row.artillery:
            return row.result
    return None


class BoyOtryadov(Ruleset):
    """The ruleset; scenarios are the ``[scenarios]`` of ``rules.toml`` (XII)."""

    name = "boy_otryadov"
    sides = SIDES

    def bounds(self) -> Bounds:
        """The bounds of the longest scenario (:meth:`scenario_bounds`)."""
        return max(
            (self.scenario_bounds(name) for name in self.data.scenarios),
            key=lambda b: b.max_tokens or 0,
        )

    def scenario_bounds(self, scenario: str) -> Bounds:
        """The token steps a framework allows a game of ``scenario`` (XII): per turn 5
        for each figure of both sides, 8 per figure for the hidden set-up (X.2) — about
        2.5x the longest of 1,000 random skirmishes (``tests/test_interop_bounds.py``).
        A ``turns`` state option beyond the scenario's is not covered."""
        name = self.default if scenario == "default" else scenario
        sc = self.data.scenarios.get(name) or max(
            self.data.scenarios.values(), key=lambda s: s.turns
        )
        figures = 2 * sum(n for _, n in sc.figures)
        return Bounds(max_tokens=sc.turns * figures * 5 + figures * 8)

    def __init__(
        self, data: GameData | None = None, default: str = DEFAULT, gas: bool = False
    ) -> None:
        """``default``: the scenario ``"default"`` names; ``gas``: XIV unless an option
        says otherwise (the web game's choices)."""
        self.data = data or load_game_data()
        self.default, self.gas = default, gas
        self.board = b = Board(self.data)
        self.p = self.data.params
        self.pieces = pcs = Pieces(b.labels, attributes=("pinned", "neutral", "shot", "village"))
        # XIII: a raid removes enemy figures of the raiding side's choice
        self.raid = ChosenRemoval(pcs, "raid", lambda s, side: pcs.pieces_of(s, other(side)))
        half = self.data.share("second_row_share")  # X.2c: at most half the figures in row II
        self.deployment = Deployment(
            self.pieces,
            self._setup_cells,
            per_cell=None,  # X.2a: per scenario, in _setup_cells
            row=lambda c: b.roman.get(c, ""),
            per_row=lambda s, side, row: int(self.oob(s, side) * half) if row == "II" else None,
        )
        # III: no ZOC; VI.3: one figure a square, two on a green one.
        self.rules = MoveRules(zoc=False, can_end_at=lambda m, c, f: len(f) < self.capacity(c))
        self.passing = MoveRules(zoc=False, can_end_at=lambda m, c, f: True)  # VIII.б: paths
        act = [Phase("act", side=s, scratch=SCRATCH, on_exit=self._finish, may_end=self.may_end)
               for s in SIDES]  # fmt: skip
        self.sequence = TurnSequence(tuple(Stage(s, (a,)) for s, a in zip(SIDES, act, strict=True)))

    def observation_view(self) -> ObservationView:
        """The board for learning agents: squares, terrain and the figures the observer
        sees (a figure set up behind the screen, X.2, is not on the other side's board)."""
        return self.pieces.observation_view(self.board.map)

    def action_space(self) -> ActionSpace:
        """Kinds, every figure id the largest scenario can field, every square label."""
        most = max(sum(n for _, n in sc.figures) for sc in self.data.scenarios.values())
        most += 1  # XIV.б: the chemical figure, with the gas option
        ids = [f"{PREFIX[s]}{i + 1:02d}" for s in SIDES for i in range(most)]
        kinds = ["end", "place", "move", "mount", "dismount", "fire", "retreat", "lost", "remove",
                 "bomb", "contaminate"]  # fmt: skip
        return ActionSpace.of(kinds, figure=ids, square=map(self.board.label, self.board.map))

    # -- reading the state -------------------------------------------------------------

    def units(self, state: State, side: str | None = None) -> Units:
        """Figure id -> (arm, square), of ``side`` only if given."""
        return {
            u: (cast(str, state.get("arm", u)), self.pieces.where(state, u))
            for u in self.pieces.pieces_of(state, side)
        }

    def arm(self, state: State, uid: str) -> Arm:
        return self.data.arms[cast(str, state.get("arm", uid))]

    def oob(self, state: State, side: str) -> int:
        """How many figures ``side`` set up (X.2)."""
        return cast(int, state.get("game", f"oob:{side}"))

    def capacity(self, c: Square) -> int:
        """VI.3: a green square holds two figures, any other one."""
        return int(self.p["stack_masking" if self.board.terrain(c) == "masking" else "stack"])

    def scenario(self, state: State) -> Scenario:
        return self.data.scenarios[cast(str, state.get("game", "scenario"))]

    def in_strip(self, c: Square) -> bool:
        low, high = self.p["attack_strip"]
        return c not in self.board.zone and low <= c.row - 2 <= high

    # -- set-up (X.2) ------------------------------------------------------------------

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        scenario = self.default if scenario == "default" else scenario
        gas = options.get("gas", self.gas) is True
        sc = self.data.scenarios.get(scenario)
        if sc is None:
            raise ValueError(
                f"unknown scenario {scenario!r} (known: {sorted(self.data.scenarios)})"
            )
        turns = options.get("turns", sc.turns)
        state.put("game", "turns", turns if isinstance(turns, int) else sc.turns)
        state.put("game", "scenario", scenario)
        state.put("game", "gas", gas)  # XIV: by the players' wish
        # The most constrained arms are placed first, so every figure finds a square.
        order = sorted(sc.figures, key=lambda f: (len(self.data.arms[f[0]].setup_rows), f[0]))
        if gas:
            order.append(("chemical", 1))  # XIV.б: one chemical figure a side (RULING)
        plan = {}
        for side in SIDES:
            cut = sc.defender_cut if side == sc.defender else 0  # XI: RULING, each arm
            arms = [a for a, n in order for _ in range(n - int(n * cut))]
            plan[side] = [f"{PREFIX[side]}{i + 1:02d}" for i in range(len(arms))]
            for uid, arm in zip(plan[side], arms, strict=True):
                state.put("arm", uid, arm)  # the order of battle is public; squares are not
            state.put("game", f"oob:{side}", len(arms))
        self.deployment.begin(state, plan)

    def _setup_cells(self, state: State, side: str, uid: str) -> list[Square]:
        """X.2: own zone, the arm's rows (and the railway); row I: cars + 2 others;
        XI: the defender on its half of the battle field; 1941: the two nearest rows."""
        b, arm, sc = self.board, self.arm(state, uid), self.scenario(state)
        mine = self.units(state, side)
        per = sc.stack_setup or self.p["stack_setup"]  # X.2a
        held = self.pieces.positions(state, side)
        if sc.defender == side:  # XI: behind a screen between battle rows 8 and 9
            half = [c for c in b.map if c not in b.zone and b.terrain(c) in SQUARES
                    and (c.row - 2 <= 8) == (side == "red")]  # fmt: skip
            return [c for c in half if len(held.get(c, ())) < per
                    and (arm.setup_on is None or c in b.rail)]  # fmt: skip
        front = sum(b.roman[c] == "I" and not self.data.arms[a].free_in_front_row
                    for a, c in mine.values())  # fmt: skip
        full = not arm.free_in_front_row and front >= self.p["front_row_others"]
        rows = {r for r in arm.setup_rows if r != "I" or not full} & set(sc.setup_rows or ROWS)
        own = [c for c in b.map if b.zone.get(c) == side and b.roman[c] in rows]
        cells = [c for c in own if (arm.setup_on is None or c in b.rail)
                 and len(held.get(c, ())) < per]  # fmt: skip
        return [c for c in cells if self._room_after(state, side, uid, c, front)]

    def _room_after(self, state: State, side: str, uid: str, cell: Square, front: int) -> bool:
        """RULING (X.2): a square is offered only if the figures still to place fit after
        it — in the rows their arms and the scenario allow, two (or the scenario's number)
        a square, half of them in row II, two besides cars in row I. The rows allowed to
        each arm are nested, so counting the room of every set of rows decides it
        (Hall's condition); the railway is not counted (the train is placed early)."""
        b, sc = self.board, self.scenario(state)
        per = sc.stack_setup or self.p["stack_setup"]
        allowed = set(sc.setup_rows or ROWS)
        held = self.pieces.positions(state, side)
        free = dict.fromkeys(ROWS, 0)
        count = dict.fromkeys(ROWS, 0)
        for c in b.map:
            if b.zone.get(c) == side:
                n = len(held.get(c, ())) + (c == cell)
                free[b.roman[c]] += max(per - n, 0)
                count[b.roman[c]] += n
        for r in ROWS:
            limit = self.deployment.per_row(state, side, r) if self.deployment.per_row else None
            if r not in allowed:
                free[r] = 0
            elif limit is not None:
                free[r] = min(free[r], max(limit - count[r], 0))
        placing = self.arm(state, uid)
        others = (
            self.p["front_row_others"]
            - front
            - (b.roman[cell] == "I" and not placing.free_in_front_row)
        )
        rest = [self.arm(state, u) for u in self.deployment.waiting(state, side)[1:]]
        for k in range(1, len(ROWS) + 1):
            for group in combinations(ROWS, k):
                fits = [a for a in rest if set(a.setup_rows) & allowed <= set(group)]
                room = sum(free[r] for r in group if r != "I")
                row_i = free["I"] if "I" in group else 0
                if len(fits) > room + row_i:
                    return False
                bound = [a for a in fits if not a.free_in_front_row]
                if len(bound) > room + min(max(others, 0), row_i):
                    return False
        return True

    # -- what may be done --------------------------------------------------------------

    def may_end(self, state: State) -> bool:
        """X.4: "a figure move is obligatory" — a side ends its turn once a figure has moved
        (or (dis)mounted, or it laid persistent gas: XIV.б), or if none can; VIII.б: not
        while a figure under fire has still to charge or take the fire's effect."""
        side = cast(str, state.stage)
        if any(self.awaiting(state, u) for u in self.pieces.pieces_of(state, side)):
            return False
        if state.table("moved"):
            return True
        return all(a.kind == "fire" for a in self.phase_actions(state, side))

    def phase_actions(self, state: State, side: str) -> Iterator[Action]:
        """The moves, (dis)mounts, fire moves and gas attacks of ``side``, figure by
        figure, lazily (the idle test and :meth:`may_end` stop at the first move)."""
        label = self.board.label
        used = state.table("strip")
        sc = self.scenario(state)
        budget = (sc.strip_figures or self.p["attack_strip_figures"]) - len(used)  # X.4
        for uid, (name, cell) in sorted(self.units(state, side).items()):
            arm = self.data.arms[name]
            if state.get("neutral", uid) is not None:
                continue  # IX: a neutralised gun neither moves nor fires

            def strip_ok(*cells: Square, uid: str = uid) -> bool:  # X.4
                return budget > 0 or uid in used or not any(map(self.in_strip, cells))

            effect = self.awaiting(state, uid)
            if effect is not None:  # VIII.б: charge into the flank or rear, or take the effect
                enemy = self.pieces.positions(state, other(side))
                if not state.get("pinned", uid):
                    yield from (Action.of("move", uid, label(d))
                                for d in self.destinations(state, uid)
                                if d in enemy and strip_ok(cell, d))  # fmt: skip
                yield from self._fire_effect(state, uid, effect)
                continue
            if not state.get("moved", uid) and not state.get("pinned", uid):
                yield from (
                    Action.of("move", uid, label(d))
                    for d in self.destinations(state, uid)
                    if strip_ok(cell, d)
                )
                yield from (Action.of(k, uid) for k in ("mount", "dismount")
                            if getattr(arm, k) and strip_ok(cell))  # fmt: skip
            if arm.range and cast(int, state.get("shots", uid, 0)) < arm.shots and strip_ok(cell):
                yield from (Action.of("fire", uid, label(t)) for t in self.targets(state, uid))
        if state.get("game", "gas"):
            yield from self._gas_moves(state, side)

    def awaiting(self, state: State, uid: str) -> str | None:
        """VIII.б: the fire result (``charge_instead``: dismount, fall back) a charging
        figure under fire has still to take, or to replace by a charge into the flank or
        rear, in its own turn; ``None`` if none."""
        effect = state.get("shot", uid)
        return effect if isinstance(effect, str) else None

    def _fire_effect(self, state: State, uid: str, effect: str) -> list[Action]:
        """VI.2: the fire's effect taken in the figure's turn (VIII.б): dismount, or fall
        back within its move (lost if it cannot)."""
        if effect == "dismount":
            return [Action.of("dismount", uid)]
        label = self.board.label
        return [Action.of("retreat", uid, label(c)) for c in self.retreats(state, uid)] or [
            Action.of("lost", uid)
        ]

    def _gas_moves(self, state: State, side: str) -> list[Action]:
        """XIV.а: once a game, the air bomb on any enemy figure; XIV.б: once a game, persistent
        gas on a square (not blue, not a village: RULING, no green square), as a move."""
        b, out = self.board, []
        enemy = self.pieces.positions(state, other(side))
        if not state.get("game", f"bomb:{side}"):
            out += [Action.of("bomb", b.label(c)) for c in sorted(enemy)]
        if not state.get("game", f"contaminate:{side}"):
            held = self.pieces.positions(state)
            out += [Action.of("contaminate", b.label(c)) for c in b.map
                    if c not in b.zone and b.terrain(c) in ("weak", "strong") and c not in held
                    and b.label(c) not in state.table("contaminated")]  # fmt: skip
        return out

    def barred(self, state: State, side: str, arm: Arm) -> set[Square]:
        """Squares ``side``'s figure of ``arm`` may not enter: enemy barrage (V, RULING),
        gas (XIV.а) and persistent gas (XIV.б note) unless a tank (IV) or chemical figure."""
        at = self.board.cell_at
        out = {at(k) for k, v in state.table("barrage").items() if v != side}
        if not arm.gas_proof:
            out |= {at(k) for k in state.table("gas")}
            if not arm.degas:
                out |= {at(k) for k in state.table("contaminated")}
        return out

    def destinations(self, state: State, uid: str, forced: bool = False) -> list[Square]:
        """III, IV, IX, XV, VI.3b, VIII: where ``uid`` may move (an enemy square = assault);
        ``forced``: falling back or leaving gas, not bound by VI.3b."""
        arm, side, b = self.arm(state, uid), side_of(uid), self.board
        cell = self.pieces.where(state, uid)
        friends, enemies = self.pieces.friends_enemies(state, side, exclude=uid)
        blocked = set(enemies) | self.barred(state, side, arm)
        if arm.movement == "rail":  # XV: enemy foot or horse next to the line cuts it
            cutters = [
                c for c, ids in enemies.items() if any(self.arm(state, u).cuts_rail for u in ids)
            ]
            blocked |= {n for c in cutters for n in b.map.neighbors(c) if n in b.rail}

        def reach(stops: set[Square]) -> dict[Square, float]:
            return reachable(b.map, cell, arm.movement, arm.move, friends=friends,
                             enemies=stops, rules=self.rules).costs  # fmt: skip

        out = [c for c in reach(blocked) if c != cell]
        if arm.behind_front:  # IX
            own = [c for c, ids in friends.items()
                   if any(self.arm(state, u).group != "artillery" for u in ids)]  # fmt: skip
            front = max([b.advance(side, c) for c in own] + [b.advance(side, cell)])
            out = [c for c in out if b.advance(side, c) <= front]
        open_ground: tuple[str, ...] = ("weak", "strong") if arm.assault == "open" else ("weak",)
        flank = arm.charge and state.get("shot", uid) is not None  # VIII.б: itself under fire
        for t in map(b.cell_at, state.table("fire")) if arm.assault else ():  # VIII
            if not (t in enemies and b.terrain(t) in open_ground
                    and (arm.charge or self._assault_allowed(state, t, enemies[t]))):  # fmt: skip
                continue
            if (self._into_flank_or_rear(state, uid, t, friends, blocked) if flank
                    else t in reach(blocked - {t})):  # fmt: skip
                out.append(t)
        if b.terrain(cell) == "masking" and not forced:  # VI.3b: only forward
            out = [c for c in out if b.advance(side, c) > b.advance(side, cell)]
        return sorted(out)

    def _into_flank_or_rear(
        self,
        state: State,
        uid: str,
        t: Square,
        friends: Mapping[Square, Any],
        blocked: set[Square],
    ) -> bool:
        """VIII.б: a charging figure under fire attacks "by a combined move ... into the
        flank or rear" (III: round obstacles, through friends). RULING: the move's last
        step enters the target's square from a neighbouring square no further forward than
        the target, as the target's side advances (``Board.advance``): from the same row
        (flank) or from behind (rear) — the text gives the board no other facing."""
        arm, b = self.arm(state, uid), self.board
        cell = self.pieces.where(state, uid)
        them = side_of(self.pieces.occupants(state, t)[0])
        through = reachable(b.map, cell, arm.movement, arm.move, friends=friends,
                            enemies=blocked, rules=self.passing).costs  # fmt: skip
        for n in b.map.neighbors(t):
            if n not in through or b.advance(them, n) > b.advance(them, t):
                continue
            step = find_path(b.map, n, t, arm.movement, arm.move - through[n],
                             friends=friends, enemies=blocked - {t}, rules=self.rules)  # fmt: skip
            if step is not None and len(step.cells) == 2:
                return True
        return False

    def _assault_allowed(self, state: State, t: Square, held: Iterable[str]) -> bool:
        """VIII.в: foot take a heavy MG only under gun fire or MG fire from 2 squares."""
        if not any(self.arm(state, u).guarded for u in held):
            return True
        fired = cast(tuple[str, ...], state.get("fire", self.board.label(t), ()))
        arms = [(self.arm(state, u), self.pieces.where(state, u)) for u in fired]
        mg_squares = {c for a, c in arms if a.mg}
        guns = any(a.group == "artillery" for a, _ in arms)
        return guns or len(mg_squares) >= self.p["hmg_assault_mg_squares"]

    def targets(self, state: State, uid: str) -> list[Square]:
        """V: enemy squares in range and line of fire, or an empty square (barrage, V);
        only guns fire into green squares; fire on blue squares is ineffective (XVI);
        VI.3b: from a green square only forward, except guns."""
        arm, cell, b = self.arm(state, uid), self.pieces.where(state, uid), self.board
        if b.terrain(cell) == "masking" and not arm.fires_from_masking:
            return []
        occ = self.pieces.positions(state)
        forward_only = b.terrain(cell) == "masking" and arm.group != "artillery"
        out = []
        blocks = self._blocks(arm, cell, occ)
        for t in b.map.within(cell, arm.range):
            if t == cell:
                continue
            ids = occ.get(t, ())
            fired = cast(tuple[str, ...], state.get("fire", b.label(t), ()))
            if (ids and side_of(ids[0]) == side_of(uid)) or uid in fired:
                continue
            if b.terrain(t) not in SQUARES or (not ids and t in b.zone):
                continue  # XVI: not on blue squares; RULING: no barrage behind the screens
            if b.terrain(t) == "masking" and arm.group != "artillery":
                continue
            if forward_only and b.advance(side_of(uid), t) <= b.advance(side_of(uid), cell):
                continue
            if blocks is None or line_clear(cell, t, blocks):
                out.append(t)
        return out  # in the map's (sorted) order

    def _blocks(
        self, arm: Arm, shooter: Square, occ: Mapping[Square, Any]
    ) -> Callable[[Square], bool] | None:
        """V a-c: what stops a line of fire from ``shooter`` (``None``: nothing does)."""
        if arm.los == "indirect":
            return None
        if arm.los == "overhead" and self.board.terrain(shooter) == "strong":
            return self.board.masking.__contains__
        cover = self.board.cover
        return lambda c: c in cover or c in occ

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        if decision.kind == "place":
            return self.deployment.actions(state, decision)
        if decision.kind == "retreat":
            uid = cast(str, decision.params[0])
            mode = cast(str, decision.params[1]) if len(decision.params) > 1 else None
            out = [
                Action.of("retreat", uid, self.board.label(c))
                for c in self.retreats(state, uid, mode)
            ]
            return out or [Action.of("lost", uid)]
        return self.raid.actions(state, decision)

    def retreats(self, state: State, uid: str, mode: str | None = None) -> list[Square]:
        """VI: fall back ("back": away from the enemy) or move away within its move ("any");
        XIV.а: out of a gassed square, anywhere within its move (``mode="any"``)."""
        arm, cell, side = self.arm(state, uid), self.pieces.where(state, uid), side_of(uid)
        enemy = self.pieces.positions(state, other(side))
        out = [c for c in self.destinations(state, uid, forced=True) if c not in enemy]
        if (mode or arm.retreat) == "back":
            out = [c for c in out if self.board.advance(side, c) < self.board.advance(side, cell)]
        return out

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        side = state.current_player()
        waiting = [u for u in self.pieces.pieces_of(state, side) if self.awaiting(state, u)]
        if action.kind == "end" and waiting and not state.pending:
            return f"end: {', '.join(waiting)} under fire must first charge or take it", "VIII.б"
        uid = action.args[0] if action.kind in UNIT_KINDS and action.args else None
        if uid in waiting or (
            action.kind == "move"
            and uid in self.pieces.pieces_of(state, side)
            and self.arm(state, uid).charge
            and state.get("shot", uid) is not None
            and action.args[-1] in map(self.board.label, self.pieces.positions(state, other(side)))
        ):
            return (f"{action}: a figure under fire charges only by a combined move into the "
                    "enemy's flank or rear (or takes the fire's effect)", "VIII.б")  # fmt: skip
        rules = {"move": "III, IV, VI.3b, VIII, X.4", "fire": "V, VI.3b, X.4", "place": "X.2",
                 "retreat": "VI", "bomb": "XIV.а", "contaminate": "XIV.б"}  # fmt: skip
        if action.kind in rules:
            return f"{action}: not allowed now (see the rules cited)", rules[action.kind]
        return super().explain(state, action)

    # -- what happens ------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        side = cast(str, state.stage)
        if action.kind in ("bomb", "contaminate"):
            self._gas(state, side, action.kind, action.args[0])
            return
        uid, kind = action.args[0], action.kind
        if self.awaiting(state, uid) is not None:  # VIII.б
            state.put("shot", uid, True)  # still under fire this turn
            if kind != "move":  # the fire's effect, taken now (not the figure's move, X.4)
                self._take_effect(state, uid, action)
                self._check_destroyed(state)
                return
        arm, cell = self.arm(state, uid), self.pieces.where(state, uid)
        dest = self.board.cell_at(action.args[1]) if kind == "move" else cell
        if self.in_strip(cell) or self.in_strip(dest):
            state.put("strip", uid, True)
        if kind == "move":
            self._move(state, uid, dest)
        elif kind in ("mount", "dismount"):  # IV note: counts as the figure's move
            state.put("arm", uid, cast(str, arm.mount or arm.dismount))
            state.put("moved", uid, True)
        else:  # fire (V): recorded now, resolved at the end of the turn
            label = action.args[1]
            state.put("fire", label, (*cast(tuple[str, ...], state.get("fire", label, ())), uid))
            state.put("shots", uid, cast(int, state.get("shots", uid, 0)) + 1)
        self._check_destroyed(state)

    def _gas(self, state: State, side: str, kind: str, label: str) -> None:
        """XIV.а: the bomb gasses the square for ``gas_bomb_turns`` (RULING) and its
        figures must leave at once; XIV.б: persistent gas until degassed, as a move."""
        state.put("game", f"{kind}:{side}", True)
        if kind == "contaminate":
            state.put("contaminated", label, side)
            state.put("moved", "gas", True)
            return
        state.put_until("gas", label, side, state.turn + self.p["gas_bomb_turns"])
        for uid in sorted(self.pieces.occupants(state, self.board.cell_at(label))):
            state.push(Decision("retreat", other(side), (uid, "any")))

    def _move(self, state: State, uid: str, dest: Square) -> None:
        side, arm, b = side_of(uid), self.arm(state, uid), self.board
        for u in self.pieces.occupants(state, dest):  # VIII: the assaulted figure is beaten
            if side_of(u) != side:
                self.pieces.remove(state, u)
        self.pieces.move(state, uid, dest)
        state.put("moved", uid, True)
        if arm.raider and dest in b.villages:  # XVI: RULING, "passed" = stopped there
            state.put("village", uid, True)
        sc = self.scenario(state)
        if sc.station and dest == b.station[other(side)] and state.outcome is None:
            state.end_game(Outcome(side, f"victory: {side} took the enemy's station (1941)"))
        if arm.raider and dest == b.rear[other(side)]:  # XIII
            if state.get("village", uid):  # XVI: partisans instead of a sacrifice
                state.put("arm", uid, "partisan")
            else:
                self.pieces.remove(state, uid)
            self.raid.start(state, side, self.p["raid_removes"])

    def _take_effect(self, state: State, uid: str, action: Action) -> None:
        """VI: a fire's effect: fall back (``retreat``; ``lost`` if it cannot) or
        dismount; the figure is pinned for its side's turn."""
        if action.kind == "lost":
            self.pieces.remove(state, uid)
            return
        if action.kind == "dismount":
            state.put("arm", uid, cast(str, self.arm(state, uid).dismount))
        else:
            self.pieces.move(state, uid, self.board.cell_at(action.args[1]))
        state.put("pinned", uid, True)

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        if self.deployment.answer(state, decision, action):  # X.2: behind the screen
            return
        if decision.kind == "retreat":
            self._take_effect(state, action.args[0], action)
        else:  # raid (XIII): the raiding side removes enemy figures one by one
            self.raid.answer(state, decision, action)
        self._check_destroyed(state)

    def _finish(self, state: State) -> None:
        """End of a side's turn: its pins lapse, then its fire takes effect (V, VI, IX),
        barrages and gas are renewed (V, XIV), green squares are fought over (VI.3)."""
        side, b = cast(str, state.stage), self.board
        for table in ("pinned", "shot"):
            for uid in sorted(u for u in state.table(table) if side_of(u) == side):
                state.delete(table, uid)
        for label in sorted(k for k, v in state.table("barrage").items() if v != side):
            state.delete("barrage", label)  # V: the enemy's barrage barred this turn only
        pending: set[str] = set()
        for label, shooters in sorted(state.table("fire").items()):
            t = b.cell_at(label)
            shots = [
                (self.arm(state, s), b.map.topology.distance(self.pieces.where(state, s), t))
                for s in cast(tuple[str, ...], shooters)
                if self.pieces.is_placed(state, s)
            ]
            hit = sorted(u for u in self.pieces.occupants(state, t) if side_of(u) != side)
            if not hit:  # V: barrage on an empty square bars it for the enemy's turn
                state.put("barrage", label, side)
            for uid in hit:
                arm = self.arm(state, uid)
                result = fire_result(self.data.effects, arm, b.terrain(t), shots)
                # VIII.б: under fire in its coming turn; a charging figure takes a dismount
                # or fall-back then, unless it charges into the flank or rear instead
                later = arm.charge and result in self.p["charge_instead"]
                state.put("shot", uid, result if later else True)
                if later:
                    continue
                if result == "destroy":
                    self.pieces.remove(state, uid)
                elif result == "neutralise":  # IX: for N turns after this one
                    until = state.turn + self.p["neutralised_turns"] + 1
                    state.put_until("neutral", uid, True, until)
                elif result == "retreat":
                    pending.add(uid)
                    state.push(Decision("retreat", other(side), (uid,)))
                elif result in ("pin", "dismount"):
                    if result == "dismount" and arm.dismount:
                        state.put("arm", uid, arm.dismount)
                    state.put("pinned", uid, True)
        self._green_squares(state, side, pending)
        self._degas(state)
        self._check_destroyed(state)

    def _green_squares(self, state: State, side: str, pending: set[str]) -> None:
        """VI.3d: melee between adjacent green squares; VI.3e: encircled figures on green
        squares are removed."""
        b, fired = self.board, {u for v in state.table("fire").values() for u in cast(Any, v)}
        occ = self.pieces.positions(state)
        green = [c for c in sorted(occ) if b.terrain(c) == "masking"]
        for c in green:
            ids = occ[c]
            if side_of(ids[0]) == side:
                continue
            ring = [n for n in b.map.neighbors(c) if b.terrain(n) in SQUARES]
            if ring and all(n in occ and side_of(occ[n][0]) == side for n in ring):
                for uid in ids:  # VI.3e
                    self.pieces.remove(state, uid)
                continue
            for n in ring:
                if n in occ and b.terrain(n) == "masking" and side_of(occ[n][0]) == side:
                    loser = self._melee(state, occ[n], ids, fired)
                    for uid in loser if loser is not None else ():
                        if uid not in pending and self.pieces.is_placed(state, uid):
                            pending.add(uid)
                            state.push(Decision("retreat", side_of(uid), (uid,)))

    def _melee(
        self, state: State, mine: Iterable[str], theirs: Iterable[str], fired: set[str]
    ) -> list[str] | None:
        """VI.3d: foot beat horse; foot against foot, the stronger (VII; fire this turn
        weighs ``melee_fired_weight``, RULING) wins; horse/horse, car/car: nothing."""
        groups = []
        for ids in (mine, theirs):
            arms = {u: self.arm(state, u) for u in ids}
            foot = [u for u, a in arms.items() if a.melee == "foot"]
            horse = [u for u, a in arms.items() if a.melee == "horse"]
            weight = self.p["melee_fired_weight"]
            power = sum(arms[u].strength * (weight if u in fired else 1) for u in foot)
            groups.append((foot, horse, power))
        (f1, h1, p1), (f2, h2, p2) = groups
        if f1 and h2 and not f2:
            return h2
        if f2 and h1 and not f1:
            return h1
        if f1 and f2 and p1 != p2:
            return f2 if p1 > p2 else f1
        return None

    def _degas(self, state: State) -> None:
        """XIV.б: a chemical figure of the other side holding a contaminated square for
        ``degas_side_turns`` side-turns in a row clears it."""
        for label, owner in sorted(state.table("contaminated").items()):
            ids = self.pieces.occupants(state, self.board.cell_at(label))
            if any(self.arm(state, u).degas and side_of(u) != owner for u in ids):
                held = cast(int, state.get("degas", label, 0)) + 1
                if held >= self.p["degas_side_turns"]:
                    state.delete("contaminated", label)
                    state.delete("degas", label)
                else:
                    state.put("degas", label, held)
            elif state.get("degas", label) is not None:
                state.delete("degas", label)

    # -- the end (X) -------------------------------------------------------------------

    def _check_destroyed(self, state: State) -> None:
        gone = eliminated(self.pieces, state, SIDES) if self.deployment.done(state) else None
        if gone and state.outcome is None:
            state.end_game(Outcome(other(gone), f"victory: {gone} destroyed (поражение)"))

    def lost_share(self, state: State, side: str) -> Fraction:
        return loss_share(self.pieces, state, side, self.oob(state, side))

    def hook_victory_check(self, state: State, value: Outcome | None) -> Outcome | None:
        if value is not None:
            return value
        early = state.turn < self.p["withdrawal_from_turn"]
        out = [] if early else withdrawn(self.pieces, state, SIDES, self.board.zone)
        if len(out) == 2:
            return Outcome(None, "draw: both sides stayed out of the battle")
        if out:
            if self.lost_share(state, out[0]) <= self.data.share("draw_loss_share"):
                return Outcome(None, f"draw: {out[0]} withdrew with light losses (ничья)")
            return Outcome(other(out[0]), f"success: {out[0]} withdrew (отход / успех)")
        if state.turn >= cast(int, state.get("game", "turns")):
            return self.final_outcome(state)
        return None

    def evaluation(self) -> Evaluation:
        """The search's evaluation: the losses that decide the game (X)."""
        return Evaluation()

    def final_outcome(self, state: State) -> Outcome:
        """Turn limit (not in the 1930 rules): the side that lost fewer figures wins."""
        shares = {s: self.lost_share(state, s) for s in SIDES}
        return fewer_losses(shares, "turn limit: fewer losses", "turn limit: equal losses")
