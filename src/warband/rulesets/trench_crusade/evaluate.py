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
sight-blocking terrain) is computed once per game context and cached. The function is called thousands of
times per game, so it keeps to simple arithmetic over the models (about 50 µs for 18 models).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.core import State

#: Points a victory point is worth (a little more than a line trooper).
VP_WORTH = 60.0
#: What winning (or losing) the game is worth.
WIN = 10_000.0
#: Value kept by a Down model (it cannot act this activation and is easier to take Out of Action).
DOWN_FACTOR = 0.65
#: Value lost per Blood marker on a model (the enemy spends them against it).
BLOOD_COST = 0.06
#: Weight of the projected objective control over the scoring turns left (uncertain, so below 1).
OBJECTIVE_PROJECTION = 0.45
#: Inches beyond an objective's radius over which a model still counts a little toward holding it.
OBJECTIVE_REACH = 12.0
#: Weight of the threat terms (expected damage in the next round of activations).
THREAT_WEIGHT = 0.55
#: A model that has activated this turn threatens less (it acts again only next turn).
ACTIVATED_FACTOR = 0.45
#: Points lost by being Shaken (all Success Rolls Risky).
SHAKEN_COST = 70.0
#: What fleeing costs: the game.
FLEE_COST = WIN / 8
#: Expected value of the charge die.
CHARGE_DIE_MEAN = 3.5

_MAX_CACHE = 16
_MEMO_LIMIT = 200_000
_ATTACK_MEMO_LIMIT = 5_000
_CACHE: dict[int, _Static] = {}
#: The exact roll odds (hit, damage, morale failure) depend only on the parameters: computed once per parameter set,
#: not once per game (exact fractions over every roll are slow: seconds per game otherwise).
_ODDS: dict[str, tuple[dict[int, float], dict[tuple[int, int], float], tuple[float, float]]] = {}


@dataclass(slots=True)
class _Profile:
    """What a model can do, from its (static) profile."""

    points: float
    leader: bool
    movement: float
    shoot_range: float
    shoot_net: int
    shoot_mod: int
    shoot_ignore_armour: bool
    melee_net: int
    melee_mod: int
    has_melee: bool
    armour: int
    fear: bool
    tough: bool


@dataclass(slots=True)
class _Cover:
    piece: TerrainPiece
    bbox: tuple[float, float, float, float]
    centre: tuple[float, float]
    height: float
    width: float


@dataclass(slots=True)
class _Static:
    ctx: Any
    profiles: dict[str, _Profile]
    covers: list[_Cover]
    blockers: list[tuple[float, float, float, float]]
    objectives: list[tuple[float, float, float, float]]
    hit: dict[int, float]
    damage: dict[tuple[int, int], float]
    size: tuple[int, int]
    need: tuple[int, int]
    morale_fail: tuple[float, float]
    contact: float
    long_fraction: float
    engagement: float
    charge_range: float
    from_turn: int
    turns: int
    melee: dict[str, dict[str, tuple[float, float]]]
    shots: dict[str, dict[str, tuple[float, float, float, float]]]
    reach: dict[str, float]
    sight_memo: dict[tuple[float, float, float, float], bool] = field(default_factory=dict)
    cover_memo: dict[tuple[float, float, float, float], tuple[tuple[float, float], ...]] = field(default_factory=dict)
    objective_memo: dict[tuple[Any, ...], float] = field(default_factory=dict)
    #: per enemy side as it stands (its target rows), per attacker where it stands: _attacker's answer
    attack_memo: dict[tuple[Any, ...], dict[tuple[str, float, float, float], tuple[bool, float, float]]] = field(
        default_factory=dict
    )


# ------------------------------------------------------------------------------------------- static data
def _static(state: State) -> _Static:
    ctx = state.ctx
    hit = _CACHE.get(id(ctx))
    if hit is not None and hit.ctx is ctx:
        return hit
    if len(_CACHE) >= _MAX_CACHE:
        _CACHE.clear()
    built = _build(state)
    _CACHE[id(ctx)] = built
    return built


def _best_weapon(data: dict[str, Any], mode: str) -> dict[str, Any] | None:
    best: dict[str, Any] | None = None
    for w in data["weapons"]:
        if mode in w["modes"] and (
            best is None
            or (w["dice"], w["injury_mod"], w.get("range") or 0)
            > (best["dice"], best["injury_mod"], best.get("range") or 0)
        ):
            best = w
    return best


