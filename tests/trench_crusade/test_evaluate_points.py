"""The incremental valuation of destinations (``evaluate_points``, used by the heuristic agent to rank where a
model may go) must give exactly ``evaluate``'s value with the model moved there: the speed work of issue 15 keeps
every seeded game identical, so any drift would change which destination the agent picks."""

from __future__ import annotations

import random

from tc import random_game_states

from warband.kernel import ruleset as registry
from warband.rulesets.trench_crusade.evaluate import evaluate, evaluate_points

RS = registry.get("trench-crusade")


def test_evaluate_points_equals_moving_the_model_and_evaluating() -> None:
    rnd = random.Random(15)
    checked = 0
    for state in random_game_states(seed=3, every=7):
        for mid in list(state.models)[::2]:
            m = state.models[mid]
            points = [(rnd.uniform(0.5, 47.5), rnd.uniform(0.5, 47.5)) for _ in range(4)]
            points.append((m.x + 0.5, m.y))  # a short step: the model's own terms barely change
            for side in (0, 1):
                got = evaluate_points(state, side, mid, points)
                before = (m.x, m.y, m.on_table)
                want = []
                m.on_table = True
                for p in points:
                    m.x, m.y = p
                    want.append(evaluate(state, side))
                m.x, m.y, m.on_table = before
                assert got == want, (state.phase, state.turn, mid, side)
                assert (m.x, m.y, m.on_table) == before  # the state is left as it was
                checked += 1
    assert checked > 100


def test_the_threat_terms_move_with_the_model() -> None:
    """Not a constant: standing a model next to the enemy or far from it changes the value (the per-point part
    really runs)."""
    states = [s for s in random_game_states(seed=4, every=5) if s.phase == "activation"]
    state = states[len(states) // 2]
    m = next(x for x in state.models.values() if x.on_table and x.side == 0)
    foe = next(x for x in state.models.values() if x.on_table and x.side == 1)
    near = (foe.x + foe.radius + m.radius + 0.1, foe.y)
    values = evaluate_points(state, 0, m.id, [near, (1.0, 1.0)])
    assert values[0] != values[1]


def test_the_ruleset_evaluates_with_its_evaluate_face() -> None:
    """``TrenchCrusade.evaluate`` calls the evaluation module directly (no face lookup per call): the same function
    the ``evaluate`` face names, so an agent sees the same values either way."""
    assert RS.faces["evaluate"] == "warband.rulesets.trench_crusade.evaluate:evaluate"
    face = RS.face("evaluate")
    for state in random_game_states(seed=6, every=25):
        for side in (0, 1):
            assert RS.evaluate(state, side) == face(state, side) == evaluate(state, side)
