"""The catalogue's keywords (../shared/data/trench-crusade/keywords.yaml) played from the player's side: forced
dice, fixed positions, the outcome asserted. One test (or more) per keyword; the clause matrix names each."""

from __future__ import annotations

from tc import RS, act, box, legal_texts, model, position, rolls, roster, rules_of, run, scenario, trooper

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.rulesets.trench_crusade.attacks import in_miasma

R = "trench-crusade"
#: Catalogue models for positions of Trench Pilgrims (a list needs its leader: it waits off the table).
PILGRIMS = ("Trench Pilgrims", "Trench Pilgrims")
PROPHET = {"model": "War Prophet"}
ANTIOCH = ("New Antioch", "New Antioch")
LIEUTENANT = {"model": "Lieutenant"}
PILGRIM = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}


# ------------------------------------------------------------------------------------------- NEGATE, DEMONIC
def test_demonic_takes_no_extra_blood_from_fire() -> None:
    """DEMONIC: a FIRE hit's extra Blood marker is ignored; a plain target takes it."""
    for kws, blood in (([], 2), (["DEMONIC"], 1)):
        g = position(
            [trooper(weapons=["Flamethrower"])], [trooper(keywords=kws)], {"a1": (12, 4), "b1": (12, 9)}, active="a1"
        )
        g.force([2, 2])  # the Flamethrower hits by itself; 4 - 1 = a minor hit: one Blood marker
        run(g, "shoot a1 b1 [Flamethrower]")
        assert model(g, "b1").token("blood") == blood


def test_negate_gas_ignores_the_gas_blood_marker() -> None:
    """NEGATE X: NEGATE GAS stops the extra Blood marker of a GAS weapon."""
    for kws, blood in (([], 2), (["NEGATE GAS"], 1)):
        g = position(
            [trooper(weapons=["Gas Grenades"])], [trooper(keywords=kws)], {"a1": (12, 4), "b1": (12, 9)}, active="a1"
        )
        g.force([4, 4], [1, 1])  # a hit; injury 2: a minor hit
        run(g, "shoot a1 b1 [Gas Grenades]")
        assert model(g, "b1").token("blood") == blood


def test_negate_heavy_moves_and_shoots_like_strong() -> None:
    """NEGATE X: NEGATE HEAVY lets the model move and shoot a HEAVY weapon in one activation."""
    for kws, refused in (([], True), (["NEGATE HEAVY"], False)):
        g = position(
            [trooper(weapons=["Machine Gun"], keywords=kws)], [trooper()], {"a1": (12, 4), "b1": (12, 20)}, active="a1"
        )
        act(g, "move a1")
        act(g, "to a1 @12,6")
        assert (f"{R}/keyword/heavy" in rules_of(g, "shoot a1 b1 [Machine Gun]")) is refused


def test_negate_fear_and_golem_ignore_fear() -> None:
    """NEGATE FEAR and GOLEM: a melee attack on a FEAR model takes no -1 DICE."""
    for kws, dice in (([], 3), (["NEGATE FEAR"], 2), (["GOLEM"], 2)):
        g = position(
            [trooper(keywords=kws)], [trooper(keywords=["FEAR"])], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1"
        )
        g.force([1] * dice, [1, 1])
        hit = rolls(run(g, "fight a1 b1 [Trench Club]"), "attack")[0]
        assert len(hit.values) == dice


