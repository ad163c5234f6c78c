"""The example game's rules from the player's side: one test per sentence of its rulebook
(``docs/rules/example.md`` names them). Each test sets up the situation, with chosen dice and positions, and
fails when the rule is broken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import RosterError
from warband.kernel.events import Note
from warband.rulesets.example import Example
from warband.rulesets.example.evaluate import evaluate

RS = Example()


def warband(name: str, *models: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": "example", "name": name, "models": list(models)}


def trooper(name: str = "Trooper", **profile: Any) -> dict[str, Any]:
    return {"name": name, "move": 6.0, "skill": 4, "wounds": 2, "base_mm": 25.0, **profile}


def new_game(a: list[dict[str, Any]], b: list[dict[str, Any]], seed: int = 1, **params: Any) -> Game:
    return Game.new(RS, [warband("A", *a), warband("B", *b)], RS.load_scenario(RS.default_scenario()), seed, params)


def deploy_all(game: Game) -> None:
    """Side A wins the roll-off and takes zone 0 (the y = 0 edge); every model goes on the first spot offered."""
    game.roll((6, 1))
    game.apply(Action("zone", option="0"))
    while game.state.phase == "deploy":
        game.apply(game.legal_actions()[0])


def to_activation(game: Game, first: int = 0) -> None:
    deploy_all(game)
    game.roll((6, 1) if first == 0 else (1, 6))


def put(game: Game, mid: str, x: float, y: float) -> None:
    m = game.state.models[mid]
    m.x, m.y, m.on_table = x, y, True
    game.state.state_id += 1


def rules_of(game: Game, action: Action) -> list[str]:
    return [rule for rule, _ in game.why_illegal(action)]


def duel(**params: Any) -> Game:
    """a1 and a2 against b1, A to activate, a1 at (4, 2) and b1 at (4, 9): 7" apart, base to base about 6"."""
    game = new_game([trooper(count=2)], [trooper()], **params)
    to_activation(game)
    put(game, "a1", 4, 2)
    put(game, "a2", 22, 2)
    put(game, "b1", 4, 9)
    return game


# ------------------------------------------------------------------------------------------- rule 1: warbands
def test_a_warband_file_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: example\nname: Bad\nmodels:\n  - {name: X, move: 6, skill: 7}\n")
    with pytest.raises(RosterError) as info:
        RS.load_roster(bad)
    places = [p.place for p in info.value.problems]
    assert places == ["models[0].skill", "models[0].wounds"]
    other = tmp_path / "other.yaml"
    other.write_text("ruleset: wyrdcry\nname: Other\nmodels:\n  - {name: X, move: 6, skill: 4, wounds: 1}\n")
    with pytest.raises(RosterError, match="ruleset: expected 'example', found 'wyrdcry'"):
        RS.load_roster(other)


# ------------------------------------------------------------------------------------------- rule 2: set-up
def test_the_roll_off_winner_picks_a_zone_and_the_other_side_deploys_first() -> None:
    game = new_game([trooper()], [trooper()])
    assert game.decision.prompt == "roll-off"
    game.roll((3, 3))  # a tie rolls again
    assert game.decision.prompt == "roll-off"
    game.roll((2, 5))
    assert (game.decision.prompt, game.decision.player) == ("zone", 1)
    game.apply(Action("zone", option="1"))
    assert game.state.vars["zone_of"] == [0, 1]
    assert (game.decision.prompt, game.decision.player) == ("deploy", 0)


# ------------------------------------------------------------------------------------------- rule 3: deployment
def test_models_deploy_wholly_inside_their_zone_taking_turns_until_one_side_is_done() -> None:
    game = new_game([trooper(count=3)], [trooper()])
    game.roll((1, 6))
    game.apply(Action("zone", option="1"))  # B takes the y = 20..24 edge; A deploys first, along y = 0..4
    assert rules_of(game, Action("deploy", "a1", point=(12, 12))) == ["example/deploy/zone"]
    assert rules_of(game, Action("deploy", "a1", point=(12, 3.9))) == ["example/deploy/zone"]  # not wholly inside
    game.apply(Action("deploy", "a1", point=(12, 2)))
    assert game.decision.player == 1
    assert rules_of(game, Action("deploy", "b1", point=(12, 2))) == ["example/deploy/zone"]
    game.apply(Action("deploy", "b1", point=(12, 22)))
    assert game.decision.player == 0  # B has no model left: A places the rest
    assert rules_of(game, Action("deploy", "a2", point=(12.5, 2))) == ["example/deploy/overlap"]
    game.apply(Action("deploy", "a2", point=(14, 2)))
    assert (game.decision.prompt, game.decision.player) == ("deploy", 0)


def test_a_model_never_stands_on_another_off_the_table_or_in_solid_terrain() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    put(game, "a1", 17.5, 8)
    assert rules_of(game, Action("move", "a1", point=(17.5, 10.7))) == ["example/move/terrain"]  # base in the pond
    assert rules_of(game, Action("move", "a1", point=(20.5, 3.5))) == []
    put(game, "a1", 18, 4)
    assert rules_of(game, Action("move", "a1", point=(21.6, 2.4))) == ["example/move/overlap"]  # on a2 at (22, 2)
    put(game, "a1", 2, 8)
    assert rules_of(game, Action("move", "a1", point=(0.2, 8))) == ["example/move/table"]


# ------------------------------------------------------------------------------------------- rule 4: the round
def test_each_round_starts_with_a_roll_off_and_its_winner_activates_first() -> None:
    game = new_game([trooper()], [trooper()])
    deploy_all(game)
    assert (game.decision.prompt, game.state.turn) == ("roll-off", 1)
    game.roll((2, 4))
    assert (game.decision.prompt, game.decision.player) == ("activate", 1)


# ------------------------------------------------------------------------------------------- rule 5: activation
def test_the_sides_take_turns_activating_one_model_each() -> None:
    game = duel()
    assert (game.decision.prompt, game.decision.player) == ("activate", 0)
    assert game.legal_actions() == [Action("activate", "a1"), Action("activate", "a2")]
    assert rules_of(game, Action("activate", "b1")) == ["example/activation/alternate"]
    game.apply(Action("activate", "a2"))
    game.apply(Action("end", "a2"))
    assert (game.decision.prompt, game.decision.player) == ("activate", 1)


def test_a_side_with_no_ready_model_passes_and_the_other_activates_the_rest() -> None:
    game = new_game([trooper(count=3)], [trooper()])
    to_activation(game)
    for mid in ("a1", "b1"):
        game.apply(Action("activate", mid))
        game.apply(Action("end", mid))
    game.apply(Action("activate", "a2"))
    events = game.apply(Action("end", "a2"))
    assert Note("side B has no ready model: it passes", "example/activation/pass") in events
    assert (game.decision.player, game.legal_actions()) == (0, [Action("activate", "a3")])


def test_a_model_activates_once_per_round_and_the_round_ends_when_none_is_ready() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    game.apply(Action("end", "a1"))
    game.apply(Action("activate", "b1"))
    game.apply(Action("end", "b1"))
    assert rules_of(game, Action("activate", "a1")) == ["example/activation/once-per-round"]
    game.apply(Action("activate", "a2"))
    game.apply(Action("end", "a2"))
    assert (game.state.turn, game.decision.prompt) == (2, "roll-off")  # round 2 starts with its roll-off
    game.roll((6, 1))
    assert game.legal_actions() == [Action("activate", "a1"), Action("activate", "a2")]  # ready again


# ------------------------------------------------------------------------------------------- rule 6: actions
def test_one_move_and_one_attack_in_either_order_then_the_activation_ends() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    game.apply(Action("attack", "a1", "b1"))
    game.roll((1,))  # a miss
    assert rules_of(game, Action("attack", "a1", "b1")) == ["example/activation/once"]
    assert Action("end", "a1") in game.legal_actions()
    game.apply(Action("move", "a1", point=(4, 5)))
    assert (game.decision.prompt, game.decision.player) == ("activate", 1)  # both made: it is over


def test_after_a_move_with_nobody_to_attack_the_activation_ends() -> None:
    game = duel()
    game.apply(Action("activate", "a2"))  # 18" from b1
    assert not [a for a in game.legal_actions() if a.kind == "attack"]
    game.apply(Action("move", "a2", point=(22, 8)))
    assert (game.decision.prompt, game.decision.player) == ("activate", 1)


def test_a_player_may_end_an_activation_early() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    game.apply(Action("end", "a1"))
    assert (game.state.models["a1"].pos, game.decision.player) == ((4, 2), 1)  # no move, no attack: B's turn


# ------------------------------------------------------------------------------------------- rule 7: move
def test_a_move_goes_up_to_the_move_in_a_straight_line_not_through_solid_terrain() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    assert rules_of(game, Action("move", "a1", point=(10, 2))) == []  # exactly 6"
    assert rules_of(game, Action("move", "a1", point=(10.1, 2))) == ["example/move/distance"]
    put(game, "a1", 6.5, 8.5)
    assert rules_of(game, Action("move", "a1", point=(6.5, 14.4))) == ["example/move/path"]  # through the ruin
    assert rules_of(game, Action("move", "a1")) == ["example/activation/form"]


# ------------------------------------------------------------------------------------------- rule 8: attack
def test_an_attack_needs_an_enemy_in_range_and_in_sight() -> None:
    game = duel(attack_range=5.0)
    game.apply(Action("activate", "a1"))
    assert rules_of(game, Action("attack", "a1", "b1")) == ["example/attack/range"]  # about 6" apart
    assert rules_of(game, Action("attack", "a1", "a2")) == ["example/attack/target"]
    game = duel()
    game.apply(Action("activate", "a1"))
    assert rules_of(game, Action("attack", "a1", "b1")) == []
    put(game, "a1", 6.5, 8.5)
    put(game, "b1", 6.5, 14.5)  # the ruin (5..8, 10..13) stands between them
    assert rules_of(game, Action("attack", "a1", "b1")) == ["example/attack/sight"]


def test_an_attack_hits_on_its_skill_or_more_and_a_hit_removes_damage_wounds() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    game.apply(Action("attack", "a1", "b1"))
    assert (game.decision.dice.n, game.decision.dice.sides) == (1, 6)  # type: ignore[union-attr]
    game.roll((3,))  # skill 4: a miss
    assert game.state.models["b1"].token("wounds") == 2
    game.apply(Action("end", "a1"))
    game.apply(Action("activate", "b1"))
    game.apply(Action("end", "b1"))
    game.apply(Action("activate", "a2"))
    put(game, "a2", 4, 15)
    game.apply(Action("attack", "a2", "b1"))
    game.roll((4,))
    assert game.state.models["b1"].token("wounds") == 1


def test_the_odds_of_an_attack_are_explained() -> None:
    game = duel()
    assert RS.explain(game.state, Action("attack", "a1", "b1")) == "hits on 4+: 1/2 (50%)"


# ------------------------------------------------------------------------------------------- rule 9: out of action
def test_a_model_with_no_wounds_left_is_out_of_action_and_its_enemy_scores() -> None:
    game = new_game([trooper(count=2)], [trooper(wounds=1), trooper(wounds=1)], damage=1, vp_per_kill=2)
    to_activation(game)
    put(game, "a1", 4, 2)
    put(game, "b1", 4, 9)
    game.apply(Action("activate", "a1"))
    game.apply(Action("attack", "a1", "b1"))
    game.roll((6,))
    assert not game.state.models["b1"].on_table
    assert game.state.vars["vp"] == [2, 0]


# ------------------------------------------------------------------------------------------- rules 10 and 11
def play_round_ending_nothing(game: Game) -> None:
    """Every model ends its activation at once until the round ends."""
    turn = game.state.turn
    while game.state.turn == turn and not game.over:
        d = game.decision
        if d.is_chance:
            game.roll()
        else:
            pick = next((a for a in game.legal_actions() if a.kind in ("activate", "end")), None)
            game.apply(pick or game.legal_actions()[0])


def test_objectives_score_at_the_end_of_each_round_for_the_side_with_more_models_near() -> None:
    game = duel()
    put(game, "a1", 12, 10)  # the well: (12, 12), radius 3
    put(game, "b1", 12, 14)
    play_round_ending_nothing(game)
    assert game.state.vars["vp"] == [0, 0]  # one each: nobody holds it
    put(game, "a2", 10, 12)
    game.roll((6, 1))
    play_round_ending_nothing(game)
    assert game.state.vars["vp"] == [1, 0]


def test_after_the_last_round_the_side_with_more_vp_wins_and_equal_vp_is_a_draw() -> None:
    game = duel()
    for _ in range(4):
        play_round_ending_nothing(game)
    result = game.result()
    assert result is not None and (result.winner, result.reason, result.turns) == (None, "4 rounds played", 4)
    game = duel()
    game.state.vars["vp"] = [0, 3]
    for _ in range(4):
        play_round_ending_nothing(game)
    result = game.result()
    assert result is not None and (result.winner, result.score) == (1, (0, 3))


def test_a_side_with_no_model_left_loses_at_once() -> None:
    game = duel()
    game.apply(Action("activate", "a1"))
    game.apply(Action("attack", "a1", "b1"))
    game.state.models["b1"].tokens["wounds"] = 1
    game.roll((6,))
    result = game.result()
    assert result is not None and (result.winner, result.reason) == (0, "side B has no model left")
    assert [f.fate for f in result.models if f.side == 1] == ["out"]


# ------------------------------------------------------------------------------------------- for the agents
def test_evaluate_is_zero_sum_and_prefers_the_side_ahead() -> None:
    game = duel()
    state = game.state
    assert evaluate(state, 0) == -evaluate(state, 1)
    assert evaluate(state, 0) > 0  # two models' wounds against one
    state.vars["vp"] = [0, 4]
    assert evaluate(state, 1) > evaluate(state, 0)
