"""Every ruleset describes each of its sample warbands (``describe_roster``), and ``warband validate`` and
``samples`` print that description."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.offers import RosterSummary

runner = CliRunner()


def _samples() -> list[tuple[str, str]]:
    return [(rid, item["path"]) for rid, cls in registry.available().items() for item in cls().samples()["warbands"]]


@pytest.mark.parametrize(("ruleset", "path"), _samples())
def test_every_sample_is_described(ruleset: str, path: str) -> None:
    rs = registry.get(ruleset)
    doc = rs.load_roster(Path(path))
    summary = rs.describe_roster(doc)
    assert isinstance(summary, RosterSummary)
    assert summary.name == doc["name"]
    assert summary.lines and all(line.count >= 1 for line in summary.lines)
    assert summary.models == sum(line.count for line in summary.lines)
    assert summary.units is None or summary.units == len(summary.lines)
    assert summary.points == rs.roster_points(doc)
    if summary.points is not None:
        assert sum(line.points or 0 for line in summary.lines) == summary.points
    result = runner.invoke(app, ["validate", path])
    assert result.exit_code == 0, result.output
    assert summary.text() in result.output


def test_trench_crusade_summary_text() -> None:
    rs = registry.get("trench-crusade")
    path = next(s["path"] for s in rs.samples()["warbands"] if s["path"].endswith("heretic_legion_raiders.yaml"))
    summary = rs.describe_roster(rs.load_roster(Path(path)))
    # the Heretic Legion list's prices: Priest 80 + Pistol 6 + Sword 4 + Standard Armour 15, Chorister 65 + 4,
    # Death Commando 90 + Gas Grenades 10 + 4, War Wolf 140, three Troopers 30 + Rifle 10 + Club 3, Flame 30 + 30
    assert (
        summary.text() == "warband 'The Choir of the Ninth Gate': 8 models in 6 entries, 607 points, points limit 700"
    )
    result = runner.invoke(app, ["samples", "trench-crusade"])
    assert "The Choir of the Ninth Gate (8 models, 607 points)" in result.output
