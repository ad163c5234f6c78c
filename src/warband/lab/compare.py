"""Does a rule change move the balance? The same match-up under the default rules and under variants.

Design (what ``warband compare`` prints, and why it is valid):

* **Common random numbers.** Game ``i`` of every arm (the baseline and each variant) is played with the same
  game seed, so the same dice stream and agent seeds: a rule that never comes into play gives identical games,
  and the comparison is *paired* by seed. The per-game outcome is A's score (win 1, draw ½, loss 0) and the
  effect of a variant is the mean paired difference ``d̄ = mean(variant_i − baseline_i)``, which equals the
  difference of A's two win rates over those games.
* **Group-sequential test.** Games are played in batches (looks at ``n_k = batch, 2·batch, … , max``). At
  each look the paired z statistic ``z = d̄ / (s_d / √n)`` is compared with a two-sided boundary ``c_k``
  computed exactly (by numerical integration, Armitage–McPherson–Rowe) so that the chance of crossing *any*
  boundary under "no change" is ``alpha``: O'Brien–Fleming (``c_k = C / √t_k``, very strict early, close to
  the fixed-sample value at the end) or Pocock (``c_k = C``). A variant stops as soon as it crosses; one that
  never crosses is reported as "no significant change" after the maximum number of games. There is no early
  stop for "no change" (a null variant always runs to the maximum).
* **p-value and interval.** The p-value is the stage-wise ordering p-value of the sequential design (the
  chance under "no change" of stopping earlier, or at the same look with a larger ``|z|``); it is below
  ``alpha`` exactly when a boundary was crossed. The interval for the change is the repeated confidence
  interval ``d̄ ± c_k · s_d / √n`` (Jennison & Turnbull), whose coverage of ``1 − alpha`` holds whatever the
  stopping rule. Both use the normal approximation with the variance estimated from the pairs.
* Each variant is tested against the baseline at level ``alpha``; with several variants the family-wise error
  is up to ``k · alpha`` (pass ``--alpha 0.05/k`` for a Bonferroni bound).
* A game that raises (a rules or agent bug) does not stop the comparison: it is reported with its arm, index,
  seed and the command that replays it alone (``summary["crashes"]``), and its seed is left out of the pairs of
  that arm (a pair needs both games finished), as in ``warband simulate``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Literal

import numpy as np

from warband.kernel import ruleset as registry
from warband.kernel.errors import ParameterError, WarbandError
from warband.lab.records import GameCrash, GameRecord, SimulationConfig
from warband.lab.simulate import check, crashed_record, play_one
from warband.workers import worker_pool

Boundary = Literal["obf", "pocock"]
BOUNDARY_NAMES: dict[str, str] = {"obf": "O'Brien–Fleming", "pocock": "Pocock"}
_N01 = NormalDist()
_GRID = 401  # points per stage in the numerical integration (odd, for Simpson's rule)


class CompareError(WarbandError):
    """A comparison that cannot run as configured (no variant, a bad batch size or alpha)."""


# ----------------------------------------------------------------------------------------- sequential maths
def _phi(x: np.ndarray) -> np.ndarray:
    """The standard normal CDF, element-wise (numpy has no erf; ``math.erfc`` per element is exact enough)."""
    erfc = np.frompyfunc(math.erfc, 1, 1)
    return np.asarray(0.5 * erfc(-x / math.sqrt(2.0)), dtype=float)


def _simpson_weights(m: int, width: float) -> np.ndarray:
    w = np.ones(m)
    w[1:-1:2] = 4.0
    w[2:-1:2] = 2.0
    return w * (width / (m - 1) / 3.0)


def _check_looks(fractions: Sequence[float], bounds: Sequence[float]) -> None:
    if not fractions or len(fractions) != len(bounds):
        raise ValueError("need one boundary per look and at least one look")
    if any(b <= a for a, b in itertools.pairwise(fractions)) or not 0 < fractions[0] <= 1:
        raise ValueError(f"information fractions must increase within (0, 1], got {list(fractions)}")


def _stages(fractions: Sequence[float], bounds: Sequence[float]) -> Iterator[tuple[float, np.ndarray, np.ndarray]]:
    """Walk the looks under "no change": yield, per look, (its variance step, the grid of the score
    ``W = z·√t`` at the previous look inside the continuation region, the density there times the integration
    weights). The first look's previous score is the point 0."""
    grid, weights = np.zeros(1), np.ones(1)
    previous = 0.0
    for t, c in zip(fractions, bounds, strict=True):
        step = t - previous
        yield step, grid, weights
        b = c * math.sqrt(t) if math.isfinite(c) else 12.0 * math.sqrt(t)
        new = np.linspace(-b, b, _GRID)
        sd = math.sqrt(step)
        kernel = np.exp(-0.5 * ((new[:, None] - grid[None, :]) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
        density = kernel @ weights
        grid, weights, previous = new, density * _simpson_weights(_GRID, 2 * b), t


def _tail(grid: np.ndarray, weights: np.ndarray, step: float, level: float) -> float:
    """P(|W_prev + N(0, step)| >= level), integrated over the previous continuation density."""
    sd = math.sqrt(step)
    upper = 1.0 - _phi((level - grid) / sd)
    lower = _phi((-level - grid) / sd)
    return float(np.sum(weights * (upper + lower)))


def crossing_probabilities(fractions: Sequence[float], bounds: Sequence[float]) -> list[float]:
    """Under "no change", the probability that the first boundary crossed is that of look ``k``, for each
    look (two-sided: ``|z_k| >= bounds[k]`` with ``z_k`` the standardised statistic at information fraction
    ``fractions[k]``)."""
    _check_looks(fractions, bounds)
    return [
        _tail(grid, weights, step, c * math.sqrt(t))
        for (step, grid, weights), t, c in zip(_stages(fractions, bounds), fractions, bounds, strict=True)
    ]


def group_sequential_bounds(fractions: Sequence[float], alpha: float = 0.05, kind: Boundary = "obf") -> list[float]:
    """Two-sided z boundaries for looks at ``fractions`` of the maximum information, with overall type I error
    ``alpha``: O'Brien–Fleming ``C/√t_k`` or Pocock ``C``, the constant ``C`` found by bisection."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if kind not in BOUNDARY_NAMES:
        raise ValueError(f"unknown boundary {kind!r}; known: {', '.join(BOUNDARY_NAMES)}")

    def shape(constant: float) -> list[float]:
        return [constant / math.sqrt(t) if kind == "obf" else constant for t in fractions]

    low, high = _N01.inv_cdf(1 - alpha / 2) * 0.5, 10.0
    for _ in range(60):
        mid = (low + high) / 2
        if sum(crossing_probabilities(fractions, shape(mid))) > alpha:
            low = mid
        else:
            high = mid
    return shape(high)


def stagewise_p_value(fractions: Sequence[float], bounds: Sequence[float], look: int, z: float) -> float:
    """The stage-wise ordering p-value of a sequential test that ended at ``look`` (0-based) with statistic
    ``z``: P(cross at an earlier look) + P(reach ``look`` and ``|z_look| >= |z|``) under "no change"."""
    fr, bd = list(fractions[: look + 1]), list(bounds[: look + 1])
    _check_looks(fr, bd)
    earlier = sum(crossing_probabilities(fr[:-1], bd[:-1])) if look > 0 else 0.0
    *_, (step, grid, weights) = _stages(fr, bd)
    level = abs(z) * math.sqrt(fr[-1]) if math.isfinite(z) else math.inf
    last = 0.0 if math.isinf(level) else _tail(grid, weights, step, level)
    return min(1.0, earlier + last)


def looks(max_games: int, batch: int) -> list[int]:
    """Numbers of games at each look: every ``batch`` games, and the maximum."""
    if max_games < 1 or batch < 1:
        raise CompareError(f"--games and --batch must be at least 1, got {max_games} and {batch}")
    return [*range(batch, max_games, batch), max_games]


@dataclass(frozen=True, slots=True)
class Plan:
    """A group-sequential design: the looks, their information fractions and two-sided z boundaries."""

    max_games: int
    batch: int
    alpha: float
    kind: Boundary
    looks: tuple[int, ...]
    bounds: tuple[float, ...]

    @classmethod
    def make(cls, max_games: int, batch: int = 20, alpha: float = 0.05, kind: Boundary = "obf") -> Plan:
        if not 0 < alpha < 1:
            raise CompareError(f"--alpha must be in (0, 1), got {alpha}")
        ns = looks(max_games, batch)
        bounds = group_sequential_bounds([n / max_games for n in ns], alpha, kind)
        return cls(max_games, batch, alpha, kind, tuple(ns), tuple(bounds))

    @property
    def fractions(self) -> list[float]:
        return [n / self.max_games for n in self.looks]

    def p_value(self, look: int, z: float) -> float:
        return stagewise_p_value(self.fractions, self.bounds, look, z)


# ---------------------------------------------------------------------------------------- paired outcomes
def a_score(record: GameRecord) -> float:
    """Side A's result of one game: 1 for a win, ½ for a draw, 0 for a loss."""
    return 1.0 if record.winner == "a" else 0.5 if record.winner is None else 0.0


def score_interval(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a rate whose count may hold halves (draws count ½); with whole counts it
    is :func:`warband.lab.stats.wilson_interval`."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Paired:
    """The paired differences of A's score (variant − baseline) over the first ``n`` seeds."""

    n: int
    mean: float
    se: float
    discordant: int

    @classmethod
    def of(cls, base: Sequence[float], variant: Sequence[float]) -> Paired:
        diffs = [v - b for b, v in zip(base, variant, strict=True)]
        n = len(diffs)
        if n == 0:  # every game of the arm crashed: no evidence either way
            return cls(0, 0.0, 0.0, 0)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return cls(n, mean, math.sqrt(var / n), sum(1 for d in diffs if d != 0))

    @property
    def z(self) -> float:
        """``d̄ / se``; with no spread at all, 0 when nothing changed and ±inf when every game moved alike."""
        if self.se > 0:
            return self.mean / self.se
        return 0.0 if self.mean == 0 else math.copysign(math.inf, self.mean)


# --------------------------------------------------------------------------------------------- the runs
@dataclass(frozen=True, slots=True)
class Variant:
    """A named set of parameter overrides."""

    label: str
    params: dict[str, object]


def parse_variant(text: str) -> Variant:
    """``name=value[,name=value]`` -> a Variant (syntax only; :func:`check_variants` validates names)."""
    params: dict[str, object] = {}
    for item in text.split(","):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParameterError(f"--variant expects name=value[,name=value], found {text!r}")
        params[name.strip()] = value.strip()
    return Variant(",".join(f"{k}={v}" for k, v in params.items()), params)


def check_variants(ruleset: str, variants: Sequence[Variant]) -> None:
    """Every variant names known parameters with values of the right type (ParameterError names the bad one)."""
    if not variants:
        raise CompareError("give at least one --variant name=value")
    params = registry.get(ruleset).params
    for v in variants:
        try:
            params.resolve(v.params)
        except ParameterError as exc:
            raise ParameterError(f"--variant {v.label!r}: {exc}") from None


@dataclass
class Arm:
    """One arm of the comparison: its config, the records of its finished games so far (index order) and the
    games that crashed."""

    label: str
    config: SimulationConfig
    records: list[GameRecord] = field(default_factory=list)
    decided: dict[str, Any] | None = None
    crashes: list[GameCrash] = field(default_factory=list)

    def add(self, record: GameRecord) -> None:
        if record.crash is not None:
            self.crashes.append(record.crash)
        else:
            self.records.append(record)


def paired_scores(baseline: Arm, arm: Arm) -> tuple[list[float], list[float]]:
    """A's scores in the games (by seed index) that both the baseline and ``arm`` finished, in index order."""
    base = {r.index: a_score(r) for r in baseline.records}
    pairs = [(base[r.index], a_score(r)) for r in arm.records if r.index in base]
    return [b for b, _ in pairs], [v for _, v in pairs]


Progress = Callable[[int, int], None]
"""Called after each game with (games done, maximum games of the run)."""


@dataclass(frozen=True, slots=True)
class CompareResult:
    """Everything ``warband compare`` reports, as one JSON-able ``summary``."""

    summary: dict[str, Any]


def play_guarded(config: SimulationConfig, index: int) -> GameRecord:
    """Game ``index`` of an arm (this module's :func:`play_one`); an exception inside it comes back as a record
    whose ``crash`` names it (see :func:`warband.lab.simulate.crashed_record`)."""
    try:
        return play_one(config, index)
    except Exception as exc:  # a bug inside one game: report it and let the comparison go on
        return crashed_record(config, index, exc)


def _serial_map(tasks: list[tuple[SimulationConfig, int]]) -> Iterator[GameRecord]:
    for config, index in tasks:
        yield play_guarded(config, index)


@contextmanager
def _runner(workers: int) -> Iterator[Callable[[list[tuple[SimulationConfig, int]]], Iterable[GameRecord]]]:
    if workers == 1:
        yield _serial_map
        return
    pool: Executor
    with worker_pool(workers) as pool:

        def run(tasks: list[tuple[SimulationConfig, int]]) -> Iterable[GameRecord]:
            return pool.map(play_guarded, [c for c, _ in tasks], [i for _, i in tasks])

        yield run


def compare(
    base: SimulationConfig, variants: Sequence[Variant], plan: Plan, workers: int = 1, progress: Progress | None = None
) -> CompareResult:
    """Play the baseline (``base`` with default rules) and each variant with the same game seeds, look after
    each batch, stop a variant once it crosses its boundary, and stop when every variant has stopped or the
    maximum is reached. ``base.games`` is ignored in favour of ``plan.max_games``."""
    base = dataclasses.replace(base, games=plan.max_games, params={}, log_dir=None)
    check(base, workers)
    check_variants(base.ruleset, variants)
    baseline = Arm("baseline", base)
    arms = [Arm(v.label, dataclasses.replace(base, params=dict(v.params))) for v in variants]
    total = plan.max_games * (1 + len(arms))
    done = 0
    with _runner(workers) as run:
        start = 0
        for look, n in enumerate(plan.looks):
            live = [baseline, *(a for a in arms if a.decided is None)]
            tasks = [(arm.config, i) for arm in live for i in range(start, n)]
            for (config, _), record in zip(tasks, run(tasks), strict=True):
                next(a for a in live if a.config is config).add(record)
                done += 1
                if progress is not None:
                    progress(done, total)
            for arm in live[1:]:
                _look(arm, baseline, plan, look, final=n == plan.max_games)
            start = n
            if all(a.decided is not None for a in arms):
                break
    return CompareResult(_summary(base, baseline, arms, plan))


def _look(arm: Arm, baseline: Arm, plan: Plan, look: int, final: bool) -> None:
    n = plan.looks[look]
    paired = Paired.of(*paired_scores(baseline, arm))
    bound = plan.bounds[look]
    if abs(paired.z) >= bound or final:
        half = bound * paired.se
        arm.decided = {
            "games": n,
            "look": look + 1,
            "stopped_early": n < plan.max_games,
            "significant": abs(paired.z) >= bound,
            "z": paired.z if math.isfinite(paired.z) else None,
            "boundary": bound,
            "p_value": plan.p_value(look, paired.z),
            "change": paired.mean,
            "ci": [paired.mean - half, paired.mean + half],
            "changed_games": paired.discordant,
            "paired_games": paired.n,
        }


def _arm_line(arm: Arm) -> dict[str, Any]:
    """One arm's line: its finished games, A's wins and score rate, and how many of its games crashed."""
    records = arm.records
    n = len(records)
    score = sum(a_score(r) for r in records)
    wins = sum(1 for r in records if r.winner == "a")
    draws = sum(1 for r in records if r.winner is None)
    low, high = score_interval(score, n)
    return {
        "label": arm.label,
        "params": {k: str(v) for k, v in arm.config.params.items()},
        "games": n,
        "a_wins": wins,
        "draws": draws,
        "b_wins": n - wins - draws,
        "a_rate": score / n if n else 0.0,
        "ci95": [low, high],
        "crashed": len(arm.crashes),
    }


def verdict(decided: Mapping[str, Any], plan: Plan) -> str:
    """The one-line answer for a variant, e.g. "stopped after 60 of 200 games: significant at alpha=0.05
    (O'Brien–Fleming boundary)"."""
    name = BOUNDARY_NAMES[plan.kind]
    if decided["significant"]:
        when = (
            f"stopped after {decided['games']} of {plan.max_games} games"
            if decided["stopped_early"]
            else f"after all {plan.max_games} games"
        )
        return f"{when}: significant at alpha={plan.alpha:g} ({name} boundary |z| ≥ {decided['boundary']:.2f})"
    return (
        f"no significant change after {decided['games']} games (alpha={plan.alpha:g}, {name} boundary "
        f"|z| ≥ {decided['boundary']:.2f})"
    )


def _summary(base: SimulationConfig, baseline: Arm, arms: list[Arm], plan: Plan) -> dict[str, Any]:
    docs_names = [str(base.roster_a), str(base.roster_b)]
    variants = []
    for arm in arms:
        assert arm.decided is not None
        line = _arm_line(arm)
        line.update(arm.decided, verdict=verdict(arm.decided, plan))
        variants.append(line)
    return {
        "ruleset": base.ruleset,
        "seed": base.seed,
        "rosters": {"a": docs_names[0], "b": docs_names[1]},
        "scenario": None if base.scenario is None else str(base.scenario),
        "agents": {"a": base.agent_a, "b": base.agent_b},
        "design": {
            "max_games": plan.max_games,
            "batch": plan.batch,
            "alpha": plan.alpha,
            "boundary": BOUNDARY_NAMES[plan.kind],
            "looks": list(plan.looks),
            "bounds": list(plan.bounds),
            "outcome": "A's score per game: win 1, draw 1/2, loss 0",
            "pairing": "game i of every arm uses the same seed",
        },
        "baseline": _arm_line(baseline),
        "variants": variants,
        "games_played": sum(len(a.records) + len(a.crashes) for a in (baseline, *arms)),
        "crashes": [{"arm": a.label, **c.to_json(a.config)} for a in (baseline, *arms) for c in a.crashes],
    }
