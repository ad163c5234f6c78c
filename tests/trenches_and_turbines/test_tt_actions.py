"""Seed 002 (Trenches and Turbines, Actions chapter): activation, Move, VEHICLE, coherency, Charge, Go Prone,
Shift, Shed a Pin, Overwatch and reactions, one test per clause (see docs/rules/trenches-and-turbines.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ttpos import act, alive, box, line, position, rules_of, set_unit, unit, unit_vars

from warband.kernel.actions import Action


def _pos(game, mid):  # type: ignore[no-untyped-def]
    m = game.state.models[mid]
    return (round(m.x, 2), round(m.y, 2))


def test_every_unit_has_the_universal_actions() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 30, 3)})
    kinds = {a.kind for a in g.legal_actions()}
    assert {"move", "prone", "shoot", "shift", "overwatch", "end"} <= kinds
    assert "trenches-and-turbines/activation/unknown" in rules_of(g, "dance a1")


def test_two_actions_per_activation_then_it_ends() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, deck=["b1"])
    act(g, "prone a1")
    assert g.decision.prompt == "action"
    act(g, "stand a1")
    assert g.state.vars["active"] == "b1"  # the activation is over; the next card was drawn
    assert unit_vars(g, "a1")["activated"]


def test_unit_with_two_cards_moves_four_times() -> None:
    g = position([unit(act=2)], [unit()], {"a1": line(4, 4, 3), "b1": line(10, 44, 3)}, active=None)
    g.state.stack = []
    g.state.turn = 0
    from warband.rulesets.trenches_and_turbines.turn import start_round

    start_round(g.state, [])
    g.state.state_id += 1
    assert sorted(g.state.vars["deck"]) == ["a1", "a1", "b1"]
    moves = 0
    while not g.over and g.state.turn == 1:
        d = g.decision
        if d.is_chance:
            g.roll([1] * d.dice.n if d.dice.label != "activation card" else [1])
            continue
        legal = g.legal_actions()
        pick = next((a for a in legal if a.kind == "move" and a.model == "a1"), None)
        if pick is None and d.prompt == "dest" and d.model == "a1":
            pick = next(a for a in legal if a.kind == "to")
            moves += 1
        g.apply(pick or next(a for a in legal if a.kind in ("end", "pass", "stay")))
    assert moves == 4


def test_action_is_declared_before_it_is_performed() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    act(g, "move a1")
    assert g.decision.prompt == "dest" and _pos(g, "a1.1") == (10, 10)


def test_move_moves_every_model_up_to_move() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    act(g, "move a1")
    assert "trenches-and-turbines/move/too-far" in rules_of(g, "to a1 @10,16.5")
    act(g, "to a1 @10,16")
    assert [_pos(g, m) for m in alive(g, "a1")] == [(10, 16), (11.2, 16), (12.4, 16)]


def test_move_keeps_one_inch_from_enemies() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 16.5, 3)})
    act(g, "move a1")
    assert "trenches-and-turbines/move/enemy-clearance" in rules_of(g, "to a1 @10,15")
    assert rules_of(g, "to a1 @10,14") == []


def test_scalable_terrain_is_climbed_counting_vertical_inches() -> None:
    bldg = box("b", "platform", 12, 14, 18, 20, height=3, blocks_los=True, cover=True)
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(15, 12)], "b1": [(40, 40)]}, terrain=[bldg])
    act(g, "move a1")
    assert "trenches-and-turbines/move/too-far" in rules_of(g, "to a1 @15,16")  # 4" + 3" up > 6"
    act(g, "to a1 @15,14.5")  # 2.5" + 3" up
    assert g.state.models["a1.1"].z == 3.0
    big = position(
        [unit(models=1, size="L", base_mm=50)],
        [unit(models=1)],
        {"a1": [(15, 8)], "b1": [(40, 40)]},
        terrain=[bldg],
        params={"scalable_small_only": True},  # the option; by default every unit scales it (test_tt_issue9.py)
    )
    act(big, "move a1")
    assert "trenches-and-turbines/move/scalable" in rules_of(big, "to a1 @15,14")


def test_vehicle_moves_forward_with_one_pivot_up_to_90() -> None:
    tank = unit(models=1, size="XL", base_mm=60, keywords=["VEHICLE"], move=8)
    g = position([tank], [unit()], {"a1": [(20, 10)], "b1": line(10, 40, 3)})
    act(g, "move a1")
    assert "trenches-and-turbines/vehicle/forward" in rules_of(g, "to a1 @20,5")  # backwards
    assert "trenches-and-turbines/vehicle/forward" in rules_of(g, "to a1 @25,9")  # more than 90 degrees
    assert "trenches-and-turbines/vehicle/pivot" in rules_of(g, "to a1 @20,16 [face=300]")
    act(g, "to a1 @25,14")
    assert abs(g.state.models["a1.1"].flags["facing"] - math.degrees(math.atan2(4, 5))) < 0.01


def test_models_end_within_the_leaders_command_radius() -> None:
    g = position(
        [unit(models=4)], [unit()], {"a1": [(10, 10), (8.5, 10), (11.5, 10), (10, 8.5)], "b1": line(30, 40, 3)}
    )
    act(g, "move a1")
    act(g, "to a1 @10,16")
    lead = g.state.models["a1.1"]
    for mid in alive(g, "a1")[1:]:
        m = g.state.models[mid]
        assert math.hypot(m.x - lead.x, m.y - lead.y) - 2 * m.radius <= 6 + 1e-6


def test_out_of_coherency_models_may_only_move() -> None:
    g = position([unit()], [unit()], {"a1": [(10, 10), (11.2, 10), (30, 10)], "b1": line(20, 25, 3)})
    from warband.rulesets.trenches_and_turbines.shooting import shooters as who_shoots

    shooters = [m.id for m, _, _ in who_shoots(g.state, "a1", "b1", "Rifle", False)]
    assert "a1.3" not in shooters and "a1.1" in shooters
    act(g, "move a1")
    act(g, "to a1 @16,10")
    assert _pos(g, "a1.3")[0] < 30  # the straggler moved back toward its leader


def test_never_intentionally_out_of_coherency() -> None:
    wall = box("w", "impassable", 8, 12, 20, 13, height=2, blocks_los=True)
    g = position([unit(models=2)], [unit()], {"a1": [(10, 13.6), (10, 7.0)], "b1": line(30, 40, 3)}, terrain=[wall])
    act(g, "move a1")
    # the leader could go 6" north, but the second model, behind the wall, could not follow within 6"
    assert "trenches-and-turbines/coherency/never-out" in rules_of(g, "to a1 @10,19.5")


def test_loss_of_leader_designates_a_new_coherency_leader() -> None:
    g = position([unit()], [unit(models=5, sv=0)], {"a1": line(10, 10, 3), "b1": line(10, 20, 5)})
    set_unit(g, "b1", leader="b1.1")
    from warband.rulesets.trenches_and_turbines.attacks import remove
    from warband.rulesets.trenches_and_turbines.morale import casualty_checks

    for mid in ("b1.1",):
        remove(g.state, g.state.models[mid], "test", [])
    casualty_checks(g.state, "b1", [])
    g.state.state_id += 1
    assert g.decision.prompt == "leader" and g.decision.player == 1
    g.apply(Action("lead", "b1.3"))
    assert unit_vars(g, "b1")["leader"] == "b1.3" and unit_vars(g, "b1")["leaderless"]
    assert g.decision.prompt == "ld"  # LOSS OF LEADER test (digest §3.7)


def test_charge_must_declare_walking_or_running() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 15, 3)})
    assert "trenches-and-turbines/charge/declare" in rules_of(g, "charge a1 b1")
    assert rules_of(g, "charge a1 b1 [walking]") == []


def test_charge_leader_first_and_most_models_in_contact() -> None:
    g = position(
        [unit(models=3)], [unit(models=3, ranged=0, weapons=[])], {"a1": line(10, 10, 3), "b1": line(10, 15, 3)}
    )
    act(g, "charge a1 b1 [walking]", [10, 10, 10], [10, 10, 10])
    from warband.rulesets.trenches_and_turbines.units import in_contact

    st = g.state
    assert in_contact(st, st.models["a1.1"], "b1")
    assert sum(in_contact(st, st.models[m], "b1") for m in alive(g, "a1")) == 3


def test_walking_charge_moves_move_and_fights_for_free() -> None:
    g = position([unit()], [unit(weapons=[])], {"a1": line(10, 10, 3), "b1": line(10, 16.5, 3)})
    assert rules_of(g, "charge a1 b1 [walking]") == []
    far = position([unit()], [unit(weapons=[])], {"a1": line(10, 10, 3), "b1": line(10, 17.5, 3)})
    assert "trenches-and-turbines/charge/range" in rules_of(far, "charge a1 b1 [walking]")
    g.force([10, 10, 10], [10, 10, 10])  # a1 misses (hit rolls), b1 misses back
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.settle()
    assert g.state.vars["left"] == 1  # the walking charge used one action; the Fight was FREE
    assert g.state.vars["acts"] == ["charge", "fight"]  # the FREE Fight is performed (it counts before a Shoot)


def test_running_charge_double_move_priority_and_plus_one() -> None:
    g = position([unit(models=1, melee=4)], [unit(models=1, weapons=[])], {"a1": [(10, 10)], "b1": [(10, 22)]})
    assert "trenches-and-turbines/charge/range" in rules_of(g, "charge a1 b1 [walking]")
    assert rules_of(g, "charge a1 b1 [running]") == []
    # +1 to hit: a 5 hits on Melee 4; b1 has Priority against it? no: a1 strikes first and kills b1 (save 10 fails)
    act(g, "charge a1 b1 [running]", [5], [10])
    assert alive(g, "b1") == []
    assert g.state.vars["left"] == 0


def test_pinned_unit_cannot_run_charge() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 18, 3)}, active=None)
    set_unit(g, "a1", pins=1)
    from warband.rulesets.trenches_and_turbines.activation import begin_activation

    begin_activation(g.state, "a1", [])
    g.state.stack = []  # skip the pinned test: it passed
    g.state.state_id += 1
    assert "trenches-and-turbines/pin/shed-first" in rules_of(g, "charge a1 b1 [running]")
    g.force([1])
    act(g, "shed a1")
    if g.decision.prompt == "shed":
        g.apply(Action("stand", "a1"))
    assert "trenches-and-turbines/charge/pinned-running" in rules_of(g, "charge a1 b1 [running]")


def test_only_one_charge_per_activation() -> None:
    g = position(
        [unit(models=1)],
        [unit(models=1, weapons=[]), unit(models=1, weapons=[])],
        {"a1": [(10, 10)], "b1": [(10, 13)], "b2": [(30, 13)]},
    )
    act(g, "charge a1 b1 [walking]", [10], [10])
    g.apply(Action("stay", "a1")) if g.decision.prompt == "dest" else None
    while g.decision.prompt == "dest":
        g.apply(Action("stay", str(g.decision.model)))
    g.settle()
    assert "trenches-and-turbines/charge/once" in rules_of(g, "charge a1 b2 [walking]")


def test_prone_whole_unit_and_two_inch_moves() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    act(g, "prone a1")
    assert unit_vars(g, "a1")["prone"]
    act(g, "move a1")
    assert "trenches-and-turbines/move/too-far" in rules_of(g, "to a1 @10,12.5")
    assert rules_of(g, "to a1 @10,12") == []


def test_prone_unit_charged_counts_as_running_charge() -> None:
    g = position([unit(models=1, melee=4)], [unit(models=1, weapons=[])], {"a1": [(10, 10)], "b1": [(10, 14)]})
    set_unit(g, "b1", prone=True, activated=True)
    act(g, "charge a1 b1 [walking]", [5], [10])  # 5 hits only with the +1 of a running charge
    assert alive(g, "b1") == []


def test_shedding_a_pin_asks_remain_prone_or_stand() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)})
    set_unit(g, "a1", pins=1, prone=True)
    act(g, "shed a1")
    assert g.decision.prompt == "shed"
    assert [str(a) for a in g.legal_actions()] == ["stay-prone a1", "stand a1"]
    g.apply(Action("stand", "a1"))
    assert not unit_vars(g, "a1")["prone"] and unit_vars(g, "a1")["pins"] == 0


def test_pinned_unit_must_shed_first() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, status={"a1": {"pins": 1}})
    g.force([1])  # the pinned test passes
    g.settle()
    assert [a.kind for a in g.legal_actions()] == ["shed", "end"]


def test_shift_is_three_inches_and_never_starts_a_fight() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]})
    act(g, "shift a1")
    assert "trenches-and-turbines/move/too-far" in rules_of(g, "to a1 @10,6.5")
    assert rules_of(g, "to a1 @10,7") == []
    # into base contact is both too close (1") and a new Fight
    assert rules_of(g, "to a1 @10,13.02")


def test_overwatch_ends_the_activation_with_a_token() -> None:
    g = position([unit()], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, deck=["b1"])
    act(g, "overwatch a1")
    assert unit_vars(g, "a1")["overwatch"] and g.state.vars["active"] != "a1"


def test_reaction_eligibility() -> None:
    from warband.rulesets.trenches_and_turbines.reactions import can_react

    g = position(
        [unit()],
        [unit(), unit(), unit(), unit()],
        {
            "a1": line(10, 10, 3),
            "b1": line(10, 30, 3),
            "b2": line(20, 30, 3),
            "b3": line(30, 30, 3),
            "b4": line(40, 30, 3),
        },
    )
    set_unit(g, "b1", pins=1)
    set_unit(g, "b2", routed=True)
    set_unit(g, "b3", activated=True)
    set_unit(g, "b4", activated=True, overwatch=True)
    assert [can_react(g.state, u) for u in ("b1", "b2", "b3", "b4")] == [False, False, False, True]


def test_charge_reaction_shoots_without_los_and_flips_the_card() -> None:
    wall = box("w", "impassable", 5, 12, 20, 12.5, height=5, blocks_los=True)
    g = position(
        [unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(14, 13.5)]}, terrain=[wall], deck=["b1"]
    )
    g.apply(Action.parse("charge a1 b1 [walking]"))
    assert g.decision.prompt == "react" and g.decision.player == 1
    assert Action("react", "b1", "a1", option="shoot:Rifle") in g.legal_actions()
    g.force([1], [10])  # the reaction shot hits and a1 fails its save
    g.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    g.settle()
    assert alive(g, "a1") == []
    assert unit_vars(g, "b1")["activated"] and "b1" not in g.state.vars["deck"]


def test_overwatch_kept_when_the_charge_fails() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]})
    set_unit(g, "b1", activated=True, overwatch=True)
    g.apply(Action.parse("charge a1 b1 [walking]"))
    g.force([1], [10])
    events = g.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    events += g.settle()  # (the round then ends and its End phase discards the token)
    assert any("keeps its Overwatch token" in e.describe() for e in events)
    g2 = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]})
    set_unit(g2, "b1", activated=True, overwatch=True)
    g2.apply(Action.parse("charge a1 b1 [walking]"))
    g2.force([10], [10], [10])
    g2.apply(Action("react", "b1", "a1", option="shoot:Rifle"))
    g2.settle()
    assert not unit_vars(g2, "b1")["overwatch"]


def test_shoot_reaction_go_prone_before_the_attacks() -> None:
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 30)]})
    g.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert g.decision.prompt == "react" and g.decision.player == 1
    g.apply(Action("react", "b1", "a1", option="prone"))
    assert unit_vars(g, "b1")["prone"]
    assert g.decision.dice is not None and g.decision.prompt == "hits"
    assert g.state.stack[-1].group.tn == 5 - 1 - 1  # long range, Conceal (1) (the prone +-1 by range is an option)


def test_move_goes_round_a_wall_within_its_inches() -> None:
    """Seed 002, Move: models move their Move in inches in any direction; a wall in the way is walked round when the
    way round fits the Move (here 2" of wall to pass: about 5.7" in all), and is too far when it does not."""
    wall = box("wall", "impassable", 14.5, 12, 15.5, 14.2, height=3, blocks_los=True)
    g = position([unit(models=1)], [unit(models=1)], {"a1": [(15, 11)], "b1": [(40, 40)]}, terrain=[wall])
    act(g, "move a1")
    assert rules_of(g, "to a1 @15,15.5") == []  # straight is blocked; round the end of the wall fits 6"
    act(g, "to a1 @15,15.5")
    assert (g.state.models["a1.1"].x, g.state.models["a1.1"].y) == (15, 15.5)
    long_wall = box("wall", "impassable", 5, 12, 25, 14.2, height=3, blocks_los=True)
    g2 = position([unit(models=1)], [unit(models=1)], {"a1": [(15, 11)], "b1": [(40, 40)]}, terrain=[long_wall])
    act(g2, "move a1")
    assert rules_of(g2, "to a1 @15,15.5") != []


def test_move_path_stays_one_inch_from_enemies() -> None:
    """Seed 002: 'While performing a Move action, all models ... must remain at least 1" away from enemy models':
    the straight line past an enemy is refused when it would brush by; going round it is allowed if it fits."""
    g = position([unit(models=1, move=12)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]})
    act(g, "move a1")
    reasons = rules_of(g, "to a1 @10,20")  # straight through b1's 1" zone: must go round (about 11")
    assert reasons == []
    g2 = position([unit(models=1, move=10)], [unit(models=1)], {"a1": [(10, 10)], "b1": [(10, 15)]})
    act(g2, "move a1")
    assert rules_of(g2, "to a1 @10,20") != []  # 10" is not enough to go round


def test_a_unit_profile_may_give_three_actions() -> None:
    """Seed 002, List of Actions: two actions normally, 'rare situations in which a unit may perform three': the
    unit profile's ``actions: 3`` gives its every activation three actions; others keep two."""
    g = position([unit(actions=3)], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, deck=["b1"])
    assert g.state.vars["left"] == 3
    act(g, "prone a1")
    act(g, "stand a1")
    assert g.state.vars["active"] == "a1" and g.state.vars["left"] == 1
    act(g, "prone a1")
    assert g.state.vars["active"] == "b1" and g.state.vars["left"] == 2  # b1 has the normal two


