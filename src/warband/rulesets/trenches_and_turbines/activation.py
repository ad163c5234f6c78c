"""A unit's activation (seed 002, Actions and List of Actions: two actions, rarely three; digest §3.2, §3.7,
§3.10): how many actions it has, what happens when it begins (a Routed unit's Rally, a pinned unit's test, a
Shaken VEHICLE's lost actions), spending an action, and when the activation is over. The menu of actions is in
:mod:`actions`; the deck that picks the unit in :mod:`turn`."""

from __future__ import annotations

from warband.kernel.events import Event
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import set_unit, side_of, ustate
from warband.rulesets.trenches_and_turbines.morale import Rally, leadership_target
from warband.rulesets.trenches_and_turbines.pins import PinTest, sheds_owed
from warband.rulesets.trenches_and_turbines.units import ACTIVATION, members


def activation_actions(state: State, uid: str) -> int:
    """Actions of one activation (seed 002, List of Actions): two normally (param ``actions_per_activation``), or
    the unit profile's ``actions`` (the 'rare situations in which a unit may perform three')."""
    own = state.ctx.units[uid].get("actions")
    return int(own) if own is not None else int(state.ctx.params["actions_per_activation"])


def begin_activation(state: State, uid: str, events: list[Event]) -> None:
    """A card = one activation of :func:`activation_actions` actions, less a Shaken VEHICLE's lost actions (digest
    §3.10); a pinned unit's failed test (digest §3.7) cuts them later. A unit with a pin token now owes the action
    that removes it (``pin_due``, seed 002 Shed a Pin: "when a unit activates"; ``pins.shed_first_reasons``)."""
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
            "pin_due": sheds_owed(state, int(u["pins"])),
            "no_charge": False,
            "end_now": False,
            "forbidden": {},
            "activation": int(state.vars.get("activation", 0)) + 1,
        }
    )
    set_unit(state, uid, shaken=0)
    ACTIVATION.begin(state, uid, side_of(state, uid), events)
    if u["routed"]:
        push(state, Rally(uid, leadership_target(state, uid, 0)))
    elif u["pins"] > 0 and p["pinned_test"]:
        push(state, PinTest(uid, leadership_target(state, uid, 0)))


def spend(state: State, uid: str, kind: str, n: int = 1) -> None:
    """Record an action ``uid`` performs: it uses ``n`` of the activation's actions (0: a FREE action, such as a
    charge's Fight, a Fight winner's Shift or a FREE scenario action) and counts for the Shoot penalty of later
    actions (seed 002, Shooting Notes: "for EACH action performed prior to the shoot action this turn"): as the
    actions it uses, a FREE one as the one action it is. A unit that is not the active one (the winner of a Fight
    it was charged into) performs it outside any activation of its own: it counts for its later Shoots only."""
    if uid == state.vars.get("active"):
        state.vars["acts"] = [*state.vars["acts"], kind]
        state.vars["left"] = int(state.vars["left"]) - n
    set_unit(state, uid, acts_round=ustate(state, uid)["acts_round"] + max(n, 1))


def activation_done(state: State, uid: str) -> bool:
    """The activation ends: the unit ended it (or went on Overwatch), has no actions left, or is gone."""
    return bool(state.vars.get("end_now")) or int(state.vars["left"]) <= 0 or not members(state, uid)
