"""A heuristic value of a Trench Crusade position for one side, for agents (``TrenchCrusade.evaluate``).

The value is in points (ducats), zero-sum: ``evaluate(state, 0) == -evaluate(state, 1)``. It adds up what a
sensible player weighs before acting:

* **material**: the points of models still in the game; a Down model is worth less and every Blood marker
  (which the enemy spends against it, digest §6) shaves some off;
* **victory points** held (``state.vars["vp"]``), each worth :data:`VP_WORTH` points;
* **objectives**: who controls each now (:func:`scenario.controller`) and who is closest to it, projected over
  the scoring turns left (Claim No Man's Land scoring, digest §1);
* **threat and safety**: the expected damage each side's shooters (in range, sight not blocked by tall
  terrain, the target's cover) and chargers (within Movement + an average charge die) can do next, each
  shooter or fighter counted once at its best target, and more if it has not yet activated this turn;
* **morale**: a Shaken warband, and the risk of a failed Morale check (digest §1) when half the warband is
  Down or Out of Action; a second failure loses the game.

Everything that does not change during a game (profiles, the odds of hits and injuries, the cover and
sight-blocking terrain) is computed once per game context and cached (:mod:`.evaluate_tables`, which also has
the weights). The function is called thousands of times per game, so it keeps to simple arithmetic over the
models (about 50 µs for 18 models). Its hot loop, every attacker against every target (:func:`_attacker`,
:func:`_on_target`), also runs compiled (``_threat_pairs.pyx``, the same answers bit for bit; these functions stay
the reference and the fallback: not built, or ``WARBAND_PURE=1``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from warband.kernel import native
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.core import State
from warband.rulesets.trench_crusade.evaluate_tables import (
    ACTIVATED_FACTOR,
    BLOOD_COST,
    DOWN_FACTOR,
    FLEE_COST,
    OBJECTIVE_PROJECTION,
    OBJECTIVE_REACH,
    SHAKEN_COST,
    THREAT_WEIGHT,
    VP_WORTH,
    WIN,
    Static,
    static_tables,
)

_MEMO_LIMIT = 200_000
_ATTACK_MEMO_LIMIT = 5_000
#: the compiled attacker-target pairs (None: not built, or WARBAND_PURE=1; :func:`_attacker` and
#: :func:`_on_target` run)
_threat_pairs = native.load("warband.rulesets.trench_crusade._threat_pairs")


def _fast_blockers(st: Static) -> Any:
    """The blockers of ``st`` as the compiled pairs' C array, built once per evaluation table."""
    got = st.fast_blockers
    if got is None:
        assert _threat_pairs is not None
        got = st.fast_blockers = _threat_pairs.Blockers(st.blockers)
    return got


