"""Click latency of the web server (issue 15: a click on a unit answers with its
reachable hexes in <= 50 ms); prints figures.

``python benchmarks/bench_web.py``: CPU time (``time.process_time``) of what the server
does for a click on a unit — :meth:`Session.click` (the hex -> ``("move", unit)``) plus
:meth:`Session.tokens` (its legal hexes, from ``state.legal_tokens``) — for every RKKA
unit that may move in RKKA's first movement phase of a short «Сталинград» game (seed 1),
each repeat on a freshly loaded game (cold caches, as after the position changed).
Min, median and max per click.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from hexwar.web.saves import load_session
from hexwar.web.session import Session
from hexwar_stalingrad.web import WEB

REPEATS = 5


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        session, tokens = Session.create(
            WEB, {"length": "short"}, {"wehrmacht": "heuristic"}, seed=1, directory=Path(folder)
        )
        plan = session.authorise("rkka", tokens["rkka"])
        session.advance()
        while session.state.phase != "movement":
            session.act(plan, ["end"])
            session.advance()
        assert session.path is not None
        samples: list[float] = []
        hexes = 0
        for _ in range(REPEATS):
            fresh = load_session(session.path, {WEB.name: WEB})
            fresh_plan = fresh.seats["rkka"]
            units = fresh.state.legal_tokens(("move",))
            at = {u: lab for lab, us in fresh.units_at("rkka").items() for u in us}
            for unit in units:
                t0 = time.process_time()
                prefix = fresh.click(fresh_plan, [], at[unit])
                found = fresh.tokens(fresh_plan, list(prefix))
                samples.append(time.process_time() - t0)
                hexes += len(found)
        ms = sorted(s * 1000 for s in samples)
        print(
            f"click on a unit -> its legal hexes ({len(units)} units x {REPEATS} cold repeats, "
            f"{hexes / len(samples):.1f} hexes on average): min {ms[0]:.1f} ms, "
            f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms CPU"
        )


if __name__ == "__main__":
    main()
