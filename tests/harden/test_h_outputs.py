"""Issue 10 items 10 and 11: a game is not lost on Ctrl-C, an output that cannot be written is found before the
game or run starts, and a damaged, read-only or misplaced database is a clear error naming the file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hardcli import RANDOM, TC, cli, warband

from warband.cli import play_cmd
from warband.lab.store import Store, StoreError, store_error

SIM = ["simulate", TC, "--a", str(warband(TC, 0)), "--b", str(warband(TC, 1)), *RANDOM, "--games", "2"]


def _interrupt(prompt: str) -> str | None:
    raise KeyboardInterrupt


def test_ctrl_c_in_play_writes_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_cmd, "stdin_reader", _interrupt)
    log = tmp_path / "x.jsonl"
    out = cli("play", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), "--agent-b", "random", "--log", log)
    assert out.code == 130 and "interrupted" in out.text and f"log written to {log}" in out.text
    assert json.loads(log.read_text().splitlines()[0])["format"] == "warband-log"


def test_ctrl_d_in_play_still_writes_the_log(tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    out = cli("play", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), "--agent-b", "random", "--log", log, input="")
    assert out.code == 0 and log.is_file()


def test_play_log_naming_a_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    out = cli("play", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, "--log", tmp_path)
    assert out.code == 2 and "--log" in out.text and "is a folder" in out.text and "Result" not in out.text


def _blocker(tmp_path: Path) -> Path:
    """A plain file: nothing can be created under it, even by root (where permissions do not stop writes)."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    return blocker


def test_log_dir_that_cannot_be_created_is_refused_before_the_run(tmp_path: Path) -> None:
    out = cli(*SIM, "--db", ":memory:", "--log-dir", _blocker(tmp_path) / "logs")
    assert out.code == 2 and "--log-dir" in out.text and "cannot write" in out.text


def test_db_that_cannot_be_created_is_a_clear_error_not_a_wrong_one(tmp_path: Path) -> None:
    db = _blocker(tmp_path) / "x.db"
    out = cli(*SIM, "--db", db)
    assert out.code == 2 and str(db) in out.text and "cannot open or create" in out.text
    assert "not a warband results database" not in out.text


def test_a_read_only_database_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    Store(path).close()
    ro = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as info:
        ro.execute("CREATE TABLE t (x)")
    ro.close()
    assert "is read-only" in str(store_error(str(path), info.value))
    with Store(path, readonly=True) as store:  # a report reads a database without writing to it
        assert store.runs() == []


def test_a_corrupted_database_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 64)
    out = cli(*SIM, "--db", db)
    assert out.code == 2 and str(db) in out.text and "Traceback" not in out.text
    report = cli("report", db, "--out", tmp_path / "r")
    assert report.code == 2 and str(db) in report.text


def test_a_truncated_database_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "cut.db"
    assert cli(*SIM, "--db", db).code == 0
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    for wal in (tmp_path / "cut.db-wal", tmp_path / "cut.db-shm"):
        wal.unlink(missing_ok=True)
    with pytest.raises(StoreError, match=str(db)), Store(db, readonly=True) as store:
        [store.games(r.id) for r in store.runs()]


def test_report_out_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert cli(*SIM, "--db", db).code == 0
    out = cli("report", db, "--out", _blocker(tmp_path) / "report")
    assert out.code == 2 and "--out" in out.text


def test_position_out_naming_a_folder_is_refused(tmp_path: Path) -> None:
    out = cli("position", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), "--out", tmp_path, "--steps", "3")
    assert out.code == 2 and "--out" in out.text and "is a folder" in out.text
