"""``warband replay``: a logged game replays; --verify catches tampering; corrupt logs exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel.ruleset import get

runner = CliRunner()


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    warbands = get("trench-crusade").samples()["warbands"]
    log = tmp_path_factory.mktemp("replay") / "game.jsonl"
    result = runner.invoke(
        app,
        [
            "play",
            "trench-crusade",
            "--a",
            warbands[0]["path"],
            "--b",
            warbands[1]["path"],
            "--agent-a",
            "random",
            "--agent-b",
            "random",
            "--seed",
            "5",
            "--log",
            str(log),
        ],
    )
    assert result.exit_code == 0, result.output
    return log


def test_replay_verify_ok(game_log: Path) -> None:
    result = runner.invoke(app, ["replay", str(game_log), "--verify"])
    assert result.exit_code == 0, result.output
    steps = len(game_log.read_text().splitlines()) - 2
    assert f"OK: {steps} steps replayed, result and fingerprint match" in result.output
    assert "Result:" in result.output and "line 2:" in result.output


def test_replay_quiet_prints_only_the_result(game_log: Path) -> None:
    result = runner.invoke(app, ["replay", str(game_log), "--quiet"])
    assert result.exit_code == 0
    assert "line 2:" not in result.output and "Result:" in result.output


def test_tampered_roll_fails_verify_naming_the_line(game_log: Path, tmp_path: Path) -> None:
    lines = game_log.read_text().splitlines()
    for i in range(len(lines) // 2, len(lines)):
        step = json.loads(lines[i])
        if "r" in step and step.get("src") == "auto":
            step["r"][0] = step["r"][0] % 6 + 1
            lines[i] = json.dumps(step)
            break
    else:
        pytest.fail("no roll in the second half of the log")
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", str(bad), "--verify", "--quiet"])
    assert result.exit_code == 1
    assert f"line {i + 1}:" in result.output and "divergence" in result.output


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True, text=True, timeout=60)


def test_truncated_log_exits_2_naming_file_and_line(game_log: Path, tmp_path: Path) -> None:
    bad = tmp_path / "cut.jsonl"
    text = game_log.read_text()
    bad.write_text(text[: len(text) // 2])  # cut in the middle of a line
    proc = _run("replay", str(bad))
    assert proc.returncode == 2
    assert str(bad) in proc.stderr and "line" in proc.stderr and "Traceback" not in proc.stderr


def test_not_a_log_and_unknown_ruleset_exit_2(game_log: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    result = runner.invoke(app, ["replay", str(junk)])
    assert result.exit_code == 2 and "line 1" in result.output
    header = json.loads(game_log.read_text().splitlines()[0])
    header["ruleset"] = "no-such-game"
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(header) + "\n")
    result = runner.invoke(app, ["replay", str(other)])
    assert result.exit_code == 2 and "no-such-game" in result.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert runner.invoke(app, ["replay", str(empty)]).exit_code == 2
