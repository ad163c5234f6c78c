"""Gangfight engine: one test per seed 004 sentence that the engine carries (the clause matrix rows named in each
docstring). Positions are arranged by hand on open ground of the default table (x 8-20, y 2-10) and dice are
given explicitly, so each test shows the rule and nothing else."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.space import gap
from warband.rulesets.gangfight.attacks import ArmourRoll
from warband.rulesets.gangfight.banding import BandFights, BandNominate, BandOrder
from warband.rulesets.gangfight.charge import FreeFight
from warband.rulesets.gangfight.core import ap, en, knocked

PARTIES = Path(__file__).resolve().parents[2] / "src/warband/rulesets/gangfight/data/parties"


def A(text: str) -> Action:
    return Action.parse(text)


def make(a: str = "crossroads_marksmen", b: str = "gunrunners", seed: int = 3) -> Game:
    rs = registry.get("gangfight")
    docs = [rs.load_roster(PARTIES / f"{a}.yaml"), rs.load_roster(PARTIES / f"{b}.yaml")]
    g = Game.new(rs, docs, rs.load_scenario(rs.default_scenario()), seed)
    while g.decision.prompt not in ("activate", "bravery"):
        if g.decision.is_chance:
            g.roll()
        else:
            g.apply(g.legal_actions()[0])
    return g


def arrange(g: Game, side: int, spots: dict[str, tuple[float, float]], **data: dict[str, Any]) -> None:
    """Only the models in ``spots`` stand on the table, each with AP = IV; ``side`` is to act; ``data`` replaces
    parts of a model's profile (its weapons)."""
    st = g.state
    for m in st.models.values():
        m.flags.update(finished=False, knocked=False, incap=False, interrupted=None, bulwark=None)
        if m.id in spots:
            m.on_table = True
            m.x, m.y = spots[m.id]
            m.z = 0.0
            m.tokens["ap"] = int(m.data["profile"]["IV"])
            m.tokens["en"] = int(m.data["profile"]["EN"])
        else:
            m.on_table = False
            m.flags["out"] = True
        if m.id in data:
            m.data = {**m.data, **data[m.id]}
    st.stack = []
    st.phase = "turn"
    st.vars.update(active=side, active_model=None, first=side, decl=[], lost=[0, 0], bravery_due=[False, False])


BOW = {"name": "Bow", "range": 24.0, "hands": 2, "mrk": 0, "dam": 4, "era": "archaic", "reload": True}
RIFLE = {"name": "Rifle", "range": 24.0, "hands": 2, "mrk": 0, "dam": 5, "era": "modern", "reload": False}
HAND = {"name": "Hand weapon", "att": 0, "dam": 0}


def hits(n: int, total: int) -> list[int]:
    """``n`` sixes and the rest ones: exactly ``n`` successes at any TN."""
    return [6] * n + [1] * (total - n)


def dice_n(g: Game) -> int:
    d = g.decision.dice
    assert d is not None
    return d.n


# ------------------------------------------------------------------------------------------- AP and turns
def test_each_model_generates_ap_equal_to_its_iv_at_its_turn_start() -> None:
    """#1, #65, #66: during the Player's Turn models spend AP; IV 3 gives 3 AP (AP held lapse at the next turn)."""
    g = make()
    st = g.state
    side = st.vars["active"]
    for m in st.side_models(side):
        assert ap(m) == m.data["profile"]["IV"]
    regular = next(m for m in st.side_models(side) if m.data["profile"]["IV"] == 3)
    assert ap(regular) == 3


def test_a_standard_action_names_one_model_and_costs_one_ap() -> None:
    """#2, #3, #4, #5: a Move applies to the one active model, costs 1 AP and moves up to MOV inches."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (30, 40)})
    g.apply(A("activate a4"))
    assert all(a.model in ("a4", None) for a in g.legal_actions())
    g.apply(A("move a4"))
    assert ap(g.state.models["a4"]) == 2
    assert not g.why_illegal(A("to a4 @10,8"))  # MOV 4
    why = g.why_illegal(A("to a4 @10,8.5"))
    assert why and why[0][0] == "gangfight/move/reach"
    g.apply(A("to a4 @10,8"))
    assert g.state.models["a4"].pos == (10, 8)


def test_ending_the_turn_holds_ap_and_the_opponent_starts_with_iv() -> None:
    """#67: AP not spent in the own turn are held for interrupts in the opponent's turn."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (10, 30)})
    g.apply(A("activate a4"))
    g.apply(A("end a4"))
    assert g.state.vars["active"] == 1  # no model left to activate: the turn passes
    assert ap(g.state.models["a4"]) == 3
    assert ap(g.state.models["b8"]) == 3


