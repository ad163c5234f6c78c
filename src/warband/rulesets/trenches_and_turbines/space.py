"""Table rules of Trenches and Turbines: coherency, movement (walking, VEHICLE, SCALABLE), sight by size,
Conceal and Cover, base contact and charge placement (seed 002, Move / Unit Coherency / Check Line of Sight /
Charge; digest §3.4, §3.9-§3.11 for the PROPOSED numbers).

Every model of a moving unit may walk round impassable terrain and round enemies (the kernel's shortest_path,
within its Move): the leader to its destination, the others to their places in the formation or to the nearest
free slots round the leader (the nearest ``ROUTED_SLOTS`` by a routed path, farther ones by straight legs).
VEHICLEs move in a straight line. No model's path comes within the enemy gap of an enemy it was not already that
close to, nor through the base of one it was (seed 002, Move: "must remain at least 1" away"). A flee
(:func:`plan_flee`, digest §3.7 / §3.9) is a Move by the same machinery toward a table edge, and so is the charge
move (:func:`plan_charge`, seed 002: a charge is "a special type of movement action") toward base contact.
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from warband.kernel.errors import Reason
from warband.kernel.events import Event, Moved
from warband.kernel.geometry import TerrainPiece, Vec, circle_segment_hits, edge_distance
from warband.kernel.space import gap, walk_path
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import SIZE_RANK, Context, State

R = "trenches-and-turbines"
Placement = dict[str, tuple[float, float, float]]
_ANGLES = tuple((math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)) for k in range(16))


# ------------------------------------------------------------------------------------------- units
def unit_state(state: State, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = state.vars["u"][uid]
    return u


def members(state: State, uid: str) -> list[Model]:
    """The unit's models still on the table, in roster order (the original leader first)."""
    return [state.models[mid] for mid in state.ctx.units[uid]["models"] if state.models[mid].on_table]


def leader_of(state: State, uid: str) -> Model | None:
    lid = unit_state(state, uid).get("leader")
    return state.models[lid] if lid and state.models[lid].on_table else None


def is_vehicle(state: State, uid: str) -> bool:
    return "VEHICLE" in state.ctx.units[uid]["keywords"]


def size_rank(m: Model) -> int:
    return SIZE_RANK[str(m.data["size"])]


def enemies_of(state: State, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.on_table and m.side != side]


def unit_gap(state: State, uid: str, other: str) -> float:
    """The least base gap between a model of ``uid`` and one of ``other`` (inf if either has none on the table):
    the kernel's ``gap`` over every pair, written out; asked once per candidate Shoot and Charge, so while the
    rules list a menu (:func:`frozen_models`) each answer is kept for the rest of the listing."""
    frozen = state.ctx.frozen
    cache = frozen.cache if frozen is not None and frozen.state is state else None
    if cache is not None:
        hit: float | None = cache.get(("unit-gap", uid, other))
        if hit is not None:
            return hit
    theirs = members(state, other)
    best = math.inf
    hypot = math.hypot
    for a in members(state, uid):
        ax, ay, ar = a.x, a.y, a.radius
        for b in theirs:
            d = hypot(ax - b.x, ay - b.y) - ar - b.radius
            if d <= 0.0:
                d = 0.0
            if d < best:
                best = d
    if cache is not None:
        cache[("unit-gap", uid, other)] = best
    return best


def engaged_units(state: State, uid: str) -> list[str]:
    """Enemy units in base-to-base contact with ``uid`` (seed 002, Fight: engaged)."""
    tol = state.ctx.params["contact_tolerance"]
    mine = members(state, uid)
    out: list[str] = []
    hypot = math.hypot
    for e in enemies_of(state, state.ctx.units[uid]["side"]):
        if e.unit in out:
            continue
        ex, ey, er = e.x, e.y, e.radius
        for m in mine:  # the kernel's gap(m, e) <= tol, written out (asked of every enemy for every menu)
            d = hypot(m.x - ex, m.y - ey) - m.radius - er
            if (d if d > 0.0 else 0.0) <= tol:
                out.append(str(e.unit))
                break
    return out


def in_contact(state: State, m: Model, enemy_uid: str) -> bool:
    tol = state.ctx.params["contact_tolerance"]
    return any(gap(m, e) <= tol for e in members(state, enemy_uid))


# ------------------------------------------------------------------------------------------- coherency
def out_of_coherency(state: State, uid: str, where: Placement | None = None) -> list[str]:
    """Models of ``uid`` outside coherency: farther than the leader's command radius from the leader, or (digest
    §3.4, ``coherency_chain``) farther than the chain distance from every other model of the unit."""
    ms = members(state, uid)
    lead = leader_of(state, uid)
    if len(ms) < 2 or lead is None:
        return []
    pos = {m.id: (where[m.id][:2] if where and m.id in where else (m.x, m.y)) for m in ms}
    cmd = float(lead.data["command"])
    chain = float(state.ctx.params["coherency_chain"])
    out = []
    for m in ms:
        if m.id == lead.id:
            continue
        if edge_distance(pos[m.id], m.radius, pos[lead.id], lead.radius) > cmd + 1e-6:
            out.append(m.id)
            continue
        if chain > 0 and all(
            edge_distance(pos[m.id], m.radius, pos[o.id], o.radius) > chain + 1e-6 for o in ms if o.id != m.id
        ):
            out.append(m.id)
    return out