def _profile(spec: dict[str, Any]) -> _Profile:
    d = spec["data"]
    kws = d["keywords"]
    rw = _best_weapon(d, "ranged")
    mw = _best_weapon(d, "melee")
    return _Profile(
        points=float(spec["points"]),
        leader="LEADER" in kws,
        movement=float(d["movement"]),
        shoot_range=float(rw["range"] or 0) if rw else 0.0,
        shoot_net=int(d["ranged"]) + int(rw["dice"]) if rw else 0,
        shoot_mod=int(rw["injury_mod"]) if rw else 0,
        shoot_ignore_armour=bool(rw and "IGNORE ARMOUR" in rw["keywords"]),
        melee_net=int(d["melee"]) + int(mw["dice"]) if mw else 0,
        melee_mod=int(mw["injury_mod"]) if mw else 0,
        has_melee=mw is not None,
        armour=int(d["armour"]),
        fear="FEAR" in kws,
        tough="TOUGH" in kws,
    )


def _odds(p: dict[str, Any]) -> tuple[dict[int, float], dict[tuple[int, int], float], tuple[float, float]]:
    """Hit chances by net DICE, damage by (extra injury dice, modifier) and Morale failure (without, with a
    leader), for the parameters ``p``; memoised on the parameters' values."""
    from warband.rulesets.trench_crusade.odds import injury_odds, success_odds

    key = json.dumps(p, sort_keys=True, default=repr)
    hit_odds = _ODDS.get(key)
    if hit_odds is not None:
        return hit_odds
    hit = {n: float(success_odds(n, p)["success"]) for n in range(-6, 7)}
    damage: dict[tuple[int, int], float] = {}
    for extra in range(0, 3):
        for mod in range(-3, 4):
            odds = injury_odds(extra, mod, params=p)
            damage[(extra, mod)] = float(odds["out"]) + 0.45 * float(odds["down"]) + 0.04 * float(odds["minor"])
    lead = int(p["leader_morale_dice"])
    fail = (float(success_odds(0, p)["failure"]), float(success_odds(lead, p)["failure"]))
    if len(_ODDS) >= _MAX_CACHE:
        _ODDS.clear()
    _ODDS[key] = (hit, damage, fail)
    return hit, damage, fail


def _build(state: State) -> _Static:
    ctx = state.ctx
    p = ctx.params
    hit, damage, fail = _odds(p)
    covers = []
    for piece in ctx.table.terrain:
        if piece.height < p["cover_min_height"] or piece.kind in ("difficult", "dangerous", "open"):
            continue
        minx, miny, maxx, maxy = piece.bbox
        xs = [q[0] for q in piece.polygon]
        ys = [q[1] for q in piece.polygon]
        covers.append(
            _Cover(
                piece, piece.bbox, (sum(xs) / len(xs), sum(ys) / len(ys)), piece.height, max(maxx - minx, maxy - miny)
            )
        )
    blockers = [piece.bbox for piece in ctx.table.terrain if piece.blocks_los and piece.height >= 2.0]
    objectives = [(o.at[0], o.at[1], o.radius, float(o.vp)) for o in ctx.objectives]
    sizes = (len(ctx.order[0]), len(ctx.order[1]))
    need = tuple(math.ceil(n * float(p["morale_fraction"])) for n in sizes)
    profiles = {mid: _profile(spec) for mid, spec in ctx.specs.items()}
    melee, shots = _attack_tables(profiles, hit, damage)
    reach = {
        mid: (
            min(pr.movement + CHARGE_DIE_MEAN + float(p["engagement_range"]), float(p["charge_range"]))
            if pr.has_melee
            else -1.0
        )
        for mid, pr in profiles.items()
    }
    return _Static(
        ctx,
        profiles,
        covers,
        blockers,
        objectives,
        hit,
        damage,
        sizes,
        (need[0], need[1]),
        fail,
        float(p["cover_contact"]),
        float(p["long_range_fraction"]),
        float(p["engagement_range"]),
        float(p["charge_range"]),
        int(p["objective_scoring_from_turn"]),
        int(ctx.turns),
        melee,
        shots,
        reach,
    )


