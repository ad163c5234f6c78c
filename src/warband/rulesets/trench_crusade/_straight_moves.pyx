# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of :func:`warband.rulesets.trench_crusade.space._move_candidates`' candidate loop.

The reference (and the fallback when this extension is not built, or when ``WARBAND_PURE=1``) is the Python loop in
``space._move_candidates``: for every raw point, full distance then 60%, round to 0.01", skip what is within the
candidate spacing of the start or of a kept point, and keep the first one whose straight ``plan_move`` (mode
"move", seed 000 Move; digest §7) succeeds. This module runs the same arithmetic on C arrays, operation for
operation in the same order (IEEE doubles; built without -ffast-math and with -ffp-contract=off), so every pure
comparison gives the Python answer. Two things are not bit-for-bit the same: ``math.hypot`` (CPython's own
algorithm, here libm's ``hypot``) and everything derived from it (a trace's length and cost, a base's distance to
a footprint, the reach). Where such a value is within ``_MARGIN`` of the threshold it is compared with, and where
a rule path is rare and long (quick_ok refused, a jump between platforms), the candidate is handed to the Python
reference (``ask``), so the answer is always the reference's.

The same loop object answers a Charge's ring in ``charge_spots._charge_spots`` (seed 000 Charge; digest §7): built with no
engagement circles (a Charge may end within 1" of enemies), ``charge_ring`` is ``check_destination`` of each ring
point and ``charge_straight`` the straight ``_plan_move`` to one, with its cost and end height; that cost is kept
(it orders the spots), so its line length is CPython's ``math.hypot``, and the whole sum is the reference's.
"""

from libc.math cimport copysign, fabs, floor, hypot, isfinite
from libc.stdlib cimport free, malloc, realloc

from warband.kernel.geometry._convex cimport convex_clip, convex_contains, segment_offset

cdef extern from *:
    """
    #ifndef WARBAND_SRC_SHA
    #define WARBAND_SRC_SHA "unknown"
    #endif
    """
    const char* WARBAND_SRC_SHA

cdef extern from *:
    """
    #include <math.h>
    /* libm's pow through a pointer, as CPython's float ** calls it: the compiler may not fold pow(x, 2.0) into x * x */
    static double (*volatile warband_pow)(double, double) = pow;
    """
    double warband_pow(double, double) noexcept

#: sha256 of this source at build time (the loader refuses a build of another source)
SOURCE_SHA = WARBAND_SRC_SHA.decode("ascii")

import builtins

_py_round = builtins.round
import math

_py_hypot = math.hypot

cdef double EPS = 1e-9
cdef double _MARGIN = 1e-9  # libm hypot vs CPython's: at most a few ulps (~1e-14 here) apart
cdef double _QUICK_REL = 1e-9  # quick_ok's squared distances vs the slow path's hypot


def set_margins(double hypot_margin, double quick_rel):
    """Widen (tests: every near decision goes to the Python reference) or restore (1e-9, 1e-9) the margins."""
    global _MARGIN, _QUICK_REL
    _MARGIN = hypot_margin
    _QUICK_REL = quick_rel

cdef enum:
    K_OTHER = 0
    K_DIFFICULT = 1
    K_PLATFORM = 2
    K_IMPASSABLE = 3

cdef enum:
    NO = 0
    YES = 1
    ASK = 2


cdef inline double round2(double x, bint* ok) noexcept:
    """``round(x, 2)`` as CPython computes it (the exact binary value rounded to the nearest multiple of 0.01,
    then the nearest double of that decimal: ``n / 100.0``, a correctly rounded division of an integer), when
    ``x * 100`` is clearly off a half (its rounding error is < 1e-11 on a table); else ``ok`` is set False."""
    cdef double y = x * 100.0, f, frac
    if not isfinite(y) or fabs(y) > 1e7:
        ok[0] = False
        return 0.0
    f = floor(y)
    frac = y - f
    if fabs(frac - 0.5) <= 1e-6:
        ok[0] = False
        return 0.0
    if frac > 0.5:
        f += 1.0
    if f == 0.0:
        return copysign(0.0, x)
    return f / 100.0


def round_2(double x):
    """:func:`round2` as Python sees it (Python's own ``round`` where it asks): for the property test."""
    cdef bint ok = True
    cdef double got = round2(x, &ok)
    return got if ok else _py_round(x, 2)


cdef class Terrain:
    """A table's terrain as C arrays (built once per table and obstacle-free height; see ``space._terrain``)."""

    cdef int n
    cdef double width, depth
    cdef double* bbox      # 4 per piece
    cdef int* poff         # plane/vertex offsets, n + 1
    cdef double* planes    # 3 per plane
    cdef double* verts     # 2 per vertex
    cdef int* kind
    cdef double* height
    cdef char* ctx_solid   # in ctx.solid_pieces (impassable, blocking): a base may not stand on it
    cdef char* walk_solid  # in _walk_solids before the start platform is dropped

    def __cinit__(self, double width, double depth, list pieces, list ctx_solid, list walk_solid):
        cdef int i, j, k, total = 0
        self.n = len(pieces)
        self.width = width
        self.depth = depth
        for piece in pieces:
            total += len(piece._planes)
        self.bbox = <double*>malloc(4 * max(self.n, 1) * sizeof(double))
        self.poff = <int*>malloc((self.n + 1) * sizeof(int))
        self.planes = <double*>malloc(3 * max(total, 1) * sizeof(double))
        self.verts = <double*>malloc(2 * max(total, 1) * sizeof(double))
        self.kind = <int*>malloc(max(self.n, 1) * sizeof(int))
        self.height = <double*>malloc(max(self.n, 1) * sizeof(double))
        self.ctx_solid = <char*>malloc(max(self.n, 1))
        self.walk_solid = <char*>malloc(max(self.n, 1))
        if not (self.bbox and self.poff and self.planes and self.verts and self.kind and self.height
                and self.ctx_solid and self.walk_solid):
            raise MemoryError()
        k = 0
        for i in range(self.n):
            piece = pieces[i]
            for j in range(4):
                self.bbox[4 * i + j] = piece.bbox[j]
            self.poff[i] = k
            if len(piece._verts) != len(piece._planes):
                raise ValueError("a piece's vertices and planes differ in number")
            for j in range(len(piece._planes)):
                self.planes[3 * (k + j)] = piece._planes[j][0]
                self.planes[3 * (k + j) + 1] = piece._planes[j][1]
                self.planes[3 * (k + j) + 2] = piece._planes[j][2]
                self.verts[2 * (k + j)] = piece._verts[j][0]
                self.verts[2 * (k + j) + 1] = piece._verts[j][1]
            k += len(piece._planes)
            kd = piece.kind
            self.kind[i] = (K_DIFFICULT if kd == "difficult" else K_PLATFORM if kd == "platform"
                            else K_IMPASSABLE if kd == "impassable" else K_OTHER)
            self.height[i] = piece.height
            self.ctx_solid[i] = 1 if ctx_solid[i] else 0
            self.walk_solid[i] = 1 if walk_solid[i] else 0
        self.poff[self.n] = k

    def __dealloc__(self):
        free(self.bbox)
        free(self.poff)
        free(self.planes)
        free(self.verts)
        free(self.kind)
        free(self.height)
        free(self.ctx_solid)
        free(self.walk_solid)

    cdef bint contains(self, int i, double x, double y) noexcept:
        """TerrainPiece.contains."""
        return convex_contains(self.bbox, self.poff, self.planes, i, x, y)

    cdef bint clip(self, int i, double ax, double ay, double bx, double by, double* t0out, double* t1out) noexcept:
        """TerrainPiece.clip: False for None, else the interval in ``t0out``, ``t1out``."""
        return convex_clip(self.bbox, self.poff, self.planes, i, ax, ay, bx, by, t0out, t1out)

    cdef double boundary_distance(self, int i, double x, double y) noexcept:
        """TerrainPiece._boundary_distance, with libm's hypot (compare it with a margin)."""
        cdef int s = self.poff[i], e = self.poff[i + 1], j
        cdef double best = 1e300, ax, ay, bx, by, px, py, d
        ax = self.verts[2 * (e - 1)]
        ay = self.verts[2 * (e - 1) + 1]
        for j in range(s, e):
            bx = self.verts[2 * j]
            by = self.verts[2 * j + 1]
            segment_offset(ax, ay, bx, by, x, y, &px, &py)
            d = hypot(px, py)
            if d < best:
                best = d
            ax = bx
            ay = by
        return best


cdef class _Buf:
    """A growable array of doubles."""

    cdef double* data
    cdef int size, cap

    def __cinit__(self):
        self.cap = 64
        self.size = 0
        self.data = <double*>malloc(self.cap * sizeof(double))
        if not self.data:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef void reserve(self, int n) except *:
        cdef double* grown
        if n > self.cap:
            grown = <double*>realloc(self.data, n * sizeof(double))
            if not grown:
                raise MemoryError()
            self.data = grown
            self.cap = n


cdef class Candidates:
    """One call of the candidate loop: the moving model and what its move is checked against (``MoveEnv``)."""

    cdef Terrain terrain
    cdef double mx, my, mz, r, allowance, extra, free, reach
    cdef int start_platform
    cdef _Buf bases, near, circles, crossings
    cdef int nbases, nnear, ncircles
    cdef object ask

    def __cinit__(self, Terrain terrain, double mx, double my, double mz, double r, double allowance,
                  double extra, double free, int start_platform, list bases, list near, list circles, object ask):
        cdef int i
        self.terrain = terrain
        self.mx = mx
        self.my = my
        self.mz = mz
        self.r = r
        self.allowance = allowance
        self.extra = extra
        self.free = free
        self.reach = allowance + 1e-6
        self.start_platform = start_platform
        self.ask = ask
        self.bases = _Buf()
        self.near = _Buf()
        self.circles = _Buf()
        self.crossings = _Buf()
        self.nbases = len(bases)
        self.bases.reserve(3 * self.nbases)
        for i in range(self.nbases):
            ox, oy, lim2 = bases[i]
            self.bases.data[3 * i] = ox
            self.bases.data[3 * i + 1] = oy
            self.bases.data[3 * i + 2] = lim2
        self.nnear = len(near)
        self.near.reserve(4 * self.nnear)
        for i in range(self.nnear):
            ex, ey, lim2, engaged = near[i]
            self.near.data[4 * i] = ex
            self.near.data[4 * i + 1] = ey
            self.near.data[4 * i + 2] = lim2
            self.near.data[4 * i + 3] = 1.0 if engaged else 0.0
        self.ncircles = len(circles)
        self.circles.reserve(3 * self.ncircles)
        for i in range(self.ncircles):
            (cx, cy), cr = circles[i]
            self.circles.data[3 * i] = cx
            self.circles.data[3 * i + 1] = cy
            self.circles.data[3 * i + 2] = cr
        self.crossings.reserve(3 * max(terrain.n, 1))

    cdef int quick_ok(self, double x, double y) noexcept:
        """MoveEnv.quick_ok (mode "move"): YES when it passes (check_destination then finds nothing), NO when a
        test fails clearly (the slow path finds the same reason), ASK when one fails only within rounding."""
        cdef int i
        cdef double dx, dy, d2, lim2
        cdef double* b
        cdef bint ok = True, clear_fail = False
        for i in range(self.nbases):
            b = self.bases.data + 3 * i
            dx = x - b[0]
            dy = y - b[1]
            d2 = dx * dx + dy * dy
            if d2 < b[2]:
                ok = False
                if d2 < b[2] * (1.0 - _QUICK_REL) - 1e-12:
                    clear_fail = True
        for i in range(self.nnear):
            b = self.near.data + 4 * i
            dx = x - b[0]
            dy = y - b[1]
            d2 = dx * dx + dy * dy
            if (d2 <= b[2]) != (b[3] != 0.0):
                ok = False
                if fabs(d2 - b[2]) > b[2] * _QUICK_REL + 1e-12:
                    clear_fail = True
        if ok:
            return YES
        return NO if clear_fail else ASK

    cdef int plan_ok(self, double x, double y) except -1:
        """``isinstance(plan_move(state, m, (x, y), allowance, straight=True, env=env), MovePlan)``."""
        cdef double total = 0.0, end_z = 0.0
        cdef int q = self.destination_ok(x, y)
        if q != YES:
            return q
        return self.straight_plan(x, y, False, &total, &end_z)

    cdef int destination_ok(self, double x, double y) except -1:
        """``not check_destination(state, m, (x, y), mode, env)``: YES, NO, or ASK (the reference must say)."""
        cdef Terrain t = self.terrain
        cdef int i, n = t.n
        cdef double r = self.r, d
        cdef double* b
        # check_destination: the table edge, solid terrain under the base, the bases and the engagement rule
        if not (x - r >= -EPS and x + r <= t.width + EPS and y - r >= -EPS and y + r <= t.depth + EPS):
            return NO
        for i in range(n):
            if not t.ctx_solid[i]:
                continue
            b = t.bbox + 4 * i
            if x < b[0] - r or x > b[2] + r or y < b[1] - r or y > b[3] + r:
                continue
            if t.contains(i, x, y):
                return NO
            d = t.boundary_distance(i, x, y)
            if fabs(d - r) <= _MARGIN:
                return ASK
            if d < r:
                return NO
        return self.quick_ok(x, y)

    cdef int straight_plan(self, double x, double y, bint exact, double* total_out, double* end_z_out) except -1:
        """``_plan_move(state, m, (x, y), allowance, mode, None, straight=True, env, ..., checked=True)``: YES
        (its cost and end height in ``total_out``, ``end_z_out``), NO (a reason), ASK (the reference must say).
        ``exact``: the line's length is CPython's ``math.hypot`` (a cost the caller keeps), not libm's."""
        cdef Terrain t = self.terrain
        cdef int i, n = t.n, end_platform = -1, ncross = 0, j, k
        cdef double t0, t1, end_z = 0.0, length, cost, dz, climb, total, limit
        cdef double lox, hix, loy, hiy, ax = self.mx, ay = self.my, dx, dy, length2, cx, cy, cr, tt, ex, ey, lim
        cdef double lo, hi, tot, s0, s1
        cdef double* b
        cdef double* cr_ = self.crossings.data
        cdef bint open_
        # _plan_move: the platform under the end (the tallest containing it, the first of equals)
        for i in range(n):
            if t.kind[i] == K_PLATFORM and t.contains(i, x, y) and (end_platform < 0 or t.height[i] > t.height[end_platform]):
                end_platform = i
        if end_platform >= 0:
            end_z = t.height[end_platform]
        # _straight_clear over the walk solids but the end platform
        lox, hix = (ax, x) if ax < x else (x, ax)
        loy, hiy = (ay, y) if ay < y else (y, ay)
        for i in range(n):
            if not t.walk_solid[i] or i == end_platform or i == self.start_platform:
                continue  # (the start platform is dropped from the walk solids, the end one per destination)
            b = t.bbox + 4 * i
            if b[0] > hix or b[2] < lox or b[1] > hiy or b[3] < loy:
                continue
            if t.clip(i, ax, ay, x, y, &t0, &t1) and t1 - t0 > 1e-9:
                return NO  # plan_move(straight=True): "the straight line is blocked"
        # clear_of_circles
        dx = x - ax
        dy = y - ay
        length2 = dx * dx + dy * dy
        for i in range(self.ncircles):
            cx = self.circles.data[3 * i]
            cy = self.circles.data[3 * i + 1]
            cr = self.circles.data[3 * i + 2]
            if cx + cr < lox or cx - cr > hix or cy + cr < loy or cy - cr > hiy:
                continue
            tt = 0.0 if length2 == 0.0 else ((cx - ax) * dx + (cy - ay) * dy) / length2
            tt = 0.0 if tt < 0.0 else 1.0 if tt > 1.0 else tt
            ex = ax + tt * dx - cx
            ey = ay + tt * dy - cy
            lim = cr - 1e-9
            if ex * ex + ey * ey < lim * lim:
                return NO
        # a jump between platforms: the reference measures the open gap (rare; its sum is Python's)
        dz = end_z - self.mz
        if self.mz > self.free and end_z > self.free and fabs(dz) <= self.free + 1e-9 and self.start_platform != end_platform:
            return ASK
        # Table.trace: the crossings sorted by entry (ties in terrain order), the union of the difficult ones
        length = <double>_py_hypot(dx, dy) if exact else hypot(dx, dy)
        for i in range(n):
            b = t.bbox + 4 * i
            if b[2] < lox - EPS or b[0] > hix + EPS or b[3] < loy - EPS or b[1] > hiy + EPS:
                continue
            if t.clip(i, ax, ay, x, y, &t0, &t1):
                s0 = t0 * length
                s1 = t1 * length
                # insertion after every entry with s0 <= this one: a stable sort by s0
                j = ncross
                while j > 0 and cr_[3 * (j - 1)] > s0:
                    cr_[3 * j] = cr_[3 * (j - 1)]
                    cr_[3 * j + 1] = cr_[3 * (j - 1) + 1]
                    cr_[3 * j + 2] = cr_[3 * (j - 1) + 2]
                    j -= 1
                cr_[3 * j] = s0
                cr_[3 * j + 1] = s1
                cr_[3 * j + 2] = 1.0 if t.kind[i] == K_DIFFICULT else 0.0
                ncross += 1
        cost = length
        if ncross:
            tot = 0.0
            lo = hi = 0.0
            open_ = False
            for k in range(ncross):
                if cr_[3 * k + 2] == 0.0:
                    continue
                s0 = cr_[3 * k]
                s1 = cr_[3 * k + 1]
                if open_ and s0 <= hi:
                    if s1 > hi:
                        hi = s1
                    continue
                if open_:
                    tot += hi - lo
                lo = s0
                hi = s1
                open_ = True
            if open_:
                tot += hi - lo
            cost += self.extra * tot
        climb = (dz if dz > self.free + 1e-9 else 0.0) + 0.0
        total = cost + climb
        limit = self.allowance + 1e-6
        if fabs(total - limit) <= _MARGIN and not exact:
            return ASK  # libm's length: the reference decides
        total_out[0] = total
        end_z_out[0] = end_z
        return NO if total > limit else YES

    def charge_ring(self, list ring):
        """``not check_destination(state, m, p, "charge", env)`` of each ring point (this loop built with no
        engagement circles: a Charge has no engagement rule for its end): True, False, or None (the reference
        must say)."""
        cdef list out = []
        cdef int v
        for p in ring:
            v = self.destination_ok(p[0], p[1])
            out.append(True if v == YES else False if v == NO else None)
        return out

    def charge_straight(self, double x, double y):
        """The straight plan of a charge to ``(x, y)``, a ring point that passed ``check_destination``
        (``_plan_move(..., "charge", None, True, env, False, checked=True)``): ``(cost, end_z)`` of the plan,
        False (no plan: a reason), or None (the reference must say)."""
        cdef double total = 0.0, end_z = 0.0
        cdef int v = self.straight_plan(x, y, True, &total, &end_z)
        if v == YES:
            return (total, end_z)
        return False if v == NO else None

    def run(self, list raw, double spacing2):
        """The candidate loop over ``raw`` points (see the module docstring): the kept candidates, in order."""
        cdef list out = []
        cdef _Buf kept = _Buf()
        cdef int nkept = 0, i, verdict
        cdef double rx, ry, cx, cy, mx = self.mx, my = self.my, shrink, d
        cdef bint near_any, ok
        kept.reserve(2 * len(raw) + 2)
        for p in raw:
            rx = p[0]
            ry = p[1]
            for shrink in (1.0, 0.6):
                ok = True
                cx = round2(mx + (rx - mx) * shrink, &ok)  # as _r2
                cy = round2(my + (ry - my) * shrink, &ok)
                if not ok:  # a half (or out of range): Python's round
                    cx = _py_round(mx + (rx - mx) * shrink, 2)
                    cy = _py_round(my + (ry - my) * shrink, 2)
                if warband_pow(fabs(cx - mx), 2.0) + warband_pow(fabs(cy - my), 2.0) < spacing2:
                    break
                near_any = False
                for i in range(nkept):
                    if warband_pow(fabs(cx - kept.data[2 * i]), 2.0) + warband_pow(fabs(cy - kept.data[2 * i + 1]), 2.0) < spacing2:
                        near_any = True
                        break
                if near_any:
                    break
                if not (cx - self.r >= -EPS and cx + self.r <= self.terrain.width + EPS
                        and cy - self.r >= -EPS and cy + self.r <= self.terrain.depth + EPS):
                    continue
                d = hypot(cx - mx, cy - my)
                if fabs(d - self.reach) <= _MARGIN:
                    verdict = ASK
                elif d > self.reach:
                    continue
                else:
                    verdict = self.plan_ok(cx, cy)
                if verdict == ASK:
                    verdict = YES if self.ask((cx, cy)) else NO
                if verdict == YES:
                    out.append((cx, cy))
                    kept.data[2 * nkept] = cx
                    kept.data[2 * nkept + 1] = cy
                    nkept += 1
                    break
        return out
