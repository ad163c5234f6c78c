"""Seed 000 (Trench Crusade, Activation Phase), sentence by sentence. Each test names the clause it proves;
docs/rules/trench-crusade.md maps the clauses to these tests."""

from __future__ import annotations

import pytest
from tc import RS, act, charge, legal_texts, model, position, rules_of, trooper

from warband.kernel.actions import Action
from warband.kernel.errors import IllegalActionError
from warband.kernel.space import gap

R = "trench-crusade"
RIFLE = "Bolt Action Rifle"


def two_each():
    return [trooper(), trooper()], [trooper(), trooper()]


# --- Activation Phase ---------------------------------------------------------------------------------------
def test_initiative_holder_must_activate_first() -> None:
    """'If you have the Initiative, you must choose a model in your Warband and Activate it.'"""
    a, b = two_each()
    g = position(a, b, {"a1": (2, 2), "a2": (6, 2), "b1": (2, 20), "b2": (6, 20)}, to_act=1)
    assert g.decision.player == 1 and g.decision.prompt == "activate"
    assert legal_texts(g) == ["activate b1", "activate b2"]
    assert f"{R}/activation/alternate" in rules_of(g, "activate a1")


def test_opponent_activates_next_back_and_forth() -> None:
    """'Your opponent must then Activate a model, and so on, back and forth until all models have been Activated.'"""
    a, b = two_each()
    g = position(a, b, {"a1": (2, 2), "a2": (6, 2), "b1": (2, 20), "b2": (6, 20)}, to_act=0)
    sides = []
    for _ in range(4):
        d = g.decision
        sides.append(d.player)
        act(g, legal_texts(g)[0])
        act(g, f"end {g.state.vars['active']}")
    assert sides == [0, 1, 0, 1]


def test_model_cannot_activate_twice_per_turn() -> None:
    """'A model cannot be Activated more than once per Turn.'"""
    a, b = two_each()
    g = position(a, b, {"a1": (2, 2), "a2": (6, 2), "b1": (2, 20), "b2": (6, 20)}, to_act=0)
    act(g, "activate a1")
    act(g, "end a1")
    act(g, "activate b1")
    act(g, "end b1")
    assert f"{R}/activation/once-per-turn" in rules_of(g, "activate a1")
    assert legal_texts(g) == ["activate a2"]


def test_when_one_side_runs_out_the_other_activates_the_rest_then_morale() -> None:
    """'...until one player runs out of models to Activate. Their opponent can then Activate their remaining
    models one after the other until they have all been Activated, then proceed to the Morale Phase.'"""
    g = position(
        [trooper()],
        [trooper(), trooper(), trooper()],
        {"a1": (2, 2), "b1": (2, 20), "b2": (6, 20), "b3": (10, 20)},
        to_act=0,
    )
    order = []
    while g.state.turn == 1 and not g.over:
        d = g.decision
        if d.is_chance:
            g.roll()
            continue
        if d.prompt == "activate":
            order.append(d.player)
            act(g, legal_texts(g)[0])
        else:
            act(g, f"end {g.state.vars['active']}")
    assert order == [0, 1, 1, 1]
    assert g.state.turn == 2  # the Morale phase ran (nobody needed a check) and the next turn began


# --- Actions: once each, in any order; one of Move/Charge/Retreat ------------------------------------------
def test_each_action_once_per_activation() -> None:
    """'The Activated model can take the following Actions once each, in any order you wish.'"""
    g = position([trooper()], [trooper()], {"a1": (5, 5), "b1": (5, 20)}, active="a1")
    act(g, "shoot a1 b1 [Bolt Action Rifle]")
    g.settle()
    assert f"{R}/activation/once-each" in rules_of(g, "shoot a1 b1 [Bolt Action Rifle]")
    act(g, "move a1")
    act(g, "to a1 @5,8")
    assert f"{R}/activation/once-each" in rules_of(g, "move a1")


