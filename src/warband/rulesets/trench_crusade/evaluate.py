"""A heuristic value of a Trench Crusade position for one side, for agents (``TrenchCrusade.evaluate``).

The value is in points (ducats), zero-sum: ``evaluate(state, 0) == -evaluate(state, 1)``. It adds up what a
sensible player weighs before acting:

* **material**: the points of models still in the game; a Down model is worth less and every Blood marker
  (which the enemy spends against it, digest §6) shaves some off;
* **victory points** held (``state.vars["vp"]``), each worth :data:`VP_WORTH` points;
* **objectives**: who controls each now (:func:`morale.controller`) and who is closest to it, projected over
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

import math
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.geometry import TerrainPiece
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
_CACHE: dict[int, _Static] = {}


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
    cover_memo: dict[tuple[float, float, float, float], list[tuple[float, float]]] = field(default_factory=dict)


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


def _build(state: State) -> _Static:
    from warband.rulesets.trench_crusade.odds import injury_odds, success_odds

    ctx = state.ctx
    p = ctx.params
    hit = {n: float(success_odds(n, p)["success"]) for n in range(-6, 7)}
    damage: dict[tuple[int, int], float] = {}
    for extra in range(0, 3):
        for mod in range(-3, 4):
            odds = injury_odds(extra, mod, params=p)
            damage[(extra, mod)] = float(odds["out"]) + 0.45 * float(odds["down"]) + 0.04 * float(odds["minor"])
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
    lead = int(p["leader_morale_dice"])
    fail = (float(success_odds(0, p)["failure"]), float(success_odds(lead, p)["failure"]))
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


def _touching_cover(st: _Static, m: Model) -> list[tuple[float, float]]:
    """Centres of the cover pieces ``m`` touches (digest §4 Cover: at least as wide as the base), memoised."""
    key = (m.x, m.y, m.z, m.radius)
    hit = st.cover_memo.get(key)
    if hit is None:
        if len(st.cover_memo) > _MEMO_LIMIT:
            st.cover_memo.clear()
        hit = st.cover_memo[key] = _find_cover(st, m)
    return hit


def _find_cover(st: _Static, m: Model) -> list[tuple[float, float]]:
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
    return out


def _covered(cover: list[tuple[float, float]], m: Model, sx: float, sy: float) -> bool:
    return any((cx - m.x) * (sx - m.x) + (cy - m.y) * (sy - m.y) > 0.0 for cx, cy in cover)


# ------------------------------------------------------------------------------------------- the terms
def _material(st: _Static, m: Model) -> float:
    prof = st.profiles[m.id]
    if not m.on_table:
        return 0.0 if m.flags.get("out") else prof.points
    v = prof.points * (DOWN_FACTOR if m.flags.get("down") else 1.0)
    blood = m.tokens.get("blood", 0)
    if blood:
        v *= max(0.4, 1.0 - BLOOD_COST * blood)
    return v


def _scoring_turns_left(st: _Static, state: State) -> int:
    now = max(state.turn, 1) if state.phase != "deploy" else 1
    return max(0, st.turns - max(now, st.from_turn) + 1)


def _objectives(st: _Static, state: State, up: list[Model], left: int) -> float:
    """Side 0's objective value: control now (scored at the end of this turn) and presence nearby."""
    if left <= 0:
        return 0.0
    total = 0.0
    current = 0 if state.phase == "deploy" or state.turn < st.from_turn else 1
    for ox, oy, orad, vp in st.objectives:
        counts = [0, 0]
        near = [0.0, 0.0]
        for m in up:
            d = math.hypot(m.x - ox, m.y - oy) - m.radius - orad
            if d <= 1e-9:
                counts[m.side] += 1
                near[m.side] += 1.0
            elif d < OBJECTIVE_REACH:
                near[m.side] += 0.6 * (1.0 - d / OBJECTIVE_REACH)
        now = (counts[0] > counts[1]) - (counts[0] < counts[1])
        soft = (near[0] - near[1]) / (near[0] + near[1] + 0.5)
        total += vp * (current * 0.5 * now + OBJECTIVE_PROJECTION * (left - current * 0.5) * (0.4 * now + 0.6 * soft))
    return total * VP_WORTH


