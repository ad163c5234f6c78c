"""The faction rules issue 12 had left pending (data digest wyrdcry-data.md §4.1-4.4), each played on the table
from the player's side: Captain's Command (Seize and Hold tokens), Lead By Example (free actions for henchmen in
the middle of an activation), Driven by Greed (treasure carried or close), Sigmar's Blessing (a banked wyrd die
spent on a Bravery test, a hit roll or a reaction), Deathwish (a free attack before the Slayer falls) and
Denounce (a D6 over the priest's Bravery cancels a magical ability)."""

from __future__ import annotations

from wyrd_helpers import DATA, clear_table, deploy, initiative, m, put, why

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import DiceRolled, Event
from warband.rulesets.wyrdcry import morale, scenario
from warband.rulesets.wyrdcry.core import deal_damage
from warband.rulesets.wyrdcry.render import render

A_DICE = (1, 2, 3, 4, 4, 4)  # A: initiative, a [triple] of 4s, reaction dice 1, 2, 3
B_DICE = (5, 5, 6, 6, 1, 1)  # B: doubles of 5, 6, 1 and no reaction die


def table(
    a: str,
    b: str,
    a_dice: tuple[int, ...] = A_DICE,
    b_dice: tuple[int, ...] = B_DICE,
    first: str = "me",
    scenario: str = "default",
) -> Game:
    rs = registry.get("wyrdcry")
    rosters = [rs.load_roster(DATA / "warbands" / f"{n}.yaml") for n in (a, b)]
    game = Game.new(rs, rosters, rs.load_scenario(DATA / "scenarios" / f"{scenario}.yaml"), 1, None)
    deploy(game)
    initiative(game, a_dice, b_dice, first=first)
    return game


def hit_label(events: list[Event]) -> str:
    return next(e.label for e in events if isinstance(e, DiceRolled) and e.label.startswith("hit rolls"))


def no_reactions(game: Game) -> None:
    while not game.decision.is_chance and game.decision.prompt == "reaction":
        game.apply(Action("no-reaction"))


def wyrd(game: Game, side: int) -> int:
    return int(game.state.sides[side].flags.get("wyrd", 0))


# ------------------------------------------------------------------------------------------- Captain's Command
def test_captains_command_seize_token_helps_attacks_on_targets_near_it() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    clear_table(game, ("a1", "b6"))
    put(game, "a1", 18.0, 4.0)
    put(game, "b6", 18.0, 5.5)  # Zealot (Defense 4 with its Shield) within 1"
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="captain-command 4"))
    assert game.decision.prompt == "command-token" and game.decision.player == 0
    far = Action("token", "a1", option="seize", point=(18.0, 30.0))
    assert far not in game.legal_actions() and why(game, far) == "wyrdcry/command-token/choice"
    game.apply(Action("token", "a1", option="seize", point=(18.0, 5.5)))  # on the Zealot
    events = game.apply(Action("attack", "a1", "b6", option="Sword"))
    events += game.roll((1, 1, 1))
    assert hit_label(events).startswith("hit rolls 5 vs Defense 4")  # Fight 4, +1 from Seize


def test_captains_command_hold_token_makes_friends_near_it_harder_to_hit_and_braver() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", first="opponent")
    clear_table(game, ("a1", "a4", "b6"))
    put(game, "a1", 10.0, 4.0)
    put(game, "a4", 18.0, 4.0)  # Warrior, Defense 4 with its Shield
    put(game, "b6", 18.0, 5.5)
    assert morale.panic_bravery(game.state, m(game, "a4")) == 4  # Bravery 4+ (Unyielding)
    game.state.vars["active"] = None
    # the Captain places a Hold token on the Warrior in its own activation
    game.apply(Action("activate", "b6"))
    game.apply(Action("wait", "b6"))
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="captain-command 4"))
    game.apply(Action("token", "a1", option="hold", point=(18.0, 4.0)))
    assert morale.panic_bravery(game.state, m(game, "a4")) == 3  # one better within 3" of Hold
    game.apply(Action("wait", "a1"))
    game.apply(Action("activate", "b6"))
    events = game.apply(Action("attack", "b6", "a4", option="Spear"))
    no_reactions(game)
    events += game.roll((1, 1, 1))
    assert "vs Defense 5" in hit_label(events)  # 4 and Hold's +1


