"""An evaluation learned from games (Texel-style tuning): sample positions from seeded self-play, describe each
for the side about to choose with the ruleset's named features (``Ruleset.features``), and fit a logistic
regression of the game's final outcome for that side (win 1, draw 1/2, loss 0) on them.

The fit is Newton's method (iteratively reweighted least squares) with an L2 penalty on the weights (not the
intercept), in pure Python with a Gauss-Jordan solve, so that a seeded refit gives the same numbers on every
machine. Games are split before fitting: the last ``holdout`` fraction of the games (not of the positions, which
are correlated within a game) is kept aside, and the report compares the fitted model's log-loss and accuracy
on it with the constant model (the training mean outcome).

``warband fit-eval RULESET`` runs :func:`fit_ruleset` and writes ``rulesets/<r>/data/evaluation.json``, which
:meth:`~warband.kernel.ruleset.Ruleset.learned_evaluation` reads.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warband.agents.base import make_agent
from warband.agents.play import play
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.errors import WarbandError
from warband.kernel.learned import EVALUATION_FILE, EVALUATION_FORMAT
from warband.kernel.rng import Rng, derive_seed

__all__ = [
    "Fit",
    "FitError",
    "Sample",
    "SelfPlay",
    "fit_logistic",
    "fit_ruleset",
    "log_loss",
    "sample_positions",
]

#: Default L2 penalty (on the sum of the log-likelihood over positions).
DEFAULT_L2 = 1.0
#: Default share of the games held out to judge the fit.
DEFAULT_HOLDOUT = 0.2
#: Default chance that a choice decision is sampled.
DEFAULT_RATE = 0.25
#: Steps after which a self-play game counts as unfinished and is dropped.
MAX_GAME_STEPS = 20_000


class FitError(WarbandError):
    """A fit that cannot run as asked (no positions, no sample warbands, a bad option)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One sampled position: the game it came from, its features for the side to choose, and that side's
    outcome (1 win, 0.5 draw, 0 loss)."""

    game: int
    features: tuple[float, ...]
    outcome: float


@dataclass(slots=True)
class Fit:
    """Fitted weights and how well they predict held-out games."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    train: int
    test: int
    iterations: int
    test_log_loss: float
    constant_log_loss: float
    test_accuracy: float
    constant_accuracy: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": EVALUATION_FORMAT,
            "features": list(self.names),
            "weights": [round(w, 6) for w in self.weights],
            "intercept": round(self.intercept, 6),
            "positions": {"train": self.train, "test": self.test},
            "held_out": {
                "log_loss": round(self.test_log_loss, 6),
                "constant_log_loss": round(self.constant_log_loss, 6),
                "accuracy": round(self.test_accuracy, 6),
                "constant_accuracy": round(self.constant_accuracy, 6),
            },
            "newton_iterations": self.iterations,
            **self.extra,
        }


# ------------------------------------------------------------------------------------------- the statistics
def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gauss-Jordan elimination with partial pivoting (``a`` is positive definite here)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        if abs(p) < 1e-300:
            raise FitError("the fit's Hessian is singular (a feature is constant or a copy of another)")
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / p
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_logistic(
    xs: Sequence[Sequence[float]], ys: Sequence[float], l2: float = DEFAULT_L2, max_iter: int = 50, tol: float = 1e-10
) -> tuple[list[float], float, int]:
    """Maximise ``sum y log p + (1 - y) log (1 - p) - l2/2 |w|^2`` with ``p = sigmoid(b + w.x)`` by Newton's
    method; outcomes may be fractional (a draw is 1/2). Returns (weights, intercept, iterations)."""
    if not xs:
        raise FitError("no positions to fit")
    k = len(xs[0])
    beta = [0.0] * (k + 1)  # intercept first
    rows = [(1.0, *x) for x in xs]
    for it in range(1, max_iter + 1):
        grad = [0.0] * (k + 1)
        hess = [[0.0] * (k + 1) for _ in range(k + 1)]
        for row, y in zip(rows, ys, strict=True):
            p = _sigmoid(sum(b * v for b, v in zip(beta, row, strict=True)))
            r = y - p
            w = p * (1.0 - p)
            for i, vi in enumerate(row):
                grad[i] += r * vi
                if vi != 0.0:
                    wi = w * vi
                    hi = hess[i]
                    for j in range(i, k + 1):
                        hi[j] += wi * row[j]
        for i in range(1, k + 1):
            grad[i] -= l2 * beta[i]
            hess[i][i] += l2
        for i in range(k + 1):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < tol:
            return beta[1:], beta[0], it
    return beta[1:], beta[0], max_iter


def log_loss(ps: Sequence[float], ys: Sequence[float]) -> float:
    """Mean cross-entropy of predictions ``ps`` for (possibly fractional) outcomes ``ys``."""
    total = 0.0
    for p, y in zip(ps, ys, strict=True):
        p = min(max(p, 1e-12), 1.0 - 1e-12)
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / max(1, len(ys))


def _accuracy(ps: Sequence[float], ys: Sequence[float]) -> float:
    """Share of decided positions (outcome not a draw) whose winner the prediction names (p > 1/2 for a win)."""
    decided = [(p, y) for p, y in zip(ps, ys, strict=True) if y != 0.5]
    if not decided:
        return 0.0
    return sum(1 for p, y in decided if (p > 0.5) == (y > 0.5)) / len(decided)