# ------------------------------------------------------------------------------------------- Charge!
def test_charge_needs_line_of_sight() -> None:
    """#6, #7: a Charge! is declared against an enemy the model can see (the farmhouse blocks sight)."""
    g = make()
    arrange(g, 0, {"a4": (1.5, 22.5), "b8": (9.5, 22.5)})
    g.apply(A("activate a4"))
    why = g.why_illegal(A("charge a4 b8"))
    assert why and why[0][0] == "gangfight/charge/visible"


def test_charge_rolls_mv_dice_and_moves_mv_plus_an_inch_a_success() -> None:
    """#8, #9, #10, #13: MV dice at 2+ on flat ground; MV 4 with 2 successes moves 6"."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 10)}, b8={"ranged": []})
    g.state.models["b8"].tokens["ap"] = 0  # no interrupt
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    assert dice_n(g) == 4
    g.roll([2, 2, 1, 1])  # 2+ on flat: two successes
    assert math.isclose(g.state.models["a4"].y, 8.0, abs_tol=1e-6)


def test_charge_tn_follows_the_terrain_density() -> None:
    """#9: a charge across dense woods needs 6s."""
    g = make()
    arrange(g, 0, {"a4": (12, 26), "b8": (12, 33.5)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    ev = g.roll([5, 5, 5, 6])
    assert any("6+" in getattr(e, "label", "") for e in ev)


def test_a_failed_charge_still_moves_the_whole_distance() -> None:
    """#14, #15: a charge that falls short still moves MV + successes, with no enemy in threat range after."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 10.5)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    g.roll(hits(2, 4))
    assert math.isclose(g.state.models["a4"].y, 8.0, abs_tol=1e-6)
    assert g.decision.prompt == "action"  # no free Fight!


def test_a_charge_that_reaches_gives_a_free_fight() -> None:
    """#11, #12, #18: a charger with an enemy in its threat range may Fight! for free (no AP)."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 8)})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    g.roll(hits(4, 4))
    assert g.decision.prompt == "free-fight"
    assert A("fight a4 b8") in g.legal_actions()
    before = ap(g.state.models["a4"])
    g.apply(A("fight a4 b8"))
    assert g.decision.prompt == "attack"
    assert ap(g.state.models["a4"]) == before


# ------------------------------------------------------------------------------------------- Fight!
def test_fight_moves_into_base_contact_then_attacks_and_wounds() -> None:
    """#16, #17, #19: Fight! moves the model up to its threat range into base contact, rolls ATT dice at the
    target's DEF, then the target's ARM at the attacker's DAM; the rest come off EN."""
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 5.8)}, a8={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    assert math.isclose(gap(g.state.models["a8"], g.state.models["b8"]), 0.0, abs_tol=0.01)
    assert dice_n(g) == 3  # ATT 3, hand weapon +0
    g.roll(hits(2, 3))
    assert dice_n(g) == 3  # b8 ARM 3
    g.roll(hits(0, 3))
    assert en(g.state.models["b8"]) == 1


def test_fight_that_cannot_reach_contact_moves_its_threat_range() -> None:
    """#20: a model with reach that cannot get into base contact moves its threat range toward the target."""
    g = make()
    spear = {"name": "Spear", "att": 0, "dam": 0, "reach": True}
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 6.9)}, a8={"melee": [spear]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    assert math.isclose(g.state.models["a8"].y, 5.0, abs_tol=0.01)


# ------------------------------------------------------------------------------------------- Reload/Fire!
def test_an_archaic_weapon_fires_only_after_a_reload() -> None:
    """#21, #22, #24: for 1 AP a model loads or fires; no firing without a previous Reload."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (10, 10.5)}, a4={"ranged": [BOW]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a4"))
    why = g.why_illegal(A("fire a4 b8 [Bow]"))
    assert why and why[0][0] == "gangfight/fire/loaded"
    g.apply(A("reload a4 [Bow]"))
    assert ap(g.state.models["a4"]) == 2
    assert not g.why_illegal(A("fire a4 b8 [Bow]"))
    g.apply(A("fire a4 b8 [Bow]"))
    assert g.decision.prompt == "attack"


def test_a_modern_gun_needs_no_loading() -> None:
    """#23, #83: modern guns fire without a Reload."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (10, 10.5)}, a4={"ranged": [RIFLE]})
    g.apply(A("activate a4"))
    assert not g.why_illegal(A("fire a4 b8 [Rifle]"))
    assert g.why_illegal(A("reload a4 [Rifle]"))[0][0] == "gangfight/reload/needless"


def test_no_firing_in_close_combat() -> None:
    """#22: a model in base contact with an enemy may not fire."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (10, 5.0)}, a4={"ranged": [RIFLE]})
    g.apply(A("activate a4"))
    assert g.why_illegal(A("fire a4 b8 [Rifle]"))[0][0] == "gangfight/fire/close-combat"


# ------------------------------------------------------------------------------------------- Run, Stand Up
def test_run_moves_twice_mov_and_ends_the_activation() -> None:
    """#25, #26, #27: Run moves up to 2 x MOV; the activation then ends (the AP left are held)."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "a5": (16, 2), "b8": (30, 40)})
    g.apply(A("activate a4"))
    g.apply(A("run a4"))
    assert not g.why_illegal(A("to a4 @10,10"))
    assert g.why_illegal(A("to a4 @10,10.5"))
    g.apply(A("to a4 @10,10"))
    assert g.state.models["a4"].flags["finished"]
    assert g.decision.prompt == "activate"
    assert A("activate a4") not in g.legal_actions()


def test_run_never_enters_difficult_terrain() -> None:
    """#28: a Run may not go through difficult terrain (the rubble), a Move may."""
    g = make()
    arrange(g, 0, {"a4": (28.5, 6.5), "b8": (30, 40)})
    g.apply(A("activate a4"))
    g.apply(A("run a4"))
    why = g.why_illegal(A("to a4 @28.5,12.5"))
    assert why and why[0][0] == "gangfight/run/difficult"


def test_a_knocked_over_model_must_stand_up_first() -> None:
    """#29, #30: a knocked-over model's only action is Stand Up, for 1 AP."""
    g = make()
    arrange(g, 0, {"a4": (10, 4), "b8": (30, 40)})
    g.state.models["a4"].flags["knocked"] = True
    g.apply(A("activate a4"))
    kinds = {a.kind for a in g.legal_actions()}
    assert kinds == {"standup", "end"}
    assert g.why_illegal(A("move a4"))[0][0] == "gangfight/knocked/stand-up"
    g.apply(A("standup a4"))
    assert not knocked(g.state.models["a4"])
    assert ap(g.state.models["a4"]) == 2


# ------------------------------------------------------------------------------------------- special actions
@pytest.mark.parametrize(("how", "n", "tn"), [("power", 2, 4), ("finesse", 3, 3)])
def test_power_and_finesse_attacks_cost_one_ap_and_change_the_attack(how: str, n: int, tn: int) -> None:
    """#31-#36: a Special Action for one model, 1 AP; Power: -1 ATT die (+1 DAM), Finesse: target DEF -1."""
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 5.0)}, a8={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a8"))
    g.apply(A(f"{how} a8 b8"))
    assert ap(g.state.models["a8"]) == 2
    d = g.decision.dice
    assert d is not None and d.n == n and f"{tn}+" in d.label


def test_only_a_large_model_may_slam() -> None:
    """#37, #38: a Medium model may not Slam!; an Ogre knocks its target over and pushes it."""
    g = make("ogre_kin_raiders", "gunrunners")
    arrange(g, 0, {"a3": (10, 4), "a4": (14, 4), "b8": (10, 5.8), "b9": (14, 5.1)})
    for b in ("b8", "b9"):
        g.state.models[b].tokens["ap"] = 0
    g.apply(A("activate a4"))
    assert g.why_illegal(A("slam a4 b9"))[0][0] == "gangfight/slam/size"
    g.apply(A("end a4"))
    g.apply(A("activate a3"))
    g.apply(A("slam a3 b8"))
    g.roll(hits(2, dice_n(g)))
    assert knocked(g.state.models["b8"])
    assert g.state.models["b8"].y > 5.8 + 1.5


def test_interact_opens_a_chest_and_scores() -> None:
    """#39, #40: Interact with a chest (a scenario action) for 1 AP: 1 VP and the chest is gone."""
    g = make()
    arrange(g, 0, {"a4": (10, 20.6), "b8": (30, 40)})
    g.apply(A("activate a4"))
    g.apply(A("interact a4 chest-1 [open-chest]"))
    assert g.state.vars["vp"][0] == 1
    assert "chest-1" in g.state.vars["removed_objectives"]
    assert g.why_illegal(A("interact a4 chest-1 [open-chest]"))


def test_a_ladder_makes_climbing_a_move_a_sheer_roof_is_not() -> None:
    """#44: a platform with a ladder is climbed by a Move; a sheer one is not (Jump/Climb)."""
    g = make()
    arrange(g, 0, {"a4": (42, 5.5), "a5": (19, 17), "b8": (30, 40)})
    g.apply(A("activate a4"))
    g.apply(A("move a4"))
    assert not g.why_illegal(A("to a4 @42,9"))
    g.apply(A("to a4 @42,9"))
    assert g.state.models["a4"].z == 4.0
    g.apply(A("end a4"))
    g.apply(A("activate a5"))
    g.apply(A("move a5"))
    assert g.why_illegal(A("to a5 @19,21"))


# ------------------------------------------------------------------------------------------- Banding
def band_game() -> Game:
    g = make()
    arrange(
        g,
        0,
        {"a1": (10, 4), "a2": (12, 4), "a4": (14, 4), "a5": (30, 4), "a6": (16, 6), "b8": (12, 9)},
        a1={"ranged": [RIFLE]},
        a2={"ranged": [RIFLE]},
        a4={"ranged": [RIFLE]},
    )
    g.state.models["b8"].tokens["ap"] = 0
    return g


def test_a_band_leader_pays_an_ap_and_nominates_up_to_four_within_six_inches() -> None:
    """#45, #46, #47, #48: the nominated leader spends 1 AP; each joiner within 6" spends an additional AP."""
    g = band_game()
    g.apply(A("activate a1"))
    g.apply(A("band a1 [with-me]"))
    assert ap(g.state.models["a1"]) == 3  # IV 4
    opts = g.legal_actions()
    assert A("join a1 a2") in opts and A("join a1 a4") in opts
    assert g.why_illegal(A("join a1 a5"))[0][0] == "gangfight/band/range"
    g.apply(A("join a1 a2"))
    assert ap(g.state.models["a2"]) == 2
    assert g.why_illegal(A("join a1 a2"))[0][0] == "gangfight/band/twice"


def test_banding_only_with_models_of_equal_or_lower_rank() -> None:
    """#50, #51, #52: a Regular leader cannot include a Veteran or a Hero."""
    g = band_game()
    g.apply(A("activate a4"))
    g.apply(A("band a4 [with-me]"))
    assert g.why_illegal(A("join a4 a2"))[0][0] == "gangfight/band/rank"
    assert g.why_illegal(A("join a4 a1"))[0][0] == "gangfight/band/rank"


def test_a_model_that_finished_its_activation_cannot_join_even_with_ap_held() -> None:
    """#53."""
    g = band_game()
    g.apply(A("activate a2"))
    g.apply(A("end a2"))
    g.apply(A("activate a1"))
    g.apply(A("band a1 [with-me]"))
    assert ap(g.state.models["a2"]) == 3
    assert g.why_illegal(A("join a1 a2"))[0][0] == "gangfight/band/finished"


def test_with_me_every_member_moves_or_charges_then_free_fights_then_the_leader_is_done() -> None:
    """#54, #55, #56, #49: each member Moves or Charges!; those in contact Fight! for free when the order ends;
    the leader's activation ends and the band is gone."""
    g = band_game()
    g.apply(A("activate a1"))
    g.apply(A("band a1 [with-me]"))
    g.apply(A("join a1 a2"))
    g.apply(A("done a1"))
    assert g.decision.prompt == "band-order"
    g.apply(A("move a1"))
    g.apply(A("stay a1"))
    g.apply(A("charge a2 b8"))
    g.roll(hits(4, 4))
    assert g.decision.prompt == "free-fight"  # after the whole order, not during the charge
    g.apply(A("decline a2"))
    st = g.state
    assert st.models["a1"].flags["finished"]
    assert not any(isinstance(s, BandNominate | BandOrder) for s in st.stack)


def test_bring_it_down_needs_every_member_in_melee_with_the_target_and_adds_att_and_dam() -> None:
    """#57, #58, #59, #60: one attack by the leader, +1 ATT and +1 DAM per model that joined; every member in
    melee (base to base) with the target: a5, 0.4" from b8 but not in contact, may not join."""
    g = make()
    spots = {"a1": (10, 4), "a2": (11, 5), "a4": (16, 4), "a5": (9.0, 5.4), "b8": (10, 5)}
    arrange(g, 0, spots, a1={"melee": [HAND]})
    g.state.models["b8"].tokens["ap"] = 0
    g.apply(A("activate a1"))
    g.apply(A("band a1 b8 [bring-it-down]"))
    assert g.why_illegal(A("join a1 a4"))[0][0] == "gangfight/band/same-target"
    assert g.why_illegal(A("join a1 a5"))[0][0] == "gangfight/band/same-target"
    g.apply(A("join a1 a2"))
    g.apply(A("done a1"))
    assert dice_n(g) == 4 + 1  # Hero ATT 4 + 1 joined
    g.roll(hits(1, 5))
    armour = g.state.stack[-1]
    assert isinstance(armour, ArmourRoll) and armour.tn == 5 + 1
    assert g.state.models["a1"].flags["finished"]


def test_on_my_mark_needs_loaded_weapons_in_range_and_adds_mrk_and_dam() -> None:
    """#61, #62, #63, #64: every member has a loaded weapon with the target in range; one ranged attack by the
    leader at +1 MRK and +1 DAM per model that joined."""
    g = band_game()
    bow_only = {"ranged": [BOW]}
    g.state.models["a4"].data = {**g.state.models["a4"].data, **bow_only}
    g.apply(A("activate a1"))
    g.apply(A("band a1 b8 [on-my-mark]"))
    assert g.why_illegal(A("join a1 a4"))[0][0] == "gangfight/fire/loaded"
    g.apply(A("join a1 a2"))
    g.apply(A("done a1"))
    assert dice_n(g) == 4 + 1
    g.roll(hits(1, 5))
    armour = g.state.stack[-1]
    assert isinstance(armour, ArmourRoll) and armour.tn == 5 + 1
    assert g.state.models["a1"].flags["finished"]


# ------------------------------------------------------------------------------------------- Interrupts
def test_only_the_targeted_model_with_held_ap_is_asked_before_anything_moves() -> None:
    """#68, #69: the window opens for the target alone, for its player, before the charge roll; only interrupts
    are on its menu; a model with no AP is not asked."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 10), "b9": (14, 10)})
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    d = g.decision
    assert d.prompt == "interrupt" and d.player == 1 and d.model == "b8"
    assert {a.kind for a in g.legal_actions()} == {"pass", "interrupt"}
    assert g.state.models["a4"].pos == (10, 2)
    g.apply(A("pass b8"))
    assert g.decision.prompt == "charge"
    # without AP no window
    g2 = make()
    arrange(g2, 0, {"a4": (10, 2), "b8": (10, 10)})
    g2.state.models["b8"].tokens["ap"] = 0
    g2.apply(A("activate a4"))
    g2.apply(A("charge a4 b8"))
    assert g2.decision.prompt == "charge"


def test_no_reload_in_the_opponents_turn() -> None:
    """#82: Reload is never an interrupt."""
    g = make()
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 10)}, b8={"ranged": [BOW]})
    g.apply(A("activate a4"))
    g.apply(A("charge a4 b8"))
    assert all("reload" not in str(a) and "fire" not in str(a.option) for a in g.legal_actions())


