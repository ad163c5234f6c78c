"""The sample factions' own abilities, traits and reactions (data digest wyrdcry-data.md §4.1-4.4), each played on
the table from the player's side: the ability is offered (or refused with the rule named), its dice are spent
and its effect is seen in the fighters' damage, the banked wyrd dice, Zeal or the next attack."""

from __future__ import annotations

from typing import Any

from wyrd_helpers import clear_table, deploy, initiative, m, new_game, put, why

from warband.kernel.actions import Action
from warband.kernel.engine import Game

# A holds the initiative with a [triple] of 4s and reaction dice 1, 2, 3; B has doubles of 5, 6 and 1.
A_DICE = (1, 2, 3, 4, 4, 4)
B_DICE = (5, 5, 6, 6, 1, 1)


def table(
    a: str, b: str, a_dice: tuple[int, ...] = A_DICE, b_dice: tuple[int, ...] = B_DICE, first: str = "me"
) -> Game:
    game = new_game(a, b)
    deploy(game)
    initiative(game, a_dice, b_dice, first=first)
    return game


def duel(game: Game, a: str, b: str, gap: float = 0.5, keep: tuple[str, ...] = ()) -> None:
    clear_table(game, (a, b, *keep))
    put(game, a, 18.0, 4.0)
    put(game, b, 18.0, 4.0 + 1.0 + gap)


# ------------------------------------------------------------------------------------------- abilities
def test_hunters_eye_adds_one_damage_to_each_hit_and_crit_of_the_next_ranged_attack() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    duel(game, "a6", "b6", gap=6.0)  # Marksman (Bow 3-18") and a Zealot in the open
    game.apply(Action("activate", "a6"))
    assert Action("ability", "a6", option="hunters-eye 4") in game.legal_actions()  # the triple pays a double
    game.apply(Action("ability", "a6", option="hunters-eye 4"))
    game.apply(Action("attack", "a6", "b6", option="Bow"))
    game.roll((4, 6, 1))  # Shoot 3 against Defense 4 (Shield): a 5 hits, a 6 crits; one crit here
    assert m(game, "b6").token("damage") == 3 + 1  # Bow crit 3, +1 from Hunter's Eye


def test_hammer_of_sigmar_adds_half_its_value_per_hit_and_needs_a_warhammer() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre", (1, 2, 3, 5, 5, 5))
    duel(game, "a1", "b6")
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="hammer-of-sigmar 5"))  # X = 5: +3 per hit and crit
    game.apply(Action("attack", "a1", "b6", option="Sigmarite Warhammer"))
    game.roll((6, 1))  # one crit (Sigmarite Warhammer 3/5) and a miss
    assert m(game, "b6").token("damage") == 5 + 3
    other = table("sisters_hammer_of_sigmar", "witch_hunters_pyre", (1, 2, 3, 5, 5, 5))
    duel(other, "a4", "b6")  # the Augur carries a Dagger
    m(other, "a4").data["abilities"].append("hammer-of-sigmar")
    other.apply(Action("activate", "a4"))
    assert why(other, Action("ability", "a4", option="hammer-of-sigmar 5")) == "wyrdcry/ability/hammer-of-sigmar"


def test_words_of_healing_heals_every_friend_within_six_inches() -> None:
    game = table("sisters_words_of_healing", "witch_hunters_pyre", (1, 2, 3, 6, 6, 6))
    clear_table(game, ("a1", "a2", "a3", "b6"))
    put(game, "a1", 10, 10)
    put(game, "a2", 14, 10)  # 3" apart (bases): healed
    put(game, "a3", 30, 10)  # too far
    put(game, "b6", 10, 30)
    for mid in ("a1", "a2", "a3"):
        m(game, mid).tokens["damage"] = 5
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="words-of-healing 6"))  # X/2 = 3
    assert [m(game, x).token("damage") for x in ("a1", "a2", "a3")] == [2, 2, 5]


