"""``activation.has_action`` (asked after every step of an activation: has the active model any legal action left
besides ending it?) tries the cheap actions first, and the menu (``_tries`` with ``only_legal``) leaves out the kinds
of action refused as a whole. Neither may change an answer: the legal menu must be every action the model might try
(``only_legal=False``) that ``_legal`` passes, in the same order, and ``has_action`` true exactly when that holds
more than ``switch`` and ``end``. Checked at every step of seeded random games between each pair of sample warbands
(seed 000 §Actions)."""

from __future__ import annotations

from itertools import combinations

from tc import RS, random_game_states

from warband.kernel.space import gap
from warband.rulesets.trench_crusade import actions, activation
from warband.rulesets.trench_crusade.core import weapons
from warband.rulesets.trench_crusade.sight import engaged_with, standing_enemies


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


def test_shoot_tests_split_by_weapon_and_target_agree_with_shoot_refusals() -> None:
    """The menu asks :func:`actions.weapon_may_shoot` once per weapon and :func:`actions.target_open` once per
    enemy: together with the range test they must pass exactly the Shoots that ``shoot_refusals`` passes for a
    model not within 1" of an enemy (seed 000 Shoot), at every step of seeded random games, whatever the
    activation has done so far (the test is asked of every model, not only the active one)."""
    weapon_answers: list[bool] = []
    for state in random_game_states(5, 1, 0, 1) + random_game_states(6, 1, 1, 2):
        if state.phase != "activation":
            continue
        for m in state.models.values():
            if not m.on_table or engaged_with(state, m):
                continue
            for w in weapons(m, "ranged"):
                may = actions.weapon_may_shoot(state, m, w)
                weapon_answers.append(may)
                for t in standing_enemies(state, m):
                    in_range = gap(m, t) <= (w["range"] or 0.0) + 1e-9
                    split = in_range and may and actions.target_open(state, m, t)
                    assert split == (not actions.shoot_refusals(state, m, w, t, [])), (state.turn, m.id, t.id)
    assert len(weapon_answers) > 100 and 0 < weapon_answers.count(False) < len(weapon_answers)


def test_enemy_gaps_in_one_pass_equal_the_three_lookups() -> None:
    """The menu's one pass over the models (:func:`activation._enemy_gaps`) gives the enemies on the table, the
    gap to each and the engaged ones (within 1", seed 000) exactly as ``standing_enemies``, ``gap`` and
    ``engaged_with`` do, for every model at every step of seeded random games."""
    engaged = 0
    for state in random_game_states(7, 1, 0, 2):
        for m in state.models.values():
            if not m.on_table:
                continue
            enemies, gaps, eng = activation._enemy_gaps(state, m)
            assert enemies == standing_enemies(state, m)
            assert gaps == [gap(m, e) for e in enemies]
            assert eng == engaged_with(state, m)
            engaged += bool(eng)
    assert engaged > 10
