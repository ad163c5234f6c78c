"""Seed 000 §Success Rolls and §+DICE and -DICE through the engine, and the attack, injury, marker, morale and
keyword rules of the digest (../shared/rules/trench-crusade.md §1, §4-§9)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tc import RS, act, legal_texts, model, position, rules_of, trooper

from warband.kernel.actions import Action
from warband.kernel.events import DiceRolled

R = "trench-crusade"


def shoot(game, text="shoot a1 b1 [Bolt Action Rifle]"):
    from warband.kernel.actions import Action

    events = game.apply(Action.parse(text))
    events += game.settle()
    return events


def rolled(events, label_start):
    return [e for e in events if isinstance(e, DiceRolled) and e.label.startswith(label_start)]


# --- Success Rolls ---------------------------------------------------------------------------------------
def test_success_roll_is_two_dice_summed_against_the_table() -> None:
    """'To take a Success Roll, roll two dice... add them together, and consult the table: 2-6 Failure, 7-11
    Success, 12 Critical Success.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    assert g.decision.prompt == "action"
    g.force([3, 3])
    ev = shoot(g)
    hit = rolled(ev, "attack")[0]
    assert hit.values == (3, 3) and hit.result == "6: failure"
    assert not rolled(ev, "injury")
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([3, 4], [1, 1])
    ev = shoot(g)
    assert rolled(ev, "attack")[0].result == "7: success"
    assert rolled(ev, "injury")[0].values == (1, 1)


def test_critical_adds_an_injury_die() -> None:
    """'12 Critical Success. Add +1 Injury Dice to Ranged or Melee Attacks if you roll a Critical Success.'"""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([6, 6], [1, 2, 3])
    ev = shoot(g)
    inj = rolled(ev, "injury")[0]
    assert len(inj.values) == 3 and inj.result.startswith("5:")  # keeps the two highest: 2 + 3


