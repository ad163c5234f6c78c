"""VEHICLE movement (seed 002, Vehicle Keyword and Movement: forward in a straight line with a single pivot of at
most 90 degrees, param ``vehicle_max_pivot``): whether a destination is allowed, a move with a pivot on the way
(``[via=x,y]``), the facing after a move, and where a charging VEHICLE heads."""

from __future__ import annotations

import math

from warband.kernel.errors import Reason
from warband.kernel.geometry.distance import Vec, circle_segment_hits
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R
from warband.rulesets.trenches_and_turbines.paths import enemy_zones, leg_cost
from warband.rulesets.trenches_and_turbines.spots import Placement, spot_problems
from warband.rulesets.trenches_and_turbines.units import members


def vehicle_problems(state: State, m: Model, dest: Vec, allow: float, face: float | None) -> list[Reason]:
    """VEHICLE movement (seed 002): forward in a straight line with one pivot of at most 90 degrees. A
    destination off the line ahead means the pivot is made at the start (facing ends along the move); with
    ``face`` the vehicle goes straight ahead and pivots at the end."""
    p = state.ctx.params
    f = math.radians(float(m.flags.get("facing", 90.0)))
    fx, fy = math.cos(f), math.sin(f)
    vx, vy = dest[0] - m.x, dest[1] - m.y
    dist = math.hypot(vx, vy)
    ahead = vx * fx + vy * fy
    lateral = abs(-vx * fy + vy * fx)
    maxp = float(p["vehicle_max_pivot"])
    out: list[Reason] = []
    if face is not None:
        if lateral > 0.05 or ahead < -1e-6:
            out.append((f"{R}/vehicle/straight", "with a final pivot the vehicle first moves straight ahead"))
        turn = abs((face - math.degrees(f) + 180) % 360 - 180)
        if turn > maxp + 1e-6:
            out.append((f"{R}/vehicle/pivot", f"a pivot of {turn:.0f} degrees exceeds {maxp:g}"))
    elif dist > 1e-6:
        turn = math.degrees(math.acos(max(-1.0, min(1.0, ahead / dist))))
        if turn > maxp + 1e-6:
            out.append((f"{R}/vehicle/forward", f"a VEHICLE only moves forward (pivot {turn:.0f} > {maxp:g} degrees)"))
    return out


def vehicle_via_plan(state: State, uid: str, via: Vec, dest: Vec, allow: float) -> Placement | list[Reason]:
    """A VEHICLE's move straight ahead to ``via``, a single pivot there of at most ``vehicle_max_pivot``
    degrees, then straight on to ``dest`` (seed 002, Vehicle Keyword and Movement: "At any point during their
    movement the unit may make a single pivot up to 90 degrees"). Both legs are priced as a Move's
    (:func:`paths.leg_cost`), keep 1" clear of enemies and together fit ``allow``. One model only (a unit of several
    VEHICLE models moves without a mid-move pivot)."""
    ms = members(state, uid)
    if len(ms) != 1:
        return [(f"{R}/vehicle/via-single", "a pivot during the move is planned for a one-model VEHICLE unit only")]
    m = ms[0]
    out: list[Reason] = []
    f = math.radians(float(m.flags.get("facing", 90.0)))
    fx, fy = math.cos(f), math.sin(f)
    ax, ay = via[0] - m.x, via[1] - m.y
    if abs(-ax * fy + ay * fx) > 0.05 or ax * fx + ay * fy < -1e-6:
        out.append((f"{R}/vehicle/straight", "before its pivot the vehicle moves straight ahead"))
    bx, by = dest[0] - via[0], dest[1] - via[1]
    if math.hypot(bx, by) > 1e-6:
        turn = abs((math.degrees(math.atan2(by, bx)) - math.degrees(f) + 180) % 360 - 180)
        maxp = float(state.ctx.params["vehicle_max_pivot"])
        if turn > maxp + 1e-6:
            out.append((f"{R}/vehicle/pivot", f"a pivot of {turn:.0f} degrees exceeds {maxp:g}"))
    egap = float(state.ctx.params["move_enemy_clearance"])
    out.extend(spot_problems(state, m, via, {}, [m.id], egap))
    out.extend(spot_problems(state, m, dest, {}, [m.id], egap))
    zones = enemy_zones(state, m, egap, "", allow)
    cost = 0.0
    z0 = m.z
    for a, b in (((m.x, m.y), via), (via, dest)):
        leg = leg_cost(state.ctx, m, a, b, z0)
        if leg is None or any(circle_segment_hits(a, b, z, r - 1e-6) for z, r in zones):
            out.append((f"{R}/move/blocked", f"{m.id} cannot go straight from {a[0]:.1f},{a[1]:.1f}"))
            return out
        cost += leg
        z0 = state.ctx.table.surface_height(b)
    if cost > allow + 1e-6:
        out.append((f"{R}/move/too-far", f'{m.id} cannot reach {dest[0]:.1f},{dest[1]:.1f} with {allow:g}"'))
    return out or {m.id: (dest[0], dest[1], state.ctx.table.surface_height(dest))}


def vehicle_facing_after(m: Model, dest: Vec, face: float | None, via: Vec | None = None) -> float:
    """The facing after a move: ``face`` if it pivoted at the end, else along its last straight leg (from
    ``via``, where it pivoted, or from where it stood)."""
    if face is not None:
        return face
    sx, sy = via if via is not None else (m.x, m.y)
    vx, vy = dest[0] - sx, dest[1] - sy
    if math.hypot(vx, vy) < 1e-6:
        return float(m.flags.get("facing", 90.0))
    return round(math.degrees(math.atan2(vy, vx)) % 360, 3)


def pivot_goal(state: State, m: Model, goal: Vec) -> Vec:
    """Where a model heads for ``goal``: the goal itself, or for a VEHICLE whose facing is more than its maximum
    pivot (``vehicle_max_pivot``) away from it, a point as far away along its facing turned by that maximum
    toward the goal (seed 002, Vehicle Keyword and Movement: one pivot of at most 90 degrees, then straight)."""
    if "VEHICLE" not in m.data["keywords"]:
        return goal
    vx, vy = goal[0] - m.x, goal[1] - m.y
    dist = math.hypot(vx, vy)
    if dist < 1e-9:
        return goal
    facing = float(m.flags.get("facing", 90.0))
    turn = (math.degrees(math.atan2(vy, vx)) - facing + 180.0) % 360.0 - 180.0
    maxp = float(state.ctx.params["vehicle_max_pivot"])
    if abs(turn) <= maxp + 1e-6:
        return goal
    heading = math.radians(facing + math.copysign(maxp, turn))
    return (m.x + dist * math.cos(heading), m.y + dist * math.sin(heading))
