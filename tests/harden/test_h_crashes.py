"""Issue 10 item 2: a crash inside one game of a lab run names the game (index, seed, replay command), the run
goes on, and resuming from ``--db`` does not play into the same crash again."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardcli import RANDOM, TC, cli, warband

from warband.lab import simulate as sim
from warband.lab.simulate import GameRecord, SimulationConfig, simulate
from warband.lab.store import Store

CRASHING = 1
real_play_one = sim.play_one


def _crash_one(config: SimulationConfig, index: int, keep_log: bool = False) -> GameRecord:
    if index == CRASHING:
        raise ValueError("below() needs a positive bound, got 0")
    return real_play_one(config, index, keep_log)


def _config() -> SimulationConfig:
    return SimulationConfig(TC, warband(TC, 0), warband(TC, 1), games=3, seed=5, agent_a="random", agent_b="random")


def test_a_crashing_game_is_named_and_the_run_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "play_one", _crash_one)
    with Store(tmp_path / "r.db") as store:
        result = simulate(_config(), store=store)
    assert [r.index for r in result.records] == [0, 2]
    (crash,) = result.crashes
    assert (crash.index, crash.seed) == (CRASHING, _config().game_seed(CRASHING))
    assert crash.error == "ValueError: below() needs a positive bound, got 0" and "Traceback" in crash.trace
    (shown,) = result.summary()["crashes"]
    assert shown["replay"].endswith("--game 1") and "--seed 5" in shown["replay"]


def test_resuming_does_not_replay_the_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "play_one", _crash_one)
    with Store(tmp_path / "r.db") as store:
        simulate(_config(), store=store)
    calls: list[int] = []

    def counting(config: SimulationConfig, index: int, keep_log: bool = False) -> GameRecord:
        calls.append(index)
        return _crash_one(config, index, keep_log)

    monkeypatch.setattr(sim, "play_one", counting)
    with Store(tmp_path / "r.db") as store:
        again = simulate(_config(), store=store)
    assert calls == [] and [c.index for c in again.crashes] == [CRASHING] and len(again.records) == 2


def test_simulate_command_reports_the_crash_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "play_one", _crash_one)
    out = cli(
        "simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM,
        "--db", ":memory:", "--games", "3", "--seed", "5", "--workers", "1",
    )  # fmt: skip
    assert out.code == 1
    assert f"game 1 (seed {_config().game_seed(1)}): ValueError" in out.text
    assert "replay: warband simulate trench-crusade" in out.text and "--game 1" in out.text


def test_the_game_option_plays_one_game_of_the_run() -> None:
    out = cli("simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, "--seed", "5", "--game", "2")
    assert out.code == 0 and f"game 2 (seed {_config().game_seed(2)})" in out.text