def test_soulfire_hurts_each_visible_enemy_within_six_inches() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre", (1, 2, 3, 5, 5, 5, 5)[:6])
    clear_table(game, ("a1", "b6", "b4", "b2"))
    m(game, "a1").data["abilities"].append("soulfire")  # the Matriarch's other choice (data §4.2)
    game.state.sides[0].flags["pool"] = {"singles": [], "groups": [[4, 5, False]]}
    put(game, "a1", 10, 10)
    put(game, "b6", 10, 14)
    put(game, "b4", 14, 10)
    put(game, "b2", 10, 30)  # out of range
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="soulfire 5"))
    assert [m(game, x).token("damage") for x in ("b6", "b4", "b2")] == [3, 3, 0]


def test_self_flagellation_hurts_the_flagellant_adds_zeal_and_gives_a_free_attack() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", first="opponent")
    duel(game, "b4", "a8")
    game.apply(Action("activate", "b4"))
    game.apply(Action("ability", "b4", option="self-flagellation 6"))
    assert m(game, "b4").token("damage") == 3 and game.state.sides[1].flags["zeal"] == 1
    assert Action("bonus-attack", "b4", "a8", option="Flail") in game.legal_actions()


def test_death_grip_takes_an_action_from_a_fighter_yet_to_activate() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", first="opponent")
    duel(game, "b7", "a8")
    game.apply(Action("activate", "b7"))
    game.apply(Action("ability", "b7", option="death-grip 5"))
    game.apply(Action("attack", "b7", "a8", option="Savage Bite"))
    if game.decision.prompt == "reaction":
        game.apply(Action("no-reaction"))
    game.roll((5, 1, 1))
    assert m(game, "a8").flags["lost_actions"] == 1
    game.apply(Action("wait", "b7"))  # the hound's second action ends its activation
    game.apply(Action("activate", "a8"))
    game.apply(Action("retreat", "a8"))
    while game.decision.prompt != "destination":
        game.apply(game.legal_actions()[-1])
    game.apply(next(a for a in game.legal_actions() if a.point is not None))
    # one action was all it had: only ending the activation (or an ability) is left
    assert {a.kind for a in game.legal_actions()} <= {"end", "ability"}
    assert Action("end", "a8") in game.legal_actions()


def test_death_grip_on_a_fighter_that_has_activated_deals_three_damage() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", first="opponent")
    duel(game, "b7", "a8")
    m(game, "a8").flags["status"] = "done"
    game.apply(Action("activate", "b7"))
    game.apply(Action("ability", "b7", option="death-grip 5"))
    game.apply(Action("attack", "b7", "a8", option="Savage Bite"))
    if game.decision.prompt == "reaction":
        game.apply(Action("no-reaction"))
    game.roll((5, 1, 1))  # one hit of 2 damage, then Death Grip's 3
    assert m(game, "a8").token("damage") == 2 + 3


def test_strategize_banks_wyrd_dice_when_the_fighter_waits() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    duel(game, "a1", "b6", gap=20)
    bank = game.state.sides[0].flags.get("wyrd", 0)
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="strategize 4"))
    game.apply(Action("wait", "a1"))
    d = game.decision
    assert d.is_chance and d.dice is not None and d.dice.n == 4 and d.dice.label == "Strategize"
    game.roll((4, 5, 1, 3))
    assert game.state.sides[0].flags["wyrd"] == bank + 2


def test_blessed_sight_rolls_a_die_per_visible_enemy_within_its_value() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre")
    clear_table(game, ("a4", "b6", "b4", "b2"))
    put(game, "a4", 10, 10)
    put(game, "b6", 10, 13)
    put(game, "b4", 13, 10)
    put(game, "b2", 10, 30)  # beyond 4"
    game.apply(Action("activate", "a4"))
    game.apply(Action("ability", "a4", option="blessed-sight 4"))
    d = game.decision
    assert d.is_chance and d.dice is not None and d.dice.n == 2
    bank = game.state.sides[0].flags.get("wyrd", 0)
    game.roll((6, 2))
    assert game.state.sides[0].flags["wyrd"] == bank + 1