# ------------------------------------------------------------------------------------------- geometry helpers
def _blocked(blockers: list[tuple[float, float, float, float]], ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether the segment a-b crosses the bounding box of a tall sight-blocking piece (Liang-Barsky)."""
    dx, dy = bx - ax, by - ay
    # the segment's box, once (comparisons only: the same answers as max/min per piece)
    lox, hix = (ax, bx) if ax < bx else (bx, ax)
    loy, hiy = (ay, by) if ay < by else (by, ay)
    for minx, miny, maxx, maxy in blockers:
        if hix < minx or lox > maxx or hiy < miny or loy > maxy:
            continue
        t0, t1 = 0.0, 1.0
        ok = True
        for pv, qv in ((-dx, ax - minx), (dx, maxx - ax), (-dy, ay - miny), (dy, maxy - ay)):
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
                t0 = max(t0, t)
            else:
                if t < t0:
                    ok = False
                    break
                t1 = min(t1, t)
        if ok and t1 - t0 > 0.02:
            return True
    return False


def _touching_cover(st: Static, m: Model) -> tuple[tuple[float, float], ...]:
    """Centres of the cover pieces ``m`` touches (digest §4 Cover: at least as wide as the base), memoised."""
    key = (m.x, m.y, m.z, m.radius)
    hit = st.cover_memo.get(key)
    if hit is None:
        if len(st.cover_memo) > _MEMO_LIMIT:
            st.cover_memo.clear()
        hit = st.cover_memo[key] = _find_cover(st, m)
    return hit


def _find_cover(st: Static, m: Model) -> tuple[tuple[float, float], ...]:
    out = []
    reach = m.radius + st.contact
    x, y = m.x, m.y
    for c in st.covers:
        minx, miny, maxx, maxy = c.bbox
        if x < minx - reach or x > maxx + reach or y < miny - reach or y > maxy + reach:
            continue
        if c.height <= m.z or c.width < 2 * m.radius:
            continue
        if c.piece.kind == "platform" and c.piece.contains((x, y)):
            continue
        if c.piece.distance_to((x, y)) <= reach:
            out.append(c.centre)
    return tuple(out)


# ------------------------------------------------------------------------------------------- the terms
def _scoring_turns_left(st: Static, state: State) -> int:
    now = max(state.turn, 1) if state.phase != "deploy" else 1
    return max(0, st.turns - max(now, st.from_turn) + 1)


def _objectives(st: Static, state: State, up: list[Model], left: int) -> float:
    """Side 0's objective value: control now (scored at the end of this turn) and presence nearby."""
    if left <= 0:
        return 0.0
    current = 0 if state.phase == "deploy" or state.turn < st.from_turn else 1
    # a pure function of where the standing models are (and of the turn): memoised for the lookahead, which
    # values many positions where no model moved (a shot, a fight)
    key = (current, left, tuple([(m.id, m.x, m.y) for m in up]))
    memo = st.objective_memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    total = 0.0
    rows = [(m.x, m.y, m.radius, m.side) for m in up]
    hypot = math.hypot
    for ox, oy, orad, vp in st.objectives:
        counts = [0, 0]
        near = [0.0, 0.0]
        for x, y, r, side in rows:
            d = hypot(x - ox, y - oy) - r - orad
            if d <= 1e-9:
                counts[side] += 1
                near[side] += 1.0
            elif d < OBJECTIVE_REACH:
                near[side] += 0.6 * (1.0 - d / OBJECTIVE_REACH)
        now = (counts[0] > counts[1]) - (counts[0] < counts[1])
        soft = (near[0] - near[1]) / (near[0] + near[1] + 0.5)
        total += vp * (current * 0.5 * now + OBJECTIVE_PROJECTION * (left - current * 0.5) * (0.4 * now + 0.6 * soft))
    memo[key] = value = total * VP_WORTH
    return value


_ObjPart = tuple[float, float, float, float, list[int], list[float], list[float]]


def _objective_parts(st: Static, standing: list[Model], m: Model) -> list[_ObjPart]:
    """For :func:`evaluate_points`: per objective, what the standing models other than ``m`` add to
    :func:`_objectives`' sums: (x, y, radius, vp, their counts by side, the presence of the side m is not on
    and of m's side before m, the presence of m's side after m in model order: the addends, in order, so that
    adding m's share between them gives the same float sums)."""
    hypot = math.hypot
    parts: list[_ObjPart] = []
    for ox, oy, orad, vp in st.objectives:
        counts = [0, 0]
        near = [0.0, 0.0]
        after: list[float] = []
        seen = False
        for o in standing:
            if o is m:
                seen = True
                continue
            d = hypot(o.x - ox, o.y - oy) - o.radius - orad
            if d <= 1e-9:
                counts[o.side] += 1
                add = 1.0
            elif d < OBJECTIVE_REACH:
                add = 0.6 * (1.0 - d / OBJECTIVE_REACH)
            else:
                continue
            if seen and o.side == m.side:
                after.append(add)
            else:
                near[o.side] += add
        parts.append((ox, oy, orad, vp, counts, near, after))
    return parts


def _objectives_at(st: Static, state: State, parts: list[_ObjPart], m: Model, left: int) -> float:
    """:func:`_objectives` with ``m`` (standing) where it now is and the others as in ``parts``."""
    if left <= 0:
        return 0.0
    total = 0.0
    current = 0 if state.phase == "deploy" or state.turn < st.from_turn else 1
    side = m.side
    hypot = math.hypot
    mx, my, mr = m.x, m.y, m.radius
    for ox, oy, orad, vp, base_counts, base_near, after in parts:
        # the two sides' counts and presence as scalars, m's side ("mine") added to in the same order as the lists
        # of _objectives: the same float sums
        mine_count = base_counts[side]
        mine = base_near[side]
        d = hypot(mx - ox, my - oy) - mr - orad
        if d <= 1e-9:
            mine_count += 1
            mine += 1.0
        elif d < OBJECTIVE_REACH:
            mine += 0.6 * (1.0 - d / OBJECTIVE_REACH)
        for add in after:
            mine += add
        if side == 0:
            c0, c1, n0, n1 = mine_count, base_counts[1], mine, base_near[1]
        else:
            c0, c1, n0, n1 = base_counts[0], mine_count, base_near[0], mine
        now = (c0 > c1) - (c0 < c1)
        soft = (n0 - n1) / (n0 + n1 + 0.5)
        total += vp * (current * 0.5 * now + OBJECTIVE_PROJECTION * (left - current * 0.5) * (0.4 * now + 0.6 * soft))
    return total * VP_WORTH


#: Height above the target that gives a shooter +1 DICE in the threat estimate (digest §4 Elevated).
_ELEVATED = 3.0 - 1e-9


_Target = tuple[str, float, float, float, float, bool, tuple[tuple[float, float], ...]]


def _target_row(st: Static, m: Model) -> _Target:
    """What the threat estimate reads of a model as a target: id, x, y, z, radius, Down, the cover it touches."""
    x, y, z, r = m.x, m.y, m.z, m.radius
    cover = st.cover_memo.get((x, y, z, r))  # _touching_cover's memo, read here first: it is asked per point
    if cover is None:
        cover = _touching_cover(st, m)
    return (m.id, x, y, z, r, bool(m.flags.get("down")), cover)


_Arm = tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float, float, float]], float, float, float, float]