# ------------------------------------------------------------------------------------------- movement
def climbable(state: State, m: Model) -> bool:
    """SCALABLE terrain: who climbs it (:func:`climbable_data`)."""
    return climbable_data(m, state.ctx.params)


def leg_cost(ctx: Context, m: Model, a: Vec, b: Vec, z0: float) -> float | None:
    """Inches a straight move ``a -> b`` costs, or None if it crosses impassable terrain: difficult ground costs
    ``difficult_cost`` per inch, each linear obstacle crossed ``obstacle_cost`` more, SCALABLE terrain counts
    its vertical inches (digest §3.11)."""
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


def climbable_data(m: Model, params: Any) -> bool:
    """SCALABLE terrain: every unit may scale it (seed 002, Move); option ``scalable_small_only`` (off by default):
    only S/M models that are not VEHICLEs (digest §3.10-§3.11)."""
    if not params["scalable_small_only"]:
        return True
    return SIZE_RANK[str(m.data["size"])] <= SIZE_RANK["M"] and "VEHICLE" not in m.data["keywords"]


def spot_problems(
    state: State,
    m: Model,
    p: Vec,
    placed: Placement,
    moving: Iterable[str],
    enemy_gap: float,
    ignore_unit: str = "",
) -> list[Reason]:
    """Why ``m`` cannot stand at ``p``: off the table, inside impassable terrain, overlapping another base, or
    closer than ``enemy_gap`` to an enemy model (seed 002, Move: at least 1" from enemies)."""
    why = spot_problem(state, m, p, placed, moving, enemy_gap, ignore_unit)
    if why is None:
        return []
    kind, other = why
    if kind == "table":
        return [(f"{R}/move/table", f"{m.id} would leave the table")]
    if kind == "impassable":
        return [(f"{R}/move/impassable", f"{m.id} cannot stand in {other}")]
    if kind == "scalable":
        return [(f"{R}/move/scalable", f"{m.id} ({m.data['size']}) cannot climb SCALABLE terrain {other}")]
    if kind == "overlap":
        return [(f"{R}/move/overlap", f"{m.id} would overlap {other}")]
    return [(f"{R}/move/enemy-clearance", f'{m.id} would end within {enemy_gap:g}" of enemy {other}')]


def spot_problem(
    state: State,
    m: Model,
    p: Vec,
    placed: Placement,
    moving: Iterable[str],
    enemy_gap: float,
    ignore_unit: str = "",
) -> tuple[str, str] | None:
    """The first of :func:`spot_problems` as (kind, the piece or model in the way), unworded: the hot checks only
    ask whether a spot is free (None)."""
    ctx = state.ctx
    mr = m.radius
    px, py = p
    if not ctx.table.on_table(p, mr):
        return ("table", "")
    for piece in ctx.solid:
        x0, y0, x1, y1 = piece.bbox  # circle_overlaps' own first rejection, without the call
        if px < x0 - mr or px > x1 + mr or py < y0 - mr or py > y1 + mr:
            continue
        if piece.circle_overlaps(p, mr):
            return ("impassable", piece.id)
    if not climbable_data(m, ctx.params):
        for piece in ctx.table.terrain:
            if piece.kind == "platform" and piece.circle_overlaps(p, mr):
                return ("scalable", piece.id)
    skip = moving if isinstance(moving, (set, frozenset)) else set(moving)
    mid = m.id
    # a model farther than this (plus both radii) on either axis can neither overlap nor crowd ``m``: a cheap
    # rejection before the distance (speed only: the same answers as without it)
    slack = (enemy_gap if enemy_gap > 0.0 else 0.0) + 1.0
    frozen = ctx.frozen
    if frozen is not None and frozen.state is state:
        others: Iterable[Model] = frozen.near(px, mr + frozen.max_radius + slack)
    else:
        others = state.models.values()
    for o in others:
        if not o.on_table or o.id == mid or o.id in skip:
            continue
        dx = px - o.x
        dy = py - o.y
        reach = mr + o.radius + slack
        if dx > reach or dx < -reach or dy > reach or dy < -reach:
            continue
        h = math.hypot(dx, dy)
        if h < mr + o.radius - 1e-6:
            return ("overlap", o.id)
        d = h - mr - o.radius  # the base gap (kernel edge_distance: never negative)
        if d <= 0.0:
            d = 0.0
        if o.side != m.side and o.unit != ignore_unit and d < enemy_gap - 1e-6:
            return ("enemy", o.id)
    for pid, (x, y, _) in placed.items():
        o = state.models[pid]
        if math.hypot(px - x, py - y) < mr + o.radius - 1e-6:
            return ("overlap", pid)
    return None


class FrozenModels:
    """The models on the table of one state, sorted by x, so that :func:`spot_problems` looks only at those near
    a spot (speed only: the same answers, in the same order, as a walk over every model)."""

    __slots__ = ("cache", "max_radius", "models", "state", "xs")

    def __init__(self, state: State) -> None:
        self.state = state
        #: answers that depend only on where the models stand, kept while they stand still (:func:`unit_gap`)
        self.cache: dict[Any, Any] = {}
        on = [(m.x, i, m) for i, m in enumerate(state.models.values()) if m.on_table]
        on.sort(key=lambda e: (e[0], e[1]))
        self.xs = [e[0] for e in on]
        self.models = [(e[1], e[2]) for e in on]
        self.max_radius = max((e[2].radius for e in on), default=0.0)

    def near(self, x: float, reach: float) -> list[Model]:
        """The models whose centre is within ``reach`` of ``x`` along x, in the state's order."""
        lo = bisect.bisect_left(self.xs, x - reach)
        hi = bisect.bisect_right(self.xs, x + reach)
        if hi - lo < 2:
            return [m for _, m in self.models[lo:hi]]
        near = self.models[lo:hi]
        near.sort(key=_first)
        return [m for _, m in near]