def _threats(st: _Static, state: State, up: list[Model]) -> tuple[float, float]:
    """Expected damage (in points) each side can deal in its next activations, best target per attacker."""
    out = [0.0, 0.0]
    by_side: tuple[list[Model], list[Model]] = ([], [])
    for m in up:
        by_side[m.side].append(m)
    covers = {m.id: _touching_cover(st, m) for m in up}
    engagement = st.engagement
    long_fraction = st.long_fraction
    blockers = st.blockers
    sight_memo = st.sight_memo
    hypot = math.hypot
    for a in up:
        if a.flags.get("down"):
            continue
        pa = st.profiles[a.id]
        melee = st.melee[a.id]
        shots = st.shots[a.id]
        best_shot = 0.0
        best_melee = 0.0
        engaged = False
        reach = st.reach[a.id]
        near = pa.movement + 1.0
        srange = pa.shoot_range
        ax, ay = a.x, a.y
        for t in by_side[1 - a.side]:
            g = hypot(ax - t.x, ay - t.y) - a.radius - t.radius
            down = bool(t.flags.get("down"))
            if g <= engagement:
                engaged = True
            if g <= reach:
                dmg = melee[t.id][down]
                if g > engagement:
                    dmg *= 0.75 if g <= near else 0.45
                if dmg > best_melee:
                    best_melee = dmg
            if engagement < g <= srange:
                if blockers:
                    key = (ax, ay, t.x, t.y)
                    blocked = sight_memo.get(key)
                    if blocked is None:
                        if len(sight_memo) > _MEMO_LIMIT:
                            sight_memo.clear()
                        blocked = sight_memo[key] = _blocked(blockers, ax, ay, t.x, t.y)
                    if blocked:
                        continue
                adj = 2
                if g > srange * long_fraction:
                    adj -= 1
                cover = covers[t.id]
                if cover and _covered(cover, t, ax, ay):
                    adj -= 1
                if a.z - t.z >= 3.0 - 1e-9:
                    adj += 1
                dmg = shots[t.id][adj] * (DOWN_FACTOR if down else 1.0)
                if dmg > best_shot:
                    best_shot = dmg
        best = best_melee if engaged or best_melee > best_shot else best_shot
        out[a.side] += best * (ACTIVATED_FACTOR if a.flags.get("activated") else 1.0)
    return out[0], out[1]


def _morale(st: _Static, state: State, side: int) -> float:
    """The cost to ``side`` of its morale: Shaken, and the chance of failing the next Morale check."""
    models = state.side_models(side)
    hurt = sum(1 for m in models if not m.on_table or m.flags.get("down"))
    shaken = bool(state.sides[side].flags.get("shaken"))
    leader = any(m.on_table and not m.flags.get("down") and st.profiles[m.id].leader for m in models)
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
def evaluate(state: State, side: int) -> float:
    """The value of ``state`` for ``side`` in points (higher is better; the opponent's value is its negative).

    A finished game is worth :data:`WIN` (plus the victory-point margin) to the winner."""
    vp = state.vars.get("vp", [0, 0])
    sign = 1.0 if side == 0 else -1.0
    if state.phase == "over":
        winner = state.vars.get("winner")
        margin = float(vp[0] - vp[1])
        if winner is None:
            return sign * margin
        return sign * ((WIN if winner == 0 else -WIN) + margin)
    st = _static(state)
    score = 0.0
    up: list[Model] = []
    for m in state.models.values():
        v = _material(st, m)
        score += v if m.side == 0 else -v
        if m.on_table:
            up.append(m)
    score += VP_WORTH * float(vp[0] - vp[1])
    if state.phase != "deploy" or any(m.on_table for m in up):
        score += _objectives(st, state, [m for m in up if not m.flags.get("down")], _scoring_turns_left(st, state))
        t0, t1 = _threats(st, state, up)
        score += THREAT_WEIGHT * (t0 - t1)
    score += _morale(st, state, 1) - _morale(st, state, 0)
    return sign * score
