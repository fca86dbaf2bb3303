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

State: the figures' squares in a :class:`hexwar.board.pieces.Pieces` registry (tables
``pieces`` / ``stacks``, labelled in the seed's notation), each figure's arm in ``arm``;
the per-turn tables ``fire``, ``moved``, ``shots``, ``strip`` are phase scratch tables;
``neutral`` holds timed markers (IX). Not modelled (see README): aircraft and gas (XIV),
partisans (XVI), green-square melee (VI.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, cast

from hexwar.board.move_rules import MoveRules
from hexwar.board.movement import reachable
from hexwar.board.pieces import Pieces
from hexwar.engine.actions import Action, Decision, Outcome, Value
from hexwar.engine.bounds import Bounds
from hexwar.engine.observe import ObservationView
from hexwar.engine.sequencer import Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.square import Square, line_clear
from hexwar.mechanics.deployment import Deployment
from hexwar.mechanics.removal import ChosenRemoval
from hexwar.mechanics.victory import eliminated, fewer_losses, loss_share, withdrawn

from .board import SIDES, Board
from .data import Arm, EffectRow, GameData, load_game_data

PREFIX = {"blue": "b", "red": "r"}
SCRATCH = ("fire", "moved", "shots", "strip")  # emptied when a side's turn begins (X.4)
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
    for row in effects:
        if row.target != arm.target or square not in row.squares or len(shots) < row.fire:
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
        sc = self.data.scenarios.get(scenario) or max(
            self.data.scenarios.values(), key=lambda s: s.turns
        )
        figures = 2 * sum(n for _, n in sc.figures)
        return Bounds(max_tokens=sc.turns * figures * 5 + figures * 8)

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_game_data()
        self.board = b = Board(self.data)
        self.p = p = self.data.params
        self.pieces = pcs = Pieces(b.labels, attributes=("pinned", "neutral"))
        # XIII: a raid removes enemy figures of the raiding side's choice
        self.raid = ChosenRemoval(pcs, "raid", lambda s, side: pcs.pieces_of(s, other(side)))
        half = self.data.share("second_row_share")  # X.2c: at most half the figures in row II
        self.deployment = Deployment(
            self.pieces,
            self._setup_cells,
            per_cell=p["stack_setup"],  # X.2a
            row=lambda c: b.roman.get(c, ""),
            per_row=lambda s, side, row: int(self.oob(s, side) * half) if row == "II" else None,
        )
        # III: no ZOC; VI.3: one figure a square, two on a green one.
        self.rules = MoveRules(zoc=False, can_end_at=lambda m, c, f: len(f) < self.capacity(c))
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
        ids = [f"{PREFIX[s]}{i + 1:02d}" for s in SIDES for i in range(most)]
        kinds = ["end", "place", "move", "mount", "dismount", "fire", "retreat", "lost", "remove"]
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

    def in_strip(self, c: Square) -> bool:
        low, high = self.p["attack_strip"]
        return c not in self.board.zone and low <= c.row - 2 <= high

    # -- set-up (X.2) ------------------------------------------------------------------

    def setup(self, state: State, scenario: str, options: Mapping[str, Value]) -> None:
        sc = self.data.scenarios.get(scenario)
        if sc is None:
            raise ValueError(
                f"unknown scenario {scenario!r} (known: {sorted(self.data.scenarios)})"
            )
        turns = options.get("turns", sc.turns)
        state.put("game", "turns", turns if isinstance(turns, int) else sc.turns)
        # The most constrained arms are placed first, so every figure finds a square.
        order = sorted(sc.figures, key=lambda f: (len(self.data.arms[f[0]].setup_rows), f[0]))
        arms = [a for a, n in order for _ in range(n)]
        plan = {}
        for side in SIDES:
            plan[side] = [f"{PREFIX[side]}{i + 1:02d}" for i in range(len(arms))]
            for uid, arm in zip(plan[side], arms, strict=True):
                state.put("arm", uid, arm)  # the order of battle is public; squares are not
            state.put("game", f"oob:{side}", len(arms))
        self.deployment.begin(state, plan)

    def _setup_cells(self, state: State, side: str, uid: str) -> list[Square]:
        """X.2: own zone, the arm's rows (and the railway); row I: cars + 2 others."""
        b, arm = self.board, self.arm(state, uid)
        mine = self.units(state, side)
        front = sum(b.roman[c] == "I" and not self.data.arms[a].free_in_front_row
                    for a, c in mine.values())  # fmt: skip
        full = not arm.free_in_front_row and front >= self.p["front_row_others"]
        rows = {r for r in arm.setup_rows if r != "I" or not full}
        own = [c for c in b.map if b.zone.get(c) == side and b.roman[c] in rows]
        return [c for c in own if arm.setup_on is None or c in b.rail]

    # -- what may be done --------------------------------------------------------------

    def may_end(self, state: State) -> bool:
        """X.4: "a figure move is obligatory" — a side ends its turn once a figure has moved
        (or (dis)mounted), or if none can."""
        legal = self.phase_actions(state, cast(str, state.stage))
        return bool(state.table("moved")) or all(a.kind == "fire" for a in legal)

    def phase_actions(self, state: State, side: str) -> list[Action]:
        """The moves, (dis)mounts and fire moves of ``side``."""
        return self._phase_actions(state, side)

    def _phase_actions(self, state: State, side: str) -> list[Action]:
        label = self.board.label
        used = state.table("strip")
        budget = self.p["attack_strip_figures"] - len(used)
        out: list[Action] = []
        for uid, (name, cell) in sorted(self.units(state, side).items()):
            arm = self.data.arms[name]
            if state.get("neutral", uid) is not None:
                continue  # IX: a neutralised gun neither moves nor fires

            def strip_ok(*cells: Square, uid: str = uid) -> bool:  # X.4
                return budget > 0 or uid in used or not any(map(self.in_strip, cells))

            if not state.get("moved", uid) and not state.get("pinned", uid):
                out += [
                    Action.of("move", uid, label(d))
                    for d in self.destinations(state, uid)
                    if strip_ok(cell, d)
                ]
                out += [Action.of(k, uid) for k in ("mount", "dismount")
                        if getattr(arm, k) and strip_ok(cell)]  # fmt: skip
            if arm.range and cast(int, state.get("shots", uid, 0)) < arm.shots and strip_ok(cell):
                out += [Action.of("fire", uid, label(t)) for t in self.targets(state, uid)]
        return out

    def destinations(self, state: State, uid: str) -> list[Square]:
        """III, IV, IX, XV, VIII: where ``uid`` may move (an enemy square = assault)."""
        arm, side, b = self.arm(state, uid), side_of(uid), self.board
        cell = self.pieces.where(state, uid)
        friends, enemies = self.pieces.friends_enemies(state, side, exclude=uid)
        blocked = set(enemies)
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
        open_ground = ("weak", "strong") if arm.assault == "open" else ("weak",)
        for t in map(b.cell_at, state.table("fire")) if arm.assault else ():  # VIII
            if t in enemies and b.terrain(t) in open_ground and t in reach(blocked - {t}):
                out.append(t)
        return sorted(out)

    def targets(self, state: State, uid: str) -> list[Square]:
        """V: enemy squares in range and line of fire; only guns fire into green squares."""
        arm, cell, b = self.arm(state, uid), self.pieces.where(state, uid), self.board
        if b.terrain(cell) == "masking" and not arm.fires_from_masking:
            return []
        occ = self.pieces.positions(state)
        out = []
        for t, ids in occ.items():
            fired = cast(tuple[str, ...], state.get("fire", b.label(t), ()))
            if side_of(ids[0]) == side_of(uid) or uid in fired:
                continue
            if not 1 <= b.map.topology.distance(cell, t) <= arm.range:
                continue
            if b.terrain(t) == "masking" and arm.group != "artillery":
                continue
            if line_clear(cell, t, lambda c: self._blocks(arm, cell, c, occ)):
                out.append(t)
        return sorted(out)

    def _blocks(self, arm: Arm, shooter: Square, c: Square, occ: Mapping[Square, Any]) -> bool:
        """V a-c: what stops a line of fire."""
        if arm.los == "indirect":
            return False
        if arm.los == "overhead" and self.board.terrain(shooter) == "strong":
            return self.board.terrain(c) == "masking"
        return self.board.terrain(c) in ("strong", "masking") or c in occ

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        if decision.kind == "place":
            return self.deployment.actions(state, decision)
        if decision.kind == "retreat":
            uid = cast(str, decision.params[0])
            out = [
                Action.of("retreat", uid, self.board.label(c)) for c in self.retreats(state, uid)
            ]
            return out or [Action.of("lost", uid)]
        return self.raid.actions(state, decision)

    def retreats(self, state: State, uid: str) -> list[Square]:
        """VI: fall back ("back": away from the enemy) or move away within its move ("any")."""
        arm, cell, side = self.arm(state, uid), self.pieces.where(state, uid), side_of(uid)
        enemy = self.pieces.positions(state, other(side))
        out = [c for c in self.destinations(state, uid) if c not in enemy]
        if arm.retreat == "back":
            out = [c for c in out if self.board.advance(side, c) < self.board.advance(side, cell)]
        return out

    def explain(self, state: State, action: Action) -> tuple[str, str | None]:
        rules = {"move": "III, IV, X.4", "fire": "V, X.4", "place": "X.2", "retreat": "VI"}
        if action.kind in rules:
            return f"{action}: not allowed now (see the rules cited)", rules[action.kind]
        return super().explain(state, action)

    # -- what happens ------------------------------------------------------------------

    def play(self, state: State, action: Action) -> None:
        uid, kind = action.args[0], action.kind
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

    def _move(self, state: State, uid: str, dest: Square) -> None:
        side, arm = side_of(uid), self.arm(state, uid)
        for u in self.pieces.occupants(state, dest):  # VIII: the assaulted figure is beaten
            if side_of(u) != side:
                self.pieces.remove(state, u)
        self.pieces.move(state, uid, dest)
        state.put("moved", uid, True)
        if arm.raider and dest == self.board.rear[other(side)]:  # XIII
            self.pieces.remove(state, uid)
            self.raid.start(state, side, self.p["raid_removes"])

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        if self.deployment.answer(state, decision, action):  # X.2: behind the screen
            return
        if decision.kind == "retreat":
            uid = action.args[0]
            if action.kind == "lost":
                self.pieces.remove(state, uid)
            else:
                self.pieces.move(state, uid, self.board.cell_at(action.args[1]))
                state.put("pinned", uid, True)
        else:  # raid (XIII): the raiding side removes enemy figures one by one
            self.raid.answer(state, decision, action)
        self._check_destroyed(state)

    def _finish(self, state: State) -> None:
        """End of a side's turn: its pins lapse, then its fire takes effect (V, VI, IX)."""
        side, b = cast(str, state.stage), self.board
        for uid in sorted(u for u in state.table("pinned") if side_of(u) == side):
            state.delete("pinned", uid)
        for label, shooters in sorted(state.table("fire").items()):
            t = b.cell_at(label)
            shots = [
                (self.arm(state, s), b.map.topology.distance(self.pieces.where(state, s), t))
                for s in cast(tuple[str, ...], shooters)
                if self.pieces.is_placed(state, s)
            ]
            for uid in sorted(u for u in self.pieces.occupants(state, t) if side_of(u) != side):
                arm = self.arm(state, uid)
                result = fire_result(self.data.effects, arm, b.terrain(t), shots)
                if result == "destroy":
                    self.pieces.remove(state, uid)
                elif result == "neutralise":  # IX: for N turns after this one
                    until = state.turn + self.p["neutralised_turns"] + 1
                    state.put_until("neutral", uid, True, until)
                elif result == "retreat":
                    state.push(Decision("retreat", other(side), (uid,)))
                elif result in ("pin", "dismount"):
                    if result == "dismount" and arm.dismount:
                        state.put("arm", uid, arm.dismount)
                    state.put("pinned", uid, True)
        self._check_destroyed(state)

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

    def final_outcome(self, state: State) -> Outcome:
        """Turn limit (not in the 1930 rules): the side that lost fewer figures wins."""
        shares = {s: self.lost_share(state, s) for s in SIDES}
        return fewer_losses(shares, "turn limit: fewer losses", "turn limit: equal losses")