def test_any_order_move_after_shoot_and_shoot_after_move() -> None:
    """'...in any order you wish.'"""
    g = position([trooper()], [trooper()], {"a1": (5, 5), "b1": (5, 20)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @5,9")
    assert "shoot a1 b1 [Bolt Action Rifle]" in legal_texts(g)


@pytest.mark.parametrize("first,then", [("move", "charge a1 b1"), ("move", "retreat a1")])
def test_only_one_of_move_charge_retreat(first: str, then: str) -> None:
    """'You can use an Action to Move or Charge or Retreat with your model, but not more than one.'"""
    g = position([trooper()], [trooper()], {"a1": (5, 5), "b1": (5, 14)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @5,7")
    assert f"{R}/activation/one-move" in rules_of(g, then)


def test_charge_then_no_move_or_retreat() -> None:
    g = position([trooper()], [trooper()], {"a1": (5, 5), "b1": (5, 10)}, active="a1")
    g.force([6])
    charge(g, "charge a1 b1")
    assert f"{R}/activation/one-move" in rules_of(g, "move a1")
    assert f"{R}/activation/one-move" in rules_of(g, "retreat a1")


# --- Move ------------------------------------------------------------------------------------------------
def test_move_up_to_movement_in_any_direction() -> None:
    """'Move: You can move your model a number of inches equal to its Movement Characteristic in any direction
    (no roll is required).'"""
    g = position([trooper(movement=6)], [trooper()], {"a1": (12, 6), "b1": (12, 22)}, active="a1")
    act(g, "move a1")
    assert not g.decision.is_chance  # no roll is required
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,12.2")
    assert rules_of(g, "to a1 @6.1,6") == []
    act(g, "to a1 @12,12")
    assert (model(g, "a1").x, model(g, "a1").y) == (12, 12)


def test_obstacles_up_to_one_inch_are_free() -> None:
    """'Obstacles up to 1" high can be crossed without penalty.'"""
    from tc import box

    low = box("wall", "obstacle", 0, 8.9, 24, 9.1, height=1.0)
    g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (12, 22)}, active="a1", terrain=[low])
    act(g, "move a1")
    assert rules_of(g, "to a1 @12,12") == []


def test_taller_obstacle_is_not_free() -> None:
    from tc import box

    high = box("wall", "obstacle", 0, 8.9, 24, 9.1, height=2.0)
    g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (12, 22)}, active="a1", terrain=[high])
    act(g, "move a1")
    # no way round within 6"; over it, the 2" climb counts against the Movement: 6" + 2" is too far
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,12")


def test_climb_sheer_surfaces_of_any_terrain_piece_after_a_risky_roll() -> None:
    """'...your model can climb sheer surfaces if you first pass a Risky Success Roll': a wall over 1" high is
    climbed (its height counted against the Movement) after a Risky roll, like a platform; impassable terrain
    never."""
    from tc import box

    for kind, ok in (("obstacle", True), ("blocking", True), ("impassable", False)):
        wall = box("wall", kind, 0, 8.9, 24, 9.1, height=2.0)
        g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (12, 22)}, active="a1", terrain=[wall])
        act(g, "move a1")
        if not ok:
            assert f"{R}/move/no-path" in rules_of(g, "to a1 @12,10")
            continue
        assert rules_of(g, "to a1 @12,10") == []  # 4" + 2" of climb = 6"
        failed = g.clone()
        failed.force([1, 2])
        act(failed, "to a1 @12,10")
        assert model(failed, "a1").y == 6 and failed.decision.prompt == "activate"
        g.force([4, 4])
        act(g, "to a1 @12,10")
        assert model(g, "a1").y == 10


def test_difficult_terrain_is_half_speed() -> None:
    """'Difficult terrain, like rubble or swamp, is crossed at half speed.'"""
    from tc import box

    mud = box("mud", "difficult", 0, 6, 24, 24)
    g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (2, 22)}, active="a1", terrain=[mud])
    act(g, "move a1")
    assert rules_of(g, "to a1 @12,9") == []
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,9.2")


def test_climbing_needs_a_passed_risky_roll() -> None:
    """'...your model can climb sheer surfaces if you first pass a Risky Success Roll.'"""
    from tc import box

    tower = box("tower", "platform", 10, 9, 14, 13, height=3.0)
    g = position([trooper()], [trooper()], {"a1": (12, 7), "b1": (2, 22)}, active="a1", terrain=[tower])
    act(g, "move a1")
    g.force([1, 2])  # a failed Risky roll: stays put and the activation ends
    act(g, "to a1 @12,10")
    g.settle()
    assert (model(g, "a1").x, model(g, "a1").y, model(g, "a1").z) == (12, 7, 0)
    assert g.decision.prompt == "activate" and g.decision.player == 1
    g2 = position([trooper()], [trooper()], {"a1": (12, 7), "b1": (2, 22)}, active="a1", terrain=[tower])
    act(g2, "move a1")
    g2.force([4, 4])
    act(g2, "to a1 @12,10")
    g2.settle()
    assert (model(g2, "a1").y, model(g2, "a1").z) == (10, 3.0)


