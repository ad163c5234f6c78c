"""Victory points (digest §3.3 Scoring; seed 002, Mission-Based Actions for claimed markers): who controls an
objective, the End phase's objective VP, the VP for destroyed and Routed units when the game ends, and the
result."""

from __future__ import annotations

import math

from warband.kernel import battlefield
from warband.kernel.events import Event, GameEnded
from warband.kernel.geometry.distance import Vec
from warband.rulesets.trenches_and_turbines import missions
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import ustate
from warband.rulesets.trenches_and_turbines.units import members


def objective_holder(state: State, at: Vec, radius: float) -> int | None:
    """Control (digest §3.3): more models of non-Routed units within the radius (size L+ counts double)."""
    large = int(state.ctx.params["objective_large_weight"])
    # the kernel's battlefield.controller and within_objective written out (the same test, the same counts): an
    # evaluation asks this of every objective after every lookahead
    units = state.vars["u"]
    ax, ay = at
    lim = radius + 1e-9
    count = [0, 0]
    for m in state.models.values():
        if m.on_table and math.hypot(m.x - ax, m.y - ay) - m.radius <= lim:
            if units[str(m.unit)]["routed"]:
                continue
            count[m.side] += large if m.data["size"] in ("L", "XL") else 1
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def score_objectives(state: State) -> None:
    """End phase (digest §3.3): from round ``score_from_round`` on, each objective held (or claimed by a mission
    action) scores ``vp_objective`` times its VP for its holder."""
    p = state.ctx.params
    if state.turn >= int(p["score_from_round"]):
        vp = list(state.vars["vp"])
        for o, at, owner in missions.live_objectives(state):
            holder = owner if owner is not None else objective_holder(state, at, o.radius)
            if holder is not None:
                vp[holder] += int(p["vp_objective"]) * o.vp
        state.vars["vp"] = vp


def finish(state: State, events: list[Event]) -> None:
    """The game ends (digest §3.3): each enemy unit destroyed or still Routed gives ``vp_unit_broken`` VP; most VP
    wins."""
    p = state.ctx.params
    vp = list(state.vars["vp"])
    for uid in state.ctx.unit_order:
        side = state.ctx.units[uid]["side"]
        if not members(state, uid) or ustate(state, uid)["routed"]:
            vp[1 - side] += int(p["vp_unit_broken"])
    state.vars["vp"] = vp
    state.phase = "over"
    state.stack = []
    events.append(GameEnded(battlefield.vp_winner(vp), "victory points", (vp[0], vp[1])))


def result_score(state: State) -> tuple[int, int]:
    """The victory points of both sides."""
    vp = state.vars.get("vp", [0, 0])
    return (int(vp[0]), int(vp[1]))
