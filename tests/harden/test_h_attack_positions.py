"""Issue 24 item 7: one validator for positions. ``legal`` refuses (exit 2, the file and the place named) every
position no game reaches: the acting model off the table, a model missing or on the other side, not two sides,
a turn out of bounds, negative tokens, a table Infinity wide, warbands edited past their loader's rules."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from attack import RULESETS, timed
from hardcli import cli, warband

from warband.agents.base import make_agent
from warband.kernel.engine import Game
from warband.kernel.errors import PositionError
from warband.kernel.position import load_position
from warband.kernel.ruleset import get

Doc = dict[str, Any]


@pytest.fixture(scope="module")
def positions() -> dict[str, Doc]:
    """A position 40 steps into a random game of each ruleset."""
    out: dict[str, Doc] = {}
    for rid in RULESETS:
        rs = get(rid)
        rosters = [rs.load_roster(warband(rid, 0)), rs.load_roster(warband(rid, 1))]
        game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), 4, {})
        agent = make_agent("random", 4)
        for _ in range(40):
            if game.decision.kind == "chance":
                game.roll()
            else:
                game.apply(agent.choose(game))
        out[rid] = game.to_json()
    return out


def _first_on_table(d: Doc) -> Doc:
    return next(m for m in d["state"]["models"] if m["on_table"])


def _active_off(d: Doc) -> None:
    m = _first_on_table(d)
    key = "active_model" if "active_model" in d["state"]["vars"] else "active"
    d["state"]["vars"][key] = m["id"]
    m["on_table"] = False


def _list_key(roster: Doc) -> str:
    return "fighters" if "fighters" in roster else "models" if "models" in roster else "units"


EDITS: dict[str, tuple[Callable[[Doc], None], str]] = {
    "active-off-table": (_active_off, "state.vars.active"),
    "side-swapped": (
        lambda d: d["state"]["models"][0].update(side=1 - d["state"]["models"][0]["side"]),
        "state.models[0].side",
    ),
    "model-missing": (lambda d: d["state"]["models"].pop(0), "is missing"),
    "model-renamed": (lambda d: d["state"]["models"][0].update(id="zz"), "'zz'"),
    "no-sides": (lambda d: d["state"].update(sides=[]), "state.sides"),
    "three-sides": (lambda d: d["state"]["sides"].append(d["state"]["sides"][0]), "state.sides"),
    "turn-1000": (lambda d: d["state"].update(turn=1000), "state.turn"),
    "turn-negative": (lambda d: d["state"].update(turn=-1), "turn"),
    "negative-tokens": (lambda d: d["state"]["models"][0]["tokens"].update(blood=-3), "tokens.blood"),
    "huge-tokens": (lambda d: d["state"]["models"][0]["tokens"].update(blood=10**9), "tokens.blood"),
    "table-infinite": (
        lambda d: d["header"]["scenario"]["table"].update(width=math.inf),
        "header.scenario.table.width",
    ),
    "table-nan": (lambda d: d["header"]["scenario"]["table"].update(depth=math.nan), "header.scenario.table.depth"),
    "terrain-infinite": (
        lambda d: d["header"]["scenario"]["terrain"][0].update(height=math.inf),
        "header.scenario.terrain[0].height",
    ),
    "ruleset-chess": (lambda d: d["header"].update(ruleset="chess"), "header.ruleset"),
    "roster-no-list": (
        lambda d: d["header"]["rosters"][0].pop(_list_key(d["header"]["rosters"][0])),
        "header.rosters[0]",
    ),
    "roster-name-number": (lambda d: d["header"]["rosters"][1].update(name=5), "header.rosters[1].name"),
    "model-x-nan": (lambda d: _first_on_table(d).update(x=math.nan), ".x"),
    "model-off-edge": (lambda d: _first_on_table(d).update(x=-50.0), "off the table"),
}


def _write(doc: Doc, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def _edited(positions: dict[str, Doc], ruleset: str, edit: str, tmp_path: Path) -> tuple[Path, str]:
    """The ruleset's position with ``edit`` made, written to a file; and the place its refusal must name."""
    doc = json.loads(json.dumps(positions[ruleset]))
    change, place = EDITS[edit]
    change(doc)
    return _write(doc, tmp_path, edit), place


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_position_loader_refuses_an_impossible_position(
    edit: str, ruleset: str, positions: dict[str, Doc], tmp_path: Path
) -> None:
    path, place = _edited(positions, ruleset, edit, tmp_path)
    with pytest.raises(PositionError) as info:
        timed(lambda: load_position(path))
    text = str(info.value)
    assert str(path) in text and place in text, text
    assert "validation error for" not in text, "a place and the loader's words, never pydantic's summary"


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("edit", ["active-off-table", "side-swapped", "no-sides", "table-infinite"])
def test_legal_and_map_refuse_them_with_exit_2(
    edit: str, ruleset: str, positions: dict[str, Doc], tmp_path: Path
) -> None:
    path, place = _edited(positions, ruleset, edit, tmp_path)
    for command in ("legal", "map"):
        out = timed(lambda c=command: cli(c, path))  # type: ignore[misc]
        assert out.code == 2 and str(path) in out.text and place in out.text, out.text


ROSTER_EDITS: dict[str, tuple[Callable[[Doc], None], str]] = {
    "wyrdcry": (lambda r: r["fighters"][0].update(move=1000), "header.rosters[0].fighters[0].move"),
    "gangfight": (lambda r: r["models"][0].update(weapons=["Death Star"]), "header.rosters[0].models[0].weapons[0]"),
    "trench-crusade": (lambda r: r["models"][0].update(movement=1000), "header.rosters[0].models[0].movement"),
    "trenches-and-turbines": (lambda r: r["units"][0].update(models=-1), "header.rosters[0].units[0]"),
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_roster_edited_in_the_header_is_checked_by_its_loader(
    ruleset: str, positions: dict[str, Doc], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(positions[ruleset]))
    change, place = ROSTER_EDITS[ruleset]
    change(doc["header"]["rosters"][0])
    path = _write(doc, tmp_path, "roster")
    out = timed(lambda: cli("legal", path))
    assert out.code == 2 and str(path) in out.text and place in out.text, out.text
    assert "validation error for" not in out.text


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_untouched_position_is_legal(ruleset: str, positions: dict[str, Doc], tmp_path: Path) -> None:
    out = timed(lambda: cli("legal", _write(positions[ruleset], tmp_path, "ok")))
    assert out.code == 0 and "decides" in out.text, out.text


def test_a_gangfight_model_hit_past_zero_endurance_is_a_possible_position(positions: dict[str, Doc]) -> None:
    """Gangfight keeps the deficit of a model hit past 0 EN (digest gangfight.md, Melee: EN <= 0 is incapacitated),
    so a saved game holding EN -2 is one the rules reach: it loads (the web table's agents rebuild every game from
    its JSON, and refusing it froze a game at the next agent move). Any other negative token is still refused."""
    doc = json.loads(json.dumps(positions["gangfight"]))
    model = _first_on_table(doc)
    model["tokens"]["en"] = -2
    assert Game.from_json(doc).state.models[model["id"]].tokens["en"] == -2
    model["tokens"]["en"] = 0
    model["tokens"]["ap"] = -1
    with pytest.raises(PositionError, match=r"tokens\.ap"):
        Game.from_json(doc)
