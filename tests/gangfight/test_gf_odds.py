"""Exact Gangfight odds (odds.py) against brute-force enumeration of every ordered roll, written here from the
rule text (seed 004, Charge!; digest B1 Melee; digest B2 Dice) without the ruleset's dice module."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from warband.kernel.params import ParamTable
from warband.rulesets.gangfight import PARAMS_PATH, odds

CHARGE_TN = {"flat": 2, "light": 4, "dense": 6}  # seed 004, Charge!


def brute_pool(n: int, tn: int) -> tuple[int, int]:
    """(dice rolled, TN each needs): TN floored at 2; each point above 6 drops a die, one die stays, at TN 6."""
    need = max(tn, 2)
    if need > 6 and n > 0:
        return max(n - (need - 6), 1), 6
    return (n, min(need, 6))


def hits_of(roll: tuple[int, ...], need: int) -> int:
    return sum(1 for f in roll if f != 1 and f >= need)


def brute_charge(mv: int, density: str) -> dict[int, Fraction]:
    counts = Counter(mv + hits_of(r, CHARGE_TN[density]) for r in itertools.product(range(1, 7), repeat=mv))
    return {d: Fraction(c, 6**mv) for d, c in counts.items()}


def brute_attack(n: int, tn: int, armour: int, dam: int, per_hit: int) -> dict[int, Fraction]:
    att_n, att_tn = brute_pool(n, tn)
    arm_n, arm_tn = brute_pool(armour, dam)
    counts: Counter[int] = Counter()
    for a in itertools.product(range(1, 7), repeat=att_n):
        wounds = hits_of(a, att_tn) * per_hit
        for s in itertools.product(range(1, 7), repeat=arm_n):
            counts[max(0, wounds - hits_of(s, arm_tn))] += 1
    total = 6 ** (att_n + arm_n)
    return {w: Fraction(c, total) for w, c in counts.items()}


@pytest.mark.parametrize("mv", range(0, 6))
@pytest.mark.parametrize("density", ["flat", "light", "dense"])
def test_charge_distance_matches_brute_force(mv: int, density: str) -> None:
    assert dict(odds.charge(mv, density)) == brute_charge(mv, density)  # type: ignore[arg-type]


def test_charge_by_hand() -> None:
    # MV 3 on light terrain: three dice at 4+, each a coin flip -> 3 + Binomial(3, 1/2).
    light = odds.charge(3, "light")
    assert dict(light) == {3: Fraction(1, 8), 4: Fraction(3, 8), 5: Fraction(3, 8), 6: Fraction(1, 8)}
    assert light.mean() == Fraction(9, 2)
    # MV 4 on flat terrain: each die succeeds on 2-6, 5/6 -> mean 4 + 4 * 5/6 = 22/3.
    assert odds.charge(4, "flat").mean() == Fraction(22, 3)
    # MV 3 on dense terrain: only 6s -> mean 3 + 3/6.
    assert odds.charge(3, "dense").mean() == Fraction(7, 2)


def test_charge_follows_a_changed_parameter() -> None:
    params = ParamTable.load(PARAMS_PATH).resolve({"charge_tn_light": 3})
    # Two dice at 3+ (2/3 each): P(both) = 4/9, so P(distance 4) = 4/9.
    assert odds.charge(2, "light", params).p(4) == Fraction(4, 9)


CASES = [
    (n, tn, armour, dam, per_hit)
    for n in range(0, 4)
    for tn in (1, 4, 6, 7, 9)
    for armour in range(0, 3)
    for dam in (2, 5, 8)
    for per_hit in (1, 2)
]


@pytest.mark.parametrize(("n", "tn", "armour", "dam", "per_hit"), CASES)
def test_attack_matches_brute_force(n: int, tn: int, armour: int, dam: int, per_hit: int) -> None:
    assert dict(odds.attack(n, tn, armour, dam, per_hit)) == brute_attack(n, tn, armour, dam, per_hit)


def test_attack_by_hand() -> None:
    # One die at DEF 4, no armour: a coin flip.
    assert dict(odds.attack(1, 4, 0, 4)) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    # Two dice at DEF 7: one die drops, the other needs a 6.
    assert odds.attack(2, 7, 0, 4).p(1) == Fraction(1, 6)
    # One die at 4+, then one armour die at DAM 4 saves half the time: 1/2 * 1/2.
    assert odds.attack(1, 4, 1, 4).p(1) == Fraction(1, 4)
    # Large attacker (2 wounds a hit), one hit certain-ish at DEF 2 (5/6), armour 1 at DAM 6 (1/6 save):
    # 2 wounds = 5/6 * 5/6, 1 wound = 5/6 * 1/6.
    dist = odds.attack(1, 2, 1, 6, wounds_per_hit=2)
    assert (dist.p(2), dist.p(1)) == (Fraction(25, 36), Fraction(5, 36))


def test_human_hero_against_veteran_mean_wounds() -> None:
    # Hero ATT 4 vs Veteran DEF 4 (4 dice at 4+ -> mean 2 hits), Veteran ARM 3 vs Hero DAM 5 (3 dice at 5+ -> mean
    # saves 1). The mean of max(0, hits - saves) is computed by hand in two steps: E[hits - saves] = 1, plus
    # E[max(0, saves - hits)] = P(saves - hits = 1) + 2 P(= 2) + 3 P(= 3).
    # hits ~ B(4, 1/2): P0=1/16, P1=4/16, P2=6/16; saves ~ B(3, 1/3): P1=12/27, P2=6/27, P3=1/27.
    # P(s-h=1) = P(s1 h0) + P(s2 h1) + P(s3 h2) = (12 + 24 + 6) / 432 = 42/432
    # P(s-h=2) = P(s2 h0) + P(s3 h1) = (6 + 4) / 432; P(s-h=3) = P(s3 h0) = 1/432.
    tail = Fraction(42, 432) + 2 * Fraction(10, 432) + 3 * Fraction(1, 432)
    assert odds.attack(4, 4, 3, 5).mean() == 1 + tail


def test_jump_climb_distance() -> None:
    # Four MOV dice at 4+: 0..4 inches with binomial weights over 16.
    assert dict(odds.jump_climb(4)) == {k: Fraction(c, 16) for k, c in enumerate((1, 4, 6, 4, 1))}


def brute_area(n: int, tn: int, armour: int, dam: int, iv: int) -> dict[int, Fraction]:
    """Oracle (seed 004, Dodge): hits h; Dodge = IV dice at TN h (pool rules as above); wounds h - dodge - armour."""
    att_n, att_tn = brute_pool(n, tn)
    arm_n, arm_tn = brute_pool(armour, dam)
    out: Counter[int] = Counter()
    total = 0
    for a in itertools.product(range(1, 7), repeat=att_n):
        h = hits_of(a, att_tn)
        dodge_n, dodge_tn = brute_pool(iv, h) if h else (0, 2)
        weight = 6 ** (6 - att_n - dodge_n)  # a common denominator of 6**6 for every branch
        for d in itertools.product(range(1, 7), repeat=dodge_n):
            dodged = hits_of(d, dodge_tn)
            for s in itertools.product(range(1, 7), repeat=arm_n):
                out[max(0, h - dodged - hits_of(s, arm_tn))] += weight
                total += weight
    return {w: Fraction(c, total) for w, c in out.items()}


@pytest.mark.parametrize(
    ("n", "tn", "armour", "dam", "iv"),
    [(n, tn, armour, 5, iv) for n in (0, 1, 2, 3) for tn in (3, 5) for armour in (0, 1) for iv in (0, 2, 3)]
    + [(4, 2, 1, 8, 2), (3, 7, 2, 4, 3)],
)
def test_area_attack_with_dodge_matches_brute_force(n: int, tn: int, armour: int, dam: int, iv: int) -> None:
    assert dict(odds.area_attack(n, tn, armour, dam, iv)) == brute_area(n, tn, armour, dam, iv)


def test_area_attack_by_hand() -> None:
    # One attack die at DEF 4 (1/2 hit); on a hit the IV-1 Dodge is TN 1 -> 2 (5/6 to dodge); no armour.
    # P(1 wound) = 1/2 * 1/6.
    assert odds.area_attack(1, 4, 0, 5, 1).p(1) == Fraction(1, 12)


def test_initiative_by_hand_and_by_symmetry() -> None:
    # One die each at 4+: first wins only on (hit, miss) = 1/4, second likewise, tie 1/2 -> rolled again: 1/2 each.
    assert dict(odds.initiative(1, 1)) == {"first": Fraction(1, 2), "second": Fraction(1, 2)}
    # Two dice against one: P(a > b): b=0 (1/2) and a>=1 (3/4) -> 3/8; b=1 (1/2) and a=2 (1/4) -> 1/8; total 1/2.
    # P(b > a): b=1 and a=0 -> 1/2 * 1/4 = 1/8. Decided 5/8: first 4/5, second 1/5.
    assert dict(odds.initiative(2, 1)) == {"first": Fraction(4, 5), "second": Fraction(1, 5)}
    assert odds.initiative(4, 3).p("first") == odds.initiative(3, 4).p("second")
    with pytest.raises(ValueError, match="never be decided"):
        odds.initiative(0, 0)