def test_three_actions_are_still_cut_by_shaken_and_a_failed_pinned_test() -> None:
    tank = unit(models=1, size="XL", base_mm=60, keywords=["VEHICLE"], actions=3)
    g = position([tank], [unit()], {"a1": [(20, 10)], "b1": line(10, 40, 3)}, active=None)
    set_unit(g, "a1", shaken=1)
    from warband.rulesets.trenches_and_turbines.activation import begin_activation

    begin_activation(g.state, "a1", [])
    assert g.state.vars["left"] == 2  # a Shaken VEHICLE loses one of its three (digest §3.10)
    p = position([unit(actions=3)], [unit()], {"a1": line(10, 10, 3), "b1": line(10, 40, 3)}, active=None)
    set_unit(p, "a1", pins=1)
    begin_activation(p.state, "a1", [])
    p.state.state_id += 1
    assert p.decision.prompt == "pintest"
    p.roll([10])  # the pinned test fails: one action only (digest §3.7)
    assert p.state.vars["left"] == 1


def test_actions_in_a_force_file_are_validated(tmp_path: Path) -> None:
    from warband.kernel.errors import RosterError
    from warband.rulesets.trenches_and_turbines.roster import load_roster

    doc = {"ruleset": "trenches-and-turbines", "name": "X", "units": [unit(actions=3), unit(actions=4)]}
    path = tmp_path / "force.json"
    path.write_text(json.dumps(doc))
    try:
        load_roster(path)
    except RosterError as exc:
        assert "units[1].actions" in str(exc) and "units[0]" not in str(exc)
    else:  # pragma: no cover - the bad file must be refused
        raise AssertionError("actions: 4 was accepted")
    doc["units"] = [unit(actions=3)]
    path.write_text(json.dumps(doc))
    assert load_roster(path).units[0].actions == 3


