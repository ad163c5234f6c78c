"""Gangfight on the kernel's step machine: the decision that stands when no step is pending, what happens between
steps, and the list of every pending-step kind.

With no step pending, the deploying side places a model (:class:`.setup.Deploy`), or in a turn the active player
picks a model (:class:`.turn.Activate`) or the active model's action (:class:`.actions.ChooseAction`). Between
steps: incapacitated models leave the table once the exchange is over (seed 004 Counter-Charge and Fight!: they
still get their attacks), a wiped-out party ends the game (digest B2 End), a model with no AP or nothing left to
do ends its activation, and a side with no model left to activate ends its turn (seed 004, Action Points).
Design: ``docs/design/gangfight-steps.md`` §1, §2, §6, §8.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from warband.kernel.events import Event
from warband.kernel.steps import Choice, SteppedRules
from warband.rulesets.gangfight.actions import ChooseAction, has_action
from warband.rulesets.gangfight.attacks import (
    ArmourRoll,
    AttackRoll,
    DodgeRoll,
    FightGo,
    FireGo,
    Soak,
    remove_incapacitated,
)
from warband.rulesets.gangfight.banding import BandAttack, BandFights, BandNominate, BandOrder
from warband.rulesets.gangfight.charge import ChargeMove, ChargeRoll, FreeFight
from warband.rulesets.gangfight.core import State, ap, side_name, standing
from warband.rulesets.gangfight.interrupts import FireBack, InterruptWindow, StrikeBack
from warband.rulesets.gangfight.morale import BraveryRoll
from warband.rulesets.gangfight.movement import Destination, JumpClimbRoll
from warband.rulesets.gangfight.scenario import game_over
from warband.rulesets.gangfight.setup import ChooseEdge, ChooseRole, Deploy, InitiativeRoll, start_game
from warband.rulesets.gangfight.turn import Activate, active_model, can_activate, end_activation, end_turn


class GangfightRules(SteppedRules[State]):
    """Gangfight on the kernel's step machine."""

    deploy_step = Deploy

    #: When each kind of answer is given (seed 004, Interrupts and Actions), for refusals at another moment.
    timings: ClassVar[Mapping[str, str]] = {
        "interrupt": (
            "an interrupt (seed 004, Interrupts) is declared in the opponent's turn by the model an enemy action"
            " targets, with an AP held back, right after that action is declared and before any model moves,"
            " once per enemy action"
        ),
        "pass": "passing answers an interrupt window, which opens only for a model an enemy action targets",
        "activate": "a model is activated in its own player's turn, when no other model is active",
        "end-turn": "a player ends its own turn when no model is active",
        "decline": "a free Fight! is declined right after a charge",
    }

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def standing(self, state: State) -> Choice[State] | None:
        if state.phase == "turn":
            m = active_model(state)
            return Activate(int(state.vars["active"])) if m is None else ChooseAction(m.id)
        return super().standing(state)

    def idle(self, state: State, events: list[Event]) -> bool:
        if state.phase != "turn":
            return False
        if remove_incapacitated(state, events):
            return True
        for side in (0, 1):
            if not any(standing(m) for m in state.side_models(side)):
                game_over(state, f"side {side_name(side)} wiped out", events)
                return True
        m = active_model(state)
        side = int(state.vars["active"])
        if m is not None:
            if not standing(m) or m.flags.get("finished") or ap(m) <= 0 or not has_action(state, m):
                end_activation(state, m, events)
                return True
            return False
        if not any(can_activate(state, x) for x in state.side_models(side)):
            end_turn(state, events)
            return True
        return False


STEPS = (
    InitiativeRoll,
    ChooseRole,
    ChooseEdge,
    Deploy,
    BraveryRoll,
    Activate,
    ChooseAction,
    Destination,
    InterruptWindow,
    FireBack,
    StrikeBack,
    ChargeRoll,
    ChargeMove,
    FreeFight,
    FightGo,
    FireGo,
    AttackRoll,
    ArmourRoll,
    BandNominate,
    BandAttack,
    BandOrder,
    BandFights,
    Soak,
    DodgeRoll,
    JumpClimbRoll,
)
RULES = GangfightRules(STEPS)
