"""Table helpers shared by the tests: a rectangular terrain piece as a scenario file holds it, and random terrain
for the compiled paths' property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from warband.kernel.geometry.terrain import TerrainPiece

#: a coordinate on a 24" table: often on a hundredth of an inch (where ties and thresholds sit), else any float
COORD_24 = st.one_of(st.integers(0, 2400).map(lambda k: k / 100), st.floats(0.0, 24.0, allow_nan=False))


@st.composite
def random_pieces(
    draw: st.DrawFn,
    most: int,
    kinds: tuple[str, ...],
    heights: tuple[float, ...] = (2.0,),
    any_sight: bool = False,
) -> list[TerrainPiece]:
    """Up to ``most`` convex pieces on a 24" table, rectangles or triangles with slanted edges, of ``kinds`` and
    ``heights``; each blocks sight unless ``any_sight`` draws that too."""
    out = []
    for i in range(draw(st.integers(0, most))):
        x0, y0 = draw(COORD_24), draw(COORD_24)
        w, d = draw(st.floats(0.1, 8.0)), draw(st.floats(0.1, 8.0))
        poly: tuple[tuple[float, float], ...] = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + d), (x0, y0 + d))
        if draw(st.booleans()):  # a triangle: slanted edges
            poly = ((x0, y0), (x0 + w, y0 + d / 3), (x0 + w / 2, y0 + d))
        kind = draw(st.sampled_from(kinds))
        height = draw(st.sampled_from(heights))
        out.append(TerrainPiece(f"t{i}", kind, poly, height, draw(st.booleans()) if any_sight else True))
    return out


def box(
    id: str,
    kind: str,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    height: float = 0.0,
    blocks_los: bool = False,
    cover: bool = False,
) -> dict[str, Any]:
    """The terrain piece ``id`` of ``kind``: the rectangle (x0, y0)-(x1, y1), in a scenario file's fields."""
    return {
        "id": id,
        "kind": kind,
        "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        "height": height,
        "blocks_los": blocks_los,
        "cover": cover,
    }
