# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of :func:`warband.rulesets.trenches_and_turbines.spots.spot_problem` while the models stand
still (inside ``spots.frozen_models``, the destination and placement searches).

The reference (and the fallback when this extension is not built, when ``WARBAND_PURE=1``, or outside a frozen
block) is the Python function: the table's edge, the impassable pieces, the bases of the other models and of the
models already placed (seed 002, Move: on the table, never inside impassable terrain or another base, at least 1"
from enemy models). This module runs the same arithmetic in the same order on C arrays of the frozen models (their
x-sorted index, the window of ``FrozenModels.near`` walked in the state's order), so the same first problem is
found; built without -ffast-math and with -ffp-contract=off. A distance of ``math.hypot`` (CPython's own
algorithm, not libm's) that lies within ``_MARGIN`` of a threshold is asked of CPython's ``math.hypot``. A piece
whose box the base reaches is asked of the piece itself (``circle_overlaps``), like the reference.

``SpotIndex.fits`` is the common case of :func:`warband.rulesets.trenches_and_turbines.paths.fits` (the reference):
the spot check above, then a straight leg from the ground whose box stays clear of every piece's grown box
(``paths._open_ground``) with no enemy near enough for a zone round it (``paths.enemy_zones``): it costs its
length. Any other leg is answered :data:`ASK` and the caller asks ``paths.move_cost`` (traces, heights, zones,
routes stay Python). ``SpotIndex.place_followers`` and ``SpotIndex.first_slot`` run that check for the followers of
a unit move (``unit_moves._place_leader_and_followers`` and ``_follower_spot``, their reference): each follower's
place in the formation, then the slots round the leader nearest it first, handing back to Python where the leg
needs ``move_cost``.
"""

import math

from libc.math cimport fabs, hypot
from libc.stdlib cimport free, malloc

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

#: ``SpotIndex.fits``: the spot is free but the leg is not a plain one (the caller asks ``paths.move_cost``)
ASK = object()

cdef double _MARGIN = 1e-9  # libm hypot vs CPython's: at most a few ulps (~1e-14 here) apart


def set_margin(double margin):
    """Widen (tests: every distance near its threshold is CPython's) or restore (1e-9) the margin."""
    global _MARGIN
    _MARGIN = margin


cdef class SpotIndex:
    """One frozen state's models (``FrozenModels``: sorted by x) and its table's solid pieces as C arrays."""

    cdef int n
    cdef double* xs        # sorted by x, as FrozenModels.xs
    cdef double* ys
    cdef double* rs
    cdef int* order        # the state's order of each slot
    cdef int* win          # scratch: the slots of one window
    cdef list ids, sides, units
    cdef double max_radius
    cdef int nsolid
    cdef double* sbox      # 4 per solid piece
    cdef int* sidei        # each slot's side (an int, as Model.side)
    cdef int nopen
    cdef double* obox      # 4 per piece of the table: its box grown by OPEN_SLACK (Context.open_boxes)
    cdef tuple solid
    cdef double width, depth, eps

    def __cinit__(self, list every, tuple solid, double width, double depth, double eps, tuple open_boxes=()):
        """``every``: the state's models in its order (``state.models.values()``); those on the table are kept,
        sorted by x and then by that order, as ``FrozenModels.index`` sorts them."""
        cdef int i, j, k, t
        cdef double x, r
        on = [(k, m) for k, m in enumerate(every) if m.on_table]
        self.n = len(on)
        self.nsolid = len(solid)
        self.nopen = len(open_boxes)
        self.sidei = <int*>malloc(max(self.n, 1) * sizeof(int))
        self.obox = <double*>malloc(4 * max(self.nopen, 1) * sizeof(double))
        if not (self.sidei and self.obox):
            raise MemoryError()
        self.xs = <double*>malloc(max(self.n, 1) * sizeof(double))
        self.ys = <double*>malloc(max(self.n, 1) * sizeof(double))
        self.rs = <double*>malloc(max(self.n, 1) * sizeof(double))
        self.order = <int*>malloc(max(self.n, 1) * sizeof(int))
        self.win = <int*>malloc(max(self.n, 1) * sizeof(int))
        self.sbox = <double*>malloc(4 * max(self.nsolid, 1) * sizeof(double))
        if not (self.xs and self.ys and self.rs and self.order and self.win and self.sbox):
            raise MemoryError()
        # a stable insertion sort by x of the models on the table (``win`` as scratch: their places in ``on``),
        # so equal x keep the state's order
        for t in range(self.n):
            x = on[t][1].x
            self.xs[t] = x
            j = t
            while j > 0 and self.xs[self.win[j - 1]] > x:
                self.win[j] = self.win[j - 1]
                j -= 1
            self.win[j] = t
        xs_sorted = [self.xs[self.win[t]] for t in range(self.n)]
        self.ids = []
        self.sides = []
        self.units = []
        self.max_radius = 0.0
        for i in range(self.n):
            k, m = on[self.win[i]]
            self.xs[i] = xs_sorted[i]
            self.ys[i] = m.y
            r = m.radius
            self.rs[i] = r
            if i == 0 or r > self.max_radius:
                self.max_radius = r
            self.order[i] = k
            self.sidei[i] = m.side
            self.ids.append(m.id)
            self.sides.append(m.side)
            self.units.append(m.unit)
        self.solid = solid
        for i in range(self.nsolid):
            x0, y0, x1, y1 = solid[i].bbox
            self.sbox[4 * i] = x0
            self.sbox[4 * i + 1] = y0
            self.sbox[4 * i + 2] = x1
            self.sbox[4 * i + 3] = y1
        for i in range(self.nopen):
            x0, y0, x1, y1 = open_boxes[i]
            self.obox[4 * i] = x0
            self.obox[4 * i + 1] = y0
            self.obox[4 * i + 2] = x1
            self.obox[4 * i + 3] = y1
        self.width = width
        self.depth = depth
        self.eps = eps

    def __dealloc__(self):
        free(self.xs)
        free(self.ys)
        free(self.rs)
        free(self.order)
        free(self.win)
        free(self.sbox)
        free(self.sidei)
        free(self.obox)

    def problem(self, str mid, double mr, object mside, object p, object placed, object moving, double enemy_gap,
                object ignore_unit, object models):
        """``spots.spot_problem`` for a model ``mid`` of radius ``mr`` and side ``mside`` at ``p``: None or
        (kind, the piece or model in the way)."""
        return self._problem(mid, mr, mside, p, placed, moving, enemy_gap, ignore_unit, models)

    def fits(self, str mid, double mr, int mside, double mx, double my, double mz, object p, object placed,
             object moving, double enemy_gap, object ignore_unit, object models, double allow):
        """``paths.fits`` for the model ``mid`` (radius ``mr``, side ``mside``) standing at ``mx, my`` (height
        ``mz``) going to ``p`` with ``allow`` inches and zones of ``enemy_gap`` round enemies: None (the spot is
        taken, or the straight leg costs more than ``allow``), the leg's cost (its length: from the ground, clear
        of every piece's box, no enemy zone within reach), or :data:`ASK` (the spot is free; ``paths.move_cost``
        must price the leg)."""
        return self._fits(mid, mr, mside, mx, my, mz, p[0], p[1], p, placed, moving, enemy_gap, ignore_unit, models,
                          allow)

    def place_followers(self, list followers, double dest_x, double dest_y, double lead_x, double lead_y,
                        object placed, object moving, object stragglers, double enemy_gap, object models,
                        double allow):
        """``unit_moves._place_leader_and_followers`` for its first followers (in order) whose place in the
        formation (where they stand moved as the leader moves from ``lead_x, lead_y`` to ``dest_x, dest_y``,
        computed as the reference does) is free and reached by a
        plain straight leg (:meth:`fits` answers its cost): each goes into ``placed`` at that place, on the ground
        (the leg's box clear of every piece's grown box: no platform holds its end). Stops at the first follower
        that is a straggler (in ``stragglers``) or whose place needs more (taken, too far, or :data:`ASK`) and
        returns how many were placed: the caller places the rest (``unit_moves._follower_spot``)."""
        cdef int k = 0
        cdef double mx, my, wx, wy
        for m in followers:
            mid = m.id
            if mid in stragglers:
                return k
            mx = m.x
            my = m.y
            wx = mx + dest_x - lead_x  # (m.x + dest[0]) - lead.x, as _follower_spot
            wy = my + dest_y - lead_y
            want = (wx, wy)
            got = self._fits(mid, m.radius, m.side, mx, my, m.z, wx, wy, want, placed, moving, enemy_gap, "", models,
                             allow)
            if got is None or got is ASK:
                return k
            placed[mid] = (wx, wy, 0.0)
            k += 1
        return k

    def first_slot(self, object m, list slots, double wx, double wy, int start, object placed, object moving,
                   double enemy_gap, object models, double allow):
        """``unit_moves._follower_spot``'s search of the slots round the leader for the follower ``m`` whose place
        in the formation is ``wx, wy``: the slots nearest that place first (``math.hypot``, CPython's; a stable
        order, equally near slots in their ring order), from the ``start``-th of that order, the first that
        :meth:`fits` does not refuse: (its rank in the order, its index in ``slots``, the cost or :data:`ASK`),
        or ``(-1, -1, None)``. On :data:`ASK` the caller prices the leg and, if that refuses, asks again from
        the next rank."""
        cdef int n = len(slots), k, r, j
        cdef double a
        cdef double* away = <double*>malloc(max(n, 1) * sizeof(double))
        cdef int* order = <int*>malloc(max(n, 1) * sizeof(int))
        if not (away and order):
            free(away)
            free(order)
            raise MemoryError()
        try:
            for k in range(n):
                s = slots[k]
                away[k] = _py_hypot(<double>s[0] - wx, <double>s[1] - wy)
                j = k
                a = away[k]
                while j > 0 and away[order[j - 1]] > a:  # insertion: a stable sort by distance
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = k
            mid = m.id
            mr = m.radius
            mside = m.side
            mx = m.x
            my = m.y
            mz = m.z
            for r in range(start, n):
                k = order[r]
                s = slots[k]
                got = self._fits(mid, mr, mside, mx, my, mz, s[0], s[1], s, placed, moving, enemy_gap, "", models,
                                 allow)
                if got is not None:
                    return (r, k, got)
            return (-1, -1, None)
        finally:
            free(away)
            free(order)

    cdef object _fits(self, str mid, double mr, int mside, double mx, double my, double mz, double px, double py,
                      object p, object placed, object moving, double enemy_gap, object ignore_unit, object models,
                      double allow):
        cdef double lox, hix, loy, hiy, reach, dx, dy, c
        cdef double* b
        cdef int i, lo, hi, mid_i, k
        if self._problem(mid, mr, mside, p, placed, moving, enemy_gap, ignore_unit, models) is not None:
            return None
        if mz > 0.0:  # leg_cost: only a leg from the ground may skip the trace
            return ASK
        # paths._open_ground: the leg's box against every piece's grown box
        if mx < px:
            lox = mx
            hix = px
        else:
            lox = px
            hix = mx
        if my < py:
            loy = my
            hiy = py
        else:
            loy = py
            hiy = my
        for i in range(self.nopen):
            b = self.obox + 4 * i
            if b[2] < lox or b[0] > hix or b[3] < loy or b[1] > hiy:
                continue
            return ASK
        # paths.enemy_zones(state, m, enemy_gap, ignore_unit, allow) is empty when every enemy on the table is
        # farther than ``allow`` beyond the widest zone round it (its base, ``m``'s and the gap): the reference
        # skips a zone when ``d - reach > within``, ``reach`` at most ``touch + max(gap, 0)``. A distance this
        # loop cannot tell from that bound by more than 1e-9 (libm's hypot against CPython's, a few ulps) is left
        # to the reference (ASK). Only models within that reach along x need a distance: the rest are farther.
        reach = allow + mr + self.max_radius + (enemy_gap if enemy_gap > 0.0 else 0.0) + 1e-6
        lo = 0
        hi = self.n
        while lo < hi:  # bisect_left(xs, mx - reach)
            mid_i = (lo + hi) // 2
            if self.xs[mid_i] < mx - reach:
                lo = mid_i + 1
            else:
                hi = mid_i
        k = lo
        hi = self.n
        while lo < hi:  # bisect_right(xs, mx + reach)
            mid_i = (lo + hi) // 2
            if mx + reach < self.xs[mid_i]:
                hi = mid_i
            else:
                lo = mid_i + 1
        for i in range(k, lo):
            if self.sidei[i] == mside:
                continue
            dx = self.xs[i] - mx
            dy = self.ys[i] - my
            if hypot(dx, dy) - (self.rs[i] + mr + (enemy_gap if enemy_gap > 0.0 else 0.0)) <= allow + 1e-9:
                return ASK
        c = _py_hypot(px - mx, py - my)
        return c if c <= allow + 1e-6 else None

    cdef object _problem(self, str mid, double mr, object mside, object p, object placed, object moving,
                         double enemy_gap, object ignore_unit, object models):
        cdef double px = p[0], py = p[1], eps = self.eps
        cdef double* b
        cdef double slack, reach, lo_x, hi_x, dx, dy, h, d, lim_overlap, lim_enemy, rr, qx, qy
        cdef int i, j, k, lo, hi, mid_i, cnt, t
        if not (px - mr >= -eps and px + mr <= self.width + eps and py - mr >= -eps and py + mr <= self.depth + eps):
            return ("table", "")
        for i in range(self.nsolid):
            b = self.sbox + 4 * i
            if px < b[0] - mr or px > b[2] + mr or py < b[1] - mr or py > b[3] + mr:
                continue
            piece = self.solid[i]
            if piece.circle_overlaps(p, mr):
                return ("impassable", piece.id)
        skip = moving if isinstance(moving, (set, frozenset, list, tuple)) else set(moving)
        slack = (enemy_gap if enemy_gap > 0.0 else 0.0) + 1.0
        # FrozenModels.near: the x-window by bisection, then its slots in the state's order
        reach = mr + self.max_radius + slack
        lo_x = px - reach
        hi_x = px + reach
        lo = 0
        hi = self.n
        while lo < hi:  # bisect_left(xs, lo_x)
            mid_i = (lo + hi) // 2
            if self.xs[mid_i] < lo_x:
                lo = mid_i + 1
            else:
                hi = mid_i
        k = lo
        hi = self.n
        while lo < hi:  # bisect_right(xs, hi_x)
            mid_i = (lo + hi) // 2
            if hi_x < self.xs[mid_i]:
                hi = mid_i
            else:
                lo = mid_i + 1
        cnt = 0
        for i in range(k, lo):  # insertion sort of the window by the state's order
            j = cnt
            while j > 0 and self.order[self.win[j - 1]] > self.order[i]:
                self.win[j] = self.win[j - 1]
                j -= 1
            self.win[j] = i
            cnt += 1
        for t in range(cnt):
            i = self.win[t]
            dx = px - self.xs[i]
            dy = py - self.ys[i]
            rr = self.rs[i]
            reach = mr + rr + slack
            if dx > reach or dx < -reach or dy > reach or dy < -reach:
                continue
            oid = self.ids[i]
            if oid == mid or oid in skip:
                continue
            h = hypot(dx, dy)
            lim_overlap = mr + rr - 1e-6
            lim_enemy = enemy_gap - 1e-6
            if fabs(h - lim_overlap) <= _MARGIN or fabs((h - mr - rr) - lim_enemy) <= _MARGIN:
                h = _py_hypot(dx, dy)
            if h < lim_overlap:
                return ("overlap", oid)
            d = h - mr - rr
            if d <= 0.0:
                d = 0.0
            if self.sides[i] != mside and self.units[i] != ignore_unit and d < lim_enemy:
                return ("enemy", oid)
        for pid, q in placed.items():
            o = models[pid]
            qx = q[0]
            qy = q[1]
            lim_overlap = mr + <double>o.radius - 1e-6
            h = hypot(px - qx, py - qy)
            if fabs(h - lim_overlap) <= _MARGIN:
                h = _py_hypot(px - qx, py - qy)
            if h < lim_overlap:
                return ("overlap", pid)
        return None
