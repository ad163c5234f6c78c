"""``make bench``: full games per second on one core, for every installed ruleset and agent pairing.

Each ruleset plays its first two sample warbands on its default scenario, random against random and (when
installed) heuristic against heuristic. A pairing is timed as the median of several runs of K games, K chosen
from a warm-up game so that one run takes a few seconds. Results are printed and written as JSON with the
machine, Python, date and ruleset versions. ``--quick`` is a smoke run (short runs; writes only with ``--out``).

The same run measures python-chess random-vs-random games/s (a yardstick that moves with the machine's load as
ours does), the mcts agent's iterations per second per ruleset, and checks every target of issue 26 (met / not
met). Measurements are interleaved (one run of every pairing, then the next round) so that a change of load hits
all of them alike: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from warband import __version__
from warband.kernel import ruleset as registry
from warband.lab.records import SimulationConfig
from warband.lab.simulate import default_agent, play_one

HERE = Path(__file__).resolve().parent
#: Single-process timings use this process's CPU time, not the wall clock: on a shared machine (2 cores, a load of
#: 20) the wall clock measures the other jobs; CPU time still moves with cache contention, hence the ratios.
cpu = time.process_time

#: Issue 26's targets. Games/s are on one core; "vs chess" is the ratio to python-chess random games/s measured in
#: the same run (at the start of issue 26 on a quiet core: 0.53x, 2.7, 9.8 and 1.2 games/s; `make demo` about 100 s;
#: `make install` on a fresh clone about 75 s, which this bench does not time).
TARGETS: dict[str, float] = {
    "trench-crusade random games/s vs chess": 1.0,
    "trench-crusade heuristic games/s": 4.5,
    "trenches-and-turbines random games/s": 25.0,
    "trenches-and-turbines heuristic games/s": 2.4,
    "make demo wall seconds on 2 cores (at most)": 45.0,
    "make install seconds on a fresh clone, 2 cores (at most)": 135.0,
}
#: Budget of the timed mcts decisions (iterations/s barely depends on it; a small one keeps the bench short).
MCTS_BENCH_ITERATIONS = 40
DEMO_GAMES = 200


def chess_random_game(rng: random.Random) -> int:
    """One python-chess game, both sides playing a uniformly random legal move until the game is over (mate,
    stalemate, insufficient material, the 75-move rule or fivefold repetition); its number of plies."""
    import chess

    board = chess.Board()
    plies = 0
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def measure_chess(first: int, games: int) -> dict[str, float]:
    plies = 0
    start = cpu()
    for index in range(first, first + games):
        plies += chess_random_game(random.Random(index))
    elapsed = cpu() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": plies / elapsed,
        "steps_per_game": plies / games,
    }


def measure_run(config: SimulationConfig, first: int, games: int) -> dict[str, float]:
    """Play games ``first .. first + games - 1`` in this process; their speed."""
    decisions = steps = 0
    start = cpu()
    for index in range(first, first + games):
        record = play_one(config, index)
        decisions += record.decisions
        steps += record.steps
    elapsed = cpu() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "steps_per_game": steps / games,
    }


Runner = Callable[[int, int], dict[str, float]]


def sized(run: Runner, seconds: float) -> int:
    """Games per timed run so that one lasts about ``seconds``, from a warm-up game (after one that loads and
    caches the documents and warms the rules' caches)."""
    run(0, 1)
    warm = run(0, 1)
    return max(1, round(seconds / warm["seconds"]))


def interleaved(
    runners: dict[str, Runner], runs: int, seconds: float, console: Console
) -> dict[str, list[dict[str, float]]]:
    """``runs`` rounds of one timed run per runner, round by round, so that load changes hit all alike."""
    sizes = {}
    for name, run in runners.items():
        with console.status(f"warming up {name} …"):
            sizes[name] = sized(run, seconds)
    timed: dict[str, list[dict[str, float]]] = {name: [] for name in runners}
    for r in range(runs):
        for name, run in runners.items():
            with console.status(f"round {r + 1}/{runs}: {name} …"):
                timed[name].append(run(1 + r * sizes[name], sizes[name]))
    return timed


def summary(timed: list[dict[str, float]]) -> dict[str, Any]:
    return {
        "runs": len(timed),
        "games_per_run": timed[0]["games"],
        "games_per_s": statistics.median(t["games_per_s"] for t in timed),
        "decisions_per_s": statistics.median(t["decisions_per_s"] for t in timed),
        "steps_per_game": statistics.mean(t["steps_per_game"] for t in timed),
        "per_run": timed,
    }


def pairing_info(config: SimulationConfig) -> dict[str, Any]:
    return {
        "ruleset": config.ruleset,
        "ruleset_version": registry.get(config.ruleset).version,
        "a": config.roster_a.name,
        "b": config.roster_b.name,
        "scenario": "default",
        "agents": [config.agent_a, config.agent_b],
    }


def pairings(only: list[str] | None = None) -> list[SimulationConfig]:
    """Every ruleset's (or those in ``only``) first two sample warbands on its default scenario, for each installed
    agent pairing."""
    agents = ["random"] + (["heuristic"] if default_agent() == "heuristic" else [])
    configs: list[SimulationConfig] = []
    for ruleset_id in only or registry.available():
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


def bench_mcts(console: Console, ruleset_id: str, roster_a: Path, roster_b: Path, quick: bool) -> dict[str, Any] | None:
    """Iterations per second of the mcts agent (budget :data:`MCTS_BENCH_ITERATIONS`) over the first decisions
    with a real choice (activate / action) of a seeded game whose other choices a random agent makes."""
    from warband.agents.base import AgentError, make_agent
    from warband.kernel.engine import Game

    try:
        agent = make_agent(f"mcts:iterations={MCTS_BENCH_ITERATIONS}", 1)
    except AgentError:
        return None
    rs = registry.get(ruleset_id)
    game = Game.new(
        rs,
        [rs.load_roster(roster_a), rs.load_roster(roster_b)],
        rs.load_scenario(rs.default_scenario()),
        3,
        record=False,
    )
    helper = make_agent("random", 3)
    times: list[float] = []
    iterations = 0
    want = 2 if quick else 8
    with console.status(f"mcts ({ruleset_id}): timing decisions …"):
        while not game.over and len(times) < want:
            d = game.decision
            if d.kind == "chance":
                game.roll()
                continue
            if len(game.legal_actions()) > 1 and d.prompt in ("action", "activate"):
                start = cpu()
                action = agent.choose(game)
                times.append(cpu() - start)
                iterations += getattr(agent, "last_iterations", MCTS_BENCH_ITERATIONS)
            else:
                action = helper.choose(game)
            game.apply(action)
    if not times:
        return None
    return {
        "ruleset": ruleset_id,
        "agent": agent.describe(),
        "decisions": len(times),
        "seconds": sum(times),
        "seconds_per_decision": statistics.median(times),
        "iterations_per_s": iterations / sum(times),
    }


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def git_commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, timeout=10
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def table(results: list[dict[str, Any]], chess_row: dict[str, Any]) -> Table:
    t = Table(title="warband benchmark: one core, full games, median of interleaved runs")
    for name in ("ruleset", "agents", "runs", "games/s", "vs chess", "decisions/s", "steps/game"):
        t.add_column(name, justify="left" if name in ("ruleset", "agents") else "right")
    for r in [*results, chess_row]:
        agents = " v ".join(dict.fromkeys(r["agents"]))
        t.add_row(
            r["ruleset"],
            agents,
            f"{r['runs']}×{r['games_per_run']}",
            f"{r['games_per_s']:.2f}",
            f"{r['games_per_s'] / chess_row['games_per_s']:.2f}x",
            f"{r['decisions_per_s']:.0f}",
            f"{r['steps_per_game']:.0f}",
        )
    t.caption = "; ".join(sorted({f"{r['ruleset']} {r['ruleset_version']}: {r['a']} v {r['b']}" for r in results}))
    return t


def targets(
    results: list[dict[str, Any]], chess_gps: float, mcts: list[dict[str, Any]], demo_s: float | None
) -> list[dict[str, Any]]:
    """Every target of issue 26 with the value of this run and whether it is met (None: not measured here)."""
    speed = {(r["ruleset"], r["agents"][0]): r["games_per_s"] for r in results if r["agents"][0] == r["agents"][1]}
    rows: list[dict[str, Any]] = []

    def add(name: str, value: float | None, note: str, at_most: bool = False) -> None:
        goal = TARGETS[name]
        met = None if value is None else (value <= goal if at_most else value >= goal)
        rows.append({"target": name, "goal": goal, "value": value, "met": met, "note": note})

    tc_random = speed.get(("trench-crusade", "random"))
    add(
        "trench-crusade random games/s vs chess",
        None if tc_random is None else tc_random / chess_gps,
        "ratio in this run",
    )
    add(
        "trench-crusade heuristic games/s",
        speed.get(("trench-crusade", "heuristic")),
        "absolute: the machine's load moves it",
    )
    add("trenches-and-turbines random games/s", speed.get(("trenches-and-turbines", "random")), "absolute")
    add("trenches-and-turbines heuristic games/s", speed.get(("trenches-and-turbines", "heuristic")), "absolute")
    tc_heur = speed.get(("trench-crusade", "heuristic"))
    if demo_s is not None:
        add("make demo wall seconds on 2 cores (at most)", demo_s, "timed (--demo)", at_most=True)
    else:
        estimate = None if tc_heur is None else DEMO_GAMES / (2 * tc_heur)
        add(
            "make demo wall seconds on 2 cores (at most)",
            estimate,
            "estimate: 200 heuristic games at 2x this run's rate (--demo times it)",
            at_most=True,
        )
    add(
        "make install seconds on a fresh clone, 2 cores (at most)",
        None,
        "not timed here: `time make install` in a fresh clone",
        at_most=True,
    )
    return rows


def targets_table(rows: list[dict[str, Any]]) -> Table:
    t = Table(title="issue 26 targets")
    for name in ("target", "goal", "this run", "met", "note"):
        t.add_column(name, justify="right" if name in ("goal", "this run") else "left")
    for r in rows:
        value = "—" if r["value"] is None else f"{r['value']:.2f}"
        met = "not measured" if r["met"] is None else ("met" if r["met"] else "NOT met")
        t.add_row(r["target"], f"{r['goal']:g}", value, met, r["note"])
    return t


def time_demo() -> float:
    """Wall seconds of ``python -m warband.demo`` (200 heuristic games on every core) in a scratch folder."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "warband.demo"], cwd=tmp, check=True, capture_output=True)
        return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 short runs per pairing")
    parser.add_argument(
        "--out", type=Path, default=None, help="results file [default: benchmarks/results.json; none with --quick]"
    )
    parser.add_argument("--no-lab", action="store_true", help="skip the lab throughput (process pool, Ray)")
    parser.add_argument("--demo", action="store_true", help="also time `python -m warband.demo` (about a minute)")
    parser.add_argument("--runs", type=int, default=None, help="timed runs per pairing [5; 2 with --quick]")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds per timed run [2.5; 0.2 quick]")
    parser.add_argument(
        "--ruleset", action="append", help="only this ruleset (repeatable; default: every installed one)"
    )
    args = parser.parse_args(argv)
    runs, seconds = (2, 0.2) if args.quick else (5, 2.5)
    runs = args.runs if args.runs is not None else runs
    seconds = args.seconds if args.seconds is not None else seconds
    out = args.out if args.out is not None or args.quick else HERE / "results.json"
    console = Console()
    configs = pairings(args.ruleset)
    runners: dict[str, Runner] = {"python-chess random": measure_chess}
    for config in configs:
        runners[f"{config.ruleset} {config.agent_a}"] = partial(measure_run, config)
    timed = interleaved(runners, runs, seconds, console)
    chess_row = {
        "ruleset": "python-chess",
        "ruleset_version": chess_version(),
        "a": "-",
        "b": "-",
        "agents": ["random", "random"],
        **summary(timed["python-chess random"]),
    }
    results = [{**pairing_info(c), **summary(timed[f"{c.ruleset} {c.agent_a}"])} for c in configs]
    for r in results:
        r["vs_chess"] = r["games_per_s"] / chess_row["games_per_s"]
    console.print(table(results, chess_row))
    mcts = []
    for ruleset_id in dict.fromkeys(c.ruleset for c in configs):
        c = next(c for c in configs if c.ruleset == ruleset_id)
        m = bench_mcts(console, ruleset_id, c.roster_a, c.roster_b, args.quick)
        if m is not None:
            m["vs_chess"] = m["iterations_per_s"] / chess_row["games_per_s"]
            mcts.append(m)
            console.print(
                f"mcts ({m['ruleset']}, {m['agent']}): {m['iterations_per_s']:.0f} iterations/s "
                f"({m['seconds_per_decision']:.3f} s per decision, median of {m['decisions']})"
            )
    lab = [] if args.no_lab else bench_lab(console, args.quick)
    if lab:
        lab_table = Table(title="lab throughput: random v random, whole run")
        for name in ("backend", "games", "games/s", "vs 1 worker"):
            lab_table.add_column(name, justify="left" if name == "backend" else "right")
        for r in lab:
            lab_table.add_row(r["backend"], str(r["games"]), f"{r['games_per_s']:.2f}", f"{r['vs_one_worker']:.2f}x")
        console.print(lab_table)
    demo_s = time_demo() if args.demo else None
    goals = targets(results, chess_row["games_per_s"], mcts, demo_s)
    console.print(targets_table(goals))
    report = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "warband": __version__,
        "git": git_commit(),
        "quick": args.quick,
        "machine": machine(),
        "chess": chess_row,
        "results": results,
        "mcts": mcts,
        "lab": lab,
        "demo_seconds": demo_s,
        "targets": goals,
    }
    if out is not None:
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        console.print(f"written to {out}")
    return 0


def chess_version() -> str:
    import chess

    return str(chess.__version__)


if __name__ == "__main__":
    sys.exit(main())
