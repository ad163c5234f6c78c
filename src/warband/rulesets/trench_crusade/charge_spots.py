"""Where a Charge ends (seed 000 §Actions: Charge, 'move it towards the target'; digest §7): the spots round the
target within 1" that a route within the allowance reaches, the engine's best first; when none is in reach, the
spot as close as the table lets the charger get; the height it ends at. Split from :mod:`.space` (which checks
every move, plans its path and memoises the answers per placing of the models): a charge's spots are asked of
the same memo and planned with the same checks. Pure functions of a state.
"""

from __future__ import annotations

import math

from warband.kernel.geometry.distance import Vec
from warband.kernel.space import corridor, gap_at, overlapping, toward, walk_path
from warband.kernel.state import Model
from warband.kernel.values import value
from warband.rulesets.trench_crusade import space
from warband.rulesets.trench_crusade.core import State
from warband.rulesets.trench_crusade.space import (
    _CANDIDATE_SPACING,
    _SOLID,
    MoveEnv,
    MovePlan,
    _env,
    _here,
    _leg_cost,
    _loop,
    _memo,
    _own_platform,
    _plan_move,
    _r2,
    check_destination,
)


@value
class ChargeSpots:
    """Where a charge may end (seed 000 Charge: 'move it towards the target'). ``reached``: some spot within 1"
    of the target is reachable, and ``spots`` are such spots (the engine's best one first: in base contact if
    it can be, by the cheapest route);
    otherwise ``spots`` holds the one spot the table allows closest to the target and ``closest`` its gap."""

    spots: tuple[Vec, ...]
    reached: bool
    closest: float


_OUT_OF_REACH = 1e-3  # inches beyond the allowance past which a spot is skipped without planning a route
_RING_ANGLES = 24  # directions round the target where a charger's base may end
_SPOT_CHOICES = 8  # at most this many end spots are offered as candidates (any other point is checked)


def _ring(m: Model, target: Model, rng: float) -> list[Vec]:
    """Points round ``target`` where ``m``'s base ends within ``rng``: the side facing the charger first."""
    base = math.atan2(m.y - target.y, m.x - target.x)
    out: list[Vec] = []
    tx, ty, rr = target.x, target.y, target.radius + m.radius
    dists = [rr + g for g in (0.01, rng / 2, rng - 0.05)]  # the same sums as ``target.radius + m.radius + g``
    for k in range(_RING_ANGLES):
        turn = (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / _RING_ANGLES
        c, s = math.cos(base + turn), math.sin(base + turn)  # once per direction, not per distance
        for d in dists:
            out.append((tx + c * d, ty + s * d))
    return out


def ends_in_reach(state: State, m: Model, target: Model, p: Vec, z: float) -> bool:
    free = state.ctx.params["obstacle_free_height"]
    rng = state.ctx.params["engagement_range"]
    return bool(gap_at(p, m.radius, target) <= rng + 1e-9 and abs(z - target.z) <= free + 1e-9)


def charge_spots(state: State, m: Model, target: Model, allowance: float, first_only: bool = False) -> ChargeSpots:
    """The end spots of a charge of ``m`` at ``target`` with ``allowance`` inches (seed 000 Charge; digest §7).

    A spot round the target within 1" that a route of at most ``allowance`` reaches (round other bases: a model
    in base contact with the target on the charger's side never stops the charge) makes the charge reach; the
    cheapest is the engine's choice. When none is in reach the charger still moves towards the target, as far
    as the allowance and the table let it (``closest``: its gap to the target then)."""
    here = _here(state)
    got: ChargeSpots = _memo(
        state,
        ("charge", m.id, m.x, m.y, m.z, target.id, target.x, target.y, target.z, allowance, first_only),
        lambda: _charge_spots(state, m, target, allowance, first_only, env=_env(state, m, "charge", None, here)),
        here,
    )
    return got


def _charge_spots(
    state: State,
    m: Model,
    target: Model,
    allowance: float,
    first_only: bool,
    compiled: bool | None = None,
    env: MoveEnv | None = None,
) -> ChargeSpots:
    """:func:`charge_spots` itself. The ring's destination checks and the straight plans to it run in C when the
    extension is built (``_straight_moves``: the same answers; a point it cannot settle outside rounding is
    asked of the Python here); ``compiled`` forces one path (tests); ``env``: the charge's :class:`MoveEnv`."""
    rng = float(state.ctx.params["engagement_range"])
    env = env or MoveEnv(state, m, "charge")
    use_c = space._straight_moves is not None and compiled is not False  # read here: a test may swap it
    loop = _loop(state, m, allowance, env, [], None) if use_c else None
    raw = _ring(m, target, rng)
    if loop is None:
        ring = [p for p in raw if not check_destination(state, m, p, "charge", env)]
    else:
        ring = [
            p
            for p, ok in zip(raw, loop.charge_ring(raw), strict=True)
            if (ok if ok is not None else not check_destination(state, m, p, "charge", env))
        ]
    found: list[tuple[float, float, int, Vec]] = []
    # a route is never shorter than the straight line and never costs less than its length (difficult_cost is at
    # least 1): a spot farther than the allowance cannot be reached, so it is not planned (the margin covers
    # float rounding: only spots clearly out of reach are skipped)
    far = allowance + _OUT_OF_REACH
    for straight in (True, False):
        order = ring if straight else sorted(ring, key=lambda p: math.hypot(p[0] - m.x, p[1] - m.y))[:16]
        for i, p in enumerate(order):
            if math.hypot(p[0] - m.x, p[1] - m.y) > far:
                continue
            # (cost, end height) of the plan, None when there is none
            fast = loop.charge_straight(p[0], p[1]) if (straight and loop is not None) else None
            got: tuple[float, float] | None
            if fast is None:
                plan = _plan_move(state, m, p, allowance, "charge", None, straight, env, False, checked=True)
                got = (plan.cost, plan.end_z) if isinstance(plan, MovePlan) else None
            else:
                got = fast or None
            if got is not None and ends_in_reach(state, m, target, p, got[1]):
                found.append((round(gap_at(p, m.radius, target), 2), got[0], i, _r2(p)))
                if first_only or (not straight and len(found) >= 4):
                    break
        if found:
            break
    if found:
        found.sort()
        spots: list[Vec] = []
        for _, _, _, p in found:
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= _CANDIDATE_SPACING for q in spots):
                spots.append(p)
        return ChargeSpots(tuple(spots[:_SPOT_CHOICES]), True, 0.0)
    end = _short_end(state, m, target, allowance, ring, env)
    return ChargeSpots((end,), False, gap_at(end, m.radius, target))