def test_captains_command_token_is_gone_when_the_round_ends() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    for x in game.state.models.values():
        x.on_table = x.id in ("a1", "a4", "b6")  # off the table but not out of action: no morale test
    put(game, "a1", 10.0, 4.0)
    put(game, "a4", 18.0, 4.0)
    put(game, "b6", 30.0, 30.0)
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="captain-command 4"))
    game.apply(Action("token", "a1", option="hold", point=(18.0, 4.0)))
    assert morale.panic_bravery(game.state, m(game, "a4")) == 3
    for _ in range(2):
        game.apply(Action("move", "a1"))
        game.apply(Action("move", "a1", option="stay"))
    if game.decision.prompt == "action":
        game.apply(Action("end", "a1"))
    _to_morale(game, "b6", "a4")
    while game.state.turn == 1:
        game.roll() if game.decision.is_chance else game.apply(game.legal_actions()[0])
    assert game.state.vars["command_tokens"] == [] and morale.panic_bravery(game.state, m(game, "a4")) == 4


# ------------------------------------------------------------------------------------------- Lead By Example
def test_lead_by_example_gives_henchmen_a_free_attack_and_a_free_move_after_a_kill() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    clear_table(game, ("a2", "a3", "a4", "a6", "b6", "b4"))
    put(game, "a2", 18.0, 8.0)  # another Champion: a HERO, not led
    put(game, "a3", 18.0, 4.0)  # Champion (Sword)
    put(game, "b6", 18.0, 5.5)  # Zealot about to fall
    put(game, "a4", 22.0, 4.0)  # Warrior (Axe) next to the Flagellant
    put(game, "b4", 22.0, 5.5)
    put(game, "a6", 14.0, 4.0)  # Marksman, free to move
    m(game, "b6").tokens["damage"] = 8
    game.apply(Action("activate", "a3"))
    ability = Action("ability", "a3", option="lead-by-example 4")
    assert why(game, ability) == "wyrdcry/ability/lead-by-example"  # no enemy taken out yet
    game.apply(Action("attack", "a3", "b6", option="Sword"))
    game.roll((6, 6, 6))
    assert m(game, "b6").flags["status"] == "out"
    game.apply(ability)
    assert game.decision.prompt == "lead"
    offered = set(game.legal_actions())
    assert Action("lead", "a3", "a4", option="attack") in offered
    assert Action("lead", "a3", "a4", option="move") not in offered  # within 1" of an enemy: no Move
    assert Action("lead", "a3", "a6", option="move") in offered
    assert not any(a.target == "a2" for a in offered)
    game.apply(Action("lead", "a3", "a4", option="attack"))
    assert game.decision.prompt == "free-attack" and game.decision.player == 0
    game.apply(Action("attack", "a4", "b4", option="Axe"))
    game.roll((6, 1, 1))  # one crit of the Axe: 4
    assert m(game, "b4").token("damage") == 4
    assert m(game, "a4").flags.get("status", "ready") == "ready" and not m(game, "a4").flags.get("taken")
    game.apply(Action("lead", "a3", "a6", option="move"))
    assert game.decision.prompt == "destination"
    dest = next(a for a in game.legal_actions() if a.point is not None)
    game.apply(dest)
    assert (m(game, "a6").x, m(game, "a6").y) == dest.point
    # both henchmen served: the Champion's activation goes on (its second action)
    assert game.decision.prompt == "action" and game.decision.model == "a3"


