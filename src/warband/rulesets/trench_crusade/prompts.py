"""Trench Crusade's decisions in a player's words (the prompt book of :meth:`Ruleset.describe_decision`): what is
being rolled or reacted to, what each answer costs and its odds.

Rules read here, never changed: Success Rolls keep the two highest dice, or the two lowest when -DICE remain
(seed 000 §Success Rolls, §+DICE and -DICE); Blood markers spent by the opponent give -1 DICE on a Success Roll
or +1 INJURY DICE on an Injury Roll, and a Bloodbath rolls 3D6 all added (digest §6); a retreating model may
be struck by each engaged enemy (seed 000 Retreat, digest §7); AUTOMATIC picks its next targets near the first
(digest §9)."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.names import name_of
from warband.kernel.prompts import PromptFn, percent, side_word, template
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.odds import injury_odds, success_odds


def kept(net: int) -> str:
    """Which dice of a Success or Injury Roll count: the two highest, or the two lowest under -DICE."""
    n = tcr.dice_count(net)
    if n == 2:
        return "roll 2d6 and add them"
    return f"roll {n}d6 and keep the two {'lowest' if net < 0 else 'highest'}"


def _below(state: Any, kind: str) -> Any:
    """The pending step of ``kind`` just beneath the choice on top (the roll it is about)."""
    for step in reversed(state.stack[:-1]):
        if getattr(step, "kind", "") == kind:
            return step
    return None


def _success(state: Any, step: Any, d: Decision) -> str:
    net = tcr.net_dice(step.plus, step.minus)
    odds = success_odds(net, state.ctx.params)
    who = name_of(state, step.model) if step.model else side_word(state, step.side)
    risky = "; Risky: a failure ends its activation" if step.risky else ""
    return (
        f"{who} makes a Success Roll ({step.purpose}, {net:+d} DICE): {kept(net)}; "
        f"{percent(odds['success'])} to succeed, {percent(odds['critical'])} critical{risky}"
    )


def _injury_odds(state: Any, roll: Any, extra: int = 0, bloodbath: int = 0) -> dict[str, Any]:
    p = state.ctx.params
    if bloodbath:
        return injury_odds(0, roll.mod, bloodbath, params=p)
    return injury_odds(tcr.net_dice(roll.plus + extra, roll.minus), roll.mod, params=p)


def _injury(state: Any, step: Any, d: Decision) -> str:
    if step.all_dice:
        how = f"roll {step.all_dice}d6 and add them all"
        odds = _injury_odds(state, step, bloodbath=step.all_dice)
    else:
        how = kept(tcr.net_dice(step.plus, step.minus))
        odds = _injury_odds(state, step)
    by = f" from {name_of(state, step.attacker)}" if step.attacker else ""
    src = f" ({step.source})" if step.source else ""
    return (
        f"Injury Roll against {name_of(state, step.model)}{by}{src}: {how}, modifier {step.mod:+d}; "
        f"{percent(odds['down'])} Down, {percent(odds['out'])} Out of Action"
    )


def _spend_hit(state: Any, step: Any, d: Decision) -> str:
    m = state.models[step.model]
    roll = _below(state, "success")
    if roll is None:
        return ""
    net = tcr.net_dice(roll.plus, roll.minus)
    answers = []
    for k in range(m.token("blood") + 1):
        odds = success_odds(tcr.net_dice(roll.plus, roll.minus + k), state.ctx.params)
        answers.append(f"spend {k}: {percent(odds['success'])} it succeeds")
    return (
        f"{name_of(state, m.id)} is about to make a Success Roll ({roll.purpose}, {net:+d} DICE) and carries "
        f"{m.token('blood')} Blood marker(s): {side_word(state, d.player)} may spend them, -1 DICE each "
        f"(the markers are gone); " + ", ".join(answers)
    )


def _spend_injury(state: Any, step: Any, d: Decision) -> str:
    v = state.models[step.model]
    roll = _below(state, "injury-roll")
    if roll is None:
        return ""
    p = state.ctx.params
    n = v.token("blood")
    answers = []
    for k in range(n + 1):
        odds = _injury_odds(state, roll, extra=k)
        answers.append(f"spend {k}: {percent(odds['down'] + odds['out'])} Down or Out ({percent(odds['out'])} Out)")
    cost = int(p["bloodbath_cost_down"] if v.flags.get("down") else p["bloodbath_cost"])
    if n >= cost:
        dice = int(p["deadly_dice"] if roll.deadly else p["bloodbath_dice"])
        odds = _injury_odds(state, roll, bloodbath=dice)
        answers.append(
            f"bloodbath ({cost} markers, {dice}d6 all added): {percent(odds['down'] + odds['out'])} Down or Out"
        )
    return (
        f"An Injury Roll is about to be made against {name_of(state, v.id)}, which carries {n} Blood marker(s): "
        f"{side_word(state, d.player)} may spend them for +1 INJURY DICE each; " + "; ".join(answers)
    )


PROMPTS: dict[str, PromptFn] = {
    "success": _success,
    "injury-roll": _injury,
    "spend-hit": _spend_hit,
    "spend-injury": _spend_injury,
    "strike": template(
        "{target} retreats out of combat with {model}: {model} may make one free Melee Attack as it leaves (it "
        "costs nothing), or decline and let it go"
    ),
    "auto-target": template(
        "{attacker}'s {weapon} is AUTOMATIC: pick its next target near {first} ({more} more shot(s))"
    ),
}
