"""Unit move plans: where every model of a unit ends when it moves (seed 002, Move: every model moves; Unit
Coherency: all end within the leader's command radius, never taken out of coherency on purpose; Go Prone: 2" per
move while prone) and when it flees (digest §3.7: a failed Rally moves toward its own table edge; §3.9: the loser of
a Fight that fails Leadership makes a full Move away).

Every model of a moving unit may walk round impassable terrain and round enemies (the kernel's shortest_path,
within its Move): the leader to its destination, the others to their places in the formation or to the nearest
free slots round the leader (the nearest ``ROUTED_SLOTS`` by a routed path, farther ones by straight legs).
VEHICLEs move in a straight line. No model's path comes within the enemy gap of an enemy it was not already that
close to, nor through the base of one it was (seed 002, Move: "must remain at least 1" away"). A flee
(:func:`plan_flee`) is a Move by the same machinery toward a table edge; the charge move (``charge.plan_charge``)
uses the same ways toward base contact."""

from __future__ import annotations

import math
from collections.abc import Callable

from warband.kernel.errors import Reason
from warband.kernel.events import Event, Moved
from warband.kernel.geometry.distance import Vec
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.coherency import follower_slots, out_of_coherency, out_of_coherency_now
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, ustate
from warband.rulesets.trenches_and_turbines.paths import fits, move_cost, route, route_toward, settle, toward
from warband.rulesets.trenches_and_turbines.spots import ASK_MOVE_COST, Placement, compiled_index, spot_problems
from warband.rulesets.trenches_and_turbines.units import leader_of, members


def prone_limit(state: State, uid: str, inches: float) -> float:
    """Seed 002, Go Prone: "While prone, the unit may only move 2" per move action" (param ``prone_move``): the
    inches of any movement action of a prone unit (a Move, a Charge, a Shift, a flee) at most that."""
    if ustate(state, uid)["prone"]:
        return min(inches, float(state.ctx.params["prone_move"]))
    return inches


def move_allow(state: State, uid: str, mult: float = 1.0) -> float:
    """Inches per Move: the Move characteristic (seed 002, Move) times ``mult`` (a charge), 2" while prone
    (:func:`prone_limit`)."""
    ms = members(state, uid)
    return prone_limit(state, uid, min(float(m.data["move"]) for m in ms) * mult)


def shift_allow(state: State, uid: str) -> float:
    """Inches of a Shift (seed 002, Shift: "a 3" movement action that follows all of the normal rules for
    movement", param ``shift_distance``), 2" while prone (Go Prone, :func:`prone_limit`): a Fight winner's free
    Shift too."""
    return prone_limit(state, uid, float(state.ctx.params["shift_distance"]))


def place_unit(state: State, placed: Placement, events: list[Event]) -> None:
    """Put the models where a plan placed them (a Moved event for each that went anywhere)."""
    for mid, (x, y, z) in placed.items():
        m = state.models[mid]
        start = (m.x, m.y)
        m.x, m.y, m.z = x, y, z
        if math.hypot(x - start[0], y - start[1]) > 1e-9:
            events.append(Moved(mid, start, (x, y), math.hypot(x - start[0], y - start[1])))


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
    c = fits(state, lead, dest, allow, placed, moving, egap, route=True)
    if c is None:
        why = spot_problems(state, lead, dest, placed, moving, egap)
        return why or [(f"{R}/move/too-far", f'{lead.id} cannot reach {dest[0]:.1f},{dest[1]:.1f} with {allow:g}"')]
    before = out_of_coherency_now(state, uid)
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
            route_toward(state, m, dest, allow, placed, moving) or toward(state, m, dest, allow, placed, moving, egap)
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
    before: frozenset[str],
    fallback: Callable[[Model], Vec],
) -> None:
    """Put ``lead`` at ``dest`` and every other model of ``ms`` at its place by the leader
    (:func:`_follower_spot`), else where ``fallback`` sends it (a Move: toward the leader; a flee: its own way to
    the edge). ``before``: the models out of coherency before the move. Fills ``placed`` in order."""
    placed[lead.id] = (dest[0], dest[1], state.ctx.table.surface_height(dest))
    followers = [m for m in ms if m.id != lead.id]
    index = compiled_index(state)
    if index is not None:  # the first followers whose place in the formation is plainly free, in C
        egap = float(state.ctx.params["move_enemy_clearance"])
        done = index.place_followers(
            followers, dest[0], dest[1], lead.x, lead.y, placed, moving, before, egap, state.models, allow
        )
        followers = followers[done:]
    for m in followers:
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
    if not straggler and fits(state, m, want, allow, placed, moving, egap, route=True) is not None:
        return want
    spacing = float(state.ctx.params["deploy_spacing"])
    slots = follower_slots(dest, lead.radius, m.radius, spacing)
    wx, wy = want
    index = compiled_index(state)
    if index is not None:  # the same search in C (_spot_checks.SpotIndex.first_slot); a leg it cannot price here
        start = 0
        while True:
            rank, k, got = index.first_slot(m, slots, wx, wy, start, placed, moving, egap, state.models, allow)
            if rank < 0:
                return None
            if got is not ASK_MOVE_COST:
                return slots[int(k)]
            if _within_allow(move_cost(state, m, slots[int(k)], allow, egap, "", rank < ROUTED_SLOTS), allow):
                return slots[int(k)]
            start = rank + 1
    hypot = math.hypot
    away = [hypot(sx - wx, sy - wy) for sx, sy in slots]
    # nearest first; a stable sort, so equally near slots keep the ring order
    for i, k in enumerate(sorted(range(len(slots)), key=away.__getitem__)):
        s = slots[k]
        if fits(state, m, s, allow, placed, moving, egap, route=i < ROUTED_SLOTS) is not None:
            return s
    return None


def _within_allow(c: float | None, allow: float) -> bool:
    """``paths.fits``' last test: a cost was found and it is within ``allow``."""
    return c is not None and c <= allow + 1e-6


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
    the nearest legal spot (:func:`paths.settle`), never freezing while it can move. Coherency is kept where a spot
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
    before = out_of_coherency_now(state, uid)
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
    """Where ``m`` ends fleeing on its own: ``allow`` inches along its way to the edge (:func:`paths.settle`), or, with
    no way there, as far as it gets straight toward the nearest goal."""
    found = route(state, m, goals, allow)
    if found is not None:
        return settle(state, m, found[0], allow, placed, moving)
    goal = min(goals, key=lambda g: math.hypot(g[0] - m.x, g[1] - m.y))
    egap = float(state.ctx.params["move_enemy_clearance"])
    return toward(state, m, goal, allow, placed, moving, egap)