def _arm(st: Static, a: Model) -> _Arm:
    """What an attacker brings, from its profile: its melee and shot tables by target, charge reach, the gap it
    closes by moving, its shooting range and where long range begins."""
    got: _Arm | None = st.arms.get(a.id)
    return got if got is not None else _arms(st)[a.id]


def _arms(st: Static) -> dict[str, _Arm]:
    """:func:`_arm` of every model of the game, by id: built once per evaluation table (profiles never change)."""
    arms: dict[str, _Arm] = st.arms
    if not arms:
        for aid, prof in st.profiles.items():
            srange = prof.shoot_range
            arms[aid] = (
                st.melee[aid],
                st.shots[aid],
                st.reach[aid],
                prof.movement + 1.0,
                srange,
                srange * st.long_fraction,
            )
    return arms


def _attacker(st: Static, a: Model, targets: list[_Target], arm: _Arm | None = None) -> tuple[bool, float, float]:
    """What attacker ``a`` can do to ``targets``: (engaged with one of them, best expected melee damage, best
    expected shot). Both bests are maxima and ``engaged`` an "any", so the answer over a list of targets is the
    combination of the answers over its parts (what :func:`evaluate_points` relies on)."""
    melee, shots, reach, near, srange, long_range = arm or _arm(st, a)
    engagement = st.engagement
    blockers = st.blockers
    sight_memo = st.sight_memo
    hypot = math.hypot
    best_shot = 0.0
    best_melee = 0.0
    engaged = False
    ax, ay, az, ar = a.x, a.y, a.z, a.radius
    for tid, tx, ty, tz, tr, down, cover in targets:
        g = hypot(ax - tx, ay - ty) - ar - tr
        if g <= engagement:
            engaged = True
        if g <= reach:
            dmg = melee[tid][down]
            if g > engagement:
                dmg *= 0.75 if g <= near else 0.45
            if dmg > best_melee:
                best_melee = dmg
        if engagement < g <= srange:
            if blockers:
                key = (ax, ay, tx, ty)
                blocked = sight_memo.get(key)
                if blocked is None:
                    if len(sight_memo) > _MEMO_LIMIT:
                        sight_memo.clear()
                    blocked = sight_memo[key] = _blocked(blockers, ax, ay, tx, ty)
                if blocked:
                    continue
            adj = 2
            if g > long_range:
                adj -= 1
            if cover:
                for cx, cy in cover:
                    if (cx - tx) * (ax - tx) + (cy - ty) * (ay - ty) > 0.0:
                        adj -= 1
                        break
            if az - tz >= _ELEVATED:
                adj += 1
            dmg = shots[tid][adj] * DOWN_FACTOR if down else shots[tid][adj]
            if dmg > best_shot:
                best_shot = dmg
    return engaged, best_melee, best_shot


