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


cdef inline void _pair(Blockers blockers, double engagement, double elevated, double down_factor,
                       double ax, double ay, double az, double ar, tuple arm,
                       object tid, double tx, double ty, double tz, double tr, bint down, object cover,
                       bint* engaged, double* melee_dmg, double* shot_dmg):
    """One attacker (at ax, ay, az, base radius ar, with ``arm``) against one target: whether it is engaged, the
    expected melee damage of its charge or fight and that of its shot (0.0 where it has none), as the loops of
    ``_attacker`` and ``_on_target`` compute them."""
    cdef double reach = arm[2], near = arm[3], srange = arm[4], long_range = arm[5]
    cdef double g = _gap(ax, ay, ar, tx, ty, tr, engagement, reach, near, srange, long_range)
    cdef double dmg, cx, cy
    cdef int adj
    engaged[0] = g <= engagement
    melee_dmg[0] = 0.0
    shot_dmg[0] = 0.0
    if g <= reach:
        dmg = <double>(<tuple>(<dict>arm[0])[tid])[1 if down else 0]
        if g > engagement:
            dmg *= 0.75 if g <= near else 0.45
        melee_dmg[0] = dmg
    if engagement < g <= srange:
        if blockers.n > 0 and _blocked(blockers.boxes, blockers.n, ax, ay, tx, ty):
            return
        adj = 2
        if g > long_range:
            adj -= 1
        if cover:
            for cx, cy in cover:
                if (cx - tx) * (ax - tx) + (cy - ty) * (ay - ty) > 0.0:
                    adj -= 1
                    break
        if az - tz >= elevated:
            adj += 1
        shot_dmg[0] = _shot(<tuple>(<dict>arm[1])[tid], adj, down, down_factor)


cdef inline void _against(Blockers blockers, double engagement, double elevated, double down_factor,
                          double ax, double ay, double az, double ar, tuple arm, list targets,
                          bint* engaged, double* best_melee, double* best_shot):
    """``_attacker``'s loop: the best of :func:`_pair` over the target rows (engaged if any pair is)."""
    cdef bint e
    cdef double dm, ds
    cdef tuple row
    engaged[0] = False
    best_melee[0] = 0.0
    best_shot[0] = 0.0
    for row in targets:
        _pair(blockers, engagement, elevated, down_factor, ax, ay, az, ar, arm,
              row[0], row[1], row[2], row[3], row[4], row[5], row[6], &e, &dm, &ds)
        if e:
            engaged[0] = True
        if dm > best_melee[0]:
            best_melee[0] = dm
        if ds > best_shot[0]:
            best_shot[0] = ds


def attacker(Blockers blockers, double engagement, double elevated, double down_factor,
             double ax, double ay, double az, double ar, tuple arm, list targets):
    """``evaluate._attacker`` of the attacker at (ax, ay, az) with base radius ``ar`` and ``arm`` (melee and shot
    tables, charge reach, near band, range, long range) against ``targets`` (the evaluation's target rows):
    (engaged with one of them, best expected melee damage, best expected shot)."""
    cdef bint engaged
    cdef double best_melee, best_shot
    _against(blockers, engagement, elevated, down_factor, ax, ay, az, ar, arm, targets,
             &engaged, &best_melee, &best_shot)
    return engaged, best_melee, best_shot


def on_target(Blockers blockers, double engagement, double elevated, double down_factor, list attackers,
              tuple target):
    """``evaluate._on_target``: :func:`attacker` of each ``(model, arm)`` of ``attackers`` against the one target
    row ``target``, as a list of (engaged, best melee, best shot)."""
    tid = target[0]
    cdef double tx = target[1], ty = target[2], tz = target[3], tr = target[4]
    cdef bint down = target[5]
    cover = target[6]
    cdef bint e
    cdef double dm, ds
    cdef list out = []
    for a, arm in attackers:
        _pair(blockers, engagement, elevated, down_factor, a.x, a.y, a.z, a.radius, arm,
              tid, tx, ty, tz, tr, down, cover, &e, &dm, &ds)
        out.append((e, dm, ds))
    return out


