"""``warband position`` and ``warband legal``: position files, legal actions and why not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.legal_cmd import position_schema
from warband.cli.main import app
from warband.kernel.engine import Game
from warband.kernel.ruleset import get

runner = CliRunner()
WARBANDS = get("trench-crusade").samples()["warbands"]
ROOT = Path(__file__).resolve().parents[2]


def make_position(out: Path, steps: int, *extra: str) -> Game:
    result = runner.invoke(
        app,
        [
            "position",
            "trench-crusade",
            "--a",
            WARBANDS[0]["path"],
            "--b",
            WARBANDS[1]["path"],
            "--steps",
            str(steps),
            "--seed",
            "1",
            "--out",
            str(out),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return Game.from_json(json.loads(out.read_text()))


@pytest.fixture(scope="module")
def pos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A position where a side must activate a model (so some actions are illegal, with rules to say why)."""
    out = tmp_path_factory.mktemp("legal") / "pos.json"
    for steps in range(40, 120, 3):
        if make_position(out, steps).decision.prompt == "activate":
            return out
    pytest.fail("no activation decision reached")


def test_position_round_trips(pos: Path) -> None:
    data = json.loads(pos.read_text())
    assert set(data) == {"header", "state"}
    game = Game.from_json(data)
    assert game.state.state_id >= 40 and game.decision.kind == "choice"  # settled after the steps
    assert game.to_json()["state"] == data["state"]


def test_position_no_settle_can_stop_at_a_roll(tmp_path: Path) -> None:
    out = tmp_path / "roll.json"
    assert make_position(out, 0, "--no-settle").decision.kind == "chance"
    legal = runner.invoke(app, ["legal", str(out)])
    assert legal.exit_code == 0 and "Chance rolls 2d6" in legal.output


def test_legal_lists_actions(pos: Path) -> None:
    result = runner.invoke(app, ["legal", str(pos)])
    assert result.exit_code == 0, result.output
    game = Game.from_json(json.loads(pos.read_text()))
    assert "decides" in result.output
    for i, action in enumerate(game.legal_actions(), start=1):
        assert f"{i:>3}. {action}" in result.output


def test_legal_explain_shows_rule_ids(pos: Path) -> None:
    result = runner.invoke(app, ["legal", str(pos), "--explain"])
    assert result.exit_code == 0
    assert "Not allowed:" in result.output and "[trench-crusade/" in result.output


def test_legal_json(pos: Path) -> None:
    result = runner.invoke(app, ["legal", str(pos), "--explain", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == {"decision", "legal", "illegal", "about"}
    assert data["decision"]["kind"] == "choice" and data["legal"]
    assert data["illegal"] and all(
        r["rule"].startswith("trench-crusade/") for item in data["illegal"] for r in item["reasons"]
    )
    assert not set(data["legal"]) & {item["action"] for item in data["illegal"]}


def _broken(pos: Path, tmp_path: Path, edit: str) -> Path:
    data = json.loads(pos.read_text())
    if edit == "missing-x":
        del data["state"]["models"][2]["x"]
    elif edit == "bad-seed":
        data["header"]["seed"] = "abc"
    elif edit == "no-state":
        del data["state"]
    elif edit == "bad-vars":
        data["state"]["vars"] = {}
    elif edit == "unknown-model":
        data["state"]["models"][0]["id"] = "zz"
    elif edit == "unknown-ruleset":
        data["header"]["ruleset"] = "no-such-game"
    out = tmp_path / f"{edit}.json"
    out.write_text(json.dumps(data))
    return out


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        ("missing-x", "state.models[2].x"),
        ("bad-seed", "header.seed"),
        ("no-state", "state"),
        ("bad-vars", "state.vars"),
        ("unknown-model", "'zz'"),
        ("unknown-ruleset", "no-such-game"),
    ],
)
def test_malformed_positions_exit_2(pos: Path, tmp_path: Path, edit: str, expected: str) -> None:
    bad = _broken(pos, tmp_path, edit)
    result = runner.invoke(app, ["legal", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:" in result.output and expected in result.output


def test_not_json_exits_2_through_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "warband", "legal", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert f"{bad}: line 2" in proc.stderr and "Traceback" not in proc.stderr


def test_schema_file_is_current() -> None:
    committed = json.loads((ROOT / "docs" / "schemas" / "position.schema.json").read_text())
    assert committed == position_schema()
    assert {"turn", "phase", "state_id", "rng", "sides", "models", "stack", "vars"} <= set(
        committed["$defs"]["PositionState"]["properties"]
    )
