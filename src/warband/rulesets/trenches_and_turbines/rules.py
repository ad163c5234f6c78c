"""Trenches and Turbines: the round, the activation deck and every action of seed 002 (the Actions chapter).

Pending steps are typed records on ``state.stack`` (:mod:`warband.kernel.steps`), each kind declared once with
its behaviour: a choice (a side decides; for reactions the NON-active side), chance (d10s, card draws) or
automatic. The attack steps live in :mod:`combat`; the round's own steps here, and :class:`TTRules` is the
kernel's step machine with this game's hooks: the set-up, the standing decisions (deploy a unit, the active
unit's action menu) and the advance of the activation deck. Rule ids are ``trenches-and-turbines/<area>/<rule>``;
``docs/rules/trenches-and-turbines.md`` maps every seed sentence to them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from warband.kernel import battlefield, setup, steps
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    GameEnded,
    Note,
    PhaseStarted,
    StatusChanged,
    TokensChanged,
)
from warband.kernel.geometry import TerrainPiece, Vec
from warband.kernel.state import Model
from warband.kernel.steps import Choice, SteppedRules, push
from warband.rulesets.trenches_and_turbines import combat, missions
from warband.rulesets.trenches_and_turbines.combat import Checks, Flee, d10s
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import (
    R,
    TTAuto,
    TTChance,
    TTChoice,
    set_unit,
    side_name,
    side_of,
    succeeds,
    ustate,
)
from warband.rulesets.trenches_and_turbines.space import (
    Placement,
    engaged_units,
    follower_slots,
    frozen_models,
    is_vehicle,
    leader_of,
    members,
    move_allow,
    place_unit,
    plan_charge,
    plan_unit_move,
    spot_problem,
    unit_gap,
    vehicle_facing_after,
    vehicle_problems,
    vehicle_via_plan,
)


# ------------------------------------------------------------------------------------------- helpers
def units_of(state: State, side: int) -> list[str]:
    return [u for u in state.ctx.unit_order if state.ctx.units[u]["side"] == side and members(state, u)]


def active(state: State) -> str | None:
    a = state.vars.get("active")
    return str(a) if a else None


# ------------------------------------------------------------------------------------------- setup
def start_game(state: State, events: list[Event]) -> None:
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
    push(state, Rolloff())


@dataclass(frozen=True, slots=True)
class Rolloff(setup.RollOff[State]):
    """The set-up roll-off (digest §3.2): a d10 each, the higher picks a deployment zone; a tie rolls again."""

    rules = R
    why: str = "set-up"

    def sides(self, state: State) -> int:
        return int(state.ctx.params["die_sides"])

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        push(state, Zone(winner))


@dataclass(frozen=True, slots=True)
class Zone(setup.ChooseZone[State]):
    """The winner of the roll-off (``by``) takes a deployment zone and deploys first."""

    rules = R
    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        state.vars["deployer"] = self.by
        note = f"side {side_name(self.by)} takes deployment zone {zone} and deploys first"
        events.append(Note(note, f"{R}/setup/edge"))


def undeployed(state: State, side: int) -> list[str]:
    return [
        u
        for u in state.ctx.unit_order
        if state.ctx.units[u]["side"] == side
        and not state.models[state.ctx.units[u]["models"][0]].on_table
        and not state.models[state.ctx.units[u]["models"][0]].flags.get("dead")
    ]


def _wholly_inside(state: State, zone: TerrainPiece, p: Vec, radius: float) -> bool:
    """The kernel's ``setup.wholly_inside``, remembered per game: a zone never moves and deployment asks it of the
    same grid spots again and again."""
    k = ("inside", id(zone), p, radius)  # the zones live as long as the context that holds this memo
    memo = state.ctx.memo
    hit: bool | None = memo.get(k)
    if hit is None:
        hit = memo[k] = setup.wholly_inside(zone, p, radius)
    return hit


def deploy_plan(state: State, uid: str, p: Vec) -> Placement | list[Reason]:
    """The unit in formation round its leader at ``p``, every base wholly inside its zone."""
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    ids = state.ctx.units[uid]["models"]
    placed: Placement = {}
    lead = state.models[ids[0]]
    slots = [p, *follower_slots(p, lead.radius, lead.radius, float(state.ctx.params["deploy_spacing"]))]
    for mid in ids:
        m = state.models[mid]
        for s in slots:
            if _wholly_inside(state, zone, s, m.radius) and spot_problem(state, m, s, placed, ids, 0.0) is None:
                placed[mid] = (s[0], s[1], state.ctx.table.surface_height(s))
                break
        else:
            return [(f"{R}/setup/zone", f"{uid} does not fit in its deployment zone at {p[0]:g},{p[1]:g}")]
    return placed


@dataclass(frozen=True, slots=True)
class Deploy(setup.Deploy[State]):
    """The standing decision of the set-up: side ``by`` deploys one of its units round its leader,
    then the sides alternate (digest §3.2). Pending with ``piece`` set, it asks where that unit goes."""

    rules = R
    noun = "unit"
    by: int
    piece: str = ""

    def pieces(self, state: State, side: int) -> list[str]:
        return undeployed(state, side)

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[piece]["side"]]]
        coarse = setup.zone_grid(zone, 8, 2)
        with frozen_models(state):  # only checks follow: nothing moves
            return setup.deploy_spots(coarse, zone, lambda q: isinstance(deploy_plan(state, piece, q), dict), first)

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        plan = deploy_plan(state, piece, at)
        return plan if isinstance(plan, list) else []

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        plan = deploy_plan(state, piece, at)
        assert isinstance(plan, dict)
        cy = state.ctx.table.depth / 2
        for mid in plan:
            m = state.models[mid]
            m.on_table = True
            if is_vehicle(state, piece):
                m.flags = {**m.flags, "facing": 90.0 if plan[mid][1] < cy else 270.0}
        place_unit(state, plan, events)

    def all_deployed(self, state: State, events: list[Event]) -> None:
        start_round(state, events)


# ------------------------------------------------------------------------------------------- rounds
def start_round(state: State, events: list[Event]) -> None:
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


def next_card(state: State, events: list[Event]) -> None:
    deck = [u for u in state.vars["deck"] if members(state, u)]
    state.vars["deck"] = deck
    if deck:
        push(state, Draw())
    else:
        end_round(state, events)


@dataclass(frozen=True, slots=True)
class Draw(TTChance):
    """Draw an activation card from the deck (one die with as many faces as cards)."""

    kind = "draw"

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, len(state.vars["deck"]), "activation card")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        card_drawn(state, values[0] - 1, events)


def card_drawn(state: State, index: int, events: list[Event]) -> None:
    deck = list(state.vars["deck"])
    uid = deck[index]
    if state.ctx.params["deck"] == "player":
        side = side_of(state, uid)
        events.append(DiceRolled("activation card", (index + 1,), f"a card of side {side_name(side)}"))
        push(state, Pick(side))
        return
    deck.pop(index)
    state.vars["deck"] = deck
    events.append(DiceRolled("activation card", (index + 1,), f"{uid} activates"))
    begin_activation(state, uid, events)


@dataclass(frozen=True, slots=True)
class Pick(TTChoice):
    """A card of side ``by`` was drawn (param ``deck = "player"``): that side picks which of its units activates."""

    kind = "pick"
    by: int

    def options(self, state: State) -> list[Action]:
        seen = []
        for u in state.vars["deck"]:
            if state.ctx.units[u]["side"] == self.by and u not in seen:
                seen.append(u)
        return [Action("activate", u) for u in sorted(seen)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        deck = list(state.vars["deck"])
        deck.remove(str(action.model))
        state.vars["deck"] = deck
        begin_activation(state, str(action.model), events)


def activation_actions(state: State, uid: str) -> int:
    """Actions of one activation (seed 002, List of Actions): two normally (param ``actions_per_activation``), or
    the unit profile's ``actions`` (the 'rare situations in which a unit may perform three')."""
    own = state.ctx.units[uid].get("actions")
    return int(own) if own is not None else int(state.ctx.params["actions_per_activation"])


