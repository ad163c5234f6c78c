"""INFILTRATOR (digest §9): the spots an infiltrator may take are at least ``infiltrate_distance`` from every enemy.
``setup._near_enemies`` finds the grid points too near an enemy by measuring only those in each enemy's band of x
and y (the infiltration ground is in order of x); it must find exactly the points the plain test over every point
and every enemy finds, on tables with terrain and enemies anywhere, bases of every size."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from tc import box, position, trooper

from warband.rulesets.trench_crusade import setup

coord = st.one_of(st.integers(-200, 2600).map(lambda k: k / 100), st.floats(-2.0, 26.0, allow_nan=False))


@settings(max_examples=150)
@given(
    st.lists(st.tuples(coord, coord, st.sampled_from((0.5, 0.63, 0.8, 1.0))), max_size=6),
    st.sampled_from((25, 32, 40, 50)),
    st.sampled_from((0.0, 3.0, 8.0, 8.0 - 1e-9)),
)
def test_near_enemies_is_the_plain_test(enemies: list[tuple[float, float, float]], base: int, near: float) -> None:
    game = position([trooper(base=base)], [trooper()], {"a1": (2.0, 2.0), "b1": (20.0, 20.0)}, terrain=_terrain())
    m = game.state.models["a1"]
    ground = setup._infiltration_ground(game.state, m)
    assert [p[0] for _, p, _ in ground] == sorted(p[0] for _, p, _ in ground)  # in order of x
    r, bound = m.radius, near - 1e-9
    plain = {
        i
        for i, (_, (x, y), _) in enumerate(ground)
        if any(math.hypot(ex - x, ey - y) - er - r < bound for ex, ey, er in enemies)
    }
    assert setup._near_enemies(ground, enemies, r, bound) == plain


def _terrain() -> list[dict[str, object]]:
    return [box("rock", "impassable", 8, 8, 11, 12, height=3.0), box("pool", "dangerous", 15, 3, 18, 6)]
