"""Issue 9: rows of the clause matrix that were not met as written (seed 002, the Actions chapter). Each test is
named after the seed sentence it enforces and plays the situation from the player's side (``Game``, positions
from ``ttpos``, forced dice)."""

from __future__ import annotations

import math

from ttpos import act, alive, box, line, position, rules_of, set_unit, unit, unit_vars

from warband.kernel.actions import Action
from warband.kernel.engine import Game


def _moved(game: Game, mid: str, start: tuple[float, float]) -> float:
    m = game.state.models[mid]
    return math.hypot(m.x - start[0], m.y - start[1])


# 1. Reaction Shoot: "Perform a shoot action" is a Shoot: its eligibility and its penalty
def test_reaction_shoot_action_must_be_more_than_1_inch_away_from_all_enemy_models() -> None:
    g = position(
        [unit(models=1), unit(models=1, weapons=[])],
        [unit(models=1)],
        {"a1": [(14, 15)], "a2": [(20, 16.2)], "b1": [(20, 15)]},
        deck=["b1"],
    )
    g.apply(Action.parse("charge a1 b1 [walking]"))
    assert g.decision.prompt != "react"  # b1 stands within 1" of a2: no Shoot, so no reaction to offer
    far = position([unit(models=1)], [unit(models=1)], {"a1": [(14, 15)], "b1": [(20, 15)]}, deck=["b1"])
    far.apply(Action.parse("charge a1 b1 [walking]"))
    assert Action("react", "b1", "a1", option="shoot:Rifle") in far.legal_actions()


def test_reaction_shoot_takes_cumulative_minus_1_for_each_action_performed_prior_this_turn() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(14, 15)], "b1": [(20, 15)]})
    set_unit(g, "b1", activated=True, overwatch=True, acts_round=2)  # moved, then went on Overwatch
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    # Ranged 5, no range modifiers for a reaction, two earlier actions this turn -2
    assert g.state.stack[-1].group.tn == 5 - 2
    assert unit_vars(g, "b1")["acts_round"] == 3


# 2. Charge distance after reactions
def test_charge_models_move_after_the_reaction_a_prone_unit_may_only_move_2_inches() -> None:
    g = position([unit(models=1, hp=2)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]}, deck=["b1"])
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.force([1], [10])  # the reaction hits, a1 fails its save: one damage, a pin, and prone by the pin
    g.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    g.settle()
    assert unit_vars(g, "a1")["pins"] >= 1 and unit_vars(g, "a1")["prone"]
    assert _moved(g, "a1.1", (10, 10)) <= 2.0 + 1e-6  # a prone unit moves 2", so the 4" charge fails
    assert g.decision.prompt == "action" and g.state.vars["active"] == "a1"


# 3. Designated coherency leader
def test_designated_leader_is_unit_leader_for_no_purpose_other_than_coherency() -> None:
    g = position([unit(models=1)], [unit(models=3)], {"a1": [(10, 10)], "b1": line(10, 20, 3)})
    from warband.rulesets.trenches_and_turbines.attacks import remove

    remove(g.state, g.state.models["b1.1"], "test", [])
    set_unit(g, "b1", activated=True, leaderless=True, leader="b1.3", half_tested=True)
    act(g, "shoot a1 b1 [Rifle]", [1], [10])
    assert g.decision.prompt == "wound" and g.decision.player == 1
    assert {str(a.model) for a in g.legal_actions()} == {"b1.2", "b1.3"}  # not "leaders last"
    g.apply(Action("wound", "b1.3"))
    g.settle()
    assert "b1.3" not in alive(g, "b1")


# 4. VEHICLE: "At any point during their movement the unit may make a single pivot up to 90 degrees"
def test_vehicle_may_make_a_single_pivot_at_any_point_during_their_movement() -> None:
    tank = unit(models=1, size="XL", base_mm=60, keywords=["VEHICLE"], move=8)
    block = box("blk", "impassable", 21.5, 9, 23, 11.5, height=3, blocks_los=True)
    g = position([tank], [unit()], {"a1": [(20, 10)], "b1": line(10, 40, 3)}, terrain=[block])
    act(g, "move a1")
    assert rules_of(g, "to a1 @25,12")  # the straight way runs into the block
    assert "trenches-and-turbines/vehicle/pivot" in rules_of(g, "to a1 @17,11 [via=20,12]")  # 108 degrees
    assert "trenches-and-turbines/vehicle/straight" in rules_of(g, "to a1 @25,13 [via=21,12]")  # not ahead
    assert "trenches-and-turbines/move/too-far" in rules_of(g, "to a1 @28,12 [via=20,12]")  # 2 + 8 > 8
    assert rules_of(g, "to a1 @25,12 [via=20,12]") == []  # 2" ahead, pivot 90, 5" on
    act(g, "to a1 @25,12 [via=20,12]")
    tank_model = g.state.models["a1.1"]
    assert (round(tank_model.x, 2), round(tank_model.y, 2)) == (25, 12)
    assert abs(tank_model.flags["facing"]) < 1e-6


