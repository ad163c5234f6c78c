"""``scripts/calibrate_evaluation.py``: the fitted mcts scale recovers the scale that made the outcomes."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def script() -> ModuleType:
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))  # the script imports its neighbour mcts_strength
    spec = importlib.util.spec_from_file_location("calibrate_evaluation", SCRIPTS / "calibrate_evaluation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("true_scale", [3.2, 6.3, 100.0])
def test_the_fit_finds_the_scale_the_outcomes_were_drawn_with(true_scale: float) -> None:
    cal = script()
    rng = random.Random(5)
    points = []
    for _ in range(4000):
        d = rng.uniform(-6 * true_scale, 6 * true_scale)
        won = rng.random() < 1 / (1 + math.exp(-d / (2 * true_scale)))
        points.append((d, won))
    fitted = cal.best_scale(points)
    assert true_scale / 1.3 < fitted < true_scale * 1.3
    assert cal.log_likelihood(points, fitted) > cal.log_likelihood(points, true_scale * 10)


def test_a_game_yields_differences_and_its_winner() -> None:
    cal = script()
    diffs, winner = cal.one_game(("trench-crusade", 77, 0, "random", 4))
    assert diffs and all(math.isfinite(d) for d in diffs)
    assert winner in (0, 1, None)
