"""Strength of the heuristic agent: heuristic vs random, and the heuristic mirror match.

Usage: ``python scripts/strength.py [N] [--seed S] [--agent SPEC]``. Plays N games of the heuristic against
the random agent (the heuristic takes side A in half of them, side B in the other half; every game has its
own seed derived from S) and N games of the heuristic against itself with the same warband on both sides
(``pilgrims_sacred_affliction.yaml``), and prints win rates with 95% Wilson score intervals. Draws count as
half a win for each side. Targets: the heuristic beats random in at least 90% of games; in the mirror, side
A's score is 50% within its interval.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

from warband.agents.base import make_agent
from warband.agents.play import play_out
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.rng import derive_seed

WARBANDS = ("pilgrims_sacred_affliction.yaml", "pilgrims_iron_path.yaml")
MIRROR = "pilgrims_sacred_affliction.yaml"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(rosters: list[dict[str, Any]], specs: tuple[str, str], seed: int, scenario: dict[str, Any]) -> int | None:
    rs = registry.get("trench-crusade")
    game = Game.new(rs, rosters, scenario, seed, record=False)
    agents = [make_agent(specs[0], derive_seed(seed, 1)), make_agent(specs[1], derive_seed(seed, 2))]
    return play_out(game, agents).winner


def report(label: str, score: float, n: int, extra: str = "") -> None:
    lo, hi = wilson(score, n)
    print(
        f"{label}: {score:g}/{n} = {100 * score / n:.1f}%  95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]{extra}", flush=True
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=60, help="games per match")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--agent", default="heuristic", help="agent spec under test")
    ap.add_argument("--skip-mirror", action="store_true")
    args = ap.parse_args()
    rs = registry.get("trench-crusade")
    data: Path = rs.data_dir() / "warbands"
    scenario = rs.load_scenario(rs.default_scenario())
    rosters = [rs.load_roster(data / w) for w in WARBANDS]

    t0 = time.perf_counter()
    score = 0.0
    for i in range(args.n):
        seed = derive_seed(args.seed, i)
        h = i % 2  # the heuristic's side
        specs = (args.agent, "random") if h == 0 else ("random", args.agent)
        pair = rosters if i % 4 < 2 else rosters[::-1]  # each side plays each warband
        winner = play(pair, specs, seed, scenario)
        score += 1.0 if winner == h else 0.5 if winner is None else 0.0
    dt = time.perf_counter() - t0
    report(f"{args.agent} vs random", score, args.n, f"  ({args.n / dt:.2f} games/s)")

    if args.skip_mirror:
        return
    mirror = rs.load_roster(data / MIRROR)
    t0 = time.perf_counter()
    score_a = 0.0
    draws = 0
    for i in range(args.n):
        winner = play([mirror, mirror], (args.agent, args.agent), derive_seed(args.seed + 1, i), scenario)
        score_a += 1.0 if winner == 0 else 0.5 if winner is None else 0.0
        draws += winner is None
    dt = time.perf_counter() - t0
    report(f"{args.agent} mirror, side A score", score_a, args.n, f"  (draws {draws}; {args.n / dt:.2f} games/s)")


if __name__ == "__main__":
    main()
