# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of :meth:`warband.kernel.geometry.sight.Sight.can_see` (true line of sight between two models,
eyes to aim points, against the table's sight-blocking prisms; Trench Crusade, Gangfight, Wyrdcry).

The reference (and the fallback when this extension is not built, when ``WARBAND_PURE=1``, or when pieces are
ignored by id) is the Python method with its ``_los_clear``. This module runs the same arithmetic on C arrays in
the same order (IEEE doubles; built without -ffast-math and with -ffp-contract=off), so every comparison gives the
Python answer; the one distance it needs (the length between the two centres, which places the eyes and aim
points) is CPython's own ``math.hypot``.
"""

import math

from libc.stdlib cimport free, malloc

from warband.kernel.geometry._convex cimport convex_clip, convex_contains, count_planes, fill_convex

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

cdef double EPS = 1e-9
cdef double T_EPS = 1e-9


cdef class LosPieces:
    """A table's sight-blocking pieces (``Table._los``) as C arrays, in terrain order."""

    cdef int n
    cdef double* bbox      # 4 per piece
    cdef int* poff         # plane offsets, n + 1
    cdef double* planes    # 3 per plane
    cdef double* height
    cdef char* platform

    def __cinit__(self, tuple pieces):
        cdef int i, total = count_planes(pieces)
        self.n = len(pieces)
        self.bbox = <double*>malloc(4 * max(self.n, 1) * sizeof(double))
        self.poff = <int*>malloc((self.n + 1) * sizeof(int))
        self.planes = <double*>malloc(3 * max(total, 1) * sizeof(double))
        self.height = <double*>malloc(max(self.n, 1) * sizeof(double))
        self.platform = <char*>malloc(max(self.n, 1))
        if not (self.bbox and self.poff and self.planes and self.height and self.platform):
            raise MemoryError()
        fill_convex(pieces, self.bbox, self.poff, self.planes)
        for i in range(self.n):
            piece = pieces[i]
            self.height[i] = piece.height
            self.platform[i] = 1 if piece.kind == "platform" else 0

    def __dealloc__(self):
        free(self.bbox)
        free(self.poff)
        free(self.planes)
        free(self.height)
        free(self.platform)

    cdef bint contains(self, int i, double x, double y) noexcept:
        """TerrainPiece.contains."""
        return convex_contains(self.bbox, self.poff, self.planes, i, x, y)

    cdef bint clear(self, int* keep, int nkeep, double ax, double ay, double za, double bx, double by, double zb) noexcept:
        """sight._los_clear over the kept pieces."""
        cdef double dz = zb - za, h, t0, t1, z0, z1
        cdef int k, i
        for k in range(nkeep):
            i = keep[k]
            h = self.height[i] - EPS
            if za >= h and zb >= h:
                continue
            if not convex_clip(self.bbox, self.poff, self.planes, i, ax, ay, bx, by, &t0, &t1) or t1 - t0 <= T_EPS:
                continue
            z0 = za + dz * t0
            z1 = za + dz * t1
            if (z0 if z0 < z1 else z1) < h:
                return False
        return True


def can_see(LosPieces los, double ax, double ay, double ra, double za, double ha, double bx, double by, double rb,
            double zb, double hb):
    """``Sight.can_see`` without ``ignore`` (see its docstring): True when some eye-to-aim-point line is clear."""
    cdef int* keep = <int*>malloc(max(los.n, 1) * sizeof(int))  # per question: nothing shared between calls
    if not keep:
        raise MemoryError()
    try:
        return _can_see(los, keep, ax, ay, ra, za, ha, bx, by, rb, zb, hb)
    finally:
        free(keep)


cdef bint _can_see(LosPieces los, int* keep, double ax, double ay, double ra, double za, double ha, double bx,
                   double by, double rb, double zb, double hb) except -1:
    cdef double sa = 0.8 * ra, sb = 0.8 * rb, reach, lox, hix, loy, hiy, eye_z, high_z, low_z, floor
    cdef double dx, dy, ln, px, py, ex, ey, tx, ty
    cdef double* b
    cdef double eyes[6]
    cdef double aims[6]
    cdef int i, nkeep = 0, e, a
    reach = sa if sa > sb else sb
    lox = (ax if ax < bx else bx) - reach - EPS
    hix = (ax if ax > bx else bx) + reach + EPS
    loy = (ay if ay < by else by) - reach - EPS
    hiy = (ay if ay > by else by) + reach + EPS
    eye_z = za + 0.9 * ha
    high_z = zb + 0.9 * hb
    low_z = zb + 0.5 * hb
    floor = eye_z  # min(eye_z, high_z, low_z)
    if high_z < floor:
        floor = high_z
    if low_z < floor:
        floor = low_z
    for i in range(los.n):
        b = los.bbox + 4 * i
        if b[2] < lox or b[0] > hix or b[3] < loy or b[1] > hiy or los.height[i] - EPS <= floor:
            continue
        if los.platform[i] and (los.contains(i, ax, ay) or los.contains(i, bx, by)):
            continue
        keep[nkeep] = i
        nkeep += 1
    if nkeep == 0:
        return True
    dx = bx - ax
    dy = by - ay
    ln = _py_hypot(dx, dy)  # CPython's: the eyes and aim points must be the reference's floats
    if ln > 0.0:
        px = -dy / ln
        py = dx / ln
    else:
        px = py = 0.0
    eyes[0] = ax
    eyes[1] = ay
    eyes[2] = ax + sa * px
    eyes[3] = ay + sa * py
    eyes[4] = ax - sa * px
    eyes[5] = ay - sa * py
    aims[0] = bx
    aims[1] = by
    aims[2] = bx + sb * px
    aims[3] = by + sb * py
    aims[4] = bx - sb * px
    aims[5] = by - sb * py
    for e in range(3):
        ex = eyes[2 * e]
        ey = eyes[2 * e + 1]
        for a in range(3):
            tx = aims[2 * a]
            ty = aims[2 * a + 1]
            if los.clear(keep, nkeep, ex, ey, eye_z, tx, ty, high_z) or los.clear(keep, nkeep, ex, ey, eye_z, tx, ty, low_z):
                return True
    return False
