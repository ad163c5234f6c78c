"""Line of sight by size and Conceal (seed 002, Check Line of Sight: any 1mm line from any portion of one base to
any portion of the other; a feature or unit the same size or larger than both blocks, a smaller one gives Conceal
(1); digest §3.9 for sizes, §3.11 for woods). Answers are remembered by position in the context's memo."""

from __future__ import annotations

import itertools
import math
from typing import Any

from warband.kernel import native
from warband.kernel.geometry.distance import Vec, circle_segment_hits
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import Context, State
from warband.rulesets.trenches_and_turbines.spots import listing_cache
from warband.rulesets.trenches_and_turbines.units import size_rank


def piece_size(ctx: Context, piece: TerrainPiece) -> int:
    p = ctx.params
    size = 0
    for rank, key in ((1, "size_height_S"), (2, "size_height_M"), (3, "size_height_L"), (4, "size_height_XL")):
        if piece.height >= float(p[key]) - 1e-9:
            size = rank
    return size


#: Margin (inches) round the box of two bases within which a piece or model may meet a line of sight between them.
_SIGHT_BOX_SLACK = 0.01


#: A feature that may stand in the way of the lines of sight between two models: the piece, whether it is woods,
#: and its size (:func:`piece_size`).
_SightPiece = tuple[TerrainPiece, bool, int]


#: A base that may stand in the way: its centre, radius and size rank.
_SightBase = tuple[Vec, float, int]


def _sight_blockers(ctx: Context, state: State, a: Model, t: Model) -> tuple[list[_SightPiece], list[_SightBase]]:
    """The pieces and models that may meet a line of sight from ``a``'s base to ``t``'s (:func:`_line`), once per
    pair instead of once per line (speed only: the same answers). Every such line runs inside the box round the
    two bases, so a piece or base wholly outside it never meets one; a platform either model stands on, and a
    piece (not woods) no higher than both models, never count."""
    lox = min(a.x - a.radius, t.x - t.radius) - _SIGHT_BOX_SLACK
    hix = max(a.x + a.radius, t.x + t.radius) + _SIGHT_BOX_SLACK
    loy = min(a.y - a.radius, t.y - t.radius) - _SIGHT_BOX_SLACK
    hiy = max(a.y + a.radius, t.y + t.radius) + _SIGHT_BOX_SLACK
    pieces: list[_SightPiece] = []
    for piece, size in _sized_pieces(ctx):
        x0, y0, x1, y1 = piece.bbox
        if x1 < lox or x0 > hix or y1 < loy or y0 > hiy:
            continue
        if piece.kind == "platform" and (piece.contains((a.x, a.y)) or piece.contains((t.x, t.y))):
            continue
        woods = piece.id in ctx.woods_ids
        if not woods and a.z >= piece.height and t.z >= piece.height:
            continue
        pieces.append((piece, woods, size))
    bases: list[_SightBase] = []
    pair = (a.unit, t.unit)
    for ox, oy, r, unit, rank in _table_bases(state):
        if ox + r < lox or ox - r > hix or oy + r < loy or oy - r > hiy:
            continue
        if unit in pair:
            continue
        bases.append(((ox, oy), r, rank))
    return pieces, bases


def _table_bases(state: State) -> list[tuple[float, float, float, str | None, int]]:
    """Every model on the table as (x, y, base radius, unit, size rank), in the state's order; once per listing
    (:func:`spots.listing_cache`)."""
    cache = listing_cache(state)
    hit: list[tuple[float, float, float, str | None, int]] | None = None if cache is None else cache.get("table-bases")
    if hit is None:
        hit = [(o.x, o.y, o.radius, o.unit, size_rank(o)) for o in state.models.values() if o.on_table]
        if cache is not None:
            cache["table-bases"] = hit
    return hit


def _sized_pieces(ctx: Context) -> tuple[tuple[TerrainPiece, int], ...]:
    """The sight pieces with their sizes (:func:`piece_size`), once per game (kept in the memo)."""
    hit: tuple[tuple[TerrainPiece, int], ...] | None = ctx.memo.get("sized-sight-pieces")
    if hit is None:
        hit = ctx.memo["sized-sight-pieces"] = tuple((p, piece_size(ctx, p)) for p in ctx.sight_pieces)
    return hit


