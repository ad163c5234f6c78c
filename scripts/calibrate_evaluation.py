"""Fit the ``mcts`` agent's ``scale`` to a ruleset: how large an evaluation difference is when it predicts a win.

Usage: ``python scripts/calibrate_evaluation.py --ruleset ID [--games N] [--seed S] [--jobs J] [--every K]
[--spec heuristic]``. Plays ``N`` games of the ruleset's first two sample warbands (Trench Crusade: the two
Pilgrim lists of ``mcts_strength.py``), both sides the agent ``spec``, the warbands swapped in odd games. At every
``K``-th choice decision it records ``d = evaluate(state, 0) - evaluate(state, 1)``; once the game is over, whether
side 0 won (draws are left out). It then finds the ``scale`` (a log grid, ten steps a decade) whose win chance
``sigmoid(d / (2 * scale))`` gives those outcomes the highest likelihood, the same formula the ``mcts`` agent
uses to judge a position that is not over, and prints it next to the agent's default ``scale`` (fitted to Trench
Crusade's points). Measured (seed 77, heuristic v heuristic): Trench Crusade 158 (40 games), Gangfight 100 (30),
Trenches and Turbines 6.3 (40), Wyrdcry 3.2 (30). A fitted scale is not a stronger search by itself: see
``benchmarks/PROFILE.md``, "mcts in Trenches and Turbines".
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from mcts_strength import sample_game

from warband.agents.base import make_agent
from warband.agents.mcts import MCTSAgent, sigmoid
from warband.agents.play import Player, play
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.rng import derive_seed


def one_game(args: tuple[str, int, int, str, int]) -> tuple[list[float], int | None]:
    """The evaluation differences seen in game ``i`` and its winner."""
    ruleset_id, base_seed, i, spec, every = args
    rs = registry.get(ruleset_id)
    seed = derive_seed(base_seed, i)
    agents = [make_agent(spec, derive_seed(seed, 1)), make_agent(spec, derive_seed(seed, 2))]
    game = sample_game(rs, seed, swap=i % 2 == 1)
    diffs: list[float] = []
    choices = 0

    def record(g: Game, _player: Player, _action: Action) -> None:
        """Before every ``every``-th choice: the evaluation difference of the position it is made in."""
        nonlocal choices
        choices += 1
        if choices % every == 0:
            diffs.append(rs.evaluate(g.state, 0) - rs.evaluate(g.state, 1))

    play(game, agents, on_choice=record)
    result = game.result()
    return diffs, None if result is None else result.winner


def log_likelihood(points: list[tuple[float, bool]], scale: float) -> float:
    """How likely the outcomes are if side 0 wins with the mcts agent's chance ``sigmoid(d / (2 * scale))``."""
    total = 0.0
    for d, won in points:
        p = sigmoid(d / (2.0 * scale))
        total += math.log(max(1e-12, p if won else 1.0 - p))
    return total


def best_scale(points: list[tuple[float, bool]]) -> float:
    """The grid scale (1e-3 .. 1e6, ten steps a decade) of the highest likelihood."""
    grid = [10 ** (k / 10) for k in range(-30, 61)]
    return max(grid, key=lambda s: log_likelihood(points, s))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--ruleset", required=True)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--every", type=int, default=3, help="record every K-th choice decision")
    ap.add_argument("--spec", default="heuristic", help="the agent both sides play")
    args = ap.parse_args()
    if args.games < 1 or args.every < 1 or args.jobs < 1:
        ap.error("--games, --every and --jobs must be at least 1")
    try:
        registry.get(args.ruleset)  # an unknown id fails here, before any worker starts
    except registry.UnknownRulesetError as exc:
        ap.error(str(exc))
    default = MCTSAgent().scale
    t0 = time.perf_counter()
    tasks = [(args.ruleset, args.seed, i, args.spec, args.every) for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        games = list(pool.map(one_game, tasks))
    points = [(d, winner == 0) for diffs, winner in games if winner is not None for d in diffs]
    if not points or len({won for _, won in points}) < 2:
        raise SystemExit("calibrate_evaluation: every decided game went the same way; play more games")
    scale = best_scale(points)
    sizes = sorted(abs(d) for d, _ in points)
    print(
        f"{args.ruleset}: {args.games} games ({sum(w is None for _, w in games)} drawn), {len(points)} positions; "
        f"|difference| median {sizes[len(sizes) // 2]:.3g}, 90th percentile {sizes[int(len(sizes) * 0.9)]:.3g}"
    )
    print(
        f"fitted scale {scale:.3g} (log-likelihood {log_likelihood(points, scale):.1f}); "
        f"mcts's default scale {default:g} "
        f"(log-likelihood {log_likelihood(points, default):.1f}); {time.perf_counter() - t0:.0f}s"
    )


if __name__ == "__main__":
    main()
