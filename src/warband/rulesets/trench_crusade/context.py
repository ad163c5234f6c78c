"""The immutable context of one Trench Crusade game: parameters, table, objectives, deployment, profiles.

Built once per game from the validated documents and shared by every clone of the state. It also keeps a
memo of line-of-sight answers (a pure function of positions), which is a cache, not game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.battlefield import ObjectivePoint
from warband.kernel.context import GameContext, Rosters, SideSpecs, context_fields, number_models
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
    params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int, specs: SideSpecs
) -> Context:
    """Turn validated documents into a context; model ids are ``a1..aN`` and ``b1..bN`` in roster order."""
    spec_by_id, order = number_models(specs)
    profiles = {mid: spec["data"] for mid, spec in spec_by_id.items()}
    return Context(
        **context_fields(params, rosters, scenario, profiles),
        turns=int(scenario.get("turns", 4)),
        seed=seed,
        specs=spec_by_id,
        order=order,
    )


def model_height(ctx: Context, base_mm: float) -> float:
    """Height of a model for line of sight (PROPOSED parameters ``model_height``/``large_model_height``)."""
    p = ctx.params
    return float(p["large_model_height"] if base_mm >= 40 else p["model_height"])


def radius_of(base_mm: float) -> float:
    return base_radius(base_mm)