def test_followers_walk_round_impassable_terrain_too() -> None:
    """Seed 002, Move and Unit Coherency: every model moves its Move in any direction and ends within the leader's
    command radius. The leader steps past the end of a wall; the follower behind the wall walks round its end to
    a place beside the leader (a straight leg would cross the wall, and the move would be refused)."""
    wall = box("w", "impassable", 10, 12, 20, 13, height=3, blocks_los=True)
    g = position([unit(models=2)], [unit(models=1)], {"a1": [(9, 11), (11.2, 11)], "b1": [(40, 40)]}, terrain=[wall])
    act(g, "move a1")
    assert rules_of(g, "to a1 @9,16") == []
    act(g, "to a1 @9,16")
    f = g.state.models["a1.2"]
    assert f.y > 13 + f.radius  # past the wall
    assert math.hypot(f.x - 9, f.y - 16) - 2 * f.radius <= 2 + 1e-6  # in coherency (chain 2", command 6")


def _routed(a: list[dict[str, Any]], at: dict[str, list[tuple[float, float]]], **kw: Any) -> Any:
    """``a1`` is Routed and activates: its Rally test is next."""
    from warband.rulesets.trenches_and_turbines.activation import begin_activation

    g = position(a, [unit(models=len(at.get("b1", [])) or 1)], at, active=None, **kw)
    set_unit(g, "a1", routed=True, pins=1)
    begin_activation(g.state, "a1", [])
    g.state.state_id += 1
    assert g.decision.prompt == "rally"
    return g


