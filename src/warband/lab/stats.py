"""Small statistics for simulation reports (no numpy needed)."""

from __future__ import annotations

import math


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion ``successes / n`` (95% with the default ``z``).

    Unlike the normal ("Wald") interval it stays inside ``[0, 1]`` and is sensible at 0 or ``n`` successes,
    which a lopsided match-up produces often. With ``n == 0`` nothing is known: ``(0.0, 1.0)``.
    """
    if n < 0 or not 0 <= successes <= max(n, 0):
        raise ValueError(f"wilson_interval needs 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
