"""The static values of a unit's destinations (``evaluate.evaluate_destinations``, the ruleset's
``evaluate_destinations`` hook that the heuristic agent ranks a Move's or Shift's destinations by, issue 26) must be
exactly what ``evaluate`` gives once the rules have moved the unit there (seed 002, Move / Shift: every model of the
unit moves, the others keep formation round the leader): a destination rolls no die and moves nothing else, so the
two can only differ if the static placement is not the rules' plan."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import RS, box, position, unit

from warband.agents.base import AgentError, make_agent
from warband.agents.heuristic import HeuristicAgent
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.steps import push, top
from warband.rulesets.trenches_and_turbines import evaluate as ev
from warband.rulesets.trenches_and_turbines import movement

coord = st.floats(1.0, 47.0, allow_nan=False)
RIFLE = {"name": "Rifle", "range": 24, "attacks": 1, "damage": 1, "pen": 0}


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """Two sides of one to three units (one to four models, some spread out), walls and craters, two objectives
    (one near the moving unit, so that a destination can take or lose it)."""
    sides: list[list[dict[str, Any]]] = [[], []]
    at: dict[str, list[tuple[float, float]]] = {}
    status: dict[str, dict[str, Any]] = {}
    for side, name in enumerate("ab"):
        for k in range(draw(st.integers(1, 3))):
            n = draw(st.integers(1, 4))
            size, base = draw(st.sampled_from((("M", 25), ("M", 25), ("L", 50))))
            sides[side].append(
                unit(
                    models=n,
                    move=draw(st.sampled_from((4, 6, 8))),
                    hp=draw(st.integers(1, 2)),
                    size=size,
                    base_mm=base,
                )
            )
            # Routed units do not count for objectives; pins lower a unit's worth
            status[f"{name}{k + 1}"] = {"routed": draw(st.booleans()), "pins": draw(st.integers(0, 2))}
            x, y = draw(coord), draw(coord)
            spread = draw(st.sampled_from((0.0, 1.0, 3.0)))
            at[f"{name}{k + 1}"] = [
                (min(47.0, x + spread * i + draw(st.floats(0, 1.5))), min(47.0, y + draw(st.floats(-1.5, 1.5))))
                for i in range(n)
            ]
    kinds = st.sampled_from(("blocking", "impassable", "obstacle", "difficult"))
    pieces = st.tuples(kinds, st.floats(2, 40), st.floats(2, 40), st.sampled_from((1.0, 6.0)), st.floats(1.0, 6.0))
    terrain = [
        box(f"t{i}", kind, x0, y0, x0 + w, y0 + d, 3.0)
        for i, (kind, x0, y0, w, d) in enumerate(draw(st.lists(pieces, max_size=5)))
    ]
    lead = at["a1"][0]
    near = (min(47.0, lead[0] + draw(st.floats(-5, 5))), min(47.0, max(1.0, lead[1] + draw(st.floats(-5, 5)))))
    objectives = [{"id": "o1", "at": list(near)}, {"id": "o2", "at": [draw(coord), draw(coord)]}]
    return {"sides": sides, "at": at, "terrain": terrain, "objectives": objectives, "status": status}


def _game(p: dict[str, Any]) -> Game | None:
    try:
        return position(
            p["sides"][0], p["sides"][1], p["at"], terrain=p["terrain"], objectives=p["objectives"], status=p["status"]
        )
    except Exception:  # a table the scenario loader refuses: nothing to compare
        return None


def _stances(game: Game) -> list[tuple[Any, ...]]:
    return [(m.x, m.y, m.z, m.on_table, m.flags.get("facing")) for m in game.state.models.values()]


def _check_against_the_rules(game: Game, stepped_only: bool) -> int:
    """At ``game``'s destination decision: each action's static value against ``evaluate`` after the rules apply
    it. The Dest step's own ``apply`` always (nothing else run); the whole ``Game.apply`` too where it stops at the
    next decision with no die rolled and no other step run in between (``stepped_only`` false). Returns how many
    whole applies were compared."""
    step = top(game.state)
    assert isinstance(step, movement.Dest)
    listed = game.legal_actions()
    whole = 0
    for side in (0, 1):
        probe = game.clone()
        before = _stances(probe)
        values = RS.evaluate_destinations(probe.state, side, listed)
        assert values is not None and len(values) == len(listed)
        assert _stances(probe) == before  # the models are put back
        for a, v in zip(listed, values, strict=True):
            c = game.clone()
            step.apply(c.state, a, [])
            assert ev.evaluate(c.state, side) == v, (a, side)
            if stepped_only:
                continue
            c = game.clone()
            c.apply(a)
            if c.decision.kind == "choice" and c.decision.prompt == "action":
                assert RS.evaluate(c.state, side) == v, (a, side)
                whole += 1
    return whole


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.sampled_from((("move", 6.0), ("shift", 3.0), ("move", 2.0))))
def test_static_values_equal_evaluating_after_the_rules_move_the_unit(
    p: dict[str, Any], mode: tuple[str, float]
) -> None:
    """The destination choice of unit a1 (a Move or a Shift of so many inches, put on the stack as the action
    would, so that a Routed or pinned unit is tried too) on random tables."""
    game = _game(p)
    if game is None:
        return
    push(game.state, movement.Dest("a1", mode[0], mode[1]))
    game.state.state_id += 1
    if game.decision.kind != "choice" or not isinstance(top(game.state), movement.Dest):
        return
    _check_against_the_rules(game, stepped_only=False)


def test_static_values_along_sample_games() -> None:
    """Every destination decision of two random games of the bench pairing (the sample forces: VEHICLEs, free
    Shifts after Fights, a round's end after the last card): each static value is ``evaluate`` after the Dest
    step's own apply, and after the whole ``Game.apply`` where the game stops at the unit's next action with
    nothing else run (the rest of the time the next card is drawn, or a Fight or round ends, which the static
    value leaves out: the same for every destination of the decision)."""
    warbands = RS.samples()["warbands"]
    rosters = [RS.load_roster(Path(w["path"])) for w in warbands[:2]]
    scenario = RS.load_scenario(RS.default_scenario())
    decisions = whole = 0
    for seed in (1, 2):
        game = Game.new(RS, rosters, scenario, seed)
        pick = random.Random(seed)
        while game.decision.kind != "over" and decisions < 60:
            if game.decision.kind == "chance":
                game.roll()
                continue
            listed = game.legal_actions()
            if isinstance(top(game.state), movement.Dest) and len(listed) > 1:
                whole += _check_against_the_rules(game, stepped_only=False)
                decisions += 1
            game.apply(pick.choice(listed))
    assert decisions >= 20
    assert whole >= 100


def test_not_a_destination_decision_is_not_valued() -> None:
    """The hook answers only a destination choice (None at the action menu), and only its own ``to`` / ``stay``
    actions."""
    game = position([unit(models=2)], [unit(models=1)], {"a1": [(10, 10), (11, 10)], "b1": [(30, 40)]})
    assert RS.evaluate_destinations(game.clone().state, 0, game.legal_actions()) is None
    game.apply(Action.parse("move a1"))
    listed = game.legal_actions()
    assert RS.evaluate_destinations(game.clone().state, 0, listed) is not None
    assert RS.evaluate_destinations(game.clone().state, 0, [*listed, Action("to", "b1", point=(30, 38))]) is None


def test_destinations_get_different_values() -> None:
    """Not a constant: a destination onto an objective is worth more than one away from it."""
    objectives = [{"id": "o1", "at": [10.0, 16.0]}]
    game = position(
        [unit(models=2, weapons=[RIFLE])],
        [unit(models=1)],
        {"a1": [(10, 10), (11.2, 10)], "b1": [(40, 44)]},
        objectives=objectives,
    )
    game.apply(Action.parse("move a1"))
    onto = Action("to", "a1", point=(10.0, 15.5))
    away = Action("to", "a1", point=(10.0, 5.0))
    values = RS.evaluate_destinations(game.clone().state, 0, [onto, away])
    assert values is not None and values[0] > values[1]


class SpyAgent(HeuristicAgent):
    """The heuristic agent, noting which actions of the decision it was asked about it plays for real."""

    def choose(self, game: Game) -> Action:
        self.root = game
        self.played: list[Action] = []
        return super().choose(game)

    def _value(self, game: Game, action: Action, me: int, samples: int, depth: int) -> float:
        if game is self.root:
            self.played.append(action)
        return super()._value(game, action, me, samples, depth)


def _destination_decision() -> Game:
    game = position(
        [unit(models=3)],
        [unit(models=2)],
        {"a1": [(10, 10), (11.2, 10), (12.4, 10)], "b1": [(30, 40), (31.2, 40)]},
        objectives=[{"id": "o1", "at": [20.0, 20.0]}],
    )
    game.apply(Action.parse("move a1"))
    return game


@pytest.mark.parametrize("refine", [1, 3, 5])
def test_the_heuristic_plays_only_the_refine_best_unit_destinations(refine: int) -> None:
    """Issue 26: a T&T destination names a unit, not a model; the agent ranks them by the ruleset's static values
    and plays for real only the best ``refine`` (and ``stay``), the first of them by the static order; with
    ``static=off`` every destination is played."""
    game = _destination_decision()
    listed = game.legal_actions()
    tos = [a for a in listed if a.kind == "to"]
    assert len(tos) > 10
    agent = SpyAgent(seed=1, refine=refine)
    choice = agent.choose(game)
    assert choice in listed
    played = list(dict.fromkeys(agent.played))
    values = RS.evaluate_destinations(game.clone().state, 0, tos)
    assert values is not None
    best = [a for _, _, a in sorted(zip(values, range(len(tos)), tos, strict=True), key=lambda t: (-t[0], t[1]))]
    assert played == [*best[:refine], Action("stay", "a1")]
    off = SpyAgent(seed=1, refine=refine, static="off")
    assert off.choose(game) in listed
    assert list(dict.fromkeys(off.played)) == listed


def test_the_static_option() -> None:
    assert HeuristicAgent().describe() == "heuristic:samples=3,refine=3,depth=1"
    assert make_agent("heuristic:static=off").describe() == "heuristic:samples=3,refine=3,depth=1,static=off"
    with pytest.raises(AgentError):
        make_agent("heuristic:static=maybe")
