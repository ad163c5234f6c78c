"""The immutable context every game shares with all its clones: parameters, table, zones, objectives, files.

A ruleset subclasses :class:`GameContext` with what its own rules need (units, turn limits, sample specs) and
types its states as ``GameState[ItsContext]``, so mypy checks the rules code against it. ``memo`` caches pure
functions of positions (sight between models, deployment spots), never game state.

Two helpers build one: :func:`number_models` gives the models their ids (``a1..aN``, ``b1..bN`` in roster order)
and :func:`context_fields` the kernel's fields from the documents, so a ruleset writes only its own fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from warband.kernel.battlefield import ObjectivePoint, battlefield
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece

T = TypeVar("T")
#: The two validated warband documents of a game, side A's first.
Rosters = tuple[dict[str, Any], dict[str, Any]]
#: Each side's model profiles (or specs) in roster order, side A's first: what :func:`number_models` numbers.
SideSpecs = tuple[list[dict[str, Any]], list[dict[str, Any]]]
#: The letter that starts the model ids of each side.
SIDE_PREFIX = ("a", "b")


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


def number_models(
    per_side: tuple[Sequence[T], Sequence[T]],
) -> tuple[dict[str, T], tuple[tuple[str, ...], tuple[str, ...]]]:
    """Give each side's models (their profiles, in roster order) the ids ``a1..aN`` and ``b1..bN``: the profiles
    by id, and each side's ids in order."""
    by_id: dict[str, T] = {}
    order: list[tuple[str, ...]] = []
    for side, items in enumerate(per_side):
        ids = tuple(f"{SIDE_PREFIX[side]}{i}" for i in range(1, len(items) + 1))
        by_id.update(zip(ids, items, strict=True))
        order.append(ids)
    return by_id, (order[0], order[1])


def context_fields(
    params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], profiles: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """The fields of :class:`GameContext` for a game of these documents (the battlefield built from the
    scenario), as keyword arguments: ``Context(**context_fields(...), turns=..., ...)``."""
    bf = battlefield(scenario)
    return {
        "params": dict(params),
        "table": bf.table,
        "cover_ids": bf.cover_ids,
        "zones": bf.zones,
        "objectives": bf.objectives,
        "rosters": rosters,
        "scenario": scenario,
        "profiles": profiles,
    }
