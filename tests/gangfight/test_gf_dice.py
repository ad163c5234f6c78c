"""Gangfight dice rules (dice.py): every expected number is worked out by hand from the clause cited, or by a
brute-force oracle written here from the rule text (not from dice.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warband.kernel.dice import pool_map
from warband.kernel.params import ParamTable, Scalar
from warband.rulesets.gangfight import PARAMS_PATH
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.terms import RANKS

PARAMS = ParamTable.load(PARAMS_PATH)


def with_params(**over: object) -> dict[str, Scalar]:
    return dict(PARAMS.resolve(over))


# -- pools against a TN (digest B1 Dice and Melee, B2 Dice) ------------------------------------------------


@pytest.mark.parametrize(("tn", "expected"), [(-3, 2), (0, 2), (1, 2), (2, 2), (4, 4), (6, 6), (7, 6), (12, 6)])
def test_tn_never_below_two_and_capped_at_six(tn: int, expected: int) -> None:
    assert gd.effective_tn(tn) == expected


@pytest.mark.parametrize(
    ("dice", "tn", "expected"),
    [
        (3, 6, 3),  # at the ceiling nothing drops
        (3, 7, 2),  # one point above 6 drops one die
        (3, 8, 1),
        (3, 9, 1),  # cannot drop three: one die stays and needs a 6
        (1, 12, 1),
        (5, 1, 5),  # a low TN drops nothing
        (0, 4, 0),
        (-2, 8, 0),
    ],
)
def test_each_point_of_tn_above_six_drops_a_die_keeping_one(dice: int, tn: int, expected: int) -> None:
    assert gd.pool_size(dice, tn) == expected


def test_natural_one_fails_even_when_the_floor_is_lowered() -> None:
    rules = gd.DiceRules(tn_floor=1)
    assert not gd.die_succeeds(1, 1, rules)
    assert gd.die_succeeds(2, 1, rules)
    assert not gd.die_succeeds(1, -5)


@pytest.mark.parametrize(("face", "tn", "ok"), [(2, 2, True), (3, 4, False), (4, 4, True), (6, 9, True), (5, 9, False)])
def test_success_is_a_natural_roll_at_or_above_the_tn(face: int, tn: int, ok: bool) -> None:
    assert gd.die_succeeds(face, tn) is ok


def test_successes_and_criticals_count_faces() -> None:
    assert gd.successes([1, 2, 3, 4, 5, 6], 4) == 3
    assert gd.successes([1, 1, 2], 0) == 1  # TN 0 counts as 2; the natural 1s fail
    assert gd.criticals([6, 6, 5, 1], 4) == 2


def brute_successes(n: int, tn: int) -> dict[int, Fraction]:
    """Oracle from the rule text: TN floored at 2; above 6, drop one die per point (at least one stays) at TN 6."""
    need = max(tn, 2)
    if need > 6:
        n = max(n - (need - 6), 1) if n > 0 else 0
        need = 6
    counts = Counter(sum(1 for f in roll if f != 1 and f >= need) for roll in itertools.product(range(1, 7), repeat=n))
    return {k: Fraction(c, 6**n) for k, c in counts.items()}


@pytest.mark.parametrize("n", range(5))
@pytest.mark.parametrize("tn", range(0, 11))
def test_pool_successes_match_brute_force(n: int, tn: int) -> None:
    test = gd.pool_test(n, tn)
    dist = pool_map(test.dice, 6, lambda faces: gd.successes(faces, test.tn))
    assert dict(dist) == brute_successes(n, tn)


@given(st.integers(0, 20), st.integers(-5, 20))
def test_pool_size_never_grows_and_never_empties_a_pool(n: int, tn: int) -> None:
    size = gd.pool_size(n, tn)
    assert size <= n
    assert (size >= 1) == (n >= 1)


def test_opposed_test_more_successes_wins_tie_rerolls() -> None:
    assert gd.opposed(3, 2) == "first"
    assert gd.opposed(0, 1) == "second"
    assert gd.opposed(2, 2) == "tie"


# -- action points (seed 004, Action Points; digest B1 Fear / B2 End) ----------------------------------------


def test_iv_three_generates_three_action_points() -> None:
    assert gd.action_points(3) == 3
    assert gd.action_points(0) == 0


def test_bravery_caps_action_points_at_successes() -> None:
    assert gd.ap_after_bravery(4, 2) == 2
    assert gd.ap_after_bravery(3, 5) == 3
    assert gd.ap_after_bravery(3, 0) == 0


# -- movement (seed 004, Run, Charge!, Jump/Climb) ------------------------------------------------------------


def test_run_is_twice_the_movement_value() -> None:
    assert gd.run_distance(4) == 8
    assert gd.run_distance(4, with_params(run_multiplier=3)) == 12


def test_charge_tn_by_terrain_is_two_four_six() -> None:
    assert [gd.charge_tn(d) for d in ("flat", "light", "dense")] == [2, 4, 6]


def test_charge_mv_four_with_two_successes_moves_six() -> None:
    assert gd.charge_distance(4, 2) == 6
    assert gd.charge_distance(4, 0) == 4


def test_charge_rolls_mv_dice_at_the_terrain_tn() -> None:
    assert gd.charge_pool(4, "light") == gd.PoolTest(4, 4)
    assert gd.charge_pool(3, "dense") == gd.PoolTest(3, 6)


def test_jump_climb_is_mov_dice_at_four_an_inch_per_success() -> None:
    assert gd.jump_climb_pool(4) == gd.PoolTest(4, 4)
    assert gd.jump_climb_distance(3) == 3


@pytest.mark.parametrize(("drop", "wounds"), [(0.0, 0), (2.9, 0), (3.0, 1), (6.5, 2), (-1.0, 0)])
def test_fall_is_a_wound_per_full_three_inches(drop: float, wounds: int) -> None:
    assert gd.fall_wounds(drop) == wounds


# -- combat (digest B1 Size and Melee; seed 004, Dodge, Bulwark) ---------------------------------------------


def test_threat_and_wounds_by_size() -> None:
    sizes = ("Small", "Medium", "Large", "Huge")
    assert [gd.threat_range(s) for s in sizes] == [0.5, 1.0, 2.0, 3.0]
    assert [gd.wounds_per_melee_hit(s) for s in sizes] == [1, 1, 2, 4]


def test_size_multiplies_melee_hits_but_not_ranged_hits() -> None:
    assert gd.melee_wounds(3, "Large") == 6
    assert gd.melee_wounds(2, "Huge") == 8
    assert gd.melee_wounds(3, "Small") == 3
    assert gd.ranged_wounds(3) == 3


def test_attack_and_armour_pools_use_def_and_dam_as_tn() -> None:
    assert gd.attack_pool(3, 5) == gd.PoolTest(3, 5)
    assert gd.attack_pool(3, 7) == gd.PoolTest(2, 6)
    assert gd.armour_pool(4, 5) == gd.PoolTest(4, 5)
    assert gd.armour_pool(4, 8) == gd.PoolTest(2, 6)


def test_armour_and_dodge_successes_each_negate_a_wound() -> None:
    assert gd.wounds_after_armour(5, 2) == 3
    assert gd.wounds_after_armour(2, 5) == 0
    assert gd.wounds_after_armour(5, 2, 2) == 1


def test_dodge_is_an_iv_test_at_the_attackers_successes() -> None:
    assert gd.dodge_pool(3, 4) == gd.PoolTest(3, 4)
    assert gd.dodge_pool(3, 1) == gd.PoolTest(3, 2)  # TN never below 2
    assert gd.dodge_pool(3, 8) == gd.PoolTest(1, 6)  # two points above 6 drop two dice


def test_en_zero_or_less_is_incapacitated() -> None:
    assert gd.is_incapacitated(0)
    assert gd.is_incapacitated(-2)
    assert not gd.is_incapacitated(1)


def test_bulwark_adds_one_defence() -> None:
    assert gd.bulwark(4) == 5


def test_only_large_or_huge_slam_same_size_or_larger_and_trample_smaller() -> None:
    assert gd.slam_kind("Medium", "Medium") is None
    assert gd.slam_kind("Small", "Huge") is None
    assert gd.slam_kind("Large", "Large") == "slam"
    assert gd.slam_kind("Large", "Huge") == "slam"
    assert gd.slam_kind("Large", "Medium") == "trample"
    assert gd.slam_kind("Huge", "Large") == "trample"
    assert gd.slam_kind("Huge", "Huge") == "slam"


# -- banding (seed 004, Banding Actions, Bring it Down!, On my Mark!) ----------------------------------------


def test_banding_only_with_equal_or_lower_rank() -> None:
    allowed = {(a, b) for a in RANKS for b in RANKS if gd.may_band(a, b)}
    assert allowed == {
        ("Hero", "Hero"),
        ("Hero", "Veteran"),
        ("Hero", "Regular"),
        ("Veteran", "Veteran"),
        ("Veteran", "Regular"),
        ("Regular", "Regular"),
    }


def test_leader_nominates_up_to_four_others() -> None:
    assert [gd.banding_size_ok(k) for k in range(-1, 6)] == [False, True, True, True, True, True, False]


def test_banding_cost_leader_one_ap_each_joiner_one_ap() -> None:
    assert gd.banding_cost(3) == (1, 1)
    leader_pays = with_params(banding_join_payer="leader")
    assert gd.banding_cost(3, leader_pays) == (2, 0)
    assert gd.banding_cost(0, leader_pays) == (1, 0)


def test_bring_it_down_adds_att_and_dam_per_model_involved() -> None:
    assert gd.bring_it_down(3, 4, 2) == (5, 6)
    counting_leader = with_params(banding_bonus_counts_leader=True)
    assert gd.bring_it_down(3, 4, 2, counting_leader) == (6, 7)


def test_on_my_mark_adds_mrk_and_dam_per_model_involved() -> None:
    assert gd.on_my_mark(3, 5, 4) == (7, 9)
    assert gd.on_my_mark(3, 5, 0) == (3, 5)


def test_dice_rules_read_from_params() -> None:
    rules = gd.DiceRules.from_params(with_params(tn_floor=3, tn_ceiling=5))
    assert gd.effective_tn(2, rules) == 3
    assert gd.pool_size(3, 6, rules) == 2
