"""``warband ladder`` on a tiny Trench Crusade run: the output's shape, the runs and games it stores (both ways
round, same seeds, sides swapped), resuming, the HTML report, the SPRT mode and its refusals."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry

RULESET = "trench-crusade"
FILES = ("pilgrims_sacred_affliction.yaml", "new_antioch_company.yaml")


def _warbands() -> list[str]:
    paths = {Path(item["path"]).name: item["path"] for item in registry.get(RULESET).samples()["warbands"]}
    return [paths[name] for name in FILES]


def test_ladder_json_db_rows_resume_and_report(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    out = tmp_path / "ladder.html"
    args = ["ladder", RULESET, "--agents", "random", "heuristic", "--warbands", *_warbands()]
    args += ["--games-per-pair", "2", "--seed", "5", "--db", str(db), "--out", str(out), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["games"] == 4 and s["games_resumed"] == 0 and s["anchor"] == "random"
    assert [a["agent"] for a in s["agents"]] == ["heuristic", "random"]
    best, anchor = s["agents"]
    assert anchor["elo"] == 0.0 and anchor["ci95"] == [0.0, 0.0]
    assert best["ci95"][0] < best["elo"] < best["ci95"][1] and best["games"] == 4
    (pair,) = s["pairs"]
    assert pair["wins"] + pair["draws"] + pair["losses"] == 4
    with sqlite3.connect(db) as con:
        runs = con.execute(
            "SELECT id, agent_a, agent_b, name_a, name_b, seed, swap_sides FROM runs ORDER BY id"
        ).fetchall()
        games = con.execute("SELECT run_id, idx, seed, swapped FROM games ORDER BY run_id, idx").fetchall()
    assert [(r[1], r[2]) for r in runs] == [("random", "heuristic"), ("heuristic", "random")]
    assert runs[0][3:6] == runs[1][3:6] and runs[0][6] == runs[1][6] == 1  # same warbands and seed, sides swapped
    first, second = games[:2], games[2:]
    assert [g[2] for g in first] == [g[2] for g in second]  # paired seeds
    assert [g[3] for g in first] == [0, 1]
    html = out.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "<script" not in html and "heuristic" in html

    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["games_resumed"] == 4
    assert "resumed from" in again.stderr and "4 game(s)" in again.stderr


def test_ladder_table_output(tmp_path: Path) -> None:
    args = ["ladder", RULESET, "--agents", "random", "heuristic", "--warbands", _warbands()[0]]
    result = CliRunner().invoke(app, [*args, "--games-per-pair", "1", "--db", ":memory:"])
    assert result.exit_code == 0, result.output
    assert "Elo ladder, 2 games" in result.stdout and "random held at 0" in result.stdout


def test_sprt_finds_the_heuristic_stronger_than_random(tmp_path: Path) -> None:
    args = ["ladder", RULESET, "--agents", "heuristic", "--against", "random", "--sprt", "0,200"]
    args += ["--warbands", *_warbands(), "--db", str(tmp_path / "s.db"), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["verdict"] == "H1" and s["llr"] >= s["bounds"][1]
    assert s["games"] == s["wins"] + s["draws"] + s["losses"] == 2 * sum(s["pentanomial"])
    assert s["games"] <= 40


def test_refusals_name_the_option() -> None:
    runner = CliRunner()
    one = runner.invoke(app, ["ladder", RULESET, "--agents", "random", "--db", ":memory:"], standalone_mode=False)
    assert "at least two agents" in str(one.exception)
    bad = runner.invoke(
        app,
        ["ladder", RULESET, "--agents", "random", "--against", "heuristic", "--sprt", "50,0", "--db", ":memory:"],
        standalone_mode=False,
    )
    assert "ELO0 must be below ELO1" in str(bad.exception)
    unknown = runner.invoke(app, ["ladder", RULESET, "--agents", "random", "nosuch"], standalone_mode=False)
    assert "--agents" in str(unknown.exception) and "nosuch" in str(unknown.exception)


def test_mirror_plays_each_warband_against_itself_only(tmp_path: Path) -> None:
    """With --mirror the runs are warband i against warband i (both seats, both agents), never i against j: the
    warbands' own gap then cannot decide the games."""
    db = tmp_path / "mirror.db"
    args = ["ladder", RULESET, "--agents", "random", "heuristic", "--warbands", *_warbands(), "--mirror"]
    result = CliRunner().invoke(app, [*args, "--games-per-pair", "1", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 4  # 2 warbands x 2 ways round x 1 game
    with sqlite3.connect(db) as con:
        runs = con.execute("SELECT agent_a, agent_b, name_a, name_b, seed FROM runs ORDER BY id").fetchall()
    assert {(r[2], r[3]) for r in runs} == {(r[2], r[2]) for r in runs}
    assert len({r[2] for r in runs}) == 2
    assert sorted((r[0], r[1]) for r in runs) == sorted([("random", "heuristic"), ("heuristic", "random")] * 2)
    # the two ways round of one warband share their seed; the two warbands do not
    by_name: dict[str, set[int]] = {}
    for r in runs:
        by_name.setdefault(r[2], set()).add(r[4])
    assert all(len(seeds) == 1 for seeds in by_name.values())
    assert len({next(iter(s)) for s in by_name.values()}) == 2
