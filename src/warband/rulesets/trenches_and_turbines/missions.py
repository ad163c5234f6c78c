"""Mission-Based Actions (seed 002, Actions: "Mission-Based Actions" and the Shoot eligibility rule).

The seed says scenarios list their special actions, each explaining its own guidelines and restrictions, and a
unit may not Shoot after a Mission-Based Action of the same activation that prohibits it. A scenario declares
its actions as data (the vocabulary is :mod:`warband.kernel.mission`); this module gives the words their
meaning here:

* the notation is ``mission UNIT [id]``, or ``mission UNIT OBJECTIVE [id]`` for an action performed on an
  objective (one with a ``near-objective`` requirement);
* a mission action obeys its own requirements plus the activation's universal rules (the unit has the actions
  it costs; a pinned unit sheds its pin first, seed 002 "Shed a Pin"). Being engaged forbids it only if the
  scenario says so (``no-enemy-within`` or ``unit-is-not: [engaged]``): the scenario is the authority;
* models out of coherency take no part (seed 002, Unit Coherency: they may only Move);
* it uses ``cost`` actions, which count for the cumulative Shoot penalty like any other action; a FREE one
  (cost 0) is performed all the same and counts as one (seed 002, Shooting Notes: "EACH action performed prior
  to the shoot action"; ``activation.spend``), like the FREE Fight of a charge;
* its effects apply in order, and the actions it ``forbids`` are refused for the rest of the activation with
  the rule ``trenches-and-turbines/<kind>/after-mission`` naming it.

Unit statuses a requirement may name: pinned, routed, prone, engaged, leaderless, overwatch.

State (JSON-native, replaced and never mutated in place):

* ``vars["marks"]``: objective id -> ``{"at": [x, y] or None (off the table), "owner": claiming side or None}``;
* ``vars["mission_uses"]``: one record per mission action performed (``id``, ``unit``, ``side``, ``turn``,
  ``act`` (the activation's serial number), ``objective``), from which the limits are counted;
* ``vars["forbidden"]``: action kind or mission id -> the name of the mission action forbidding it (reset when
  an activation starts); ``vars["activation"]``: the serial number of the current activation.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.geometry.distance import Vec
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency
from warband.rulesets.trenches_and_turbines.context import Context, Objective, State
from warband.rulesets.trenches_and_turbines.core import R, side_name, ustate
from warband.rulesets.trenches_and_turbines.units import engaged_units, leader_of, members, unit_gap

KIND = "mission"
STATUSES = ("pinned", "routed", "prone", "engaged", "leaderless", "overwatch")
_EPS = 1e-9


# ------------------------------------------------------------------------------------------- objective markers
def initial_marks(ctx: Context) -> dict[str, dict[str, Any]]:
    """Every objective marker where the scenario puts it (``on_table: false``: off the table), unclaimed."""
    out: dict[str, dict[str, Any]] = {}
    for o in ctx.scenario.get("objectives", []):
        at = [float(o["at"][0]), float(o["at"][1])] if o.get("on_table", True) else None
        out[str(o["id"])] = {"at": at, "owner": None}
    return out


def marks(state: State) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] | None = state.vars.get("marks")
    return found if found is not None else initial_marks(state.ctx)


def set_mark(state: State, oid: str, **changes: Any) -> None:
    m = marks(state)
    state.vars["marks"] = {**m, oid: {**m[oid], **changes}}


def live_objectives(state: State) -> list[tuple[Objective, Vec, int | None]]:
    """The objectives on the table now: (objective, where its marker is, the side that claimed it or None)."""
    m = marks(state)
    out: list[tuple[Objective, Vec, int | None]] = []
    for o in state.ctx.objectives:
        mark = m.get(o.id)
        if mark is None:
            out.append((o, o.at, None))
        elif mark["at"] is not None:
            owner = mark["owner"]
            out.append((o, (float(mark["at"][0]), float(mark["at"][1])), None if owner is None else int(owner)))
    return out


# ------------------------------------------------------------------------------------------- the menu
def _near(spec: dict[str, Any]) -> dict[str, Any] | None:
    return next((r for r in spec["requires"] if r["kind"] == "near-objective"), None)


def target_ids(state: State, spec: dict[str, Any]) -> list[str]:
    """The objectives (on the table) the action may be performed on; empty if it takes no objective."""
    near = _near(spec)
    if near is None:
        return []
    allowed = near["objectives"] or [o.id for o in state.ctx.objectives]
    m = marks(state)
    return [oid for oid in allowed if oid in m and m[oid]["at"] is not None]


def candidates(state: State, uid: str) -> list[Action]:
    out: list[Action] = []
    for mid, spec in state.ctx.missions.items():
        if _near(spec) is None:
            out.append(Action(KIND, uid, option=mid))
        else:
            out.extend(Action(KIND, uid, oid, option=mid) for oid in target_ids(state, spec))
    return out


def describe(state: State, a: Action) -> str:
    """``Name: guideline`` of a mission action (what the CLI shows beside it)."""
    spec = state.ctx.missions.get(a.option or "") if a.kind == KIND else None
    if spec is None:
        return ""
    return f"{spec['name']}: {' '.join(str(spec['text']).split())}"


# ------------------------------------------------------------------------------------------- requirements
def has_status(state: State, uid: str, status: str) -> bool:
    u = ustate(state, uid)
    if status == "pinned":
        return int(u["pins"]) > 0
    if status == "engaged":
        return bool(engaged_units(state, uid))
    return bool(u.get(status))


def _acting(state: State, uid: str) -> list[Any]:
    stray = set(out_of_coherency(state, uid))
    return [m for m in members(state, uid) if m.id not in stray]


def _r_near(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    at = marks(state)[str(target)]["at"]
    within = float(req["within"])
    if any(math.hypot(m.x - at[0], m.y - at[1]) - m.radius <= within + _EPS for m in _acting(state, uid)):
        return None
    return f'no model of {uid} (in coherency) is within {within:g}" of objective {target}'


def _r_no_enemy(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    side = state.ctx.units[uid]["side"]
    within = float(req["within"])
    close = [
        e
        for e in state.ctx.unit_order
        if state.ctx.units[e]["side"] != side and members(state, e) and unit_gap(state, uid, e) <= within + _EPS
    ]
    return f'{uid} is within {within:g}" of enemy unit(s) {", ".join(close)}' if close else None


def _r_is(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    missing = [s for s in req["statuses"] if not has_status(state, uid, s)]
    return f"{uid} is not {' or '.join(missing)}" if missing else None


def _r_is_not(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    present = [s for s in req["statuses"] if has_status(state, uid, s)]
    return f"{uid} is {' and '.join(present)}" if present else None


def done_this_activation(state: State, name: str) -> bool:
    """Whether the active unit performed ``name`` (an action kind, ``mission``, or a mission id) this activation."""
    acts = [str(k) for k in state.vars.get("acts", [])]
    if name == KIND:
        return any(k.startswith(f"{KIND}:") for k in acts)
    return name in acts or f"{KIND}:{name}" in acts


def _r_not_done(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    done = [k for k in req["actions"] if done_this_activation(state, k)]
    return f"{uid} has already performed {', '.join(done)} this activation" if done else None


def _r_in_zone(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    side = state.ctx.units[uid]["side"]
    zone_side = side if req["zone"] == "own" else 1 - side
    zone = state.ctx.zones[int(state.vars["zone_of"][zone_side])]
    inside = [zone.contains((m.x, m.y)) for m in _acting(state, uid)]
    ok = all(inside) if req["models"] == "all" else any(inside)
    if ok and inside:
        return None
    who = "every model" if req["models"] == "all" else "a model"
    return f"{who} of {uid} must stand in the {req['zone']} deployment zone"


def _r_turn(state: State, uid: str, req: dict[str, Any], target: str | None) -> str | None:
    first, last = int(req["first"]), req["last"]
    if state.turn >= first and (last is None or state.turn <= int(last)):
        return None
    span = f"turns {first} to {last}" if last is not None else f"turn {first} on"
    return f"allowed in {span}; this is turn {state.turn}"


Check = Callable[[State, str, dict[str, Any], str | None], str | None]
REQUIRES: dict[str, Check] = {
    "near-objective": _r_near,
    "no-enemy-within": _r_no_enemy,
    "unit-is": _r_is,
    "unit-is-not": _r_is_not,
    "not-done": _r_not_done,
    "in-zone": _r_in_zone,
    "turn": _r_turn,
}


def uses(state: State, spec: dict[str, Any], limit: dict[str, Any], uid: str, target: str | None) -> int:
    """How often the action was performed within the limit's period and scope (and objective)."""
    side = state.ctx.units[uid]["side"]
    n = 0
    for r in state.vars.get("mission_uses", []):
        if r["id"] != spec["id"]:
            continue
        if (limit["scope"] == "unit" and r["unit"] != uid) or (limit["scope"] == "side" and r["side"] != side):
            continue
        if limit["per"] == "turn" and r["turn"] != state.turn:
            continue
        if limit["per"] == "activation" and r["act"] != state.vars.get("activation", 0):
            continue
        if limit["each_objective"] and r["objective"] != target:
            continue
        n += 1
    return n


