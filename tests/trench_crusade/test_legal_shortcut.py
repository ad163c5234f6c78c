"""The action menu's fast legality test (``activation._legal``, which stops at the first refusal) must agree with the
full list of reasons (``action_reasons``) for every action a model might try, in every activation of a seeded
game: a disagreement would offer an illegal action or hide a legal one."""

from __future__ import annotations

from pathlib import Path

from warband.agents.base import make_agent
from warband.agents.play import play
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.lab.records import SimulationConfig
from warband.lab.simulate import load_documents
from warband.rulesets.trench_crusade import activation
from warband.rulesets.trench_crusade.sight import engaged_with

RS = registry.get("trench-crusade")


def test_fast_legality_agrees_with_the_reasons() -> None:
    w = RS.samples()["warbands"]
    checked = refused = 0
    for seed in (5, 6):
        config = SimulationConfig("trench-crusade", Path(w[0]["path"]), Path(w[1]["path"]), seed=seed)
        docs = load_documents(config)
        game = Game.new(RS, [docs.roster_a, docs.roster_b], docs.scenario, seed, config.params, record=False)
        agents = [make_agent("random", seed), make_agent("random", seed + 1)]
        while not game.over:
            state = game.state
            active = state.vars.get("active")
            if state.phase == "activation" and active is not None:
                m = state.models[active]
                eng = engaged_with(state, m)
                for a in activation._tries(state, m, eng, only_legal=False):
                    want = not activation.action_reasons(state, m, a, eng)
                    assert activation._legal(state, m, a, eng) == want, (seed, state.turn, a)
                    checked += 1
                    refused += not want
            play(game, agents, steps=1)
    assert checked > 500 and 0 < refused < checked
