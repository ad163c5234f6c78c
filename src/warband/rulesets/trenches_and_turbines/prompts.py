"""Trenches and Turbines' decisions in a player's words (the prompt book of :meth:`Ruleset.describe_decision`).

Rules read here, never changed: the target unit of a Shoot or a Charge may react, and a unit not yet activated
then counts as activated (its card is flipped) unless it was on Overwatch (seed 002, How to perform a reaction);
after shedding a pin a prone unit stays prone or stands (seed 002, Go Prone); the defender picks which model
takes each unsaved attack (seed 002, Damage)."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.names import name_of
from warband.kernel.prompts import PromptFn, side_word, template
from warband.rulesets.trenches_and_turbines.core import ustate

TRIGGERS = {"shoot": "shooting at", "charge": "charging"}


def _react(state: Any, step: Any, d: Decision) -> str:
    u = ustate(state, step.unit)
    if u["overwatch"]:
        cost = "it is on Overwatch, so reacting spends the Overwatch token"
    elif u["activated"]:
        cost = "it has already activated this turn"
    else:
        cost = "reacting flips its activation card: it will not activate again this turn"
    doing = TRIGGERS.get(step.trigger, step.trigger)
    return (
        f"{name_of(state, step.attacker)} is {doing} {name_of(state, step.unit)}: {side_word(state, d.player)} may "
        f"react now ({cost}); pass costs nothing"
    )


def _wound(state: Any, step: Any, d: Decision) -> str:
    dmg = step.damage
    left = len(dmg.todo)
    return (
        f"{name_of(state, dmg.target)} takes {left} unsaved attack(s) (damage {', '.join(map(str, dmg.todo))}): "
        f"{side_word(state, d.player)} picks which model takes the next one"
    )


PROMPTS: dict[str, PromptFn] = {
    "react": _react,
    "shed": template("{unit} shed a pin and is prone: stay prone (harder to hit, slower) or stand up"),
    "wound": _wound,
}
