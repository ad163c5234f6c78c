"""Exact dice math in warband.kernel.dice, checked by brute force and against icepool."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from warband.kernel.dice import (
    Distribution,
    binomial_successes,
    die,
    keep,
    pool_map,
    pool_outcomes,
    pool_sum,
)


def brute(n: int, sides: int, f: Callable[[tuple[int, ...]], object]) -> dict[object, Fraction]:
    """Distribution of f(sorted roll) over all sides**n ordered rolls."""
    counts: Counter[object] = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=n):
        counts[f(tuple(sorted(roll)))] += 1
    total = sides**n
    return {k: Fraction(v, total) for k, v in counts.items()}


def from_icepool(d: icepool.Die) -> dict[int, Fraction]:
    den = d.denominator()
    return {int(o): Fraction(q, den) for o, q in d.items() if q}


# -- Distribution ----------------------------------------------------------


def test_distribution_basics() -> None:
    d6 = die(6)
    assert len(d6) == 6
    assert d6.p(1) == Fraction(1, 6)
    assert d6.p(7) == 0
    assert d6.mean() == Fraction(7, 2)
    assert sum(d6.values()) == 1
    assert list(d6) == [1, 2, 3, 4, 5, 6]
    assert dict(d6.items()) == {i: Fraction(1, 6) for i in range(1, 7)}


def test_distribution_rejects_bad_probabilities() -> None:
    with pytest.raises(ValueError):
        Distribution({1: Fraction(1, 2)})
    with pytest.raises(ValueError):
        Distribution({1: Fraction(3, 2), 2: Fraction(-1, 2)})
    with pytest.raises(TypeError):
        Distribution({1: 1.0})  # type: ignore[arg-type]


def test_distribution_is_immutable_and_hashable() -> None:
    d = die(4)
    with pytest.raises(TypeError):
        d[1] = Fraction(0)  # type: ignore[index]
    assert hash(d) == hash(die(4))
    assert d == die(4)
    assert d != die(6)
    assert {d: "x"}[die(4)] == "x"


def test_distribution_map_merges_and_drops_zero() -> None:
    parity = die(6).map(lambda x: x % 2)
    assert dict(parity) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert Distribution({1: Fraction(1), 2: Fraction(0)}).p(2) == 0
    assert 2 not in Distribution({1: Fraction(1), 2: Fraction(0)})


def test_distribution_from_weights_and_certain() -> None:
    assert Distribution.from_weights({"a": 1, "b": 3}).p("b") == Fraction(3, 4)
    assert Distribution.certain(5).mean() == 5
    assert die(6).p_where(lambda x: x >= 5) == Fraction(1, 3)


def test_convolution() -> None:
    two = die(6) + die(6)
    assert two.p(7) == Fraction(6, 36)
    assert two.p(2) == Fraction(1, 36)
    assert two.mean() == 7
    assert (die(6) + 3).p(9) == Fraction(1, 6)
    assert sum([die(6), die(6)], Distribution.certain(0)) == two
    assert (die(4) + die(6)).mean() == Fraction(5, 2) + Fraction(7, 2)


# -- pools -----------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 6))
@pytest.mark.parametrize("sides", [2, 4, 6])
def test_pool_outcomes_match_brute_force(n: int, sides: int) -> None:
    got = dict(pool_outcomes(n, sides))
    assert got == brute(n, sides, lambda r: r)
    assert sum(got.values()) == 1
    assert all(list(v) == sorted(v) for v in got)


@pytest.mark.parametrize("n", range(0, 6))
@pytest.mark.parametrize("sides", [1, 3, 6, 8])
def test_pool_sum_matches_brute_force(n: int, sides: int) -> None:
    assert dict(pool_sum(n, sides)) == brute(n, sides, sum)


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("highest", [True, False])
def test_keep_matches_brute_force(n: int, highest: bool) -> None:
    for k in range(0, n + 1):

        def kept(r: tuple[int, ...], k: int = k) -> int:
            return sum(r[len(r) - k :]) if highest else sum(r[:k])

        expected = brute(n, 6, kept)
        assert dict(keep(n, 6, k, highest=highest)) == expected, (n, k, highest)


@pytest.mark.parametrize("n", range(2, 9))
def test_keep_two_matches_icepool(n: int) -> None:
    pool = icepool.Pool([icepool.d6] * n)
    assert dict(keep(n, 6, 2, highest=True)) == from_icepool(pool.highest(2).sum())
    assert dict(keep(n, 6, 2, highest=False)) == from_icepool(pool.lowest(2).sum())
    assert dict(keep(n, 6, 2, highest=True)) == from_icepool(icepool.d6.highest(n, 2))


@pytest.mark.parametrize("n", range(1, 9))
def test_pool_sum_and_keep_all_match_icepool(n: int) -> None:
    expected = from_icepool(n @ icepool.d6)
    assert dict(pool_sum(n, 6)) == expected
    assert dict(keep(n, 6, n, highest=True)) == expected
    assert dict(keep(n, 6, n, highest=False)) == expected


def test_keep_is_fast_for_ten_dice() -> None:
    d = keep(10, 6, 2, highest=True)
    assert sum(d.values()) == 1
    assert d.p(2) == Fraction(1, 6**10)


def test_keep_rejects_bad_k() -> None:
    with pytest.raises(ValueError):
        keep(2, 6, 3, highest=True)
    with pytest.raises(ValueError):
        keep(2, 6, -1, highest=True)
    with pytest.raises(ValueError):
        die(0)
    with pytest.raises(ValueError):
        pool_sum(-1, 6)


def test_pool_map_sees_sorted_values() -> None:
    d = pool_map(3, 6, lambda v: v[0] <= v[1] <= v[2])
    assert dict(d) == {True: Fraction(1)}


# -- binomial --------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 6))
@pytest.mark.parametrize("target", range(1, 11))
def test_binomial_successes_matches_brute_force_d10(n: int, target: int) -> None:
    p = Fraction(11 - target, 10)
    expected = brute(n, 10, lambda r: sum(1 for x in r if x >= target))
    assert dict(binomial_successes(n, p)) == expected


@given(st.integers(0, 12), st.fractions(0, 1))
def test_binomial_successes_mean(n: int, p: Fraction) -> None:
    d = binomial_successes(n, p)
    assert sum(d.values()) == 1
    assert d.mean() == n * p


def test_binomial_rejects_bad_p() -> None:
    with pytest.raises(ValueError):
        binomial_successes(3, Fraction(3, 2))
