"""Issue 10 item 7: resuming a run with a new ``--log-dir`` still writes every log (from the stored games), and a
run resumed from the default results file says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardcli import RANDOM, TC, cli, warband

SIM = ["simulate", TC, "--a", str(warband(TC, 0)), "--b", str(warband(TC, 1)), *RANDOM, "--games", "3"]


def test_resume_with_a_new_log_dir_writes_the_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli(*SIM, "--workers", "1").code == 0
    out = cli(*SIM, "--workers", "1", "--log-dir", "logs")
    assert out.code == 0
    assert "resumed run 1 of warband-results.db (the default results file in this folder)" in out.text
    logs = sorted((tmp_path / "logs").glob("game-*.jsonl"))
    assert [p.name for p in logs] == ["game-00000.jsonl", "game-00001.jsonl", "game-00002.jsonl"]
    for log in logs:
        assert cli("replay", log, "--verify", "--quiet").code == 0


def test_a_fresh_run_does_not_claim_to_resume(tmp_path: Path) -> None:
    out = cli(*SIM, "--workers", "1", "--db", tmp_path / "fresh.db")
    assert out.code == 0 and "resumed" not in out.text
