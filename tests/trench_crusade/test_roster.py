"""Trench Crusade rosters: samples load, each list-building rule names its exact place, specs are JSON."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from warband.kernel.errors import RosterError
from warband.rulesets.trench_crusade.roster import (
    ARMOURY_PATH,
    load_armoury,
    load_roster,
    model_specs,
    parse_keyword,
    roster_points,
)

DATA = Path(__file__).resolve().parents[2] / "src" / "warband" / "rulesets" / "trench_crusade" / "data"
WARBANDS = sorted((DATA / "warbands").glob("*.yaml"))
# the samples as they were hand-typed before they came from the catalogue: custom models read through the armoury
HAND = Path(__file__).resolve().parent / "hand_typed"


def pilgrim(**over: Any) -> dict[str, Any]:
    m: dict[str, Any] = {
        "type": "Trench Pilgrim",
        "custom": True,
        "cost": 30,
        "movement": 6,
        "ranged": 0,
        "melee": 0,
        "armour": 0,
        "base": 25,
        "keywords": ["PILGRIM"],
        "weapons": ["Bolt Action Rifle", "Trench Club"],
    }
    m.update(over)
    return m


def roster(*models: dict[str, Any], limit: int = 700) -> dict[str, Any]:
    leader = pilgrim(type="War Prophet", cost=80, ranged=2, melee=2, base=32, keywords=["ELITE", "LEADER"])
    return {
        "ruleset": "trench-crusade",
        "name": "Test",
        "faction": "Trench Pilgrims",
        "points_limit": limit,
        "models": [leader, *models],
    }


def write(tmp_path: Path, doc: Any, name: str = "r.yaml") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc) if name.endswith(".json") else yaml.safe_dump(doc), encoding="utf-8")
    return p


def problems(tmp_path: Path, doc: Any) -> list[tuple[str, str]]:
    with pytest.raises(RosterError) as exc:
        load_roster(write(tmp_path, doc))
    return [(p.place, p.message) for p in exc.value.problems]


def places(tmp_path: Path, doc: Any) -> list[str]:
    return [place for place, _ in problems(tmp_path, doc)]


# ------------------------------------------------------------------------------------------- samples


def test_there_are_enough_samples() -> None:
    assert len(WARBANDS) >= 4
    factions = {load_roster(p).faction for p in WARBANDS}
    assert len(factions) >= 2


@pytest.mark.parametrize("path", WARBANDS, ids=[p.stem for p in WARBANDS])
def test_sample_loads_and_fits(path: Path) -> None:
    r = load_roster(path)
    specs = model_specs(r)
    assert 6 <= len(specs) <= 12
    pts = roster_points(r)
    assert 600 <= pts <= 700
    assert pts <= r.points_limit
    assert sum(s["points"] for s in specs) == pts
    assert sum(1 for s in specs if "LEADER" in s["data"]["keywords"]) == 1
    assert path.read_text(encoding="utf-8").startswith("#")  # header comment naming the source


def test_hand_typed_warbands_cover_the_required_keywords() -> None:
    seen: set[str] = set()
    for path in sorted(HAND.glob("*.yaml")):
        for spec in model_specs(load_roster(path)):
            seen.update(spec["data"]["keywords"])
            for w in spec["data"]["weapons"]:
                seen.update(w["keywords"])
    required = {
        "ASSAULT", "HEAVY", "CRITICAL", "AUTOMATIC", "BLAST", "SHRAPNEL", "CLEAVE", "CUMBERSOME", "RELOAD",
        "FEAR", "STRONG", "TOUGH", "ELITE", "LEADER",
    }  # fmt: skip
    assert required <= seen, required - seen


def test_mirror_pair_is_roughly_even() -> None:
    a = load_roster(DATA / "warbands" / "pilgrims_sacred_affliction.yaml")
    b = load_roster(DATA / "warbands" / "pilgrims_iron_path.yaml")
    pa, pb = roster_points(a), roster_points(b)
    assert abs(pa - pb) <= 0.05 * max(pa, pb)
    assert abs(len(model_specs(a)) - len(model_specs(b))) <= 1


def test_points_match_a_hand_sum() -> None:
    raw = yaml.safe_load(ARMOURY_PATH.read_text(encoding="utf-8"))
    c = {w["name"]: w["cost"] for w in raw["weapons"]}
    c.update({a["name"]: a["cost"] for a in raw["armour"]})
    shield = raw["shields"][0]["cost"]
    expected = (
        (80 + c["Sword"] + c["Pistol"] + c["Standard Armour"])  # War Prophet
        + (55 + c["Great Sword"] + shield + c["Standard Armour"])  # Castigator (STRONG)
        + (100 + c["Great Sword"] + c["Trench Club"])  # Communicant
        + 3 * (30 + c["Bolt Action Rifle"] + c["Trench Club"] + c["Standard Armour"])
        + (35 + c["Punt Gun"] + c["Trench Knife"])  # Punt Gunner (STRONG)
        + 2 * (30 + c["Musket"] + c["Trench Club"])
    )
    assert expected == 618
    assert roster_points(load_roster(HAND / "pilgrims_sacred_affliction.yaml")) == expected


# ----------------------------------------------------------------------------------------- model_specs


def test_model_spec_shape_is_exact_and_json_able() -> None:
    r = load_roster(HAND / "pilgrims_sacred_affliction.yaml")
    specs = model_specs(r)
    assert json.loads(json.dumps(specs)) == specs
    assert len(specs) == 9  # counts expanded
    for s in specs:
        assert set(s) == {"name", "type", "base_mm", "points", "data"}
        assert set(s["data"]) == {
            "movement", "flying", "ranged", "melee", "armour", "keywords", "shield", "weapons",
        }  # fmt: skip
        assert isinstance(s["base_mm"], float) and isinstance(s["data"]["movement"], float)
        assert s["data"]["armour"] <= 0
        for w in s["data"]["weapons"]:
            assert set(w) == {"name", "modes", "range", "hands", "dice", "injury_mod", "keywords", "values"}
    castigator = next(s for s in specs if s["type"] == "Castigator")
    assert castigator["data"]["armour"] == -2  # standard armour -1 + trench shield -1
    assert castigator["data"]["shield"] is True
    assert castigator["points"] == 92
    names = [s["name"] for s in specs if s["type"] == "Trench Pilgrim"]
    assert len(set(names)) == len(names)
    pistol = next(w for w in specs[0]["data"]["weapons"] if w["name"] == "Pistol")
    assert pistol["modes"] == ["ranged", "melee"] and pistol["range"] == 12.0 and pistol["hands"] == 1


def test_keyword_values_are_split_out() -> None:
    r = load_roster(HAND / "new_antioch_company.yaml")
    weapons = {w["name"]: w for s in model_specs(r) for w in s["data"]["weapons"]}
    mg = weapons["Machine Gun"]
    assert mg["keywords"] == ["AUTOMATIC", "HEAVY", "RELOAD"]
    assert mg["values"] == {"AUTOMATIC": 3}
    assert weapons["Grenades"]["values"] == {"BLAST": 2}
    assert weapons["Trench Knife"]["range"] is None and weapons["Trench Knife"]["dice"] == -1
    assert parse_keyword('BLAST 3"') == ("BLAST", 3)
    assert parse_keyword("IGNORE ARMOUR") == ("IGNORE ARMOUR", None)


# -------------------------------------------------------------------------------------- rule failures


def test_unknown_weapon_lists_known_ones(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(weapons=["Rifel", "Trench Club"])))
    assert [p for p, _ in got] == ["models[1].weapons[0]"]
    assert "'Rifel'" in got[0][1] and "Bolt Action Rifle" in got[0][1]


def test_unknown_armour(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(armour_item="Tin Foil")))
    assert [p for p, _ in got] == ["models[1].armour_item"]
    assert "Standard Armour" in got[0][1]


def test_too_many_ranged_hands(tmp_path: Path) -> None:
    got = places(tmp_path, roster(pilgrim(weapons=["Bolt Action Rifle", "Pistol", "Trench Club"])))
    assert got == ["models[1].weapons[1]"]


def test_pistol_counts_as_ranged_not_melee(tmp_path: Path) -> None:
    load_roster(write(tmp_path, roster(pilgrim(weapons=["Pistol", "Great Sword"]))))


def test_too_many_melee_hands_with_shield(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(weapons=["Trench Club", "Sword"], shield=True)))
    assert [p for p, _ in got] == ["models[1].weapons[1]"]
    assert "found 3" in got[0][1]


def test_two_handed_melee_plus_one_handed(tmp_path: Path) -> None:
    assert places(tmp_path, roster(pilgrim(weapons=["Great Sword", "Trench Club"]))) == ["models[1].weapons[1]"]


def test_strong_carries_two_handed_melee_in_one_hand(tmp_path: Path) -> None:
    strong = pilgrim(keywords=["STRONG"], weapons=["Great Sword", "Trench Club"])
    load_roster(write(tmp_path, roster(strong)))
    with_shield = pilgrim(keywords=["STRONG"], weapons=["Great Sword"], shield=True)
    load_roster(write(tmp_path, roster(with_shield)))


def test_cumbersome_is_always_two_hands(tmp_path: Path) -> None:
    doc = roster(pilgrim(keywords=["STRONG"], weapons=["Polearm"], shield=True))
    got = problems(tmp_path, doc)
    assert [p for p, _ in got] == ["models[1].weapons[0]"]
    assert "Polearm 2" in got[0][1]


def test_one_heavy_weapon_unless_strong(tmp_path: Path) -> None:
    doc = roster(pilgrim(weapons=["Machine Gun", "Great Sword"]))
    got = problems(tmp_path, doc)
    assert [p for p, _ in got] == ["models[1].weapons[1]"]
    assert "HEAVY" in got[0][1]
    load_roster(write(tmp_path, roster(pilgrim(keywords=["STRONG"], weapons=["Machine Gun", "Great Sword"]))))


def test_one_grenade_type(tmp_path: Path) -> None:
    doc = roster(pilgrim(weapons=["Bolt Action Rifle", "Grenades", "Gas Grenades", "Trench Club"]))
    assert places(tmp_path, doc) == ["models[1].weapons[2]"]


def test_at_most_one_leader(tmp_path: Path) -> None:
    second = pilgrim(type="Castigator", keywords=["ELITE", "LEADER"])
    got = problems(tmp_path, roster(pilgrim(), second))
    assert [p for p, _ in got] == ["models[2].keywords[1]"]
    assert "models[0]" in got[0][1]
    doc = roster()
    doc["models"][0]["count"] = 2
    assert places(tmp_path, doc) == ["models[0].count"]


def test_every_model_needs_a_weapon(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(weapons=[])))
    assert [p for p, _ in got] == ["models[1].weapons"]


def test_points_limit(tmp_path: Path) -> None:
    doc = roster(pilgrim(count=10), limit=300)
    got = problems(tmp_path, doc)
    assert [p for p, _ in got] == ["points_limit"]
    # War Prophet 80 + rifle 10 + club 3; ten pilgrims at 30 + 10 + 3.
    assert "found 523" in got[0][1]


@pytest.mark.parametrize("base", [15, 90])
def test_base_size_range(tmp_path: Path, base: int) -> None:
    got = problems(tmp_path, roster(pilgrim(base=base)))
    assert [p for p, _ in got] == ["models[1].base"]
    assert str(base) in got[0][1]


def test_unknown_model_keyword(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(keywords=["PILGRIM", "INVINCIBLE"])))
    assert [p for p, _ in got] == ["models[1].keywords[1]"]
    assert "TOUGH" in got[0][1]


def test_wrong_types_quote_the_input(tmp_path: Path) -> None:
    got = problems(tmp_path, roster(pilgrim(cost="cheap")))
    assert [p for p, _ in got] == ["models[1].cost"]
    assert "expected" in got[0][1] and "'cheap'" in got[0][1]


def test_bad_guessed_field(tmp_path: Path) -> None:
    assert places(tmp_path, roster(pilgrim(guessed=["colour"]))) == ["models[1]"]


def test_many_problems_reported_at_once(tmp_path: Path) -> None:
    doc = roster(
        pilgrim(weapons=["Rifel"]),
        pilgrim(weapons=["Trench Club", "Sword"], shield=True, base=10),
        pilgrim(keywords=["ELITE", "LEADER"], cost="cheap"),
        pilgrim(weapons=["Machine Gun", "Great Sword"], armour_item="Tin Foil"),
        pilgrim(weapons=[]),
        limit=100,
    )
    doc["models"][1]["keywords"] = ["ROBOT"]
    doc["gold"] = 5
    got = places(tmp_path, doc)
    for place in (
        "gold",
        "models[3].cost",
        "models[1].weapons[0]",
        "models[1].keywords[0]",
        "models[2].base",
        "models[2].weapons[1]",
        "models[4].weapons[1]",
        "models[4].armour_item",
        "models[5].weapons",
        "points_limit",
    ):
        assert place in got, (place, got)


def test_points_reported_alongside_rule_problems(tmp_path: Path) -> None:
    got = places(tmp_path, roster(pilgrim(weapons=["Rifel"]), limit=100))
    assert got == ["models[1].weapons[0]", "points_limit"]


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "r.yaml"
    p.write_text("ruleset: trench-crusade\nname: x\nmodels:\n  - type: [Pilgrim\n    cost: 30\n", encoding="utf-8")
    with pytest.raises(RosterError) as exc:
        load_roster(p)
    (problem,) = exc.value.problems
    assert problem.place.startswith("line ")
    assert "YAML" in problem.message
    assert str(p) in str(exc.value)


def test_json_roster_and_missing_file(tmp_path: Path) -> None:
    doc = yaml.safe_load((DATA / "warbands" / "new_antioch_company.yaml").read_text(encoding="utf-8"))
    assert load_roster(write(tmp_path, doc, "r.json")).name == doc["name"]
    with pytest.raises(RosterError, match="file not found"):
        load_roster(tmp_path / "missing.yaml")


# ---------------------------------------------------------------------------------------------- armoury


def test_armoury_loads_with_battlekit() -> None:
    arm = load_armoury()
    for name in ("Bolt Action Rifle", "Machine Gun", "Pistol", "Great Sword", "Polearm", "Grenades"):
        assert arm.weapon(name) is not None, name
    assert [a.modifier for a in arm.armour][:2] == [-1, -2]
    assert arm.shield.name == "Trench Shield" and arm.shield.modifier == -1
    gs = arm.weapon("Great Sword")
    assert gs is not None and gs.injury_mod == 1 and gs.has("HEAVY") and gs.hands == 2


def test_bad_armoury_reports_places(tmp_path: Path) -> None:
    raw = yaml.safe_load(ARMOURY_PATH.read_text(encoding="utf-8"))
    bad = copy.deepcopy(raw)
    bad["weapons"][0]["keywords"] = ["LASER"]
    bad["weapons"][1]["hands"] = 3
    bad["armour"][0]["modifier"] = 1
    with pytest.raises(RosterError) as exc:
        load_armoury(write(tmp_path, bad, "armoury.yaml"))
    got = [p.place for p in exc.value.problems]
    assert got == ["weapons[0].keywords", "weapons[1].hands", "armour[0].modifier"]


def _implemented_model_keywords() -> set[str]:
    """Every model keyword the ruleset's rules look for (``has_kw(m, "X")``, ``"X" in ....data["keywords"]``)."""
    import re

    found: set[str] = set()
    for src in (DATA.parent).glob("*.py"):
        text = src.read_text()
        found.update(re.findall(r'has_kw\(\w+, "([A-Z][A-Z ]*)"\)', text))
        found.update("NEGATE " + k for k in re.findall(r'negates\(\w+, "([A-Z][A-Z ]*)"\)', text))
        found.update(re.findall(r'"([A-Z][A-Z ]*)" (?:not )?in (?:tk|mk|kws|\w+\.data\["keywords"\])', text))
    from warband.rulesets.trench_crusade.roster import WEAPON_KEYWORDS

    return found - WEAPON_KEYWORDS


def test_other_actions_every_implemented_model_keyword_validates(tmp_path: Path) -> None:
    """'Other: Some models have other Actions they can take during their Activations': a MEDIC (Tend Wounds)
    and every other model keyword the rules implement pass `warband validate`."""
    from typer.testing import CliRunner

    from warband.cli.main import app

    kws = _implemented_model_keywords()
    assert {"MEDIC", "TOUGH", "LEADER", "FEAR", "NEGATE FEAR", "FLYING", "STRONG"} <= kws
    for kw in sorted(kws - {"LEADER"}):
        doc = roster(pilgrim(type=f"Has {kw}", keywords=["PILGRIM", kw]))
        result = CliRunner().invoke(app, ["validate", str(write(tmp_path, doc))])
        assert result.exit_code == 0, (kw, result.output)