def _line(
    ctx: Context, big: int, pieces: list[_SightPiece], bases: list[_SightBase], pa: Vec, pt: Vec, hint: list[bool]
) -> int | None:
    """None if the line is blocked, else 1 when a smaller feature or unit is in the way (Conceal), 0 if clear.
    ``big``: the larger size rank of the two models; ``pieces`` and ``bases``: what may be in the way
    (:func:`_sight_blockers`), what blocked the last line first; ``hint[0]``: a base has blocked a line of this
    pair (the answer never depends on the order of the checks)."""
    if hint[0]:  # the last line was blocked by the base now first: try it before any piece
        c, r, rank = bases[0]
        if rank >= big and circle_segment_hits(pa, pt, c, r):
            return None
    conceal = 0
    for i, (piece, woods, size) in enumerate(pieces):
        iv = piece.clip(pa, pt)
        if iv is None or iv[1] - iv[0] <= 1e-9:
            continue
        if woods:  # the line's length only here: most lines meet no woods
            ln = math.hypot(pt[0] - pa[0], pt[1] - pa[1])
            if (iv[1] - iv[0]) * ln > float(ctx.params["woods_sight"]) + 1e-9:
                _to_front(pieces, i)
                return None
            conceal = 1
            continue
        if size >= big:
            _to_front(pieces, i)
            return None
        if size > 0:
            conceal = 1
    for i, (c, r, rank) in enumerate(bases):
        if circle_segment_hits(pa, pt, c, r):
            if rank >= big:
                _to_front(bases, i)
                hint[0] = True
                return None
            conceal = 1
    return conceal


def _to_front(items: list[Any], i: int) -> None:
    """Move what blocked one line of sight to the front: the next line between the same bases most likely meets
    it too, and is then refused at the first check (the answer never depends on the order)."""
    if i:
        items.insert(0, items.pop(i))


#: Where the lines of sight start and end across each base (fractions of its radius along the diameter square to
#: the line between the centres): the three parallel lines first (the centre line and both near edges), then
#: every other pair, parallel and crossing, so a clear line anywhere between the two bases is found (seed 002,
#: Check Line of Sight: "from any portion of the attacking model's base to any portion of the target model's
#: base"). Any clear segment between two discs holds a clear segment between points of their rims, so points
#: across each base at this spacing find it unless the gap is narrower than the spacing.
_SIGHT_OFFSETS = (0.0, 0.8, -0.8, 0.98, -0.98, 0.5, -0.5, 0.25, -0.25)


_SIGHT_PAIRS = (
    (0.0, 0.0),
    (0.8, 0.8),
    (-0.8, -0.8),
    *((sa, st) for sa in _SIGHT_OFFSETS for st in _SIGHT_OFFSETS if not (sa == st and abs(sa) in (0.0, 0.8))),
)


#: the compiled line loop (None: not built, or WARBAND_PURE=1; the Python loop of :func:`sight` runs)
_sight_lines = native.load("warband.rulesets.trenches_and_turbines._sight_lines")
if _sight_lines is not None:
    _sight_lines.set_pairs(_SIGHT_PAIRS)


def positions_key(state: State) -> tuple[Any, ...]:
    """Where every model on the table stands: the memo's key for a line of sight. Built once per listing while
    nothing moves (:func:`spots.listing_cache`)."""
    cache = listing_cache(state)
    if cache is None:
        return tuple((m.id, m.x, m.y, m.z) for m in state.models.values() if m.on_table)
    hit: tuple[Any, ...] | None = cache.get("positions-key")
    if hit is None:
        hit = cache["positions-key"] = tuple((m.id, m.x, m.y, m.z) for m in state.models.values() if m.on_table)
    return hit


def sight(
    state: State, a: Model, t: Model, key: tuple[Any, ...] | None = None, compiled: bool | None = None
) -> int | None:
    """Line of sight from ``a`` to ``t`` (seed 002, Check Line of Sight): any 1mm line from base to base; a
    feature or unit the same size or larger than both blocks, a smaller one gives Conceal (1). Returns None
    (no LoS) or the intervening Conceal (0 or 1: only the best single feature counts). The lines are checked in
    C when the extension ``_sight_lines`` is built; the Python loop is the reference and the fallback
    (``WARBAND_PURE=1``, :mod:`warband.kernel.native`); ``compiled`` (True or False) forces one path and skips
    the memo (the property test compares them)."""
    if compiled is None:
        cache = listing_cache(state)
        if cache is not None and (key is None or key is cache.get("positions-key")):
            # while the rules list a menu nothing moves: each pair's answer once per listing, without hashing the
            # positions (the memo's key) again
            lk = ("sight", a.id, t.id)
            hit = cache.get(lk, -1)
            if hit == -1:
                hit = cache[lk] = _sight(state, a, t, key, compiled)
            return hit  # type: ignore[no-any-return]
    return _sight(state, a, t, key, compiled)


