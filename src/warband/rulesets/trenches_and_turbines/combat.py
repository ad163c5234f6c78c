"""Shooting, fighting, casualties, pins and Leadership (seed 002: Shoot, Saves, Removing Casualties, Fight,
Resolving the Fight Action; digest §3.5-§3.7, §3.9 for the PROPOSED numbers).

An attack is data on the stack: :class:`Attack` (the groups still to roll; :class:`Order` when the attacker
picks which group next), then chance steps :class:`Hits` and :class:`Saves`, then :class:`Damage` (one entry per
unsaved attack, each applied to a model the defender picks, :class:`Wound`). When the target's models have
different SVs the order is the other way round: :class:`Damage` holds every hit, the defender picks the model for
each, and a chance step :class:`ModelSave` rolls that attack's saves at that model's own SV. Leadership checks
(:class:`Leadership`), a new coherency leader (:class:`NewLeader`), a flee (:class:`Flee`) and the casualty
checks (:class:`Checks`) are steps too.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, Removed, StatusChanged, TokensChanged
from warband.kernel.records import Record
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import (
    R,
    TTAuto,
    TTChance,
    TTChoice,
    set_unit,
    side_of,
    succeeds,
    ustate,
)
from warband.rulesets.trenches_and_turbines.space import (
    flee_goals,
    in_contact,
    is_vehicle,
    leader_of,
    members,
    move_allow,
    out_of_coherency,
    place_unit,
    plan_flee,
    positions_key,
    sight,
    size_rank,
    unit_cover,
)


@dataclass(frozen=True, slots=True)
class Group(Record):
    """Attacks rolled together (seed 002: attacks with different modifiers are rolled separately): ``n`` dice
    hitting on ``tn`` or less with ``weapon`` (its ``damage``, ``pen`` and ``blast``), made by ``models``
    models."""

    weapon: str
    tn: int
    n: int
    damage: int
    pen: int
    blast: int
    models: int


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


# ------------------------------------------------------------------------------------------- shooting
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


# ------------------------------------------------------------------------------------------- fighting
def fighters(state: State, uid: str, enemy: str) -> list[Model]:
    """Models that fight (seed 002, The Fight Process): within their unit's coherency or in base contact."""
    bad = set(out_of_coherency(state, uid))
    return [m for m in members(state, uid) if m.id not in bad or in_contact(state, m, enemy)]


def melee_groups(state: State, uid: str, enemy: str, bonus: int) -> list[Group]:
    p = state.ctx.params
    routed = ustate(state, uid)["routed"]
    groups: dict[tuple[Any, ...], Group] = {}
    for m in fighters(state, uid, enemy):
        skill = int(m.data["melee"])
        if routed:
            skill = math.floor(skill * float(p["routed_melee_factor"]))
        w = m.data["melee_weapon"]
        tn = skill + bonus
        k = (tn, w["damage"], w["pen"])
        g = groups.get(k) or Group(w["name"], tn, 0, int(w["damage"]), int(w["pen"]), 0, 0)
        groups[k] = replace(g, n=g.n + int(m.data["attacks"]), models=g.models + 1)
    return [g for g in groups.values() if g.n > 0]


# ------------------------------------------------------------------------------------------- attacks
def d10s(state: State, n: int, label: str, model: str | None) -> DiceSpec:
    """``n`` dice of the game's die (param ``die_sides``)."""
    return DiceSpec(n, int(state.ctx.params["die_sides"]), label, model)


@dataclass(frozen=True, slots=True)
class Attack(TTAuto):
    """The groups of an attack by ``unit`` on ``target`` still to roll; ``tally`` is the vars key counting its
    casualties, ``cap`` the casualty cap (visible models) if any."""

    kind = "attack"
    unit: str
    target: str
    groups: tuple[Group, ...]
    melee: bool
    tally: str
    cap: int | None
    cover_from: str | None

    def run(self, state: State, events: list[Event]) -> None:
        """Roll the next group; with several groups left (ranged), the attacking player picks the order."""
        if not members(state, self.target):
            return
        if len(self.groups) > 1 and not self.melee:
            push(state, Order(self))
            return
        run_group(state, self, 0, Attack)


