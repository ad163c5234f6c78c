"""The kernel's model-level table queries (kernel/space.py), checked against shapely and brute force."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point

from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import (
    clear_of_circles,
    corridor,
    enemies,
    enemies_within,
    gap,
    gap_at,
    memo_sight,
    overlapping,
    toward,
    walk_path,
)
from warband.kernel.state import Model

FAST = settings(max_examples=200, deadline=None)
coord = st.floats(min_value=0.0, max_value=24.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)
point = st.tuples(coord, coord)
radius = st.floats(min_value=0.1, max_value=2.0)


def model(mid: str, side: int, at: tuple[float, float], r: float, on_table: bool = True) -> Model:
    return Model(mid, side, mid, "x", r, 1.0, {}, at[0], at[1], 0.0, on_table)


@FAST
@given(point, radius, point, radius)
def test_gap_is_the_distance_between_the_two_base_discs(
    a: tuple[float, float], ra: float, b: tuple[float, float], rb: float
) -> None:
    """Base edge to base edge = shapely's distance between the two discs (0 when they touch or overlap)."""
    want = Point(a).buffer(ra, 256).distance(Point(b).buffer(rb, 256))
    got = gap(model("m", 0, a, ra), model("n", 1, b, rb))
    assert math.isclose(got, want, abs_tol=2e-3)
    assert gap_at(a, ra, model("n", 1, b, rb)) == got


@FAST
@given(st.lists(st.tuples(point, radius, st.integers(0, 1), st.booleans()), max_size=8), point, radius, st.floats(0, 3))
def test_enemies_within_are_exactly_the_enemies_on_the_table_that_close(
    others: list[tuple[tuple[float, float], float, int, bool]], at: tuple[float, float], r: float, dist: float
) -> None:
    me = model("me", 0, at, r)
    ms = [model(f"o{i}", side, p, rr, on) for i, (p, rr, side, on) in enumerate(others)]
    got = {e.id for e in enemies_within(ms, me, dist)}
    want = {
        o.id
        for o in ms
        if o.side == 1 and o.on_table and Point(at).distance(Point(o.x, o.y)) - r - o.radius <= dist + 1e-9
    }
    assert got == want


@FAST
@given(
    st.lists(st.tuples(point, radius, st.integers(0, 1), st.booleans()), max_size=8),
    point,
    radius,
    st.floats(-1, 3) | st.sampled_from([0.0, 1.0]),
)
def test_enemies_within_is_the_gap_test_one_model_at_a_time(
    others: list[tuple[tuple[float, float], float, int, bool]], at: tuple[float, float], r: float, dist: float
) -> None:
    """The one-pass list (gap unclamped) is exactly the reference: the enemies in order, each ``gap <= dist``."""
    me = model("me", 0, at, r)
    ms = [model(f"o{i}", side, p, rr, on) for i, (p, rr, side, on) in enumerate(others)]
    # touching and overlapping bases: the unclamped gap is 0 or negative where gap() says 0
    ms += [model("t", 1, (at[0] + r + 0.5, at[1]), 0.5), model("u", 1, (at[0] + 0.1, at[1]), 0.5)]
    want = [o for o in enemies(ms, me) if gap(me, o) <= dist + 1e-9]
    assert enemies_within(ms, me, dist) == want


@FAST
@given(st.lists(st.tuples(point, radius), max_size=6), point, radius)
def test_overlapping_finds_a_base_whose_disc_intersects_with_positive_area(
    others: list[tuple[tuple[float, float], float]], at: tuple[float, float], r: float
) -> None:
    ms = [model(f"o{i}", 1, p, rr) for i, (p, rr) in enumerate(others)]
    hit = overlapping(ms, at, r)
    deep = [o for o in ms if math.dist(at, (o.x, o.y)) < r + o.radius - 1e-3]
    clear = [o for o in ms if math.dist(at, (o.x, o.y)) > r + o.radius + 1e-3]
    if deep:
        assert hit is not None and hit not in clear
    elif len(clear) == len(ms):
        assert hit is None
    assert overlapping(ms, at, r, skip=lambda o: True) is None


