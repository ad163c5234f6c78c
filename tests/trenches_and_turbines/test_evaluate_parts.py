"""The evaluation counts objective control over one list of the standing models (``evaluate.standing`` and
``evaluate.holder``) instead of asking ``scoring.objective_holder`` per objective, and sums each unit's worth in
the same pass as its cover: on random positions, with Routed and pinned units, damaged models, large models and
bases exactly at the control radius, both name the same holder, and each unit's worth is ``unit_value``'s."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from ttpos import position, unit

from warband.rulesets.trenches_and_turbines import evaluate as ev
from warband.rulesets.trenches_and_turbines.scoring import objective_holder

coord = st.one_of(st.integers(0, 96).map(lambda k: k / 2), st.floats(0.5, 47.5, allow_nan=False))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_evaluations_objective_holder_is_the_scoring_rules(data: st.DataObject) -> None:
    sides: list[list[dict[str, Any]]] = [[], []]
    at: dict[str, list[tuple[float, float]]] = {}
    status: dict[str, dict[str, Any]] = {}
    centre = (data.draw(coord), data.draw(coord))
    radius = data.draw(st.sampled_from((3.0, 2.5, 6.0)))
    for side, name in enumerate("ab"):
        for k in range(data.draw(st.integers(1, 3))):
            uid = f"{name}{k + 1}"
            size, base = data.draw(st.sampled_from((("M", 25), ("L", 50), ("XL", 80))))
            n = data.draw(st.integers(1, 3))
            sides[side].append(unit(models=n, size=size, base_mm=base, hp=data.draw(st.integers(1, 3))))
            spots = []
            for _ in range(n):
                if data.draw(st.booleans()):  # a base edge exactly at (or a hair from) the control radius
                    ang = data.draw(st.floats(0, 2 * math.pi))
                    d = radius + base / 50.8 + data.draw(st.sampled_from((0.0, 1e-9, -1e-9, 2e-9, 0.5)))
                    spots.append((centre[0] + d * math.cos(ang), centre[1] + d * math.sin(ang)))
                else:
                    spots.append((data.draw(coord), data.draw(coord)))
            at[uid] = spots
            status[uid] = {"routed": data.draw(st.booleans()), "pins": data.draw(st.integers(0, 7))}
    objectives = [{"id": "o1", "at": list(centre)}, {"id": "o2", "at": [data.draw(coord), data.draw(coord)]}]
    game = position(sides[0], sides[1], at, active=None, status=status, objectives=objectives)
    state = game.state
    on = ev.standing(state)
    assert ev.holder(on, state.vars["u"], centre, radius) == objective_holder(state, centre, radius)
    for m in state.models.values():
        if m.on_table and data.draw(st.booleans()):
            m.tokens = {**m.tokens, "damage": 1}
    # a unit's worth as the evaluation sums it: evaluate for one side, less every other term, is not separable,
    # so compare the whole against the sum of unit_value and the other terms computed one by one
    for side in (0, 1):
        expected = _reference(state, side)
        assert ev.evaluate(state, side) == expected


def _reference(state: Any, side: int) -> float:
    """The evaluation as it read before the single pass: ``unit_value``, ``cover.model_cover`` per model and
    ``scoring.objective_holder`` per objective, in the same order."""
    from warband.rulesets.trenches_and_turbines.cover import model_cover
    from warband.rulesets.trenches_and_turbines.missions import live_objectives
    from warband.rulesets.trenches_and_turbines.units import members

    score = 0.0
    for uid in state.ctx.unit_order:
        sign = 1.0 if state.ctx.units[uid]["side"] == side else -1.0
        ms = members(state, uid)
        v = ev.unit_value(state, uid, ms)
        if v <= 0:
            score -= sign * 1.5
        score += sign * v
        if ms:
            cover = sum(model_cover(state, m, None) for m in ms) / len(ms)
            score += sign * 0.15 * cover
    vp = state.vars.get("vp", [0, 0])
    score += 2.0 * (int(vp[side]) - int(vp[1 - side]))
    score += ev.mission_readiness(state, side)
    mine = [m for m in state.models.values() if m.on_table and m.side == side]
    for o, at, owner in live_objectives(state):
        h = owner if owner is not None else objective_holder(state, at, o.radius)
        if h is not None:
            score += 0.9 if h == side else -0.9
        ax, ay = at
        for m in mine:
            d = ((m.x - ax) ** 2 + (m.y - ay) ** 2) ** 0.5
            score += 0.02 / (1.0 + d / 6.0)
    return score
