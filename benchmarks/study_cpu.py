"""CPU of a study on the process pool against a Dask LocalCluster (issue 29, point 4).

    python benchmarks/study_cpu.py [--games 1000] [--out DIR]

Runs the same study twice, back to back, each as its own ``python -m hexwar_stalingrad
study`` process with a progress bar: ``--workers 2`` (the process pool), then
``--dask-local 2`` (a LocalCluster of 2 worker processes). The CPU time of each run is
the user + system time of that process and every process it waited for (pool workers,
the cluster's workers), from ``getrusage(RUSAGE_CHILDREN)``; the load average is printed
beside it (the machine may be shared). Then a third study on a LocalCluster of 2
workers: one worker killed (SIGKILL) after 300 rows, the study stopped after 600, then
resumed; its rows must equal the pool's, and the two runs' reports must be the same bytes.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

GAME = "hexwar_stalingrad.study:GAME"


def cpu_of(argv: list[str], log: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with log.open("w", encoding="utf-8") as err:
        subprocess.run(argv, check=True, stdout=err, stderr=subprocess.STDOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def killed_and_resumed(games: int, path: Path) -> int:
    """A study on a 2-worker LocalCluster: a worker killed after 300 rows, the study
    stopped after 600, then resumed on the same cluster; the rows played at the resume."""
    import importlib

    distributed: Any = importlib.import_module("distributed")  # untyped: read as Any
    from hexwar.study import Cell, Plan, read_rows, run_study
    from hexwar.study.backends import DaskBackend

    plan = Plan(GAME, (Cell({"length": "short"}, ("heuristic", "heuristic")),), games)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    try:
        pids = sorted(client.run(os.getpid).values())
        seen: list[int] = []

        def kill_then_stop(row: dict[str, Any]) -> None:
            seen.append(row["seed"])
            if len(seen) == 300:
                os.kill(pids[0], signal.SIGKILL)
                print(f"killed worker {pids[0]} after 300 rows", flush=True)
            if len(seen) == 600:
                raise KeyboardInterrupt

        backend = DaskBackend(cluster.scheduler_address)
        try:
            run_study(plan, backend, path, on_row=kill_then_stop)
        except KeyboardInterrupt:
            print(f"stopped with {len(read_rows(path))} rows", flush=True)
        rest = run_study(plan, backend, path)
        return rest.played
    finally:
        client.close()
        cluster.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--out", default="study-cpu")
    p.add_argument("--cpu-only", action="store_true", help="no killed-worker run, no reports")
    args = p.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    base = [sys.executable, "-m", "hexwar_stalingrad", "study", "--games", str(args.games),
            "--length", "short", "--bots", "heuristic,heuristic"]  # fmt: skip
    figures = {}
    for name, backend in (("pool", ["--workers", "2"]), ("dask", ["--dask-local", "2"])):
        rows = out / f"{name}.jsonl"
        rows.unlink(missing_ok=True)
        load = os.getloadavg()
        cpu = cpu_of([*base, *backend, "--out", str(rows)], out / f"{name}.log")
        figures[name] = cpu
        print(f"{name}: {cpu:.1f} s CPU; load average before {load[0]:.2f} {load[1]:.2f} "
              f"{load[2]:.2f}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    print(f"dask / pool CPU: {figures['dask'] / figures['pool']:.3f}")
    from hexwar.study import read_rows
    from hexwar.study.report import write_report
    from hexwar.study.results import canonical, row_key

    def text(path: Path) -> str:
        return "\n".join(canonical(r) for r in sorted(read_rows(path), key=row_key))

    same = text(out / "pool.jsonl") == text(out / "dask.jsonl")
    print(f"pool and dask rows equal: {same}")
    if args.cpu_only:
        return 0
    killed = out / "killed.jsonl"
    killed.unlink(missing_ok=True)
    print(f"resumed: {killed_and_resumed(args.games, killed)} games played at the resume")
    print(f"killed-and-resumed rows equal the pool's: {text(killed) == text(out / 'pool.jsonl')}")
    for name in ("pool", "dask"):
        write_report(out / f"{name}.jsonl", out / f"{name}-report.md", "study", replay_url=None)
    md = [(out / f"{n}-report.md").read_text(encoding="utf-8") for n in ("pool", "dask")]
    pngs = sorted(p.name for p in (out / "pool-report").glob("*.*"))
    files = all(filecmp.cmp(out / "pool-report" / n, out / "dask-report" / n, shallow=False)
                for n in pngs)  # fmt: skip
    same_md = md[0].replace("pool-report", "X") == md[1].replace("dask-report", "X")
    print(f"reports identical: markdown {same_md}, {len(pngs)} images {files}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
