"""The ladder's statistics against outcomes drawn from a known model: a Bradley-Terry fit must recover known Elo
gaps within its 95% intervals (at about the stated rate), and an SPRT must accept H0 for identical players and H1
for a clearly stronger one at the rates alpha = beta = 0.05 promise."""

from __future__ import annotations

import math
import random

import pytest

from warband.lab.elo import (
    PENTANOMIAL,
    TRINOMIAL,
    Result,
    elo_of_score,
    expected_score,
    fit_bradley_terry,
    llr,
    pair_outcome,
    sprt_bounds,
    sprt_state,
)

TRUE = (0.0, 100.0, 250.0)
DRAWS = 0.2


def _game(rng: random.Random, elo: float) -> float:
    """One game's score for a player ``elo`` stronger: draws 20% of the time, the mean score as Elo says."""
    p = expected_score(elo)
    win = p - DRAWS / 2
    u = rng.random()
    return 1.0 if u < win else 0.5 if u < win + DRAWS else 0.0


def _round_robin(rng: random.Random, games: int) -> list[Result]:
    results = []
    for i in range(len(TRUE)):
        for j in range(i + 1, len(TRUE)):
            score = sum(_game(rng, TRUE[i] - TRUE[j]) for _ in range(games))
            results.append(Result(i, j, score, games))
    return results


def test_elo_and_score_are_inverse_and_on_the_chess_scale() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -50.0, 0.0, 120.0, 700.0):
        assert elo_of_score(expected_score(elo)) == pytest.approx(elo)


def test_fit_recovers_known_gaps_within_the_interval_at_the_stated_rate() -> None:
    rng = random.Random(2026)
    covered = [0, 0, 0]
    runs = 100
    for _ in range(runs):
        ratings = fit_bradley_terry(3, _round_robin(rng, 300), anchor=0)
        assert ratings[0].elo == 0.0 and ratings[0].low == ratings[0].high == 0.0
        for k in (1, 2):
            covered[k] += ratings[k].low <= TRUE[k] <= ratings[k].high
    assert covered[1] >= 0.88 * runs and covered[2] >= 0.88 * runs, covered


def test_fit_one_seed_point_estimates_and_counts() -> None:
    ratings = fit_bradley_terry(3, _round_robin(random.Random(7), 2000))
    assert ratings[1].elo == pytest.approx(100, abs=30)
    assert ratings[2].elo == pytest.approx(250, abs=35)
    assert [r.games for r in ratings] == [4000, 4000, 4000]
    assert sum(r.score for r in ratings) == pytest.approx(6000)


def test_intervals_shrink_as_games_grow() -> None:
    few = fit_bradley_terry(3, _round_robin(random.Random(3), 50))
    many = fit_bradley_terry(3, _round_robin(random.Random(3), 800))
    for k in (1, 2):
        ratio = (few[k].high - few[k].low) / (many[k].high - many[k].low)
        assert ratio == pytest.approx(4.0, rel=0.25)  # sqrt(800 / 50)


def test_anchor_moves_the_zero_not_the_gaps() -> None:
    results = _round_robin(random.Random(5), 200)
    by0 = fit_bradley_terry(3, results, anchor=0)
    by2 = fit_bradley_terry(3, results, anchor=2)
    assert by2[2].elo == 0.0
    assert by0[1].elo - by0[0].elo == pytest.approx(by2[1].elo - by2[0].elo, abs=1e-6)


def test_a_clean_sweep_stays_finite_with_the_virtual_draw_and_is_refused_without() -> None:
    (ratings) = fit_bradley_terry(2, [Result(0, 1, 0.0, 24)])
    assert ratings[1].elo == pytest.approx(elo_of_score(24.5 / 25))
    with pytest.raises(ValueError, match="won or lost every game"):
        fit_bradley_terry(2, [Result(0, 1, 0.0, 24)], prior_draws=0)
    with pytest.raises(ValueError, match="linked"):
        fit_bradley_terry(3, [Result(0, 1, 3.0, 6)])


def test_sprt_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))


def test_llr_without_draws_is_the_binomial_likelihood_ratio() -> None:
    wins, losses = 30, 18
    s0, s1 = expected_score(0), expected_score(60)
    binomial = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert llr([losses, 0, wins], 0, 60, TRINOMIAL) == pytest.approx(binomial, abs=0.01)
    assert llr([losses, 0, wins], 60, 0) == pytest.approx(-llr([losses, 0, wins], 0, 60))
    assert llr([0, 0, 0], 0, 60) == 0.0


def _sprt(rng: random.Random, elo: float, elo0: float, elo1: float, pairs: bool) -> tuple[str, int]:
    counts = [0] * (5 if pairs else 3)
    games = 0
    while True:
        if pairs:
            counts[pair_outcome(_game(rng, elo), _game(rng, elo))] += 1
            games += 2
            state = sprt_state(counts, elo0, elo1, PENTANOMIAL)
        else:
            counts[round(2 * _game(rng, elo))] += 1
            games += 1
            state = sprt_state(counts, elo0, elo1, TRINOMIAL)
        if state.verdict is not None:
            return state.verdict, games


@pytest.mark.parametrize("pairs", [True, False], ids=["pentanomial", "trinomial"])
def test_sprt_accepts_h0_for_identical_players_at_the_stated_rate(pairs: bool) -> None:
    rng = random.Random(11)
    verdicts = [_sprt(rng, 0.0, 0.0, 100.0, pairs)[0] for _ in range(200)]
    assert verdicts.count("H0") >= 0.9 * len(verdicts)


def test_sprt_accepts_h1_for_a_strong_gap_with_few_games() -> None:
    rng = random.Random(12)
    runs = [_sprt(rng, 250.0, 0.0, 100.0, True) for _ in range(100)]
    assert sum(v == "H1" for v, _ in runs) >= 95
    assert sum(g for _, g in runs) / len(runs) < 60


def test_pair_outcome_counts_half_points() -> None:
    assert [pair_outcome(0, 0), pair_outcome(0.5, 0), pair_outcome(1, 0), pair_outcome(1, 0.5), pair_outcome(1, 1)] == [
        0,
        1,
        2,
        3,
        4,
    ]
    with pytest.raises(ValueError):
        pair_outcome(0.3, 0)
