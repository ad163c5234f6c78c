"""Named abilities of the New Antioch and Trench Pilgrims lists (../shared/data/trench-crusade/keywords.yaml),
played from the player's side with catalogue models (effects by kind: data/modelled.yaml, abilities.py)."""

from __future__ import annotations

from tc import act, box, legal_texts, model, position, rolls, roster, rules_of, run

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import Note
from warband.rulesets.trench_crusade.attacks import take_out
from warband.rulesets.trench_crusade.roster import read_warband

R = "trench-crusade"
NA, TP, HL = "New Antioch", "Trench Pilgrims", "Heretic Legion"
LEADERS = {
    NA: {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle"]},
    TP: {"model": "War Prophet"},
    HL: {"model": "Heretic Priest"},
}
YEOMAN = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Trench Club"]}
PILGRIM = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}


def game(
    a: dict[str, object], fa: str, b: dict[str, object], fb: str, at: dict[str, tuple[float, float]], **kw: object
) -> Game:
    """``a1`` against ``b1``, each with its list's leader off the table (a War Prophet that is ``a1`` leads)."""
    side_a = [a] if a.get("model") == "War Prophet" else [a, LEADERS[fa]]
    side_b = [b] if b.get("model") == "War Prophet" else [b, LEADERS[fb]]
    return position(side_a, side_b, at, factions=(fa, fb), **kw)  # type: ignore[arg-type]