_first = operator.itemgetter(0)


@contextmanager
def frozen_models(state: State) -> Iterator[None]:
    """Within the block, nothing moves the models of ``state``: :func:`spot_problems` may index them once."""
    ctx = state.ctx
    before = ctx.frozen
    ctx.frozen = FrozenModels(state)
    try:
        yield
    finally:
        ctx.frozen = before


def _fits(
    state: State,
    m: Model,
    p: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    egap: float,
    ignore_unit: str = "",
    route: bool = False,
) -> float | None:
    if spot_problem(state, m, p, placed, moving, egap, ignore_unit) is not None:
        return None
    c = move_cost(state, m, p, allow, egap, ignore_unit, route)
    return c if c is not None and c <= allow + 1e-6 else None


def _enemy_zones(
    state: State, m: Model, egap: float, ignore_unit: str, within: float = math.inf
) -> list[tuple[Vec, float]]:
    """Circles the centre of ``m`` may not enter while moving: ``egap`` round every enemy base (seed 002, Move:
    'at least 1" away'), except round the enemies it already stands that close to, whose bases it may move away
    from but never through, and round the models of the unit it charges (``ignore_unit``), whose bases it may
    touch but never pass through. Only circles that a path of ``within`` inches from ``m`` could touch. While the
    models stand still (:func:`frozen_models`) each answer is kept for the rest of the listing."""
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
    zones = _enemy_zones(state, m, egap, ignore_unit, allow)
    c = leg_cost(ctx, m, start, p, m.z)
    if c is not None and not any(circle_segment_hits(start, p, z, r - 1e-6) for z, r in zones):
        return c
    if not route or "VEHICLE" in m.data["keywords"] or math.hypot(p[0] - start[0], p[1] - start[1]) > allow:
        return None
    found = ctx.table.shortest_path(
        start, p, m.radius, ctx.solid, zones, cost=_leg_weight(ctx, m), max_cost=allow + 1e-6, cost_at_least_length=True
    )
    return None if found is None else found[1]


def _leg_weight(ctx: Context, m: Model) -> Callable[[Vec, Vec], float]:
    """:func:`leg_cost` for the kernel's shortest_path (infinite where the leg is impossible)."""
    start = (m.x, m.y)

    def cost(a: Vec, b: Vec) -> float:
        leg = leg_cost(ctx, m, a, b, ctx.table.surface_height(a) if a != start else m.z)
        return math.inf if leg is None else leg

    return cost


