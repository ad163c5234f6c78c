"""The kernel's fast paths (issue 15) give exactly what the plain definitions give."""

from __future__ import annotations

import math
import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.geometry.distance import segment_point_distance
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import DISTANCE_MEMO_LIMIT, TerrainPiece
from warband.kernel.ruleset import get
from warband.kernel.setup import inset, wholly_inside
from warband.kernel.state import Model

PENTAGON = ((0.0, 0.0), (6.0, 0.0), (7.0, 2.0), (5.0, 4.0), (1.0, 3.0))
coord = st.floats(min_value=-10.0, max_value=15.0, allow_nan=False)


def plain_distance(piece: TerrainPiece, p: tuple[float, float]) -> float:
    """distance_to by its definition: 0 inside, else the nearest edge of the (cleaned) ring."""
    if piece.contains(p):
        return 0.0
    verts = piece._verts
    return min(segment_point_distance(verts[i - 1], verts[i], p) for i in range(len(verts)))


@given(coord, coord)
def test_distance_to_is_the_plain_distance_bit_for_bit(x: float, y: float) -> None:
    piece = TerrainPiece("p", "obstacle", PENTAGON)
    first = piece.distance_to((x, y))
    again = piece.distance_to((x, y))  # from the memo
    assert first == again == plain_distance(piece, (x, y))


def test_distance_memo_is_bounded_invisible_to_equality_and_survives_pickling() -> None:
    piece = TerrainPiece("p", "obstacle", PENTAGON)
    rng = random.Random(3)
    for _ in range(DISTANCE_MEMO_LIMIT + 10):
        piece.distance_to((rng.uniform(-5, 12), rng.uniform(-5, 9)))
    assert len(piece._distances) <= DISTANCE_MEMO_LIMIT
    fresh = TerrainPiece("p", "obstacle", PENTAGON)
    assert piece == fresh and hash(piece) == hash(fresh)
    copy = pickle.loads(pickle.dumps(piece))
    assert copy == piece and copy.distance_to((9.0, 9.0)) == fresh.distance_to((9.0, 9.0))


@given(coord, coord, st.floats(min_value=0.0, max_value=3.0))
def test_wholly_inside_is_inset_at_least_radius(x: float, y: float, r: float) -> None:
    zone = TerrainPiece("z", "open", PENTAGON)
    expected = zone.contains((x, y)) and inset(zone, (x, y)) >= r - 1e-9
    assert wholly_inside(zone, (x, y), r) == expected


def test_model_copy_is_an_independent_equal_copy() -> None:
    m = Model(
        "a1", 1, "Trooper", "trooper", 0.6, 1.1, {"x": 1}, 1.0, 2.0, 0.5, True, "u1", {"blood": 2}, {"down": True}
    )
    c = m.copy()
    assert type(c) is Model and c.to_json() == m.to_json() and c.data is m.data
    c.tokens["blood"] = 0
    c.flags["down"] = False
    assert m.tokens == {"blood": 2} and m.flags == {"down": True}


def test_apply_accepts_an_equal_action_that_is_not_the_listed_object() -> None:
    rs = get("trench-crusade")
    samples = rs.samples()["warbands"]
    rosters = [rs.load_roster(samples[0]["path"]), rs.load_roster(samples[1]["path"])]
    game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), 5, record=False)
    game.settle()
    listed = game.legal_actions()[-1]
    twin = Action(listed.kind, listed.model, listed.target, listed.point, listed.option)
    assert twin is not listed and game.is_legal(twin)
    assert not game.is_legal(Action("no-such-action"))


# ------------------------------------------------------------------------------------------- walk graphs
WALLS = (
    TerrainPiece("w1", "obstacle", ((8.0, 4.0), (10.0, 4.0), (10.0, 16.0), (8.0, 16.0)), height=2.0),
    TerrainPiece("w2", "obstacle", ((14.0, 0.0), (15.0, 0.0), (15.0, 10.0), (14.0, 10.0)), height=2.0),
    TerrainPiece("ruin", "impassable", tuple((x + 18.0, y + 12.0) for x, y in PENTAGON)),
    TerrainPiece("rock", "impassable", ((3.0, 12.0), (5.0, 11.0), (6.0, 14.0))),
)
WARM = Table(30.0, 22.0, WALLS)  # one table for every example: its walk graphs and leg answers pile up
spot = st.tuples(st.floats(min_value=0.5, max_value=29.5), st.floats(min_value=0.5, max_value=21.5))


@given(
    spot,
    spot,
    st.sampled_from([0.0, 0.5, 0.75, 1.0]),
    st.lists(st.tuples(spot, st.sampled_from([0.8, 1.25])), max_size=3),
    st.sampled_from([(0, 1, 2, 3), (0, 2), (1, 3), (3, 2, 1, 0)]),
    st.booleans(),
)
def test_remembered_walk_graphs_never_change_a_path(
    a: tuple[float, float],
    b: tuple[float, float],
    r: float,
    circles: list[tuple[tuple[float, float], float]],
    pick: tuple[int, ...],
    costly: bool,
) -> None:
    # shortest_path keeps, per base radius and set of solid pieces, the grown corners and the legs between them
    # that keep clear of the pieces (the bases are checked afresh). A table that has answered many other
    # questions must give, bit for bit, what a new table gives.
    solids = [WALLS[i] for i in pick]
    cost = (lambda p, q: 2.0 * math.dist(p, q)) if costly else None
    fresh = Table(30.0, 22.0, WALLS)
    args = (a, b, r, solids, circles, cost, 40.0 if costly else math.inf, costly)
    assert WARM.shortest_path(*args) == fresh.shortest_path(*args)


def test_a_table_travels_without_its_walk_graphs() -> None:
    WARM.shortest_path((1.0, 1.0), (20.0, 20.0), 0.5, list(WALLS))
    assert WARM._walks
    copy = pickle.loads(pickle.dumps(WARM))
    assert not copy._walks and copy.terrain == WARM.terrain
    assert copy.shortest_path((1.0, 1.0), (20.0, 20.0), 0.5, list(WALLS)) == WARM.shortest_path(
        (1.0, 1.0), (20.0, 20.0), 0.5, list(WALLS)
    )
