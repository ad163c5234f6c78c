"""Issue 10 item 2: a crash inside one game of a lab run (``simulate``, ``compare``, ``balance``) names the game
(index, seed, replay command), the run goes on and says how many crashed, and resuming from ``--db`` does not
play into the same crash again (``compare`` and ``balance`` store nothing, so they have no resume)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from hardcli import RANDOM, TC, cli, warband
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel.rng import derive_seed
from warband.lab import simulate as sim
from warband.lab.balance import run_balance
from warband.lab.records import GameRecord, SimulationConfig
from warband.lab.simulate import simulate
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


# ------------------------------------------------------------------------------ compare and balance (item 2)
def _crash_in_play(monkeypatch: pytest.MonkeyPatch, seeds: set[int]) -> None:
    """Make the games with these seeds raise inside play (below ``play_one``, so every lab command meets it)."""
    real = sim.play_out

    def play_out(game: Any, agents: Any, **kw: Any) -> Any:
        if int(game.header["seed"]) in seeds:
            raise ValueError("below() needs a positive bound, got 0")
        return real(game, agents, **kw)

    monkeypatch.setattr(sim, "play_out", play_out)


def test_compare_names_a_crashed_game_and_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    _crash_in_play(monkeypatch, {_config().game_seed(CRASHING)})
    out = cli(
        "compare", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM,
        "--games", "3", "--batch", "3", "--seed", "5", "--variant", "medic_heal=3", "--json",
    )  # fmt: skip
    assert out.code == 1
    summary = json.loads(out.text.splitlines()[0])
    # game 1 crashed in both arms (same seed): each arm reports its two finished games, paired on those two
    assert [(c["arm"], c["index"]) for c in summary["crashes"]] == [("baseline", 1), ("medic_heal=3", 1)]
    assert summary["baseline"]["games"] == 2 and summary["baseline"]["crashed"] == 1
    (variant,) = summary["variants"]
    assert variant["paired_games"] == 2 and variant["changed_games"] == 0
    assert summary["games_played"] == 6
    assert "2 game(s) crashed" in out.text and "medic_heal=3: game 1 (seed" in out.text
    replay = summary["crashes"][1]["replay"]
    assert "--set medic_heal=3" in replay and replay.endswith("--game 1") and "--seed 5" in replay


def test_balance_names_a_crashed_game_and_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    pair_seed = derive_seed(5, 0)  # the round robin's first (only) pair
    crashing = SimulationConfig(TC, warband(TC, 0), warband(TC, 1), seed=pair_seed).game_seed(CRASHING)
    _crash_in_play(monkeypatch, {crashing})
    out = cli(
        "balance", TC, "--warbands", warband(TC, 0), warband(TC, 1), "--agent", "random",
        "--games", "3", "--seed", "5", "--bootstrap", "5", "--json",
    )  # fmt: skip
    assert out.code == 1
    report = json.loads(out.text.splitlines()[0])
    assert report["games"] == 2 and sum(w["games"] for w in report["warbands"]) == 4
    (crash,) = report["crashes"]
    assert (crash["index"], crash["seed"], crash["pair"]) == (CRASHING, crashing, [0, 1])
    assert crash["error"] == "ValueError: below() needs a positive bound, got 0"
    assert "--swap-sides" in crash["replay"] and f"--seed {pair_seed}" in crash["replay"]
    assert "1 game(s) crashed" in out.text and "replay: warband simulate trench-crusade" in out.text


def test_the_replay_command_of_a_balance_crash_plays_that_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replayed game is the crashed one: the same seed meets the same fault."""
    pair_seed = derive_seed(5, 0)
    crashing = SimulationConfig(TC, warband(TC, 0), warband(TC, 1), seed=pair_seed).game_seed(CRASHING)
    _crash_in_play(monkeypatch, {crashing})
    (crash,) = run_balance(TC, [warband(TC, 0), warband(TC, 1)], 3, 5, "random", rounds=0)["crashes"]
    args = shlex.split(crash["replay"])
    assert args[:2] == ["warband", "simulate"]
    with pytest.raises(ValueError, match="positive bound"):
        CliRunner().invoke(app, args[1:], catch_exceptions=False)
