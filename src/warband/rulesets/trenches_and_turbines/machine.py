"""The step machine: the kernel's :class:`~warband.kernel.steps.SteppedRules` with this game's hooks (the set-up,
the standing decisions: deploy a unit or the active unit's action menu, the advance of the activation deck), and
the table of every step kind of the ruleset."""

from __future__ import annotations

from warband.kernel.events import Event
from warband.kernel.steps import Choice, SteppedRules
from warband.rulesets.trenches_and_turbines.actions import ActionMenu
from warband.rulesets.trenches_and_turbines.activation import activation_done
from warband.rulesets.trenches_and_turbines.attacks import Attack, Damage, Hits, ModelSave, Order, Saves, Wound
from warband.rulesets.trenches_and_turbines.charge import ChargeGo
from warband.rulesets.trenches_and_turbines.coherency import NewLeader
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.fight import DrawPins, FightEnd, FightGo, StrikeBack
from warband.rulesets.trenches_and_turbines.morale import Checks, Flee, Leadership, Rally
from warband.rulesets.trenches_and_turbines.movement import Dest
from warband.rulesets.trenches_and_turbines.pins import PinTest
from warband.rulesets.trenches_and_turbines.prone import StayProne
from warband.rulesets.trenches_and_turbines.reactions import React
from warband.rulesets.trenches_and_turbines.setup import Deploy, Rolloff, Zone, start_game
from warband.rulesets.trenches_and_turbines.shooting import ShootEnd, ShootGo
from warband.rulesets.trenches_and_turbines.turn import Draw, Pick, end_activation
from warband.rulesets.trenches_and_turbines.units import active


class TTRules(SteppedRules[State]):
    """The kernel's step machine with this game's set-up, standing decisions and activation deck."""

    deploy_step = Deploy

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def owner(self, state: State, name: str | None) -> int | None:
        """Actions name units (or their models): the side of either."""
        unit = state.ctx.units.get(name or "")
        return int(unit["side"]) if unit is not None else super().owner(state, name)

    def standing(self, state: State) -> Choice[State] | None:
        """Nothing pending and nothing to advance: a side deploys a unit, or the active unit picks an action."""
        uid = active(state)
        if state.phase == "activation" and uid is not None:
            return ActionMenu(uid)
        return super().standing(state)

    def idle(self, state: State, events: list[Event]) -> bool:
        """The active unit's activation is over (:func:`activation.activation_done`): end it and draw the next
        card (or end the round). False while a standing decision waits."""
        uid = active(state)
        if state.phase != "activation" or uid is None or not activation_done(state, uid):
            return False
        end_activation(state, events)
        return True


#: Every step kind of the ruleset, for the kernel's table of kinds.
STEPS = (
    Rolloff,
    Zone,
    Draw,
    Pick,
    Rally,
    PinTest,
    StayProne,
    React,
    ShootGo,
    ShootEnd,
    ChargeGo,
    Deploy,
    FightGo,
    StrikeBack,
    FightEnd,
    DrawPins,
    Dest,
    Attack,
    Order,
    Hits,
    Saves,
    Damage,
    Wound,
    ModelSave,
    Leadership,
    Flee,
    Checks,
    NewLeader,
)
RULES = TTRules(STEPS)
