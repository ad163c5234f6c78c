"""The battlefield of a validated scenario document as run-time geometry: the table with its terrain, the two
deployment zones and the objectives. Game-agnostic; every ruleset's context starts from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warband.kernel.geometry import Table, TerrainPiece, Vec


@dataclass(frozen=True, slots=True)
class ObjectivePoint:
    """An objective marker: where it is, the radius that controls it and what it scores."""

    id: str
    at: Vec
    radius: float
    vp: int


@dataclass(frozen=True, slots=True)
class Battlefield:
    table: Table
    zones: tuple[TerrainPiece, TerrainPiece]
    objectives: tuple[ObjectivePoint, ...]
    cover_ids: frozenset[str]


def _poly(points: Any) -> tuple[Vec, ...]:
    return tuple((float(x), float(y)) for x, y in points)


def battlefield(scenario: Mapping[str, Any]) -> Battlefield:
    """Build the table (terrain pieces as convex prisms), the zones of sides 0 and 1 and the objectives."""
    terrain = [
        TerrainPiece(
            id=t["id"],
            kind=t["kind"],
            polygon=_poly(t["polygon"]),
            height=float(t.get("height", 0.0)),
            blocks_los=bool(t.get("blocks_los", True)),
        )
        for t in scenario.get("terrain", [])
    ]
    table = Table(float(scenario["table"]["width"]), float(scenario["table"]["depth"]), terrain)
    by_side = {int(z["side"]): z for z in scenario["deployment"]}
    zones = tuple(TerrainPiece(f"zone-{s}", "open", _poly(by_side[s]["polygon"]), 0.0, False) for s in (0, 1))
    objectives = tuple(
        ObjectivePoint(
            o["id"], (float(o["at"][0]), float(o["at"][1])), float(o.get("radius", 3.0)), int(o.get("vp", 1))
        )
        for o in scenario.get("objectives", [])
    )
    cover = frozenset(t["id"] for t in scenario.get("terrain", []) if t.get("cover", False))
    return Battlefield(table, (zones[0], zones[1]), objectives, cover)
