"""``make bench``: full games per second on one core, for every installed ruleset and agent pairing.

Each ruleset plays its first two sample warbands on its default scenario, random against random and (when
installed) heuristic against heuristic. A pairing is timed as the median of several runs of K games, K chosen
from a warm-up game so that one run takes a few seconds. Results are printed and written as JSON with the
machine, Python, date and ruleset versions. ``--quick`` is a smoke run (short runs; writes only with ``--out``).

Target (first issue): at least 50 random-vs-random games/s per core.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from warband import __version__
from warband.kernel import ruleset as registry
from warband.lab.simulate import SimulationConfig, default_agent, play_one

HERE = Path(__file__).resolve().parent
TARGET_RANDOM_GAMES_PER_S = 50.0


def measure_run(config: SimulationConfig, first: int, games: int) -> dict[str, float]:
    """Play games ``first .. first + games - 1`` in this process; their speed."""
    decisions = steps = 0
    start = time.perf_counter()
    for index in range(first, first + games):
        record = play_one(config, index)
        decisions += record.decisions
        steps += record.steps
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "steps_per_game": steps / games,
    }


def bench_pairing(config: SimulationConfig, runs: int, seconds: float) -> dict[str, Any]:
    """The median speed of ``runs`` runs of K games, K sized from one warm-up game to last about ``seconds``."""
    measure_run(config, 0, 1)  # loads and caches the documents and warms the rules' caches
    warm = measure_run(config, 0, 1)
    per_run = max(1, round(seconds / warm["seconds"]))
    timed = [measure_run(config, 1 + r * per_run, per_run) for r in range(runs)]
    return {
        "ruleset": config.ruleset,
        "ruleset_version": registry.get(config.ruleset).version,
        "a": config.roster_a.name,
        "b": config.roster_b.name,
        "scenario": "default",
        "agents": [config.agent_a, config.agent_b],
        "runs": runs,
        "games_per_run": per_run,
        "games_per_s": statistics.median(t["games_per_s"] for t in timed),
        "decisions_per_s": statistics.median(t["decisions_per_s"] for t in timed),
        "steps_per_game": statistics.mean(t["steps_per_game"] for t in timed),
        "per_run": timed,
    }


def pairings() -> list[SimulationConfig]:
    """Every ruleset's first two sample warbands on its default scenario, for each installed agent pairing."""
    agents = ["random"] + (["heuristic"] if default_agent() == "heuristic" else [])
    configs: list[SimulationConfig] = []
    for ruleset_id in registry.available():
        warbands = registry.get(ruleset_id).samples()["warbands"]
        if len(warbands) < 2:
            continue
        a, b = Path(warbands[0]["path"]), Path(warbands[1]["path"])
        configs.extend(SimulationConfig(ruleset_id, a, b, seed=2026, agent_a=agent, agent_b=agent) for agent in agents)
    return configs


def bench_lab(console: Console, quick: bool) -> list[dict[str, Any]]:
    """Lab throughput: the same random-vs-random run with 1 and 2 worker processes, and on a local Ray runtime
    (when the ``ray`` extra is installed). The 2-worker / 1-worker ratio shows the scaling (aim: 1.8 on 2 cores)."""
    from warband.lab.backends import LocalBackend
    from warband.lab.simulate import simulate

    base = pairings()[0]
    games = 16 if quick else 120
    config = SimulationConfig(
        base.ruleset, base.roster_a, base.roster_b, games=games, seed=7, agent_a="random", agent_b="random"
    )
    rows = []
    backends: list[tuple[str, Any]] = [
        ("process pool, 1 worker", LocalBackend(1)),
        ("process pool, 2 workers", LocalBackend(2)),
    ]
    try:
        import ray  # noqa: F401

        from warband.lab.backends import RayBackend

        backends.append(("ray (local), 2 CPUs", RayBackend(None, 2)))
    except ImportError:
        console.print("ray is not installed: the Ray backend is not measured")
    for name, backend in backends:
        with console.status(f"lab: {name} …"):
            if name.startswith("ray"):  # start the runtime outside the timing
                simulate(dataclasses.replace(config, games=2), backend=backend)
            result = simulate(config, backend=backend)
        rows.append(
            {"backend": name, "games": games, "seconds": result.elapsed_s, "games_per_s": games / result.elapsed_s}
        )
    for r in rows:
        r["vs_one_worker"] = r["games_per_s"] / rows[0]["games_per_s"]
    return rows