def test_routed_unit_walks_round_impassable_terrain_to_its_edge_and_off() -> None:
    """Digest §3.7: a Routed unit failing its Rally makes Moves toward its own table edge; models that leave the
    table are destroyed. The flee is a Move (seed 002): a wall between the unit and its edge (y = 0) is walked
    round, not stood behind."""
    wall = box("w", "impassable", 14, 0, 26, 6, height=3, blocks_los=True)
    at = {"a1": [(20, 8), (18.8, 8), (21.2, 8)], "a2": [(40, 20)], "b1": [(40, 44)]}
    g = _routed([unit(models=3), unit(models=1)], at, terrain=[wall])
    events = g.roll([10])  # fails: both actions are flee Moves
    assert sum("flees" in e.describe() for e in events) == 2
    for mid in alive(g, "a1"):
        m = g.state.models[mid]
        assert m.y < 6 and m.x < 14 - m.radius  # round the west end of the wall, on toward the edge
    assert g.decision.prompt == "draw" and g.state.turn == 2
    g.roll([1])  # round 2: a1's card comes first
    events = g.roll([10])  # the Rally fails again
    assert alive(g, "a1") == [] and sum("fled off the table" in e.describe() for e in events) == 3


def test_fleeing_models_keep_clear_of_enemies_and_take_the_nearest_free_spot() -> None:
    """A flee is a Move (seed 002): no model passes within 1" of an enemy, and a model whose place is taken stands
    at the nearest free spot instead of staying put."""
    from warband.kernel.space import gap

    g = _routed([unit(models=1)], {"a1": [(10, 14)], "b1": [(10, 10)]})
    events = g.roll([10])
    m, e = g.state.models["a1.1"], g.state.models["b1.1"]
    first = next(ev for ev in events if "moves" in ev.describe())
    assert "to (10.0, 8.0)" not in first.describe()  # straight down would brush past b1
    assert m.y < 6 and abs(m.x - 10) > 1 and gap(m, e) >= 1  # it went round b1
    blocked = _routed([unit(models=1), unit(models=1)], {"a1": [(10, 14)], "a2": [(10, 8)], "b1": [(40, 44)]})
    events = blocked.roll([10])
    first = next(ev for ev in events if "moves" in ev.describe())
    assert first.describe().startswith("a1.1 moves 5.")  # a2 stands where it would end: it stops beside a2
    assert gap(blocked.state.models["a1.1"], blocked.state.models["a2.1"]) >= 0
    assert blocked.state.models["a1.1"].y < 4  # and its second flee Move goes on toward the edge


