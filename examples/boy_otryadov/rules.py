"""«Бой отрядов» (Squad battle, N. Shabanov & S. Stratonovich, 1930) on hexwar's core.

Roman numbers cite the sections of the seed text (``002_ae95fddb942d7462.txt``):

- I: a square grid, 10 columns А–К x 15 battle rows, and a 3-row neutral zone at each end
  (rows I–III, I nearest the field); squares strong, weak, masking or impassable
  (``data/map.toml``, ``data/chart.toml``);
- X.2: hidden set-up in one's own neutral zone, with limits per row; X.1: blue moves first;
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

Not modelled (see README): aircraft and gas (XIV), partisans (XVI), green-square melee
(VI.3), the mandatory figure move (X.4: the core always offers ``end``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, cast

from hexwar.actions import Action, Decision, Outcome, Value
from hexwar.grid import Square
from hexwar.movement import MoveRules, reachable
from hexwar.sequencer import Phase, Stage, TurnSequence
from hexwar.state import Ruleset, State

from .board import SIDES, Board
from .data import Arm, EffectRow, GameData, load_game_data

PREFIX = {"blue": "b", "red": "r"}
FREE = MoveRules(zoc=False, can_end=lambda mover, friends: True)  # III: no ZOC; stacking below
Units = dict[str, tuple[str, Square]]
_READ = ("units", "fire", "moved", "shots", "strip", "pinned", "neutral")  # phase_actions reads


def _key(c: Square) -> tuple[int, int]:
    return c.col, c.row


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

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data or load_game_data()
        self.board = Board(self.data)
        self.p = self.data.params
        self._memo: dict[tuple[Any, ...], list[Action]] = {}
        self.sequence = TurnSequence(tuple(Stage(s, (self._phase(s),)) for s in SIDES))

    def _phase(self, side: str) -> Phase:
        return Phase("act", side=side, on_enter=self._begin, on_exit=self._finish)

    # -- reading the state -------------------------------------------------------------

    def units(self, state: State, side: str | None = None) -> Units:
        out: Units = {}
        for uid, v in state.table("units").items():
            if v is not None and (side is None or side_of(uid) == side):
                arm, col, row = cast(tuple[str, int, int], v)
                out[uid] = (arm, Square(col, row))
        return out

    def arm(self, state: State, uid: str) -> Arm:
        return self.data.arms[self.units(state)[uid][0]]

    def occupants(self, units: Units) -> dict[Square, tuple[str, ...]]:
        out: dict[Square, tuple[str, ...]] = {}
        for uid in sorted(units):
            out[units[uid][1]] = (*out.get(units[uid][1], ()), uid)
        return out

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
        for side in SIDES:
            arms = [a for a, n in order for _ in range(n)]
            ids = [f"{PREFIX[side]}{i + 1:02d}" for i in range(len(arms))]
            state.put("game", f"oob:{side}", len(ids))
            state.put(
                "game",
                f"to_place:{side}",
                tuple(f"{u}:{a}" for u, a in zip(ids, arms, strict=True)),
            )
        self._next_placement(state)

    def _next_placement(self, state: State) -> None:
        for side in SIDES:
            todo = cast(tuple[str, ...], state.get("game", f"to_place:{side}"))
            if todo:
                state.push(Decision("place", side, (todo[0],), private=side))
                return
        for uid in sorted(state.table("units")):  # X.3: the screens are lifted
            state.reveal("units", uid)
        state.put("game", "started", True)

    def placements(self, state: State, side: str, arm: Arm) -> list[Square]:
        """X.2: own zone; up to 2 a square; row I: cars + 2 others, no guns; II: <= 1/2."""
        b, units = self.board, self.units(state, side)
        occ = self.occupants(units)
        per_row = {
            r: [self.data.arms[a] for a, c in units.values() if b.roman[c] == r]
            for r in ("I", "II")
        }
        front = sum(not a.free_in_front_row for a in per_row["I"])
        second = int(state.get("game", f"oob:{side}")) * self.data.share("second_row_share")  # type: ignore[arg-type]
        out = []
        for c in b.map:
            row = b.roman.get(c) if b.zone.get(c) == side else None
            if (
                row is None
                or row not in arm.setup_rows
                or len(occ.get(c, ())) >= self.p["stack_setup"]
            ):
                continue
            if arm.setup_on is not None and c not in b.rail:
                continue
            if row == "I" and not arm.free_in_front_row and front >= self.p["front_row_others"]:
                continue
            if row != "II" or len(per_row["II"]) + 1 <= second:
                out.append(c)
        return out

    # -- what may be done --------------------------------------------------------------

    def phase_actions(self, state: State, side: str) -> list[Action]:
        """The moves, (dis)mounts and fire moves of ``side``; memoised on the tables read."""
        key = (side, *(tuple(sorted(state.table(t).items())) for t in _READ))
        if key not in self._memo:
            if len(self._memo) > 256:
                self._memo.clear()
            self._memo[key] = self._phase_actions(state, side)
        return self._memo[key]

    def _phase_actions(self, state: State, side: str) -> list[Action]:
        units, labels = self.units(state), self.board.labels
        occ = self.occupants(units)
        budget = self.p["attack_strip_figures"] - len(state.table("strip"))
        out: list[Action] = []
        for uid, (name, cell) in sorted(units.items()):
            arm = self.data.arms[name]
            if side_of(uid) != side or state.get("neutral", uid) is not None:
                continue  # IX: a neutralised gun neither moves nor fires

            def strip_ok(*cells: Square, uid: str = uid) -> bool:  # X.4
                return (
                    budget > 0
                    or state.get("strip", uid) is not None
                    or not any(self.in_strip(c) for c in cells)
                )

            if not state.get("moved", uid) and not state.get("pinned", uid):
                out += [
                    Action.of("move", uid, labels[d])
                    for d in self.destinations(state, uid, units)
                    if strip_ok(cell, d)
                ]
                if arm.mount and strip_ok(cell):
                    out.append(Action.of("mount", uid))
                if arm.dismount and strip_ok(cell):
                    out.append(Action.of("dismount", uid))
            if arm.range and cast(int, state.get("shots", uid, 0)) < arm.shots and strip_ok(cell):
                out += [
                    Action.of("fire", uid, labels[t]) for t in self.targets(state, uid, units, occ)
                ]
        return out

    def destinations(self, state: State, uid: str, units: Units | None = None) -> list[Square]:
        """III, IV, IX, XV, VIII: where ``uid`` may move (an enemy square = assault)."""
        units = dict(units or self.units(state))
        name, cell = units.pop(uid)
        arm, side, b = self.data.arms[name], side_of(uid), self.board
        friends = self.occupants({u: v for u, v in units.items() if side_of(u) == side})
        enemies = self.occupants({u: v for u, v in units.items() if side_of(u) != side})
        blocked = set(enemies)
        if arm.movement == "rail":  # XV: enemy foot or horse next to the line cuts it
            cutters = [
                c
                for c, ids in enemies.items()
                if any(self.data.arms[units[u][0]].cuts_rail for u in ids)
            ]
            blocked |= {n for c in cutters for n in b.map.neighbors(c) if n in b.rail}
        reach = reachable(
            b.map, cell, arm.movement, arm.move, friends=friends, enemies=blocked, rules=FREE
        )
        out = [c for c in reach.costs if c != cell and len(friends.get(c, ())) < self.capacity(c)]
        if arm.behind_front:  # IX
            own = [
                c
                for u, (a, c) in units.items()
                if side_of(u) == side and self.data.arms[a].group != "artillery"
            ]
            front = max([b.advance(side, c) for c in own] + [b.advance(side, cell)])
            out = [c for c in out if b.advance(side, c) <= front]
        fired = [b.cells[k] for k in state.table("fire")]
        open_ground = ("weak", "strong") if arm.assault == "open" else ("weak",)
        for t in fired if arm.assault else ():  # VIII: take a square under fire
            if t not in enemies or b.terrain(t) not in open_ground:
                continue
            way = reachable(
                b.map,
                cell,
                arm.movement,
                arm.move,
                friends=friends,
                enemies=blocked - {t},
                rules=FREE,
            )
            if t in way:
                out.append(t)
        return sorted(out, key=_key)

    def targets(
        self, state: State, uid: str, units: Units, occ: Mapping[Square, tuple[str, ...]]
    ) -> list[Square]:
        """V: enemy squares in range and line of fire; only guns fire into green squares."""
        (name, cell), b = units[uid], self.board
        arm = self.data.arms[name]
        if b.terrain(cell) == "masking" and not arm.fires_from_masking:
            return []
        out = []
        for t, ids in occ.items():
            fired = cast(tuple[str, ...], state.get("fire", b.labels[t], ()))
            if side_of(ids[0]) == side_of(uid) or uid in fired:
                continue
            if not 1 <= b.map.topology.distance(cell, t) <= arm.range:
                continue
            if b.terrain(t) == "masking" and arm.group != "artillery":
                continue
            if all(
                any(not self._blocks(arm, cell, c, occ) for c in step) for step in b.line(cell, t)
            ):
                out.append(t)
        return sorted(out, key=_key)

    def _blocks(self, arm: Arm, shooter: Square, c: Square, occ: Mapping[Square, Any]) -> bool:
        """V a-c: what stops a line of fire."""
        if arm.los == "indirect":
            return False
        if arm.los == "overhead" and self.board.terrain(shooter) == "strong":
            return self.board.terrain(c) == "masking"
        return self.board.terrain(c) in ("strong", "masking") or c in occ

    def decision_actions(self, state: State, decision: Decision) -> list[Action]:
        if decision.kind == "place":
            uid, arm = cast(str, decision.params[0]).split(":")
            squares = self.placements(state, decision.side, self.data.arms[arm])
            return [Action.of("place", uid, self.board.labels[c]) for c in squares]
        if decision.kind == "retreat":
            uid = cast(str, decision.params[0])
            squares = self.retreats(state, uid)
            return [Action.of("retreat", uid, self.board.labels[c]) for c in squares] or [
                Action.of("lost", uid)
            ]
        return [Action.of("remove", u) for u in sorted(self.units(state, other(decision.side)))]

    def retreats(self, state: State, uid: str) -> list[Square]:
        """VI: fall back ("back": away from the enemy) or move away within its move ("any")."""
        arm, cell, side = self.arm(state, uid), self.units(state)[uid][1], side_of(uid)
        out = [
            c
            for c in self.destinations(state, uid)
            if c not in self.occupants(self.units(state, other(side)))
        ]
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
        uid = action.args[0]
        name, cell = self.units(state)[uid]
        arm = self.data.arms[name]
        if self.in_strip(cell) or (
            action.kind == "move" and self.in_strip(self.board.cells[action.args[1]])
        ):
            state.put("strip", uid, True)
        if action.kind == "move":
            self._move(state, uid, self.board.cells[action.args[1]])
        elif action.kind in ("mount", "dismount"):  # IV note: counts as the figure's move
            self._put(state, uid, cast(str, arm.mount or arm.dismount), cell)
            state.put("moved", uid, True)
        else:  # fire (V): recorded now, resolved at the end of the turn
            label = action.args[1]
            state.put("fire", label, (*cast(tuple[str, ...], state.get("fire", label, ())), uid))
            state.put("shots", uid, cast(int, state.get("shots", uid, 0)) + 1)
        self._check_destroyed(state)

    def _put(self, state: State, uid: str, arm: str, c: Square) -> None:
        state.put("units", uid, (arm, c.col, c.row))

    def _remove(self, state: State, uid: str) -> None:
        for table in ("units", "pinned", "neutral"):
            state.delete(table, uid)

    def _move(self, state: State, uid: str, dest: Square) -> None:
        side, arm = side_of(uid), self.arm(state, uid)
        for u, (_, c) in self.units(state, other(side)).items():
            if c == dest:  # VIII: the assaulted figure is beaten
                self._remove(state, u)
        self._put(state, uid, arm.name, dest)
        state.put("moved", uid, True)
        if arm.raider and dest == self.board.rear[other(side)]:  # XIII
            self._remove(state, uid)
            n = min(self.p["raid_removes"], len(self.units(state, other(side))))
            if n:
                state.push(Decision("raid", side, (n,)))

    def decide(self, state: State, decision: Decision, action: Action) -> None:
        if decision.kind == "place":
            uid, arm = cast(str, decision.params[0]).split(":")
            key = f"to_place:{decision.side}"
            state.put("game", key, cast(tuple[str, ...], state.get("game", key))[1:])
            self._put(state, uid, arm, self.board.cells[action.args[1]])
            state.hide("units", uid, decision.side)  # X.2: behind the screen
            self._next_placement(state)
        elif decision.kind == "retreat":
            uid = action.args[0]
            if action.kind == "lost":
                self._remove(state, uid)
            else:
                self._put(state, uid, self.arm(state, uid).name, self.board.cells[action.args[1]])
                state.put("pinned", uid, True)
        else:  # raid (XIII): the raiding side removes enemy figures one by one
            self._remove(state, action.args[0])
            n = cast(int, decision.params[0]) - 1
            if n and self.units(state, other(decision.side)):
                state.push(Decision("raid", decision.side, (n,)))
        self._check_destroyed(state)

    def _begin(self, state: State) -> None:
        for uid, until in sorted(state.table("neutral").items()):
            if cast(int, until) < state.turn:  # IX: the neutralisation has worn off
                state.delete("neutral", uid)

    def _finish(self, state: State) -> None:
        """End of a side's turn: its pins lapse, then its fire takes effect (V, VI, IX)."""
        side = cast(str, state.stage)
        for uid in sorted(state.table("pinned")):
            if side_of(uid) == side:
                state.delete("pinned", uid)
        units, b = self.units(state), self.board
        for label, shooters in sorted(state.table("fire").items()):
            t = b.cells[label]
            shots = [
                (self.arm(state, s), b.map.topology.distance(units[s][1], t))
                for s in cast(tuple[str, ...], shooters)
                if s in units
            ]
            for uid in sorted(u for u, (a, c) in units.items() if c == t and side_of(u) != side):
                arm = self.data.arms[units[uid][0]]
                result = fire_result(self.data.effects, arm, b.terrain(t), shots)
                if result == "destroy":
                    self._remove(state, uid)
                elif result == "neutralise":
                    state.put("neutral", uid, state.turn + self.p["neutralised_turns"])
                elif result == "retreat":
                    state.push(Decision("retreat", other(side), (uid,)))
                elif result in ("pin", "dismount"):
                    if result == "dismount" and arm.dismount:
                        self._put(state, uid, arm.dismount, t)
                    state.put("pinned", uid, True)
        for table in ("fire", "moved", "shots", "strip"):
            for key in sorted(state.table(table)):
                state.delete(table, key)
        self._check_destroyed(state)

    # -- the end (X) -------------------------------------------------------------------

    def _check_destroyed(self, state: State) -> None:
        if state.get("game", "started") and state.outcome is None:
            for side in SIDES:
                if not self.units(state, side):
                    state.end_game(Outcome(other(side), f"victory: {side} destroyed (поражение)"))
                    return

    def lost_share(self, state: State, side: str) -> Fraction:
        oob = cast(int, state.get("game", f"oob:{side}"))
        return Fraction(oob - len(self.units(state, side)), oob)

    def hook_victory_check(self, state: State, value: Outcome | None) -> Outcome | None:
        if value is not None:
            return value
        out = [
            s for s in SIDES if all(c in self.board.zone for _, c in self.units(state, s).values())
        ]
        if state.turn < self.p["withdrawal_from_turn"]:
            out = []
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
        blue, red = (self.lost_share(state, s) for s in SIDES)
        if blue == red:
            return Outcome(None, "turn limit: equal losses")
        return Outcome("blue" if blue < red else "red", "turn limit: fewer losses")
