"""Refusals in the player's words: why an action is not among the pending decision's choices.

Every refusal is ``(rule_id, message)``. The message says who decides now, what the decision is about and why the
action tried is not one of its choices: an action of another moment (a reaction in a player's own activation, an
interrupt with nothing declared), a model that is not the one choosing, a target, point or option that is not on
offer. Steps with rules of their own (a reaction's cost, an interrupt's trigger) say more; these are the words every
step falls back on, so that no refusal is a bare list of options or a rule id without a reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from warband.kernel.actions import Action
from warband.kernel.errors import Reason

#: How many choices a refusal lists before it says how many more there are.
SHOWN = 6


def side_label(side: int | None) -> str:
    return "AB"[side] if side in (0, 1) else "?"


def listing(actions: Sequence[Action] | Sequence[str]) -> str:
    """Up to :data:`SHOWN` items in quotes, then how many more."""
    words = [f"'{a}'" for a in actions]
    if len(words) > SHOWN:
        return ", ".join(words[:SHOWN]) + f" and {len(words) - SHOWN} more"
    return ", ".join(words) if words else "none"


def moment_text(prompt: str, player: int, about: str | None) -> str:
    """Who decides now and about what: ``side B decides 'interrupt' for b2``."""
    tail = f" for {about}" if about else ""
    return f"side {side_label(player)} decides '{prompt}'{tail}"


def not_offered(
    rules: str,
    kind: str,
    prompt: str,
    player: int,
    about: str | None,
    action: Action,
    options: Sequence[Action],
    timings: Mapping[str, str] | None = None,
) -> list[Reason]:
    """Why ``action`` is not among ``options`` at this decision (``kind`` and ``prompt`` name the step), in the
    player's words: the wrong moment for its kind (and the moment it belongs to, from ``timings``), a model that
    is not among those choosing, or a target, point or option not on offer."""
    now = moment_text(prompt, player, about)
    kinds = list(dict.fromkeys(o.kind for o in options))
    if action.kind not in kinds:
        when = (timings or {}).get(action.kind)
        belongs = f"; {when}" if when else ""
        text = f"now {now}: '{action.kind}' is not played at this moment{belongs}. The choices here: {listing(kinds)}"
        return [(f"{rules}/{kind}/timing", text)]
    same = [o for o in options if o.kind == action.kind]
    models = list(dict.fromkeys(str(o.model) for o in same if o.model is not None))
    if action.model not in {o.model for o in same}:
        who = action.model if action.model is not None else "nobody named"
        text = f"now {now}: {who} may not '{action.kind}' at this moment; those who may: {listing(models)}"
        return [(f"{rules}/{kind}/who", text)]
    mine = [o for o in same if o.model == action.model]
    whose = f"{action.model}'s " if action.model is not None else "the "
    text = f"now {now}: '{action}' is not among {whose}'{action.kind}' choices: {listing(mine)}"
    return [(f"{rules}/{kind}/choice", text)]


def whose_decision(rules: str, prompt: str, player: int, about: str | None, action: Action, side: int) -> Reason:
    """An action of the side that is not deciding: whose decision it is now."""
    now = moment_text(prompt, player, about)
    text = f"it is side {side_label(player)}'s decision now ({now}); side {side_label(side)}'s {action.model} must wait"
    return (f"{rules}/decision/whose", text)