def _toward(
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
        if _fits(state, m, p, allow, placed, moving, egap, ignore_unit) is not None:
            return p
    return (m.x, m.y)


#: The directions of the slots round a leader: 8, 16 and 24 evenly spaced, ring by ring (computed once).
_RING_DIRS = tuple(
    tuple((math.cos(2 * math.pi * k / (8 * ring)), math.sin(2 * math.pi * k / (8 * ring))) for k in range(8 * ring))
    for ring in (1, 2, 3)
)


def follower_slots(lead_at: Vec, lead_r: float, r: float, spacing: float) -> list[Vec]:
    out: list[Vec] = []
    x, y = lead_at
    for ring, dirs in zip((1, 2, 3), _RING_DIRS, strict=True):
        dist = lead_r + r + spacing * ring - 0.5
        out.extend((x + dist * c, y + dist * s) for c, s in dirs)
    return out


def plan_unit_move(state: State, uid: str, dest: Vec, allow: float, shift: bool = False) -> Placement | list[Reason]:
    """Where every model of ``uid`` ends when its leader goes to ``dest``: the others keep their place in the
    formation if they can, else the nearest free spot round the leader (:func:`_follower_spot`), else as far as
    they get toward it (seed 002, Move: every model moves; Unit Coherency: all models end within the leader's
    command radius; a unit is never taken out of coherency on purpose)."""
    p = state.ctx.params
    egap = float(p["move_enemy_clearance"])
    ms = members(state, uid)
    lead = leader_of(state, uid) or ms[0]
    moving = [m.id for m in ms]
    placed: Placement = {}
    c = _fits(state, lead, dest, allow, placed, moving, egap, route=True)
    if c is None:
        why = spot_problems(state, lead, dest, placed, moving, egap)
        return why or [(f"{R}/move/too-far", f'{lead.id} cannot reach {dest[0]:.1f},{dest[1]:.1f} with {allow:g}"')]
    before = set(out_of_coherency(state, uid))
    _place_leader_and_followers(
        state,
        ms,
        lead,
        dest,
        allow,
        placed,
        moving,
        before,
        lambda m: (
            _route_toward(state, m, dest, allow, placed, moving) or _toward(state, m, dest, allow, placed, moving, egap)
        ),
    )
    bad = [mid for mid in out_of_coherency(state, uid, placed) if mid not in before]
    if bad:
        return [(f"{R}/coherency/never-out", f"the move would take {', '.join(bad)} out of unit coherency")]
    return placed


def _place_leader_and_followers(
    state: State,
    ms: list[Model],
    lead: Model,
    dest: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    before: set[str],
    fallback: Callable[[Model], Vec],
) -> None:
    """Put ``lead`` at ``dest`` and every other model of ``ms`` at its place by the leader
    (:func:`_follower_spot`), else where ``fallback`` sends it (a Move: toward the leader; a flee: its own way to
    the edge). ``before``: the models out of coherency before the move. Fills ``placed`` in order."""
    placed[lead.id] = (dest[0], dest[1], state.ctx.table.surface_height(dest))
    for m in ms:
        if m.id == lead.id:
            continue
        spot = _follower_spot(state, m, lead, dest, allow, placed, moving, m.id in before)
        if spot is None:
            spot = fallback(m)
        placed[m.id] = (spot[0], spot[1], state.ctx.table.surface_height(spot))


#: How many of the slots round the leader (nearest a follower's place in the formation first) it may reach by a
#: routed path; farther slots only by a straight leg.
ROUTED_SLOTS = 8


def _follower_spot(
    state: State,
    m: Model,
    lead: Model,
    dest: Vec,
    allow: float,
    placed: Placement,
    moving: list[str],
    straggler: bool,
) -> Vec | None:
    """Where a follower of ``lead`` (going to ``dest``) ends: its place in the formation, else the nearest free
    slot round the leader that it can reach, walking round impassable terrain and enemies like the leader (seed
    002, Move: any direction, at least 1" from enemies; the kernel's shortest_path) for the nearest
    ``ROUTED_SLOTS``, by a straight leg for the rest. A straggler (already out of coherency) has no place in the
    formation."""
    egap = float(state.ctx.params["move_enemy_clearance"])
    want = (m.x + dest[0] - lead.x, m.y + dest[1] - lead.y)
    if not straggler and _fits(state, m, want, allow, placed, moving, egap, route=True) is not None:
        return want
    spacing = float(state.ctx.params["deploy_spacing"])
    slots = sorted(
        follower_slots(dest, lead.radius, m.radius, spacing),
        key=lambda s: math.hypot(s[0] - want[0], s[1] - want[1]),
    )
    for i, s in enumerate(slots):
        if _fits(state, m, s, allow, placed, moving, egap, route=i < ROUTED_SLOTS) is not None:
            return s
    return None


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
    zones = _enemy_zones(state, m, float(ctx.params["move_enemy_clearance"]), ignore_unit, within)
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


def _route_toward(
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
    return None if found is None else _settle(state, m, found[0], allow, placed, moving, ignore_unit)


def _settle(
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
        ring = [(p[0] + radius * ux, p[1] + radius * uy) for ux, uy in _ANGLES]
        for q in sorted(ring, key=lambda q: math.hypot(q[0] - end[0], q[1] - end[1])):
            if _fits(state, m, q, allow, placed, moving, egap, ignore_unit, route=True) is not None:
                return q
    for k in range(1, 9):
        q = _walk(ctx, m, path, allow * (1 - k / 8))
        if not spot_problems(state, m, q, placed, moving, egap, ignore_unit):
            return q
    return (m.x, m.y)


def edge_goals(state: State, m: Model, edge_y: float) -> list[Vec]:
    """Places on the table edge at ``edge_y`` where ``m`` would touch it: straight ahead, and beside each
    impassable piece (the ways round it)."""
    ctx = state.ctx
    r = m.radius
    y = r + 1e-3 if edge_y <= 0 else ctx.table.depth - r - 1e-3
    xs = [m.x]
    for piece in ctx.solid:
        x0, _, x1, _ = piece.bbox
        xs.extend((x0 - r - 0.1, x1 + r + 0.1))
    lo, hi = r + 1e-3, ctx.table.width - r - 1e-3
    return [(x, y) for x in dict.fromkeys(min(hi, max(lo, x)) for x in xs)]


def ray_goal(state: State, m: Model, d: Vec) -> list[Vec]:
    """The place on the table edge where ``m`` would touch it going straight along direction ``d``."""
    ctx = state.ctx
    r = m.radius + 1e-3
    ts = []
    for pos, v, size in ((m.x, d[0], ctx.table.width), (m.y, d[1], ctx.table.depth)):
        if v > 1e-9:
            ts.append((size - r - pos) / v)
        elif v < -1e-9:
            ts.append((r - pos) / v)
    t = max(0.0, min(ts, default=0.0))
    return [(m.x + d[0] * t, m.y + d[1] * t)]


def plan_flee(
    state: State, uid: str, allow: float, goals_of: Callable[[Model], list[Vec]]
) -> tuple[Placement, list[str]]:
    """A flee: one Move of ``allow`` inches toward the table edge (digest §3.7: a Routed unit that fails its Rally
    moves toward its own edge; §3.9: a unit that loses a Fight and fails Leadership makes a full Move away). It is
    a Move (seed 002), so its machinery is the Move's: the leader walks its shortest way to the edge (``goals_of``
    a model: where it would touch the edge) round impassable terrain and never within 1" of an enemy it was not
    already that close to, never through one it was; the others take their place in the formation or the nearest
    slot round the leader (:func:`_follower_spot`). A model whose way to the edge is no longer than its move
    reaches it and leaves the table (returned in the second list: destroyed). A model whose spot is taken takes
    the nearest legal spot (:func:`_settle`), never freezing while it can move. Coherency is kept where a spot
    allows; the flee is forced, not an intentional break of it."""
    ms = members(state, uid)
    moving = [m.id for m in ms]
    leaving = []
    for m in ms:
        goals = goals_of(m)
        near = [g for g in goals if math.hypot(g[0] - m.x, g[1] - m.y) <= allow + 1e-6]
        found = route(state, m, near, allow, max_cost=allow + 1e-6) if near else None
        if found is not None and found[1] <= allow + 1e-6:
            leaving.append(m.id)
    stay = [m for m in ms if m.id not in leaving]
    placed: Placement = {}
    if not stay:
        return placed, leaving
    lead = leader_of(state, uid)
    if lead is None or lead.id in leaving:
        lead = min(stay, key=lambda m: min(math.hypot(g[0] - m.x, g[1] - m.y) for g in goals_of(m)))
    dest = _flee_spot(state, lead, goals_of(lead), allow, placed, moving)
    before = set(out_of_coherency(state, uid))
    _place_leader_and_followers(
        state,
        stay,
        lead,
        dest,
        allow,
        placed,
        moving,
        before,
        lambda m: _flee_spot(state, m, goals_of(m), allow, placed, moving),
    )
    return placed, leaving


def _flee_spot(state: State, m: Model, goals: list[Vec], allow: float, placed: Placement, moving: list[str]) -> Vec:
    """Where ``m`` ends fleeing on its own: ``allow`` inches along its way to the edge (:func:`_settle`), or, with
    no way there, as far as it gets straight toward the nearest goal."""
    found = route(state, m, goals, allow)
    if found is not None:
        return _settle(state, m, found[0], allow, placed, moving)
    goal = min(goals, key=lambda g: math.hypot(g[0] - m.x, g[1] - m.y))
    egap = float(state.ctx.params["move_enemy_clearance"])
    return _toward(state, m, goal, allow, placed, moving, egap)


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
    (:func:`leg_cost`), keep 1" clear of enemies and together fit ``allow``. One model only (a unit of several
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
    zones = _enemy_zones(state, m, egap, "", allow)
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


# ------------------------------------------------------------------------------------------- sight
def piece_size(ctx: Context, piece: TerrainPiece) -> int:
    p = ctx.params
    size = 0
    for rank, key in ((1, "size_height_S"), (2, "size_height_M"), (3, "size_height_L"), (4, "size_height_XL")):
        if piece.height >= float(p[key]) - 1e-9:
            size = rank
    return size


#: Margin (inches) round the box of two bases within which a piece or model may meet a line of sight between them.
_SIGHT_BOX_SLACK = 0.01

#: A feature that may stand in the way of the lines of sight between two models: the piece, whether it is woods,
#: and its size (:func:`piece_size`).
_SightPiece = tuple[TerrainPiece, bool, int]
#: A base that may stand in the way: its centre, radius and size rank.
_SightBase = tuple[Vec, float, int]


def _sight_blockers(ctx: Context, state: State, a: Model, t: Model) -> tuple[list[_SightPiece], list[_SightBase]]:
    """The pieces and models that may meet a line of sight from ``a``'s base to ``t``'s (:func:`_line`), once per
    pair instead of once per line (speed only: the same answers). Every such line runs inside the box round the
    two bases, so a piece or base wholly outside it never meets one; a platform either model stands on, and a
    piece (not woods) no higher than both models, never count."""
    lox = min(a.x - a.radius, t.x - t.radius) - _SIGHT_BOX_SLACK
    hix = max(a.x + a.radius, t.x + t.radius) + _SIGHT_BOX_SLACK
    loy = min(a.y - a.radius, t.y - t.radius) - _SIGHT_BOX_SLACK
    hiy = max(a.y + a.radius, t.y + t.radius) + _SIGHT_BOX_SLACK
    pieces: list[_SightPiece] = []
    for piece in ctx.sight_pieces:
        x0, y0, x1, y1 = piece.bbox
        if x1 < lox or x0 > hix or y1 < loy or y0 > hiy:
            continue
        if piece.kind == "platform" and (piece.contains((a.x, a.y)) or piece.contains((t.x, t.y))):
            continue
        woods = piece.id in ctx.woods_ids
        if not woods and a.z >= piece.height and t.z >= piece.height:
            continue
        pieces.append((piece, woods, piece_size(ctx, piece)))
    bases: list[_SightBase] = []
    for o in state.models.values():
        if not o.on_table or o.unit in (a.unit, t.unit):
            continue
        r = o.radius
        if o.x + r < lox or o.x - r > hix or o.y + r < loy or o.y - r > hiy:
            continue
        bases.append(((o.x, o.y), r, size_rank(o)))
    return pieces, bases


def _line(
    ctx: Context, big: int, pieces: list[_SightPiece], bases: list[_SightBase], pa: Vec, pt: Vec, hint: list[bool]
) -> int | None:
    """None if the line is blocked, else 1 when a smaller feature or unit is in the way (Conceal), 0 if clear.
    ``big``: the larger size rank of the two models; ``pieces`` and ``bases``: what may be in the way
    (:func:`_sight_blockers`), what blocked the last line first; ``hint[0]``: a base has blocked a line of this
    pair (the answer never depends on the order of the checks)."""
    if hint[0]:  # the last line was blocked by the base now first: try it before any piece
        c, r, rank = bases[0]
        if rank >= big and circle_segment_hits(pa, pt, c, r):
            return None
    conceal = 0
    ln = math.hypot(pt[0] - pa[0], pt[1] - pa[1])
    for i, (piece, woods, size) in enumerate(pieces):
        iv = piece.clip(pa, pt)
        if iv is None or iv[1] - iv[0] <= 1e-9:
            continue
        if woods:
            if (iv[1] - iv[0]) * ln > float(ctx.params["woods_sight"]) + 1e-9:
                _to_front(pieces, i)
                return None
            conceal = 1
            continue
        if size >= big:
            _to_front(pieces, i)
            return None
        if size > 0:
            conceal = 1
    for i, (c, r, rank) in enumerate(bases):
        if circle_segment_hits(pa, pt, c, r):
            if rank >= big:
                _to_front(bases, i)
                hint[0] = True
                return None
            conceal = 1
    return conceal


def _to_front(items: list[Any], i: int) -> None:
    """Move what blocked one line of sight to the front: the next line between the same bases most likely meets
    it too, and is then refused at the first check (the answer never depends on the order)."""
    if i:
        items.insert(0, items.pop(i))


#: Where the lines of sight start and end across each base (fractions of its radius along the diameter square to
#: the line between the centres): the three parallel lines first (the centre line and both near edges), then
#: every other pair, parallel and crossing, so a clear line anywhere between the two bases is found (seed 002,
#: Check Line of Sight: "from any portion of the attacking model's base to any portion of the target model's
#: base"). Any clear segment between two discs holds a clear segment between points of their rims, so points
#: across each base at this spacing find it unless the gap is narrower than the spacing.
_SIGHT_OFFSETS = (0.0, 0.8, -0.8, 0.98, -0.98, 0.5, -0.5, 0.25, -0.25)
_SIGHT_PAIRS = (
    (0.0, 0.0),
    (0.8, 0.8),
    (-0.8, -0.8),
    *((sa, st) for sa in _SIGHT_OFFSETS for st in _SIGHT_OFFSETS if not (sa == st and abs(sa) in (0.0, 0.8))),
)


def positions_key(state: State) -> tuple[Any, ...]:
    return tuple((m.id, m.x, m.y, m.z) for m in state.models.values() if m.on_table)


def sight(state: State, a: Model, t: Model, key: tuple[Any, ...] | None = None) -> int | None:
    """Line of sight from ``a`` to ``t`` (seed 002, Check Line of Sight): any 1mm line from base to base; a
    feature or unit the same size or larger than both blocks, a smaller one gives Conceal (1). Returns None
    (no LoS) or the intervening Conceal (0 or 1: only the best single feature counts)."""
    ctx = state.ctx
    k = ("sight", a.id, t.id, key if key is not None else positions_key(state))
    hit = ctx.memo.get(k, -1)
    if hit != -1:
        return hit  # type: ignore[no-any-return]
    big = max(size_rank(a), size_rank(t))
    pieces, bases = _sight_blockers(ctx, state, a, t)
    # the answer depends only on the two bases and on what may stand between them (the table never changes): a
    # pair whose neighbourhood did not change since another state was asked is answered again without a line
    near = ("sight-near", a.x, a.y, a.z, a.radius, t.x, t.y, t.z, t.radius, big, tuple(bases))
    hit = ctx.memo.get(near, -1)
    if hit != -1:
        ctx.memo[k] = hit
        return hit  # type: ignore[no-any-return]
    best: int | None = None
    dx, dy = t.x - a.x, t.y - a.y
    ln = math.hypot(dx, dy) or 1.0
    px, py = -dy / ln, dx / ln
    hint = [False]
    for sa, st in _SIGHT_PAIRS if pieces or bases else _SIGHT_PAIRS[:1]:  # nothing in the way: the first is clear
        pa = (a.x + sa * a.radius * px, a.y + sa * a.radius * py)
        pt = (t.x + st * t.radius * px, t.y + st * t.radius * py)
        c = _line(ctx, big, pieces, bases, pa, pt, hint)
        if c is not None and (best is None or c < best):
            best = c
            if c == 0:
                break
    if len(ctx.memo) > 200_000:
        ctx.memo.clear()
    ctx.memo[k] = best
    ctx.memo[near] = best
    return best


# ------------------------------------------------------------------------------------------- cover
#: Cover answers kept per game (in the context's memo) before it is emptied.
COVER_MEMO_LIMIT = 200_000


def model_cover(state: State, t: Model, shooter: Model | None) -> int:
    """Cover (X) of one model (digest §3.11): in a crater with cover, in or on a SCALABLE building with cover,
    or touching a linear obstacle that lies between it and the shooter. A pure function of where the model (and
    the shooter) stands on the fixed table, so it is remembered by those positions (an evaluation asks it of
    every model after every lookahead, and most of them have not moved)."""
    ctx = state.ctx
    k = ("cover", t.x, t.y, t.radius, None if shooter is None else (shooter.x, shooter.y))
    memo = ctx.memo
    hit: int | None = memo.get(k)
    if hit is None:
        hit = _model_cover(ctx, t, shooter)
        if len(memo) > COVER_MEMO_LIMIT:
            memo.clear()
        memo[k] = hit
    return hit


def _model_cover(ctx: Context, t: Model, shooter: Model | None) -> int:
    p = ctx.params
    best = 0
    for piece in ctx.table.terrain:
        if piece.id not in ctx.cover_ids:
            continue
        if piece.kind == "platform" and piece.contains((t.x, t.y)):
            best = max(best, int(p["cover_building"]))
        elif piece.kind == "difficult" and piece.contains((t.x, t.y)):
            best = max(best, int(p["cover_crater"]))
        elif (
            piece.kind == "obstacle"
            and piece.distance_to((t.x, t.y)) <= t.radius + float(p["cover_touch"])
            and (shooter is None or piece.clip((shooter.x, shooter.y), (t.x, t.y)) is not None)
        ):
            best = max(best, int(p["cover_obstacle"]))
    return best


def unit_cover(state: State, uid: str, shooter: Model | None) -> int:
    """The Cover (X) the unit claims: the best X that at least ``cover_share`` of its models have."""
    ms = members(state, uid)
    if not ms:
        return 0
    values = sorted((model_cover(state, m, shooter) for m in ms), reverse=True)
    need = max(1, math.ceil(float(state.ctx.params["cover_share"]) * len(ms) - 1e-9))
    return values[need - 1]


# ------------------------------------------------------------------------------------------- charges
def contact_spots(state: State, m: Model, target: Model) -> list[Vec]:
    d = m.radius + target.radius + 0.001
    return [(target.x + d * ux, target.y + d * uy) for ux, uy in _ANGLES]


def beside_spots(state: State, m: Model, target: Model, placed: Placement) -> list[Vec]:
    """Base-contact spots of ``m`` on ``target`` that also touch a charger already placed in contact with it
    (where the two circles cross): the spots that close the bases up round the target. They stand a hair
    farther out than :func:`contact_spots` (well within ``contact_tolerance``) so that a ring of equal bases
    closes: six 25 mm bases round a 25 mm base."""
    d = m.radius + target.radius + 0.01
    out: list[Vec] = []
    for mid, (x, y, _) in placed.items():
        q = state.models[mid]
        if math.hypot(x - target.x, y - target.y) > q.radius + target.radius + 0.02:
            continue
        rq = m.radius + q.radius + 0.002
        dx, dy = x - target.x, y - target.y
        dd = math.hypot(dx, dy)
        if dd < 1e-9 or dd > d + rq or dd < abs(d - rq):
            continue
        a = (d * d - rq * rq + dd * dd) / (2 * dd)
        h = math.sqrt(max(0.0, d * d - a * a))
        mx, my = target.x + a * dx / dd, target.y + a * dy / dd
        out.append((mx - h * dy / dd, my + h * dx / dd))
        out.append((mx + h * dy / dd, my - h * dx / dd))
    return out


def plan_charge(state: State, uid: str, tuid: str, allow: float) -> tuple[Placement, int]:
    """Charge placement (seed 002, Charge: the rest of the unit "must be moved in a way that maximizes the number
    of models that can reach base-to-base contact"): a search over two ways of placing the followers, each as
    :func:`_plan_charge_with` describes: every model to its cheapest contact spot, and packing (each follower
    beside a charger already in contact where it can, so the bases close up round the target). The placement
    with the most models in contact wins (the first on a tie)."""
    best = _plan_charge_with(state, uid, tuid, allow, False)
    if best[1] < len(members(state, uid)):
        packed = _plan_charge_with(state, uid, tuid, allow, True)
        if packed[1] > best[1]:
            best = packed
    return best


def _plan_charge_with(state: State, uid: str, tuid: str, allow: float, pack: bool) -> tuple[Placement, int]:
    """Charge placement (seed 002, Charge: "a special type of movement action"): the leader first, into base
    contact if it can be; then the rest so that as many models as possible reach base contact (each takes the
    cheapest free contact spot it can reach and still be in coherency, nearest models first). Each model moves as
    in a Move (:func:`_charge_reach`): round impassable terrain and 1" clear of the enemies it does not charge,
    difficult ground at its cost, a VEHICLE only straight. A model that reaches no contact spot goes as far as
    its ``allow`` takes it along its way there (the leader, :func:`_charge_short`) or toward the leader (the
    others). Returns the placement and the number of charging models in base contact."""
    ms = members(state, uid)
    lead = leader_of(state, uid) or ms[0]
    targets = members(state, tuid)
    moving = [m.id for m in ms]
    placed: Placement = {}
    egap = float(state.ctx.params["move_enemy_clearance"])
    contacts = 0
    spot = _charge_reach(state, lead, targets, allow, placed, moving, tuid)
    if spot is None:
        spot = _charge_short(state, lead, targets, allow, placed, moving, tuid)
    else:
        contacts += 1
    placed[lead.id] = (spot[0], spot[1], state.ctx.table.surface_height(spot))
    rest = sorted((m for m in ms if m.id != lead.id), key=lambda m: min(gap(m, t) for t in targets))
    for m in rest:

        def coherent(q: Vec, m: Model = m) -> bool:
            return m.id not in out_of_coherency(state, uid, {**placed, m.id: (q[0], q[1], 0.0)})

        s = None
        if pack:
            s = _charge_reach(state, m, targets, allow, placed, moving, tuid, coherent, beside=True)
        if s is None:
            s = _charge_reach(state, m, targets, allow, placed, moving, tuid, coherent)
        if s is not None:
            contacts += 1
        else:
            goal = placed[lead.id][:2]
            way = (
                None if "VEHICLE" in m.data["keywords"] else _route_toward(state, m, goal, allow, placed, moving, tuid)
            )
            s = way or _toward(state, m, pivot_goal(state, m, goal), allow, placed, moving, egap, tuid)
        placed[m.id] = (s[0], s[1], state.ctx.table.surface_height(s))
    return placed, contacts


def _charge_reach(
    state: State,
    m: Model,
    targets: list[Model],
    allow: float,
    placed: Placement,
    moving: list[str],
    tuid: str,
    ok: Callable[[Vec], bool] | None = None,
    beside: bool = False,
) -> Vec | None:
    """The base-contact spot on ``targets`` that ``m`` reaches most cheaply within ``allow`` inches (and that
    ``ok`` accepts), or None. A charge is a movement action (seed 002, Charge), so the way there is a Move's
    (:func:`move_cost` with routing): the straight leg when it is clear, else the shortest way round impassable
    terrain and round enemies other than the target (seed 002, Move: at least 1" away), never through a target's
    base. Spots are tried nearest first and the search stops once no farther spot can be cheaper (a way is never
    shorter than the straight line), so in the open it prices one leg."""
    egap = float(state.ctx.params["move_enemy_clearance"])
    vehicle = "VEHICLE" in m.data["keywords"]
    if beside:
        spots = [s for t in targets for s in beside_spots(state, m, t, placed)]
    else:
        spots = [s for t in targets for s in contact_spots(state, m, t)]
    dist = [math.hypot(s[0] - m.x, s[1] - m.y) for s in spots]
    best: tuple[float, Vec] | None = None
    for i in sorted(range(len(spots)), key=dist.__getitem__):
        limit = allow if best is None else best[0]
        if dist[i] > allow + 1e-6 or (best is not None and dist[i] >= best[0]):
            break
        s = spots[i]
        if spot_problems(state, m, s, placed, moving, egap, tuid) or (ok is not None and not ok(s)):
            continue
        if vehicle and vehicle_problems(state, m, s, allow, None):
            continue  # a VEHICLE pivots once, at most 90 degrees, then goes straight (seed 002)
        c = move_cost(state, m, s, limit, egap, tuid, route=True)
        if c is not None and c <= limit + 1e-6 and (best is None or c < best[0]):
            best = (c, s)
    return None if best is None else best[1]


def _charge_short(
    state: State, m: Model, targets: list[Model], allow: float, placed: Placement, moving: list[str], tuid: str
) -> Vec:
    """Where a charging leader that cannot reach base contact ends (seed 002, Charge: into contact "if it may
    be"; otherwise the charge move still takes it as close as its distance allows): ``allow`` inches along its
    shortest way to the nearest free contact spot (:func:`_settle`), or with no way there as far as it gets
    straight toward the nearest target model."""
    egap = float(state.ctx.params["move_enemy_clearance"])
    goals = [
        s
        for t in targets
        for s in contact_spots(state, m, t)
        if not spot_problems(state, m, s, placed, moving, egap, tuid)
    ]
    if goals and "VEHICLE" not in m.data["keywords"]:
        d = min(math.hypot(g[0] - m.x, g[1] - m.y) for g in goals)
        found = route(state, m, goals, allow, max_cost=2 * d + allow, ignore_unit=tuid)
        if found is not None:
            return _settle(state, m, found[0], allow, placed, moving, tuid)
    near = min(targets, key=lambda t: gap(m, t))
    return _toward(state, m, pivot_goal(state, m, (near.x, near.y)), allow, placed, moving, egap, tuid)


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


# ------------------------------------------------------------------------------------------- moving a unit
def place_unit(state: State, placed: Placement, events: list[Event]) -> None:
    """Put the models where a plan placed them (a Moved event for each that went anywhere)."""
    for mid, (x, y, z) in placed.items():
        m = state.models[mid]
        start = (m.x, m.y)
        m.x, m.y, m.z = x, y, z
        if math.hypot(x - start[0], y - start[1]) > 1e-9:
            events.append(Moved(mid, start, (x, y), math.hypot(x - start[0], y - start[1])))


def move_allow(state: State, uid: str, mult: float = 1.0) -> float:
    """Inches per Move: the Move characteristic (seed 002, Move), 2" while prone (Go Prone)."""
    if unit_state(state, uid)["prone"]:
        return float(state.ctx.params["prone_move"])
    ms = members(state, uid)
    return min(float(m.data["move"]) for m in ms) * mult


def own_edge_y(state: State, uid: str) -> float:
    """The y of the table edge behind the unit's deployment zone (its own table edge, digest §3.2 / §3.7)."""
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    return 0.0 if (zone.bbox[1] + zone.bbox[3]) / 2 < state.ctx.table.depth / 2 else state.ctx.table.depth


def _centre(ms: list[Model]) -> tuple[float, float]:
    return (sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms))


def flee_goals(state: State, uid: str, away: str | None) -> Callable[[Model], list[tuple[float, float]]]:
    """Where each model would touch the table edge fleeing: straight away from the centre of the ``away`` unit's
    models (seen from the centre of the unit's own), else at its own edge."""
    enemies = members(state, away) if away else []
    if enemies:
        ms = members(state, uid)
        ex, ey = _centre(enemies)
        ux, uy = _centre(ms)
        d = math.hypot(ux - ex, uy - ey)
        if d > 1e-6:
            v = ((ux - ex) / d, (uy - ey) / d)
            return lambda m: ray_goal(state, m, v)
    edge = own_edge_y(state, uid)
    return lambda m: edge_goals(state, m, edge)
