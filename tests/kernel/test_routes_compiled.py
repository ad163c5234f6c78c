"""The compiled leg test of route finding (``kernel.geometry._routes``, the fast path of ``Routes.shortest_path``'s
``clear``) must answer exactly as the Python reference: leg by leg against ``TerrainPiece._segment_clear`` and
``segment_point_distance`` (legs placed exactly at, and an ulp either side of, the clearance limit from a corner,
an edge or a base), and route by route (the same waypoints and the same cost, to the bit) on random tables. Skipped
where the extension is not built; it runs under ``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiled import compiled
from tables import COORD_24, random_pieces
from warband.kernel.geometry import paths
from warband.kernel.geometry.distance import CLEAR_TOL, EPS, Vec
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece

FAST, needs_build = compiled("warband.kernel.geometry._routes")

coord = COORD_24
grow_st = st.sampled_from((0.0, 0.49, 0.63, 0.5 * 32 / 25.4, 1.0))


def pieces() -> st.SearchStrategy[list[TerrainPiece]]:
    """Up to six solid pieces (what a route goes round), 2" high."""
    return random_pieces(6, ("blocking", "obstacle", "platform", "impassable"))


circles_st = st.lists(st.tuples(st.tuples(coord, coord), st.sampled_from((0.5, 0.98, 1.26, 2.0, 2.26))), max_size=8)


def _ref_leg(solids: tuple[TerrainPiece, ...], circles: list[tuple[Vec, float]], p: Vec, q: Vec, grow: float) -> bool:
    """The reference leg test as ``shortest_path`` runs it without the extension (``paths.leg_clear_of_solids``,
    then ``paths.leg_clear_of_circles``)."""
    box = (min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1]))
    return paths.leg_clear_of_solids(solids, p, q, grow, grow + EPS, box) and paths.leg_clear_of_circles(
        circles, p, q, box
    )


def _fast_leg(solids: tuple[TerrainPiece, ...], circles: list[tuple[Vec, float]], p: Vec, q: Vec, grow: float) -> bool:
    s = FAST.Solids(solids)
    c = FAST.Circles(tuple(circles))
    both = FAST.leg_clear(s, c, p[0], p[1], q[0], q[1], grow, grow + EPS)
    apart = FAST.solids_clear(s, p[0], p[1], q[0], q[1], grow, grow + EPS) and FAST.circles_clear(
        c, p[0], p[1], q[0], q[1]
    )
    assert both is apart
    return bool(both)


def _tangents(solids: tuple[TerrainPiece, ...], circles: list[tuple[Vec, float]], grow: float) -> Iterator[Vec]:
    """Points at the clearance limit (and an ulp either side) from every corner, every edge's middle and every
    circle: legs ending there are decided by the last bit of a length."""
    lim = grow - CLEAR_TOL
    for piece in solids:
        verts = piece._verts
        for k, (vx, vy) in enumerate(verts):
            nx, ny, _ = piece._planes[k]
            wx, wy = verts[(k + 1) % len(verts)]
            for bx, by in ((vx, vy), ((vx + wx) / 2, (vy + wy) / 2)):
                x = bx + nx * lim
                yield (x, by + ny * lim)
                yield (math.nextafter(x, math.inf), by + ny * lim)
                yield (math.nextafter(x, -math.inf), by + ny * lim)
    for (cx, cy), rad in circles:
        x = cx + rad - CLEAR_TOL
        for xx in (x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)):
            yield (xx, cy)


@pytest.fixture(scope="module", params=[1e-9, 1e9], ids=["libm", "cpython-hypot"])
def margin(request: pytest.FixtureRequest) -> Iterator[float]:
    """Run with the built margin, and with every length asked of CPython's hypot."""
    if FAST is None:
        yield request.param
        return
    FAST.set_margin(request.param)
    yield request.param
    FAST.set_margin(1e-9)


@needs_build
@settings(max_examples=300, deadline=None)
@given(pieces(), circles_st, grow_st, st.lists(st.tuples(coord, coord), min_size=2, max_size=6), st.data())
def test_compiled_leg_test_equals_the_reference(
    margin: float,
    terrain: list[TerrainPiece],
    circles: list[tuple[Vec, float]],
    grow: float,
    points: list[Vec],
    data: st.DataObject,
) -> None:
    solids = tuple(terrain)
    pts = points + list(_tangents(solids, circles, grow))
    for p in points:
        for q in pts:
            assert _fast_leg(solids, circles, p, q, grow) is _ref_leg(solids, circles, p, q, grow), (p, q, grow)
    # legs along an edge's parallel at the limit, from one tangent point to another
    tangents = list(_tangents(solids, circles, grow))
    if len(tangents) >= 2:
        i = data.draw(st.integers(0, len(tangents) - 1))
        j = data.draw(st.integers(0, len(tangents) - 1))
        p, q = tangents[i], tangents[j]
        assert _fast_leg(solids, circles, p, q, grow) is _ref_leg(solids, circles, p, q, grow), (p, q, grow)


