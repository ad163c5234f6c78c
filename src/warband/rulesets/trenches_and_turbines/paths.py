"""The way a model moves (seed 002, Move; digest §3.11 for the PROPOSED terrain costs): what a straight leg costs
(difficult ground, linear obstacles, SCALABLE terrain's vertical inches), the circles round enemies a moving model
may not enter (1" clear), the cheapest way round impassable terrain and enemies (the kernel's shortest_path), and
where a model ends along its way (:func:`settle`). Used by every unit move plan: a Move, a Shift, a flee, a
charge."""

from __future__ import annotations

import math
from collections.abc import Callable

from warband.kernel.geometry.distance import Vec, segment_point_distance
from warband.kernel.space import walk_path
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import Context, State
from warband.rulesets.trenches_and_turbines.spots import (
    ASK_MOVE_COST,
    Placement,
    climbable_data,
    compiled_index,
    spot_problem,
    spot_problems,
)

#: Sixteen evenly spaced unit directions (the rings of spots round a point).
DIRECTIONS = tuple((math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)) for k in range(16))


def leg_cost(ctx: Context, m: Model, a: Vec, b: Vec, z0: float) -> float | None:
    """Inches a straight move ``a -> b`` costs, or None if it crosses impassable terrain: difficult ground costs
    ``difficult_cost`` per inch, each linear obstacle crossed ``obstacle_cost`` more, SCALABLE terrain counts
    its vertical inches (digest §3.11)."""
    if z0 <= 0.0 and _open_ground(ctx, a, b):
        # no piece anywhere near the leg: the trace below would find no crossing and no height (a piece's
        # footprint test has the same slack, so ``b`` stands on no platform): the cost is the length
        return math.hypot(b[0] - a[0], b[1] - a[1])
    p = ctx.params
    tr = ctx.table.trace(a, b)
    cost = tr.length
    for cr in tr.crossings:
        piece = cr.piece
        if piece.kind in ("impassable", "blocking") and cr.t1 - cr.t0 > 1e-9:
            return None
        if piece.kind == "obstacle" and cr.t1 - cr.t0 > 1e-9:
            cost += float(p["obstacle_cost"])
    cost += (float(p["difficult_cost"]) - 1.0) * tr.length_in("difficult")
    z1 = ctx.table.surface_height(b)
    if z1 > 0 or z0 > 0:
        if not climbable_data(m, ctx.params) and z1 != z0:
            return None
        cost += abs(z1 - z0)
    for cr in tr.crossings:  # a platform crossed on the way (neither start nor end): up and down again
        pc = cr.piece
        if pc.kind == "platform" and not pc.contains(a) and not pc.contains(b) and cr.t1 - cr.t0 > 1e-9:
            if not climbable_data(m, ctx.params):
                return None
            cost += 2 * pc.height
    return cost


def _open_ground(ctx: Context, a: Vec, b: Vec) -> bool:
    """Whether the box round the leg ``a -> b`` stays clear of every piece's box grown by ``context.OPEN_SLACK``
    (speed only: such a leg crosses nothing and ends on the ground, :func:`leg_cost`)."""
    ax, ay = a
    bx, by = b
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    for px0, py0, px1, py1 in ctx.open_boxes:
        if px1 < lox or px0 > hix or py1 < loy or py0 > hiy:
            continue
        return False
    return True


def _leg_weight(ctx: Context, m: Model) -> Callable[[Vec, Vec], float]:
    """:func:`leg_cost` for the kernel's shortest_path (infinite where the leg is impossible)."""
    start = (m.x, m.y)

    def cost(a: Vec, b: Vec) -> float:
        leg = leg_cost(ctx, m, a, b, ctx.table.surface_height(a) if a != start else m.z)
        return math.inf if leg is None else leg

    return cost


