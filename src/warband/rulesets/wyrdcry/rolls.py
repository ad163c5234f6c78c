"""The arithmetic of Wyrdcry's rolls, as pure functions of numbers: the hit table, damage, modifiers, the universal
reactions' dice, falls and Bravery tests. The rules that roll them live in ``attacks.py``, ``reactions.py``,
``climbing.py`` and ``morale.py``; ``odds.py`` builds exact odds on the same functions.

Sources (paraphrased): digest ``wyrdcry.md`` (D) §A5 (attack method, hit table, modifiers, damage), §A6 (damage
and out of action), §A7 (the three universal reactions), §A4 (falling), §A8 (Bravery tests); seed 003 (S)
"Rampage" (-1 Defense to the end of the round). The table comes from the later text (W); the Notion pages give
fighters Defense without a table, so it is the assumed method [?]. Every threshold is a parameter
(``params.toml``); :data:`DEFAULT_TABLE` holds the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Literal

from warband.kernel import values

__all__ = [
    "BANDS",
    "DEFAULT_TABLE",
    "Band",
    "HitResult",
    "HitTable",
    "Tally",
    "apply_damage",
    "attack_damage",
    "attack_skill",
    "bravery_test",
    "counter_damage",
    "fall_dice",
    "hit_band",
    "hit_result",
    "remove_damage",
    "strike_them_down",
    "table_from_params",
    "take_cover",
    "tally",
    "target_defense",
]

Band = Literal["double", "higher", "equal", "lower", "half"]
HitResult = Literal["miss", "hit", "crit"]

#: Rows of the hit table, best for the attacker first (D §A5).
BANDS: Final[tuple[Band, ...]] = ("double", "higher", "equal", "lower", "half")


@values.value
class HitTable:
    """For each band, the lowest die that hits and the lowest that crits (7 = no crit on a D6)."""

    rows: Mapping[Band, tuple[int, int]]

    def hit_from(self, band: Band) -> int:
        return self.rows[band][0]

    def crit_from(self, band: Band) -> int:
        return self.rows[band][1]


#: D §A5: >=double 3-4 hit 5-6 crit; higher 3-5/6; equal 4-5/6; lower 5/6; <=half 5-6 hit, no crit.
DEFAULT_TABLE: Final = HitTable({"double": (3, 5), "higher": (3, 6), "equal": (4, 6), "lower": (5, 6), "half": (5, 7)})


def table_from_params(params: Mapping[str, object]) -> HitTable:
    """A hit table from resolved parameters ``hit_<band>`` and ``crit_<band>`` (see params.toml)."""
    return HitTable({b: (int(str(params[f"hit_{b}"])), int(str(params[f"crit_{b}"]))) for b in BANDS})


# ------------------------------------------------------------------------------------------ characteristics


def attack_skill(base: int, mighty: int = 0, panicked: bool = False, bonus: int = 0, floor: int = 1) -> int:
    """Fight (melee) or Shoot (ranged) for one attack (D §A5): + Mighty X, -1 if panicked, + other bonuses;
    never below ``floor`` (param ``min_characteristic``, [P])."""
    return max(floor, base + mighty - (1 if panicked else 0) + bonus)


def target_defense(
    base: int,
    *,
    melee: bool,
    armour: int = 0,
    parry: bool = False,
    cover: bool = False,
    flanked: bool = False,
    rampaged: bool = False,
    bonus: int = 0,
    floor: int = 1,
) -> int:
    """The target's Defense against one attack.

    D §A5: armour adds its bonus; Parry +1 against melee only; cover +1 (the caller decides whether the attack
    earns it); flanked -1 in melee only. S "Rampage": -1 for a fighter that used Rampage this battle round.
    Never below ``floor`` (param ``min_characteristic``, [P]).
    """
    value = base + armour + bonus + (1 if cover else 0) - (1 if rampaged else 0)
    if melee:
        value += (1 if parry else 0) - (1 if flanked else 0)
    return max(floor, value)


def hit_band(skill: int, defense: int) -> Band:
    """Which row of the hit table applies (D §A5): skill at least double the Defense, higher, equal, lower,
    or at most half of it. Both must be at least 1."""
    if skill < 1 or defense < 1:
        raise ValueError(f"expected skill and Defense of at least 1, found {skill} and {defense}")
    if skill >= 2 * defense:
        return "double"
    if 2 * skill <= defense:
        return "half"
    if skill > defense:
        return "higher"
    return "equal" if skill == defense else "lower"


# ----------------------------------------------------------------------------------------------- hit rolls


def hit_result(roll: int, band: Band, table: HitTable = DEFAULT_TABLE) -> HitResult:
    """One hit roll read on the table's row ``band`` (D §A5)."""
    if roll >= table.crit_from(band):
        return "crit"
    return "hit" if roll >= table.hit_from(band) else "miss"


