"""Issue 23 item 13: a shot into a melee that strikes the shooter's own model and takes it Out of Action is no
kill of the shooter's; the friend's fall is counted apart, in the result and in the lab's figures."""

from __future__ import annotations

from tc import model, position, trooper

from warband.kernel.actions import Action
from warband.kernel.events import DiceRolled
from warband.kernel.result import ModelFate
from warband.lab.balance import BalanceGame, ModelLine, contributions
from warband.lab.report import Material, TypeStats, _count_model
from warband.rulesets.trench_crusade.scenario import model_fate


def test_a_friend_taken_out_by_a_stray_shot_is_no_kill() -> None:
    g = position([trooper(), trooper()], [trooper()], {"a1": (12, 4), "a2": (12, 12), "b1": (12, 13.2)}, active="a1")
    events = g.apply(Action.parse("shoot a1 b1 [Bolt Action Rifle]"))
    while g.decision.is_chance:  # the shot goes to a2 (a 2), then every die is a 6: hit, injured, out
        spec = g.decision.dice
        assert spec is not None
        events += g.roll([2] if spec.label.startswith("shooting into melee") else [6] * spec.n)
    assert any(isinstance(e, DiceRolled) and e.label.startswith("injury") and e.model == "a2" for e in events)
    a1, a2 = model(g, "a1"), model(g, "a2")
    assert a2.flags.get("out")
    shooter, friend = model_fate(g.state, a1), model_fate(g.state, a2)
    assert (shooter.kills, shooter.friendly_kills) == (0, 1)
    assert friend.out and friend.friendly_fire and not friend.out_by_enemy
    assert ModelFate.from_json(shooter.to_json()) == shooter and ModelFate.from_json(friend.to_json()) == friend


def test_the_lab_counts_friendly_casualties_apart() -> None:
    shooter = ModelFate("a1", 0, "A", "Trooper", 20, friendly_kills=1)
    friend = ModelFate("a2", 0, "A", "Trooper", 20, fate="out", friendly_fire=True)
    types: dict[tuple[str, str], TypeStats] = {}
    material = {"a": Material(), "b": Material()}
    for fate in (shooter, friend):
        _count_model(fate, types, material)
    stats = types[("a", "Trooper")]
    assert (stats.kills, stats.friendly_kills, stats.deaths) == (0, 1, 1)
    assert material["b"].taken_out == 0  # no enemy took those points
    game = BalanceGame(
        (0, 1), 0, None, (ModelLine(0, "Trooper", 20, True, 0, 0, True), ModelLine(1, "X", 30, False, 1, 1))
    )
    assert contributions(game) == [0.0, 30.0]  # b's one kill is worth nothing: nobody of a's fell to it
    assert "friendly_kills" not in ModelFate("a3", 0, "A", "Trooper", 20).to_json()  # old results read the same