def test_fight_loser_that_fails_leadership_makes_a_full_move_away() -> None:
    """Digest §3.9: the loser of a Fight that fails its Leadership is Routed and makes a full Move away (param
    ``fight_loss_flee``: 'away' from the winner by default, or to its own 'edge', or 'none'); seed 002: the
    winner's Shift comes first."""

    def fight(mode: str) -> Any:
        g = position(
            [unit(models=2, sv=0)],
            [unit(models=2, sv=0)],
            {"a1": [(20, 21), (21.2, 21)], "b1": [(20, 20.01), (21.2, 20.01)]},
            params={"fight_loss_flee": mode},
        )
        g.force([1, 10], [10], [10, 10])  # a1: one hit, failed save; b1 misses
        g.apply(Action.parse("fight a1 b1"))
        g.settle()
        if g.decision.prompt == "wound":
            g.apply(g.legal_actions()[0])
            g.settle()
        g.apply(Action("stay", "a1"))  # the winner's free Shift
        g.force([10])  # the loser's Leadership check fails
        g.settle()
        assert unit_vars(g, "b1")["routed"]
        return g.state.models["b1.1"]

    centre = (20.6, 21)  # of a1's models
    before = math.hypot(20 - centre[0], 20.01 - centre[1])
    away = fight("away")
    assert math.hypot(away.x - centre[0], away.y - centre[1]) > before + 5.9  # a full 6" straight away from a1
    edge = fight("edge")
    assert edge.y > 21  # toward its own edge (north, y = 48), round a1
    stay = fight("none")
    assert (stay.x, stay.y) == (20, 20.01)