@dataclass(frozen=True, slots=True)
class Order(TTChoice):
    """The attacking player picks which group of a ranged attack is rolled next."""

    kind = "order"
    attack: Attack

    def subject(self) -> str | None:
        return self.attack.unit

    def options(self, state: State) -> list[Action]:
        return [Action("group", self.attack.unit, option=group_label(g)) for g in self.attack.groups]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        labels = [group_label(g) for g in self.attack.groups]
        run_group(state, self.attack, labels.index(str(action.option)), Order)


def group_label(g: Group) -> str:
    return f"{g.weapon} tn{g.tn} x{g.n}"


def push_attack(
    state: State,
    uid: str,
    tuid: str,
    groups: list[Group],
    melee: bool,
    tally: str,
    cap: int | None,
    cover_from: str | None,
) -> None:
    """Queue the groups of an attack by ``uid`` on ``tuid``; ``tally`` is the vars key counting casualties."""
    if groups:
        push(state, Attack(uid, tuid, tuple(groups), melee, tally, cap, cover_from))


def run_group(state: State, attack: Attack, i: int, again: type[Attack] | type[Order]) -> None:
    """Roll group ``i`` of ``attack`` now; the rest wait under it (``again``: as an Attack or an Order)."""
    g = attack.groups[i]
    rest = attack.groups[:i] + attack.groups[i + 1 :]
    if rest:
        left = replace(attack, groups=rest)
        # one group left: nothing to order, it is simply rolled next
        push(state, left if again is Attack or len(rest) == 1 else Order(left))
    push(state, Hits(attack.unit, attack.target, g, attack.melee, attack.tally, attack.cap, attack.cover_from))


@dataclass(frozen=True, slots=True)
class Hits(TTChance):
    """The hit rolls of one group."""

    kind = "hits"
    unit: str
    target: str
    group: Group
    melee: bool
    tally: str
    cap: int | None
    cover_from: str | None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.group.n, f"hit rolls {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        resolve_hits(state, self, values, events)


def resolve_hits(state: State, step: Hits, values: tuple[int, ...], events: list[Event]) -> None:
    """Hits: each die at or under the modified target hits (seed 002, Make Hit Rolls); Blast(X) multiplies."""
    g = step.group
    hits = sum(1 for v in values if succeeds(state.ctx.params, v, g.tn))
    events.append(DiceRolled(f"{g.weapon} hit rolls (need {g.tn} or less)", values, f"{hits} hit(s)", step.unit))
    if g.blast > 1:
        hits = min(hits * g.blast, max(hits, len(members(state, step.target))))
    if not step.melee:
        shot = state.vars.get("shot") or {}
        state.vars["shot"] = {
            **shot,
            "hits": shot.get("hits", 0) + hits,
            "pen_hits": shot.get("pen_hits", 0) + (hits if g.pen > 0 else 0),
        }
    if hits == 0:
        return
    tuid = step.target
    if len({int(m.data["sv"]) for m in members(state, tuid)}) > 1:
        push_model_saves(state, step, hits)
        return
    tn = save_target(state, tuid, g.pen, step)
    push(state, Saves(step.unit, tuid, hits, g, tn, step.tally, step.cap))


@dataclass(frozen=True, slots=True)
class SaveMods(Record):
    """What modifies each model's own save when the models of the target have different SVs: the Pen of the
    attack and the target's Cover."""

    pen: int
    cover: int


def push_model_saves(state: State, step: Hits, hits: int) -> None:
    """A unit whose models have different SVs: each hit goes to a model the defender picks (leader last), and
    that model's own save is rolled for it (seed 002, Saves: 'the target number for the save is equal to the
    models save (SV) characteristic'; Piercing: Pen comes off 'each Model's SV'; Removing Casualties: the
    defender chooses)."""
    g = step.group
    tuid = step.target
    save = SaveMods(g.pen, save_cover(state, tuid, step))
    push(state, Damage(tuid, (g.damage,) * hits, step.tally, step.cap, save))


def save_cover(state: State, tuid: str, step: Hits) -> int:
    """Cover for ranged attacks (prone in cover: +1 Cover); none in melee (seed 002, Saves; Go Prone)."""
    if step.melee:
        return 0
    shooters_left = members(state, step.unit)
    shooter = leader_of(state, step.unit) or (shooters_left[0] if shooters_left else None)
    cover = unit_cover(state, tuid, shooter)
    if cover > 0 and ustate(state, tuid)["prone"]:
        cover += int(state.ctx.params["prone_cover_bonus"])
    return cover


