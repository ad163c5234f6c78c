"""Standing on, climbing and falling off terrain: the geometry every game that climbs or jumps shares.

A platform is a terrain piece of kind ``platform`` (a convex prism whose top a model stands on, see
:class:`~warband.kernel.geometry.TerrainPiece`); a wall is any piece with a height. These functions answer the
geometric questions of climbing, jumping and falling (which platform is under a point, whether a base stands
wholly on a top, how much open space a jump crosses, where the nearest edge is, where a model stands at the foot
of a side or just over it) and know no rule: how far a model may climb, what a fall costs and every distance a
game names are the ruleset's, passed in as arguments. The clearances that place a candidate point beside a side
are arguments too (in inches, with defaults), and candidate points are rounded to 0.01" like the kernel's
deployment grids.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from warband.kernel.geometry.distance import Vec, segment_point_distance
from warband.kernel.geometry.terrain import TerrainPiece

__all__ = [
    "edge_point",
    "foot_point",
    "gap_across",
    "over_point",
    "platform_under",
    "stands_on",
    "touches",
]


def platform_under(pieces: Iterable[TerrainPiece], p: Vec) -> TerrainPiece | None:
    """The tallest platform among ``pieces`` whose footprint holds ``p``, or None."""
    best = None
    for t in pieces:
        if t.kind == "platform" and t.contains(p) and (best is None or t.height > best.height):
            best = t
    return best


def stands_on(piece: TerrainPiece, p: Vec, r: float) -> bool:
    """Whether a base of radius ``r`` at ``p`` stands wholly on ``piece``'s top (its four extreme points do)."""
    return all(piece.contains((p[0] + dx, p[1] + dy)) for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)))


def touches(piece: TerrainPiece, p: Vec, q: Vec, r: float) -> bool:
    """Whether a base of radius ``r`` sliding straight from ``p`` to ``q`` meets ``piece``."""
    if piece.clip(p, q) is not None:
        return True
    lim = r - 1e-7
    if piece.distance_to(p) < lim or piece.distance_to(q) < lim:
        return True
    return any(segment_point_distance(p, q, v) < lim for v in piece.polygon)


def gap_across(a: TerrainPiece, b: TerrainPiece, p: Vec, q: Vec) -> tuple[float, Vec]:
    """Jumping from ``a`` at ``p`` to ``b`` at ``q``: the inches of the straight line over neither footprint (the
    open space crossed) and the middle of that open stretch (where a model that falls short comes down)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    ia, ib = a.clip(p, q), b.clip(p, q)
    t0 = ia[1] if ia is not None else 0.0
    t1 = ib[0] if ib is not None else 1.0
    inside = sum((iv[1] - iv[0]) * length for iv in (ia, ib) if iv is not None)
    mid = (t0 + t1) / 2
    return max(0.0, length - inside), (p[0] + (q[0] - p[0]) * mid, p[1] + (q[1] - p[1]) * mid)


def edge_point(piece: TerrainPiece, p: Vec) -> tuple[float, Vec, Vec]:
    """For ``p`` inside a convex footprint: the distance to its nearest edge, the nearest point of that edge and
    the outward unit normal there."""
    best: tuple[float, Vec, Vec] = (math.inf, p, (0.0, 0.0))
    pts = piece.polygon
    n = len(pts)
    sign = 0.0
    for i in range(n):  # the winding, to point the normals outward
        a, b = pts[i], pts[(i + 1) % n]
        sign += a[0] * b[1] - b[0] * a[1]
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        ln2 = ex * ex + ey * ey
        if ln2 <= 0:
            continue
        t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ln2))
        c = (a[0] + ex * t, a[1] + ey * t)
        d = math.hypot(p[0] - c[0], p[1] - c[1])
        if d < best[0]:
            ln = math.sqrt(ln2)
            normal = (ey / ln, -ex / ln) if sign > 0 else (-ey / ln, ex / ln)
            best = (d, c, normal)
    return best


def foot_point(
    piece: TerrainPiece, p: Vec, r: float, inside: bool = False, clear: float = 0.25, overlap: float = 0.1
) -> Vec:
    """Beside ``piece``'s side nearest ``p``: the centre of a base of radius ``r`` standing ``clear`` inches off
    that side on the outside (from a point inside the footprint: just beyond its nearest edge, where a model
    falling off it lands), or with ``inside`` just on the top, its base ``overlap`` inches in from the edge."""
    if piece.contains(p):
        _, c, nrm = edge_point(piece, p)
    else:
        best = min(
            (
                (segment_point_distance(a, b, p), a, b)
                for a, b in zip(piece.polygon, (*piece.polygon[1:], piece.polygon[0]), strict=True)
            ),
            key=lambda x: x[0],
        )
        _, a, b = best
        ex, ey = b[0] - a[0], b[1] - a[1]
        ln2 = ex * ex + ey * ey or 1.0
        t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ln2))
        c = (a[0] + ex * t, a[1] + ey * t)
        d = math.hypot(p[0] - c[0], p[1] - c[1]) or 1.0
        nrm = ((p[0] - c[0]) / d, (p[1] - c[1]) / d)
    off = -(r + overlap) if inside else r + clear
    return (round(c[0] + nrm[0] * off, 2), round(c[1] + nrm[1] * off, 2))


def over_point(piece: TerrainPiece, p: Vec, r: float, clear: float = 0.25) -> Vec:
    """The point straight across ``piece`` from ``p`` (through its side nearest ``p``): the centre of a base of
    radius ``r`` standing ``clear`` inches off the far side (where a model climbing over a wall comes down)."""
    c = foot_point(piece, p, 0.0, clear=clear)  # the near side's foot: the direction to cross in
    d = math.hypot(c[0] - p[0], c[1] - p[1])
    if d <= 1e-9:
        return c
    ux, uy = (c[0] - p[0]) / d, (c[1] - p[1]) / d
    far = (p[0] + ux * (d + 100.0), p[1] + uy * (d + 100.0))  # a ray well past any piece on a table
    iv = piece.clip(p, far)
    t1 = iv[1] if iv is not None else 0.0
    ex = (p[0] + (far[0] - p[0]) * t1, p[1] + (far[1] - p[1]) * t1)
    return (round(ex[0] + ux * (r + clear), 2), round(ex[1] + uy * (r + clear), 2))