# --- Charge ----------------------------------------------------------------------------------------------
def test_charge_target_must_be_visible_and_within_12() -> None:
    """'Charge: Pick an enemy model that is visible to your model and within 12" of it as the target.'"""
    from tc import box

    wall = box("wall", "blocking", 8, 11, 16, 12, height=5, blocks_los=True)
    g = position(
        [trooper()],
        [trooper(), trooper()],
        {"a1": (12, 8), "b1": (12, 16), "b2": (2, 22.5)},
        active="a1",
        terrain=[wall],
    )
    assert f"{R}/charge/visible" in rules_of(g, "charge a1 b1")
    assert f"{R}/charge/range" in rules_of(g, "charge a1 b2")


def test_charge_adds_a_die_to_movement_and_may_fight() -> None:
    """'Then roll a dice, add the result to your model's Movement Characteristic and move it towards the target.
    If your model finishes its move within 1" of the target, it can Fight.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    g.force([2])  # 6 + 2 = 8": from 10" centre to centre it ends short (gap ~1.0")
    charge(g, "charge a1 b1")
    assert model(g, "a1").y == pytest.approx(12.0)
    assert not any(a.startswith("fight") for a in legal_texts(g))
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    g.force([4])
    charge(g, "charge a1 b1")
    assert model(g, "a1").y == pytest.approx(14 - 2 * 0.4921 - 0.01, abs=0.01)
    assert "fight a1 b1 [Trench Club]" in legal_texts(g)


def _reaches(g, text: str, die: int) -> bool:
    """Whether a charge declared in a clone of ``g`` with the charge die forced to ``die`` ends within 1"."""
    c = g.clone()
    c.force([die])
    charge(c, text)
    a = Action.parse(text)
    return gap(model(c, a.model or ""), model(c, a.target or "")) <= 1.0 + 1e-9


def test_charge_move_it_towards_the_target_round_a_model_in_base_contact() -> None:
    """'Then roll a dice, add the result to your model's Movement Characteristic and move it towards the target':
    a friend or an enemy in base contact with the target on the charger's side does not stop the charge; the
    charger goes round it and ends within 1" where a spot exists, or as close as the table allows."""
    for blocker in ("a2", "b2"):
        at = {"a1": (12.0, 4.0), "b1": (12.0, 14.0), blocker: (12.0, 13.0)}
        g = position([trooper(), trooper()], [trooper(), trooper()], at, active="a1")
        g.force([6])
        charge(g, "charge a1 b1")
        assert gap(model(g, "a1"), model(g, "b1")) <= 1.0
        assert "fight a1 b1 [Trench Club]" in legal_texts(g)
        g = position([trooper(), trooper()], [trooper(), trooper()], at, active="a1")
        g.force([1])  # 7": short, but it still moves the full 7" towards b1
        charge(g, "charge a1 b1")
        assert model(g, "a1").y == pytest.approx(11.0, abs=0.3)


