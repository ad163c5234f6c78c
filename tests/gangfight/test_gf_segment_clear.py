"""``terrain.segment_clear``: the straight-line clearance Gangfight's straight moves use (a Move candidate, Flee!,
a Slam! push), built on the kernel's public TerrainPiece queries instead of a private helper. Checked against
brute force: a base slid along the segment in small steps, its distance to the footprint measured at each."""

from __future__ import annotations

import math
import random

import pytest

from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.rulesets.gangfight.terrain import segment_clear

WALL = TerrainPiece("wall", "impassable", ((10.0, 0.0), (12.0, 0.0), (12.0, 20.0), (10.0, 20.0)), height=3.0)


def brute(piece: TerrainPiece, p: Vec, q: Vec, r: float, steps: int = 2000) -> float:
    """The least distance from the segment's points to the footprint (0 inside), sampled."""
    return min(
        piece.distance_to((p[0] + (q[0] - p[0]) * k / steps, p[1] + (q[1] - p[1]) * k / steps))
        for k in range(steps + 1)
    )


@pytest.mark.parametrize(
    ("p", "q", "r", "clear"),
    [
        ((5.0, 5.0), (15.0, 5.0), 0.5, False),  # straight through the wall
        ((5.0, 5.0), (9.0, 5.0), 0.5, True),  # stops short: 1" of air left
        ((5.0, 5.0), (9.6, 5.0), 0.5, False),  # the base would scrape the wall
        ((5.0, 22.0), (15.0, 22.0), 0.5, True),  # past the end of the wall
        ((5.0, 20.3), (15.0, 20.3), 0.5, False),  # past the end, but the base clips the corners
        ((10.0, -3.0), (10.0, -1.0), 0.0, True),  # a point model along the wall's line, short of it
    ],
)
def test_a_base_sliding_past_a_wall(p: Vec, q: Vec, r: float, clear: bool) -> None:
    assert segment_clear(WALL, p, q, r) is clear


def test_agrees_with_sliding_the_base_in_small_steps() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(300):
        cx, cy, w, h = rng.uniform(5, 15), rng.uniform(5, 15), rng.uniform(1, 5), rng.uniform(1, 5)
        k = rng.choice([3, 4, 6])
        poly = tuple(
            (cx + w * math.cos(2 * math.pi * i / k + 0.3), cy + h * math.sin(2 * math.pi * i / k + 0.3))
            for i in range(k)
        )
        piece = TerrainPiece("p", "blocking", poly, height=2.0)
        p = (rng.uniform(0, 20), rng.uniform(0, 20))
        q = (rng.uniform(0, 20), rng.uniform(0, 20))
        r = rng.choice([0.5, 1.0])
        d = brute(piece, p, q, r)
        if abs(d - r) < 0.02:  # too close to call by sampling
            continue
        checked += 1
        assert segment_clear(piece, p, q, r) is (d >= r), (poly, p, q, r, d)
    assert checked > 250
