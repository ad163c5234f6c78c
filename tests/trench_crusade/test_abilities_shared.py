"""Named abilities the New Antioch and Trench Pilgrims lists share (../shared/data/trench-crusade/keywords.yaml),
and the Medi-Kit they use, played from the player's side with catalogue models."""

from __future__ import annotations

from typing import Any

from tc import RS, book_roster, box, model, position, rolls, roster, rules_of, run, scenario

from warband.kernel.actions import Action
from warband.kernel.engine import Game

R = "trench-crusade"
NA, TP = "New Antioch", "Trench Pilgrims"
LIEUTENANT = {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle"]}
YEOMAN = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Trench Club"]}
KIT_YEOMAN = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Medi-Kit"]}


def legal_options(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def _pair(first: dict[str, Any], second: dict[str, Any], gap_y: float = 1.5, faction: str = NA) -> Game:
    """``a1`` and its friend ``a2`` (``gap_y`` inches apart, centre to centre), a leader each side far away."""
    leader = LIEUTENANT if faction == NA else {"model": "War Prophet"}
    return position(
        [first, second, leader],
        [leader],
        {"a1": (12, 4), "a2": (12, 4 + gap_y), "b1": (12, 22)},
        active="a1",
        factions=(faction, faction),
    )


def test_medi_kit_removes_a_blood_marker_from_a_friend_within_an_inch() -> None:
    """Medi-Kit: a Risky action on a friend within 1" (or the bearer): it loses one Blood marker."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").tokens["blood"] = 2
    g.force([4, 4])  # a Yeoman's own two dice: 8, a success
    events = run(g, "ability a1 a2 [Medi-Kit]")
    assert len(rolls(events, "medi_kit")[0].values) == 2
    assert model(g, "a2").token("blood") == 1


def test_medi_kit_stands_a_down_friend_up() -> None:
    """Medi-Kit: a Down friend stands up (ours: rather than losing a Blood marker)."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").flags["down"] = True
    model(g, "a2").tokens["blood"] = 1
    g.force([4, 4])
    run(g, "ability a1 a2 [Medi-Kit]")
    assert not model(g, "a2").flags.get("down") and model(g, "a2").token("blood") == 1


def test_medi_kit_failed_roll_is_risky() -> None:
    """Medi-Kit: a failure heals nothing and (Risky) ends the bearer's activation."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").tokens["blood"] = 1
    g.force([1, 2])
    run(g, "ability a1 a2 [Medi-Kit]")
    assert model(g, "a2").token("blood") == 1 and g.state.vars.get("active") != "a1"


def test_medi_kit_reaches_no_friend_beyond_an_inch() -> None:
    """Medi-Kit: a friend 4 inches away is refused, naming the Medi-Kit's rule; a model without one has none."""
    g = _pair(KIT_YEOMAN, YEOMAN, gap_y=4)
    model(g, "a2").tokens["blood"] = 1
    assert rules_of(g, "ability a1 a2 [Medi-Kit]") == [f"{R}/ability/medi_kit"]
    g2 = _pair(YEOMAN, YEOMAN)
    assert rules_of(g2, "ability a1 a2 [Medi-Kit]") == [f"{R}/ability/unknown"]


def test_expert_medic_rolls_the_medi_kit_at_plus_one_dice() -> None:
    """Expert Medic (Combat Medic of New Antioch and of the Trench Pilgrims): +1 DICE on its Medi-Kit's roll."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    for medic, faction, friend in (("Combat Medic", NA, YEOMAN), ("Combat Medic (Pilgrim)", TP, pilgrim)):
        g = _pair({"model": medic}, friend, faction=faction)  # its Medi-Kit is fixed kit
        model(g, "a2").tokens["blood"] = 1
        g.force([1, 4, 4])  # three dice, the two highest kept: 8
        events = run(g, "ability a1 a2 [Medi-Kit]")
        assert len(rolls(events, "medi_kit")[0].values) == 3, medic
        assert model(g, "a2").token("blood") == 0, medic


def _observer(faction: str) -> Game:
    """An Observer (a mercenary of both lists) that has just activated, a friend beside it."""
    friend = YEOMAN if faction == NA else {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    return _pair({"model": "Observer"}, friend, gap_y=6, faction=faction)


def test_eye_of_god_rerolls_a_failed_action() -> None:
    """Eye of God (Observer, New Antioch and Trench Pilgrims): a failed Dash roll is rolled again and the re-roll
    decides (no 1 on it: it stays up)."""
    for faction in (NA, TP):
        g = _observer(faction)
        g.force([2, 3], [4, 5])  # 5: a failure; the re-roll 9: a success
        dash = rolls(run(g, "dash a1"), "dash")
        assert [r.values for r in dash] == [(2, 3), (4, 5)], faction
        assert not model(g, "a1").flags.get("down") and g.state.vars.get("active") == "a1"


def test_eye_of_god_a_one_on_the_reroll_knocks_it_down() -> None:
    """Eye of God: any 1 on the re-roll knocks the Observer Down and ends its activation."""
    g = _observer(NA)
    g.force([2, 3], [1, 6])
    dash = rolls(run(g, "dash a1"), "dash")
    assert len(dash) == 2 and model(g, "a1").flags.get("down")
    assert g.state.vars.get("active") != "a1" and (model(g, "a1").x, model(g, "a1").y) == (12, 4)  # no Dash


def test_eye_of_god_rerolls_only_a_failure_and_only_once() -> None:
    """Eye of God: a success is not rolled again; a failed re-roll is not re-rolled again; a Yeoman has none."""
    g = _observer(NA)
    g.force([4, 5])
    assert len(rolls(run(g, "dash a1"), "dash")) == 1
    g2 = _observer(NA)
    g2.force([2, 3], [2, 2])
    assert len(rolls(run(g2, "dash a1"), "dash")) == 2
    g3 = _pair(YEOMAN, YEOMAN, gap_y=6)
    g3.force([2, 3])
    assert len(rolls(run(g3, "dash a1"), "dash")) == 1


MONK = {"model": "Mendelist Ammo Monk"}


def _blessed_shot(gift: str | None, faction: str = NA) -> tuple[Game, list[Any]]:
    """The Monk blesses the Yeoman beside it (``gift``; None: no action), the enemy Lieutenant 6" off passes its
    activation, then the Yeoman shoots it with its rifle: (the game, the events of the shot)."""
    friend = YEOMAN if faction == NA else {"model": "Trench Pilgrim", "equipment": ["Bolt-Action Rifle"]}
    g = position(
        [MONK, friend, LIEUTENANT if faction == NA else {"model": "War Prophet"}],
        [LIEUTENANT],
        {"a1": (12, 4), "a2": (12, 5.5), "b1": (12, 12)},
        active="a1",
        factions=(faction, NA),
    )
    if gift is not None:
        g.force([4, 4])
        run(g, "ability a1 a2 [The Ammunition Sacrement]")
        assert g.decision.prompt is not None and g.decision.model == "a2"
        run(g, f"sacrament a2 [{gift}]")
    run(g, "end a1")
    run(g, "activate b1")
    run(g, "end b1")
    run(g, "activate a2")
    events = g.apply(Action.parse("shoot a2 b1 [Bolt-Action Rifle]"))
    while g.decision.kind == "chance" and g.decision.dice is not None:  # every die a 4: a hit, then an injury
        events += g.roll([4] * g.decision.dice.n)
    return g, events


def test_ammunition_sacrement_gives_plus_one_dice_to_hit() -> None:
    """The Ammunition Sacrement (Mendelist Ammo Monk, New Antioch and Trench Pilgrims): a Risky action on a friend
    within 1"; its side chooses +1 DICE to hit at range for the friend's activation."""
    for faction in (NA, TP):
        _, plain = _blessed_shot(None, faction)
        _, blessed = _blessed_shot("hit", faction)
        assert len(rolls(blessed, "attack")[0].values) == len(rolls(plain, "attack")[0].values) + 1, faction


def test_ammunition_sacrement_shrapnel_and_blast_or_injury() -> None:
    """The Ammunition Sacrement: SHRAPNEL and BLAST 2 (the shot's victim gains a Blood marker more, a model
    within 2" of it is hit too), or +1 on the ranged Injury Roll (the same dice, a worse result)."""
    g, plain = _blessed_shot(None)
    blood_plain = model(g, "b1").token("blood")
    g2, shrap = _blessed_shot("shrapnel")
    assert any("BLAST" in str(getattr(e, "text", "")) for e in shrap)
    assert model(g2, "b1").token("blood") == blood_plain + 1
    _, hurt = _blessed_shot("injury")
    plain_injury, hurt_injury = rolls(plain, "injury")[0], rolls(hurt, "injury")[0]
    assert plain_injury.values == hurt_injury.values and plain_injury.result != hurt_injury.result


def test_ammunition_sacrement_lasts_one_activation_and_not_on_itself() -> None:
    """The gift ends with the friend's activation; the Monk cannot bless itself, and the gift must be one of the
    three (the refusal names them)."""
    g, _ = _blessed_shot("hit")
    assert not model(g, "a2").flags.get("sacrament") and g.state.models["a2"].flags.get("sacrament_live")
    run(g, "end a2")
    assert not model(g, "a2").flags.get("sacrament_live")
    g2 = _pair(MONK, YEOMAN)
    assert rules_of(g2, "ability a1 a1 [The Ammunition Sacrement]") == [f"{R}/ability/the_ammunition_sacrement"]
    g2.force([4, 4])
    run(g2, "ability a1 a2 [The Ammunition Sacrement]")
    assert rules_of(g2, "sacrament a2 [gold]") == [f"{R}/ability/the_ammunition_sacrement"]


def _monk_turn(faction: str = NA) -> Game:
    """Side A to activate: the Monk, a friend 1.5" from it (centres: within 1" base to base), another 6" off."""
    friend = YEOMAN if faction == NA else {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    leader = LIEUTENANT if faction == NA else {"model": "War Prophet"}
    return position(
        [MONK, friend, leader],
        [LIEUTENANT],
        {"a1": (12, 4), "a2": (12, 5.5), "a3": (18, 4), "b1": (12, 22)},
        factions=(faction, NA),
    )


def test_faithful_followers_activates_a_friend_after_the_monk() -> None:
    """Faithful Followers (Mendelist Ammo Monk, New Antioch and Trench Pilgrims): as it activates, its side may
    name a friend within 1" that activates together with it, acting after it; both have then activated."""
    for faction in (NA, TP):
        g = _monk_turn(faction)
        run(g, "activate a1")
        assert g.decision.prompt == "follower" and legal_options(g) == ["follow a1 a2", "decline a1"], faction
        run(g, "follow a1 a2")
        run(g, "move a1")  # the Monk's move: answer its destination with the first offered
        while g.decision.model == "a1" and g.decision.prompt == "dest":
            run(g, str(g.legal_actions()[0]))
        assert "move a1" not in legal_options(g) and "end a1" in legal_options(g)
        assert not any(t.startswith("switch") for t in legal_options(g))  # the Monk acts first, no hand-back
        run(g, "end a1")
        assert g.state.vars.get("active") == "a2", faction  # the follower's part, in the same activation
        run(g, "end a2")
        assert model(g, "a1").flags.get("activated") and model(g, "a2").flags.get("activated")
        assert not model(g, "a3").flags.get("activated") and g.decision.prompt == "activate"


def test_faithful_followers_may_be_declined_and_needs_a_friend_within_an_inch() -> None:
    """Faithful Followers: declining leaves the friend free to activate later; a friend 6" away is not offered."""
    g = _monk_turn()
    run(g, "activate a1")
    assert rules_of(g, "follow a1 a3") == [f"{R}/ability/faithful_followers"]
    run(g, "decline a1")
    run(g, "end a1")
    assert not model(g, "a2").flags.get("activated") and g.state.vars.get("active") is None


GUARDIAN = {"model": "Scripture Guardian"}


def _scripture(faction: str, at_b: tuple[float, float], blood: int) -> Game:
    """A Scripture Guardian (a mercenary of all three lists) activated, an enemy Yeoman at ``at_b`` with
    ``blood`` Blood markers."""
    leader = {NA: LIEUTENANT, TP: {"model": "War Prophet"}, "Heretic Legion": {"model": "Heretic Priest"}}[faction]
    g = position(
        [GUARDIAN, leader], [YEOMAN, LIEUTENANT], {"a1": (12, 4), "b1": at_b}, active="a1", factions=(faction, NA)
    )
    model(g, "b1").tokens["blood"] = blood
    return g


def _resolve(g: Game, text: str, face: int = 4, injury: tuple[int, int] | None = None) -> list[Any]:
    """Take ``text``, every die a ``face`` (an Injury Roll ``injury`` and ones, when given), no markers spent."""
    events = g.apply(Action.parse(text))
    while True:
        d = g.decision.dice
        if g.decision.kind == "chance" and d is not None:
            hurt = injury is not None and "injury" in d.label
            events += g.roll([*injury, *[1] * (d.n - 2)] if injury is not None and hurt else [face] * d.n)
        elif g.decision.prompt.startswith("spend"):
            events += g.apply(next(a for a in g.legal_actions() if a.option in ("0", None)))
        else:
            break
    return events


def test_vengeful_scripture_shoots_18_inches_with_an_injury_per_blood_marker() -> None:
    """Vengeful Scripture (Scripture Guardian, New Antioch, Trench Pilgrims, Heretic Legion): an 18" attack that
    ignores armour and cover, +1 on the Injury Roll per Blood marker on the model hit."""
    for faction in (NA, TP, "Heretic Legion"):
        g = _scripture(faction, (12, 19), 2)  # 15" away
        injury = rolls(_resolve(g, "shoot a1 b1 [Vengeful Scripture]"), "injury")[0]
        assert injury.label.endswith("+2)"), (faction, injury.label)
    far = _scripture(NA, (12, 24), 0)  # over 18" base to base: beyond its reach
    assert f"{R}/shoot/range" in rules_of(far, "shoot a1 b1 [Vengeful Scripture]")


def test_vengeful_scripture_in_melee_but_not_both_in_one_activation() -> None:
    """Vengeful Scripture used in melee (a Fight at an enemy within 1"); having shot with it, the Guardian cannot
    Fight with it in the same activation (ONE MODE)."""
    g = _scripture(NA, (12, 5.6), 1)
    injury = rolls(_resolve(g, "fight a1 b1 [Vengeful Scripture]"), "injury")[0]
    assert injury.label.endswith("+1)"), injury.label
    g2 = _scripture(NA, (12, 19), 0)
    _resolve(g2, "shoot a1 b1 [Vengeful Scripture]")
    assert "shot:Vengeful Scripture" in g2.state.vars["acts"]
    assert f"{R}/keyword/one-mode" in rules_of(g2, "fight a1 b1 [Vengeful Scripture]")


def test_prize_specimens_blesses_the_biologist_for_a_demonic_kill_in_melee() -> None:
    """Prize Specimens (Combat Biologist, a mercenary of New Antioch): taking a DEMONIC (or BLACK GRAIL) enemy Out
    of Action in melee gives it a Blessing marker; any other enemy gives none."""
    court = "Court of the Seven-Headed Serpent"
    sorcerer = {"model": "Sorcerer"}
    for enemy, faction, blessed in (({"model": "Pit Locust"}, court, 1), (YEOMAN, NA, 0)):
        mine = [{"model": "Combat Biologist"}, LIEUTENANT]  # its Vivisector is fixed kit
        theirs = [enemy, sorcerer if faction == court else LIEUTENANT]
        g = position(mine, theirs, {"a1": (12, 12), "b1": (12, 13.4)}, active="a1", factions=(NA, faction))
        _resolve(g, "fight a1 b1 [Vivisector]", 6)
        assert not model(g, "b1").on_table and model(g, "a1").token("blessing") == blessed, enemy


FARIS = {"model": "Mamluk Faris", "equipment": ["Sword / Axe", "Pistol / Revolver"]}


def test_martial_prowess_jezzail_has_assault() -> None:
    """Martial Prowess (Mamluk Faris, a mercenary of New Antioch): its Jezzail gains ASSAULT: having shot with
    it, the Faris may still Charge (a Yeoman's rifle without ASSAULT forbids it)."""
    g = position(
        [FARIS, LIEUTENANT], [YEOMAN, LIEUTENANT], {"a1": (12, 4), "b1": (12, 10)}, active="a1", factions=(NA, NA)
    )
    _resolve(g, "shoot a1 b1 [Jezzail]")
    assert model(g, "b1").on_table
    assert f"{R}/activation/shoot-then-charge" not in rules_of(g, "charge a1 b1")
    g2 = position(
        [YEOMAN, LIEUTENANT], [YEOMAN, LIEUTENANT], {"a1": (12, 4), "b1": (12, 10)}, active="a1", factions=(NA, NA)
    )
    _resolve(g2, "shoot a1 b1 [Bolt-Action Rifle]")
    assert f"{R}/activation/shoot-then-charge" in rules_of(g2, "charge a1 b1")


def test_martial_prowess_has_no_off_hand_penalty() -> None:
    """Martial Prowess: the Faris's off-hand attack (its Pistol beside the Sword) takes no -1 DICE."""
    g = position(
        [FARIS, LIEUTENANT], [YEOMAN, LIEUTENANT], {"a1": (12, 12), "b1": (12, 13.3)}, active="a1", factions=(NA, NA)
    )
    notes = [str(e) for e in _resolve(g, "fight a1 b1 [Sword / Axe]") if "attacks b1 with" in str(e)]
    assert len(notes) == 2 and not any("off-hand" in n for n in notes), notes


def test_sworn_sword_forms_an_extra_fireteam_with_an_elite_model() -> None:
    """Sworn Sword (Mamluk Faris): one FIRETEAM more than the list's (New Antioch: 2) when it pairs the Faris with
    an ELITE model (the Lieutenant); with a Yeoman the third team is refused, naming FIRETEAM."""
    from warband.rulesets.trench_crusade.roster import read_warband

    def fireteam_problems(models: list[dict[str, object]]) -> list[str]:
        doc = {"ruleset": R, "name": "t", "faction": NA, "points_limit": 700, "glory_limit": 20, "models": models}
        return [p.message for p in read_warband("w.yaml", doc).problems if "FIRETEAM" in p.message]

    yeomen = [{**YEOMAN, "fireteam": t} for t in (1, 1, 2, 2)]
    assert fireteam_problems([{**LIEUTENANT, "fireteam": 3}, {**FARIS, "fireteam": 3}, *yeomen]) == []
    refused = fireteam_problems([LIEUTENANT, {**FARIS, "fireteam": 3}, {**YEOMAN, "fireteam": 3}, *yeomen])
    assert any("at most 2 fireteams, found 3" in p for p in refused), refused


def test_loudspeakers_drive_near_friends_three_inches_toward_a_seen_enemy() -> None:
    """Loudspeakers (War Prophet, Trench Pilgrims): a Risky action at +2 DICE: friends within 8" not in melee move
    up to 3" toward an enemy they see, as a charge (a2 reaches base contact with b1); a3, 11" off, stays."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    at = {"a1": (12, 4), "a2": (12, 6.5), "a3": (24, 4), "b1": (12, 10.5)}
    g = position([{"model": "War Prophet"}, pilgrim, pilgrim], [YEOMAN, LIEUTENANT], at, active="a1", factions=(TP, NA))
    events = _resolve(g, "ability a1 [Loudspeakers]")
    assert len(rolls(events, "loudspeakers")[0].values) == 4  # two dice and +2 DICE
    a2, b1 = model(g, "a2"), model(g, "b1")
    assert a2.y > 6.5 and (a2.y - 6.5) <= 3 + 1e-6
    assert b1.y - a2.y <= a2.radius + b1.radius + 1.0  # within 1": in melee with it
    assert (model(g, "a3").x, model(g, "a3").y) == (24, 4)


def test_loudspeakers_failed_roll_moves_nobody() -> None:
    """Loudspeakers: a failed (Risky) roll moves no friend and ends the Prophet's activation."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    at = {"a1": (12, 4), "a2": (12, 6.5), "b1": (12, 10.5)}
    g = position([{"model": "War Prophet"}, pilgrim], [YEOMAN, LIEUTENANT], at, active="a1", factions=(TP, NA))
    g.force([1, 1, 2, 2])
    run(g, "ability a1 [Loudspeakers]")
    assert model(g, "a2").y == 6.5 and g.state.vars.get("active") != "a1"


def _deployment() -> Game:
    """Deployment on a 24" table: side A (zone y <= 4) has the Mamluk Faris and a Lieutenant, side B (y >= 20) a
    Yeoman and a Lieutenant."""
    a, b = roster(FARIS, LIEUTENANT, name="A"), roster(YEOMAN, LIEUTENANT, name="B")
    a["faction"], b["faction"] = NA, NA
    g = Game.new(RS, [book_roster(a), book_roster(b)], scenario(), 1)
    g.settle()
    run(g, "zone [0]")
    return g


def test_arabian_destrier_deploys_last_on_a_table_edge_away_from_enemies() -> None:
    """Arabian Destrier (Mamluk Faris): it deploys after the other models, on any table edge at least 8" from
    every enemy (or in its own zone); the middle of the table, or an edge spot near an enemy, is refused."""
    g = _deployment()
    assert "deploy a1" not in [str(x) for x in g.legal_actions()]  # the Faris waits
    for mid in ("a2", "b1", "b2"):
        while g.decision.prompt == "deploy" and f"deploy {mid}" not in [str(x) for x in g.legal_actions()]:
            other = str(g.legal_actions()[0])
            run(g, other)
            run(g, str(g.legal_actions()[0]))
        if model(g, mid).on_table:
            continue
        run(g, f"deploy {mid}")
        run(g, str(g.legal_actions()[0]))
    assert [str(x) for x in g.legal_actions()] == ["deploy a1"]
    run(g, "deploy a1")
    x = round(model(g, "a1").radius + 0.1, 2)  # its base 0.1" from the left edge
    assert rules_of(g, "deploy a1 @12,10") == [f"{R}/ability/arabian_destrier"]  # mid-table
    assert rules_of(g, f"deploy a1 @{x},19") == [f"{R}/ability/arabian_destrier"]  # an edge, near side B
    assert rules_of(g, f"deploy a1 @{x},10") == []
    assert rules_of(g, "deploy a1 @12,2") == []  # its own zone still
    run(g, f"deploy a1 @{x},10")
    assert (model(g, "a1").x, model(g, "a1").y) == (x, 10)


HL = "Heretic Legion"
WARLOCK = {"model": "Goetic Warlock"}


def test_goetic_portal_steps_to_a_seen_spot_within_six_inches() -> None:
    """Goetic Portal (Goetic Warlock, Heretic Legion): a Risky action at +1 DICE: it reappears up to 6" away at a
    spot it sees (7" away, or behind a wall, is refused)."""
    wall = [box("wall", "blocking", 0, 9, 24, 10, height=3.0, blocks_los=True)]
    g = position(
        [WARLOCK, {"model": "Heretic Priest"}],
        [LIEUTENANT],
        {"a1": (12, 6), "b1": (3, 22)},
        active="a1",
        terrain=wall,
        factions=(HL, NA),
    )
    events = _resolve(g, "ability a1 [Goetic Portal]")
    assert len(rolls(events, "goetic_portal")[0].values) == 3 and g.decision.prompt == "portal"
    assert rules_of(g, "to a1 @12,13") == [f"{R}/ability/goetic_portal"]  # 7" off, and behind the wall
    assert rules_of(g, "to a1 @12,11.5") == [f"{R}/ability/goetic_portal"]  # behind the wall: unseen
    assert rules_of(g, "to a1 @17,6") == []
    run(g, "to a1 @17,6")
    assert (model(g, "a1").x, model(g, "a1").y) == (17, 6)


def test_goetic_portal_may_bring_a_small_enemy_it_fights() -> None:
    """Goetic Portal: the enemy it is fighting (25mm Yeoman, at most 32mm) may come along, still beside it."""
    g = position(
        [WARLOCK, {"model": "Heretic Priest"}],
        [YEOMAN, LIEUTENANT],
        {"a1": (12, 6), "b1": (12, 7.4)},
        active="a1",
        factions=(HL, NA),
    )
    _resolve(g, "ability a1 [Goetic Portal]")
    assert "to a1 b1 @16,6" in [str(a) for a in g.legal_actions()]
    run(g, "to a1 b1 @16,6")
    assert (model(g, "a1").x, model(g, "a1").y) == (16, 6) and (model(g, "b1").x, round(model(g, "b1").y, 2)) == (
        16,
        7.4,
    )


HEAVY = {"model": "Mechanised Heavy Infantry", "equipment": ["Bolt-Action Rifle", "Trench Club"]}


def test_machine_armour_upgrade_turns_down_into_a_minor_hit_and_charges_on_a_d3() -> None:
    """Machine Armour (upgrade of the Mechanised Heavy Infantry, and the item): armour -3 on a 40mm base; a Down
    result of an Injury Roll is a Minor Hit (one Blood marker, still standing); its charge die is a D3."""
    at = {"a1": (12, 4), "b1": (12, 12)}
    plain = position([HEAVY, LIEUTENANT], [YEOMAN, LIEUTENANT], at, active="a1", factions=(NA, NA))
    armoured = {**HEAVY, "upgrades": ["Machine Armour"]}
    g = position([armoured, LIEUTENANT], [YEOMAN, LIEUTENANT], at, active="a1", factions=(NA, NA))
    a1 = model(g, "a1")
    assert a1.data["armour"] == model(plain, "a1").data["armour"] - 1 == -3
    assert round(a1.radius * 2 * 25.4) == 40
    for game, sides in ((plain, 6), (g, 3)):
        game.apply(Action.parse("charge a1 b1"))
        assert game.decision.dice is not None and game.decision.dice.sides == sides
    # a Down result (7-8 on the Injury Roll) against it
    h = position([YEOMAN, LIEUTENANT], [armoured, LIEUTENANT], at, active="a1", factions=(NA, NA))
    events = _resolve(h, "shoot a1 b1 [Bolt-Action Rifle]", 6, injury=(6, 5))
    injury = rolls(events, "injury")[0]
    assert injury.result.endswith("down") and not model(h, "b1").flags.get("down")
    assert model(h, "b1").token("blood") == 1


def test_machine_armour_carries_no_shield_but_the_heavy_ballistic_one() -> None:
    """Machine Armour (item, here the Lieutenant's): a Trench Shield beside it is refused, naming Machine Armour;
    the Heavy Ballistic Shield, sold only with Machine Armour, is not."""
    from warband.rulesets.trench_crusade.roster import read_warband

    def problems(kit: list[str]) -> list[str]:
        lt = {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle", "Machine Armour", *kit]}
        doc = {"ruleset": R, "name": "t", "faction": NA, "points_limit": 700, "models": [lt]}
        return [p.message for p in read_warband("w.yaml", doc).problems if "Machine Armour" in p.message]

    assert any("carries no shield" in p for p in problems(["Trench Shield"]))
    assert problems(["Heavy Ballistic Shield"]) == []


def test_martyr_penitent_fights_harder_and_is_harder_to_injure() -> None:
    """Martyr Penitent Ressurection (Trench Pilgrim upgrade): +1 Melee DICE, and -1 INJURY DICE on every Injury
    Roll against it (a Critical hit on sixes adds an INJURY DICE: three dice; against it the two cancel)."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    martyr = {**pilgrim, "upgrades": ["Martyr Penitent Ressurection"]}
    prophet = {"model": "War Prophet"}
    at = {"a1": (12, 4), "b1": (12, 12)}
    plain = position([YEOMAN, LIEUTENANT], [pilgrim, prophet], at, active="a1", factions=(NA, TP))
    g = position([YEOMAN, LIEUTENANT], [martyr, prophet], at, active="a1", factions=(NA, TP))
    assert model(g, "b1").data["melee"] == model(plain, "b1").data["melee"] + 1
    dice = [len(rolls(_resolve(x, "shoot a1 b1 [Bolt-Action Rifle]", 6), "injury")[0].values) for x in (plain, g)]
    assert dice == [3, 2]


def _cleric(power: str, friend_at: tuple[float, float] = (12, 6)) -> Game:
    """A Trench Cleric (a1) that chose ``power``, a Yeoman friend (a2), a War Wolf (b1) in melee with the Yeoman."""
    cleric = {"model": "Trench Cleric", "choices": [power]}
    wolf = {"model": "War Wolf Assault Beast"}
    at = {"a1": (12, 4), "a2": friend_at, "b1": (friend_at[0], friend_at[1] + 1.4)}
    return position(
        [cleric, YEOMAN, LIEUTENANT], [wolf, {"model": "Heretic Priest"}], at, active="a1", factions=(NA, HL)
    )


def test_trench_cleric_god_is_with_us_blesses_a_friend() -> None:
    """Powers of the Trench Cleric, chosen in the warband file (`choices: [God is With Us!]`): a Risky action: a
    friend within 6" (or itself) gains a Blessing marker."""
    g = _cleric("God is With Us!")
    g.force([4, 4])
    run(g, "ability a1 a2 [God is With Us!]")
    assert model(g, "a2").token("blessing") == 1


def test_trench_cleric_onwards_christian_soldiers_lifts_fear() -> None:
    """Onwards, Christian Soldiers! (the other power): a friend that starts its activation within 8" of the Cleric
    ignores FEAR (the War Wolf's -1 DICE) for that activation; the Cleric that chose the other power gives none."""
    dice: list[str] = []
    for power in ("Onwards, Christian Soldiers!", "God is With Us!"):
        g = _cleric(power)
        for step in ("end a1", "activate b1", "end b1", "activate a2"):  # the Wolf passes its turn
            run(g, step)
        attack = rolls(_resolve(g, "fight a2 b1 [Trench Club]", 1), "attack")[0]
        dice.append(attack.label)
    assert dice == ["attack (+0 DICE)", "attack (-1 DICE)"], dice


def test_trench_cleric_choices_are_checked() -> None:
    """`choices` names one of the Cleric's powers: anything else, or a second power, is refused by validate,
    naming the place and the Cleric's choices."""
    from warband.rulesets.trench_crusade.roster import read_warband

    def problems(choices: list[str]) -> list[str]:
        cleric = {"model": "Trench Cleric", "choices": choices}
        doc = {"ruleset": R, "name": "t", "faction": NA, "points_limit": 700, "models": [LIEUTENANT, cleric]}
        return [f"{p.place}: {p.message}" for p in read_warband("w.yaml", doc).problems if "choices" in p.place]

    assert problems(["Onwards, Christian Soldiers!"]) == []
    wrong = problems(["Laying On Hands"])
    assert wrong and wrong[0].startswith("models[1].choices[0]") and "God is With Us!" in wrong[0]
    assert any("chooses one" in p for p in problems(["God is With Us!", "Onwards, Christian Soldiers!"]))


def test_martyrdom_device_blasts_round_the_prisoner_who_is_awaited() -> None:
    """Martyrdom Device (item of the Ecclesiastic Prisoner, CONSUMABLE, BLAST 3): set off in its activation with
    no roll: every model within 3" takes an Injury Roll, one INJURY DICE more within 1"; the Prisoner rolls 4D6.
    Awaited (Ecclesiastic Prisoner): taken out by its own device, it counts for no Morale check."""
    from warband.rulesets.trench_crusade.morale import needs_check

    prisoner = {"model": "Ecclesiastic Prisoner", "equipment": ["Martyrdom Device"]}
    at = {"a1": (12, 12), "a2": (2, 2), "b1": (12, 13.2), "b2": (14.5, 13.5)}  # b2: 2.5" off, its rim in 3"
    g = position([prisoner, {"model": "War Prophet"}], [YEOMAN, LIEUTENANT], at, active="a1", factions=(TP, NA))
    events = _resolve(g, "ability a1 [Martyrdom Device]", 6)
    injuries = {r.model: len(r.values) for r in rolls(events, "injury") + rolls(events, "Bloodbath")}
    assert injuries["b1"] == 3 and injuries["b2"] == 2 and injuries["a1"] == 4, injuries
    assert not model(g, "a1").on_table and model(g, "a1").flags.get("awaited")
    assert not needs_check(g.state, 0)  # the War Prophet stands: the Prisoner is no casualty
