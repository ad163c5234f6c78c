"""Gangfight dice rules as pure functions of numbers: the single source of truth for the engine and the odds.

No randomness and no state: the engine will feed these the dice it rolled, and :mod:`.odds` feeds them every
possible roll. Every number comes from the ruleset parameters (``params.toml``), read through :class:`DiceRules`
or a ``Mapping[str, Scalar]`` of resolved values, so a designer can change any of them.

Sources: seed 004 (``/work/shared/seeds/004_6343646e52f2e15c.txt``), section named in each docstring; the digest
``gangfight.md`` B1 (confirmed) and B2 (PROPOSED). The seed wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Literal

from warband.kernel import values
from warband.kernel.params import ParamTable, Scalar
from warband.rulesets.gangfight import PARAMS_PATH
from warband.rulesets.gangfight.terms import Density, Rank, Size, rank_order, size_order

__all__ = [
    "DEFAULTS",
    "STANDARD",
    "BandingBonus",
    "DiceRules",
    "Opposed",
    "Params",
    "PoolTest",
    "SlamKind",
    "action_points",
    "ap_after_bravery",
    "armour_pool",
    "attack_pool",
    "banding_bonus",
    "banding_cost",
    "banding_size_ok",
    "bring_it_down",
    "bulwark",
    "charge_distance",
    "charge_pool",
    "charge_tn",
    "criticals",
    "die_succeeds",
    "dodge_pool",
    "effective_tn",
    "fall_wounds",
    "is_incapacitated",
    "jump_climb_distance",
    "jump_climb_pool",
    "may_band",
    "melee_wounds",
    "on_my_mark",
    "opposed",
    "pool_size",
    "pool_test",
    "ranged_wounds",
    "run_distance",
    "slam_kind",
    "successes",
    "threat_range",
    "wounds_after_armour",
    "wounds_per_melee_hit",
]

Params = Mapping[str, Scalar]


@cache
def _defaults() -> dict[str, Scalar]:
    return ParamTable.load(PARAMS_PATH).defaults()


#: The default value of every parameter (``params.toml``).
DEFAULTS: Params = _defaults()


def _int(params: Params, name: str) -> int:
    value = params[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"parameter {name} must be an int, found {value!r}")
    return value


def _float(params: Params, name: str) -> float:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"parameter {name} must be a number, found {value!r}")
    return float(value)


# ------------------------------------------------------------------------------------------ dice pools


@values.value
class DiceRules:
    """The numbers every pool test uses (digest B1 Dice and Melee; digest B2 Dice)."""

    sides: int = 6
    tn_floor: int = 2
    tn_ceiling: int = 6
    natural_fail: int = 1
    dropped_per_point: int = 1
    min_dice_after_drop: int = 1
    critical_face: int = 6

    @classmethod
    def from_params(cls, params: Params = DEFAULTS) -> DiceRules:
        return cls(
            sides=_int(params, "die_sides"),
            tn_floor=_int(params, "tn_floor"),
            tn_ceiling=_int(params, "tn_ceiling"),
            natural_fail=_int(params, "natural_fail_face"),
            dropped_per_point=_int(params, "dice_dropped_per_tn_point"),
            min_dice_after_drop=_int(params, "min_dice_after_drop"),
            critical_face=_int(params, "critical_face"),
        )


STANDARD = DiceRules()


@values.value
class PoolTest:
    """A pool of ``dice`` D6, each succeeding on a natural roll of ``tn`` or more (and never on a natural 1)."""

    dice: int
    tn: int


def effective_tn(tn: int, rules: DiceRules = STANDARD) -> int:
    """The TN a single die must meet: never below the floor (digest B1 Dice: TN never below 2) and never above the
    ceiling (digest B1 Melee: a TN above 6 drops dice instead, see :func:`pool_size`)."""
    return min(max(tn, rules.tn_floor), rules.tn_ceiling)


def pool_size(dice: int, tn: int, rules: DiceRules = STANDARD) -> int:
    """Dice actually rolled: each point of TN above the ceiling drops ``dropped_per_point`` dice (digest B2 Dice),
    but a non-empty pool keeps at least ``min_dice_after_drop`` dice, which then need natural 6s (digest B1 Melee:
    "if impossible, only 6s hit"). A pool of zero or fewer dice rolls nothing."""
    if dice <= 0:
        return 0
    excess = max(0, max(tn, rules.tn_floor) - rules.tn_ceiling)
    kept = dice - excess * rules.dropped_per_point
    return max(kept, min(dice, rules.min_dice_after_drop))


def pool_test(dice: int, tn: int, rules: DiceRules = STANDARD) -> PoolTest:
    """The dice rolled and the TN each must meet for a pool of ``dice`` at ``tn`` (digest B1 Dice and Melee)."""
    return PoolTest(pool_size(dice, tn, rules), effective_tn(tn, rules))


def die_succeeds(face: int, tn: int, rules: DiceRules = STANDARD) -> bool:
    """One die: success on a natural roll >= the effective TN; a natural 1 always fails (digest B1 Dice)."""
    return face != rules.natural_fail and face >= effective_tn(tn, rules)


def successes(faces: Sequence[int], tn: int, rules: DiceRules = STANDARD) -> int:
    """Successes among the rolled ``faces`` (already the dice of :func:`pool_size`) against ``tn``."""
    return sum(1 for f in faces if die_succeeds(f, tn, rules))


def criticals(faces: Sequence[int], tn: int, rules: DiceRules = STANDARD) -> int:
    """Critical Successes: successful dice showing a natural 6 (digest B1 Melee). They add
    ``critical_extra_wounds`` (0 by default, digest B2 Dice)."""
    return sum(1 for f in faces if f == rules.critical_face and die_succeeds(f, tn, rules))


Opposed = Literal["first", "second", "tie"]


def opposed(first_successes: int, second_successes: int) -> Opposed:
    """An opposed test: more successes wins (digest B1 Stages (1): opposed IV test at TN 4); a tie is rolled
    again (digest B2 Turn, param ``initiative_ties``)."""
    if first_successes > second_successes:
        return "first"
    if second_successes > first_successes:
        return "second"
    return "tie"


# ---------------------------------------------------------------------------------------- action points


def action_points(iv: int, params: Params = DEFAULTS) -> int:
    """AP a model generates at the start of its player's turn: one per point of IV (seed 004, Action Points: "a
    model with an Initiative Value (IV) of 3 would generate 3 Action Points")."""
    return max(0, iv) * _int(params, "ap_per_iv")