def begin_activation(state: State, uid: str, events: list[Event]) -> None:
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
    events.append(Activated(uid, side_of(state, uid)))
    if u["routed"]:
        push(state, Rally(uid, combat.leadership_target(state, uid, 0)))
    elif u["pins"] > 0 and p["pinned_test"]:
        push(state, PinTest(uid, combat.leadership_target(state, uid, 0)))


@dataclass(frozen=True, slots=True)
class Rally(TTChance):
    """Routed activation (digest §3.7): a Rally test at ``tn`` or less; pass = no longer Routed, pins halved, no
    Charge; fail = every action a Move toward its own table edge."""

    kind = "rally"
    unit: str
    tn: int

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, 1, f"rally {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        uid = self.unit
        ok = succeeds(state.ctx.params, values[0], self.tn)
        events.append(DiceRolled(f"rally (need {self.tn} or less)", values, "rallied" if ok else "failed", uid))
        if ok:
            pins = ustate(state, uid)["pins"]
            pins = pins // 2 if state.ctx.params["rally_halves_pins"] else pins
            set_unit(state, uid, routed=False, pins=pins)
            state.vars.update({"no_charge": True, "started_pinned": pins > 0})
            events.append(StatusChanged(uid, "Routed", False))
        else:
            for _ in range(int(state.vars["left"])):
                push(state, Flee(uid))
            state.vars["left"] = 0