def test_charge_the_player_chooses_where_the_charging_model_ends() -> None:
    """'...move it towards the target. If your model finishes its move within 1" of the target, it can Fight':
    the charging player picks the end spot among the legal ones (the engine's best is the first candidate)."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    g.force([6])
    act(g, "charge a1 b1")
    d = g.decision
    assert (d.prompt, d.player, d.model) == ("dest", 0, "a1")
    assert str(g.legal_actions()[0]) == "to a1 @12,13.01"
    assert f"{R}/charge/end-within-1" in rules_of(g, "to a1 @14,12")
    assert f"{R}/move/no-path" in rules_of(g, "to a1 @12,15.8")  # behind b1: more than 12" round it
    assert rules_of(g, "to a1 @13.5,13.2") == []
    act(g, "to a1 @13.5,13.2")
    assert (model(g, "a1").x, model(g, "a1").y) == (13.5, 13.2)
    assert "fight a1 b1 [Trench Club]" in legal_texts(g)
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 16.5)}, active="a1")
    g.force([1])  # 7" of 11.5": short; it must end as close as the table allows
    act(g, "charge a1 b1")
    assert str(g.legal_actions()[0]) == "to a1 @12,11"
    assert f"{R}/charge/as-close" in rules_of(g, "to a1 @14,10")


def test_charge_menu_cannot_reach_even_with_a_6_agrees_with_movement_plus_6() -> None:
    """'...roll a dice, add the result to your model's Movement Characteristic': the menu's odds count the die
    results with which the charge really ends within 1" (round a model in contact; a stood-up model's halved
    Movement and die)."""
    cases = [
        ({"a1": (12, 4), "a2": (12, 13.5), "b1": (12, 14.5)}, None),
        ({"a1": (12, 4), "b1": (12, 11.5)}, "down"),
        ({"a1": (12, 4), "b1": (12, 16.5)}, None),
    ]
    for at, flag in cases:
        g = position([trooper(), trooper()], [trooper()], at)
        if flag:
            model(g, "a1").flags[flag] = True
        act(g, "activate a1")
        said = RS.explain(g.state, Action.parse("charge a1 b1"))
        n = sum(_reaches(g, "charge a1 b1", d) for d in range(1, 7))
        if n == 0:
            assert said.startswith("cannot reach b1 even with a 6"), said
        else:
            assert said.startswith(f"charge reaches b1 on {n} of 6"), said


# --- Retreat ---------------------------------------------------------------------------------------------
def test_retreat_only_when_engaged() -> None:
    """'Retreat: You can only move a model that is within 1" of an enemy by taking a Retreat Action.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    assert f"{R}/retreat/not-engaged" in rules_of(g, "retreat a1")
    g = position([trooper()], [trooper()], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    assert rules_of(g, "retreat a1") == []


def test_only_move_a_model_within_1_of_an_enemy_by_taking_a_retreat() -> None:
    """'You can only move a model that is within 1" of an enemy by taking a Retreat Action': Move and Dash are
    refused with the rule's id (so no coordinate can slide the model round the enemy), also a Dash after a
    charge that ended within 1"."""
    g = position([trooper()], [trooper()], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    for kind in ("move", "dash"):
        assert f"{R}/move/engaged" in rules_of(g, f"{kind} a1")
        assert f"{kind} a1" not in legal_texts(g)
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    g.force([6])
    charge(g, "charge a1 b1")
    assert f"{R}/move/engaged" in rules_of(g, "dash a1")
    assert "dash a1" not in legal_texts(g)


def test_retreat_opponent_strikes_first_then_moves_directly_away() -> None:
    """'Move the model directly away from its opponent a number of inches equal to its Movement Characteristic
    (no roll is required). Your opponent can make a Melee Attack against the Retreating model before you move
    it away.'"""
    g = position([trooper()], [trooper(weapons=["Trench Club"])], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    g.force([1, 1])  # b1's attack misses
    act(g, "retreat a1")
    act(g, "strike b1 a1 [Trench Club]")
    d = g.decision
    assert d.prompt == "dest" and d.player == 0
    assert f"{R}/retreat/direction" in rules_of(g, "to a1 @18,12")
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,5.5")
    act(g, "to a1 @12,6")
    assert model(g, "a1").y == 6


def test_retreat_not_moved_if_taken_down() -> None:
    """'If this attack takes your model Down or Out of Action it is not moved.'"""
    g = position([trooper()], [trooper(weapons=["Trench Club"])], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    g.force([6, 6], [4, 4, 1])  # b1 hits (critical: +1 INJURY DICE), injury keeps 4+4 = 8 -> Down
    act(g, "retreat a1")
    act(g, "strike b1 a1 [Trench Club]")
    assert model(g, "a1").flags.get("down") is True
    assert model(g, "a1").y == 12
    assert g.decision.prompt == "activate"  # going Down ended the activation


def test_retreat_your_opponent_can_make_a_melee_attack_is_their_choice() -> None:
    """'Your opponent can make a Melee Attack against the Retreating model before you move it away': the
    opponent decides (strike with a weapon it picks, or decline); declining rolls no dice."""
    g = position([trooper()], [trooper(weapons=["Trench Club"])], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    act(g, "retreat a1")
    d = g.decision
    assert (d.prompt, d.player, d.model) == ("strike", 1, "b1")
    assert legal_texts(g) == ["strike b1 a1 [Trench Club]", "decline b1 a1"]
    events = g.apply(Action.parse("decline b1 a1"))
    assert g.decision.prompt == "dest" and g.decision.player == 0
    assert not [e for e in events if type(e).__name__ == "DiceRolled"]


def test_retreat_move_directly_away_a_number_of_inches_equal_to_its_movement() -> None:
    """'Move the model directly away from its opponent a number of inches equal to its Movement Characteristic':
    after an attack that leaves it standing the model is moved (staying put is no Retreat), the full distance
    unless the table stops it."""
    g = position([trooper()], [trooper(weapons=["Trench Club"])], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    g.force([1, 1])  # the attack misses
    act(g, "retreat a1")
    act(g, "strike b1 a1 [Trench Club]")
    assert "stay a1" not in legal_texts(g)
    assert f"{R}/retreat/must-move" in rules_of(g, "stay a1")
    assert f"{R}/retreat/full-distance" in rules_of(g, "to a1 @12,8")
    assert legal_texts(g)[0] == "to a1 @12,6"
    # by the table's edge it goes as far as the edge lets it, and no shorter
    g = position([trooper()], [trooper(weapons=["Trench Club"])], {"a1": (12, 3.5), "b1": (12, 5)}, active="a1")
    act(g, "retreat a1")
    act(g, "decline b1 a1")
    first = g.legal_actions()[0]
    assert first.point is not None and first.point[1] == pytest.approx(0.5, abs=0.11)
    assert f"{R}/retreat/full-distance" in rules_of(g, "to a1 @12,2")
    act(g, str(first))
    assert model(g, "a1").y == pytest.approx(0.5, abs=0.11)


# --- Dash ------------------------------------------------------------------------------------------------
def test_dash_in_addition_to_move_after_risky_roll() -> None:
    """'A Dash Action can be carried out in addition to a Move, Charge or Retreat Action... you must take a
    Risky Success Roll for the model first. If you Succeed, your model can Move.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 2), "b1": (2, 22)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @12,8")
    g.force([4, 3])
    act(g, "dash a1")
    assert g.decision.prompt == "dest"
    act(g, "to a1 @12,14")
    assert model(g, "a1").y == 14


def test_dash_cannot_charge() -> None:
    """'(it cannot Charge or Retreat)': the Dash move obeys the Move rules and cannot end within 1" of an enemy."""
    g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (12, 12)}, active="a1")
    g.force([5, 5])
    act(g, "dash a1")
    assert f"{R}/move/enter-engagement" in rules_of(g, "to a1 @12,10.5")


def test_failed_dash_ends_activation() -> None:
    """'If you fail, the model's Activation ends.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 6), "b1": (12, 20)}, active="a1")
    g.force([1, 3])
    act(g, "dash a1")
    assert g.decision.prompt == "activate" and g.decision.player == 1


# --- Shoot -----------------------------------------------------------------------------------------------
def test_shoot_needs_a_ranged_weapon() -> None:
    """'Shoot: You can make a Ranged Attack with your model if it ... has a Ranged Weapon.'"""
    g = position([trooper(weapons=["Trench Club"])], [trooper()], {"a1": (12, 6), "b1": (12, 20)}, active="a1")
    assert not any(a.startswith("shoot") for a in legal_texts(g))
    assert f"{R}/shoot/weapon" in rules_of(g, "shoot a1 b1 [Bolt Action Rifle]")


def test_shoot_needs_more_than_one_inch_from_enemy() -> None:
    """'...if it is more than 1" from the enemy...'"""
    g = position([trooper()], [trooper(), trooper()], {"a1": (12, 12), "b1": (12, 13.5), "b2": (2, 22)}, active="a1")
    assert f"{R}/shoot/engaged" in rules_of(g, "shoot a1 b2 [Bolt Action Rifle]")


def test_no_shoot_after_charge_unless_assault() -> None:
    """'Your model cannot Shoot and take a Charge or Fight ACTION in the same activation unless it uses a weapon
    that has the Assault keyword.'"""
    g = position([trooper()], [trooper(), trooper()], {"a1": (12, 4), "b1": (12, 13), "b2": (2, 20)}, active="a1")
    g.force([1])
    charge(g, "charge a1 b1")
    # a 1 leaves it short of b1 (and more than 1" away), so only the Charge forbids shooting
    assert f"{R}/activation/shoot-after-charge" in rules_of(g, "shoot a1 b2 [Bolt Action Rifle]")
    g = position(
        [trooper(weapons=["Semi-Automatic Rifle"])],
        [trooper(), trooper()],
        {"a1": (12, 4), "b1": (12, 13), "b2": (2, 20)},
        active="a1",
    )
    g.force([1])
    charge(g, "charge a1 b1")
    assert rules_of(g, "shoot a1 b2 [Semi-Automatic Rifle]") == []


def test_no_charge_after_shooting_without_assault() -> None:
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([1, 1])
    act(g, "shoot a1 b1 [Bolt Action Rifle]")
    assert f"{R}/activation/shoot-then-charge" in rules_of(g, "charge a1 b1")


def _fight_then_shoot(params: dict[str, object] | None) -> list[str]:
    g = position(
        [trooper(weapons=["Pistol", "Trench Club"])],
        [trooper(), trooper()],
        {"a1": (12, 12), "b1": (12, 13.2), "b2": (2, 20)},
        active="a1",
        params=params,
    )
    g.force(
        [6, 6], [6, 6, 6]
    )  # a critical hit and a 12 on the injury: b1 is out of action, so a1 is no longer within 1"
    act(g, "fight a1 b1 [Trench Club]")
    g.settle()
    assert not model(g, "b1").on_table
    return rules_of(g, "shoot a1 b2 [Pistol]")


def test_seed_000_forbids_shoot_after_fight() -> None:
    assert f"{R}/activation/shoot-after-fight" in _fight_then_shoot(None)


def test_seed_001_reading_allows_shoot_after_fight() -> None:
    """Seed 001: 'cannot make a Ranged Attack and Charge in the same Activation' (Fight not named)."""
    assert _fight_then_shoot({"shoot_restriction": "001"}) == []


# --- Fight and Other ---------------------------------------------------------------------------------------
def test_fight_needs_enemy_within_one_inch_and_melee_weapon() -> None:
    """'Fight: You can make a Melee Attack with your model if it is within 1" of an enemy and has a Melee Weapon.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 12), "b1": (12, 15)}, active="a1")
    assert f"{R}/fight/range" in rules_of(g, "fight a1 b1 [Trench Club]")
    g = position([trooper(weapons=["Bolt Action Rifle"])], [trooper()], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    assert f"{R}/fight/weapon" in rules_of(g, "fight a1 b1 [Trench Club]")


def test_other_actions_from_the_profile() -> None:
    """'Other: Some models have other Actions they can take during their Activations.' (MEDIC: Tend Wounds)"""
    g = position(
        [trooper(keywords=["MEDIC"]), trooper()],
        [trooper()],
        {"a1": (12, 12), "a2": (12, 13.2), "b1": (2, 22)},
        active="a1",
    )
    model(g, "a2").tokens["blood"] = 2
    assert "tend a1 a2" in legal_texts(g)
    act(g, "tend a1 a2")
    assert model(g, "a2").token("blood") == 1
    g2 = position([trooper(), trooper()], [trooper()], {"a1": (12, 12), "a2": (12, 13.2), "b1": (2, 22)}, active="a1")
    model(g2, "a2").tokens["blood"] = 2
    assert f"{R}/other/tend" in rules_of(g2, "tend a1 a2")


# --- Risky rolls and the end of an activation ------------------------------------------------------------
def test_failed_risky_roll_lets_opponent_activate() -> None:
    """'If you are taking a Risky Success Roll and you fail, the model's Activation is over and your opponent
    can now Activate one of their models!'"""
    g = position([trooper(), trooper()], [trooper()], {"a1": (12, 4), "a2": (4, 4), "b1": (12, 20)}, active="a1")
    g.force([2, 2])
    act(g, "dash a1")
    assert g.decision.prompt == "activate" and g.decision.player == 1
    assert model(g, "a1").flags["activated"] is True


def test_activation_ends_when_model_chooses() -> None:
    """'Once you have taken any and all Actions you wish... your model's Activation ends. Your opponent can now
    Activate one of their models.'"""
    g = position([trooper(), trooper()], [trooper()], {"a1": (12, 4), "a2": (4, 4), "b1": (12, 20)}, active="a1")
    act(g, "end a1")
    assert g.decision.player == 1


def test_illegal_action_raises_and_changes_nothing() -> None:
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    before = g.to_json()
    with pytest.raises(IllegalActionError) as info:
        act(g, "retreat a1")
    assert info.value.reasons[0][0] == f"{R}/retreat/not-engaged"
    assert g.to_json() == before