def save_target(state: State, tuid: str, pen: int, step: Hits) -> int:
    """SV minus Pen, plus Cover (:func:`save_cover`) (seed 002, Saves); the models of the unit share one SV here
    (else :func:`push_model_saves`)."""
    ms = members(state, tuid)
    sv = int(ms[0].data["sv"]) if ms else 0
    return sv - pen + save_cover(state, tuid, step)


@dataclass(frozen=True, slots=True)
class Saves(TTChance):
    """The saves of a group's hits at the unit's shared target number: ``hits`` x damage dice."""

    kind = "saves"
    unit: str
    target: str
    hits: int
    group: Group
    tn: int
    tally: str
    cap: int | None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.hits * self.group.damage, f"saves {self.target}", self.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Each failure is 1 damage of that attack (seed 002, Saves)."""
        dmg = self.group.damage
        per_attack = []
        for i in range(self.hits):
            chunk = values[i * dmg : (i + 1) * dmg]
            per_attack.append(sum(1 for v in chunk if not succeeds(state.ctx.params, v, self.tn)))
        failed = sum(per_attack)
        events.append(DiceRolled(f"saves (need {self.tn} or less)", values, f"{failed} failed", self.target))
        todo = tuple(d for d in per_attack if d > 0)
        if todo:
            push(state, Damage(self.target, todo, self.tally, self.cap))


@dataclass(frozen=True, slots=True)
class Damage(TTAuto):
    """Unsaved attacks on ``target``, their damage in ``todo`` (one entry per attack), each to go to a model the
    defender picks; with ``save`` the model's own save is still to roll for each (different SVs)."""

    kind = "damage"
    target: str
    todo: tuple[int, ...]
    tally: str
    cap: int | None
    save: SaveMods | None = None

    def run(self, state: State, events: list[Event]) -> None:
        opts = damage_options(state, self)
        if not opts:
            return
        if len(opts) == 1:
            take_attack(state, self, str(opts[0].model), events)
        else:
            push(state, Wound(self))


@dataclass(frozen=True, slots=True)
class Wound(TTChoice):
    """The defender picks the model that takes the next attack of ``damage``."""

    kind = "wound"
    damage: Damage

    def player(self, state: State) -> int:
        return side_of(state, self.damage.target)

    def options(self, state: State) -> list[Action]:
        return damage_options(state, self.damage)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        take_attack(state, self.damage, str(action.model), events)


def damage_options(state: State, step: Damage) -> list[Action]:
    """The defender picks the model that takes the next attack's damage (seed 002, Removing Casualties: the
    defending player chooses; unit leaders are removed last if possible). A model designated leader after the
    leader's death leads for coherency only (seed 002, Unit Coherency): it is not kept for last."""
    tuid = step.target
    ms = members(state, tuid)
    lead = None if ustate(state, tuid).get("leaderless") else leader_of(state, tuid)
    pool = [m for m in ms if lead is None or m.id != lead.id] or ms
    hurt = [m for m in pool if m.token("damage") > 0]
    return [Action("wound", m.id) for m in (hurt + [m for m in pool if m not in hurt])]


def take_attack(state: State, step: Damage, mid: str, events: list[Event]) -> None:
    """The next attack goes to model ``mid``: its damage at once when the saves were rolled for the unit, else
    first the model's own save (:class:`ModelSave`, :func:`push_model_saves`)."""
    if step.save is None:
        apply_damage(state, step, mid, events)
        return
    m = state.models[mid]
    tn = int(m.data["sv"]) - step.save.pen + step.save.cover
    push(state, ModelSave(step, mid, tn, step.todo[0]))