def _on_target(st: Static, attackers: list[tuple[Model, _Arm]], target: _Target) -> list[tuple[bool, float, float]]:
    """:func:`_attacker` of each of ``attackers`` against the one ``target`` (the same arithmetic, with the
    attacker in the loop instead of the target: the per-point step of :func:`evaluate_points`)."""
    engagement = st.engagement
    blockers = st.blockers
    sight_memo = st.sight_memo
    hypot = math.hypot
    tid, tx, ty, tz, tr, down, cover = target
    out: list[tuple[bool, float, float]] = []
    for a, (melee, shots, reach, near, srange, long_range) in attackers:
        ax, ay = a.x, a.y
        best_melee = 0.0
        best_shot = 0.0
        g = hypot(ax - tx, ay - ty) - a.radius - tr
        engaged = g <= engagement
        if g <= reach:
            dmg = melee[tid][down]
            if g > engagement:
                dmg *= 0.75 if g <= near else 0.45
            if dmg > best_melee:
                best_melee = dmg
        if engagement < g <= srange:
            blocked = False
            if blockers:
                key = (ax, ay, tx, ty)
                seen = sight_memo.get(key)
                if seen is None:
                    if len(sight_memo) > _MEMO_LIMIT:
                        sight_memo.clear()
                    seen = sight_memo[key] = _blocked(blockers, ax, ay, tx, ty)
                blocked = seen
            if not blocked:
                adj = 2
                if g > long_range:
                    adj -= 1
                if cover:
                    for cx, cy in cover:
                        if (cx - tx) * (ax - tx) + (cy - ty) * (ay - ty) > 0.0:
                            adj -= 1
                            break
                if a.z - tz >= _ELEVATED:
                    adj += 1
                dmg = shots[tid][adj] * DOWN_FACTOR if down else shots[tid][adj]
                if dmg > best_shot:
                    best_shot = dmg
        out.append((engaged, best_melee, best_shot))
    return out


def _threats(st: Static, up: list[Model]) -> tuple[float, float]:
    """Expected damage (in points) each side can deal in its next activations, best target per attacker.

    The hot loop of the evaluation (every attacker against every enemy): each target is read once into a tuple
    and the pairs run over tuples; every value is computed by the same arithmetic in the same order as the plain
    reading (``hypot`` gap, best melee / best shot per attacker, summed in model order), so it is exact."""
    out = [0.0, 0.0]
    rows: tuple[list[_Target], list[_Target]] = ([], [])
    for m in up:
        rows[m.side].append(_target_row(st, m))
    fast = _threat_pairs
    if fast is not None:  # every pair in C: cheaper than the memo below
        t0, t1 = fast.threats(
            _fast_blockers(st), st.engagement, _ELEVATED, DOWN_FACTOR, ACTIVATED_FACTOR, up, rows[0], rows[1], _arms(st)
        )
        return float(t0), float(t1)
    # an attacker's answer depends only on where it stands and on the enemy side's rows: a lookahead evaluates
    # many positions where one side has not changed, so answers are kept per side as it stands
    memo = st.attack_memo
    if len(memo) > _ATTACK_MEMO_LIMIT:
        memo.clear()
    known = (memo.setdefault(tuple(rows[0]), {}), memo.setdefault(tuple(rows[1]), {}))
    for a in up:
        if a.flags.get("down"):
            continue
        seen = known[1 - a.side]
        key = (a.id, a.x, a.y, a.z)
        got = seen.get(key)
        if got is None:
            got = seen[key] = _attacker(st, a, rows[1 - a.side])
        engaged, best_melee, best_shot = got
        best = best_melee if engaged or best_melee > best_shot else best_shot
        out[a.side] += best * (ACTIVATED_FACTOR if a.flags.get("activated") else 1.0)
    return out[0], out[1]


def _morale_cost(st: Static, state: State, side: int, hurt: int, leader: bool) -> float:
    """The cost to ``side`` of its morale: Shaken, and the chance of failing the next Morale check (``hurt``:
    its models Down or off the table; ``leader``: its leader stands)."""
    shaken = bool(state.sides[side].flags.get("shaken"))
    fail = st.morale_fail[1 if leader else 0]
    cost = SHAKEN_COST if shaken else 0.0
    need = st.need[side]
    if shaken:
        cost += fail * FLEE_COST
    elif hurt >= need:
        cost += fail * (SHAKEN_COST + 0.35 * FLEE_COST)
    elif hurt == need - 1:
        cost += 0.3 * fail * SHAKEN_COST
    return cost


