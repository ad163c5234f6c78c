"""Model-level table queries every skirmish ruleset needs, written once (DESIGN.md, "Table geometry").

Distances between models are base edge to base edge (:func:`gap`); "within X inches of an enemy" is
:func:`enemies_within`; a base may not overlap another (:func:`overlapping`); sight between two models is asked
of the ruleset's own rule through a memo kept in the game's context (:func:`memo_sight`); a move walks a
polyline within a budget (:func:`walk_path`, :func:`toward`) round circles it may not enter
(:func:`clear_of_circles`, :func:`corridor`). Pure functions of positions; nothing here changes a state.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from warband.kernel.geometry.distance import Vec, segment_point_distance
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.state import Model

#: Sight answers kept per game before the memo is emptied (positions repeat a lot within a search).
SIGHT_MEMO_LIMIT = 200_000

Circle = tuple[Vec, float]


def gap(a: Model, b: Model) -> float:
    """Base edge to base edge, in inches (0 when the bases touch or overlap)."""
    d = math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius
    return d if d > 0.0 else 0.0


def gap_at(p: Vec, r: float, b: Model) -> float:
    """:func:`gap` from a base of radius ``r`` standing at ``p`` to ``b``."""
    d = math.hypot(p[0] - b.x, p[1] - b.y) - r - b.radius
    return d if d > 0.0 else 0.0


def enemies(models: Iterable[Model], m: Model) -> list[Model]:
    """The models on the table of the other side."""
    return [e for e in models if e.on_table and e.side != m.side]


def enemies_within(models: Iterable[Model], m: Model, dist: float) -> list[Model]:
    """Enemies on the table within ``dist`` inches of ``m`` (edge to edge): "within 1" of an enemy". One pass, with
    :func:`gap` unclamped: for ``dist >= 0`` a gap clamped to 0 and the negative one it replaces are both within."""
    if dist < 0.0:
        return [e for e in enemies(models, m) if gap(m, e) <= dist + 1e-9]
    side, x, y, r, lim = m.side, m.x, m.y, m.radius, dist + 1e-9
    hypot = math.hypot
    return [e for e in models if e.on_table and e.side != side and hypot(x - e.x, y - e.y) - r - e.radius <= lim]


def overlapping(models: Iterable[Model], p: Vec, r: float, skip: Callable[[Model], bool] | None = None) -> Model | None:
    """The first model on the table whose base a base of radius ``r`` at ``p`` would overlap (touching is not
    overlapping), ignoring those ``skip`` names."""
    x, y = p
    for o in models:
        # the distance first: it is cheap and rarely close, so ``skip`` (often a rules test) is seldom asked
        if o.on_table and math.hypot(x - o.x, y - o.y) < r + o.radius - 1e-6 and (skip is None or not skip(o)):
            return o
    return None


def memo_sight(memo: dict[Any, Any], a: Model, b: Model, see: Callable[[Model, Model], bool]) -> bool:
    """``see(a, b)`` remembered by the two models' positions, sizes and heights (sight is a pure function of
    them on a fixed table), in ``memo`` (a game context's cache; emptied past :data:`SIGHT_MEMO_LIMIT`)."""
    key = (a.x, a.y, a.z, a.radius, a.height, b.x, b.y, b.z, b.radius, b.height)
    hit: bool | None = memo.get(key)
    if hit is None:
        hit = see(a, b)
        if len(memo) > SIGHT_MEMO_LIMIT:
            memo.clear()
        memo[key] = hit
    return hit


def toward(a: Vec, b: Vec, dist: float) -> Vec:
    """The point ``dist`` inches from ``a`` on the line to ``b`` (``a`` itself when they coincide)."""
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    if d <= 1e-12:
        return a
    return (a[0] + (b[0] - a[0]) * dist / d, a[1] + (b[1] - a[1]) * dist / d)


def unit(v: Vec) -> Vec:
    """``v`` scaled to length 1 (the x axis for a null vector)."""
    d = math.hypot(v[0], v[1])
    return (v[0] / d, v[1] / d) if d > 1e-12 else (1.0, 0.0)


def walk_path(path: Sequence[Vec], budget: float, leg_cost: Callable[[Vec, Vec], float | None]) -> Vec:
    """The point reached after ``budget`` inches of movement along ``path`` (each leg priced by ``leg_cost``, None
    where a leg cannot be crossed). A leg that costs more than what is left is walked as far as the budget
    allows: in proportion when that point costs exactly what is left (uniform ground), else found by bisection
    (a leg that is partly difficult ground stops where the budget runs out, not in proportion)."""
    left = budget
    for i in range(len(path) - 1):
        a, b = path[i], path[i + 1]
        c = leg_cost(a, b)
        if c is not None and c <= left + 1e-9:
            left -= c
            continue
        if c is not None and c > 0:
            frac = left / c
            p = (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)
            cp = leg_cost(a, p)
            if cp is not None and abs(cp - left) <= 1e-9:
                return p
        lo, hi = 0.0, 1.0
        for _ in range(30):
            mid = (lo + hi) / 2
            cq = leg_cost(a, (a[0] + (b[0] - a[0]) * mid, a[1] + (b[1] - a[1]) * mid))
            lo, hi = (mid, hi) if cq is not None and cq <= left else (lo, mid)
        return (a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo)
    return path[-1]


def clear_of_circles(a: Vec, b: Vec, circles: Iterable[Circle]) -> bool:
    """Whether the segment ``a``-``b`` keeps out of every circle (touching allowed; a bounding-box test first:
    most circles are far)."""
    ax, ay = a
    bx, by = b
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    for (cx, cy), r in circles:
        if cx + r < lox or cx - r > hix or cy + r < loy or cy - r > hiy:
            continue
        t = 0.0 if length2 == 0.0 else ((cx - ax) * dx + (cy - ay) * dy) / length2
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        ex, ey = ax + t * dx - cx, ay + t * dy - cy
        lim = r - 1e-9
        if ex * ex + ey * ey < lim * lim:
            return False
    return True


def corridor(
    a: Vec, b: Vec, length: float, circles: Sequence[Circle], solids: Sequence[TerrainPiece]
) -> tuple[list[Circle], list[TerrainPiece]]:
    """Only the circles and pieces a path of at most ``length`` from ``a`` to ``b`` can meet: such a path stays
    inside the ellipse with foci ``a`` and ``b``, whose points are within its semi-minor axis of the segment."""
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    half = max(length, d) / 2.0
    reach = math.sqrt(max(0.0, half * half - (d / 2.0) ** 2)) + 0.5
    keep_c = [(c, r) for c, r in circles if segment_point_distance(a, b, c) <= reach + r]
    lo_x, hi_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
    lo_y, hi_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
    keep_s = []
    for piece in solids:
        bx0, by0, bx1, by1 = piece.bbox
        if bx0 <= hi_x and bx1 >= lo_x and by0 <= hi_y and by1 >= lo_y:
            keep_s.append(piece)
    return keep_c, keep_s
