"""The turn (digest §1: Initiative -> Activation -> Morale) and the game's turn loop on the kernel's step machine.

The side with fewer models holds the Initiative (a tie is a roll-off, :class:`RollOff`, the same step that
settles the deployment zones at the start); it activates first, then the sides alternate until one runs out of
models to Activate, the other activates the rest one after the other, and the Morale phase follows (seed 000
§Ending the Activation Phase: the kernel's :class:`~warband.kernel.turns.Alternating` and :func:`end_activation`).
:class:`TCRules` gives the standing decisions (deploy, activate, pick an action) and moves the game on when
nothing is pending.

Rule ids are ``trench-crusade/<area>/<rule>``; the clause matrix ``docs/rules/trench-crusade.md`` maps every
seed sentence to the functions that implement it.
"""

from __future__ import annotations

from warband.kernel import setup as kernel_setup
from warband.kernel import turns, values
from warband.kernel.events import Event, Note, PhaseStarted
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trench_crusade import morale
from warband.rulesets.trench_crusade.ability_actions import ABILITY_STEPS
from warband.rulesets.trench_crusade.actions import EndAfter
from warband.rulesets.trench_crusade.activation import (
    ActionMenu,
    Activate,
    FollowerChoice,
    commanded,
    end_part,
    has_action,
    switch_to,
    team_of,
    team_other,
)
from warband.rulesets.trench_crusade.attacks import ATTACK_STEPS
from warband.rulesets.trench_crusade.core import (
    ACTIVATION,
    TURN_OVER,
    R,
    SpendBlessing,
    SpendHit,
    State,
    SuccessRoll,
    active_model,
    any_activatable,
    can_activate,
    is_down,
    over,
    set_flag,
    side_name,
)
from warband.rulesets.trench_crusade.movement import MOVEMENT_STEPS
from warband.rulesets.trench_crusade.setup import ChooseZone, Deploy


def start_game(state: State, events: list[Event]) -> None:
    """The game opens with the deployment: a roll-off for the zones (digest §1)."""
    state.phase = "deploy"
    state.vars.update({"zone_of": [0, 1], "vp": [0, 0], "acts": [], "active": None})
    push(state, RollOff("deployment"))


@values.value
class RollOff(kernel_setup.RollOff[State]):
    """A roll-off (digest §1): for the deployment zone, or for the Initiative when the sides are level."""

    why: str

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        if self.why == "initiative":
            begin_activation_phase(state, winner, events)
        else:
            state.vars["rolloff_winner"] = winner
            push(state, ChooseZone(winner))


# ------------------------------------------------------------------------------------------- the Initiative phase
def start_turn(state: State, events: list[Event]) -> None:
    """Initiative phase (digest §1): the side with fewer models holds the Initiative; a tie is a roll-off."""
    state.turn += 1
    state.phase = "initiative"
    events.append(PhaseStarted(state.turn, "Initiative"))
    for m in state.models.values():
        if m.flags.get("activated"):
            set_flag(m, "activated", False)
    counts = [initiative_count(state, s) for s in (0, 1)]
    if counts[0] != counts[1]:
        begin_activation_phase(state, 0 if counts[0] < counts[1] else 1, events)
    else:
        push(state, RollOff("initiative"))


def initiative_count(state: State, side: int) -> int:
    """The models of ``side`` that count for the Initiative: on the table, Down ones only with
    ``initiative_counts_down`` (digest §1, PROPOSED)."""
    down_counts = state.ctx.params["initiative_counts_down"]
    return sum(1 for m in state.models.values() if m.side == side and m.on_table and (down_counts or not is_down(m)))


def begin_activation_phase(state: State, holder: int, events: list[Event]) -> None:
    """Seed 000: the side with the Initiative activates first."""
    state.vars["initiative"] = holder
    state.vars["next_side"] = holder
    state.phase = "activation"
    events.append(Note(f"side {side_name(holder)} has the Initiative", f"{R}/turn/initiative"))
    events.append(PhaseStarted(state.turn, "Activation"))