@dataclass(frozen=True, slots=True)
class PinTest(TTChance):
    """A pinned unit's test at ``tn`` or less when it activates (digest §3.7): fail = one action only."""

    kind = "pintest"
    unit: str
    tn: int

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, 1, f"pintest {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        ok = succeeds(state.ctx.params, values[0], self.tn)
        outcome = "passed" if ok else "failed: one action only"
        events.append(DiceRolled(f"pinned test (need {self.tn} or less)", values, outcome, self.unit))
        if not ok:
            state.vars["left"] = min(int(state.vars["left"]), int(state.ctx.params["pinned_fail_actions"]))


def end_activation(state: State, events: list[Event]) -> None:
    uid = active(state)
    if uid is not None:
        set_unit(state, uid, activated=True)
        events.append(Note(f"{uid}'s activation ends", f"{R}/activation/end"))
    state.vars.update({"active": None, "acts": [], "left": 0, "forbidden": {}})
    next_card(state, events)


def end_round(state: State, events: list[Event]) -> None:
    """End phase (digest §3.2, §3.3): discard Overwatch, score objectives, check whether the game ends."""
    p = state.ctx.params
    for uid in state.ctx.unit_order:
        if ustate(state, uid)["overwatch"]:
            set_unit(state, uid, overwatch=False)
            msg = f"{uid}'s unused Overwatch token is discarded (End phase)"
            events.append(Note(msg, f"{R}/overwatch/discarded"))
            events.append(StatusChanged(uid, "on Overwatch", False))
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


def objective_holder(state: State, at: Vec, radius: float) -> int | None:
    """Control (digest §3.3): more models of non-Routed units within the radius (size L+ counts double)."""
    large = int(state.ctx.params["objective_large_weight"])
    # the kernel's battlefield.controller and within_objective written out (the same test, the same counts): an
    # evaluation asks this of every objective after every lookahead
    units = state.vars["u"]
    ax, ay = at
    lim = radius + 1e-9
    count = [0, 0]
    for m in state.models.values():
        if m.on_table and math.hypot(m.x - ax, m.y - ay) - m.radius <= lim:
            if units[str(m.unit)]["routed"]:
                continue
            count[m.side] += large if m.data["size"] in ("L", "XL") else 1
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def finish(state: State, events: list[Event]) -> None:
    p = state.ctx.params
    vp = list(state.vars["vp"])
    for uid in state.ctx.unit_order:
        side = state.ctx.units[uid]["side"]
        if not members(state, uid) or ustate(state, uid)["routed"]:
            vp[1 - side] += int(p["vp_unit_broken"])
    state.vars["vp"] = vp
    state.phase = "over"
    state.stack = []
    events.append(GameEnded(battlefield.vp_winner(vp), "victory points", (vp[0], vp[1])))


# ------------------------------------------------------------------------------------------- the action menu
ACTIONS = ("move", "charge", "prone", "stand", "shoot", "fight", "shift", "shed", "overwatch", missions.KIND)


def menu(state: State, uid: str, only_legal: bool = True) -> list[Action]:
    tries = list(candidates(state, uid))
    eng = engaged_units(state, uid)
    with frozen_models(state):  # only checks follow: nothing moves
        out = [a for a in tries if not only_legal or not action_reasons(state, uid, a, eng)]
    out.append(Action("end", uid))
    return out


def candidates(state: State, uid: str) -> list[Action]:
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


def action_reasons(state: State, uid: str, a: Action, eng: list[str] | None = None) -> list[Reason]:
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


