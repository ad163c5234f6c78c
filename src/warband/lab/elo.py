"""Agent strength on the Elo scale, from a Bradley-Terry fit of a round robin, and the sequential probability
ratio test (SPRT) that chess-engine testing (fishtest) uses to ask "is the candidate stronger?" with few games.

Everything here is a pure function of counts; :mod:`warband.lab.ladder` plays the games.

**Elo.** A difference of ``d`` Elo means an expected score of ``1 / (1 + 10 ** (-d / 400))`` (a win counts 1, a
draw 1/2). The Bradley-Terry model gives each player a strength ``r`` and the stronger one the expected score
``sigmoid(r_i - r_j)``; Elo is ``r * 400 / ln 10``. The fit maximises the likelihood of the scores (a draw is half
a win and half a loss), one player held at 0 (the anchor), by Newton's method; the 95% interval of each rating is
``+- 1.96`` standard errors from the inverse of the observed information (the negative Hessian at the optimum).
A player who won (or lost) every game has no finite maximum: ``prior_draws`` adds that many virtual draws to every
pair that met (BayesElo's device), which keeps every rating finite and shrinks it a little towards its opponents.

**SPRT.** Between H0 (the candidate is ``elo0`` stronger) and H1 (``elo1`` stronger) the test adds up the
generalised log-likelihood ratio of the outcomes seen so far and stops at the Wald bounds
``log(beta / (1 - alpha))`` (accept H0) and ``log((1 - beta) / alpha)`` (accept H1). As in fishtest's GSPRT, the
likelihood of each hypothesis is that of the best-fitting outcome distribution whose mean score equals the
hypothesis' expected score (a multinomial over the outcomes: win/draw/loss for single games, or the five scores of
a pair of games played with the same seed, sides swapped: the pentanomial model).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley-Terry strength (natural log odds)."""


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger than its opponent (logistic Elo)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (0 < score < 1)."""
    if not 0.0 < score < 1.0:
        raise ValueError(f"an Elo difference needs a score strictly between 0 and 1, got {score}")
    return -400.0 * math.log10(1.0 / score - 1.0)


# --- Bradley-Terry ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Result:
    """``games`` games between players ``i`` and ``j`` in which ``i`` scored ``score`` (wins + draws / 2)."""

    i: int
    j: int
    score: float
    games: int


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's fitted Elo (relative to the anchor) and its 95% interval."""

    elo: float
    low: float
    high: float
    games: int
    score: float
    """The player's own points (wins + draws / 2) over its ``games``."""


def _tables(n: int, results: Sequence[Result], prior_draws: float) -> tuple[np.ndarray, np.ndarray]:
    """``scores[i, j]``: points of i against j; ``games[i, j]``: games between them (virtual draws included)."""
    scores = np.zeros((n, n))
    games = np.zeros((n, n))
    for r in results:
        if r.i == r.j or not (0 <= r.i < n and 0 <= r.j < n):
            raise ValueError(f"a result needs two different players among 0..{n - 1}, got {r.i} and {r.j}")
        if r.games < 0 or not 0.0 <= r.score <= r.games:
            raise ValueError(f"a score must lie between 0 and the games played, got {r.score} of {r.games}")
        scores[r.i, r.j] += r.score
        scores[r.j, r.i] += r.games - r.score
        games[r.i, r.j] += r.games
        games[r.j, r.i] += r.games
    met = games > 0
    scores = scores + 0.5 * prior_draws * met
    games = games + prior_draws * met
    return scores, games


