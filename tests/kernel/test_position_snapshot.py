"""A saved position is a snapshot: ``Game.to_json`` taken at one step must not change when the game plays on.
The web table keeps the position before each step to roll back to when its store fails, and its store's writer
thread writes positions after the game has moved on; a position that shared the live ``vars`` read later steps'
bookkeeping with earlier models and stack, a state no rules can read (found by
tests/harden/test_h_attack_web.py's full-disk table: "no decision at state 24")."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from warband.agents.base import make_agent
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.lab.records import SimulationConfig
from warband.lab.simulate import load_documents

RULESETS = ("trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_position_saved_before_a_step_is_the_position_after_the_game_moves_on(ruleset: str) -> None:
    rs = registry.get(ruleset)
    w = rs.samples()["warbands"]
    config = SimulationConfig(ruleset, Path(w[0]["path"]), Path(w[1]["path"]), seed=3)
    docs = load_documents(config)
    game = Game.new(rs, [docs.roster_a, docs.roster_b], docs.scenario, 3, {}, record=True)
    agents = [make_agent("random", 3), make_agent("random", 4)]
    for _ in range(150):
        if game.decision.kind == "over":
            break
        saved = game.to_json()
        as_saved = copy.deepcopy(saved)
        d = game.decision
        if d.kind == "chance":
            game.roll()
        else:
            game.apply(agents[int(d.player or 0)].choose(game))
        assert saved == as_saved, f"the position saved at state {as_saved['state']['state_id']} changed"
        restored = Game.from_json(saved)  # the rules can read it: the game as it stood
        assert restored.state.state_id == as_saved["state"]["state_id"]
