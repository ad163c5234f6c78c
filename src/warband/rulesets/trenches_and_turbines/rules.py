"""Trenches and Turbines: the round, the activation deck and every action of seed 002 (the Actions chapter).

A small interpreter over ``state.stack`` (JSON-native steps named by ``t``): a step is a choice (a side
decides; for reactions the NON-active side), chance (d10s, card draws) or automatic. Rule ids are
``trenches-and-turbines/<area>/<rule>``; ``docs/rules/trenches-and-turbines.md`` maps every seed sentence to them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from warband.kernel.actions import CHANCE, CHOICE, OVER, Action, Decision, DiceSpec
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    GameEnded,
    Moved,
    Note,
    PhaseStarted,
    StatusChanged,
    TokensChanged,
)
from warband.kernel.state import GameState, Model
from warband.rulesets.trenches_and_turbines import combat, missions
from warband.rulesets.trenches_and_turbines.core import R, pop, push, set_unit, side_name, succeeds, top, ustate
from warband.rulesets.trenches_and_turbines.space import (
    Placement,
    edge_goals,
    engaged_units,
    follower_slots,
    is_vehicle,
    leader_of,
    members,
    plan_charge,
    plan_flee,
    plan_unit_move,
    ray_goal,
    spot_problems,
    unit_gap,
    vehicle_facing_after,
    vehicle_problems,
)

Reason = tuple[str, str]


# ------------------------------------------------------------------------------------------- helpers
def units_of(state: GameState, side: int) -> list[str]:
    return [u for u in state.ctx.unit_order if state.ctx.units[u]["side"] == side and members(state, u)]


def over(state: GameState) -> bool:
    return state.phase == "over"


def active(state: GameState) -> str | None:
    a = state.vars.get("active")
    return str(a) if a else None


def place_unit(state: GameState, placed: Placement, events: list[Event]) -> None:
    for mid, (x, y, z) in placed.items():
        m = state.models[mid]
        start = (m.x, m.y)
        m.x, m.y, m.z = x, y, z
        if math.hypot(x - start[0], y - start[1]) > 1e-9:
            events.append(Moved(mid, start, (x, y), math.hypot(x - start[0], y - start[1])))


def move_allow(state: GameState, uid: str, mult: float = 1.0) -> float:
    """Inches per Move: the Move characteristic (seed 002, Move), 2" while prone (Go Prone)."""
    if ustate(state, uid)["prone"]:
        return float(state.ctx.params["prone_move"])
    ms = members(state, uid)
    return min(float(m.data["move"]) for m in ms) * mult


# ------------------------------------------------------------------------------------------- setup
def start_game(state: GameState, events: list[Event]) -> None:
    """Set-up (digest §3.2): d10 roll-off, the winner picks an edge, players alternate deploying units."""
    state.phase = "deploy"
    u = {}
    for uid, spec in state.ctx.units.items():
        u[uid] = {
            "leader": spec["models"][0],
            "pins": 0,
            "prone": False,
            "routed": False,
            "overwatch": False,
            "activated": False,
            "acts_round": 0,
            "reactions": 0,
            "start": len(spec["models"]),
            "half_tested": False,
            "leaderless": False,
            "shaken": 0,
        }
    state.vars.update({"u": u, "vp": [0, 0], "deck": [], "active": None, "acts": [], "zone_of": [0, 1]})
    state.vars["marks"] = missions.initial_marks(state.ctx)
    push(state, {"t": "rolloff"})


def resolve_rolloff(state: GameState, values: tuple[int, ...], events: list[Event]) -> None:
    a, b = values
    events.append(
        DiceRolled(
            "set-up roll-off (A, B)", values, "tie: again" if a == b else f"side {side_name(0 if a > b else 1)} wins"
        )
    )
    if a == b:
        push(state, {"t": "rolloff"})
        return
    push(state, {"t": "zone", "by": 0 if a > b else 1})


def zone_chosen(state: GameState, step: dict[str, Any], zone: int, events: list[Event]) -> None:
    w = int(step["by"])
    state.vars["zone_of"] = [zone, 1 - zone] if w == 0 else [1 - zone, zone]
    state.vars["deployer"] = w
    events.append(Note(f"side {side_name(w)} takes deployment zone {zone} and deploys first", f"{R}/setup/edge"))


def undeployed(state: GameState, side: int) -> list[str]:
    return [
        u
        for u in state.ctx.unit_order
        if state.ctx.units[u]["side"] == side
        and not state.models[state.ctx.units[u]["models"][0]].on_table
        and not state.models[state.ctx.units[u]["models"][0]].flags.get("dead")
    ]


def deploy_plan(state: GameState, uid: str, p: tuple[float, float]) -> Placement | list[Reason]:
    """The unit in formation round its leader at ``p``, wholly inside its zone."""
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    ids = state.ctx.units[uid]["models"]
    placed: Placement = {}
    lead = state.models[ids[0]]
    slots = [p, *follower_slots(p, lead.radius, lead.radius, float(state.ctx.params["deploy_spacing"]))]
    for mid in ids:
        m = state.models[mid]
        for s in slots:
            inside = zone.contains(s) and zone.distance_to(s) == 0 and _inset(zone, s) >= m.radius - 1e-9
            if inside and not spot_problems(state, m, s, placed, ids, 0.0):
                placed[mid] = (s[0], s[1], state.ctx.table.surface_height(s))
                break
        else:
            return [(f"{R}/setup/zone", f"{uid} does not fit in its deployment zone at {p[0]:g},{p[1]:g}")]
    return placed


def _inset(zone: Any, p: tuple[float, float]) -> float:
    x0, y0, x1, y1 = zone.bbox
    return float(min(p[0] - x0, x1 - p[0], p[1] - y0, y1 - p[1]))