def test_counter_charge_reached_attacks_in_tandem_even_if_incapacitated() -> None:
    """#70, #71, #72, #73: the charger moves its full distance first; both attack, the charger first; the
    counter-charger strikes even when the charger's attack incapacitated it; removal comes after."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 8)}, a8={"melee": [HAND]}, b8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.apply(A("interrupt b8 a8 [counter-charge]"))
    g.roll(hits(4, 4))
    g.apply(A("fight a8 b8"))
    g.roll(hits(3, 3))  # 3 hits
    g.roll(hits(0, 3))  # no saves: b8 (EN 3) incapacitated
    assert g.state.models["b8"].flags["incap"]
    assert g.decision.prompt == "attack" and g.state.stack[-1].attacker == "b8"  # type: ignore[attr-defined]
    g.roll(hits(0, dice_n(g)))
    assert not g.state.models["b8"].on_table  # removed after the exchange


def test_counter_charge_against_a_charger_that_fell_short_charges_it() -> None:
    """#74."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 10.5)}, a8={"melee": [HAND]}, b8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.apply(A("interrupt b8 a8 [counter-charge]"))
    g.roll(hits(0, 4))  # a8 moves 4": short
    assert g.decision.prompt == "charge" and g.decision.dice is not None
    assert g.decision.dice.model == "b8"


