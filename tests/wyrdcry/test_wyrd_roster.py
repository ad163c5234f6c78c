"""Wyrdcry warband files and faction data: the samples load at the digest's totals, the data is consistent, and
every broken rule is reported with the file, its place and the limit or the expected value."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from warband.kernel.errors import RosterError
from warband.rulesets.wyrdcry.roster import DATA_DIR, load_data, load_warband, warband_points

WARBANDS = DATA_DIR / "warbands"

#: Totals written in the data digest (wyrdcry-data.md §5), summed there by hand from the price lists.
DIGEST_TOTALS = {
    "mercenaries_hardy_company.yaml": 1000,
    "mercenaries_reikland_shots.yaml": 980,
    "sisters_hammer_of_sigmar.yaml": 980,
    "sisters_words_of_healing.yaml": 995,
    "witch_hunters_pyre.yaml": 940,
    "witch_hunters_bolt_and_hound.yaml": 960,
}


def sample(name: str = "mercenaries_hardy_company.yaml") -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((WARBANDS / name).read_text())
    return copy.deepcopy(doc)


def problems(tmp_path: Path, doc: Any) -> list[tuple[str, str]]:
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(RosterError) as info:
        load_warband(path)
    assert all(p.file == str(path) for p in info.value.problems)
    return [(p.place, p.message) for p in info.value.problems]


def one(found: list[tuple[str, str]], place: str) -> str:
    matching = [m for p, m in found if p == place]
    assert matching, found
    return matching[0]


# -- samples and data ----------------------------------------------------------------------------------------------


def test_six_samples_two_per_faction_at_one_points_limit() -> None:
    files = sorted(p.name for p in WARBANDS.glob("*.yaml"))
    assert files == sorted(DIGEST_TOTALS)
    bands = [load_warband(WARBANDS / f) for f in files]
    assert {w.points_limit for w in bands} == {1000}
    per_faction = {f: sum(1 for w in bands if w.faction == f) for f in load_data().factions}
    assert per_faction == {"mercenaries": 2, "sisters-of-sigmar": 2, "witch-hunters": 2}


@pytest.mark.parametrize("name", sorted(DIGEST_TOTALS))
def test_sample_totals_match_the_digest(name: str) -> None:
    assert warband_points(load_warband(WARBANDS / name)) == DIGEST_TOTALS[name]


def test_data_is_consistent() -> None:
    d = load_data()
    assert len(d.factions) >= 3
    universal = {a.id for a in d.universal.abilities}
    assert universal == {"rush", "onslaught", "respite", "command", "rampage"}
    assert {r.id for r in d.universal.reactions} == {"counter", "take-cover", "strike-them-down"}
    weapons = {w.name for w in d.catalogue.weapons}
    armour = {a.name for a in d.catalogue.armour}
    for f in d.factions.values():
        defined = {a.id for a in f.abilities} | {r.id for r in f.reactions}
        assert set(f.faction_abilities) <= defined, f.id
        assert set(f.kit) | set(f.hero_kit) <= weapons | armour, f.id
        assert all(d.hired.fighter(h) is not None for h in f.hired_swords), f.id
        for fighter in f.fighters:
            assert set(fighter.abilities) <= defined, fighter.type
            assert set(fighter.weapons) <= weapons, fighter.type
        assert sum(1 for x in f.fighters if "LEADER" in x.keywords) == 1
    hired = {a.id for a in d.hired.abilities} | {r.id for r in d.hired.reactions}
    assert all(set(h.abilities) <= hired for h in d.hired.fighters)
    keywords = {k.id for k in d.universal.keywords}
    every_type = [x for f in d.factions.values() for x in f.fighters] + list(d.hired.fighters)
    assert all(set(x.keywords) <= keywords for x in every_type)
    assert any("PRIEST" in x.keywords or "WIZARD" in x.keywords for x in every_type)  # Channeling has a user
    rule_names = {r.id for r in d.catalogue.weapon_rules}
    assert all(r.split(" ")[0] in rule_names or r in rule_names for w in d.catalogue.weapons for r in w.rules)


def test_captain_command_is_not_the_universal_command() -> None:
    merc = load_data().factions["mercenaries"]
    assert "captain-command" in merc.fighters[0].abilities
    assert "command" not in {a.id for a in merc.abilities}


# -- problems with places ------------------------------------------------------------------------------------------


def test_unknown_weapon_names_its_place(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][3]["attacks"][0]["weapon"] = "Lance"
    assert "found 'Lance'" in one(problems(tmp_path, doc), "fighters[3].attacks[0].weapon")


def test_attack_numbers_must_match_the_weapon(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][3]["attacks"][0]["damage"] = [3, 4]
    assert one(problems(tmp_path, doc), "fighters[3].attacks[0].damage").startswith("expected [2, 4] for Axe")


def test_limits_are_in_the_message(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][0]["bravery"] = 7
    doc["fighters"][1]["attacks"][0]["attacks"] = 0
    doc["fighters"][2]["count"] = 16
    found = problems(tmp_path, doc)
    assert "6" in one(found, "fighters[0].bravery")
    assert "1" in one(found, "fighters[1].attacks[0].attacks")
    assert "15" in one(found, "fighters[2].count")


def test_points_limit_and_fighter_list_are_bounded(tmp_path: Path) -> None:
    doc = sample()
    doc["points_limit"] = 20000
    assert "10000" in one(problems(tmp_path, doc), "points_limit")
    doc = sample()
    doc["fighters"] = doc["fighters"][:2]
    assert one(problems(tmp_path, doc), "fighters") == "expected 3 to 15 fighters (hired swords not counted), found 2"


def test_schema_and_rule_problems_are_reported_together(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][0]["bravery"] = 9
    doc["fighters"][5]["attacks"][0]["weapon"] = "Lance"
    found = problems(tmp_path, doc)
    assert {p for p, _ in found} >= {"fighters[0].bravery", "fighters[5].attacks[0].weapon"}


def test_exactly_one_leader(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][1]["keywords"] = ["HERO", "LEADER"]
    assert "found 2" in one(problems(tmp_path, doc), "fighters")


def test_points_over_the_limit(tmp_path: Path) -> None:
    doc = sample()
    doc["points_limit"] = 990
    assert one(problems(tmp_path, doc), "points_limit").endswith("found 1000 (10 over)")


def test_hero_kit_only_on_heroes(tmp_path: Path) -> None:
    doc = sample()
    pistol = copy.deepcopy(doc["fighters"][0]["attacks"][1])
    doc["fighters"][7]["attacks"].append(pistol)  # the Youngblood
    assert "HERO-only" in one(problems(tmp_path, doc), "fighters[7].attacks[1].weapon")


def test_penitent_wears_no_armour(tmp_path: Path) -> None:
    doc = sample("witch_hunters_pyre.yaml")
    doc["fighters"][3]["armour"] = ["Light Armour"]
    assert "Penitent" in one(problems(tmp_path, doc), "fighters[3].armour[0]")


def test_two_handed_and_shield_overfill_melee_slots(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][1]["armour"] = ["Light Armour", "Shield"]  # Great Weapon is Two Handed
    assert "at most 2 melee slots" in one(problems(tmp_path, doc), "fighters[1].attacks")


def test_one_ranged_weapon_but_a_brace_pair_counts_once(tmp_path: Path) -> None:
    doc = sample("witch_hunters_bolt_and_hound.yaml")
    assert load_warband(WARBANDS / "witch_hunters_bolt_and_hound.yaml").fighters[1].attacks[1].weapon == "Pistol"
    bow = copy.deepcopy(doc["fighters"][2]["attacks"][0])
    doc["fighters"][1]["attacks"].append(bow)
    assert "found 2" in one(problems(tmp_path, doc), "fighters[1].attacks")


def test_profile_must_match_type_and_options(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][3]["health"] = 10  # a Warrior is 12 with Hardy
    assert one(problems(tmp_path, doc), "fighters[3].health").startswith("expected 12 (Warrior's profile with options")


def test_martial_discipline_allows_one_point_not_two(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][1]["shoot"] = 4  # already +1 Fight
    found = problems(tmp_path, doc)
    assert {p for p, _ in found} == {"fighters[1].fight", "fighters[1].shoot"}


def test_options_and_faction_are_checked(tmp_path: Path) -> None:
    doc = sample()
    doc["options"] = ["hardy", "lucky"]
    assert "found 'lucky'" in one(problems(tmp_path, doc), "options[1]")
    doc["faction"] = "skaven"
    assert "found 'skaven'" in one(problems(tmp_path, doc), "faction")


def test_type_limits_and_hired_swords(tmp_path: Path) -> None:
    doc = sample("mercenaries_reikland_shots.yaml")
    doc["fighters"][2]["count"] = 6  # Marksmen: at most 5
    doc["fighters"][-1]["type"] = "Ogre Bodyguard"
    found = problems(tmp_path, doc)
    assert "at most 5 Marksman" in one(found, "fighters")
    assert "hired sword" in one(found, f"fighters[{len(doc['fighters']) - 1}].type")


def test_error_text_names_file_and_place(tmp_path: Path) -> None:
    doc = sample()
    doc["fighters"][3]["attacks"][0]["weapon"] = "Lance"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(RosterError, match=r"bad\.yaml: fighters\[3\]\.attacks\[0\]\.weapon: expected"):
        load_warband(path)


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: wyrdcry\nfighters: [\n")
    with pytest.raises(RosterError, match="line"):
        load_warband(path)
