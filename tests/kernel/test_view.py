"""The drawable view: the kernel's generic view for any ruleset, each bundled ruleset's enrichment, and the
terminal map drawn from it (``warband map``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warband.agents.play import play_out
from warband.agents.random_agent import RandomAgent
from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.ruleset import Ruleset
from warband.kernel.view import VIEW_VERSION, generic_view
from warband.kernel.view_text import render_view

TC = "trench-crusade"
TT = "trenches-and-turbines"


def started(ruleset_id: str, steps: int, seed: int = 3) -> Game:
    rs = registry.get(ruleset_id)
    paths = [Path(s["path"]) for s in rs.samples()["warbands"][:2]]
    game = Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), seed)
    agent = RandomAgent(seed=seed)
    for _ in range(steps):
        if game.over:
            break
        if game.decision.kind == "chance":
            game.roll()
        else:
            game.apply(agent.choose(game))
    return game


@pytest.mark.parametrize("ruleset_id", [TC, TT])
def test_the_generic_view_draws_any_ruleset(ruleset_id: str) -> None:
    game = started(ruleset_id, 80)
    v = Ruleset.view(game.ruleset, game.state)  # the default, as a ruleset with no view.py gets it
    assert v == generic_view(ruleset_id, game.state)
    assert v["view_version"] == VIEW_VERSION
    scenario = game.header["scenario"]
    assert v["table"]["width"] == scenario["table"]["width"]
    assert len(v["terrain"]) == len(scenario["terrain"]) and len(v["zones"]) == 2
    on_table = {m.id for m in game.state.models.values() if m.on_table}
    assert {m["id"] for m in v["models"]} == on_table
    assert {o["id"] for o in v["off_table"]} == set(game.state.models) - on_table
    m = v["models"][0]
    assert m["radius"] > 0 and m["colour"] and ["id", m["id"]] in m["tooltip"]
    json.dumps(v)  # JSON-native


def test_trench_crusade_view_shows_down_blood_and_shaken() -> None:
    game = started(TC, 80)
    state = game.state
    m = next(m for m in state.models.values() if m.on_table)
    m.flags = {**m.flags, "down": True}
    m.tokens = {**m.tokens, "blood": 2}
    state.sides[1].flags = {**state.sides[1].flags, "shaken": True}
    v = game.ruleset.view(state)
    mine = next(x for x in v["models"] if x["id"] == m.id)
    assert {"Down", "Blood 2"} <= {b["text"] for b in mine["badges"]} and mine["down"]
    assert [b["text"] for b in v["sides"][1]["badges"]] == ["Shaken"]
    assert any(s.startswith("VP A") for s in v["status"])
    text = render_view(v)
    assert ("_" in text) and "Blood 2" in text and "SHAKEN" in text


def test_trenches_and_turbines_view_shows_units_coherency_and_pins() -> None:
    game = started(TT, 60)
    v = game.ruleset.view(game.state)
    links = [ln for ln in v["links"] if ln["kind"] == "coherency"]
    assert links and all(isinstance(ln["ok"], bool) for ln in links)
    leaders = [m for m in v["models"] if any(b["text"] == "leader" for b in m["badges"])]
    assert leaders and all(m["unit"] for m in v["models"])
    assert any(s.startswith("round") for s in v["status"])


def test_trenches_and_turbines_terminal_map_has_terrain_objectives_and_every_model() -> None:
    game = started(TT, 60)
    text = game.ruleset.render(game.state)
    assert "()" in text and "X" in text
    for m in game.state.models.values():
        if m.on_table:
            assert m.id in text


def test_warband_map_draws_a_position(tmp_path: Path) -> None:
    game = started(TT, 40)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(game.to_json()), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["map", str(pos)])
    assert out.exit_code == 0, out.output
    assert "round" in out.output and "side A" in out.output
    as_json = runner.invoke(app, ["map", str(pos), "--json"])
    assert json.loads(as_json.output)["view_version"] == VIEW_VERSION


def test_a_whole_game_draws_at_every_step() -> None:
    game = started(TC, 0)
    views: list[int] = []
    play_out(
        game,
        [RandomAgent(seed=1), RandomAgent(seed=2)],
        on_events=lambda g, _: views.append(len(g.ruleset.view(g.state)["models"])),
    )
    assert views and max(views) > 0
