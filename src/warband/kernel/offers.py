"""What a ruleset offers the faces, as data: its odds commands and what a warband file holds.

A ruleset declares these and never imports a face (typer, rich, the web app); the CLI builds
``warband odds RULESET COMMAND`` from :class:`OddsCommand` declarations and prints :class:`OddsTable` results,
and ``warband validate``/``info``/``samples`` describe a warband from :class:`RosterSummary`. The web table can
offer the same from the same data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Column", "OddsCommand", "OddsOption", "OddsTable", "RosterLine", "RosterSummary"]

OptionType = type[int] | type[float] | type[str] | type[bool]


@dataclass(frozen=True, slots=True)
class OddsOption:
    """One option of an odds command: ``--name`` (dashes; its value reaches ``run`` under ``key``).

    ``required``: the person must give it (``default`` is then ignored); ``min``/``max``: an inclusive range
    for numbers; ``choices``: the only values allowed; ``optional``: None is a value (``default`` None)."""

    name: str
    type: OptionType
    help: str
    default: Any = None
    required: bool = False
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] = ()

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")

    def check(self, value: Any) -> str | None:
        """Why ``value`` is not allowed (None if it is); the face reports it as a bad ``--name``."""
        if value is None:
            return None if not self.required else "a value is required"
        if self.choices and value not in self.choices:
            return f"expected one of {', '.join(map(str, self.choices))}, found {value!r}"
        if self.min is not None and self.max is not None and not self.min <= value <= self.max:
            return f"must be between {self.min:+g} and {self.max:+g}, got {value}"
        if self.min is not None and value < self.min:
            return f"must be at least {self.min:g}, got {value}"
        if self.max is not None and value > self.max:
            return f"must be at most {self.max:g}, got {value}"
        return None


@dataclass(frozen=True, slots=True)
class Column:
    """A column of an odds table; numbers are right-aligned."""

    name: str
    justify: Literal["left", "right"] = "left"


@dataclass(frozen=True, slots=True)
class OddsTable:
    """The answer of an odds command: a titled table for people, ``data`` for ``--json`` (printed as it is), and
    lines of ``notes`` printed under the table."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    data: Any
    notes: tuple[str, ...] = ()


OddsRun = Callable[[Mapping[str, Any], Mapping[str, Any]], OddsTable]
"""``run(params, values)``: the game's resolved parameters (``--set`` applied) and the option values by key."""


@dataclass(frozen=True, slots=True)
class OddsCommand:
    """One ``warband odds RULESET NAME`` command."""

    name: str
    help: str
    options: tuple[OddsOption, ...]
    run: OddsRun


@dataclass(frozen=True, slots=True)
class RosterLine:
    """One entry of a warband: its name, how many models it stands for and its points (None: no points)."""

    name: str
    count: int
    points: int | None = None


@dataclass(frozen=True, slots=True)
class RosterSummary:
    """What a validated warband holds: its name, total points (None when the game has none), models, units (None
    when the game has no units) and one line per entry of the file (a model entry or a unit)."""

    name: str
    points: int | None
    models: int
    units: int | None
    lines: tuple[RosterLine, ...] = field(default_factory=tuple)
    points_limit: int | None = None
    #: What else a reader should know, one line each (a custom model, a list rule the checks do not cover).
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "points": self.points,
            "models": self.models,
            "units": self.units,
            "lines": [{"name": x.name, "count": x.count, "points": x.points} for x in self.lines],
            "points_limit": self.points_limit,
            "notes": list(self.notes),
        }

    def text(self) -> str:
        """One line for ``warband validate``."""
        entries = f"{self.units} units" if self.units is not None else f"{len(self.lines)} entries"
        points = f", {self.points} points" if self.points is not None else ""
        limit = f", points limit {self.points_limit}" if self.points_limit is not None else ""
        return f"warband {self.name!r}: {self.models} models in {entries}{points}{limit}"
