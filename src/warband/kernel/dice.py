"""Exact, game-agnostic dice probability.

Everything here is computed with :class:`fractions.Fraction`, so results are
exact and can be compared with ``==``. Nothing in this module knows about any
particular game: rulesets build their roll rules on top of these primitives.

Pools of identical dice are enumerated as *sorted multisets* with multinomial
weights instead of as ordered tuples, so ``n`` dice with ``s`` sides cost
``C(n + s - 1, n)`` steps instead of ``s ** n`` (10d6: 3003 instead of
60,466,176).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from itertools import combinations_with_replacement, groupby
from math import comb, factorial
from typing import TypeVar

__all__ = [
    "Distribution",
    "binomial_successes",
    "die",
    "keep",
    "pool_map",
    "pool_outcomes",
    "pool_sum",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


def _sort_key(item: tuple[object, Fraction]) -> tuple[int, object]:
    """Order numbers numerically, anything else by ``repr`` (deterministic)."""
    outcome = item[0]
    if isinstance(outcome, int | float | Fraction) and not isinstance(outcome, bool):
        return (0, outcome)
    return (1, repr(outcome))


class Distribution(Mapping[T, Fraction]):
    """An immutable, exact probability distribution over hashable outcomes.

    Behaves as a read-only ``Mapping[outcome, Fraction]``. Outcomes with zero
    probability are dropped; the probabilities always sum to exactly 1.
    Numeric outcomes come first, in ascending order; others follow by ``repr``.
    """

    __slots__ = ("_hash", "_probs")

    _probs: dict[T, Fraction]
    _hash: int | None

    def __init__(self, probabilities: Mapping[T, Fraction | int] | Iterable[tuple[T, Fraction | int]]) -> None:
        """Build from ``outcome -> probability`` (a mapping or pairs; repeated
        outcomes are added). Raises ``ValueError`` unless every probability
        is a non-negative rational and they sum to exactly 1."""
        pairs = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        acc: dict[T, Fraction] = defaultdict(Fraction)
        for outcome, prob in pairs:
            if not isinstance(prob, int | Fraction) or isinstance(prob, bool):
                raise TypeError(f"probability of {outcome!r} must be a Fraction or int, got {prob!r}")
            if prob < 0:
                raise ValueError(f"probability of {outcome!r} is negative: {prob}")
            acc[outcome] += Fraction(prob)
        total = sum(acc.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities must sum to 1, got {total}")
        items = [(o, p) for o, p in acc.items() if p != 0]
        items.sort(key=_sort_key)
        self._probs = dict(items)
        self._hash = None

    # -- constructors -------------------------------------------------------

    @classmethod
    def from_weights(cls, weights: Mapping[T, Fraction | int] | Iterable[tuple[T, Fraction | int]]) -> Distribution[T]:
        """Build from non-negative relative weights (normalised to sum to 1)."""
        pairs = list(weights.items() if isinstance(weights, Mapping) else weights)
        total = sum((Fraction(w) for _, w in pairs), Fraction(0))
        if total <= 0:
            raise ValueError("weights must have a positive total")
        return cls([(o, Fraction(w) / total) for o, w in pairs])

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        """The distribution that always yields ``outcome``."""
        return cls({outcome: Fraction(1)})

    # -- Mapping protocol ---------------------------------------------------

    def __getitem__(self, outcome: T) -> Fraction:
        return self._probs[outcome]

    def __iter__(self) -> Iterator[T]:
        return iter(self._probs)

    def __len__(self) -> int:
        return len(self._probs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._probs == other._probs
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._probs.items()))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {p}" for o, p in self._probs.items())
        return f"Distribution({{{body}}})"

    # -- queries and transforms --------------------------------------------

    def p(self, outcome: T) -> Fraction:
        """Probability of ``outcome`` (0 if it cannot happen)."""
        return self._probs.get(outcome, Fraction(0))

    def p_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """Probability that ``predicate(outcome)`` holds."""
        return sum((p for o, p in self._probs.items() if predicate(o)), Fraction(0))

    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """Distribution of ``f(X)``; outcomes mapping to the same value merge."""
        return Distribution([(f(o), p) for o, p in self._probs.items()])

    def mean(self: Distribution[int]) -> Fraction:
        """Exact expected value (numeric outcomes only)."""
        return sum((Fraction(o) * p for o, p in self._probs.items()), Fraction(0))

    def __add__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        """Distribution of ``X + Y`` for independent ``X`` and ``Y`` (or ``X + c``)."""
        if isinstance(other, int):
            return Distribution([(o + other, p) for o, p in self._probs.items()])
        if not isinstance(other, Distribution):
            return NotImplemented
        return Distribution([(a + b, pa * pb) for a, pa in self._probs.items() for b, pb in other._probs.items()])

    def __radd__(self: Distribution[int], other: int) -> Distribution[int]:
        # Supports ``sum(distributions, 0)`` as well as ``c + X``.
        return self.__add__(other)


# -- constructors for common dice --------------------------------------------


def _check_sides(sides: int) -> None:
    if sides < 1:
        raise ValueError(f"a die needs at least 1 side, got {sides}")


def _check_count(n: int) -> None:
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, got {n}")


def die(sides: int) -> Distribution[int]:
    """A fair die numbered ``1..sides``."""
    _check_sides(sides)
    return Distribution({face: Fraction(1, sides) for face in range(1, sides + 1)})


def pool_outcomes(n: int, sides: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every distinct result of rolling ``n`` fair ``sides``-sided dice.

    Yields ``(values, probability)`` where ``values`` is an ascending tuple
    (a multiset of faces) and ``probability`` is the exact chance of rolling
    that multiset in any order (multinomial weight / ``sides ** n``). The
    probabilities sum to 1. ``n == 0`` yields the single empty roll.
    """
    _check_count(n)
    _check_sides(sides)
    denominator = sides**n
    n_fact = factorial(n)
    for values in combinations_with_replacement(range(1, sides + 1), n):
        arrangements = n_fact
        for _, group in groupby(values):
            arrangements //= factorial(sum(1 for _ in group))
        yield values, Fraction(arrangements, denominator)


