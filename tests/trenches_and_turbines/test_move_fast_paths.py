"""Short cuts of the move costs (speed only): a leg whose box stays clear of every piece's box costs its length
without a trace (``paths._open_ground``), and the zones round enemies are tested with the kernel's box rejections
written out (``paths._meets_zone``). On random tables and legs, legs ending exactly at and just beside the pieces'
edges included, the answers are those of the full trace and of the kernel's ``circle_segment_hits``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, unit

from warband.kernel.geometry.distance import EPS, circle_segment_hits
from warband.rulesets.trenches_and_turbines import paths

coord = st.one_of(st.integers(0, 96).map(lambda k: k / 2), st.floats(0.0, 48.0, allow_nan=False))
KINDS = ("blocking", "impassable", "platform", "obstacle", "difficult")


@st.composite
def tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 5))):
        x0, y0 = draw(st.floats(1.0, 40.0)), draw(st.floats(1.0, 40.0))
        w, d = draw(st.floats(0.5, 8.0)), draw(st.floats(0.5, 8.0))
        out.append(
            box(f"t{i}", draw(st.sampled_from(KINDS)), x0, y0, x0 + w, y0 + d, draw(st.sampled_from((1.0, 3.0))))
        )
    return out


def _near_edges(draw: st.DrawFn, state: Any) -> list[tuple[float, float]]:
    """Points on, just inside and just outside (by EPS multiples) the pieces' boxes."""
    out = []
    for piece in state.ctx.table.terrain:
        x0, y0, x1, y1 = piece.bbox
        for off in (0.0, EPS, -EPS, 2 * EPS, 10 * EPS, 11 * EPS, 1e-6):
            out.append((x0 - off, draw(st.floats(y0 - 1, y1 + 1))))
            out.append((x1 + off, draw(st.floats(y0 - 1, y1 + 1))))
            out.append((draw(st.floats(x0 - 1, x1 + 1)), y1 + off))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_a_leg_costs_what_the_full_trace_says(terrain: list[dict[str, Any]], data: st.DataObject) -> None:
    try:
        game = position([unit(models=1)], [unit(models=1)], {"a1": [(1, 1)], "b1": [(47, 47)]}, terrain=terrain)
    except Exception:  # a table the scenario loader refuses
        return
    state = game.state
    m = state.models[next(iter(state.models))]
    ctx = state.ctx
    points = [(data.draw(coord), data.draw(coord)) for _ in range(8)] + _near_edges(data.draw, state)
    for a in points[:10]:
        for b in points:
            z0 = ctx.table.surface_height(a)
            fast = paths.leg_cost(ctx, m, a, b, z0)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(paths, "_open_ground", lambda ctx, a, b: False)
                ref = paths.leg_cost(ctx, m, a, b, z0)
            assert fast == ref, (a, b, fast, ref)


@settings(max_examples=200, deadline=None)
@given(
    st.tuples(coord, coord),
    st.tuples(coord, coord),
    st.lists(st.tuples(st.tuples(coord, coord), st.floats(0.0, 3.0)), max_size=6),
)
def test_zones_met_as_the_kernel_says(
    a: tuple[float, float], b: tuple[float, float], zones: list[tuple[tuple[float, float], float]]
) -> None:
    # zones also placed at exactly the leg's reach, where a rounding could tip the answer
    zones = [*zones, (b, 0.5), ((a[0] + 0.5 + 1e-6, a[1]), 0.5), ((a[0], a[1] - 1.0), 1.0 + 1e-6)]
    ref = any(circle_segment_hits(a, b, z, r - 1e-6) for z, r in zones)
    assert paths._meets_zone(a, b, zones) == ref
    for k in range(len(zones)):
        one = zones[k : k + 1]
        assert paths._meets_zone(a, b, one) == any(circle_segment_hits(a, b, z, r - 1e-6) for z, r in one)