# ------------------------------------------------------------------------------------------- GOLEM
def test_golem_is_down_not_out_every_time() -> None:
    """GOLEM: each Out of Action result makes it Down instead (not once, like TOUGH)."""
    g = position(
        [trooper(weapons=["Pistol", "Trench Club"])],
        [trooper(keywords=["GOLEM"])],
        {"a1": (12, 4), "b1": (12, 9)},
        active="a1",
    )
    g.force([4, 4], [6, 6])
    run(g, "shoot a1 b1 [Pistol]")
    assert model(g, "b1").on_table and model(g, "b1").flags["down"]
    g2 = position([trooper()], [trooper(keywords=["GOLEM"])], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    model(g2, "b1").flags["down"] = True
    g2.force([4, 4], [6, 6, 6])
    run(g2, "fight a1 b1 [Trench Club]")
    assert model(g2, "b1").on_table


def test_golem_is_taken_out_by_a_bloodbath() -> None:
    """GOLEM: a Bloodbath's Out of Action takes it out."""
    g = position([trooper()], [trooper(keywords=["GOLEM"])], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "b1").tokens["blood"] = 6
    g.force([4, 4])
    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    g.settle()
    assert g.decision.prompt == "spend-injury"
    g.force([6, 6, 6])
    g.apply(Action.parse("bloodbath b1"))
    g.settle()
    assert not model(g, "b1").on_table


def test_golem_ignores_gas_blood_and_its_side_cannot_tend_it() -> None:
    """GOLEM: no extra Blood from GAS; its own side cannot remove its Blood markers (Tend Wounds refused)."""
    g = position(
        [trooper(weapons=["Gas Grenades"])], [trooper(keywords=["GOLEM"])], {"a1": (12, 4), "b1": (12, 9)}, active="a1"
    )
    g.force([4, 4], [1, 1])
    run(g, "shoot a1 b1 [Gas Grenades]")
    assert model(g, "b1").token("blood") == 1
    medic = trooper(keywords=["MEDIC"])
    g2 = position(
        [medic, trooper(keywords=["GOLEM"])], [trooper()], {"a1": (12, 4), "a2": (12, 5.2), "b1": (12, 20)}, active="a1"
    )
    model(g2, "a2").tokens["blood"] = 2
    assert f"{R}/keyword/golem" in rules_of(g2, "tend a1 a2")
    assert "tend a1 a2" not in legal_texts(g2)


# ------------------------------------------------------------------------------------------- injury dice, CONSUMABLE
def test_a_weapons_injury_dice_are_dice_not_a_flat_modifier() -> None:
    """The lists' "+1 injury DICE" (Greatsword / Greataxe): three dice, the two highest kept; the Musket's -1:
    three dice, the two lowest kept."""
    troops = [{"model": "Trench Pilgrim", "equipment": ["Greatsword / Greataxe"]}, PROPHET]
    g = position(troops, [PILGRIM, PROPHET], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1", factions=PILGRIMS)
    g.force([4, 4], [1, 6, 6])
    inj = rolls(run(g, "fight a1 b1 [Greatsword / Greataxe]"), "injury")[0]
    assert len(inj.values) == 3 and inj.result.startswith("12")
    troops = [{"model": "Trench Pilgrim", "equipment": ["Musket"]}, PROPHET]
    g = position(troops, [PILGRIM, PROPHET], {"a1": (12, 4), "b1": (12, 12)}, active="a1", factions=PILGRIMS)
    g.force([4, 4], [6, 6, 1])
    inj = rolls(run(g, "shoot a1 b1 [Musket]"), "injury")[0]
    assert len(inj.values) == 3 and inj.result.startswith("7")


def test_a_consumable_weapon_is_used_once_a_battle() -> None:
    """CONSUMABLE: the Satchel Charge is thrown once; the next activation it is gone (refused, named)."""
    yeoman = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Satchel Charge"]}
    g = position(
        [yeoman, LIEUTENANT],
        [{"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}, LIEUTENANT],
        {"a1": (12, 4), "b1": (12, 9)},
        active="a1",
        factions=ANTIOCH,
    )
    assert "shoot a1 b1 [Satchel Charge]" in legal_texts(g)
    g.force([1, 1])
    run(g, "shoot a1 b1 [Satchel Charge]")
    # a later activation of the same model (the turn's bookkeeping reset by hand)
    g.state.vars.update({"active": "a1", "acts": [], "shot_with": []})
    assert f"{R}/keyword/consumable" in rules_of(g, "shoot a1 b1 [Satchel Charge]")
    assert "shoot a1 b1 [Satchel Charge]" not in legal_texts(g)


# ------------------------------------------------------------------------------------------- markers
def test_blessing_markers_add_dice_to_the_models_action() -> None:
    """BLESSING MARKER: before its Success Roll the owner spends one for +1 DICE (three dice, two highest)."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "a1").tokens["blessing"] = 2
    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    assert g.decision.prompt == "spend-blessing" and g.decision.player == 0
    assert legal_texts(g) == ["bless a1 [0]", "bless a1 [1]", "bless a1 [2]"]
    g.force([1, 6, 5], [1, 1])
    events = run(g, "bless a1 [1]")
    assert len(rolls(events, "attack")[0].values) == 3 and model(g, "a1").token("blessing") == 1


def test_blessing_markers_take_dice_off_an_injury_roll() -> None:
    """BLESSING MARKER: before an Injury Roll against it the owner spends one for -1 INJURY DICE."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, active="a1")
    model(g, "b1").tokens["blessing"] = 1
    g.force([4, 4])
    run(g, "shoot a1 b1 [Bolt Action Rifle]")
    assert g.decision.prompt == "spend-blessing" and g.decision.player == 1
    g.force([6, 6, 1])
    inj = rolls(run(g, "bless b1 [1]"), "injury")[0]
    assert len(inj.values) == 3 and inj.result == "7: down"


def test_infection_markers_are_spent_like_blood_and_grow() -> None:
    """INFECTION MARKER: the opponent spends them like Blood (-1 DICE on the model's roll); a model that activates
    carrying any gains one more."""
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 12)}, to_act=0)
    model(g, "a1").tokens["infection"] = 1
    act(g, "activate a1")
    assert model(g, "a1").token("infection") == 2
    g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    assert g.decision.prompt == "spend-hit" and legal_texts(g)[-1] == "spend a1 [2]"
    g.force([1, 1, 1, 1], [1, 1])
    events = run(g, "spend a1 [2]")
    assert len(rolls(events, "attack")[0].values) == 4 and model(g, "a1").token("infection") == 0


# ------------------------------------------------------------------------------------------- INFILTRATOR
def _deploy_game(wall: bool) -> Game:
    terrain = [box("wall", "blocking", 0, 11, 24, 13, height=3.0, blocks_los=True)] if wall else []
    a = roster(trooper(), trooper(keywords=["INFILTRATOR"]), name="A")
    g = Game.new(RS, [a, roster(trooper(), name="B")], scenario(terrain), 1)
    g.settle()
    act(g, "zone [0]")
    return g


def _deploy_first_spot(g: Game, mid: str) -> None:
    act(g, f"deploy {mid}")
    act(g, legal_texts(g)[0])


def test_infiltrator_deploys_last_out_of_sight_and_away_from_enemies() -> None:
    """INFILTRATOR: it is placed after every other model, anywhere hidden from the enemy and 8" from it."""
    g = _deploy_game(wall=True)
    assert legal_texts(g) == ["deploy a1"]  # a2 waits although side A deploys first
    _deploy_first_spot(g, "a1")
    _deploy_first_spot(g, "b1")
    assert legal_texts(g) == ["deploy a2"]
    act(g, "deploy a2")
    assert f"{R}/keyword/infiltrator" in rules_of(g, "deploy a2 @12,16")  # seen by b1 over no wall
    assert rules_of(g, "deploy a2 @12,8") == []  # behind the wall, 12" from b1: outside its own zone
    act(g, "deploy a2 @12,8")
    assert (model(g, "a2").x, model(g, "a2").y) == (12, 8)


def test_infiltrator_with_nowhere_to_hide_deploys_in_its_zone() -> None:
    """INFILTRATOR: on an open table every spot is seen, so it deploys in its own zone like any model."""
    g = _deploy_game(wall=False)
    _deploy_first_spot(g, "a1")
    _deploy_first_spot(g, "b1")
    act(g, "deploy a2")
    assert all(float(t.split(",")[1]) <= 4 for t in legal_texts(g))
    assert f"{R}/deploy/zone" in rules_of(g, "deploy a2 @12,8")


def test_infiltration_spots_are_the_grid_points_that_infiltration_problems_allows() -> None:
    """The spots offered (kept per table and enemy positions, issue 26) are exactly the grid points that
    ``infiltration_problems`` allows, spread, on a table with a wall and a dangerous pool, for both an empty
    table and one with a friend placed on a hidden spot."""
    from warband.kernel import setup as kernel_setup
    from warband.rulesets.trench_crusade import setup as tc_setup

    terrain = [
        box("wall", "blocking", 0, 11, 24, 13, height=3.0, blocks_los=True),
        box("pool", "dangerous", 4, 2, 9, 7),
    ]
    a = roster(trooper(), trooper(keywords=["INFILTRATOR"]), trooper(keywords=["INFILTRATOR"]), name="A")
    g = Game.new(RS, [a, roster(trooper(), name="B")], scenario(terrain), 1)
    g.settle()
    act(g, "zone [0]")
    _deploy_first_spot(g, "a1")
    _deploy_first_spot(g, "b1")

    def plain(mid: str) -> list[tuple[float, float]]:
        state, m = g.state, g.state.models[mid]
        table = state.ctx.table
        nx, ny = int(table.width // tc_setup.INFILTRATE_STEP), int(table.depth // tc_setup.INFILTRATE_STEP)
        grid = [((i + 0.5) * table.width / nx, (j + 0.5) * table.depth / ny) for i in range(nx) for j in range(ny)]
        ok = [(round(x, 2), round(y, 2)) for x, y in grid if not tc_setup.infiltration_problems(state, m, (x, y))]
        return kernel_setup.spread(ok, kernel_setup.FINE_SPOTS)

    first = tc_setup.infiltration_spots(g.state, g.state.models["a2"])
    assert first and first == plain("a2")
    act(g, "deploy a2")
    act(g, f"deploy a2 @{first[0][0]:g},{first[0][1]:g}")
    act(g, "deploy a3")
    again = tc_setup.infiltration_spots(g.state, g.state.models["a3"])
    assert again == plain("a3") and first[0] not in again  # a2 now stands there


# ------------------------------------------------------------------------------------------- SKIRMISHER
def test_a_charged_skirmisher_moves_first_but_not_into_melee() -> None:
    """SKIRMISHER: charged, it rolls a D3 and its side may move it that far first, not within 1" of an enemy;
    the charge then goes after it where it stands."""
    g = position(
        [trooper(), trooper()],
        [trooper(keywords=["SKIRMISHER"])],
        {"a1": (12, 4), "a2": (8, 12), "b1": (12, 12)},
        active="a1",
    )
    g.force([3])
    act(g, "charge a1 b1")
    assert g.decision.prompt == "dest" and g.decision.player == 1 and g.decision.model == "b1"
    assert f"{R}/keyword/skirmisher" in rules_of(g, "to b1 @9.5,12")  # half an inch from a2's base
    assert f"{R}/move/too-far" in rules_of(g, "to b1 @12,16")  # 4" is more than the D3's 3"
    g.force([1])  # the charge die: 6 + 1 = 7", short of b1 at 9" once it stepped back
    act(g, "to b1 @12,15")
    assert (model(g, "b1").x, model(g, "b1").y) == (12, 15)
    assert legal_texts(g) == ["to a1 @12,11"]  # the charger gets only as close as its 7" allow: no contact


def test_a_skirmisher_in_melee_does_not_move() -> None:
    """SKIRMISHER: not while in melee: a charge at it when an enemy is already within 1" rolls no D3."""
    g = position(
        [trooper(), trooper()],
        [trooper(keywords=["SKIRMISHER"])],
        {"a1": (12, 4), "a2": (12, 13.2), "b1": (12, 12)},
        active="a1",
    )
    g.force([3])
    act(g, "charge a1 b1")
    assert g.decision.model != "b1"


# ------------------------------------------------------------------------------------------- FIRETEAM
def _team() -> Game:
    a = [trooper(fireteam=1), trooper(fireteam=1), trooper()]
    return position(
        a, [trooper(), trooper()], {"a1": (4, 4), "a2": (8, 4), "a3": (20, 2), "b1": (12, 20), "b2": (20, 22)}, to_act=0
    )


def test_a_fireteam_activates_together_and_interleaves() -> None:
    """FIRETEAM: activating one member activates both; control passes between them ('switch'), each keeping its
    own actions; one's chosen end hands over to the other; then the opponent activates."""
    g = _team()
    act(g, "activate a1")
    assert f"{R}/keyword/fireteam" in rules_of(g, "switch a1 a2")  # a hand-over follows an action
    act(g, "move a1")
    act(g, "to a1 @4,7")
    assert "switch a1 a2" in legal_texts(g)
    act(g, "switch a1 a2")
    assert g.decision.model == "a2" and "move a2" in legal_texts(g)
    g.force([1, 1, 1])  # long range: three dice
    act(g, "shoot a2 b1 [Bolt Action Rifle]")
    act(g, "switch a2 a1")
    assert "move a1" not in legal_texts(g) and "dash a1" in legal_texts(g)  # a1 keeps the Move it took
    act(g, "end a1")
    assert g.decision.model == "a2" and "shoot a2 b1 [Bolt Action Rifle]" not in legal_texts(g)
    act(g, "end a2")
    assert model(g, "a1").flags["activated"] and model(g, "a2").flags["activated"]
    assert g.decision.prompt == "activate" and g.decision.player == 1


def test_a_fireteam_survives_a_saved_game() -> None:
    """FIRETEAM pairs are part of the game, not of the moment it was set up: a game restored from its JSON (a web
    table resumed after a restart, an agent thinking in a worker process, a replay) keeps both partners and the
    hand-over, mid-activation."""
    g = _team()
    act(g, "activate a1")
    act(g, "move a1")
    act(g, "to a1 @4,7")
    back = Game.from_json(g.to_json())
    assert model(back, "a1").data["partner"] == "a2" and "FIRETEAM" in model(back, "a2").data["keywords"]
    assert "switch a1 a2" in legal_texts(back)
    assert legal_texts(back) == legal_texts(g)


def test_a_forced_end_stops_the_whole_fireteam() -> None:
    """FIRETEAM: a failed Risky roll ends both members' activations, the partner's too before it acted."""
    g = _team()
    act(g, "activate a1")
    g.force([1, 1])
    act(g, "dash a1")
    assert model(g, "a2").flags.get("activated") and model(g, "a1").flags.get("activated")
    assert g.decision.player == 1


def test_fireteams_are_pairs_within_the_lists_number() -> None:
    """FIRETEAM (New Antioch Fireteams): each team is two single models, at most the list's number of teams."""
    from warband.rulesets.trench_crusade.roster import read_warband

    def problems(models: list[dict[str, object]]) -> list[str]:
        doc = {"ruleset": R, "name": "t", "faction": "New Antioch", "points_limit": 700, "models": models}
        return [p.message for p in read_warband("w.yaml", doc).problems]

    lieutenant = {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle"]}
    yeoman = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}
    assert problems([lieutenant, {**yeoman, "fireteam": 1}, {**yeoman, "fireteam": 1}]) == []
    lone = problems([lieutenant, {**yeoman, "fireteam": 1}, yeoman])
    assert any("fireteam 1 is two models, found 1" in p for p in lone)
    three = [lieutenant] + [{**yeoman, "fireteam": t} for t in (1, 1, 2, 2, 3, 3)]
    assert any("forms at most 2 fireteams, found 3" in p for p in problems(three))


# ------------------------------------------------------------------------------------------- GOETIC, PUTRESCERE
COURT = "Court of the Seven-Headed Serpent"
HUNGER = "The Great Hunger"


def test_goetic_spends_blood_from_models_that_are_not_demonic() -> None:
    """GOETIC (X): Shadow Walker (Retreat as GOETIC (2), no free attacks) is paid with two Blood markers of
    models neither DEMONIC nor BLACK GRAIL; with too few to be had it is refused, naming the cost."""
    hunter = [{"model": "Hunter of the Left-Hand Path"}, {"model": "Praetor"}]
    g = position(
        hunter, [PILGRIM, PROPHET], {"a1": (12, 12), "b1": (12, 13.5)}, active="a1", factions=(COURT, "Trench Pilgrims")
    )
    model(g, "a1").tokens["blood"] = 3  # its own markers: DEMONIC, they cannot pay
    assert any("GOETIC (2)" in why for _, why in g.why_illegal(Action.parse("ability a1 [Shadow Walker]")))
    model(g, "b1").tokens["blood"] = 2
    run(g, "ability a1 [Shadow Walker]")
    assert model(g, "b1").token("blood") == 0 and model(g, "a1").token("blood") == 3
    assert g.decision.prompt == "dest" and g.decision.model == "a1"  # the Retreat, with no strike first
    act(g, legal_texts(g)[0])
    assert model(g, "a1").y < 12


def test_putrescere_spends_infection_within_12_inches() -> None:
    """PUTRESCERE (X): Miasma of Pestilence (PUTRESCERE (3)) takes three Infection markers from models within
    12"; then models within 6" of the caster count as in cover (the caster too), those beyond do not."""
    hag = [{"model": "Matagot Hag", "upgrades": ["Miasma of Pestilence"]}]
    g = position(
        hag,
        [PILGRIM, PROPHET],
        {"a1": (12, 12), "b1": (12, 4), "b2": (23, 23)},
        active="a1",
        factions=(HUNGER, "Trench Pilgrims"),
    )
    model(g, "b2").tokens["infection"] = 3  # more than 12" away: it cannot pay
    assert f"{R}/ability/miasma_of_pestilence" in rules_of(g, "ability a1 [Miasma of Pestilence]")
    model(g, "b1").tokens["infection"] = 3
    run(g, "ability a1 [Miasma of Pestilence]")
    assert model(g, "b1").token("infection") == 0 and model(g, "a1").flags.get("miasma") == 6
    assert in_miasma(g.state, model(g, "a1")) and not in_miasma(g.state, model(g, "b2"))
