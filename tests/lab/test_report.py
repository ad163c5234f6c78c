"""`warband report`: the files, the numbers against the database, replayable logs and a headless screenshot."""

from __future__ import annotations

import html
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.log import read_log, replay
from warband.lab.records import SimulationConfig
from warband.lab.report import WEB_TABLE, Rate, analyse, lopsided, write_report
from warband.lab.simulate import simulate
from warband.lab.store import Store, StoreError

RULESET = "trench-crusade"
GAMES = 8


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "results.db"
    config = SimulationConfig(
        RULESET,
        _warband("pilgrims_sacred_affliction.yaml"),
        _warband("new_antioch_company.yaml"),
        games=GAMES,
        seed=21,
        agent_a="random",
        agent_b="random",
    )
    with Store(path) as store:
        simulate(config, workers=2, store=store)
    return path


@pytest.fixture(scope="module")
def report_dir(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out") / "report"
    done = CliRunner().invoke(app, ["report", str(db), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert str(out / "index.html") in done.stdout and "--verify" in done.stdout
    return out


def test_files_and_self_contained_page(report_dir: Path) -> None:
    page = (report_dir / "index.html").read_text(encoding="utf-8")
    for chart in ("win_rates.png", "game_length.png", "model_types.png"):
        png = (report_dir / chart).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 5_000
        assert f'href="{chart}"' in page
    assert page.count('src="data:image/png;base64,') >= 3
    # nothing fetched from elsewhere; the only address is the local web table's replay link of each lopsided game
    assert "<style>" in page and "<link" not in page and "http" not in page.replace(f"'{WEB_TABLE}/replay/", "'")


def test_numbers_match_the_database(db: Path, report_dir: Path) -> None:
    page = (report_dir / "index.html").read_text(encoding="utf-8")
    con = sqlite3.connect(db)
    name_a, name_b = con.execute("SELECT name_a, name_b FROM runs").fetchone()
    assert html.escape(name_a) in page and html.escape(name_b) in page
    wins = dict(con.execute("SELECT coalesce(winner, 'draw'), count(*) FROM games GROUP BY winner").fetchall())
    assert sum(wins.values()) == GAMES
    assert f"won {wins.get('a', 0)} of {GAMES} games" in page
    assert f"won {wins.get('b', 0)} of {GAMES} games" in page
    assert f"{wins.get('draw', 0)} of {GAMES} games" in page
    assert Rate(wins.get("a", 0), GAMES).text() in page
    decisive, first_won = con.execute(
        "SELECT count(*), sum(winner = first_player) FROM games WHERE winner IS NOT NULL AND first_player IS NOT NULL"
    ).fetchone()
    assert f"wins {Rate(first_won or 0, decisive).text()} of the {decisive} decisive games" in page
    mean = con.execute("SELECT avg(turns) FROM games").fetchone()[0]
    assert f"Games last {mean:.1f} turns on average" in page


def test_lopsided_games_have_logs_that_replay(db: Path, report_dir: Path) -> None:
    with Store(db) as store:
        run = store.latest_run()
        worst = lopsided(store.games(run.id))
    page = (report_dir / "index.html").read_text(encoding="utf-8")
    assert len(worst) == 3
    margins = [margin for _, margin, _ in worst]
    assert margins == sorted(margins, reverse=True)
    for game, _, _ in worst:
        log = report_dir / "games" / f"run-{run.id}-game-{game.index}.jsonl"
        assert f"warband replay {log} --verify" in page
        final = replay(read_log(log), verify=True).result()
        seats = game.score[::-1] if game.swapped else game.score  # the log is in seat order, the row in a/b terms
        assert final is not None and final.score == seats


def test_per_type_totals_add_up(db: Path) -> None:
    with Store(db) as store:
        run = store.latest_run()
        games = store.games(run.id)
        analysis = analyse(run, games)
    models = [m for g in games for m in g.models]
    assert sum(t.fielded for t in analysis.types) == len(models)
    assert sum(t.kills for t in analysis.types) == sum(m.kills for m in models)
    assert analysis.material["a"].taken_out == sum(m.points for m in models if m.side == 1 and m.out)


def test_missing_database_and_run_are_named(tmp_path: Path, db: Path) -> None:
    with pytest.raises(StoreError, match="no such results database"):
        write_report(tmp_path / "nope.db", tmp_path / "r")
    with pytest.raises(StoreError, match="no run 99"):
        write_report(db, tmp_path / "r", run_id=99)
    assert not (tmp_path / "nope.db").exists()


def test_headless_chromium_screenshot(report_dir: Path, tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        message = "chromium is not installed (Debian: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":  # under CI a missing browser fails, never skips
            pytest.fail(message + "; under CI=true the report's screenshot test must run")
        pytest.skip(message)
    shot = tmp_path / "report.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={shot}",
            "--window-size=1200,2000",
            (report_dir / "index.html").resolve().as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.is_file(), "chromium wrote no screenshot"
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000
    from matplotlib.image import imread

    pixels = imread(str(shot))
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    flat = pixels.reshape(-1, pixels.shape[-1])
    assert (flat != flat[0]).any(axis=1).mean() > 0.05  # a page with content, not one colour


def test_web_table_links_follow_the_given_address(db: Path, tmp_path: Path) -> None:
    """The "open in the web table" links start with ``--web-base``: another host, or '' for links relative to the
    server that serves the report (issue 25: they were fixed to 127.0.0.1:8000)."""
    for base, expected in (
        ("https://table.example:9000/", "'https://table.example:9000/replay/lab-"),
        ("", "'/replay/lab-"),
    ):
        out = tmp_path / f"r{len(base)}"
        done = CliRunner().invoke(app, ["report", str(db), "--out", str(out), "--web-base", base])
        assert done.exit_code == 0, done.output
        page = (out / "index.html").read_text(encoding="utf-8")
        assert expected in page and WEB_TABLE not in page