@dataclass(frozen=True, slots=True)
class ModelSave(TTChance):
    """One attack's ``n`` save dice at the chosen ``model``'s own target number ``tn``."""

    kind = "msave"
    damage: Damage
    model: str
    tn: int
    n: int

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.n, f"saves {self.model}", self.damage.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Each failure is 1 damage to the model (seed 002, Saves)."""
        failed = sum(1 for v in values if not succeeds(state.ctx.params, v, self.tn))
        target = self.damage.target
        events.append(DiceRolled(f"{self.model} saves (need {self.tn} or less)", values, f"{failed} failed", target))
        todo = self.damage.todo
        if failed > 0:
            apply_damage(state, replace(self.damage, todo=(failed, *todo[1:])), self.model, events)
        elif len(todo) > 1 and members(state, target):
            push(state, replace(self.damage, todo=todo[1:]))


def apply_damage(state: State, step: Damage, mid: str, events: list[Event]) -> None:
    """One attack's damage goes to one model; what a dead model cannot take falls off (seed 002, Saves: damage
    never carries over). The casualty cap (visible models) stops further removals (seed 002)."""
    m = state.models[mid]
    dmg, todo = step.todo[0], step.todo[1:]
    left = int(m.data["hp"]) - m.token("damage")
    take = min(dmg, left)
    tally = state.vars.get(step.tally) or {}
    kills = int(tally.get("kills", 0))
    if take >= left:
        remove(state, m, "casualty", events)
        kills += 1
        state.vars[step.tally] = {**tally, "kills": kills}
    else:
        m.tokens = {**m.tokens, "damage": m.token("damage") + take}
        events.append(TokensChanged(m.id, "damage", take, m.token("damage")))
    capped = step.cap is not None and kills >= step.cap
    if capped and todo:
        events.append(Note(f"casualty cap reached: no more than {step.cap} visible models", f"{R}/shoot/cap"))
    if todo and not capped and members(state, step.target):
        push(state, replace(step, todo=todo))


def credit_kills(state: State, uid: str, kills: int) -> None:
    """Count ``kills`` enemy models removed by unit ``uid``'s attack in ``state.vars["unit_kills"]`` (what the
    lab's per-model statistics read: the result shares a unit's count out over its models)."""
    if kills > 0:
        tally = dict(state.vars.get("unit_kills") or {})
        tally[uid] = int(tally.get(uid, 0)) + kills
        state.vars["unit_kills"] = tally


def remove(state: State, m: Model, reason: str, events: list[Event]) -> None:
    m.on_table = False
    m.flags = {**m.flags, "dead": True}
    events.append(Removed(m.id, reason))


# ------------------------------------------------------------------------------------------- pins and Leadership
def add_pins(state: State, uid: str, n: int, events: list[Event]) -> None:
    """Pins (digest §3.7): capped; a unit with pins at least its unmodified Leadership is Routed; a pinned unit
    goes prone (param ``pin_forces_prone``; a VEHICLE too unless ``vehicle_never_prone``)."""
    p = state.ctx.params
    if n <= 0 or not members(state, uid):
        return
    u = ustate(state, uid)
    pins = min(int(p["pin_cap"]), u["pins"] + n)
    set_unit(state, uid, pins=pins)
    events.append(TokensChanged(uid, "pin", pins - u["pins"], pins))
    never = is_vehicle(state, uid) and p["vehicle_never_prone"]
    if p["pin_forces_prone"] and not never and not u["prone"]:
        set_unit(state, uid, prone=True, prone_by_pin=True)
        events.append(StatusChanged(uid, "prone (pinned)", True))
    if pins >= leadership_base(state, uid) and not is_vehicle(state, uid):
        rout(state, uid, events)


def leadership_base(state: State, uid: str) -> int:
    ms = members(state, uid)
    lead = leader_of(state, uid) or (ms[0] if ms else None)
    return int(lead.data["leadership"]) if lead else 0


def leadership_target(state: State, uid: str, extra: int) -> int:
    """Leadership minus 1 per pin, minus the leaderless penalty, minus ``extra`` (digest §3.7)."""
    p = state.ctx.params
    u = ustate(state, uid)
    tn = leadership_base(state, uid) - int(p["pin_leadership_mod"]) * int(u["pins"]) - extra
    if u.get("leaderless"):
        tn -= int(p["leaderless_mod"])
    return tn


def push_leadership(state: State, uid: str, why: str, extra: int, flee_from: str | None = None) -> None:
    """A Leadership check; ``flee_from``: the unit that won the Fight this check is for (a fail then flees)."""
    push(state, Leadership(uid, why, leadership_target(state, uid, extra), flee_from or None))


@dataclass(frozen=True, slots=True)
class Leadership(TTChance):
    """A Leadership check of ``unit`` (``why``: its cause) at ``tn`` or less; ``flee_from``: the unit that won
    the Fight this check is for."""

    kind = "ld"
    unit: str
    why: str
    tn: int
    flee_from: str | None = None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, 1, f"ld {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Failed: a VEHICLE is Shaken (digest §3.10), any other unit Routed (and flees a lost Fight)."""
        uid = self.unit
        ok = succeeds(state.ctx.params, values[0], self.tn)
        events.append(
            DiceRolled(
                f"{self.why} Leadership check (need {self.tn} or less)", values, "passed" if ok else "failed", uid
            )
        )
        if not ok and members(state, uid):
            if is_vehicle(state, uid):
                set_unit(state, uid, shaken=int(state.ctx.params["vehicle_shaken_actions"]))
                events.append(StatusChanged(uid, "Shaken", True))
            else:
                rout(state, uid, events)
                flee_after_fight(state, self, events)


