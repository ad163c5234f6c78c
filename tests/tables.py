"""Table helpers shared by the rulesets' position tests: a rectangular terrain piece as a scenario file holds it."""

from __future__ import annotations

from typing import Any


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
