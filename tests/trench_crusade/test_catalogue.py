"""The Trench Crusade catalogue: the lists load whole, names are found as players write them, catalogue weapons
become the engine's weapons, and what the engine plays is one list of data that names only real entries."""

from __future__ import annotations

import pytest

from warband.rulesets.trench_crusade.armoury import WEAPON_KEYWORDS
from warband.rulesets.trench_crusade.catalogue import CATALOGUE_DIR, load_catalogue
from warband.rulesets.trench_crusade.modelled import engine_weapon, gaps_of_item, gaps_of_profile, load_modelled
from warband.rulesets.trench_crusade.roster import model_specs, read_warband, unmodelled

CAT = load_catalogue()


def test_the_catalogue_holds_every_list_profile_and_item() -> None:
    assert len(CAT.factions()) == 6
    assert sum(len(CAT.variants(f.id)) for f in CAT.factions()) == 17
    assert (len(CAT.profiles), len(CAT.items)) == (108, 211)
    assert (len(CAT.keywords), len(CAT.abilities), len(CAT.upgrades)) == (41, 143, 89)
    every_model = {slot.model for f in CAT.lists.values() for slot in f.models}
    every_item = {sold.item for f in CAT.lists.values() for sold in f.equipment}
    assert every_model <= set(CAT.profiles) and every_item <= set(CAT.items)


def test_the_source_is_credited_beside_the_data() -> None:
    text = (CATALOGUE_DIR / "README.md").read_text(encoding="utf-8")
    assert "Trench Companion" in text and "MIT" in text and "v1.6" in text


def test_a_list_is_found_by_the_names_players_use() -> None:
    for name in ("Heretic Legion", "heretic_legion", "HERETIC LEGION"):
        assert CAT.find_list(name) is CAT.lists["heretic_legion"]
    for name in ("New Antioch", "Principality of New Antioch", "The Principality of New Antioch"):
        assert CAT.find_list(name) is CAT.lists["new_antioch"]
    assert CAT.find_list("Trench Ghosts") is CAT.lists["trench_ghosts"]
    assert CAT.lists["new_antioch"].label == "New Antioch"
    assert CAT.find_list("Orks") is None


@pytest.mark.parametrize(
    ("written", "item"),
    [
        ("Pistol", "pistol_revolver"),  # one part of "Pistol / Revolver"
        ("Flail", "scourge_battle_whip_flail"),
        ("Bolt Action Rifle", "bolt_action_rifle"),  # the armoury's spelling
        ("Trench Knife", "knife_dagger"),
        ("Great Sword", "greatsword_greataxe"),
        ("machine gun", "machine_gun"),
        ("Koraktor, the Great Tome of Hell", "koraktor_the_great_tome_of_hell"),
    ],
)
def test_an_item_is_found_by_the_names_players_use(written: str, item: str) -> None:
    found = CAT.find_item(written)
    assert found is not None and found.id == item


def test_lists_say_who_fields_and_sells_what() -> None:
    hl = CAT.lists["heretic_legion"]
    priest = hl.entries("heretic_priest")
    assert len(priest) == 1 and priest[0].captain and priest[0].ducats == 80 and priest[0].min == 1
    assert hl.sells("scourge_battle_whip_flail") is None
    sellers = {CAT.base_of(f).label for f in CAT.lists_selling("scourge_battle_whip_flail")}
    assert sellers == {"Trench Pilgrims"}
    assert CAT.lists["new_antioch"].sells("trench_polearm").ducats == 7  # type: ignore[union-attr]


def test_catalogue_weapons_become_the_engines_weapons() -> None:
    """The lists' v1.6 modifiers decide: '3 attacks' is AUTOMATIC 3, a 3D6 injury roll is DEADLY, RISKY ACTION is
    the engine's RISKY, the Polearm's -1 DICE for chargers is BLOCK, a built-in weapon takes no hand."""
    mg = engine_weapon(CAT.items["machine_gun"])
    assert mg.keywords == ["HEAVY", "AUTOMATIC 3", "RELOAD"] and mg.range == 36 and mg.hands == 2
    wheel = engine_weapon(CAT.items["catherine_wheel"])
    assert set(wheel.keywords) == {"HEAVY", "RISKY", "DEADLY"} and wheel.dice == 1
    assert "BLOCK" in engine_weapon(CAT.items["trench_polearm"]).keywords
    maw = engine_weapon(CAT.items["chain_maw"])
    assert maw.hands == 0 and "IGNORE ARMOUR" in maw.keywords and maw.dice == 1
    assert engine_weapon(CAT.items["knife_dagger"]).dice == -1
    assert engine_weapon(CAT.items["golden_khanjar"]).keywords == ["CRITICAL", "CLEAVE 2"]
    for item in CAT.items.values():
        if item.is_weapon:
            names = {k.rsplit(" ", 1)[0] if k[-1].isdigit() else k for k in engine_weapon(item).keywords}
            assert names <= WEAPON_KEYWORDS, item.id


