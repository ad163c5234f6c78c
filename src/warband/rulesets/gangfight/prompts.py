"""Gangfight's decisions in a player's words (the prompt book of :meth:`Ruleset.describe_decision`).

Rules read here, never changed: the non-active player may spend a held AP of a targeted model on one Interrupt
before any model moves (seed 004, Interrupts); a Banding Action's leader nominates who joins, each joiner paying
its AP (seed 004, Banding); With Me! moves each member in turn (seed 004); the initiative winner picks Attacker
or Defender (digest B1 Stages (1))."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.names import name_of
from warband.kernel.prompts import PromptFn, side_word, template
from warband.rulesets.gangfight.core import ap, pint


def _interrupt(state: Any, step: Any, d: Decision) -> str:
    t = state.models[step.target]
    cost = pint(state, "interrupt_ap")
    return (
        f"{name_of(state, step.attacker)} declared {step.trigger} against {name_of(state, t.id)}: "
        f"{side_word(state, d.player)} may interrupt with it before anything moves, spending {cost} of its "
        f"{ap(t)} held AP; pass keeps the AP"
    )


def _band(state: Any, step: Any, d: Decision) -> str:
    joined = ", ".join(name_of(state, x) for x in step.joined) or "nobody yet"
    return (
        f"{name_of(state, step.leader)} leads a Banding Action ({step.band}): nominate the models that join, one "
        f"at a time, each paying its AP (joined: {joined}); done ends the nominations"
    )


PROMPTS: dict[str, PromptFn] = {
    "interrupt": _interrupt,
    "band": _band,
    "band-order": template("With Me!: {model} makes its Move or Charge! of the band's order (no AP of its own)"),
    "role": template(
        "{side} won the initiative: be the Attacker (deploys first) or the Defender (picks its table edge)"
    ),
}