def flee_after_fight(state: State, step: Leadership, events: list[Event]) -> None:
    """Digest §3.9: the loser of a Fight that fails its Leadership is Routed and makes a full Move away (param
    ``fight_loss_flee``: 'away' from the winner, to its own 'edge', or 'none'); seed 002 has the winner Shift
    first, so the flee comes after the Shift."""
    mode = str(state.ctx.params["fight_loss_flee"])
    if not step.flee_from or mode == "none":
        return
    push(state, Flee(step.unit, step.flee_from if mode == "away" else None))


@dataclass(frozen=True, slots=True)
class Flee(TTAuto):
    """A flee Move (``space.plan_flee``): after a failed Rally toward the unit's own table edge (digest §3.7);
    with ``away`` (the Fight it lost, digest §3.9: 'makes a full Move away') straight away from that unit's
    models, else toward its own edge too. Models that reach the edge leave the table and are destroyed."""

    kind = "flee"
    unit: str
    away: str | None = None

    def run(self, state: State, events: list[Event]) -> None:
        uid = self.unit
        if not members(state, uid):
            return
        placed, leaving = plan_flee(state, uid, move_allow(state, uid), flee_goals(state, uid, self.away))
        events.append(Note(f"{uid} flees", f"{R}/routed/flee"))
        for mid in leaving:
            remove(state, state.models[mid], "fled off the table", events)
        place_unit(state, placed, events)
        casualty_checks(state, uid, events)


def rout(state: State, uid: str, events: list[Event]) -> None:
    """Routed, and treated as pinned (seed 002, Resolving the Fight Action)."""
    u = ustate(state, uid)
    if u["routed"]:
        return
    set_unit(state, uid, routed=True, overwatch=False, pins=max(1, u["pins"]))
    events.append(StatusChanged(uid, "Routed", True))


def casualty_checks(state: State, uid: str, events: list[Event]) -> None:
    """After casualties: loss of the leader (a new coherency leader, seed 002, Unit Coherency; the LOSS OF
    LEADER test, digest §3.7) and the first drop to half strength (digest §3.7)."""
    p = state.ctx.params
    ms = members(state, uid)
    if not ms:
        return
    u = ustate(state, uid)
    if u["leader"] is not None and not state.models[u["leader"]].on_table:
        set_unit(state, uid, leaderless=True)
        events.append(Note(f"{uid} lost its leader", f"{R}/coherency/loss-of-leader"))
        push_leadership(state, uid, "loss of leader", int(p["loss_of_leader_mod"]))
        if len(ms) == 1:
            set_unit(state, uid, leader=ms[0].id)
        else:
            set_unit(state, uid, leader=None)
            push(state, NewLeader(uid))
    if p["half_strength_test"] and not u["half_tested"] and len(ms) * 2 <= u["start"] and u["start"] > 1:
        set_unit(state, uid, half_tested=True)
        push_leadership(state, uid, "half strength", 0)


@dataclass(frozen=True, slots=True)
class Checks(TTAuto):
    """The casualty checks of ``unit`` (:func:`casualty_checks`), after a Fight."""

    kind = "checks"
    unit: str

    def run(self, state: State, events: list[Event]) -> None:
        casualty_checks(state, self.unit, events)


@dataclass(frozen=True, slots=True)
class NewLeader(TTChoice):
    """The unit that lost its leader picks a new coherency leader (seed 002, Unit Coherency)."""

    kind = "leader"
    about = "unit"
    unit: str

    def options(self, state: State) -> list[Action]:
        return [Action("lead", m.id) for m in members(state, self.unit)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        set_unit(state, self.unit, leader=str(action.model))
        events.append(Note(f"{action.model} is now {self.unit}'s coherency leader", f"{R}/coherency/new-leader"))


def strongest_size(state: State, uid: str) -> int:
    return max((size_rank(m) for m in members(state, uid)), default=0)


#: The step kinds declared here, for the ruleset's table of kinds.
STEPS = (Attack, Order, Hits, Saves, Damage, Wound, ModelSave, Leadership, Flee, Checks, NewLeader)
