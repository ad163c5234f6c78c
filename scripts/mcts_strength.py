"""Strength of the mcts agent against the heuristic agent (issue 3: at least 60% wins), in Trench Crusade by
default.

Usage: ``python scripts/mcts_strength.py --games N --seed S [--spec mcts:...] [--opponent heuristic]
[--jobs J] [--ruleset ID]``. Trench Crusade plays its two Pilgrim warbands; another ruleset its first two sample
warbands. Game ``i`` has its own seed derived from S; the agent under test takes side A in even games and
side B in odd ones, and each side plays each of the two sample warbands equally often. Draws count half.
Prints the score with its 95% Wilson interval, and the agent's cost: seconds per decision (every call of
``choose``) and per searched decision (more than one legal action).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warband.agents.base import Agent, make_agent
from warband.agents.play import play_out
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.rng import derive_seed
from warband.lab.stats import wilson_interval

#: The warbands of a Trench Crusade run (two lists of one faction, so the matchup itself is close).
WARBANDS = ("pilgrims_sacred_affliction.yaml", "pilgrims_iron_path.yaml")


def warbands(rs: Any) -> list[Path]:
    data = rs.data_dir() / "warbands"
    if rs.id == "trench-crusade":
        return [data / w for w in WARBANDS]
    return [Path(w["path"]) for w in rs.samples()["warbands"][:2]]


class Timed(Agent):
    """Wraps an agent, timing its choices."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.calls = 0
        self.searched = 0
        self.seconds = 0.0

    def choose(self, game: Game) -> Action:
        t0 = time.perf_counter()
        action = self.inner.choose(game)
        self.seconds += time.perf_counter() - t0
        self.calls += 1
        self.searched += len(game.legal_actions()) > 1
        return action


@dataclass
class Outcome:
    score: float
    calls: int
    searched: int
    seconds: float
    game_seconds: float


def sample_game(rs: Any, seed: int, swap: bool) -> Game:
    """A new unrecorded game of the run's two warbands (:func:`warbands`) on the default scenario; ``swap``: the
    second warband takes side A."""
    rosters: list[dict[str, Any]] = [rs.load_roster(w) for w in warbands(rs)]
    if swap:
        rosters.reverse()
    return Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), seed, record=False)


def play_one(args: tuple[int, int, str, str, str]) -> Outcome:
    base_seed, i, spec, opponent, ruleset_id = args
    seed = derive_seed(base_seed, i)
    side = i % 2
    tested = Timed(make_agent(spec, derive_seed(seed, 1)))
    other = make_agent(opponent, derive_seed(seed, 2))
    agents = [tested, other] if side == 0 else [other, tested]
    game = sample_game(registry.get(ruleset_id), seed, swap=i % 4 >= 2)
    t0 = time.perf_counter()
    winner = play_out(game, agents).winner
    score = 1.0 if winner == side else 0.5 if winner is None else 0.0
    return Outcome(score, tested.calls, tested.searched, tested.seconds, time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--spec", default="mcts", help="agent spec under test")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--ruleset", default="trench-crusade", help="ruleset id")
    args = ap.parse_args()
    tasks = [(args.seed, i, args.spec, args.opponent, args.ruleset) for i in range(args.games)]
    outcomes: list[Outcome] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for i, out in enumerate(pool.map(play_one, tasks)):
            outcomes.append(out)
            print(f"game {i}: side {'AB'[i % 2]} score {out.score:g} ({out.game_seconds:.1f}s)", flush=True)
    score = sum(o.score for o in outcomes)
    n = len(outcomes)
    # Wilson on whole wins: a draw counts as half, rounded down for the interval's successes
    lo, hi = wilson_interval(int(score), n)
    lo2, hi2 = wilson_interval(min(n, int(score + 0.5)), n)
    calls = sum(o.calls for o in outcomes)
    searched = sum(o.searched for o in outcomes)
    secs = sum(o.seconds for o in outcomes)
    print(
        f"{args.ruleset}: {args.spec} vs {args.opponent}: {score:g}/{n} = {100 * score / n:.1f}%  "
        f"95% CI [{100 * min(lo, lo2):.1f}%, {100 * max(hi, hi2):.1f}%]"
    )
    print(
        f"seconds per decision: {secs / max(calls, 1):.3f} (all {calls} calls), "
        f"{secs / max(searched, 1):.3f} per searched decision ({searched}); "
        f"wall {time.perf_counter() - t0:.0f}s"
    )


if __name__ == "__main__":
    main()
