"""ModelFate and GameResult round-trip through JSON (the lab stores them in SQLite), and the untyped per-model
dicts stored before ModelFate still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warband.agents.base import make_agent
from warband.agents.play import play_out
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.result import FATES, GameResult, ModelFate
from warband.lab.store import read_fates


def test_model_fate_json_round_trip() -> None:
    fates = [
        ModelFate("a1", 0, "Brother Ansgar", "War Prophet", 105, None, "down", 2, 1),
        ModelFate("b3.2", 1, "Rifles", "Rifles", 12.5, "b3", "out", 0, 3),
        ModelFate("b1", 1, "Scout", "Scout", 0, "b1", "fled"),
    ]
    for fate in fates:
        text = json.dumps(fate.to_json())
        assert ModelFate.from_json(json.loads(text)) == fate
    result = GameResult(1, "victory points", (2, 5), 4, tuple(fates))
    assert GameResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_fate_is_checked() -> None:
    with pytest.raises(ValueError, match="fate must be one of"):
        ModelFate("a1", 0, "x", "x", 1, fate="dead")  # type: ignore[arg-type]
    assert FATES == ("in play", "down", "out", "fled")


def test_rows_stored_before_model_fate_still_read() -> None:
    old = {
        "a1": {"side": "a", "type": "Knight", "name": "Sir", "points": 100, "out": False, "down": True, "kills": 2},
        "b1.1": {"side": "b", "unit": "b1", "name": "Rifles", "out": True, "damage": 1},
    }
    fates = read_fates(json.dumps(old))
    assert fates == (
        ModelFate("a1", 0, "Sir", "Knight", 100, None, "down", 2, 0),
        ModelFate("b1.1", 1, "Rifles", "Rifles", 0, "b1", "out", 0, 1),
    )
    assert read_fates(json.dumps([f.to_json() for f in fates])) == fates


@pytest.mark.parametrize("ruleset", sorted(registry.available()))
def test_every_ruleset_reports_a_fate_per_model(ruleset: str) -> None:
    rs = registry.get(ruleset)
    paths = [w["path"] for w in rs.samples()["warbands"][:2]]
    game = Game.new(rs, [rs.load_roster(Path(p)) for p in paths], rs.load_scenario(rs.default_scenario()), 5)
    result = play_out(game, [make_agent("random", 1), make_agent("random", 2)])
    assert sorted(m.id for m in result.models) == sorted(game.state.models)
    for fate in result.models:
        assert fate.side == game.state.models[fate.id].side and fate.type and fate.points >= 0
        assert fate.fate in FATES and fate.kills >= 0
    assert GameResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_a_log_written_before_model_fate_still_verifies() -> None:
    """A log's end line from before ModelFate (models keyed by id, untyped) matches the replayed result on the
    ending and each model's side, taken-out flag and kills."""
    fates = (
        ModelFate("a1", 0, "Sir", "Knight", 100, None, "down", 2, 1),
        ModelFate("b1", 1, "Lout", "Brute", 60, None, "out", 0, 0),
    )
    result = GameResult(0, "victory points after the last turn", (3, 1), 4, fates)
    old = {
        "winner": 0,
        "reason": "victory points after the last turn",
        "score": [3, 1],
        "turns": 4,
        "models": {
            "a1": {"side": 0, "type": "Knight", "name": "Sir", "points": 100, "out": False, "down": True, "kills": 2},
            "b1": {"side": 1, "type": "Brute", "name": "Lout", "points": 60, "out": True, "down": False, "kills": 0},
        },
    }
    assert result.matches(old) and result.matches(result.to_json())
    assert not result.matches({**old, "models": {**old["models"], "b1": {**old["models"]["b1"], "out": False}}})
    assert not result.matches({**old, "score": [3, 2]})