def ap_after_bravery(iv: int, bravery_successes: int, params: Params = DEFAULTS) -> int:
    """AP of a model whose party must test Bravery at turn start: the successes, at most its normal AP (digest B1
    Fear: next turn AP = successes; digest B2 End: AP = min(IV, successes))."""
    return min(action_points(iv, params), max(0, bravery_successes))


# -------------------------------------------------------------------------------------------- movement


def run_distance(mv: float, params: Params = DEFAULTS) -> float:
    """Inches of a Run: twice the Movement Value (seed 004, Run: "move twice their Movement Value")."""
    return mv * _int(params, "run_multiplier")


def charge_tn(density: Density, params: Params = DEFAULTS) -> int:
    """TN of each Charge! die: 2+ on flat, 4+ on light, 6+ on dense terrain (seed 004, Charge!)."""
    return _int(params, f"charge_tn_{density}")


def charge_distance(mv: int, charge_successes: int, params: Params = DEFAULTS) -> int:
    """Inches a charging model moves: its standard move plus 1" per success (seed 004, Charge!: "MV 4 and 2
    successes - the model will move a total of 6"), whether or not it reaches the target (seed 004: a failed
    charge still moves the entire distance rolled). The Charge! pool is MV dice (:func:`charge_pool`)."""
    return mv + charge_successes * _int(params, "charge_inches_per_success")


def charge_pool(mv: int, density: Density, params: Params = DEFAULTS) -> PoolTest:
    """The Charge! roll: as many dice as the MV characteristic, at the TN of the terrain (seed 004, Charge!)."""
    rules = DiceRules.from_params(params)
    return pool_test(mv, charge_tn(density, params), rules)


def jump_climb_distance(check_successes: int, params: Params = DEFAULTS) -> int:
    """Inches a Jump/Climb covers: 1" per success of the MOV check at TN 4 (seed 004, Jump/Climb: "Each success is
    equal to 1 inch of Movement")."""
    return check_successes * _int(params, "jump_climb_inches_per_success")


def jump_climb_pool(mov: int, params: Params = DEFAULTS) -> PoolTest:
    """The Jump/Climb check: MOV dice at TN 4 (seed 004, Jump/Climb)."""
    return pool_test(mov, _int(params, "jump_climb_tn"), DiceRules.from_params(params))


