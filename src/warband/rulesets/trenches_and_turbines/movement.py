"""The Move and Shift actions (seed 002, Move; Shift: 3", never to start another Fight): the destination choice
(:class:`Dest`), its candidate points (:func:`dest_candidates`), its plan (:func:`dest_plan`, remembered per
position) and putting the unit there. Where each model ends is :mod:`unit_moves`; VEHICLEs :mod:`vehicles`."""

from __future__ import annotations

import math
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines import missions
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTChoice, ustate
from warband.rulesets.trenches_and_turbines.spots import Placement, frozen_models
from warband.rulesets.trenches_and_turbines.unit_moves import place_unit, plan_unit_move, shift_allow
from warband.rulesets.trenches_and_turbines.units import engaged_units, is_vehicle, leader_of, members, units_of
from warband.rulesets.trenches_and_turbines.vehicles import vehicle_facing_after, vehicle_problems, vehicle_via_plan


def move_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """A Move is declared with no destination (seed 002, Actions: declare, then perform; the destination follows
    as a :class:`Dest` choice)."""
    return [] if a.target is None and a.point is None else [(f"{R}/move/syntax", "declare 'move UNIT' first")]


def shift_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """A Shift has no refusal of its own (seed 002, Shift); where it may go is checked at its destination."""
    return []


def push_shift(state: State, uid: str, free: bool = False) -> None:
    """A Shift (seed 002, Shift: a movement action of ``shift_distance`` inches; Go Prone: 2" while prone,
    :func:`unit_moves.shift_allow`); ``free`` after a Fight (the winner's, or both units' after a draw)."""
    push(state, Dest(uid, "shift", shift_allow(state, uid), free))


@values.value
class Dest(TTChoice, kind="dest", about="unit"):
    """Where the leader of ``unit`` goes: a Move (``mode`` "move") or a Shift ("shift", ``free`` after a Fight)
    of up to ``allow`` inches; any point on the table is accepted and checked (:func:`dest_plan`)."""

    unit: str
    mode: str
    allow: float
    free: bool = False

    def options(self, state: State) -> list[Action]:
        return dest_candidates(state, self)

    def reasons(self, state: State, action: Action) -> list[Reason]:
        return dest_reasons(state, self, action)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        do_destination(state, self, action, events)


def dest_candidates(state: State, step: Dest) -> list[Action]:
    """Candidate destinations for the leader: toward each enemy unit, each objective, each cover piece, away,
    and a ring of eight directions at full and half distance."""
    uid = step.unit
    lead = leader_of(state, uid) or members(state, uid)[0]
    allow = step.allow
    goals: list[tuple[float, float]] = []
    side = state.ctx.units[uid]["side"]
    for e in units_of(state, 1 - side):
        el = leader_of(state, e) or members(state, e)[0]
        goals.append((el.x, el.y))
    goals.extend(at for _, at, _ in missions.live_objectives(state))
    for piece in state.ctx.table.terrain:
        if piece.id in state.ctx.cover_ids or piece.id in state.ctx.woods_ids:
            x0, y0, x1, y1 = piece.bbox
            goals.append(((x0 + x1) / 2, (y0 + y1) / 2))
    pts: list[tuple[float, float]] = []
    for g in goals:
        dx, dy = g[0] - lead.x, g[1] - lead.y
        d = math.hypot(dx, dy)
        if d > 1e-6:
            f = min(1.0, allow / d)
            pts.append((round(lead.x + dx * f, 2), round(lead.y + dy * f, 2)))
    for k in range(8):
        ang = k * math.pi / 4
        for s in (allow, allow / 2):
            pts.append((round(lead.x + s * math.cos(ang), 2), round(lead.y + s * math.sin(ang), 2)))
    out: list[Action] = []
    seen = set()
    with frozen_models(state):  # only checks follow: nothing moves
        # dest_reasons of ``Action("to", uid, point=q)`` for each point, its plan asked by the same key
        # (:func:`_plan_key`) without building the action of a point that is refused
        plans = _plans_at(state)
        leader = ustate(state, uid).get("leader")
        for q in pts:
            if q in seen:
                continue
            seen.add(q)
            key = _plan_key(step, "to", uid, q, None, leader)
            plan = plans.get(key)
            if plan is None:
                plan = _new_plan(state, plans, key, step, Action("to", uid, point=q))
            if not isinstance(plan, list) or not plan:
                out.append(Action("to", uid, point=q))
    return [*out, Action("stay", uid)]


