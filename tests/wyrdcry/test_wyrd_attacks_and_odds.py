"""Hit table, damage, modifiers and reactions (rolls.py) and exact odds (odds.py).

The oracles below are written from the digest's table (wyrdcry.md §A5) and the grouping rule (§A2) directly,
enumerating every ordered roll with ``itertools.product``; they do not call rolls.py or dice.py.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from warband.rulesets.wyrdcry.odds import (
    count_distribution,
    damage_distribution,
    initiative_distribution,
    p_win_initiative,
    reaction_dice_distribution,
)
from warband.rulesets.wyrdcry.rolls import (
    DEFAULT_TABLE,
    Tally,
    apply_damage,
    attack_damage,
    attack_skill,
    bravery_test,
    counter_damage,
    fall_dice,
    hit_band,
    hit_result,
    remove_damage,
    strike_them_down,
    take_cover,
    tally,
    target_defense,
)

# The digest's rows, as (miss faces, hit faces, crit faces).
ROWS = {
    "double": ({1, 2}, {3, 4}, {5, 6}),
    "higher": ({1, 2}, {3, 4, 5}, {6}),
    "equal": ({1, 2, 3}, {4, 5}, {6}),
    "lower": ({1, 2, 3, 4}, {5}, {6}),
    "half": ({1, 2, 3, 4}, {5, 6}, set()),
}


def oracle_band(skill: int, defense: int) -> str:
    if skill >= 2 * defense:
        return "double"
    if skill * 2 <= defense:
        return "half"
    return "higher" if skill > defense else ("equal" if skill == defense else "lower")


def oracle_damage(
    n: int, skill: int, defense: int, hit: int, crit: int, unreliable: bool = False
) -> dict[int, Fraction]:
    _, hits, crits = ROWS[oracle_band(skill, defense)]
    counts: Counter[int] = Counter()
    for roll in itertools.product(range(1, 7), repeat=n):
        if unreliable and 1 in roll:
            counts[0] += 1
            continue
        counts[sum(hit if r in hits else crit if r in crits else 0 for r in roll)] += 1
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


def oracle_singles(n: int) -> dict[int, Fraction]:
    counts = Counter(sum(1 for c in Counter(r).values() if c == 1) for r in itertools.product(range(1, 7), repeat=n))
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


# -- hit table -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("skill", "defense", "band"),
    [(6, 3, "double"), (7, 3, "double"), (4, 3, "higher"), (5, 3, "higher"), (3, 3, "equal"), (2, 3, "lower"),
     (3, 4, "lower"), (2, 4, "half"), (1, 3, "half"), (1, 1, "equal"), (2, 1, "double"), (3, 6, "half")],
)  # fmt: skip
def test_hit_band_rows(skill: int, defense: int, band: str) -> None:
    assert hit_band(skill, defense) == band


def test_hit_band_agrees_with_the_oracle_everywhere() -> None:
    for s, d in itertools.product(range(1, 13), repeat=2):
        assert hit_band(s, d) == oracle_band(s, d)
    with pytest.raises(ValueError, match="at least 1"):
        hit_band(0, 3)


def test_every_face_on_every_row_reads_as_the_digest_table() -> None:
    for band, (misses, hits, crits) in ROWS.items():
        for face in range(1, 7):
            want = "miss" if face in misses else "hit" if face in hits else "crit" if face in crits else "?"
            assert hit_result(face, band) == want, (band, face)  # type: ignore[arg-type]


def test_tally_and_damage_of_one_attack() -> None:
    assert tally([1, 4, 6], "equal") == Tally(hits=1, crits=1, misses=1)
    assert tally([5, 6, 6, 2], "double") == Tally(hits=0, crits=3, misses=1)
    # Sword (3 attacks, 2/3) at Fight 3 vs Defense 3 rolling 4, 6, 2: one hit (2) + one crit (3).
    assert attack_damage([4, 6, 2], 3, 3, (2, 3)) == 5
    # Handgun (Unreliable): a 1 voids the whole attack.
    assert attack_damage([1, 6], 5, 3, (4, 8), unreliable=True) == 0
    # Hunter's Eye: +1 per hit and crit.
    assert attack_damage([5, 6], 3, 3, (2, 3), bonus_per_hit=1) == 3 + 4


def test_modifiers() -> None:
    assert attack_skill(3, mighty=2) == 5
    assert attack_skill(3, panicked=True) == 2
    assert attack_skill(1, panicked=True) == 1
    assert target_defense(3, melee=True, parry=True) == 4
    assert target_defense(3, melee=False, parry=True) == 3
    assert target_defense(3, melee=True, flanked=True) == 2
    assert target_defense(3, melee=False, flanked=True) == 3
    assert target_defense(3, melee=False, cover=True, armour=1) == 5
    assert target_defense(3, melee=True, rampaged=True) == 2
    assert target_defense(1, melee=True, rampaged=True, flanked=True) == 1


def test_damage_out_of_action_and_respite() -> None:
    assert apply_damage(0, 10, 4) == (4, False)
    assert apply_damage(8, 10, 5) == (10, True)  # excess lost
    assert remove_damage(6, 5) == 1
    assert remove_damage(3, 5) == 0


def test_falls_reactions_and_bravery() -> None:
    assert [fall_dice(x) for x in (1.9, 2.0, 3.9, 4.0, 6.5)] == [0, 1, 1, 2, 3]
    assert counter_damage([3, 4, 5], "equal") == 2
    assert counter_damage([1, 5, 5], "equal") == 3
    assert counter_damage([4, 5, 6], "equal") == 0
    assert take_cover(2, [4, 3]) == 1
    with pytest.raises(ValueError, match="one die per critical"):
        take_cover(2, [4])
    assert strike_them_down(4, 5) == 5
    assert strike_them_down(3, 5) == 0
    assert bravery_test(4, 4)
    assert not bravery_test(3, 4)


# -- exact odds ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "skill", "defense", "dmg"),
    [(1, 3, 3, (2, 3)), (2, 4, 3, (4, 8)), (3, 3, 3, (2, 3)), (3, 6, 3, (1, 3)), (3, 2, 3, (2, 4)),
     (4, 2, 5, (3, 5)), (2, 1, 1, (1, 2))],
)  # fmt: skip
def test_damage_distribution_equals_brute_force(n: int, skill: int, defense: int, dmg: tuple[int, int]) -> None:
    assert dict(damage_distribution(n, skill, defense, dmg)) == oracle_damage(n, skill, defense, *dmg)


def test_unreliable_damage_equals_brute_force() -> None:
    assert dict(damage_distribution(2, 5, 3, (4, 8), unreliable=True)) == oracle_damage(2, 5, 3, 4, 8, True)


def test_one_sword_attack_by_hand() -> None:
    """3 dice, equal row (hit 4-5 = 1/3, crit 6 = 1/6), 2/3 damage: P(0) = (1/2)^3; mean = 3 x (2/3 + 1/2)."""
    d = damage_distribution(3, 3, 3, (2, 3))
    assert d.p(0) == Fraction(1, 8)
    assert d.mean() == Fraction(7, 2)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_singles_distribution_equals_brute_force(k: int) -> None:
    assert dict(reaction_dice_distribution(k)) == oracle_singles(k)


def test_initiative_joint_counts_equal_brute_force_for_six_dice() -> None:
    counts: Counter[tuple[int, int, int, int]] = Counter()
    for roll in itertools.product(range(1, 7), repeat=6):
        sizes = Counter(min(c, 4) for c in Counter(roll).values())
        counts[(sizes[1], sizes[2], sizes[3], sizes[4])] += 1
    got = {(c.singles, c.doubles, c.triples, c.quads): p for c, p in initiative_distribution(6).items()}
    assert got == {k: Fraction(v, 6**6) for k, v in counts.items()}


def test_initiative_marginals_by_hand() -> None:
    """6 singles needs all faces distinct: 6!/6^6; 7 dice can never show 7 singles."""
    assert reaction_dice_distribution(6).p(6) == Fraction(720, 6**6)
    assert reaction_dice_distribution(7).p(7) == 0
    assert count_distribution(2, lambda c: c.doubles).p(1) == Fraction(1, 6)
    assert count_distribution(4, lambda c: c.quads).p(1) == Fraction(6, 6**4)


def test_win_initiative_against_brute_force() -> None:
    for a, b in [(1, 1), (2, 3), (3, 2), (4, 4), (6, 5)]:
        sa, sb = oracle_singles(a), oracle_singles(b)
        win = sum((pa * pb for x, pa in sa.items() for y, pb in sb.items() if x > y), Fraction(0))
        tie = sum((pa * sb.get(x, Fraction(0)) for x, pa in sa.items()), Fraction(0))
        assert p_win_initiative(a, b) == win + tie / 2


def test_equal_dice_win_initiative_half_the_time() -> None:
    assert p_win_initiative(6, 6) == Fraction(1, 2)
    assert p_win_initiative(7, 6) + p_win_initiative(6, 7) == 1


def test_default_table_is_the_digest_table() -> None:
    assert DEFAULT_TABLE.rows == {
        "double": (3, 5),
        "higher": (3, 6),
        "equal": (4, 6),
        "lower": (5, 6),
        "half": (5, 7),
    }


def test_odds_commands_data_agree_with_brute_force() -> None:
    import itertools
    from fractions import Fraction

    from warband.rulesets.wyrdcry.dice import group_counts, group_roll
    from warband.rulesets.wyrdcry.odds import attack_odds, initiative_odds
    from warband.rulesets.wyrdcry.rolls import attack_damage

    got = attack_odds(3, 4, 3, (2, 3))
    brute: dict[int, Fraction] = {}
    for rolls in itertools.product(range(1, 7), repeat=3):
        v = attack_damage(rolls, 4, 3, (2, 3))
        brute[v] = brute.get(v, Fraction(0)) + Fraction(1, 216)
    assert got["damage"] == {str(k): str(p) for k, p in sorted(brute.items())}
    assert Fraction(str(got["mean"])) == sum(p * v for v, p in brute.items())
    singles: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        k = group_counts(group_roll(faces)).singles
        singles[k] = singles.get(k, Fraction(0)) + Fraction(1, 6**4)
    assert initiative_odds(4)["singles"] == {str(k): str(p) for k, p in sorted(singles.items())}
    assert initiative_odds(6)["p_win_vs_6"] == "1/2"
