"""Per-table versions in the state, ``StateMemo`` and its read-checking mode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.base.errors import HexwarError, StaleMemo, UndeclaredRead
from hexwar.engine.actions import Action, Decision
from hexwar.engine.hooks import Expiry
from hexwar.engine.memo import StateMemo, read_checking, state_memo
from hexwar.engine.sequencer import Cursor, Phase, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import PSEUDO_TABLES, Ruleset, State
from hexwar.testing import check_random_games, checking_reads


class Game(Ruleset):
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))
    effect_rules = {"fog": {}}  # noqa: RUF012


def _total(calls: list[str], size: int = 4) -> StateMemo[int]:
    def compute(state: State, side: str) -> int:
        calls.append(side)
        return sum(int(v) for v in state.table("units").values())  # type: ignore[call-overload]

    return StateMemo(("units",), compute, size=size)


# -- table versions ------------------------------------------------------------------------


def test_a_write_changes_only_its_tables_version() -> None:
    state = Game().new_state()
    units, other = state.table_version("units"), state.table_version("other")
    state.put("units", "a", 1)
    assert state.table_version("units") != units
    assert state.table_version("other") == other
    seen = state.table_version("units")
    state.delete("units", "missing")  # no change: no new version
    assert state.table_version("units") == seen
    state.delete("units", "a")
    assert state.table_version("units") != seen


def test_pseudo_tables_follow_cursor_pending_effects_and_outcome() -> None:
    state = Game().new_state()
    before = {name: state.table_version(name) for name in PSEUDO_TABLES}
    state.push(Decision("ask", "red", choices=(Action("yes"),)))
    assert state.table_version("$pending") != before["$pending"]
    state.add_effect("fog", expiry=Expiry.GAME)
    assert state.table_version("$effects") != before["$effects"]
    assert state.table_version("$cursor") == before["$cursor"]
    assert state.table_version("$outcome") == before["$outcome"]


def test_the_turn_pseudo_table_follows_the_cursors_turn_alone() -> None:
    state = Game().new_state()
    turn, cursor = state.table_version("$turn"), state.table_version("$cursor")
    state.move_cursor(Cursor(state.turn, 0, 0, "exit"))  # the same turn
    assert state.table_version("$turn") == turn
    assert state.table_version("$cursor") != cursor
    state.move_cursor(Cursor(state.turn + 1))
    assert state.table_version("$turn") != turn
    state = Game().new_state()
    state.apply("end")  # the next turn; undo goes back to the turn before: renewed
    assert state.turn == 2
    turn = state.table_version("$turn")
    state.undo()
    assert state.turn == 1
    assert state.table_version("$turn") != turn


def test_versions_are_process_unique_shared_by_clones_and_renewed_by_undo() -> None:
    a, b = Game().new_state(), Game().new_state()
    assert a.table_version("units") != b.table_version("units")  # two games never share
    a.put("units", "x", 1)
    twin = a.clone()
    assert twin.table_version("units") == a.table_version("units")
    twin.put("units", "x", 2)
    a.put("units", "x", 2)
    assert twin.table_version("units") != a.table_version("units")  # same content, apart


def test_undo_and_rollback_renew_the_versions_they_touch() -> None:
    class Play(Game):
        def phase_actions(self, state: State, side: str) -> list[Action]:
            return [Action("go"), Action("bad")]

        def play(self, state: State, action: Action) -> None:
            state.put("units", "x", 1)
            if action.kind == "bad":
                raise RuntimeError("half-way")

    state = Play().new_state()
    start = state.table_version("units")
    with pytest.raises(RuntimeError):
        state.apply("bad")
    assert state.table_version("units") != start  # rolled back: a new number, old content
    assert dict(state.table("units")) == {}
    rolled = state.table_version("units")
    state.apply("go")
    went = state.table_version("units")
    state.undo()
    assert state.table_version("units") not in (rolled, went)


# -- the memo ------------------------------------------------------------------------------


def test_repeated_calls_on_an_unchanged_position_compute_once() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    state.put("units", "a", 2)
    assert memo(state, "red") == memo(state, "red") == 2
    assert calls == ["red"]
    state.put("other", "x", 1)  # a table the function does not read
    assert memo(state, "red") == 2
    assert calls == ["red"]


def test_clones_share_entries_until_they_change() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    state.put("units", "a", 2)
    memo(state, "red")
    copy = state.clone()
    assert memo(copy, "red") == 2
    assert calls == ["red"]
    copy.put("units", "b", 5)
    assert memo(copy, "red") == 7
    assert memo(state, "red") == 2  # the original is untouched and still cached
    assert calls == ["red", "red"]
    assert memo(state, "blue") == 2  # the arguments are part of the key
    assert calls == ["red", "red", "blue"]


@settings(max_examples=60)
@given(
    steps=st.lists(
        st.one_of(
            st.tuples(st.just("put"), st.sampled_from("abc"), st.integers(0, 3)),
            st.tuples(st.just("other"), st.sampled_from("ab"), st.integers(0, 3)),
            st.tuples(st.just("clone"), st.just(""), st.just(0)),
        ),
        max_size=30,
    )
)
def test_memo_always_agrees_with_the_function(steps: list[tuple[str, str, int]]) -> None:
    calls: list[str] = []
    memo, state = _total(calls, size=8), Game().new_state()
    states = [state]
    for op, key, value in steps:
        if op == "clone":
            states.append(states[-1].clone())
        else:
            states[-1].put("units" if op == "put" else "other", key, value)
        for s in states:
            expected = sum(int(v) for v in s.table("units").values())  # type: ignore[call-overload]
            assert memo(s, "red") == expected


def test_the_cache_is_bounded_and_can_be_cleared() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    for i in range(8):
        memo(state, str(i))
    assert len(memo) == memo.size == 4  # "4" found it full: emptied, then "4"-"7" kept
    assert memo(state, "7") == 0
    assert calls[-1] == "7"  # the newest entries are kept ...
    memo(state, "0")
    assert calls[-1] == "0"  # ... the older ones dropped
    assert len(memo) == 1  # (kept() empties a full memo before it keeps the next)
    memo.clear()
    memo(state, "7")
    assert calls[-2:] == ["0", "7"]


def test_a_memo_cannot_declare_what_no_version_tracks() -> None:
    with pytest.raises(HexwarError, match="cannot declare"):
        StateMemo(("units", "$version"), lambda s: 0)


# -- read checking -----------------------------------------------------------------------------

MOVES = {"clear": 6, "mud": 1}


def allowance(state: State, unit: str) -> int:
    """The helper that, one day, started reading the weather too."""
    base = 6
    if state.get("weather", "now") == "mud":
        base = 1
    return base


@state_memo(reads=("units",))
def move_list(state: State, unit: str) -> list[str]:
    """A cached move list declaring only ``units``, computed through ``allowance``."""
    here = int(state.get("units", unit))  # type: ignore[arg-type]
    return [f"move {unit} {here + d}" for d in range(1, allowance(state, unit) + 1)]


def test_the_stale_move_list_bug_without_checking() -> None:
    """What happened: a cached move list kept its old moves after the rules it calls
    started reading one more table — the memo cannot see it on its own."""
    move_list.clear()
    state = Game().new_state()
    state.put("units", "u", 0)
    assert len(move_list(state, "u")) == 6
    state.put("weather", "now", "mud")
    assert len(move_list(state, "u")) == 6  # stale: the rules now give 1
    assert len(move_list.compute(state, "u")) == 1


def test_read_checking_catches_the_undeclared_read() -> None:
    move_list.clear()
    state = Game().new_state()
    state.put("units", "u", 0)
    with read_checking(), pytest.raises(UndeclaredRead, match=r"read \['weather'\]"):
        move_list(state, "u")
    with checking_reads(), pytest.raises(UndeclaredRead):  # the kit's name for it
        move_list(state, "u")
    assert move_list(state, "u") == [f"move u {d}" for d in range(1, 7)]  # off again


def test_read_checking_sees_reads_of_pseudo_tables_and_nested_memos() -> None:
    @state_memo(reads=("units",))
    def by_phase(state: State) -> str:
        return f"{state.phase}:{len(state.table('units'))}"

    @state_memo(reads=("units", "$cursor"))
    def declared(state: State) -> str:
        return f"{state.phase}:{len(state.table('units'))}"

    @state_memo(reads=("units",))
    def outer(state: State) -> str:
        return declared(state)  # the inner memo reads $cursor: so does the outer one

    @state_memo(reads=("units",))
    def foggy(state: State) -> int:
        return len(state.effects)

    state = Game().new_state()
    with read_checking():
        with pytest.raises(UndeclaredRead, match=r"\$cursor"):
            by_phase(state)
        assert declared(state) == "m:0"
        with pytest.raises(UndeclaredRead, match=r"outer read \['\$cursor'\]"):
            outer(state)
        with pytest.raises(UndeclaredRead, match=r"\$effects"):
            foggy(state)


def test_read_checking_notes_the_turn_as_turn_which_cursor_covers() -> None:
    @state_memo(reads=("$turn",))
    def turn(state: State) -> int:
        return state.turn

    @state_memo(reads=("$cursor",))
    def turn_too(state: State) -> int:
        return state.turn  # the turn is a part of the cursor

    @state_memo(reads=("$turn",))
    def phase(state: State) -> str:
        return str(state.phase)  # the cursor, not only its turn

    state = Game().new_state()
    with read_checking():
        assert turn(state) == turn_too(state) == 1
        with pytest.raises(UndeclaredRead, match=r"\$cursor"):
            phase(state)


def test_read_checking_compares_cached_and_fresh_results() -> None:
    box = {"n": 1}

    @state_memo(reads=())
    def outside(state: State) -> int:
        return box["n"]  # reads something that is not the state at all

    state = Game().new_state()
    assert outside(state) == 1
    box["n"] = 2
    assert outside(state) == 1  # stale, unseen
    with read_checking(), pytest.raises(StaleMemo, match="cached 1 but now 2"):
        outside(state)


def test_read_checking_changes_no_class_and_restores_the_state() -> None:
    # the one seam: only the state a memoised computation runs on reads through the
    # noting API, for that run; State itself is never patched
    own = dict(State.__dict__)
    classes: list[type] = []

    @state_memo(reads=("units",))
    def seen(state: State) -> int:
        classes.append(type(state))
        return len(state.table("units"))

    state = Game().new_state()
    with read_checking(), read_checking():
        assert dict(State.__dict__) == own
        assert seen(state) == 0
        assert type(state) is State  # its own class again after the run
    assert dict(State.__dict__) == own
    assert classes
    assert all(c is not State and issubclass(c, State) for c in classes)


def test_the_kit_reports_an_undeclared_read_as_a_memo_violation() -> None:
    @state_memo(reads=("units",))
    def options(state: State) -> list[Action]:
        n = int(state.get("units", "n") or 0)  # type: ignore[arg-type]
        weather = state.get("weather", "now")
        return [Action.of("add", k) for k in (1, 2) if k <= 3 - n and weather != "mud"]

    class Counting(Game):
        sequence = TurnSequence((Stage("p", (Phase("m", "red"),)),), turn_limit=3)

        def action_space(self) -> ActionSpace:
            return ActionSpace.of(["end", "add"], n=(1, 2))

        def phase_actions(self, state: State, side: str) -> list[Action]:
            return options(state)

        def play(self, state: State, action: Action) -> None:
            state.put("units", "n", int(state.get("units", "n") or 0) + action.int_arg(0))  # type: ignore[arg-type]

    report = check_random_games(lambda: Counting().new_state(), games=2, seed=1)
    assert not report.ok
    assert {v.check for v in report.violations} == {"memo"}
    assert "weather" in report.violations[0].message
    sampled = check_random_games(lambda: Counting().new_state(), games=2, full_check_every=3)
    assert {v.check for v in sampled.violations} == {"memo"}  # read checking is sampled too
    assert check_random_games(lambda: Counting().new_state(), games=2, check_reads=False).ok


def test_read_checking_sees_the_reads_behind_values_kept_per_position() -> None:
    # a kind's step values and State.derive are kept per position; a memo that asks for
    # them after they were kept must still be seen reading what they read
    from hexwar.engine.kinds import Kind, Kinds, Values

    def units(state: State, side: str, args: tuple[str, ...]) -> list[str]:
        return sorted(state.table("units"))

    phase = Kinds((Kind("pick", (Values(units),)),))
    state = Game().new_state()
    state.put("units", "a", 1)
    assert phase.tokens(state, "red", ("pick",)) == ("a",)  # kept for this position
    assert state.derive("n", lambda: len(state.table("units"))) == 1
    by_kind = StateMemo(("steps",), lambda st: phase.tokens(st, "red", ("pick",)))
    by_derive = StateMemo(("steps",), lambda st: st.derive("n", lambda: len(st.table("units"))))
    for memo in (by_kind, by_derive):
        with read_checking(), pytest.raises(UndeclaredRead, match=r"\['units'\]"):
            memo(state)