def _limit_text(limit: dict[str, Any], n: int, target: str | None) -> str:
    who = "this unit" if limit["scope"] == "unit" else "this side"
    on = f" on objective {target}" if limit["each_objective"] else ""
    return f"performed {n} time(s) this {limit['per']} by {who}{on}: at most {limit['times']}"


def reasons(state: State, uid: str, a: Action) -> list[Reason]:
    """Every reason the active unit may not perform the mission action ``a`` now, requirement by requirement."""
    spec = state.ctx.missions.get(a.option or "")
    if spec is None:
        known = ", ".join(state.ctx.missions) or "none"
        return [(f"{R}/mission/unknown", f"this scenario has no mission action {a.option!r} (it has: {known})")]
    name, mid = spec["name"], spec["id"]
    targets = target_ids(state, spec)
    if a.point is not None:
        return [(f"{R}/mission/syntax", f"{name} takes no point")]
    if _near(spec) is None and a.target is not None:
        return [(f"{R}/mission/target", f"{name} is not performed on an objective: 'mission {uid} [{mid}]'")]
    if _near(spec) is not None and a.target not in targets:
        where = ", ".join(targets) or "none on the table"
        return [(f"{R}/mission/target", f"{name} is performed on an objective ({where}): 'mission {uid} OBJ [{mid}]'")]
    out: list[Reason] = []
    left = int(state.vars["left"])
    if int(spec["cost"]) > left:
        out.append((f"{R}/mission/cost", f"{name} costs {spec['cost']} action(s); {uid} has {left} left"))
    for req in spec["requires"]:
        why = REQUIRES[req["kind"]](state, uid, req, a.target)
        if why is not None:
            out.append((f"{R}/mission/{req['kind']}", f"{name}: {why}"))
    for limit in spec["limits"]:
        n = uses(state, spec, limit, uid, a.target)
        if n >= int(limit["times"]):
            out.append((f"{R}/mission/limit", f"{name}: {_limit_text(limit, n, a.target)}"))
    return out