def test_finish_the_fallen_adds_an_injury_die_on_down_enemies() -> None:
    """Finish the Fallen (Combat Medic): +1 INJURY DICE in melee on a Down enemy (with the Down die: four)."""
    g = game({"model": "Combat Medic"}, NA, YEOMAN, NA, {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    model(g, "b1").flags["down"] = True
    g.force([4, 4], [1, 1, 1, 1])
    events = run(g, "fight a1 b1 [Misericordia]")
    assert len(rolls(events, "injury")[0].values) == 4


def test_convent_conditioning_and_ceremonial_duty_ignore_fear() -> None:
    """Convent Conditioning (Combat Medic), Ceremonial Duty (Witchburner): immune to FEAR in melee."""
    wolf = {"model": "War Wolf Assault Beast"}
    for who, fa, weapon in (
        ({"model": "Combat Medic"}, NA, "Misericordia"),
        ({"model": "Witchburner"}, TP, "Gavel of Justice"),
    ):
        g = game(who, fa, wolf, HL, {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
        dice = 2 + abs(model(g, "a1").data["melee"])  # its Melee DICE only: nothing for the War Wolf's FEAR
        g.force([1] * dice, [1, 1])
        assert len(rolls(run(g, f"fight a1 b1 [{weapon}]"), "attack")[0].values) == dice


def _shocktrooper_charging(weapon: str) -> Game:
    """A Shocktrooper with ``weapon`` about to charge a Yeoman 10" away, its charge dice forced to 1 and 5."""
    at = {"a1": (12.0, 4.0), "b1": (12.0, 14.0)}
    g = game({"model": "Shocktrooper", "equipment": [weapon]}, NA, YEOMAN, NA, at, active="a1")
    g.force([1, 5])
    return g


def test_shock_charge_keeps_the_higher_of_two_dice() -> None:
    """Shock Charge (Shocktrooper): the charge roll is two dice, the higher kept."""
    g = _shocktrooper_charging("Trench Polearm")
    events = run(g, "charge a1 b1")
    charge = rolls(events, "charge")[0]
    assert charge.values == (1, 5) and charge.result == '+5"'


def test_assault_drill_charges_with_a_heavy_melee_weapon() -> None:
    """Assault Drill (Shocktrooper): it ignores HEAVY on melee weapons, so its charge still rolls the die."""
    g = _shocktrooper_charging("Greatsword / Greataxe")
    assert rolls(run(g, "charge a1 b1"), "charge")


def test_battlefield_demolition_moves_and_throws_a_satchel_charge() -> None:
    """Battlefield Demolition (Combat Engineer): it ignores HEAVY for Satchel Charges (move, then throw)."""
    g = game(
        {"model": "Combat Engineer", "equipment": ["Bolt-Action Rifle", "Satchel Charge"]},
        NA,
        YEOMAN,
        NA,
        {"a1": (12, 4), "b1": (12, 12)},
        active="a1",
    )
    act(g, "move a1")
    act(g, "to a1 @12,6")
    assert f"{R}/keyword/heavy" not in rules_of(g, "shoot a1 b1 [Satchel Charge]")


def test_lightning_speed_attacks_twice_with_the_polearm() -> None:
    """Lightning Speed (Observer): two melee attacks with its Trench Polearm (each failure re-rolled by its Eye of
    God, the re-roll without a 1: four attack rolls)."""
    g = game({"model": "Observer"}, NA, YEOMAN, NA, {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([1, 1, 1, 1], [2, 2, 2, 2], [1, 1, 1, 1], [2, 2, 2, 2])  # Melee +2: four dice each
    assert len(rolls(run(g, "fight a1 b1 [Trench Polearm]"), "attack")) == 4


def test_temporal_fuge_costs_attackers_a_die() -> None:
    """Temporal Fuge (Observer): attacks against it take -1 DICE."""
    g = game(YEOMAN, NA, {"model": "Observer"}, NA, {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([1, 1, 1])
    assert len(rolls(run(g, "shoot a1 b1 [Bolt-Action Rifle]"), "attack")[0].values) == 3


def test_absolute_faith_keeps_its_blood_from_its_shots() -> None:
    """Absolute Faith (Sniper Priest): the opponent may not spend its Blood markers against its ranged attacks."""
    g = game(
        {"model": "Sniper Priest", "equipment": ["Sniper Rifle"]},
        NA,
        YEOMAN,
        NA,
        {"a1": (12, 4), "b1": (12, 20)},
        active="a1",
    )
    model(g, "a1").tokens["blood"] = 2
    g.apply(Action.parse("shoot a1 b1 [Sniper Rifle]"))
    assert g.decision.prompt != "spend-hit"


def test_agile_and_mad_dash_dash_at_a_die_more() -> None:
    """Agile (Stigmatic Nun), Mad Dash (Ecclesiastic Prisoner): +1 DICE on a Dash (three dice)."""
    for who in ({"model": "Stigmatic Nun"}, {"model": "Ecclesiastic Prisoner"}):
        g = game(who, TP, PILGRIM, TP, {"a1": (12, 4), "b1": (12, 22)}, active="a1")
        g.force([1, 4, 4])
        assert len(rolls(run(g, "dash a1"), "dash")[0].values) == 3


def test_blessed_stigmata_turns_blood_into_a_blessing() -> None:
    """Blessed Stigmata (Stigmatic Nun): as it activates, one Blood marker becomes a Blessing marker."""
    g = game({"model": "Stigmatic Nun"}, TP, PILGRIM, TP, {"a1": (12, 4), "b1": (12, 22)}, to_act=0)
    model(g, "a1").tokens["blood"] = 2
    act(g, "activate a1")
    assert model(g, "a1").token("blood") == 1 and model(g, "a1").token("blessing") == 1


def test_miracle_of_regeneration_heals_a_blood_marker_each_activation() -> None:
    """Miracle of Regeneration (Communicant Anti-Tank Hunter): one Blood marker removed as it activates."""
    g = game({"model": "Communicant Anti-Tank Hunter"}, NA, YEOMAN, NA, {"a1": (12, 4), "b1": (12, 22)}, to_act=0)
    model(g, "a1").tokens["blood"] = 2
    act(g, "activate a1")
    assert model(g, "a1").token("blood") == 1


def test_dignified_conduct_cannot_dash() -> None:
    """Dignified Conduct (Witchburner): it may not Dash (refused, named)."""
    g = game({"model": "Witchburner"}, TP, PILGRIM, TP, {"a1": (12, 4), "b1": (12, 22)}, active="a1")
    assert "dash a1" not in legal_texts(g) and f"{R}/ability/no-action" in rules_of(g, "dash a1")


def test_memento_mori_ignores_one_out_of_action() -> None:
    """Memento Mori (War Prophet): once a battle an Out of Action result has no effect; the next one counts."""
    g = game(PILGRIM, TP, {"model": "War Prophet"}, TP, {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([4, 4], [6, 6])
    run(g, "fight a1 b1 [Trench Club]")
    assert model(g, "b1").on_table and not model(g, "b1").flags.get("down")


def test_the_infiltrator_upgrade_makes_a_yeoman_an_infiltrator() -> None:
    """Infiltrator (a Yeoman's upgrade): it gains INFILTRATOR, which the deployment plays."""
    g = game({**YEOMAN, "upgrades": ["Infiltrator"]}, NA, YEOMAN, NA, {"a1": (12, 4), "b1": (12, 22)}, active="a1")
    assert "INFILTRATOR" in model(g, "a1").data["keywords"] and "INFILTRATOR" not in model(g, "b1").data["keywords"]


# ------------------------------------------------------------------------------------------- ability actions
def test_divine_judgement_bloodies_an_unseen_heretic_twice() -> None:
    """Divine Judgement (Witchburner): a Risky action at any enemy within 24", seen or not: one Blood marker, two
    against a HERETIC."""
    wall = box("wall", "blocking", 0, 11, 24, 13, height=3.0, blocks_los=True)
    g = game(
        {"model": "Witchburner"},
        TP,
        {"model": "Heretic Trooper", "equipment": ["Bolt-Action Rifle"]},
        HL,
        {"a1": (12, 4), "b1": (12, 20)},
        active="a1",
        terrain=[wall],
    )
    assert "ability a1 b1 [Divine Judgement]" in legal_texts(g)
    g.force([4, 4])
    run(g, "ability a1 b1 [Divine Judgement]")
    assert model(g, "b1").token("blood") == 2
    assert f"{R}/ability/divine_judgement" in rules_of(g, "ability a1 b1 [Divine Judgement]")  # once an activation


def test_goetic_gaze_gives_two_blood_on_a_critical() -> None:
    """Goetic Gaze (Goetic Warlock): an action at a seen enemy within 24": one Blood marker, two on a Critical."""
    g = game({"model": "Goetic Warlock"}, HL, YEOMAN, NA, {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    dice = 2 + abs(model(g, "a1").data["ranged"])
    g.force([6] * dice)
    run(g, "ability a1 b1 [Goetic Gaze]")
    assert model(g, "b1").token("blood") == 2


def test_aim_adds_two_dice_to_the_shots_of_the_activation() -> None:
    """Aim (Sniper Priest): a Risky action, then its ranged attacks this activation have +2 DICE."""
    g = game(
        {"model": "Sniper Priest", "equipment": ["Sniper Rifle"]},
        NA,
        YEOMAN,
        NA,
        {"a1": (12, 4), "b1": (12, 20)},
        active="a1",
    )
    g.force([4, 4])
    run(g, "ability a1 [Aim]")
    before = 2 + model(g, "a1").data["ranged"] + 1  # Ranged +2 and the rifle's +1 DICE
    g.force([1] * (before + 2))
    assert len(rolls(run(g, "shoot a1 b1 [Sniper Rifle]"), "attack")[0].values) == before + 2


def test_laying_on_hands_removes_d3_blood_from_a_friend() -> None:
    """Laying On Hands (War Prophet): an action on a friend within 6": it loses D3 Blood markers."""
    g = position(
        [{"model": "War Prophet"}, PILGRIM],
        [{"model": "War Prophet"}],
        {"a1": (12, 4), "a2": (14, 4), "b1": (12, 22)},
        active="a1",
        factions=(TP, TP),
    )
    model(g, "a2").tokens["blood"] = 3
    g.force([4, 4])
    g.force([2])
    run(g, "ability a1 a2 [Laying On Hands]")
    assert model(g, "a2").token("blood") == 1


def test_enforced_orthodoxy_stands_down_friends_up() -> None:
    """Enforced Orthodoxy (Castigator): a Risky action at +1 DICE: Down friends within 8" stand up."""
    g2 = position(
        [{"model": "Castigator"}, PILGRIM, PILGRIM, {"model": "War Prophet"}],
        [{"model": "War Prophet"}],
        {"a1": (12, 4), "a2": (14, 4), "a3": (12, 16), "b1": (12, 22)},
        active="a1",
        factions=(TP, TP),
    )
    for mid in ("a2", "a3"):
        model(g2, mid).flags["down"] = True
    g2.force([4, 4, 1])
    run(g2, "ability a1 [Enforced Orthodoxy]")
    assert not model(g2, "a2").flags.get("down") and model(g2, "a3").flags.get("down")  # a3 is 12" away


def test_fortify_counts_as_cover_until_it_moves() -> None:
    """Fortify (Combat Engineer): a Risky action at +1 DICE, then shots at it count it in cover until it moves."""
    eng = {"model": "Combat Engineer", "equipment": ["Bolt-Action Rifle"]}
    g = game(eng, NA, YEOMAN, NA, {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([4, 4, 1])
    run(g, "ability a1 [Fortify]")
    assert model(g, "a1").flags.get("fortified")
    act(g, "end a1")
    g.force([1, 1, 1])  # the Yeoman's shot: -1 DICE for cover
    act(g, "activate b1")
    assert len(rolls(run(g, "shoot b1 a1 [Bolt-Action Rifle]"), "attack")[0].values) == 3


def test_a_combat_helmet_stops_the_shrapnel_blood_marker() -> None:
    """Combat Helmet (negates the extra Blood of SHRAPNEL): a minor hit gives a helmeted Yeoman one Blood marker,
    a bare-headed one two."""
    thrower = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Grenades"]}
    helmeted = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Combat Helmet"]}
    for target, blood in ((helmeted, 1), (YEOMAN, 2)):
        g = game(thrower, NA, target, NA, {"a1": (12, 4), "b1": (12, 10)}, active="a1")
        g.force([4, 4], [1, 1])
        run(g, "shoot a1 b1 [Grenades]")
        assert model(g, "b1").token("blood") == blood


def test_a_pistol_fights_with_the_ranged_characteristic() -> None:
    """Pistol / Revolver: usable in melee with the Ranged characteristic (the Sniper Priest: Ranged +2, Melee -1)."""
    priest = {"model": "Sniper Priest", "equipment": ["Pistol / Revolver"]}
    g = game(priest, NA, YEOMAN, NA, {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([1, 1, 1, 1], [1, 1])
    assert len(rolls(run(g, "fight a1 b1 [Pistol / Revolver]"), "attack")[0].values) == 4


def test_a_model_without_a_melee_weapon_fights_unarmed() -> None:
    """Unarmed: a model with no melee weapon fights at -1 DICE and -1 INJURY DICE."""
    gunner = {"model": "Yeoman", "equipment": ["Machine Gun"]}
    g = game(gunner, NA, YEOMAN, NA, {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    assert "fight a1 b1 [Unarmed]" in legal_texts(g)
    g.force([4, 4, 4], [6, 6, 1])
    events = run(g, "fight a1 b1 [Unarmed]")
    assert len(rolls(events, "attack")[0].values) == 3 and rolls(events, "injury")[0].result.startswith("7")


def test_grenades_hurt_the_others_in_the_blast_less() -> None:
    """Grenades: the models in the blast other than the target roll their injuries at -1 DICE."""
    thrower = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Grenades"]}
    g = position(
        [thrower, LEADERS[NA]],
        [YEOMAN, YEOMAN, LEADERS[NA]],
        {"a1": (12, 4), "b1": (12, 10), "b2": (13.5, 10)},
        active="a1",
        factions=(NA, NA),
    )
    g.force([4, 4], [1, 1], [1, 1, 1])
    injuries = rolls(run(g, "shoot a1 b1 [Grenades]"), "injury")
    assert [len(r.values) for r in injuries] == [2, 3]


def test_the_automatic_rifle_fires_both_attacks_at_its_target() -> None:
    """Automatic Rifle: two attacks, both at the same target (no choice of a second target nearby)."""
    rifle = {"model": "Shocktrooper", "equipment": ["Automatic Rifle"]}
    g2 = position(
        [rifle, LEADERS[NA]],
        [YEOMAN, YEOMAN, LEADERS[NA]],
        {"a1": (12, 4), "b1": (12, 12), "b2": (14, 12)},
        active="a1",
        factions=(NA, NA),
    )
    g2.force([1, 1], [1, 1])
    events = run(g2, "shoot a1 b1 [Automatic Rifle]")
    assert len(rolls(events, "attack")) == 2 and g2.decision.prompt != "auto-target"


def test_the_sniper_rifle_ignores_armour_on_a_critical_and_the_scope_long_range() -> None:
    """Sniper Rifle: a Critical ignores armour; a Sniper Scope takes away its long-range penalty."""
    armoured = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Trench Club", "Standard Armour"]}
    g = game(
        {"model": "Sniper Priest", "equipment": ["Sniper Rifle"]},
        NA,
        armoured,
        NA,
        {"a1": (12, 4), "b1": (12, 20)},
        active="a1",
    )
    g.force([6, 6, 1, 1, 1], [1, 1, 1, 1])  # five dice, a Critical; the injury: CRITICAL +2 dice, no armour
    inj = rolls(run(g, "shoot a1 b1 [Sniper Rifle]"), "injury")[0]
    assert "+0)" in inj.label  # armour -1 ignored
    for kit in (["Sniper Rifle"], ["Sniper Rifle", "Sniper Scope"]):
        g = game(
            {"model": "Sniper Priest", "equipment": kit},
            NA,
            YEOMAN,
            NA,
            {"a1": (2, 2), "b1": (30, 30)},
            active="a1",
            size=36.0,
        )
        want = 2 + 2 + 1 + (0 if "Sniper Scope" in kit else -1)  # Ranged +2, rifle +1, long range -1
        g.force([1] * want)
        assert len(rolls(run(g, "shoot a1 b1 [Sniper Rifle]"), "attack")[0].values) == want


def test_whip_of_god_lashes_friends_and_steadies_the_flock() -> None:
    """Whip of God (Castigator): it may Fight a friend within 1" (no charge needed); each friend it takes Out of
    Action gives its side +1 DICE on the next Morale check."""
    castigator = {"model": "Castigator", "equipment": ["Trench Club"]}
    g = position(
        [castigator, PILGRIM, PILGRIM, {"model": "War Prophet"}],
        [{"model": "War Prophet"}],
        {"a1": (12, 12), "a2": (12, 13.2), "a3": (12, 4), "b1": (12, 22)},
        active="a1",
        factions=(TP, TP),
    )
    assert "fight a1 a2 [Trench Club]" in legal_texts(g)
    dice = 2 + abs(model(g, "a1").data["melee"])
    g.force([4] * dice, [6, 6])
    run(g, "fight a1 a2 [Trench Club]")
    assert not model(g, "a2").on_table and g.state.sides[0].flags.get("morale_bonus") == 1


def test_pilgrim_bodyguard_takes_the_hit_meant_for_a_pilgrim() -> None:
    """Pilgrim Bodyguard (Communicant): when a PILGRIM within 1" is hit (not by a BLAST), its side may have the
    Communicant take the hit instead."""
    shooter = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}
    guarded = [PILGRIM, {"model": "Communicant"}, LEADERS[TP]]
    g = position(
        [shooter, LEADERS[NA]],
        guarded,
        {"a1": (12, 4), "b1": (12, 12), "b2": (13.2, 12)},
        active="a1",
        factions=(NA, TP),
    )
    g.force([4, 4])
    run(g, "shoot a1 b1 [Bolt-Action Rifle]")
    assert g.decision.prompt == "bodyguard" and g.decision.player == 1
    assert legal_texts(g) == ["guard b2 b1", "decline b1"]
    g.force([4, 4])
    events = run(g, "guard b2 b1")
    assert rolls(events, "injury")[0].model == "b2" and model(g, "b1").token("blood") == 0


def test_voice_of_god_sends_a_friend_next() -> None:
    """Voice of God (Observer): a Risky action: an unactivated model of either side (here a friend) activates
    right after, and the Observer's activation ends."""
    g = position(
        [{"model": "Observer"}, YEOMAN, LEADERS[NA]],
        [YEOMAN, LEADERS[NA]],
        {"a1": (12, 4), "a2": (4, 4), "b1": (12, 20)},
        active="a1",
        factions=(NA, NA),
    )
    g.force([4, 4])
    run(g, "ability a1 a2 [Voice of God]")
    assert model(g, "a1").flags.get("activated")
    assert g.decision.player == 0 and legal_texts(g) == ["activate a2"]


ENGINEER = {"model": "Combat Engineer", "equipment": ["Bolt-Action Rifle"]}


def test_de_mine_disarms_a_mine_it_touches() -> None:
    """De-Mine (Combat Engineer): a Risky action to disarm a mine of the scenario (rules.mines) its base touches;
    away from every mine the rule refuses it."""
    mines = {"mines": "12,4.9; 20,20"}
    g = game(ENGINEER, NA, YEOMAN, NA, {"a1": (12, 8), "b1": (12, 20)}, active="a1", rules=mines)
    assert f"{R}/ability/de_mine" in rules_of(g, "ability a1 [De-Mine]")  # 3" away
    g = game(ENGINEER, NA, YEOMAN, NA, {"a1": (12, 4), "b1": (12, 20)}, active="a1", rules=mines)
    assert set(g.state.vars["mines"]) == {"mine1", "mine2"}
    g.force([4, 4])
    events = run(g, "ability a1 [De-Mine]")
    assert "risky" in rolls(events, "de_mine_engineer")[0].label
    assert set(g.state.vars["mines"]) == {"mine2"}
    assert model(g, "a1").on_table and not model(g, "a1").flags.get("down")


def test_de_mine_sets_the_mine_off_on_a_failure() -> None:
    """A failed De-Mine sets the mine off: an Injury Roll for each model within 1" of it (ours), the engineer
    and a friend beside it, not the enemy further off."""
    yeoman_a = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}
    g = position(
        [ENGINEER, yeoman_a, LEADERS[NA]],
        [YEOMAN, LEADERS[NA]],
        {"a1": (12, 4), "a2": (13.2, 5.2), "b1": (12, 12)},
        active="a1",
        factions=(NA, NA),
        rules={"mines": "12,4.9"},
    )
    g.force([1, 1])
    events = run(g, "ability a1 [De-Mine]")
    assert g.state.vars["mines"] == {}
    hurt = [e.model for e in rolls(events, "injury roll (mine")]
    assert sorted(hurt) == ["a1", "a2"]


def test_broken_on_the_wheel_the_volunteer_is_hit_first_and_dies_with_the_shrine() -> None:
    """Broken on the Wheel (Anchorite Shrine): a Trench Pilgrim strapped on before battle (``wheel: true``) is not
    deployed; injuries the shrine would take are the volunteer's while it lives; it dies with the shrine."""
    shrine = {"model": "Anchorite Shrine"}
    volunteer = {"model": "Trench Pilgrim", "equipment": ["Trench Club"], "wheel": True}
    g = position(
        [shrine, volunteer, LEADERS[TP]],
        [YEOMAN, LEADERS[NA]],
        {"a1": (12, 6), "b1": (12, 14)},
        active="b1",
        factions=(TP, NA),
    )
    a1, a2 = model(g, "a1"), model(g, "a2")
    assert a1.flags["wheel"] == "a2" and a2.flags["on_wheel"] == "a1"
    a2.flags.pop("out")  # the test position takes every model it does not place off; the volunteer rides along
    g.force([6, 6])  # the hit
    g.force([1, 1, 1])  # the injury: a minor hit
    events = run(g, "shoot b1 a1 [Bolt-Action Rifle]")
    assert [e.model for e in rolls(events, "injury roll")] == ["a2"]
    assert a2.token("blood") == 1 and a1.token("blood") == 0
    assert any(isinstance(e, Note) and "hit first" in e.text for e in events)
    take_out(g.state, a1, None, [])
    assert a2.flags.get("out")


def test_broken_on_the_wheel_is_only_for_a_pilgrim_or_prisoner() -> None:
    """The warband file's ``wheel: true`` is checked: a War Prophet is no volunteer, nor two for one shrine."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"], "wheel": True}
    raw = roster({"model": "War Prophet", "wheel": True}, {"model": "Anchorite Shrine"}, pilgrim, pilgrim)
    raw["faction"] = TP
    found = {(p.place, p.message) for p in read_warband("w.yaml", raw).problems}
    places = {place for place, _ in found}
    assert "models[0].wheel" in places
    assert any("only a Trench Pilgrim or an Ecclesiastic Prisoner" in why for _, why in found)
    assert any("3 volunteers for 1 Anchorite Shrine" in why for _, why in found)
    ok = roster({"model": "War Prophet"}, {"model": "Anchorite Shrine"}, pilgrim)
    ok["faction"] = TP
    assert not [p for p in read_warband("w.yaml", ok).problems if "Wheel" in p.message]
