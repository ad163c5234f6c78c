"""Results in SQLite: one row per game committed as it finishes, resume after an interruption, the run key."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from warband.kernel import ruleset as registry
from warband.kernel.log import parse_log, replay
from warband.lab.records import GameRecord, SimulationConfig
from warband.lab.simulate import simulate
from warband.lab.store import MEMORY, Store, StoreError

RULESET = "trench-crusade"


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


A = _warband("pilgrims_sacred_affliction.yaml")
B = _warband("new_antioch_company.yaml")


def _config(**changes: Any) -> SimulationConfig:
    base = SimulationConfig(RULESET, A, B, games=6, seed=11, agent_a="random", agent_b="random")
    return dataclasses.replace(base, **changes)


class Interrupted(Exception):
    pass


def _stop_after(k: int) -> Any:
    def hook(done: int, total: int, record: GameRecord) -> None:
        if done >= k:
            raise Interrupted(f"stopped after {done} games")

    return hook


def _game_rows(store: Store, run_id: int) -> list[dict[str, Any]]:
    """Whole rows of a run's games, less what legitimately differs between two runs (ids and timings)."""
    return [{k: v for k, v in row.items() if k not in ("run_id", "elapsed_s")} for row in store.rows("games", run_id)]


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupted_run_resumes_to_the_same_rows(tmp_path: Path, workers: int) -> None:
    config = _config()
    with Store(tmp_path / "interrupted.db") as store, pytest.raises(Interrupted):
        simulate(config, progress=_stop_after(2), workers=workers, store=store)
    with Store(tmp_path / "interrupted.db") as store:
        run = store.latest_run()
        kept = store.indices(run.id)
        assert 2 <= len(kept) < config.games  # every finished game is committed, the run is not complete
        seen: list[int] = []
        resumed = simulate(config, progress=lambda done, total, rec: seen.append(done), workers=workers, store=store)
        assert resumed.run_id == run.id
        assert resumed.games_played == config.games - len(kept)
        assert seen == list(range(1, config.games + 1))
        interrupted_rows = _game_rows(store, run.id)
        assert len(store.runs()) == 1
    with Store(tmp_path / "straight.db") as store:
        straight = simulate(config, store=store)
        straight_rows = _game_rows(store, straight.run_id or 0)
        assert [r["idx"] for r in straight_rows] == list(range(config.games))
    assert interrupted_rows == straight_rows
    assert resumed.records == straight.records
    assert resumed.summary()["a"] == straight.summary()["a"]
    assert resumed.summary()["games_resumed"] == len(kept)


def test_rows_hold_the_game_and_a_log_that_replays(tmp_path: Path) -> None:
    config = _config(games=2, swap_sides=True)
    with Store(tmp_path / "r.db") as store:
        result = simulate(config, store=store)
        run = store.run(result.run_id or 0)
        assert run.names == result.names and run.agents == ("random", "random") and run.seed == 11
        assert run.rosters[0]["name"] == result.names[0] and run.scenario and run.games == 2
        rows = store.games(run.id)
        for row, record in zip(rows, result.records, strict=True):
            assert row.record() == record
            assert row.first_player in ("a", "b")
            assert {m.side for m in row.models} == {0, 1}
            text = store.log_text(run.id, row.index)
            assert text is not None
            game = replay(parse_log(text.splitlines()), verify=True)
            end = game.result()
            assert end is not None and end.turns == row.turns
        assert rows[1].swapped and not rows[0].swapped


def test_same_config_resumes_a_longer_run_extends_and_no_resume_starts_anew(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        first = simulate(_config(games=2), store=store)
        again = simulate(_config(games=2), store=store)
        assert again.run_id == first.run_id and again.games_played == 0 and again.records == first.records
        longer = simulate(_config(games=3), store=store)
        assert longer.run_id == first.run_id and longer.games_played == 1
        assert store.run(first.run_id or 0).games == 3
        other = simulate(_config(games=2, seed=12), store=store)
        assert other.run_id != first.run_id
        fresh = simulate(_config(games=2), store=store, resume=False)
        assert fresh.run_id not in (first.run_id, other.run_id) and fresh.games_played == 2
        assert fresh.records == first.records


def test_changed_parameter_is_another_run(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        base = simulate(_config(games=1), store=store)
        changed = simulate(_config(games=1, params={"charge_range": "8"}), store=store)
        assert base.run_id != changed.run_id
        assert json.loads(next(store.rows("runs", changed.run_id or 0))["params"]) == {"charge_range": 8}


def test_memory_store_keeps_nothing(tmp_path: Path) -> None:
    with Store(MEMORY) as store:
        result = simulate(_config(games=1), store=store)
        assert result.summary()["db"] == MEMORY and result.run_id == 1


def test_bad_database_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="folder"):
        Store(tmp_path)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match=r"junk\.db"):
        Store(junk)
    with Store(tmp_path / "empty.db") as store, pytest.raises(StoreError, match="no runs"):
        store.latest_run()


def test_a_half_written_game_is_never_visible(tmp_path: Path) -> None:
    """A failing insert (here: a run id that does not exist) leaves no row behind."""
    with Store(tmp_path / "r.db") as store:
        result = simulate(_config(games=1), store=store)
        with pytest.raises(StoreError, match="FOREIGN KEY"):  # SQLite's IntegrityError, naming the file
            store.add(999, result.records[0])
        assert store.indices(999) == set()
