"""Scenario files: the sample loads, and each kind of bad file is reported with its exact place."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from warband.kernel.errors import ScenarioError
from warband.kernel.roster import format_place, read_document
from warband.kernel.scenario import TERRAIN_KINDS, Scenario, convexity_problem, load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "src" / "warband" / "rulesets" / "trench_crusade" / "data" / "scenarios"
DEFAULT = SCENARIOS / "default.yaml"


def good() -> dict[str, Any]:
    return {
        "name": "Test",
        "ruleset": "test-game",
        "table": {"width": 36, "depth": 36},
        "turns": 4,
        "terrain": [
            {"id": "a", "kind": "difficult", "polygon": [[10, 10], [12, 10], [12, 12], [10, 12]]},
            {"id": "b", "kind": "platform", "height": 3, "polygon": [[20, 20], [22, 20], [21, 22]]},
        ],
        "deployment": [
            {"side": 0, "polygon": [[0, 0], [36, 0], [36, 6], [0, 6]]},
            {"side": 1, "polygon": [[0, 30], [36, 30], [36, 36], [0, 36]]},
        ],
        "objectives": [{"id": "o", "at": [18, 18], "radius": 3, "vp": 1}],
        "rules": {"option": 2, "flag": True},
    }


def write(tmp_path: Path, doc: Any, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc) if name.endswith(".json") else yaml.safe_dump(doc), encoding="utf-8")
    return p


def places(exc: pytest.ExceptionInfo[ScenarioError]) -> list[str]:
    return [p.place for p in exc.value.problems]


def test_default_scenario_loads_and_has_every_kind() -> None:
    s = load_scenario(DEFAULT)
    assert s.turns == 4
    assert (s.table.width, s.table.depth) == (36, 36)
    assert len(s.objectives) == 5
    assert {t.kind for t in s.terrain} == set(TERRAIN_KINDS)
    assert sorted(t.height for t in s.terrain if t.kind == "platform")[:4] == [3, 3, 4, 4]
    assert all(t.height == 1 and t.cover for t in s.terrain if t.kind == "obstacle")
    assert all(4 <= t.height <= 6 and t.cover for t in s.terrain if t.kind == "blocking")
    assert {z.side for z in s.deployment} == {0, 1}


def test_default_scenario_is_symmetric_under_half_turn() -> None:
    s = load_scenario(DEFAULT)

    def key(kind: str, height: float, pts: list[tuple[float, float]]) -> tuple[Any, ...]:
        return (kind, height, tuple(sorted((round(x, 2), round(y, 2)) for x, y in pts)))

    pieces = {key(t.kind, t.height, t.polygon) for t in s.terrain}
    turned = {key(t.kind, t.height, [(36 - x, 36 - y) for x, y in t.polygon]) for t in s.terrain}
    assert pieces == turned
    objs = {tuple(o.at) for o in s.objectives}
    assert objs == {(36 - x, 36 - y) for x, y in objs}


def test_good_file_loads_yaml_and_json(tmp_path: Path) -> None:
    assert load_scenario(write(tmp_path, good())).rules == {"option": 2, "flag": True}
    assert load_scenario(write(tmp_path, good(), "s.json")).name == "Test"


def test_non_convex_polygon_names_its_place(tmp_path: Path) -> None:
    doc = good()
    doc["terrain"][1]["polygon"] = [[0, 0], [4, 0], [2, 1], [4, 4], [0, 4]]
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write(tmp_path, doc))
    assert places(exc) == ["terrain[1].polygon"]
    assert "convex" in exc.value.problems[0].message


def test_self_crossing_and_degenerate_polygons() -> None:
    star = [(0.0, 0.0), (2.0, 4.0), (4.0, 0.0), (0.0, 3.0), (4.0, 3.0)]
    assert convexity_problem(star) is not None
    assert convexity_problem([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]) is not None
    assert convexity_problem([(0.0, 0.0), (1.0, 0.0)]) is not None
    collinear_ok = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 2.0)]
    assert convexity_problem(collinear_ok) is None


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    doc = good()
    doc["turns"] = "four"
    doc["terrain"][0]["kind"] = "lava"
    doc["terrain"][1]["id"] = "o"  # clashes with the objective id
    doc["terrain"][1]["polygon"] = [[20, 20], [40, 20], [21, 22]]  # outside a 36" table
    doc["deployment"][1]["side"] = 0
    doc["objectives"][0]["at"] = [50, 18]
    doc["rules"] = {"bad": [1, 2]}
    doc["colour"] = "red"
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write(tmp_path, doc))
    got = places(exc)
    for place in (
        "turns",
        "terrain[0].kind",
        "rules",
        "colour",
        "terrain[1].polygon",
        "objectives[0].id",
        "deployment[1].side",
        "deployment",
        "objectives[0].at",
    ):
        assert place in got, (place, got)
    turns = next(p for p in exc.value.problems if p.place == "turns")
    assert "expected" in turns.message and "'four'" in turns.message
    assert str(exc.value).startswith(str(tmp_path / "s.yaml"))


def test_a_ladder_stands_only_against_a_platform_or_obstacle_with_a_height(tmp_path: Path) -> None:
    doc = good()
    doc["terrain"][1]["ladder"] = True  # the 3" platform: fine
    assert load_scenario(write(tmp_path, doc)).terrain[1].ladder is True
    assert load_scenario(write(tmp_path, good(), "plain.yaml")).terrain[1].ladder is False
    doc["terrain"][0]["ladder"] = True  # difficult ground: nothing to climb
    doc["terrain"].append(
        {"id": "w", "kind": "obstacle", "height": 0, "ladder": True, "polygon": [[1, 9], [3, 9], [3, 10]]}
    )
    doc["terrain"][1]["ladder"] = "yes"
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write(tmp_path, doc))
    assert set(places(exc)) == {"terrain[0].ladder", "terrain[1].ladder", "terrain[2].ladder"}
    msgs = {p.place: p.message for p in exc.value.problems}
    assert "difficult 'a'" in msgs["terrain[0].ladder"] and "height 0" in msgs["terrain[2].ladder"]


def test_missing_side_is_reported(tmp_path: Path) -> None:
    doc = good()
    del doc["deployment"][1]
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write(tmp_path, doc))
    assert places(exc) == ["deployment"]
    assert "side 1" in exc.value.problems[0].message


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "broken.yaml"
    p.write_text("name: x\nturns: 4\ntable: {width: 36, depth: 36\nrules: {}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    (problem,) = exc.value.problems
    assert problem.place.startswith("line 4")
    assert "YAML" in problem.message


def test_json_syntax_error_names_the_line(tmp_path: Path) -> None:
    p = tmp_path / "broken.json"
    p.write_text('{\n  "name": "x",\n  "turns": 4,,\n}\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.problems[0].place.startswith("line 3")


def test_missing_file_and_bad_extension(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="file not found"):
        load_scenario(tmp_path / "nope.yaml")
    with pytest.raises(ValueError, match="file not found"):
        read_document(tmp_path / "nope.json")
    (tmp_path / "s.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ScenarioError, match="extension"):
        load_scenario(tmp_path / "s.txt")


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="mapping"):
        load_scenario(write(tmp_path, [1, 2]))


def test_format_place() -> None:
    assert format_place(("models", 3, "weapons", 0)) == "models[3].weapons[0]"
    assert format_place(()) == ""


def _export_module() -> Any:
    spec = importlib.util.spec_from_file_location("export_schemas", ROOT / "scripts" / "export_schemas.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_schemas_are_up_to_date() -> None:
    for name, text in _export_module().render().items():
        path = ROOT / "docs" / "schemas" / name
        assert path.read_text(encoding="utf-8") == text, f"{name} is stale: run python scripts/export_schemas.py"
    schema = json.loads((ROOT / "docs" / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    assert schema == json.loads(json.dumps(Scenario.model_json_schema(), sort_keys=True))
