"""Warband files by the book: a model named from the catalogue is that model of that list, or it is refused; and
`validate` checks every rule of the list at once, each problem naming the file, the place and the list rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.errors import RosterError, ScenarioError
from warband.kernel.rng import Rng
from warband.rulesets.trench_crusade.roster import (
    describe_roster,
    load_roster,
    model_specs,
    read_warband,
    roster_points,
)

DATA = Path(__file__).resolve().parents[2] / "src" / "warband" / "rulesets" / "trench_crusade" / "data"
BOOK = sorted((DATA / "warbands").glob("*.yaml"))  # the bundled samples are built from the catalogue


def warband(faction: str, *models: dict[str, Any], limit: int = 700, **extra: Any) -> dict[str, Any]:
    return {
        "ruleset": "trench-crusade",
        "name": "Test",
        "faction": faction,
        "points_limit": limit,
        **extra,
        "models": list(models),
    }


def priest(*equipment: str, **extra: Any) -> dict[str, Any]:
    return {"model": "Heretic Priest", "equipment": list(equipment or ("Pistol", "Sword")), **extra}


def trooper(*equipment: str, **extra: Any) -> dict[str, Any]:
    return {"model": "Heretic Trooper", "equipment": list(equipment), **extra}


def write(tmp_path: Path, doc: Any, name: str = "w.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return p


def problems(tmp_path: Path, doc: Any) -> list[tuple[str, str]]:
    path = write(tmp_path, doc)
    with pytest.raises(RosterError) as exc:
        load_roster(path)
    assert all(p.file == str(path) for p in exc.value.problems)
    return [(p.place, p.message) for p in exc.value.problems]


# ------------------------------------------------------------------------------------ the example


def test_a_new_antioch_lieutenant_in_a_pilgrim_warband_is_refused_naming_the_list_rule(tmp_path: Path) -> None:
    """Issue 22: a Trench Pilgrims warband holding a New Antioch "Lieutenant" on 5 ducats with 12" movement was
    accepted; it is refused, whether typed by hand or named from the catalogue."""
    hand_typed = {
        "type": "Lieutenant",
        "cost": 5,
        "movement": 12,
        "ranged": 2,
        "melee": 2,
        "base": 32,
        "keywords": ["ELITE", "LEADER", "TOUGH", "NEW ANTIOCH"],
        "weapons": ["Pistol"],
    }
    by_name = {"model": "Lieutenant", "cost": 5, "movement": 12}
    found = problems(tmp_path, warband("Trench Pilgrims", {"model": "War Prophet"}, hand_typed, by_name))
    assert ("models[1].type", "Trench Pilgrims may not field 'Lieutenant' (New Antioch list)") in found
    assert ("models[2].model", "Trench Pilgrims may not field 'Lieutenant' (New Antioch list)") in found
    for i in (1, 2):
        messages = dict((p, m) for p, m in found if p.startswith(f"models[{i}]"))
        assert "the New Antioch list prices a Lieutenant at 70 ducats, found 5" in messages[f"models[{i}].cost"]
        assert "movement 6, found 12" in messages[f"models[{i}].movement"]
    assert any(p == "models[1]" and "custom: true" in m for p, m in found)


def test_a_hand_typed_profile_says_it_is_custom(tmp_path: Path) -> None:
    custom = {
        "type": "Gun Servitor",
        "custom": True,
        "cost": 40,
        "movement": 5,
        "ranged": 1,
        "melee": 0,
        "base": 32,
        "keywords": ["HERETIC"],
        "weapons": ["Machine Gun"],
    }
    r = load_roster(write(tmp_path, warband("Heretic Legion", priest(), custom)))
    assert r.models[1].is_custom and not r.models[0].is_custom
    summary = describe_roster(r)
    assert [line.name for line in summary.lines] == ["Heretic Priest", "Gun Servitor (custom)"]
    assert any("custom" in note and "Gun Servitor" in note for note in summary.notes)
    unmarked = dict(custom)
    del unmarked["custom"]
    found = problems(tmp_path, warband("Heretic Legion", priest(), unmarked))
    assert found[0][0] == "models[1]" and "custom: true" in found[0][1]


# ------------------------------------------------------------------------------------------- the models


def test_profile_costs_and_kit_come_from_the_catalogue(tmp_path: Path) -> None:
    r = load_roster(
        write(
            tmp_path,
            warband(
                "Heretic Legion", priest("Pistol", "Sword", "Standard Armour"), {"model": "War Wolf Assault Beast"}
            ),
        )
    )
    p, wolf = model_specs(r)
    assert p["points"] == 80 + 6 + 4 + 15
    assert p["data"]["keywords"] == ["ELITE", "HERETIC", "TOUGH", "LEADER"]
    assert p["data"]["armour"] == -1 and p["base_mm"] == 32.0
    assert wolf["points"] == 140 and wolf["data"]["armour"] == -3 and wolf["base_mm"] == 50.0
    assert "STRONG" not in wolf["data"]["keywords"] and "ARTIFICIAL" in wolf["data"]["keywords"]
    assert [w["name"] for w in wolf["data"]["weapons"]] == ["Chain Maw", "Shredding Claws"]
    assert roster_points(r) == 105 + 140


def test_a_catalogue_entry_may_repeat_its_profile_but_not_change_it(tmp_path: Path) -> None:
    same = priest(movement=6, cost=80, keywords=["LEADER", "TOUGH", "ELITE", "HERETIC"])
    load_roster(write(tmp_path, warband("Heretic Legion", same)))
    found = problems(tmp_path, warband("Heretic Legion", priest(ranged=4, keywords=["ELITE", "LEADER", "HERETIC"])))
    assert [p for p, _ in found] == ["models[0].ranged", "models[0].keywords"]
    assert "has ranged 2, found 4" in found[0][1]


def test_an_unknown_model_or_item_gets_a_suggestion(tmp_path: Path) -> None:
    found = problems(tmp_path, warband("Heretic Legion", priest("Pistol", "Swrod"), {"model": "Heretic Troper"}))
    assert found[0] == (
        "models[0].equipment[1]",
        "expected an item of the catalogue, found 'Swrod' (did you mean 'Sword / Axe'?)",
    )
    assert found[1][0] == "models[1].model" and "'Heretic Trooper'" in found[1][1]


def test_base_options_of_the_profile(tmp_path: Path) -> None:
    lion = {"model": "Lion of Jabir", "base": 60}
    leader = {"model": "Yuzbasi Captain"}
    r = load_roster(write(tmp_path, warband("Iron Sultanate", leader, lion)))
    assert model_specs(r)[1]["base_mm"] == 60.0
    found = problems(tmp_path, warband("Iron Sultanate", leader, {**lion, "base": 45}))
    assert found == [("models[1].base", "the Lion of Jabir stands on 50, 60 mm, found 45")]


# -------------------------------------------------------------------------------------- the list's rules


def test_only_trench_pilgrims_may_buy_a_flail(tmp_path: Path) -> None:
    found = problems(
        tmp_path, warband("Heretic Legion", priest(), {"model": "Heretic Chorister", "equipment": ["Flail"]})
    )
    assert found == [
        (
            "models[1].equipment[0]",
            "Scourge / Battle-Whip / Flail: only Trench Pilgrims may buy it (Heretic Legion list)",
        )
    ]


def test_who_may_buy_an_item(tmp_path: Path) -> None:
    found = problems(
        tmp_path,
        warband(
            "Heretic Legion", priest(), trooper("Silenced Pistol"), {"model": "Death Commando", "equipment": ["Pistol"]}
        ),
    )
    assert found == [
        ("models[1].equipment[0]", "Silenced Pistol: only ELITE models may buy it (Heretic Legion list)"),
        (
            "models[2].equipment[0]",
            "Pistol / Revolver: a Death Commando may only buy Silenced Pistol, Tormentor Chain, Gas Grenades as ranged",
        ),
    ]
    wolf = {"model": "War Wolf Assault Beast", "equipment": ["Sword"]}
    assert ("models[1].equipment[0]", "Sword / Axe: a War Wolf Assault Beast may not buy melee") in problems(
        tmp_path, warband("Heretic Legion", priest(), wolf)
    )
    bayonet = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Pistol", "Bayonet")))
    assert bayonet == [
        ("models[1].equipment[1]", "Bayonet: only models with a BAYONET LUG weapon may buy it (Heretic Legion list)")
    ]


def test_how_many_of_a_model(tmp_path: Path) -> None:
    chorister = {"model": "Heretic Chorister"}
    found = problems(tmp_path, warband("Heretic Legion", priest(), chorister, dict(chorister)))
    assert found == [("models[2]", "the Heretic Legion list fields at most 1 Heretic Chorister, found 2")]
    found = problems(tmp_path, warband("Heretic Legion", priest(), {**chorister, "count": 2}))
    assert found == [("models[1].count", "the Heretic Legion list fields at most 1 Heretic Chorister, found 2")]


def test_a_limit_shared_in_words(tmp_path: Path) -> None:
    wretched = {"model": "Wretched", "count": 2, "equipment": ["Knife"]}
    found = problems(tmp_path, warband("Heretic Legion", priest(), wretched))
    assert found == [("models", "Wretched: 2 must be outnumbered by HERETIC models, found 1 (Heretic Legion list)")]
    load_roster(write(tmp_path, warband("Heretic Legion", priest(), trooper("Knife", count=2), wretched)))


def test_the_leader_slot(tmp_path: Path) -> None:
    found = problems(tmp_path, warband("Heretic Legion", trooper("Knife")))
    assert found == [("models", "the Heretic Legion list needs its leader (Heretic Priest), found none")]
    found = problems(tmp_path, warband("Heretic Legion", priest(), priest()))
    assert ("models[1]", "expected one leader in the warband, found another (first at models[0])") in found
    knight = {"model": "Plague Knight", "equipment": ["Standard Armour"]}
    grail = warband("Cult of the Black Grail", {**knight, "leader": True}, knight)
    r = load_roster(write(tmp_path, grail))
    assert [s["data"]["keywords"].count("LEADER") for s in model_specs(r)] == [1, 0]
    no_lead = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Knife", leader=True)))
    assert ("models[1].leader", "the Heretic Legion list does not let a Heretic Trooper lead") in no_lead


def test_a_limit_per_warband(tmp_path: Path) -> None:
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Machine Gun"), trooper("Machine Gun")))
    assert found == [("models[2].equipment[0]", "Machine Gun: LIMIT 1 per warband, found 2 (Heretic Legion list)")]
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Machine Gun", count=2)))
    assert found == [("models[1].equipment[0]", "Machine Gun: LIMIT 1 per warband, found 2 (Heretic Legion list)")]


def test_hands(tmp_path: Path) -> None:
    """Two hands for ranged and two for melee weapons; a shield takes one of each unless beside a SHIELD COMBO
    weapon; STRONG carries a two-handed melee weapon in one hand unless it is CUMBERSOME."""
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Bolt-Action Rifle", "Pistol")))
    why = "ranged weapons need at most 2 hands, found 3 (Bolt-Action Rifle 2, Pistol / Revolver 1)"
    assert found == [("models[1].equipment[1]", f"a Heretic Trooper has two hands: {why}")]
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Greatsword", "Trench Shield")))
    assert [p for p, _ in found] == [
        "models[1].equipment[1]"
    ] and "melee weapons need at most 2 hands, found 3" in found[0][1]
    load_roster(write(tmp_path, warband("Heretic Legion", priest(), trooper("Trench Polearm", "Trench Shield"))))
    anointed = {"model": "Annointed Heavy Infantry", "equipment": ["Greatsword", "Trench Shield"]}
    load_roster(write(tmp_path, warband("Heretic Legion", priest(), anointed)))
    grenades = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Grenades", "Gas Grenades", "Knife")))
    assert grenades == [
        ("models[1].equipment[1]", "a model carries one grenade type, found Gas Grenades besides Grenades")
    ]


def test_what_a_model_must_carry_and_its_swappable_kit(tmp_path: Path) -> None:
    lieutenant = {"model": "Lieutenant", "equipment": ["Pistol"]}
    found = problems(tmp_path, warband("New Antioch", lieutenant, {"model": "Yeoman"}))
    assert found == [("models[1].equipment", "a Yeoman must carry a ranged weapon, found none")]
    rifle = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle"]}
    gunner = {"model": "Yeoman", "equipment": ["Machine Gun"]}
    r = load_roster(write(tmp_path, warband("New Antioch", lieutenant, rifle, gunner)))
    assert [s["points"] for s in model_specs(r)][1:] == [35, 80]  # the rifle is worth 5; swapped, 30 + 50


def test_ducats_and_glory_against_the_limits(tmp_path: Path) -> None:
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Knife", count=19), limit=500))
    # the Priest 80 + Pistol 6 + Sword 4, nineteen Troopers at 30 + a Knife 1
    assert found == [("points_limit", "expected a total of at most 500 ducats, found 679 (179 over)")]
    sin_eater = {"model": "Sin Eater"}
    found = problems(tmp_path, warband("Heretic Legion", priest(), sin_eater))
    assert found == [("glory_limit", "expected a total of at most 0 glory, found 6 (glory_limit)")]
    r = load_roster(write(tmp_path, warband("Heretic Legion", priest(), sin_eater, glory_limit=6)))
    assert any(note == "glory: 6 of 6" for note in describe_roster(r).notes)


def test_upgrades(tmp_path: Path) -> None:
    pilgrims = [{"model": "War Prophet"}]
    zealot = {"model": "Trench Pilgrim", "equipment": ["Greatsword", "Trench Club"], "upgrades": ["Zealot Strength"]}
    r = load_roster(write(tmp_path, warband("Trench Pilgrims", *pilgrims, zealot)))
    spec = model_specs(r)[1]
    assert "STRONG" in spec["data"]["keywords"] and spec["points"] == 30 + 12 + 3 + 5
    found = problems(tmp_path, warband("Trench Pilgrims", *pilgrims, zealot, dict(zealot)))
    why = "at most 1 for Trench Pilgrim per warband, found 2 (Trench Pilgrims list)"
    assert found == [("models[2].upgrades[0]", f"Zealot Strength: {why}")]
    found = problems(tmp_path, warband("Heretic Legion", priest(), trooper("Knife", upgrades=["Zealot Strength"])))
    why = "the Heretic Legion list does not offer it to a Heretic Trooper"
    assert found == [("models[1].upgrades[0]", f"Zealot Strength: {why}")]
    legion = load_roster(
        write(tmp_path, warband("Heretic Legion", priest(), trooper("Knife", upgrades=["Melee Legionnaire"])))
    )
    assert model_specs(legion)[1]["data"]["melee"] == 1


def test_variants(tmp_path: Path) -> None:
    ghosts = warband("Heretic Legion", priest(), variant="Trench Ghosts")
    r = load_roster(write(tmp_path, ghosts))
    assert r.list_id == "trench_ghosts"
    found = problems(tmp_path, warband("Heretic Legion", priest(), variant="Eire Rangers"))
    assert found[0][0] == "variant" and "Trench Ghosts" in found[0][1]


def test_every_problem_at_once_in_file_order(tmp_path: Path) -> None:
    doc = warband(
        "Heretic Legion",
        priest("Pistol", "Swrod"),
        {"model": "Heretic Chorister", "equipment": ["Flail"]},
        trooper("Machine Gun", "Pistol"),
        trooper("Machine Gun"),
        {"model": "Lieutenant"},
        limit=300,
    )
    doc["gold"] = 1
    places = [p for p, _ in problems(tmp_path, doc)]
    assert places == [
        "gold",
        "models[0].equipment[1]",
        "models[1].equipment[0]",
        "models[2].equipment[1]",
        "models[3].equipment[0]",
        "models[4].model",
        "points_limit",
    ]


def test_a_faction_of_your_own_only_with_custom_models(tmp_path: Path) -> None:
    found = problems(tmp_path, warband("Orks", priest()))
    assert ("models[0].model", "a model of the catalogue needs the warband's faction from the catalogue") in found


# ---------------------------------------------------------------------------------------------- play


@pytest.mark.parametrize("path", BOOK, ids=[p.stem for p in BOOK])
def test_the_samples_by_the_book_are_legal_lists(path: Path) -> None:
    r = load_roster(path)
    assert r.list_id is not None and all(not m.is_custom for m in r.models)
    assert 600 <= roster_points(r) <= 700


def test_a_catalogue_warband_plays_a_seeded_game_that_round_trips() -> None:
    rs = registry.get("trench-crusade")
    rosters = [
        rs.load_roster(DATA / "warbands" / name) for name in ("heretic_legion_raiders.yaml", "new_antioch_company.yaml")
    ]
    game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), 5)
    pick = Rng(5)
    for _ in range(20_000):
        if game.decision.is_over:
            break
        if game.decision.is_chance:
            game.roll()
            continue
        actions = game.legal_actions()
        game.apply(actions[pick.below(len(actions))])
    assert game.decision.is_over
    text = json.dumps(game.to_json(), sort_keys=True)
    assert json.dumps(Game.from_json(json.loads(text)).to_json(), sort_keys=True) == text


JUNK = st.one_of(
    st.none(),
    st.integers(-5, 10**6),
    st.text(max_size=12),
    st.booleans(),
    st.lists(st.one_of(st.text(max_size=20), st.integers()), max_size=3),
    st.sampled_from(["Pistol", "Heretic Priest", "Plague Knight", "Grenades", "Yeoman", "Melee Legionnaire"]),
)
FIELDS = ["model", "equipment", "upgrades", "count", "name", "leader", "base", "cost", "movement", "keywords",
          "custom", "type", "weapons", "armour_item", "shield"]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(FIELDS), JUNK, max_size=6),
    st.sampled_from(["Heretic Legion", "Orks", "Eire Rangers"]),
)
def test_a_broken_entry_is_a_problem_never_a_crash(entry: dict[str, Any], faction: str) -> None:
    reading = read_warband("junk.yaml", warband(faction, priest(), entry, dict(entry)))
    assert reading.roster is not None or reading.problems
    assert all(p.file == "junk.yaml" for p in reading.problems)


def test_a_scenario_mine_off_the_table_is_named(tmp_path: Path) -> None:
    """A scenario's mines (rules.mines, for De-Mine) are checked at load: each bad one named by its place."""
    rs = registry.get("trench-crusade")
    doc = yaml.safe_load(rs.default_scenario().read_text())
    doc["rules"] = {"mines": "10,10; 99,3; x"}
    path = tmp_path / "mined.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(ScenarioError) as err:
        rs.load_scenario(path)
    text = str(err.value)
    assert "rules.mines[1]" in text and "off the" in text and "rules.mines[2]" in text
    assert "rules.mines[0]" not in text and "trench-crusade/ability/de_mine" in text
    doc["rules"] = {"mines": "10,10"}
    path.write_text(yaml.safe_dump(doc))
    assert rs.load_scenario(path)["rules"]["mines"] == "10,10"


def test_an_item_only_another_variant_sells_names_that_variant(tmp_path: Path) -> None:
    """A Trench Pilgrims model may not buy an Automatic Rifle: of the Pilgrims' lists only the War Pilgrimage of Saint
    Methodius sells it, so the refusal names that variant, never "only ... Trench Pilgrims may buy it (Trench
    Pilgrims list)", which contradicts itself."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Automatic Rifle"]}
    found = problems(tmp_path, warband("Trench Pilgrims", {"model": "War Prophet"}, pilgrim))
    rifle = [message for place, message in found if place == "models[1].equipment[0]"]
    assert rifle == [
        "Automatic Rifle: only New Antioch and Heretic Legion and War Pilgrimage of Saint Methodius may buy it"
        " (Trench Pilgrims list)"
    ], found
