"""Hook points and active effects: fold order, precedence, expiry, undo/clone/serialize."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hexwar.base.errors import HexwarError
from hexwar.engine.actions import Action
from hexwar.engine.hooks import HOOK_POINTS, Effect, EffectRule, Expiry, HookPoint, hook_point
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.state import Ruleset, State
from toy_game import Duel


def plus(state: State, effect: Effect, value: int, **context: Any) -> int:
    return value + int(effect.param("n", 1))  # type: ignore[arg-type]


def double(state: State, effect: Effect, value: int, **context: Any) -> int:
    return value * 2


class Cards(Duel):
    """Duel with two more card kinds on the movement allowance."""

    effect_rules: ClassVar[Mapping[str, Mapping[str, EffectRule]]] = {
        **Duel.effect_rules,
        "plus": {"movement_allowance": plus},
        "double": {"movement_allowance": double},
        "boost": {"combat_strength": plus},
    }

    def hook_movement_allowance(self, state: State, value: int, *, unit: str) -> int:
        return value - 1 if unit == "blue" else value  # a static rule: blue is slow


def started() -> State:
    state = Cards().new_state()
    state.apply("deal dud")
    state.apply("deal dud")
    return state


def test_standard_hook_points_are_documented() -> None:
    for name in (
        "movement_allowance",
        "combat_strength",
        "odds_shift",
        "die_modifier",
        "replacement_points",
        "phase_start",
        "phase_end",
        "victory_check",
    ):
        assert HOOK_POINTS[name].signature.startswith("(state, value")
        assert HOOK_POINTS[name].doc
    with pytest.raises(KeyError):
        hook_point("no_such_point")
    with pytest.raises(KeyError):
        started().hook("no_such_point", 0)


def test_static_hook_then_effects_in_precedence_order() -> None:
    state = started()
    assert state.hook("movement_allowance", 2, unit="blue") == 1
    state.add_effect("double", precedence=20)
    state.add_effect("plus", {"n": 3}, precedence=10)  # added later, applies first
    assert [e.kind for e in state.effects] == ["plus", "double"]
    assert state.hook("movement_allowance", 2, unit="red") == (2 + 3) * 2
    assert state.hook("movement_allowance", 2, unit="blue") == (1 + 3) * 2


def test_equal_precedence_applies_in_order_of_arrival() -> None:
    state = started()
    state.add_effect("double")
    state.add_effect("plus")
    assert state.hook("movement_allowance", 2, unit="red") == 2 * 2 + 1


def test_effects_change_legal_actions() -> None:
    state = started()
    assert Action.of("move", "red", 3) not in state.legal_actions()
    state.add_effect("plus")
    assert Action.of("move", "red", 3) in state.legal_actions()


def test_expiry_phase_turn_game() -> None:
    state = started()
    for expiry in Expiry:
        state.add_effect("plus", expiry=expiry, source=expiry.value)
    state.apply("end")  # red's move phase ends; fire is skipped
    assert sorted(str(e.source) for e in state.effects) == ["game", "turn"]
    state.apply("end")  # blue's move: the turn ends
    assert [e.source for e in state.effects] == ["game"]
    assert state.turn == 2


def test_an_expiry_may_be_given_by_its_name_as_data_spells_it() -> None:
    state = started()
    for name in ("phase", "turn", "game"):
        effect = state.add_effect("plus", expiry=name, source=name)
        assert effect.expiry is Expiry(name)
    state.apply("end")  # red's move phase ends: the phase's effect lapses
    assert sorted(str(e.source) for e in state.effects) == ["game", "turn"]
    with pytest.raises(ValueError, match="fortnight"):
        state.add_effect("plus", expiry="fortnight")


def test_a_hook_follows_the_effects_after_each_change_undo_and_clone() -> None:
    """``State.hook`` keeps the effects that fold into a point per tuple of effects in
    force: every change (add, remove, undo) and a clone's own changes are followed."""
    state = started()
    assert state.hook("movement_allowance", 2, unit="red") == 2
    state.add_effect("plus", {"n": 3})
    assert state.hook("movement_allowance", 2, unit="red") == 5
    state.add_effect("plus", {"n": 1})
    assert state.hook("movement_allowance", 2, unit="red") == 6
    state.remove_effect(state.effects[1])
    assert state.hook("movement_allowance", 2, unit="red") == 5
    twin = state.clone()
    twin.add_effect("double", precedence=20)
    assert twin.hook("movement_allowance", 2, unit="red") == 10
    assert state.hook("movement_allowance", 2, unit="red") == 5  # the original unchanged
    state.remove_effect(state.effects[0])
    assert state.hook("movement_allowance", 2, unit="red") == 2
    assert twin.hook("movement_allowance", 2, unit="red") == 10
    before = twin.clone()
    twin.apply("end")  # a phase ends: nothing lapses (turn effects), then undo
    twin.undo()
    assert (
        twin.hook("movement_allowance", 2, unit="red")
        == 10
        == before.hook("movement_allowance", 2, unit="red")
    )


