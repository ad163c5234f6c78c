"""What a Gangfight scenario says beyond the kernel's terrain kinds: density; and how it reads ladders.

The kernel's scenario format (``kernel/scenario.py``) has movement kinds and ladders but no terrain density, so a
Gangfight scenario states density as a ruleset option in its ``rules`` mapping:

* ``density.<terrain id>: light | dense`` -- the density that sets the Charge! TN (seed 004, Charge!: 2+ on flat,
  4+ on light, 6+ on dense terrain); a piece not named is flat.

Ladders are the kernel's: ``ladder: true`` on a platform means a ladder or rope, so climbing it is a plain Move
(seed 004, Jump/Climb); a platform without one is a sheer surface that needs a Jump/Climb check. The older option
``ladder.<platform id>: true`` is refused with a pointer to the terrain field.

:func:`load_gangfight_scenario` loads a scenario with the kernel and checks these options, every problem at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from warband.kernel.errors import Problem, ScenarioError
from warband.kernel.geometry.distance import Vec, segment_point_distance
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.scenario import Scenario, load_scenario
from warband.rulesets.gangfight.terms import DENSITIES, Density

__all__ = [
    "DENSITY_PREFIX",
    "LADDER_PREFIX",
    "densest",
    "density_of",
    "has_ladder",
    "load_gangfight_scenario",
    "segment_clear",
]

DENSITY_PREFIX = "density."
LADDER_PREFIX = "ladder."


def density_of(scenario: Scenario, piece_id: str) -> Density:
    """The piece's density for Charge! (seed 004, Charge!); flat unless the scenario names it."""
    value = scenario.rules.get(DENSITY_PREFIX + piece_id, "flat")
    return value if value in ("flat", "light", "dense") else "flat"


def has_ladder(scenario: Scenario, piece_id: str) -> bool:
    """Whether a platform is climbed by ladder or rope, i.e. by a Move (seed 004, Jump/Climb): the kernel's
    ``ladder`` field of the terrain piece."""
    return any(t.id == piece_id and t.kind == "platform" and t.ladder for t in scenario.terrain)


def densest(densities: Iterable[Density]) -> Density:
    """The densest of several densities (flat if none): the Charge! TN under ``charge_terrain = densest-on-path``
    (PROPOSED; seed 004 names the densities but not which piece counts)."""
    return max(densities, key=DENSITIES.index, default="flat")


#: Inches of slack when asking "at least r away" (a base sliding along a wall does not touch it).
CLEAR_SLACK = 1e-7


def segment_clear(piece: TerrainPiece, p: Vec, q: Vec, r: float) -> bool:
    """Whether a base of radius ``r`` sliding straight from ``p`` to ``q`` keeps clear of ``piece`` (a straight
    Move, Flee! or Slam! push may not pass through solid terrain). Built on the kernel's public queries only:
    the segment must not cross the footprint (:meth:`TerrainPiece.clip`), and, the footprint being convex, the
    nearest approach of a segment that does not cross it is at one of the segment's ends or at a corner of the
    footprint."""
    iv = piece.clip(p, q)
    if iv is not None and (r > 0.0 or iv[1] - iv[0] > 1e-9):
        return False
    if r <= 0.0:
        return True
    lim = r - CLEAR_SLACK
    if piece.distance_to(p) < lim or piece.distance_to(q) < lim:
        return False
    return all(segment_point_distance(p, q, v) >= lim for v in piece.polygon)


def _option_problems(file: str, scenario: Scenario, key: str) -> list[Problem]:
    place, value = f"rules.{key}", scenario.rules[key]
    kinds = {t.id: t.kind for t in scenario.terrain}
    if key.startswith(DENSITY_PREFIX):
        piece = key.removeprefix(DENSITY_PREFIX)
        out = [] if piece in kinds else [Problem(file, place, f"expected a terrain id, found {piece!r}")]
        if value not in ("light", "dense"):
            out.append(Problem(file, place, f"expected light or dense (flat is the default), found {value!r}"))
        return out
    if key.startswith(LADDER_PREFIX):
        piece = key.removeprefix(LADDER_PREFIX)
        return [
            Problem(
                file,
                place,
                f"expected a ladder as `ladder: true` on the terrain piece {piece!r} itself (the kernel's terrain "
                "field), found the old rules option",
            )
        ]
    return [Problem(file, place, f"expected a key {DENSITY_PREFIX}<terrain id>")]


def load_gangfight_scenario(path: str | Path) -> Scenario:
    """Load a scenario with the kernel, then check its Gangfight options; raise ScenarioError listing them all."""
    scenario = load_scenario(path)
    problems = [p for key in scenario.rules for p in _option_problems(str(path), scenario, key)]
    problems += [
        Problem(str(path), f"terrain[{i}].ladder", f"expected a ladder only on a platform in Gangfight, found {t.kind}")
        for i, t in enumerate(scenario.terrain)
        if t.ladder and t.kind != "platform"
    ]
    if scenario.ruleset != "gangfight":
        problems.insert(0, Problem(str(path), "ruleset", f"expected 'gangfight', found {scenario.ruleset!r}"))
    if problems:
        raise ScenarioError(problems)
    return scenario