#: Tokens of positions (:func:`_positions_token`): never reused, so a token names one set of positions for good.
_TOKENS = itertools.count()


def _positions_token(state: State, key: tuple[Any, ...]) -> int:
    """A small stand-in for the positions ``key`` in the memo's keys (hashing the positions costs as much as a
    tenth of a line of sight): the same token for equal positions while the memo keeps it, once per listing
    (:func:`spots.listing_cache`). After the memo is emptied equal positions get a new token: the answers kept
    under the old one went with it."""
    cache = listing_cache(state)
    if cache is not None and key is cache.get("positions-key"):
        hit: int | None = cache.get("positions-token")
        if hit is None:
            hit = cache["positions-token"] = _token_of(state.ctx.memo, key)
        return hit
    return _token_of(state.ctx.memo, key)


def _token_of(memo: dict[Any, Any], key: tuple[Any, ...]) -> int:
    mk = ("positions", key)
    hit: int | None = memo.get(mk)
    if hit is None:
        hit = memo[mk] = next(_TOKENS)
    return hit


def _sight(state: State, a: Model, t: Model, key: tuple[Any, ...] | None, compiled: bool | None) -> int | None:
    ctx = state.ctx
    if compiled is None:
        k = ("sight", a.id, t.id, _positions_token(state, key if key is not None else positions_key(state)))
        kept: int | None = ctx.memo.get(k, -1)
        if kept != -1:
            return kept
    big = max(size_rank(a), size_rank(t))
    pieces, bases = _sight_blockers(ctx, state, a, t)
    # the answer depends only on the two bases and on what may stand between them (the table never changes): a
    # pair whose neighbourhood did not change since another state was asked is answered again without a line
    near = ("sight-near", a.x, a.y, a.z, a.radius, t.x, t.y, t.z, t.radius, big, tuple(bases))
    hit = ctx.memo.get(near, -1) if compiled is None else -1
    if hit != -1:
        ctx.memo[k] = hit
        return hit
    best: int | None = None
    dx, dy = t.x - a.x, t.y - a.y
    ln = math.hypot(dx, dy) or 1.0
    px, py = -dy / ln, dx / ln
    if _sight_lines is not None and compiled is not False:  # the same loop in C (_sight_lines.pyx)
        woods = float(ctx.params["woods_sight"])
        best = _sight_lines.best_line(
            _terrain(ctx),
            pieces,
            bases,
            a.x,
            a.y,
            a.radius,
            t.x,
            t.y,
            t.radius,
            px,
            py,
            big,
            woods,
            bool(pieces or bases),
        )
    else:
        hint = [False]
        for sa, st in _SIGHT_PAIRS if pieces or bases else _SIGHT_PAIRS[:1]:  # nothing in the way: the first is clear
            pa = (a.x + sa * a.radius * px, a.y + sa * a.radius * py)
            pt = (t.x + st * t.radius * px, t.y + st * t.radius * py)
            c = _line(ctx, big, pieces, bases, pa, pt, hint)
            if c is not None and (best is None or c < best):
                best = c
                if c == 0:
                    break
    if compiled is not None:
        return best
    if len(ctx.memo) > 200_000:
        ctx.memo.clear()
    ctx.memo[k] = best
    ctx.memo[near] = best
    return best


_TERRAIN: dict[int, tuple[tuple[TerrainPiece, ...], Any]] = {}


def _terrain(ctx: Context) -> Any:
    """A game's sight pieces as the compiled loop's C arrays (kept with the tuple, so its id stays its own)."""
    pieces = ctx.sight_pieces
    hit = _TERRAIN.get(id(pieces))
    if hit is None or hit[0] is not pieces:
        assert _sight_lines is not None
        if len(_TERRAIN) >= 64:
            _TERRAIN.clear()
        hit = _TERRAIN[id(pieces)] = (pieces, _sight_lines.SightTerrain(list(pieces)))
    return hit[1]
