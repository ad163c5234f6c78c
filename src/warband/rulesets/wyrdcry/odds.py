"""Exact Wyrdcry odds: attack damage and the initiative roll.

Every possible roll (a sorted multiset with its exact probability, :func:`warband.kernel.dice.pool_map`) is
pushed through the same pure rules the engine uses (:mod:`.rolls`, :mod:`.dice`), so the odds cannot drift
from the rules. Lives in the ruleset's folder (DESIGN: a ruleset's odds live with it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from warband.kernel.dice import Distribution, pool_map
from warband.kernel.offers import Column, OddsCommand, OddsOption, OddsTable
from warband.rulesets.wyrdcry.dice import DIE_FACES, GroupCounts, LargeSet, group_counts, group_roll
from warband.rulesets.wyrdcry.rolls import DEFAULT_TABLE, HitTable, attack_damage, table_from_params

__all__ = [
    "count_distribution",
    "damage_distribution",
    "initiative_distribution",
    "p_win_initiative",
    "reaction_dice_distribution",
]


def damage_distribution(
    attacks: int,
    skill: int,
    defense: int,
    damage: tuple[int, int],
    *,
    unreliable: bool = False,
    bonus_per_hit: int = 0,
    table: HitTable = DEFAULT_TABLE,
) -> Distribution[int]:
    """Damage dealt by one attack action of ``attacks`` hit rolls with Fight/Shoot ``skill`` against
    ``defense``, dealing ``damage`` = (per hit, per crit) (digest §A5; see :func:`.rolls.attack_damage`)."""
    return pool_map(
        attacks,
        DIE_FACES,
        lambda rolls: attack_damage(
            rolls, skill, defense, damage, unreliable=unreliable, bonus_per_hit=bonus_per_hit, table=table
        ),
    )


def initiative_distribution(dice: int, large_set: LargeSet = "quad") -> Distribution[GroupCounts]:
    """Joint distribution of (singles, doubles, triples, quads) of an initiative roll of ``dice`` D6
    (digest §A2.1-2), before any wyrd die."""
    return pool_map(dice, DIE_FACES, lambda faces: group_counts(group_roll(faces, large_set)))


def count_distribution(
    dice: int, which: Callable[[GroupCounts], int], large_set: LargeSet = "quad"
) -> Distribution[int]:
    """One marginal of :func:`initiative_distribution`, e.g. ``lambda c: c.doubles``."""
    return initiative_distribution(dice, large_set).map(which)


def reaction_dice_distribution(dice: int, large_set: LargeSet = "quad") -> Distribution[int]:
    """Reaction dice left by the roll when no wyrd die is spent: its singles (digest §A2.6)."""
    return count_distribution(dice, lambda c: c.singles, large_set)


def p_win_initiative(dice: int, opponent_dice: int, large_set: LargeSet = "quad") -> Fraction:
    """Chance to win initiative with ``dice`` against ``opponent_dice``: more singles wins, a tie goes to a
    roll-off won half the time (digest §A2.1). No wyrd dice."""
    mine = reaction_dice_distribution(dice, large_set)
    theirs = reaction_dice_distribution(opponent_dice, large_set)
    win = sum((pa * pb for a, pa in mine.items() for b, pb in theirs.items() if a > b), Fraction(0))
    tie = sum((pa * theirs.p(a) for a, pa in mine.items()), Fraction(0))
    return win + tie / 2


# ------------------------------------------------------------------------------------------ odds commands
# What `warband odds wyrdcry attack|initiative` prints, as JSON-native data, ready for the kernel's declared
# odds commands (not on this branch yet: the CLI has no Wyrdcry sub-command until they land).


def attack_odds(
    attacks: int, skill: int, defense: int, damage: tuple[int, int], table: HitTable = DEFAULT_TABLE
) -> dict[str, object]:
    """``odds wyrdcry attack --attacks N --skill F --defense D --damage H/C``: the exact damage distribution of
    one attack action, its mean and P(at least k damage) for every k."""
    dist = damage_distribution(attacks, skill, defense, damage, table=table)
    values = sorted(dist.items())
    at_least = {v: sum((p for w, p in values if w >= v), Fraction(0)) for v, _ in values}
    mean = sum((p * v for v, p in values), Fraction(0))
    return {
        "damage": {str(v): str(p) for v, p in values},
        "at_least": {str(v): str(p) for v, p in at_least.items()},
        "mean": str(mean),
    }


def initiative_odds(dice: int = 6, large_set: LargeSet = "quad") -> dict[str, object]:
    """``odds wyrdcry initiative --dice N``: singles (= reaction dice) and each group count's distribution, and
    the chance to win initiative against a player rolling 6 dice."""
    out: dict[str, object] = {}
    joint = initiative_distribution(dice, large_set)
    for name in ("singles", "doubles", "triples", "quads"):
        dist = joint.map(lambda c, n=name: int(getattr(c, n)))  # type: ignore[misc]
        out[name] = {str(k): str(p) for k, p in sorted(dist.items())}
    out["p_win_vs_6"] = str(p_win_initiative(dice, 6, large_set))
    return out


# ------------------------------------------------------------------------------------------- the faces' commands
_COLUMNS = (Column("Result"), Column("Exact", "right"), Column("Probability", "right"))


def _damage_pair(text: str) -> tuple[int, int]:
    hit, _, crit = str(text).partition("/")
    if not hit.isdigit() or not crit.isdigit():
        raise ValueError(f"--damage must be HIT/CRIT damage, e.g. 2/4, got {text!r}")
    return int(hit), int(crit)


def run_attack(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """``warband odds wyrdcry attack``: the exact damage of one attack action (the hit table from ``params``)."""
    damage = _damage_pair(values["damage"])
    odds = attack_odds(
        int(values["attacks"]), int(values["skill"]), int(values["defense"]), damage, table_from_params(params)
    )
    dist: dict[str, str] = odds["damage"]  # type: ignore[assignment]
    rows = tuple((f"{k} damage", p, f"{float(Fraction(p)):.4f}") for k, p in dist.items())
    title = f"{values['attacks']} attacks, skill {values['skill']} vs Defense {values['defense']}"
    title += f", damage {values['damage']}"
    return OddsTable(title, _COLUMNS, rows, odds, (f"mean damage {float(Fraction(str(odds['mean']))):.4f}",))


def run_initiative(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """``warband odds wyrdcry initiative``: singles, groups and the chance to win initiative against 6 dice."""
    odds = initiative_odds(int(values["dice"]))
    singles: dict[str, str] = odds["singles"]  # type: ignore[assignment]
    rows = tuple((f"{k} singles (reaction dice)", p, f"{float(Fraction(p)):.4f}") for k, p in singles.items())
    note = f"P(win initiative against 6 dice) = {odds['p_win_vs_6']}"
    return OddsTable(f"Initiative roll of {values['dice']} dice", _COLUMNS, rows, odds, (note,))


ODDS_COMMANDS = (
    OddsCommand(
        "attack",
        "Exact damage of one attack action against a Defense (the hit table's rows).",
        (
            OddsOption("attacks", int, "Attack dice.", required=True, min=1, max=12),
            OddsOption("skill", int, "The Fight or Shoot characteristic.", required=True, min=1, max=12),
            OddsOption("defense", int, "The target's Defense.", required=True, min=1, max=12),
            OddsOption("damage", str, "Damage of a hit and of a critical hit, HIT/CRIT (e.g. 2/4).", required=True),
        ),
        run_attack,
    ),
    OddsCommand(
        "initiative",
        "Singles, doubles, triples, quads and reaction dice of an initiative roll; P(win) against 6 dice.",
        (OddsOption("dice", int, "Dice rolled.", 6, min=1, max=10),),
        run_initiative,
    ),
)
