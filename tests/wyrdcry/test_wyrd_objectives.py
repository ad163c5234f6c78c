"""The treasure hunt's victory conditions (digest §A9: "the scenario sets the victory conditions"; a token is held
by the side with more fighters within 1" of it; a fighter carries one), played from the players' side: a token
scores for the side that holds or carries it at the end of every battle round, more victory points wins the
battle and level victory points fall back to enemies out of action; the scenario's options are checked when it
is loaded; the drawable view moves a carried token with its carrier."""

from __future__ import annotations

from pathlib import Path

import pytest
from wyrd_helpers import DATA, deploy, initiative, put

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import ScenarioError
from warband.kernel.events import Event, GameEnded, Note
from warband.rulesets.wyrdcry import scenario

A_DICE = (1, 2, 3, 4, 4, 4)  # A wins initiative (three singles against none)
B_DICE = (5, 5, 6, 6, 1, 1)
PAIR = ("mercenaries_hardy_company", "witch_hunters_pyre")


def hunt(keep: tuple[str, ...]) -> Game:
    rs = registry.get("wyrdcry")
    rosters = [rs.load_roster(DATA / "warbands" / f"{n}.yaml") for n in PAIR]
    game = Game.new(rs, rosters, rs.load_scenario(DATA / "scenarios" / "treasure_hunt.yaml"), 1, None)
    deploy(game)
    initiative(game, A_DICE, B_DICE)
    for m in game.state.models.values():
        m.on_table = m.id in keep  # off the table, not out of action: no morale test in the way
    return game


def stay(game: Game, mid: str, before: tuple[Action, ...] = ()) -> list[Event]:
    """``mid`` activates, takes the free actions ``before``, then two Moves that stay put; the events."""
    events = game.apply(Action("activate", mid))
    for a in before:
        events += game.apply(a)
    for _ in range(2):
        events += game.apply(Action("move", mid))
        events += game.apply(Action("move", mid, option="stay"))
    if game.decision.prompt == "action":
        events += game.apply(Action("end", mid))
    return events


def finish_round(game: Game) -> list[Event]:
    """Play the morale phase out, up to the next round's initiative roll; the events."""
    events: list[Event] = []
    while game.state.phase not in ("initiative", "over"):
        events += game.roll() if game.decision.is_chance else game.apply(game.legal_actions()[0])
    return events


def test_a_token_scores_each_round_for_the_side_holding_it_and_a_carried_one_for_its_carrier() -> None:
    game = hunt(("a4", "b6"))
    put(game, "a4", 18.0, 16.6)  # both within 1" of treasure-centre (2 VP) at (18, 18): level, nobody holds it
    put(game, "b6", 18.0, 19.4)
    stay(game, "a4")
    stay(game, "b6")
    finish_round(game)
    assert scenario.victory_points(game.state) == (0, 0)
    initiative(game, A_DICE, B_DICE)
    stay(game, "a4", (Action("pick-up", "a4", option="treasure-centre"),))
    events = stay(game, "b6") + finish_round(game)
    assert scenario.victory_points(game.state) == (2, 0)  # the carrier's side, though b6 stands as close
    notes = [e for e in events if isinstance(e, Note) and e.rule.endswith("/score")]
    assert [n.text for n in notes] == ["side A scores 2 VP for treasure-centre"]


def test_more_victory_points_win_the_battle_and_level_points_fall_back_to_fighters_out() -> None:
    game = hunt(("a4", "b6"))
    game.state.vars["vp"] = [3, 1]
    game.state.models["a8"].flags["status"] = "out"  # B has taken out more fighters
    events: list[Event] = []
    scenario.finish_by_score(game.state, events)
    assert game.state.vars["winner"] == 0 and game.state.vars["reason"] == "more victory points"
    assert isinstance(events[-1], GameEnded) and events[-1].score == (3, 1)  # the score is the victory points
    level = hunt(("a4", "b6"))
    level.state.vars["vp"] = [2, 2]
    level.state.models["a8"].flags["status"] = "out"
    scenario.finish_by_score(level.state, [])
    assert level.state.vars["winner"] == 1
    assert level.state.vars["reason"] == "level on victory points; more enemies out of action"


def test_the_default_scenario_is_still_won_on_fighters_out_of_action() -> None:
    rs = registry.get("wyrdcry")
    rosters = [rs.load_roster(DATA / "warbands" / f"{n}.yaml") for n in PAIR]
    game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), 1, None)
    game.state.vars["vp"] = [5, 0]  # meaningless here: the default scenario sets no objectives victory
    game.state.models["a8"].flags["status"] = "out"
    scenario.finish_by_score(game.state, [])
    assert game.state.vars["winner"] == 1


@pytest.mark.parametrize(
    ("line", "place", "words"),
    [
        ("rules: {victory: objectivs}", "rules.victory", "expected one of most_out, objectives"),
        ("rules: {victory: objectives, score_each_rnd: true}", "rules.score_each_rnd", "unknown Wyrdcry scenario"),
        ("rules: {victory: objectives, control_range: -1}", "rules.control_range", "from 0 to 36"),
        ("rules: {carry_limit: 2.5}", "rules.carry_limit", "whole number"),
        ("rules: {score_each_round: true}", "rules.score_each_round", "only meaningful with victory: objectives"),
    ],
)
def test_a_scenarios_options_are_checked_when_it_is_loaded(tmp_path: Path, line: str, place: str, words: str) -> None:
    text = (DATA / "scenarios" / "treasure_hunt.yaml").read_text()
    start = text.index("rules:")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text[:start] + line + text[text.index("\n", start) :])
    with pytest.raises(ScenarioError) as err:
        registry.get("wyrdcry").load_scenario(bad)
    assert str(bad) in str(err.value) and place in str(err.value) and words in str(err.value)


def test_the_view_draws_a_carried_token_on_its_carrier_and_shows_the_victory_points() -> None:
    game = hunt(("a4", "b6"))
    put(game, "a4", 18.0, 16.6)
    put(game, "b6", 30.0, 30.0)
    game.apply(Action("activate", "a4"))
    game.apply(Action("pick-up", "a4", option="treasure-centre"))
    game.apply(Action("move", "a4"))
    game.apply(Action("move", "a4", point=(22.0, 16.6)))
    v = registry.get("wyrdcry").view(game.state)
    centre = next(o for o in v["objectives"] if o["id"] == "treasure-centre")
    assert centre["at"] == [22.0, 16.6] and "carried by a4" in centre["label"]
    assert "VP A 0 - B 0" in v["status"]
    a4 = next(x for x in v["models"] if x["id"] == "a4")
    assert any(b["text"] == "carries treasure-centre" for b in a4["badges"])
    assert any(b["text"].startswith("wyrd dice") for b in v["sides"][0]["badges"])