def test_tangent_legs_are_both_clear_and_blocked() -> None:
    """The boundary cases above are real: a leg at the limit from a corner passes, an ulp inside it does not."""
    box = TerrainPiece("box", "blocking", ((5.0, 5.0), (7.0, 5.0), (7.0, 7.0), (5.0, 7.0)), 2.0)
    grow = 0.5
    lim = grow - CLEAR_TOL
    y = 5.0 - lim  # a horizontal leg passing below the box at the limit
    inside = math.nextafter(y, math.inf) + 1e-12
    answers = {
        _ref_leg((box,), [], (0.0, y - 1e-9), (12.0, y - 1e-9), grow),
        _ref_leg((box,), [], (0.0, inside), (12.0, inside), grow),
    }
    assert answers == {True, False}
    if FAST is not None:
        assert _fast_leg((box,), [], (0.0, y - 1e-9), (12.0, y - 1e-9), grow) is True
        assert _fast_leg((box,), [], (0.0, inside), (12.0, inside), grow) is False


def _route(
    compiled_on: bool, terrain: list[TerrainPiece], a: Vec, b: Vec, r: float, circles: list[tuple[Vec, float]]
) -> object:
    table = Table(24.0, 24.0, terrain)  # a table of its own: no leg memo shared between the two paths
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(paths, "_routes", FAST if compiled_on else None)
        solids = [p for p in table.terrain if p.kind != "platform"]
        return table.shortest_path(a, b, r, solids, circles, max_cost=40.0)


@needs_build
@settings(max_examples=200, deadline=None)
@given(pieces(), circles_st, st.tuples(coord, coord), st.tuples(coord, coord), st.sampled_from((0.49, 0.63, 0.98)))
def test_compiled_routes_equal_the_reference(
    margin: float, terrain: list[TerrainPiece], circles: list[tuple[Vec, float]], a: Vec, b: Vec, r: float
) -> None:
    assert _route(True, terrain, a, b, r, circles) == _route(False, terrain, a, b, r, circles)


@needs_build
def test_a_route_round_a_wall_is_found_both_ways() -> None:
    wall = TerrainPiece("wall", "blocking", ((10.0, 2.0), (11.0, 2.0), (11.0, 20.0), (10.0, 20.0)), 3.0)
    base = [((14.0, 21.0), 1.0)]
    fast = _route(True, [wall], (5.0, 10.0), (16.0, 10.0), 0.5, base)
    ref = _route(False, [wall], (5.0, 10.0), (16.0, 10.0), 0.5, base)
    assert fast == ref
    assert fast is not None and len(fast[0]) > 2  # it goes round, not through


@needs_build
@settings(max_examples=300, deadline=None)
@given(pieces(), circles_st, st.tuples(coord, coord), grow_st, st.data())
def test_compiled_route_nodes_equal_the_reference(
    margin: float,
    terrain: list[TerrainPiece],
    circles: list[tuple[Vec, float]],
    a: Vec,
    grow: float,
    data: st.DataObject,
) -> None:
    """The route's candidate nodes (corners off the bases, the bases' octagons on the table and clear of the
    solids), the same points in the same order; some bases placed with a corner of the walk graph at exactly
    their clearance limit."""
    table = Table(24.0, 24.0, terrain)
    solids = tuple(terrain)
    walk = table._walk_graph(grow, solids)
    circs = [((float(cx), float(cy)), float(rad)) for (cx, cy), rad in circles]
    if walk.nodes and circs:
        nx, ny = walk.nodes[data.draw(st.integers(0, len(walk.nodes) - 1))]
        rad = circs[0][1]
        circs.append(((nx - (rad - CLEAR_TOL), ny), rad))
    ref = table._route_nodes(walk, a, (1.0, 1.0), grow, solids, circs)
    fast = FAST.route_nodes(
        FAST.Solids(solids),
        FAST.Circles(tuple(circs)),
        walk.nodes,
        a,
        (1.0, 1.0),
        grow,
        24.0,
        24.0,
        paths._GROW,
        paths._COS_PI_8,
        paths._OCTAGON,
    )
    assert fast == ref
