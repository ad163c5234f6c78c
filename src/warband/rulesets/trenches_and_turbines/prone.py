"""Go Prone/Take Cover! (seed 002): the Go Prone and Stand actions, and the choice to remain prone or stand up when a
prone unit sheds its pin. What being prone does lives where it counts: Conceal and the ranged bonus in
``shooting.shoot_groups``, Cover +1 in ``attacks.save_cover``, 2" per movement action in ``unit_moves.prone_limit``, a
charged prone unit in ``charge.ChargeGo``."""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note, StatusChanged
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTChoice, set_unit, ustate
from warband.rulesets.trenches_and_turbines.units import is_vehicle


def prone_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Go Prone (seed 002): not when already prone; a VEHICLE never with option ``vehicle_never_prone`` (digest
    §3.10)."""
    if is_vehicle(state, uid) and state.ctx.params["vehicle_never_prone"]:
        return [(f"{R}/prone/vehicle", "a VEHICLE never goes prone (param vehicle_never_prone)")]
    return [(f"{R}/prone/already", f"{uid} is already prone")] if ustate(state, uid)["prone"] else []


def stand_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Stand: only a prone unit stands up."""
    return [] if ustate(state, uid)["prone"] else [(f"{R}/prone/standing", f"{uid} is not prone")]


def go_prone(state: State, uid: str, events: list[Event]) -> None:
    """The unit goes prone: the Go Prone action, or the Go Prone reaction to a Shoot (seed 002, Go Prone/Take
    Cover!; How to perform a reaction)."""
    set_unit(state, uid, prone=True)
    events.append(StatusChanged(uid, "prone", True))


def stand_up(state: State, uid: str, events: list[Event]) -> None:
    """The unit stands up (the Stand action)."""
    set_unit(state, uid, prone=False)
    events.append(StatusChanged(uid, "prone", False))


@values.value
class StayProne(TTChoice, kind="shed", about="unit"):
    """After shedding a pin, a prone unit remains prone or stands up (seed 002, Go Prone)."""

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