def _charge(game: Any, text: str) -> list[str]:
    """Declare a charge and let it run (the target has no reaction; every die of the FREE Fight misses)."""
    events = game.apply(Action.parse(text))
    while game.decision.dice is not None and game.decision.dice.sides == 10:  # d10s: the Fight (not the deck)
        events += game.roll([10] * game.decision.dice.n)
    return [e.describe() for e in events]


def test_charge_goes_round_a_wall_when_the_way_round_fits_the_distance() -> None:
    """Seed 002, Charge: 'a special type of movement action', so the charge move walks round impassable terrain
    like a Move. The straight way to the target crosses a short wall; the way round its end (about 5.5") fits a
    walking charge's 6", and the leader ends in base contact with a leg no straight move could make."""
    from warband.rulesets.trenches_and_turbines.paths import leg_cost
    from warband.rulesets.trenches_and_turbines.units import in_contact

    wall = box("wall", "impassable", 14.5, 12, 15.5, 14.2, height=3, blocks_los=True)
    g = position(
        [unit(models=1)], [unit(models=1, ranged=0, weapons=[])], {"a1": [(15, 11)], "b1": [(15, 15.7)]}, terrain=[wall]
    )
    assert rules_of(g, "charge a1 b1 [walking]") == []
    said = _charge(g, "charge a1 b1 [walking]")
    m = g.state.models["a1.1"]
    assert in_contact(g.state, m, "b1") and any("charges home" in s for s in said)
    assert leg_cost(g.state.ctx, m, (15, 11), (m.x, m.y), 0.0) is None  # the straight leg would cross the wall