def enemy_zones(
    state: State, m: Model, egap: float, ignore_unit: str, within: float = math.inf
) -> list[tuple[Vec, float]]:
    """Circles the centre of ``m`` may not enter while moving: ``egap`` round every enemy base (seed 002, Move:
    'at least 1" away'), except round the enemies it already stands that close to, whose bases it may move away
    from but never through, and round the models of the unit it charges (``ignore_unit``), whose bases it may
    touch but never pass through. Only circles that a path of ``within`` inches from ``m`` could touch. While the
    models stand still (:func:`spots.frozen_models`) each answer is kept for the rest of the listing."""
    frozen = state.ctx.frozen
    if frozen is not None and frozen.state is state:
        k = ("zones", m.id, egap, ignore_unit, within)
        hit: list[tuple[Vec, float]] | None = frozen.cache.get(k)
        if hit is None:
            hit = frozen.cache[k] = _enemy_zones_now(state, m, egap, ignore_unit, within)
        return hit
    return _enemy_zones_now(state, m, egap, ignore_unit, within)


def _enemy_zones_now(state: State, m: Model, egap: float, ignore_unit: str, within: float) -> list[tuple[Vec, float]]:
    out = []
    for o in state.models.values():
        if o.on_table and o.side != m.side:
            touch = o.radius + m.radius
            reach = touch if o.unit == ignore_unit else touch + egap
            d = math.hypot(o.x - m.x, o.y - m.y)
            if d - reach > within:
                continue
            out.append(((o.x, o.y), reach if d >= reach - 1e-6 and o.unit != ignore_unit else min(d, touch) - 0.01))
    return out


def move_cost(
    state: State, m: Model, p: Vec, allow: float, egap: float, ignore_unit: str = "", route: bool = False
) -> float | None:
    """What moving ``m`` to ``p`` costs, or None if it cannot: the straight leg when it is clear of impassable
    terrain and of enemies; otherwise, with ``route`` (and never for a VEHICLE), the cheapest way round (a cost
    over ``allow`` may come back for a straight leg; callers compare)."""
    ctx = state.ctx
    start = (m.x, m.y)
    zones = enemy_zones(state, m, egap, ignore_unit, allow)
    c = leg_cost(ctx, m, start, p, m.z)
    if c is not None and not _meets_zone(start, p, zones):
        return c
    if not route or "VEHICLE" in m.data["keywords"] or math.hypot(p[0] - start[0], p[1] - start[1]) > allow:
        return None
    found = ctx.table.shortest_path(
        start, p, m.radius, ctx.solid, zones, cost=_leg_weight(ctx, m), max_cost=allow + 1e-6, cost_at_least_length=True
    )
    return None if found is None else found[1]


def _meets_zone(a: Vec, b: Vec, zones: list[tuple[Vec, float]]) -> bool:
    """Whether the leg ``a -> b`` passes strictly within (less 1e-6) a zone round an enemy: the kernel's
    ``circle_segment_hits`` of each zone, its box rejections written out (the same tests in the same order)."""
    ax, ay = a
    bx, by = b
    for c, r0 in zones:
        r = r0 - 1e-6
        cx, cy = c
        if (ax < cx - r and bx < cx - r) or (ax > cx + r and bx > cx + r):
            continue
        if (ay < cy - r and by < cy - r) or (ay > cy + r and by > cy + r):
            continue
        if segment_point_distance(a, b, c) < r:
            return True
    return False


def fits(
    state: State,
    m: Model,
    p: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    egap: float,
    ignore_unit: str = "",
    route: bool = False,
    compiled: bool | None = None,
) -> float | None:
    """What moving ``m`` to ``p`` costs if it may end there (:func:`spots.spot_problem`) and the cost is within
    ``allow`` (:func:`move_cost`), else None. Inside :func:`spots.frozen_models` the spot check and a plain leg
    (from the ground, clear of every piece's box, no enemy near enough for a zone) run in C
    (``_spot_checks.SpotIndex.fits``); this function is the reference and the fallback; ``compiled=False``
    forces it (the property test compares them)."""
    if compiled is not False:
        frozen = state.ctx.frozen
        index = frozen.spots if frozen is not None and frozen.state is state else None
        if index is None:
            index = compiled_index(state)
        if index is not None:
            got = index.fits(
                m.id, m.radius, m.side, m.x, m.y, m.z, p, placed, moving, egap, ignore_unit, state.models, allow
            )
            if got is not ASK_MOVE_COST:
                return got  # type: ignore[no-any-return]
            return _within(move_cost(state, m, p, allow, egap, ignore_unit, route), allow)
    if spot_problem(state, m, p, placed, moving, egap, ignore_unit, compiled) is not None:
        return None
    return _within(move_cost(state, m, p, allow, egap, ignore_unit, route), allow)


