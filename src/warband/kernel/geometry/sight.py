"""Line of sight: a 3-D segment against the sight-blocking prisms of a table (:meth:`Sight.line_of_sight`), and
true line of sight between two models from their eyes to points of their bodies (:meth:`Sight.can_see`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from warband.kernel import native
from warband.kernel.geometry.distance import CLIP_EPS, EPS, T_EPS, Vec
from warband.kernel.geometry.terrain import TerrainPiece

_hypot = math.hypot


def _los_clear(pieces: Sequence[TerrainPiece], a: Vec, za: float, b: Vec, zb: float) -> bool:
    """Core of :meth:`Table.line_of_sight` over an already filtered list of sight-blocking pieces."""
    ax, ay = a
    bx, by = b
    dx = bx - ax
    dy = by - ay
    dz = zb - za
    if ax < bx:
        sx0, sx1 = ax, bx
    else:
        sx0, sx1 = bx, ax
    if ay < by:
        sy0, sy1 = ay, by
    else:
        sy0, sy1 = by, ay
    for piece in pieces:
        minx, miny, maxx, maxy = piece.bbox
        if sx1 < minx - EPS or sx0 > maxx + EPS or sy1 < miny - EPS or sy0 > maxy + EPS:
            continue
        h = piece.height - EPS
        if za >= h and zb >= h:
            continue
        # inline Cyrus-Beck (see TerrainPiece.clip)
        t0 = 0.0
        t1 = 1.0
        hit = True
        for nx, ny, c in piece._planes:
            num = c + CLIP_EPS - nx * ax - ny * ay
            den = nx * dx + ny * dy
            if den > 0.0:
                t = num / den
                if t < t1:
                    if t < t0:
                        hit = False
                        break
                    t1 = t
            elif den < 0.0:
                t = num / den
                if t > t0:
                    if t > t1:
                        hit = False
                        break
                    t0 = t
            elif num < 0.0:
                hit = False
                break
        if not hit or t1 - t0 <= T_EPS:
            continue
        z0 = za + dz * t0
        z1 = za + dz * t1
        if (z0 if z0 < z1 else z1) < h:
            return False
    return True


#: the compiled can_see (None: not built, or WARBAND_PURE=1; the Python method runs)
_can_see = native.load("warband.kernel.geometry._can_see")
_LOS: dict[int, tuple[tuple[TerrainPiece, ...], Any]] = {}


def _los_pieces(pieces: tuple[TerrainPiece, ...]) -> Any:
    """A table's sight-blocking pieces as the compiled query's C arrays (kept with the tuple: its id stays its own)."""
    hit = _LOS.get(id(pieces))
    if hit is None or hit[0] is not pieces:
        assert _can_see is not None
        if len(_LOS) >= 64:
            _LOS.clear()
        hit = _LOS[id(pieces)] = (pieces, _can_see.LosPieces(pieces))
    return hit[1]


class Sight:
    """The line-of-sight queries of a :class:`~warband.kernel.geometry.table.Table` (its base class): ``_los``
    holds the table's sight-blocking pieces (``blocks_los`` and ``height > 0``), in terrain order."""

    __slots__ = ()
    _los: tuple[TerrainPiece, ...]

    def line_of_sight(self, a: Vec, za: float, b: Vec, zb: float, ignore: frozenset[str] = frozenset()) -> bool:
        """True when the 3-D segment ``(a, za) -> (b, zb)`` is clear of every sight-blocking prism.

        Only pieces with ``blocks_los`` and ``height > 0`` count, each as the prism ``z in [0, height]``
        over its footprint. The segment is blocked when, over its footprint interval ``[t0, t1]``, its
        height drops below the piece height (``min(z(t0), z(t1)) < height - 1e-9``). Touching a
        footprint at a single point does not block. Pieces whose id is in ``ignore`` are skipped.
        """
        pieces = self._los
        if ignore:
            pieces = tuple(p for p in pieces if p.id not in ignore)
        return _los_clear(pieces, a, za, b, zb)

    def can_see(
        self,
        a: Vec,
        ra: float,
        za: float,
        ha: float,
        b: Vec,
        rb: float,
        zb: float,
        hb: float,
        ignore: frozenset[str] = frozenset(),
    ) -> bool:
        """True line of sight between a viewer (base radius ``ra``, standing at height ``za``, model height
        ``ha``) at ``a`` and a target (``rb``, ``zb``, ``hb``) at ``b``.

        Eyes: the viewer's centre and the two points ``0.8 * ra`` to its left and right (perpendicular
        to ``a -> b``), all at ``za + 0.9 * ha``. Aim points: the target's centre and its two points
        ``0.8 * rb`` left and right, each at ``zb + 0.9 * hb`` and ``zb + 0.5 * hb``. Visible when any
        eye-to-aim-point line passes :meth:`line_of_sight`. Platforms containing either centre (what
        the models stand on) are ignored, as are ids in ``ignore``. Asked in C when the extension ``_can_see`` is
        built (without ``ignore``); this method is the reference and the fallback (``WARBAND_PURE=1``,
        :mod:`warband.kernel.native`).
        """
        if _can_see is not None and not ignore:  # the same question in C (_can_see.pyx)
            return bool(_can_see.can_see(_los_pieces(self._los), a[0], a[1], ra, za, ha, b[0], b[1], rb, zb, hb))
        ax, ay = a
        bx, by = b
        sa = 0.8 * ra
        sb = 0.8 * rb
        reach = sa if sa > sb else sb
        lox = (ax if ax < bx else bx) - reach - EPS
        hix = (ax if ax > bx else bx) + reach + EPS
        loy = (ay if ay < by else by) - reach - EPS
        hiy = (ay if ay > by else by) + reach + EPS
        eye_z = za + 0.9 * ha
        high_z = zb + 0.9 * hb
        low_z = zb + 0.5 * hb
        floor = min(eye_z, high_z, low_z)
        pieces: list[TerrainPiece] = []
        for p in self._los:
            minx, miny, maxx, maxy = p.bbox
            if maxx < lox or minx > hix or maxy < loy or miny > hiy or p.height - EPS <= floor:
                continue
            if p.id in ignore:
                continue
            if p.kind == "platform" and (p.contains(a) or p.contains(b)):
                continue
            pieces.append(p)
        if not pieces:
            return True
        dx = bx - ax
        dy = by - ay
        ln = _hypot(dx, dy)
        if ln > 0.0:
            px, py = -dy / ln, dx / ln
        else:
            px = py = 0.0
        eyes = ((ax, ay), (ax + sa * px, ay + sa * py), (ax - sa * px, ay - sa * py))
        aims = ((bx, by), (bx + sb * px, by + sb * py), (bx - sb * px, by - sb * py))
        for eye in eyes:
            for aim in aims:
                if _los_clear(pieces, eye, eye_z, aim, high_z) or _los_clear(pieces, eye, eye_z, aim, low_z):
                    return True
        return False