def test_charge_whose_way_round_is_too_long_falls_short_along_it() -> None:
    """Seed 002, Charge: models move their Move (walking) or double (running) in the charge. Round a longer wall
    the way is about 11": a walking charge may be declared (the target is within 6" as the crow flies) but
    fails, its leader ending 6" along the way round, not through the wall; a running charge gets there."""
    from warband.rulesets.trenches_and_turbines.units import in_contact

    wall = box("wall", "impassable", 11, 12, 19, 14.2, height=3, blocks_los=True)
    at = {"a1": [(15, 11)], "b1": [(15, 15.7)]}
    g = position([unit(models=1)], [unit(models=1, ranged=0, weapons=[])], at, terrain=[wall])
    assert rules_of(g, "charge a1 b1 [walking]") == []
    said = _charge(g, "charge a1 b1 [walking]")
    m = g.state.models["a1.1"]
    assert not in_contact(g.state, m, "b1") and any("charge fails" in s for s in said)
    assert m.x < 11 - m.radius or m.x > 19 + m.radius  # round one end of the wall
    assert math.hypot(m.x - 15, m.y - 11) > 4  # it moved along its way, it did not stand still
    run = position([unit(models=1)], [unit(models=1, ranged=0, weapons=[])], at, terrain=[wall])
    said = _charge(run, "charge a1 b1 [running]")
    assert in_contact(run.state, run.state.models["a1.1"], "b1") and any("charges home" in s for s in said)


def test_charge_never_passes_through_impassable_terrain() -> None:
    """A charge is a movement action (seed 002): a target walled in all round cannot be reached, however close it
    stands; the charge fails and the charger stays outside the walls."""
    from warband.rulesets.trenches_and_turbines.units import in_contact

    walls = [
        box("s", "impassable", 12, 12, 18, 12.5, height=3, blocks_los=True),
        box("n", "impassable", 12, 17.5, 18, 18, height=3, blocks_los=True),
        box("w", "impassable", 12, 12, 12.5, 18, height=3, blocks_los=True),
        box("e", "impassable", 17.5, 12, 18, 18, height=3, blocks_los=True),
    ]
    g = position(
        [unit(models=1)], [unit(models=1, ranged=0, weapons=[])], {"a1": [(15, 11)], "b1": [(15, 15)]}, terrain=walls
    )
    assert rules_of(g, "charge a1 b1 [running]") == []
    said = _charge(g, "charge a1 b1 [running]")
    m = g.state.models["a1.1"]
    assert not in_contact(g.state, m, "b1") and any("charge fails" in s for s in said)
    assert not (12 < m.x < 18 and 12 < m.y < 18)


def test_charging_followers_walk_round_impassable_terrain_to_base_contact() -> None:
    """Seed 002, Charge: after the leader, the rest of the unit is moved to maximise the models in base contact.
    The leader stands past the end of a wall; its two followers behind the wall walk round its end into base
    contact too (each straight leg would cross the wall)."""
    from warband.rulesets.trenches_and_turbines.paths import leg_cost
    from warband.rulesets.trenches_and_turbines.units import in_contact

    wall = box("w", "impassable", 10, 12, 20, 13, height=3, blocks_los=True)
    at = {"a1": [(9, 12.5), (11, 11), (12.2, 11)], "b1": line(12.5, 15.5, 3)}
    g = position([unit(models=3, move=8)], [unit(models=3, ranged=0, weapons=[])], at, terrain=[wall])
    said = _charge(g, "charge a1 b1 [walking]")
    assert any("3 model(s) in base contact" in s for s in said)
    for mid, start in (("a1.2", (11, 11)), ("a1.3", (12.2, 11))):
        m = g.state.models[mid]
        assert in_contact(g.state, m, "b1")
        assert leg_cost(g.state.ctx, m, start, (m.x, m.y), 0.0) is None


