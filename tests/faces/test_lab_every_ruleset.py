"""Each lab command (simulate, report, compare, balance) on every registered ruleset: the lab reads only the
kernel's ModelFate, so a ruleset that plays also simulates, reports, compares and balances."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry

runner = CliRunner()
RULESETS = sorted(registry.available())


def _warbands(ruleset: str) -> list[str]:
    found = registry.get(ruleset).samples()["warbands"]
    assert len(found) >= 2, f"{ruleset} bundles fewer than two sample warbands"
    return [w["path"] for w in found[:2]]


def _ok(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.stdout


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simulate_then_report(ruleset: str, tmp_path: Path) -> None:
    a, b = _warbands(ruleset)
    db = tmp_path / "runs.db"
    out = _ok(["simulate", ruleset, "--a", a, "--b", b, "--games", "2", "--seed", "3", "--db", str(db), "--json"])
    summary = json.loads(out)
    assert summary["games"] == 2
    _ok(["report", str(db), "--out", str(tmp_path / "report")])
    page = (tmp_path / "report" / "index.html").read_text()
    assert "per model type" in page


@pytest.mark.parametrize("ruleset", RULESETS)
def test_compare(ruleset: str) -> None:
    a, b = _warbands(ruleset)
    name, spec = next(iter(registry.get(ruleset).params.specs.items()))
    variant = f"{name}={spec.default}"
    arms = ["--variant", variant, "--games", "2", "--batch", "2"]
    out = _ok(["compare", ruleset, "--a", a, "--b", b, *arms, "--agent-a", "random", "--agent-b", "random", "--json"])
    assert json.loads(out)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_balance(ruleset: str) -> None:
    a, b = _warbands(ruleset)
    run = ["--games", "2", "--agent", "random", "--bootstrap", "5", "--json"]
    out = _ok(["balance", ruleset, "--warbands", a, "--warbands", b, *run])
    report = json.loads(out)
    assert report["types"] and report["games"] == 2