def pool_map(n: int, sides: int, f: Callable[[tuple[int, ...]], U]) -> Distribution[U]:
    """Distribution of ``f(values)`` over a roll of ``n`` dice.

    ``f`` receives the ascending tuple of faces, so it must not depend on the
    order the dice were rolled in (true of any rule that reads a pool as a
    set of results).
    """
    return Distribution([(f(values), p) for values, p in pool_outcomes(n, sides)])


def pool_sum(n: int, sides: int) -> Distribution[int]:
    """Distribution of the total of ``n`` fair ``sides``-sided dice."""
    _check_count(n)
    result = Distribution.certain(0)
    single = die(sides)
    for _ in range(n):
        result = result + single
    return result


def keep(n: int, sides: int, k: int, highest: bool = True) -> Distribution[int]:
    """Distribution of the sum of the ``k`` highest (or lowest) of ``n`` dice.

    Computed exactly by enumerating sorted multisets (see :func:`pool_outcomes`).
    Requires ``0 <= k <= n``.
    """
    _check_count(n)
    if not 0 <= k <= n:
        raise ValueError(f"cannot keep {k} of {n} dice")
    if highest:
        return pool_map(n, sides, lambda values: sum(values[n - k :]))
    return pool_map(n, sides, lambda values: sum(values[:k]))


def binomial_successes(n: int, p: Fraction | int) -> Distribution[int]:
    """Distribution of the number of successes in ``n`` independent trials,
    each succeeding with probability ``p`` (e.g. dice each needing a target
    number or better)."""
    _check_count(n)
    prob = Fraction(p)
    if not 0 <= prob <= 1:
        raise ValueError(f"success probability must be in [0, 1], got {prob}")
    fail = 1 - prob
    return Distribution({k: comb(n, k) * prob**k * fail ** (n - k) for k in range(n + 1)})
