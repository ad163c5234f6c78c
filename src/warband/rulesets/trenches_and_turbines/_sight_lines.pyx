# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of the lines of sight of :func:`warband.rulesets.trenches_and_turbines.sight.sight`.

The reference (and the fallback when this extension is not built, or when ``WARBAND_PURE=1``) is the Python loop
at the end of ``sight.sight``: for every pair of points across the two bases (``_SIGHT_PAIRS``) a line is checked
by ``sight._line`` against the pieces and bases that may stand in the way (seed 002, Check Line of Sight: a
feature or unit the same size or larger than both blocks, a smaller one gives Conceal (1); woods block past
``woods_sight`` inches, digest §3.11), and the best answer is kept (a clear line ends the search). This module
runs the same arithmetic on C arrays in the same order (IEEE doubles; built without -ffast-math and with
-ffp-contract=off), so every comparison gives the Python answer; where a distance comes from ``math.hypot``
(CPython's own algorithm, not libm's) and lies within ``_MARGIN`` of its threshold, CPython's ``math.hypot`` is
asked for it. The answer of a line does not depend on the order of its checks, so the reference's reordering
(what blocked the last line first) is a speed device this loop does not need.
"""

import math

from libc.math cimport fabs, hypot
from libc.stdlib cimport free, malloc

from warband.kernel.geometry._convex cimport convex_clip, count_planes, fill_convex, segment_offset

cdef extern from *:
    """
    #ifndef WARBAND_SRC_SHA
    #define WARBAND_SRC_SHA "unknown"
    #endif
    """
    const char* WARBAND_SRC_SHA

#: sha256 of this source at build time (the loader refuses a build of another source)
SOURCE_SHA = WARBAND_SRC_SHA.decode("ascii")

_py_hypot = math.hypot

cdef double _MARGIN = 1e-9  # libm hypot vs CPython's: at most a few ulps (~1e-14 here) apart

cdef int NPAIRS = 0
cdef double PAIRS[512]


def set_margin(double margin):
    """Widen (tests: every distance near its threshold is CPython's) or restore (1e-9) the margin."""
    global _MARGIN
    _MARGIN = margin


def set_pairs(tuple pairs):
    """The fractions of each radius where the lines start and end (``sight._SIGHT_PAIRS``), in their order."""
    global NPAIRS
    if len(pairs) > 256:
        raise ValueError("at most 256 pairs of sight points")
    for i, (sa, st) in enumerate(pairs):
        PAIRS[2 * i] = sa
        PAIRS[2 * i + 1] = st
    NPAIRS = len(pairs)


cdef class SightTerrain:
    """A table's pieces as C arrays (built once per table; see ``sight._terrain``), found by identity."""

    cdef int n
    cdef double* bbox      # 4 per piece
    cdef int* poff         # plane offsets, n + 1
    cdef double* planes    # 3 per plane
    cdef dict index        # id(piece) -> i
    cdef list pieces       # kept alive: the ids above stay theirs

    def __cinit__(self, list pieces):
        cdef int i, total = count_planes(pieces)
        self.n = len(pieces)
        self.pieces = list(pieces)
        self.index = {}
        self.bbox = <double*>malloc(4 * max(self.n, 1) * sizeof(double))
        self.poff = <int*>malloc((self.n + 1) * sizeof(int))
        self.planes = <double*>malloc(3 * max(total, 1) * sizeof(double))
        if not (self.bbox and self.poff and self.planes):
            raise MemoryError()
        fill_convex(pieces, self.bbox, self.poff, self.planes)
        for i in range(self.n):
            self.index[id(pieces[i])] = i

    def __dealloc__(self):
        free(self.bbox)
        free(self.poff)
        free(self.planes)

    cdef bint clip(self, int i, double ax, double ay, double bx, double by, double* t0out, double* t1out) noexcept:
        """TerrainPiece.clip: False for None, else the interval in ``t0out``, ``t1out``."""
        return convex_clip(self.bbox, self.poff, self.planes, i, ax, ay, bx, by, t0out, t1out)


cdef double py_hypot(double x, double y) except? -1.0:
    """CPython's math.hypot (for a distance near its threshold)."""
    return _py_hypot(x, y)


cdef int circle_segment_hits(double ax, double ay, double bx, double by, double cx, double cy, double r) except -1:
    """kernel.geometry.distance.circle_segment_hits: 1 when ``a -> b`` passes strictly within ``r`` of ``c``."""
    cdef double px, py, d
    if (ax < cx - r and bx < cx - r) or (ax > cx + r and bx > cx + r):
        return 0
    if (ay < cy - r and by < cy - r) or (ay > cy + r and by > cy + r):
        return 0
    segment_offset(ax, ay, bx, by, cx, cy, &px, &py)
    d = hypot(px, py)
    if fabs(d - r) <= _MARGIN:
        d = py_hypot(px, py)
    return 1 if d < r else 0


def best_line(SightTerrain terrain, list pieces, list bases, double ax, double ay, double ar, double tx, double ty,
              double tr, double px, double py, int big, double woods_sight, bint every_pair):
    """The loop of ``sight.sight`` over the lines between the two bases: None (every line blocked) or the least
    Conceal of a line (0 or 1). ``pieces``: (piece, woods, size) and ``bases``: ((x, y), r, rank), as
    ``sight._sight_blockers`` gives them; ``every_pair`` False: only the first pair (nothing is in the way)."""
    cdef int np = len(pieces), nb = len(bases), npairs = NPAIRS if every_pair else 1
    cdef int* pidx = <int*>malloc(max(np, 1) * sizeof(int))
    cdef int* pwoods = <int*>malloc(max(np, 1) * sizeof(int))
    cdef int* psize = <int*>malloc(max(np, 1) * sizeof(int))
    cdef double* bdata = <double*>malloc(4 * max(nb, 1) * sizeof(double))
    cdef int i, k, best = -2, c, conceal, hits
    cdef double sa, st, pax, pay, ptx, pty, t0, t1, ln, v, lim = woods_sight + 1e-9
    cdef bint blocked
    try:
        if not (pidx and pwoods and psize and bdata):
            raise MemoryError()
        if npairs < 1:
            raise ValueError("set_pairs() was not called")
        for i in range(np):
            piece, woods, size = pieces[i]
            pidx[i] = terrain.index[id(piece)]
            pwoods[i] = 1 if woods else 0
            psize[i] = size
        for i in range(nb):
            (cx, cy), r, rank = bases[i]
            bdata[4 * i] = cx
            bdata[4 * i + 1] = cy
            bdata[4 * i + 2] = r
            bdata[4 * i + 3] = rank
        for k in range(npairs):
            sa = PAIRS[2 * k]
            st = PAIRS[2 * k + 1]
            pax = ax + sa * ar * px
            pay = ay + sa * ar * py
            ptx = tx + st * tr * px
            pty = ty + st * tr * py
            # sight._line: -1 blocked, else the Conceal
            conceal = 0
            blocked = False
            for i in range(np):
                if not terrain.clip(pidx[i], pax, pay, ptx, pty, &t0, &t1) or t1 - t0 <= 1e-9:
                    continue
                if pwoods[i]:
                    ln = hypot(ptx - pax, pty - pay)
                    v = (t1 - t0) * ln
                    if fabs(v - lim) <= _MARGIN:
                        v = (t1 - t0) * py_hypot(ptx - pax, pty - pay)
                    if v > lim:
                        blocked = True
                        break
                    conceal = 1
                    continue
                if psize[i] >= big:
                    blocked = True
                    break
                if psize[i] > 0:
                    conceal = 1
            if not blocked:
                for i in range(nb):
                    hits = circle_segment_hits(pax, pay, ptx, pty, bdata[4 * i], bdata[4 * i + 1], bdata[4 * i + 2])
                    if hits:
                        if bdata[4 * i + 3] >= big:
                            blocked = True
                            break
                        conceal = 1
            c = -1 if blocked else conceal
            if c != -1 and (best == -2 or c < best):
                best = c
                if c == 0:
                    break
    finally:
        free(pidx)
        free(pwoods)
        free(psize)
        free(bdata)
    return None if best == -2 else best