def threats(Blockers blockers, double engagement, double elevated, double down_factor, double activated_factor,
            list up, list rows0, list rows1, dict arms):
    """``evaluate._threats``' sums, given the two sides' target rows: each standing model's best attack on the
    other side (its melee if engaged or better than its shot), times ``activated_factor`` if it has activated,
    added per side in model order. The reference keeps answers in ``attack_memo``; here they are recomputed."""
    cdef double out0 = 0.0, out1 = 0.0, best, bm, bs
    cdef bint engaged
    cdef int side
    for a in up:
        flags = a.flags
        if flags.get("down"):
            continue
        side = a.side
        _against(blockers, engagement, elevated, down_factor, a.x, a.y, a.z, a.radius, arms[a.id],
                 rows0 if side == 1 else rows1, &engaged, &bm, &bs)
        best = bm if engaged or bm > bs else bs
        if side == 0:
            out0 += best * (activated_factor if flags.get("activated") else 1.0)
        else:
            out1 += best * (activated_factor if flags.get("activated") else 1.0)
    return out0, out1


def points(Blockers blockers, double engagement, double elevated, double down_factor, list pts, m, tuple m_arm,
           bint m_down, list enemy_rows, list plan, list parts, double still, int current, int left,
           double reach_weight, double projection, double vp_worth, double fixed, double threat_weight,
           double morale, double sign, dict cover_memo, cover_of):
    """``evaluate_points``' loop over the points (the reference is its Python loop, with ``_objectives_at`` and
    ``_target_row``): ``m`` stood at each point in turn (its ``x``, ``y`` set, for ``cover_of(m)``, the cover it
    touches when ``cover_memo`` has no answer), its objective presence (``parts``; None: ``still``), its attacks
    on ``enemy_rows`` and each enemy's on it combined with that enemy's best on the others (``plan``: (0 for m,
    1 for a friend with its share, 2 for an enemy with its best, side, factor or share, best, model, arm) in model
    order); the same arithmetic in the same order. The objectives' distances are CPython's ``math.hypot``."""
    cdef list out = []
    cdef double x, y, mz = m.z, mr = m.radius, t0, t1, score, obj, total, d, mine, n0, n1, soft, best
    cdef double bm, bs, dm, ds, ox, oy, orad, vp
    cdef long mine_count, c0, c1, now
    cdef bint engaged, e
    cdef int what, a_side
    cdef int side = m.side
    mid = m.id
    for pt in pts:
        px, py = pt
        x = px
        y = py
        m.x = px
        m.y = py
        # objectives (_objectives_at)
        if parts is None:
            obj = still
        elif left <= 0:
            obj = 0.0
        else:
            total = 0.0
            for ox, oy, orad, vp, base_counts, base_near, after in parts:
                mine_count = base_counts[side]
                mine = base_near[side]
                d = <double>_py_hypot(x - ox, y - oy) - mr - orad
                if d <= 1e-9:
                    mine_count += 1
                    mine += 1.0
                elif d < reach_weight:
                    mine += 0.6 * (1.0 - d / reach_weight)
                for add in after:
                    mine += <double>add
                if side == 0:
                    c0 = mine_count
                    c1 = base_counts[1]
                    n0 = mine
                    n1 = base_near[1]
                else:
                    c0 = base_counts[0]
                    c1 = mine_count
                    n0 = base_near[0]
                    n1 = mine
                now = (c0 > c1) - (c0 < c1)
                soft = (n0 - n1) / (n0 + n1 + 0.5)
                total += vp * (<double>current * 0.5 * <double>now
                               + projection * (<double>left - <double>current * 0.5) * (0.4 * <double>now + 0.6 * soft))
            obj = total * vp_worth
        score = fixed
        score += obj
        # the target row of m (_target_row)
        cover = cover_memo.get((px, py, m.z, m.radius))
        if cover is None:
            cover = cover_of(m)
        t0 = 0.0
        t1 = 0.0
        for entry in plan:
            what = entry[0]
            a_side = entry[1]
            if what == 1:
                best = entry[2]
            else:
                if what == 0:
                    _against(blockers, engagement, elevated, down_factor, x, y, mz, mr, m_arm, enemy_rows,
                             &engaged, &bm, &bs)
                else:
                    engaged, bm, bs = entry[3]
                    a = entry[4]
                    _pair(blockers, engagement, elevated, down_factor, a.x, a.y, a.z, a.radius, entry[5],
                          mid, x, y, mz, mr, m_down, cover, &e, &dm, &ds)
                    engaged = engaged or e
                    if dm > bm:
                        bm = dm
                    if ds > bs:
                        bs = ds
                best = bm if engaged or bm > bs else bs
                best = best * <double>entry[2]
            if a_side == 0:
                t0 += best
            else:
                t1 += best
        score += threat_weight * (t0 - t1)
        score += morale
        out.append(sign * score)
    return out
