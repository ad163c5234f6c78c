"""``warband rulesets``, ``samples``, ``validate`` and ``params``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel.ruleset import get

RS = "trench-crusade"
runner = CliRunner()


def test_rulesets_json_lists_trench_crusade() -> None:
    result = runner.invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {"id": RS, "version": get(RS).version, "title": get(RS).title} in rows


def test_samples_json_shape_and_paths_load() -> None:
    result = runner.invoke(app, ["samples", RS, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"warbands", "scenarios"}
    assert len(data["warbands"]) >= 2 and data["scenarios"]
    rs = get(RS)
    for item in data["warbands"]:
        assert set(item) == {"name", "path"} and Path(item["path"]).is_absolute()
        assert rs.load_roster(Path(item["path"]))["models"]
    for item in data["scenarios"]:
        assert set(item) == {"name", "path"} and Path(item["path"]).is_absolute()
        assert rs.load_scenario(Path(item["path"]))["terrain"]


def test_samples_text() -> None:
    result = runner.invoke(app, ["samples", RS])
    assert result.exit_code == 0
    assert "warbands:" in result.output and "scenarios:" in result.output


def test_validate_ok_warband_and_scenario() -> None:
    s = get(RS).samples()
    result = runner.invoke(app, ["validate", s["warbands"][0]["path"]])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK") and "models" in result.output
    result = runner.invoke(app, ["validate", s["scenarios"][0]["path"]])
    assert result.exit_code == 0, result.output
    assert "terrain pieces" in result.output


def _every_sample() -> list[tuple[str, str, str]]:
    from warband.kernel.ruleset import available

    return [
        (rid, kind, item["path"]) for rid in available() for kind, items in get(rid).samples().items() for item in items
    ]


@pytest.mark.parametrize(("ruleset_id", "kind", "path"), _every_sample())
def test_validate_accepts_every_bundled_sample(ruleset_id: str, kind: str, path: str) -> None:
    # Every ruleset's own sample files are valid (Trenches and Turbines forces list units, not models).
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK"), result.output
    if kind == "warbands":
        assert " models in " in result.output


BROKEN = """\
ruleset: trench-crusade
name: Broken
faction: Principality of New Antioch
points_limit: 700
models:
  - type: Yeoman
    cost: 30
    movement: fast
    ranged: 0
    melee: 0
    base: 25
    weapons: [Rifel]
"""


def test_validate_broken_roster_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(BROKEN)
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 2
    out = result.output
    assert f"{bad}: models[0].movement:" in out and "'fast'" in out
    assert f"{bad}: models[0].weapons[0]:" in out and "'Rifel'" in out


def test_validate_neither_kind_and_missing_file_exit_2(tmp_path: Path) -> None:
    odd = tmp_path / "odd.yaml"
    odd.write_text("ruleset: trench-crusade\nname: x\n")
    assert runner.invoke(app, ["validate", str(odd)]).exit_code == 2
    assert runner.invoke(app, ["validate", str(tmp_path / "missing.yaml")]).exit_code == 2


def test_unknown_ruleset_exits_2_through_run() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "warband", "samples", "no-such-game"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "no-such-game" in proc.stderr and "Traceback" not in proc.stderr


def test_params_lists_every_parameter() -> None:
    specs = get(RS).params.specs
    result = runner.invoke(app, ["params", RS, "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.output)
    assert [r["name"] for r in rows] == list(specs)
    assert all({"name", "default", "doc", "source", "proposed"} <= set(r) for r in rows)
    text = runner.invoke(app, ["params", RS]).output
    assert all(name in text for name in specs)
    if any(s.proposed for s in specs.values()):
        assert "PROPOSED" in text
