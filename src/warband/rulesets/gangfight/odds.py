"""Exact Gangfight odds, as :class:`~warband.kernel.dice.Distribution` of exact Fractions.

Every possible roll (a sorted multiset with its exact probability, from :mod:`warband.kernel.dice`) goes through
the same functions the engine will use (:mod:`warband.rulesets.gangfight.dice`), so the odds cannot drift from the
rules.

* :func:`attack`: wounds that reach EN after armour, for an attack pool against a DEF and an armour roll against
  a DAM (digest B1 Melee; TN above 6 drops dice, digest B2 Dice).
* :func:`charge`: the Charge! distance for a MV on flat, light or dense terrain (seed 004, Charge!).
* :func:`area_attack`: wounds on one model under an Area of Effect that Dodges (seed 004, Dodge).
* :func:`initiative`: who wins the opposed IV test before deployment, ties rolled again (digest B1 Stages (1)).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from warband.kernel.dice import Distribution, pool_map
from warband.kernel.offers import Column, OddsCommand, OddsOption, OddsTable
from warband.rulesets.gangfight import dice
from warband.rulesets.gangfight.dice import DEFAULTS, DiceRules, Params, PoolTest
from warband.rulesets.gangfight.terms import Density

__all__ = ["area_attack", "attack", "charge", "initiative", "jump_climb", "pool_successes"]


def pool_successes(test: PoolTest, rules: DiceRules) -> Distribution[int]:
    """Successes of one pool test (dice already dropped, TN already clamped)."""
    return pool_map(test.dice, rules.sides, lambda faces: dice.successes(faces, test.tn, rules))


def attack(
    dice_count: int,
    tn: int,
    armour: int,
    dam: int,
    wounds_per_hit: int = 1,
    params: Params = DEFAULTS,
) -> Distribution[int]:
    """Wounds after armour: ``dice_count`` attack dice at TN ``tn`` (the target's DEF), each hit
    ``wounds_per_hit`` wounds (the attacker's size in melee, 1 at range), then ``armour`` ARM dice at TN ``dam``,
    each success negating one wound (digest B1 Melee). TNs above 6 drop dice, below 2 count as 2."""
    rules = DiceRules.from_params(params)
    hits = pool_successes(dice.attack_pool(dice_count, tn, params), rules)
    saves = pool_successes(dice.armour_pool(armour, dam, params), rules)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for h, ph in hits.items():
        for s, ps in saves.items():
            out[dice.wounds_after_armour(h * wounds_per_hit, s)] += ph * ps
    return Distribution(out)


def charge(mv: int, density: Density, params: Params = DEFAULTS) -> Distribution[int]:
    """Inches a Charge! moves: MV + 1" per success of MV dice at 2+/4+/6+ by terrain (seed 004, Charge!)."""
    rules = DiceRules.from_params(params)
    rolled = pool_successes(dice.charge_pool(mv, density, params), rules)
    return rolled.map(lambda s: dice.charge_distance(mv, s, params))


def jump_climb(mov: int, params: Params = DEFAULTS) -> Distribution[int]:
    """Inches a Jump/Climb check covers: 1" per success of MOV dice at TN 4 (seed 004, Jump/Climb)."""
    rules = DiceRules.from_params(params)
    rolled = pool_successes(dice.jump_climb_pool(mov, params), rules)
    return rolled.map(lambda s: dice.jump_climb_distance(s, params))


def area_attack(
    dice_count: int,
    tn: int,
    armour: int,
    dam: int,
    iv: int,
    params: Params = DEFAULTS,
) -> Distribution[int]:
    """Wounds on one model under an Area of Effect that Dodges: the attack's successes ``s`` against it (1 wound
    each, ranged), then its Dodge, ``iv`` dice at TN ``s`` (seed 004, Dodge; no roll when ``s`` is 0), then
    ``armour`` dice at TN ``dam``; armour and Dodge successes each negate a wound."""
    rules = DiceRules.from_params(params)
    hits = pool_successes(dice.attack_pool(dice_count, tn, params), rules)
    saves = pool_successes(dice.armour_pool(armour, dam, params), rules)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for h, ph in hits.items():
        dodges = pool_successes(dice.dodge_pool(iv, h, params), rules) if h else Distribution.certain(0)
        for d, pd in dodges.items():
            for s, ps in saves.items():
                out[dice.wounds_after_armour(dice.ranged_wounds(h), s, d)] += ph * pd * ps
    return Distribution(out)


def initiative(first_iv: int, second_iv: int, params: Params = DEFAULTS) -> Distribution[str]:
    """Who wins the opposed IV test at ``initiative_tn`` (4): more successes wins, a tie is rolled again until it
    is not (digest B1 Stages (1); digest B2 Turn). Outcomes ``"first"`` and ``"second"``; if neither side can
    ever score (no dice), the test can never be won and this raises ValueError."""
    rules = DiceRules.from_params(params)
    tn = int(params["initiative_tn"])
    a = pool_successes(dice.pool_test(first_iv, tn, rules), rules)
    b = pool_successes(dice.pool_test(second_iv, tn, rules), rules)
    wins: dict[str, Fraction] = defaultdict(Fraction)
    for x, px in a.items():
        for y, py in b.items():
            wins[dice.opposed(x, y)] += px * py
    decided = wins["first"] + wins["second"]
    if decided == 0:
        raise ValueError(f"an opposed test of {first_iv} against {second_iv} dice can never be decided")
    return Distribution({"first": wins["first"] / decided, "second": wins["second"] / decided})


# ------------------------------------------------------------------------------------------- the faces' commands
_COLUMNS = (Column("Result"), Column("Exact", "right"), Column("Probability", "right"))


def _rows(dist: Distribution[int], unit: str) -> tuple[tuple[str, ...], ...]:
    return tuple((f"{k}{unit}", f"{p.numerator}/{p.denominator}", f"{float(p):.4f}") for k, p in sorted(dist.items()))


def _data(dist: Distribution[int]) -> dict[str, Any]:
    items = sorted(dist.items())
    mean = sum((p * k for k, p in items), Fraction(0))
    return {
        "distribution": {str(k): {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"} for k, p in items},
        "mean": float(mean),
    }


def run_attack(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """``warband odds gangfight attack``: exact wounds after armour (TN above 6 drops dice, floor 2)."""
    dist = attack(
        int(values["dice"]), int(values["tn"]), int(values["armour"]), int(values["dam"]), int(values["size"]), params
    )
    title = f"{values['dice']} dice at TN {values['tn']}, ARM {values['armour']} vs DAM {values['dam']}"
    return OddsTable(title, _COLUMNS, _rows(dist, " wounds"), _data(dist), (f"mean {_data(dist)['mean']:.4f} wounds",))


def run_charge(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """``warband odds gangfight charge``: the exact Charge! distance for MV dice on a terrain density."""
    dist = charge(int(values["mv"]), values["terrain"], params)
    title = f"Charge! with MV {values['mv']} on {values['terrain']} terrain"
    return OddsTable(title, _COLUMNS, _rows(dist, '"'), _data(dist), (f'mean {_data(dist)["mean"]:.4f}"',))


ODDS_COMMANDS = (
    OddsCommand(
        "attack",
        "Exact wounds after armour of one attack (with the TN-above-6 rule).",
        (
            OddsOption("dice", int, "Attack dice.", required=True, min=0, max=12),
            OddsOption("tn", int, "Target number (the target's DEF).", required=True, min=0, max=12),
            OddsOption("armour", int, "ARM dice of the target.", required=True, min=0, max=12),
            OddsOption("dam", int, "DAM of the attack (the armour roll's TN).", required=True, min=0, max=12),
            OddsOption("size", int, "Wounds per hit (the attacker's size multiplier in melee).", 1, min=1, max=4),
        ),
        run_attack,
    ),
    OddsCommand(
        "charge",
        "Exact distribution of a Charge! distance.",
        (
            OddsOption("mv", int, "MV dice.", required=True, min=0, max=10),
            OddsOption("terrain", str, "Density of the terrain.", "flat", choices=("flat", "light", "dense")),
        ),
        run_charge,
    ),
)
