"""The seed's activation limits as pure functions: actions, bonus actions, the ability per activation, passing.

Source: seed ``003_9e9dcd26291534cd.txt`` (S), first two paragraphs and the asides "Bonus Actions" and
"Wait Actions and Abilities"; the action names come from digest ``wyrdcry.md`` §A4-A5 (the Notion list is lost).
The engine (next phase) asks these functions; they know nothing of the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "ACTIONS",
    "ActionName",
    "Limits",
    "Taken",
    "ability_problem",
    "action_problem",
    "activation_complete",
    "combat_phase_over",
    "must_pass",
]

ActionName = Literal["move", "attack", "retreat", "wait", "channel"]

#: The actions a fighter may take (digest §A4-A5: Move, Attack, Retreat, Wait; Channel for a Wizard).
ACTIONS: Final[tuple[ActionName, ...]] = ("move", "attack", "retreat", "wait", "channel")


@dataclass(frozen=True, slots=True)
class Taken:
    """An action already taken this activation, and whether it was a bonus action."""

    action: ActionName
    bonus: bool = False


@dataclass(frozen=True, slots=True)
class Limits:
    """The seed's numbers (params ``actions_per_activation``, ``move_actions_per_activation``,
    ``same_action_limit``, ``abilities_per_activation``)."""

    actions: int = 2
    moves: int = 2
    same_action: int = 2
    abilities: int = 1


def action_problem(taken: Sequence[Taken], action: ActionName, bonus: bool, limits: Limits = Limits()) -> str | None:
    """Why the fighter may not take ``action`` now, or ``None``.

    S para. 2: an activation has 2 actions; each action once, Move twice. S "Bonus Actions": bonus actions are
    unlimited, but no action is taken more than twice in all (bonus or not). Bonus actions do not use up the 2
    actions nor count against the once-each rule (our reading: the aside only adds the twice-in-all cap).
    """
    same = sum(1 for t in taken if t.action == action)
    if same >= limits.same_action:
        return f"expected an action taken fewer than {limits.same_action} times, found {action} taken {same} times"
    if bonus:
        return None
    normal = [t.action for t in taken if not t.bonus]
    if len(normal) >= limits.actions:
        return f"expected fewer than {limits.actions} actions taken, found {len(normal)}"
    once = limits.moves if action == "move" else 1
    if normal.count(action) >= once:
        return f"expected {action} at most {once} time(s) as an action, found it taken {normal.count(action)}"
    return None


def activation_complete(taken: Sequence[Taken], limits: Limits = Limits()) -> bool:
    """Whether both actions are taken (S para. 2: a fighter takes 2 actions; a Wait as 1st action ends this
    activation early, digest §A4, and the engine handles it)."""
    return sum(1 for t in taken if not t.bonus) >= limits.actions


def ability_problem(used_this_activation: int, limits: Limits = Limits()) -> str | None:
    """Why no further ability may be used in this activation, or ``None`` (S para. 3: 1 ability per
    activation; S "Wait Actions and Abilities": a second activation from a Wait counts afresh, so the engine
    resets the count when the fighter activates again)."""
    if used_this_activation >= limits.abilities:
        return f"expected at most {limits.abilities} ability per activation, found {used_this_activation} used"
    return None


def must_pass(unactivated: int) -> bool:
    """A player with no fighter left to activate must pass (S para. 1)."""
    return unactivated == 0


def combat_phase_over(unactivated_a: int, unactivated_b: int) -> bool:
    """The combat phase ends once both players have activated all their fighters (S para. 1)."""
    return unactivated_a == 0 and unactivated_b == 0
