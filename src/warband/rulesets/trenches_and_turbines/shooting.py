"""Shoot (seed 002: Shoot, Who Can Shoot?, Pick Target, Check range, Check Line of Sight, Shooting Notes and
Details; digest §3.5-§3.7 for the PROPOSED weapon keywords, modifiers and pins): the unit's ranged weapons, which
models can shoot, the casualty cap, the hit modifiers and attack groups, the refusals of a Shoot, and the Shoot
itself as steps (:class:`ShootGo` once the target's reaction is over, :class:`ShootEnd` for pins and casualty
checks). The dice are :mod:`attacks`; line of sight :mod:`sight`; the target's reaction :mod:`reactions`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.attacks import Group, credit_kills, push_attack
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, ustate
from warband.rulesets.trenches_and_turbines.morale import casualty_checks
from warband.rulesets.trenches_and_turbines.pins import add_pins
from warband.rulesets.trenches_and_turbines.sight import positions_key, sight
from warband.rulesets.trenches_and_turbines.units import active, is_vehicle, members, unit_gap, units_of


def ranged_weapons(m: Model) -> list[dict[str, Any]]:
    return list(m.data["weapons"])


def unit_weapons(state: State, uid: str) -> list[str]:
    names: list[str] = []
    for m in members(state, uid):
        for w in ranged_weapons(m):
            if w["name"] not in names:
                names.append(w["name"])
    return names


def weapon_of(m: Model, name: str) -> dict[str, Any] | None:
    for w in ranged_weapons(m):
        if w["name"] == name:
            return w
    return None


def indirect(w: dict[str, Any]) -> bool:
    """Indirect (digest §3.5 keyword default): no line of sight needed, ``indirect_hit_mod`` to hit, ignores
    Conceal."""
    return "Indirect" in w["keywords"]


def unit_fires_indirect(state: State, uid: str, wname: str) -> bool:
    """True when the unit's weapon ``wname`` is Indirect (for the models carrying it)."""
    return any(indirect(w) for m in members(state, uid) if (w := weapon_of(m, wname)) is not None)


