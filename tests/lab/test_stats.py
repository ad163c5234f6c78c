"""The Wilson score interval against published values (statsmodels ``proportion_confint(method="wilson")``)."""

from __future__ import annotations

import pytest

from warband.lab.stats import wilson_interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (1, 10, 0.0179, 0.4042),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_known_values(successes: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_contains_the_rate_and_narrows_with_n() -> None:
    for n in (1, 7, 40, 1000):
        for k in range(0, n + 1, max(1, n // 7)):
            low, high = wilson_interval(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0
    assert (
        wilson_interval(300, 1000)[1] - wilson_interval(300, 1000)[0]
        < wilson_interval(3, 10)[1] - wilson_interval(3, 10)[0]
    )


def test_no_games_and_bad_input() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(3, 2)
    with pytest.raises(ValueError):
        wilson_interval(-1, 2)
