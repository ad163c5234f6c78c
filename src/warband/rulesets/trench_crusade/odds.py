"""Exact Trench Crusade roll odds.

Every possible roll (as a sorted multiset with its exact probability, from
:mod:`warband.kernel.dice`) is pushed through the same functions the game
engine uses (:mod:`warband.rulesets.trench_crusade.rolls`), so the odds cannot
drift from the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from warband.kernel.dice import Distribution, pool_map
from warband.rulesets.trench_crusade import rolls
from warband.rulesets.trench_crusade.rolls import DEFAULTS, DIE_SIDES

__all__ = [
    "injury_distribution",
    "injury_odds",
    "success_distribution",
    "success_odds",
]


def success_distribution(net: int, params: Mapping[str, Any] = DEFAULTS) -> Distribution[str]:
    """Exclusive distribution over ``"failure"``, ``"success"`` (non-critical)
    and ``"critical"`` for a Success Roll with net ``net`` DICE."""
    return pool_map(
        rolls.dice_count(net),
        DIE_SIDES,
        lambda values: rolls.success_result(rolls.kept_total(values, net), params),
    )


def success_odds(net: int, params: Mapping[str, Any] = DEFAULTS) -> dict[str, Fraction]:
    """Chances of a Success Roll with net ``net`` DICE (positive = +DICE).

    Keys: ``failure``; ``success`` -- the roll succeeds, criticals included,
    so ``failure + success == 1``; ``critical``.
    """
    dist = success_distribution(net, params)
    return {
        "failure": dist.p("failure"),
        "success": dist.p("success") + dist.p("critical"),
        "critical": dist.p("critical"),
    }


def injury_distribution(
    injury_dice: int,
    modifier: int,
    all_dice_count: int | None = None,
    params: Mapping[str, Any] = DEFAULTS,
) -> Distribution[str]:
    """Distribution over ``none``/``minor``/``down``/``out`` for an Injury Roll.

    ``injury_dice`` is the net INJURY DICE (keep 2 of ``2 + |injury_dice|``);
    ``modifier`` is the already-capped INJURY MODIFIER total
    (see :func:`rolls.injury_modifier`). ``all_dice_count=n`` rolls ``n`` dice
    and adds them all (Bloodbath: 3, DEADLY Bloodbath: 4); the rules do not say
    how INJURY DICE combine with that, so ``injury_dice`` must then be 0.
    """
    if all_dice_count is None:
        n = rolls.dice_count(injury_dice)
        all_dice = False
    else:
        if all_dice_count < 1:
            raise ValueError(f"all_dice_count must be >= 1, got {all_dice_count}")
        if injury_dice != 0:
            raise ValueError("injury_dice must be 0 when all_dice_count is given (all dice are added)")
        n = all_dice_count
        all_dice = True
    return pool_map(
        n,
        DIE_SIDES,
        lambda values: rolls.injury_result(
            rolls.injury_total(values, injury_dice, modifier, all_dice=all_dice), params
        ),
    )


def injury_odds(
    injury_dice: int,
    modifier: int,
    all_dice_count: int | None = None,
    params: Mapping[str, Any] = DEFAULTS,
) -> dict[str, Fraction]:
    """Chances of each Injury Roll result; keys ``none``, ``minor``, ``down``,
    ``out`` (exclusive, summing to 1). See :func:`injury_distribution`."""
    dist = injury_distribution(injury_dice, modifier, all_dice_count, params)
    return {result: dist.p(result) for result in rolls.INJURY_RESULTS}
