"""``activation.has_action`` (asked after every step of an activation: has the active model any legal action left
besides ending it?) tries the cheap actions first, and the menu (``_tries`` with ``only_legal``) leaves out the kinds
of action refused as a whole. Neither may change an answer: the legal menu must be every action the model might try
(``only_legal=False``) that ``_legal`` passes, in the same order, and ``has_action`` true exactly when that holds
more than ``switch`` and ``end``. Checked at every step of seeded random games between each pair of sample warbands
(seed 000 §Actions)."""

from __future__ import annotations

from itertools import combinations

from tc import RS, random_game_states

from warband.rulesets.trench_crusade import activation
from warband.rulesets.trench_crusade.sight import engaged_with


def test_has_action_agrees_with_the_menu() -> None:
    answers: list[bool] = []
    pairs = combinations(range(len(RS.samples()["warbands"])), 2)
    for seed, (a, b) in enumerate(pairs, start=11):
        for state in random_game_states(seed, 1, a, b):
            active = state.vars.get("active")
            if state.phase == "activation" and active is not None and state.models[active].on_table:
                m = state.models[active]
                eng = engaged_with(state, m)
                want = [x for x in activation._tries(state, m, eng, False) if activation._legal(state, m, x, eng)]
                menu = activation.menu(state, m)
                assert [x for x in menu if x.kind not in ("switch", "end")] == want, (seed, state.turn, m.id)
                got = activation.has_action(state, m)
                assert got == bool(want), (seed, state.turn, m.id, state.vars.get("acts"))
                answers.append(got)
    assert len(answers) > 1000 and 0 < answers.count(False) < len(answers)
