"""Kernel helpers every ruleset class shares: the faces named by ``Ruleset.faces`` (imported when first asked) and
a model's fate read in roster order (``fate_by_order``)."""

from __future__ import annotations

from pathlib import Path

from warband.kernel.engine import Game
from warband.kernel.result import fate_by_order
from warband.kernel.ruleset import Ruleset
from warband.kernel.state import Model
from warband.kernel.view import generic_view
from warband.rulesets.gangfight import evaluate as gf_evaluate
from warband.rulesets.gangfight import odds as gf_odds
from warband.rulesets.gangfight.ruleset import Gangfight
from warband.rulesets.wyrdcry import render as w_render
from warband.rulesets.wyrdcry import view as w_view
from warband.rulesets.wyrdcry.ruleset import Wyrdcry


def test_a_face_is_the_function_its_entry_names() -> None:
    assert Gangfight().face("evaluate") is gf_evaluate.evaluate
    assert Wyrdcry().face("explain") is w_render.explain
    assert Gangfight().face("view") is None  # not named: the kernel's generic view


def test_the_odds_face_is_the_ruleset_s_table_of_commands() -> None:
    assert Gangfight().odds_commands() == gf_odds.ODDS_COMMANDS
    assert Gangfight().odds_commands()[0].name == "attack"


def test_fate_by_order_reads_points_by_roster_place_and_the_kills_flag() -> None:
    m = Model("b2", 1, "Thug 2", "Thug", 0.5, 1.0, {})
    m.flags["kills"] = 3
    order = (("a1",), ("b1", "b2"))
    fate = fate_by_order(m, order, [[10], [5, 7]], "down", 2)
    assert (fate.id, fate.side, fate.type, fate.points, fate.fate, fate.kills, fate.damage) == (
        "b2",
        1,
        "Thug",
        7,
        "down",
        3,
        2,
    )
    assert fate_by_order(m, order, [[10], [5]], "out", 0).points == 0  # past the end of the side's points


def test_the_view_face_draws_and_the_base_method_stays_the_generic_view() -> None:
    rs = Wyrdcry()
    assert rs.face("view") is w_view.view
    paths = [Path(s["path"]) for s in rs.samples()["warbands"][:2]]
    game = Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), 1)
    assert rs.view(game.state) == w_view.view(game.state)
    assert Ruleset.view(rs, game.state) == generic_view(rs.id, game.state)
    assert rs.view(game.state) != generic_view(rs.id, game.state)