def _shots(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> Iterator[tuple[Model, float, int]]:
    """(model, distance, intervening Conceal) for each model of ``uid`` that may shoot ``wname`` and each target
    model in its range and, where needed, in its sight, model by model in roster order (see :func:`shooters`)."""
    bad = set(out_of_coherency(state, uid))
    key = positions_key(state)
    targets = members(state, tuid)
    for m in members(state, uid):
        w = weapon_of(m, wname)
        if w is None or m.id in bad:
            continue
        reach = float(w["range"]) + 1e-9
        blind = reaction or indirect(w)
        for t in targets:
            d = gap(m, t)
            if d > reach:
                continue
            c = 0 if blind else sight(state, m, t, key)
            if c is not None:
                yield m, d, c


def shooters(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> list[tuple[Model, float, int]]:
    """(model, distance to the nearest target model it may shoot at, intervening Conceal) for every model that
    can shoot (seed 002, Who Can Shoot?: LoS to and range of at least one target model; out-of-coherency
    models only Move). A reaction Shoot needs no line of sight (seed 002, How to perform a reaction), nor does an
    Indirect weapon (digest §3.5; its Conceal is then 0: it ignores Conceal); range always counts. Each model's
    target is the least Conceal, then the nearest (the first of equals)."""
    best: dict[str, tuple[Model, float, int]] = {}
    for m, d, c in _shots(state, uid, tuid, wname, reaction):
        b = best.get(m.id)
        if b is None or (c, d) < (b[2], b[1]):
            best[m.id] = (m, d, c)
    return list(best.values())


def can_shoot(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> bool:
    """Whether :func:`shooters` would name any model, stopping at the first model and target that qualify: the
    menu's legality of every Shoot asks only this."""
    return next(_shots(state, uid, tuid, wname, reaction), None) is not None


def visible_count(state: State, uid: str, tuid: str, reaction: bool, no_sight: bool = False) -> int:
    """Models of the target unit visible to at least one model of the attacker (the casualty cap). A Shoot that
    needs no line of sight (a reaction, ``reaction``; an Indirect weapon, ``no_sight``) counts every model."""
    if reaction or no_sight:
        return len(members(state, tuid))
    key = positions_key(state)
    ms = members(state, uid)
    return sum(1 for t in members(state, tuid) if any(sight(state, m, t, key) is not None for m in ms))


def shoot_groups(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> list[Group]:
    """The Shoot's attacks, grouped by their target number (seed 002: attacks with different modifiers are
    rolled separately; like attacks may be grouped)."""
    p = state.ctx.params
    us = ustate(state, uid)
    ts = ustate(state, tuid)
    prior = int(state.vars.get("prior", 0))
    first = not state.vars.get("acts")
    tgt = members(state, tuid)
    groups: dict[tuple[Any, ...], Group] = {}
    for m, d, conceal in shooters(state, uid, tuid, wname, reaction):
        w = weapon_of(m, wname)
        assert w is not None
        kws = w["keywords"]
        mod = -int(p["prior_action_penalty"]) * prior
        if not reaction:
            if d <= float(w["range"]) / 2:
                mod += int(p["short_range_mod"])
            elif "OPTICS" not in kws:
                mod += int(p["long_range_mod"])
        c = conceal + (int(p["prone_conceal"]) if ts["prone"] else 0)
        if "OPTICS" in kws:
            c = max(0, c - int(p["optics_conceal_reduction"]))
        if indirect(w):
            c = 0
            mod += int(p["indirect_hit_mod"])
        mod -= c
        if us["prone"]:
            mod += int(p["prone_ranged_bonus"])
        if ts["prone"]:
            near = d <= float(p["prone_target_distance"])
            mod += int(p["prone_target_near_mod"] if near else p["prone_target_far_mod"])
        size = str(tgt[0].data["size"]) if tgt else "M"
        if size != "M" and f"size_mod_{size}" in p:
            mod += int(p[f"size_mod_{size}"])
        attacks = int(w["attacks"])
        if "Semi-Automatic" in kws and first and not reaction:
            attacks += int(p["semi_auto_first_bonus"])
        tn = int(m.data["ranged"]) + mod
        k = (w["name"], tn)
        g = groups.get(k) or Group(w["name"], tn, 0, int(w["damage"]), int(w["pen"]), int(w.get("blast", 0)), 0)
        groups[k] = replace(g, n=g.n + attacks, models=g.models + 1)
    return list(groups.values())


def shoot_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Why the active unit may not make the Shoot ``a`` now (seed 002, Shoot and Who Can Shoot?; digest §3.5 for
    Semi-Automatic and Heavy): the weapon and target, once per activation, eligibility, not after a Charge, range
    and line of sight."""
    p = state.ctx.params
    out: list[Reason] = []
    t = a.target or ""
    if a.option not in unit_weapons(state, uid):
        return [(f"{R}/shoot/weapon", f"{uid} has no ranged weapon {a.option!r}")]
    if t not in state.ctx.units or state.ctx.units[t]["side"] == state.ctx.units[uid]["side"] or not members(state, t):
        return [(f"{R}/shoot/target", f"{t} is not an enemy unit on the table")]
    semi = any(
        "Semi-Automatic" in (weapon_of(m, str(a.option)) or {"keywords": []})["keywords"] for m in members(state, uid)
    )
    limit = int(p["semi_auto_shoots_per_activation"] if semi else p["shoots_per_activation"])
    if int(state.vars.get("shots", 0)) >= limit:
        out.append((f"{R}/shoot/once", "one Shoot per activation unless Semi-Automatic"))
    out.extend(shoot_eligibility(state, uid))
    if state.vars.get("charged"):
        out.append((f"{R}/shoot/after-charge", "no Shoot after a Charge this activation"))
    heavy = any("Heavy" in (weapon_of(m, str(a.option)) or {"keywords": []})["keywords"] for m in members(state, uid))
    if heavy and any(k in ("move", "shift", "charge") for k in state.vars["acts"]):
        out.append((f"{R}/shoot/heavy", "Heavy: no Shoot after moving this activation (digest §3.5)"))
    if not out and not can_shoot(state, uid, t, str(a.option), False):
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


def begin_shoot(state: State, uid: str, tuid: str, wname: str, events: list[Event]) -> None:
    """Shoot (seed 002): the penalty counts the actions before it this turn; the attacks wait (:class:`ShootGo`)
    under the target's reaction (Go Prone), which the caller offers next (``reactions.offer_reaction``)."""
    prior = prior_actions(state, uid)
    first = not state.vars["acts"]
    spend(state, uid, "shoot")
    state.vars["shots"] = int(state.vars.get("shots", 0)) + 1
    push(state, ShootGo(uid, tuid, wname, prior, first))


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
    groups = shoot_groups(state, uid, tuid, wname, reaction)
    cap = visible_count(state, uid, tuid, reaction, unit_fires_indirect(state, uid, wname))
    n = sum(g.models for g in groups)
    events.append(
        Note(f"{uid} shoots {tuid} with {wname}: {n} model(s) can shoot, at most {cap} casualties", f"{R}/shoot/who")
    )
    state.vars["shot"] = {"kills": 0, "hits": 0, "pen_hits": 0}
    push(state, ShootEnd(uid, tuid, wname))
    push_attack(state, uid, tuid, groups, False, "shot", cap, uid)


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
            w = weapon_of(ms[0], self.weapon) if ms else None
            pins += int(w.get("suppressive", 0)) if w else 0
        credit_kills(state, self.unit, int(shot.get("kills", 0)))
        state.vars["shot"] = None
        add_pins(state, tuid, pins, events)
        casualty_checks(state, tuid, events)
