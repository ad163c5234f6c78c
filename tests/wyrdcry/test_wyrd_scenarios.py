"""The bundled Wyrdcry scenarios load with the kernel's scenario loader, sit on a 36" x 36" table, use every
terrain kind the Wyrdcry rules give meaning to, and are fair (a half turn about the centre maps each side's
terrain and objectives onto the other's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warband.kernel.scenario import Scenario, load_scenario
from warband.rulesets.wyrdcry.roster import DATA_DIR

SCENARIOS = sorted((DATA_DIR / "scenarios").glob("*.yaml"))


def turned(points: list[tuple[float, float]]) -> set[tuple[float, float]]:
    return {(36 - x, 36 - y) for x, y in points}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_loads_on_a_three_foot_table(path: Path) -> None:
    scn = load_scenario(path)
    assert scn.ruleset == "wyrdcry"
    assert (scn.table.width, scn.table.depth) == (36, 36)
    assert {z.side for z in scn.deployment} == {0, 1}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_terrain_of_every_kind_wyrdcry_uses(path: Path) -> None:
    scn = load_scenario(path)
    kinds = {t.kind for t in scn.terrain}
    assert kinds == {"platform", "obstacle", "blocking", "open"}
    assert len({t.height for t in scn.terrain if t.kind == "platform"}) >= 2  # two heights to jump between
    assert all(t.blocks_los for t in scn.terrain if t.kind == "blocking")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_terrain_is_symmetric_under_a_half_turn(path: Path) -> None:
    scn: Scenario = load_scenario(path)
    pieces = {t.id: t for t in scn.terrain}
    for tid, piece in pieces.items():
        partner = pieces[tid[:-1] + ("b" if tid.endswith("a") else "a")]
        assert turned(piece.polygon) == set(partner.polygon), tid
        assert (piece.kind, piece.height) == (partner.kind, partner.height)
    assert turned(scn.zone(0).polygon) == set(scn.zone(1).polygon)


def test_treasure_hunt_has_objectives_placed_fairly() -> None:
    scn = load_scenario(DATA_DIR / "scenarios" / "treasure_hunt.yaml")
    spots = {o.at: o.vp for o in scn.objectives}
    assert len(spots) == 3
    assert all(spots.get((36 - x, 36 - y)) == vp for (x, y), vp in spots.items())
    assert scn.rules["victory"] == "objectives"
    assert load_scenario(DATA_DIR / "scenarios" / "default.yaml").objectives == []
