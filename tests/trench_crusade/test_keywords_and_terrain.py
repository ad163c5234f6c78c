"""More of the digest through the engine: elevation, Down targets, CRITICAL, CLEAVE, STRONG, LEADER, Bloodbath,
dangerous terrain, jumping a gap, shooting into melee and the Diving Charge (../shared/rules/trench-crusade.md)."""

from __future__ import annotations

from tc import act, box, legal_texts, model, position, rules_of, trooper

from warband.kernel.actions import Action
from warband.kernel.events import DiceRolled

R = "trench-crusade"


def run(game, text):
    events = game.apply(Action.parse(text))
    return events + game.settle()


def rolls(events, start):
    return [e for e in events if isinstance(e, DiceRolled) and e.label.startswith(start)]


def test_elevated_shooter_gets_a_die() -> None:
    """§4: +1 DICE when the shooter is at least 3" higher than the target."""
    tower = box("tower", "platform", 10, 2, 14, 6, height=3.0)
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1", terrain=[tower])
    assert model(g, "a1").z == 3.0
    g.force([1, 1, 1], [1, 1])
    hit = rolls(run(g, "shoot a1 b1 [Bolt Action Rifle]"), "attack")[0]
    assert len(hit.values) == 3 and "+1 DICE" in hit.label


def test_melee_hit_on_down_target_adds_injury_die() -> None:
    """§5/§6: +1 INJURY DICE for a melee hit on a Down target."""
    g = position([trooper()], [trooper()], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    model(g, "b1").flags["down"] = True
    g.force([4, 4], [1, 1, 1])
    inj = rolls(run(g, "fight a1 b1 [Trench Club]"), "injury")[0]
    assert len(inj.values) == 3


def test_critical_keyword_adds_two_injury_dice() -> None:
    """§9 CRITICAL: a critical gives +2 INJURY DICE (instead of +1)."""
    g = position([trooper(weapons=["Sword"])], [trooper()], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([6, 6], [1, 1, 1, 1])
    inj = rolls(run(g, "fight a1 b1 [Sword]"), "injury")[0]
    assert len(inj.values) == 4


def test_cleave_makes_several_melee_attacks() -> None:
    """§9 CLEAVE X: X melee attacks."""
    g = position(
        [trooper(weapons=["War Wolf Claws"], keywords=["STRONG"])],
        [trooper()],
        {"a1": (12, 12), "b1": (12, 13.2)},
        active="a1",
    )
    g.force([1, 1], [1, 1])
    assert len(rolls(run(g, "fight a1 b1 [War Wolf Claws]"), "attack")) == 2


def test_strong_negates_heavy() -> None:
    """§9 STRONG: NEGATE HEAVY, so a STRONG model may move and shoot a HEAVY weapon."""
    g = position(
        [trooper(weapons=["Machine Gun"], keywords=["STRONG"])],
        [trooper()],
        {"a1": (12, 4), "b1": (12, 20)},
        active="a1",
    )
    act(g, "move a1")
    act(g, "to a1 @12,6")
    assert f"{R}/keyword/heavy" not in rules_of(g, "shoot a1 b1 [Machine Gun]")


def test_leader_adds_a_die_to_morale() -> None:
    """§1: +1 DICE on the Morale check while a LEADER is up."""
    g = position([trooper(keywords=["LEADER"]), trooper()], [trooper()], {"a1": (2, 2), "b1": (2, 22)}, to_act=0)
    while g.state.phase == "activation":
        if g.decision.prompt == "activate":
            g.apply(g.legal_actions()[0])
        else:
            g.apply(Action("end", g.state.vars["active"]))
    assert g.decision.dice is not None and g.decision.dice.n == 3 and "morale" in g.decision.dice.label


def test_bloodbath_rolls_three_dice_all_added() -> None:
    """§6: spend 6 Blood markers (3 against a Down target) to roll 3D6 and add all three."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "b1").tokens["blood"] = 6
    g.force([4, 4])
    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    g.roll()
    g.apply(Action.parse("bloodbath b1"))
    assert g.decision.dice is not None and g.decision.dice.n == 3
    g.force([3, 3, 3])
    events = g.roll()
    assert rolls(events, "injury")[0].result == "9: out"
    assert not model(g, "b1").on_table


def test_dangerous_terrain_risky_roll_on_activation() -> None:
    """§7: a Risky roll when a model activates in dangerous terrain; failure -> Injury Roll, activation ends."""
    fire = box("fire", "dangerous", 10, 2, 14, 6)
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 20)}, to_act=0, terrain=[fire])
    g.force([1, 1], [1, 2])
    events = run(g, "activate a1")
    assert rolls(events, "dangerous") and rolls(events, "injury")
    assert g.decision.prompt == "activate" and g.decision.player == 1


def test_jumping_a_gap_needs_a_risky_roll() -> None:
    """§7: a gap of at most half the Movement may be jumped with a Risky roll; too wide a gap is refused."""
    left = box("left", "platform", 2, 2, 8, 8, height=3.0)
    right = box("right", "platform", 10, 2, 16, 8, height=3.0)
    g = position([trooper()], [trooper()], {"a1": (7, 5), "b1": (12, 20)}, active="a1", terrain=[left, right])
    act(g, "move a1")
    g.apply(Action.parse("to a1 @11,5"))
    assert g.decision.is_chance and "jump" in g.decision.dice.label
    g.force([5, 5])
    g.roll()
    assert (model(g, "a1").x, model(g, "a1").z) == (11, 3.0)
    far = box("far", "platform", 12, 2, 18, 8, height=3.0)
    g2 = position([trooper()], [trooper()], {"a1": (7, 5), "b1": (12, 20)}, active="a1", terrain=[left, far])
    act(g2, "move a1")
    assert f"{R}/move/jump-too-far" in rules_of(g2, "to a1 @12.6,5")


def test_shooting_into_melee_may_hit_the_friend() -> None:
    """§4: a target within 1" of the shooter's friend: on a D6 of 1-3 the shot must target the friend."""
    g = position([trooper(), trooper()], [trooper()], {"a1": (12, 4), "a2": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([2], [4, 4], [1, 1])
    events = run(g, "shoot a1 b1 [Bolt Action Rifle]")
    assert rolls(events, "shooting into melee")[0].result.startswith("the shot must target a2")
    assert rolls(events, "injury")[0].model == "a2"


def test_diving_charge_success_gives_a_die() -> None:
    """§7: jump down at least 3" in a charge and land within 1" of the target, then a Risky roll; success gives
    +1 DICE on the next melee attack."""
    tower = box("tower", "platform", 10, 6, 14, 10, height=4.0)
    g = position([trooper()], [trooper()], {"a1": (12, 9), "b1": (12, 12)}, active="a1", terrain=[tower])
    g.force([6], [5, 5])
    events = run(g, "charge a1 b1")
    events += run(g, str(g.legal_actions()[0]))  # the engine's best end spot
    assert rolls(events, "diving charge")
    assert model(g, "a1").flags.get("dive") is True and model(g, "a1").z == 0.0
    g.force([1, 1, 1], [1, 1])
    hit = rolls(run(g, "fight a1 b1 [Trench Club]"), "attack")[0]
    assert len(hit.values) == 3 and "+1 DICE" in hit.label
    assert legal_texts(g)
