"""Fight (seed 002: Fight, The Fight Process, Resolving the Fight Action; digest §3.7, §3.9 for the PROPOSED
numbers): which models fight, their attack groups, the Fight as steps (Priority, simultaneous attacks), the result
(more casualties wins; the winner may Shift; the loser tests Leadership) and the pins of a draw."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.attacks import Group, credit_kills, push_attack
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, ustate
from warband.rulesets.trenches_and_turbines.morale import Checks, push_leadership
from warband.rulesets.trenches_and_turbines.movement import push_shift
from warband.rulesets.trenches_and_turbines.pins import add_pins
from warband.rulesets.trenches_and_turbines.units import in_contact, members


def fight_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Why the active unit may not Fight ``a.target``: it must be engaged with it (seed 002, Fight)."""
    if a.target not in eng:
        return [(f"{R}/fight/engaged", f"{uid} is not engaged (in base-to-base contact) with {a.target}")]
    return []


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


@values.value
class FightGo(TTAuto, kind="fight-go"):
    """The Fight Process (seed 002): a running charger with Priority resolves all its attacks first; otherwise
    both units fight simultaneously (every fighter's attacks are fixed before casualties are removed);
    ``bonus``: the attacker's hit bonus (a running charge)."""

    attacker: str
    defender: str
    priority: bool
    bonus: int

    def run(self, state: State, events: list[Event]) -> None:
        att, dfn = self.attacker, self.defender
        state.vars["fight_a"] = {"kills": 0}
        state.vars["fight_d"] = {"kills": 0}
        push(state, FightEnd(att, dfn))
        a_groups = melee_groups(state, att, dfn, self.bonus)
        if self.priority:
            push(state, StrikeBack(att, dfn))
        else:
            push_defender_attacks(state, dfn, att)
        push_attack(state, att, dfn, a_groups, True, "fight_a", None, None)


@values.value
class StrikeBack(TTAuto, kind="strike-back"):
    """The defender's attacks after a charger with Priority struck first (if both units still stand)."""

    attacker: str
    defender: str

    def run(self, state: State, events: list[Event]) -> None:
        dfn, att = self.defender, self.attacker
        if members(state, dfn) and members(state, att):
            push_defender_attacks(state, dfn, att)


def push_defender_attacks(state: State, defender: str, attacker: str) -> None:
    """Queue the attacks of the unit fought, ``defender``, on ``attacker`` (no hit bonus; its casualties count in
    ``fight_d``)."""
    push_attack(state, defender, attacker, melee_groups(state, defender, attacker, 0), True, "fight_d", None, None)


@values.value
class FightEnd(TTAuto, kind="fight-end"):
    """Resolving the Fight (seed 002): more casualties wins; the winner may Shift; the loser tests Leadership
    (fail: Routed and pinned). A draw: both may Shift, then both are pinned."""

    attacker: str
    defender: str

    def run(self, state: State, events: list[Event]) -> None:
        p = state.ctx.params
        att, dfn = self.attacker, self.defender
        ka = int(state.vars["fight_a"]["kills"])
        kd = int(state.vars["fight_d"]["kills"])
        credit_kills(state, att, ka)
        credit_kills(state, dfn, kd)
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
            push_leadership(state, lose, "lost the fight", extra, flee_from=win)
        if members(state, win):
            push_shift(state, win, free=True)


@values.value
class DrawPins(TTAuto, kind="draw-pins"):
    """Both ``units`` of a drawn Fight are pinned (seed 002, Resolving the Fight Action)."""

    units: tuple[str, ...]

    def run(self, state: State, events: list[Event]) -> None:
        for u in self.units:
            events.append(Note(f"{u} is pinned after a drawn fight", f"{R}/fight/draw"))
            add_pins(state, u, 1, events)
