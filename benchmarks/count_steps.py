"""Python bytecodes per agent token step on «Сталинград» (a count the machine's load does not blur).

Run: ``python benchmarks/count_steps.py [--games N]`` (the old tree with
``PYTHONPATH=OLD/src``). Plays the ``micro`` figure's games of ``bench_stalingrad.py``
(seeds ``0 .. N-1``: a :class:`hexwar.engine.loop.TokenStepper` on a long game, each
token drawn uniformly from the mask, chance answered by a ``SeededDriver``) and counts,
with ``sys.settrace``, the bytecodes of each step (the mask, the draw, the token
applied), then prints the median and mean over all steps and by kind of step: the first
token of an action, an inner token, the closing ``done`` (the action applied and the
sequencer settled). It prints figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from typing import Any

from hexwar.engine.dice import SeededDriver
from hexwar.engine.loop import TokenStepper
from hexwar_stalingrad.rules import StalingradRules


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=3)
    args = p.parse_args()
    rules = StalingradRules(length="long")
    count = [0]

    def trace(frame: Any, event: str, arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            count[0] += 1
        return trace

    by_kind: dict[str, list[int]] = {"first": [], "inner": [], "done": []}
    for g in range(args.games):
        rng, driver = random.Random(g), SeededDriver(g)
        state = rules.new_state()
        stepper = TokenStepper(state)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_unchecked(driver.pick(state.chance_outcomes()))
                continue
            first = not stepper.prefix
            count[0] = 0
            sys.settrace(trace)
            try:
                mask = stepper.mask()
                token = mask[rng.randrange(len(mask))]
                stepper.step(token)
            finally:
                sys.settrace(None)
            kind = "first" if first else "done" if token == 0 else "inner"
            by_kind[kind].append(count[0])
    steps = [n for counts in by_kind.values() for n in counts]
    median, mean = statistics.median(steps), statistics.mean(steps)
    print(f"{len(steps)} steps: median {median:.0f}, mean {mean:.0f}")
    for kind, counts in by_kind.items():
        print(
            f"  {kind:5s} {len(counts):5d} steps: median {statistics.median(counts):.0f},"
            f" mean {statistics.mean(counts):.0f}"
        )


if __name__ == "__main__":
    main()
