"""Named features of a Trenches and Turbines position for one side, for the evaluation learned from games
(``Ruleset.features``, :mod:`warband.lab.fit`). Each is the side's value minus the enemy's, so
``features(state, 0) == -features(state, 1)``; the terms are the heuristic's own (:mod:`.evaluate`) read apart:

* ``unit_value``: the heuristic's worth of the side's units (HP left by profile, pins and rout discounted);
* ``models``: models on the table; ``units_destroyed``: the side's units with no model left (a VP to the enemy);
* ``pins``, ``routed``: pin tokens on, and Routed state of, the side's units (seed 002 Pins, Morale);
* ``vp``: victory points held; ``objectives``: markers held (``objective_holder``, claimed markers included);
* ``mission_ready``: the heuristic's mission readiness (scenario actions the side stands ready to perform);
* ``shots``: (enemy unit, own unit) pairs where the enemy can shoot the unit now with some weapon (range and
  sight, :func:`.shooting.can_shoot`, seed 002 Who Can Shoot?): the shots the side has minus those it faces.
"""

from __future__ import annotations

from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import ustate
from warband.rulesets.trenches_and_turbines.evaluate import mission_readiness, unit_value
from warband.rulesets.trenches_and_turbines.missions import live_objectives
from warband.rulesets.trenches_and_turbines.scoring import objective_holder
from warband.rulesets.trenches_and_turbines.shooting import can_shoot, unit_weapons
from warband.rulesets.trenches_and_turbines.units import members, units_of


def _shots(state: State, side: int) -> int:
    """(unit of ``side``, enemy unit) pairs where the unit can shoot the enemy with one of its weapons."""
    mine, theirs = units_of(state, side), units_of(state, 1 - side)
    count = 0
    for uid in mine:
        weapons = unit_weapons(state, uid)
        for tuid in theirs:
            if any(can_shoot(state, uid, tuid, w, False) for w in weapons):
                count += 1
    return count


def features(state: State, side: int) -> dict[str, float]:
    o = 1 - side
    value = [0.0, 0.0]
    models = [0, 0]
    destroyed = [0, 0]
    pins = [0, 0]
    routed = [0, 0]
    for uid in state.ctx.unit_order:
        s = int(state.ctx.units[uid]["side"])
        ms = members(state, uid)
        value[s] += unit_value(state, uid, ms)
        models[s] += len(ms)
        if not ms:
            destroyed[s] += 1
            continue
        u = ustate(state, uid)
        pins[s] += int(u["pins"])
        routed[s] += 1 if u["routed"] else 0
    held = [0, 0]
    for ob, at, owner in live_objectives(state):
        h = owner if owner is not None else objective_holder(state, at, ob.radius)
        if h is not None:
            held[h] += 1
    vp = state.vars.get("vp", [0, 0])
    return {
        "unit_value": value[side] - value[o],
        "models": float(models[side] - models[o]),
        "units_destroyed": float(destroyed[side] - destroyed[o]),
        "pins": float(pins[side] - pins[o]),
        "routed": float(routed[side] - routed[o]),
        "vp": float(int(vp[side]) - int(vp[o])),
        "objectives": float(held[side] - held[o]),
        "mission_ready": mission_readiness(state, side),
        "shots": float(_shots(state, side) - _shots(state, o)),
    }