# ------------------------------------------------------------------------------------------- Driven by Greed
def test_treasure_is_picked_up_for_free_carried_and_dropped_where_its_carrier_falls() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", scenario="treasure_hunt")
    clear_table(game, ("a4", "a8", "b7", "b6"))
    put(game, "a4", 18.0, 16.6)  # Warrior, its base within 1" of treasure-centre at (18, 18)
    put(game, "b7", 30.0, 30.0)  # War Hound, a BEAST
    put(game, "b6", 30.0, 4.0)
    put(game, "a8", 4.0, 4.0)
    game.apply(Action("activate", "a4"))
    greed = Action("ability", "a4", option="driven-by-greed 4")
    grab = Action("pick-up", "a4", option="treasure-centre")
    assert grab in game.legal_actions()
    assert why(game, Action("pick-up", "a4", option="treasure-west")) == "wyrdcry/treasure/range"
    game.apply(grab)
    assert not m(game, "a4").flags.get("taken")  # a free action, not one of the two
    assert why(game, Action("pick-up", "a4", option="treasure-east")) == "wyrdcry/treasure/carry-limit"
    game.apply(Action("move", "a4"))
    game.apply(Action("move", "a4", point=(22.0, 16.6)))
    assert scenario.treasure_at(game.state, "treasure-centre") == (22.0, 16.6)  # it goes where its carrier goes
    assert why(game, greed) == ""  # carrying treasure
    # a BEAST takes no scenario actions (data §3)
    put(game, "b7", 26.0, 24.0)
    assert why(game, Action("pick-up", "b7", option="treasure-east")) != ""
    assert scenario.token_reasons(game.state, m(game, "b7"), Action("pick-up", "b7", option="treasure-east"))[0][0] == (
        "wyrdcry/treasure/beast"
    )
    # taken out of action: the token lies where the carrier fell
    deal_damage(game.state, m(game, "a4"), 50, "test", [])
    assert game.state.vars["treasure"]["treasure-centre"] == [22.0, 16.6, None]


def test_driven_by_greed_needs_treasure_and_adds_fight_and_an_attack_to_the_next_melee_attack() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", scenario="treasure_hunt")
    clear_table(game, ("a4", "b4"))
    put(game, "a4", 18.0, 22.6)  # not within 1" of treasure-centre at (18, 18)
    put(game, "b4", 18.0, 24.1)  # Flagellant, Defense 3
    game.apply(Action("activate", "a4"))
    greed = Action("ability", "a4", option="driven-by-greed 4")
    assert why(game, greed) == "wyrdcry/ability/driven-by-greed"
    put(game, "a4", 18.0, 19.5)  # now its base is within 1" of the token
    put(game, "b4", 18.0, 21.0)
    assert why(game, greed) == ""
    game.apply(greed)
    events = game.apply(Action("attack", "a4", "b4", option="Axe"))
    assert game.decision.is_chance and game.decision.dice is not None and game.decision.dice.n == 3 + 1
    events += game.roll((1, 1, 1, 1))
    assert hit_label(events).startswith("hit rolls 4 vs Defense 3")  # Fight 3 + 1
    default = table("mercenaries_hardy_company", "witch_hunters_pyre")  # no treasure on the default table
    default.apply(Action("activate", "a4"))
    assert not {a.kind for a in default.legal_actions()} & {"pick-up", "drop"}
    assert why(default, Action("ability", "a4", option="driven-by-greed 4")) == "wyrdcry/ability/driven-by-greed"


# ------------------------------------------------------------------------------------------- Sigmar's Blessing
def test_sigmars_blessing_turns_a_hit_into_a_critical_hit_for_a_banked_wyrd_die() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre")
    clear_table(game, ("a5", "b4"))
    put(game, "a5", 18.0, 4.0)  # Sister, Warhammer 3/4
    put(game, "b4", 18.0, 5.5)  # Flagellant, Defense 3
    assert wyrd(game, 0) == 1
    game.apply(Action("activate", "a5"))
    game.apply(Action("attack", "a5", "b4", option="Warhammer"))
    game.roll((5, 1))  # one hit
    assert game.decision.prompt == "blessing-hit" and game.decision.player == 0
    game.apply(Action("blessing", "a5", option="crit"))
    assert m(game, "b4").token("damage") == 4 and wyrd(game, 0) == 0  # the crit's 4, not the hit's 3
    # without a banked wyrd die nothing is asked
    other = table("sisters_hammer_of_sigmar", "witch_hunters_pyre")
    clear_table(other, ("a5", "b4"))
    put(other, "a5", 18.0, 4.0)
    put(other, "b4", 18.0, 5.5)
    other.state.sides[0].flags["wyrd"] = 0
    other.apply(Action("activate", "a5"))
    other.apply(Action("attack", "a5", "b4", option="Warhammer"))
    other.roll((5, 1))
    assert m(other, "b4").token("damage") == 3


