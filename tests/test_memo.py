"""TableMemo: results cached on the contents of the tables a function reads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.memo import TableMemo
from hexwar.sequencer import Phase, Stage, TurnSequence
from hexwar.state import Ruleset, State


class Game(Ruleset):
    sequence = TurnSequence((Stage("p", (Phase("m", "red", end_when_idle=False),)),))


def _total(calls: list[str]) -> TableMemo[int]:
    def compute(state: State, side: str) -> int:
        calls.append(side)
        return sum(int(v) for v in state.table("units").values())  # type: ignore[call-overload]

    return TableMemo(("units",), compute, size=4)


def test_repeated_calls_on_an_unchanged_position_compute_once() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    state.put("units", "a", 2)
    assert memo(state, "red") == memo(state, "red") == 2
    assert calls == ["red"]
    state.put("other", "x", 1)  # a table the function does not read
    assert memo(state, "red") == 2
    assert calls == ["red"]


def test_a_change_undo_or_clone_is_seen_through_the_tables() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    state.put("units", "a", 2)
    memo(state, "red")
    copy = state.clone()
    copy.put("units", "b", 5)
    assert memo(copy, "red") == 7
    assert memo(state, "red") == 2  # the original is untouched and still cached
    assert calls == ["red", "red"]
    assert memo(state, "blue") == 2  # the arguments are part of the key
    assert calls == ["red", "red", "blue"]


@settings(max_examples=60)
@given(writes=st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 3)), max_size=30))
def test_memo_always_agrees_with_the_function(writes: list[tuple[str, int]]) -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    for key, value in writes:
        state.put("units", key, value)
        assert memo(state, "red") == sum(int(v) for v in state.table("units").values())  # type: ignore[call-overload]
    assert len(calls) <= len(writes)


def test_the_cache_is_bounded_and_can_be_cleared() -> None:
    calls: list[str] = []
    memo, state = _total(calls), Game().new_state()
    for i in range(10):
        memo(state, str(i))
    assert len(memo._store) <= memo.size
    memo.clear()
    memo(state, "9")
    assert calls[-2:] == ["9", "9"]
