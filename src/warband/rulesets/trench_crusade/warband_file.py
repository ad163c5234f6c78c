"""The Trench Crusade warband file: its header and its two kinds of model entry (see
docs/trench-crusade-warbands.md).

A file names its faction (and variant) from the catalogue and each model either by its catalogue name
(:class:`~book.BookEntry`: ``model: Heretic Priest`` with the ``equipment`` and ``upgrades`` it buys) or as a
profile of your own (:class:`~custom.CustomEntry`: ``custom: true`` and the whole profile). The JSON Schema of
:class:`TCWarbandFile` is ``docs/schemas/tc-roster.schema.json``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from warband.rulesets.trench_crusade.book import BookEntry
from warband.rulesets.trench_crusade.custom import CustomEntry
from warband.rulesets.trench_crusade.document import MAX_MODELS

__all__ = ["TCWarbandFile", "WarbandHeader"]


class WarbandHeader(BaseModel):
    """Everything of a warband file but its models."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: Literal["trench-crusade"]
    name: str = Field(min_length=1)
    faction: str = Field(
        min_length=1,
        description="A faction or variant of the catalogue ('Heretic Legion', 'Trench Ghosts'); a name of your own "
        "only when every model is custom.",
    )
    variant: str | None = Field(default=None, description="A variant of the faction ('Knights of Avarice').")
    points_limit: int = Field(gt=0, le=1_000_000, description="Ducats the warband may spend.")
    glory_limit: int | None = Field(
        default=None, ge=0, le=1000, description="Glory the warband may spend (default: the list's starting glory)."
    )


class TCWarbandFile(WarbandHeader):
    """A Trench Crusade warband file."""

    models: list[BookEntry | CustomEntry] = Field(min_length=1, max_length=MAX_MODELS)