def test_condemn_accuses_chosen_enemies_and_accused_targets_are_easier_to_hit() -> None:
    from warband.rulesets.wyrdcry.attacks import attack_numbers

    game = table("mercenaries_hardy_company", "witch_hunters_pyre", b_dice=(5, 5, 5, 6, 6, 1), first="opponent")
    clear_table(game, ("b1", "a4", "a5", "a8"))
    put(game, "b1", 10, 10)
    put(game, "a4", 10, 11.5)
    put(game, "a5", 14, 10)
    put(game, "a8", 20, 20)
    game.apply(Action("activate", "b1"))
    game.apply(Action("ability", "b1", option="condemn 5"))  # X/2 = 3 accusations at most
    assert game.decision.prompt == "accuse" and game.decision.player == 1
    w = m(game, "b1").data["attacks"][0]
    before = attack_numbers(game.state, m(game, "b1"), m(game, "a4"), w)[0]
    game.apply(Action("accuse", "b1", "a4"))
    game.apply(Action("accuse", "b1", option="done"))
    assert m(game, "a4").flags["accused"] and not m(game, "a5").flags.get("accused")
    assert game.state.sides[1].flags["zeal"] == 1
    assert attack_numbers(game.state, m(game, "b1"), m(game, "a4"), w)[0] == before + 1


def test_zeal_turns_hits_into_crits_against_the_accused_and_crits_into_hits_when_attacked() -> None:
    from warband.rulesets.wyrdcry.attacks import zeal_conversions

    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    b1, a4 = m(game, "b1"), m(game, "a4")
    a4.flags["accused"] = True
    game.state.sides[1].flags["zeal"] = 4
    assert zeal_conversions(game.state, b1, a4, 2, 0) == (2, 0)
    game.state.sides[1].flags["zeal"] = 5
    assert zeal_conversions(game.state, b1, a4, 2, 0) == (1, 1)
    assert zeal_conversions(game.state, a4, b1, 0, 2) == (0, 2)
    game.state.sides[1].flags["zeal"] = 10
    assert zeal_conversions(game.state, a4, b1, 0, 2) == (1, 1)


def test_disengage_gives_the_elf_ranger_a_free_retreat() -> None:
    game = table("mercenaries_reikland_shots", "witch_hunters_pyre")
    duel(game, "a10", "b6")
    game.apply(Action("activate", "a10"))
    game.apply(Action("ability", "a10", option="disengage 4"))
    assert Action("bonus-retreat", "a10") in game.legal_actions()
    game.apply(Action("bonus-retreat", "a10"))
    game.apply(next(a for a in game.legal_actions() if a.point is not None))
    assert [list(t) for t in m(game, "a10").flags["taken"]] == [["retreat", True]]  # a bonus action
    assert Action("move", "a10") in game.legal_actions()  # both of its own actions are still to come


def test_dice_abilities_the_engine_does_not_play_traits_and_strangers_are_refused_by_name() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    duel(game, "a1", "b6", gap=20)
    game.apply(Action("activate", "a1"))
    assert why(game, Action("ability", "a1", option="condemn 4")) == "wyrdcry/ability/unknown"
    slayer = table("sisters_words_of_healing", "witch_hunters_pyre")
    troll = next(x.id for x in slayer.state.models.values() if x.data["type"] == "Troll Slayer")
    duel(slayer, troll, "b6", gap=20)
    slayer.apply(Action("activate", troll))
    # Slayer Oath is named on the card but undefined in the source (data digest §6): refused by name
    reasons = slayer.why_illegal(Action("ability", troll, option="slayer-oath 6"))
    assert reasons[0][0] == "wyrdcry/ability/pending" and "undefined in the source" in reasons[0][1]
    game2 = table("witch_hunters_pyre", "mercenaries_hardy_company")
    duel(game2, "a4", "b6", gap=20)
    game2.apply(Action("activate", "a4"))
    assert why(game2, Action("ability", "a4", option="unshakeable 4")) == "wyrdcry/ability/trait"