def test_contributes_says_whether_a_hook_may_change_a_value_now() -> None:
    """``State.contributes``: a static hook always may; an effect only while one of a kind
    folding into the point is in force (then a query may skip the hook per piece)."""
    state = started()
    assert state.contributes("movement_allowance")  # Cards' static hook
    assert not state.contributes("combat_strength")  # no static hook, no effect
    state.add_effect("boost")
    assert state.contributes("combat_strength")
    state.remove_effect(state.effects[-1])
    assert not state.contributes("combat_strength")
    twin = state.clone()
    twin.add_effect("boost")
    assert twin.contributes("combat_strength")
    assert not state.contributes("combat_strength")


def test_unknown_effect_kind_is_refused() -> None:
    with pytest.raises(HexwarError, match="unknown effect kind"):
        started().add_effect("teleport")


def test_effects_are_covered_by_undo_clone_and_serialization() -> None:
    state = Duel().new_state()
    for text in ("deal ambush", "deal dud", "move red 2", "move blue 4", "move red 3"):
        state.apply(text)
    twin = state.clone()
    state.apply("play red ambush")
    assert [e.kind for e in state.effects] == ["ambush"]
    assert twin.effects == ()
    assert state.effects[0].expiry is Expiry.PHASE
    assert state.effects[0].owner == "red"
    loaded = loads(state.ruleset, dumps(state))
    assert loaded.effects == state.effects
    # the card is +2 to red's roll: 2 + 2 hits
    state.apply("attack red")
    state.apply("roll 2")
    assert state.pending[-1].kind == "hit"
    state.undo()
    state.undo()
    state.undo()
    assert state == twin


# -- the catalogue is what the code does ------------------------------------------------------

_ROOT = Path(__file__).resolve().parent.parent


def _declared(point: HookPoint) -> set[str] | None:
    """The context keywords a point declares (``None``: any, ``**context``)."""
    params = point.signature.split("->")[0]
    if "**" in params:
        return None
    _, _, keywords = params.partition("*,")
    return set(re.findall(r"(\w+)\s*:", keywords))


def _hook_calls(folder: Path) -> list[tuple[str, int, str, set[str]]]:
    calls = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "hook"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                keywords = {k.arg for k in node.keywords if k.arg is not None}
                calls.append((path.name, node.lineno, node.args[0].value, keywords))
    return calls


def _catalogues() -> list[tuple[Path, dict[str, HookPoint]]]:
    if str(_ROOT) not in sys.path:  # the examples are imported as examples.<game>
        sys.path.insert(0, str(_ROOT))
    from examples.boy_otryadov import BoyOtryadov
    from examples.triumph_and_glory import TriumphAndGlory

    from hexwar_stalingrad.rules import StalingradRules

    games: list[tuple[Path, type[Ruleset]]] = [
        (_ROOT / "src" / "hexwar_stalingrad", StalingradRules),
        (_ROOT / "examples" / "boy_otryadov", BoyOtryadov),
        (_ROOT / "examples" / "triumph_and_glory", TriumphAndGlory),
    ]
    out = [(_ROOT / "src" / "hexwar", dict(HOOK_POINTS))]
    out += [(folder, {**HOOK_POINTS, **ruleset.hook_points}) for folder, ruleset in games]
    return out


def test_every_hook_call_passes_exactly_the_context_its_point_declares() -> None:
    bad = []
    for folder, points in _catalogues():
        for file, line, name, keywords in _hook_calls(folder):
            point = points.get(name)
            if point is None:
                bad.append(f"{file}:{line}: {name!r} is not a declared hook point")
                continue
            declared = _declared(point)
            if declared is not None and keywords != declared:
                bad.append(
                    f"{file}:{line}: {name} passes {sorted(keywords)}, declares {sorted(declared)}"
                )
    assert bad == []


def test_every_declared_hook_point_is_asked() -> None:
    for folder, points in _catalogues():
        asked = {name for _, _, name, _ in _hook_calls(folder)}
        own = set(points) - set(HOOK_POINTS) if folder.name != "hexwar" else set()
        assert own <= asked, f"{folder.name} declares points it never asks: {sorted(own - asked)}"
    everywhere = {name for folder, _ in _catalogues() for _, _, name, _ in _hook_calls(folder)}
    assert set(HOOK_POINTS) <= everywhere, sorted(set(HOOK_POINTS) - everywhere)


def test_the_catalogue_check_sees_a_wrong_context() -> None:
    point = HookPoint("p", "(state, value: int, *, unit: str) -> int", "")
    assert _declared(point) == {"unit"}
    assert _declared(hook_point("odds_shift")) == {"attacker", "defender"}
    assert _declared(hook_point("die_modifier")) is None


def test_effect_param_reads_the_first_of_a_name_and_keeps_equality() -> None:
    a = Effect(0, 1, "bonus", (("n", 2), ("side", "red"), ("n", 5)))
    assert a.param("n") == 2
    assert a.param("side") == "red"
    assert a.param("missing") is None
    assert a.param("missing", 7) == 7
    b = Effect(0, 1, "bonus", (("n", 2), ("side", "red"), ("n", 5)))
    assert a == b
    assert hash(a) == hash(b)
    assert not a < b
    assert Effect(0, 1, "bonus", (("n", 3),)) != Effect(0, 1, "bonus", (("n", 2),))
    assert "_by_name" not in repr(a)
