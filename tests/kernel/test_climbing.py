"""Tests for warband.kernel.climbing: standing on, climbing over and falling off platforms and walls, with
shapely as the brute-force reference where a property holds for any convex piece."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from warband.kernel.climbing import (
    edge_point,
    foot_point,
    gap_across,
    over_point,
    platform_under,
    stands_on,
    touches,
)
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
coord = st.floats(min_value=-2.0, max_value=14.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)
point = st.tuples(coord, coord)


def box(
    pid: str, x0: float, y0: float, x1: float, y1: float, kind: str = "platform", height: float = 3.0
) -> TerrainPiece:
    return TerrainPiece(pid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


@st.composite
def convex_pieces(draw: st.DrawFn) -> TerrainPiece:
    """A regular polygon in either winding (``edge_point`` must point its normals outward for both)."""
    n = draw(st.integers(min_value=3, max_value=8))
    cx, cy = draw(st.floats(4.0, 8.0)), draw(st.floats(4.0, 8.0))
    rad = draw(st.floats(min_value=1.0, max_value=4.0))
    rot = draw(st.floats(min_value=0.0, max_value=2 * math.pi))
    ring = [
        (cx + rad * math.cos(rot + 2 * math.pi * k / n), cy + rad * math.sin(rot + 2 * math.pi * k / n))
        for k in range(n)
    ]
    if draw(st.booleans()):
        ring.reverse()
    return TerrainPiece("p", "platform", tuple(ring), 2.0)


# ----------------------------------------------------------------------------------------- standing on a top
def test_the_platform_under_a_point_is_the_tallest_platform_holding_it() -> None:
    low, high = box("low", 0, 0, 10, 10, height=2), box("high", 4, 4, 6, 6, height=5)
    wall = box("wall", 0, 0, 10, 10, kind="obstacle", height=9)
    pieces = [wall, low, high]
    assert platform_under(pieces, (5, 5)) is high
    assert platform_under(pieces, (1, 1)) is low
    assert platform_under(pieces, (11, 5)) is None  # off every top
    assert platform_under([wall], (5, 5)) is None  # a wall is climbed over, never stood on


def test_a_base_stands_on_a_top_only_when_it_is_wholly_on_it() -> None:
    roof = box("roof", 0, 0, 4, 4)
    assert stands_on(roof, (2, 2), 1.0)
    assert stands_on(roof, (1, 1), 1.0)  # touching two edges from inside
    assert not stands_on(roof, (0.5, 2), 1.0)  # half over the edge
    assert not stands_on(roof, (6, 2), 1.0)


# ----------------------------------------------------------------------------------------- moving past a piece
def test_a_sliding_base_touches_a_piece_it_passes_within_its_radius() -> None:
    wall = box("wall", 4, 0, 5, 4, kind="obstacle")
    assert touches(wall, (0, 2), (8, 2), 0.5)  # straight through
    assert touches(wall, (0, 4.4), (8, 4.4), 0.5)  # over the top edge, within the base's radius
    assert not touches(wall, (0, 4.6), (8, 4.6), 0.5)
    assert touches(wall, (5.3, 6), (5.3, 4.3), 0.5)  # ends by the corner


@SETTINGS
@given(convex_pieces(), point, point, st.floats(min_value=0.1, max_value=1.5))
def test_touches_agrees_with_the_swept_base(piece: TerrainPiece, p: Vec, q: Vec, r: float) -> None:
    swept = LineString([p, q]).buffer(r) if p != q else Point(p).buffer(r)
    d = Polygon(piece.polygon).distance(LineString([p, q]) if p != q else Point(p))
    assume(abs(d - r) > 1e-3)  # not grazing: the two answers may differ within the tolerance
    assert touches(piece, p, q, r) == swept.intersects(Polygon(piece.polygon))


# ----------------------------------------------------------------------------------------- jumping across
def test_a_jump_crosses_the_open_space_between_two_tops_and_falls_in_its_middle() -> None:
    a, b = box("a", 0, 0, 4, 4), box("b", 7, 0, 11, 4)
    open_space, middle = gap_across(a, b, (2, 2), (9, 2))
    assert open_space == pytest.approx(3.0)
    assert middle == pytest.approx((5.5, 2.0))
    diagonal, mid = gap_across(a, b, (2, 1), (9, 3))
    assert diagonal == pytest.approx(3.0 * math.hypot(7, 2) / 7)  # the 3" of x-gap, along the slanted line
    assert mid[0] == pytest.approx(5.5)


def test_tops_that_touch_leave_no_open_space() -> None:
    a, b = box("a", 0, 0, 4, 4), box("b", 4, 0, 8, 4)
    assert gap_across(a, b, (2, 2), (6, 2))[0] == pytest.approx(0.0)


# ----------------------------------------------------------------------------------------- edges
def test_the_nearest_edge_of_a_square_and_its_outward_normal() -> None:
    for ring in (((0, 0), (4, 0), (4, 4), (0, 4)), ((0, 0), (0, 4), (4, 4), (4, 0))):  # both windings
        piece = TerrainPiece("sq", "platform", ring, 2.0)
        d, c, n = edge_point(piece, (3.5, 2))
        assert d == pytest.approx(0.5)
        assert c == pytest.approx((4.0, 2.0))
        assert n == pytest.approx((1.0, 0.0))


@SETTINGS
@given(convex_pieces(), point)
def test_edge_point_is_the_nearest_boundary_point_with_an_outward_normal(piece: TerrainPiece, p: Vec) -> None:
    poly = Polygon(piece.polygon)
    assume(poly.contains(Point(p)))
    d, c, n = edge_point(piece, p)
    assert d == pytest.approx(poly.exterior.distance(Point(p)), abs=1e-9)
    assert poly.exterior.distance(Point(c)) == pytest.approx(0.0, abs=1e-9)
    assert math.hypot(*n) == pytest.approx(1.0)
    assert not poly.contains(Point(c[0] + 0.01 * n[0], c[1] + 0.01 * n[1]))  # outward
    assert poly.contains(Point(c[0] - 0.01 * n[0], c[1] - 0.01 * n[1]))


# ----------------------------------------------------------------------------------------- where a base goes
def test_the_foot_of_a_side_is_a_clearance_off_it_and_just_over_it_is_on_the_top() -> None:
    roof = box("roof", 4, 0, 8, 4)
    assert foot_point(roof, (1, 2), 0.5) == (3.25, 2.0)  # radius 0.5 plus 0.25 clear of the side x = 4
    assert foot_point(roof, (1, 2), 0.5, clear=1.0) == (2.5, 2.0)
    assert foot_point(roof, (1, 2), 0.5, inside=True) == (4.6, 2.0)  # wholly on the top: radius plus 0.1 in
    assert stands_on(roof, foot_point(roof, (1, 2), 0.5, inside=True), 0.5)


def test_from_on_top_the_foot_is_just_beyond_the_nearest_edge() -> None:
    roof = box("roof", 0, 0, 4, 4)
    assert foot_point(roof, (3.6, 1.5), 0.5) == (4.75, 1.5)  # where a fighter falling off the east edge lands
    assert platform_under([roof], foot_point(roof, (3.6, 1.5), 0.5)) is None


def test_over_a_wall_lands_clear_of_its_far_side() -> None:
    wall = box("wall", 10, 0, 11, 8, kind="obstacle", height=2)
    assert over_point(wall, (8, 5), 0.5) == (11.75, 5.0)
    assert over_point(wall, (8, 5), 0.5, clear=0.5) == (12.0, 5.0)
    far = over_point(wall, (14, 3), 0.5)  # from the other side
    assert far == (9.25, 3.0)
    assert not touches(wall, far, far, 0.5)
