"""Scenario files: table size, turn count, terrain, deployment zones, objectives and scenario actions.

Game-agnostic: a scenario names its ruleset and carries ruleset-specific options in ``rules``, but nothing
here knows any game. :func:`load_scenario` reads YAML or JSON and reports every problem at once through
:class:`~warband.kernel.errors.ScenarioError`.

All lengths are inches; the table spans ``0 <= x <= width`` and ``0 <= y <= depth``. Scenario actions (the
optional ``actions`` list) are described in :mod:`warband.kernel.mission`; a ruleset passes its
:class:`~warband.kernel.mission.ActionVocabulary` so that the names they use are checked too.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import shapely
from pydantic import BaseModel, ConfigDict, Field, field_validator

from warband.kernel.errors import Problem, ScenarioError
from warband.kernel.mission import ActionVocabulary, MissionAction, action_problems, clean_place
from warband.kernel.roster import describe_value, problems_from_validation, read_mapping

__all__ = [
    "LADDER_KINDS",
    "TERRAIN_KINDS",
    "ActionVocabulary",
    "DeploymentZone",
    "MissionAction",
    "Objective",
    "Point",
    "Scenario",
    "Table",
    "TerrainKind",
    "TerrainPiece",
    "convexity_problem",
    "load_scenario",
]

Point = tuple[float, float]

TerrainKind = Literal["open", "difficult", "dangerous", "impassable", "obstacle", "blocking", "platform"]
TERRAIN_KINDS: tuple[str, ...] = (
    "open",
    "difficult",
    "dangerous",
    "impassable",
    "obstacle",
    "blocking",
    "platform",
)

_EPS = 1e-9

LADDER_KINDS: tuple[str, ...] = ("platform", "obstacle")
"""Terrain kinds a ladder may stand against (``TerrainPiece.ladder``): the ones a model climbs."""

MIN_DEPLOY_AREA = 0.75
"""Square inches of passable ground a deployment zone needs at the least: about one 25 mm base."""


def convexity_problem(points: Sequence[Point]) -> str | None:
    """Why ``points`` is not a simple convex polygon, or ``None`` if it is.

    Vertices may wind either way; collinear vertices are tolerated, repeated ones and self-crossings are not.
    """
    n = len(points)
    if n < 3:
        return f"expected a convex polygon of at least 3 points, found {n} point(s)"
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        if math.isclose(a[0], b[0], abs_tol=_EPS) and math.isclose(a[1], b[1], abs_tol=_EPS):
            return f"expected distinct consecutive points, found point {i} repeated at {list(a)}"
    sign = 0
    turning = 0.0
    for i in range(n):
        a, b, c = points[i - 1], points[i], points[(i + 1) % n]
        e1 = (b[0] - a[0], b[1] - a[1])
        e2 = (c[0] - b[0], c[1] - b[1])
        cross = e1[0] * e2[1] - e1[1] * e2[0]
        dot = e1[0] * e2[0] + e1[1] * e2[1]
        turning += math.atan2(cross, dot)
        if abs(cross) <= _EPS:
            if dot < 0:
                return f"expected a convex polygon, found the outline doubling back at point {i} {list(b)}"
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return f"expected a convex polygon, found a reflex (inward) corner at point {i} {list(b)}"
    if sign == 0:
        return "expected a convex polygon with area, found all points on one line"
    if not math.isclose(abs(turning), 2 * math.pi, rel_tol=1e-6):
        return "expected a simple convex polygon, found an outline that crosses itself"
    return None


def _check_polygon(points: list[Point]) -> list[Point]:
    why = convexity_problem(points)
    if why is not None:
        raise ValueError(why)
    return points


class _Model(BaseModel):
    # no inf or nan anywhere (a table .inf wide, a terrain piece .inf high break every later measure)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


#: The largest distance a scenario may give (a table side, a height, a radius, a coordinate), in inches.
MAX_INCHES = 1000.0
#: The most turns, and the most victory points one objective or effect may give.
MAX_TURNS = 100
MAX_VP = 1000

#: A coordinate in a scenario file: a finite number (``true`` is not one) within :data:`MAX_INCHES` of 0.
Coord = Annotated[float, Field(strict=True, ge=-MAX_INCHES, le=MAX_INCHES)]
PointIn = tuple[Coord, Coord]


class Table(_Model):
    """The playing surface, in inches."""

    width: float = Field(gt=0, le=MAX_INCHES, strict=True, description="Table width (x extent), inches.")
    depth: float = Field(gt=0, le=MAX_INCHES, strict=True, description="Table depth (y extent), inches.")

    def contains(self, p: Point) -> bool:
        return -_EPS <= p[0] <= self.width + _EPS and -_EPS <= p[1] <= self.depth + _EPS


class TerrainPiece(_Model):
    """One terrain piece: a convex footprint with a kind, a height and line-of-sight/cover flags."""

    id: str = Field(min_length=1, description="Unique id within the scenario.")
    kind: TerrainKind
    name: str = Field(default="", description="Display name.")
    polygon: list[PointIn] = Field(description="Convex footprint, list of [x, y] in inches.")
    height: float = Field(default=0, ge=0, le=MAX_INCHES, strict=True, description="Height in inches.")
    blocks_los: bool = Field(default=False, strict=True, description="Whether the piece blocks line of sight.")
    cover: bool = Field(default=False, strict=True, description="Whether a model touching the piece can claim cover.")
    ladder: bool = Field(
        default=False,
        strict=True,
        description="A ladder (or rope) up the piece's side: a platform or obstacle with a height. What climbing "
        "by it costs is the ruleset's (e.g. a plain move, no doubled climb).",
    )

    @field_validator("polygon")
    @classmethod
    def _convex(cls, value: list[Point]) -> list[Point]:
        return _check_polygon(value)


class DeploymentZone(_Model):
    """The area one side deploys in."""

    side: int = Field(ge=0, le=1, strict=True, description="Side 0 or side 1.")
    polygon: list[PointIn] = Field(description="Convex zone, list of [x, y] in inches.")

    @field_validator("polygon")
    @classmethod
    def _convex(cls, value: list[Point]) -> list[Point]:
        return _check_polygon(value)


class Objective(_Model):
    """A scoring point: controlled by models within ``radius`` of ``at``."""

    id: str = Field(min_length=1)
    at: PointIn
    radius: float = Field(default=3, gt=0, le=MAX_INCHES, strict=True)
    vp: int = Field(default=1, ge=0, le=MAX_VP, strict=True, description="Victory points for controlling it.")
    on_table: bool = Field(
        default=True,
        strict=True,
        description="False: the marker starts off the table until a scenario action's place-objective puts it down.",
    )


RuleValue = bool | int | float | str


def _finite_scalar(v: Any) -> bool:
    return isinstance(v, RuleValue) and not (isinstance(v, float) and not math.isfinite(v))


class Scenario(_Model):
    """A scenario file."""

    name: str = Field(min_length=1)
    ruleset: str = Field(min_length=1, description="Ruleset id, e.g. the entry-point name.")
    table: Table
    turns: int = Field(ge=1, le=MAX_TURNS, strict=True)
    terrain: list[TerrainPiece] = Field(default_factory=list)
    deployment: list[DeploymentZone]
    objectives: list[Objective] = Field(default_factory=list)
    actions: list[MissionAction] = Field(
        default_factory=list, description="Special actions the scenario gives every unit (mission actions)."
    )
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="Ruleset-specific options: a mapping of names to numbers, strings or booleans.",
        json_schema_extra={"additionalProperties": {"type": ["number", "string", "boolean"]}},
    )

    @field_validator("rules")
    @classmethod
    def _scalar_rules(cls, value: dict[str, Any]) -> dict[str, Any]:
        bad = [f"{k}={describe_value(v)}" for k, v in value.items() if not _finite_scalar(v)]
        if bad:
            raise ValueError(f"expected each option to be a number, string or boolean, found {', '.join(bad)}")
        return value

    def zone(self, side: int) -> DeploymentZone:
        for z in self.deployment:
            if z.side == side:
                return z
        raise KeyError(side)


def _cross_check(
    file: str,
    table: Table | None,
    terrain: list[tuple[int, TerrainPiece]],
    zones: list[tuple[int, DeploymentZone]],
    objectives: list[tuple[int, Objective]],
    zones_complete: bool,
    actions: Sequence[tuple[int, MissionAction]] = (),
    objectives_complete: bool = True,
    vocabulary: ActionVocabulary | None = None,
    actions_complete: bool = True,
) -> list[Problem]:
    """Checks that need several parts of the file at once (run on whichever parts are valid)."""
    out = action_problems(file, actions, objectives, objectives_complete, vocabulary, actions_complete)
    seen: dict[str, str] = {}
    for label, items in (("terrain", terrain), ("objectives", objectives)):
        for i, item in items:
            place = f"{label}[{i}].id"
            if item.id in seen:
                out.append(
                    Problem(
                        file,
                        place,
                        f"expected a unique id, found {item.id!r} already used at {seen[item.id]}",
                    )
                )
            else:
                seen[item.id] = place
    if table is not None:
        size = f"{table.width:g} x {table.depth:g}"
        for label, polys in (("terrain", terrain), ("deployment", zones)):
            for i, piece in polys:
                outside = [list(p) for p in piece.polygon if not table.contains(p)]
                if outside:
                    out.append(
                        Problem(
                            file,
                            f"{label}[{i}].polygon",
                            f"expected every point inside the {size} table, found {outside} outside",
                        )
                    )
        for i, obj in objectives:
            if not table.contains(obj.at):
                out.append(
                    Problem(
                        file,
                        f"objectives[{i}].at",
                        f"expected a point inside the {size} table, found {list(obj.at)}",
                    )
                )
    side_at: dict[int, int] = {}
    for i, z in zones:
        if z.side in side_at:
            out.append(
                Problem(
                    file,
                    f"deployment[{i}].side",
                    f"expected one zone per side, found side {z.side} again (first at deployment[{side_at[z.side]}])",
                )
            )
        else:
            side_at[z.side] = i
    if zones_complete:
        missing = [s for s in (0, 1) if s not in side_at]
        if missing:
            out.append(
                Problem(
                    file,
                    "deployment",
                    f"expected a zone for each of sides 0 and 1, found none for side {', '.join(map(str, missing))}",
                )
            )
    for i, t in terrain:
        if t.kind == "platform" and t.height <= 0:
            out.append(Problem(file, f"terrain[{i}].height", "expected a platform height above 0, found 0"))
        if t.ladder and (t.kind not in LADDER_KINDS or t.height <= 0):
            out.append(
                Problem(
                    file,
                    f"terrain[{i}].ladder",
                    f"expected a ladder only on a {' or '.join(LADDER_KINDS)} with a height above 0, found "
                    f"{t.kind} {t.id!r} of height {t.height:g}",
                )
            )
    return out + _blocked_zones(file, terrain, zones)


def _blocked_zones(
    file: str, terrain: list[tuple[int, TerrainPiece]], zones: list[tuple[int, DeploymentZone]]
) -> list[Problem]:
    """A zone that impassable terrain covers (all but less than :data:`MIN_DEPLOY_AREA`) leaves a side nowhere
    to deploy: refused when the file is loaded rather than found as a dead end in the middle of setup."""
    walls = [(i, shapely.Polygon(t.polygon)) for i, t in terrain if t.kind == "impassable"]
    out: list[Problem] = []
    for i, zone in zones:
        area = shapely.Polygon(zone.polygon)
        covering = [(j, w) for j, w in walls if w.intersects(area)]
        if not covering:
            continue
        free = area.difference(shapely.union_all([w for _, w in covering])).area
        if free < MIN_DEPLOY_AREA:
            pieces = ", ".join(f"terrain[{j}]" for j, _ in covering)
            out.append(
                Problem(
                    file,
                    f"deployment[{i}]",
                    f"expected at least {MIN_DEPLOY_AREA} sq in of passable ground to deploy on, found "
                    f"{free:.2f} (the zone is covered by impassable {pieces})",
                )
            )
    return out


def _ruleset_problem(file: str, raw: dict[str, Any], vocabulary: ActionVocabulary | None) -> list[Problem]:
    """A scenario written for another ruleset (its ``ruleset`` field) is refused by the ruleset loading it."""
    wanted = vocabulary.ruleset if vocabulary is not None else ""
    found = raw.get("ruleset")
    if not wanted or not isinstance(found, str) or not found or found == wanted:
        return []
    return [Problem(file, "ruleset", f"expected a scenario for {wanted!r}, found one for {found!r}")]


def _salvage(file: str, raw: dict[str, Any], vocabulary: ActionVocabulary | None) -> list[Problem]:
    """After a failed validation, validate the parts one by one and cross-check the ones that are valid."""

    def parts(key: str, cls: type[BaseModel]) -> tuple[list[tuple[int, Any]], bool]:
        value = raw.get(key)
        if not isinstance(value, list):
            return [], False
        good: list[tuple[int, Any]] = []
        for i, item in enumerate(value):
            with contextlib.suppress(pydantic.ValidationError):
                good.append((i, cls.model_validate(item)))
        return good, len(good) == len(value)

    table: Table | None
    try:
        table = Table.model_validate(raw.get("table"))
    except pydantic.ValidationError:
        table = None
    terrain, _ = parts("terrain", TerrainPiece)
    zones, zones_ok = parts("deployment", DeploymentZone)
    objectives, objectives_ok = parts("objectives", Objective)
    actions, actions_ok = parts("actions", MissionAction)
    objectives_ok = objectives_ok or "objectives" not in raw  # both lists are optional: absent is complete
    actions_ok = actions_ok or "actions" not in raw
    return _cross_check(
        file, table, terrain, zones, objectives, zones_ok, actions, objectives_ok, vocabulary, actions_ok
    )


def load_scenario(path: str | Path, vocabulary: ActionVocabulary | None = None) -> Scenario:
    """Read and validate a scenario file; raise :class:`ScenarioError` listing every problem.

    ``vocabulary``: the action kinds and unit statuses the playing ruleset gives meaning to in scenario actions
    (``supported=False``: it has none, so a scenario with ``actions`` is refused); None checks no names.
    """
    file = str(path)
    raw = read_mapping(path, ScenarioError)
    try:
        scn = Scenario.model_validate(raw)
    except pydantic.ValidationError as exc:
        problems = [Problem(p.file, clean_place(p.place), p.message) for p in problems_from_validation(file, exc)]
        problems += _salvage(file, raw, vocabulary) + _ruleset_problem(file, raw, vocabulary)
        raise ScenarioError(problems) from None
    problems = _cross_check(
        file,
        scn.table,
        list(enumerate(scn.terrain)),
        list(enumerate(scn.deployment)),
        list(enumerate(scn.objectives)),
        True,
        list(enumerate(scn.actions)),
        True,
        vocabulary,
    ) + _ruleset_problem(file, raw, vocabulary)
    if problems:
        raise ScenarioError(problems)
    return scn
