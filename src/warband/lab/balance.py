"""What is each model type worth in the current meta? A points-exchange estimate from round-robin games.

Every pair of the given warbands plays ``games`` games (sides alternate). From each finished game
(:attr:`GameResult.models`) each model gets a **contribution** in points:

    contribution = kills × (average points of the enemy models taken out in that game)
                 + its own points if it was not taken out

i.e. the enemy points it removed plus the points of itself it kept. Kills are enemies only: a friend taken out by
a stray shot into a melee is counted apart (``ModelFate.friendly_kills``) and its points are no enemy's. Summed
over both sides this is (close to) all the points on the table, so the contributions share out each game's points
among the models that earned them. A type's **fair points** is its mean contribution per game, scaled so that all
models together are worth their listed total; a type whose fair points exceed its listed points did more than its
cost in these games (under-costed), one below did less (over-costed). The 95% interval is a percentile bootstrap
over games.

A game that raises (a rules or agent bug) does not stop the round robin: it is left out of every figure and
reported with its index, seed and the command that replays it alone (``crashes`` in the report), as in
``warband simulate``.

What it does not see: objectives held, support (a MEDIC, a LEADER's morale bonus), screening, synergy; and it
measures worth against *these* warbands played by *these* agents (the "meta"), not in general. The bootstrap
covers the sampling error of the games only.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warband.kernel import ruleset as registry
from warband.kernel.rng import derive_seed
from warband.lab.compare import score_interval
from warband.lab.records import SIDES, GameCrash, SimulationConfig
from warband.lab.simulate import SimulationError, check, crashed_record, play_one
from warband.workers import worker_pool

MARGIN = 0.05
"""A type is called under- or over-costed only when its whole interval is more than this fraction away from its
listed points (a 2% difference measured precisely is not worth a points change)."""

METHOD = (
    "fair points = mean per-game contribution (kills x average points of the enemy models taken out + "
    "own points if not taken out), scaled so all models together are worth their listed total; 95% "
    "interval: percentile bootstrap over games. Objectives, support and synergy are not credited; the "
    "estimate is relative to these warbands and agents."
)


@dataclass(frozen=True, slots=True)
class ModelLine:
    """One model in one finished game."""

    warband: int
    type: str
    points: float
    out: bool
    kills: int
    side: int
    friendly_fire: bool = False


@dataclass(frozen=True, slots=True)
class BalanceGame:
    """One round-robin game: which warbands played (``pair[0]`` is side a), who won, and every model's fate;
    or, with ``crash``, a game that raised (then it has no models and counts nowhere)."""

    pair: tuple[int, int]
    index: int
    winner: str | None
    models: tuple[ModelLine, ...]
    crash: GameCrash | None = None


def play_models(config: SimulationConfig, index: int, pair: tuple[int, int]) -> BalanceGame:
    """Game ``index`` of ``config`` (played by :func:`warband.lab.simulate.play_one`) with each model's fate;
    ``pair`` names the warbands of sides a and b. A game that raises comes back with its ``crash``."""
    try:
        record = play_one(config, index)
    except Exception as exc:  # a bug inside one game: report it and let the round robin go on
        record = crashed_record(config, index, exc)
    if record.crash is not None:
        return BalanceGame(pair, index, None, (), record.crash)
    lines = tuple(
        ModelLine(pair[m.side], m.type, m.points, m.out, m.kills, m.side, m.friendly_fire)
        for m in sorted(record.models, key=lambda m: m.id)
    )
    return BalanceGame(pair, index, record.winner, lines)


def contributions(game: BalanceGame) -> list[float]:
    """Each model's contribution in points (see the module docstring), in ``game.models`` order."""
    out_points = [0.0, 0.0]
    out_count = [0, 0]
    for m in game.models:
        if m.out and not m.friendly_fire:  # a friend's stray shot is no enemy's kill
            out_points[m.side] += m.points
            out_count[m.side] += 1
    avg_out = [out_points[s] / out_count[s] if out_count[s] else 0.0 for s in (0, 1)]
    return [m.kills * avg_out[1 - m.side] + (0 if m.out else m.points) for m in game.models]


