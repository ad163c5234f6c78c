"""Charge (seed 002: Charge, Walking Charge, Running Charge, After the Running Charge is performed; Go Prone: a
charged prone unit): declaring a walking or running charge, its reach, the charge move after the target's reaction
and the FREE Fight, and the charge move's placement: the leader first into base contact, the rest so that as many
models as possible reach it (:func:`plan_charge`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.geometry.distance import Vec
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, set_unit, ustate
from warband.rulesets.trenches_and_turbines.fight import FightGo
from warband.rulesets.trenches_and_turbines.paths import DIRECTIONS, move_cost, route, route_toward, settle, toward
from warband.rulesets.trenches_and_turbines.spots import Placement, listing_cache, spot_problems
from warband.rulesets.trenches_and_turbines.unit_moves import move_allow, place_unit
from warband.rulesets.trenches_and_turbines.units import leader_of, members, unit_gap
from warband.rulesets.trenches_and_turbines.vehicles import pivot_goal, vehicle_facing_after, vehicle_problems


def charge_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Why the active unit may not make the Charge ``a`` now (seed 002, Charge: declared walking or running, one per
    activation, no running charge if it started PINNED, within reach; digest §3.7: not Routed or just rallied)."""
    p = state.ctx.params
    out: list[Reason] = []
    if a.option not in ("walking", "running"):
        return [(f"{R}/charge/declare", "declare a 'walking' or a 'running' charge")]
    t = a.target or ""
    if t not in state.ctx.units or state.ctx.units[t]["side"] == state.ctx.units[uid]["side"] or not members(state, t):
        return [(f"{R}/charge/target", f"{t} is not an enemy unit on the table")]
    if "charge" in state.vars["acts"]:
        out.append((f"{R}/charge/once", "a unit may only ever perform one charge action per activation"))
    if ustate(state, uid)["routed"] or state.vars.get("no_charge"):
        out.append((f"{R}/charge/routed", "a Routed (or just rallied) unit may not Charge (digest §3.7)"))
    if a.option == "running":
        if state.vars.get("started_pinned"):
            out.append(
                (
                    f"{R}/charge/pinned-running",
                    "a unit that started its activation PINNED may not make a running charge",
                )
            )
        if int(state.vars["left"]) < int(p["running_charge_actions"]):
            out.append((f"{R}/charge/running-actions", "a running charge uses both actions"))
    cache = listing_cache(state)
    if cache is None:
        reach = charge_distance(state, uid, a.option)
    else:  # a menu: every enemy unit's charge asks the same reach
        reach = cache.get(("charge-distance", uid, a.option), -1.0)
        if reach < 0.0:
            reach = cache[("charge-distance", uid, a.option)] = charge_distance(state, uid, a.option)
    if unit_gap(state, uid, t) > reach + 1e-9:
        out.append((f"{R}/charge/range", f'{t} is beyond the {reach:g}" charge move'))
    return out


def charge_distance(state: State, uid: str, mode: str | None) -> float:
    """How far a charge moves (seed 002: a walking charge its Move, param ``walking_charge_multiplier``; a running
    charge double, ``running_charge_multiplier``; Go Prone: 2" while prone, ``prone_move``, a charge being a
    movement action: ``unit_moves.move_allow``)."""
    p = state.ctx.params
    mult = float(p["running_charge_multiplier"] if mode == "running" else p["walking_charge_multiplier"])
    return move_allow(state, uid, mult)


def begin_charge(state: State, uid: str, tuid: str, mode: str, events: list[Event]) -> None:
    """Charge (seed 002): declared walking or running; the charge move (:class:`ChargeGo`) waits under the
    target's reaction, which the caller offers next (``reactions.offer_reaction``)."""
    p = state.ctx.params
    spend(state, uid, "charge", int(p["running_charge_actions"]) if mode == "running" else 1)
    state.vars["charged"] = True
    state.vars["brace"] = None
    state.vars["ow_reactor"] = None
    push(state, ChargeGo(uid, tuid, mode))


@values.value
class ChargeGo(TTAuto, kind="charge-go"):
    """The charge move of ``unit`` at ``target`` (a ``mode`` "walking" or "running" charge), once the target's
    reaction is over: its distance and whether it counts as running are worked out now, after the reaction (a
    charger pinned and made prone by a reaction Shoot moves as a prone unit may, seed 002 Go Prone: 2" per move;
    a target that is prone now makes it a Running Charge). Home, a FREE Fight follows (a running charger has
    Priority unless the target braced)."""

    unit: str
    target: str
    mode: str

    def run(self, state: State, events: list[Event]) -> None:
        uid, tuid = self.unit, self.target
        ok = bool(members(state, uid)) and bool(members(state, tuid)) and not ustate(state, uid)["routed"]
        contacts = 0
        running = self.mode == "running" or (bool(members(state, tuid)) and ustate(state, tuid)["prone"])
        if self.mode != "running" and running:
            events.append(Note(f"{tuid} is prone: the charge counts as a Running Charge", f"{R}/prone/charged"))
        if ok:
            allow = charge_distance(state, uid, self.mode)
            if ustate(state, uid)["prone"]:
                events.append(Note(f'{uid} is prone: its charge moves {allow:g}"', f"{R}/charge/prone-charger"))
            placed, contacts = plan_charge(state, uid, tuid, allow)
            for mid, (x, y, _) in placed.items():
                m = state.models[mid]
                if "VEHICLE" in m.data["keywords"]:  # it ends facing the way it went (seed 002, VEHICLE movement)
                    m.flags = {**m.flags, "facing": vehicle_facing_after(m, (x, y), None)}
            place_unit(state, placed, events)
        reactor = state.vars.get("ow_reactor")
        if reactor:
            if contacts > 0:
                set_unit(state, reactor, overwatch=False)
            else:
                msg = f"{reactor} keeps its Overwatch token: the charge failed"
                events.append(Note(msg, f"{R}/reaction/overwatch"))
        if contacts == 0:
            events.append(Note(f"{uid}'s charge fails", f"{R}/charge/failed"))
            return
        events.append(
            Note(f"{uid} charges home: {contacts} model(s) in base contact; FREE Fight", f"{R}/charge/free-fight")
        )
        priority = running and state.vars.get("brace") != tuid
        bonus = int(state.ctx.params["running_charge_hit_bonus"]) if running else 0
        spend(state, uid, "fight", 0)  # the FREE Fight is performed: it counts for a later Shoot's penalty
        push(state, FightGo(uid, tuid, priority, bonus))


def contact_spots(state: State, m: Model, target: Model) -> list[Vec]:
    """Sixteen spots round ``target`` where ``m`` would stand in base contact with it."""
    d = m.radius + target.radius + 0.001
    return [(target.x + d * ux, target.y + d * uy) for ux, uy in DIRECTIONS]


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
            way = None if "VEHICLE" in m.data["keywords"] else route_toward(state, m, goal, allow, placed, moving, tuid)
            s = way or toward(state, m, pivot_goal(state, m, goal), allow, placed, moving, egap, tuid)
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
    (:func:`paths.move_cost` with routing): the straight leg when it is clear, else the shortest way round impassable
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
    shortest way to the nearest free contact spot (:func:`paths.settle`), or with no way there as far as it gets
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
            return settle(state, m, found[0], allow, placed, moving, tuid)
    near = min(targets, key=lambda t: gap(m, t))
    return toward(state, m, pivot_goal(state, m, (near.x, near.y)), allow, placed, moving, egap, tuid)