@values.value
class Tally:
    """Hits, critical hits and misses of one attack action's hit rolls."""

    hits: int
    crits: int
    misses: int


def tally(rolls: Sequence[int], band: Band, table: HitTable = DEFAULT_TABLE) -> Tally:
    """Count the results of an attack action's hit rolls (one die per Attack, D §A5)."""
    results = [hit_result(r, band, table) for r in rolls]
    return Tally(results.count("hit"), results.count("crit"), results.count("miss"))


def attack_damage(
    rolls: Sequence[int],
    skill: int,
    defense: int,
    damage: tuple[int, int],
    *,
    unreliable: bool = False,
    bonus_per_hit: int = 0,
    table: HitTable = DEFAULT_TABLE,
) -> int:
    """Damage an attack action deals (D §A5): each hit the weapon's first Damage value, each crit its second.

    ``unreliable`` (data: Unreliable): any roll of 1 voids every hit roll. ``bonus_per_hit`` adds to every hit
    and crit (data: Hunter's Eye +1, Hammer of Sigmar +X/2).
    """
    if unreliable and 1 in rolls:
        return 0
    t = tally(rolls, hit_band(skill, defense), table)
    return t.hits * (damage[0] + bonus_per_hit) + t.crits * (damage[1] + bonus_per_hit)


# ------------------------------------------------------------------------------------------------- damage


def apply_damage(allocated: int, health: int, amount: int) -> tuple[int, bool]:
    """Allocate ``amount`` damage points one at a time (D §A6): returns the damage now allocated (never above
    ``health``: the excess is lost) and whether the fighter is out of action (damage = Health)."""
    total = min(health, allocated + max(0, amount))
    return total, total >= health


def remove_damage(allocated: int, amount: int) -> int:
    """Damage left after removing ``amount`` points (S "Respite": points equal to the ability's value)."""
    return max(0, allocated - max(0, amount))


def fall_dice(drop: float, inches_per_die: float = 2.0) -> int:
    """D3s of damage for a fall (D §A4: D3 per full 2" fallen; param ``fall_inches_per_die``)."""
    return int(drop // inches_per_die) if drop > 0 else 0


def bravery_test(roll: int, bravery: int) -> bool:
    """A Bravery test passes on a D6 at or above Bravery (data §3: Bravery is a target; D §A8 [P])."""
    return roll >= bravery


# ------------------------------------------------------------------------------------ universal reactions


def counter_damage(
    rolls: Sequence[int], band: Band, table: HitTable = DEFAULT_TABLE, miss: int = 2, on_one: int = 3
) -> int:
    """Counter (D §A7): if any of the attacker's hit rolls misses, the attacker takes ``miss`` damage, or
    ``on_one`` if any roll is a 1 (params ``counter_damage``, ``counter_damage_on_one``)."""
    if not tally(rolls, band, table).misses:
        return 0
    return on_one if 1 in rolls else miss


def take_cover(crits: int, saves: Sequence[int], save_from: int = 4) -> int:
    """Take Cover (D §A7): one D6 per critical hit; each at ``save_from``+ (param ``take_cover_save``) turns a
    crit into a normal hit. Returns how many crits become hits."""
    if len(saves) != crits:
        raise ValueError(f"expected one die per critical hit ({crits}), found {len(saves)}")
    return sum(1 for s in saves if s >= save_from)


def strike_them_down(roll: int, damage_roll: int, strike_from: int = 4) -> int:
    """Strike Them Down (D §A7): on ``roll`` at ``strike_from``+ (param ``strike_them_down_from``) the
    retreating enemy takes ``damage_roll`` (a D6) damage, else none."""
    return damage_roll if roll >= strike_from else 0
