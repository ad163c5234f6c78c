"""Deployment places each model of a unit at the first slot round the leader's spot that is wholly inside the
zone and free (``setup.deploy_plan``); a model with the base of the one before it starts its search after that
model's slot (speed only). On random tables, zones' edges and other units in the way, with mixed base sizes, the
plan is the one found by trying every slot from the first for every model."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, unit

from warband.kernel import setup as kernel_setup
from warband.rulesets.trenches_and_turbines import setup as tt_setup
from warband.rulesets.trenches_and_turbines.coherency import follower_slots
from warband.rulesets.trenches_and_turbines.spots import frozen_models, spot_problem

coord = st.floats(0.5, 47.5, allow_nan=False)


def _every_slot(state: Any, uid: str, p: tuple[float, float]) -> Any:
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    ids = state.ctx.units[uid]["models"]
    lead = state.models[ids[0]]
    slots = [p, *follower_slots(p, lead.radius, lead.radius, float(state.ctx.params["deploy_spacing"]))]
    placed: dict[str, tuple[float, float, float]] = {}
    for mid in ids:
        m = state.models[mid]
        for s in slots:
            if kernel_setup.wholly_inside(zone, s, m.radius) and spot_problem(state, m, s, placed, ids, 0.0) is None:
                placed[mid] = (s[0], s[1], state.ctx.table.surface_height(s))
                break
        else:
            return None
    return placed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_deployment_plan_is_the_first_free_slot_of_every_model(data: st.DataObject) -> None:
    bases = st.sampled_from((25, 25, 32, 50))
    a = [unit(models=data.draw(st.integers(1, 8)), base_mm=data.draw(bases)) for _ in range(2)]
    b = [unit(models=data.draw(st.integers(1, 5)), base_mm=data.draw(bases))]
    # some units already stand on the table, in and round the first zone (y 0-12), the second unit waits
    at = {"b1": [(data.draw(coord), data.draw(st.floats(0.5, 14.0))) for _ in range(int(b[0]["models"]))]}
    terrain = [
        box(f"t{i}", "impassable", x0, y0, x0 + 3, y0 + 2, 2.0)
        for i, (x0, y0) in enumerate(data.draw(st.lists(st.tuples(st.floats(1, 44), st.floats(0, 10)), max_size=3)))
    ]
    try:
        game = position(a, b, at, active=None, terrain=terrain)
    except Exception:  # a table the scenario loader refuses
        return
    state = game.state
    state.vars["zone_of"] = [0, 1]
    for uid in ("a1", "a2"):
        if data.draw(st.booleans()):  # models of mixed sizes in one unit: the search starts over
            m = state.models[state.ctx.units[uid]["models"][-1]]
            m.radius = m.radius * data.draw(st.sampled_from((0.5, 1.5)))
        for _ in range(6):
            p = (round(data.draw(coord), 2), round(data.draw(st.floats(0.0, 12.0)), 2))
            want = _every_slot(state, uid, p)
            with frozen_models(state):
                got = tt_setup.deploy_plan(state, uid, p)
            assert (got if isinstance(got, dict) else None) == want, (uid, p)
            got = tt_setup.deploy_plan(state, uid, p)
            assert (got if isinstance(got, dict) else None) == want, (uid, p)