def test_a_spell_book_ability_is_barred_after_a_channeling_roll_of_one() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre", (1, 2, 3, 5, 5, 5))
    duel(game, "a1", "b6")
    m(game, "a1").flags["spellbook_blocked"] = True
    game.apply(Action("activate", "a1"))
    assert why(game, Action("ability", "a1", option="hammer-of-sigmar 5")) == "wyrdcry/ability/spellbook"


# ------------------------------------------------------------------------------------------- traits
def test_trick_shot_ignores_cover_and_armour_of_faith_is_always_in_cover() -> None:
    from warband.rulesets.wyrdcry.attacks import in_cover

    game = table("mercenaries_reikland_shots", "sisters_hammer_of_sigmar")
    clear_table(game, ("a10", "a3", "b4", "b5"))
    put(game, "a10", 10, 10)
    put(game, "a3", 12, 10)
    put(game, "b4", 10, 20)  # the Augur, in the open
    put(game, "b5", 12, 20)  # a Sister, in the open
    st = game.state
    assert in_cover(st, m(game, "a3"), m(game, "b4")) and not in_cover(st, m(game, "a3"), m(game, "b5"))
    assert not in_cover(st, m(game, "a10"), m(game, "b4"))


def test_unshakeable_flagellants_pass_panic_tests() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    from warband.rulesets.wyrdcry.morale import PanicTest

    events: list[Any] = []
    PanicTest("b4").roll(game.state, (1,), events)
    PanicTest("b6").roll(game.state, (1,), events)
    assert "panicked" not in m(game, "b4").flags and "panicked" in m(game, "b6").flags


def test_indomitable_removes_a_d3_of_damage_when_the_troll_slayer_activates() -> None:
    game = table("sisters_words_of_healing", "witch_hunters_pyre")
    duel(game, "a10", "b6", gap=20)
    m(game, "a10").tokens["damage"] = 5
    game.apply(Action("activate", "a10"))
    d = game.decision
    assert d.is_chance and d.dice is not None and d.dice.sides == 3
    game.roll((2,))
    assert m(game, "a10").token("damage") == 3


def test_voice_of_sigmar_makes_friends_within_three_inches_braver() -> None:
    from warband.rulesets.wyrdcry.morale import panic_bravery

    game = table("witch_hunters_bolt_and_hound", "mercenaries_hardy_company")
    clear_table(game, ("a9", "a7", "b1"))
    put(game, "a7", 30, 30)  # a War Hound (Bravery 5+) far from its Captain
    put(game, "b1", 2, 2)
    assert panic_bravery(game.state, m(game, "a7")) == 5
    put(game, "a9", 30, 32)  # the Warrior Priest, 1" away
    assert panic_bravery(game.state, m(game, "a7")) == 4


# ------------------------------------------------------------------------------------------- reactions
def _kill(game: Game, attacker: str, victim: str, weapon: str, dice: tuple[int, ...]) -> None:
    m(game, victim).tokens["damage"] = int(m(game, victim).data["health"]) - 1
    game.apply(Action("activate", attacker))
    game.apply(Action("attack", attacker, victim, option=weapon))
    while game.decision.prompt == "reaction" and game.decision.player == m(game, victim).side:
        if any(a.option == "counter" for a in game.legal_actions()):
            game.apply(Action("no-reaction"))
        else:
            break
    game.roll(dice)


