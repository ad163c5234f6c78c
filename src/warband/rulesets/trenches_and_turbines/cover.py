"""Cover (X) of a model and of a unit against a shooter (seed 002, Saves: Cover (X) adds to the save; digest §3.11
for the PROPOSED terrain values: craters, SCALABLE buildings, linear obstacles between shooter and target)."""

from __future__ import annotations

import math

from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import Context, State
from warband.rulesets.trenches_and_turbines.units import members

#: Cover answers kept per game (in the context's memo) before it is emptied.
COVER_MEMO_LIMIT = 200_000


def model_cover(state: State, t: Model, shooter: Model | None) -> int:
    """Cover (X) of one model (digest §3.11): in a crater with cover, in or on a SCALABLE building with cover,
    or touching a linear obstacle that lies between it and the shooter. A pure function of where the model (and
    the shooter) stands on the fixed table, so it is remembered by those positions (an evaluation asks it of
    every model after every lookahead, and most of them have not moved)."""
    ctx = state.ctx
    if shooter is None:
        return cover_here(state, t)
    k = ("cover", t.x, t.y, t.radius, (shooter.x, shooter.y))
    memo = ctx.memo
    hit: int | None = memo.get(k)
    if hit is None:
        hit = _model_cover(ctx, t, shooter)
        if len(memo) > COVER_MEMO_LIMIT:
            memo.clear()
        memo[k] = hit
    return hit


def cover_here(state: State, t: Model) -> int:
    """:func:`model_cover` against no shooter in particular (obstacles count on any side), remembered by where the
    model stands in a table of its own in the memo (:func:`cover_table`)."""
    table = cover_table(state)
    k = (t.x, t.y, t.radius)
    hit = table.get(k)
    if hit is None:
        hit = _model_cover(state.ctx, t, None)
        if len(table) > COVER_MEMO_LIMIT:
            table.clear()
        table[k] = hit
    return hit


def cover_table(state: State) -> dict[tuple[float, float, float], int]:
    """The game's remembered :func:`cover_here` answers by (x, y, base radius): one dict in the memo, so that an
    evaluation asks it of every model without building and hashing a longer key each time."""
    memo = state.ctx.memo
    table: dict[tuple[float, float, float], int] | None = memo.get("cover-here")
    if table is None:
        table = memo["cover-here"] = {}
    return table


def _model_cover(ctx: Context, t: Model, shooter: Model | None) -> int:
    p = ctx.params
    best = 0
    for piece in ctx.table.terrain:
        if piece.id not in ctx.cover_ids:
            continue
        if piece.kind == "platform" and piece.contains((t.x, t.y)):
            best = max(best, int(p["cover_building"]))
        elif piece.kind == "difficult" and piece.contains((t.x, t.y)):
            best = max(best, int(p["cover_crater"]))
        elif (
            piece.kind == "obstacle"
            and piece.distance_to((t.x, t.y)) <= t.radius + float(p["cover_touch"])
            and (shooter is None or piece.clip((shooter.x, shooter.y), (t.x, t.y)) is not None)
        ):
            best = max(best, int(p["cover_obstacle"]))
    return best


def unit_cover(state: State, uid: str, shooter: Model | None) -> int:
    """The Cover (X) the unit claims: the best X that at least ``cover_share`` of its models have."""
    ms = members(state, uid)
    if not ms:
        return 0
    values = sorted((model_cover(state, m, shooter) for m in ms), reverse=True)
    need = max(1, math.ceil(float(state.ctx.params["cover_share"]) * len(ms) - 1e-9))
    return values[need - 1]