def forbidden(state: State, a: Action) -> list[Reason]:
    """Seed 002, Shoot: no Shoot after a Mission-Based Action that prohibits it this activation; likewise every
    action a mission action ``forbids`` for the rest of the activation."""
    forb: dict[str, str] = state.vars.get("forbidden") or {}
    for key in (a.kind, a.option if a.kind == KIND else None):
        if key is not None and key in forb:
            what = "mission actions" if key == KIND else (repr(key) if a.kind == KIND else key.capitalize())
            return [(f"{R}/{a.kind}/after-mission", f"{forb[key]} forbids {what} for the rest of this activation")]
    return []


# ------------------------------------------------------------------------------------------- doing it
def perform(state: State, uid: str, a: Action, events: list[Event]) -> None:
    """Record the use, apply the effects in order, then forbid what the action forbids (the caller has spent
    its cost)."""
    spec = state.ctx.missions[str(a.option)]
    side = state.ctx.units[uid]["side"]
    record = {
        "id": spec["id"],
        "unit": uid,
        "side": side,
        "turn": state.turn,
        "act": state.vars.get("activation", 0),
        "objective": a.target,
    }
    state.vars["mission_uses"] = [*state.vars.get("mission_uses", []), record]
    on = f" on {a.target}" if a.target else ""
    events.append(Note(f"{uid} performs {spec['name']}{on}", f"{R}/mission/perform"))
    for effect in spec["effects"]:
        EFFECTS[effect["kind"]](state, uid, spec, effect, a.target, events)
    if spec["forbids"]:
        forb = dict(state.vars.get("forbidden") or {})
        for key in spec["forbids"]:
            forb.setdefault(str(key), str(spec["name"]))
        state.vars["forbidden"] = forb
        events.append(
            Note(
                f"{spec['name']}: {uid} may not {', '.join(spec['forbids'])} for the rest of this activation",
                f"{R}/mission/forbids",
            )
        )


