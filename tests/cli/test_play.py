"""``warband play``: scripted human input, agents, manual dice, logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from warband.agents.human import point_action
from warband.cli.main import app
from warband.kernel.actions import Action
from warband.kernel.ruleset import get

runner = CliRunner()
WARBANDS = get("trench-crusade").samples()["warbands"]


def play(*args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(
        app, ["play", "trench-crusade", "--a", WARBANDS[0]["path"], "--b", WARBANDS[1]["path"], *args], input=input
    )
    return result.exit_code, result.output


def test_scripted_human_numbers_why_illegal_and_quit(tmp_path: Path) -> None:
    # seed 1: side A wins the roll-off; "1" picks zone 0, then sixteen "1"s deploy side A's eight models (each
    # is two decisions: which model, then where).
    script = ["1"] * 17 + ["all", "why 12", "shoot a1 b1 [Rifle]", "99999", "quit", "1"]
    log = tmp_path / "quit.jsonl"
    code, out = play("--agent-b", "random", "--log", str(log), input="\n".join(script) + "\n")
    assert code == 0, out
    assert "Side A (The Choir of the Ninth Gate): zone" in out
    assert "   1. zone [0]" in out and "random chooses: deploy b" in out
    assert "[trench-crusade/activation/alternate]" in out  # why 12: activate b4 on side A's turn
    assert "shoot a1 b1 [Rifle] is not allowed:" in out and "[trench-crusade/activation/choose]" in out
    assert "no choice 99999" in out
    assert "stopped before the end of the game" in out
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "warband-log"
    assert json.loads(lines[2])["a"] == {"kind": "zone", "option": "0"}
    assert len(lines) == 1 + 1 + 1 + 16 + 18  # header, roll-off, zone, side A's 8 and side B's 9 deployments


def test_odds_are_shown_before_committing() -> None:
    # Deploy with numbers, then keep choosing 1 (activate, then the first action) until a shot is offered.
    code, out = play("--agent-b", "random", "--seed", "1", input="1\n" * 60 + "quit\n")
    assert code == 0, out
    offered = [line for line in out.splitlines() if ". dash a" in line]
    assert offered and all(" — " in line and "%" in line for line in offered)


def test_bare_coordinates_at_a_destination() -> None:
    candidates = [Action("to", "a3", point=(1.0, 2.0)), Action("stay", "a3")]
    assert point_action(candidates, (12.5, 8.0)) == Action("to", "a3", point=(12.5, 8.0))
    several = [Action("deploy", "a1", point=(1.0, 1.0)), Action("deploy", "a2", point=(1.0, 1.0))]
    for legal in (several, [Action("end", "a1")]):
        try:
            point_action(legal, (1.0, 1.0))
        except ValueError:
            continue
        raise AssertionError("expected a ValueError")


def test_coordinates_during_deployment_ask_for_the_model() -> None:
    """Coordinates answer "where": before a model is picked they are refused; once it is, they place it."""
    code, out = play("--agent-b", "random", input="1\n5,5\n1\n5,5\nhelp\nmap\nquit\n")
    assert code == 0
    assert "no destination is asked for here: first choose which model" in out
    assert "e.g. 'deploy " in out
    assert "deploy for a1 (Father Orobas)" in out and "(5.0, 5.0, z 0)" in out
    assert "why N | why TEXT" in out


def test_eof_exits_cleanly_and_saves_the_log(tmp_path: Path) -> None:
    log = tmp_path / "eof.jsonl"
    code, out = play("--agent-b", "random", "--log", str(log), input="1\n")
    assert code == 0, out
    assert len(log.read_text().splitlines()) >= 3


def test_manual_dice(tmp_path: Path) -> None:
    log = tmp_path / "manual.jsonl"
    code, out = play(
        "--agent-a",
        "random",
        "--agent-b",
        "random",
        "--dice",
        "manual",
        "--log",
        str(log),
        input="7 1\nx y\n2 5\nauto\nquit\n",
    )
    assert code == 0, out
    assert "Roll 2d6 (deployment roll-off)" in out
    assert "[kernel/dice]" in out and "expected whole numbers" in out
    assert "rolled [2, 5] -> side B wins" in out
    steps = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert steps[0]["r"] == [2, 5] and steps[0]["src"] == "manual"


def test_random_vs_random_to_the_end_then_replay_verifies(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out = play("--agent-a", "random", "--agent-b", "random", "--seed", "7", "--log", str(log))
    assert code == 0, out
    assert "Result:" in out and "random chooses:" in out
    assert '"end"' in log.read_text().splitlines()[-1]
    result = runner.invoke(app, ["replay", str(log), "--verify", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "OK:" in result.output


def test_heuristic_default_or_fallback() -> None:
    code, out = play("--agent-a", "random", input="quit\n")
    assert code == 0, out
    assert "heuristic" in out or "using random" in out


def test_bad_agent_and_bad_param_exit_2() -> None:
    base = [
        sys.executable,
        "-m",
        "warband",
        "play",
        "trench-crusade",
        "--a",
        WARBANDS[0]["path"],
        "--b",
        WARBANDS[1]["path"],
    ]
    proc = subprocess.run([*base, "--agent-a", "nobody"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "nobody" in proc.stderr
    proc = subprocess.run(
        [*base, "--agent-a", "random", "--set", "no_such=1"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and "no_such" in proc.stderr
