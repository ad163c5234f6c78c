"""The seed's activation limits (activation.py): 2 actions, each once but Move twice, bonus actions capped at
twice in all, one ability per activation, passing and the end of the combat phase (seed 003 para. 1-3)."""

from __future__ import annotations

from warband.rulesets.wyrdcry.activation import (
    Limits,
    Taken,
    ability_problem,
    action_problem,
    activation_complete,
    combat_phase_over,
    must_pass,
)


def test_a_fighter_takes_two_actions() -> None:
    assert action_problem([], "move", bonus=False) is None
    assert action_problem([Taken("move")], "attack", bonus=False) is None
    assert action_problem([Taken("move"), Taken("attack")], "wait", bonus=False) is not None
    assert not activation_complete([Taken("move")])
    assert activation_complete([Taken("move"), Taken("attack")])


def test_each_action_once_except_move_twice() -> None:
    assert action_problem([Taken("attack")], "attack", bonus=False) is not None
    assert action_problem([Taken("retreat")], "retreat", bonus=False) is not None
    assert action_problem([Taken("move")], "move", bonus=False) is None


def test_bonus_actions_unlimited_but_never_the_same_action_three_times() -> None:
    two_moves = [Taken("move"), Taken("move")]
    assert action_problem(two_moves, "move", bonus=True) is not None  # the seed's example: no third move
    assert action_problem(two_moves, "attack", bonus=True) is None  # bonus beyond the 2 actions
    assert action_problem([Taken("attack")], "attack", bonus=True) is None  # Rampage after an attack
    assert action_problem([Taken("attack"), Taken("attack", bonus=True)], "attack", bonus=True) is not None
    assert not activation_complete([Taken("attack", bonus=True), Taken("move")])


def test_one_ability_per_activation() -> None:
    assert ability_problem(0) is None
    assert ability_problem(1) is not None
    assert ability_problem(1, Limits(abilities=2)) is None


def test_pass_when_all_activated_and_phase_ends_when_both_have() -> None:
    assert must_pass(0)
    assert not must_pass(2)
    assert not combat_phase_over(0, 1)
    assert combat_phase_over(0, 0)
