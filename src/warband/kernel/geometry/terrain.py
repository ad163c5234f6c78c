"""Terrain pieces: a convex footprint extruded from ``z = 0`` up to a height (:class:`TerrainPiece`), and what a
segment passes through (:class:`Crossing`, :class:`Trace`). A piece also knows its corners grown outward and
whether a segment keeps clear of it, which :mod:`.paths` asks when it routes round it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from warband.kernel.geometry.distance import CLEAR_TOL, CLIP_EPS, EPS, T_EPS, Vec, segment_point_distance
from warband.kernel.values import value

TERRAIN_KINDS = ("open", "difficult", "dangerous", "impassable", "obstacle", "blocking", "platform")

_MITER_LIMIT = 0.5  # 1 + cos(turn) below this (turn > 120 deg): bevel the corner with two nodes

_hypot = math.hypot
#: Answers of TerrainPiece.distance_to kept per piece before its memo is emptied (a pure function of the point).
DISTANCE_MEMO_LIMIT = 50_000


def _clean_ring(piece_id: str, polygon: tuple[Vec, ...]) -> tuple[Vec, ...]:
    """Validate a convex ring and return it counter-clockwise, without repeats or collinear vertices."""
    pts: list[Vec] = []
    for x, y in polygon:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"terrain piece {piece_id!r}: non-finite vertex ({x}, {y})")
        if pts and abs(pts[-1][0] - x) <= 1e-12 and abs(pts[-1][1] - y) <= 1e-12:
            continue
        pts.append((x, y))
    while len(pts) > 1 and abs(pts[0][0] - pts[-1][0]) <= 1e-12 and abs(pts[0][1] - pts[-1][1]) <= 1e-12:
        pts.pop()
    if len(pts) < 3:
        raise ValueError(f"terrain piece {piece_id!r}: a footprint needs at least 3 distinct vertices")
    area2 = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        area2 += x0 * y1 - x1 * y0
    if abs(area2) <= 1e-12:
        raise ValueError(f"terrain piece {piece_id!r}: footprint has zero area")
    if area2 < 0.0:
        pts.reverse()
    # Every turn must be a left turn (or straight), and the turns must add up to exactly one revolution
    # (this rejects self-intersecting "stars" whose turns are all left).
    kept: list[Vec] = []
    turning = 0.0
    for i in range(n):
        px, py = pts[i - 1]
        x, y = pts[i]
        nx, ny = pts[(i + 1) % n]
        e1x, e1y = x - px, y - py
        e2x, e2y = nx - x, ny - y
        cross = e1x * e2y - e1y * e2x
        dot = e1x * e2x + e1y * e2y
        scale = _hypot(e1x, e1y) * _hypot(e2x, e2y)
        if cross < -1e-9 * scale:
            raise ValueError(f"terrain piece {piece_id!r}: footprint polygon is not convex")
        if cross <= 1e-12 * scale and dot > 0.0:
            continue  # collinear vertex: drop it
        turning += math.atan2(cross, dot)
        kept.append((x, y))
    if len(kept) < 3 or abs(turning - 2.0 * math.pi) > 1e-6:
        raise ValueError(f"terrain piece {piece_id!r}: footprint polygon is not convex (self-intersecting)")
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class TerrainPiece:
    """A terrain feature: a convex footprint extruded from ``z = 0`` up to ``height``.

    ``polygon`` may be given in either orientation, with or without a repeated closing vertex; it
    must be convex with positive area, otherwise ``ValueError`` naming ``id`` is raised. ``kind``
    must be one of :data:`TERRAIN_KINDS`. For a ``"platform"`` the top of the prism is the surface a
    model stands on. ``blocks_los`` says whether the prism blocks sight at all.

    ``bbox`` (``minx, miny, maxx, maxy``) and the clipping half-planes are derived at construction.
    """

    id: str
    kind: str
    polygon: tuple[Vec, ...]
    height: float = 0.0
    blocks_los: bool = True
    bbox: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    # counter-clockwise vertices (cleaned) and per-edge half-planes nx*x + ny*y <= c with unit normals
    _verts: tuple[Vec, ...] = field(init=False, repr=False, compare=False)
    _planes: tuple[tuple[float, float, float], ...] = field(init=False, repr=False, compare=False)
    # distance_to() answers by point: the piece never moves and most models stand still between two questions
    # (an evaluation asks the cover of every model after each lookahead), so most answers repeat
    _distances: dict[Vec, float] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise ValueError(f"terrain piece {self.id!r}: unknown kind {self.kind!r}")
        if not (math.isfinite(self.height) and self.height >= 0.0):
            raise ValueError(f"terrain piece {self.id!r}: height must be finite and >= 0")
        object.__setattr__(self, "height", float(self.height))
        poly = tuple((float(x), float(y)) for x, y in self.polygon)
        object.__setattr__(self, "polygon", poly)
        verts = _clean_ring(self.id, poly)
        planes: list[tuple[float, float, float]] = []
        n = len(verts)
        for i in range(n):
            x0, y0 = verts[i]
            x1, y1 = verts[(i + 1) % n]
            ln = _hypot(x1 - x0, y1 - y0)
            nx = (y1 - y0) / ln
            ny = -(x1 - x0) / ln
            planes.append((nx, ny, nx * x0 + ny * y0))
        xs = [v[0] for v in verts]
        ys = [v[1] for v in verts]
        object.__setattr__(self, "bbox", (min(xs), min(ys), max(xs), max(ys)))
        object.__setattr__(self, "_verts", verts)
        object.__setattr__(self, "_planes", tuple(planes))

    def contains(self, p: Vec) -> bool:
        """True when ``p`` is inside the footprint or on its boundary."""
        x, y = p
        minx, miny, maxx, maxy = self.bbox
        if x < minx - EPS or x > maxx + EPS or y < miny - EPS or y > maxy + EPS:
            return False
        for nx, ny, c in self._planes:  # noqa: SIM110 - explicit loop is faster on the hot path
            if nx * x + ny * y - c > EPS:
                return False
        return True

    def clip(self, a: Vec, b: Vec) -> tuple[float, float] | None:
        """Parameter interval ``(t0, t1)``, ``0 <= t0 <= t1 <= 1``, of the segment ``a -> b`` inside the
        footprint (Cyrus-Beck), or ``None`` when they do not meet. A single touching point gives
        ``t0 == t1`` (up to the boundary slack). A degenerate segment (``a == b``) gives ``(0, 1)`` when
        the point is inside."""
        ax, ay = a
        bx, by = b
        minx, miny, maxx, maxy = self.bbox
        if (ax < minx - EPS and bx < minx - EPS) or (ax > maxx + EPS and bx > maxx + EPS):
            return None
        if (ay < miny - EPS and by < miny - EPS) or (ay > maxy + EPS and by > maxy + EPS):
            return None
        dx = bx - ax
        dy = by - ay
        t0 = 0.0
        t1 = 1.0
        for nx, ny, c in self._planes:
            num = c + CLIP_EPS - nx * ax - ny * ay
            den = nx * dx + ny * dy
            if den > 0.0:
                t = num / den
                if t < t1:
                    if t < t0:
                        return None
                    t1 = t
            elif den < 0.0:
                t = num / den
                if t > t0:
                    if t > t1:
                        return None
                    t0 = t
            elif num < 0.0:
                return None
        return (t0, t1)

    def distance_to(self, p: Vec) -> float:
        """``0.0`` when ``p`` is inside (or on) the footprint, else the distance to its boundary."""
        memo = self._distances
        d = memo.get(p)
        if d is None:
            if len(memo) >= DISTANCE_MEMO_LIMIT:
                memo.clear()
            d = memo[p] = self._distance_to(p)
        return d

    def _distance_to(self, p: Vec) -> float:
        # contains() inlined (a hot query of cover and objectives): outside the slack box, or outside one
        # edge's half-plane, the point is out and its distance is the boundary's
        x, y = p
        minx, miny, maxx, maxy = self.bbox
        if x < minx - EPS or x > maxx + EPS or y < miny - EPS or y > maxy + EPS:
            return self._boundary_distance(p)
        for nx, ny, c in self._planes:
            if nx * x + ny * y - c > EPS:
                return self._boundary_distance(p)
        return 0.0

    def _boundary_distance(self, p: Vec) -> float:
        # segment_point_distance inlined over every edge (the same arithmetic in the same order, so the same
        # floats): this is the hottest loop of cover and objective queries, and a call per edge cost ~40% of it
        verts = self._verts
        best = math.inf
        x, y = p
        hypot = _hypot
        ax, ay = verts[-1]
        for bx, by in verts:
            dx = bx - ax
            dy = by - ay
            px = x - ax
            py = y - ay
            den = dx * dx + dy * dy
            if den > 0.0:
                t = (px * dx + py * dy) / den
                if t > 1.0:
                    t = 1.0
                elif t < 0.0:
                    t = 0.0
                px -= t * dx
                py -= t * dy
            d = hypot(px, py)
            if d < best:
                best = d
            ax, ay = bx, by
        return best

    def circle_overlaps(self, c: Vec, r: float) -> bool:
        """True when a base of radius ``r`` centred at ``c`` overlaps the footprint: the centre is inside,
        or the boundary is strictly closer than ``r`` (mere tangency does not overlap)."""
        x, y = c
        minx, miny, maxx, maxy = self.bbox
        if x < minx - r or x > maxx + r or y < miny - r or y > maxy + r:
            return False
        if self.contains(c):
            return True
        return self._boundary_distance(c) < r

    def _segment_clear(self, p: Vec, q: Vec, r: float) -> bool:
        """True when the segment ``p -> q`` stays at least ``r`` (less a tiny slack) from the footprint;
        with ``r <= 0`` only a real crossing (not a single touching point) counts."""
        iv = self.clip(p, q)
        if iv is not None and (r > 0.0 or iv[1] - iv[0] > T_EPS):
            return False
        if r <= 0.0:
            return True
        lim = r - CLEAR_TOL
        if self._boundary_distance(p) < lim or self._boundary_distance(q) < lim:
            return False
        return all(segment_point_distance(p, q, v) >= lim for v in self._verts)

    def _path_nodes(self, d: float) -> list[Vec]:
        """Corners of the footprint grown outward by ``d``: the miter point (``d`` from both adjacent edge
        lines) for mild corners, two bevel points (also ``d`` from the vertex) for sharp ones."""
        verts = self._verts
        planes = self._planes
        n = len(verts)
        out: list[Vec] = []
        for i in range(n):
            vx, vy = verts[i]
            n1x, n1y, _ = planes[i - 1]  # edge arriving at vertex i
            n2x, n2y, _ = planes[i]  # edge leaving vertex i
            k = 1.0 + n1x * n2x + n1y * n2y
            if k >= _MITER_LIMIT:
                out.append((vx + d * (n1x + n2x) / k, vy + d * (n1y + n2y) / k))
                continue
            ux, uy = n1x + n2x, n1y + n2y
            lu = _hypot(ux, uy)
            if lu < 1e-12:
                ux, uy = n1y - n2y, n2x - n1x  # needle tip: point away along the tangents
                lu = _hypot(ux, uy)
            ux /= lu
            uy /= lu
            for nx, ny in ((n1x, n1y), (n2x, n2y)):
                tx, ty = -ny, nx  # edge direction (counter-clockwise)
                ut = ux * tx + uy * ty
                s = d * (1.0 - (ux * nx + uy * ny)) / ut
                out.append((vx + d * nx + s * tx, vy + d * ny + s * ty))
        return out


@value
class Crossing:
    """One terrain piece met by a segment: ``[t0, t1]`` is where the centre line is inside the footprint,
    ``[s0, s1]`` the same in inches from the segment start."""

    piece: TerrainPiece
    t0: float
    t1: float
    s0: float
    s1: float


@value
class Trace:
    """What a segment passes through: its 2-D ``length`` and every piece whose footprint the centre line
    touches, sorted by ``s0`` (ties keep the table's terrain order)."""

    length: float
    crossings: tuple[Crossing, ...]

    def length_in(self, kind: str) -> float:
        """Inches of the segment inside pieces of ``kind``; overlapping pieces are counted once (union)."""
        total = 0.0
        lo = hi = 0.0
        open_ = False
        for cr in self.crossings:
            if cr.piece.kind != kind:
                continue
            if open_ and cr.s0 <= hi:
                if cr.s1 > hi:
                    hi = cr.s1
                continue
            if open_:
                total += hi - lo
            lo, hi, open_ = cr.s0, cr.s1, True
        if open_:
            total += hi - lo
        return total
