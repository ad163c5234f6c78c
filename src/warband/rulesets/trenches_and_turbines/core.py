"""Small shared helpers: the step bases of this ruleset, unit status (``state.vars["u"]``) and the d10 test (digest
§3.1 Dice).

Unit status is a JSON-native dict per unit id, replaced (never mutated in place) on every change:
``leader`` (the coherency leader's model id), ``pins``, ``prone``, ``routed``, ``overwatch``, ``activated``,
``acts_round`` (actions performed this round), ``reactions`` (used this round), ``start`` (starting models),
``half_tested``, ``leaderless``, ``shaken`` (VEHICLE actions lost next activation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warband.kernel.actions import DiceSpec
from warband.kernel.steps import Auto, Chance, Choice
from warband.rulesets.trenches_and_turbines.context import State

R = "trenches-and-turbines"


class TTChoice(Choice[State]):
    """A pending choice of this ruleset (its refusals are ``trenches-and-turbines/decision/<kind>``). The side
    that decides is the record's ``by`` field if it has one, else the side of the unit the decision is about
    (:meth:`subject`)."""

    __slots__ = ()

    def player(self, state: State) -> int:
        by = getattr(self, "by", None)
        return int(by) if by is not None else side_of(state, str(self.subject()))


#: The kernel's other step bases over this game's state; a step's ``rules`` (the prefix of its refusals' rule ids) is
#: this package's ruleset id (:func:`warband.kernel.records.ruleset_of_module`).
TTChance = Chance[State]
TTAuto = Auto[State]


def ustate(state: State, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = state.vars["u"][uid]
    return u


def set_unit(state: State, uid: str, **changes: Any) -> None:
    u = state.vars["u"]
    state.vars["u"] = {**u, uid: {**u[uid], **changes}}


def side_of(state: State, uid: str) -> int:
    """The side (0 or 1) a unit belongs to."""
    return int(state.ctx.units[uid]["side"])


def side_name(side: int) -> str:
    return "AB"[side]


def succeeds(params: Mapping[str, Any], value: int, target: int) -> bool:
    """A d10 test succeeds at or under the modified target (seed 002, Make Hit Rolls: nothing else, so a target
    of 10 or more always succeeds); options, off by default: a natural roll at or under ``natural_success``
    always succeeds, one at or over ``natural_failure`` always fails (digest §3.1). The one statement of the rule: the
    rules and the odds (``rulesets.trenches_and_turbines.odds.p_test``) both call it."""
    if value <= int(params["natural_success"]):
        return True
    if value >= int(params["natural_failure"]):
        return False
    return value <= target


def d10s(state: State, n: int, label: str, model: str | None) -> DiceSpec:
    """``n`` dice of the game's die (param ``die_sides``)."""
    return DiceSpec(n, int(state.ctx.params["die_sides"]), label, model)