def _c_move(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return [] if a.target is None and a.point is None else [(f"{R}/move/syntax", "declare 'move UNIT' first")]


def _c_shed(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if ustate(state, uid)["pins"] <= 0:
        return [(f"{R}/pin/none", f"{uid} has no pin token to shed")]
    return []


def _c_prone(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if is_vehicle(state, uid) and state.ctx.params["vehicle_never_prone"]:
        return [(f"{R}/prone/vehicle", "a VEHICLE never goes prone (param vehicle_never_prone)")]
    return [(f"{R}/prone/already", f"{uid} is already prone")] if ustate(state, uid)["prone"] else []


def _c_stand(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return [] if ustate(state, uid)["prone"] else [(f"{R}/prone/standing", f"{uid} is not prone")]


def _c_charge(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
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


def charge_distance(state: State, uid: str, mode: str | None) -> float:
    p = state.ctx.params
    mult = float(p["running_charge_multiplier"] if mode == "running" else p["walking_charge_multiplier"])
    return move_allow(state, uid, mult) if not ustate(state, uid)["prone"] else float(p["prone_move"])


def _c_shoot(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
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
    out.extend(shoot_eligibility(state, uid))
    if state.vars.get("charged"):
        out.append((f"{R}/shoot/after-charge", "no Shoot after a Charge this activation"))
    heavy = any(
        "Heavy" in (combat.weapon_of(m, str(a.option)) or {"keywords": []})["keywords"] for m in members(state, uid)
    )
    if heavy and any(k in ("move", "shift", "charge") for k in state.vars["acts"]):
        out.append((f"{R}/shoot/heavy", "Heavy: no Shoot after moving this activation (digest §3.5)"))
    if not out and not combat.can_shoot(state, uid, t, str(a.option), False):
        out.append((f"{R}/shoot/range-los", f"no model of {uid} has range and line of sight to a model of {t}"))
    return out


def shoot_eligibility(state: State, uid: str) -> list[Reason]:
    """Shoot eligibility that holds for any Shoot, an active one or a reaction (seed 002, Shoot: "more than 1"
    away from all enemy models/units"; "Is not routed")."""
    out: list[Reason] = []
    side = state.ctx.units[uid]["side"]
    limit = float(state.ctx.params["shoot_enemy_gap"]) + 1e-9
    if any(unit_gap(state, uid, e) <= limit for e in units_of(state, 1 - side)):
        out.append((f"{R}/shoot/enemy-near", 'the shooting unit must be more than 1" from all enemy models'))
    if ustate(state, uid)["routed"]:
        out.append((f"{R}/shoot/routed", "a Routed unit cannot Shoot"))
    return out


def prior_actions(state: State, uid: str) -> int:
    """The actions ``uid`` performed before a Shoot, for its penalty (seed 002, Shooting Notes: "EACH action
    performed prior to the shoot action this turn"; param ``prior_action_scope`` 'activation' counts only the
    active unit's actions of this activation, so a reaction then counts none)."""
    if state.ctx.params["prior_action_scope"] == "turn":
        return int(ustate(state, uid)["acts_round"])
    return len(state.vars["acts"]) if uid == active(state) else 0


def _c_fight(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if a.target not in eng:
        return [(f"{R}/fight/engaged", f"{uid} is not engaged (in base-to-base contact) with {a.target}")]
    return []


def _c_shift(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    return []


def _c_overwatch(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    if ustate(state, uid)["routed"]:
        return [(f"{R}/overwatch/routed", "a Routed unit cannot go on Overwatch (digest §3.7)")]
    return []


def _c_mission(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
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


@dataclass(frozen=True, slots=True)
class ActionMenu(steps.ActionMenu[State]):
    """The standing decision of an activation (never stored): the active ``unit`` picks its next action, or
    ends its activation."""

    rules = R
    about = "unit"
    wait_rule = "activation/active-unit"
    wait_text = "{actor} is the active unit (its card was drawn); {other} must wait"
    unit: str

    def player(self, state: State) -> int:
        return side_of(state, self.unit)

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return menu(state, self.unit, only_legal=only_legal)

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_reasons(state, self.unit, action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        do_action(state, self.unit, action, events)


# ------------------------------------------------------------------------------------------- doing actions
def spend(state: State, uid: str, kind: str, n: int = 1) -> None:
    """Record an action: it uses ``n`` actions and counts for the Shoot penalty of later actions."""
    state.vars["acts"] = [*state.vars["acts"], kind]
    state.vars["left"] = int(state.vars["left"]) - n
    set_unit(state, uid, acts_round=ustate(state, uid)["acts_round"] + n)


def do_action(state: State, uid: str, a: Action, events: list[Event]) -> None:
    events.append(ActionTaken(uid, str(a), side_of(state, uid)))
    k = a.kind
    if k == "end":
        state.vars["end_now"] = True
        return
    if k == "move":
        spend(state, uid, "move")
        push(state, Dest(uid, "move", move_allow(state, uid)))
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
        push(state, FightGo(uid, str(a.target), False, 0))
    elif k == missions.KIND:
        spend(state, uid, f"{missions.KIND}:{a.option}", int(state.ctx.missions[str(a.option)]["cost"]))
        missions.perform(state, uid, a, events)


def shed(state: State, uid: str, events: list[Event]) -> None:
    """Shed a Pin (seed 002); a prone unit then decides to remain prone or stand up (Go Prone)."""
    u = ustate(state, uid)
    per = int(state.ctx.params["pins_shed_per_action"])
    n = u["pins"] if per <= 0 else min(u["pins"], per)
    set_unit(state, uid, pins=u["pins"] - n)
    events.append(TokensChanged(uid, "pin", -n, u["pins"] - n))
    if u["prone"] and u["pins"] - n > 0:
        # (option pins_shed_per_action) still pinned: the choice comes when the last pin goes (seed 002, Go Prone)
        events.append(Note(f"{uid} is still pinned: it stays prone", f"{R}/pin/still-pinned"))
    elif u["prone"]:
        push(state, StayProne(uid))


@dataclass(frozen=True, slots=True)
class StayProne(TTChoice):
    """After shedding a pin, a prone unit remains prone or stands up (seed 002, Go Prone)."""

    kind = "shed"
    about = "unit"
    unit: str

    def options(self, state: State) -> list[Action]:
        return [Action("stay-prone", self.unit), Action("stand", self.unit)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        prone = action.kind == "stay-prone"
        set_unit(state, self.unit, prone=prone, prone_by_pin=False)
        if prone:
            events.append(Note(f"{self.unit} sheds its pin and stays prone", f"{R}/pin/stay-prone"))
        else:
            events.append(StatusChanged(self.unit, "prone", False))


def push_shift(state: State, uid: str, free: bool = False) -> None:
    push(state, Dest(uid, "shift", float(state.ctx.params["shift_distance"]), free))


# ------------------------------------------------------------------------------------------- reactions
def can_react(state: State, uid: str) -> bool:
    """Reaction eligibility (seed 002): not Pinned, not Routed, not activated or holding an Overwatch token;
    digest §3.8: not engaged; option ``reactions_per_round`` (off by default) caps reactions per round."""
    u = ustate(state, uid)
    if not members(state, uid) or u["pins"] > 0 or u["routed"] or engaged_units(state, uid):
        return False
    if u["activated"] and not u["overwatch"]:
        return False
    if uid == active(state):
        return False
    cap = int(state.ctx.params["reactions_per_round"])
    return cap <= 0 or int(u["reactions"]) < cap + (1 if u["overwatch"] else 0)


@dataclass(frozen=True, slots=True)
class React(TTChoice):
    """The target ``unit`` of a Shoot or a Charge (``trigger``) by ``attacker`` may react (seed 002, How to
    perform a reaction): the NON-active side decides."""

    kind = "react"
    about = "unit"
    unit: str
    attacker: str
    trigger: str

    def options(self, state: State) -> list[Action]:
        uid = self.unit
        out: list[Action] = []
        if self.trigger == "charge":
            shoot_ok = not shoot_eligibility(state, uid)
            for w in combat.unit_weapons(state, uid) if shoot_ok else []:
                if combat.can_shoot(state, uid, self.attacker, w, True):
                    out.append(Action("react", uid, self.attacker, option=f"shoot:{w}"))
            out.extend(Action("react", uid, self.attacker, option=r) for r in state.ctx.units[uid]["reactions"])
        elif not ustate(state, uid)["prone"] and not (
            is_vehicle(state, uid) and state.ctx.params["vehicle_never_prone"]
        ):
            out.append(Action("react", uid, self.attacker, option="prone"))
        return [*out, Action("pass", uid)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        do_reaction(state, self, action, events)


def offer_reaction(state: State, tuid: str, attacker: str, trigger: str) -> None:
    if can_react(state, tuid):
        step = React(tuid, attacker, trigger)
        if len(step.options(state)) > 1:
            push(state, step)


def do_reaction(state: State, step: React, a: Action, events: list[Event]) -> None:
    """The reaction's consequences (seed 002): a unit not yet activated flips its card (it is now activated);
    a unit on Overwatch loses the token unless its reaction made the charge fail."""
    uid = step.unit
    if a.kind == "pass":
        events.append(Note(f"{uid} does not react", f"{R}/reaction/pass"))
        return
    u = ustate(state, uid)
    events.append(ActionTaken(uid, str(a), side_of(state, uid)))
    set_unit(state, uid, reactions=u["reactions"] + 1)
    if u["overwatch"]:
        state.vars["ow_reactor"] = uid
        if step.trigger != "charge":
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
        # a reaction Shoot is a Shoot action: it takes the penalty of the actions before it this turn, and it
        # counts for the next one (seed 002, Shooting Notes)
        state.vars["prior"] = prior_actions(state, uid)
        set_unit(state, uid, acts_round=int(ustate(state, uid)["acts_round"]) + 1)
        shoot_now(state, uid, step.attacker, opt[len("shoot:") :], True, events)
        state.vars["prior"] = 0


# ------------------------------------------------------------------------------------------- shooting
def begin_shoot(state: State, uid: str, tuid: str, wname: str, events: list[Event]) -> None:
    """Shoot (seed 002): the penalty counts the actions before it this turn; the target may react (Go Prone)
    before the attacks are made."""
    prior = prior_actions(state, uid)
    first = not state.vars["acts"]
    spend(state, uid, "shoot")
    state.vars["shots"] = int(state.vars.get("shots", 0)) + 1
    push(state, ShootGo(uid, tuid, wname, prior, first))
    offer_reaction(state, tuid, uid, "shoot")


@dataclass(frozen=True, slots=True)
class ShootGo(TTAuto):
    """The declared Shoot of ``unit`` at ``target`` with ``weapon``, made once the target's reaction is over;
    ``prior``: the actions before it (the penalty), ``first``: it was the activation's first action."""

    kind = "shoot-go"
    unit: str
    target: str
    weapon: str
    prior: int
    first: bool

    def run(self, state: State, events: list[Event]) -> None:
        state.vars["prior"] = self.prior
        saved = state.vars["acts"]
        if self.first:
            state.vars["acts"] = []
        shoot_now(state, self.unit, self.target, self.weapon, False, events)
        state.vars["acts"] = saved
        state.vars["prior"] = 0


def shoot_now(state: State, uid: str, tuid: str, wname: str, reaction: bool, events: list[Event]) -> None:
    if not members(state, uid) or not members(state, tuid):
        return
    groups = combat.shoot_groups(state, uid, tuid, wname, reaction)
    cap = combat.visible_count(state, uid, tuid, reaction, combat.unit_fires_indirect(state, uid, wname))
    n = sum(g.models for g in groups)
    events.append(
        Note(f"{uid} shoots {tuid} with {wname}: {n} model(s) can shoot, at most {cap} casualties", f"{R}/shoot/who")
    )
    state.vars["shot"] = {"kills": 0, "hits": 0, "pen_hits": 0}
    push(state, ShootEnd(uid, tuid, wname))
    combat.push_attack(state, uid, tuid, groups, False, "shot", cap, uid)


@dataclass(frozen=True, slots=True)
class ShootEnd(TTAuto):
    """After a shooting attack: pins (digest §3.7), then the casualty checks."""

    kind = "shoot-end"
    unit: str
    target: str
    weapon: str

    def run(self, state: State, events: list[Event]) -> None:
        p = state.ctx.params
        shot = state.vars.get("shot") or {}
        tuid = self.target
        pins = 0
        hits = int(shot.get("hits", 0))
        if hits > 0 and not (is_vehicle(state, tuid) and p["vehicle_ignores_pen0_pins"] and not shot.get("pen_hits")):
            pins = int(p["pin_on_hit"]) + (int(p["pin_on_kill"]) if shot.get("kills") else 0)
            ms = members(state, self.unit)
            w = combat.weapon_of(ms[0], self.weapon) if ms else None
            pins += int(w.get("suppressive", 0)) if w else 0
        combat.credit_kills(state, self.unit, int(shot.get("kills", 0)))
        state.vars["shot"] = None
        combat.add_pins(state, tuid, pins, events)
        combat.casualty_checks(state, tuid, events)


# ------------------------------------------------------------------------------------------- charging
def begin_charge(state: State, uid: str, tuid: str, mode: str, events: list[Event]) -> None:
    """Charge (seed 002): declared walking or running; the target may react; then the charge move."""
    p = state.ctx.params
    spend(state, uid, "charge", int(p["running_charge_actions"]) if mode == "running" else 1)
    state.vars["charged"] = True
    state.vars["brace"] = None
    state.vars["ow_reactor"] = None
    push(state, ChargeGo(uid, tuid, mode))
    offer_reaction(state, tuid, uid, "charge")


@dataclass(frozen=True, slots=True)
class ChargeGo(TTAuto):
    """The charge move of ``unit`` at ``target`` (a ``mode`` "walking" or "running" charge), once the target's
    reaction is over: its distance and whether it counts as running are worked out now, after the reaction (a
    charger pinned and made prone by a reaction Shoot moves as a prone unit may, seed 002 Go Prone: 2" per move;
    a target that is prone now makes it a Running Charge). Home, a FREE Fight follows (a running charger has
    Priority unless the target braced)."""

    kind = "charge-go"
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
        push(state, FightGo(uid, tuid, priority, bonus))


# ------------------------------------------------------------------------------------------- fighting
@dataclass(frozen=True, slots=True)
class FightGo(TTAuto):
    """The Fight Process (seed 002): a running charger with Priority resolves all its attacks first; otherwise
    both units fight simultaneously (every fighter's attacks are fixed before casualties are removed);
    ``bonus``: the attacker's hit bonus (a running charge)."""

    kind = "fight-go"
    attacker: str
    defender: str
    priority: bool
    bonus: int

    def run(self, state: State, events: list[Event]) -> None:
        att, dfn = self.attacker, self.defender
        state.vars["fight_a"] = {"kills": 0}
        state.vars["fight_d"] = {"kills": 0}
        push(state, FightEnd(att, dfn))
        a_groups = combat.melee_groups(state, att, dfn, self.bonus)
        if self.priority:
            push(state, StrikeBack(att, dfn))
        else:
            combat.push_attack(state, dfn, att, combat.melee_groups(state, dfn, att, 0), True, "fight_d", None, None)
        combat.push_attack(state, att, dfn, a_groups, True, "fight_a", None, None)


@dataclass(frozen=True, slots=True)
class StrikeBack(TTAuto):
    """The defender's attacks after a charger with Priority struck first (if both units still stand)."""

    kind = "strike-back"
    attacker: str
    defender: str

    def run(self, state: State, events: list[Event]) -> None:
        dfn, att = self.defender, self.attacker
        if members(state, dfn) and members(state, att):
            combat.push_attack(state, dfn, att, combat.melee_groups(state, dfn, att, 0), True, "fight_d", None, None)


@dataclass(frozen=True, slots=True)
class FightEnd(TTAuto):
    """Resolving the Fight (seed 002): more casualties wins; the winner may Shift; the loser tests Leadership
    (fail: Routed and pinned). A draw: both may Shift, then both are pinned."""

    kind = "fight-end"
    attacker: str
    defender: str

    def run(self, state: State, events: list[Event]) -> None:
        p = state.ctx.params
        att, dfn = self.attacker, self.defender
        ka = int(state.vars["fight_a"]["kills"])
        kd = int(state.vars["fight_d"]["kills"])
        combat.credit_kills(state, att, ka)
        combat.credit_kills(state, dfn, kd)
        events.append(Note(f"fight {att} vs {dfn}: casualties inflicted {ka} - {kd}", f"{R}/fight/result"))
        for u in (dfn, att):
            push(state, Checks(u))
        if ka == kd:
            push(state, DrawPins((att, dfn)))
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


@dataclass(frozen=True, slots=True)
class DrawPins(TTAuto):
    """Both ``units`` of a drawn Fight are pinned (seed 002, Resolving the Fight Action)."""

    kind = "draw-pins"
    units: tuple[str, ...]

    def run(self, state: State, events: list[Event]) -> None:
        for u in self.units:
            events.append(Note(f"{u} is pinned after a drawn fight", f"{R}/fight/draw"))
            combat.add_pins(state, u, 1, events)


# ------------------------------------------------------------------------------------------- destinations
@dataclass(frozen=True, slots=True)
class Dest(TTChoice):
    """Where the leader of ``unit`` goes: a Move (``mode`` "move") or a Shift ("shift", ``free`` after a Fight)
    of up to ``allow`` inches; any point on the table is accepted and checked (:func:`dest_plan`)."""

    kind = "dest"
    about = "unit"
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
        for q in pts:
            if q in seen:
                continue
            seen.add(q)
            a = Action("to", uid, point=q)
            if not dest_reasons(state, step, a):
                out.append(a)
    return [*out, Action("stay", uid)]


def dest_reasons(state: State, step: Dest, a: Action) -> list[Reason]:
    uid = step.unit
    if a.model != uid or a.kind not in ("to", "stay") or (a.kind == "to" and a.point is None):
        return [(f"{R}/move/destination", f"give a destination: 'to {uid} @x,y' or 'stay {uid}'")]
    if a.kind == "stay":
        return []
    plan = dest_plan(state, step, a)
    return plan if isinstance(plan, list) else []


#: Destination plans kept per game (in the context's memo) before it is emptied.
PLAN_MEMO_LIMIT = 50_000


def dest_plan(state: State, step: Dest, a: Action) -> Placement | list[Reason]:
    """Where a Move or Shift to ``a.point`` puts every model of the unit, or why it cannot go
    (:func:`_dest_plan`). A pure function of the models on the table (where they stand, which way a VEHICLE
    faces), the unit's leader and the step, so it is remembered by them: listing the destinations plans each one
    and choosing one plans it again, and a lookahead plans the same moves from the same positions."""
    key = (
        "dest",
        step.unit,
        step.mode,
        step.allow,
        a.kind,
        a.model,
        a.point,
        a.option,
        ustate(state, step.unit).get("leader"),
        _stances(state),
    )
    memo = state.ctx.memo
    hit: Placement | list[Reason] | None = memo.get(key)
    if hit is None:
        hit = _dest_plan(state, step, a)
        if len(memo) > PLAN_MEMO_LIMIT:
            memo.clear()
        memo[key] = hit
    return dict(hit) if isinstance(hit, dict) else list(hit)


def _stances(state: State) -> tuple[tuple[Any, ...], ...]:
    """Where every model stands (and which way it faces), once per listing while nothing moves."""
    frozen = state.ctx.frozen
    cache = frozen.cache if frozen is not None and frozen.state is state else None
    if cache is not None and "stances" in cache:
        return cache["stances"]  # type: ignore[no-any-return]
    out = tuple((m.x, m.y, m.z, m.on_table, m.flags.get("facing")) for m in state.models.values())
    if cache is not None:
        cache["stances"] = out
    return out


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
    plan = dest_plan(state, step, a)
    assert isinstance(plan, dict)
    if is_vehicle(state, uid):
        m = members(state, uid)[0]
        assert a.point is not None
        via = _via(a.option)
        facing = vehicle_facing_after(m, a.point, _face(a.option), via)
        m.flags = {**m.flags, "facing": facing}
    place_unit(state, plan, events)


# ------------------------------------------------------------------------------------------- the machine
class TTRules(SteppedRules[State]):
    """The kernel's step machine with this game's set-up, standing decisions and activation deck."""

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def standing(self, state: State) -> Choice[State] | None:
        """Nothing pending and nothing to advance: a side deploys a unit, or the active unit picks an action."""
        if state.phase == "deploy":
            return Deploy(int(state.vars["deployer"]))
        uid = active(state)
        return ActionMenu(uid) if state.phase == "activation" and uid is not None else None

    def idle(self, state: State, events: list[Event]) -> bool:
        """The active unit's activation is over (:func:`activation_done`): end it and draw the next card (or end
        the round). False while a standing decision waits."""
        uid = active(state)
        if state.phase != "activation" or uid is None or not activation_done(state, uid):
            return False
        end_activation(state, events)
        return True


def activation_done(state: State, uid: str) -> bool:
    """The activation ends: the unit ended it (or went on Overwatch), has no actions left, or is gone."""
    return bool(state.vars.get("end_now")) or int(state.vars["left"]) <= 0 or not members(state, uid)


STEPS = (Rolloff, Zone, Draw, Pick, Rally, PinTest, StayProne, React, ShootGo, ShootEnd, ChargeGo)
RULES = TTRules([*STEPS, Deploy, FightGo, StrikeBack, FightEnd, DrawPins, Dest, *combat.STEPS])


def result_score(state: State) -> tuple[int, int]:
    vp = state.vars.get("vp", [0, 0])
    return (int(vp[0]), int(vp[1]))


def model_fate(m: Model) -> dict[str, Any]:
    return {"side": m.side, "unit": m.unit, "name": m.name, "out": not m.on_table, "damage": m.token("damage")}
