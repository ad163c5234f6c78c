"""docs/new-ruleset.md, followed to the letter, so it cannot go stale.

The quick start's shell lines (copy the example, rename it) run as written on a copy of the example in a
temporary tree; its ``pyproject.toml`` lines become the entry point of a distribution on ``sys.path`` (what
``make install`` writes); then the registry finds the new game by its entry point and every check of the
conformance suite passes on it. The guide's Python runs as written too.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

import warband.rulesets
from warband.cli.main import app
from warband.kernel import ruleset as registry

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "new-ruleset.md"
EXAMPLE = ROOT / "src" / "warband" / "rulesets" / "example"


def blocks(language: str) -> list[str]:
    """The guide's fenced code blocks in ``language``, in order."""
    return re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)


def conformance() -> ModuleType:
    spec = importlib.util.spec_from_file_location("guide_conformance", ROOT / "tests/conformance/test_conformance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_every_check(suite: ModuleType, rid: str) -> list[str]:
    """Call every test of the conformance suite that takes a ruleset id, for ``rid``; return their names. A test
    with parameters this does not know fails here, so no new check is skipped silently."""
    ran = []
    for name, test in inspect.getmembers(suite, inspect.isfunction):
        if not name.startswith("test_"):
            continue
        params = list(inspect.signature(test).parameters)
        if params == ["rid"]:
            test(rid)
        elif params == ["rid", "seed"]:
            test(rid, 1)
        elif params == ["rid", "scenario"]:
            for item in registry.get(rid).samples()["scenarios"]:
                test(rid, Path(item["path"]))
        elif params:
            raise AssertionError(f"the guide's test does not know how to call {name}{tuple(params)}")
        else:
            continue
        ran.append(name)
    return ran


def test_the_example_is_no_entry_point_and_warband_rulesets_does_not_list_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "example" not in project["entry-points"]["warband.rulesets"]
    result = CliRunner().invoke(app, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    assert "example" not in {row["id"] for row in json.loads(result.output)}


def test_the_guide_s_python_runs_as_written() -> None:
    code = blocks("python")
    assert code, "the guide shows how the protocol is driven"
    for text in code:
        exec(compile(text, str(GUIDE), "exec"), {})


def test_the_quick_start_makes_a_game_that_passes_the_conformance_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shell = [line for line in blocks("sh")[0].splitlines() if line.strip() and not line.startswith("#")]
    assert [line.split()[0] for line in shell] == ["cp", "sed", "sed"]
    tree = tmp_path / "clone"
    shutil.copytree(EXAMPLE, tree / "src/warband/rulesets/example", ignore=shutil.ignore_patterns("__pycache__"))
    for line in shell:
        subprocess.run(["bash", "-c", line], cwd=tree, check=True)
    entry = tomllib.loads(blocks("toml")[0])["project"]["entry-points"]["warband.rulesets"]
    assert list(entry) == ["mygame"]

    # what `make install` does with that pyproject line: a distribution whose entry point names the package
    dist = tmp_path / "site" / "mygame-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mygame\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[warband.rulesets]\nmygame = {entry['mygame']}\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(warband.rulesets, "__path__", [*warband.rulesets.__path__, str(tree / "src/warband/rulesets")])
    importlib.invalidate_caches()
    registry.refresh()
    try:
        assert "mygame" in registry.available()
        game = registry.get("mygame")
        assert game.data_dir() == tree / "src/warband/rulesets/mygame/data"
        result = CliRunner().invoke(app, ["rulesets", "--json"])
        assert "mygame" in {row["id"] for row in json.loads(result.output)}
        checks = run_every_check(conformance(), "mygame")
        assert len(checks) >= 6
    finally:
        monkeypatch.undo()
        for name in [m for m in sys.modules if m.startswith("warband.rulesets.mygame")]:
            del sys.modules[name]
        registry.refresh()
    assert "mygame" not in registry.available()