def dest_reasons(state: State, step: Dest, a: Action) -> list[Reason]:
    uid = step.unit
    if a.model != uid or a.kind not in ("to", "stay") or (a.kind == "to" and a.point is None):
        return [(f"{R}/move/destination", f"give a destination: 'to {uid} @x,y' or 'stay {uid}'")]
    if a.kind == "stay":
        return []
    plan = _remembered_plan(state, step, a)  # only asked whether it refuses: the shared answer, not a copy
    return list(plan) if isinstance(plan, list) else []


#: Destination plans kept per game (in the context's memo) before it is emptied.
PLAN_MEMO_LIMIT = 50_000


def dest_plan(state: State, step: Dest, a: Action) -> Placement | list[Reason]:
    """Where a Move or Shift to ``a.point`` puts every model of the unit, or why it cannot go
    (:func:`_dest_plan`). A pure function of the models on the table (where they stand, which way a VEHICLE
    faces), the unit's leader and the step, so it is remembered by them: listing the destinations plans each one
    and choosing one plans it again, and a lookahead plans the same moves from the same positions."""
    hit = _remembered_plan(state, step, a)
    return dict(hit) if isinstance(hit, dict) else list(hit)


def dest_plans(state: State, step: Dest, actions: list[Action]) -> list[Placement | list[Reason]]:
    """:func:`_remembered_plan` of each of ``actions`` (the remembered answers themselves: callers must not change
    them), the positions hashed once for all of them."""
    plans = _plans_at(state)
    leader = ustate(state, step.unit).get("leader")
    return [_plan_in(state, plans, step, a, leader) for a in actions]


def _remembered_plan(state: State, step: Dest, a: Action) -> Placement | list[Reason]:
    """:func:`dest_plan`'s answer as remembered (callers copy it before handing it on). The plans of one set of
    positions are one dict in the memo (:func:`_plans_at`), so the positions are hashed once per listing, not
    once per candidate."""
    return _plan_in(state, _plans_at(state), step, a, ustate(state, step.unit).get("leader"))


def _plan_in(
    state: State, plans: dict[Any, Placement | list[Reason]], step: Dest, a: Action, leader: str | None
) -> Placement | list[Reason]:
    """``a``'s plan from ``plans`` (one set of positions' plans, :func:`_plans_at`), made and kept there if new."""
    key = _plan_key(step, a.kind, a.model, a.point, a.option, leader)
    hit = plans.get(key)
    return _new_plan(state, plans, key, step, a) if hit is None else hit


def _plan_key(
    step: Dest, kind: str, model: str | None, point: Any, option: str | None, leader: str | None
) -> tuple[Any, ...]:
    """What a destination plan depends on besides the positions: the step, the action's fields, the unit's
    leader."""
    return (step.unit, step.mode, step.allow, kind, model, point, option, leader)


def _new_plan(
    state: State, plans: dict[Any, Placement | list[Reason]], key: tuple[Any, ...], step: Dest, a: Action
) -> Placement | list[Reason]:
    """Plan ``a`` (:func:`_dest_plan`) and keep it in ``plans`` under ``key``."""
    memo = state.ctx.memo
    kept = memo.get("dest-plans", 0) + 1
    if kept > PLAN_MEMO_LIMIT:
        memo.clear()  # ``plans`` lives on for the rest of this listing, then goes
        kept = 1
    memo["dest-plans"] = kept
    hit = plans[key] = _dest_plan(state, step, a)
    return hit


def _plans_at(state: State) -> dict[Any, Placement | list[Reason]]:
    """The remembered destination plans of the positions of ``state`` (:func:`_stances`), once per listing while
    nothing moves."""
    frozen = state.ctx.frozen
    cache = frozen.cache if frozen is not None and frozen.state is state else None
    if cache is not None and "plans" in cache:
        return cache["plans"]  # type: ignore[no-any-return]
    memo = state.ctx.memo
    key = ("dest", _stances(state))
    plans: dict[Any, Placement | list[Reason]] | None = memo.get(key)
    if plans is None:
        plans = memo[key] = {}
    if cache is not None:
        cache["plans"] = plans
    return plans


