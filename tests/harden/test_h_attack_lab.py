"""Issue 24 items 9 and 10: the lab store checks its file (not SQLite, a web table store) and its rows (damaged
JSON names the row, no traceback); ``serve`` refuses arguments that cannot work before it starts; ``--game``
beyond ``--games`` and a Ray address that does not answer fail at once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from attack import timed
from hardcli import RANDOM, TC, cli, warband

from warband.web.store import TableStore

SIM = ["simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lab") / "r.db"
    out = cli(*SIM, "--games", "2", "--db", path, "--workers", "1")
    assert out.code == 0, out.text
    return path


def _copy(results: Path, tmp_path: Path, sql: str = "") -> Path:
    path = tmp_path / "copy.db"
    path.write_bytes(results.read_bytes())
    if sql:
        with sqlite3.connect(path) as db:
            db.execute(sql)
    return path


@pytest.mark.parametrize(
    ("name", "content"),
    [("one-byte", b"x"), ("text", b"name: warband\n" * 20), ("zip", b"PK\x03\x04" + b"\x00" * 200), ("json", b"{}")],
)
def test_a_file_that_is_not_sqlite_is_refused_as_db(name: str, content: bytes, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.db"
    path.write_bytes(content)
    out = timed(lambda: cli(*SIM, "--games", "1", "--db", path))
    assert out.code == 2 and str(path) in out.text and "not a SQLite database" in out.text, out.text
    assert path.read_bytes() == content, "the file is left as it was"
    report = timed(lambda: cli("report", path, "--out", tmp_path / "rep"))
    assert report.code == 2 and str(path) in report.text


def test_a_web_table_store_is_refused_as_db(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    TableStore(path).close()
    out = timed(lambda: cli(*SIM, "--games", "1", "--db", path))
    assert out.code == 2 and "not a results database" in out.text and "tables" in out.text, out.text
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "runs" not in names, "no lab table was added to the web store"


DAMAGE = {
    "game-models": ("UPDATE games SET models = '{bad' WHERE idx = 1", "game 1 of run 1"),
    "game-models-number": ("UPDATE games SET models = '5' WHERE idx = 0", "game 0 of run 1"),
    "game-turns-text": ("UPDATE games SET turns = 'many' WHERE idx = 0", "game 0 of run 1"),
    "run-params": ("UPDATE runs SET params = '{bad'", "run 1"),
    "run-roster": ("UPDATE runs SET roster_a = '[1,'", "run 1"),
    "run-seed-text": ("UPDATE runs SET seed = 'x'", "run 1"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_row_is_named_by_report_and_resume(damage: str, results: Path, tmp_path: Path) -> None:
    sql, where = DAMAGE[damage]
    path = _copy(results, tmp_path, sql)
    report = timed(lambda: cli("report", path, "--out", tmp_path / "rep"))
    assert report.code == 2 and "damaged" in report.text and where in report.text, report.text
    resume = timed(lambda: cli(*SIM, "--games", "3", "--db", path, "--workers", "1"))
    assert resume.code == 2 and "damaged" in resume.text and str(path) in resume.text, resume.text


def test_report_reads_a_database_opened_read_only(results: Path, tmp_path: Path) -> None:
    from warband.lab.store import Store

    path = _copy(results, tmp_path)
    with Store(path, readonly=True) as store:
        assert len(store.games(store.latest_run().id)) == 2


# --- serve, simulate's --game and --address -------------------------------------------------------------
SERVE = {
    "port-70000": (["--port", "70000"], "--port 70000"),
    "port-0": (["--port", "0"], "--port 0"),
    "port-negative": (["--port", "-1"], "--port -1"),
    "host-999": (["--host", "999.1.1.1"], "--host"),
    "host-spaces": (["--host", "local host"], "--host"),
    "host-empty-label": (["--host", "a..b"], "--host"),
    "ai-delay-negative": (["--ai-delay", "-1"], "--ai-delay"),
    "ai-delay-nan": (["--ai-delay", "nan"], "--ai-delay"),
    "ai-delay-inf": (["--ai-delay", "inf"], "--ai-delay"),
    "ai-delay-huge": (["--ai-delay", "1e9"], "--ai-delay"),
    "log-missing": (["--log", "/nonexistent/x.jsonl"], "--log"),
    "log-folder": (["--log", "/tmp"], "--log"),
    "db-missing": (["--db", "/nonexistent/r.db"], "--db"),
}


@pytest.mark.parametrize("case", sorted(SERVE))
def test_serve_refuses_arguments_that_cannot_work(case: str, tmp_path: Path) -> None:
    args, words = SERVE[case]
    out = timed(lambda: cli("serve", "--store", tmp_path / "web.db", *args))
    assert out.code == 2 and words in out.text, out.text
    assert "warband table: http" not in out.text, "refused before the server starts"


@pytest.mark.parametrize("kind", ["folder", "missing-folder", "foreign"])
def test_serve_refuses_a_store_it_cannot_use(kind: str, tmp_path: Path) -> None:
    if kind == "folder":
        store = tmp_path
    elif kind == "missing-folder":
        store = tmp_path / "no" / "web.db"
    else:
        store = tmp_path / "lab.db"
        with sqlite3.connect(store) as db:
            db.execute("CREATE TABLE runs (id INTEGER)")
    out = timed(lambda: cli("serve", "--store", store))
    assert out.code == 2 and f"--store {store}" in out.text, out.text


@pytest.mark.parametrize("game", ["2", "5", "99999999"])
def test_a_game_beyond_the_run_is_refused(game: str) -> None:
    out = timed(lambda: cli(*SIM, "--games", "2", "--game", game, "--db", ":memory:"))
    assert out.code == 2 and "--game" in out.text and "Result" not in out.text, out.text


@pytest.mark.parametrize("address", ["127.0.0.1:1", "ray://127.0.0.1:1", "localhost:notaport", "127.0.0.1:70000"])
def test_a_ray_address_that_does_not_answer_fails_fast(address: str) -> None:
    pytest.importorskip("ray")
    out = timed(lambda: cli(*SIM, "--games", "1", "--backend", "ray", "--address", address, "--db", ":memory:"))
    assert out.code == 2 and address in out.text, out.text


def test_a_log_whose_end_line_is_text_is_a_clear_error(results: Path, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    assert cli(*SIM, "--games", "1", "--db", ":memory:", "--log-dir", folder).code == 0
    path = folder / "game-00000.jsonl"
    lines = path.read_text().splitlines()
    lines[-1] = json.dumps({"end": "side A won"})
    path.write_text("\n".join(lines) + "\n")
    for args in ([], ["--verify"]):
        out = timed(lambda a=args: cli("replay", path, *a))  # type: ignore[misc]
        assert out.code == 2 and "end line" in out.text, out.text
