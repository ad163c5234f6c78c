"""Issue 22's targets as a test: every keyword of the catalogue and every named ability of the Heretic Legion, New
Antioch and Trench Pilgrims base lists is played (data/modelled.yaml) and stands in the clause matrix
(docs/rules/trench-crusade.md) on a row that names its test. ``scripts/tc_coverage.py`` prints the same counts."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from warband.kernel import ruleset as registry
from warband.rulesets.trench_crusade.catalogue import load_catalogue
from warband.rulesets.trench_crusade.modelled import load_modelled
from warband.rulesets.trench_crusade.roster import load_roster, model_specs

ROOT = Path(__file__).resolve().parents[2]
ROWS = [line for line in (ROOT / "docs" / "rules" / "trench-crusade.md").read_text().splitlines() if "tests/" in line]
FACTIONS = ("heretic_legion", "new_antioch", "trench_pilgrims")


def _named_on_a_tested_row(name: str) -> bool:
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    return any(pattern.search(row) for row in ROWS)


def test_every_catalogue_keyword_is_played_and_in_the_matrix() -> None:
    cat, modelled = load_catalogue(), load_modelled()
    names = [k.name.replace(" (X)", "") for k in cat.keywords.values()]
    assert len(names) == 41
    assert [n for n in names if n not in modelled.keywords] == []
    assert [n for n in names if not _named_on_a_tested_row(n.replace(" X", ""))] == []


def test_every_ability_of_the_three_factions_is_played_and_in_the_matrix() -> None:
    cat, modelled = load_catalogue(), load_modelled()
    abilities = sorted(
        {a for fid in FACTIONS for slot in cat.lists[fid].models for a in cat.profiles[slot.model].abilities}
    )
    assert len(abilities) > 50
    assert [cat.name_of(a) for a in abilities if a not in modelled.abilities] == []
    assert [cat.name_of(a) for a in abilities if not _named_on_a_tested_row(cat.name_of(a))] == []


def test_a_faction_tag_is_carried_and_read_as_played(tmp_path: Path) -> None:
    """THE COURT (and the other faction tags: HERETIC, PILGRIM ...) has no effect of its own: the catalogue gives it
    to every model of the faction, the engine carries it for the rules that read it, and `validate` does not name it
    as unplayed."""
    doc = {
        "ruleset": "trench-crusade",
        "name": "Court",
        "faction": "Court of the Seven-Headed Serpent",
        "points_limit": 700,
        "models": [{"model": "Praetor"}, {"model": "Pit Locust"}],
    }
    path = tmp_path / "court.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    specs = model_specs(load_roster(path))
    assert all("THE COURT" in spec["data"]["keywords"] for spec in specs)
    unplayed = registry.get("trench-crusade").unmodelled(load_roster(path))
    assert not [rule for rule in unplayed if "THE COURT" in rule], unplayed


def test_campaign_only_abilities_are_named_as_played_with_no_battle_effect(tmp_path: Path) -> None:
    """Chattel (the Wretched: sold between battles) and Battlefield Vivisection (the Combat Biologist: a campaign
    Glorious Deed) change nothing in a battle: they are played as that (effect kind ``no_battle_effect``), so a
    warband with them is simulated without --allow-unmodelled and nothing in a game reads them."""
    rs = registry.get("trench-crusade")
    for faction, models in (
        ("Heretic Legion", [{"model": "Heretic Priest"}, {"model": "Heretic Trooper"}, {"model": "Wretched"}]),
        ("New Antioch", [{"model": "Lieutenant"}, {"model": "Combat Biologist"}]),
    ):
        doc = {"ruleset": "trench-crusade", "name": "T", "faction": faction, "points_limit": 700, "glory_limit": 6}
        doc["models"] = models
        path = tmp_path / "w.yaml"
        path.write_text(yaml.safe_dump(doc), encoding="utf-8")
        unplayed = rs.unmodelled(load_roster(path))
        assert not [r for r in unplayed if "Chattel" in r or "Vivisection" in r], unplayed
    modelled = load_modelled()
    for ability in ("chattel", "battlefield_vivisection"):
        assert [e.kind for e in modelled.abilities[ability].effects] == ["no_battle_effect"]
