"""The kernel's set-up: polygon inset, deployment spots that never run out while a legal spot exists."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

from warband.agents.base import make_agent
from warband.agents.play import play_out
from warband.kernel import ruleset as registry
from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import Event
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.setup import ChooseSide, deploy_spots, inset, spread, wholly_inside, zone_grid

DIAMOND = TerrainPiece("zone-0", "open", ((6.0, 0.0), (12.0, 6.0), (6.0, 12.0), (0.0, 6.0)), 0.0, False)


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 12), st.floats(0, 12), st.floats(0.1, 3))
def test_a_base_is_wholly_inside_a_diagonal_zone_only_if_shapely_agrees(x: float, y: float, r: float) -> None:
    """The inset is measured to the zone's polygon, not its bounding box: a base may not stick out of a
    diamond-shaped zone (the bug of a bounding-box inset)."""
    zone = Polygon(DIAMOND.polygon)
    disc = Point(x, y).buffer(r, 256)
    if zone.buffer(-1e-6).contains(disc):
        assert wholly_inside(DIAMOND, (x, y), r)
    if not zone.buffer(1e-3).contains(disc):
        assert not wholly_inside(DIAMOND, (x, y), r)


def test_inset_is_the_distance_to_the_nearest_edge() -> None:
    assert math.isclose(inset(DIAMOND, (6.0, 6.0)), 6 / math.sqrt(2))
    assert inset(DIAMOND, (6.0, 0.5)) < 0.5  # near a corner the edges are closer than the bounding box says


def test_deployment_spots_fall_back_to_a_fine_search_when_the_grid_is_full() -> None:
    """Only a thin strip along one edge is free: no coarse grid point fits, the fine search still finds it."""
    zone = TerrainPiece("zone-0", "open", ((0.0, 0.0), (24.0, 0.0), (24.0, 6.0), (0.0, 6.0)), 0.0, False)
    coarse = zone_grid(zone, 6, 3)

    def fits(p: tuple[float, float]) -> bool:
        return p[0] >= 22.5 and p[1] <= 1.5  # a 1.5" corner is the only room left

    assert not [p for p in coarse if fits(p)]
    spots = deploy_spots(coarse, zone, fits)
    assert spots and all(fits(p) for p in spots)
    assert deploy_spots(coarse, zone, lambda p: False) == []  # no room at all: no spot, honestly


def test_spread_keeps_far_apart_points_deterministically() -> None:
    pts = [(float(i), 0.0) for i in range(10)]
    assert spread(pts, 3) == [(0.0, 0.0), (9.0, 0.0), (4.0, 0.0)]
    assert spread(pts, 20) == pts


def _big_warband(path: Path, copies: int) -> dict[str, object]:
    rs = registry.get("trench-crusade")
    doc = rs.load_roster(path)
    big = copy.deepcopy(doc)
    big["models"] = [copy.deepcopy(m) for _ in range(copies) for m in doc["models"]]
    return big


def test_a_warband_of_more_than_nineteen_models_deploys_every_model() -> None:
    """Issue 10 item 1: warbands of 19 or more models (and a Shrine Anchorite's 60 mm base) used to run out of
    grid points and leave a live decision with no legal action. Every model now finds a spot."""
    rs = registry.get("trench-crusade")
    data = rs.data_dir() / "warbands"
    a = _big_warband(data / "pilgrims_iron_path.yaml", 3)
    b = _big_warband(data / "heretic_legion_raiders.yaml", 3)
    assert sum(int(m.get("count", 1)) for m in a["models"]) >= 19  # type: ignore[attr-defined]
    for seed in range(3):
        game = Game.new(rs, [a, b], rs.load_scenario(rs.default_scenario()), seed)
        while game.state.phase in ("setup", "deploy"):
            if game.decision.kind == "chance":
                game.roll()
                continue
            actions = game.legal_actions()
            assert actions, f"no legal action at {game.decision.prompt} (seed {seed})"
            game.apply(make_agent("random", seed).choose(game))
        # every model but the Iron Path's volunteers on the Anchorite Shrines' wheels (Broken on the Wheel)
        assert all(m.on_table or m.flags.get("on_wheel") for m in game.state.models.values())
        assert sum(1 for m in game.state.models.values() if m.flags.get("on_wheel")) == 3
        play_out(game, [make_agent("random", seed), make_agent("random", seed + 1)])
        assert game.result() is not None


@values.value
class _PickLeader(ChooseSide[Any]):
    """A test step: side ``by`` names which side leads (``state.vars["leader"]``)."""

    kind = "lead"
    picks = ("mine", "yours")
    by: int

    def chosen(self, state: Any, side: int, events: list[Event]) -> None:
        state.vars["leader"] = side


@pytest.mark.parametrize(("by", "word", "leader"), [(0, "mine", 0), (0, "yours", 1), (1, "mine", 1), (1, "yours", 0)])
def test_choose_side_gives_the_chooser_or_the_other_side(by: int, word: str, leader: int) -> None:
    """The kernel's "pick a side" step (Gangfight's Attacker/Defender, Wyrdcry's first activation): the first
    word is the chooser itself, the second the opponent, and the options are exactly those two words."""
    step = _PickLeader(by)
    state = SimpleNamespace(vars={})
    assert step.options(state) == [Action("lead", option="mine"), Action("lead", option="yours")]
    step.apply(state, Action("lead", option=word), [])
    assert state.vars["leader"] == leader


@given(
    st.lists(st.tuples(st.integers(0, 6).map(float), st.integers(0, 6).map(float)), min_size=1, max_size=30),
    st.integers(1, 14),
)
def test_spread_takes_the_farthest_point_each_time_the_earliest_of_equals(
    pts: list[tuple[float, float]], k: int
) -> None:
    """``spread``: the first point, then again and again the point farthest from those kept (its distance to the
    nearest kept one), the earliest in the list among equally far ones (a grid has many ties)."""
    want = list(pts) if len(pts) <= k else [pts[0]]
    while len(want) < min(k, len(pts)):
        best, far = 0, -1.0
        for j, p in enumerate(pts):
            d = min(math.dist(p, q) for q in want)
            if d > far:
                best, far = j, d
        want.append(pts[best])
    assert spread(pts, k) == want
