"""Trench Crusade roll rules: the single source of truth.

Pure functions, no randomness and no state: the game engine feeds them the dice
it rolled, and :mod:`warband.rulesets.trench_crusade.odds` feeds them every possible roll
to compute exact odds. Change a rule here and both follow.

Sources:

* seed 000 (``/work/shared/seeds/000_153e69a5b5f8b419.txt``), §Success Rolls
  and §+DICE and -DICE;
* rules digest ``trench-crusade.md`` §2 (dice principles) and §6 (Injury Roll).

Thresholds come from the ruleset parameters (a ``Mapping[str, Any]``) so that
variants can change them; :data:`DEFAULTS` holds the published values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = [
    "DEFAULTS",
    "DIE_SIDES",
    "INJURY_RESULTS",
    "KEPT_DICE",
    "SUCCESS_RESULTS",
    "dice_count",
    "injury_modifier",
    "injury_result",
    "injury_total",
    "kept_total",
    "net_dice",
    "success_result",
]

#: Every roll in the game uses six-sided dice (seed 000 §Success Rolls: "roll two dice").
DIE_SIDES: Final = 6

#: Success and Injury Rolls keep two dice (seed 000 §+DICE and -DICE: "pick the 2 highest rolls").
KEPT_DICE: Final = 2

#: Possible results of :func:`success_result`, worst first.
SUCCESS_RESULTS: Final = ("failure", "success", "critical")

#: Possible results of :func:`injury_result`, mildest first.
INJURY_RESULTS: Final = ("none", "minor", "down", "out")

#: Published values of the parameters read by this module.
DEFAULTS: dict[str, int] = {
    "success_threshold": 7,  # seed 000 §Success Rolls: 2-6 Failure, 7-11 Success
    "critical_threshold": 12,  # seed 000 §Success Rolls: 12 Critical; digest §2: "12 or more"
    "injury_minor_at": 2,  # digest §6 table: 1 or less no effect, 2-6 Minor Hit
    "injury_down_at": 7,  # digest §6 table: 7-8 Down
    "injury_out_at": 9,  # digest §6 table: 9+ Out of Action
    "injury_negative_cap": 3,  # digest §6: negative modifiers capped at -3 in total
}


def _param(params: Mapping[str, Any], key: str) -> int:
    try:
        value = params[key]
    except KeyError:
        raise KeyError(f"Trench Crusade roll parameter {key!r} is missing") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Trench Crusade roll parameter {key!r} must be an int, got {value!r}")
    return value


def net_dice(plus: int, minus: int) -> int:
    """Net +DICE/-DICE after cancelling pairs; positive means +DICE.

    Seed 000 §+DICE and -DICE: "If both +dice and -dice are added to the same
    Success Roll, remove pairs of +dice and -dice until only one type is
    remaining." The same pairing is applied to INJURY DICE (digest §6 "2D6 plus
    or minus INJURY DICE (keep 2)").
    """
    if plus < 0 or minus < 0:
        raise ValueError(f"dice counts must be >= 0, got plus={plus}, minus={minus}")
    return plus - minus


def dice_count(net: int) -> int:
    """Number of dice to roll for a net DICE modifier.

    Seed 000 §+DICE and -DICE: "For each +dice, add 1 dice to the Success Roll
    ... For each -dice, add 1 dice", on top of the two dice of §Success Rolls.
    """
    return KEPT_DICE + abs(net)


def _keep_two(values: Sequence[int], net: int) -> int:
    expected = dice_count(net)
    if len(values) != expected:
        raise ValueError(f"net dice {net:+d} needs {expected} dice, got {len(values)}: {list(values)}")
    for v in values:
        if not 1 <= v <= DIE_SIDES:
            raise ValueError(f"not a D{DIE_SIDES} result: {v}")
    ordered = sorted(values)
    kept = ordered[:KEPT_DICE] if net < 0 else ordered[-KEPT_DICE:]
    return sum(kept)


def kept_total(values: Sequence[int], net: int) -> int:
    """Total of the two kept dice of a Success Roll.

    Seed 000 §Success Rolls: "pick the two highest (or lowest if any -dice were
    used), add them together"; §+DICE and -DICE: "+1 Dice means you roll 3 dice
    and pick the 2 highest ... -1 Dice means you roll 3 dice and pick the 2
    lowest".

    ``values`` are all dice rolled, in any order; there must be exactly
    :func:`dice_count` ``(net)`` of them, each 1-6 (``ValueError`` otherwise).
    """
    return _keep_two(values, net)


def success_result(total: int, params: Mapping[str, Any]) -> str:
    """``"failure"``, ``"success"`` or ``"critical"`` for a kept total.

    Seed 000 §Success Rolls table: 2-6 Failure, 7-11 Success, 12 Critical
    Success; digest §2: "A critical is 12 or more". A critical is also a
    success (callers testing "did it succeed" must accept both).
    """
    if total < _param(params, "success_threshold"):
        return "failure"
    if total >= _param(params, "critical_threshold"):
        return "critical"
    return "success"


def injury_modifier(mods: Sequence[int], params: Mapping[str, Any]) -> int:
    """Total INJURY MODIFIER from the individual modifiers that apply.

    Digest §6 Injury Roll: "The negative modifiers are capped at -3 in total".
    Positive modifiers are added in full; the negative ones together count for
    at most ``-injury_negative_cap``. Example: ``[-2, -2] -> -3``,
    ``[-2, -2, +1] -> -2``.
    """
    cap = _param(params, "injury_negative_cap")
    positive = sum(m for m in mods if m > 0)
    negative = sum(m for m in mods if m < 0)
    return positive + max(negative, -cap)


def injury_total(values: Sequence[int], net_injury_dice: int, modifier: int, all_dice: bool = False) -> int:
    """Modified total of an Injury Roll.

    Digest §6 Injury Roll: "2D6 plus or minus INJURY DICE (keep 2), then INJURY
    MODIFIERS" -- the dice are kept exactly as in :func:`kept_total`.

    With ``all_dice=True`` every die in ``values`` is added and
    ``net_injury_dice`` is ignored: digest §6 Bloodbath, "roll 3D6 and add all
    three; DEADLY makes it 4D6". The caller decides how many dice that is.

    ``modifier`` is the already-capped total from :func:`injury_modifier`.
    """
    if all_dice:
        for v in values:
            if not 1 <= v <= DIE_SIDES:
                raise ValueError(f"not a D{DIE_SIDES} result: {v}")
        return sum(values) + modifier
    return _keep_two(values, net_injury_dice) + modifier


def injury_result(total: int, params: Mapping[str, Any]) -> str:
    """``"none"``, ``"minor"``, ``"down"`` or ``"out"`` for a modified injury total.

    Digest §6 table: 1 or less No effect; 2-6 Minor Hit; 7-8 Down; 9+ Out of
    Action. Thresholds: ``injury_minor_at``, ``injury_down_at``, ``injury_out_at``.
    """
    if total >= _param(params, "injury_out_at"):
        return "out"
    if total >= _param(params, "injury_down_at"):
        return "down"
    if total >= _param(params, "injury_minor_at"):
        return "minor"
    return "none"
