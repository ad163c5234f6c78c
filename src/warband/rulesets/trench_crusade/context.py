"""The immutable context of one Trench Crusade game: parameters, table, objectives, deployment, profiles.

Built once per game from the validated documents and shared by every clone of the state. It also keeps a
memo of line-of-sight answers (a pure function of positions), which is a cache, not game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.battlefield import ObjectivePoint, battlefield
from warband.kernel.geometry import Table, TerrainPiece, base_radius

SIDE_PREFIX = ("a", "b")


Objective = ObjectivePoint


@dataclass
class Context:
    """Everything about a game that never changes while it is played."""

    params: dict[str, Any]
    table: Table
    cover_ids: frozenset[str]
    zones: tuple[TerrainPiece, TerrainPiece]
    objectives: tuple[Objective, ...]
    turns: int
    rosters: tuple[dict[str, Any], dict[str, Any]]
    scenario: dict[str, Any]
    seed: int
    profiles: dict[str, dict[str, Any]]
    specs: dict[str, dict[str, Any]]
    order: tuple[tuple[str, ...], tuple[str, ...]]
    los_cache: dict[tuple[float, ...], bool] = field(default_factory=dict)
    memo: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        terrain = self.table.terrain
        self.solid_pieces = tuple(p for p in terrain if p.kind in ("impassable", "blocking"))
        self.platforms = tuple(p for p in terrain if p.kind == "platform")

    def piece(self, piece_id: str) -> TerrainPiece:
        for p in self.table.terrain:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)


def build_context(
    params: Mapping[str, Any],
    rosters: tuple[dict[str, Any], dict[str, Any]],
    scenario: dict[str, Any],
    seed: int,
    specs: tuple[list[dict[str, Any]], list[dict[str, Any]]],
) -> Context:
    """Turn validated documents into a context; model ids are ``a1..aN`` and ``b1..bN`` in roster order."""
    bf = battlefield(scenario)
    table, cover, zones, objectives = bf.table, bf.cover_ids, bf.zones, bf.objectives
    profiles: dict[str, dict[str, Any]] = {}
    spec_by_id: dict[str, dict[str, Any]] = {}
    order: list[tuple[str, ...]] = []
    for side in (0, 1):
        ids = []
        for i, spec in enumerate(specs[side], start=1):
            mid = f"{SIDE_PREFIX[side]}{i}"
            ids.append(mid)
            profiles[mid] = spec["data"]
            spec_by_id[mid] = spec
        order.append(tuple(ids))
    return Context(
        dict(params),
        table,
        cover,
        (zones[0], zones[1]),
        objectives,
        int(scenario.get("turns", 4)),
        rosters,
        scenario,
        seed,
        profiles,
        spec_by_id,
        (order[0], order[1]),
    )


def model_height(ctx: Context, base_mm: float) -> float:
    """Height of a model for line of sight (PROPOSED parameters ``model_height``/``large_model_height``)."""
    p = ctx.params
    return float(p["large_model_height"] if base_mm >= 40 else p["model_height"])


def radius_of(base_mm: float) -> float:
    return base_radius(base_mm)
