"""The immutable context of one Trenches and Turbines game: parameters, table, units, objectives.

Built once per game from the validated documents, shared by every clone. ``memo`` caches pure functions of
positions (sight between models), never game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.battlefield import ObjectivePoint
from warband.kernel.context import GameContext, Rosters, SideSpecs, context_fields
from warband.kernel.geometry.distance import EPS
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.mission import MissionAction
from warband.kernel.state import GameState

SIDE_PREFIX = ("a", "b")
SIZE_RANK = {"S": 1, "M": 2, "L": 3, "XL": 4}

#: How far outside a piece's box a leg must stay for ``paths._open_ground`` (ten times the geometry's slack EPS,
#: so that the trace's and the footprint's own tests, each with EPS, surely reject the piece too).
OPEN_SLACK = 10 * EPS


Objective = ObjectivePoint


@dataclass(kw_only=True)
class Context(GameContext):
    """Everything about a game that never changes while it is played, beyond the kernel's :class:`GameContext`:
    woods and scalable terrain, the number of rounds, the units by id and ``missions`` (the scenario actions by
    id, as validated documents)."""

    woods_ids: frozenset[str]
    scalable_ids: frozenset[str]
    rounds: int
    units: dict[str, dict[str, Any]]
    missions: dict[str, dict[str, Any]] = field(default_factory=dict)
    solid: tuple[TerrainPiece, ...] = field(init=False)
    sight_pieces: tuple[TerrainPiece, ...] = field(init=False)
    unit_order: tuple[str, ...] = field(init=False)
    #: every piece's box grown by :data:`OPEN_SLACK` (``paths._open_ground``: a leg clear of them all crosses nothing)
    open_boxes: tuple[tuple[float, float, float, float], ...] = field(init=False, repr=False)
    #: While the rules list candidates on one state that nothing moves meanwhile (destinations, deployment
    #: spots), the models on the table of that state, indexed by x (:func:`spots.frozen_models`); else None.
    frozen: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        terrain = self.table.terrain
        self.solid = tuple(p for p in terrain if p.kind in ("impassable", "blocking"))
        self.sight_pieces = tuple(
            p
            for p in terrain
            if p.height > 0 and (p.blocks_los or p.id in self.woods_ids or p.kind in ("obstacle", "platform"))
        )
        self.unit_order = tuple(sorted(self.units, key=lambda u: (self.units[u]["side"], int(u[1:]))))
        e = OPEN_SLACK
        self.open_boxes = tuple((x0 - e, y0 - e, x1 + e, y1 + e) for x0, y0, x1, y1 in (p.bbox for p in terrain))


#: A Trenches and Turbines game state: the rules code is typed against its context.
State = GameState[Context]


def _scenario_ids(scenario: Mapping[str, Any], key: str) -> frozenset[str]:
    raw = scenario.get("rules", {}).get(key, "")
    return frozenset(str(raw).replace(",", " ").split())


def mission_specs(scenario: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The scenario's actions by id, with every default filled in (a scenario built in code may omit them)."""
    out: dict[str, dict[str, Any]] = {}
    for raw in scenario.get("actions", []):
        doc = MissionAction.model_validate(raw).model_dump(mode="json")
        out[str(doc["id"])] = doc
    return out


def build_context(params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], specs: SideSpecs) -> Context:
    """Unit ids are ``a1, a2, ...`` / ``b1, ...`` in roster order; model ids ``a1.1`` (the leader), ``a1.2``..."""
    units: dict[str, dict[str, Any]] = {}
    profiles: dict[str, dict[str, Any]] = {}
    for side in (0, 1):
        for i, spec in enumerate(specs[side], start=1):
            uid = f"{SIDE_PREFIX[side]}{i}"
            mids = [f"{uid}.{k}" for k in range(1, len(spec["models"]) + 1)]
            for mid, data in zip(mids, spec["models"], strict=True):
                profiles[mid] = data
            units[uid] = {**{k: v for k, v in spec.items() if k != "models"}, "side": side, "models": mids}
    fields = context_fields(params, rosters, scenario, profiles)
    terrain = fields["table"].terrain
    scalable = _scenario_ids(scenario, "scalable") | frozenset(p.id for p in terrain if p.kind == "platform")
    rounds = int(params.get("rounds", 0)) or int(scenario.get("turns", 5))
    return Context(
        **fields,
        woods_ids=_scenario_ids(scenario, "woods"),
        scalable_ids=scalable,
        rounds=rounds,
        units=units,
        missions=mission_specs(scenario),
    )
