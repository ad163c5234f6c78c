"""The Wyrdcry engine, one test per seed sentence (docs/rules/wyrdcry.md rows 1-32) plus the initiative phase.

Each test brings a game to the moment the sentence speaks of, with chosen dice and positions, and checks what
the engine offers or does there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from warband.kernel.actions import Action

sys.path.insert(0, str(Path(__file__).parent))
from wyrd_helpers import clear_table, deploy, initiative, kinds, new_game, put, to_combat


def _active_side(game) -> int:  # type: ignore[no-untyped-def]
    return int(game.decision.player or 0)


def _activate(game, mid: str) -> None:  # type: ignore[no-untyped-def]
    game.apply(Action("activate", mid))


def _pool(game, side: int) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return dict(game.state.sides[side].flags["pool"])


def _duel(game, a: str = "a4", b: str = "b3", gap: float = 0.5):  # type: ignore[no-untyped-def]
    """Only ``a`` and ``b`` on the table, bases ``gap`` inches apart, in open ground."""
    clear_table(game, (a, b))
    put(game, a, 18.0, 4.0)
    put(game, b, 18.0, 4.0 + 1.0 + gap)


# ------------------------------------------------------------------------------------------- initiative phase
def test_initiative_dice_are_one_roll_per_player_and_group_into_singles_and_sets() -> None:
    game = new_game()
    deploy(game)
    d = game.decision
    assert d.is_chance and d.dice is not None and d.dice.n == 6 and "side A" in d.dice.label
    game.roll((1, 2, 3, 4, 4, 4))
    assert _pool(game, 0) == {"singles": [1, 2, 3], "groups": [[3, 4, False]]}
    assert game.decision.is_chance and "side B" in (game.decision.dice.label if game.decision.dice else "")


def test_most_singles_takes_initiative_and_a_tie_is_a_roll_off() -> None:
    game = new_game()
    deploy(game)
    game.roll((1, 2, 3, 4, 5, 6))
    game.roll((1, 1, 2, 2, 3, 3))
    assert game.state.vars["initiative"] == 0
    tie = new_game()
    deploy(tie)
    tie.roll((1, 1, 2, 2, 3, 4))
    tie.roll((5, 5, 6, 6, 1, 2))
    assert tie.decision.is_chance and tie.decision.prompt == "roll-off"
    tie.roll((2, 5))
    assert tie.state.vars["initiative"] == 1


def test_wyrd_dice_are_the_players_choice_add_a_single_or_upgrade_and_stay_banked() -> None:
    game = new_game()
    deploy(game)
    game.roll((1, 2, 3, 4, 4, 4))
    game.roll((1, 1, 2, 2, 3, 3))
    d = game.decision
    assert d.prompt == "wyrd" and d.player == 0
    opts = {a.option for a in game.legal_actions()}
    assert {"add 5", "add 6", "upgrade 1", "upgrade 4", "done"} <= opts
    game.apply(Action("wyrd", option="upgrade 4"))  # the triple of 4s becomes a quad
    assert [3 + 1, 4, True] in _pool(game, 0)["groups"]
    assert game.state.sides[0].flags["wyrd"] == 0
    assert game.decision.prompt == "wyrd" and game.decision.player == 1
    game.apply(Action("wyrd", option="done"))
    assert game.state.sides[1].flags["wyrd"] == 1  # banked for a later round


def test_initiative_is_redecided_when_wyrd_dice_change_the_singles() -> None:
    game = new_game()
    deploy(game)
    game.roll((1, 2, 3, 5, 5, 6))  # A: 3 singles + double ... 1,2,3,6 = 4 singles
    game.roll((1, 2, 3, 4, 4, 5))  # B: 4 singles -> a tie: roll-off
    game.roll((6, 1))
    assert game.state.vars["initiative"] == 0
    game.apply(Action("wyrd", option="upgrade 6"))  # A turns a single into a double: 3 singles
    game.apply(Action("wyrd", option="done")) if game.decision.prompt == "wyrd" and game.decision.player == 0 else None
    while game.decision.prompt == "wyrd":
        game.apply(Action("wyrd", option="done"))
    assert game.decision.prompt == "first" and game.decision.player == 1
    assert game.state.vars["initiative"] == 1


def test_leftover_singles_become_reaction_dice_and_leave_the_pool() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 4, 4, 4), (5, 5, 6, 6, 1, 1))
    assert game.state.sides[0].flags["reaction_dice"] == 3
    assert game.state.sides[1].flags["reaction_dice"] == 0
    assert _pool(game, 0)["singles"] == []


def test_channeling_is_offered_to_a_warband_with_a_priest_or_wizard() -> None:
    game = new_game(b="sisters_hammer_of_sigmar")
    deploy(game)
    game.roll((1, 2, 3, 4, 5, 6))
    game.roll((1, 1, 2, 2, 3, 3))
    prompts = []
    while game.state.phase == "initiative":
        d = game.decision
        prompts.append((d.prompt, d.player))
        if d.is_chance:
            game.roll((6,) if d.dice and d.dice.n == 1 else None)
        elif d.prompt == "channel":
            game.apply(game.legal_actions()[0])
        else:
            game.apply(game.legal_actions()[-1] if d.prompt == "wyrd" else game.legal_actions()[0])
    channelled = [p for p in prompts if p[0] == "channel"]
    has_caster = any(
        "PRIEST" in m.data["keywords"] or "WIZARD" in m.data["keywords"] for m in game.state.models.values()
    )
    assert bool(channelled) == has_caster


# ------------------------------------------------------------------------------------------- combat phase (1-4)
def test_players_take_turns_activating_fighters() -> None:
    game = new_game()
    to_combat(game)
    first = _active_side(game)
    mid = game.legal_actions()[0].model or ""
    _activate(game, mid)
    game.apply(Action("wait", mid))
    game.apply(Action("wait", mid)) if game.decision.prompt == "action" else None
    assert game.decision.prompt == "activate" and _active_side(game) == 1 - first


def test_initiative_holder_decides_who_activates_first() -> None:
    game = new_game()
    deploy(game)
    initiative(game, (1, 2, 3, 4, 5, 6), (1, 1, 2, 2, 3, 3), first="opponent")
    assert game.decision.prompt == "activate" and game.decision.player == 1


def test_a_player_with_every_fighter_activated_passes() -> None:
    game = new_game()
    to_combat(game)
    clear_table(game, ("a1", "b1", "b2"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    put(game, "b2", 32, 30)
    _activate(game, "a1")
    game.apply(Action("wait", "a1"))  # first action Wait: a1 will activate again
    _activate(game, "b1")
    game.apply(Action("wait", "b1"))
    _activate(game, "a1")
    game.apply(Action("wait", "a1")) if Action("wait", "a1") in game.legal_actions() else game.apply(
        next(a for a in game.legal_actions() if a.kind == "move")
    )
    while game.decision.prompt == "destination":
        game.apply(game.legal_actions()[0])
    if game.decision.prompt == "action":  # abilities could still be used: the player ends the activation
        game.apply(Action("end", "a1"))
    # A has activated everything: B activates its fighters one after another
    assert game.decision.prompt == "activate" and game.decision.player == 1


def test_the_combat_phase_ends_when_both_players_have_activated_everything() -> None:
    game = new_game()
    to_combat(game)
    clear_table(game, ("a1", "b1"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    for mid in ("a1", "b1"):
        _activate(game, mid)
        game.apply(Action("move", mid))
        game.apply(Action("move", mid, option="stay"))
        game.apply(Action("move", mid))
        game.apply(Action("move", mid, option="stay"))
        if game.decision.prompt == "action":
            game.apply(Action("end", mid))
    assert (game.state.phase in ("initiative", "morale") and game.state.turn == 2) or game.decision.is_chance


# ------------------------------------------------------------------------------------------- actions (5-9)
def test_an_activated_fighter_must_take_two_actions() -> None:
    game = new_game()
    to_combat(game)
    _activate(game, "a1")
    assert "end" not in kinds(game)
    reasons = game.why_illegal(Action("end", "a1"))
    assert reasons and reasons[0][0] == "wyrdcry/activation/two-actions"


def test_the_first_action_is_completed_before_the_second() -> None:
    game = new_game()
    to_combat(game)
    _activate(game, "a1")
    game.apply(Action("move", "a1"))
    assert game.decision.prompt == "destination"  # the Move resolves before any other choice
    game.apply(game.legal_actions()[0])
    assert game.decision.prompt == "action"


def test_each_action_once_per_activation_but_move_twice() -> None:
    game = new_game()
    to_combat(game)
    clear_table(game, ("a1", "b1"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    _activate(game, "a1")
    game.apply(Action("move", "a1"))
    game.apply(Action("move", "a1", option="stay"))
    assert Action("move", "a1") in game.legal_actions()
    game2 = new_game()
    to_combat(game2)
    _duel(game2, "a4", "b3")
    _activate(game2, "a4")
    game2.apply(Action("attack", "a4", "b3", option="Axe"))
    game2.roll((1, 1, 1))  # three misses (B has no reaction dice to answer with)
    assert game2.decision.prompt == "action"
    why = game2.why_illegal(Action("attack", "a4", "b3", option="Axe"))
    assert why and any(r[0] == "wyrdcry/activation/once-each" for r in why)


def test_bonus_actions_come_from_rules_and_no_action_three_times() -> None:
    game = new_game()
    to_combat(game, (1, 2, 4, 4, 4, 4), (5, 5, 6, 6, 1, 1))  # A holds a quad of 4s: Rampage
    _duel(game, "a4", "b3")
    _activate(game, "a4")
    assert Action("ability", "a4", option="rampage 4") in game.legal_actions()
    game.apply(Action("ability", "a4", option="rampage 4"))
    assert game.state.models["a4"].flags["rampaged"] is True
    assert any(a.kind == "bonus-attack" for a in game.legal_actions())
    # two normal attacks are refused (once each), but a bonus attack plus one attack is allowed; a third never
    from warband.rulesets.wyrdcry import activation as act

    taken = [act.Taken("attack"), act.Taken("attack", bonus=True)]
    assert act.action_problem(taken, "attack", bonus=True) is not None


# ------------------------------------------------------------------------------------------- abilities (10-18)
def test_one_ability_per_activation_paid_with_ability_dice() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    _activate(game, "a1")
    game.apply(Action("ability", "a1", option="rush 3"))
    assert game.state.models["a1"].flags["move_bonus"] == 1
    why = game.why_illegal(Action("ability", "a1", option="rush 5"))
    assert why and why[0][0] == "wyrdcry/ability/one-per-activation"


def test_fighters_use_universal_abilities_and_unknown_ones_are_refused() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    _activate(game, "a1")
    why = game.why_illegal(Action("ability", "a1", option="fireball 3"))
    assert why and why[0][0] == "wyrdcry/ability/unknown"


def test_an_ability_needs_its_dice_discarded() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    _activate(game, "a1")
    why = game.why_illegal(Action("ability", "a1", option="rampage 3"))
    assert why and why[0][0] == "wyrdcry/ability/cost" and "quad" in why[0][1]
    assert game.why_illegal(Action("ability", "a1", option="rush 6"))[0][0] == "wyrdcry/ability/dice"
    game.apply(Action("ability", "a1", option="onslaught 5"))
    assert [2, 5, False] not in _pool(game, 0)["groups"]


def test_a_higher_group_pays_a_lower_cost_and_is_discarded_whole() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 3, 3), (4, 4, 6, 6, 1, 1))
    _activate(game, "a1")
    assert Action("ability", "a1", option="rush 3") in game.legal_actions()
    game.apply(Action("ability", "a1", option="rush 3"))
    assert _pool(game, 0)["groups"] == []


def test_a_waiting_fighter_may_use_an_ability_again_before_or_after_its_action() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    clear_table(game, ("a1", "b1", "b2"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    put(game, "b2", 32, 30)
    _activate(game, "a1")
    game.apply(Action("ability", "a1", option="rush 3"))
    game.apply(Action("wait", "a1"))
    assert game.state.models["a1"].flags["status"] == "waiting"
    _activate(game, "b1")
    game.apply(Action("wait", "b1"))
    _activate(game, "a1")
    assert Action("ability", "a1", option="rush 5") in game.legal_actions()  # before its action
    game.apply(Action("move", "a1"))
    game.apply(Action("move", "a1", option="stay"))
    assert Action("ability", "a1", option="rush 5") in game.legal_actions()  # or after it


def test_the_value_of_an_ability_is_the_face_of_the_dice_spent() -> None:
    game = new_game()
    to_combat(game, (1, 2, 5, 5, 5, 6), (4, 4, 6, 6, 1, 1))
    clear_table(game, ("a1", "b1"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    game.state.models["a1"].tokens["damage"] = 7
    _activate(game, "a1")
    game.apply(Action("ability", "a1", option="respite 5"))
    assert game.state.models["a1"].tokens["damage"] == 2


# ------------------------------------------------------------------------------------------- universal abilities
def test_rush_adds_one_move_until_the_end_of_the_activation() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    clear_table(game, ("a1", "b1"))
    put(game, "a1", 4, 4)
    put(game, "b1", 30, 30)
    _activate(game, "a1")
    game.apply(Action("ability", "a1", option="rush 3"))
    game.apply(Action("move", "a1"))
    step = game.state.stack[-1]
    assert step.allow == 6.0
    assert game.why_illegal(Action("move", "a1", point=(4, 10))) == []
    assert game.why_illegal(Action("move", "a1", point=(4, 11)))


def test_onslaught_adds_an_attack_to_melee_attack_actions() -> None:
    game = new_game()
    to_combat(game, (1, 2, 3, 3, 5, 5), (4, 4, 6, 6, 1, 1))
    _duel(game)
    _activate(game, "a4")
    game.apply(Action("ability", "a4", option="onslaught 3"))
    game.apply(Action("attack", "a4", "b3", option="Axe"))
    while game.decision.prompt == "reaction":
        game.apply(Action("no-reaction"))
    assert game.decision.dice is not None and game.decision.dice.n == 4


def test_respite_is_refused_within_one_inch_of_an_enemy() -> None:
    game = new_game()
    to_combat(game, (1, 2, 5, 5, 5, 6), (4, 4, 6, 6, 1, 1))
    _duel(game)
    _activate(game, "a4")
    why = game.why_illegal(Action("ability", "a4", option="respite 5"))
    assert why and why[0][0] == "wyrdcry/ability/respite"


def test_respite_removes_damage_equal_to_its_value() -> None:
    test_the_value_of_an_ability_is_the_face_of_the_dice_spent()


def test_command_activates_a_nearby_friend_right_after() -> None:
    game = new_game()
    to_combat(game, (1, 2, 5, 5, 5, 6), (4, 4, 6, 6, 1, 1))
    clear_table(game, ("a1", "a2", "a3", "b1"))
    put(game, "a1", 4, 4)
    put(game, "a2", 8, 4)
    put(game, "a3", 30, 4)
    put(game, "b1", 30, 30)
    _activate(game, "a1")
    assert game.why_illegal(Action("ability", "a1", "a3", option="command 5"))[0][0] == "wyrdcry/ability/command"
    game.apply(Action("ability", "a1", "a2", option="command 5"))
    game.apply(Action("wait", "a1"))
    assert game.decision.prompt == "command-activation" and game.decision.player == 0
    game.apply(Action("activate", "a2"))
    assert game.state.vars["active"] == "a2"


def test_rampage_gives_a_bonus_attack() -> None:
    test_bonus_actions_come_from_rules_and_no_action_three_times()


def test_rampage_costs_one_defense_until_the_end_of_the_round() -> None:
    from warband.rulesets.wyrdcry.attacks import attack_numbers

    game = new_game()
    to_combat(game)
    _duel(game)
    a, b = game.state.models["a4"], game.state.models["b3"]
    w = a.data["attacks"][0]
    before = attack_numbers(game.state, a, b, w)[1]
    b.flags["rampaged"] = True
    assert attack_numbers(game.state, a, b, w)[1] == before - 1


# ------------------------------------------------------------------------------------------- reactions (26-32)
def _melee_with_reaction_dice(counter: bool) -> tuple:  # type: ignore[type-arg]
    game = new_game()
    deploy(game)
    initiative(game, (5, 5, 6, 6, 1, 1), (1, 2, 3, 4, 4, 4), first="opponent")  # B holds it, A goes first
    _duel(game)
    _activate(game, "a4")
    game.apply(Action("attack", "a4", "b3", option="Axe"))
    return game, game.decision


def test_enemies_may_react_to_an_action_by_spending_reaction_dice() -> None:
    game, d = _melee_with_reaction_dice(True)
    assert d.prompt == "reaction" and d.player == 1
    assert Action("react", "b3", "a4", option="counter") in game.legal_actions()


def test_reactions_are_the_universal_three_or_the_factions() -> None:
    from warband.rulesets.wyrdcry.roster import load_data

    ids = {r.id for r in load_data().universal.reactions}
    assert ids == {"counter", "take-cover", "strike-them-down"}


def test_each_reaction_is_declared_at_its_own_moment_by_the_reacting_player() -> None:
    game, d = _melee_with_reaction_dice(True)
    assert d.prompt == "reaction" and d.player == 1  # before the hit rolls, asked of B
    assert game.state.stack[-2].kind == "hit-rolls"


def test_a_reaction_costs_a_reaction_die() -> None:
    game, _ = _melee_with_reaction_dice(True)
    before = game.state.sides[1].flags["reaction_dice"]
    game.apply(Action("react", "b3", "a4", option="counter"))
    assert game.state.sides[1].flags["reaction_dice"] == before - 1


def test_never_more_than_one_reaction_per_fighter_for_each_enemy_action() -> None:
    game, _ = _melee_with_reaction_dice(True)
    game.apply(Action("react", "b3", "a4", option="counter"))
    assert game.decision.is_chance  # no second reaction of b3 to this attack


def test_counter_hurts_an_attacker_that_misses() -> None:
    game, _ = _melee_with_reaction_dice(True)
    game.apply(Action("react", "b3", "a4", option="counter"))
    game.roll((1, 2, 6))
    assert game.state.models["a4"].token("damage") == 3


def test_strike_them_down_is_asked_when_an_engaged_enemy_retreats() -> None:
    game = new_game()
    deploy(game)
    initiative(game, (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6), first="opponent")
    _duel(game)
    _activate(game, "a4")
    game.apply(Action("retreat", "a4"))
    assert game.decision.prompt == "reaction" and game.decision.player == 1
    assert Action("react", "b3", "a4", option="strike-them-down") in game.legal_actions()


# ------------------------------------------------------------------------------------------- morale phase
def test_a_wavering_warband_takes_panic_tests_and_panic_costs_fight() -> None:
    from warband.rulesets.wyrdcry.attacks import attack_numbers

    game = new_game()
    to_combat(game)
    clear_table(game, ("a1", "a4", "b1", "b3"))
    put(game, "a1", 4, 4)
    put(game, "a4", 30, 4)
    put(game, "b1", 4, 30)
    put(game, "b3", 30, 30)
    game.state.sides[0].flags["wavering"] = True
    for _ in range(60):  # the combat phase: every fighter moves nowhere twice, then the morale phase
        d = game.decision
        if game.state.phase != "combat" or d.is_chance:
            break
        legal = game.legal_actions()
        if d.prompt == "activate":
            game.apply(legal[0])
        elif d.prompt == "destination":
            game.apply(Action("move", d.model, option="stay"))
        else:
            game.apply(next((a for a in legal if a.kind == "end"), None) or next(a for a in legal if a.kind == "move"))
    labels = []
    while (game.decision.is_chance or game.decision.prompt == "withdraw") and game.state.turn == 1:
        if game.decision.prompt == "withdraw":  # half out: the player may withdraw; it carries on
            game.apply(Action("carry-on"))
            continue
        spec = game.decision.dice
        assert spec is not None
        labels.append((spec.label, spec.model))
        game.roll((1 if spec.label == "panic test" else 6,) * spec.n)  # morale passes, panic fails
    assert ("panic test", "a1") in labels and ("panic test", "a4") in labels
    assert not any(lbl == "panic test" and m and m.startswith("b") for lbl, m in labels)
    a4, b3 = game.state.models["a4"], game.state.models["b3"]
    assert int(a4.flags["panicked"]) == 2
    w = a4.data["attacks"][0]
    put(game, "a4", 30, 28.5)
    game.state.turn = 2
    skill = attack_numbers(game.state, a4, b3, w)[0]
    a4.flags.pop("panicked")
    assert attack_numbers(game.state, a4, b3, w)[0] == skill + 1
