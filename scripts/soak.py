"""Soak test: many random-vs-random games per ruleset, over every pair of sample warbands and every sample scenario.

Usage::

    python scripts/soak.py [--games N] [--ruleset ID ...] [--seed S] [--workers W] [--show K]

For each ruleset (default: every installed one), the N games are spread evenly over every ordered pair of its
sample warbands (mirrors included) and its sample scenarios; each matchup is a lab run with its own seed derived
from S, so every game has its own seed. A game that raises is reported with its index, seed and the command that
plays it again alone (see :func:`warband.lab.simulate.replay_command`); the soak goes on and exits 1 if any game
raised, 0 if none did. Not part of ``make test`` (``make soak`` runs it with 10,000 games per ruleset).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from warband.kernel import ruleset as registry
from warband.kernel.rng import derive_seed
from warband.lab.backends import LocalBackend, default_workers
from warband.lab.records import SimulationConfig, replay_command
from warband.lab.simulate import simulate


@dataclass
class Tally:
    """What one ruleset's soak found."""

    ruleset: str
    matchups: int = 0
    games: int = 0
    crashes: list[tuple[str, str]] = field(default_factory=list)
    """(error, replay command) per crashed game."""
    seconds: float = 0.0


def matchups(ruleset: str) -> list[tuple[Path, Path, Path]]:
    """Every (warband A, warband B, scenario) of the ruleset's samples, mirrors included."""
    samples = registry.get(ruleset).samples()
    warbands = [Path(w["path"]) for w in samples["warbands"]]
    scenarios = [Path(s["path"]) for s in samples["scenarios"]]
    return [(a, b, s) for s in scenarios for a, b in itertools.product(warbands, repeat=2)]


def soak(ruleset: str, games: int, seed: int, workers: int) -> Tally:
    """Play about ``games`` random-vs-random games of ``ruleset`` spread over its matchups."""
    tally = Tally(ruleset)
    runs = matchups(ruleset)
    per_run = max(1, math.ceil(games / len(runs)))
    began = time.perf_counter()
    for k, (a, b, scenario) in enumerate(runs):
        config = SimulationConfig(
            ruleset, a, b, scenario, per_run, derive_seed(seed, k), "random", "random", swap_sides=True
        )
        result = simulate(config, backend=LocalBackend(workers))
        tally.matchups += 1
        tally.games += len(result.records) + len(result.crashes)
        tally.crashes += [(c.error, replay_command(config, c.index)) for c in result.crashes]
        print(
            f"  {ruleset}: {a.stem} v {b.stem} on {scenario.stem}: {per_run} games, {len(result.crashes)} crashed",
            file=sys.stderr,
            flush=True,
        )
    tally.seconds = time.perf_counter() - began
    return tally


def report(tallies: list[Tally], show: int) -> int:
    """Print the summary; the exit code: 1 if any game raised, else 0."""
    crashed = 0
    for t in tallies:
        rate = t.games / t.seconds if t.seconds else 0.0
        print(
            f"{t.ruleset}: {t.games} games over {t.matchups} matchups, {len(t.crashes)} crashed "
            f"({t.seconds:.0f} s, {rate:.1f} games/s)"
        )
        for error, n in Counter(e for e, _ in t.crashes).most_common():
            print(f"  {n} x {error}")
        for error, command in t.crashes[:show]:
            print(f"    {error}\n      replay: {command}")
        crashed += len(t.crashes)
    print("OK: no game raised" if not crashed else f"FAILED: {crashed} game(s) raised")
    return 1 if crashed else 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games per ruleset (default 10,000)")
    ap.add_argument("--ruleset", action="append", help="only this ruleset (repeatable; default: all)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the soak; each matchup's is derived from it")
    ap.add_argument("--workers", type=int, default=default_workers(), help="processes (default: every core)")
    ap.add_argument("--show", type=int, default=5, help="crashed games listed with their replay command")
    args = ap.parse_args(argv)
    rulesets = args.ruleset or list(registry.available())
    print(f"soak: {args.games} random-vs-random games per ruleset, seed {args.seed}, {args.workers} worker(s)")
    tallies = [soak(r, args.games, args.seed, args.workers) for r in rulesets]
    return report(tallies, args.show)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
