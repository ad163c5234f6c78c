"""A bounded load test of the web table (localhost only): start one ``warband serve`` process, open N games
with agent seats on both sides (spread evenly over every installed ruleset), and while the agents play them to
the end, ask each game's legal actions each time it moves, as a browser following it would. Reports errors, the
p50/p95 time of the legal-actions request per ruleset (``/legal``: every legal action; ``/legal?model=``: one
model's with odds), both the round trip and the server's own time (its Server-Timing header), and the machine's
load average during the run. The agent seats think in the server's worker processes.

The followers run in ``--clients`` processes of their own (a browser follows one game in its own process; one
Python process following 20 games spends so long parsing snapshots that its own event loop, not the server,
became most of the measured round trip). Each process measures its event loop's lag (how late a 10 ms timer
fires), reported beside the round trips: when the client's lag is not small next to them, the round trips
include the client's own waiting. ``--seconds`` ends a run early (the games still playing are left, not
counted as errors).

    python scripts/web_load.py --games 20 --agent random --ai-delay 0.4
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import websockets

from warband.kernel import ruleset as registry

HOST = "127.0.0.1"
#: (round trip ms, the server's own ms from its Server-Timing header or None) per measured request kind
Times = dict[str, list[tuple[float, float | None]]]


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18] if len(xs) >= 20 else max(xs)


def start_server(port: int, store: Path, ai_delay: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "warband", "serve", "--host", HOST, "--port", str(port), "--store", str(store)]
    return subprocess.Popen([*cmd, "--ai-delay", str(ai_delay)], stdout=subprocess.DEVNULL)


async def wait_up(client: httpx.AsyncClient, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if (await client.get("/api/meta")).status_code == 200:
                return
        except httpx.TransportError:
            await asyncio.sleep(0.2)
    raise RuntimeError("the server did not start")


async def create(client: httpx.AsyncClient, ruleset_id: str, agent: str, seed: int) -> dict[str, Any]:
    rs = registry.get(ruleset_id)
    bands = [Path(s["path"]).stem for s in rs.samples()["warbands"]]
    body = {
        "ruleset": ruleset_id,
        "a": {"sample": bands[seed % len(bands)]},
        "b": {"sample": bands[(seed + 1) % len(bands)]},
        "seats": [agent, agent],
        "seed": seed,
    }
    r = await client.post("/api/games", json=body)
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return {"id": out["id"], "token": out["links"]["spectator"].split("token=")[1], "ruleset": ruleset_id}


async def watch(client: httpx.AsyncClient, port: int, game: dict[str, Any], times: Times, errors: list[str]) -> int:
    """Follow the game as a browser does (its WebSocket says when it moved; then the snapshot and the legal
    actions are fetched, once for any number of moves meanwhile), until it is over; returns its steps."""
    url = f"ws://{HOST}:{port}/api/games/{game['id']}/ws?token={game['token']}"
    async with websockets.connect(url, ping_interval=None) as ws:  # a browser sends no pings either
        moved = asyncio.Event()
        reader = asyncio.create_task(_read_all(ws, moved))
        try:
            return await _follow(client, game, moved, reader, times, errors)
        finally:
            reader.cancel()


async def _read_all(ws: Any, moved: asyncio.Event) -> None:
    async for _ in ws:
        moved.set()
    moved.set()


async def _follow(
    client: httpx.AsyncClient,
    game: dict[str, Any],
    moved: asyncio.Event,
    reader: asyncio.Task[None],
    times: Times,
    errors: list[str],
) -> int:
    params = {"token": game["token"]}
    seen = 0
    while True:
        await moved.wait()
        moved.clear()
        s = await client.get(f"/api/games/{game['id']}", params={**params, "since": str(seen)})
        if s.status_code != 200:
            errors.append(f"{game['id']} state {s.status_code}: {s.text[:200]}")
            return 0
        snap = s.json()
        seen += len(snap["log"])
        game["version"] = int(snap["version"])
        if snap["result"] is not None:
            return int(snap["version"])
        if reader.done():
            errors.append(f"{game['id']}: the WebSocket closed before the game ended")
            return 0
        await timed(client, f"/api/games/{game['id']}/legal", params, times[game["ruleset"]], errors)
        model = next((m["id"] for m in snap["view"]["models"]), None)
        if model is not None:
            odds = times[game["ruleset"] + " (one model, with odds)"]
            await timed(client, f"/api/games/{game['id']}/legal", {**params, "model": model}, odds, errors)


async def timed(
    client: httpx.AsyncClient,
    url: str,
    params: dict[str, str],
    out: list[tuple[float, float | None]],
    errors: list[str],
) -> None:
    t0 = time.perf_counter()
    r = await client.get(url, params=params)
    trip = (time.perf_counter() - t0) * 1000
    timing = r.headers.get("server-timing", "")
    out.append((trip, float(timing.split("dur=")[1]) if "dur=" in timing else None))
    if r.status_code != 200:
        errors.append(f"{url} {r.status_code}: {r.text[:200]}")


async def sample_load(out: list[float]) -> None:
    """The machine's 1-minute load average, once a second, until cancelled."""
    while True:
        out.append(os.getloadavg()[0])
        await asyncio.sleep(1)