def fit_samples(
    names: Sequence[str], samples: Sequence[Sample], holdout: float = DEFAULT_HOLDOUT, l2: float = DEFAULT_L2
) -> Fit:
    """Fit on the games before the held-out share and judge the weights on the rest."""
    if not samples:
        raise FitError("no positions were sampled (games too short, or the sampling rate too low)")
    games = sorted({s.game for s in samples})
    cut = games[len(games) - max(1, round(len(games) * holdout))] if holdout > 0 and len(games) > 1 else None
    train = [s for s in samples if cut is None or s.game < cut]
    test = [s for s in samples if cut is not None and s.game >= cut] or train
    weights, intercept, iterations = fit_logistic([s.features for s in train], [s.outcome for s in train], l2)
    ys = [s.outcome for s in test]
    ps = [_sigmoid(intercept + sum(w * v for w, v in zip(weights, s.features, strict=True))) for s in test]
    mean = sum(s.outcome for s in train) / len(train)
    return Fit(
        tuple(names),
        tuple(weights),
        intercept,
        len(train),
        len(test),
        iterations,
        log_loss(ps, ys),
        log_loss([mean] * len(ys), ys),
        _accuracy(ps, ys),
        _accuracy([mean] * len(ys), ys),
    )


# ------------------------------------------------------------------------------------------- self-play
def _pairings(rs: registry.Ruleset) -> list[tuple[Path, Path]]:
    paths = [Path(w["path"]) for w in rs.samples().get("warbands", [])]
    if not paths:
        raise FitError(f"ruleset {rs.id!r} has no sample warbands to play")
    return [(a, b) for a in paths for b in paths] if len(paths) > 1 else [(paths[0], paths[0])]


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """Which games to sample positions from: ``games`` seeded games of ``ruleset``, both sides played by
    ``agent``, each choice decision sampled with chance ``rate``."""

    ruleset: str
    games: int
    seed: int
    agent: str = "random"
    rate: float = DEFAULT_RATE

    def command(self) -> str:
        """The ``warband fit-eval`` command line that plays these games."""
        return (
            f"warband fit-eval {self.ruleset} --games {self.games} --seed {self.seed} --agent {self.agent}"
            f" --rate {self.rate:g}"
        )


def sample_positions(
    plan: SelfPlay, progress: Callable[[int, int], None] | None = None
) -> tuple[tuple[str, ...], list[Sample]]:
    """Play ``games`` seeded games between the ruleset's sample warbands (pairings in turn, both orders), both
    sides played by ``agent``; each choice decision is sampled with chance ``rate`` (a seeded stream of its
    own) and described by ``Ruleset.features`` for the side choosing. Returns (feature names, samples)."""
    ruleset, games, seed, agent, rate = plan.ruleset, plan.games, plan.seed, plan.agent, plan.rate
    if games < 1:
        raise FitError(f"--games must be at least 1, got {games}")
    if not 0.0 < rate <= 1.0:
        raise FitError(f"the sampling rate must be in (0, 1], got {rate}")
    rs = registry.get(ruleset)
    pairs = _pairings(rs)
    scenario = rs.load_scenario(rs.default_scenario())
    docs: dict[Path, dict[str, Any]] = {}
    names: tuple[str, ...] | None = None
    out: list[Sample] = []
    for g in range(games):
        game_seed = derive_seed(seed, g)
        pa, pb = pairs[g % len(pairs)]
        rosters = [docs.setdefault(p, rs.load_roster(p)) for p in (pa, pb)]
        game = Game.new(rs, rosters, scenario, game_seed, record=False)
        agents = [make_agent(agent, derive_seed(game_seed, 1)), make_agent(agent, derive_seed(game_seed, 2))]
        pick = Rng(derive_seed(game_seed, 3))
        seen: list[tuple[int, dict[str, float]]] = []

        def on_choice(game: Game, player: object, action: object, seen: list[Any] = seen, pick: Rng = pick) -> None:
            if pick.random() < rate:
                side = int(game.decision.player or 0)
                seen.append((side, rs.features(game.state, side)))

        play(game, agents, on_choice=on_choice, steps=MAX_GAME_STEPS)
        result = game.result()
        if result is None:
            continue  # an endless game teaches nothing about outcomes
        for side, feats in seen:
            if names is None:
                names = tuple(feats)
            if tuple(feats) != names:
                raise FitError(f"ruleset {rs.id!r}: features changed names between positions: {sorted(feats)}")
            y = 0.5 if result.winner is None else (1.0 if result.winner == side else 0.0)
            out.append(Sample(g, tuple(float(feats[n]) for n in names), y))
        if progress is not None:
            progress(g + 1, games)
    return names or (), out


def fit_ruleset(
    plan: SelfPlay,
    l2: float = DEFAULT_L2,
    holdout: float = DEFAULT_HOLDOUT,
    progress: Callable[[int, int], None] | None = None,
) -> Fit:
    """Sample positions (:func:`sample_positions`) and fit them (:func:`fit_samples`); the result records the
    command that reproduces it."""
    names, samples = sample_positions(plan, progress)
    fit = fit_samples(names, samples, holdout, l2)
    rs = registry.get(plan.ruleset)
    fit.extra = {
        "ruleset": rs.id,
        "ruleset_version": rs.version,
        "games": plan.games,
        "seed": plan.seed,
        "agent": plan.agent,
        "rate": plan.rate,
        "l2": l2,
        "holdout": holdout,
        "command": plan.command(),
    }
    return fit


def default_output(ruleset: str) -> Path:
    """Where the ruleset's shipped weights live: ``data/evaluation.json`` beside its samples."""
    return registry.get(ruleset).data_dir() / EVALUATION_FILE


def write_fit(fit: Fit, path: Path) -> None:
    path.write_text(json.dumps(fit.to_json(), indent=2) + "\n", encoding="utf-8")