def test_flee_moves_directly_back_before_the_charger_and_a_caught_model_is_attacked() -> None:
    """#78, #79, #80."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 7)}, a8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.apply(A("interrupt b8 a8 [flee]"))
    g.roll(hits(4, 4))  # 8" of charge
    assert math.isclose(g.state.models["b8"].y, 7 + 4, abs_tol=0.3)
    assert g.decision.prompt == "free-fight"  # still caught


def test_fire_interrupt_shoots_the_charger_after_its_roll_and_before_it_moves() -> None:
    """#81, #89, #90, #91: the declaring player rolls first, then the interrupt resolves."""
    g = make()
    arrange(g, 0, {"a8": (10, 2), "b8": (10, 10.5)}, b8={"ranged": [RIFLE]})
    g.apply(A("activate a8"))
    g.apply(A("charge a8 b8"))
    g.apply(A("interrupt b8 a8 [fire:Rifle]"))
    assert g.decision.prompt == "charge"
    g.roll(hits(4, 4))
    assert g.decision.prompt == "attack" and g.decision.dice is not None and g.decision.dice.model == "b8"
    assert g.state.models["a8"].pos == (10, 2)


def test_bulwark_adds_one_defence() -> None:
    """#84, #85."""
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 5.0)}, a8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    g.apply(A("interrupt b8 a8 [bulwark]"))
    d = g.decision.dice
    assert d is not None and "5+" in d.label  # DEF 4 + 1


