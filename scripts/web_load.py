"""A bounded load test of the web table (localhost only): start one ``warband serve`` process, open N games
with agent seats on both sides (spread evenly over every installed ruleset), and while the agents play them to
the end, ask each game's legal actions each time it moves, as a browser following it would. Reports errors, the
p50/p95 time of the legal-actions request per ruleset (``/legal``: every legal action; ``/legal?model=``: one
model's with odds) and the machine's load average during the run. The agent seats think in the server's worker
processes.

    python scripts/web_load.py --games 20 --agent random --ai-delay 0.4
"""

from __future__ import annotations

import argparse
import asyncio
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
#: the server's own time per request (its Server-Timing header), keyed like the round-trip lists
server_side: dict[int, list[float]] = defaultdict(list)


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


async def watch(
    client: httpx.AsyncClient, port: int, game: dict[str, Any], times: dict[str, list[float]], errors: list[str]
) -> int:
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
    times: dict[str, list[float]],
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
    client: httpx.AsyncClient, url: str, params: dict[str, str], out: list[float], errors: list[str]
) -> None:
    t0 = time.perf_counter()
    r = await client.get(url, params=params)
    out.append((time.perf_counter() - t0) * 1000)
    timing = r.headers.get("server-timing", "")
    if "dur=" in timing:
        server_side[id(out)].append(float(timing.split("dur=")[1]))
    if r.status_code != 200:
        errors.append(f"{url} {r.status_code}: {r.text[:200]}")


async def sample_load(out: list[float]) -> None:
    """The machine's 1-minute load average, once a second, until cancelled."""
    while True:
        out.append(os.getloadavg()[0])
        await asyncio.sleep(1)


async def run(args: argparse.Namespace) -> int:
    rulesets = list(registry.available())
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(args.port, Path(tmp) / "load.db", args.ai_delay)
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        try:
            async with httpx.AsyncClient(base_url=f"http://{HOST}:{args.port}", timeout=60) as client:
                await wait_up(client)
                games = [await create(client, rulesets[i % len(rulesets)], args.agent, i) for i in range(args.games)]
                times: dict[str, list[float]] = defaultdict(list)
                errors: list[str] = []
                t0 = time.perf_counter()
                loads: list[float] = []
                sampler = asyncio.create_task(sample_load(loads))
                try:
                    steps = await asyncio.wait_for(
                        asyncio.gather(*(watch(client, args.port, g, times, errors) for g in games)), args.timeout
                    )
                finally:
                    sampler.cancel()
                wall = time.perf_counter() - t0
        finally:
            server.terminate()
            server.wait(10)
    print(
        f"{len(games)} concurrent games ({args.agent} v {args.agent}, ai delay {args.ai_delay}s) finished in "
        f"{wall:.1f}s, {sum(steps)} steps; errors: {len(errors)}"
    )
    print(
        f"load average during the run (1-minute, sampled each second): mean {statistics.mean(loads):.1f}, max "
        f"{max(loads):.1f}, on {os.cpu_count()} cores (other jobs on the machine inflate round trips)"
    )
    for e in errors[:10]:
        print("  error:", e)
    for name in sorted(times):
        xs = times[name]
        inside = server_side[id(xs)]
        print(
            f"  legal actions, {name}: {len(xs)} requests, round trip p50 {statistics.median(xs):.1f} ms, "
            f"p95 {p95(xs):.1f} ms; in the server p50 {statistics.median(inside):.1f} ms, p95 {p95(inside):.1f} ms"
        )
    return 1 if errors else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, choices=range(1, 51), metavar="N (1-50)")
    ap.add_argument("--agent", default="random")
    ap.add_argument("--ai-delay", type=float, default=0.05)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--timeout", type=float, default=900, help="give up after this many seconds")
    sys.exit(asyncio.run(run(ap.parse_args())))


if __name__ == "__main__":
    main()