def _connected(games: np.ndarray) -> bool:
    n = int(games.shape[0])
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j in np.nonzero(games[i] > 0)[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == n


def fit_bradley_terry(
    players: int, results: Sequence[Result], anchor: int = 0, prior_draws: float = 1.0, max_iter: int = 100
) -> list[Rating]:
    """Maximum-likelihood Elo of ``players`` players from ``results`` (see the module docstring), ``anchor``
    fixed at 0; each with its 95% interval from the observed information (the anchor's is a point)."""
    if players < 2:
        raise ValueError(f"a rating needs at least two players, got {players}")
    if not 0 <= anchor < players:
        raise ValueError(f"the anchor must be one of the players 0..{players - 1}, got {anchor}")
    scores, games = _tables(players, results, prior_draws)
    if not _connected(games):
        raise ValueError("every player must be linked to every other by games played: the ratings are not defined")
    if prior_draws <= 0 and any(scores[i].sum() in (0.0, games[i].sum()) for i in range(players)):  # no finite maximum
        raise ValueError("a player won or lost every game: give prior_draws > 0 for a finite rating")
    free = [i for i in range(players) if i != anchor]
    r = np.zeros(players)
    info = np.eye(len(free))
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
        grad = (scores - games * p).sum(axis=1)
        w = games * p * (1.0 - p)
        hess = w.copy()
        np.fill_diagonal(hess, -w.sum(axis=1))
        info = -hess[np.ix_(free, free)]
        step = np.clip(np.linalg.solve(info, grad[free]), -2.0, 2.0)  # damped: concave, but far from the optimum
        r[free] += step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    cov = np.linalg.inv(info)
    sd = np.zeros(players)
    sd[free] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    real_scores, real_games = _tables(players, results, 0.0)
    out = []
    for i in range(players):
        elo = float(r[i] * ELO_PER_NAT)
        half = float(Z95 * sd[i] * ELO_PER_NAT)
        out.append(Rating(elo, elo - half, elo + half, round(real_games[i].sum()), float(real_scores[i].sum())))
    return out


# --- SPRT -------------------------------------------------------------------------------------------
TRINOMIAL = (0.0, 0.5, 1.0)
"""Scores of a single game: loss, draw, win."""

PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Mean scores of a pair of games: 0, 1/2, 1, 3/2 or 2 points out of 2."""

EPSILON = 1e-3
"""Pseudo-count given to an outcome not seen yet, so that the constrained maximum exists (as fishtest does)."""


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: accept H0 at or below the first, H1 at or above the second."""
    if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
        raise ValueError(f"alpha and beta must lie strictly between 0 and 0.5, got {alpha} and {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _max_loglik(counts: Sequence[float], scores: Sequence[float], mean: float) -> float:
    """The largest log-likelihood of ``counts`` among distributions over ``scores`` with the given mean.

    The maximiser is ``p_k = n_k / (N (1 + theta (x_k - mean)))`` for the ``theta`` that makes the mean right
    (a Lagrange multiplier); it is found by bisection on the interval where every ``p_k`` stays positive."""
    n = [c if c > 0 else EPSILON for c in counts]
    total = sum(n)
    dev = [x - mean for x in scores]
    low = max((-1.0 / d for d in dev if d > 0), default=-1e9)
    high = min((-1.0 / d for d in dev if d < 0), default=1e9)

    def moment(theta: float) -> float:  # sum of p_k (x_k - mean): decreasing in theta
        return sum(c * d / (1.0 + theta * d) for c, d in zip(n, dev, strict=True)) / total

    a, b = low + 1e-12 * (high - low), high - 1e-12 * (high - low)
    for _ in range(64):
        mid = 0.5 * (a + b)
        if moment(mid) > 0:
            a = mid
        else:
            b = mid
    theta = 0.5 * (a + b)
    return sum(c * math.log(c / (total * (1.0 + theta * d))) for c, d in zip(n, dev, strict=True))


def llr(counts: Sequence[float], elo0: float, elo1: float, scores: Sequence[float] = TRINOMIAL) -> float:
    """The generalised log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``) for ``counts`` of each outcome
    (``counts[k]`` outcomes scoring ``scores[k]`` for the candidate); 0 before any outcome."""
    if len(counts) != len(scores):
        raise ValueError(f"{len(scores)} outcome counts expected, got {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError(f"outcome counts cannot be negative, got {list(counts)}")
    if sum(counts) == 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return _max_loglik(counts, scores, s1) - _max_loglik(counts, scores, s0)


@dataclass(frozen=True, slots=True)
class SprtState:
    """Where a test stands: its log-likelihood ratio, bounds and verdict (``None`` while it goes on)."""

    llr: float
    lower: float
    upper: float
    verdict: str | None
    """``"H0"`` (not stronger by ``elo1``; ``elo0`` holds), ``"H1"`` (stronger) or None."""


def sprt_state(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    scores: Sequence[float] = PENTANOMIAL,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtState:
    """The test's state after ``counts`` outcomes (pentanomial game pairs by default)."""
    lower, upper = sprt_bounds(alpha, beta)
    value = llr(counts, elo0, elo1, scores)
    verdict = "H1" if value >= upper else "H0" if value <= lower else None
    return SprtState(value, lower, upper, verdict)


def pair_outcome(first: float, second: float) -> int:
    """The pentanomial outcome (0..4: half-points out of 2) of a pair of games scoring ``first`` and
    ``second`` for the candidate (each 0, 0.5 or 1)."""
    total = round(2 * (first + second))
    if not 0 <= total <= 4 or abs(2 * (first + second) - total) > 1e-9:
        raise ValueError(f"a game scores 0, 0.5 or 1, got {first} and {second}")
    return total
