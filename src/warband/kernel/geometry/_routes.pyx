# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of the leg test of :meth:`warband.kernel.geometry.paths.Routes.shortest_path`: whether a leg
``p -> q`` of a round base (grown by ``grow``) keeps clear of the solid pieces (``TerrainPiece._segment_clear`` of
every piece whose box is near the leg) and of the bases' circles (``segment_point_distance`` against each).

The reference (and the fallback when this extension is not built, or when ``WARBAND_PURE=1``) is the Python of
``shortest_path`` (its ``clear_of_solids`` and ``clear``). This module runs the same arithmetic on C doubles, in the
same order (built without -ffast-math and with -ffp-contract=off), so every offset is the Python one to the bit;
the one difference is ``math.hypot`` (CPython's own algorithm, here libm's ``hypot``): its length is only compared
with a limit, so where libm's is within ``_MARGIN`` of the limit, CPython's ``math.hypot`` is asked instead.
"""

import math

from libc.math cimport fabs, hypot
from libc.stdlib cimport free, malloc

from warband.kernel.geometry._convex cimport convex_clip, convex_contains, count_planes, fill_convex, segment_offset

cdef extern from *:
    """
    #ifndef WARBAND_SRC_SHA
    #define WARBAND_SRC_SHA "unknown"
    #endif
    """
    const char* WARBAND_SRC_SHA

#: sha256 of this source at build time (the loader refuses a build of another source)
SOURCE_SHA = WARBAND_SRC_SHA.decode("ascii")

cdef object _py_hypot = math.hypot
cdef double _MARGIN = 1e-9  # libm hypot vs CPython's: at most a few ulps (~1e-14 on a table) apart
cdef double T_EPS = 1e-9  # kernel.geometry.distance.T_EPS
cdef double CLEAR_TOL = 1e-7  # kernel.geometry.distance.CLEAR_TOL


def set_margin(double margin):
    """Widen (tests: every length goes to CPython's hypot) or restore (1e-9) the margin."""
    global _MARGIN
    _MARGIN = margin


cdef inline double _length(double x, double y, double lim) except? -1.0:
    """``math.hypot(x, y)`` as compared with ``lim``: libm's, or CPython's where libm's is within the margin."""
    cdef double d = hypot(x, y)
    if fabs(d - lim) <= _MARGIN:
        d = <double>_py_hypot(x, y)
    return d


cdef class Solids:
    """A tuple of solid pieces (``TerrainPiece``) as C arrays, in their order: boxes, half-planes, vertices."""

    cdef int n
    cdef double* bbox      # 4 per piece
    cdef int* poff         # plane offsets, n + 1
    cdef double* planes    # 3 per plane
    cdef int* voff         # vertex offsets, n + 1
    cdef double* verts     # 2 per vertex

    def __cinit__(self, tuple pieces):
        cdef int i, j, k = 0, total = count_planes(pieces), nverts = 0
        self.n = len(pieces)
        for piece in pieces:
            nverts += len(piece._verts)
        self.bbox = <double*>malloc(4 * max(self.n, 1) * sizeof(double))
        self.poff = <int*>malloc((self.n + 1) * sizeof(int))
        self.planes = <double*>malloc(3 * max(total, 1) * sizeof(double))
        self.voff = <int*>malloc((self.n + 1) * sizeof(int))
        self.verts = <double*>malloc(2 * max(nverts, 1) * sizeof(double))
        if not (self.bbox and self.poff and self.planes and self.voff and self.verts):
            raise MemoryError()
        fill_convex(pieces, self.bbox, self.poff, self.planes)
        i = 0
        for piece in pieces:
            self.voff[i] = k
            for j in range(len(piece._verts)):
                self.verts[2 * (k + j)] = piece._verts[j][0]
                self.verts[2 * (k + j) + 1] = piece._verts[j][1]
            k += len(piece._verts)
            i += 1
        self.voff[i] = k

    def __dealloc__(self):
        free(self.bbox)
        free(self.poff)
        free(self.planes)
        free(self.voff)
        free(self.verts)

    cdef int near_boundary(self, int i, double x, double y, double lim) except -1:
        """``TerrainPiece._boundary_distance((x, y)) < lim`` for piece ``i`` (the smallest edge distance is below
        the limit exactly when one of them is)."""
        cdef int j, j0 = self.voff[i], j1 = self.voff[i + 1]
        cdef double ax = self.verts[2 * (j1 - 1)], ay = self.verts[2 * (j1 - 1) + 1], bx, by, ox, oy
        for j in range(j0, j1):
            bx = self.verts[2 * j]
            by = self.verts[2 * j + 1]
            segment_offset(ax, ay, bx, by, x, y, &ox, &oy)
            if _length(ox, oy, lim) < lim:
                return 1
            ax = bx
            ay = by
        return 0

    cdef int segment_clear(self, int i, double px, double py, double qx, double qy, double r) except -1:
        """``TerrainPiece._segment_clear((px, py), (qx, qy), r)`` for piece ``i``."""
        cdef double t0 = 0.0, t1 = 0.0, lim, ox, oy
        cdef int j
        if convex_clip(self.bbox, self.poff, self.planes, i, px, py, qx, qy, &t0, &t1):
            if r > 0.0 or t1 - t0 > T_EPS:
                return 0
        if r <= 0.0:
            return 1
        lim = r - CLEAR_TOL
        if self.near_boundary(i, px, py, lim) or self.near_boundary(i, qx, qy, lim):
            return 0
        for j in range(self.voff[i], self.voff[i + 1]):
            segment_offset(px, py, qx, qy, self.verts[2 * j], self.verts[2 * j + 1], &ox, &oy)
            if not (_length(ox, oy, lim) >= lim):
                return 0
        return 1

    cdef int clear(self, double px, double py, double qx, double qy, double grow, double margin) except -1:
        """``clear_of_solids`` of ``shortest_path``: every piece whose box comes within ``margin`` of the leg's
        box keeps clear of the leg, in the pieces' order."""
        cdef double lox = px if px < qx else qx, hix = px if px > qx else qx
        cdef double loy = py if py < qy else qy, hiy = py if py > qy else qy
        cdef const double* b
        cdef int i
        for i in range(self.n):
            b = self.bbox + 4 * i
            if b[2] < lox - margin or b[0] > hix + margin or b[3] < loy - margin or b[1] > hiy + margin:
                continue
            if not self.segment_clear(i, px, py, qx, qy, grow):
                return 0
        return 1


cdef class Circles:
    """The circles of one ``shortest_path`` call (``((cx, cy), radius)``, floats) as a C array, in their order."""

    cdef int n
    cdef double* c  # 3 per circle: x, y, radius

    def __cinit__(self, tuple circles):
        cdef int i = 0
        self.n = len(circles)
        self.c = <double*>malloc(3 * max(self.n, 1) * sizeof(double))
        if not self.c:
            raise MemoryError()
        for (cx, cy), rad in circles:
            self.c[3 * i] = cx
            self.c[3 * i + 1] = cy
            self.c[3 * i + 2] = rad
            i += 1

    def __dealloc__(self):
        free(self.c)

    cdef int clear(self, double px, double py, double qx, double qy) except -1:
        """The circle loop of ``shortest_path``'s ``clear``: the leg keeps at least each radius (less
        ``CLEAR_TOL``) from each centre."""
        cdef double lox = px if px < qx else qx, hix = px if px > qx else qx
        cdef double loy = py if py < qy else qy, hiy = py if py > qy else qy
        cdef double cx, cy, lim, ox, oy
        cdef int i
        for i in range(self.n):
            cx = self.c[3 * i]
            cy = self.c[3 * i + 1]
            lim = self.c[3 * i + 2] - CLEAR_TOL
            if cx + lim < lox or cx - lim > hix or cy + lim < loy or cy - lim > hiy:
                continue
            segment_offset(px, py, qx, qy, cx, cy, &ox, &oy)
            if _length(ox, oy, lim) < lim:
                return 0
        return 1


def solids_clear(Solids solids, double px, double py, double qx, double qy, double grow, double margin):
    """Whether the leg keeps clear of the solids (``clear_of_solids``)."""
    return solids.clear(px, py, qx, qy, grow, margin) == 1


def circles_clear(Circles circles, double px, double py, double qx, double qy):
    """Whether the leg keeps clear of the circles (the circle loop of ``clear``)."""
    return circles.clear(px, py, qx, qy) == 1


def leg_clear(Solids solids, Circles circles, double px, double py, double qx, double qy, double grow,
              double margin):
    """Whether the leg keeps clear of the solids, then of the circles (``clear`` for a leg not memoised)."""
    return solids.clear(px, py, qx, qy, grow, margin) == 1 and circles.clear(px, py, qx, qy) == 1


cdef int _off_bases(Circles circles, double x, double y) except -1:
    """``off_bases`` of ``shortest_path``: the point is at least each radius (less ``CLEAR_TOL``) from each centre."""
    cdef int i
    cdef double lim
    for i in range(circles.n):
        lim = circles.c[3 * i + 2] - CLEAR_TOL
        if _length(x - circles.c[3 * i], y - circles.c[3 * i + 1], lim) < lim:
            return 0
    return 1


cdef int _overlaps(Solids solids, int i, double x, double y, double r) except -1:
    """``TerrainPiece.circle_overlaps((x, y), r)`` for piece ``i``."""
    cdef const double* b = solids.bbox + 4 * i
    if x < b[0] - r or x > b[2] + r or y < b[1] - r or y > b[3] + r:
        return 0
    if convex_contains(solids.bbox, solids.poff, solids.planes, i, x, y):
        return 1
    return solids.near_boundary(i, x, y, r)


def route_nodes(Solids solids, Circles circles, list walk_nodes, tuple a, tuple b, double grow, double width,
                double depth, double grow_factor, double cos_pi_8, tuple octagon):
    """The candidate nodes of ``shortest_path`` with circles: ``a``, ``b``, the walk graph's corners off every
    base, then each base's octagon corners that are on the table, clear of the solids and off every base."""
    cdef list nodes = [a, b]
    cdef double x, y, ox, oy, orad, rr, ux, uy, lim_r = grow - CLEAR_TOL
    cdef int i, j, k
    cdef bint ok
    for node in walk_nodes:
        x, y = node
        if _off_bases(circles, x, y):
            nodes.append(node)
    for i in range(circles.n):
        ox = circles.c[3 * i]
        oy = circles.c[3 * i + 1]
        orad = circles.c[3 * i + 2]
        rr = grow_factor * orad / cos_pi_8 if orad > 0.0 else 1e-4
        for k in range(len(octagon)):
            ux, uy = octagon[k]
            x = ox + rr * ux
            y = oy + rr * uy
            # Table.on_table(node, grow)
            if not (x - grow >= -1e-9 and x + grow <= width + 1e-9 and y - grow >= -1e-9 and y + grow <= depth + 1e-9):
                continue
            ok = True
            for j in range(solids.n):
                if lim_r > 0.0:
                    if _overlaps(solids, j, x, y, lim_r):
                        ok = False
                        break
                elif convex_contains(solids.bbox, solids.poff, solids.planes, j, x, y):
                    ok = False
                    break
            if ok and _off_bases(circles, x, y):
                nodes.append((x, y))
    return nodes