@dataclass
class _Tally:
    listed: float = 0.0
    value: float = 0.0
    count: int = 0
    kills: int = 0
    survived: int = 0


def _tally(games: Sequence[BalanceGame]) -> tuple[dict[str, _Tally], float]:
    """Per-type sums over ``games`` and the scale that makes the total contribution equal the listed total."""
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    total_points = total_value = 0.0
    for game in games:
        for m, c in zip(game.models, contributions(game), strict=True):
            t = tallies[m.type]
            t.listed += m.points
            t.value += c
            t.count += 1
            t.kills += m.kills
            t.survived += not m.out
            total_points += m.points
            total_value += c
    return tallies, (total_points / total_value if total_value > 0 else 0.0)


def fair_points(games: Sequence[BalanceGame]) -> dict[str, float]:
    """Each type's fair points estimated from ``games``."""
    tallies, scale = _tally(games)
    return {name: scale * t.value / t.count for name, t in tallies.items()}


def bootstrap(games: Sequence[BalanceGame], rounds: int, seed: int) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of each type's fair points, resampling games with replacement."""
    rng = random.Random(seed)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        draw = [games[rng.randrange(len(games))] for _ in games]
        for name, value in fair_points(draw).items():
            samples[name].append(value)
    return {name: _percentiles(values) for name, values in samples.items()}


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    last = len(ordered) - 1
    return (ordered[round(0.025 * last)], ordered[round(0.975 * last)])


Progress = Callable[[int, int], None]


def _tasks(
    ruleset: str, warbands: Sequence[Path], scenario: Path | None, games: int, seed: int, agent: str
) -> Iterator[tuple[SimulationConfig, int, tuple[int, int]]]:
    pairs = list(itertools.combinations(range(len(warbands)), 2)) or [(0, 0)]
    for p, (i, j) in enumerate(pairs):
        config = SimulationConfig(
            ruleset, warbands[i], warbands[j], scenario, games, derive_seed(seed, p), agent, agent, swap_sides=True
        )
        for index in range(games):
            yield config, index, (i, j)


