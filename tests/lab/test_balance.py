"""warband balance: the contribution arithmetic by hand, and a small random-agent round robin (every model type
reported, finite numbers, a stable JSON shape)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.lab.balance import BalanceGame, ModelLine, bootstrap, contributions, fair_points, run_balance
from warband.lab.simulate import SimulationError

RULESET = "trench-crusade"
FILES = ("pilgrims_sacred_affliction.yaml", "new_antioch_company.yaml", "heretic_legion_raiders.yaml")
TYPE_KEYS = {
    "type",
    "warbands",
    "appearances",
    "listed",
    "fair",
    "ci95",
    "delta",
    "delta_pct",
    "kills_per_game",
    "survival",
    "verdict",
}


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


PATHS = [_warband(f) for f in FILES]


def _types(path: Path) -> set[str]:
    return {str(m["type"]) for m in registry.get(RULESET).load_roster(path)["models"]}


def _game(winner: str | None = "a") -> BalanceGame:
    return BalanceGame(
        (0, 1),
        0,
        winner,
        (
            ModelLine(0, "Knight", 100, False, 2, 0),  # took out two of side b, survived
            ModelLine(0, "Squire", 20, True, 0, 0),  # taken out
            ModelLine(1, "Brute", 60, True, 0, 1),
            ModelLine(1, "Brute", 60, True, 0, 1),
            ModelLine(1, "Archer", 40, False, 1, 1),  # took out the squire
        ),
    )


def test_contributions_by_hand() -> None:
    # side b lost 120 points in two models (60 each), side a one model of 20
    assert contributions(_game()) == [2 * 60 + 100, 0, 0, 0, 1 * 20 + 40]


def test_fair_points_keep_the_listed_total() -> None:
    games = [_game(), _game("b")]
    fair = fair_points(games)
    listed = {"Knight": 100, "Squire": 20, "Brute": 60, "Archer": 40}
    count = {"Knight": 1, "Squire": 1, "Brute": 2, "Archer": 1}
    assert sum(fair[t] * count[t] for t in fair) == pytest.approx(sum(listed[t] * count[t] for t in listed))
    # every Out here was a kill, so the contributions already add up to the 280 points on the table (scale 1)
    assert fair["Knight"] == pytest.approx(220) and fair["Squire"] == 0.0
    low, high = bootstrap(games, 50, seed=1)["Knight"]
    assert low == high == pytest.approx(fair["Knight"])  # identical games: no spread


def _check_report(report: dict[str, Any], paths: list[Path]) -> None:
    assert set(report) == {
        "ruleset",
        "agent",
        "seed",
        "games",
        "bootstrap",
        "method",
        "warbands",
        "matchups",
        "types",
        "crashes",
    }
    assert report["crashes"] == []
    expected = set().union(*(_types(p) for p in paths))
    assert {t["type"] for t in report["types"]} == expected
    for t in report["types"]:
        assert set(t) == TYPE_KEYS
        numbers = [t["listed"], t["fair"], *t["ci95"], t["delta"], t["delta_pct"], t["kills_per_game"], t["survival"]]
        assert all(math.isfinite(x) for x in numbers)
        assert t["ci95"][0] <= t["ci95"][1]
        assert t["verdict"] in ("under-costed", "over-costed", "within error")
    deltas = [t["delta_pct"] for t in report["types"]]
    assert deltas == sorted(deltas, reverse=True)
    assert [w["path"] for w in report["warbands"]] == [str(p) for p in paths]
    assert sum(w["games"] for w in report["warbands"]) == 2 * report["games"]


def test_round_robin_random_agents() -> None:
    report = run_balance(RULESET, PATHS, games=2, seed=5, agent="random", rounds=20)
    assert report["games"] == 6  # three pairs, two games each
    _check_report(report, PATHS)
    again = run_balance(RULESET, PATHS, games=2, seed=5, agent="random", rounds=20)
    assert again == report


def test_one_warband_plays_a_mirror() -> None:
    report = run_balance(RULESET, PATHS[:1], games=1, agent="random", rounds=5)
    assert report["games"] == 1
    _check_report(report, PATHS[:1])


def test_bad_input() -> None:
    with pytest.raises(SimulationError):
        run_balance(RULESET, PATHS, games=0)
    with pytest.raises(SimulationError):
        run_balance(RULESET, [])


def test_cli_balance_json_and_table(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["balance", RULESET, "--warbands", *map(str, PATHS[:2]), "--games", "2", "--agent", "random"]
    result = runner.invoke(app, [*args, "--bootstrap", "10", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    _check_report(report, PATHS[:2])
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "fair" in table.stdout and "Yeoman" in table.stdout
    missing = runner.invoke(app, ["balance", RULESET, "--warbands", str(tmp_path / "nope.yaml")], standalone_mode=False)
    assert missing.exception is not None and "nope.yaml" in str(missing.exception)
