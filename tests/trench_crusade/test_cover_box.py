"""``sight.cover_piece`` skips measuring a piece's distance from the target when the target is farther than the
cover contact from the piece's box along x or y (``far_from_box``): the footprint lies in its box, so such a point
is farther than the contact from the footprint and the piece gives no cover (digest §4 Cover: the target touches
the terrain). Checked against ``TerrainPiece.distance_to`` on random pieces, points and reaches, points just
either side of the reach from the box's edges included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables import box, random_pieces
from warband.kernel.geometry.terrain import TerrainPiece
from warband.rulesets.trench_crusade.sight import far_from_box

anywhere = st.one_of(st.floats(-4.0, 28.0, allow_nan=False), st.integers(-400, 2800).map(lambda k: k / 100))
off = st.floats(-1e-3, 1e-3, allow_nan=False)  # either side of the reach


@settings(max_examples=300)
@given(st.data())
def test_a_point_far_from_the_box_is_farther_from_the_footprint(data: st.DataObject) -> None:
    reach = data.draw(st.sampled_from((0.0, 0.5, 0.6, 1.0, 1.25)))
    for piece in data.draw(random_pieces(3, ("blocking",))):
        minx, miny, maxx, maxy = piece.bbox
        mid = (minx + maxx) / 2, (miny + maxy) / 2
        for p in [
            (data.draw(anywhere), data.draw(anywhere)),
            (minx - reach + data.draw(off), mid[1]),
            (maxx + reach + data.draw(off), data.draw(anywhere)),
            (mid[0], miny - reach + data.draw(off)),
            (data.draw(anywhere), maxy + reach + data.draw(off)),
        ]:
            if far_from_box(piece, p, reach):
                assert piece.distance_to(p) > reach, (piece, p, reach)


def test_the_box_test_skips_only_what_is_clearly_out_of_reach() -> None:
    raw = box("wall", "blocking", 4.0, 4.0, 8.0, 6.0, height=2.0)
    piece = TerrainPiece(raw["id"], raw["kind"], tuple((x, y) for x, y in raw["polygon"]), raw["height"])
    assert far_from_box(piece, (2.9, 5.0), 1.0)  # 1.1" left of the box
    assert not far_from_box(piece, (3.1, 5.0), 1.0)  # 0.9": measured (and within reach)
    assert not far_from_box(piece, (3.0, 5.0), 1.0)  # exactly the reach: measured
    assert piece.distance_to((3.1, 5.0)) <= 1.0
