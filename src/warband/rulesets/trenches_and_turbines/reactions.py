"""Reactions and Overwatch (seed 002: Overwatch; Reactions in the Action Phase; How to perform a reaction; digest
§3.8): who may react, the reaction offered to the target of a Shoot (Go Prone) or a Charge (a Shoot, a profile's
charge reaction such as ``brace``), its consequences (the activation card flipped, the Overwatch token kept or
lost), going on Overwatch and discarding unused tokens in the End phase."""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, Event, Note, StatusChanged
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTChoice, set_unit, side_of, ustate
from warband.rulesets.trenches_and_turbines.prone import go_prone
from warband.rulesets.trenches_and_turbines.shooting import (
    can_shoot,
    prior_actions,
    shoot_eligibility,
    shoot_now,
    unit_weapons,
)
from warband.rulesets.trenches_and_turbines.units import active, engaged_units, is_vehicle, members


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


@values.value
class React(TTChoice, kind="react", about="unit"):
    """The target ``unit`` of a Shoot or a Charge (``trigger``) by ``attacker`` may react (seed 002, How to
    perform a reaction): the NON-active side decides."""

    unit: str
    attacker: str
    trigger: str

    def options(self, state: State) -> list[Action]:
        uid = self.unit
        out: list[Action] = []
        if self.trigger == "charge":
            shoot_ok = not shoot_eligibility(state, uid)
            for w in unit_weapons(state, uid) if shoot_ok else []:
                if can_shoot(state, uid, self.attacker, w, True):
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
    """The target ``tuid`` of a Shoot or a Charge (``trigger``) may react now, if it is eligible (:func:`can_react`)
    and has a reaction to make besides passing."""
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
        go_prone(state, uid, events)
    elif opt == "brace":
        state.vars["brace"] = uid
        events.append(Note(f"{uid} braces: the charger loses Priority", f"{R}/reaction/special"))
    elif opt.startswith("shoot:"):
        # a reaction Shoot is a Shoot action: it takes the penalty of the actions before it this turn, and it
        # counts for the next one (seed 002, Shooting Notes)
        state.vars["prior"] = prior_actions(state, uid)
        spend(state, uid, "shoot", 0)  # not the active unit: it counts for its later Shoots only
        shoot_now(state, uid, step.attacker, opt[len("shoot:") :], True, events)
        state.vars["prior"] = 0


def overwatch_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Overwatch (seed 002): a Routed unit cannot go on Overwatch (digest §3.7)."""
    if ustate(state, uid)["routed"]:
        return [(f"{R}/overwatch/routed", "a Routed unit cannot go on Overwatch (digest §3.7)")]
    return []


def go_on_overwatch(state: State, uid: str, events: list[Event]) -> None:
    """Overwatch (seed 002): the unit takes an overwatch token and its activation ends at once."""
    set_unit(state, uid, overwatch=True)
    events.append(StatusChanged(uid, "on Overwatch", True))
    state.vars["end_now"] = True


def discard_overwatch(state: State, events: list[Event]) -> None:
    """End phase (digest §3.2): every unused Overwatch token is discarded."""
    for uid in state.ctx.unit_order:
        if ustate(state, uid)["overwatch"]:
            set_unit(state, uid, overwatch=False)
            msg = f"{uid}'s unused Overwatch token is discarded (End phase)"
            events.append(Note(msg, f"{R}/overwatch/discarded"))
            events.append(StatusChanged(uid, "on Overwatch", False))
