"""Shoot (seed 002: Shoot, Who Can Shoot?, Pick Target, Check range, Check Line of Sight, Shooting Notes and
Details; digest §3.5-§3.7 for the PROPOSED weapon keywords, modifiers and pins): the unit's ranged weapons, which
models can shoot, the casualty cap, the hit modifiers and attack groups, the refusals of a Shoot, and the Shoot
itself as steps (:class:`ShootGo` once the target's reaction is over, :class:`ShootEnd` for pins and casualty
checks). The dice are :mod:`attacks`; line of sight :mod:`sight`; the target's reaction :mod:`reactions`."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.attacks import Group, credit_kills, push_attack
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency_now
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, ustate
from warband.rulesets.trenches_and_turbines.morale import casualty_checks
from warband.rulesets.trenches_and_turbines.pins import add_pins
from warband.rulesets.trenches_and_turbines.sight import positions_key, sight
from warband.rulesets.trenches_and_turbines.spots import listing_cache
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


def _attackers(state: State, uid: str, wname: str) -> Iterator[tuple[Model, float]]:
    """(model, its reach with ``wname``) for each model of ``uid`` that may make attacks with it: it carries the
    weapon and is in coherency (seed 002, Unit Coherency: out-of-coherency models only Move)."""
    bad = out_of_coherency_now(state, uid)
    for m in members(state, uid):
        w = weapon_of(m, wname)
        if w is not None and m.id not in bad:
            yield m, float(w["range"]) + 1e-9


def _in_range(m: Model, reach: float, targets: list[Model]) -> float | None:
    """The distance from the target unit to ``m`` (seed 002, Check range: "Measure from the target unit to each
    model in the attacking unit"), its nearest model, if that is within ``reach``: the attacking model "has range
    against at least 1 model in the target unit"."""
    d = min((gap(m, t) for t in targets), default=None)
    return d if d is not None and d <= reach else None


def _best_sight(state: State, m: Model, targets: list[Model], key: tuple[Any, ...]) -> int | None:
    """The least Conceal (X) over the target models that ``m`` has line of sight of, or None if it sees none (seed
    002, Who Can Shoot?: "has LoS of at least one model in the target unit", any model: not necessarily one in
    range)."""
    best: int | None = None
    for t in targets:
        c = sight(state, m, t, key)
        if c is not None and (best is None or c < best):
            best = c
            if c == 0:
                break
    return best


def _sees_any(state: State, m: Model, targets: list[Model], key: tuple[Any, ...]) -> bool:
    return any(sight(state, m, t, key) is not None for t in targets)


def shooters(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> list[tuple[Model, float, int]]:
    """(model, distance to the target unit, Conceal) for every model that can shoot (seed 002, Who Can Shoot?:
    two conditions, "The attacking model has LoS of at least one model in the target unit" and "has range against
    at least 1 model in the target unit", so sight of one model and range of another suffice; out-of-coherency
    models only Move). Its range band is measured to the nearest target model (Check range), its Conceal is the
    least over the target models it sees. A reaction Shoot needs no line of sight (seed 002, How to perform a
    reaction), nor does an Indirect weapon (digest §3.5; its Conceal is then 0: it ignores Conceal); range always
    counts."""
    key = positions_key(state)
    targets = members(state, tuid)
    out: list[tuple[Model, float, int]] = []
    for m, reach in _attackers(state, uid, wname):
        d = _in_range(m, reach, targets)
        if d is None:
            continue
        w = weapon_of(m, wname)
        c = 0 if reaction or (w is not None and indirect(w)) else _best_sight(state, m, targets, key)
        if c is not None:
            out.append((m, d, c))
    return out


def can_shoot(state: State, uid: str, tuid: str, wname: str, reaction: bool) -> bool:
    """Whether :func:`shooters` would name any model, stopping at the first that qualifies (a reaction's menu asks
    this: a reaction Shoot needs range only)."""
    key = positions_key(state)
    targets = members(state, tuid)
    for m, reach in _attackers(state, uid, wname):
        w = weapon_of(m, wname)
        if _in_range(m, reach, targets) is None:
            continue
        if reaction or (w is not None and indirect(w)) or _sees_any(state, m, targets, key):
            return True
    return False


def pick_target_reasons(state: State, uid: str, tuid: str, wname: str, every: bool = True) -> list[Reason]:
    """Pick Target (seed 002): "The target unit must be within range of at least one model in the attacking unit"
    and "must be within LoS of at least one model in the attacking unit", two conditions that different models
    may meet (an Indirect weapon needs no LoS, digest §3.5). The attacking models are those that may attack with
    the weapon (:func:`_attackers`). A target so picked may leave no model able to shoot (Who Can Shoot?): the
    Shoot is still made ("Any models that cannot make ranged attacks ... still count as having made the shoot
    action"). With ``every`` False (the menu: is there any refusal?) line of sight is not traced once range
    refused."""
    key = positions_key(state)
    targets = members(state, tuid)
    cache = listing_cache(state)
    if cache is None:
        attackers = list(_attackers(state, uid, wname))
        in_range = any(_in_range(m, reach, targets) is not None for m, reach in attackers)
    else:  # a menu: the attackers, each model's distance and sight kept for the other weapons and targets
        kept: list[tuple[Model, float]] | None = cache.get(("attackers", uid, wname))
        if kept is None:
            kept = cache[("attackers", uid, wname)] = list(_attackers(state, uid, wname))
        attackers = kept
        gaps = _nearest_gaps(cache, state, uid, tuid, targets)
        in_range = any((d := gaps[m.id]) is not None and d <= reach for m, reach in attackers)
    out: list[Reason] = []
    if not in_range:
        out.append((f"{R}/shoot/range", f"{tuid} is not within {wname} range of any model of {uid}"))
    if out and not every:
        return out
    fires_indirect: bool | None = None if cache is None else cache.get(("indirect", uid, wname))
    if fires_indirect is None:
        fires_indirect = unit_fires_indirect(state, uid, wname)
        if cache is not None:
            cache[("indirect", uid, wname)] = fires_indirect
    if fires_indirect:
        return out
    if cache is None:
        sees = any(_sees_any(state, m, targets, key) for m, _ in attackers)
    else:
        sees = any(_sees_any_kept(cache, state, m, tuid, targets, key) for m, _ in attackers)
    if not sees:
        out.append((f"{R}/shoot/los", f"no model of {uid} with a {wname} has line of sight to a model of {tuid}"))
    return out


def _nearest_gaps(
    cache: dict[Any, Any], state: State, uid: str, tuid: str, targets: list[Model]
) -> dict[str, float | None]:
    """:func:`_in_range`'s distance from each model of ``uid`` to the nearest model of ``tuid`` (None: none on the
    table), by model id, once per pair of units in a listing's ``cache`` (:func:`spots.listing_cache`): the
    kernel's ``gap`` written out, the least in the targets' order as ``min`` takes it."""
    k = ("nearest-gaps", uid, tuid)
    hit: dict[str, float | None] | None = cache.get(k)
    if hit is not None:
        return hit
    hit = cache[k] = {}
    hypot = math.hypot
    for m in members(state, uid):
        mx, my, mr = m.x, m.y, m.radius
        best: float | None = None
        for t in targets:
            d = hypot(mx - t.x, my - t.y) - mr - t.radius
            if d <= 0.0:
                d = 0.0
            if best is None or d < best:
                best = d
        hit[m.id] = best
    return hit


def _sees_any_kept(
    cache: dict[Any, Any], state: State, m: Model, tuid: str, targets: list[Model], key: tuple[Any, ...]
) -> bool:
    """:func:`_sees_any` of the models of ``tuid``, kept in a listing's ``cache``."""
    k = ("sees-any", m.id, tuid)
    hit: bool | None = cache.get(k)
    if hit is None:
        hit = cache[k] = _sees_any(state, m, targets, key)
    return hit


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


def shoot_reasons(state: State, uid: str, a: Action, eng: list[str], every: bool = True) -> list[Reason]:
    """Why the active unit may not make the Shoot ``a`` now (seed 002, Shoot and Pick Target; digest §3.5 for
    Semi-Automatic and Heavy): the weapon and target, once per activation, eligibility, not after a Charge, the
    target within range of a model and within line of sight of a model (:func:`pick_target_reasons`)."""
    p = state.ctx.params
    out: list[Reason] = []
    t = a.target or ""
    cache = listing_cache(state)
    if cache is None:
        names: list[str] | tuple[str, ...] = unit_weapons(state, uid)
    else:  # a menu: every Shoot of it asks
        names = cache.get(("weapons", uid)) or cache.setdefault(("weapons", uid), tuple(unit_weapons(state, uid)))
    if a.option not in names:
        return [(f"{R}/shoot/weapon", f"{uid} has no ranged weapon {a.option!r}")]
    if t not in state.ctx.units or state.ctx.units[t]["side"] == state.ctx.units[uid]["side"] or not members(state, t):
        return [(f"{R}/shoot/target", f"{t} is not an enemy unit on the table")]
    semi, heavy = _weapon_traits(state, uid, str(a.option))
    limit = int(p["semi_auto_shoots_per_activation"] if semi else p["shoots_per_activation"])
    if int(state.vars.get("shots", 0)) >= limit:
        out.append((f"{R}/shoot/once", "one Shoot per activation unless Semi-Automatic"))
    out.extend(shoot_eligibility(state, uid))
    if state.vars.get("charged"):
        out.append((f"{R}/shoot/after-charge", "no Shoot after a Charge this activation"))
    if heavy and any(k in ("move", "shift", "charge") for k in state.vars["acts"]):
        out.append((f"{R}/shoot/heavy", "Heavy: no Shoot after moving this activation (digest §3.5)"))
    if not out:
        out.extend(pick_target_reasons(state, uid, t, str(a.option), every))
    return out


def _weapon_traits(state: State, uid: str, wname: str) -> tuple[bool, bool]:
    """Whether a model of ``uid`` carries ``wname`` as a Semi-Automatic weapon, and as a Heavy one (digest §3.5);
    once per listing (:func:`spots.listing_cache`: every Shoot of a menu asks)."""
    cache = listing_cache(state)
    k = ("weapon-traits", uid, wname)
    if cache is not None and k in cache:
        return cache[k]  # type: ignore[no-any-return]
    ms = members(state, uid)
    semi = any("Semi-Automatic" in (weapon_of(m, wname) or {"keywords": []})["keywords"] for m in ms)
    heavy = any("Heavy" in (weapon_of(m, wname) or {"keywords": []})["keywords"] for m in ms)
    if cache is not None:
        cache[k] = (semi, heavy)
    return semi, heavy


def shoot_eligibility(state: State, uid: str) -> list[Reason]:
    """Shoot eligibility that holds for any Shoot, an active one or a reaction (seed 002, Shoot: "more than 1"
    away from all enemy models/units"; "Is not routed"). Once per listing (:func:`spots.listing_cache`)."""
    cache = listing_cache(state)
    k = ("shoot-eligibility", uid)
    if cache is not None and k in cache:
        return list(cache[k])
    out = _shoot_eligibility(state, uid)
    if cache is not None:
        cache[k] = tuple(out)
    return out


def _shoot_eligibility(state: State, uid: str) -> list[Reason]:
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


@values.value
class ShootGo(TTAuto, kind="shoot-go"):
    """The declared Shoot of ``unit`` at ``target`` with ``weapon``, made once the target's reaction is over;
    ``prior``: the actions before it (the penalty), ``first``: it was the activation's first action."""

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


@values.value
class ShootEnd(TTAuto, kind="shoot-end"):
    """After a shooting attack: pins (digest §3.7), then the casualty checks."""

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