# ------------------------------------------------------------------------------------------- the value
def _over(state: State, sign: float) -> float:
    """A finished game: :data:`WIN` (plus the victory-point margin) to the winner."""
    vp = state.vars.get("vp", [0, 0])
    winner = state.vars.get("winner")
    margin = float(vp[0] - vp[1])
    if winner is None:
        return sign * margin
    return sign * ((WIN if winner == 0 else -WIN) + margin)


def _fixed(st: Static, state: State) -> tuple[float, list[Model], list[Model], float]:
    """The terms that do not depend on where the models stand: (material plus victory points for side 0, the
    models on the table, those of them standing, side 0's morale value)."""
    profiles = st.profiles
    score = 0.0
    up: list[Model] = []
    standing: list[Model] = []
    hurt = [0, 0]
    leader = [False, False]
    # material (the points of models in the game, digest §6 Blood) and, in the same pass, what morale counts
    for m in state.models.values():
        prof = profiles[m.id]
        flags = m.flags
        if not m.on_table:
            v = 0.0 if flags.get("out") else prof.points
            hurt[m.side] += 1
        else:
            up.append(m)
            if flags.get("down"):
                v = prof.points * DOWN_FACTOR
                hurt[m.side] += 1
            else:
                v = prof.points
                standing.append(m)
                if prof.leader:
                    leader[m.side] = True
            blood = m.tokens.get("blood", 0)
            if blood:
                v *= max(0.4, 1.0 - BLOOD_COST * blood)
        score += v if m.side == 0 else -v
    vp = state.vars.get("vp", [0, 0])
    score += VP_WORTH * float(vp[0] - vp[1])
    morale = _morale_cost(st, state, 1, hurt[1], leader[1]) - _morale_cost(st, state, 0, hurt[0], leader[0])
    return score, up, standing, morale


def evaluate(state: State, side: int) -> float:
    """The value of ``state`` for ``side`` in points (higher is better; the opponent's value is its negative).

    A finished game is worth :data:`WIN` (plus the victory-point margin) to the winner."""
    sign = 1.0 if side == 0 else -1.0
    if state.phase == "over":
        return _over(state, sign)
    st = static_tables(state)
    score, up, standing, morale = _fixed(st, state)
    if state.phase != "deploy" or up:
        score += _objectives(st, state, standing, _scoring_turns_left(st, state))
        t0, t1 = _threats(st, up)
        score += THREAT_WEIGHT * (t0 - t1)
    score += morale
    return sign * score