def test_sigmars_blessing_lets_a_sister_react_with_a_wyrd_die_instead_of_a_reaction_die() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre", (1, 1, 4, 4, 4, 4), (1, 2, 5, 5, 6, 6), "me")
    # B holds the initiative (2 singles); A has no single left, so no reaction die
    assert game.state.sides[0].flags["reaction_dice"] == 0 and wyrd(game, 0) == 1
    clear_table(game, ("a5", "b4"))
    put(game, "a5", 18.0, 4.0)
    put(game, "b4", 18.0, 5.5)
    game.apply(Action("activate", "b4"))
    game.apply(Action("attack", "b4", "a5", option="Flail"))
    assert game.decision.prompt == "reaction"
    assert Action("react", "a5", "b4", option="counter wyrd") in game.legal_actions()
    assert Action("react", "a5", "b4", option="counter") not in game.legal_actions()
    game.apply(Action("react", "a5", "b4", option="counter wyrd"))
    assert wyrd(game, 0) == 0 and game.state.sides[0].flags["reaction_dice"] == 0
    assert game.decision.is_chance  # the hit rolls, with the Counter declared


def _to_morale(game: Game, a: str, b: str) -> None:
    """Both fighters take two Moves that stay put; the combat phase ends."""
    for mid in (a, b):
        game.apply(Action("activate", mid))
        for _ in range(2):
            game.apply(Action("move", mid))
            game.apply(Action("move", mid, option="stay"))
        if game.decision.prompt == "action":
            game.apply(Action("end", mid))


def test_sigmars_blessing_passes_a_bravery_test_without_rolling() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre")
    clear_table(game, ("a1", "b6"))  # every other fighter out: both sides test morale
    put(game, "a1", 6.0, 4.0)
    put(game, "b6", 30.0, 30.0)
    _to_morale(game, "a1", "b6")
    assert game.decision.prompt == "blessing-test" and game.decision.model == "a1"
    assert Action("blessing", "a1", option="roll") in game.legal_actions()
    game.apply(Action("blessing", "a1", option="pass"))
    assert wyrd(game, 0) == 0
    assert not game.state.sides[0].flags.get("wavering") and not game.state.sides[0].flags.get("withdrawn")
    game.apply(Action("carry-on"))  # half out: side A may withdraw (D §A8); it carries on
    # the Witch Hunters keep only a henchman: leader and every Hero out, their test fails with no die (D §A8)
    assert game.state.sides[1].flags.get("wavering")
    assert game.decision.prompt == "withdraw" and game.decision.player == 1


def test_sigmars_blessing_is_offered_before_a_panic_test_and_declining_rolls_it() -> None:
    game = table("sisters_hammer_of_sigmar", "witch_hunters_pyre")
    for x in game.state.models.values():
        x.on_table = x.id in ("a5", "a1", "b6")  # off the table but not out of action: no morale test
    game.state.sides[0].flags["wavering"] = True  # a wavering warband's fighters test for panic
    put(game, "a5", 6.0, 4.0)
    put(game, "a1", 30.0, 4.0)
    put(game, "b6", 30.0, 30.0)
    _to_morale(game, "a5", "b6")
    game.apply(Action("activate", "a1"))
    for _ in range(2):
        game.apply(Action("move", "a1"))
        game.apply(Action("move", "a1", option="stay"))
    if game.decision.prompt == "action":
        game.apply(Action("end", "a1"))
    assert game.decision.prompt == "blessing-test"
    first = game.decision.model
    game.apply(Action("blessing", str(first), option="roll"))
    assert game.decision.is_chance and "panic" in str(game.decision.dice) and wyrd(game, 0) == 1


# ------------------------------------------------------------------------------------------- Deathwish
def _slayer_game() -> tuple[Game, str]:
    game = table("sisters_words_of_healing", "witch_hunters_pyre", first="opponent")
    troll = next(x.id for x in game.state.models.values() if x.data["type"] == "Troll Slayer")
    clear_table(game, (troll, "b5"))
    put(game, troll, 18.0, 4.0)
    put(game, "b5", 18.0, 5.5)  # Flagellant with a Great Weapon (4/7)
    return game, troll


