"""Issue 10 item 4: a scenario of another ruleset, or a deployment zone with no passable ground, is refused at
load with the file and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hardcli import RANDOM, TC, TT, cli, scenario, warband

from warband.kernel.errors import ScenarioError
from warband.kernel.ruleset import get


def test_a_trench_crusade_scenario_is_refused_by_trenches_and_turbines() -> None:
    with pytest.raises(ScenarioError) as info:
        get(TT).load_scenario(scenario(TC))
    (problem,) = info.value.problems
    assert problem.file == str(scenario(TC)) and problem.place == "ruleset"
    assert "'trenches-and-turbines'" in problem.message and "'trench-crusade'" in problem.message


def test_simulate_with_a_foreign_scenario_exits_2_naming_it() -> None:
    out = cli(
        "simulate", TT, "--a", warband(TT, 0), "--b", warband(TT, 1), *RANDOM,
        "--db", ":memory:", "--games", "1", "--scenario", scenario(TC),
    )  # fmt: skip
    assert out.code == 2 and str(scenario(TC)) in out.text and "ruleset" in out.text


def _with_pit_over_zone(tmp_path: Path, side: int) -> Path:
    doc = yaml.safe_load(scenario(TC).read_text())
    zone = next(z for z in doc["deployment"] if z["side"] == side)
    doc["terrain"].append({"id": "flood", "kind": "impassable", "polygon": zone["polygon"]})
    path = tmp_path / "flooded.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_a_zone_entirely_impassable_is_refused(tmp_path: Path) -> None:
    path = _with_pit_over_zone(tmp_path, 1)
    with pytest.raises(ScenarioError) as info:
        get(TC).load_scenario(path)
    (problem,) = info.value.problems
    assert problem.file == str(path) and problem.place == "deployment[1]"
    assert "impassable" in problem.message and f"terrain[{len(yaml.safe_load(path.read_text())['terrain']) - 1}]" in (
        problem.message
    )


def test_a_zone_partly_impassable_still_loads(tmp_path: Path) -> None:
    doc = yaml.safe_load(scenario(TC).read_text())
    doc["terrain"].append({"id": "pond", "kind": "impassable", "polygon": [[0, 0], [18, 0], [18, 6], [0, 6]]})
    path = tmp_path / "pond.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert get(TC).load_scenario(path)["name"]


RULESETS = ("trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight")


@pytest.mark.parametrize(
    ("loader", "other"), [(a, b) for a in RULESETS for b in RULESETS if a != b], ids=lambda r: str(r)
)
def test_every_ruleset_refuses_every_other_rulesets_scenario(loader: str, other: str) -> None:
    with pytest.raises(ScenarioError) as info:
        get(loader).load_scenario(scenario(other))
    assert all(p.file == str(scenario(other)) for p in info.value.problems)
    assert "ruleset" in [p.place for p in info.value.problems]
