"""Tests for warband.kernel.geometry, with shapely as the brute-force reference."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, MultiPoint, Point, Polygon
from shapely.ops import unary_union

from warband.kernel.geometry.distance import (
    Vec,
    base_radius,
    circle_segment_hits,
    distance,
    edge_distance,
    segment_point_distance,
)
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TERRAIN_KINDS, TerrainPiece

# generated cases are filtered (degenerate hulls, endpoints inside obstacles, near-touches): allow it
_FILTERED = [HealthCheck.filter_too_much, HealthCheck.too_slow]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=_FILTERED)
SLOW = settings(max_examples=80, deadline=None, suppress_health_check=_FILTERED)

coord = st.floats(min_value=0.0, max_value=12.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)
point = st.tuples(coord, coord)


# ----------------------------------------------------------------------------------------- strategies


@st.composite
def convex_polygons(draw: st.DrawFn) -> tuple[Vec, ...]:
    """Either the convex hull of random points or a regular polygon; random orientation."""
    if draw(st.booleans()):
        pts = draw(st.lists(point, min_size=3, max_size=9))
        hull = MultiPoint(pts).convex_hull
        assume(isinstance(hull, Polygon) and hull.area > 0.3)
        ring = list(hull.exterior.coords)[:-1]
        # shapely hulls can keep near-collinear points; require clear corners so the test is well posed
        poly = Polygon(ring)
        assume(
            poly.minimum_rotated_rectangle.area > 0
            and min(Point(v).distance(LineString([ring[i - 1], ring[(i + 1) % len(ring)]])) for i, v in enumerate(ring))
            > 1e-3
        )
    else:
        n = draw(st.integers(min_value=3, max_value=8))
        cx, cy = draw(point)
        rad = draw(st.floats(min_value=0.3, max_value=4.0))
        rot = draw(st.floats(min_value=0.0, max_value=2 * math.pi))
        ring = [
            (cx + rad * math.cos(rot + 2 * math.pi * k / n), cy + rad * math.sin(rot + 2 * math.pi * k / n))
            for k in range(n)
        ]
    if draw(st.booleans()):
        ring.reverse()
    return tuple((float(x), float(y)) for x, y in ring)


@st.composite
def pieces(draw: st.DrawFn, idx: int = 0, kinds: tuple[str, ...] = TERRAIN_KINDS) -> TerrainPiece:
    return TerrainPiece(
        id=f"p{idx}",
        kind=draw(st.sampled_from(kinds)),
        polygon=draw(convex_polygons()),
        height=draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5])),
        blocks_los=draw(st.booleans()),
    )


@st.composite
def terrain_sets(draw: st.DrawFn, max_pieces: int = 4, kinds: tuple[str, ...] = TERRAIN_KINDS) -> list[TerrainPiece]:
    n = draw(st.integers(min_value=1, max_value=max_pieces))
    return [draw(pieces(i, kinds)) for i in range(n)]


def shp(piece: TerrainPiece) -> Polygon:
    return Polygon(piece.polygon)


def union_length_bounds(seg: LineString, polys: list[Polygon], tol: float = 1e-9) -> tuple[float, float]:
    """Length of ``seg`` inside the union of ``polys`` shrunk and grown by ``tol``: a segment that runs
    along a boundary is legitimately in or out, so the exact answer only has to lie in this range."""
    if not polys:
        return 0.0, 0.0
    lo = seg.intersection(unary_union([p.buffer(-tol) for p in polys])).length
    hi = seg.intersection(unary_union([p.buffer(tol) for p in polys])).length
    return lo, hi


# -------------------------------------------------------------------------------------------- bases


def test_base_radius_and_edge_distance_known_values() -> None:
    r = base_radius(25)
    assert r == pytest.approx(0.4921, abs=1e-4)
    assert base_radius(50.8) == pytest.approx(1.0)
    assert edge_distance((0.0, 0.0), r, (2.0, 0.0), r) == pytest.approx(1.0157, abs=1e-4)
    assert edge_distance((0.0, 0.0), 1.0, (1.0, 0.0), 1.0) == 0.0
    assert distance((0.0, 0.0), (3.0, 4.0)) == 5.0


@FAST
@given(point, point, point)
def test_segment_point_distance_matches_shapely(a: Vec, b: Vec, p: Vec) -> None:
    # shapely misbehaves on (sub)normal-tiny segments; treat those as the point they are
    ref = LineString([a, b]).distance(Point(p)) if distance(a, b) > 1e-9 else Point(a).distance(Point(p))
    assert segment_point_distance(a, b, p) == pytest.approx(ref, abs=1e-9)
    r = 1.0
    if abs(ref - r) > 1e-9:
        assert circle_segment_hits(a, b, p, r) == (ref < r)


# ------------------------------------------------------------------------------------- terrain piece


def test_non_convex_polygon_raises_naming_id() -> None:
    with pytest.raises(ValueError, match="ell-wall"):
        TerrainPiece("ell-wall", "blocking", ((0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)))
    star = tuple((math.cos(k * 4 * math.pi / 5), math.sin(k * 4 * math.pi / 5)) for k in range(5))
    with pytest.raises(ValueError, match="star-rock"):
        TerrainPiece("star-rock", "blocking", star)
    with pytest.raises(ValueError, match="flat"):
        TerrainPiece("flat", "blocking", ((0, 0), (1, 1), (2, 2)))
    with pytest.raises(ValueError, match="odd"):
        TerrainPiece("odd", "lava", ((0, 0), (1, 0), (0, 1)))


def test_piece_accepts_closed_ring_collinear_points_and_either_orientation() -> None:
    a = TerrainPiece("a", "open", ((0, 0), (1, 0), (2, 0), (2, 2), (0, 2), (0, 0)))
    b = TerrainPiece("b", "open", ((0, 2), (2, 2), (2, 0), (0, 0)))
    assert a.bbox == b.bbox == (0.0, 0.0, 2.0, 2.0)
    for p in [(1.0, 1.0), (0.0, 0.0), (2.0, 1.0), (3.0, 1.0)]:
        assert a.contains(p) == b.contains(p)


@FAST
@given(convex_polygons(), point)
def test_contains_and_distance_match_shapely(poly: tuple[Vec, ...], p: Vec) -> None:
    piece = TerrainPiece("x", "open", poly)
    ref = Polygon(poly)
    q = Point(p)
    assert piece.distance_to(p) == pytest.approx(ref.distance(q), abs=1e-9)
    if ref.exterior.distance(q) > 1e-7:
        assert piece.contains(p) == ref.contains(q)
    for v in poly:
        assert piece.contains(v)
        assert piece.distance_to(v) == 0.0


@FAST
@given(convex_polygons(), point, point)
def test_clip_matches_shapely(poly: tuple[Vec, ...], a: Vec, b: Vec) -> None:
    assume(distance(a, b) > 1e-3)
    piece = TerrainPiece("x", "open", poly)
    ref = Polygon(poly)
    seg = LineString([a, b])
    lo, hi = union_length_bounds(seg, [ref])
    iv = piece.clip(a, b)
    length = distance(a, b)
    if iv is None:
        assert lo <= 1e-6
        return
    t0, t1 = iv
    assert 0.0 <= t0 <= t1 <= 1.0
    assert lo - 1e-6 <= (t1 - t0) * length <= hi + 1e-6
    for t in (t0, t1):
        pt = Point(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        assert ref.distance(pt) < 1e-6


@FAST
@given(convex_polygons(), point, st.floats(min_value=0.05, max_value=3.0))
def test_circle_overlaps_matches_buffer(poly: tuple[Vec, ...], c: Vec, r: float) -> None:
    piece = TerrainPiece("x", "open", poly)
    ref = Polygon(poly)
    d = ref.distance(Point(c))
    assume(abs(d - r) > 0.01 * r + 1e-6)  # the buffer is a polygonal approximation of the circle
    assert piece.circle_overlaps(c, r) == Point(c).buffer(r, quad_segs=64).intersects(ref)


# --------------------------------------------------------------------------------------------- trace


@FAST
@given(terrain_sets(max_pieces=5, kinds=("difficult", "dangerous", "open")), point, point)
def test_trace_length_in_matches_shapely_union(terrain: list[TerrainPiece], a: Vec, b: Vec) -> None:
    assume(distance(a, b) > 1e-3)
    table = Table(12.0, 12.0, terrain)
    tr = table.trace(a, b)
    seg = LineString([a, b])
    assert tr.length == pytest.approx(seg.length)
    assert [c.s0 for c in tr.crossings] == sorted(c.s0 for c in tr.crossings)
    crossed = {c.piece.id for c in tr.crossings}
    assert {p.id for p in terrain if seg.intersection(shp(p)).length > 1e-6} <= crossed
    assert crossed <= {p.id for p in terrain if seg.distance(shp(p)) < 1e-7}
    for c in tr.crossings:
        assert c.s0 == pytest.approx(c.t0 * tr.length) and c.s1 == pytest.approx(c.t1 * tr.length)
    for kind in ("difficult", "dangerous", "open", "platform"):
        polys = [shp(p) for p in terrain if p.kind == kind]
        lo, hi = union_length_bounds(seg, polys)
        assert lo - 1e-6 <= tr.length_in(kind) <= hi + 1e-6


def test_trace_and_segment_blocked_simple() -> None:
    wall = TerrainPiece("wall", "obstacle", ((5, 0), (5.5, 0), (5.5, 10), (5, 10)), height=1.0)
    high = TerrainPiece("high", "blocking", ((8, 0), (9, 0), (9, 10), (8, 10)), height=4.0)
    mud = TerrainPiece("mud", "difficult", ((1, 4), (3, 4), (3, 6), (1, 6)))
    table = Table(12, 12, [high, wall, mud])
    tr = table.trace((0, 5), (10, 5))
    assert [c.piece.id for c in tr.crossings] == ["mud", "wall", "high"]
    assert tr.length_in("difficult") == pytest.approx(2.0)
    assert table.segment_blocked((0, 5), (10, 5), frozenset({"obstacle", "blocking"})) is wall
    assert table.segment_blocked((0, 5), (10, 5), frozenset({"obstacle", "blocking"}), min_height=2.0) is high
    assert table.segment_blocked((0, 5), (4, 5), frozenset({"obstacle", "blocking"})) is None
    # running up to a corner only touches it: not blocked
    assert table.segment_blocked((4, 11), (5, 10), frozenset({"obstacle"})) is None
    assert table.pieces_at((2, 5)) == (mud,)
    assert table.pieces_at((5.25, 5)) == (wall,)


def test_surface_height_and_on_table() -> None:
    low = TerrainPiece("low", "platform", ((0, 0), (4, 0), (4, 4), (0, 4)), height=1.0)
    top = TerrainPiece("top", "platform", ((1, 1), (3, 1), (3, 3), (1, 3)), height=3.0)
    rock = TerrainPiece("rock", "blocking", ((6, 6), (7, 6), (7, 7)), height=5.0)
    table = Table(10, 8, [low, top, rock])
    assert table.surface_height((0.5, 0.5)) == 1.0
    assert table.surface_height((2, 2)) == 3.0
    assert table.surface_height((6.9, 6.1)) == 0.0
    assert table.surface_height((9, 7)) == 0.0
    assert table.on_table((0.5, 0.5), 0.5)
    assert not table.on_table((0.4, 4), 0.5)
    assert table.on_table((9.5, 7.5), 0.5)
    assert not table.on_table((9.5, 7.6), 0.5)


def test_point_along() -> None:
    table = Table(10, 10, [])
    path = [(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)]
    assert table.point_along(path, -1) == (0.0, 0.0)
    assert table.point_along(path, 2) == pytest.approx((2.0, 0.0))
    assert table.point_along(path, 5) == pytest.approx((3.0, 2.0))
    assert table.point_along(path, 99) == (3.0, 4.0)
    assert table.point_along([(1.0, 1.0)], 3) == (1.0, 1.0)


# --------------------------------------------------------------------------------------- line of sight


def brute_force_los(
    terrain: list[TerrainPiece], a: Vec, za: float, b: Vec, zb: float, ignore: frozenset[str]
) -> bool | None:
    """Sample 2000 points of the 3-D segment: True clear, False blocked, None if too close to call."""
    n = 2000
    t = np.linspace(0.0, 1.0, n)
    xs = a[0] + t * (b[0] - a[0])
    ys = a[1] + t * (b[1] - a[1])
    zs = za + t * (zb - za)
    pts = shapely.points(xs, ys)
    length = distance(a, b)
    half_step = length / (n - 1) / 2
    slope = abs(zb - za) / length if length > 0 else 0.0
    margin = max(1e-3, half_step * (1.0 + slope) + 1e-6)
    clear = True
    for p in terrain:
        if not p.blocks_los or p.height <= 0 or p.id in ignore:
            continue
        poly = shp(p)
        d_in = shapely.distance(poly, pts)
        d_bnd = shapely.distance(poly.exterior, pts)
        if np.any((d_in == 0) & (d_bnd > margin) & (zs < p.height - margin)):
            return False
        if np.any(np.maximum(d_in, zs - p.height) <= margin):
            clear = False  # near miss or shallow hit: undecidable by sampling
    return True if clear else None


@SLOW
@given(
    terrain_sets(max_pieces=4),
    point,
    point,
    st.floats(min_value=0.0, max_value=5.0),
    st.floats(min_value=0.0, max_value=5.0),
    st.booleans(),
)
def test_line_of_sight_matches_sampler(
    terrain: list[TerrainPiece], a: Vec, b: Vec, za: float, zb: float, use_ignore: bool
) -> None:
    assume(distance(a, b) > 0.1)
    ignore = frozenset({terrain[0].id}) if use_ignore else frozenset()
    ref = brute_force_los(terrain, a, za, b, zb, ignore)
    assume(ref is not None)
    table = Table(12.0, 12.0, terrain)
    assert table.line_of_sight(a, za, b, zb, ignore) == ref
    assert table.line_of_sight(b, zb, a, za, ignore) == ref


def test_line_of_sight_single_point_touch_is_clear() -> None:
    box = TerrainPiece("box", "blocking", ((4, 4), (6, 4), (6, 6), (4, 6)), height=5.0)
    table = Table(12, 12, [box])
    assert table.line_of_sight((2, 4), 1.0, (6, 8), 1.0)  # touches the corner (4, 6) only
    assert table.line_of_sight((2, 4), 1.0, (4, 6), 1.0)  # ends on the corner
    assert table.line_of_sight((3, 7), 1.0, (5, 3), 1.0) is False
    assert table.line_of_sight((0, 6), 1.0, (12, 6), 1.0) is False  # grazing an edge: boundary is inside


def test_can_see_walls_and_platforms() -> None:
    r = base_radius(32)
    tall = TerrainPiece("tall", "blocking", ((5.8, 0), (6.2, 0), (6.2, 12), (5.8, 12)), height=4.0)
    table = Table(12, 12, [tall])
    assert not table.can_see((3, 6), r, 0.0, 1.25, (9, 6), r, 0.0, 1.25)
    low = TerrainPiece("low", "obstacle", ((5.8, 0), (6.2, 0), (6.2, 12), (5.8, 12)), height=0.5)
    table = Table(12, 12, [low])
    assert table.can_see((3, 6), r, 0.0, 1.25, (9, 6), r, 0.0, 1.25)
    # a target crouched right behind a 1" obstacle is hidden from the ground but seen from a tall platform
    tower = TerrainPiece("tower", "platform", ((0, 4), (4, 4), (4, 8), (0, 8)), height=4.0)
    wall = TerrainPiece("wall", "obstacle", ((8, 0), (8.3, 0), (8.3, 12), (8, 12)), height=1.0)
    table = Table(12, 12, [tower, wall])
    assert not table.can_see((6, 6), r, 0.0, 1.0, (8.8, 6), r, 0.0, 1.0)
    z = table.surface_height((2, 6))
    assert z == 4.0
    assert table.can_see((2, 6), r, z, 1.0, (8.8, 6), r, 0.0, 1.0)
    # the tower itself would block if it were not ignored automatically
    assert not table.line_of_sight((2, 6), z + 0.9, (8.8, 6), 0.5)
    assert table.line_of_sight((2, 6), z + 0.9, (8.8, 6), 0.9, frozenset({"tower", "wall"}))


def test_can_see_around_a_corner_with_offset_eyes() -> None:
    # the centre line is blocked but the viewer's right-hand eye point clears the pillar's edge
    r = 0.5
    pillar = TerrainPiece("pillar", "blocking", ((4, 5.9), (6, 5.9), (6, 8), (4, 8)), height=5.0)
    table = Table(12, 12, [pillar])
    assert not table.line_of_sight((1, 6), 1.0, (9, 6), 1.0)
    assert table.can_see((1, 6), r, 0.0, 1.0, (9, 6), r, 0.0, 1.0)


# ---------------------------------------------------------------------------------------- pathfinding


def check_path(
    table: Table,
    res: tuple[list[Vec], float],
    a: Vec,
    b: Vec,
    r: float,
    solid: list[TerrainPiece],
    circles: list[tuple[Vec, float]],
) -> None:
    path, total = res
    assert path[0] == a and path[-1] == b
    legs = list(itertools.pairwise(path))
    assert total == pytest.approx(sum(distance(p, q) for p, q in legs))
    assert total >= distance(a, b) - 1e-9
    for p, q in legs:
        line = LineString([p, q]) if p != q else Point(p)
        for piece in solid:
            poly = shp(piece)
            assert line.intersection(poly).length <= 1e-7  # at most a touching point (up to slack)
            assert not poly.contains(line)
            assert line.distance(poly) >= r - 1e-6
        for c, rad in circles:
            assert line.distance(Point(c)) >= rad - 1e-6
    for p in path[1:-1]:
        assert table.on_table(p, r)


@SLOW
@given(
    terrain_sets(max_pieces=4, kinds=("impassable", "blocking")),
    st.lists(st.tuples(point, st.floats(min_value=0.3, max_value=1.2)), max_size=3),
    point,
    point,
    st.sampled_from([0.0, 0.5, base_radius(40)]),
)
def test_shortest_path_properties(
    terrain: list[TerrainPiece], circles: list[tuple[Vec, float]], a: Vec, b: Vec, r: float
) -> None:
    table = Table(12.0, 12.0, terrain)
    for p in (a, b):
        assume(all(shp(t).distance(Point(p)) >= r + 1e-3 and not shp(t).contains(Point(p)) for t in terrain))
        assume(all(distance(p, c) >= rad + 1e-3 for c, rad in circles))
    res = table.shortest_path(a, b, r, terrain, circles)
    straight = LineString([a, b]) if a != b else Point(a)
    straight_clear = all(straight.distance(shp(t)) >= r + 1e-6 for t in terrain) and all(
        straight.distance(Point(c)) >= rad + 1e-6 for c, rad in circles
    )
    if straight_clear:
        assert res is not None
        assert res[0] == [a, b]
        assert res[1] == pytest.approx(distance(a, b))
    if res is not None:
        check_path(table, res, a, b, r, terrain, circles)
        if res[1] > distance(a, b) + 1e-6:
            assert table.shortest_path(a, b, r, terrain, circles, max_cost=res[1] - 1e-3) is None


def test_shortest_path_around_a_block_is_near_optimal() -> None:
    sq = TerrainPiece("sq", "impassable", ((4, 4), (6, 4), (6, 6), (4, 6)), height=3.0)
    table = Table(12, 12, [sq])
    a, b, r = (0.5, 5.0), (11.5, 5.0), 0.5
    res = table.shortest_path(a, b, r, [sq])
    assert res is not None
    check_path(table, res, a, b, r, [sq], [])
    path, total = res
    assert len(path) == 4
    d = 1.05 * r
    expected = math.hypot(4 - d - 0.5, 1 + d) + 2 + 2 * d + math.hypot(11.5 - 6 - d, 1 + d)
    assert total == pytest.approx(expected)
    # the true optimum (rounded corners at exactly r) is a little shorter; the graph path is within 2%
    assert total < 1.02 * (math.hypot(3.5, 1.5) + 2 + math.hypot(5.5, 1.5))


def test_shortest_path_with_circles_and_custom_cost() -> None:
    table = Table(12, 12, [])
    blocker = ((6.0, 6.0), 1.0)
    a, b = (2.0, 6.0), (10.0, 6.0)
    res = table.shortest_path(a, b, 0.5, [], [blocker])
    assert res is not None
    check_path(table, res, a, b, 0.5, [], [blocker])
    assert res[1] < 8.5

    mud = TerrainPiece("mud", "difficult", ((5, 0), (7, 0), (7, 12), (5, 12)))
    t2 = Table(12, 12, [mud])

    def double_in_mud(p: Vec, q: Vec) -> float:
        return distance(p, q) + t2.trace(p, q).length_in("difficult")

    res2 = t2.shortest_path(a, b, 0.5, [], [blocker], cost=double_in_mud)
    assert res2 is not None
    path, total = res2
    assert total == pytest.approx(sum(double_in_mud(p, q) for p, q in itertools.pairwise(path)))
    assert total >= 10.0 - 1e-9  # 8" of which at least 2" in mud
    assert t2.shortest_path(a, b, 0.5, [], [blocker], cost=double_in_mud, max_cost=9.0) is None


def test_shortest_path_walled_in_is_none() -> None:
    walls = [
        TerrainPiece("n", "impassable", ((4, 8), (8, 8), (8, 8.5), (4, 8.5)), height=2),
        TerrainPiece("s", "impassable", ((4, 3.5), (8, 3.5), (8, 4), (4, 4)), height=2),
        TerrainPiece("w", "impassable", ((3.5, 3.5), (4, 3.5), (4, 8.5), (3.5, 8.5)), height=2),
        TerrainPiece("e", "impassable", ((8, 3.5), (8.5, 3.5), (8.5, 8.5), (8, 8.5)), height=2),
    ]
    table = Table(12, 12, walls)
    assert table.shortest_path((1.0, 1.0), (6.0, 6.0), 0.5, walls) is None
    assert table.shortest_path((6.0, 6.0), (1.0, 1.0), 0.5, walls) is None
    # a 0.8" gap in the north wall lets a small base through but not a large one
    gapped = [
        *walls[1:],
        TerrainPiece("n1", "impassable", ((4, 8), (5.6, 8), (5.6, 8.5), (4, 8.5))),
        TerrainPiece("n2", "impassable", ((6.4, 8), (8, 8), (8, 8.5), (6.4, 8.5))),
    ]
    table = Table(12, 12, gapped)
    small = table.shortest_path((6.0, 11.0), (6.0, 6.0), 0.3, gapped)
    assert small is not None and small[0] == [(6.0, 11.0), (6.0, 6.0)]
    assert table.shortest_path((1.0, 11.0), (6.0, 6.0), 0.3, gapped) is not None
    assert table.shortest_path((1.0, 11.0), (6.0, 6.0), 0.5, gapped) is None


def test_sharp_corner_nodes_keep_clearance() -> None:
    spike = TerrainPiece("spike", "impassable", ((2, 5), (10, 5.4), (10, 5.8)), height=2)
    table = Table(12, 12, [spike])
    for a, b in [((1.0, 6.0), (11.0, 5.0)), ((5.0, 8.0), (5.0, 3.0)), ((0.8, 5.2), (11.0, 6.5))]:
        res = table.shortest_path(a, b, 0.5, [spike])
        assert res is not None
        check_path(table, res, a, b, 0.5, [spike], [])