async def loop_lag(out: list[float], every: float = 0.01) -> None:
    """How late a timer of ``every`` seconds fires in this event loop (ms), until cancelled: the time a
    response that has arrived may wait before the follower awaiting it runs again."""
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        out.append((time.perf_counter() - t0 - every) * 1000)


async def follow_games(port: int, games: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """One client process: follow ``games`` until they end (or ``seconds`` pass); the times, errors, steps
    and this process's event-loop lag."""
    times: Times = defaultdict(list)
    errors: list[str] = []
    lags: list[float] = []
    lagger = asyncio.create_task(loop_lag(lags))
    limits = httpx.Limits(max_connections=len(games) * 2, max_keepalive_connections=len(games) * 2)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60, limits=limits) as client:
        jobs = [asyncio.create_task(watch(client, port, g, times, errors)) for g in games]
        done, pending = await asyncio.wait(jobs, timeout=seconds)
        for job in pending:
            job.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    lagger.cancel()
    for job in done:
        if job.exception() is not None:
            errors.append(f"a follower failed: {job.exception()!r}")
    steps = sum(int(g.get("version", 0)) for g in games)
    return {"times": dict(times), "errors": errors, "lags": lags, "steps": steps, "unfinished": len(pending)}


def client_process(port: int, games: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    return asyncio.run(follow_games(port, games, seconds))


async def run(args: argparse.Namespace) -> int:
    rulesets = list(registry.available())
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(args.port, Path(tmp) / "load.db", args.ai_delay)
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        try:
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{args.port}", timeout=60) as client:
                await wait_up(client)
                games = [await create(client, rulesets[i % len(rulesets)], args.agent, i) for i in range(args.games)]
            loads: list[float] = []
            sampler = asyncio.create_task(sample_load(loads))
            t0 = time.perf_counter()
            ctx = multiprocessing.get_context("spawn")
            n = max(1, min(args.clients, len(games)))
            with ctx.Pool(n) as pool:
                parts = [pool.apply_async(client_process, (args.port, games[k::n], args.seconds)) for k in range(n)]
                results = await asyncio.to_thread(lambda: [p.get(args.seconds + 120) for p in parts])
            wall = time.perf_counter() - t0
            sampler.cancel()
        finally:
            server.terminate()
            server.wait(10)
    return report(args, games, results, wall, loads)


def report(
    args: argparse.Namespace,
    games: list[dict[str, Any]],
    results: list[dict[str, Any]],
    wall: float,
    loads: list[float],
) -> int:
    times: Times = defaultdict(list)
    for res in results:
        for name, xs in res["times"].items():
            times[name].extend(xs)
    errors = [e for res in results for e in res["errors"]]
    unfinished = sum(res["unfinished"] for res in results)
    print(
        f"{len(games)} concurrent games ({args.agent} v {args.agent}, ai delay {args.ai_delay}s) followed by "
        f"{len(results)} client processes for {wall:.1f}s, {sum(r['steps'] for r in results)} steps"
        + (f" ({unfinished} games still playing when --seconds ran out)" if unfinished else "")
        + f"; errors: {len(errors)}"
    )
    print(
        f"load average during the run (1-minute, sampled each second): mean {statistics.mean(loads or [0]):.1f}, "
        f"max {max(loads or [0]):.1f}, on {os.cpu_count()} cores (other jobs on the machine inflate round trips)"
    )
    lags = [x for res in results for x in res["lags"]]
    if lags:
        print(
            f"the clients' event-loop lag (a 10 ms timer firing late): p50 {statistics.median(lags):.1f} ms, "
            f"p95 {p95(lags):.1f} ms, max {max(lags):.1f} ms"
        )
    for e in errors[:10]:
        print("  error:", e)
    for name in sorted(times):
        trips = [t for t, _ in times[name]]
        inside = [d for _, d in times[name] if d is not None] or [0.0]
        print(
            f"  legal actions, {name}: {len(trips)} requests, round trip p50 {statistics.median(trips):.1f} ms, "
            f"p95 {p95(trips):.1f} ms; in the server p50 {statistics.median(inside):.1f} ms, p95 {p95(inside):.1f} ms"
        )
    return 1 if errors else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, choices=range(1, 51), metavar="N (1-50)")
    ap.add_argument("--agent", default="random")
    ap.add_argument("--ai-delay", type=float, default=0.05)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--clients", type=int, default=4, help="client processes the followers are spread over")
    ap.add_argument("--seconds", type=float, default=900, help="stop following after this many seconds")
    sys.exit(asyncio.run(run(ap.parse_args())))


if __name__ == "__main__":
    main()
