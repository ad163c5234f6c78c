"""The Morale phase (seed 000 §Ending the Activation Phase: 'then proceed to the Morale Phase'; digest §1 Morale
check, Shaken, Sound the Retreat, fleeing). The turn's scoring and the end of the game are in :mod:`.scenario`.
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.events import Event, Note, PhaseStarted, StatusChanged
from warband.kernel.steps import push
from warband.rulesets.trench_crusade.core import AfterSuccess, R, State, SuccessRoll, TCChoice, push_success
from warband.rulesets.trench_crusade.scenario import end_of_turn, finish


def begin_morale_phase(state: State, events: list[Event]) -> None:
    state.phase = "morale"
    events.append(PhaseStarted(state.turn, "Morale"))
    first = int(state.vars.get("initiative", 0))
    state.vars["morale_queue"] = [first, 1 - first]


def needs_check(state: State, side: int) -> bool:
    """A check when at least half the warband (rounded up) is Down or Out of Action, or while Shaken."""
    # one that left is no casualty, nor one its own Martyrdom Device took out (Awaited)
    # nor a volunteer of Broken on the Wheel: it and its shrine are one model
    models = [
        m
        for m in state.side_models(side)
        if not m.flags.get("left") and not m.flags.get("awaited") and not m.data.get("wheel")
    ]
    hurt = sum(1 for m in models if not m.on_table or m.flags.get("down"))
    need = math.ceil(len(models) * float(state.ctx.params["morale_fraction"]))
    return bool(state.sides[side].flags.get("shaken")) or hurt >= need


def leader_up(state: State, side: int) -> bool:
    return any(
        m.on_table and not m.flags.get("down") and "LEADER" in m.data["keywords"] for m in state.side_models(side)
    )


def morale_idle(state: State, events: list[Event]) -> bool:
    """Take the next side's Morale check, or end the turn when both are done."""
    queue = list(state.vars.get("morale_queue", []))
    while queue:
        side = queue.pop(0)
        state.vars["morale_queue"] = queue
        if needs_check(state, side):
            plus = int(state.ctx.params["leader_morale_dice"]) if leader_up(state, side) else 0
            plus += int(state.sides[side].flags.pop("morale_bonus", 0))  # Whip of God's victims
            events.append(Note(f"side {'AB'[side]} takes a Morale check", f"{R}/morale/check"))
            push_success(state, None, "morale", plus, 0, False, AfterMorale(side), False, side=side)
            return True
    end_of_turn(state, events)
    return True


@values.value
class AfterMorale(AfterSuccess, kind="after-morale"):
    """The outcome of a side's Morale check (digest §1): a pass steadies a Shaken warband; a first failure
    makes it Shaken (or, with ``sound_the_retreat``, its player may flee instead); a second one, it flees."""

    side: int

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        side = self.side
        flags = state.sides[side].flags
        if result != "failure":
            if flags.get("shaken"):
                flags["shaken"] = False
                events.append(StatusChanged(f"side {'AB'[side]}", "Shaken", False))
            return
        if flags.get("shaken"):
            flee(state, side, "a second failed Morale check", events)
        elif state.ctx.params["sound_the_retreat"]:
            push(state, MoraleFail(side))
        else:
            shake(state, side, events)


@values.value
class MoraleFail(TCChoice, kind="morale-fail"):
    """Sound the Retreat (digest §1, param ``sound_the_retreat``): after a first failed check the player
    chooses to stand Shaken or to flee."""

    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("stand", option="shaken"), Action("flee", option="sound the retreat")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "flee":
            flee(state, self.by, "Sound the Retreat", events)
        else:
            shake(state, self.by, events)


def shake(state: State, side: int, events: list[Event]) -> None:
    state.sides[side].flags["shaken"] = True
    events.append(StatusChanged(f"side {'AB'[side]}", "Shaken", True))


def flee(state: State, side: int, why: str, events: list[Event]) -> None:
    state.sides[side].flags["fled"] = True
    events.append(Note(f"side {'AB'[side]} flees the field ({why})", f"{R}/morale/flee"))
    finish(state, 1 - side, f"side {'AB'[side]} fled", events)


MORALE_STEPS = (AfterMorale, MoraleFail)
