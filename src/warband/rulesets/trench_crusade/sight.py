"""Who is near and who sees whom (seed 000: 'within 1" of an enemy', 'visible'; digest §4 LoS, Cover, Elevated):
engagement, line of sight, cover and elevation. Pure functions of a state or its context.
"""

from __future__ import annotations

from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import enemies, enemies_within, memo_sight
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.context import Context
from warband.rulesets.trench_crusade.core import State


def standing_enemies(state: State, m: Model) -> list[Model]:
    """Enemy models on the table (Down ones included)."""
    return enemies(state.models.values(), m)


def engaged_with(state: State, m: Model) -> list[Model]:
    """Enemies within the engagement range (1") of ``m`` (seed 000: 'within 1" of an enemy')."""
    return enemies_within(state.models.values(), m, state.ctx.params["engagement_range"])


def visible(ctx: Context, a: Model, b: Model) -> bool:
    """True line of sight from ``a`` to ``b`` (digest §4 LoS: 360 degrees, bases ignored), memoised."""
    return memo_sight(
        ctx.los_cache,
        a,
        b,
        lambda a, b: ctx.table.can_see(a.pos, a.radius, a.z, a.height, b.pos, b.radius, b.z, b.height),
    )


_BOX_SLACK = 1e-6  # inches: far above the rounding of a distance on a table, far below any cover contact


def far_from_box(piece: TerrainPiece, p: Vec, reach: float) -> bool:
    """Whether ``p`` is farther than ``reach`` (and some rounding) from ``piece``'s box along x or y: then it is
    farther than ``reach`` from the footprint, which lies in the box (``piece.distance_to(p) > reach``), and the
    distance need not be measured."""
    minx, miny, maxx, maxy = piece.bbox
    lim = reach + _BOX_SLACK
    return minx - p[0] > lim or p[0] - maxx > lim or miny - p[1] > lim or p[1] - maxy > lim


def cover_piece(ctx: Context, shooter: Model, target: Model) -> TerrainPiece | None:
    """The terrain giving ``target`` cover against ``shooter``, if any (digest §4 Cover).

    Cover: the target touches terrain at least ``cover_min_height`` high and at least as wide as its base,
    and that terrain lies between the target and the shooter (the line between them crosses it)."""
    p = ctx.params
    reach = target.radius + p["cover_contact"]
    tpos = (target.x, target.y)
    for piece in ctx.table.terrain:
        if piece.height < p["cover_min_height"] or piece.kind in ("difficult", "dangerous", "open"):
            continue
        if piece.kind == "platform" and piece.contains(tpos):
            continue  # the platform it stands on
        if piece.height <= target.z:
            continue
        minx, miny, maxx, maxy = piece.bbox
        if max(maxx - minx, maxy - miny) < 2 * target.radius:
            continue
        if far_from_box(piece, tpos, reach) or piece.distance_to(tpos) > reach:
            continue
        if piece.clip((shooter.x, shooter.y), tpos) is not None:
            return piece
    return None


def elevated_over(ctx: Context, shooter: Model, target: Model) -> bool:
    """Whether the shooter stands high enough above the target for +DICE (digest §4 Elevated)."""
    return bool(shooter.z - target.z >= float(ctx.params["elevation_height"]) - 1e-9)