def run_balance(
    ruleset: str,
    warbands: Sequence[Path],
    games: int = 20,
    seed: int = 1,
    agent: str = "random",
    scenario: Path | None = None,
    workers: int = 1,
    rounds: int = 200,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play the round robin (``games`` per pair of warbands, one mirror match if only one is given) and return
    the JSON-able report: warband standings and every model type's listed and fair points."""
    if not warbands:
        raise SimulationError("give at least one warband file")
    if games < 1:
        raise SimulationError(f"--games must be at least 1, got {games}")
    tasks = list(_tasks(ruleset, warbands, scenario, games, seed, agent))
    for config, _, _ in tasks[::games]:  # one config per pair: every file and the agent checked before playing
        check(config, workers)
    played: list[BalanceGame] = []
    crashes: list[dict[str, Any]] = []
    done = 0
    with worker_pool(workers) if workers > 1 else _Inline() as pool:
        for (config, _, _), game in zip(tasks, pool.map(play_models, *zip(*tasks, strict=True)), strict=True):
            if game.crash is not None:
                crashes.append({"pair": list(game.pair), **game.crash.to_json(config)})
            else:
                played.append(game)
            done += 1
            if progress is not None:
                progress(done, len(tasks))
    return report(ruleset, warbands, played, seed, agent, rounds, crashes)


class _Inline:
    """A stand-in for an executor that maps in this process."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Callable[..., BalanceGame], *iterables: Any) -> Iterator[BalanceGame]:
        return map(fn, *iterables)


def report(
    ruleset: str,
    warbands: Sequence[Path],
    games: Sequence[BalanceGame],
    seed: int,
    agent: str,
    rounds: int,
    crashes: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The report of a finished round robin (types sorted from most under- to most over-costed); ``games`` are
    the finished ones, ``crashes`` the games that raised (each with its replay command)."""
    tallies, _ = _tally(games)
    fair = fair_points(games)
    intervals = bootstrap(games, rounds, seed) if rounds > 0 else {}
    names = [_name(ruleset, p) for p in warbands]
    owners: dict[str, set[int]] = defaultdict(set)
    for g in games:
        for m in g.models:
            owners[m.type].add(m.warband)
    types = [
        _type_line(name, t, fair[name], intervals.get(name), [names[w] for w in sorted(owners[name])], len(games))
        for name, t in tallies.items()
    ]
    types.sort(key=lambda line: -line["delta_pct"])
    return {
        "ruleset": ruleset,
        "agent": agent,
        "seed": seed,
        "games": len(games),
        "bootstrap": rounds,
        "method": METHOD,
        "warbands": _standings(names, warbands, games),
        "matchups": matchups(names, games),
        "types": types,
        "crashes": list(crashes),
    }


def _name(ruleset: str, path: Path) -> str:
    return str(registry.get(ruleset).load_roster(path).get("name") or path.stem)


def _type_line(
    name: str, t: _Tally, fair: float, ci: tuple[float, float] | None, owners: list[str], games: int
) -> dict[str, Any]:
    listed = t.listed / t.count
    low, high = ci if ci is not None else (fair, fair)
    verdict = (
        "under-costed"
        if low > listed * (1 + MARGIN)
        else "over-costed"
        if high < listed * (1 - MARGIN)
        else "within error"
    )
    return {
        "type": name,
        "warbands": owners,
        "appearances": t.count,
        "listed": listed,
        "fair": fair,
        "ci95": [low, high],
        "delta": fair - listed,
        "delta_pct": (fair - listed) / listed if listed else 0.0,
        "kills_per_game": t.kills / t.count,
        "survival": t.survived / t.count,
        "verdict": verdict,
    }


def _standings(names: list[str], paths: Sequence[Path], games: Sequence[BalanceGame]) -> list[dict[str, Any]]:
    score = [0.0] * len(names)
    wins = [0] * len(names)
    draws = [0] * len(names)
    played = [0] * len(names)
    for g in games:
        for side, w in enumerate(g.pair):
            played[w] += 1
            wins[w] += g.winner == SIDES[side]
            draws[w] += g.winner is None
    lines = []
    for w, name in enumerate(names):
        score[w] = wins[w] + draws[w] / 2
        low, high = score_interval(score[w], played[w])
        lines.append(
            {
                "name": name,
                "path": str(paths[w]),
                "games": played[w],
                "wins": wins[w],
                "draws": draws[w],
                "score_rate": score[w] / played[w] if played[w] else 0.0,
                "ci95": [low, high],
            }
        )
    return lines


def matchups(names: list[str], games: Sequence[BalanceGame]) -> list[dict[str, Any]]:
    """Each pair of warbands that met: the first one's wins, draws, losses and score rate with its 95% interval,
    and the warband the games favour (``None`` while the interval holds 50%)."""
    tally: dict[tuple[int, int], list[int]] = {}
    for g in games:
        counts = tally.setdefault(g.pair, [0, 0, 0])
        counts[0 if g.winner == "a" else 1 if g.winner is None else 2] += 1
    lines = []
    for (i, j), (wins, draws, losses) in sorted(tally.items()):
        n = wins + draws + losses
        low, high = score_interval(wins + draws / 2, n)
        favoured = names[i] if low > 0.5 else names[j] if high < 0.5 else None
        lines.append(
            {
                "first": names[i],
                "second": names[j],
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score_rate": (wins + draws / 2) / n,
                "ci95": [low, high],
                "favoured": favoured,
            }
        )
    return lines
