"""Points and round bases: distances between points, base edges, segments and circles (inches), and the boundary
slacks every module of :mod:`warband.kernel.geometry` compares with.
"""

from __future__ import annotations

import math

Vec = tuple[float, float]

MM_PER_INCH = 25.4

#: Boundary slack in inches.
EPS = 1e-9
#: Boundary slack when clipping segments (keeps touches at ~zero length).
CLIP_EPS = 1e-12
#: Minimal parameter length of a real (not single-point) overlap.
T_EPS = 1e-9
#: Slack when testing "at least r away" in path finding.
CLEAR_TOL = 1e-7

_hypot = math.hypot


def base_radius(base_mm: float) -> float:
    """Radius in inches of a round base whose diameter is ``base_mm`` millimetres."""
    return base_mm / (2.0 * MM_PER_INCH)


def distance(a: Vec, b: Vec) -> float:
    """Euclidean distance between two points (centre to centre for bases)."""
    return _hypot(b[0] - a[0], b[1] - a[1])


def edge_distance(a: Vec, ra: float, b: Vec, rb: float) -> float:
    """Gap between the edges of two round bases; ``0.0`` when they touch or overlap (never negative)."""
    d = _hypot(b[0] - a[0], b[1] - a[1]) - ra - rb
    return d if d > 0.0 else 0.0


def segment_point_distance(a: Vec, b: Vec, p: Vec) -> float:
    """Shortest distance from point ``p`` to the closed segment ``a -> b`` (``a == b`` is a point)."""
    ax, ay = a
    dx = b[0] - ax
    dy = b[1] - ay
    px = p[0] - ax
    py = p[1] - ay
    den = dx * dx + dy * dy
    if den > 0.0:
        t = (px * dx + py * dy) / den
        if t > 1.0:
            t = 1.0
        elif t < 0.0:
            t = 0.0
        px -= t * dx
        py -= t * dy
    return _hypot(px, py)


def circle_segment_hits(a: Vec, b: Vec, c: Vec, r: float) -> bool:
    """True when the segment ``a -> b`` passes strictly within ``r`` of ``c`` (tangency is not a hit)."""
    cx, cy = c
    if (a[0] < cx - r and b[0] < cx - r) or (a[0] > cx + r and b[0] > cx + r):
        return False
    if (a[1] < cy - r and b[1] < cy - r) or (a[1] > cy + r and b[1] > cy + r):
        return False
    return segment_point_distance(a, b, c) < r