# ------------------------------------------------------------------------------------------- alternating activations


def end_activation(state: State, events: list[Event]) -> None:
    """Seed 000 §Ending the Activation Phase: the model's Activation ends, and the opponent may now Activate one of
    their models. A FIRETEAM member's end may instead hand over to its partner (``activation.end_part``)."""
    m = active_model(state)
    if m is not None and team_of(state) is not None:
        hand_over, stopped = end_part(state, m)
        if hand_over:
            other = team_other(state, m)
            assert other is not None
            _close(m, events)
            switch_to(state, m, other, events)
            return
        for mid in stopped:
            _close(state.models[mid], events)
    if m is not None:
        _close(m, events)
        side = m.side
    else:
        side = state.vars["next_side"]
    state.vars.update({"active": None, "acts": [], "shot_with": [], "end_now": False, "charged": None})
    if not over(state) and (any_activatable(state, 1 - side) or any_activatable(state, side)):
        # the opponent's turn (with nothing ready it passes back: the kernel), unless an ability named the model
        # that activates next (On My Command!, Voice of God)
        ordered = state.models.get(str(state.vars.get("commanded")))
        nxt = ordered.side if ordered is not None and can_activate(ordered) else 1 - side  # in activatable(...)
        ACTIVATION.set_side(state, nxt)


def _close(m: Model, events: list[Event]) -> None:
    set_flag(m, "activated", True)
    m.flags.pop("stood", None)
    m.flags.pop("dive", None)
    m.flags.pop("aimed", None)  # Aim lasts the rest of the activation
    m.flags.pop("sacrament_live", None)  # The Ammunition Sacrement's gift lasts the activation
    m.flags.pop("fearless", None)  # Onwards, Christian Soldiers! lasts the activation
    events.append(Note(f"{m.id}'s activation ends", f"{R}/activation/end"))


# ------------------------------------------------------------------------------------------- the turn loop
class TCRules(turns.Alternating[State]):
    """Trench Crusade on the kernel's alternating activation (seed 000 §Ending the Activation Phase: the sides
    alternate; when one has no model left to Activate the other activates the rest one after the other; then the
    Morale phase), with its own deployment, Morale phase and turn loop."""

    activation = ACTIVATION
    deploy_step = Deploy
    activate_step = Activate
    menu_step = ActionMenu
    round_due = TURN_OVER

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def done(self, state: State, piece: str) -> bool:
        """The model said so, left the table, went Down or has no action left."""
        m = state.models[piece]
        return bool(state.vars.get("end_now")) or not m.on_table or is_down(m) or not has_action(state, m)

    def end_activation(self, state: State, piece: str, events: list[Event]) -> None:
        end_activation(state, events)

    def ready(self, state: State, side: int) -> bool:
        """The kernel's ``bool(Activate(side).ready(state))`` without listing the models: a model the enemy
        commanded to activate next (On My Command!), else any model of ``side`` still to activate."""
        return commanded(state, side) is not None or any_activatable(state, side)

    def end_round(self, state: State, events: list[Event]) -> None:
        """Neither side has a model left to Activate: the Morale phase follows."""
        morale.begin_morale_phase(state, events)

    def start_round(self, state: State, events: list[Event]) -> None:
        """The deployment or the Morale phase is over: the next turn starts."""
        start_turn(state, events)

    def idle(self, state: State, events: list[Event]) -> bool:
        """Nothing is pending: the alternating activation (the kernel's), the Morale phase's next check, or the
        next turn. True if something changed."""
        if state.phase == "morale":
            return morale.morale_idle(state, events)
        return super().idle(state, events)


#: Every kind of step of the game, as the state stores them.
STEPS = (
    RollOff,
    ChooseZone,
    Deploy,
    Activate,
    ActionMenu,
    FollowerChoice,
    *MOVEMENT_STEPS,
    EndAfter,
    SuccessRoll,
    SpendHit,
    SpendBlessing,
    *ATTACK_STEPS,
    *ABILITY_STEPS,
    *morale.MORALE_STEPS,
)
RULES = TCRules(STEPS)