def _e_score(
    state: State, uid: str, spec: dict[str, Any], eff: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    side = state.ctx.units[uid]["side"]
    vp = list(state.vars["vp"])
    vp[side] += int(eff["vp"])
    state.vars["vp"] = vp
    text = f"{spec['name']}: side {side_name(side)} scores {eff['vp']} VP (A {vp[0]} - B {vp[1]})"
    events.append(Note(text, f"{R}/mission/score"))


def _objective(eff: dict[str, Any], target: str | None) -> str:
    return str(eff.get("objective") or target)


def _e_claim(
    state: State, uid: str, spec: dict[str, Any], eff: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    oid = _objective(eff, target)
    side = state.ctx.units[uid]["side"]
    if marks(state)[oid]["at"] is None:
        events.append(Note(f"{spec['name']}: objective {oid} is not on the table", f"{R}/mission/claim"))
        return
    set_mark(state, oid, owner=side)
    events.append(Note(f"{spec['name']}: side {side_name(side)} claims objective {oid}", f"{R}/mission/claim"))


def _e_remove(
    state: State, uid: str, spec: dict[str, Any], eff: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    oid = _objective(eff, target)
    set_mark(state, oid, at=None, owner=None)
    events.append(Note(f"{spec['name']}: objective {oid} is removed from the table", f"{R}/mission/remove-objective"))


def _e_place(
    state: State, uid: str, spec: dict[str, Any], eff: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    oid = _objective(eff, target)
    lead = leader_of(state, uid) or members(state, uid)[0]
    set_mark(state, oid, at=[lead.x, lead.y])
    events.append(
        Note(
            f"{spec['name']}: objective {oid} is placed at ({lead.x:.1f},{lead.y:.1f})", f"{R}/mission/place-objective"
        )
    )


def _e_end(
    state: State, uid: str, spec: dict[str, Any], eff: dict[str, Any], target: str | None, events: list[Event]
) -> None:
    state.vars["end_now"] = True
    events.append(Note(f"{spec['name']}: {uid}'s activation ends", f"{R}/mission/end-activation"))


EffectFn = Callable[[State, str, dict[str, Any], dict[str, Any], str | None, list[Event]], None]
EFFECTS: dict[str, EffectFn] = {
    "score": _e_score,
    "claim": _e_claim,
    "remove-objective": _e_remove,
    "place-objective": _e_place,
    "end-activation": _e_end,
}
