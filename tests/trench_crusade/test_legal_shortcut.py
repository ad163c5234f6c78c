"""The action menu's fast legality test (``activation._legal``, which stops at the first refusal) must agree with the
full list of reasons (``action_reasons``) for every action a model might try, in every activation of a seeded
game: a disagreement would offer an illegal action or hide a legal one."""

from __future__ import annotations

from tc import random_game_states

from warband.rulesets.trench_crusade import activation
from warband.rulesets.trench_crusade.sight import engaged_with


def test_fast_legality_agrees_with_the_reasons() -> None:
    checked = refused = 0
    for seed in (5, 6):
        for state in random_game_states(seed, 1):
            active = state.vars.get("active")
            if state.phase == "activation" and active is not None:
                m = state.models[active]
                eng = engaged_with(state, m)
                for a in activation._tries(state, m, eng, only_legal=False):
                    want = not activation.action_reasons(state, m, a, eng)
                    assert activation._legal(state, m, a, eng) == want, (seed, state.turn, a)
                    checked += 1
                    refused += not want
    assert checked > 500 and 0 < refused < checked