def _stances(state: State) -> tuple[tuple[Any, ...], ...]:
    """Where every model stands (and which way it faces)."""
    return tuple((m.x, m.y, m.z, m.on_table, m.flags.get("facing")) for m in state.models.values())


def _dest_plan(state: State, step: Dest, a: Action) -> Placement | list[Reason]:
    uid = step.unit
    assert a.point is not None
    allow = step.allow
    out: list[Reason] = []
    if is_vehicle(state, uid) and _via(a.option) is not None:
        via = _via(a.option)
        assert via is not None
        plan = vehicle_via_plan(state, uid, via, a.point, allow)
        return plan if isinstance(plan, list) else (out or plan)
    if is_vehicle(state, uid):
        m = members(state, uid)[0]
        face = _face(a.option)
        out.extend(vehicle_problems(state, m, a.point, allow, face))
    plan = plan_unit_move(state, uid, a.point, allow)
    if isinstance(plan, list):
        return out + plan
    if step.mode == "shift":
        tol = float(state.ctx.params["contact_tolerance"])
        others = _unengaged_enemies(state, uid)
        if others:
            # only an enemy inside the box round the placed bases (grown by the widest reach and an inch of
            # slack) can be within ``tol`` of one: the rest are skipped (speed only, the same answers)
            models = state.models
            reach = max(models[mid].radius for mid in plan) + max(e[2] for e in others) + tol + 1.0
            xs = [x for x, _, _ in plan.values()]
            ys = [y for _, y, _ in plan.values()]
            lox, hix, loy, hiy = min(xs) - reach, max(xs) + reach, min(ys) - reach, max(ys) + reach
            others = [e for e in others if lox <= e[0] <= hix and loy <= e[1] <= hiy]
        hypot = math.hypot
        for mid, (x, y, _) in plan.items() if others else ():
            mr = state.models[mid].radius
            for ex, ey, er in others:
                if hypot(x - ex, y - ey) - mr - er <= tol:
                    out.append((f"{R}/shift/no-fight", "a Shift may never be used to initiate another Fight"))
                    break
    return out or plan


def _unengaged_enemies(state: State, uid: str) -> list[tuple[float, float, float]]:
    """Where the enemy models on the table stand (x, y, base radius) that are not of a unit ``uid`` is engaged with
    now: a Shift may not end in contact with one (seed 002, Shift). The same for every destination of a listing,
    so kept while nothing moves (:func:`spots.frozen_models`)."""
    frozen = state.ctx.frozen
    cache = frozen.cache if frozen is not None and frozen.state is state else None
    k = ("unengaged-enemies", uid)
    if cache is not None and k in cache:
        return cache[k]  # type: ignore[no-any-return]
    side = state.ctx.units[uid]["side"]
    before = set(engaged_units(state, uid))
    out = [
        (e.x, e.y, e.radius) for e in state.models.values() if e.on_table and e.side != side and e.unit not in before
    ]
    if cache is not None:
        cache[k] = out
    return out


def _via(option: str | None) -> tuple[float, float] | None:
    """``[via=x,y]``: a VEHICLE goes straight ahead to x,y, pivots there, then goes straight to the destination."""
    if option and option.startswith("via="):
        x, y = option[4:].split(",")
        return (float(x), float(y))
    return None


def _face(option: str | None) -> float | None:
    if option and option.startswith("face="):
        return float(option[5:])
    return None


def do_destination(state: State, step: Dest, a: Action, events: list[Event]) -> None:
    uid = step.unit
    if a.kind == "stay":
        events.append(Note(f"{uid} stays where it is", ""))
        return
    if step.free:
        # the winner performs its free Shift (seed 002, Resolving the Fight Action: it may choose not to, 'stay'):
        # an action performed, so it counts for a later Shoot's penalty (Shooting Notes)
        spend(state, uid, "shift", 0)
    plan = dest_plan(state, step, a)
    assert isinstance(plan, dict)
    if is_vehicle(state, uid):
        m = members(state, uid)[0]
        assert a.point is not None
        via = _via(a.option)
        facing = vehicle_facing_after(m, a.point, _face(a.option), via)
        m.flags = {**m.flags, "facing": facing}
    place_unit(state, plan, events)
