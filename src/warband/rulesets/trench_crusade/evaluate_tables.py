"""The numbers of the Trench Crusade evaluation (:mod:`.evaluate`): its weights, and the tables it computes once
per game (each model's profile, the exact odds of hits, injuries and Morale failures, the expected damage of every
attacker on every target, the cover and sight-blocking terrain), cached per game context.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.geometry.terrain import TerrainPiece
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
_CACHE: dict[int, Static] = {}
#: The exact roll odds (hit, damage, morale failure) depend only on the parameters: computed once per parameter set,
#: not once per game (exact fractions over every roll are slow: seconds per game otherwise).
_ODDS: dict[str, tuple[dict[int, float], dict[tuple[int, int], float], tuple[float, float]]] = {}


@dataclass(slots=True)
class Profile:
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
class Cover:
    """A piece of terrain that may give cover (tall enough, not open, difficult or dangerous ground)."""

    piece: TerrainPiece
    bbox: tuple[float, float, float, float]
    centre: tuple[float, float]
    height: float
    width: float


@dataclass(slots=True)
class Static:
    """What the evaluation of one game never recomputes: its tables, and memos of answers that depend only on where
    models stand (sight between two points, cover at a point, objective parts, an attacker's threat)."""

    ctx: Any
    profiles: dict[str, Profile]
    covers: list[Cover]
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
    #: the blockers as the compiled pairs' C array (``_threat_pairs.Blockers``), built on first use
    fast_blockers: Any = None
    #: what each model brings as an attacker (``evaluate._arm``), per model id, filled on first use
    arms: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------------------------------- static data
def static_tables(state: State) -> Static:
    """The evaluation's tables for the game of ``state``, built once per game context."""
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


def _profile(spec: dict[str, Any]) -> Profile:
    d = spec["data"]
    kws = d["keywords"]
    rw = _best_weapon(d, "ranged")
    mw = _best_weapon(d, "melee")
    return Profile(
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


def _build(state: State) -> Static:
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
            Cover(
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
    return Static(
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
    profiles: dict[str, Profile], hit: dict[int, float], damage: dict[tuple[int, int], float]
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