def test_fight_interrupt_strikes_back_after_the_attack_even_if_incapacitated() -> None:
    """#86, #87, #88."""
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 5.0)}, a8={"melee": [HAND]}, b8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    g.apply(A("interrupt b8 a8 [fight]"))
    g.roll(hits(3, 3))
    g.roll(hits(0, 3))
    assert g.state.models["b8"].flags["incap"]
    assert g.decision.prompt == "attack" and g.state.stack[-1].attacker == "b8"  # type: ignore[attr-defined]


def test_dodge_adds_iv_successes_to_the_armour_roll_against_an_area_attack() -> None:
    """#75, #76, #77: IV test at TN = the attacker's successes; each success soaks a wound."""
    g = make()
    bomb = {"name": "Grenade", "range": 8.0, "mrk": 0, "dam": 5, "era": "modern", "reload": False, "area": True}
    arrange(g, 0, {"a4": (10, 2), "b8": (10, 8)}, a4={"ranged": [bomb]})
    g.apply(A("activate a4"))
    g.apply(A("fire a4 b8 [Grenade]"))
    assert A("interrupt b8 a4 [dodge]") in g.legal_actions()
    g.apply(A("interrupt b8 a4 [dodge]"))
    g.roll(hits(2, 3))  # two hits
    assert g.decision.prompt == "dodge" and "2+" in (g.decision.dice.label if g.decision.dice else "")
    g.roll(hits(2, 3))  # b8 IV 3: two dodge successes
    armour = g.state.stack[-1]
    assert isinstance(armour, ArmourRoll) and armour.dodge == 2
    g.roll(hits(0, armour.n))
    assert en(g.state.models["b8"]) == 3


