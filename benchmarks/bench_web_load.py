"""The play server under load (issue 28): 50 clients on 10 human games of «Сталинград»
while 40 games of bots only run; prints the latency of ``view``, ``tokens`` and ``act``
(p50, p95, max), the errors, the load average, and checks every game's save file against
what the server showed.

``python benchmarks/bench_web_load.py [--seconds 60] [--bot-workers 1] [--think 0.5]``
starts ``python -m hexwar_stalingrad serve`` on a free loopback port with a fresh games
folder, then:

- creates 40 games heuristic against heuristic (short) and 10 games RKKA (human) against
  the heuristic Wehrmacht, each by ``POST /new``;
- runs 5 clients per human game for ``--seconds``: one plays RKKA (``view``, then ``end``
  when legal, else the first legal token at each step through ``tokens``, then ``act``),
  four follow the game as the seat (``view``, and ``tokens`` when it is RKKA's turn);
  each waits ``--think`` seconds between two requests, as a person would;
- an error is any answer but 200 (and 409 "not your turn" races of the actor, counted
  apart), or a failed connection;
- takes every game's spectator ``view`` and stops the server (SIGTERM), then loads each
  save file (every action replayed through the rules, :func:`hexwar.web.saves.load_session`)
  and checks that its actions hold the log the server last showed at the same indices;
  a finished game's ``record`` must equal the record of its replayed save.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from hexwar.engine.records import record_of
from hexwar.web.saves import load_session
from hexwar_stalingrad.web import WEB

LINK = re.compile(r"/g/([0-9a-f]{12})/rkka\?t=([\w-]+)")
GAME_ID = re.compile(r"/g/([0-9a-f]{12})'")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {"view": [], "tokens": [], "act": []}
        self.errors: list[str] = []
        self.races = 0

    async def call(self, client: httpx.AsyncClient, kind: str, method: str, url: str,
                   **kw: Any) -> httpx.Response | None:  # fmt: skip
        t0 = time.perf_counter()
        try:
            r = await client.request(method, url, **kw)
        except httpx.HTTPError as exc:
            self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            return None
        self.times[kind].append(time.perf_counter() - t0)
        if r.status_code == 409 and kind in ("act", "tokens"):
            self.races += 1  # the bot moved between the view and the request
        elif r.status_code != 200:
            self.errors.append(f"{kind} {r.status_code}: {r.text[:200]}")
        return r


async def turns(client: httpx.AsyncClient, stats: Stats, gid: str, token: str, stop: float,
                think: float) -> AsyncIterator[dict[str, Any]]:  # fmt: skip
    """RKKA's page until ``stop``: a view after each ``think`` seconds; those where it is
    RKKA's turn."""
    h = {"x-hexwar-token": token}
    while time.monotonic() < stop:
        await asyncio.sleep(think)
        r = await stats.call(client, "view", "GET", f"/api/g/{gid}/view?seat=rkka", headers=h)
        if r is not None and r.status_code == 200 and r.json().get("your_turn"):
            yield r.json()


async def actor(client: httpx.AsyncClient, stats: Stats, gid: str, token: str, stop: float,
                think: float) -> None:  # fmt: skip
    h = {"x-hexwar-token": token}
    api = f"/api/g/{gid}"
    async for view in turns(client, stats, gid, token, stop, think):
        prefix: list[str] = []
        legal = view["tokens"]
        while "done" not in legal and legal:
            prefix.append("end" if "end" in legal else legal[0])
            await asyncio.sleep(think)
            t = await stats.call(client, "tokens", "POST", f"{api}/tokens", headers=h,
                                 json={"seat": "rkka", "prefix": prefix})  # fmt: skip
            if t is None or t.status_code != 200:
                break
            legal = t.json()["tokens"]
        else:
            await asyncio.sleep(think)
            await stats.call(client, "act", "POST", f"{api}/act", headers=h,
                             json={"seat": "rkka", "tokens": prefix})  # fmt: skip


async def follower(client: httpx.AsyncClient, stats: Stats, gid: str, token: str, stop: float,
                   think: float) -> None:  # fmt: skip
    h = {"x-hexwar-token": token}
    async for _ in turns(client, stats, gid, token, stop, think):
        await asyncio.sleep(think)
        await stats.call(client, "tokens", "POST", f"/api/g/{gid}/tokens", headers=h,
                         json={"seat": "rkka", "prefix": []})  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else (
        values[0] if values else float("nan"))  # fmt: skip


