"""Heuristic against random over every ordered pairing of a ruleset's sample warbands (issue 21's first target).

Usage: ``python scripts/heuristic_survey.py RULESET [--games N] [--seed S ...] [--agent SPEC] [--workers W]
[--pair A:B ...] [--show]``.

For every ordered pair (A, B) of different sample warbands (six samples: 30 pairs) the agent under test
(``--agent``, default ``heuristic``) plays warband A and ``random`` plays warband B, ``N`` games per pair and
seed, exactly as ``warband simulate RULESET --a A --b B --games N --seed S --agent-a SPEC --agent-b random``
plays them (the same game seeds; odd games put B, and its agent, in the first seat). The agent under test so
plays every warband against every other on both sides of the table and in both seats. Prints wins, draws and
losses of the agent under test per pairing, then the total; draws are not wins. ``--games 2 --seed 1 --seed 101``
is 120 games over six samples. ``--show`` names each game not won as it ends (pairing, seed, game index, score,
rounds: :func:`not_won`), to be played again and replayed. ``--pair A:B`` (repeatable; the samples' file names
without ``.yaml``) plays only those ordered pairings: a quick screen on the pairings that lose most.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import time
from collections.abc import Iterator
from pathlib import Path

from warband.kernel import ruleset as registry
from warband.lab.records import GameRecord, SimulationConfig
from warband.lab.simulate import play_one_guarded
from warband.workers import worker_pool


def configs(
    ruleset: str, games: int, seeds: list[int], agent: str, pairs: list[str] | None = None
) -> list[SimulationConfig]:
    """One run per ordered pair of different sample warbands and seed: ``agent`` on A, ``random`` on B; with
    ``pairs`` (``"A:B"``, the samples' file names without ``.yaml``) only those ordered pairs."""
    rs = registry.get(ruleset)
    samples = sorted((rs.data_dir() / "warbands").glob("*.yaml"))
    chosen = None if not pairs else {tuple(p.split(":", 1)) for p in pairs}
    if chosen is not None:
        names = {p.stem for p in samples}
        unknown = sorted(":".join(p) for p in chosen if len(p) != 2 or not set(p) <= names)
        if unknown:
            raise SystemExit(f"unknown pairing(s) {', '.join(unknown)}; the samples: {', '.join(sorted(names))}")
    return [
        SimulationConfig(ruleset, a, b, games=games, seed=s, agent_a=agent, agent_b="random")
        for a, b in itertools.permutations(samples, 2)
        if chosen is None or (a.stem, b.stem) in chosen
        for s in seeds
    ]


def _play(config: SimulationConfig, index: int) -> GameRecord:
    return play_one_guarded(config, index)


def play_all(runs: list[SimulationConfig], workers: int) -> Iterator[tuple[int, GameRecord]]:
    """Every game of every run, as (run index, record), in order with one worker, as they end with several."""
    tasks = [(k, i) for k, c in enumerate(runs) for i in range(c.games)]
    if workers <= 1:
        for k, i in tasks:
            yield k, _play(runs[k], i)
        return
    with worker_pool(workers) as pool:
        futures = {pool.submit(functools.partial(_play, runs[k], i)): k for k, i in tasks}
        for f, k in futures.items():
            yield k, f.result()


def outcome(record: GameRecord) -> str:
    """``W``, ``D``, ``L`` for the agent on warband A, or ``X`` for a game that crashed."""
    if record.crash is not None:
        return "X"
    return "D" if record.winner is None else "W" if record.winner == "a" else "L"


def not_won(config: SimulationConfig, record: GameRecord) -> str:
    """Where a game not won was played, the score (A's first) and the rounds played: enough to replay it with
    ``warband simulate`` (game ``index`` of the run with that seed)."""
    a, b = record.score
    return (
        f"{config.roster_a.stem} v {config.roster_b.stem} seed {config.seed} game {record.index}: "
        f"{a}-{b} after {record.turns} rounds ({record.reason})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--games", type=int, default=2, help="games per ordered pair and seed (default 2)")
    ap.add_argument("--seed", type=int, action="append", help="run seed, repeatable (default: 1 and 101)")
    ap.add_argument("--agent", default="heuristic", help="agent spec under test (default heuristic)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument(
        "--pair", action="append", metavar="A:B", help="only this ordered pairing (sample file stems), repeatable"
    )
    ap.add_argument("--show", action="store_true", help="print each game the agent under test did not win")
    args = ap.parse_args(argv)
    seeds = args.seed or [1, 101]
    runs = configs(args.ruleset, args.games, seeds, args.agent, args.pair)
    tally: dict[tuple[Path, Path], dict[str, int]] = {}
    began = time.perf_counter()
    for k, record in play_all(runs, args.workers):
        c = runs[k]
        counts = tally.setdefault((c.roster_a, c.roster_b), {"W": 0, "D": 0, "L": 0, "X": 0})
        counts[outcome(record)] += 1
        if record.crash is not None:
            where = f"{c.roster_a.stem} v {c.roster_b.stem} seed {c.seed} game {record.index}"
            print(f"crash: {where}: {record.crash.error}")
        elif args.show and record.winner != "a":
            print(f"{outcome(record)}: {not_won(c, record)}", flush=True)
    total = {"W": 0, "D": 0, "L": 0, "X": 0}
    for (a, b), counts in sorted(tally.items()):
        print(f"{a.stem:34} v {b.stem:34} W {counts['W']:3}  D {counts['D']:3}  L {counts['L']:3}")
        for key in total:
            total[key] += counts[key]
    n = sum(total.values())
    crashed = f", {total['X']} crashed" if total["X"] else ""
    print(
        f"{args.ruleset} {args.agent} vs random, seeds {seeds}, {args.games} games a pair and seed: "
        f"{total['W']} wins, {total['D']} draws, {total['L']} losses of {n}{crashed} "
        f"= {100 * total['W'] / max(1, n):.1f}% wins ({time.perf_counter() - began:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
