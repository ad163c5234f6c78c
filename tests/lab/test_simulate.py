"""The lab's simulate(): seeded determinism (records and log bytes), summaries, the CLI's --json and exit 2."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.lab.records import SimulationConfig
from warband.lab.simulate import SimulationError, play_one, simulate

RULESET = "trench-crusade"
TIMINGS = ("elapsed_s", "games_per_s", "decisions_per_s")


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


A = _warband("pilgrims_sacred_affliction.yaml")
B = _warband("new_antioch_company.yaml")


def _config(**changes: Any) -> SimulationConfig:
    base = SimulationConfig(RULESET, A, B, games=3, seed=7, agent_a="random", agent_b="random")
    return dataclasses.replace(base, **changes)


def _untimed(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in (*TIMINGS, "logs")}


def test_same_seed_same_results_and_byte_identical_logs(tmp_path: Path) -> None:
    first = simulate(_config(log_dir=tmp_path / "one"))
    second = simulate(_config(log_dir=tmp_path / "two"))
    assert _untimed(first.summary()) == _untimed(second.summary())
    assert [dataclasses.replace(r, log=None) for r in first.records] == [
        dataclasses.replace(r, log=None) for r in second.records
    ]
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == ["game-00000.jsonl", "game-00001.jsonl", "game-00002.jsonl"]
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert first.summary()["logs"] == [str(tmp_path / "one" / n) for n in names]


def test_different_seed_different_games() -> None:
    first = simulate(_config(seed=7))
    other = simulate(_config(seed=8))
    outline = [(r.winner, r.score, r.steps, r.decisions) for r in first.records]
    assert outline != [(r.winner, r.score, r.steps, r.decisions) for r in other.records]


def test_one_game_alone_and_a_pool_give_the_same_records() -> None:
    config = _config(games=4)
    serial = simulate(config)
    assert play_one(config, 2) == serial.records[2]
    pooled = simulate(config, workers=2)
    assert pooled.records == serial.records


def test_summary_shape_and_intervals() -> None:
    seen: list[int] = []
    result = simulate(_config(params={"charge_range": "8"}), progress=lambda done, total, rec: seen.append(done))
    s = result.summary()
    assert seen == [1, 2, 3]
    assert s["games"] == 3 and s["seed"] == 7 and s["ruleset"] == RULESET
    assert s["params"] == {"charge_range": 8}
    assert s["a"]["wins"] + s["b"]["wins"] + s["draws"] == 3
    assert s["decisions"] == sum(r.decisions for r in result.records) > 0
    assert s["logs"] == []
    for side in ("a", "b"):
        low, high = s[side]["ci95"]
        assert 0.0 <= low <= s[side]["win_rate"] <= high <= 1.0
        assert s[side]["agent"] == "random"
    assert s["a"]["name"] != s["b"]["name"]


def test_swap_sides_reports_in_a_b_terms(tmp_path: Path) -> None:
    result = simulate(_config(games=2, swap_sides=True, log_dir=tmp_path))
    assert [r.swapped for r in result.records] == [False, True]
    header = json.loads((tmp_path / "game-00001.jsonl").read_text().splitlines()[0])
    assert header["rosters"][0]["name"] == result.names[1]


def test_log_first_keeps_only_the_first_logs(tmp_path: Path) -> None:
    result = simulate(_config(log_dir=tmp_path, log_first=1))
    assert [p.name for p in tmp_path.iterdir()] == ["game-00000.jsonl"]
    assert [r.log for r in result.records] == [str(tmp_path / "game-00000.jsonl"), None, None]


def test_no_games_is_an_error() -> None:
    with pytest.raises(SimulationError, match="--games"):
        simulate(_config(games=0))


def test_cli_json_prints_one_summary_object() -> None:
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "simulate",
            RULESET,
            "--a",
            str(A),
            "--b",
            str(B),
            "--games",
            "2",
            "--seed",
            "3",
            "--agent-a",
            "random",
            "--agent-b",
            "random",
            "--json",
            "--db",
            ":memory:",
        ],
    )
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["games"] == 2 and summary["seed"] == 3
    assert {"ruleset", "a", "b", "draws", "decisions", "elapsed_s", "params", "logs"} <= set(summary)
    assert set(summary["a"]) >= {"name", "agent", "wins", "win_rate", "ci95"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "warband", "simulate", RULESET, *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--a", str(A), "--b", str(B), "--games", "1", "--set", "no_such_rule=3"], "no_such_rule"),
        (["--a", "missing-warband.yaml", "--b", str(B), "--games", "1"], "missing-warband.yaml"),
        (["--a", str(A), "--b", str(B), "--games", "1", "--agent-b", "no_such_agent"], "no_such_agent"),
        (["--a", str(A), "--b", str(B), "--games", "0"], "--games"),
    ],
)
def test_cli_bad_input_exits_2_naming_it(args: list[str], named: str, tmp_path: Path) -> None:
    done = _cli(*args, "--agent-a", "random", "--log-dir", str(tmp_path / "logs"))
    assert done.returncode == 2, done.stderr
    assert named in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "logs").exists()