def _short_end(state: State, m: Model, target: Model, allowance: float, ring: list[Vec], env: MoveEnv) -> Vec:
    """A charge that cannot reach: along the shortest route to the nearest free spot by the target, as far as
    ``allowance`` goes, pulled back until the base overlaps nothing (digest §7: shortest route)."""
    ctx = state.ctx
    start = (m.x, m.y)
    cost_fn = _leg_cost(ctx, m)
    free = ctx.params["obstacle_free_height"]
    for goal in sorted(ring, key=lambda p: math.hypot(p[0] - m.x, p[1] - m.y))[:6]:
        end_platform = _own_platform(ctx.table, goal)
        solids = [x for x in env.solids if x is not end_platform]
        d = math.hypot(goal[0] - start[0], goal[1] - start[1])
        circles, solids = corridor(start, goal, max(allowance, d) + 2.0, env.circles, solids)
        found = ctx.table.shortest_path(start, goal, m.radius, solids, circles, cost=cost_fn, cost_at_least_length=True)
        if found is None:
            continue
        end = _settle(state, m, walk_path(found[0], allowance, cost_fn), target)
        if ctx.table.surface_height(end) - m.z > free + 1e-9:
            continue  # the route climbs: it cannot end part-way up a sheer surface
        return _r2(end)
    return start


def charge_end_z(state: State, m: Model, p: Vec) -> float:
    """The height a charger ends at: the surface there, or the foot of a climb it could not finish."""
    z = state.ctx.table.surface_height(p)
    return m.z if z - m.z > state.ctx.params["obstacle_free_height"] + 1e-9 else z


def _settle(state: State, m: Model, p: Vec, target: Model) -> Vec:
    """Pull a charge's end point back along the line from the target until the base overlaps nothing."""
    for k in range(12):
        cand = toward(p, (m.x, m.y), 0.25 * k) if k else p
        if overlapping(state.models.values(), cand, m.radius, lambda o: o is m) is None and not any(
            piece.kind in _SOLID and piece.circle_overlaps(cand, m.radius) for piece in state.ctx.table.terrain
        ):
            return cand
    return (m.x, m.y)
