"""Table geometry: bases, convex terrain footprints, segment traces, line of sight and pathing.

Game-agnostic. All lengths are inches (floats); positions are ``(x, y)`` tuples on a table whose
lower-left corner is ``(0, 0)``. Heights (``z``) are inches above the table surface.

The functions here sit on the simulator's hot path, so they are pure Python on ``math`` with
precomputed bounding boxes and half-planes; shapely is deliberately not used at run time.

Conventions shared by every function:

* A terrain footprint is a closed convex polygon: points on its boundary count as inside.
  Comparisons against the boundary use an absolute slack of ``1e-9`` inches.
* A segment ``a -> b`` is parametrised as ``a + t * (b - a)`` with ``t`` in ``[0, 1]``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "MM_PER_INCH",
    "TERRAIN_KINDS",
    "Crossing",
    "Table",
    "TerrainPiece",
    "Trace",
    "Vec",
    "base_radius",
    "circle_segment_hits",
    "distance",
    "edge_distance",
    "segment_point_distance",
]

Vec = tuple[float, float]

MM_PER_INCH = 25.4

TERRAIN_KINDS = ("open", "difficult", "dangerous", "impassable", "obstacle", "blocking", "platform")

_EPS = 1e-9  # boundary slack in inches
_CLIP_EPS = 1e-12  # boundary slack when clipping segments (keeps touches at ~zero length)
_T_EPS = 1e-9  # minimal parameter length of a real (not single-point) overlap
_CLEAR_TOL = 1e-7  # slack when testing "at least r away" in path finding
_GROW = 1.05  # safety factor for path-finding nodes
_MITER_LIMIT = 0.5  # 1 + cos(turn) below this (turn > 120 deg): bevel the corner with two nodes
_COS_PI_8 = math.cos(math.pi / 8.0)
_OCTAGON = tuple((math.cos(k * math.pi / 4.0), math.sin(k * math.pi / 4.0)) for k in range(8))

_hypot = math.hypot
#: Answers of TerrainPiece.distance_to kept per piece before its memo is emptied (a pure function of the point).
DISTANCE_MEMO_LIMIT = 50_000


# --------------------------------------------------------------------------------------------- bases


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


# ------------------------------------------------------------------------------------------- terrain


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
        if x < minx - _EPS or x > maxx + _EPS or y < miny - _EPS or y > maxy + _EPS:
            return False
        for nx, ny, c in self._planes:  # noqa: SIM110 - explicit loop is faster on the hot path
            if nx * x + ny * y - c > _EPS:
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
        if (ax < minx - _EPS and bx < minx - _EPS) or (ax > maxx + _EPS and bx > maxx + _EPS):
            return None
        if (ay < miny - _EPS and by < miny - _EPS) or (ay > maxy + _EPS and by > maxy + _EPS):
            return None
        dx = bx - ax
        dy = by - ay
        t0 = 0.0
        t1 = 1.0
        for nx, ny, c in self._planes:
            num = c + _CLIP_EPS - nx * ax - ny * ay
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
        if x < minx - _EPS or x > maxx + _EPS or y < miny - _EPS or y > maxy + _EPS:
            return self._boundary_distance(p)
        for nx, ny, c in self._planes:
            if nx * x + ny * y - c > _EPS:
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
        if iv is not None and (r > 0.0 or iv[1] - iv[0] > _T_EPS):
            return False
        if r <= 0.0:
            return True
        lim = r - _CLEAR_TOL
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


@dataclass(frozen=True, slots=True)
class Crossing:
    """One terrain piece met by a segment: ``[t0, t1]`` is where the centre line is inside the footprint,
    ``[s0, s1]`` the same in inches from the segment start."""

    piece: TerrainPiece
    t0: float
    t1: float
    s0: float
    s1: float


@dataclass(frozen=True, slots=True)
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


# --------------------------------------------------------------------------------------------- table


def _los_clear(pieces: Sequence[TerrainPiece], a: Vec, za: float, b: Vec, zb: float) -> bool:
    """Core of :meth:`Table.line_of_sight` over an already filtered list of sight-blocking pieces."""
    ax, ay = a
    bx, by = b
    dx = bx - ax
    dy = by - ay
    dz = zb - za
    if ax < bx:
        sx0, sx1 = ax, bx
    else:
        sx0, sx1 = bx, ax
    if ay < by:
        sy0, sy1 = ay, by
    else:
        sy0, sy1 = by, ay
    for piece in pieces:
        minx, miny, maxx, maxy = piece.bbox
        if sx1 < minx - _EPS or sx0 > maxx + _EPS or sy1 < miny - _EPS or sy0 > maxy + _EPS:
            continue
        h = piece.height - _EPS
        if za >= h and zb >= h:
            continue
        # inline Cyrus-Beck (see TerrainPiece.clip)
        t0 = 0.0
        t1 = 1.0
        hit = True
        for nx, ny, c in piece._planes:
            num = c + _CLIP_EPS - nx * ax - ny * ay
            den = nx * dx + ny * dy
            if den > 0.0:
                t = num / den
                if t < t1:
                    if t < t0:
                        hit = False
                        break
                    t1 = t
            elif den < 0.0:
                t = num / den
                if t > t0:
                    if t > t1:
                        hit = False
                        break
                    t0 = t
            elif num < 0.0:
                hit = False
                break
        if not hit or t1 - t0 <= _T_EPS:
            continue
        z0 = za + dz * t0
        z1 = za + dz * t1
        if (z0 if z0 < z1 else z1) < h:
            return False
    return True


#: Leg answers kept per walk graph (:class:`_WalkGraph`) before it is emptied.
WALK_MEMO_LIMIT = 250_000
#: Walk graphs (one per base radius and set of solid pieces asked) kept per table before they are all dropped.
WALK_GRAPHS_LIMIT = 64


class _WalkGraph:
    """What never changes in :meth:`Table.shortest_path` for one base radius and one set of solid pieces of a
    table: the grown corners where a base may stand (on the table, clear of every solid), and, remembered as they
    are asked, whether a leg between two of them keeps clear of the solids. Circles (bases) are checked afresh
    each time: they move."""

    __slots__ = ("clear", "nodes", "solids", "static")

    def __init__(self, solids: tuple[TerrainPiece, ...], nodes: list[Vec]) -> None:
        self.solids = solids
        self.nodes = nodes
        self.static = frozenset(nodes)
        self.clear: dict[tuple[Vec, Vec], bool] = {}


class Table:
    """A ``width`` x ``depth`` rectangular table, ``[0, width] x [0, depth]``, with its terrain."""

    __slots__ = ("_los", "_platforms", "_walks", "depth", "platforms", "terrain", "width")

    def __init__(self, width: float, depth: float, terrain: Sequence[TerrainPiece]) -> None:
        if not (width > 0.0 and depth > 0.0):
            raise ValueError("table width and depth must be positive")
        self.width = float(width)
        self.depth = float(depth)
        self.terrain: tuple[TerrainPiece, ...] = tuple(terrain)
        ids = [p.id for p in self.terrain]
        if len(set(ids)) != len(ids):
            raise ValueError("terrain piece ids must be unique")
        self._los = tuple(p for p in self.terrain if p.blocks_los and p.height > 0.0)
        self._platforms = tuple(p for p in self.terrain if p.kind == "platform")
        self.platforms = self._platforms  # the pieces models can stand on, for rules that need them
        self._walks: dict[tuple[float, tuple[int, ...]], _WalkGraph] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from what defines it: the walk graphs are a cache, and need not travel to a worker process
        return (Table, (self.width, self.depth, self.terrain))

    def _walk_graph(self, grow: float, solids: tuple[TerrainPiece, ...]) -> _WalkGraph:
        """The static part of the visibility graph for a base grown by ``grow`` among ``solids`` (see
        :meth:`shortest_path`), built once per radius and set of pieces."""
        # keyed by the pieces' identities: the graph holds the pieces, so while it is kept no other object can
        # take one of their ids
        key = (grow, tuple(map(id, solids)))
        walk = self._walks.get(key)
        if walk is not None:
            return walk
        d = _GROW * grow if grow > 0.0 else 1e-4
        lim_r = grow - _CLEAR_TOL
        nodes: list[Vec] = []
        for piece in solids:
            for node in piece._path_nodes(d):
                if not self.on_table(node, grow):
                    continue
                if not any((q.circle_overlaps(node, lim_r) if lim_r > 0.0 else q.contains(node)) for q in solids):
                    nodes.append(node)
        if len(self._walks) >= WALK_GRAPHS_LIMIT:
            self._walks.clear()
        walk = self._walks[key] = _WalkGraph(solids, nodes)
        return walk

    def on_table(self, c: Vec, r: float) -> bool:
        """True when the whole base (radius ``r``, centre ``c``) lies within the table rectangle."""
        x, y = c
        return x - r >= -_EPS and x + r <= self.width + _EPS and y - r >= -_EPS and y + r <= self.depth + _EPS

    def pieces_at(self, p: Vec) -> tuple[TerrainPiece, ...]:
        """Pieces whose footprint contains ``p`` (boundary included), in terrain order."""
        return tuple(piece for piece in self.terrain if piece.contains(p))

    def surface_height(self, p: Vec) -> float:
        """Height a model standing at ``p`` stands on: the tallest platform containing ``p``, else 0."""
        best = 0.0
        for piece in self._platforms:
            if piece.height > best and piece.contains(p):
                best = piece.height
        return best

    def trace(self, a: Vec, b: Vec) -> Trace:
        """Every piece whose footprint the segment ``a -> b`` touches, with where it enters and leaves."""
        length = _hypot(b[0] - a[0], b[1] - a[1])
        out: list[Crossing] = []
        ax, ay = a
        bx, by = b
        lox, hix = (ax, bx) if ax < bx else (bx, ax)
        loy, hiy = (ay, by) if ay < by else (by, ay)
        for piece in self.terrain:
            px0, py0, px1, py1 = piece.bbox
            if px1 < lox - _EPS or px0 > hix + _EPS or py1 < loy - _EPS or py0 > hiy + _EPS:
                continue  # the same rejection clip() makes, without the call
            iv = piece.clip(a, b)
            if iv is not None:
                t0, t1 = iv
                out.append(Crossing(piece, t0, t1, t0 * length, t1 * length))
        if len(out) > 1:
            out.sort(key=_crossing_key)
        return Trace(length, tuple(out))

    def line_of_sight(self, a: Vec, za: float, b: Vec, zb: float, ignore: frozenset[str] = frozenset()) -> bool:
        """True when the 3-D segment ``(a, za) -> (b, zb)`` is clear of every sight-blocking prism.

        Only pieces with ``blocks_los`` and ``height > 0`` count, each as the prism ``z in [0, height]``
        over its footprint. The segment is blocked when, over its footprint interval ``[t0, t1]``, its
        height drops below the piece height (``min(z(t0), z(t1)) < height - 1e-9``). Touching a
        footprint at a single point does not block. Pieces whose id is in ``ignore`` are skipped.
        """
        pieces = self._los
        if ignore:
            pieces = tuple(p for p in pieces if p.id not in ignore)
        return _los_clear(pieces, a, za, b, zb)

    def can_see(
        self,
        a: Vec,
        ra: float,
        za: float,
        ha: float,
        b: Vec,
        rb: float,
        zb: float,
        hb: float,
        ignore: frozenset[str] = frozenset(),
    ) -> bool:
        """True line of sight between a viewer (base radius ``ra``, standing at height ``za``, model height
        ``ha``) at ``a`` and a target (``rb``, ``zb``, ``hb``) at ``b``.

        Eyes: the viewer's centre and the two points ``0.8 * ra`` to its left and right (perpendicular
        to ``a -> b``), all at ``za + 0.9 * ha``. Aim points: the target's centre and its two points
        ``0.8 * rb`` left and right, each at ``zb + 0.9 * hb`` and ``zb + 0.5 * hb``. Visible when any
        eye-to-aim-point line passes :meth:`line_of_sight`. Platforms containing either centre (what
        the models stand on) are ignored, as are ids in ``ignore``.
        """
        ax, ay = a
        bx, by = b
        sa = 0.8 * ra
        sb = 0.8 * rb
        reach = sa if sa > sb else sb
        lox = (ax if ax < bx else bx) - reach - _EPS
        hix = (ax if ax > bx else bx) + reach + _EPS
        loy = (ay if ay < by else by) - reach - _EPS
        hiy = (ay if ay > by else by) + reach + _EPS
        eye_z = za + 0.9 * ha
        high_z = zb + 0.9 * hb
        low_z = zb + 0.5 * hb
        floor = min(eye_z, high_z, low_z)
        pieces: list[TerrainPiece] = []
        for p in self._los:
            minx, miny, maxx, maxy = p.bbox
            if maxx < lox or minx > hix or maxy < loy or miny > hiy or p.height - _EPS <= floor:
                continue
            if p.id in ignore:
                continue
            if p.kind == "platform" and (p.contains(a) or p.contains(b)):
                continue
            pieces.append(p)
        if not pieces:
            return True
        dx = bx - ax
        dy = by - ay
        ln = _hypot(dx, dy)
        if ln > 0.0:
            px, py = -dy / ln, dx / ln
        else:
            px = py = 0.0
        eyes = ((ax, ay), (ax + sa * px, ay + sa * py), (ax - sa * px, ay - sa * py))
        aims = ((bx, by), (bx + sb * px, by + sb * py), (bx - sb * px, by - sb * py))
        for eye in eyes:
            for aim in aims:
                if _los_clear(pieces, eye, eye_z, aim, high_z) or _los_clear(pieces, eye, eye_z, aim, low_z):
                    return True
        return False

    def segment_blocked(self, a: Vec, b: Vec, kinds: frozenset[str], min_height: float = 0.0) -> TerrainPiece | None:
        """The first piece (smallest entry parameter; ties in terrain order) of one of ``kinds`` with
        ``height >= min_height`` that the centre line of ``a -> b`` really crosses (``t1 - t0 > 1e-9``),
        else ``None``."""
        best: TerrainPiece | None = None
        best_t = math.inf
        for piece in self.terrain:
            if piece.kind not in kinds or piece.height < min_height:
                continue
            iv = piece.clip(a, b)
            if iv is not None and iv[1] - iv[0] > _T_EPS and iv[0] < best_t:
                best, best_t = piece, iv[0]
        return best

    def shortest_path(
        self,
        a: Vec,
        b: Vec,
        r: float,
        solid: Sequence[TerrainPiece],
        circles: Sequence[tuple[Vec, float]] = (),
        cost: Callable[[Vec, Vec], float] | None = None,
        max_cost: float = math.inf,
        cost_at_least_length: bool = False,
    ) -> tuple[list[Vec], float] | None:
        """Cheapest polyline for a base of radius ``r`` from ``a`` to ``b``, or ``None``.

        A leg ``p -> q`` is allowed when its centre line stays at least ``r`` away from every ``solid``
        footprint (it never crosses one) and at least ``radius`` away from every ``circles`` centre
        (both up to a ``1e-7`` slack). The search runs over a visibility graph whose nodes are ``a``,
        ``b``, the corners of each solid grown by ``1.05 * r`` (miter points, which lie ``1.05 * r``
        from both adjacent edges, or a bevelled pair for corners sharper than 60 degrees), and for each
        circle the 8 corners of the octagon circumscribing a circle of ``1.05 * radius``; nodes where
        the base would not be wholly on the table, or would break a constraint, are dropped.

        Leg weight is ``cost(p, q)`` (must be >= 0; default the Euclidean length). Returns
        ``(waypoints, total)`` with ``waypoints[0] == a`` and ``waypoints[-1] == b``, or ``None`` when
        ``b`` is unreachable or the cheapest path costs more than ``max_cost``. When the straight leg
        ``a -> b`` is allowed it is returned at once, without searching. ``cost_at_least_length`` promises
        that ``cost(p, q) >= |pq|`` (true of movement costs such as difficult ground at double), which lets the
        search use the straight-line distance as its A* guide and prune before testing a leg.
        """
        a = (float(a[0]), float(a[1]))
        b = (float(b[0]), float(b[1]))
        grow = r if r > 0.0 else 0.0
        solids = tuple(solid)
        circs = tuple(((float(c[0]), float(c[1])), float(rad)) for c, rad in circles)
        margin = grow + _EPS
        walk = self._walk_graph(grow, solids)
        static = walk.static
        known = walk.clear

        def clear_of_solids(p: Vec, q: Vec, lox: float, hix: float, loy: float, hiy: float) -> bool:
            for piece in solids:
                minx, miny, maxx, maxy = piece.bbox
                if maxx < lox - margin or minx > hix + margin or maxy < loy - margin or miny > hiy + margin:
                    continue
                if not piece._segment_clear(p, q, grow):
                    return False
            return True

        def clear(p: Vec, q: Vec) -> bool:
            px, py = p
            qx, qy = q
            lox = px if px < qx else qx
            hix = px if px > qx else qx
            loy = py if py < qy else qy
            hiy = py if py > qy else qy
            if p in static and q in static:  # a leg between two fixed corners: answered once per game
                hit = known.get((p, q))
                if hit is None:
                    if len(known) > WALK_MEMO_LIMIT:
                        known.clear()
                    hit = known[(p, q)] = clear_of_solids(p, q, lox, hix, loy, hiy)
                if not hit:
                    return False
            elif not clear_of_solids(p, q, lox, hix, loy, hiy):
                return False
            for (cx, cy), rad in circs:
                lim = rad - _CLEAR_TOL
                if cx + lim < lox or cx - lim > hix or cy + lim < loy or cy - lim > hiy:
                    continue
                if segment_point_distance(p, q, (cx, cy)) < lim:
                    return False
            return True

        weigh: Callable[[Vec, Vec], float] = cost if cost is not None else distance
        if clear(a, b):
            w = weigh(a, b)
            return ([a, b], w) if w <= max_cost else None

        # ---- candidate nodes: the solids' grown corners (fixed: filtered once per radius, see _walk_graph),
        # then the bases' octagons; every one clear of the table edge, the solids and the bases
        nodes: list[Vec] = [a, b]
        if not circs:
            nodes.extend(walk.nodes)
        else:

            def off_bases(node: Vec) -> bool:
                nx, ny = node
                for (cx, cy), rad in circs:  # noqa: SIM110 - an explicit loop is faster on the hot path
                    if _hypot(nx - cx, ny - cy) < rad - _CLEAR_TOL:
                        return False
                return True

            nodes.extend(node for node in walk.nodes if off_bases(node))
            lim_r = grow - _CLEAR_TOL
            for (ox, oy), orad in circs:
                rr = _GROW * orad / _COS_PI_8 if orad > 0.0 else 1e-4
                for ux, uy in _OCTAGON:
                    node = (ox + rr * ux, oy + rr * uy)
                    if not self.on_table(node, grow):
                        continue
                    ok = True
                    for piece in solids:
                        if piece.circle_overlaps(node, lim_r) if lim_r > 0.0 else piece.contains(node):
                            ok = False
                            break
                    if ok and off_bases(node):
                        nodes.append(node)

        # ---- lazy A* (Dijkstra with a zero heuristic when the cost is custom)
        n = len(nodes)
        bx, by = b
        guided = cost is None or cost_at_least_length
        heur = [_hypot(bx - x, by - y) for x, y in nodes] if guided else [0.0] * n
        g = [math.inf] * n
        parent = [-1] * n
        done = [False] * n
        g[0] = 0.0
        heap: list[tuple[float, int]] = [(heur[0], 0)]
        budget = max_cost + 1e-12 * (1.0 + abs(max_cost)) if math.isfinite(max_cost) else math.inf
        while heap:
            _, u = heapq.heappop(heap)
            if done[u]:
                continue
            if u == 1:
                break
            done[u] = True
            gu = g[u]
            pu = nodes[u]
            ux, uy = pu
            for v in range(1, n):
                if done[v]:
                    continue
                pv = nodes[v]
                if cost is None:
                    ng = gu + _hypot(pv[0] - ux, pv[1] - uy)
                    if ng >= g[v] or ng + heur[v] > budget or not clear(pu, pv):
                        continue
                else:
                    if guided:
                        low = gu + _hypot(pv[0] - ux, pv[1] - uy)
                        if low >= g[v] or low + heur[v] > budget:
                            continue
                    if not clear(pu, pv):
                        continue
                    ng = gu + cost(pu, pv)
                    if ng >= g[v] or ng + heur[v] > budget:
                        continue
                g[v] = ng
                parent[v] = u
                heapq.heappush(heap, (ng + heur[v], v))
        if not math.isfinite(g[1]) or g[1] > budget:
            return None
        path: list[Vec] = []
        i = 1
        while i != -1:
            path.append(nodes[i])
            i = parent[i]
        path.reverse()
        return path, g[1]

    def point_along(self, path: Sequence[Vec], dist: float) -> Vec:
        """The point ``dist`` inches along the polyline ``path``: its start for ``dist <= 0``, its end
        when ``dist`` reaches or exceeds its length. ``path`` must not be empty."""
        if not path:
            raise ValueError("point_along needs a non-empty path")
        px, py = path[0]
        if dist <= 0.0:
            return (px, py)
        left = dist
        for qx, qy in path[1:]:
            seg = _hypot(qx - px, qy - py)
            if seg >= left and seg > 0.0:
                f = left / seg
                return (px + (qx - px) * f, py + (qy - py) * f)
            left -= seg
            px, py = qx, qy
        return (px, py)


def _crossing_key(c: Crossing) -> float:
    return c.s0