def _within(c: float | None, allow: float) -> float | None:
    return c if c is not None and c <= allow + 1e-6 else None


def toward(
    state: State,
    m: Model,
    goal: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    egap: float,
    ignore_unit: str = "",
) -> Vec:
    """The farthest fitting point on the straight line toward ``goal`` (or where ``m`` stands)."""
    for f in (1.0, 0.8, 0.6, 0.4, 0.2):
        p = (m.x + (goal[0] - m.x) * f, m.y + (goal[1] - m.y) * f)
        if fits(state, m, p, allow, placed, moving, egap, ignore_unit) is not None:
            return p
    return (m.x, m.y)


def _walk(ctx: Context, m: Model, path: list[Vec], budget: float) -> Vec:
    """The point ``budget`` inches of movement along ``path`` from ``m`` (legs priced by :func:`leg_cost`, the
    first from the height ``m`` stands at)."""

    def cost(a: Vec, b: Vec) -> float | None:
        return leg_cost(ctx, m, a, b, m.z if a == path[0] else ctx.table.surface_height(a))

    return walk_path(path, budget, cost)


def route(
    state: State,
    m: Model,
    goals: list[Vec],
    within: float,
    max_cost: float = math.inf,
    ignore_unit: str = "",
) -> tuple[list[Vec], float] | None:
    """The cheapest way for ``m`` to any of ``goals``, round impassable terrain and round the enemies a Move of
    ``within`` inches could meet (seed 002, Move; the kernel's shortest_path; a charge's target ``ignore_unit``
    only round its bases); None if none is reachable."""
    ctx = state.ctx
    start = (m.x, m.y)
    zones = enemy_zones(state, m, float(ctx.params["move_enemy_clearance"]), ignore_unit, within)
    best: tuple[list[Vec], float] | None = None
    for g in sorted(goals, key=lambda q: math.hypot(q[0] - start[0], q[1] - start[1])):
        limit = best[1] if best else max_cost
        if math.hypot(g[0] - start[0], g[1] - start[1]) >= limit:
            break  # a path is never shorter than the straight line
        found = ctx.table.shortest_path(
            start, g, m.radius, ctx.solid, zones, cost=_leg_weight(ctx, m), max_cost=limit, cost_at_least_length=True
        )
        if found is not None and (best is None or found[1] < best[1]):
            best = found
    return best


def route_toward(
    state: State,
    m: Model,
    goal: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    ignore_unit: str = "",
) -> Vec | None:
    """As far as ``m`` gets toward ``goal`` along its shortest way there, or None without one."""
    d = math.hypot(goal[0] - m.x, goal[1] - m.y)
    found = route(state, m, [goal], allow, max_cost=2 * d + allow, ignore_unit=ignore_unit)
    return None if found is None else settle(state, m, found[0], allow, placed, moving, ignore_unit)


def settle(
    state: State,
    m: Model,
    path: list[Vec],
    allow: float,
    placed: Placement,
    moving: list[str],
    ignore_unit: str = "",
) -> Vec:
    """Where ``m`` ends after ``allow`` inches along ``path``: that point if it is a legal place to stand, else the
    nearest legal spot round it (the one nearest the path's end among equals), else the farthest legal point
    back along the path (where it stands, at worst). A charger (``ignore_unit``: its target) may stand within the
    enemy gap of its target."""
    ctx = state.ctx
    egap = float(ctx.params["move_enemy_clearance"])
    p = _walk(ctx, m, path, allow)
    if not spot_problems(state, m, p, placed, moving, egap, ignore_unit):
        return p
    end = path[-1]
    for radius in (0.25, 0.5, 1.0, 1.5, 2.0):
        ring = [(p[0] + radius * ux, p[1] + radius * uy) for ux, uy in DIRECTIONS]
        for q in sorted(ring, key=lambda q: math.hypot(q[0] - end[0], q[1] - end[1])):
            if fits(state, m, q, allow, placed, moving, egap, ignore_unit, route=True) is not None:
                return q
    for k in range(1, 9):
        q = _walk(ctx, m, path, allow * (1 - k / 8))
        if not spot_problems(state, m, q, placed, moving, egap, ignore_unit):
            return q
    return (m.x, m.y)
