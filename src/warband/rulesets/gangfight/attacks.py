"""Attacks: Fight! (and Power Attack, Finesse Attack, Slam!), Reload and Fire!, Areas of Effect, and one attack's
dice from the attack roll to the wounds, knocking over and removal.

Seed 004, Standard Actions: Fight! (the model moves up to its threat range into base contact, then attacks; if it
cannot reach it simply moves its threat range) and Reload/Fire! (no firing in close combat or without a Reload
first; modern weapons need no loading); Special Actions: Power Attack, Finesse Attack, Slam! ("detailed in the
Combat chapter": digest B2, PROPOSED); Interrupts: Dodge (an IV test at TN = the attacker's successes, each
success added to the armour roll). Digest B1 Melee: ATT dice at TN = the target's DEF, each hit wounds by size,
ARM dice at TN = the attacker's DAM negate wounds, EN 0 is incapacitated. Digest B2: Fire!, knocked over, AoE.
Design: ``docs/design/gangfight-steps.md`` §3, §3.1, §3.2, §6.

A Fight! or Fire! is declared in :mod:`.actions` (its interrupt window in :mod:`.interrupts`); the free Fight!
after a charge is in :mod:`.charge`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, Removed, StatusChanged, TokensChanged
from warband.kernel.geometry.distance import Vec
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push, replace_top
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import (
    GFAuto,
    GFChance,
    R,
    State,
    count,
    declared,
    en,
    enemy_target,
    in_close_combat,
    in_cover,
    incap,
    knocked,
    loaded,
    melee_weapon,
    move_away,
    pfloat,
    pint,
    pool,
    ranged_weapon,
    route_toward,
    rules_of,
    set_loaded,
    size,
    spend_use,
    standing,
    stat,
    threat,
    uses_left,
    visible,
    within_threat,
)
from warband.rulesets.gangfight.morale import hero_fell


# ------------------------------------------------------------------------------------------- what an attack needs
def check_fight(state: State, m: Model, a: Action) -> list[Reason]:
    """Fight!, Power Attack, Finesse Attack, Slam!: declared at any enemy model on the table (seed 004, Fight!: the
    model then moves up to its threat range toward base contact, and simply moves its threat range when it cannot
    reach, so the target need not be within reach when declared); Slam! only by a Large or Huge model against its
    size or larger, or to trample a smaller one (seed 004, Slam!)."""
    t, bad = enemy_target(state, a, "fight")
    if t is None:
        return bad
    if a.kind == "slam" and gd.slam_kind(size(m), size(t)) is None:
        return [(f"{R}/slam/size", "only a Large or Huge model may Slam!")]
    return []


def check_reload(state: State, m: Model, a: Action) -> list[Reason]:
    """Reload (seed 004, Reload/Fire!): an archaic weapon the model carries, not loaded, not used up."""
    w = ranged_weapon(m, a.option)
    if w is None:
        return [(f"{R}/reload/weapon", f"{m.id} has no ranged weapon {a.option!r}")]
    if not w["reload"]:
        return [(f"{R}/reload/needless", f"{w['name']} needs no loading")]
    if loaded(m, w):
        return [(f"{R}/reload/loaded", f"{w['name']} is already loaded")]
    if uses_left(m, w) <= 0:
        return [(f"{R}/fire/used", f"{w['name']} is used up")]
    return []


def check_fire(state: State, m: Model, a: Action) -> list[Reason]:
    """Fire!: a ranged weapon the model carries at an enemy model, as :func:`fire_reasons` says."""
    w = ranged_weapon(m, a.option)
    if w is None:
        return [(f"{R}/fire/weapon", f"{m.id} has no ranged weapon {a.option!r}")]
    t, bad = enemy_target(state, a, "fire")
    if t is None:
        return bad
    return fire_reasons(state, m, t, w)


def fire_reasons(state: State, m: Model, t: Model, w: dict[str, Any]) -> list[Reason]:
    """Whether ``m`` may fire ``w`` at ``t`` (seed 004, Reload/Fire!; also the Fire! interrupt and On my Mark!):
    not used up, loaded, not in close combat, the target in range and line of sight."""
    out: list[Reason] = []
    if uses_left(m, w) <= 0:
        out.append((f"{R}/fire/used", f"{w['name']} is used up"))
    if not loaded(m, w):
        out.append((f"{R}/fire/loaded", f"{w['name']} must be loaded by a Reload action first"))
    if in_close_combat(state, m):
        out.append((f"{R}/fire/close-combat", f"{m.id} is in close combat and cannot fire"))
    if gap(m, t) > float(w["range"]) + 1e-9:
        out.append((f"{R}/fire/range", f"{t.id} is beyond {w['name']}'s {w['range']:g}\""))
    elif not visible(state, m, t):
        out.append((f"{R}/fire/visible", f"{t.id} is not in line of sight of {m.id}"))
    return out


def under_blast(state: State, centre: Vec) -> list[Model]:
    """Models whose base a blast of ``aoe_diameter`` centred on ``centre`` touches, friends included."""
    r = pfloat(state, "aoe_diameter") / 2
    return [
        x
        for x in state.models.values()
        if standing(x) and math.hypot(x.x - centre[0], x.y - centre[1]) - x.radius <= r + 1e-9
    ]


# ------------------------------------------------------------------------------------------- Fight! and Fire!
@values.value
class FightGo(GFAuto, kind="fight-go"):
    """Fight! (and Power, Finesse, Slam!) after the interrupt window: the threat-range move, the model moving up to
    its threat range into base contact, then the attack (seed 004, Fight!)."""

    model: str
    target: str
    how: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if not standing(m) or not standing(t):
            return
        if gap(m, t) > 0.01:  # toward base contact, at most the threat range (all of it when it cannot reach)
            route_toward(state, m, t, max(0.0, threat(state, m)), events)
        if within_threat(state, m, t):
            start_melee(state, m, t, self.how, events)
        else:
            events.append(Note(f"{m.id} moves its threat range and cannot reach {t.id}", f"{R}/fight/short"))


@values.value
class FireGo(GFAuto, kind="fire-go"):
    """Fire! after the interrupt window: the attack (the shooter fires unless it is off the table)."""

    model: str
    target: str
    weapon: str
    mrk: int
    dam: int

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        w = ranged_weapon(m, self.weapon)
        if w is None or not standing(m) or not standing(t):
            return
        if w.get("area"):
            start_area(state, m, t, w, events)
            return
        start_ranged(state, m, t, w, self.mrk, self.dam, events)


def defence(state: State, t: Model, ranged: bool) -> int:
    """The TN to hit ``t``: its DEF, +1 with Bulwark against this action (seed 004, Bulwark), -1 knocked over and
    +1 in cover against a ranged attack (digest B2, PROPOSED)."""
    d = stat(t, "DEF")
    if t.flags.get("bulwark") == state.vars["seq"]:
        d = gd.bulwark(d, state.ctx.params)
    if knocked(t):
        d += pint(state, "knocked_over_def")
    if ranged and in_cover(state, t):
        d += pint(state, "cover_def")
    return d


def start_melee(
    state: State, m: Model, t: Model, how: str, events: list[Event], free: bool = False, bonus: tuple[int, int] = (0, 0)
) -> None:
    """One melee attack: ATT (+ weapon) dice at TN = the target's DEF; each hit wounds by size; ARM at TN = DAM
    (digest B1 Melee)."""
    w = melee_weapon(m)
    att = stat(m, "ATT") + int(w["att"])
    dam = stat(m, "DAM") + int(w["dam"])
    tn = defence(state, t, False)
    att, dam = att + bonus[0], dam + bonus[1]
    if how == "power":
        att += pint(state, "power_attack_att")
        dam += pint(state, "power_attack_dam")
    elif how == "finesse":
        tn += pint(state, "finesse_attack_def")
        dam += pint(state, "finesse_attack_dam")
    wpr = gd.wounds_per_melee_hit(size(m), state.ctx.params)
    if how == "slam":
        att = stat(m, "ATT")
        wpr = 0
    pt = pool(state, att, tn)
    if pt.dice <= 0:
        events.append(Note(f"{m.id} has no dice to attack {t.id} with", f"{R}/combat/no-dice"))
        return
    push(state, AttackRoll(m.id, t.id, pt.dice, pt.tn, wpr, dam, how, bool(w.get("knockdown"))))


def discharge(m: Model, w: dict[str, Any]) -> None:
    """Firing unloads an archaic weapon and spends a one-use item (seed 004, Reload/Fire!)."""
    if w["reload"]:
        set_loaded(m, w["name"], False)
    spend_use(m, w)


def start_ranged(state: State, m: Model, t: Model, w: dict[str, Any], mrk: int, dam: int, events: list[Event]) -> None:
    """One ranged attack: MRK (+ weapon) dice at TN = DEF (+1 in cover), one wound a hit, ARM at TN = the weapon's
    DAM (digest B2 Fire!). An archaic weapon is unloaded; a one-use item is spent."""
    discharge(m, w)
    pt = pool(state, stat(m, "MRK") + int(w["mrk"]) + mrk, defence(state, t, True))
    if pt.dice <= 0:
        events.append(Note(f"{m.id} has no dice to fire with", f"{R}/combat/no-dice"))
        return
    push(state, AttackRoll(m.id, t.id, pt.dice, pt.tn, 1, int(w["dam"]) + dam, "ranged", False))


def start_area(state: State, m: Model, t: Model, w: dict[str, Any], events: list[Event]) -> None:
    """An Area of Effect (digest B2, PROPOSED): every model under the blast centred on the target is attacked
    separately, in model-id order (friends too)."""
    discharge(m, w)
    for x in reversed(under_blast(state, t.pos)):
        pt = pool(state, stat(m, "MRK") + int(w["mrk"]), defence(state, x, True))
        if pt.dice > 0:
            push(state, AttackRoll(m.id, x.id, pt.dice, pt.tn, 1, int(w["dam"]), "area", False))


# ------------------------------------------------------------------------------------------- one attack's dice
@values.value
class AttackRoll(GFChance, kind="attack"):
    """The attack dice: successes are hits (a natural 1 fails; TN floor 2; TN above 6 drops dice)."""

    attacker: str
    target: str
    n: int
    tn: int
    wounds_per_hit: int
    dam: int
    how: str
    knockdown: bool

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"{self.how} attack at {self.tn}+", self.attacker)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        t = state.models[self.target]
        hits = count(state, values, self.tn)
        events.append(DiceRolled(f"{self.how} attack at {self.tn}+", values, f"{hits} hits", self.attacker))
        if self.how == "slam":
            if hits > 0 and standing(t):
                knock_over(state, t, events)
                a = state.models[self.attacker]
                move_away(state, t, a, hits * pfloat(state, "slam_push_per_success"), events)
            return
        crits = gd.criticals(values, self.tn, rules_of(state))
        wounds = hits * self.wounds_per_hit + crits * pint(state, "critical_extra_wounds")
        knock = self.knockdown and any(v == pint(state, "knockdown_face") for v in values)
        if wounds <= 0:
            if knock and standing(t):
                knock_over(state, t, events)
            return
        save_wounds(state, t, gd.armour_pool(stat(t, "ARM"), self.dam, state.ctx.params), wounds, knock)
        if self.how == "area" and t.id in declared(state, "dodge"):
            # Dodge (seed 004): an IV test at TN = the attacker's successes; each success joins the armour roll
            dp = gd.dodge_pool(stat(t, "IV"), hits, state.ctx.params)
            if dp.dice > 0:
                push(state, DodgeRoll(t.id, dp.dice, dp.tn))


def save_wounds(state: State, t: Model, pt: gd.PoolTest, wounds: int, knock: bool) -> None:
    """``wounds`` on ``t`` go to its armour roll ``pt`` (each success negates one, digest B1 Melee), or straight on
    when it rolls no armour dice."""
    if pt.dice > 0:
        push(state, ArmourRoll(t.id, pt.dice, pt.tn, wounds, knock, 0))
    else:
        push(state, Soak(t.id, wounds, knock, 0))


@values.value
class ArmourRoll(GFChance, kind="armour"):
    """The target's ARM dice at TN = the attacker's DAM; each success negates a wound (digest B1 Melee)."""

    target: str
    n: int
    tn: int
    wounds: int
    knock: bool
    dodge: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"armour at {self.tn}+", self.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        t = state.models[self.target]
        saved = count(state, values, self.tn)
        left = gd.wounds_after_armour(self.wounds, saved, self.dodge)
        extra = f" (+{self.dodge} dodged)" if self.dodge else ""
        events.append(DiceRolled(f"armour at {self.tn}+", values, f"{saved} saved{extra}, {left} wounds", t.id))
        take_wounds(state, t, left, self.knock, events)


@values.value
class Soak(GFAuto, kind="soak"):
    """Wounds on a model that rolls no armour dice (ARM 0), less any Dodge successes."""

    target: str
    wounds: int
    knock: bool
    dodge: int

    def run(self, state: State, events: list[Event]) -> None:
        t = state.models[self.target]
        take_wounds(state, t, gd.wounds_after_armour(self.wounds, 0, self.dodge), self.knock, events)


@values.value
class DodgeRoll(GFChance, kind="dodge"):
    """Dodge (seed 004): IV dice at TN = the Area of Effect attacker's successes against this model; the successes
    are added to the armour roll stored beneath."""

    model: str
    n: int
    tn: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"dodge at {self.tn}+", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        s = count(state, values, self.tn)
        events.append(DiceRolled(f"dodge at {self.tn}+", values, f"{s} successes soak wounds", self.model))
        below = state.stack[-1]
        if isinstance(below, ArmourRoll | Soak):
            replace_top(state, replace(below, dodge=s))


def take_wounds(state: State, t: Model, wounds: int, knock: bool, events: list[Event]) -> None:
    """Wounds come off EN; at EN 0 the model is incapacitated but stays until the exchange ends (digest B1 Melee,
    seed 004 Counter-Charge and Fight!: it still gets its attacks)."""
    if wounds > 0:
        t.tokens["en"] = en(t) - wounds
        events.append(TokensChanged(t.id, "EN", -wounds, en(t)))
        if gd.is_incapacitated(en(t)) and not incap(t):
            t.flags["incap"] = True
            events.append(StatusChanged(t.id, "incapacitated", True))
    if knock and standing(t):
        knock_over(state, t, events)


def knock_over(state: State, t: Model, events: list[Event]) -> None:
    """The model is knocked over: it must Stand Up, has -1 DEF and no threat range (digest B2, PROPOSED)."""
    if not knocked(t):
        t.flags["knocked"] = True
        events.append(StatusChanged(t.id, "knocked over", True))


def remove_incapacitated(state: State, events: list[Event]) -> bool:
    """The exchange is over: incapacitated models leave the table; a Hero's fall makes its party test Bravery
    next turn (digest B1 Fear)."""
    gone = [m for m in state.models.values() if m.on_table and incap(m)]
    for m in gone:
        m.on_table = False
        m.flags["out"] = True
        lost = list(state.vars["lost"])
        lost[m.side] += 1
        state.vars["lost"] = lost
        killed = list(state.vars["killed"])
        killed[1 - m.side] += int(m.data["points"])
        state.vars["killed"] = killed
        hero_fell(state, m)
        events.append(Removed(m.id, "incapacitated"))
        if state.vars.get("active_model") == m.id:
            state.vars["active_model"] = None
    return bool(gone)
