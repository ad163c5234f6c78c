# cython: language_level=3
"""Convex terrain pieces on C arrays, shared by the compiled fast paths (``cimport``-ed, inlined into each).

A table's convex pieces are laid out as ``bbox`` (4 doubles a piece: x0, y0, x1, y1), ``poff`` (n + 1 plane
offsets) and ``planes`` (3 doubles a plane: a, b, c with a*x + b*y <= c inside), the layout of
``kernel.geometry.terrain.TerrainPiece`` (its ``bbox`` and ``_planes``). The tests ``contains`` and ``clip`` are
that class's methods step for step (same tolerances, same order of operations), so they give its answers to the
bit; the extensions that use them are checked against the Python by property tests.
"""

# TerrainPiece's tolerances (kernel/geometry/terrain.py): EPS for "inside", CLIP_EPS for a clipped line's ends
cdef extern from *:
    """
    #define WARBAND_CONVEX_EPS 1e-9
    #define WARBAND_CONVEX_CLIP_EPS 1e-12
    """
    const double CONVEX_EPS "WARBAND_CONVEX_EPS"
    const double CONVEX_CLIP_EPS "WARBAND_CONVEX_CLIP_EPS"


cdef inline int count_planes(object pieces) except -1:
    """How many planes the pieces have in all (the size of ``planes`` / 3)."""
    cdef int total = 0
    for piece in pieces:
        total += len(piece._planes)
    return total


cdef inline int fill_convex(object pieces, double* bbox, int* poff, double* planes) except -1:
    """Copy each piece's box and planes into the arrays (sized by the caller: 4n, n + 1, 3 * count_planes)."""
    cdef int i = 0, j, k = 0
    for piece in pieces:
        for j in range(4):
            bbox[4 * i + j] = piece.bbox[j]
        poff[i] = k
        for j in range(len(piece._planes)):
            planes[3 * (k + j)] = piece._planes[j][0]
            planes[3 * (k + j) + 1] = piece._planes[j][1]
            planes[3 * (k + j) + 2] = piece._planes[j][2]
        k += len(piece._planes)
        i += 1
    poff[i] = k
    return 0


cdef inline bint convex_contains(const double* bbox, const int* poff, const double* planes, int i,
                                 double x, double y) noexcept:
    """TerrainPiece.contains for piece ``i``."""
    cdef const double* b = bbox + 4 * i
    cdef const double* pl
    cdef int j
    if x < b[0] - CONVEX_EPS or x > b[2] + CONVEX_EPS or y < b[1] - CONVEX_EPS or y > b[3] + CONVEX_EPS:
        return False
    for j in range(poff[i], poff[i + 1]):
        pl = planes + 3 * j
        if pl[0] * x + pl[1] * y - pl[2] > CONVEX_EPS:
            return False
    return True


cdef inline bint convex_clip(const double* bbox, const int* poff, const double* planes, int i,
                             double ax, double ay, double bx, double by, double* t0out, double* t1out) noexcept:
    """TerrainPiece.clip for piece ``i``: False for None, else the interval of ``a -> b`` inside it."""
    cdef const double* b = bbox + 4 * i
    cdef const double* pl
    cdef double dx, dy, t0, t1, num, den, t
    cdef int j
    if (ax < b[0] - CONVEX_EPS and bx < b[0] - CONVEX_EPS) or (ax > b[2] + CONVEX_EPS and bx > b[2] + CONVEX_EPS):
        return False
    if (ay < b[1] - CONVEX_EPS and by < b[1] - CONVEX_EPS) or (ay > b[3] + CONVEX_EPS and by > b[3] + CONVEX_EPS):
        return False
    dx = bx - ax
    dy = by - ay
    t0 = 0.0
    t1 = 1.0
    for j in range(poff[i], poff[i + 1]):
        pl = planes + 3 * j
        num = pl[2] + CONVEX_CLIP_EPS - pl[0] * ax - pl[1] * ay
        den = pl[0] * dx + pl[1] * dy
        if den > 0.0:
            t = num / den
            if t < t1:
                if t < t0:
                    return False
                t1 = t
        elif den < 0.0:
            t = num / den
            if t > t0:
                if t > t1:
                    return False
                t0 = t
        elif num < 0.0:
            return False
    t0out[0] = t0
    t1out[0] = t1
    return True


cdef inline void segment_offset(double ax, double ay, double bx, double by, double x, double y,
                                double* ox, double* oy) noexcept:
    """The vector from the point of segment ``a -> b`` nearest to ``(x, y)`` to ``(x, y)``, as
    ``kernel.geometry.distance.segment_point_distance`` computes it before its ``hypot`` (same operations in the
    same order, so the same bits)."""
    cdef double dx = bx - ax, dy = by - ay, px = x - ax, py = y - ay, den, t
    den = dx * dx + dy * dy
    if den > 0.0:
        t = (px * dx + py * dy) / den
        if t > 1.0:
            t = 1.0
        elif t < 0.0:
            t = 0.0
        px -= t * dx
        py -= t * dy
    ox[0] = px
    oy[0] = py
