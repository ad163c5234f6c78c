"""Issue 23, items 9-12: four sentences of seed 002 (the Actions chapter) read literally. Each test is named after
the sentence it enforces and plays the situation from the player's side (``Game``, positions from ``ttpos``,
forced dice)."""

from __future__ import annotations

import math
from typing import Any

from ttpos import act, alive, box, line, position, rules_of, unit, unit_vars

from warband.kernel.actions import Action
from warband.kernel.engine import Game

R = "trenches-and-turbines"


def _hits_tn(g: Game) -> int:
    """The target number of the hit rolls now pending."""
    assert g.decision.prompt == "hits"
    return int(g.state.stack[-1].group.tn)


def _moved(g: Game, mid: str, start: tuple[float, float]) -> float:
    m = g.state.models[mid]
    return math.hypot(m.x - start[0], m.y - start[1])


# 9. Shooting Notes: "Shooting Actions receive a cumulative -1 penalty to hit rolls for EACH action performed prior
# to the shoot action this turn": a FREE action is performed too
SIGNAL: dict[str, Any] = {
    "id": "signal",
    "name": "Signal",
    "text": "Signal.",
    "effects": [{"kind": "score", "vp": 1}],
    "cost": 0,
}


def _signal_game() -> Game:
    return position(
        [unit(models=1)],
        [unit(models=1)],
        {"a1": [(10, 10)], "b1": [(10, 30)]},
        actions=[SIGNAL],
        status={"b1": {"activated": True}},  # no Go Prone reaction in the way
    )


def test_a_free_scenario_action_is_performed_so_it_counts_before_a_shoot() -> None:
    first = _signal_game()
    first.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert _hits_tn(first) == 5 - 1  # Ranged 5, long range -1, nothing before it
    after = _signal_game()
    act(after, "mission a1 [signal]")
    assert after.state.vars["left"] == 2  # FREE: it uses none of the unit's two actions
    after.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert _hits_tn(after) == 5 - 1 - 1  # ... but it was performed before the Shoot: -1


def _charge_home(shift: str | None) -> Game:
    """a1 (two activation cards) charges b1 (no weapon to react with), kills it in the FREE Fight, then makes
    its free Shift to ``shift`` (or declines it, None) and ends its activation; its second card is drawn."""
    g = position(
        [unit(models=1)],
        [unit(models=1, weapons=[]), unit(models=1)],
        {"a1": [(10, 10)], "b1": [(10, 15)], "b2": [(30, 10)]},
        deck=["a1"],
        status={"b2": {"activated": True}},
    )
    g.force([1], [10], [10])  # a1 hits, b1 fails its save, b1 misses back
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.settle()
    assert alive(g, "b1") == [] and g.decision.prompt == "dest"  # the winner may Shift
    g.apply(Action("stay", "a1") if shift is None else Action.parse(shift))
    g.settle()
    assert g.state.vars["left"] == 1  # the walking charge used one action, the Fight and the Shift none
    act(g, "end a1")
    assert g.state.vars["active"] == "a1" and g.state.vars["left"] == 2  # its second card
    return g


def test_the_free_fight_and_the_free_shift_of_a_charge_count_before_a_later_shoot_this_turn() -> None:
    stay = _charge_home(None)
    stay.apply(Action.parse("shoot a1 b2 [Rifle]"))
    assert _hits_tn(stay) == 5 - 1 - 2  # long range; the walking charge and its FREE Fight were performed
    shifted = _charge_home("to a1 @11,12")
    shifted.apply(Action.parse("shoot a1 b2 [Rifle]"))
    assert _hits_tn(shifted) == 5 - 1 - 3  # ... and the free Shift, performed this time