def test_plus_dice_roll_more_and_keep_two_highest() -> None:
    """'For each +DICE, add 1 dice to the Success Roll. Then roll all the dice and pick the 2 highest rolls.'"""
    g = position([trooper(ranged=2)], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([1, 5, 2, 6], [1, 1])
    hit = rolled(shoot(g), "attack")[0]
    assert len(hit.values) == 4 and hit.result == "11: success"


def test_minus_dice_roll_more_and_keep_two_lowest() -> None:
    """'For each -DICE, add 1 dice to the Success Roll and pick the 2 lowest numbers.'"""
    g = position([trooper(ranged=-1)], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([6, 5, 2])
    hit = rolled(shoot(g), "attack")[0]
    assert len(hit.values) == 3 and hit.result == "7: success"


def test_plus_and_minus_dice_cancel_in_pairs() -> None:
    """'If both +DICE and -DICE are added... remove pairs until only one type is remaining.' +2 and -1 -> +1:
    the target in cover (-1 DICE) against a +2 shooter."""
    from tc import box

    wall = box("wall", "obstacle", 8, 10.9, 16, 11.2, height=1.0, cover=True)
    g = position([trooper(ranged=2)], [trooper()], {"a1": (12, 4), "b1": (12, 11.8)}, active="a1", terrain=[wall])
    g.force([1, 6, 6], [1, 1, 1])
    hit = rolled(shoot(g), "attack")[0]
    assert len(hit.values) == 3 and hit.result == "12: critical"


def test_long_range_costs_a_die() -> None:
    g = position([trooper()], [trooper()], {"a1": (12, 2), "b1": (12, 18)}, active="a1")
    g.force([6, 6, 1])
    hit = rolled(shoot(g), "attack")[0]
    assert len(hit.values) == 3 and hit.result == "7: success"


# --- injuries and markers --------------------------------------------------------------------------------
@pytest.mark.parametrize("dice,expect", [((1, 1), "none"), ((3, 3), "minor"), ((4, 4), "down"), ((5, 4), "out")])
def test_injury_table(dice, expect) -> None:
    """Digest §6: 1 or less no effect, 2-6 minor hit (+1 Blood), 7-8 Down (+1 Blood), 9+ Out of Action. A
    'none' total needs a negative modifier: Standard Armour gives -1."""
    extra = {"armour_item": "Standard Armour"} if expect == "none" else {}
    g = position([trooper()], [trooper(**extra)], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([4, 4], dice)
    shoot(g)
    b1 = model(g, "b1")
    if expect == "none":
        assert b1.on_table and b1.token("blood") == 0
    elif expect == "minor":
        assert b1.token("blood") == 1 and not b1.flags.get("down")
    elif expect == "down":
        assert b1.token("blood") == 1 and b1.flags["down"] is True
    else:
        assert not b1.on_table and b1.flags["out"] is True


def test_tough_turns_first_out_of_action_into_down() -> None:
    g = position([trooper()], [trooper(keywords=["TOUGH"])], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([4, 4], [6, 6])
    shoot(g)
    assert model(g, "b1").on_table and model(g, "b1").flags["down"]


def test_opponent_spends_blood_for_minus_dice() -> None:
    """Digest §6: the opponent spends a model's Blood markers for -1 DICE on its Success Rolls."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "a1").tokens["blood"] = 2
    from warband.kernel.actions import Action

    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    d = g.decision
    assert d.prompt == "spend-hit" and d.player == 1
    assert legal_texts(g) == ["spend a1 [0]", "spend a1 [1]", "spend a1 [2]"]
    g.apply(Action.parse("spend a1 [2]"))
    assert g.decision.dice is not None and g.decision.dice.n == 4
    assert model(g, "a1").token("blood") == 0


def test_down_model_stands_with_half_movement() -> None:
    """Digest §6 Down: it stands at its next activation with Movement halved for that activation."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (2, 22)}, to_act=0)
    model(g, "a1").flags["down"] = True
    act(g, "activate a1")
    assert not model(g, "a1").flags.get("down")
    act(g, "move a1")
    assert f"{R}/move/too-far" in rules_of(g, "to a1 @12,7.5")
    assert rules_of(g, "to a1 @12,7") == []


def test_blood_markers_capped_at_six() -> None:
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "b1").tokens["blood"] = 6
    g.force([4, 4], [3, 3])
    from warband.kernel.actions import Action

    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    g.roll()
    assert g.decision.prompt == "spend-injury" and g.decision.player == 0
    assert "bloodbath b1" in legal_texts(g)
    g.apply(Action.parse("spend b1 [0]"))
    g.roll()
    assert model(g, "b1").token("blood") == 6


# --- keywords --------------------------------------------------------------------------------------------
def test_heavy_cannot_shoot_after_moving() -> None:
    g = position([trooper(weapons=["Machine Gun"])], [trooper()], {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @12,6")
    assert f"{R}/keyword/heavy" in rules_of(g, "shoot a1 b1 [Machine Gun]")


def test_heavy_no_shooting_and_moving_in_the_same_activation_in_either_order() -> None:
    """Digest §9 HEAVY: 'cannot shoot and move in the same activation': after a HEAVY shot no Move, Dash or
    Charge either (a Punt Gun: HEAVY without RELOAD)."""
    gun = [trooper(weapons=["Punt Gun", "Trench Club"], keywords=["MEDIC"]), trooper()]
    g = position(gun, [trooper()], {"a1": (12, 4), "a2": (13, 4), "b1": (12, 12)}, active="a1")
    model(g, "a2").tokens["blood"] = 1  # a MEDIC's Tend Wounds keeps the activation open after the shot
    g.force([1, 1, 1])  # a miss
    act(g, "shoot a1 b1 [Punt Gun]")
    for text in ("move a1", "dash a1", "charge a1 b1"):
        assert f"{R}/keyword/heavy" in rules_of(g, text), text
    assert legal_texts(g) == ["tend a1 a2", "end a1"]
    g = position(gun, [trooper()], {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @12,6")
    assert f"{R}/keyword/heavy" in rules_of(g, "shoot a1 b1 [Punt Gun]")


def test_reload_ends_activation_and_automatic_makes_several_attacks() -> None:
    g = position(
        [trooper(weapons=["Machine Gun"])],
        [trooper(), trooper()],
        {"a1": (12, 4), "b1": (12, 14), "b2": (14, 14)},
        active="a1",
    )
    g.force([1, 1], [1, 1], [1, 1])
    events = shoot(g, "shoot a1 b1 [Machine Gun]")
    attacks = rolled(events, "attack")
    if g.decision.prompt == "auto-target":  # two targets in reach: the shooter picks
        pass
    assert len(attacks) >= 1
    while g.decision.prompt == "auto-target":
        g.apply(g.legal_actions()[0])
        g.settle()
    assert g.decision.prompt == "activate" and g.decision.player == 1  # RELOAD ended the activation


def test_fear_costs_the_attacker_a_die_in_melee() -> None:
    g = position([trooper()], [trooper(keywords=["FEAR"])], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    g.force([6, 6, 1])
    ev = shoot(g, "fight a1 b1 [Trench Club]")
    assert rolled(ev, "attack")[0].result == "7: success"


def test_cleave_and_offhand() -> None:
    g = position(
        [trooper(weapons=["Trench Club", "Trench Knife"])], [trooper()], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1"
    )
    g.force([1, 1], [1, 1, 1, 1])
    ev = shoot(g, "fight a1 b1 [Trench Club]")
    hits = rolled(ev, "attack")
    # the club (+0), then the knife as the off-hand weapon: -1 DICE (knife) -1 DICE (off-hand) = 4 dice
    assert [len(h.values) for h in hits] == [2, 4]


def test_morale_check_at_half_down_or_out() -> None:
    """Digest §1: a Morale check when at least half the warband (rounded up) is Down or Out of Action; a failure
    makes it Shaken (or it may flee); a second failure means it flees and loses."""
    g = position([trooper(), trooper()], [trooper(), trooper()], {"a1": (2, 2), "b1": (2, 22), "b2": (6, 22)}, to_act=0)
    # a2 is out of action: 1 of 2 = half -> side A tests in the Morale phase
    from warband.kernel.actions import Action

    while g.state.phase == "activation":
        if g.decision.prompt == "activate":
            g.apply(g.legal_actions()[0])
        else:
            g.apply(Action("end", g.state.vars["active"]))
    assert g.decision.is_chance and "morale" in g.decision.dice.label
    g.force([1, 1])
    g.roll()
    assert g.decision.prompt == "morale-fail"
    act(g, "stand [shaken]")
    assert g.state.sides[0].flags["shaken"] is True


def test_dice_shown_in_plus_minus_format() -> None:
    """'These are shown in the format "+1 DICE" or "-1 DICE".'"""
    g = position([trooper(ranged=1)], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([1, 1, 1])
    assert "(+1 DICE" in rolled(shoot(g), "attack")[0].label
    g = position([trooper(ranged=-1)], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    g.force([1, 1, 1])
    assert "(-1 DICE" in rolled(shoot(g), "attack")[0].label


# --- odds before an action -------------------------------------------------------------------------------
def _resolution(g, text: str) -> dict[str, Fraction]:
    """The exact odds of the attack ``text`` as the game resolves it: every hit roll, then every Injury Roll each
    distinct pending injury leads to, played on clones with forced dice."""
    from itertools import product

    start = g.clone()
    start.apply(Action.parse(text))
    target = Action.parse(text).target
    d = start.decision
    out = {"hit": Fraction(0), "critical": Fraction(0), "down": Fraction(0), "out": Fraction(0)}
    pending: dict[object, tuple[Fraction, object]] = {}
    hit_rolls = list(product(range(1, 7), repeat=d.dice.n)) if d.kind == "chance" and d.prompt != "injury" else [()]
    for vals in hit_rolls:
        c = start.clone()
        if vals:
            c.force(vals)
            result = next(e for e in c.roll() if isinstance(e, DiceRolled)).result
        else:
            result = "success"  # FLAMETHROWER: no roll
        w = Fraction(1, len(hit_rolls))
        out["hit"] += w if not result.endswith("failure") else 0
        out["critical"] += w if result.endswith("critical") else 0
        if c.decision.kind == "chance" and c.decision.prompt == "injury":
            key = c.state.stack[-1]
            pending[key] = (pending.get(key, (Fraction(0), c))[0] + w, c)
    for w, c in pending.values():
        n = c.decision.dice.n
        for vals in product(range(1, 7), repeat=n):
            cc = c.clone()
            cc.force(vals)
            cc.roll()
            v = cc.state.models[target]
            p = w / 6**n
            if not v.on_table:
                out["out"] += p
            elif v.flags.get("down") and (not c.state.models[target].flags.get("down") or v.token("blood") > 1):
                out["down"] += p
    return out


@pytest.mark.parametrize(
    "case",
    ["plain", "tough", "down-target", "armour", "critical-weapon", "ignore-armour", "shotgun-long", "deadly"],
)
def test_odds_before_an_action_are_the_games_odds(case: str) -> None:
    """Seed 000 §Success Rolls ('Critical Success. Add +1 Injury Dice') and digest §6: the odds the menu shows
    for an attack equal the probabilities of its actual resolution, with each modifier: TOUGH, a critical's
    extra injury die, a Down target, armour, the weapon's keywords."""
    weapon = {
        "critical-weapon": "Sword",
        "ignore-armour": "Anti-Tank Hammer",
        "deadly": "Catherine Wheel",
        "shotgun-long": "Shotgun",
    }.get(case, "Trench Club")
    target = trooper(
        keywords=["TOUGH"] if case == "tough" else [],
        armour=-2 if case in ("armour", "ignore-armour") else 0,
    )
    shooting = case == "shotgun-long"
    at = {"a1": (12, 4), "b1": (12, 13 if shooting else 5.2)}
    g = position([trooper(weapons=[weapon])], [target], at, active="a1")
    if case == "down-target":
        model(g, "b1").flags["down"] = True
    mode = "ranged" if shooting else "melee"
    text = f"{'shoot' if shooting else 'fight'} a1 b1 [{weapon}]"
    m, t = model(g, "a1"), model(g, "b1")
    real = _resolution(g, text)
    said = RS.explain(g.state, Action.parse(text))
    for key, words in (("hit", "hit"), ("critical", "critical"), ("down", "Down"), ("out", "Out of Action")):
        assert f"{words} {float(real[key]) * 100:.1f}%" in said, (key, said)
    from warband.rulesets.trench_crusade.attacks import attack_preview

    shown = attack_preview(g.state, m, t, next(w for w in m.data["weapons"] if w["name"] == weapon), mode)
    assert {k: shown[k] for k in real} == real
