"""What every face shows a player (issue 25): models named beside their ids, a model's full menu with the rules
that refuse the others (the same as ``why_illegal``), each decision's sentence (situation, cost, odds), the roster
sheet, objective holders and zone labels, deployment told as a placement, and no Python repr anywhere."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.events import Moved, Placed, placements
from warband.kernel.menu import full_menu
from warband.kernel.names import action_label, name_of, with_names
from warband.kernel.prompts import percent
from warband.kernel.sheet import table_view, words
from warband.rulesets.trench_crusade.odds import success_odds
from warband.rulesets.trench_crusade.rolls import net_dice

RULESETS = ("trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight")
REPR = re.compile(r"\b(True|False|None)\b|\{'|\['")


def new_game(ruleset_id: str, seed: int = 1) -> Game:
    rs = registry.get(ruleset_id)
    bands = rs.samples()["warbands"]
    rosters = [rs.load_roster(Path(bands[0]["path"])), rs.load_roster(Path(bands[1]["path"]))]
    return Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), seed, {})


def play_until(game: Game, seed: int, wanted: Any, limit: int = 3000) -> Game:
    """Seeded random choices and dice until ``wanted(game)``; the game at that moment."""
    rng = random.Random(seed)
    for _ in range(limit):
        d = game.decision
        if d.kind == "over":
            break
        if d.kind == "choice" and wanted(game):
            return game
        if d.kind == "chance":
            game.roll()
        else:
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the moment was not reached")


def test_ids_carry_names_as_whole_words() -> None:
    game = new_game("trench-crusade")
    state = game.state
    a1, a10 = state.models["a1"].name, "a10"
    text = with_names(state, "a1 shoots b1. a10 and a1.5 stay; (a1)")
    assert text.startswith(f"a1 ({a1}) shoots b1 ({state.models['b1'].name}).")
    assert a10 in text and "a1.5 stay" in text and f"(a1 ({a1}))" in text
    assert with_names(state, text) == text  # once named, never twice
    assert name_of(state, "nobody-here") == "nobody-here"


def test_units_are_named_by_their_models() -> None:
    game = new_game("trenches-and-turbines")
    unit = next(m.unit for m in game.state.models.values() if m.unit)
    assert unit is not None
    assert (
        name_of(game.state, unit).startswith(f"{unit} (") and with_names(game.state, f"{unit} moves") != f"{unit} moves"
    )


def test_full_menu_gives_why_illegal_reasons_for_each_refused_action() -> None:
    game = play_until(new_game("trench-crusade"), 1, lambda g: g.decision.prompt == "action")
    model = game.decision.model
    menu = full_menu(game, model)
    legal = {str(a) for a in game.legal_actions()}
    assert {str(i.action) for i in menu if i.legal} == {a for a in legal}
    refused = [i for i in menu if not i.legal]
    assert refused
    for item in refused:
        assert list(item.reasons) == game.why_illegal(item.action)
        assert item.reasons[0][0].startswith("trench-crusade/")
        assert item.label == action_label(game.state, item.action) and name_of(game.state, model) in item.label
    data = refused[0].to_json()
    assert data["legal"] is False and data["reasons"][0]["rule"] == refused[0].reasons[0][0]


def test_terminal_all_shows_each_refusal_with_its_rule() -> None:
    bands = registry.get("trench-crusade").samples()["warbands"]
    # deploy side A with 1s, then activate and ask for the whole menu
    script = ["1"] * 17 + ["1", "all", "quit"]
    result = CliRunner().invoke(
        app,
        ["play", "trench-crusade", "--a", bands[0]["path"], "--b", bands[1]["path"], "--agent-b", "random"],
        input="\n".join(script) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"not allowed: \[trench-crusade/[\w/-]+\] ", out), out[-3000:]
    assert "has [" not in out and "(has " not in out
    assert re.search(r"activate a1 \([^)]+\)", out)  # names beside ids in the choices


def test_spending_blood_says_what_each_answer_costs_and_its_odds() -> None:
    game = play_until(new_game("trench-crusade"), 1, lambda g: g.decision.prompt == "spend-hit")
    d = game.decision
    said = game.ruleset.describe_decision(game.state, d)
    roll = game.ruleset.pending_step(game.state)
    below = next(s for s in reversed(game.state.stack[:-1]) if getattr(s, "kind", "") == "success")
    assert roll.kind == "spend-hit" and name_of(game.state, d.model) in said
    m = game.state.models[str(d.model)]
    for k in range(m.token("blood") + 1):
        p = success_odds(net_dice(below.plus, below.minus + k), game.state.ctx.params)
        assert f"spend {k}: {percent(p['success'])} it succeeds" in said


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_decision_has_a_sentence_in_words(ruleset_id: str) -> None:
    game, rng, seen = new_game(ruleset_id, 2), random.Random(2), set()
    for _ in range(500):
        d = game.decision
        if d.kind == "over":
            break
        said = game.ruleset.describe_decision(game.state, d)
        assert said and not REPR.search(said), (d, said)
        if d.model and d.kind == "choice":
            assert name_of(game.state, d.model) in said
        if d.kind == "chance" and d.dice is not None and d.dice.model:
            assert name_of(game.state, d.dice.model) in said  # physical dice name the rolling model
        seen.add(d.prompt)
        if d.kind == "chance":
            game.roll()
        else:
            game.apply(rng.choice(game.legal_actions()))
    assert len(seen) > 4


def test_kept_dice_are_named_for_a_success_roll() -> None:
    game = new_game("trench-crusade")
    while game.decision.kind != "chance" or "success" not in (game.decision.dice.label if game.decision.dice else ""):
        if game.decision.kind == "chance":
            game.roll()
        else:
            game.apply(random.Random(3).choice(game.legal_actions()))
    said = game.ruleset.describe_decision(game.state, game.decision)
    assert re.search(r"roll 2d6 and add them|keep the two (highest|lowest)", said), said


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_roster_sheet_and_tooltips_in_words(ruleset_id: str) -> None:
    game = new_game(ruleset_id)
    view = table_view(game.ruleset, game.state)
    roster = view["roster"]
    assert [len(side) for side in roster] == [sum(1 for m in game.state.models.values() if m.side == s) for s in (0, 1)]
    first = roster[0][0]
    assert first["name"] and not first["deployed"] and first["where"] == "not deployed"
    assert first["weapons"] and all(w["range"] for w in first["weapons"])
    shown = [str(v) for side in roster for m in side for row in m["profile"] for v in row]
    shown += [str(v) for side in roster for m in side for w in m["weapons"] for v in w.values()]
    assert not [x for x in shown if REPR.search(x)]
    game = play_until(game, 1, lambda g: any(m.on_table for m in g.state.models.values() if m.side == 1))
    for m in table_view(game.ruleset, game.state)["models"]:
        rows = [f"{k}: {v}" for k, v in m["tooltip"]]
        assert not [r for r in rows if REPR.search(r)], rows
        assert [k for k, _ in m["tooltip"]].count("name") <= 1


def test_words() -> None:
    assert words(False) == "no" and words([0.0, 1.0]) == "0-1" and words({"MOV": 3}) == "MOV 3"
    assert words([{"weapon": "Dagger", "type": "melee"}]) == "Dagger"


def test_objective_holder_and_zone_labels_follow_the_game() -> None:
    game = new_game("trench-crusade")
    rs = game.ruleset
    game = play_until(game, 1, lambda g: g.decision.prompt == "activate")
    view = table_view(rs, game.state)
    zone_of = game.state.vars["zone_of"]
    for i, z in enumerate(view["zones"]):
        assert z["side"] == zone_of.index(i) and z["label"].startswith(f"side {'AB'[z['side']]} deployment")
    # put two models of side B on the centre objective: it is held by side B, on the table as in the scoring
    centre = view["objectives"][0]
    for mid in ("b1", "b2"):
        m = game.state.models[mid]
        m.x, m.y = centre["at"][0] + 0.5, centre["at"][1]
    held = table_view(rs, game.state)["objectives"][0]
    assert held["owner"] == 1 and held["holder"] == "side B" and "held by side B" in held["label"]


def test_deployment_is_told_as_a_placement() -> None:
    game = new_game("trench-crusade")
    rng = random.Random(1)
    while game.decision.prompt != "deploy" or not any(m.on_table for m in game.state.models.values()):
        if game.decision.kind == "chance":
            game.roll()
            continue
        events = game.apply(rng.choice(game.legal_actions()))
        told = [e.describe() for e in events]
        assert not any("from (0.0, 0.0)" in t for t in told), told
    assert any(isinstance(e, Placed) for e in placements([Moved("a1", (0, 0), (3, 4), 5.0)]))
    assert Placed("a1", (3.0, 4.0)).describe() == "a1 is deployed at (3.0, 4.0)"