@FAST
@given(point, point, st.lists(st.tuples(point, radius), max_size=6))
def test_clear_of_circles_agrees_with_shapely(
    a: tuple[float, float], b: tuple[float, float], circles: list[tuple[tuple[float, float], float]]
) -> None:
    """A segment is clear when it stays at least r from every centre (within a hair of tangency either way)."""
    seg = LineString([a, b]) if math.dist(a, b) > 1e-9 else Point(a)  # shapely: a degenerate line is far away
    dists = [seg.distance(Point(c)) - r for c, r in circles]
    if all(d > 1e-6 for d in dists):
        assert clear_of_circles(a, b, circles)
    if any(d < -1e-6 for d in dists):
        assert not clear_of_circles(a, b, circles)


@FAST
@given(point, point, st.floats(0, 30), st.lists(st.tuples(point, radius), max_size=6))
def test_corridor_keeps_every_circle_a_short_path_could_meet(
    a: tuple[float, float], b: tuple[float, float], length: float, circles: list[tuple[tuple[float, float], float]]
) -> None:
    """Any point within ``length`` of travel from a to b lies in the ellipse; a circle meeting it is kept."""
    kept, _ = corridor(a, b, length, circles, [])
    d = math.dist(a, b)
    for c, r in circles:
        if (c, r) in kept:
            continue
        # a dropped circle: every point q of its disc needs |a-q| + |q-b| > max(length, d) of travel
        ring = [(c[0] + r * math.cos(k * math.pi / 360), c[1] + r * math.sin(k * math.pi / 360)) for k in range(720)]
        inside = math.dist(a, c) <= r or math.dist(b, c) <= r
        shortest = d if inside else min(math.dist(a, q) + math.dist(q, b) for q in ring)
        assert shortest > max(length, d) - 1e-3


def test_corridor_drops_terrain_far_from_the_path() -> None:
    near = TerrainPiece("near", "impassable", ((5, 1), (6, 1), (6, 2), (5, 2)), 2.0)
    far = TerrainPiece("far", "impassable", ((5, 20), (6, 20), (6, 21), (5, 21)), 2.0)
    _, solids = corridor((0, 0), (10, 0), 11, [], [near, far])
    assert solids == [near]


@FAST
@given(st.lists(point, min_size=2, max_size=5), st.floats(0, 40))
def test_walk_path_on_open_ground_stops_where_the_budget_runs_out(
    path: list[tuple[float, float]], budget: float
) -> None:
    """On open ground (cost = length) the end point is where the polyline's arc length reaches the budget."""
    end = walk_path(path, budget, lambda p, q: math.dist(p, q))
    left = budget
    want = path[-1]
    for i in range(len(path) - 1):
        leg = math.dist(path[i], path[i + 1])
        if leg <= left:
            left -= leg
            continue
        want = LineString([path[i], path[i + 1]]).interpolate(left).coords[0]
        break
    assert math.dist(end, want) < 1e-6


def test_walk_path_prices_legs_with_the_rule_given() -> None:
    """A leg costing double (difficult ground) takes the walker half as far: 3" of budget on a 10" leg at
    double cost ends 1.5" along it."""
    end = walk_path([(0.0, 0.0), (10.0, 0.0)], 3.0, lambda p, q: 2 * math.dist(p, q))
    assert math.isclose(end[0], 1.5, abs_tol=1e-6) and end[1] == 0.0


def test_toward_and_the_sight_memo() -> None:
    assert toward((0.0, 0.0), (3.0, 4.0), 2.5) == (1.5, 2.0)
    assert toward((1.0, 1.0), (1.0, 1.0), 2.0) == (1.0, 1.0)
    calls: list[int] = []

    def see(a: Model, b: Model) -> bool:
        calls.append(1)
        return a.x < b.x

    memo: dict[object, object] = {}
    a, b = model("a", 0, (1, 1), 0.5), model("b", 1, (5, 1), 0.5)
    assert memo_sight(memo, a, b, see) and memo_sight(memo, a, b, see)
    assert len(calls) == 1  # asked once, remembered by position
    b.x = 0.0
    assert not memo_sight(memo, a, b, see) and len(calls) == 2
