"""The gaps between units written out with a rejection along x (``units.unit_gap``, ``units.engaged_units``: a
pair farther apart along x alone than the best gap so far, or than the contact tolerance, is skipped before its
distance) give exactly the kernel's ``gap`` answers: the least gap between two units, and the enemy units in base
contact (seed 002, Fight: engaged), on random positions with bases touching, overlapping and just apart."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import position, unit

from warband.kernel.space import gap
from warband.rulesets.trenches_and_turbines import units

SIZES = (25, 32, 50, 80)
coord = st.one_of(st.integers(0, 960).map(lambda k: k / 20), st.floats(0.0, 48.0, allow_nan=False))


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    sides = []
    at: dict[str, list[tuple[float, float]]] = {}
    anchors: list[tuple[float, float, float]] = []
    for side in "ab":
        out = []
        for k in range(draw(st.integers(1, 3))):
            base = draw(st.sampled_from(SIZES))
            n = draw(st.integers(1, 3))
            out.append(unit(models=n, base_mm=base))
            spots = []
            for _ in range(n):
                if anchors and draw(st.booleans()):  # touching (or just off) a base already drawn
                    x, y, r = draw(st.sampled_from(anchors))
                    d = r + base / 50.8 + draw(st.sampled_from((0.0, 1e-9, -1e-9, 0.5, 1.0, 1.0 + 1e-9)))
                    ang = draw(st.sampled_from((0.0, math.pi / 2, math.pi, 1.0)))
                    spots.append(
                        (min(48.0, max(0.0, x + d * math.cos(ang))), min(48.0, max(0.0, y + d * math.sin(ang))))
                    )
                else:
                    spots.append((draw(coord), draw(coord)))
                anchors.append((*spots[-1], base / 50.8))
            at[f"{side}{k + 1}"] = spots
        sides.append(out)
    return {"sides": sides, "at": at}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from((0.0, 0.01, 0.5, 1.0)))
def test_unit_gaps_and_contacts_equal_the_kernel_gap(p: dict[str, Any], tol: float) -> None:
    try:
        game = position(p["sides"][0], p["sides"][1], p["at"], active=None, params={"contact_tolerance": tol})
    except Exception:  # positions the scenario loader refuses: nothing to compare
        return
    state = game.state
    ids = sorted(state.ctx.units)
    for u in ids:
        mine = units.members(state, u)
        for v in ids:
            theirs = units.members(state, v)
            want = min((gap(a, b) for a in mine for b in theirs), default=math.inf)
            assert units.unit_gap(state, u, v) == want
        side = state.ctx.units[u]["side"]
        engaged: list[str] = []
        for e in units.enemies_of(state, side):
            if e.unit not in engaged and any(gap(m, e) <= tol for m in mine):
                engaged.append(str(e.unit))
        assert units.engaged_units(state, u) == engaged
