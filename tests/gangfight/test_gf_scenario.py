"""Gangfight default scenario: the kernel loads it, it is the table the digest describes, every terrain density and
every rule-relevant kind is on it, the option the kernel format lacks (density) and the ladders are checked."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from shapely.geometry import Polygon

from warband.kernel.errors import ScenarioError
from warband.rulesets.gangfight import DATA_DIR
from warband.rulesets.gangfight.terrain import densest, density_of, has_ladder, load_gangfight_scenario

DEFAULT = DATA_DIR / "scenarios" / "default.yaml"


def test_default_is_a_48_inch_table_with_12_inch_deployment() -> None:
    s = load_gangfight_scenario(DEFAULT)
    assert (s.table.width, s.table.depth, s.turns) == (48, 48, 6)
    zones = [Polygon(z.polygon) for z in s.deployment]
    assert [z.bounds for z in zones] == [(0, 0, 48, 12), (0, 36, 48, 48)]


def test_every_density_and_every_kind_is_on_the_table() -> None:
    s = load_gangfight_scenario(DEFAULT)
    assert {density_of(s, t.id) for t in s.terrain} == {"flat", "light", "dense"}
    assert {t.kind for t in s.terrain} == {
        "open",
        "difficult",
        "dangerous",
        "impassable",
        "obstacle",
        "blocking",
        "platform",
    }
    assert density_of(s, "woods-1") == "dense"
    assert density_of(s, "scrub-2") == "light"
    assert density_of(s, "wall-1") == "flat"
    assert 7 <= sum(1 for t in s.terrain if Polygon(t.polygon).area >= 9) <= 12  # large pieces (digest: 7-9 + scatter)


def test_platforms_with_and_without_ladders_and_a_jump() -> None:
    s = load_gangfight_scenario(DEFAULT)
    platforms = {t.id: t for t in s.terrain if t.kind == "platform"}
    assert {p for p in platforms if has_ladder(s, p)} == {"tower-1", "tower-2"}
    sheer = [p for p in platforms if not has_ladder(s, p)]
    assert sorted(sheer) == ["roof-1", "roof-2", "roof-3", "roof-4"]
    gap = Polygon(platforms["roof-1"].polygon).distance(Polygon(platforms["roof-3"].polygon))
    assert gap == pytest.approx(1.5)


def test_chests_are_objectives_opened_by_an_interact_action() -> None:
    s = load_gangfight_scenario(DEFAULT)
    assert {o.id for o in s.objectives} == {"crossroads", "chest-1", "chest-2"}
    (action,) = s.actions
    assert (action.id, action.cost) == ("open-chest", 1)
    assert [e.kind for e in action.effects] == ["score", "remove-objective"]


def test_pieces_do_not_overlap_and_the_table_is_symmetric() -> None:
    s = load_gangfight_scenario(DEFAULT)
    shapes = {t.id: Polygon(t.polygon) for t in s.terrain}
    ids = sorted(shapes)
    overlaps = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if shapes[a].intersection(shapes[b]).area > 0]
    assert overlaps == []
    for t in s.terrain:
        partner = t.id[:-1] + {"1": "2", "2": "1", "3": "4", "4": "3"}[t.id[-1]]
        turned = Polygon([(48 - x, 48 - y) for x, y in t.polygon])
        other = next(p for p in s.terrain if p.id == partner)
        assert turned.symmetric_difference(Polygon(other.polygon)).area == pytest.approx(0, abs=1e-6)
        assert (other.kind, other.height, density_of(s, other.id)) == (t.kind, t.height, density_of(s, t.id))


def test_densest_on_a_path() -> None:
    assert densest([]) == "flat"
    assert densest(["flat", "light"]) == "light"
    assert densest(["light", "dense", "flat"]) == "dense"


def test_bad_options_name_their_place(tmp_path: Path) -> None:
    raw = yaml.safe_load(DEFAULT.read_text(encoding="utf-8"))
    raw["rules"] = {
        "density.woods-9": "dense",
        "density.woods-1": "thick",
        "ladder.house-1": True,
        "ladder.tower-1": "yes",
        "slope.roof-1": 2,
    }
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_gangfight_scenario(p)
    found = [(x.place, x.message) for x in info.value.problems]
    assert sorted(place for place, _ in found) == [
        "rules.density.woods-1",
        "rules.density.woods-9",
        "rules.ladder.house-1",
        "rules.ladder.tower-1",
        "rules.slope.roof-1",
    ]
    assert ("rules.density.woods-1", "expected light or dense (flat is the default), found 'thick'") in found
    ladder = dict(found)["rules.ladder.tower-1"]
    assert "`ladder: true` on the terrain piece 'tower-1'" in ladder  # the kernel's field, not the old option


def test_ladders_are_the_kernel_terrain_field_and_only_on_platforms(tmp_path: Path) -> None:
    raw = yaml.safe_load(DEFAULT.read_text(encoding="utf-8"))
    assert {t["id"] for t in raw["terrain"] if t.get("ladder")} == {"tower-1", "tower-2"}
    wall = next(i for i, t in enumerate(raw["terrain"]) if t["id"] == "wall-1")
    raw["terrain"][wall]["ladder"] = True  # a kernel-valid ladder (an obstacle with a height) Gangfight has no use for
    p = tmp_path / "wall-ladder.yaml"
    p.write_text(yaml.safe_dump(raw), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_gangfight_scenario(p)
    assert [(x.place, x.message) for x in info.value.problems] == [
        (f"terrain[{wall}].ladder", "expected a ladder only on a platform in Gangfight, found obstacle")
    ]