def test_a_charged_units_free_shift_counts_before_its_own_shoot_later_this_turn() -> None:
    """The winner of a Fight it was charged into performs its free Shift outside its own activation: it counts
    for its Shoot when its card comes."""

    def fight(shift: bool) -> Game:
        g = position(
            [unit(models=1, weapons=[]), unit(models=1)],
            [unit(models=1)],
            {"a1": [(10, 10)], "a2": [(30, 16)], "b1": [(10, 15)]},
            deck=["b1"],
            status={"a2": {"activated": True}},
        )
        g.apply(Action.parse("charge a1 b1 [walking]"))
        g.apply(Action("pass", "b1"))  # b1 does not react
        g.force([10], [1], [10])  # a1 misses, b1 hits back, a1 fails its save
        g.settle()
        assert alive(g, "a1") == [] and g.decision.prompt == "dest" and g.decision.player == 1
        options = [a for a in g.legal_actions() if a.kind == "to"]
        g.apply(options[0] if shift else Action("stay", "b1"))
        g.settle()
        assert g.state.vars["active"] == "b1"  # a1 is gone: b1's card is drawn
        g.apply(Action.parse("shoot b1 a2 [Rifle]"))
        return g

    assert _hits_tn(fight(False)) == 5 - 1  # long range; declining the Shift performs nothing
    assert _hits_tn(fight(True)) == 5 - 1 - 1  # the Shift was performed earlier this turn


# 10. Shed a Pin: "If, when a unit activates, it has a pin token, it must spend 1 action to remove the pin token"
def test_a_pin_taken_during_the_activation_does_not_stop_the_units_remaining_actions() -> None:
    g = position([unit(models=1, hp=2)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]}, deck=["a1"])
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.force([1], [10])  # the reaction Shoot hits, a1 fails its save: a pin (and prone by it)
    g.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    g.settle()
    assert unit_vars(g, "a1")["pins"] >= 1 and g.state.vars["active"] == "a1" and g.state.vars["left"] == 1
    # the pin came after the unit activated: its remaining action is free, shedding the pin is one choice
    kinds = {a.kind for a in g.legal_actions()}
    assert {"move", "shed", "stand", "end"} <= kinds  # (no Shoot: it charged this activation)
    assert f"{R}/pin/shed-first" not in rules_of(g, "move a1")
    act(g, "move a1")
    act(g, "to a1 @10,11")  # back 1" (the failed charge took it 2" toward b1)
    assert g.state.vars["active"] == "a1"  # its second card: it activates with the pin token now
    g.force([1])  # the pinned test passes
    g.settle()
    assert [a.kind for a in g.legal_actions()] == ["shed", "end"]
    ((rule, why),) = g.why_illegal(Action.parse("move a1"))
    assert rule == f"{R}/pin/shed-first" and "had a pin token when it activated" in why


def test_a_unit_pinned_by_its_own_drawn_fight_may_fight_again_with_its_second_action() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 10.99)]})
    g.force([10], [10])  # both miss: a draw
    g.apply(Action.parse("fight a1 b1"))
    g.settle()
    for _ in range(2):  # both may Shift: both stay
        assert g.decision.prompt == "dest"
        g.apply(Action("stay", str(g.decision.model)))
        g.settle()
    assert unit_vars(g, "a1")["pins"] == 1 and unit_vars(g, "b1")["pins"] == 1  # then both are pinned
    assert g.state.vars["active"] == "a1" and rules_of(g, "fight a1 b1") == []


def test_a_unit_that_activates_with_a_pin_token_still_sheds_it_first() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, status={"a1": {"pins": 2}})
    g.force([1])  # the pinned test passes
    g.settle()
    assert [a.kind for a in g.legal_actions()] == ["shed", "end"]
    act(g, "shed a1")
    assert unit_vars(g, "a1")["pins"] == 0 and rules_of(g, "move a1") == []