def test_charge_goes_round_other_enemies_one_inch_clear() -> None:
    """Seed 002, Move: models keep at least 1" from enemy models while moving; a charge is a movement action, so
    its way to the target goes round another enemy unit standing in between (1" clear), not past it."""
    from warband.kernel.space import gap
    from warband.rulesets.trenches_and_turbines.units import in_contact

    at = {"a1": [(10, 10)], "b1": [(10, 16)], "b2": [(10, 13)]}
    two = [unit(models=1, ranged=0, weapons=[]), unit(models=1, ranged=0, weapons=[])]
    g = position([unit(models=1)], two, at)
    said = _charge(g, "charge a1 b1 [running]")
    m = g.state.models["a1.1"]
    assert in_contact(g.state, m, "b1") and any("charges home" in s for s in said)
    assert gap(m, g.state.models["b2.1"]) >= 1 - 1e-6


def test_a_charging_vehicle_keeps_to_a_straight_line() -> None:
    """Seed 002, Vehicle Keyword and Movement: a VEHICLE moves only in a straight line, so its charge does not
    walk round a wall the way infantry would."""
    from warband.rulesets.trenches_and_turbines.units import in_contact

    wall = box("wall", "impassable", 14, 12, 16, 14.2, height=3, blocks_los=True)
    at = {"a1": [(15, 10)], "b1": [(15, 16)]}
    tank = unit(models=1, move=8, size="L", keywords=["VEHICLE"], base_mm=25)
    g = position([tank], [unit(models=1, ranged=0, weapons=[])], at, terrain=[wall])
    said = _charge(g, "charge a1 b1 [walking]")
    assert not in_contact(g.state, g.state.models["a1.1"], "b1") and any("charge fails" in s for s in said)
    foot = position([unit(models=1, move=8)], [unit(models=1, ranged=0, weapons=[])], at, terrain=[wall])
    said = _charge(foot, "charge a1 b1 [walking]")
    assert in_contact(foot.state, foot.state.models["a1.1"], "b1")


def test_a_charging_vehicle_pivots_at_most_90_degrees() -> None:
    """Seed 002, Vehicle Keyword and Movement (one pivot of at most 90 degrees, then a straight line) holds for
    the charge move too (a charge is 'a special type of movement action'): a target behind the vehicle is out of
    reach however close, one within the arc is reached, and the vehicle ends facing the way it went."""
    from warband.rulesets.trenches_and_turbines.units import in_contact

    tank = unit(models=1, move=8, size="L", keywords=["VEHICLE"], base_mm=25)
    target = unit(models=1, ranged=0, weapons=[])
    behind = position([tank], [target], {"a1": [(20, 20)], "b1": [(20, 14)]})  # facing +y (90): b1 is behind
    assert behind.state.models["a1.1"].flags.get("facing", 90.0) == 90.0
    said = _charge(behind, "charge a1 b1 [walking]")
    m = behind.state.models["a1.1"]
    assert not in_contact(behind.state, m, "b1") and any("charge fails" in s for s in said)
    assert m.y >= 20 - 1e-6  # it never went backwards toward the target
    ahead = position([tank], [target], {"a1": [(20, 20)], "b1": [(25, 25)]})  # 45 degrees off its facing
    said = _charge(ahead, "charge a1 b1 [walking]")
    m = ahead.state.models["a1.1"]
    assert in_contact(ahead.state, m, "b1") and any("charges home" in s for s in said)
    facing = m.flags["facing"]
    assert 0.0 <= facing <= 90.0 and abs(facing - 90.0) > 1.0  # turned toward the target, within the arc
    foot = position([unit(models=1, move=8)], [target], {"a1": [(20, 20)], "b1": [(20, 14)]})
    _charge(foot, "charge a1 b1 [walking]")
    assert in_contact(foot.state, foot.state.models["a1.1"], "b1")  # infantry turn round freely
