"""Pins (digest §3.7): taking them (a pinned unit goes prone; pins at its unmodified Leadership rout it), the
pinned unit's test when it activates (:class:`PinTest`), and Shed a Pin (seed 002: a unit that has a pin token
when it activates spends an action to remove it, then remains prone or stands up; :func:`shed_first_reasons`
refuses its other actions until then). Pins from shooting are counted in ``shooting.ShootEnd``, from a drawn Fight
in ``fight.DrawPins``."""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged, TokensChanged
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTChance, d10s, set_unit, succeeds, ustate
from warband.rulesets.trenches_and_turbines.morale import leadership_base, rout
from warband.rulesets.trenches_and_turbines.prone import StayProne
from warband.rulesets.trenches_and_turbines.units import is_vehicle, members


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


@values.value
class PinTest(TTChance, kind="pintest"):
    """A pinned unit's test at ``tn`` or less when it activates (digest §3.7): fail = one action only."""

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


def sheds_owed(state: State, pins: int) -> int:
    """The Shed a Pin actions a unit that activates with ``pins`` owes before any other action (seed 002, Shed a
    Pin: "If, when a unit activates, it has a pin token, it must spend 1 action to remove the pin token"): one
    (param ``pins_shed_per_action`` 0, the default: one action removes the token); with the option of one
    action per ``pins_shed_per_action`` pins, as many as its pins need."""
    per = int(state.ctx.params["pins_shed_per_action"])
    if pins <= 0:
        return 0
    return 1 if per <= 0 else -(-pins // per)


def shed_first_reasons(state: State, uid: str, a: Action) -> list[Reason]:
    """Seed 002, Shed a Pin: the obligation is tested when the unit activates. A unit that activated with a pin
    token (``vars["pin_due"]``, set by ``activation.begin_activation``) spends its action on removing it before
    any other; a pin taken during the activation (a reaction's Shoot, a drawn Fight) does not stop the unit's
    remaining actions: it is shed when the unit next activates."""
    if a.kind == "shed" or int(state.vars.get("pin_due", 0)) <= 0 or ustate(state, uid)["pins"] <= 0:
        return []
    why = f"{uid} had a pin token when it activated: it must spend 1 action to remove the pin token first"
    return [(f"{R}/pin/shed-first", why)]


def shed_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Shed a Pin (seed 002) needs a pin token to shed."""
    if ustate(state, uid)["pins"] <= 0:
        return [(f"{R}/pin/none", f"{uid} has no pin token to shed")]
    return []


def shed(state: State, uid: str, events: list[Event]) -> None:
    """Shed a Pin (seed 002); a prone unit then decides to remain prone or stand up (Go Prone)."""
    u = ustate(state, uid)
    per = int(state.ctx.params["pins_shed_per_action"])
    n = u["pins"] if per <= 0 else min(u["pins"], per)
    set_unit(state, uid, pins=u["pins"] - n)
    state.vars["pin_due"] = max(0, int(state.vars.get("pin_due", 0)) - 1)
    events.append(TokensChanged(uid, "pin", -n, u["pins"] - n))
    if u["prone"] and u["pins"] - n > 0:
        # (option pins_shed_per_action) still pinned: the choice comes when the last pin goes (seed 002, Go Prone)
        events.append(Note(f"{uid} is still pinned: it stays prone", f"{R}/pin/still-pinned"))
    elif u["prone"]:
        push(state, StayProne(uid))
