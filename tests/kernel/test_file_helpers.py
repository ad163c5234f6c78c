"""The kernel's helpers for data files that every ruleset's warband loader and the scenario loader share:
a warband or scenario file whose top level is not a mapping is refused with what was found there, and a list
of items that names something twice is refused naming every repeated name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warband.kernel.errors import RosterError, ScenarioError
from warband.kernel.roster import read_mapping, require_unique, unknown_entries
from warband.kernel.scenario import load_scenario
from warband.rulesets.gangfight.roster import load_party
from warband.rulesets.trench_crusade.roster import load_roster
from warband.rulesets.wyrdcry.roster import load_warband


def test_a_mapping_is_read(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text("name: Raiders\nmodels: []\n", encoding="utf-8")
    assert read_mapping(path) == {"name": "Raiders", "models": []}


@pytest.mark.parametrize("loader", [load_party, load_roster, load_warband])
def test_a_warband_file_holding_a_list_is_refused_by_every_loader(
    tmp_path: Path, loader: Callable[[Path], Any]
) -> None:
    path = tmp_path / "w.yaml"
    path.write_text("- one\n- two\n", encoding="utf-8")
    with pytest.raises(RosterError) as err:
        loader(path)
    (problem,) = err.value.problems
    assert problem.file == str(path)
    assert problem.message == "expected a mapping at the top level, found ['one', 'two']"


def test_a_scenario_holding_a_number_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("42\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert "expected a mapping at the top level" in err.value.problems[0].message


def test_repeated_names_are_all_named() -> None:
    require_unique(["sword", "pistol"])
    with pytest.raises(ValueError, match=r"expected unique item names, found duplicates \['axe', 'sword'\]"):
        require_unique(["sword", "axe", "sword", "pistol", "axe"])


def test_each_unknown_entry_is_placed_at_its_index() -> None:
    got = unknown_entries("f.yaml", "units[1].keywords", ["FAST", "SLOW", "TALL"], {"FAST"}, "one of ['FAST']")
    assert [(p.place, p.message) for p in got] == [
        ("units[1].keywords[1]", "expected one of ['FAST'], found 'SLOW'"),
        ("units[1].keywords[2]", "expected one of ['FAST'], found 'TALL'"),
    ]
    assert unknown_entries("f.yaml", "options", ["a"], {"a"}, "an option") == []
