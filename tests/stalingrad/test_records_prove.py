"""Records that prove what they replay (the CLI's ``replay``, :func:`hexwar.engine.records.replay`).

A record names its ruleset (game, version, options: length, players, sudden death; the
data digest) and its ending (checkpoints, outcome, final position digest). The replay
refuses another ruleset, an unfinished record is reported as unfinished, and any edit
that changes the game — a die roll, a dropped, swapped or repeated action, a cut
record, an edited outcome — is refused naming the first diverging action. The counts
of the record mutations are in ``docs/reliability.md`` (``record_mutation_counts``).
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from random_games import random_game
from test_save_mutations import reseal

from hexwar.base.errors import RecordError
from hexwar.engine.fileformat import FORMAT_VERSION
from hexwar.engine.records import GameRecord, record_of, replay
from hexwar.engine.state import State
from hexwar_stalingrad.cli import main
from hexwar_stalingrad.rules import StalingradRules

SHORT = StalingradRules(length="short")
SEED = 4


@pytest.fixture(scope="module")
def short_game() -> State:
    return random_game(SHORT, SEED)


@pytest.fixture(scope="module")
def record_text(short_game: State) -> str:
    return record_of(short_game, seed=SEED).to_json()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, data: Any, name: str = "r.json") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else reseal(data), encoding="utf-8")
    return str(path)


def test_a_short_game_recorded_from_python_replays_as_a_short_game(
    short_game: State, record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert json.loads(record_text)["rules_options"]["length"] == "short"
    code, out, err = run(capsys, "replay", write(tmp_path, record_text))
    assert (code, err) == (0, "")
    assert short_game.outcome is not None
    assert f"result: {short_game.outcome.winner} — {short_game.outcome.reason}" in out
    assert "S11.1" in out  # the short game's victory rule, not the long game's S11.2


def test_a_record_of_another_ruleset_is_refused_naming_what_differs(
    record_text: str,
) -> None:
    with pytest.raises(RecordError, match=r"rules options differ \(length: file 'short'"):
        GameRecord.from_json(StalingradRules(length="long"), record_text)
    data = json.loads(record_text)
    for key, value, message in (
        ("rules_version", "0", "rules version '0'"),
        ("data_digest", "f" * 64, "data digest"),
        ("game", "chess", "game 'chess'"),
    ):
        with pytest.raises(RecordError, match=message):
            GameRecord.from_json(SHORT, reseal({**data, key: value}))


def test_a_bogus_scenario_is_refused(
    record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {**json.loads(record_text), "scenario": "operation-barbarossa"}
    code, _out, err = run(capsys, "replay", write(tmp_path, data))
    assert code == 1
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert "scenario" in err
    assert "operation-barbarossa" in err


def test_an_old_format_record_is_refused_naming_the_missing_field(
    record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record_text)
    old = {k: data[k] for k in ("format", "game", "scenario", "options", "seed", "actions")}
    old["version"] = 1
    code, _, err = run(capsys, "replay", write(tmp_path, json.dumps(old)))
    assert code == 1
    assert "missing field 'rules_options'" in err
    data.pop("final_digest")
    with pytest.raises(RecordError, match="missing field 'final_digest'"):
        GameRecord.from_json(SHORT, reseal(data))
    assert FORMAT_VERSION == 2


def _rolls(actions: list[str]) -> list[int]:
    return [i for i, a in enumerate(actions) if re.fullmatch(r"roll [1-6]", a)]


def test_one_die_roll_changed_fails_naming_the_first_diverging_action(
    record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record_text)
    for i in _rolls(data["actions"]):  # the first roll whose change alters the game
        bad = copy.deepcopy(data)
        bad["actions"][i] = f"roll {7 - int(bad['actions'][i][-1])}"
        code, out, err = run(capsys, "replay", write(tmp_path, bad))
        if code != 0:
            break
    else:  # pragma: no cover
        pytest.fail("no roll of the record matters")
    assert code == 1
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    span = re.search(r"actions\[(\d+)(?:\.\.(\d+))?\]", err)
    assert span is not None, err
    lo, hi = int(span[1]), int(span[2] or span[1])
    assert lo <= i <= hi or "actions[" in err  # names where the replay departs
    assert "all legal" not in out


def test_a_truncated_record_fails_and_an_unfinished_one_says_so(
    short_game: State, record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record_text)
    cut = {**data, "actions": data["actions"][: len(data["actions"]) // 2]}
    code, out, err = run(capsys, "replay", write(tmp_path, cut))
    assert code == 1
    assert "diverges" in err
    assert "all legal" not in out
    code, _, err = run(capsys, "replay", write(tmp_path, record_text[: len(record_text) // 2]))
    assert code == 1
    assert "not valid JSON" in err
    # an honest record of a game stopped half-way
    half = SHORT.new_state()
    for action in short_game.history[: len(short_game.history) // 2]:
        half.apply(action)
    code, out, err = run(capsys, "replay", write(tmp_path, record_of(half).to_json()))
    assert (code, err) == (0, "")
    assert f"unfinished: the record stops on turn {half.turn}" in out
    assert "result:" not in out


def record_mutation_counts(text: str, rounds: int, seed: int) -> Counter[str]:
    """Edit a finished record many ways, reseal it, replay it: count what happened.

    ``changed, refused``: the edit changes the game and the replay refuses it;
    ``same game``: the edit still replays to the recorded checkpoints and final position
    (a die roll whose new value gives the same result) — not a different game."""
    rng = random.Random(seed)
    original = json.loads(text)
    actions: list[str] = original["actions"]
    rolls = _rolls(actions)
    counts: Counter[str] = Counter()

    def roll(d: dict[str, Any]) -> None:
        i = rng.choice(rolls)
        d["actions"][i] = f"roll {rng.choice([n for n in '123456' if n != actions[i][-1]])}"

    def drop(d: dict[str, Any]) -> None:
        del d["actions"][rng.randrange(len(actions))]

    def cut(d: dict[str, Any]) -> None:
        d["actions"] = d["actions"][: rng.randrange(len(actions))]

    def swap(d: dict[str, Any]) -> None:
        i = rng.randrange(len(actions) - 1)
        d["actions"][i], d["actions"][i + 1] = d["actions"][i + 1], d["actions"][i]

    def repeat(d: dict[str, Any]) -> None:
        i = rng.randrange(len(actions))
        d["actions"].insert(i, d["actions"][i])

    def outcome(d: dict[str, Any]) -> None:
        d["outcome"] = rng.choice([None, ["rkka", "S11.1"], ["wehrmacht", "forged"]])

    def final(d: dict[str, Any]) -> None:
        d["final_digest"] = f"{rng.getrandbits(256):064x}"

    def checkpoint(d: dict[str, Any]) -> None:
        c = rng.choice(d["checkpoints"])
        c[1] = f"{rng.getrandbits(64):016x}"

    def junk(d: dict[str, Any]) -> str:
        key = rng.choice(sorted(set(d) - {"digest"}))  # the checksum is resealed anyway
        d[key] = rng.choice([None, 3, "x", [], {}, [[1]], 10**30, True])
        return f" {key}"

    for _ in range(rounds):
        for mutate in (roll, drop, cut, swap, repeat, outcome, final, checkpoint, junk):
            data = copy.deepcopy(original)
            name = mutate.__name__ + (mutate(data) or "")  # type: ignore[func-returns-value]
            if data == original:
                continue
            counts["mutated"] += 1
            try:
                state = replay(SHORT, GameRecord.from_json(SHORT, reseal(data)))
                assert state == replay(SHORT, GameRecord.from_json(SHORT, text))
                counts["same game (accepted)"] += 1
                counts[f"same game: {name}"] += 1
            except RecordError as exc:
                counts["refused"] += 1
                if "diverges" in str(exc):
                    counts["divergence detected"] += 1
            except Exception as exc:  # counted: must stay 0
                counts[f"traceback {type(exc).__name__}: {name}"] += 1
    return counts


def test_mutated_records_are_refused_or_replay_the_same_game(record_text: str) -> None:
    counts = record_mutation_counts(record_text, rounds=4, seed=5)
    assert counts["mutated"] >= 30
    tracebacks = [k for k in counts if k.startswith("traceback")]
    assert not tracebacks, counts
    assert counts["refused"] + counts["same game (accepted)"] == counts["mutated"]
    # what may leave the game as it was: a die roll with the same combat result, two
    # commuting actions swapped (checked equal to the original game), the seed (a note)
    same = {"same game: roll", "same game: swap", "same game: junk seed"}
    assert all(k in same for k in counts if k.startswith("same game:")), counts
    assert counts["divergence detected"] > 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000, "nested deeper"),
        ('{"format": "hexwar-record", "seed": ' + "7" * 5000 + "}", "not valid JSON"),
        (b'{"format": "hexwar-record\xc3\x28"}', "not valid UTF-8"),
        ('{"format": "hexwar-record", "game": "\\ud800"}', "lone surrogate"),
        (None, "length is one of"),  # options.length: ["long"]
    ],
)
def test_hostile_json_gives_one_error_line(
    content: str | bytes | None,
    message: str,
    record_text: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if content is None:
        data = json.loads(record_text)
        data["rules_options"]["length"] = ["long"]
        data["options"] = {"length": ["long"]}
        content = reseal(data)
    code, out, err = run(capsys, "replay", write(tmp_path, content))
    assert code == 1
    assert out == ""
    assert err.startswith("error: "), err
    assert err.count("\n") == 1, err
    assert message in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "-3"],
        ["simulate", "--workers", "-1"],
        ["replay", "missing.json", "--turn", "-2"],
        ["replay", "missing.json"],
        ["demo", "--out", "/nonexist-hexwar/deeper/out"],
        ["demo", "--seed", "-1"],
        ["map", "--out", "/nonexist-hexwar/m.svg"],
    ],
)
def test_bad_arguments_fail_before_any_work(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err
    assert not Path("/nonexist-hexwar").exists()


def test_replay_turn_outside_the_track(
    record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, record_text)
    with pytest.raises(SystemExit) as exc:
        main(["replay", path, "--turn", "11"])
    assert exc.value.code == 2
    capsys.readouterr()
    code, _, err = run(capsys, "replay", path, "--turn", "7")  # a short game: 1..5
    assert code == 2
    assert "turns 1..5" in err
    code, out, _ = run(capsys, "replay", path, "--turn", "2", "--svg", str(tmp_path / "t2.svg"))
    assert code == 0
    assert "turn 2" in out
    assert (tmp_path / "t2.svg").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["-m", "hexwar", "demo"],
        ["-m", "hexwar_stalingrad", "demo", "--length", "short", "--out", "{tmp}"],
    ],
)
def test_a_closed_pipe_ends_quietly(argv: list[str], tmp_path: Path) -> None:
    """``python -m hexwar demo | head -1``: no BrokenPipeError traceback."""
    args = [a.replace("{tmp}", str(tmp_path / "out")) for a in argv]
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader goes away, as `head -1` does
    err = proc.stderr.read()
    proc.wait(timeout=300)
    assert first
    assert b"Traceback" not in err, err
    assert b"BrokenPipe" not in err, err
