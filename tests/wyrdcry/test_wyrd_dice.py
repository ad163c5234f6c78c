"""The dice economy (dice.py): grouping, initiative, wyrd dice, ability costs, reaction dice.

Expected values come from the rule text (seed 003 asides; digest wyrdcry.md §A2-A3) worked by hand, or from an
independent count over every ordered 6d6 roll written here with ``collections.Counter``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warband.rulesets.wyrdcry.dice import (
    AbilityDice,
    AddSingle,
    Group,
    Upgrade,
    affordable,
    apply_wyrd,
    can_pay,
    channel,
    group_counts,
    group_roll,
    half_value,
    initiative_winner,
    pay,
    payers,
    reaction_dice,
    redecide_initiative,
    roll_off_winner,
    wyrd_options,
    wyrd_problem,
)

UNIVERSAL = {"rush": "double", "onslaught": "double", "respite": "triple", "command": "triple", "rampage": "quad"}


@cache
def all_6d6() -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, 7), repeat=6))


def dice_in(pool: AbilityDice) -> int:
    return len(pool.singles) + sum(g.size for g in pool.groups)


# -- grouping ------------------------------------------------------------------------------------------------------


def test_every_6d6_roll_groups_by_face_counts() -> None:
    """Singles are exactly the faces one die shows; every other face is one group of its count (capped at 4)."""
    for roll in all_6d6():
        counts = Counter(roll)
        pool = group_roll(roll)
        assert pool.singles == tuple(sorted(f for f, n in counts.items() if n == 1))
        assert {g.face: g.size for g in pool.groups} == {f: min(n, 4) for f, n in counts.items() if n > 1}
        assert len(pool.faces()) == len(pool.singles) + len(pool.groups)  # faces unique
        assert not any(g.upgraded for g in pool.groups)


def test_every_6d6_roll_keeps_its_dice_unless_five_or_more_alike() -> None:
    for roll in all_6d6():
        pool = group_roll(roll)
        largest = max(Counter(roll).values())
        # 5 or 6 alike become one quad: the 1 or 2 extra alike dice are absorbed.
        assert dice_in(pool) == 6 - max(0, largest - 4)


def test_group_counts_over_all_6d6_match_hand_counts() -> None:
    """Hand counts: 6 singles = 6! orders; a quad of 5 alike is 6 faces x 5 other faces x 6 positions = 180;
    six alike = 6 rolls; three doubles = C(6,3) faces x 6!/(2!2!2!) orders = 20 x 90 = 1800."""
    seen = Counter(group_counts(group_roll(r)) for r in all_6d6())
    assert sum(n for c, n in seen.items() if c.singles == 6) == 720
    assert sum(n for c, n in seen.items() if c.doubles == 3) == 1800
    five_alike = sum(1 for r in all_6d6() if max(Counter(r).values()) == 5)
    assert five_alike == 180
    assert sum(n for c, n in seen.items() if c.quads == 1) == 180 + 6 + 6 * 5 * 15 + 6 * 5 * 4 * 15
    assert sum(seen.values()) == 6**6


def test_five_alike_forms_one_quad_or_nothing() -> None:
    assert group_roll([5, 5, 5, 5, 5, 2]) == AbilityDice((2,), (Group(4, 5),))
    assert group_roll([5, 5, 5, 5, 5, 2], large_set="none") == AbilityDice((2,), ())
    assert group_roll([3] * 6) == AbilityDice((), (Group(4, 3),))


def test_grouping_example() -> None:
    assert group_roll([6, 1, 6, 3, 3, 3]) == AbilityDice((1,), (Group(2, 6), Group(3, 3)))
    assert group_roll([]) == AbilityDice((), ())
    with pytest.raises(ValueError, match="faces 1-6"):
        group_roll([0, 3])


# -- initiative ----------------------------------------------------------------------------------------------------


def test_most_singles_wins_initiative_tie_is_a_roll_off() -> None:
    assert initiative_winner(3, 1) == 0
    assert initiative_winner(0, 2) == 1
    assert initiative_winner(2, 2) is None


def test_roll_off_higher_die_wins_equal_dice_roll_again() -> None:
    assert roll_off_winner(6, 1) == 0
    assert roll_off_winner(2, 5) == 1
    assert roll_off_winner(4, 4) is None


def test_initiative_is_redecided_only_when_singles_change() -> None:
    assert redecide_initiative(1, (2, 3), (2, 3)) == 1
    assert redecide_initiative(1, (2, 3), (4, 3)) == 0
    assert redecide_initiative(0, (3, 2), (3, 3)) is None  # a new tie: roll-off
    assert redecide_initiative(0, (3, 3), (3, 3)) == 0  # nothing changed: the roll-off winner keeps it


# -- wyrd dice -----------------------------------------------------------------------------------------------------


def test_wyrd_die_adds_a_single_on_an_unused_face() -> None:
    pool = group_roll([1, 1, 2, 4, 4, 4])
    assert apply_wyrd(pool, AddSingle(6)) == AbilityDice((2, 6), (Group(2, 1), Group(3, 4)))
    assert wyrd_problem(pool, AddSingle(4)) is not None
    with pytest.raises(ValueError, match="already shown"):
        apply_wyrd(pool, AddSingle(2))


def test_wyrd_die_upgrades_a_single_or_group_one_step_taking_its_face() -> None:
    pool = group_roll([1, 1, 2, 4, 4, 4])
    assert apply_wyrd(pool, Upgrade(2)) == AbilityDice((), (Group(2, 1), Group(2, 2, True), Group(3, 4)))
    assert apply_wyrd(pool, Upgrade(1)) == AbilityDice((2,), (Group(3, 1, True), Group(3, 4)))
    assert apply_wyrd(pool, Upgrade(4)) == AbilityDice((2,), (Group(2, 1), Group(4, 4, True)))


def test_each_group_is_upgraded_once_per_round_and_a_quad_never() -> None:
    pool = apply_wyrd(group_roll([1, 1, 2, 3, 5, 6]), Upgrade(1))
    assert wyrd_problem(pool, Upgrade(1)) is not None
    quad = group_roll([2, 2, 2, 2, 5, 6])
    with pytest.raises(ValueError, match="quad"):
        apply_wyrd(quad, Upgrade(2))
    with pytest.raises(ValueError, match="shown by none"):
        apply_wyrd(quad, Upgrade(3))


def test_several_wyrd_dice_in_a_round() -> None:
    """A single grown to a double counts as upgraded; a fresh single may be added and then upgraded."""
    pool = group_roll([1, 2, 3, 4, 5, 5])
    pool = apply_wyrd(pool, AddSingle(6))
    pool = apply_wyrd(pool, Upgrade(6))
    assert pool == AbilityDice((1, 2, 3, 4), (Group(2, 5), Group(2, 6, True)))
    assert Upgrade(6) not in wyrd_options(pool)
    assert Upgrade(5) in wyrd_options(pool)


def test_wyrd_options_over_every_6d6_roll() -> None:
    """Each option adds exactly one die and keeps faces unique; the options are exactly the hand rule:
    new singles on unused faces, upgrades of singles and of non-quad groups."""
    for roll in set(tuple(sorted(r)) for r in all_6d6()):
        pool = group_roll(roll)
        counts = Counter(roll)
        unused = [f for f in range(1, 7) if f not in counts]
        growable = [f for f in range(1, 7) if 1 <= counts[f] <= 3]
        expected = [AddSingle(f) for f in unused] + [Upgrade(f) for f in growable]
        assert list(wyrd_options(pool)) == expected
        for use in expected:
            after = apply_wyrd(pool, use)
            assert dice_in(after) == dice_in(pool) + 1
            assert len(after.faces()) == len(after.singles) + len(after.groups)


# -- ability dice --------------------------------------------------------------------------------------------------


def test_a_higher_group_pays_a_lower_cost_and_is_discarded_whole() -> None:
    pool = group_roll([5, 5, 5, 2, 2, 1])
    assert can_pay(Group(3, 5), "double")
    assert not can_pay(Group(2, 2), "triple")
    left, value = pay(pool, "double", 5)
    assert left == AbilityDice((1,), (Group(2, 2),))
    assert value == 5


def test_the_value_of_an_ability_is_the_face_of_the_dice_spent() -> None:
    """Seed 003 'Ability values': a [double] of two 5s has value 5."""
    assert pay(group_roll([5, 5, 1, 2, 3, 4]), "double", 5)[1] == 5


def test_pay_refuses_a_group_too_small_or_missing() -> None:
    pool = group_roll([5, 5, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="at least 4"):
        pay(pool, "quad", 5)
    with pytest.raises(ValueError, match="no group"):
        pay(pool, "double", 1)


def test_which_universal_abilities_a_pool_can_pay() -> None:
    assert affordable(group_roll([1, 2, 3, 4, 5, 6]), UNIVERSAL) == ()
    assert affordable(group_roll([1, 1, 3, 4, 5, 6]), UNIVERSAL) == ("rush", "onslaught")
    assert affordable(group_roll([1, 1, 1, 4, 5, 6]), UNIVERSAL) == ("rush", "onslaught", "respite", "command")
    assert affordable(group_roll([1, 1, 1, 1, 5, 6]), UNIVERSAL) == tuple(UNIVERSAL)
    assert payers(group_roll([2, 2, 3, 3, 3, 6]), "double") == (Group(2, 2), Group(3, 3))


def test_half_value_rounds_up() -> None:
    assert [half_value(x) for x in range(1, 7)] == [1, 1, 2, 2, 3, 3]


# -- reactions and channeling --------------------------------------------------------------------------------------


def test_leftover_singles_are_reaction_dice() -> None:
    assert reaction_dice(group_roll([1, 2, 3, 3, 5, 5])) == 2
    assert reaction_dice(apply_wyrd(group_roll([1, 2, 3, 3, 5, 5]), Upgrade(1))) == 1


def test_channeling_above_the_round_banks_a_wyrd_die_and_a_one_bars_the_spellbook() -> None:
    assert channel(3, 2).wyrd_dice == 1
    assert channel(2, 2).wyrd_dice == 0
    assert channel(1, 1).spellbook_blocked
    assert not channel(6, 1).spellbook_blocked


@given(st.lists(st.integers(1, 6), min_size=0, max_size=8), st.lists(st.integers(0, 11), max_size=10))
def test_any_sequence_of_wyrd_dice_keeps_the_pool_sound(roll: list[int], picks: list[int]) -> None:
    """Whatever legal uses are chosen: faces stay unique, each use adds one die, a group grows at most once per
    round beyond what the roll made, and nothing exceeds a quad."""
    pool = group_roll(roll)
    start = {g.face: g.size for g in pool.groups}
    for k, pick in enumerate(picks):
        options = wyrd_options(pool)
        if not options:
            break
        before = dice_in(pool)
        pool = apply_wyrd(pool, options[pick % len(options)])
        assert dice_in(pool) == before + 1, k
        assert len(pool.faces()) == len(pool.singles) + len(pool.groups)
    for g in pool.groups:
        assert 2 <= g.size <= 4
        assert g.size - start.get(g.face, 1) <= 1, g  # a single (rolled or added) or a group grows once


def test_every_6d6_roll_without_large_sets() -> None:
    """With large_set='none' five or six alike form nothing, and every other face groups as usual."""
    for roll in set(tuple(sorted(r)) for r in all_6d6()):
        counts = Counter(roll)
        pool = group_roll(roll, large_set="none")
        assert {g.face: g.size for g in pool.groups} == {f: n for f, n in counts.items() if 2 <= n <= 4}
        assert pool.singles == tuple(sorted(f for f, n in counts.items() if n == 1))
