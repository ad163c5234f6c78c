"""The table: a ``width`` x ``depth`` rectangle with its terrain (:class:`Table`), with the queries about where
things stand and what a segment crosses; its line of sight comes from :class:`.sight.Sight`, its routed paths
from :class:`.paths.Routes`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from warband.kernel.geometry.distance import EPS, T_EPS, Vec
from warband.kernel.geometry.paths import Routes, _WalkGraph
from warband.kernel.geometry.sight import Sight
from warband.kernel.geometry.terrain import Crossing, TerrainPiece, Trace

_hypot = math.hypot


class Table(Sight, Routes):
    """A ``width`` x ``depth`` rectangular table, ``[0, width] x [0, depth]``, with its terrain."""

    __slots__ = ("_los", "_platforms", "_walks", "depth", "platforms", "terrain", "width")

    def __init__(self, width: float, depth: float, terrain: Sequence[TerrainPiece]) -> None:
        if not (width > 0.0 and depth > 0.0):
            raise ValueError("table width and depth must be positive")
        self.width = float(width)
        self.depth = float(depth)
        self.terrain: tuple[TerrainPiece, ...] = tuple(terrain)
        ids = [p.id for p in self.terrain]
        if len(set(ids)) != len(ids):
            raise ValueError("terrain piece ids must be unique")
        self._los = tuple(p for p in self.terrain if p.blocks_los and p.height > 0.0)
        self._platforms = tuple(p for p in self.terrain if p.kind == "platform")
        self.platforms = self._platforms  # the pieces models can stand on, for rules that need them
        self._walks: dict[tuple[float, tuple[int, ...]], _WalkGraph] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from what defines it: the walk graphs are a cache, and need not travel to a worker process
        return (Table, (self.width, self.depth, self.terrain))

    def on_table(self, c: Vec, r: float) -> bool:
        """True when the whole base (radius ``r``, centre ``c``) lies within the table rectangle."""
        x, y = c
        return x - r >= -EPS and x + r <= self.width + EPS and y - r >= -EPS and y + r <= self.depth + EPS

    def pieces_at(self, p: Vec) -> tuple[TerrainPiece, ...]:
        """Pieces whose footprint contains ``p`` (boundary included), in terrain order."""
        return tuple(piece for piece in self.terrain if piece.contains(p))

    def surface_height(self, p: Vec) -> float:
        """Height a model standing at ``p`` stands on: the tallest platform containing ``p``, else 0."""
        best = 0.0
        for piece in self._platforms:
            if piece.height > best and piece.contains(p):
                best = piece.height
        return best

    def trace(self, a: Vec, b: Vec) -> Trace:
        """Every piece whose footprint the segment ``a -> b`` touches, with where it enters and leaves."""
        length = _hypot(b[0] - a[0], b[1] - a[1])
        out: list[Crossing] = []
        ax, ay = a
        bx, by = b
        lox, hix = (ax, bx) if ax < bx else (bx, ax)
        loy, hiy = (ay, by) if ay < by else (by, ay)
        for piece in self.terrain:
            px0, py0, px1, py1 = piece.bbox
            if px1 < lox - EPS or px0 > hix + EPS or py1 < loy - EPS or py0 > hiy + EPS:
                continue  # the same rejection clip() makes, without the call
            iv = piece.clip(a, b)
            if iv is not None:
                t0, t1 = iv
                out.append(Crossing(piece, t0, t1, t0 * length, t1 * length))
        if len(out) > 1:
            out.sort(key=_crossing_key)
        return Trace(length, tuple(out))

    def segment_blocked(self, a: Vec, b: Vec, kinds: frozenset[str], min_height: float = 0.0) -> TerrainPiece | None:
        """The first piece (smallest entry parameter; ties in terrain order) of one of ``kinds`` with
        ``height >= min_height`` that the centre line of ``a -> b`` really crosses (``t1 - t0 > 1e-9``),
        else ``None``."""
        best: TerrainPiece | None = None
        best_t = math.inf
        for piece in self.terrain:
            if piece.kind not in kinds or piece.height < min_height:
                continue
            iv = piece.clip(a, b)
            if iv is not None and iv[1] - iv[0] > T_EPS and iv[0] < best_t:
                best, best_t = piece, iv[0]
        return best


def _crossing_key(c: Crossing) -> float:
    return c.s0