def _attack_tables(
    profiles: dict[str, _Profile], hit: dict[int, float], damage: dict[tuple[int, int], float]
) -> tuple[dict[str, dict[str, tuple[float, float]]], dict[str, dict[str, tuple[float, float, float, float]]]]:
    """Per attacker and target: expected melee damage (target standing, Down) and ranged damage for
    -2..+1 situational DICE (long range, cover, elevation), in points of the target."""
    melee: dict[str, dict[str, tuple[float, float]]] = {}
    shots: dict[str, dict[str, tuple[float, float, float, float]]] = {}

    def clamp(v: int, lo: int, hi: int) -> int:
        return max(lo, min(hi, v))

    for aid, pa in profiles.items():
        melee[aid] = {}
        shots[aid] = {}
        for tid, pt in profiles.items():
            net = pa.melee_net - (1 if pt.fear and not pa.fear else 0)
            mod = clamp(pt.armour + pa.melee_mod, -3, 3)
            up = hit[clamp(net, -6, 6)] * damage[(0, mod)] * pt.points
            down = hit[clamp(net, -6, 6)] * damage[(1, mod)] * pt.points * DOWN_FACTOR
            melee[aid][tid] = (up, down) if pa.has_melee else (0.0, 0.0)
            smod = clamp(pa.shoot_mod + (0 if pa.shoot_ignore_armour else pt.armour), -3, 3)
            row = tuple(hit[clamp(pa.shoot_net + adj, -6, 6)] * damage[(0, smod)] * pt.points for adj in (-2, -1, 0, 1))
            shots[aid][tid] = (row[0], row[1], row[2], row[3])
    return melee, shots