def bench_mcts(console: Console, quick: bool) -> dict[str, Any] | None:
    """Seconds per decision of the mcts agent at its default budget, on Trench Crusade positions."""
    from warband.agents.base import AgentError, make_agent
    from warband.kernel.engine import Game

    try:
        agent = make_agent("mcts", 1)
    except AgentError:
        return None
    base = pairings()[0]
    rs = registry.get(base.ruleset)
    game = Game.new(
        rs,
        [rs.load_roster(base.roster_a), rs.load_roster(base.roster_b)],
        rs.load_scenario(rs.default_scenario()),
        3,
        record=False,
    )
    helper = make_agent("random", 3)
    times: list[float] = []
    want = 3 if quick else 12
    with console.status("mcts: timing decisions …"):
        while not game.over and len(times) < want:
            d = game.decision
            if d.kind == "chance":
                game.roll()
                continue
            if len(game.legal_actions()) > 1 and d.prompt in ("action", "activate"):
                start = time.perf_counter()
                action = agent.choose(game)
                times.append(time.perf_counter() - start)
            else:
                action = helper.choose(game)
            game.apply(action)
    if not times:
        return None
    med = statistics.median(times)
    return {
        "agent": agent.describe(),
        "decisions": len(times),
        "seconds_per_decision": med,
        "decisions_per_s": 1.0 / med,
    }


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
    }


def git_commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, timeout=10
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def table(results: list[dict[str, Any]]) -> Table:
    t = Table(title="warband benchmark: one core, full games, median of runs")
    for name in ("ruleset", "agents", "runs", "games/s", "decisions/s", "steps/game"):
        t.add_column(name, justify="left" if name in ("ruleset", "agents") else "right")
    for r in results:
        agents = " v ".join(dict.fromkeys(r["agents"]))
        t.add_row(
            r["ruleset"],
            agents,
            f"{r['runs']}×{r['games_per_run']}",
            f"{r['games_per_s']:.2f}",
            f"{r['decisions_per_s']:.0f}",
            f"{r['steps_per_game']:.0f}",
        )
    t.caption = "; ".join(sorted({f"{r['ruleset']} {r['ruleset_version']}: {r['a']} v {r['b']}" for r in results}))
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 short runs per pairing")
    parser.add_argument(
        "--out", type=Path, default=None, help="results file [default: benchmarks/results.json; none with --quick]"
    )
    args = parser.parse_args(argv)
    runs, seconds = (2, 0.3) if args.quick else (5, 3.0)
    out = args.out if args.out is not None or args.quick else HERE / "results.json"
    console = Console()
    results = []
    for config in pairings():
        with console.status(f"{config.ruleset}: {config.agent_a} vs {config.agent_b} …"):
            results.append(bench_pairing(config, runs, seconds))
    console.print(table(results))
    for r in results:
        if r["agents"] == ["random", "random"]:
            verdict = "met" if r["games_per_s"] >= TARGET_RANDOM_GAMES_PER_S else "not met"
            console.print(
                f"{r['ruleset']}: target {TARGET_RANDOM_GAMES_PER_S:.0f} random games/s per core "
                f"{verdict} ({r['games_per_s']:.2f})"
            )
    lab = bench_lab(console, args.quick)
    lab_table = Table(title="lab throughput: random v random, whole run")
    for name in ("backend", "games", "games/s", "vs 1 worker"):
        lab_table.add_column(name, justify="left" if name == "backend" else "right")
    for r in lab:
        lab_table.add_row(r["backend"], str(r["games"]), f"{r['games_per_s']:.2f}", f"{r['vs_one_worker']:.2f}x")
    console.print(lab_table)
    mcts = bench_mcts(console, args.quick)
    if mcts is not None:
        console.print(
            f"mcts ({mcts['agent']}): {mcts['seconds_per_decision']:.3f} s per decision "
            f"({mcts['decisions_per_s']:.2f} decisions/s, median of {mcts['decisions']})"
        )
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "warband": __version__,
        "git": git_commit(),
        "quick": args.quick,
        "machine": machine(),
        "target_random_games_per_s": TARGET_RANDOM_GAMES_PER_S,
        "results": results,
        "lab": lab,
        "mcts": mcts,
    }
    if out is not None:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        console.print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
