"""The kernel's fast paths (issue 15) give exactly what the plain definitions give."""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.geometry import DISTANCE_MEMO_LIMIT, TerrainPiece, segment_point_distance
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