def deploy_points(state: GameState, uid: str) -> list[tuple[float, float]]:
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    x0, y0, x1, y1 = zone.bbox
    pts = [
        (round(x0 + (i + 0.5) * (x1 - x0) / 8, 2), round(y0 + (j + 0.5) * (y1 - y0) / 2, 2))
        for j in range(2)
        for i in range(8)
    ]
    return [q for q in pts if isinstance(deploy_plan(state, uid, q), dict)]


def deploy(state: GameState, uid: str, p: tuple[float, float], events: list[Event]) -> None:
    plan = deploy_plan(state, uid, p)
    assert isinstance(plan, dict)
    side = state.ctx.units[uid]["side"]
    cy = state.ctx.table.depth / 2
    for mid in plan:
        m = state.models[mid]
        m.on_table = True
        if is_vehicle(state, uid):
            m.flags = {**m.flags, "facing": 90.0 if plan[mid][1] < cy else 270.0}
    place_unit(state, plan, events)
    nxt = [s for s in (1 - side, side) if undeployed(state, s)]
    if nxt:
        state.vars["deployer"] = nxt[0]
    else:
        start_round(state, events)


# ------------------------------------------------------------------------------------------- rounds
def start_round(state: GameState, events: list[Event]) -> None:
    """Start phase (digest §3.2): every unit on the table adds ACT cards to the deck."""
    state.turn += 1
    state.phase = "activation"
    events.append(PhaseStarted(state.turn, "Activation"))
    deck: list[str] = []
    for uid in state.ctx.unit_order:
        if members(state, uid):
            deck.extend([uid] * int(state.ctx.units[uid]["act"]))
            set_unit(state, uid, activated=False, acts_round=0, reactions=0)
    state.vars["deck"] = deck
    next_card(state, events)


def next_card(state: GameState, events: list[Event]) -> None:
    deck = [u for u in state.vars["deck"] if members(state, u)]
    state.vars["deck"] = deck
    if deck:
        push(state, {"t": "draw"})
    else:
        end_round(state, events)


def card_drawn(state: GameState, index: int, events: list[Event]) -> None:
    deck = list(state.vars["deck"])
    uid = deck[index]
    if state.ctx.params["deck"] == "player":
        side = state.ctx.units[uid]["side"]
        events.append(DiceRolled("activation card", (index + 1,), f"a card of side {side_name(side)}"))
        push(state, {"t": "pick", "by": side})
        return
    deck.pop(index)
    state.vars["deck"] = deck
    events.append(DiceRolled("activation card", (index + 1,), f"{uid} activates"))
    begin_activation(state, uid, events)


def pick_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    seen = []
    for u in state.vars["deck"]:
        if state.ctx.units[u]["side"] == step["by"] and u not in seen:
            seen.append(u)
    return [Action("activate", u) for u in sorted(seen)]


def activation_actions(state: GameState, uid: str) -> int:
    """Actions of one activation (seed 002, List of Actions): two normally (param ``actions_per_activation``), or
    the unit profile's ``actions`` (the 'rare situations in which a unit may perform three')."""
    own = state.ctx.units[uid].get("actions")
    return int(own) if own is not None else int(state.ctx.params["actions_per_activation"])


def begin_activation(state: GameState, uid: str, events: list[Event]) -> None:
    """A card = one activation of :func:`activation_actions` actions, less a Shaken VEHICLE's lost actions (digest
    §3.10); a pinned unit's failed test (digest §3.7) cuts them later."""
    p = state.ctx.params
    u = ustate(state, uid)
    left = activation_actions(state, uid) - int(u["shaken"])
    state.vars.update(
        {
            "active": uid,
            "left": max(0, left),
            "acts": [],
            "shots": 0,
            "charged": False,
            "started_pinned": u["pins"] > 0,
            "no_charge": False,
            "end_now": False,
            "forbidden": {},
            "activation": int(state.vars.get("activation", 0)) + 1,
        }
    )
    set_unit(state, uid, shaken=0)
    events.append(Activated(uid, state.ctx.units[uid]["side"]))
    if u["routed"]:
        push(state, {"t": "rally", "unit": uid, "tn": combat.leadership_target(state, uid, 0)})
    elif u["pins"] > 0 and p["pinned_test"]:
        push(state, {"t": "pintest", "unit": uid, "tn": combat.leadership_target(state, uid, 0)})