def test_deathwish_lets_the_slayer_attack_before_a_killing_blow_lands() -> None:
    game, troll = _slayer_game()
    m(game, troll).tokens["damage"] = 12  # 4 left
    game.apply(Action("activate", "b5"))
    game.apply(Action("attack", "b5", troll, option="Great Weapon"))
    no_reactions(game)  # no Counter
    game.roll((6, 1))  # a crit of 7: it would take the Slayer out
    assert game.decision.prompt == "reaction" and game.decision.player == 0
    game.apply(Action("react", troll, "b5", option="deathwish"))
    assert game.decision.prompt == "free-attack" and m(game, troll).flags["status"] != "out"
    game.apply(Action("attack", troll, "b5", option="Twin Dwarven Axes"))
    no_reactions(game)
    game.roll((6, 6, 1, 1))  # two crits of 4
    assert m(game, "b5").token("damage") == 8
    assert m(game, troll).flags["status"] == "out"  # then the blow lands


def test_deathwish_is_not_offered_when_the_blow_would_not_take_the_slayer_out() -> None:
    game, troll = _slayer_game()
    game.apply(Action("activate", "b5"))
    game.apply(Action("attack", "b5", troll, option="Great Weapon"))
    no_reactions(game)
    game.roll((6, 1))
    assert m(game, troll).token("damage") == 7 and game.decision.prompt != "reaction"


# ------------------------------------------------------------------------------------------- Denounce
def _priest_game() -> Game:
    # A (Sisters: Words of Healing) has the initiative and a [triple] of 6s; B (with the Warrior Priest) 2
    # reaction dice
    game = table("sisters_words_of_healing", "witch_hunters_bolt_and_hound", (1, 2, 3, 6, 6, 6), (1, 2, 5, 5, 4, 4))
    priest = next(x.id for x in game.state.models.values() if x.data["type"] == "Warrior Priest")
    clear_table(game, ("a1", "a2", priest))
    put(game, "a1", 10.0, 10.0)
    put(game, "a2", 14.0, 10.0)
    put(game, priest, 14.0, 15.0)  # within 6" of the Sister Superior
    m(game, "a2").tokens["damage"] = 5
    return game


def test_denounce_cancels_a_magical_ability_on_a_d6_over_the_priests_bravery() -> None:
    game = _priest_game()
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="words-of-healing 6"))
    assert game.decision.prompt == "reaction" and game.decision.player == 1
    priest = next(a for a in game.legal_actions() if a.option == "denounce")
    game.apply(priest)
    game.roll((4,))  # over Bravery 3
    assert m(game, "a2").token("damage") == 5  # not healed
    assert not game.state.sides[0].flags["pool"]["groups"]  # and the dice are lost


def test_a_denounce_roll_not_over_the_priests_bravery_lets_the_ability_work() -> None:
    game = _priest_game()
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="words-of-healing 6"))
    priest = next(a for a in game.legal_actions() if a.option == "denounce")
    game.apply(priest)
    game.roll((3,))
    assert m(game, "a2").token("damage") == 2  # healed X/2 = 3


def test_no_denounce_without_a_targeted_fighter_within_six_inches_of_the_priest() -> None:
    game = _priest_game()
    priest = next(x.id for x in game.state.models.values() if x.data["type"] == "Warrior Priest")
    put(game, priest, 30.0, 30.0)
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="words-of-healing 6"))
    assert m(game, "a2").token("damage") == 2 and game.decision.prompt == "action"


def test_the_terminal_map_shows_treasure_and_command_tokens() -> None:
    game = table("mercenaries_hardy_company", "witch_hunters_pyre", scenario="treasure_hunt")
    clear_table(game, ("a1", "b6"))
    put(game, "a1", 18.0, 16.6)
    put(game, "b6", 30.0, 30.0)
    game.apply(Action("activate", "a1"))
    game.apply(Action("pick-up", "a1", option="treasure-centre"))
    game.apply(Action("ability", "a1", option="captain-command 4"))
    game.apply(Action("token", "a1", option="seize", point=(18.0, 16.6)))
    text = render(game.state)
    assert "treasure treasure-centre carried by a1" in text and "treasure treasure-west at (10, 11.5)" in text
    assert "Seize token of side A at (18, 16.6)" in text