async def load(base: str, args: argparse.Namespace) -> tuple[Stats, dict[str, dict[str, Any]],
                                                              dict[str, str]]:  # fmt: skip
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        bots, humans = [], {}
        for _ in range(args.bot_games):
            r = await client.post("/new", data={"game": "stalingrad", "opt:length": "short",
                                  "seat:rkka": "heuristic",
                                  "seat:wehrmacht": "heuristic"})  # fmt: skip
            r.raise_for_status()
            bots.append(GAME_ID.search(r.text).group(1))  # type: ignore[union-attr]
        for _ in range(args.human_games):
            r = await client.post("/new", data={"game": "stalingrad", "opt:length": "short",
                                  "seat:wehrmacht": "heuristic"})  # fmt: skip
            r.raise_for_status()
            gid, token = LINK.search(r.text).groups()  # type: ignore[union-attr]
            humans[gid] = token
        stats = Stats()
        stop = time.monotonic() + args.seconds
        tasks = []
        for gid, token in humans.items():
            tasks.append(actor(client, stats, gid, token, stop, args.think))
            tasks += [follower(client, stats, gid, token, stop, args.think) for _ in range(4)]
        await asyncio.gather(*tasks)
        shown = {}
        for gid in [*bots, *humans]:
            r = await client.get(f"/api/g/{gid}/view")
            shown[gid] = r.json()
            if r.json()["outcome"] is not None:
                shown[gid]["record"] = (await client.get(f"/api/g/{gid}/record")).text
        return stats, shown, humans


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--bot-workers", type=int, default=1)
    p.add_argument("--think", type=float, default=0.5)
    p.add_argument("--pace", type=float, default=0.3)
    p.add_argument("--bot-games", type=int, default=40)
    p.add_argument("--human-games", type=int, default=10)
    args = p.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        cmd = [sys.executable, "-m", "hexwar_stalingrad", "serve", "--port", str(port),
               "--games", folder, "--pace", str(args.pace), "--bot-workers",
               str(args.bot_workers), "--new-per-minute", "1000",
               "--max-games", "1000"]  # fmt: skip
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        server.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        load_before = os.getloadavg()
        stats, shown, humans = asyncio.run(load(base, args))
        load_after = os.getloadavg()
        t0 = time.perf_counter()
        server.send_signal(signal.SIGTERM)
        server.wait(30)
        stopped = time.perf_counter() - t0
        mismatched = []
        for gid, view in shown.items():
            session = load_session(Path(folder) / f"{gid}.json", {WEB.name: WEB})
            actions = [str(a) for a in session.state.history]
            for n, entry in view["log"]:
                if not (entry.startswith("(") or actions[n] == entry):
                    mismatched.append(f"{gid} action {n}: shown {entry!r}, saved {actions[n]!r}")
            if len(actions) < view["version"]:
                mismatched.append(f"{gid}: shown {view['version']} actions, saved {len(actions)}")
            if gid in humans and len(actions) != view["version"]:
                mismatched.append(f"{gid}: a human game moved on after the last view")
            if "record" in view:
                again = record_of(session.state, seed=session.seed).to_json()
                if again != view["record"]:
                    mismatched.append(f"{gid}: the record differs from the save's replay")
        finished = sum(1 for v in shown.values() if v["outcome"] is not None)
        moved = sum(v["version"] for v in shown.values())
    print(f"{args.human_games} human games x 5 clients, {args.bot_games} bots-only games, "
          f"{args.seconds:.0f} s, think {args.think} s, pace {args.pace} s, "
          f"{args.bot_workers} bot worker(s)")  # fmt: skip
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"(1 min); {os.cpu_count()} cores")  # fmt: skip
    for kind, values in stats.times.items():
        ms = [v * 1000 for v in values]
        print(f"{kind:>6}: {len(ms)} requests, p50 {percentile(ms, 50):.0f} ms, "
              f"p95 {percentile(ms, 95):.0f} ms, "
              f"max {max(ms, default=float('nan')):.0f} ms")  # fmt: skip
    print(f"errors: {len(stats.errors)}; 409 races (the bot moved first): {stats.races}")
    for e in stats.errors[:10]:
        print("  ", e)
    print(f"games: {len(shown)} ({finished} over), {moved} actions in all; "
          f"server stopped {stopped:.2f} s after SIGTERM")  # fmt: skip
    bad = {m.split()[0].rstrip(":") for m in mismatched}
    print(f"saves equal to what the server showed: {len(shown) - len(bad)} of "
          f"{len(shown)}" + "".join(f"\n   {m}" for m in mismatched[:10]))  # fmt: skip
    return 1 if stats.errors or mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
