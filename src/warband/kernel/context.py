"""The immutable context every game shares with all its clones: parameters, table, zones, objectives, files.

A ruleset subclasses :class:`GameContext` with what its own rules need (units, turn limits, sample specs) and
types its states as ``GameState[ItsContext]``, so mypy checks the rules code against it. ``memo`` caches pure
functions of positions (sight between models, deployment spots), never game state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warband.kernel.battlefield import ObjectivePoint
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece


@dataclass(kw_only=True)
class GameContext:
    """What never changes while a game is played: the resolved parameters, the battlefield (table, cover,
    deployment zones, objectives), the validated documents and every model's static profile by id."""

    params: dict[str, Any]
    table: Table
    cover_ids: frozenset[str]
    zones: tuple[TerrainPiece, TerrainPiece]
    objectives: tuple[ObjectivePoint, ...]
    rosters: tuple[dict[str, Any], dict[str, Any]]
    scenario: dict[str, Any]
    profiles: dict[str, dict[str, Any]]
    memo: dict[Any, Any] = field(default_factory=dict)

    def piece(self, piece_id: str) -> TerrainPiece:
        """The terrain piece with this id (KeyError if none)."""
        for p in self.table.terrain:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)
