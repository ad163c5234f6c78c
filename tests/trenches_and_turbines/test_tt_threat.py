"""The threat term of the search evaluation (``evaluate.threat``, the ``search_evaluate`` face): each unit's best
Shoot valued with the exact odds the rules use, weighed by whether the unit still activates this round."""

from __future__ import annotations

import pytest
from ttpos import RS, position, set_unit, unit

from warband.rulesets.trenches_and_turbines import evaluate as ev
from warband.rulesets.trenches_and_turbines.odds import shoot_damage


def test_a_shot_is_valued_by_the_exact_odds_of_the_rules() -> None:
    # three riflemen 20" away: long range (Ranged 5 - 1 = 4 on the d10), SV 3 Pen 0, 1 damage (seed 002,
    # Make Hit Rolls / Saves): the expected damage is the mean of the exact distribution of odds.shoot_damage
    g = position([unit(models=3)], [unit(models=3)], {"a1": [(10, 10), (11.2, 10), (12.4, 10)], "b1": [(10, 30)]})
    exact = float(shoot_damage(3, 4, 3, 0, 1).mean())
    worth = ev.unit_value(g.state, "b1")  # one model of 1 HP: its whole worth per HP
    miss_all = 0.6**3
    assert ev.shot_value(g.state, "a1", "b1", "Rifle") == pytest.approx(
        min(worth, exact * worth) + (1 - miss_all) * 0.06 * worth
    )


def test_no_threat_out_of_range_or_when_it_may_not_shoot() -> None:
    far = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 40)]})
    assert ev.unit_threat(far.state, "a1") == 0.0 and ev.threat(far.state, 0) == 0.0
    near = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 30)]})
    assert ev.unit_threat(near.state, "a1") > 0.0
    set_unit(near, "a1", routed=True)  # seed 002, Shoot: a Routed unit cannot Shoot
    assert ev.unit_threat(near.state, "a1") == 0.0


def test_a_unit_that_still_activates_this_round_threatens_more() -> None:
    at = {"a1": [(10, 10)], "b1": [(10, 30)]}
    # a1 is activating (two actions left); b1's card is spent: a1's shot counts in full, b1's for later
    g = position([unit(models=1)], [unit(models=1)], at)
    assert ev.activations_left(g.state, "a1") == 1 and ev.activations_left(g.state, "b1") == 0
    t = ev.unit_threat(g.state, "a1")
    assert t == pytest.approx(ev.unit_threat(g.state, "b1"))  # the same unit either way round
    assert ev.threat(g.state, 0) == pytest.approx((ev.THREAT_NOW - ev.THREAT_LATER) * t)
    assert ev.threat(g.state, 1) == pytest.approx(-ev.threat(g.state, 0))
    # b1 has a card left in the deck, a1 none: the balance turns
    h = position([unit(models=1)], [unit(models=1)], at, active=None, deck=["b1"])
    assert ev.threat(h.state, 0) == pytest.approx((ev.THREAT_LATER - ev.THREAT_NOW) * t)


def test_the_search_evaluation_is_the_evaluation_plus_the_threat() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 30)]})
    assert RS.face("search_evaluate") is ev.search_evaluate
    for side in (0, 1):
        plain = RS.evaluate(g.state, side)
        assert ev.search_evaluate(g.state, side) == pytest.approx(plain + ev.threat(g.state, side))
        assert ev.threat(g.state, side) != 0.0