# ------------------------------------------------------------------------------------------- geometry helpers
def _blocked(blockers: list[tuple[float, float, float, float]], ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether the segment a-b crosses the bounding box of a tall sight-blocking piece (Liang-Barsky)."""
    dx, dy = bx - ax, by - ay
    for minx, miny, maxx, maxy in blockers:
        if max(ax, bx) < minx or min(ax, bx) > maxx or max(ay, by) < miny or min(ay, by) > maxy:
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


def _touching_cover(st: _Static, m: Model) -> tuple[tuple[float, float], ...]:
    """Centres of the cover pieces ``m`` touches (digest §4 Cover: at least as wide as the base), memoised."""
    key = (m.x, m.y, m.z, m.radius)
    hit = st.cover_memo.get(key)
    if hit is None:
        if len(st.cover_memo) > _MEMO_LIMIT:
            st.cover_memo.clear()
        hit = st.cover_memo[key] = _find_cover(st, m)
    return hit


def _find_cover(st: _Static, m: Model) -> tuple[tuple[float, float], ...]:
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
def _scoring_turns_left(st: _Static, state: State) -> int:
    now = max(state.turn, 1) if state.phase != "deploy" else 1
    return max(0, st.turns - max(now, st.from_turn) + 1)


def _objectives(st: _Static, state: State, up: list[Model], left: int) -> float:
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


def _objective_parts(st: _Static, standing: list[Model], m: Model) -> list[_ObjPart]:
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


def _objectives_at(st: _Static, state: State, parts: list[_ObjPart], m: Model, left: int) -> float:
    """:func:`_objectives` with ``m`` (standing) where it now is and the others as in ``parts``."""
    if left <= 0:
        return 0.0
    total = 0.0
    current = 0 if state.phase == "deploy" or state.turn < st.from_turn else 1
    side = m.side
    for ox, oy, orad, vp, base_counts, base_near, after in parts:
        counts = list(base_counts)
        near = list(base_near)
        d = math.hypot(m.x - ox, m.y - oy) - m.radius - orad
        if d <= 1e-9:
            counts[side] += 1
            near[side] += 1.0
        elif d < OBJECTIVE_REACH:
            near[side] += 0.6 * (1.0 - d / OBJECTIVE_REACH)
        for add in after:
            near[side] += add
        now = (counts[0] > counts[1]) - (counts[0] < counts[1])
        soft = (near[0] - near[1]) / (near[0] + near[1] + 0.5)
        total += vp * (current * 0.5 * now + OBJECTIVE_PROJECTION * (left - current * 0.5) * (0.4 * now + 0.6 * soft))
    return total * VP_WORTH


#: Height above the target that gives a shooter +1 DICE in the threat estimate (digest §4 Elevated).
_ELEVATED = 3.0 - 1e-9


_Target = tuple[str, float, float, float, float, bool, tuple[tuple[float, float], ...]]


def _target_row(st: _Static, m: Model) -> _Target:
    """What the threat estimate reads of a model as a target: id, x, y, z, radius, Down, the cover it touches."""
    return (m.id, m.x, m.y, m.z, m.radius, bool(m.flags.get("down")), _touching_cover(st, m))


_Arm = tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float, float, float]], float, float, float, float]


def _arm(st: _Static, a: Model) -> _Arm:
    """What an attacker brings, from its profile: its melee and shot tables by target, charge reach, the gap it
    closes by moving, its shooting range and where long range begins."""
    aid = a.id
    srange = st.profiles[aid].shoot_range
    return (
        st.melee[aid],
        st.shots[aid],
        st.reach[aid],
        st.profiles[aid].movement + 1.0,
        srange,
        srange * st.long_fraction,
    )


def _attacker(st: _Static, a: Model, targets: list[_Target], arm: _Arm | None = None) -> tuple[bool, float, float]:
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


def _on_target(st: _Static, attackers: list[tuple[Model, _Arm]], target: _Target) -> list[tuple[bool, float, float]]:
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


def _threats(st: _Static, up: list[Model]) -> tuple[float, float]:
    """Expected damage (in points) each side can deal in its next activations, best target per attacker.

    The hot loop of the evaluation (every attacker against every enemy): each target is read once into a tuple
    and the pairs run over tuples; every value is computed by the same arithmetic in the same order as the plain
    reading (``hypot`` gap, best melee / best shot per attacker, summed in model order), so it is exact."""
    out = [0.0, 0.0]
    rows: tuple[list[_Target], list[_Target]] = ([], [])
    for m in up:
        rows[m.side].append(_target_row(st, m))
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


def _morale_cost(st: _Static, state: State, side: int, hurt: int, leader: bool) -> float:
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


def _fixed(st: _Static, state: State) -> tuple[float, list[Model], list[Model], float]:
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
    st = _static(state)
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
        st = _static(state)
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
        for a in up:
            if not a.flags.get("down"):
                arms[a.id] = arm = _arm(st, a)
                if a is not m:
                    seen = known[1 - a.side]  # as in _threats: the answer depends on these rows and where a is
                    key = (a.id, a.x, a.y, a.z)
                    got = seen.get(key)
                    if got is None:
                        got = seen[key] = _attacker(st, a, rows[1 - a.side], arm)
                    partial[a.id] = got
        m_attacks = not m.flags.get("down")
        parts = _objective_parts(st, standing, m) if m_attacks else None
        still = _objectives(st, state, standing, left) if parts is None else 0.0
        enemy = 1 - m.side
        foes = [(a, arms[a.id]) for a in up if a.side == enemy and a.id in partial]
        out: list[float] = []
        for x, y in points:
            m.x, m.y = x, y
            score = fixed
            score += still if parts is None else _objectives_at(st, state, parts, m, left)
            on_m = iter(_on_target(st, foes, _target_row(st, m)))
            threat = [0.0, 0.0]
            for a in up:
                if a is m:
                    if not m_attacks:
                        continue
                    engaged, best_melee, best_shot = _attacker(st, a, rows[enemy], arms[a.id])
                else:
                    got = partial.get(a.id)
                    if got is None:
                        continue  # Down: no attacks
                    engaged, best_melee, best_shot = got
                    if a.side == enemy:
                        e2, m2, s2 = next(on_m)
                        engaged = engaged or e2
                        if m2 > best_melee:
                            best_melee = m2
                        if s2 > best_shot:
                            best_shot = s2
                best = best_melee if engaged or best_melee > best_shot else best_shot
                threat[a.side] += best * (ACTIVATED_FACTOR if a.flags.get("activated") else 1.0)
            score += THREAT_WEIGHT * (threat[0] - threat[1])
            score += morale
            out.append(sign * score)
        return out
    finally:
        m.x, m.y, m.on_table = saved
