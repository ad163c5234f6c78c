"""The bench harness (``make bench``): the python-chess yardstick and the verdict on every issue-26 target."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("chess")


def bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("warband_bench_run", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_random_chess_game_ends_and_is_seeded() -> None:
    run = bench()
    plies = run.chess_random_game(random.Random(4))
    assert plies > 0 and plies == run.chess_random_game(random.Random(4))


def test_every_target_gets_a_verdict() -> None:
    run = bench()
    results = [
        {"ruleset": "trench-crusade", "agents": ["random", "random"], "games_per_s": 60.0},
        {"ruleset": "trench-crusade", "agents": ["heuristic", "heuristic"], "games_per_s": 2.0},
        {"ruleset": "trenches-and-turbines", "agents": ["random", "random"], "games_per_s": 51.0},
    ]
    rows = {r["target"]: r for r in run.targets(results, 20.0, [], None)}
    assert set(rows) == set(run.TARGETS)
    assert rows["trench-crusade random games/s vs chess"]["met"] is True  # 60 / 20 = 3x
    assert rows["trench-crusade heuristic games/s"]["met"] is False
    assert rows["trenches-and-turbines random games/s"]["met"] is True
    assert rows["trenches-and-turbines heuristic games/s"]["met"] is None  # not measured
    assert rows["make demo wall seconds on 2 cores (at most)"]["value"] == pytest.approx(50.0)  # 200 / (2 x 2)
    assert rows["make demo wall seconds on 2 cores (at most)"]["met"] is False  # 50 > 45
    assert rows["make install seconds on a fresh clone, 2 cores (at most)"]["met"] is None  # not timed here
