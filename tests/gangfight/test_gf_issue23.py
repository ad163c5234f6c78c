"""Issue 23, Gangfight (seed 004): Charge! with line of sight as its only condition, Fight!'s move when it cannot
reach, the free Fight!'s own move, the free hand weapon, and refusals that name their rule. Positions are arranged
by hand on the open ground of the default table and the dice are given, as in ``test_gf_engine``."""

from __future__ import annotations

import math

from test_gf_engine import BOW, HAND, A, arrange, dice_n, hits, make

from warband.kernel.space import gap
from warband.rulesets.gangfight.core import ap, melee_weapon


def rules_of(reasons: list[tuple[str, str]]) -> list[str]:
    return [r for r, _ in reasons]


# ------------------------------------------------------------------------------------------- Charge!
def test_a_charge_beyond_the_longest_charge_may_be_declared_and_moves_the_whole_roll() -> None:
    """Seed 004 Charge!: line of sight is the only condition; a charge that cannot arrive still moves MV plus
    an inch a success toward the target (a4: MV 4, so at most 8"; b8 stands 12" away)."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 14)}, a4={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    assert A("charge a4 b8") in g.legal_actions()
    g.apply(A("charge a4 b8"))
    g.roll(hits(4, 4))  # 4 + 4 = 8"
    assert math.isclose(g.state.models["a4"].y, 10.0, abs_tol=1e-6)
    assert g.decision.prompt == "action"  # short: no free Fight!


def test_a_counter_charge_answers_a_long_charge_that_falls_short() -> None:
    """Seed 004 Counter-Charge: the charger moves first; when it falls short the counter-charger charges it, here
    from 12" away, a charge no longer refused for its length."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 14)}, a8={"melee": [HAND]}, b8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.apply(A("interrupt b8 a8 [counter-charge]"))
    g.roll(hits(1, 4))  # 5": a8 stands at y 7, 7" short
    assert math.isclose(g.state.models["a8"].y, 7.0, abs_tol=1e-6)
    d = g.decision
    assert d.prompt == "charge" and d.dice is not None and d.dice.model == "b8"


def test_a_charge_out_of_sight_is_refused_for_line_of_sight() -> None:
    g = make()
    arrange(g, 0, {"a4": (1.5, 22.5), "b8": (20.5, 22.5)})  # the farmhouse blocks the view, 19" apart
    g.apply(A("activate a4"))
    why = g.why_illegal(A("charge a4 b8"))
    assert rules_of(why) == ["gangfight/charge/visible"] and "line of sight" in why[0][1]


# ------------------------------------------------------------------------------------------- Fight!
def test_fight_declared_out_of_reach_moves_the_threat_range_and_attacks_nothing() -> None:
    """Seed 004 Fight!: no 'already within threat range' condition; a model that cannot reach base contact simply
    moves its threat range (1" for a Medium model) toward the enemy, its AP spent."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 8)}, a8={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a8"))
    assert A("fight a8 b8") in g.legal_actions()
    g.apply(A("fight a8 b8"))
    assert math.isclose(g.state.models["a8"].y, 3.0, abs_tol=0.01)
    assert g.decision.prompt == "action" and ap(g.state.models["a8"]) == 2


def test_the_free_fight_after_a_charge_moves_into_base_contact_before_its_dice() -> None:
    """Seed 004 Charge! and Fight!: the charger stops 0.5" short, within its 1" threat range; its free Fight!
    first moves into base contact, then rolls."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 9.5)}, a8={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.roll(hits(2, 4))  # 6": y 8, 0.5" of gap
    a8, b8 = g.state.models["a8"], g.state.models["b8"]
    assert math.isclose(gap(a8, b8), 0.5, abs_tol=0.01) and g.decision.prompt == "free-fight"
    g.apply(A("fight a8 b8"))
    assert g.decision.prompt == "attack"
    assert math.isclose(gap(a8, b8), 0.0, abs_tol=0.01)


