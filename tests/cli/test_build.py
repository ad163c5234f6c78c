"""``warband build trench-crusade``: a legal warband file from the lists, from arguments, a spec file or prompts."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from warband.cli.main import app
from warband.rulesets.trench_crusade.roster import load_roster, model_specs, roster_points

runner = CliRunner()
TC = "trench-crusade"


def test_a_warband_from_arguments_is_written_and_validates(tmp_path: Path) -> None:
    out = tmp_path / "choir.yaml"
    args = ["build", TC, "--faction", "Heretic Legion", "--name", "The Choir", "--out", str(out)]
    args += ["--model", 'Heretic Priest "Father Orobas": Pistol, Sword, Standard Armour']
    args += ["--model", "3 x Heretic Trooper: Bolt-Action Rifle, Trench Club + Melee Legionnaire"]
    args += ["--model", "War Wolf Assault Beast"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output  # three Legionnaires, but the list allows one
    assert "Heretic Legionnaire: at most 1 for Heretic Trooper per warband, found 3" in result.output
    assert not out.exists()
    args[-3] = "3 x Heretic Trooper: Bolt-Action Rifle, Trench Club"
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "374 of 700 ducats" in result.output
    r = load_roster(out)
    assert r.name == "The Choir" and roster_points(r) == 105 + 3 * 43 + 140
    assert [s["name"] for s in model_specs(r)][:2] == ["Father Orobas", "Heretic Trooper 1"]
    validate = runner.invoke(app, ["validate", str(out)])
    assert validate.exit_code == 0 and "not modelled" not in validate.output  # every rule of the Choir is played


def test_without_out_the_warband_is_printed(tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", TC, "--faction", "new antioch", "--model", "Lieutenant: Pistol"])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(result.stdout)
    assert doc["faction"] == "New Antioch" and doc["models"] == [
        {"model": "Lieutenant", "equipment": ["Pistol / Revolver"]}
    ]


def test_a_spec_file_and_a_variant(tmp_path: Path) -> None:
    spec = tmp_path / "ghosts.txt"
    spec.write_text(
        "# a spec\nfaction: Heretic Legion\nvariant: Trench Ghosts\nname: Ghosts\nlimit: 600\n"
        "Heretic Priest: Sword\n2 x Heretic Trooper: Knife\n",
        encoding="utf-8",
    )
    out = tmp_path / "ghosts.yaml"
    result = runner.invoke(app, ["build", TC, "--spec", str(spec), "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert (doc["faction"], doc["variant"], doc["points_limit"]) == ("Heretic Legion", "Trench Ghosts", 600)
    assert load_roster(out).list_id == "trench_ghosts"


def test_problems_name_the_list_rule_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "bad.yaml"
    args = ["build", TC, "--faction", "Heretic Legion", "--model", "Heretic Trooper: Flail", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Scourge / Battle-Whip / Flail: only Trench Pilgrims may buy it (Heretic Legion list)" in result.output
    assert "the Heretic Legion list needs its leader (Heretic Priest), found none" in result.output
    assert not out.exists()
    unknown = runner.invoke(app, ["build", TC, "--faction", "Orks", "--model", "Boy"])
    assert unknown.exit_code != 0 and "no faction 'Orks'" in str(unknown.exception)


def test_the_prompts_build_and_save_a_warband(tmp_path: Path) -> None:
    out = tmp_path / "prompted.yaml"
    answers = [
        "Heretic Legion",  # faction
        "",  # no variant
        "Choir",  # name
        "700",  # ducats
        "Heretic Priest", "1", "Father Orobas", "Pistol", "Sword", "",  # a model, its kit
        "Heretic Chorister", "1", "", "Flail", "",  # refused: not sold to the Heretic Legion
        "heretic trooper", "2", "", "Bolt-Action Rifle", "Trench Club", "",
        "-2",  # remove the Chorister
        "",  # done
    ]  # fmt: skip
    result = runner.invoke(app, ["build", TC, "--out", str(out)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "no such choice: 'Flail'" in result.output  # the Chorister's kit does not offer it
    assert "176 of 700 ducats, 0 of 0 glory, 3 models" in result.output  # running totals
    assert "Heretic Priest" in result.output and "80 ducats" in result.output  # the list, with costs
    r = load_roster(out)
    assert [(m.type, m.count) for m in r.models] == [("Heretic Priest", 1), ("Heretic Trooper", 2)]


def test_the_prompts_show_problems_and_keep_editing(tmp_path: Path) -> None:
    out = tmp_path / "fixed.yaml"
    answers = [
        "Trench Pilgrims", "", "Pilgrims", "700",
        "Trench Pilgrim", "1", "", "Musket", "",
        "",  # done, but the warband has no leader
        "y",  # keep editing
        "War Prophet", "1", "", "",
        "",
    ]  # fmt: skip
    result = runner.invoke(app, ["build", TC, "--out", str(out)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "the Trench Pilgrims list needs its leader (War Prophet), found none" in result.output
    assert [m.type for m in load_roster(out).models] == ["Trench Pilgrim", "War Prophet"]
