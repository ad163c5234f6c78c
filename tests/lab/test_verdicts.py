"""``balance --check-agent``: the matchup-by-matchup comparison by hand (holds, favoured side changes, margin
moves), the matchups a balance report lists, and a tiny run of the command."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.lab.balance import BalanceGame, matchups
from warband.lab.verdicts import compare_matchup, compare_matchups, score_variance


def _m(wins: int, draws: int, losses: int, favoured: str | None) -> dict[str, Any]:
    n = wins + draws + losses
    return {
        "first": "A",
        "second": "B",
        "games": n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score_rate": (wins + draws / 2) / n,
        "ci95": [0.0, 1.0],
        "favoured": favoured,
    }


def test_score_variance_by_hand() -> None:
    assert score_variance(5, 0, 5) == pytest.approx(0.25)
    assert score_variance(0, 4, 0) == 0.0
    assert score_variance(2, 2, 0) == pytest.approx((2 * 0.25**2 + 2 * 0.25**2) / 4)


def test_same_side_small_shift_holds() -> None:
    line = compare_matchup(_m(60, 0, 40, "A"), _m(65, 0, 35, "A"))
    half = 1.959963984540054 * math.sqrt(0.24 / 100 + 0.2275 / 100)
    assert line["shift"] == pytest.approx(0.05)
    assert line["shift_ci95"] == pytest.approx([0.05 - half, 0.05 + half])
    assert line["holds"] and line["verdict"] == "holds"


def test_favoured_side_flips() -> None:
    line = compare_matchup(_m(70, 0, 30, "A"), _m(30, 0, 70, "B"))
    assert not line["holds"] and line["verdict"] == "changes: favoured A -> B"


def test_margin_moves_beyond_its_interval_on_the_same_side() -> None:
    line = compare_matchup(_m(550, 0, 450, "A"), _m(950, 0, 50, "A"))
    assert not line["holds"] and "margin moved" in line["verdict"]


def test_matchups_of_a_round_robin() -> None:
    games = [
        BalanceGame((0, 1), 0, "a", ()),
        BalanceGame((0, 1), 1, "a", ()),
        BalanceGame((0, 1), 2, None, ()),
        BalanceGame((0, 1), 3, "b", ()),
    ]
    (line,) = matchups(["X", "Y"], games)
    assert (line["wins"], line["draws"], line["losses"], line["score_rate"]) == (2, 1, 1, 0.625)
    assert line["favoured"] is None  # four games cannot tell
    assert compare_matchups([line], [line])[0]["holds"]


def test_cli_balance_check_agent() -> None:
    samples = registry.get("trench-crusade").samples()["warbands"]
    files = [item["path"] for item in samples[:2]]
    args = ["balance", "trench-crusade", "--warbands", *files, "--games", "2", "--agent", "random"]
    result = CliRunner().invoke(app, [*args, "--check-agent", "heuristic", "--bootstrap", "5", "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["check"]["agent"] == "heuristic"
    (line,) = s["check"]["matchups"]
    assert line["base"]["games"] == line["check"]["games"] == 2
    assert isinstance(line["holds"], bool) and line["verdict"]
    bad = CliRunner().invoke(app, [*args, "--check-agent", "nosuch"], standalone_mode=False)
    assert "--check-agent" in str(bad.exception) and Path(files[0]).exists()