# 5. Line of sight: "Draw a 1mm line from any portion of the attacking model's base to any portion of the target
# model's base"
def test_line_of_sight_from_any_portion_of_the_attacking_models_base_to_any_portion_of_the_target_models_base() -> None:
    near = box("w1", "blocking", 0, 12, 10.2, 12.2, height=2, blocks_los=True)
    far = box("w2", "blocking", 9.8, 28, 20, 28.2, height=2, blocks_los=True)
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 30)]}, terrain=[near, far])
    set_unit(g, "b1", activated=True)
    # every line parallel to the centres is blocked by one wall or the other; a crossing line passes both
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []
    left = box("g1", "blocking", 0, 20, 10.2, 20.2, height=2, blocks_los=True)
    right = box("g2", "blocking", 10.3, 20, 20, 20.2, height=2, blocks_los=True)
    slot = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 30)]}, terrain=[left, right])
    set_unit(slot, "b1", activated=True)
    assert rules_of(slot, "shoot a1 b1 [Rifle]") == []  # a gap a tenth of an inch wide off the centre line
    shut = position(
        [unit(models=1)],
        [unit(models=1)],
        {"a1": [(10, 10)], "b1": [(10, 30)]},
        terrain=[box("x", "blocking", 0, 20, 20, 20.2, height=2, blocks_los=True)],
    )
    set_unit(shut, "b1", activated=True)
    assert "trenches-and-turbines/shoot/los" in rules_of(shut, "shoot a1 b1 [Rifle]")


# 6. Charge: "The rest of the unit must be moved in a way that maximizes the number of models that can reach
# base-to-base contact"
def test_rest_of_the_unit_moved_to_maximize_the_number_of_models_in_base_to_base_contact() -> None:
    seven = [(7 + i * 1.2, 10) for i in range(7)]
    g = position([unit(models=7, move=8)], [unit(models=1, weapons=[])], {"a1": seven, "b1": [(10.6, 14.5)]})
    g.apply(Action.parse("charge a1 b1 [walking]"))  # (the FREE Fight waits for its dice)
    target = g.state.models["b1.1"]
    touching = [
        mid
        for mid in alive(g, "a1")
        if math.hypot(g.state.models[mid].x - target.x, g.state.models[mid].y - target.y) <= 2 * target.radius + 0.05
    ]
    assert len(touching) == 6  # six 25 mm bases fit round one 25 mm base


# 7. Defaults follow the seed; the digest's old defaults are options, off by default
def test_each_die_less_than_or_equal_to_the_modified_ranged_scores_a_hit_so_10_or_more_always_hits() -> None:
    g = position([unit(models=1, ranged=9)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 20)]})
    set_unit(g, "b1", activated=True)
    g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert g.state.stack[-1].group.tn == 10  # Ranged 9, short range +1
    g.force([10], [10])
    events = g.settle()
    assert any("1 hit(s)" in e.describe() for e in events)
    from warband.rulesets.trenches_and_turbines.odds import p_test

    assert p_test(10) == 1 and p_test(0) == 0 and p_test(5) * 10 == 5


def test_prone_unit_gains_concealment_1_at_every_range() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 14)]})
    set_unit(g, "b1", activated=True, prone=True)
    g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert g.state.stack[-1].group.tn == 5 + 1 - 1  # short range +1, Conceal (1); no +1 within 6"
    opt = position(
        [unit(models=1)],
        [unit(models=1)],
        {"a1": [(10, 10)], "b1": [(10, 14)]},
        params={"prone_target_near_mod": 1, "prone_target_far_mod": -1},
    )
    set_unit(opt, "b1", activated=True, prone=True)
    opt.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert opt.state.stack[-1].group.tn == 5 + 1 - 1 + 1


def test_all_models_in_the_unit_must_end_the_move_within_the_unit_leaders_command_radius() -> None:
    # a model 3" from the others but within the leader's 6" command radius is in coherency: it shoots
    g = position([unit(models=2)], [unit(models=1)], {"a1": [(10, 10), (14, 10)], "b1": [(12, 32)]})
    set_unit(g, "b1", activated=True)
    g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert g.state.stack[-1].group.n == 2
    chain = position(
        [unit(models=2)],
        [unit(models=1)],
        {"a1": [(10, 10), (14, 10)], "b1": [(12, 32)]},
        params={"coherency_chain": 2},
    )
    set_unit(chain, "b1", activated=True)
    chain.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert chain.state.stack[-1].group.n == 1


def test_reaction_needs_not_pinned_not_routed_and_not_activated_or_an_overwatch_token_no_count() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(14, 15)], "b1": [(20, 15)]})
    set_unit(g, "b1", activated=True, overwatch=True, reactions=2)  # it reacted twice already this round
    g.apply(Action.parse("charge a1 b1 [walking]"))
    assert g.decision.prompt == "react"


