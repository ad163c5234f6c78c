"""`warband simulate --workers N`: the same games, summary and stored rows whatever the number of workers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.lab.backends import BackendError, LocalBackend, make_backend
from warband.lab.records import SimulationConfig
from warband.lab.simulate import play_one, simulate
from warband.lab.store import Store

RULESET = "trench-crusade"
TIMINGS = ("elapsed_s", "games_per_s", "decisions_per_s", "db", "run_id")


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


A = _warband("pilgrims_sacred_affliction.yaml")
B = _warband("new_antioch_company.yaml")


def _cli(db: Path, workers: int) -> dict[str, Any]:
    out = CliRunner().invoke(
        app,
        [
            "simulate",
            RULESET,
            "--a",
            str(A),
            "--b",
            str(B),
            "--games",
            "5",
            "--seed",
            "4",
            "--agent-a",
            "random",
            "--agent-b",
            "random",
            "--swap-sides",
            "--json",
            "--workers",
            str(workers),
            "--db",
            str(db),
        ],
    )
    assert out.exit_code == 0, out.output
    summary: dict[str, Any] = json.loads(out.stdout)
    assert summary["db"] == str(db) and summary["run_id"] == 1 and summary["games_played"] == 5
    return summary


def _rows(db: Path) -> list[dict[str, Any]]:
    with Store(db) as store:
        return [{k: v for k, v in r.items() if k != "elapsed_s"} for r in store.rows("games", 1)]


def test_cli_one_worker_and_two_workers_agree(tmp_path: Path) -> None:
    one = _cli(tmp_path / "one.db", 1)
    two = _cli(tmp_path / "two.db", 2)
    assert {k: v for k, v in one.items() if k not in TIMINGS} == {k: v for k, v in two.items() if k not in TIMINGS}
    assert _rows(tmp_path / "one.db") == _rows(tmp_path / "two.db")


def test_backend_records_equal_play_one_in_index_order() -> None:
    config = SimulationConfig(RULESET, A, B, games=4, seed=9, agent_a="random", agent_b="random")
    pooled = simulate(config, backend=LocalBackend(2))
    assert [r.index for r in pooled.records] == [0, 1, 2, 3]
    assert pooled.records == [play_one(config, i) for i in range(4)]
    assert pooled.summary()["backend"] == "local"


def test_memory_db_and_default_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(
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
    assert json.loads(out.stdout)["db"] == ":memory:"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "named"),
    [(("local", 0, None), "--workers"), (("local", 2, "auto"), "--address"), (("cloud", 2, None), "--backend")],
)
def test_bad_backend_options_are_named(args: tuple[str, int, str | None], named: str) -> None:
    with pytest.raises(BackendError, match=named):
        make_backend(*args)
