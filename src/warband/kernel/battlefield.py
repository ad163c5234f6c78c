"""The battlefield of a validated scenario document as run-time geometry: the table with its terrain, the two
deployment zones and the objectives; and the scoring every scenario shares (who controls an objective, who
won on victory points). Game-agnostic; every ruleset's context starts from it."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.state import Model


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


# ------------------------------------------------------------------------------------------- scoring
def within_objective(m: Model, at: Vec, radius: float) -> bool:
    """Whether any part of ``m``'s base is within ``radius`` of the objective marker at ``at``."""
    return math.hypot(m.x - at[0], m.y - at[1]) - m.radius <= radius + 1e-9


def controller(models: Iterable[Model], at: Vec, radius: float, weight: Callable[[Model], int]) -> int | None:
    """The side that controls an objective: the larger total ``weight`` of its models within ``radius`` (a
    model that does not count weighs 0); None when level. Each ruleset says what counts and how much."""
    count = [0, 0]
    for m in models:
        if m.on_table and within_objective(m, at, radius):
            count[m.side] += weight(m)
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def vp_winner(vp: Sequence[int]) -> int | None:
    """The side with more victory points, or None for a draw."""
    if vp[0] == vp[1]:
        return None
    return 0 if vp[0] > vp[1] else 1