def test_a_unit_may_spend_an_action_to_go_prone_vehicles_too() -> None:
    tank = unit(models=1, size="XL", base_mm=60, keywords=["VEHICLE"], move=8)
    g = position([tank], [unit()], {"a1": [(20, 10)], "b1": line(10, 40, 3)})
    assert rules_of(g, "prone a1") == []
    opt = position([tank], [unit()], {"a1": [(20, 10)], "b1": line(10, 40, 3)}, params={"vehicle_never_prone": True})
    assert "trenches-and-turbines/prone/vehicle" in rules_of(opt, "prone a1")


def test_units_are_allowed_to_move_including_scaling_scalable_terrain_any_size() -> None:
    bldg = box("b", "platform", 12, 14, 18, 20, height=3, blocks_los=True, cover=True)
    big = position(
        [unit(models=1, size="L", base_mm=50, move=10)],
        [unit(models=1)],
        {"a1": [(15, 8)], "b1": [(40, 40)]},
        terrain=[bldg],
    )
    act(big, "move a1")
    act(big, "to a1 @15,14.5")  # 6.5" and 3" up
    assert big.state.models["a1.1"].z == 3.0


def test_a_unit_with_a_pin_token_must_spend_1_action_to_remove_the_pin_token() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    set_unit(g, "a1", pins=3)
    act(g, "shed a1")
    assert unit_vars(g, "a1")["pins"] == 0  # one action removes the token, however many pins it counts
    opt = position(
        [unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, params={"pins_shed_per_action": 1}
    )
    set_unit(opt, "a1", pins=3)
    act(opt, "shed a1")
    assert unit_vars(opt, "a1")["pins"] == 2


def test_ruleset_behaviour_version_bumped_for_the_seed_defaults() -> None:
    from ttpos import RS

    assert tuple(int(x) for x in RS.version.split(".")) >= (0, 6, 0)  # 0.6.0 then; later changes bump it again


# 8. Shed a Pin: "When a unit sheds its pin token the player activating the unit must decide whether that unit will
# remain prone or stand up"
def test_when_a_unit_sheds_its_pin_token_it_decides_to_remain_prone_or_stand_up() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    set_unit(g, "a1", pins=2, prone=True)
    act(g, "shed a1")
    assert g.decision.prompt == "shed"
    g.apply(Action("stand", "a1"))
    assert unit_vars(g, "a1")["pins"] == 0 and not unit_vars(g, "a1")["prone"]  # stood up, not left pinned
    stay = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    set_unit(stay, "a1", pins=1, prone=True)
    act(stay, "shed a1")
    events = stay.apply(Action("stay-prone", "a1"))
    assert any("stays prone" in e.describe() for e in events) and unit_vars(stay, "a1")["prone"]
    one = position(
        [unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, params={"pins_shed_per_action": 1}
    )
    set_unit(one, "a1", pins=2, prone=True)
    events = one.apply(Action.parse("shed a1"))
    assert one.decision.prompt != "shed"  # still pinned: no standing up yet
    assert any("still pinned" in e.describe() for e in events) and unit_vars(one, "a1")["prone"]


# 9. Overwatch: "While a unit has an overwatch token they are eligible to perform reactions"
def test_while_a_unit_has_an_overwatch_token_it_may_react_and_unused_tokens_are_discarded_aloud() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(14, 15)], "b1": [(20, 15)]})
    set_unit(g, "b1", activated=True, overwatch=True)
    g.apply(Action.parse("charge a1 b1 [walking]"))
    assert g.decision.prompt == "react" and Action("react", "b1", "a1", option="shoot:Rifle") in g.legal_actions()
    end = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 40)]})
    set_unit(end, "b1", activated=True, overwatch=True)
    events = end.apply(Action.parse("end a1"))  # the deck is empty: the round ends
    assert any("Overwatch token is discarded" in e.describe() for e in events)
    assert not unit_vars(end, "b1")["overwatch"]


# Found on the way: the odds an action shows use the rules' own d10 test; a last ranged group is not "ordered"
def test_explain_uses_the_rules_d10_test_and_a_single_group_left_is_just_rolled() -> None:
    g = position([unit(models=1, ranged=9)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 20)]})
    set_unit(g, "b1", activated=True)
    from ttpos import RS

    assert "~1.0 hits" in RS.explain(g.state, Action.parse("shoot a1 b1 [Rifle]"))  # target 10: always hits
    two = position([unit(models=2)], [unit(models=1)], {"a1": [(10, 10), (10, 8.6)], "b1": [(10, 22.5)]})
    set_unit(two, "b1", activated=True)
    two.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert two.decision.prompt == "order"
    two.force([10], [10])
    two.apply(two.legal_actions()[0])
    two.settle()
    assert two.decision.prompt == "action"  # the other group is rolled without asking