def test_a_band_takes_several_models() -> None:
    """#45: a Banding Action is coordinated: a leader with no one able to join cannot declare it, and must
    nominate at least one model before it is done."""
    g = band_game()
    g.apply(A("activate a5"))
    assert g.why_illegal(A("band a5 [with-me]"))[0][0] == "gangfight/band/several"
    g.apply(A("end a5"))
    g.apply(A("activate a1"))
    g.apply(A("band a1 [with-me]"))
    assert A("done a1") not in g.legal_actions()


# ------------------------------------------------------------------------------------------- Jump/Climb
def test_climbing_a_sheer_roof_is_a_mov_check_at_four_an_inch_a_success() -> None:
    """#41, #43: at the foot of a sheer surface a model may try to climb it: MOV dice at TN 4, 1" a success
    (the roof is 3" high: three successes climb it, two fail and leave it at the foot)."""
    g = make()
    arrange(g, 0, {"a4": (19, 18.8), "b8": (30, 40)})
    g.apply(A("activate a4"))
    climbs = [a for a in g.legal_actions() if a.kind == "jump"]
    assert climbs
    g.apply(climbs[0])
    assert ap(g.state.models["a4"]) == 2 and dice_n(g) == 4
    g.roll([4, 4, 1, 1])
    assert g.state.models["a4"].z == 0.0
    g.apply(climbs[0])
    g.roll([4, 5, 6, 1])
    assert g.state.models["a4"].z == 3.0


