"""Wyrdcry's decisions in a player's words (the prompt book of :meth:`Ruleset.describe_decision`).

Rules read here, never changed: a reaction is declared by the non-active player at the moment the enemy action
names, and costs reaction dice (or a Wyrd blessing where offered) (S 26-32); a wyrd die adds a single or upgrades
a single or a group one step, and unspent ones stay banked (D §A2.3); the player with the initiative says who
activates first (S 2); a commanded fighter may activate at once after the activation (S 23); the opponent of a
falling fighter picks where it lands (D §A4); a warband with half its fighters out may withdraw in the morale phase
(D §A8)."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.names import name_of
from warband.kernel.prompts import PromptFn, side_word, template
from warband.rulesets.wyrdcry.core import pool, reaction_dice, show_pool, wyrd_bank

#: what each reaction window's moment is, in words
MOMENTS = {
    "melee": "a melee attack",
    "ranged": "a ranged attack",
    "retreat": "a Retreat",
    "deathwish": "a blow about to land",
    "magic": "a spell",
    "out": "a fighter taken out of action",
}


def _reaction(state: Any, step: Any, d: Decision) -> str:
    cost = int(state.ctx.params["reaction_cost"])
    left = reaction_dice(state, step.by)
    moment = MOMENTS.get(step.timing, step.timing)
    target = f" against {name_of(state, step.target)}" if step.target and step.timing != "magic" else ""
    return (
        f"{name_of(state, step.actor)} is making {moment}{target}: {side_word(state, step.by)} may react with "
        f"one of its fighters before it resolves; a reaction costs {cost} reaction die ({left} left), or a Wyrd "
        "blessing where an answer says 'wyrd'; no-reaction costs nothing"
    )


def _wyrd(state: Any, step: Any, d: Decision) -> str:
    return (
        f"{side_word(state, step.by)} has {wyrd_bank(state, step.by)} wyrd die/dice banked; its ability dice: "
        f"{show_pool(pool(state, step.by))}. Spending one adds a single die of that face or upgrades a single or "
        "a group one step; 'done' keeps the rest banked for later rounds"
    )


PROMPTS: dict[str, PromptFn] = {
    "react": _reaction,
    "wyrd": _wyrd,
    "first": template("{side} holds the initiative: say who makes the first activation of the round"),
    "command-activation": template(
        "{model} was given a Command: it may activate right now, before the opponent's next activation, or "
        "decline (the opponent activates next)"
    ),
    "withdraw": template(
        "{side}'s warband has half its fighters (rounded up) out of action: withdraw it from the battle (its "
        "fighters leave, the opponent wins) or carry on (D §A8)"
    ),
    "landing": template(
        "{model} falls: {side}, its opponent, picks where it lands (on the ground near where it fell); the "
        "fall's damage is rolled next"
    ),
}
