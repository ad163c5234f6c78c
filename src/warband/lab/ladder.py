"""An Elo ladder of agents measured as chess engines are (round robin, paired seeds, sides swapped), and its SPRT.

``warband ladder RULESET --agents SPEC SPEC ...`` runs it.

**The round robin.** Every pair of agents plays every pair of warbands (the ruleset's samples unless others are
given; one warband plays a mirror match), both ways round: agent x commands warband i against agent y on warband
j, then y commands i against x on j, with the *same* seeds (game k of both runs has the same dice stream), and
within each run the sides alternate who is seated first (odd games put warband j first). So neither a warband's
edge nor the first seat's nor the dice favour either agent. Each run is an ordinary lab run stored game by game
in the results database (:mod:`warband.lab.store`): the same command resumes where it stopped.

**The ratings.** The games' scores (win 1, draw 1/2) feed the Bradley-Terry fit of :mod:`warband.lab.elo`: Elo
with 95% intervals, ``random`` held at 0 when it plays (else the first agent).

With ``--mirror`` every warband plays only itself (both seats), so a gap in the warbands' strength cannot hide the
agents' difference.

**SPRT.** ``--sprt ELO0,ELO1 --against BASE`` plays the candidate against BASE in pairs of games (the two ways
round of one warband pair and seed), cycling through the warband pairs, and stops as soon as the pentanomial
GSPRT (:func:`warband.lab.elo.sprt_state`) crosses a bound at alpha = beta = 0.05.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from warband.agents.base import make_agent
from warband.kernel import ruleset as registry
from warband.kernel.errors import WarbandError
from warband.kernel.rng import check_seed, derive_seed
from warband.lab.backends import Backend, LocalBackend
from warband.lab.elo import PENTANOMIAL, Rating, Result, SprtState, fit_bradley_terry, pair_outcome, sprt_state
from warband.lab.records import GameCrash, GameRecord, SimulationConfig
from warband.lab.simulate import SimulationResult, simulate
from warband.lab.store import Store

ANCHOR = "random"
"""The agent whose Elo is fixed at 0 when it plays."""

PRIOR_DRAWS = 1.0
"""Virtual draws added to every pair of agents that met (keeps a clean sweep's rating finite)."""


class LadderError(WarbandError):
    """A ladder that cannot run as asked (fewer than two agents, no warbands, bad SPRT bounds)."""


@dataclass(frozen=True, slots=True)
class LadderConfig:
    """What decides a ladder's games."""

    ruleset: str
    agents: tuple[str, ...]
    warbands: tuple[Path, ...]
    games_per_pair: int = 2
    """Games of each run: each pair of agents plays ``2 * games_per_pair`` games on each pair of warbands."""
    seed: int = 1
    scenario: Path | None = None
    mirror: bool = False
    """Each warband plays itself instead of the others: the warbands' own strength then cannot decide a game,
    so the agents' difference shows in fewer games (the chess habit of balanced openings)."""

    def warband_pairs(self) -> list[tuple[int, int]]:
        """The (first, second) warband indices of the runs: every two different warbands (one alone plays a
        mirror match), or with ``mirror`` every warband against itself."""
        if self.mirror:
            return [(i, i) for i in range(len(self.warbands))]
        return list(itertools.combinations(range(len(self.warbands)), 2)) or [(0, 0)]

    def run(self, x: str, y: str, pair: int, games: int | None = None) -> SimulationConfig:
        """Agent ``x`` on the first warband of warband pair ``pair`` against ``y`` on the second: the seed
        depends on the warband pair only, so the run with x and y exchanged plays the same dice."""
        i, j = self.warband_pairs()[pair]
        return SimulationConfig(
            self.ruleset,
            self.warbands[i],
            self.warbands[j],
            self.scenario,
            self.games_per_pair if games is None else games,
            derive_seed(self.seed, pair),
            x,
            y,
            swap_sides=True,
        )


def sample_warbands(ruleset: str) -> tuple[Path, ...]:
    """The ruleset's bundled warband files."""
    return tuple(Path(item["path"]) for item in registry.get(ruleset).samples()["warbands"])


def check_ladder(config: LadderConfig) -> None:
    """Refuse before any game: fewer than two different agents, an agent that does not load, no warband, a
    number of games below 1, a bad seed."""
    if len(config.agents) < 2:
        raise LadderError(f"--agents: a ladder needs at least two agents, got {len(config.agents)}")
    if len(set(config.agents)) != len(config.agents):
        raise LadderError(f"--agents: each agent once, got {' '.join(config.agents)}")
    if not config.warbands:
        raise LadderError(f"{config.ruleset} has no sample warbands: give some with --warbands")
    if config.games_per_pair < 1:
        raise LadderError(f"--games-per-pair must be at least 1, got {config.games_per_pair}")
    check_seed(config.seed)
    for spec in config.agents:
        try:
            make_agent(spec, 0)
        except WarbandError as exc:
            raise type(exc)(f"--agents: {exc}") from None


def score_of(record: GameRecord, side: str) -> float:
    """The points of ``side`` (a or b) in a finished game: win 1, draw 1/2, loss 0."""
    return 0.5 if record.winner is None else float(record.winner == side)


@dataclass(slots=True)
class Tally:
    """Agent ``x``'s wins, draws and losses against agent ``y``."""

    x: int
    y: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    def add(self, points: float) -> None:
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1


@dataclass(frozen=True, slots=True)
class LadderResult:
    """The games of a ladder and the ratings they give."""

    config: LadderConfig
    anchor: int
    ratings: list[Rating]
    tallies: list[Tally]
    games: int
    resumed: int
    elapsed_s: float
    crashes: list[dict[str, Any]] = field(default_factory=list)
    runs: list[int] = field(default_factory=list)

    def order(self) -> list[int]:
        """Agent indices from the strongest down."""
        return sorted(range(len(self.config.agents)), key=lambda i: -self.ratings[i].elo)

    def summary(self) -> dict[str, Any]:
        c = self.config
        return {
            "ruleset": c.ruleset,
            "seed": c.seed,
            "games_per_pair": c.games_per_pair,
            "warbands": [str(p) for p in c.warbands],
            "anchor": c.agents[self.anchor],
            "prior_draws": PRIOR_DRAWS,
            "games": self.games,
            "games_resumed": self.resumed,
            "elapsed_s": self.elapsed_s,
            "agents": [
                {
                    "agent": c.agents[i],
                    "elo": self.ratings[i].elo,
                    "ci95": [self.ratings[i].low, self.ratings[i].high],
                    "games": self.ratings[i].games,
                    "score_rate": self.ratings[i].score / self.ratings[i].games if self.ratings[i].games else 0.0,
                }
                for i in self.order()
            ],
            "pairs": [
                {
                    "agent": c.agents[t.x],
                    "opponent": c.agents[t.y],
                    "wins": t.wins,
                    "draws": t.draws,
                    "losses": t.losses,
                    "seconds_per_game": t.seconds / t.games if t.games else 0.0,
                }
                for t in self.tallies
            ],
            "runs": self.runs,
            "crashes": self.crashes,
        }


Progress = Callable[[int, int], None]
"""Called after each game with (games done, games in the ladder)."""


def _crash_lines(result: SimulationResult, arm: str) -> list[dict[str, Any]]:
    return [{"arm": arm, **c.to_json(result.config)} for c in result.crashes]


def run_ladder(
    config: LadderConfig,
    store: Store,
    workers: int = 1,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> LadderResult:
    """Play (or read back from ``store``) every game of the round robin and fit the ratings."""
    check_ladder(config)
    backend = backend if backend is not None else LocalBackend(workers)
    agents = config.agents
    pairs = list(itertools.combinations(range(len(agents)), 2))
    total = len(pairs) * len(config.warband_pairs()) * 2 * config.games_per_pair
    start = time.perf_counter()
    tallies = [Tally(x, y) for x, y in pairs]
    done = resumed = 0
    crashes: list[dict[str, Any]] = []
    run_ids: list[int] = []
    for tally in tallies:
        for p in range(len(config.warband_pairs())):
            for first, second in ((tally.x, tally.y), (tally.y, tally.x)):
                before = done

                def hook(count: int, games: int, record: GameRecord, before: int = before) -> None:
                    if progress is not None:
                        progress(before + count, total)

                result = simulate(config.run(agents[first], agents[second], p), hook, store=store, backend=backend)
                done = before + config.games_per_pair
                resumed += result.summary()["games_resumed"]
                if result.run_id is not None:
                    run_ids.append(result.run_id)
                crashes += _crash_lines(result, f"{agents[first]} vs {agents[second]}")
                for record in result.records:
                    points = score_of(record, "a")
                    tally.add(points if first == tally.x else 1.0 - points)
                    tally.seconds += record.elapsed_s
    anchor = agents.index(ANCHOR) if ANCHOR in agents else 0
    results = [Result(t.x, t.y, t.score, t.games) for t in tallies]
    ratings = fit_bradley_terry(len(agents), results, anchor, PRIOR_DRAWS)
    return LadderResult(
        config, anchor, ratings, tallies, done, resumed, time.perf_counter() - start, crashes, sorted(set(run_ids))
    )


# --- SPRT -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SprtResult:
    """Where an SPRT of ``candidate`` against ``baseline`` stopped."""

    ruleset: str
    candidate: str
    baseline: str
    elo0: float
    elo1: float
    state: SprtState
    pairs: list[int]
    """Pentanomial counts: pairs of games in which the candidate scored 0, 1/2, 1, 3/2 and 2 points."""
    tally: Tally
    resumed: int
    max_games: int
    crashes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.tally.games

    def verdict_text(self) -> str:
        if self.state.verdict == "H1":
            gap = f"by {self.elo1:g} Elo, not {self.elo0:g}"
            return f"H1 accepted: {self.candidate} is stronger than {self.baseline} ({gap})"
        if self.state.verdict == "H0":
            return f"H0 accepted: {self.candidate} is not {self.elo1:g} Elo stronger than {self.baseline}"
        return f"no verdict after {self.games} games (the --max-games limit): the gap lies between the hypotheses"

    def summary(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "candidate": self.candidate,
            "baseline": self.baseline,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "llr": self.state.llr,
            "bounds": [self.state.lower, self.state.upper],
            "verdict": self.state.verdict,
            "verdict_text": self.verdict_text(),
            "games": self.games,
            "wins": self.tally.wins,
            "draws": self.tally.draws,
            "losses": self.tally.losses,
            "pentanomial": self.pairs,
            "games_resumed": self.resumed,
            "max_games": self.max_games,
            "crashes": self.crashes,
        }


def parse_bounds(text: str) -> tuple[float, float]:
    """``"0,50"`` -> (0.0, 50.0); ELO0 must be below ELO1."""
    parts = text.split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise LadderError(f"--sprt takes ELO0,ELO1 (two numbers, e.g. 0,50), got {text!r}") from None
    if not elo0 < elo1:
        raise LadderError(f"--sprt {text}: ELO0 must be below ELO1 (H0: gap ELO0, H1: gap ELO1)")
    return elo0, elo1


def _one_game(config: SimulationConfig, store: Store, index: int) -> tuple[GameRecord | None, GameCrash | None, bool]:
    """Game ``index`` of ``config`` (played now, or read back from ``store``), whether it was stored already."""
    result = simulate(replace(config, games=index + 1), store=store)
    record = next((r for r in result.records if r.index == index), None)
    crash = next((c for c in result.crashes if c.index == index), None)
    return record, crash, result.games_played == 0


def run_sprt(
    config: LadderConfig,
    baseline: str,
    elo0: float,
    elo1: float,
    store: Store,
    max_games: int = 2000,
    progress: Progress | None = None,
) -> SprtResult:
    """Play pairs of games of ``config.agents[0]`` (the candidate) against ``baseline`` until the GSPRT
    decides (or ``max_games`` are played), cycling through the warband pairs."""
    candidate = config.agents[0]
    check_ladder(replace(config, agents=(candidate, baseline)))
    counts = [0] * len(PENTANOMIAL)
    tally = Tally(0, 1)
    resumed = 0
    crashes: list[dict[str, Any]] = []
    state = sprt_state(counts, elo0, elo1)
    for index in itertools.count():
        for p in range(len(config.warband_pairs())):
            points = []
            for first, second in ((candidate, baseline), (baseline, candidate)):
                run = config.run(first, second, p)
                record, crash, stored = _one_game(run, store, index)
                resumed += stored
                if crash is not None:
                    crashes.append({"arm": f"{first} vs {second}", **crash.to_json(run)})
                if record is not None:
                    won = score_of(record, "a")
                    points.append(won if first == candidate else 1.0 - won)
                    tally.add(points[-1])
            if len(points) == 2:
                counts[pair_outcome(points[0], points[1])] += 1
                state = sprt_state(counts, elo0, elo1)
            if progress is not None:
                progress(tally.games, max_games)
            if state.verdict is not None or tally.games >= max_games:
                return SprtResult(
                    config.ruleset, candidate, baseline, elo0, elo1, state, counts, tally, resumed, max_games, crashes
                )
    raise AssertionError("unreachable")  # pragma: no cover
