"""A heuristic value of a position for one side (for agents): material, victory points (mission actions' too),
projected objective control (claimed and removed markers included), pins and Routed units, and cover/prone when
enemies can shoot."""

from __future__ import annotations

import math

from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import ustate
from warband.rulesets.trenches_and_turbines.cover import model_cover
from warband.rulesets.trenches_and_turbines.missions import live_objectives, marks, target_ids
from warband.rulesets.trenches_and_turbines.scoring import objective_holder
from warband.rulesets.trenches_and_turbines.units import members


def unit_value(state: State, uid: str, ms: list[Model] | None = None) -> float:
    """Worth of a unit's surviving models (HP left x a profile weight), discounted for pins and rout. ``ms``: the
    unit's models on the table, if the caller has them."""
    total = 0.0
    memo = state.ctx.memo
    for m in members(state, uid) if ms is None else ms:
        k = ("unit-value", m.id)
        profile: tuple[float, int] | None = memo.get(k)
        if profile is None:  # a model's profile never changes in a game: weigh it once
            d = m.data
            weight = 1.0 + 0.15 * (int(d["ranged"]) + int(d["melee"]) + int(d["sv"])) / 3
            weight += 0.1 * sum(int(w["attacks"]) * int(w["damage"]) for w in d["weapons"])
            profile = memo[k] = (weight, int(d["hp"]))
        weight, hp = profile
        total += weight * (hp - m.token("damage")) / max(1, hp) * (1 + 0.4 * (hp - 1))
    u = ustate(state, uid)
    if u["routed"]:
        total *= 0.45
    total *= 1.0 - 0.06 * min(int(u["pins"]), 5)
    return total


def mission_readiness(state: State, side: int) -> float:
    """Half the VP of each scoring scenario action a side stands ready to perform on a marker (a model within
    its reach), so that units walk up to the marker instead of stopping at the control radius."""
    score = 0.0
    for spec in state.ctx.missions.values():
        near = next((r for r in spec["requires"] if r["kind"] == "near-objective"), None)
        gain = sum(int(e["vp"]) for e in spec["effects"] if e["kind"] == "score")
        if near is None or gain <= 0:
            continue
        reach = float(near["within"])
        for oid in target_ids(state, spec):
            at = marks(state)[oid]["at"]
            for s in (0, 1):
                if any(
                    m.on_table and m.side == s and math.hypot(m.x - at[0], m.y - at[1]) - m.radius <= reach
                    for m in state.models.values()
                ):
                    score += 0.5 * gain if s == side else -0.5 * gain
    return score


def evaluate(state: State, side: int) -> float:
    score = 0.0
    for uid in state.ctx.unit_order:
        sign = 1.0 if state.ctx.units[uid]["side"] == side else -1.0
        ms = members(state, uid)
        v = unit_value(state, uid, ms)
        if v <= 0:
            score -= sign * 1.5  # a destroyed unit is a VP to the enemy
        score += sign * v
        if ms:
            cover = sum(model_cover(state, m, None) for m in ms) / len(ms)
            score += sign * 0.15 * cover
    vp = state.vars.get("vp", [0, 0])
    score += 2.0 * (int(vp[side]) - int(vp[1 - side]))
    score += mission_readiness(state, side)
    mine = [m for m in state.models.values() if m.on_table and m.side == side]
    for o, at, owner in live_objectives(state):  # markers a mission action removed no longer count
        h = owner if owner is not None else objective_holder(state, at, o.radius)
        if h is not None:
            score += 0.9 if h == side else -0.9
        ax, ay = at
        for m in mine:  # pull toward objectives a little
            d = ((m.x - ax) ** 2 + (m.y - ay) ** 2) ** 0.5
            score += 0.02 / (1.0 + d / 6.0)
    return score