def resolve_rally(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """Routed activation (digest §3.7): a Rally test; pass = no longer Routed, pins halved, no Charge; fail =
    every action a Move toward its own table edge."""
    uid = step["unit"]
    ok = succeeds(state, values[0], step["tn"])
    events.append(DiceRolled(f"rally (need {step['tn']} or less)", values, "rallied" if ok else "failed", uid))
    if ok:
        pins = ustate(state, uid)["pins"]
        pins = pins // 2 if state.ctx.params["rally_halves_pins"] else pins
        set_unit(state, uid, routed=False, pins=pins)
        state.vars.update({"no_charge": True, "started_pinned": pins > 0})
        events.append(StatusChanged(uid, "Routed", False))
    else:
        for _ in range(int(state.vars["left"])):
            push(state, {"t": "flee", "unit": uid})
        state.vars["left"] = 0


def resolve_pintest(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    ok = succeeds(state, values[0], step["tn"])
    events.append(
        DiceRolled(
            f"pinned test (need {step['tn']} or less)",
            values,
            "passed" if ok else "failed: one action only",
            step["unit"],
        )
    )
    if not ok:
        state.vars["left"] = min(int(state.vars["left"]), int(state.ctx.params["pinned_fail_actions"]))


def own_edge_y(state: GameState, uid: str) -> float:
    """The y of the table edge behind the unit's deployment zone (its own table edge, digest §3.2 / §3.7)."""
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    return 0.0 if (zone.bbox[1] + zone.bbox[3]) / 2 < state.ctx.table.depth / 2 else state.ctx.table.depth


def auto_flee(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """A flee Move (``space.plan_flee``): after a failed Rally toward the unit's own table edge (digest §3.7); with
    ``away`` (the Fight it lost, digest §3.9: 'makes a full Move away') straight away from that unit's models,
    else toward its own edge too. Models that reach the edge leave the table and are destroyed."""
    uid = step["unit"]
    if not members(state, uid):
        return
    goals = _flee_goals(state, uid, step.get("away"))
    placed, leaving = plan_flee(state, uid, move_allow(state, uid), goals)
    events.append(Note(f"{uid} flees", f"{R}/routed/flee"))
    for mid in leaving:
        combat.remove(state, state.models[mid], "fled off the table", events)
    place_unit(state, placed, events)
    combat.casualty_checks(state, uid, events)


def _centre(ms: list[Model]) -> tuple[float, float]:
    return (sum(m.x for m in ms) / len(ms), sum(m.y for m in ms) / len(ms))


def _flee_goals(state: GameState, uid: str, away: str | None) -> Callable[[Model], list[tuple[float, float]]]:
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


def end_activation(state: GameState, events: list[Event]) -> None:
    uid = active(state)
    if uid is not None:
        set_unit(state, uid, activated=True)
        events.append(Note(f"{uid}'s activation ends", f"{R}/activation/end"))
    state.vars.update({"active": None, "acts": [], "left": 0, "forbidden": {}})
    next_card(state, events)


def end_round(state: GameState, events: list[Event]) -> None:
    """End phase (digest §3.2, §3.3): discard Overwatch, score objectives, check whether the game ends."""
    p = state.ctx.params
    for uid in state.ctx.unit_order:
        if ustate(state, uid)["overwatch"]:
            set_unit(state, uid, overwatch=False)
    if state.turn >= int(p["score_from_round"]):
        vp = list(state.vars["vp"])
        for o, at, owner in missions.live_objectives(state):
            holder = owner if owner is not None else objective_holder(state, at, o.radius)
            if holder is not None:
                vp[holder] += int(p["vp_objective"]) * o.vp
        state.vars["vp"] = vp
    alive = [any(not ustate(state, u)["routed"] for u in units_of(state, s)) for s in (0, 1)]
    if state.turn >= state.ctx.rounds or not all(alive):
        finish(state, events)
    else:
        start_round(state, events)


def objective_holder(state: GameState, at: tuple[float, float], radius: float) -> int | None:
    """Control (digest §3.3): more models of non-Routed units within the radius (size L+ counts double)."""
    p = state.ctx.params
    count = [0, 0]
    for m in state.models.values():
        if not m.on_table or ustate(state, str(m.unit))["routed"]:
            continue
        if math.hypot(m.x - at[0], m.y - at[1]) - m.radius <= radius:
            count[m.side] += int(p["objective_large_weight"]) if m.data["size"] in ("L", "XL") else 1
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def finish(state: GameState, events: list[Event]) -> None:
    p = state.ctx.params
    vp = list(state.vars["vp"])
    for uid in state.ctx.unit_order:
        side = state.ctx.units[uid]["side"]
        if not members(state, uid) or ustate(state, uid)["routed"]:
            vp[1 - side] += int(p["vp_unit_broken"])
    state.vars["vp"] = vp
    state.phase = "over"
    state.stack = []
    winner = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
    events.append(GameEnded(winner, "victory points", (vp[0], vp[1])))


# ------------------------------------------------------------------------------------------- the action menu
ACTIONS = ("move", "charge", "prone", "stand", "shoot", "fight", "shift", "shed", "overwatch", missions.KIND)


def menu(state: GameState, uid: str, only_legal: bool = True) -> list[Action]:
    tries = list(candidates(state, uid))
    eng = engaged_units(state, uid)
    out = [a for a in tries if not only_legal or not action_reasons(state, uid, a, eng)]
    out.append(Action("end", uid))
    return out


def candidates(state: GameState, uid: str) -> list[Action]:
    side = state.ctx.units[uid]["side"]
    enemies = units_of(state, 1 - side)
    out = [Action("move", uid), Action("shed", uid), Action("prone", uid), Action("stand", uid)]
    for e in enemies:
        out.append(Action("charge", uid, e, option="walking"))
        out.append(Action("charge", uid, e, option="running"))
    for w in combat.unit_weapons(state, uid):
        out.extend(Action("shoot", uid, e, option=w) for e in enemies)
    out.extend(Action("fight", uid, e) for e in enemies)
    out.extend([Action("shift", uid), Action("overwatch", uid)])
    out.extend(missions.candidates(state, uid))
    return out


def action_reasons(state: GameState, uid: str, a: Action, eng: list[str] | None = None) -> list[Reason]:
    """Every rule of seed 002 (and digest §3) that forbids ``a`` for the active unit now."""
    out: list[Reason] = []
    u = ustate(state, uid)
    left = int(state.vars["left"])
    if a.kind == "end":
        return []
    if a.kind not in ACTIONS:
        return [(f"{R}/activation/unknown", f"{a.kind!r} is not an action of this game")]
    if left <= 0:
        out.append((f"{R}/activation/no-actions", "the unit has no actions left"))
    if u["pins"] > 0 and a.kind != "shed":
        out.append((f"{R}/pin/shed-first", "a pinned unit must spend an action to shed its pin first"))
    eng = engaged_units(state, uid) if eng is None else eng
    if eng and a.kind in ("move", "charge", "shoot", "overwatch"):
        out.append((f"{R}/fight/engaged-only", "an engaged unit may only Fight or Shift (digest §3.9)"))
    out.extend(missions.forbidden(state, a))
    out.extend(CHECKS[a.kind](state, uid, a, eng))
    return out


def _c_move(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return [] if a.target is None and a.point is None else [(f"{R}/move/syntax", "declare 'move UNIT' first")]


def _c_shed(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if ustate(state, uid)["pins"] <= 0:
        return [(f"{R}/pin/none", f"{uid} has no pin token to shed")]
    return []


def _c_prone(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if is_vehicle(state, uid):
        return [(f"{R}/prone/vehicle", "a VEHICLE never goes prone (digest §3.10)")]
    return [(f"{R}/prone/already", f"{uid} is already prone")] if ustate(state, uid)["prone"] else []


def _c_stand(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return [] if ustate(state, uid)["prone"] else [(f"{R}/prone/standing", f"{uid} is not prone")]


def _c_charge(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
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
    reach = charge_distance(state, uid, a.option)
    if unit_gap(state, uid, t) > reach + 1e-9:
        out.append((f"{R}/charge/range", f'{t} is beyond the {reach:g}" charge move'))
    return out


def charge_distance(state: GameState, uid: str, mode: str | None) -> float:
    p = state.ctx.params
    mult = float(p["running_charge_multiplier"] if mode == "running" else p["walking_charge_multiplier"])
    return move_allow(state, uid, mult) if not ustate(state, uid)["prone"] else float(p["prone_move"])


def _c_shoot(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    p = state.ctx.params
    out: list[Reason] = []
    t = a.target or ""
    if a.option not in combat.unit_weapons(state, uid):
        return [(f"{R}/shoot/weapon", f"{uid} has no ranged weapon {a.option!r}")]
    if t not in state.ctx.units or state.ctx.units[t]["side"] == state.ctx.units[uid]["side"] or not members(state, t):
        return [(f"{R}/shoot/target", f"{t} is not an enemy unit on the table")]
    semi = any(
        "Semi-Automatic" in (combat.weapon_of(m, str(a.option)) or {"keywords": []})["keywords"]
        for m in members(state, uid)
    )
    limit = int(p["semi_auto_shoots_per_activation"] if semi else p["shoots_per_activation"])
    if int(state.vars.get("shots", 0)) >= limit:
        out.append((f"{R}/shoot/once", "one Shoot per activation unless Semi-Automatic"))
    side = state.ctx.units[uid]["side"]
    close = [e for e in units_of(state, 1 - side) if unit_gap(state, uid, e) <= float(p["shoot_enemy_gap"]) + 1e-9]
    if close:
        out.append((f"{R}/shoot/enemy-near", 'the shooting unit must be more than 1" from all enemy models'))
    if state.vars.get("charged"):
        out.append((f"{R}/shoot/after-charge", "no Shoot after a Charge this activation"))
    if ustate(state, uid)["routed"]:
        out.append((f"{R}/shoot/routed", "a Routed unit cannot Shoot"))
    heavy = any(
        "Heavy" in (combat.weapon_of(m, str(a.option)) or {"keywords": []})["keywords"] for m in members(state, uid)
    )
    if heavy and any(k in ("move", "shift", "charge") for k in state.vars["acts"]):
        out.append((f"{R}/shoot/heavy", "Heavy: no Shoot after moving this activation (digest §3.5)"))
    if not out and not combat.shooters(state, uid, t, str(a.option), False):
        out.append((f"{R}/shoot/range-los", f"no model of {uid} has range and line of sight to a model of {t}"))
    return out


def _c_fight(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if a.target not in eng:
        return [(f"{R}/fight/engaged", f"{uid} is not engaged (in base-to-base contact) with {a.target}")]
    return []


def _c_shift(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return []


def _c_overwatch(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if ustate(state, uid)["routed"]:
        return [(f"{R}/overwatch/routed", "a Routed unit cannot go on Overwatch (digest §3.7)")]
    return []


def _c_mission(state: GameState, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Mission-Based Actions (seed 002): the scenario's own requirements and limits."""
    return missions.reasons(state, uid, a)


CHECKS = {
    "move": _c_move,
    "shed": _c_shed,
    "prone": _c_prone,
    "stand": _c_stand,
    "charge": _c_charge,
    "shoot": _c_shoot,
    "fight": _c_fight,
    "shift": _c_shift,
    "overwatch": _c_overwatch,
    missions.KIND: _c_mission,
}


# ------------------------------------------------------------------------------------------- doing actions
def spend(state: GameState, uid: str, kind: str, n: int = 1) -> None:
    """Record an action: it uses ``n`` actions and counts for the Shoot penalty of later actions."""
    state.vars["acts"] = [*state.vars["acts"], kind]
    state.vars["left"] = int(state.vars["left"]) - n
    set_unit(state, uid, acts_round=ustate(state, uid)["acts_round"] + n)


def do_action(state: GameState, uid: str, a: Action, events: list[Event]) -> None:
    events.append(ActionTaken(uid, str(a), state.ctx.units[uid]["side"]))
    k = a.kind
    if k == "end":
        state.vars["end_now"] = True
        return
    if k == "move":
        spend(state, uid, "move")
        push(state, {"t": "dest", "unit": uid, "mode": "move", "allow": move_allow(state, uid)})
    elif k == "shift":
        spend(state, uid, "shift")
        push_shift(state, uid)
    elif k == "shed":
        spend(state, uid, "shed")
        shed(state, uid, events)
    elif k == "prone":
        spend(state, uid, "prone")
        set_unit(state, uid, prone=True)
        events.append(StatusChanged(uid, "prone", True))
    elif k == "stand":
        spend(state, uid, "stand")
        set_unit(state, uid, prone=False)
        events.append(StatusChanged(uid, "prone", False))
    elif k == "overwatch":
        spend(state, uid, "overwatch")
        set_unit(state, uid, overwatch=True)
        events.append(StatusChanged(uid, "on Overwatch", True))
        state.vars["end_now"] = True
    elif k == "shoot":
        begin_shoot(state, uid, str(a.target), str(a.option), events)
    elif k == "charge":
        begin_charge(state, uid, str(a.target), str(a.option), events)
    elif k == "fight":
        spend(state, uid, "fight")
        push(state, {"t": "fight-go", "att": uid, "def": str(a.target), "priority": False, "bonus": 0})
    elif k == missions.KIND:
        spend(state, uid, f"{missions.KIND}:{a.option}", int(state.ctx.missions[str(a.option)]["cost"]))
        missions.perform(state, uid, a, events)


def shed(state: GameState, uid: str, events: list[Event]) -> None:
    """Shed a Pin (seed 002); a prone unit then decides to remain prone or stand up (Go Prone)."""
    u = ustate(state, uid)
    n = min(u["pins"], int(state.ctx.params["pins_shed_per_action"]))
    set_unit(state, uid, pins=u["pins"] - n)
    events.append(TokensChanged(uid, "pin", -n, u["pins"] - n))
    if u["prone"]:
        push(state, {"t": "shed", "unit": uid, "by": state.ctx.units[uid]["side"]})


def push_shift(state: GameState, uid: str, free: bool = False) -> None:
    push(
        state,
        {
            "t": "dest",
            "unit": uid,
            "mode": "shift",
            "allow": float(state.ctx.params["shift_distance"]),
            "free": free,
            "by": state.ctx.units[uid]["side"],
        },
    )


# ------------------------------------------------------------------------------------------- reactions
def can_react(state: GameState, uid: str) -> bool:
    """Reaction eligibility (seed 002): not Pinned, not Routed, not activated or holding an Overwatch token;
    digest §3.8: not engaged, one reaction per round (an Overwatch token gives one more)."""
    u = ustate(state, uid)
    if not members(state, uid) or u["pins"] > 0 or u["routed"] or engaged_units(state, uid):
        return False
    if u["activated"] and not u["overwatch"]:
        return False
    if uid == active(state):
        return False
    limit = int(state.ctx.params["reactions_per_round"]) + (1 if u["overwatch"] else 0)
    return int(u["reactions"]) < limit


def react_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    uid = step["unit"]
    out: list[Action] = []
    if step["trigger"] == "charge":
        for w in combat.unit_weapons(state, uid):
            if combat.shooters(state, uid, step["attacker"], w, True):
                out.append(Action("react", uid, step["attacker"], option=f"shoot:{w}"))
        out.extend(Action("react", uid, step["attacker"], option=r) for r in state.ctx.units[uid]["reactions"])
    elif not ustate(state, uid)["prone"] and not is_vehicle(state, uid):
        out.append(Action("react", uid, step["attacker"], option="prone"))
    return [*out, Action("pass", uid)]


def offer_reaction(state: GameState, tuid: str, attacker: str, trigger: str) -> None:
    if can_react(state, tuid):
        step = {
            "t": "react",
            "unit": tuid,
            "attacker": attacker,
            "trigger": trigger,
            "by": state.ctx.units[tuid]["side"],
        }
        if len(react_options(state, step)) > 1:
            push(state, step)


def do_reaction(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    """The reaction's consequences (seed 002): a unit not yet activated flips its card (it is now activated);
    a unit on Overwatch loses the token unless its reaction made the charge fail."""
    uid = step["unit"]
    if a.kind == "pass":
        events.append(Note(f"{uid} does not react", f"{R}/reaction/pass"))
        return
    u = ustate(state, uid)
    events.append(ActionTaken(uid, str(a), state.ctx.units[uid]["side"]))
    set_unit(state, uid, reactions=u["reactions"] + 1)
    if u["overwatch"]:
        state.vars["ow_reactor"] = uid
        if step["trigger"] != "charge":
            set_unit(state, uid, overwatch=False)
    elif not u["activated"]:
        deck = list(state.vars["deck"])
        if uid in deck:
            deck.remove(uid)
            state.vars["deck"] = deck
        set_unit(state, uid, activated=True)
        events.append(Note(f"{uid}'s activation card is flipped: it is now activated", f"{R}/reaction/card"))
    opt = str(a.option)
    if opt == "prone":
        set_unit(state, uid, prone=True)
        events.append(StatusChanged(uid, "prone", True))
    elif opt == "brace":
        state.vars["brace"] = uid
        events.append(Note(f"{uid} braces: the charger loses Priority", f"{R}/reaction/special"))
    elif opt.startswith("shoot:"):
        shoot_now(state, uid, step["attacker"], opt[len("shoot:") :], True, events)


# ------------------------------------------------------------------------------------------- shooting
def begin_shoot(state: GameState, uid: str, tuid: str, wname: str, events: list[Event]) -> None:
    """Shoot (seed 002): the penalty counts the actions before it this turn; the target may react (Go Prone)
    before the attacks are made."""
    p = state.ctx.params
    prior = ustate(state, uid)["acts_round"] if p["prior_action_scope"] == "turn" else len(state.vars["acts"])
    first = not state.vars["acts"]
    spend(state, uid, "shoot")
    state.vars["shots"] = int(state.vars.get("shots", 0)) + 1
    push(state, {"t": "shoot-go", "unit": uid, "target": tuid, "weapon": wname, "prior": prior, "first": first})
    offer_reaction(state, tuid, uid, "shoot")


def auto_shoot_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    state.vars["prior"] = step["prior"]
    saved = state.vars["acts"]
    if step["first"]:
        state.vars["acts"] = []
    shoot_now(state, step["unit"], step["target"], step["weapon"], False, events)
    state.vars["acts"] = saved
    state.vars["prior"] = 0


def shoot_now(state: GameState, uid: str, tuid: str, wname: str, reaction: bool, events: list[Event]) -> None:
    if not members(state, uid) or not members(state, tuid):
        return
    if reaction:
        state.vars["prior"] = 0
    groups = combat.shoot_groups(state, uid, tuid, wname, reaction)
    cap = combat.visible_count(state, uid, tuid, reaction, combat.unit_fires_indirect(state, uid, wname))
    n = sum(g["models"] for g in groups)
    events.append(
        Note(f"{uid} shoots {tuid} with {wname}: {n} model(s) can shoot, at most {cap} casualties", f"{R}/shoot/who")
    )
    state.vars["shot"] = {"kills": 0, "hits": 0, "pen_hits": 0}
    push(state, {"t": "shoot-end", "unit": uid, "target": tuid, "weapon": wname})
    combat.push_attack(state, uid, tuid, groups, False, "shot", cap, uid)


def auto_shoot_end(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """Pins after a shooting attack (digest §3.7), then the casualty checks."""
    p = state.ctx.params
    shot = state.vars.get("shot") or {}
    tuid = step["target"]
    pins = 0
    hits = int(shot.get("hits", 0))
    if hits > 0 and not (is_vehicle(state, tuid) and p["vehicle_ignores_pen0_pins"] and not shot.get("pen_hits")):
        pins = int(p["pin_on_hit"]) + (int(p["pin_on_kill"]) if shot.get("kills") else 0)
        ms = members(state, step["unit"])
        w = combat.weapon_of(ms[0], step["weapon"]) if ms else None
        pins += int(w.get("suppressive", 0)) if w else 0
    state.vars["shot"] = None
    combat.add_pins(state, tuid, pins, events)
    combat.casualty_checks(state, tuid, events)


# ------------------------------------------------------------------------------------------- charging
def begin_charge(state: GameState, uid: str, tuid: str, mode: str, events: list[Event]) -> None:
    """Charge (seed 002): declared walking or running; the target may react; then the charge move."""
    p = state.ctx.params
    spend(state, uid, "charge", int(p["running_charge_actions"]) if mode == "running" else 1)
    state.vars["charged"] = True
    running = mode == "running" or ustate(state, tuid)["prone"]
    if mode != "running" and running:
        events.append(Note(f"{tuid} is prone: the charge counts as a Running Charge", f"{R}/prone/charged"))
    state.vars["brace"] = None
    state.vars["ow_reactor"] = None
    push(
        state,
        {"t": "charge-go", "unit": uid, "target": tuid, "allow": charge_distance(state, uid, mode), "running": running},
    )
    offer_reaction(state, tuid, uid, "charge")


def auto_charge_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    uid, tuid = step["unit"], step["target"]
    ok = bool(members(state, uid)) and bool(members(state, tuid)) and not ustate(state, uid)["routed"]
    contacts = 0
    if ok:
        placed, contacts = plan_charge(state, uid, tuid, float(step["allow"]))
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
            events.append(Note(f"{reactor} keeps its Overwatch token: the charge failed", f"{R}/reaction/overwatch"))
    if contacts == 0:
        events.append(Note(f"{uid}'s charge fails", f"{R}/charge/failed"))
        return
    events.append(
        Note(f"{uid} charges home: {contacts} model(s) in base contact; FREE Fight", f"{R}/charge/free-fight")
    )
    priority = bool(step["running"]) and state.vars.get("brace") != tuid
    bonus = int(state.ctx.params["running_charge_hit_bonus"]) if step["running"] else 0
    push(state, {"t": "fight-go", "att": uid, "def": tuid, "priority": priority, "bonus": bonus})


# ------------------------------------------------------------------------------------------- fighting
def auto_fight_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """The Fight Process (seed 002): a running charger with Priority resolves all its attacks first; otherwise
    both units fight simultaneously (every fighter's attacks are fixed before casualties are removed)."""
    att, dfn = step["att"], step["def"]
    state.vars["fight_a"] = {"kills": 0}
    state.vars["fight_d"] = {"kills": 0}
    push(state, {"t": "fight-end", "att": att, "def": dfn})
    a_groups = combat.melee_groups(state, att, dfn, int(step["bonus"]))
    if step["priority"]:
        push(state, {"t": "strike-back", "att": att, "def": dfn})
    else:
        combat.push_attack(state, dfn, att, combat.melee_groups(state, dfn, att, 0), True, "fight_d", None, None)
    combat.push_attack(state, att, dfn, a_groups, True, "fight_a", None, None)


def auto_strike_back(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    dfn, att = step["def"], step["att"]
    if members(state, dfn) and members(state, att):
        combat.push_attack(state, dfn, att, combat.melee_groups(state, dfn, att, 0), True, "fight_d", None, None)


def auto_fight_end(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """Resolving the Fight (seed 002): more casualties wins; the winner may Shift; the loser tests Leadership
    (fail: Routed and pinned). A draw: both may Shift, then both are pinned."""
    p = state.ctx.params
    att, dfn = step["att"], step["def"]
    ka = int(state.vars["fight_a"]["kills"])
    kd = int(state.vars["fight_d"]["kills"])
    events.append(Note(f"fight {att} vs {dfn}: casualties inflicted {ka} - {kd}", f"{R}/fight/result"))
    for u in (dfn, att):
        push(state, {"t": "checks", "unit": u})
    if ka == kd:
        push(state, {"t": "draw-pins", "units": [att, dfn]})
        for u in (dfn, att):
            if members(state, u):
                push_shift(state, u, free=True)
        return
    win, lose = (att, dfn) if ka > kd else (dfn, att)
    if members(state, lose):
        extra = min(int(p["fight_loss_mod_cap"]), int(p["fight_loss_mod_per_casualty"]) * abs(ka - kd))
        combat.push_leadership(state, lose, "lost the fight", extra, flee_from=win)
    if members(state, win):
        push_shift(state, win, free=True)


def auto_draw_pins(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    for u in step["units"]:
        events.append(Note(f"{u} is pinned after a drawn fight", f"{R}/fight/draw"))
        combat.add_pins(state, u, 1, events)


def auto_checks(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    combat.casualty_checks(state, step["unit"], events)


# ------------------------------------------------------------------------------------------- destinations
def dest_candidates(state: GameState, step: dict[str, Any]) -> list[Action]:
    """Candidate destinations for the leader: toward each enemy unit, each objective, each cover piece, away,
    and a ring of eight directions at full and half distance."""
    uid = step["unit"]
    lead = leader_of(state, uid) or members(state, uid)[0]
    allow = float(step["allow"])
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
    for q in pts:
        if q in seen:
            continue
        seen.add(q)
        a = Action("to", uid, point=q)
        if not dest_reasons(state, step, a):
            out.append(a)
    return [*out, Action("stay", uid)]


def dest_reasons(state: GameState, step: dict[str, Any], a: Action) -> list[Reason]:
    uid = step["unit"]
    if a.model != uid or a.kind not in ("to", "stay") or (a.kind == "to" and a.point is None):
        return [(f"{R}/move/destination", f"give a destination: 'to {uid} @x,y' or 'stay {uid}'")]
    if a.kind == "stay":
        return []
    plan = dest_plan(state, step, a)
    return plan if isinstance(plan, list) else []


def dest_plan(state: GameState, step: dict[str, Any], a: Action) -> Placement | list[Reason]:
    uid = step["unit"]
    assert a.point is not None
    allow = float(step["allow"])
    out: list[Reason] = []
    if is_vehicle(state, uid):
        m = members(state, uid)[0]
        face = _face(a.option)
        out.extend(vehicle_problems(state, m, a.point, allow, face))
    plan = plan_unit_move(state, uid, a.point, allow)
    if isinstance(plan, list):
        return out + plan
    if step["mode"] == "shift":
        side = state.ctx.units[uid]["side"]
        tol = float(state.ctx.params["contact_tolerance"])
        before = set(engaged_units(state, uid))
        for mid, (x, y, _) in plan.items():
            m = state.models[mid]
            for e in state.models.values():
                if (
                    e.on_table
                    and e.side != side
                    and e.unit not in before
                    and math.hypot(x - e.x, y - e.y) - m.radius - e.radius <= tol
                ):
                    out.append((f"{R}/shift/no-fight", "a Shift may never be used to initiate another Fight"))
                    break
    return out or plan


def _face(option: str | None) -> float | None:
    if option and option.startswith("face="):
        return float(option[5:])
    return None


def do_destination(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    uid = step["unit"]
    if a.kind == "stay":
        events.append(Note(f"{uid} stays where it is", ""))
        return
    plan = dest_plan(state, step, a)
    assert isinstance(plan, dict)
    if is_vehicle(state, uid):
        m = members(state, uid)[0]
        assert a.point is not None
        m.flags = {**m.flags, "facing": vehicle_facing_after(m, a.point, _face(a.option))}
    place_unit(state, plan, events)


# ------------------------------------------------------------------------------------------- the interpreter
AUTO = {
    "attack": combat.auto_attack,
    "damage": combat.auto_damage,
    "shoot-go": auto_shoot_go,
    "shoot-end": auto_shoot_end,
    "charge-go": auto_charge_go,
    "fight-go": auto_fight_go,
    "strike-back": auto_strike_back,
    "fight-end": auto_fight_end,
    "draw-pins": auto_draw_pins,
    "checks": auto_checks,
    "flee": auto_flee,
}
CHANCE_STEPS = ("rolloff", "draw", "hits", "saves", "msave", "ld", "rally", "pintest")


def run_auto(state: GameState, events: list[Event]) -> None:
    """Run automatic steps and phase changes until a side or chance must decide, or the game is over."""
    for _ in range(100_000):
        if over(state):
            state.stack = []
            return
        step = top(state)
        if step is None:
            uid = active(state)
            if state.phase != "activation" or uid is None:
                return
            if state.vars.get("end_now") or int(state.vars["left"]) <= 0 or not members(state, uid):
                end_activation(state, events)
                continue
            return
        handler = AUTO.get(step["t"])
        if handler is None:
            return
        pop(state)
        handler(state, step, events)
    raise RuntimeError("automatic steps did not settle")  # pragma: no cover - a rules bug


def spec(state: GameState, step: dict[str, Any]) -> DiceSpec:
    t = step["t"]
    sides = int(state.ctx.params["die_sides"])
    if t == "rolloff":
        return DiceSpec(2, sides, "set-up roll-off")
    if t == "draw":
        return DiceSpec(1, len(state.vars["deck"]), "activation card")
    if t == "hits":
        return DiceSpec(int(step["g"]["n"]), sides, f"hit rolls {step['unit']}", step["unit"])
    if t == "saves":
        return DiceSpec(int(step["hits"]) * int(step["g"]["damage"]), sides, f"saves {step['target']}", step["target"])
    if t == "msave":
        return DiceSpec(int(step["n"]), sides, f"saves {step['model']}", step["target"])
    return DiceSpec(1, sides, f"{t} {step['unit']}", step["unit"])


def decision(state: GameState) -> Decision:
    if over(state):
        return Decision(OVER, "over")
    step = top(state)
    if step is not None:
        if step["t"] in CHANCE_STEPS:
            return Decision(CHANCE, step["t"], dice=spec(state, step))
        by = step.get("by")
        if by is None:
            by = state.ctx.units[step["unit"]]["side"]
        return Decision(CHOICE, step["t"], player=int(by), model=step.get("unit"))
    if state.phase == "deploy":
        return Decision(CHOICE, "deploy", player=int(state.vars["deployer"]))
    uid = active(state)
    assert uid is not None
    return Decision(CHOICE, "action", player=state.ctx.units[uid]["side"], model=uid)


def _opt_zone(state: GameState, step: dict[str, Any]) -> list[Action]:
    return [Action("zone", option=str(z)) for z in (0, 1)]


def _opt_shed(state: GameState, step: dict[str, Any]) -> list[Action]:
    return [Action("stay-prone", step["unit"]), Action("stand", step["unit"])]


STEP_OPTIONS = {
    "zone": _opt_zone,
    "dest": dest_candidates,
    "react": react_options,
    "order": combat.order_options,
    "wound": combat.damage_options,
    "leader": combat.leader_options,
    "shed": _opt_shed,
    "pick": pick_options,
}


def legal_actions(state: GameState) -> list[Action]:
    step = top(state)
    if step is not None:
        return STEP_OPTIONS[step["t"]](state, step)
    if state.phase == "deploy":
        side = int(state.vars["deployer"])
        return [Action("deploy", u, point=q) for u in undeployed(state, side) for q in deploy_points(state, u)]
    uid = active(state)
    assert uid is not None
    return menu(state, uid)


def all_actions(state: GameState) -> list[Action]:
    uid = active(state)
    if top(state) is None and state.phase == "activation" and uid is not None:
        return menu(state, uid, only_legal=False)
    return legal_actions(state)


def why_illegal(state: GameState, a: Action) -> list[Reason]:
    step = top(state)
    if step is not None:
        if step["t"] == "dest":
            return dest_reasons(state, step, a)
        opts = STEP_OPTIONS[step["t"]](state, step)
        if a in opts:
            return []
        return [(f"{R}/decision/{step['t']}", "expected one of: " + ", ".join(str(x) for x in opts))]
    if state.phase == "deploy":
        side = int(state.vars["deployer"])
        if a.kind != "deploy" or a.model not in undeployed(state, side) or a.point is None:
            return [(f"{R}/setup/deploy", f"side {side_name(side)} deploys one of its units: 'deploy UNIT @x,y'")]
        plan = deploy_plan(state, a.model, a.point)
        return plan if isinstance(plan, list) else []
    uid = active(state)
    assert uid is not None
    if a.model != uid:
        return [(f"{R}/activation/active-unit", f"{uid} is the active unit (its card was drawn); {a.model} must wait")]
    return action_reasons(state, uid, a)


def apply(state: GameState, a: Action) -> list[Event]:
    events: list[Event] = []
    step = top(state)
    if step is not None:
        pop(state)
        apply_step(state, step, a, events)
    elif state.phase == "deploy":
        assert a.model is not None and a.point is not None
        deploy(state, a.model, a.point, events)
    else:
        uid = active(state)
        assert uid is not None
        do_action(state, uid, a, events)
    run_auto(state, events)
    return events


def apply_step(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    t = step["t"]
    if t == "zone":
        zone_chosen(state, step, int(a.option or 0), events)
    elif t == "dest":
        do_destination(state, step, a, events)
    elif t == "react":
        do_reaction(state, step, a, events)
    elif t == "order":
        combat.choose_order(state, step, a)
    elif t == "wound":
        combat.take_attack(state, step, str(a.model), events)
    elif t == "leader":
        set_unit(state, step["unit"], leader=str(a.model))
        events.append(Note(f"{a.model} is now {step['unit']}'s coherency leader", f"{R}/coherency/new-leader"))
    elif t == "shed":
        prone = a.kind == "stay-prone"
        set_unit(state, step["unit"], prone=prone)
        events.append(StatusChanged(step["unit"], "prone", prone))
    elif t == "pick":
        deck = list(state.vars["deck"])
        deck.remove(str(a.model))
        state.vars["deck"] = deck
        begin_activation(state, str(a.model), events)


def roll(state: GameState, values: tuple[int, ...]) -> list[Event]:
    events: list[Event] = []
    step = pop(state)
    t = step["t"]
    if t == "rolloff":
        resolve_rolloff(state, values, events)
    elif t == "draw":
        card_drawn(state, values[0] - 1, events)
    elif t == "hits":
        combat.resolve_hits(state, step, values, events)
    elif t == "saves":
        combat.resolve_saves(state, step, values, events)
    elif t == "msave":
        combat.resolve_model_save(state, step, values, events)
    elif t == "ld":
        combat.resolve_leadership(state, step, values, events)
    elif t == "rally":
        resolve_rally(state, step, values, events)
    elif t == "pintest":
        resolve_pintest(state, step, values, events)
    run_auto(state, events)
    return events


def result_score(state: GameState) -> tuple[int, int]:
    vp = state.vars.get("vp", [0, 0])
    return (int(vp[0]), int(vp[1]))


def model_fate(m: Model) -> dict[str, Any]:
    return {"side": m.side, "unit": m.unit, "name": m.name, "out": not m.on_table, "damage": m.token("damage")}
