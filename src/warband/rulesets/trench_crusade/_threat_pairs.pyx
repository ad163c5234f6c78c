# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled fast path of the evaluation's attacker-target pairs: :func:`warband.rulesets.trench_crusade.evaluate.
_attacker` (one attacker against a list of targets) and :func:`~warband.rulesets.trench_crusade.evaluate._on_target`
(a list of attackers against one target), the hot loops of ``evaluate`` and ``evaluate_points``.

The references (and the fallback when this extension is not built, or when ``WARBAND_PURE=1``) are those two Python
functions; the threat estimate they compute is the evaluation's, not a rule (the rules it reads: digest §4 Cover,
Elevated and LoS blocking by tall terrain, §7 Charge reach). This module runs the same arithmetic on C doubles,
operation for operation in the same order (built without -ffast-math and with -ffp-contract=off), so every
product, maximum and comparison is the Python one. Two differences, both without effect on the answer:

* ``math.hypot`` is CPython's own algorithm, here libm's ``hypot``: the gap it gives is only compared with the
  attacker's thresholds (engagement, charge reach, the near band, range, long range), so where libm's gap is
  within ``_MARGIN`` of one of them, CPython's ``math.hypot`` is asked for it instead;
* the reference memoises ``_blocked`` (the Liang-Barsky test of a line against the tall blockers' boxes) in the
  evaluation's ``sight_memo``; here it is recomputed (a pure function: the same answer, cheaper in C than the
  dictionary) and the memo is neither read nor filled.
"""

import array
import math

cdef extern from *:
    """
    #ifndef WARBAND_SRC_SHA
    #define WARBAND_SRC_SHA "unknown"
    #endif
    """
    const char* WARBAND_SRC_SHA

from libc.math cimport fabs, hypot

#: sha256 of this source at build time (the loader refuses a build of another source)
SOURCE_SHA = WARBAND_SRC_SHA.decode("ascii")

cdef object _py_hypot = math.hypot
cdef double _MARGIN = 1e-9  # libm hypot vs CPython's: at most a few ulps (~1e-14 on a table) apart


def set_margin(double margin):
    """Widen (tests: every gap goes to CPython's hypot) or restore (1e-9) the margin."""
    global _MARGIN
    _MARGIN = margin


cdef inline bint _near(double g, double t) noexcept:
    return fabs(g - t) <= _MARGIN


cdef inline double _gap(double ax, double ay, double ar, double tx, double ty, double tr,
                        double engagement, double reach, double near, double srange, double long_range):
    """``hypot(ax - tx, ay - ty) - ar - tr`` as the Python reference compares it: libm's unless that is within
    the margin of a threshold, then CPython's."""
    cdef double dx = ax - tx, dy = ay - ty
    cdef double g = hypot(dx, dy) - ar - tr
    if (_near(g, engagement) or _near(g, reach) or _near(g, near) or _near(g, srange)
            or _near(g, long_range)):
        g = <double>_py_hypot(dx, dy) - ar - tr
    return g


cdef bint _blocked(double[::1] boxes, Py_ssize_t n, double ax, double ay, double bx, double by) noexcept:
    """``evaluate._blocked``: whether the segment a-b crosses one of the ``n`` boxes (Liang-Barsky), the same
    divisions and comparisons in the same order."""
    cdef double dx = bx - ax, dy = by - ay
    cdef double lox, hix, loy, hiy, minx, miny, maxx, maxy, t0, t1, t, pv, qv
    cdef Py_ssize_t i, k
    cdef bint ok
    if ax < bx:
        lox, hix = ax, bx
    else:
        lox, hix = bx, ax
    if ay < by:
        loy, hiy = ay, by
    else:
        loy, hiy = by, ay
    for i in range(n):
        minx = boxes[4 * i]
        miny = boxes[4 * i + 1]
        maxx = boxes[4 * i + 2]
        maxy = boxes[4 * i + 3]
        if hix < minx or lox > maxx or hiy < miny or loy > maxy:
            continue
        t0 = 0.0
        t1 = 1.0
        ok = True
        for k in range(4):
            if k == 0:
                pv, qv = -dx, ax - minx
            elif k == 1:
                pv, qv = dx, maxx - ax
            elif k == 2:
                pv, qv = -dy, ay - miny
            else:
                pv, qv = dy, maxy - ay
            if pv == 0.0:
                if qv < 0.0:
                    ok = False
                    break
                continue
            t = qv / pv
            if pv < 0.0:
                if t > t1:
                    ok = False
                    break
                if t > t0:  # max(t0, t): t0 unless t is larger
                    t0 = t
            else:
                if t < t0:
                    ok = False
                    break
                if t < t1:  # min(t1, t)
                    t1 = t
        if ok and t1 - t0 > 0.02:
            return True
    return False


cdef class Blockers:
    """The tall sight-blocking pieces' boxes (``Static.blockers``) as a C array, built once per evaluation table."""

    cdef double[::1] boxes
    cdef Py_ssize_t n

    def __init__(self, list blockers):
        flat = array.array("d", [0.0] * (4 * max(1, len(blockers))))
        for i, (minx, miny, maxx, maxy) in enumerate(blockers):
            flat[4 * i] = minx
            flat[4 * i + 1] = miny
            flat[4 * i + 2] = maxx
            flat[4 * i + 3] = maxy
        self.n = len(blockers)
        self.boxes = flat


cdef inline double _shot(tuple row, int adj, bint down, double down_factor):
    cdef double v = <double>row[adj]
    return v * down_factor if down else v


def attacker(Blockers blockers, double engagement, double elevated, double down_factor,
             double ax, double ay, double az, double ar, tuple arm, list targets):
    """``evaluate._attacker`` of the attacker at (ax, ay, az) with base radius ``ar`` and ``arm`` (melee and shot
    tables, charge reach, near band, range, long range) against ``targets`` (the evaluation's target rows):
    (engaged with one of them, best expected melee damage, best expected shot)."""
    cdef dict melee = arm[0]
    cdef dict shots = arm[1]
    cdef double reach = arm[2], near = arm[3], srange = arm[4], long_range = arm[5]
    cdef double best_shot = 0.0, best_melee = 0.0, dmg, g, tx, ty, tz, tr, cx, cy
    cdef bint engaged = False, down
    cdef int adj
    cdef tuple row
    cdef bint has_blockers = blockers.n > 0
    for row in targets:
        tx = row[1]
        ty = row[2]
        tz = row[3]
        tr = row[4]
        g = _gap(ax, ay, ar, tx, ty, tr, engagement, reach, near, srange, long_range)
        if g <= engagement:
            engaged = True
        if g <= reach:
            down = row[5]
            dmg = <double>(<tuple>melee[row[0]])[1 if down else 0]
            if g > engagement:
                dmg *= 0.75 if g <= near else 0.45
            if dmg > best_melee:
                best_melee = dmg
        if engagement < g <= srange:
            if has_blockers and _blocked(blockers.boxes, blockers.n, ax, ay, tx, ty):
                continue
            adj = 2
            if g > long_range:
                adj -= 1
            cover = row[6]
            if cover:
                for cx, cy in cover:
                    if (cx - tx) * (ax - tx) + (cy - ty) * (ay - ty) > 0.0:
                        adj -= 1
                        break
            if az - tz >= elevated:
                adj += 1
            down = row[5]
            dmg = _shot(<tuple>shots[row[0]], adj, down, down_factor)
            if dmg > best_shot:
                best_shot = dmg
    return engaged, best_melee, best_shot


def on_target(Blockers blockers, double engagement, double elevated, double down_factor, list attackers,
              tuple target):
    """``evaluate._on_target``: :func:`attacker` of each ``(model, arm)`` of ``attackers`` against the one target
    row ``target``, as a list of (engaged, best melee, best shot)."""
    tid = target[0]
    cdef double tx = target[1], ty = target[2], tz = target[3], tr = target[4]
    cdef bint down = target[5]
    cover = target[6]
    cdef bint has_cover = bool(cover)
    cdef bint has_blockers = blockers.n > 0
    cdef double ax, ay, g, dmg, best_melee, best_shot, reach, near, srange, long_range, cx, cy
    cdef bint engaged
    cdef int adj
    cdef tuple arm
    cdef list out = []
    for a, arm in attackers:
        ax = a.x
        ay = a.y
        reach = arm[2]
        near = arm[3]
        srange = arm[4]
        long_range = arm[5]
        best_melee = 0.0
        best_shot = 0.0
        g = _gap(ax, ay, a.radius, tx, ty, tr, engagement, reach, near, srange, long_range)
        engaged = g <= engagement
        if g <= reach:
            dmg = <double>(<tuple>(<dict>arm[0])[tid])[1 if down else 0]
            if g > engagement:
                dmg *= 0.75 if g <= near else 0.45
            if dmg > best_melee:
                best_melee = dmg
        if engagement < g <= srange:
            if not (has_blockers and _blocked(blockers.boxes, blockers.n, ax, ay, tx, ty)):
                adj = 2
                if g > long_range:
                    adj -= 1
                if has_cover:
                    for cx, cy in cover:
                        if (cx - tx) * (ax - tx) + (cy - ty) * (ay - ty) > 0.0:
                            adj -= 1
                            break
                if <double>a.z - tz >= elevated:
                    adj += 1
                dmg = _shot(<tuple>(<dict>arm[1])[tid], adj, down, down_factor)
                if dmg > best_shot:
                    best_shot = dmg
        out.append((engaged, best_melee, best_shot))
    return out
