"""The named abilities of the Heretic Legion list (../shared/data/trench-crusade/keywords.yaml), played from the
player's side with catalogue models: forced dice, fixed positions, the outcome asserted. Each ability's effects
are data (data/modelled.yaml); abilities.py plays them by kind."""

from __future__ import annotations

from tc import act, box, legal_texts, model, position, rolls, rules_of, run

from warband.kernel.engine import Game
from warband.kernel.events import Note

R = "trench-crusade"
HL = ("Heretic Legion", "Heretic Legion")
PRIEST = {"model": "Heretic Priest"}  # the list's leader (off the table unless placed)
TROOPER = {"model": "Heretic Trooper", "equipment": ["Bolt-Action Rifle", "Trench Club"]}


def hl(
    a: list[dict[str, object]], b: list[dict[str, object]], at: dict[str, tuple[float, float]], **kw: object
) -> Game:
    return position([*a, PRIEST], [*b, PRIEST], at, factions=HL, **kw)  # type: ignore[arg-type]


def test_stealth_generator_costs_shooters_a_die() -> None:
    """Stealth Generator (Death Commando): ranged attacks against it take -1 DICE; a plain trooper's do not."""
    for target, dice in ((TROOPER, 2), ({"model": "Death Commando"}, 3)):
        g = hl([TROOPER], [target], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
        g.force([1] * dice)
        assert len(rolls(run(g, "shoot a1 b1 [Bolt-Action Rifle]"), "attack")[0].values) == dice


def test_unholy_hymns_cost_nearby_enemies_a_die_on_every_action() -> None:
    """Unholy Hymns (Heretic Chorister): enemies within 8" take -1 DICE on all their actions (a shot, a Dash)."""
    g = hl(
        [TROOPER], [TROOPER, {"model": "Heretic Chorister"}], {"a1": (12, 4), "b1": (12, 12), "b2": (8, 8)}, active="a1"
    )
    g.force([1, 1, 1])
    assert len(rolls(run(g, "shoot a1 b1 [Bolt-Action Rifle]"), "attack")[0].values) == 3
    g = hl(
        [TROOPER], [TROOPER, {"model": "Heretic Chorister"}], {"a1": (12, 4), "b1": (12, 20), "b2": (8, 8)}, active="a1"
    )
    g.force([4, 4, 4])
    assert len(rolls(run(g, "dash a1"), "dash")[0].values) == 3
    g = hl(
        [TROOPER],
        [TROOPER, {"model": "Heretic Chorister"}],
        {"a1": (12, 4), "b1": (12, 20), "b2": (30, 30)},
        active="a1",
    )
    g.force([4, 4])
    assert len(rolls(run(g, "dash a1"), "dash")[0].values) == 2  # the Chorister far away: no hymn


def test_loping_dash_dashes_at_two_more_dice() -> None:
    """Loping Dash (War Wolf): its Dash roll has +2 DICE (four dice, two highest kept)."""
    g = hl([{"model": "War Wolf Assault Beast"}], [TROOPER], {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    g.force([1, 1, 4, 4])
    dash = rolls(run(g, "dash a1"), "dash")[0]
    assert len(dash.values) == 4 and dash.result.startswith("8")


def test_loping_dash_ignores_difficult_terrain() -> None:
    """Loping Dash: difficult terrain costs the War Wolf nothing extra; a trooper pays double."""
    mud = box("mud", "difficult", 0, 6, 24, 12)
    for who, refused in (({"model": "War Wolf Assault Beast"}, False), (TROOPER, True)):
        g = hl([who], [TROOPER], {"a1": (12, 4), "b1": (2, 22)}, active="a1", terrain=[mud])
        act(g, "move a1")
        dest = "to a1 @12,11" if refused else "to a1 @12,11.5"
        assert (f"{R}/move/too-far" in rules_of(g, dest)) is refused


def test_slow_halves_the_dash() -> None:
    """Slow (Scripture Guardian): its Dash moves 3", not its full 6"."""
    g = hl([{"model": "Scripture Guardian"}], [TROOPER], {"a1": (12, 4), "b1": (12, 22)}, active="a1")
    g.force([4, 4])
    act(g, "dash a1")
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,8.5")
    assert rules_of(g, "to a1 @12,6.8") == []


def test_artificial_life_ignores_fear_and_gas() -> None:
    """Artificial Life (Artillery Witch): no -1 DICE in melee against FEAR; GAS injures it at -1 DICE and adds
    no extra Blood marker."""
    witch = {"model": "Artillery Witch", "equipment": ["Trench Club"]}
    g = hl([witch], [{"model": "War Wolf Assault Beast"}], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    g.force([1, 1, 1], [1, 1])  # its Melee -1 only: no -1 for the War Wolf's FEAR
    assert len(rolls(run(g, "fight a1 b1 [Trench Club]"), "attack")[0].values) == 3
    gas = {"model": "Heretic Trooper", "equipment": ["Bolt-Action Rifle", "Gas Grenades"]}
    g = hl([gas], [witch], {"a1": (12, 4), "b1": (12, 9)}, active="a1")
    g.force([4, 4], [3, 3, 1, 1])  # the grenades' own -1 injury DICE and Artificial Life's -1: four dice
    inj = rolls(run(g, "shoot a1 b1 [Gas Grenades]"), "injury")[0]
    assert len(inj.values) == 4 and model(g, "b1").token("blood") == 1  # a minor hit, no GAS Blood


def test_levitate_climbs_without_a_roll_and_never_falls() -> None:
    """Levitate (Artillery Witch): it climbs with no Risky roll and takes no falling injury."""
    tower = box("tower", "platform", 10, 6, 14, 10, height=4.0)
    g = hl([{"model": "Artillery Witch"}], [TROOPER], {"a1": (12, 8), "b1": (2, 22)}, active="a1", terrain=[tower])
    assert model(g, "a1").z == 4.0
    act(g, "move a1")
    events = run(g, "to a1 @12,12")
    assert model(g, "a1").z == 0.0 and not rolls(events, "injury")


def test_barbed_embrace_holds_enemies_in_melee() -> None:
    """Barbed Embrace (Goetic Warlock): an enemy within 1" of it cannot Retreat."""
    g = hl([TROOPER], [{"model": "Goetic Warlock"}], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1")
    assert f"{R}/ability/no-retreat" in rules_of(g, "retreat a1")
    assert "retreat a1" not in legal_texts(g)


def test_dark_blessing_blesses_the_priest_when_a_wretched_falls() -> None:
    """Dark Blessing (Wretched): taken Out of Action, one of its HERETIC ELITE models (the Priest) gains a
    Blessing marker."""
    wretched = {"model": "Wretched", "equipment": ["Trench Club"]}
    g = position(
        [TROOPER, PRIEST],
        [wretched, TROOPER, TROOPER, PRIEST],
        {"a1": (12, 4), "b1": (12, 12), "b4": (2, 22)},
        active="a1",
        factions=HL,
    )
    g.force([4, 4], [6, 6])
    run(g, "shoot a1 b1 [Bolt-Action Rifle]")
    assert not model(g, "b1").on_table and model(g, "b4").token("blessing") == 1


def test_law_of_hell_takes_the_wretched_away_after_an_elite_kill() -> None:
    """Law of Hell (Wretched): when it takes an enemy ELITE Out of Action it leaves the battle (no casualty)."""
    wretched = {"model": "Wretched", "equipment": ["Trench Club"]}
    g = position(
        [wretched, TROOPER, TROOPER, PRIEST],
        [{"model": "Heretic Chorister"}, PRIEST],
        {"a1": (12, 12), "b1": (12, 13.5)},
        active="a1",
        factions=HL,
    )
    g.force([4, 4, 4, 4, 4], [6, 6])  # -3 DICE (its Melee, the Chorister's FEAR): five dice, two lowest kept
    run(g, "fight a1 b1 [Trench Club]")
    assert not model(g, "b1").on_table and not model(g, "a1").on_table and model(g, "a1").flags.get("left")


# ------------------------------------------------------------------------------------------- ability actions
def test_hide_keeps_the_death_commando_from_being_shot_until_it_moves() -> None:
    """Hide (Death Commando): a Risky action at +1 DICE while touching sight-blocking terrain; then it cannot be
    shot or charged until it moves, shoots or an enemy comes within 1.5"."""
    wall = box("wall", "blocking", 0, 9, 6, 10, height=3.0, blocks_los=True)
    commando = {"model": "Death Commando", "equipment": ["Silenced Pistol", "Sword / Axe"]}
    g = hl([commando], [TROOPER], {"a1": (12, 8.5), "b1": (12, 20)}, active="a1", terrain=[wall])
    assert f"{R}/ability/hide" in rules_of(g, "ability a1 [Hide]")  # not touching the wall
    g = hl([commando], [TROOPER], {"a1": (6.3, 9.5), "b1": (12, 14)}, active="a1", terrain=[wall])
    g.force([4, 4, 4])
    run(g, "ability a1 [Hide]")
    act(g, "end a1")
    act(g, "activate b1")
    assert f"{R}/ability/hide" in rules_of(g, "shoot b1 a1 [Bolt-Action Rifle]")
    assert f"{R}/ability/hide" in rules_of(g, "charge b1 a1")
    act(g, "move b1")
    act(g, "to b1 @8,11.2")  # 1.3" from the hidden model: within 1.5", so it is found
    assert model(g, "a1").flags.get("hidden") is None


def test_on_my_command_picks_the_enemys_next_model() -> None:
    """On My Command! (Lieutenant): its activation ends and the opponent must activate the model it chose."""
    lieutenant = {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle"]}
    yeoman = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}
    g = position(
        [lieutenant],
        [yeoman, yeoman, lieutenant],
        {"a1": (12, 4), "b1": (6, 20), "b2": (18, 20)},
        active="a1",
        factions=("New Antioch", "New Antioch"),
    )
    run(g, "ability a1 b2 [On My Command!]")
    assert model(g, "a1").flags.get("activated")
    assert g.decision.player == 1 and legal_texts(g) == ["activate b2"]
    assert f"{R}/ability/on_my_command" in rules_of(g, "activate b1")


def test_puppet_master_moves_an_enemy_in_a_straight_line() -> None:
    """Puppet Master (Heretic Priest): a Risky action: any model within 12" moves up to D6" in one direction,
    where the Priest's side chooses."""
    g = position([PRIEST, TROOPER], [TROOPER, PRIEST], {"a1": (12, 4), "b1": (12, 12)}, active="a1", factions=HL)
    g.force([4, 4])
    g.force([3])
    run(g, "ability a1 b1 [Puppet Master]")
    assert g.decision.prompt == "dest" and g.decision.player == 0 and g.decision.model == "b1"
    assert f"{R}/move/too-far" in rules_of(g, "to b1 @12,16")
    act(g, "to b1 @12,14.5")
    assert (model(g, "b1").x, model(g, "b1").y) == (12, 14.5)


SIN_EATER = {"model": "Sin Eater"}


def test_devour_the_guilty_swallows_a_small_enemy_that_bleeds_and_strikes_from_inside() -> None:
    """Devour the Guilty (Sin Eater): a Risky action against a model on 40mm or less within 1"; the victim leaves
    the table (a Morale casualty), bleeds each time the Sin Eater activates and strikes it at -3 DICE from
    inside. A model on a bigger base, or beyond 1", is refused by the rule."""
    g = hl([SIN_EATER], [TROOPER, SIN_EATER], {"a1": (12, 10), "b1": (12, 11.8), "b2": (14.5, 10)}, active="a1")
    assert f"{R}/ability/devour_the_guilty" in rules_of(g, "ability a1 b2 [Devour the Guilty]")  # a 50mm base
    far = hl([SIN_EATER], [TROOPER], {"a1": (12, 10), "b1": (12, 14)}, active="a1")
    assert f"{R}/ability/devour_the_guilty" in rules_of(far, "ability a1 b1 [Devour the Guilty]")
    g.force([4, 4])
    events = run(g, "ability a1 b1 [Devour the Guilty]")
    assert rolls(events, "devour_the_guilty")[0].label == "devour_the_guilty (+0 DICE, risky)"
    b1 = model(g, "b1")
    assert not b1.on_table and b1.flags["swallowed_by"] == "a1"
    assert f"{R}/ability/devour_the_guilty" in rules_of(g, "ability a1 b2 [Devour the Guilty]")  # belly full
    act(g, "end a1")
    # the Sin Eater's next activation: b1 bleeds, then strikes at -3 DICE (melee 0, -1 FEAR, -3): 4 dice, lowest kept
    g.state.models["a1"].flags.pop("activated", None)
    g.state.vars["next_side"] = 0
    g.force([1] * 12)
    events = run(g, "activate a1")
    assert b1.token("blood") == 1
    strike = [e for e in events if isinstance(e, Note) and e.text.startswith("b1 attacks a1")]
    assert strike and "-3 striking from inside its swallower" in strike[0].text


def test_devour_the_guilty_takes_a_friend_at_one_more_die_without_risk() -> None:
    """Devour the Guilty against a friend: +1 DICE and not Risky."""
    g = hl([SIN_EATER, TROOPER], [TROOPER], {"a1": (12, 10), "a2": (12, 11.8), "b1": (12, 20)}, active="a1")
    g.force([1, 1, 6])
    events = run(g, "ability a1 a2 [Devour the Guilty]")
    assert rolls(events, "devour_the_guilty")[0].label == "devour_the_guilty (+1 DICE)"
    assert not model(g, "a2").on_table


def test_vomit_spits_the_victim_out_down_within_an_inch() -> None:
    """Vomit (Sin Eater): an action at +4 DICE that places the swallowed model Down within 1"; with nothing
    swallowed the rule refuses it. A Sin Eater taken out lets its victim fall out Down."""
    g = hl([SIN_EATER], [TROOPER], {"a1": (12, 10), "b1": (12, 11.8)}, active="a1")
    assert f"{R}/ability/vomit" in rules_of(g, "ability a1 [Vomit]")
    g.force([4, 4])
    run(g, "ability a1 b1 [Devour the Guilty]")
    g.state.vars["acts"] = []
    g.force([4] * 6)
    events = run(g, "ability a1 [Vomit]")
    assert rolls(events, "vomit")[0].label == "vomit (+4 DICE)"
    a1, b1 = model(g, "a1"), model(g, "b1")
    assert b1.on_table and b1.flags.get("down") and not a1.flags.get("swallowed")
    assert ((a1.x - b1.x) ** 2 + (a1.y - b1.y) ** 2) ** 0.5 - a1.radius - b1.radius <= 1.0 + 1e-6
