"""Rules the engine does not play are named, and no answer silently comes from a different game: `validate` lists
them, and simulate, compare, balance and the web table refuse such a warband unless the user allows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.errors import UnmodelledError
from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.store import TableStore

runner = CliRunner()
TC = "trench-crusade"
FIXTURES = Path(__file__).resolve().parent / "unmodelled"  # lists holding item rules the engine does not play
HAND = Path(__file__).resolve().parents[1] / "trench_crusade" / "hand_typed"  # custom models
HERETICS = FIXTURES / "heretics_silenced.yaml"
SAMPLES = [Path(s["path"]) for s in registry.get(TC).samples()["warbands"]]
ANTIOCH = next(p for p in SAMPLES if p.name == "new_antioch_company.yaml")  # a bundled sample: all of it is played
SILENCED = (
    "Silenced Pistol: Usable in melee with the Ranged characteristic, also off-hand; +1 DICE to hit when firing "
    "from behind terrain (Death Commando)"
)
FAST = ["--agent-a", "random", "--agent-b", "random", "--db", ":memory:"]


def test_validate_names_every_rule_not_modelled() -> None:
    result = runner.invoke(app, ["validate", str(HERETICS)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Puppet Master" not in out  # played
    assert f"not modelled: {SILENCED}" in out
    assert "keyword INFILTRATOR" not in out  # played
    assert "injury DICE" not in out  # the weapons' injury dice are played
    antioch = runner.invoke(app, ["validate", str(ANTIOCH)]).output
    assert antioch.startswith("OK:") and "not modelled" not in antioch  # every rule of the sample is played


def test_the_modelled_list_decides() -> None:
    """A rule the engine plays is not named: Zealot Strength is STRONG, which the rules play."""
    out = runner.invoke(app, ["validate", str(FIXTURES / "pilgrims_punt_gun.yaml")]).output
    assert "Zealot Strength" not in out and "Loudspeakers" not in out  # both played
    assert "not modelled: Punt Gun: May be overcharged for BLAST 3" in out
    assert "NEGATE" not in out  # the Communicant Cross's NEGATE SHRAPNEL and NEGATE GAS are played


def test_simulate_refuses_unless_allowed() -> None:
    args = ["simulate", TC, "--a", str(HERETICS), "--b", str(ANTIOCH), "--games", "1", *FAST]
    refused = runner.invoke(app, args)
    assert isinstance(refused.exception, UnmodelledError)
    text = str(refused.exception)
    assert f"{HERETICS}: not modelled: {SILENCED}" in text
    assert str(ANTIOCH) not in text and "--allow-unmodelled" in text
    allowed = runner.invoke(app, [*args, "--allow-unmodelled", "--json"])
    assert allowed.exit_code == 0, allowed.output
    assert '"games": 1' in allowed.output


def test_refused_through_the_command_line_with_exit_code_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    args = ["simulate", TC, "--a", str(HERETICS), "--b", str(ANTIOCH), "--games", "1", *FAST]
    done = subprocess.run([sys.executable, "-m", "warband", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "not modelled" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["compare", "balance"])
def test_compare_and_balance_refuse_too(command: str) -> None:
    if command == "compare":
        args = ["compare", TC, "--a", str(HERETICS), "--b", str(ANTIOCH), "--variant", "charge_range=10"]
    else:
        args = ["balance", TC, "--warbands", str(HERETICS), str(ANTIOCH)]
    result = runner.invoke(app, [*args, "--games", "1"])
    assert isinstance(result.exception, UnmodelledError), result.output


def test_hand_typed_samples_are_not_refused() -> None:
    """Custom models carry only what the engine reads; validate marks them custom and names the keywords it
    accepts without playing."""
    hand = [HAND / "heretic_legion_raiders.yaml", HAND / "new_antioch_company.yaml"]
    args = ["simulate", TC, "--a", str(hand[0]), "--b", str(hand[1]), "--games", "1", *FAST, "--json"]
    assert runner.invoke(app, args).exit_code == 0
    out = runner.invoke(app, ["validate", str(hand[0])]).output
    assert "custom (hand-typed, not from the catalogue)" in out
    assert "custom model, not played" not in out  # INFILTRATOR, the last such keyword of the samples, is played


def test_the_web_table_refuses_unless_the_box_is_ticked(tmp_path: Path) -> None:
    heretics = {"text": HERETICS.read_text(encoding="utf-8")}
    body = {"ruleset": TC, "a": heretics, "b": {"sample": SAMPLES[1].stem}, "seats": ["human", "human"]}
    with TestClient(create_app(Server(TableStore(tmp_path / "w.db"), ReplayShelf(), ai_delay=0.0))) as c:
        refused = c.post("/api/games", json=body)
        assert refused.status_code == 422
        messages = [p["message"] for p in refused.json()["problems"]]
        assert f"not modelled: {SILENCED}" in messages
        assert {p["file"] for p in refused.json()["problems"]} == {"side A"}
        assert c.post("/api/games", json={**body, "allow_unmodelled": True}).status_code == 200
        checked = c.post("/api/validate", json={"ruleset": TC, "kind": "warband", "doc": heretics})
        assert SILENCED in checked.json()["unmodelled"]