def fall_wounds(drop_inches: float, params: Params = DEFAULTS) -> int:
    """Wounds of a fall after a failed jump or climb: 1 per full 3" of the drop (digest B2 Jump/Climb, PROPOSED);
    the model then rolls ARM at ``fall_armour_tn``."""
    return int(max(0.0, drop_inches) // _int(params, "fall_inches_per_wound"))


# ---------------------------------------------------------------------------------------------- combat


def threat_range(size: Size, params: Params = DEFAULTS) -> float:
    """Inches of threat range by size: 0.5/1/2/3 (digest B1 Size)."""
    return _float(params, f"threat_{size.lower()}")


def wounds_per_melee_hit(size: Size, params: Params = DEFAULTS) -> int:
    """Wounds each melee hit of an attacker of ``size`` causes: 1/1/2/4 (digest B1 Size)."""
    return _int(params, f"wounds_per_hit_{size.lower()}")


def melee_wounds(hits: int, attacker_size: Size, params: Params = DEFAULTS) -> int:
    """Wounds of a melee attack before armour: each hit is one wound times the attacker's size multiplier
    (digest B1 Melee: each hit 1 wound (x size))."""
    return hits * wounds_per_melee_hit(attacker_size, params)


def ranged_wounds(hits: int) -> int:
    """Wounds of a ranged attack before armour: one per hit whatever the shooter's size (data digest §3; the size
    multiplier is melee-only)."""
    return hits


def attack_pool(att: int, target_def: int, params: Params = DEFAULTS) -> PoolTest:
    """A melee (ATT) or ranged (MRK) attack: that many dice at TN = the target's DEF (digest B1 Melee)."""
    return pool_test(att, target_def, DiceRules.from_params(params))


def armour_pool(arm: int, attacker_dam: int, params: Params = DEFAULTS) -> PoolTest:
    """The defender's armour roll: ARM dice at TN = the attacker's modified DAM, the same floor and above-6 rule
    (digest B1 Melee and Attributes: DAM = TN of the target's armour roll)."""
    return pool_test(arm, attacker_dam, DiceRules.from_params(params))


def dodge_pool(iv: int, attacker_successes: int, params: Params = DEFAULTS) -> PoolTest:
    """A Dodge: an IV test at TN = the successes the Area of Effect attacker scored (seed 004, Dodge)."""
    return pool_test(iv, attacker_successes, DiceRules.from_params(params))


def wounds_after_armour(wounds: int, armour_successes: int, dodge_successes: int = 0) -> int:
    """Wounds that reach EN: each armour success negates one (digest B1 Melee), and each Dodge success is added to
    the armour roll (seed 004, Dodge: "Each success is added to your Armour Roll to soak the damage")."""
    return max(0, wounds - armour_successes - dodge_successes)


def is_incapacitated(en_left: int) -> bool:
    """A model whose EN is 0 or less is incapacitated (digest B1 Melee)."""
    return en_left <= 0


def bulwark(defence: int, params: Params = DEFAULTS) -> int:
    """DEF of a model that formed a Bulwark: +1 (seed 004, Bulwark)."""
    return defence + _int(params, "bulwark_def")


SlamKind = Literal["slam", "trample"]


def slam_kind(attacker: Size, target: Size) -> SlamKind | None:
    """Whether a Slam! is possible and which: only a Large or Huge model may Slam!, a same size or larger target
    ("slam") or trample a smaller one ("trample") (seed 004, Slam!); None if the attacker is too small."""
    if attacker not in ("Large", "Huge"):
        return None
    return "trample" if size_order(target) < size_order(attacker) else "slam"


# --------------------------------------------------------------------------------------------- banding


def may_band(leader: Rank, other: Rank) -> bool:
    """Whether ``leader`` may incorporate ``other``: only models of its rank or lower (seed 004, Banding Actions)."""
    return rank_order(other) <= rank_order(leader)


def banding_size_ok(joined: int, params: Params = DEFAULTS) -> bool:
    """The leader nominates up to four others (seed 004, Banding Actions): at most five models in all."""
    return 0 <= joined <= _int(params, "banding_max_models") - 1


def banding_cost(joined: int, params: Params = DEFAULTS) -> tuple[int, int]:
    """(AP the leader spends, AP each joining model spends) for a Banding Action with ``joined`` others (seed 004,
    Banding Actions: the leader spends an AP, then the nomination costs "an additional Action Point"; param
    ``banding_join_payer`` says who pays it)."""
    lead, join = _int(params, "banding_leader_ap"), _int(params, "banding_join_ap")
    if params["banding_join_payer"] == "leader":
        return lead + (join if joined else 0), 0
    return lead, join


@values.value
class BandingBonus:
    """What a Banding attack adds: to the attack pool (ATT or MRK) and to DAM."""

    pool: int
    dam: int


def banding_bonus(joined: int, pool_per_model: int, dam_per_model: int, params: Params = DEFAULTS) -> BandingBonus:
    """+``pool_per_model`` and +``dam_per_model`` for each model involved (seed 004, Bring it Down! and On my
    Mark!); the leader counts among them only if ``banding_bonus_counts_leader``."""
    involved = joined + (1 if params["banding_bonus_counts_leader"] is True else 0)
    return BandingBonus(involved * pool_per_model, involved * dam_per_model)


def bring_it_down(att: int, dam: int, joined: int, params: Params = DEFAULTS) -> tuple[int, int]:
    """(ATT, DAM) of the leader's single melee attack: +1 ATT and +1 DAM per model involved (seed 004, Bring it
    Down!)."""
    bonus = banding_bonus(joined, _int(params, "banding_att_bonus"), _int(params, "banding_dam_bonus"), params)
    return att + bonus.pool, dam + bonus.dam


def on_my_mark(mrk: int, dam: int, joined: int, params: Params = DEFAULTS) -> tuple[int, int]:
    """(MRK, DAM) of the leader's single ranged attack: +1 MRK and +1 DAM per model involved (seed 004, On my
    Mark!). ``dam`` is the weapon's DAM (data digest §3)."""
    bonus = banding_bonus(joined, _int(params, "banding_mrk_bonus"), _int(params, "banding_dam_bonus"), params)
    return mrk + bonus.pool, dam + bonus.dam