def test_what_the_engine_does_not_play_of_an_item_is_named() -> None:
    assert gaps_of_item(CAT.items["musket"]) == []  # its -1 injury DICE is played (weapon injury_dice)
    assert gaps_of_item(CAT.items["machine_gun"]) == []
    pills = gaps_of_item(CAT.items["martyrdom_pills"])
    assert "CONSUMABLE" not in pills and any("FEAR" in g for g in pills)  # the keyword is played, the effect not
    assert gaps_of_item(CAT.items["grenades"]) == []  # BLAST FRINGE plays its rule text
    assert gaps_of_item(CAT.items["sniper_rifle"]) == []  # CRITICAL PIERCES, and the scope's IGNORE LONG RANGE
    assert gaps_of_item(CAT.items["silenced_pistol"]) != []
    # the catalogue's notes on where a number came from are not rules
    assert gaps_of_item(CAT.items["greatsword_greataxe"]) == []
    assert ("ability", "puppet_master") not in gaps_of_profile(CAT.profiles["heretic_priest"])  # played
    assert ("ability", "devour_the_guilty") not in gaps_of_profile(CAT.profiles["sin_eater"])  # played
    assert ("ability", "mine_setting") in gaps_of_profile(CAT.profiles["sultanate_sapper"])  # another list's
    assert ("keyword", "INFILTRATOR") not in gaps_of_profile(CAT.profiles["death_commando"])  # played


def test_the_modelled_list_names_only_real_entries() -> None:
    modelled = load_modelled()
    catalogue_keywords = {k.name.replace(" (X)", "") for k in CAT.keywords.values()}
    engine_only = {"FLYING", "NEGATE FEAR", "MEDIC", "IRON SULTANATE", "SERPENT", "MERCENARY"}
    assert set(modelled.keywords) <= catalogue_keywords | engine_only
    # an ability is a catalogue ability, the power an upgrade grants (Miasma of Pestilence) or the action an item
    # grants (the Medi-Kit's)
    granted = {a for u in modelled.upgrades.values() for a in u.abilities}
    kit = {a for i in modelled.items.values() for a in i.abilities}
    assert set(modelled.abilities) <= set(CAT.abilities) | (granted & set(CAT.upgrades)) | (kit & set(CAT.items))
    assert kit <= set(modelled.abilities) and granted <= set(modelled.abilities)
    assert set(modelled.rules) <= set(CAT.rules)
    assert set(modelled.upgrades) <= set(CAT.upgrades)
    assert set(modelled.items) <= set(CAT.items)


def _one_model_warband(list_id: str, model_id: str) -> dict[str, object]:
    faction = CAT.lists[list_id]
    profile = CAT.profiles[model_id]
    equipment = list(profile.kit_choose_one[0]) if profile.kit_choose_one else []
    equipment += [s.item for s in profile.kit_swappable]
    return {
        "ruleset": "trench-crusade",
        "name": "one",
        "faction": faction.id,
        "points_limit": 2000,
        "glory_limit": 50,
        "models": [{"model": model_id, "equipment": equipment}],
    }


@pytest.mark.parametrize("list_id", sorted(CAT.lists))
def test_every_model_of_every_list_reads_and_becomes_an_engine_model(list_id: str) -> None:
    """No list entry makes the reader raise; a model that its list lets stand alone becomes the engine's
    document, with a weapon spec for each catalogue weapon it carries."""
    for slot in CAT.lists[list_id].models:
        reading = read_warband("w.yaml", _one_model_warband(list_id, slot.model))
        places = {p.place for p in reading.problems}
        assert places <= {"models", "models[0]", "models[0].equipment"}, reading.problems
        if reading.roster is not None:
            (spec, *_) = model_specs(reading.roster)
            weapons = [i for i in reading.roster.models[0].book.items if CAT.items[i].is_weapon]  # type: ignore[union-attr]
            unarmed = not any("melee" in CAT.items[i].modes for i in weapons)  # it fights Unarmed
            assert len(spec["data"]["weapons"]) == len(weapons) + unarmed
            assert isinstance(unmodelled(reading.roster), list)
