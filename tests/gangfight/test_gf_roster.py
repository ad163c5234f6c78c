"""Gangfight party files (roster.py): the bundled samples load with the totals worked out by hand in the data
digest §6, each party-building rule names its file and place, and every problem is reported at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from warband.kernel.errors import RosterError
from warband.kernel.params import ParamTable
from warband.rulesets.gangfight import DATA_DIR, PARAMS_PATH
from warband.rulesets.gangfight.roster import (
    GFModel,
    effective_profile,
    load_armoury,
    load_party,
    load_profiles,
    model_points,
    party_points,
    resolve_model,
)

PARTIES = DATA_DIR / "parties"

# data digest §6: (points limit, total points, models, Heroes), each total summed by hand there.
EXPECTED = {
    "shieldwall_sellswords.yaml": (500, 482, 10, 1),
    "crossroads_marksmen.yaml": (500, 481, 11, 1),
    "ogre_kin_raiders.yaml": (1000, 971, 19, 2),
    "gunrunners.yaml": (1000, 962, 18, 3),
}


def test_bundled_data_files_load() -> None:
    assert len(load_armoury().melee) == 9
    assert len(load_armoury().ranged) == 11
    assert [p.type for p in load_profiles().profiles][:3] == ["Human Regular", "Human Veteran", "Human Hero"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_parties_load_with_the_digest_totals(name: str) -> None:
    party = load_party(PARTIES / name)
    limit, total, size, heroes = EXPECTED[name]
    assert (party.points_limit, party_points(party), sum(m.count for m in party.models)) == (limit, total, size)
    ranks = [resolve_model(m) for m in party.models]
    assert sum(m.count for m, r in zip(party.models, ranks, strict=True) if r and r.rank == "Hero") == heroes
    assert len({r.rank for r in ranks if r}) >= 2  # mixed ranks


def test_every_sample_is_listed() -> None:
    assert sorted(p.name for p in PARTIES.glob("*.yaml")) == sorted(EXPECTED)


def one(**fields: Any) -> GFModel:
    return GFModel.model_validate(fields)


def points(**fields: Any) -> int:
    r = resolve_model(one(**fields))
    assert r is not None
    return model_points(r)


def test_model_points_by_hand() -> None:
    # Hero 54 + great weapon 8 + heavy armour 25; Veteran 36 + shield 10 + medium 15; Skulker 22 + sling 3.
    assert points(type="Human Hero", weapons=["Great weapon"], armour="heavy") == 87
    assert points(type="Human Veteran", shield=True, armour="medium") == 61
    assert points(type="Skulker", weapons=["Sling"]) == 25
    # Large: armour x2 (digest B1 Armour) -> 95 + 15 x 2; weapons x2 too by proposal -> 95 + 5 x 2.
    assert points(type="Ogre brute", armour="medium") == 125
    assert points(type="Ogre brute", weapons=["Spear"]) == 105
    # Huge: x4 -> 200 + 15 x 4.
    assert points(type="Giant", armour="medium") == 260


def test_weapon_cost_scaling_is_a_parameter() -> None:
    params = ParamTable.load(PARAMS_PATH).resolve({"weapon_cost_scales_with_size": False})
    r = resolve_model(one(type="Ogre brute", weapons=["Spear"], armour="medium"))
    assert r is not None
    assert model_points(r, params=params) == 95 + 5 + 30


def test_armour_and_shield_change_the_profile() -> None:
    # digest B1 Armour: heavy +2 ARM -1 MOV -1 DEF; shield +1 DEF; medium +1 ARM and (PROPOSED) -1 MOV.
    hero = resolve_model(one(type="Human Hero", armour="heavy", shield=True))
    assert hero is not None
    c = effective_profile(hero)
    assert (c.MOV, c.ARM, c.DEF) == (3, 6, 5)
    regular = resolve_model(one(type="Human Regular", armour="medium"))
    assert regular is not None
    c = effective_profile(regular)
    assert (c.MOV, c.ARM, c.DEF) == (3, 4, 4)
    no_penalty = ParamTable.load(PARAMS_PATH).resolve({"medium_armour_mov": 0})
    assert effective_profile(regular, no_penalty).MOV == 4


# -- problems, each with its place ------------------------------------------------------------------------------


def leader(**over: Any) -> dict[str, Any]:
    return {"type": "Human Hero", "leader": True, **over}


def party(*models: dict[str, Any], limit: int = 500) -> dict[str, Any]:
    return {"ruleset": "gangfight", "name": "Test", "points_limit": limit, "models": list(models)}


def write(tmp_path: Path, doc: Any, name: str = "p.yaml") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc) if name.endswith(".json") else yaml.safe_dump(doc), encoding="utf-8")
    return p


def problems(tmp_path: Path, doc: Any) -> list[tuple[str, str]]:
    path = write(tmp_path, doc)
    with pytest.raises(RosterError) as info:
        load_party(path)
    assert all(p.file == str(path) for p in info.value.problems)
    return [(p.place, p.message) for p in info.value.problems]


def places(tmp_path: Path, doc: Any) -> list[str]:
    return [place for place, _ in problems(tmp_path, doc)]


def test_a_valid_json_party_loads(tmp_path: Path) -> None:
    loaded = load_party(write(tmp_path, party(leader(), {"type": "Human Regular"}), "p.json"))
    assert party_points(loaded) == 54 + 29


def test_unknown_weapon_names_its_place(tmp_path: Path) -> None:
    found = problems(tmp_path, party(leader(), {"type": "Human Regular", "weapons": ["Bow", "Lazer"]}))
    assert found[0][0] == "models[1].weapons[1]"
    assert "found 'Lazer'" in found[0][1] and "Crossbow" in found[0][1]


def test_shield_is_refused_with_two_handed_or_paired_weapons(tmp_path: Path) -> None:
    doc = party(
        leader(weapons=["Halberd"], shield=True),
        {"type": "Human Regular", "weapons": ["Paired weapons"], "shield": True},
        {"type": "Human Regular", "weapons": ["Bow"], "shield": True},
        {"type": "Human Regular", "weapons": ["Spear", "Sling"], "shield": True},
    )
    assert places(tmp_path, doc) == ["models[0].shield", "models[1].shield", "models[2].shield"]


def test_beasts_carry_only_natural_weapons_and_buy_nothing(tmp_path: Path) -> None:
    doc = party(leader(), {"type": "War hound", "weapons": ["Hand weapon"], "armour": "medium", "shield": True})
    assert places(tmp_path, doc) == ["models[1].weapons[0]", "models[1].armour", "models[1].shield"]


def test_natural_weapons_are_for_creatures(tmp_path: Path) -> None:
    assert places(tmp_path, party(leader(weapons=["Natural weapons"]))) == ["models[0].weapons[0]"]


def test_only_one_use_items_repeat(tmp_path: Path) -> None:
    doc = party(leader(weapons=["Grenade", "Grenade", "Pistol", "Pistol"]))
    found = problems(tmp_path, doc)
    assert [p for p, _ in found] == ["models[0].weapons[3]"]
    assert "first at models[0].weapons[2]" in found[0][1]


def test_leader_is_one_hero_never_a_creature(tmp_path: Path) -> None:
    assert places(tmp_path, party({"type": "Human Hero"})) == ["models"]
    assert places(tmp_path, party(leader(), leader())) == ["models[1].leader"]
    assert places(tmp_path, party({"type": "Human Veteran", "leader": True})) == ["models[0].leader"]
    assert places(tmp_path, party({"type": "Skulker", "leader": True})) == ["models[0].leader"]
    assert places(tmp_path, party(leader(count=2))) == ["models[0].count"]


def test_creatures_are_regulars(tmp_path: Path) -> None:
    profile = {"MOV": 4, "ATT": 3, "MRK": 2, "DEF": 4, "IV": 2, "WP": 3, "ARM": 3, "EN": 4, "DAM": 4}
    orc = {"type": "Orc", "rank": "Veteran", "size": "Medium", "cost": 30, "creature": True, "profile": profile}
    found = problems(tmp_path, party(leader(), orc))
    assert found == [("models[1].rank", "expected rank Regular for a creature, found Veteran")]


def test_bundled_type_fields_must_agree(tmp_path: Path) -> None:
    profile = {"MOV": 5, "ATT": 3, "MRK": 3, "DEF": 4, "IV": 3, "WP": 3, "ARM": 3, "EN": 3, "DAM": 4}
    found = problems(tmp_path, party(leader(), {"type": "Human Regular", "cost": 20, "profile": profile}))
    assert [p for p, _ in found] == ["models[1].cost", "models[1].profile"]
    assert "expected 29" in found[0][1]


def test_custom_type_needs_its_profile(tmp_path: Path) -> None:
    found = problems(tmp_path, party(leader(), {"type": "Orc", "rank": "Regular"}))
    assert found[0][0] == "models[1].type"
    assert "without size, cost, profile" in found[0][1]
    profile = {"MOV": 4, "ATT": 3, "MRK": 2, "DEF": 4, "IV": 2, "WP": 3, "ARM": 3, "EN": 4, "DAM": 4}
    custom = {"type": "Orc", "rank": "Regular", "size": "Medium", "cost": 30, "creature": True, "profile": profile}
    loaded = load_party(write(tmp_path, party(leader(), custom)))
    assert party_points(loaded) == 54 + 30


def test_points_limit_and_sane_limits_name_the_limit(tmp_path: Path) -> None:
    found = problems(tmp_path, party(leader(), {"type": "Human Regular", "count": 20}))
    assert found == [("points_limit", "expected a total of at most 500 points, found 634 (134 over)")]
    found = problems(tmp_path, party(leader(), {"type": "Human Regular", "count": 21}, limit=6000))
    assert [p for p, _ in found] == ["points_limit", "models[1].count"]
    assert "5000" in found[0][1] and "20" in found[1][1]
    bad_stat = {"type": "Orc", "rank": "Regular", "size": "Medium", "cost": 1, "profile": {"MOV": 13}}
    found = problems(tmp_path, party(leader(), bad_stat))
    assert ("models[1].profile.MOV", "expected less than or equal to 12, found 13") in found


def test_large_games_field_two_or_three_heroes(tmp_path: Path) -> None:
    found = problems(tmp_path, party(leader(), limit=1000))
    assert found == [("models", "expected 2-3 Heroes in a party of 1000 points, found 1")]
    assert places(tmp_path, party(leader(), {"type": "Human Hero", "count": 3}, limit=1000)) == ["models"]
    load_party(write(tmp_path, party(leader(), {"type": "Human Hero", "count": 2}, limit=1000)))


def test_every_problem_at_once_even_beside_a_broken_entry(tmp_path: Path) -> None:
    doc = party(leader(), {"type": "Human Regular", "count": 0}, {"type": "Human Regular", "weapons": ["Lazer"]})
    assert places(tmp_path, doc) == ["models[1].count", "models[2].weapons[0]"]


def test_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("ruleset: gangfight\nmodels: [\n", encoding="utf-8")
    with pytest.raises(RosterError) as info:
        load_party(p)
    assert info.value.problems[0].place.startswith("line ")


def test_modern_weapons_never_reload(tmp_path: Path) -> None:
    raw = yaml.safe_load((DATA_DIR / "armoury.yaml").read_text(encoding="utf-8"))
    raw["ranged"][7]["reload"] = True  # Shotgun
    p = write(tmp_path, raw, "armoury.yaml")
    with pytest.raises(RosterError) as info:
        load_armoury(p)
    assert info.value.problems[0].place == "ranged[7]"
    assert "modern" in info.value.problems[0].message
    assert {w.name for w in load_armoury().ranged if w.era == "modern"} == {"Pistol", "Shotgun", "Rifle", "Grenade"}
    assert all(not w.reload for w in load_armoury().ranged if w.era == "modern")