def test_martyrdom_is_offered_to_a_sister_taken_out_and_banks_wyrd_dice() -> None:
    game = table(
        "mercenaries_hardy_company", "sisters_hammer_of_sigmar", (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6), "opponent"
    )
    duel(game, "a4", "b2")  # a Warrior against a Sister Superior (HERO)
    _kill(game, "a4", "b2", "Axe", (6, 6, 6))
    d = game.decision
    assert d.prompt == "reaction" and d.player == 1
    assert Action("react", "b2", "a4", option="martyrdom") in game.legal_actions()
    bank = game.state.sides[1].flags.get("wyrd", 0)
    dice = game.state.sides[1].flags["reaction_dice"]
    game.apply(Action("react", "b2", "a4", option="martyrdom"))
    assert game.state.sides[1].flags["wyrd"] == bank + 2  # 1, and one more for a HERO
    assert game.state.sides[1].flags["reaction_dice"] == dice - 1


def test_sudden_accusation_accuses_the_enemy_that_took_a_friend_out() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6), "opponent")
    duel(game, "a4", "b6", keep=("b2",))
    put(game, "b2", 22, 5)  # a Witch Hunter watching
    _kill(game, "a4", "b6", "Axe", (6, 6, 6))
    assert game.decision.prompt == "reaction" and game.decision.player == 1
    game.apply(Action("react", "b2", "a4", option="sudden-accusation"))
    assert m(game, "a4").flags["accused"] and game.state.sides[1].flags["zeal"] == 1


# ------------------------------------------------------------------------------------------- the Channel action
def test_only_a_wizard_channels_and_the_dice_must_be_spent_in_that_activation() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    duel(game, "a4", "b6")
    game.apply(Action("activate", "a4"))
    assert why(game, Action("channel", "a4", option="double")) == "wyrdcry/channel/wizard"
    m(game, "a4").data["keywords"].append("WIZARD")
    game.state.state_id += 1
    assert {a.option for a in game.legal_actions() if a.kind == "channel"} == {"double", "upgrade 4", "raise 4"}
    game.apply(Action("channel", "a4", option="double"))  # a [double] of 3s joins the triple of 4s
    assert game.decision.is_chance and game.decision.dice is not None and game.decision.dice.label == "channel backlash"
    game.roll((2,))  # 2-3: the backlash deals 3 damage
    assert m(game, "a4").token("damage") == 3
    assert [2, 3, False] in game.state.sides[0].flags["pool"]["groups"]
    assert why(game, Action("channel", "a4", option="upgrade 4")) == "wyrdcry/activation/once-each"
    game.apply(Action("wait", "a4"))  # the activation ends with the channeled double unspent: it is lost
    assert game.state.sides[0].flags["pool"]["groups"] == [[3, 4, False]]


def test_a_channel_backlash_of_one_takes_the_wizard_out_of_action() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    duel(game, "a4", "b6")
    m(game, "a4").data["keywords"].append("WIZARD")
    game.apply(Action("activate", "a4"))
    game.apply(Action("channel", "a4", option="raise 4"))  # the triple of 4s becomes a triple of 6s (at most 6)
    assert [3, 6, False] in game.state.sides[0].flags["pool"]["groups"]
    game.roll((1,))
    assert m(game, "a4").flags["status"] == "out"


# ------------------------------------------------------------------------------------------- universal: Take Cover
def test_take_cover_is_asked_of_a_target_in_cover_and_turns_saved_crits_into_hits() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6), "opponent")
    clear_table(game, ("a7", "b6"))
    put(game, "a7", 18, 10)  # a Marksman with a Crossbow (3-24", 2 attacks, 3/5, Mighty 1)
    put(game, "b6", 18, 17.5)  # a Zealot behind the low wall (y 16-16.5): in cover
    game.apply(Action("activate", "a7"))
    game.apply(Action("attack", "a7", "b6", option="Crossbow"))
    d = game.decision
    assert d.prompt == "reaction" and d.player == 1
    assert Action("react", "b6", "a7", option="take-cover") in game.legal_actions()
    game.apply(Action("react", "b6", "a7", option="take-cover"))
    game.roll((6, 6))  # two crits
    assert game.decision.is_chance and game.decision.dice is not None and game.decision.dice.label == "take cover"
    game.roll((4, 1))  # the first crit is saved down to a hit
    assert m(game, "b6").token("damage") == 3 + 5