# ------------------------------------------------------------------------------------------- the free hand weapon
def test_a_bow_only_model_fights_with_its_free_hand_weapon() -> None:
    """Data digest §2 [P] (armoury ``free_weapon``): a4 of the Crossroads Marksmen lists only a Bow; it fights with
    the Hand weapon (ATT 3 + 0 dice), not unarmed (2 dice)."""
    g = make()
    a4 = g.state.models["a4"]
    assert [w["name"] for w in a4.data["ranged"]] == ["Bow"]
    assert melee_weapon(a4)["name"] == "Hand weapon"
    arrange(g, 0, {"a4": (10, 4), "b8": (10, 5.8)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("fight a4 b8"))
    assert dice_n(g) == 3


# ------------------------------------------------------------------------------------------- refusals
def test_a_move_onto_a_sheer_roof_names_jump_climb() -> None:
    g = make()
    arrange(g, 0, {"a5": (19, 17), "b8": (30, 40)})
    g.apply(A("activate a5"))
    g.apply(A("move a5"))
    why = g.why_illegal(A("to a5 @19,21"))
    assert rules_of(why) == ["gangfight/move/jump-climb"] and "Jump/Climb" in why[0][1]


def test_on_my_mark_out_of_range_blames_the_range_not_the_loading() -> None:
    from test_gf_engine import band_game

    g = band_game()
    g.state.models["a4"].data = {**g.state.models["a4"].data, "ranged": [{**BOW, "range": 1.0}]}
    g.state.models["a4"].flags["loaded"] = {"Bow": True}
    g.apply(A("activate a1"))
    g.apply(A("band a1 b8 [on-my-mark]"))
    why = g.why_illegal(A("join a1 a4"))
    assert rules_of(why) == ["gangfight/fire/range"] and "On my Mark!" in why[0][1]


def _charge_window() -> object:
    g = make()
    arrange(g, 0, {"a8": (10, 2), "a9": (14, 2), "b8": (10, 10), "b9": (14, 10)}, b8={"ranged": [BOW]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    assert g.decision.prompt == "interrupt"
    return g


def test_each_wrong_interrupt_names_the_rule_it_breaks() -> None:
    g = _charge_window()
    assert isinstance(g, type(make()))
    cases = {
        "interrupt b9 a8 [bulwark]": "gangfight/interrupt/targeted",  # only a targeted model
        "interrupt b8 a8 [dodge]": "gangfight/interrupt/dodge",  # Dodge only against an area attack
        "interrupt b8 a8 [fight]": "gangfight/interrupt/fight",  # Fight! only in close combat
        "interrupt b8 a8 [fire:Bow]": "gangfight/fire/loaded",  # Fire! only with a loaded weapon
        "reload b8 [Bow]": "gangfight/interrupt/only",  # only interrupts in the opponent's turn
    }
    for text, rule in cases.items():
        why = g.why_illegal(A(text))
        assert rule in rules_of(why), (text, why)
        assert all("expected one of" not in t for _, t in why)


def test_a_counter_charge_answers_only_a_charge_and_interrupts_come_before_any_move() -> None:
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 8)}, a8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    assert rules_of(g.why_illegal(A("interrupt b8 a8 [counter-charge]"))) == ["gangfight/interrupt/counter-charge"]
    g.apply(A("pass b8"))  # the Fight! now moves: too late for any interrupt
    assert g.decision.prompt == "action"
    why = g.why_illegal(A("interrupt b8 a8 [bulwark]"))
    assert "gangfight/timing/interrupt" in rules_of(why)
    assert any("before any model moves" in t for _, t in why)


def test_one_interrupt_per_model_and_the_other_side_waits() -> None:
    """An area attack opens the window of each model under the blast in turn; b8 has interrupted already."""
    g = make()
    bomb = {"name": "Grenade", "range": 8.0, "mrk": 0, "dam": 5, "era": "modern", "reload": False, "area": True}
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 8), "b9": (11.1, 8)}, a4={"ranged": [bomb]})
    g.apply(A("activate a4"))
    g.apply(A("fire a4 b8 [Grenade]"))
    first = g.decision.model
    g.apply(A(f"interrupt {first} a4 [dodge]"))
    other = g.decision.model
    assert g.decision.prompt == "interrupt" and other != first
    assert rules_of(g.why_illegal(A(f"interrupt {first} a4 [bulwark]"))) == ["gangfight/interrupt/once"]
    why = g.why_illegal(A("move a4"))
    assert why[0][0] == "gangfight/decision/whose" and "side B" in why[0][1]


def test_while_the_dice_decide_an_action_is_told_to_wait_for_them() -> None:
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 8)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    assert g.decision.is_chance
    why = g.why_illegal(A("move a4"))
    assert rules_of(why) == ["gangfight/timing/dice"] and "rolled" in why[0][1]


def test_an_interrupt_without_held_ap_is_told_it_needs_one() -> None:
    """Seed 004 Interrupts: AP held back pay for interrupts; b8 holds none, so no window opens and an interrupt
    tried at the charge roll is refused with the moment it belongs to."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 8)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    why = g.why_illegal(A("interrupt b8 a4 [bulwark]"))
    assert rules_of(why) == ["gangfight/timing/dice", "gangfight/timing/interrupt"]
    assert "AP held back" in why[1][1]