def test_jumping_between_raised_points_covers_the_gap_with_the_check() -> None:
    """#42: for a single AP a model on a raised point may jump to another: MOV dice at TN 4 against the gap."""
    g = make()
    arrange(g, 0, {"a4": (20.3, 22), "b8": (30, 40)})
    g.state.models["a4"].z = 3.0
    g.apply(A("activate a4"))
    jumps = [a for a in g.legal_actions() if a.kind == "jump" and a.point is not None and a.point[0] > 21]
    assert jumps
    g.apply(jumps[0])
    g.roll([6, 6, 1, 1])
    m = g.state.models["a4"]
    assert m.z == 3.0 and m.x > 22


# ------------------------------------------------------------------------------------------- audit (seed wording)
def test_the_fight_interrupt_needs_the_target_already_in_close_combat() -> None:
    """#86: "a model that is already in close combat" may declare Fight!; one merely within its threat range of
    the attacker (0.6" apart, not in base contact) may not, though Bulwark is still offered."""
    g = make()
    arrange(g, 0, {"a8": (10, 4), "b8": (10, 5.6)}, a8={"melee": [HAND]}, b8={"melee": [HAND]})
    g.apply(A("activate a8"))
    g.apply(A("fight a8 b8"))
    assert g.decision.prompt == "interrupt"
    offered = {a.option for a in g.legal_actions()}
    assert "bulwark" in offered and "fight" not in offered
    assert g.why_illegal(A("interrupt b8 a8 [fight]"))


def test_with_me_free_fight_only_for_members_that_end_in_base_contact() -> None:
    """#55: after the order, only models "that end in base to base contact" Fight! for free: a2 ends its Move
    0.1" short of b8 (inside its threat range, not in contact) and gets no free Fight!."""
    g = band_game()
    g.apply(A("activate a1"))
    g.apply(A("band a1 [with-me]"))
    g.apply(A("join a1 a2"))
    g.apply(A("done a1"))
    g.apply(A("move a1"))
    g.apply(A("stay a1"))
    g.apply(A("move a2"))
    g.apply(A("to a2 @12,7.9"))
    st = g.state
    assert st.models["a2"].pos == (12, 7.9)
    assert g.decision.prompt != "free-fight"
    assert st.models["a1"].flags["finished"]
    assert not any(isinstance(s, BandFights | FreeFight) for s in st.stack)
