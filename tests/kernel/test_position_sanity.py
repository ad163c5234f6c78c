"""Issue 10 item 9: loading a position validates it in the kernel, for every ruleset, and names the field.
Impossible positions (a model inside a ruin, off the table, on top of another, at NaN, a duplicate id, side 5,
phase "lunch", z 50) are refused with a PositionError instead of being played."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warband.agents.base import make_agent
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.errors import PositionError
from warband.kernel.position import load_position


def _position() -> dict[str, Any]:
    """A Trench Crusade position in the Activation Phase, every model on the table."""
    rs = registry.get("trench-crusade")
    w = [rs.load_roster(Path(x["path"])) for x in rs.samples()["warbands"][:2]]
    game = Game.new(rs, w, rs.load_scenario(rs.default_scenario()), 3)
    agent = make_agent("random", 3)
    while game.state.phase != "activation":
        game.settle()
        game.apply(agent.choose(game))
    game.settle()
    return copy.deepcopy(game.to_json())


def _model(pos: dict[str, Any], i: int) -> dict[str, Any]:
    m: dict[str, Any] = pos["state"]["models"][i]
    return m


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("inside a ruin", lambda p: _model(p, 0).update(x=5.0, y=18.0, z=0.0), "blocking terrain ruin-1"),
    ("off the table", lambda p: _model(p, 0).update(x=-3.0), "off the table"),
    ("on top of another", lambda p: _model(p, 1).update(x=_model(p, 0)["x"], y=_model(p, 0)["y"]), "overlaps"),
    ("NaN", lambda p: _model(p, 0).update(x=float("nan")), "state.models[0].x"),
    ("duplicate id", lambda p: _model(p, 1).update(id=_model(p, 0)["id"]), "given twice"),
    ("side 5", lambda p: _model(p, 0).update(side=5), "state.models[0].side"),
    ("z 50", lambda p: _model(p, 0).update(z=50.0), "state.models[0].z"),
    ("phase lunch", lambda p: p["state"].update(phase="lunch"), "the rules cannot read this state"),
]


@pytest.mark.parametrize(("name", "spoil", "message"), CASES, ids=[c[0] for c in CASES])
def test_an_impossible_position_is_refused_with_its_place(
    name: str, spoil: Callable[[dict[str, Any]], None], message: str, tmp_path: Path
) -> None:
    pos = _position()
    Game.from_json(copy.deepcopy(pos))  # the untouched position loads
    spoil(pos)
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Game.from_json(pos)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos))
    with pytest.raises(PositionError) as info:
        load_position(path)
    assert str(path) in str(info.value)  # the loader names the file