def evaluate_points(state: State, side: int, model_id: str, points: Sequence[tuple[float, float]]) -> list[float]:
    """``evaluate(state, side)`` with model ``model_id`` standing on the table at each of ``points`` in turn (as
    the heuristic agent ranks destinations: the model put there, no rule run), equal to it value for value.

    Only the moved model's terms are recomputed per point: its objective presence, its own attacks and the
    attacks of each enemy on it, combined with each enemy's best attack on the others, which is computed once
    (a best is a maximum, so the combination is exact). The state is left as it was."""
    m = state.models[model_id]
    saved = (m.x, m.y, m.on_table)
    m.on_table = True
    try:
        sign = 1.0 if side == 0 else -1.0
        if state.phase == "over" or not points:
            return [_over(state, sign)] * len(points) if points else []
        st = static_tables(state)
        fixed, up, standing, morale = _fixed(st, state)
        left = _scoring_turns_left(st, state)
        rows: tuple[list[_Target], list[_Target]] = ([], [])
        for o in up:
            if o is not m:
                rows[o.side].append(_target_row(st, o))
        # each attacker's best against everything but m, once
        partial: dict[str, tuple[bool, float, float]] = {}
        arms: dict[str, _Arm] = {}
        memo = st.attack_memo
        if len(memo) > _ATTACK_MEMO_LIMIT:
            memo.clear()
        known = (memo.setdefault(tuple(rows[0]), {}), memo.setdefault(tuple(rows[1]), {}))
        fast = _threat_pairs
        blockers = None if fast is None else _fast_blockers(st)
        engagement = st.engagement
        for a in up:
            if not a.flags.get("down"):
                arms[a.id] = arm = _arm(st, a)
                if a is not m:
                    seen = known[1 - a.side]  # as in _threats: the answer depends on these rows and where a is
                    key = (a.id, a.x, a.y, a.z)
                    got = seen.get(key)
                    if got is None:
                        if fast is None:
                            got = _attacker(st, a, rows[1 - a.side], arm)
                        else:
                            got = fast.attacker(
                                blockers,
                                engagement,
                                _ELEVATED,
                                DOWN_FACTOR,
                                a.x,
                                a.y,
                                a.z,
                                a.radius,
                                arm,
                                rows[1 - a.side],
                            )
                        seen[key] = got
                    partial[a.id] = got
        m_attacks = not m.flags.get("down")
        parts = _objective_parts(st, standing, m) if m_attacks else None
        still = _objectives(st, state, standing, left) if parts is None else 0.0
        enemy = 1 - m.side
        foes = [(a, arms[a.id]) for a in up if a.side == enemy and a.id in partial]
        # the threat sum's addends in model order, read once: m itself (its attacks at each point), a friend of m
        # (its share is the same at every point, so it is computed here by the same arithmetic), an enemy (its
        # best against the others, combined per point with its attack on m); Down models add nothing. Each entry
        # also carries the model and its arm (what the compiled loop reads of an enemy).
        m_arm = arms.get(m.id)
        plan: list[tuple[int, int, float, tuple[bool, float, float], Model, _Arm | None]] = []
        for a in up:
            factor = ACTIVATED_FACTOR if a.flags.get("activated") else 1.0
            if a is m:
                if m_attacks:
                    plan.append((0, a.side, factor, (False, 0.0, 0.0), a, m_arm))
                continue
            got = partial.get(a.id)
            if got is None:
                continue  # Down: no attacks
            if a.side == enemy:
                plan.append((2, a.side, factor, got, a, arms[a.id]))
            else:
                engaged, best_melee, best_shot = got
                best = best_melee if engaged or best_melee > best_shot else best_shot
                plan.append((1, a.side, best * factor, got, a, None))
        enemy_rows = rows[enemy]
        if fast is not None:  # the loop below in C (_threat_pairs.points), with each entry's model and arm
            current = 0 if state.phase == "deploy" or state.turn < st.from_turn else 1
            return list(
                fast.points(
                    blockers,
                    engagement,
                    _ELEVATED,
                    DOWN_FACTOR,
                    list(points),
                    m,
                    m_arm,
                    bool(m.flags.get("down")),
                    enemy_rows,
                    plan,
                    parts,
                    still,
                    current,
                    left,
                    OBJECTIVE_REACH,
                    OBJECTIVE_PROJECTION,
                    VP_WORTH,
                    fixed,
                    THREAT_WEIGHT,
                    morale,
                    sign,
                    st.cover_memo,
                    lambda at: _touching_cover(st, at),
                )
            )
        out: list[float] = []
        for x, y in points:
            m.x, m.y = x, y
            score = fixed
            score += still if parts is None else _objectives_at(st, state, parts, m, left)
            if fast is None:
                on_m = iter(_on_target(st, foes, _target_row(st, m)))
            else:
                on_m = iter(fast.on_target(blockers, engagement, _ELEVATED, DOWN_FACTOR, foes, _target_row(st, m)))
            threat = [0.0, 0.0]
            for what, a_side, factor, got, _, _ in plan:
                if what == 1:
                    threat[a_side] += factor  # the friend's share, best * factor
                    continue
                if what == 0:
                    if fast is None:
                        engaged, best_melee, best_shot = _attacker(st, m, enemy_rows, m_arm)
                    else:
                        engaged, best_melee, best_shot = fast.attacker(
                            blockers, engagement, _ELEVATED, DOWN_FACTOR, x, y, m.z, m.radius, m_arm, enemy_rows
                        )
                else:
                    engaged, best_melee, best_shot = got
                    e2, m2, s2 = next(on_m)
                    engaged = engaged or e2
                    if m2 > best_melee:
                        best_melee = m2
                    if s2 > best_shot:
                        best_shot = s2
                best = best_melee if engaged or best_melee > best_shot else best_shot
                threat[a_side] += best * factor
            score += THREAT_WEIGHT * (threat[0] - threat[1])
            score += morale
            out.append(sign * score)
        return out
    finally:
        m.x, m.y, m.on_table = saved
