"""The immutable context of one Trench Crusade game: parameters, table, objectives, deployment, profiles.

Built once per game from the validated documents and shared by every clone of the state. It also keeps a
memo of line-of-sight answers (a pure function of positions), which is a cache, not game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.battlefield import ObjectivePoint, battlefield
from warband.kernel.context import GameContext
from warband.kernel.geometry.distance import base_radius
from warband.kernel.geometry.terrain import TerrainPiece

SIDE_PREFIX = ("a", "b")


Objective = ObjectivePoint


@dataclass(kw_only=True)
class Context(GameContext):
    """Everything about a Trench Crusade game that never changes while it is played (beyond the kernel's):
    the turn limit, the seed, each model's spec (type, points, profile) and the roster order of model ids."""

    turns: int
    seed: int
    specs: dict[str, dict[str, Any]]
    order: tuple[tuple[str, ...], tuple[str, ...]]
    los_cache: dict[tuple[float, ...], bool] = field(default_factory=dict)
    #: memo of movement answers (candidates, plans, charge spots) keyed on the question and where every model
    #: stands: pure functions of those, asked again and again by an agent's lookahead on clones (a cache)
    move_memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    solid_pieces: tuple[TerrainPiece, ...] = ()
    platforms: tuple[TerrainPiece, ...] = ()

    def __post_init__(self) -> None:
        terrain = self.table.terrain
        self.solid_pieces = tuple(p for p in terrain if p.kind in ("impassable", "blocking"))
        self.platforms = tuple(p for p in terrain if p.kind == "platform")


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
        params=dict(params),
        table=table,
        cover_ids=cover,
        zones=(zones[0], zones[1]),
        objectives=objectives,
        turns=int(scenario.get("turns", 4)),
        rosters=rosters,
        scenario=scenario,
        seed=seed,
        profiles=profiles,
        specs=spec_by_id,
        order=(order[0], order[1]),
    )


def model_height(ctx: Context, base_mm: float) -> float:
    """Height of a model for line of sight (PROPOSED parameters ``model_height``/``large_model_height``)."""
    p = ctx.params
    return float(p["large_model_height"] if base_mm >= 40 else p["model_height"])


def radius_of(base_mm: float) -> float:
    return base_radius(base_mm)
