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
from warband.kernel.offers import Column, OddsCommand, OddsOption, OddsTable
from warband.rulesets.trench_crusade import rolls
from warband.rulesets.trench_crusade.rolls import DEFAULTS, DIE_SIDES

__all__ = [
    "ODDS_COMMANDS",
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


# --- the odds commands (``warband odds trench-crusade ...``), declared as data for the faces ------------------
MAX_DICE = 6
MAX_MODIFIER = 10


def _exact(p: Fraction) -> str:
    """Always ``a/b`` (also ``0/1`` and ``1/1``), in lowest terms."""
    return f"{p.numerator}/{p.denominator}"


_COLUMNS = (Column("Result"), Column("Exact", "right"), Column("Probability", "right"))


def _table(title: str, odds: dict[str, Fraction], labels: dict[str, str]) -> OddsTable:
    rows = tuple((labels[k], _exact(p), f"{float(p):.4f} ({float(p):.2%})") for k, p in odds.items())
    data = {key: {"p": float(p), "exact": _exact(p)} for key, p in odds.items()}
    return OddsTable(title, _COLUMNS, rows, data)


def run_success(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    dice = int(values["dice"])
    return _table(
        f"Success Roll, {dice:+d} DICE",
        success_odds(dice, params),
        {"failure": "P(failure)", "success": "P(success)", "critical": "P(critical)"},
    )


def run_injury(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    injury_dice, modifier = int(values["injury_dice"]), int(values["modifier"])
    return _table(
        f"Injury Roll, {injury_dice:+d} INJURY DICE, modifier {modifier:+d}",
        injury_odds(injury_dice, modifier, params=params),
        {"none": "P(no effect)", "minor": "P(minor hit)", "down": "P(down)", "out": "P(out of action)"},
    )


ODDS_COMMANDS = (
    OddsCommand(
        "success",
        "Chance that a Success Roll fails, succeeds (criticals included) or is critical.",
        (
            OddsOption(
                "dice",
                int,
                f"Net +DICE (positive) or -DICE (negative), -{MAX_DICE}..{MAX_DICE}.",
                0,
                min=-MAX_DICE,
                max=MAX_DICE,
            ),
        ),
        run_success,
    ),
    OddsCommand(
        "injury",
        "Chance of each Injury Roll result: none, minor hit, down, out of action.",
        (
            OddsOption(
                "injury-dice",
                int,
                f"Net INJURY DICE (positive adds, negative removes), -{MAX_DICE}..{MAX_DICE}.",
                0,
                min=-MAX_DICE,
                max=MAX_DICE,
            ),
            OddsOption(
                "modifier",
                int,
                f"Total INJURY MODIFIER (negatives already capped), -{MAX_MODIFIER}..{MAX_MODIFIER}.",
                0,
                min=-MAX_MODIFIER,
                max=MAX_MODIFIER,
            ),
        ),
        run_injury,
    ),
)