# 11. Go Prone: "While prone, the unit may only move 2" per move action"; Shift: "a 3" movement action"
def _won_fight(prone: bool) -> Game:
    """a1 (prone or not) fights b1 and takes one of its two models out: a1 wins and may make its free Shift."""
    g = position(
        [unit(models=1)],
        [unit(models=2)],
        {"a1": [(10, 10)], "b1": line(10, 10.99, 2)},
        status={"a1": {"prone": prone}},
    )
    g.force([1], [10], [10, 10])  # a1 hits, b1 fails the save, both b1 models miss
    g.apply(Action.parse("fight a1 b1"))
    g.settle()
    assert len(alive(g, "b1")) == 1 and g.decision.prompt == "dest" and g.decision.player == 0
    return g


def test_a_prone_winners_free_shift_is_a_movement_action_of_2_inches() -> None:
    prone = _won_fight(True)
    assert f"{R}/move/too-far" in rules_of(prone, "to a1 @10,7.5")  # 2.5" away: more than 2"
    assert rules_of(prone, "to a1 @10,8") == []
    act(prone, "to a1 @10,8")
    assert _moved(prone, "a1.1", (10, 10)) <= 2.0 + 1e-6
    standing = _won_fight(False)
    assert rules_of(standing, "to a1 @10,7.5") == []  # a standing winner Shifts 3"
    assert f"{R}/move/too-far" in rules_of(standing, "to a1 @10,6.8")


def test_a_prone_units_shift_action_is_2_inches() -> None:
    g = position(
        [unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]}, status={"a1": {"prone": True}}
    )
    act(g, "shift a1")
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @10,7.5")
    assert rules_of(g, "to a1 @10,8") == []


# 12. Who Can Shoot?: "The attacking model has LoS of at least one model in the target unit" and "The attacking
# model has range against at least 1 model in the target unit": two conditions, not one model meeting both
WALL = box("w", "blocking", 9, 20, 11, 20.5, height=2, blocks_los=True)  # hides b1.1 from a1 only


def test_sight_of_one_model_and_range_of_another_suffice_for_a_model_to_shoot() -> None:
    # b1.1 is in range (22.5") but behind the wall; b1.2 is in plain sight but out of range (24.7")
    g = position(
        [unit(models=1)],
        [unit(models=2)],
        {"a1": [(10, 10)], "b1": [(10, 33.5), (16, 35)]},
        terrain=[WALL],
        status={"b1": {"activated": True}},
    )
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []
    events = g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert any("1 model(s) can shoot, at most 1 casualties" in e.describe() for e in events)
    assert _hits_tn(g) == 5 - 1  # range to the unit is its nearest model: long range; the model it sees is clear


def test_a_target_in_range_of_one_model_and_sight_of_another_may_be_picked() -> None:
    """Pick Target: "within range of at least one model" and "within LoS of at least one model" of the attacking
    unit; no model meets both, so none can shoot, and the Shoot is still made ("Any models that cannot make
    ranged attacks ... still count as having made the shoot action")."""
    g = position(
        [unit(models=2)],
        [unit(models=1)],
        {"a1": [(10, 10), (14, 8)], "b1": [(10, 33)]},
        terrain=[WALL],
        status={"b1": {"activated": True}},
    )
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []  # a1.1 has range (22"), a1.2 has sight (24.3": out of range)
    events = g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    g.settle()
    assert any("0 model(s) can shoot" in e.describe() for e in events)
    assert g.state.vars["left"] == 1 and g.state.vars["acts"] == ["shoot"]
    assert f"{R}/shoot/once" in rules_of(g, "shoot a1 b1 [Rifle]")


def test_pick_target_names_each_condition_it_misses() -> None:
    far = position(
        [unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 40)]}, terrain=[WALL]
    )  # 29" away and behind the wall
    reasons = dict(far.why_illegal(Action.parse("shoot a1 b1 [Rifle]")))
    assert reasons[f"{R}/shoot/range"] == "b1 is not within Rifle range of any model of a1"
    assert reasons[f"{R}/shoot/los"] == "no model of a1 with a Rifle has line of sight to a model of b1"
    open_far = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 40)]})
    assert rules_of(open_far, "shoot a1 b1 [Rifle]") == [f"{R}/shoot/range"]
