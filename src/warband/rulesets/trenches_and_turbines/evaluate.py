"""A heuristic value of a position for one side (for agents): material, victory points (mission actions' too),
projected objective control (claimed and removed markers included), pins and Routed units, and cover/prone when
enemies can shoot."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.geometry.distance import Vec
from warband.kernel.state import Model
from warband.kernel.steps import top
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import succeeds, ustate
from warband.rulesets.trenches_and_turbines.cover import cover_here, cover_table, unit_cover
from warband.rulesets.trenches_and_turbines.missions import live_objectives, marks, target_ids
from warband.rulesets.trenches_and_turbines.movement import Dest, dest_plans
from warband.rulesets.trenches_and_turbines.shooting import shoot_eligibility, shoot_groups, shooters, unit_weapons
from warband.rulesets.trenches_and_turbines.units import active, members, units_of


def unit_value(state: State, uid: str, ms: list[Model] | None = None) -> float:
    """Worth of a unit's surviving models (HP left x a profile weight), discounted for pins and rout. ``ms``: the
    unit's models on the table, if the caller has them."""
    total = 0.0
    profiles = _profiles(state)
    for m in members(state, uid) if ms is None else ms:
        profile = profiles.get(m.id)
        if profile is None:
            profile = _profile(profiles, m)
        weight, hp, per, big = profile
        total += weight * (hp - m.tokens.get("damage", 0)) / per * big
    u = ustate(state, uid)
    if u["routed"]:
        total *= 0.45
    total *= 1.0 - 0.06 * min(int(u["pins"]), 5)
    return total


def _profiles(state: State) -> dict[str, tuple[float, int, int, float]]:
    """Each model's weight in :func:`unit_value` (its weight, HP, the HP divisor and the multi-wound factor) by model
    id: one dict in the memo, asked by id (a string keeps its hash) without a tuple key per model."""
    memo = state.ctx.memo
    table: dict[str, tuple[float, int, int, float]] | None = memo.get("unit-profiles")
    if table is None:
        table = memo["unit-profiles"] = {}
    return table


def _profile(profiles: dict[str, tuple[float, int, int, float]], m: Model) -> tuple[float, int, int, float]:
    """A model's weight in :func:`unit_value` (its profile never changes in a game: weighed once, kept in
    ``profiles``)."""
    d = m.data
    weight = 1.0 + 0.15 * (int(d["ranged"]) + int(d["melee"]) + int(d["sv"])) / 3
    weight += 0.1 * sum(int(w["attacks"]) * int(w["damage"]) for w in d["weapons"])
    hp = int(d["hp"])
    profile = profiles[m.id] = (weight, hp, max(1, hp), 1 + 0.4 * (hp - 1))
    return profile


def mission_readiness(state: State, side: int) -> float:
    """Half the VP of each scoring scenario action a side stands ready to perform on a marker (a model within
    its reach), so that units walk up to the marker instead of stopping at the control radius."""
    score = 0.0
    for spec in state.ctx.missions.values():
        near = next((r for r in spec["requires"] if r["kind"] == "near-objective"), None)
        gain = sum(int(e["vp"]) for e in spec["effects"] if e["kind"] == "score")
        if near is None or gain <= 0:
            continue
        reach = float(near["within"])
        for oid in target_ids(state, spec):
            at = marks(state)[oid]["at"]
            for s in (0, 1):
                if any(
                    m.on_table and m.side == s and math.hypot(m.x - at[0], m.y - at[1]) - m.radius <= reach
                    for m in state.models.values()
                ):
                    score += 0.5 * gain if s == side else -0.5 * gain
    return score


def _p_success(state: State, target: int) -> float:
    """Chance that one die succeeds at or under ``target`` (seed 002, Make Hit Rolls / Saves; the rule is
    ``core.succeeds`` over the game's params, as in ``odds.p_test``), as a float, remembered per game."""
    memo = state.ctx.memo
    k = ("p-success", target)
    hit: float | None = memo.get(k)
    if hit is None:
        p = state.ctx.params
        sides = int(p["die_sides"])
        hit = memo[k] = sum(1 for v in range(1, sides + 1) if succeeds(p, v, target)) / sides
    return hit


def shot_value(state: State, uid: str, tuid: str, wname: str) -> float:
    """What a Shoot of ``uid`` at ``tuid`` with ``wname`` is expected to take from ``tuid``, in
    :func:`unit_value`'s terms: the expected unsaved damage (attacks at the modified Ranged the rules would
    use, ``shooting.shoot_groups``: range band, Conceal, prone, size; saves at SV - Pen + the unit's Cover
    against the first shooter, seed 002 Make Hit Rolls / Saves) times the unit's worth per HP left, capped at
    the unit's worth, plus the pin a hit puts on it (digest §3.7: ``pin_on_hit``) at 6% of its worth."""
    groups = shoot_groups(state, uid, tuid, wname, False)
    if not groups:
        return 0.0
    ms = members(state, tuid)
    worth = unit_value(state, tuid, ms)
    hp_left = sum(max(1, int(m.data["hp"]) - m.token("damage")) for m in ms)
    first = shooters(state, uid, tuid, wname, False)
    cover = unit_cover(state, tuid, first[0][0] if first else None)
    if ustate(state, tuid)["prone"] and cover > 0:
        cover += int(state.ctx.params["prone_cover_bonus"])
    sv = int(ms[0].data["sv"])
    damage = 0.0
    miss_all = 1.0
    for g in groups:
        p_hit = _p_success(state, g.tn)
        fail = 1.0 - _p_success(state, sv - g.pen + cover)
        damage += g.n * p_hit * g.damage * fail
        miss_all *= (1.0 - p_hit) ** g.n
    pin = (1.0 - miss_all) * 0.06 * worth * int(state.ctx.params["pin_on_hit"])
    return min(worth, damage * worth / max(1, hp_left)) + pin


def unit_threat(state: State, uid: str) -> float:
    """The best :func:`shot_value` the unit has now over the enemy units and its weapons; 0 when it may not
    shoot at all (seed 002, Shoot: Routed, or within 1" of an enemy)."""
    if shoot_eligibility(state, uid):
        return 0.0
    side = int(state.ctx.units[uid]["side"])
    best = 0.0
    for w in unit_weapons(state, uid):
        for tuid in units_of(state, 1 - side):
            best = max(best, shot_value(state, uid, tuid, w))
    return best


def activations_left(state: State, uid: str) -> int:
    """Activations ``uid`` still has this round: its cards left in the deck (digest §3.2), plus the one under
    way if it is the active unit with actions left."""
    deck = state.vars.get("deck") or []
    n = sum(1 for u in deck if u == uid)
    if active(state) == uid and int(state.vars.get("left", 0)) > 0:
        n += 1
    return n


#: Weights of :func:`threat`: a unit's best shot counts this much if it has an activation left this round,
#: and this much if it has to wait for the next round (when the enemy may move first).
THREAT_NOW = 0.4
THREAT_LATER = 0.15


def threat(state: State, side: int) -> float:
    """The shots ``side``'s units threaten minus those the enemy's threaten, each unit's best
    (:func:`unit_threat`), weighed :data:`THREAT_NOW` if it still activates this round and
    :data:`THREAT_LATER` if not."""
    score = 0.0
    for s in (0, 1):
        for uid in units_of(state, s):
            t = unit_threat(state, uid)
            if t > 0:
                w = THREAT_NOW if activations_left(state, uid) > 0 else THREAT_LATER
                score += w * t if s == side else -w * t
    return score


#: A model on the table as the objective counts see it: x, y, base radius, side, unit, weight (2 for L and XL).
Standing = tuple[float, float, float, int, str, int]


def standing(state: State) -> list[Standing]:
    """The models on the table as :func:`holder` counts them, once per evaluation for every objective."""
    large = int(state.ctx.params["objective_large_weight"])
    return [
        (m.x, m.y, m.radius, m.side, str(m.unit), large if m.data["size"] in ("L", "XL") else 1)
        for m in state.models.values()
        if m.on_table
    ]


def holder(on: list[Standing], status: dict[str, Any], at: Vec, radius: float) -> int | None:
    """``scoring.objective_holder`` (digest §3.3: more models of non-Routed units within the radius, size L+
    counting double) over :func:`standing`'s list: the same test and counts, ``status`` the units' status."""
    ax, ay = at
    lim = radius + 1e-9
    count = [0, 0]
    hypot = math.hypot
    for x, y, r, s, u, weight in on:
        if hypot(x - ax, y - ay) - r <= lim and not status[u]["routed"]:
            count[s] += weight
    if count[0] == count[1]:
        return None
    return 0 if count[0] > count[1] else 1


def evaluate(state: State, side: int) -> float:
    """Material (:func:`unit_value`), cover, VP, mission readiness, objective control and a pull toward the
    objectives, for ``side``. One pass over each unit's models (:func:`_unit_sums`) gives its worth and its cover
    (the same sums in the same order as :func:`unit_value` and ``cover.model_cover``), one list of the standing
    models serves every objective (:func:`holder`)."""
    score = _material_terms(_unit_sums(state, side, "")[0])
    vp = state.vars.get("vp", [0, 0])
    score += 2.0 * (int(vp[side]) - int(vp[1 - side]))
    score += mission_readiness(state, side)
    return _objective_terms(state, side, score, standing(state), state.vars["u"])


def _objective_terms(state: State, side: int, score: float, on: list[Standing], status: dict[str, Any]) -> float:
    """``score`` plus :func:`evaluate`'s objective terms (control, a pull toward each objective), added in its
    order; ``on``: :func:`standing`'s list."""
    mine = [(x, y) for x, y, _, s, _, _ in on if s == side]
    for o, at, owner in live_objectives(state):  # markers a mission action removed no longer count
        h = owner if owner is not None else holder(on, status, at, o.radius)
        if h is not None:
            score += 0.9 if h == side else -0.9
        ax, ay = at
        for mx, my in mine:  # pull toward objectives a little
            d = ((mx - ax) ** 2 + (my - ay) ** 2) ** 0.5
            score += 0.02 / (1.0 + d / 6.0)
    return score


def search_evaluate(state: State, side: int) -> float:
    """:func:`evaluate` plus :func:`threat`: the value a search judges the ends of its rollouts by (the
    ruleset's ``search_evaluate`` face). Too slow for the heuristic's every lookahead (about 6 ms a position
    against 0.1), cheap enough for a few dozen rollout ends a decision."""
    return evaluate(state, side) + threat(state, side)


def evaluate_destinations(state: State, side: int, actions: Sequence[Action]) -> list[float] | None:
    """:func:`evaluate` for ``side`` after each of ``actions`` at the destination choice on top of ``state``
    (:class:`movement.Dest`: a Move or a Shift of one unit, seed 002), with no rules run: for ``to UNIT @x,y`` every
    model of the unit stood where the move's plan puts it (:func:`movement.dest_plan`, the plan the listing made
    and the rules apply: the leader at the point, the others in formation or at the nearest free slots), for
    ``stay UNIT`` the position as it is. The heuristic agent ranks a unit's destinations by these values and plays
    only the best few for real. A destination moves nothing else and rolls no die, so each value is the
    evaluation right after the rules apply that action (property test ``test_tt_destination_values.py``); what the
    rules do next (the next activation card drawn, a round's end and its scoring, the Fight a free Shift ends) is
    not in it. None when the decision is not a destination or an action is not one of its ``to`` / ``stay``
    actions. The models are put back before returning.

    Incremental: only the moving unit's cover, mission readiness and the objective terms depend on where it
    stands; every unit's worth and the other units' cover are summed once, and the terms are added in
    :func:`evaluate`'s order, so each value is exactly ``evaluate``'s (the same floating-point sums)."""
    step = top(state)
    if not isinstance(step, Dest):
        return None
    uid = step.unit
    if any(a.model != uid or not (a.kind == "stay" or (a.kind == "to" and a.point is not None)) for a in actions):
        return None
    tos = [a for a in actions if a.kind == "to"]
    planned = dest_plans(state, step, tos)  # before anything moves: plans are remembered by the positions
    if any(not isinstance(p, dict) for p in planned):
        return None
    plans = iter(planned)
    units = state.ctx.units
    models = state.models
    covers = cover_table(state)
    sums, at = _unit_sums(state, side, uid)
    vp = state.vars.get("vp", [0, 0])
    vp_term = 2.0 * (int(vp[side]) - int(vp[1 - side]))
    moving = [m for m in (models[mid] for mid in units[uid]["models"]) if m.on_table]
    objectives = _ObjectiveTerms(state, side, moving)
    here: float | None = None
    out: list[float] = []
    for a in actions:
        if a.kind == "stay":
            if here is None:
                here = evaluate(state, side)
            out.append(here)
            continue
        plan = next(plans)
        assert isinstance(plan, dict)
        was = [(m, m.x, m.y, m.z) for m in moving]
        for m in moving:
            m.x, m.y, m.z = plan[m.id]
        covered = 0
        for m in moving:
            c = covers.get((m.x, m.y, m.radius))
            covered += cover_here(state, m) if c is None else c
        sign, total, n, _ = sums[at]
        sums[at] = (sign, total, n, covered)
        score = _material_terms(sums)
        score += vp_term
        score += mission_readiness(state, side)
        out.append(objectives.add(score))
        for m, x, y, z in was:
            m.x, m.y, m.z = x, y, z
    return out


def _material_terms(sums: list[tuple[float, float, int, int]]) -> float:
    """:func:`evaluate`'s material and cover terms from :func:`_unit_sums`' rows, added in its order: each unit's
    worth, a destroyed unit's VP to the enemy, its models' mean cover."""
    score = 0.0
    for sign, total, n, covered in sums:
        if total <= 0:
            score -= sign * 1.5  # a destroyed unit is a VP to the enemy
        score += sign * total
        if n:
            score += sign * 0.15 * (covered / n)
    return score


def _unit_sums(state: State, side: int, moving: str) -> tuple[list[tuple[float, float, int, int]], int]:
    """Each unit's sign, worth (rout and pins applied), models on the table and cover sum as :func:`evaluate`
    makes them, in its order; the index of ``moving``'s."""
    units = state.ctx.units
    models = state.models
    status = state.vars["u"]
    profiles = _profiles(state)
    covers = cover_table(state)
    out: list[tuple[float, float, int, int]] = []
    at = -1
    for uid in state.ctx.unit_order:
        sign = 1.0 if units[uid]["side"] == side else -1.0
        total = 0.0
        covered = 0
        n = 0
        for mid in units[uid]["models"]:
            m = models[mid]
            if not m.on_table:
                continue
            n += 1
            profile = profiles.get(mid)
            if profile is None:
                profile = _profile(profiles, m)
            weight, hp, per, big = profile
            total += weight * (hp - m.tokens.get("damage", 0)) / per * big
            if uid != moving:
                c = covers.get((m.x, m.y, m.radius))
                covered += cover_here(state, m) if c is None else c
        u = status[uid]
        if u["routed"]:
            total *= 0.45
        total *= 1.0 - 0.06 * min(int(u["pins"]), 5)
        if uid == moving:
            at = len(out)
        out.append((sign, total, n, covered))
    return out, at


class _ObjectiveTerms:
    """:func:`_objective_terms` for the positions of ``moving`` (one unit's models on the table) at each
    destination, the other models standing still: each objective's counts of the still models and the pull of
    each still model of ``side`` are worked out once; per destination only the moving models' are, and the terms
    are added to the score one by one in :func:`_objective_terms`' order (the same floats). The counts are whole
    numbers, so adding the moving models' last gives the same holder (:func:`holder`)."""

    def __init__(self, state: State, side: int, moving: list[Model]) -> None:
        self.side = side
        status = state.vars["u"]
        moving_ids = {m.id for m in moving}
        on = standing(state)
        ids = [m.id for m in state.models.values() if m.on_table]
        large = int(state.ctx.params["objective_large_weight"])
        #: the moving models that count for an objective (radius, side, weight): none if their unit is Routed
        self.counting = [] if not moving or status[str(moving[0].unit)]["routed"] else moving
        self.weights = [large if m.data["size"] in ("L", "XL") else 1 for m in moving]
        mine = [(mid, x, y) for mid, (x, y, _, s, _, _) in zip(ids, on, strict=True) if s == side]
        #: the moving models of ``side`` and where each comes in the pull's order
        self.holes = [(k, state.models[mid]) for k, (mid, _, _) in enumerate(mine) if mid in moving_ids]
        self.objectives: list[tuple[Vec, float, int | None, list[int] | None, list[float]]] = []
        hypot = math.hypot
        for o, at, owner in live_objectives(state):
            ax, ay = at
            counts: list[int] | None = None
            if owner is None:
                counts = [0, 0]
                lim = o.radius + 1e-9
                for mid, (x, y, r, s, u, weight) in zip(ids, on, strict=True):
                    if mid not in moving_ids and hypot(x - ax, y - ay) - r <= lim and not status[u]["routed"]:
                        counts[s] += weight
            pulls = [
                0.0 if mid in moving_ids else 0.02 / (1.0 + ((mx - ax) ** 2 + (my - ay) ** 2) ** 0.5 / 6.0)
                for mid, mx, my in mine
            ]
            self.objectives.append((at, o.radius + 1e-9, owner, counts, pulls))

    def add(self, score: float) -> float:
        """``score`` plus the objective terms with the moving models where they stand now."""
        side = self.side
        hypot = math.hypot
        for (ax, ay), lim, owner, counts, pulls in self.objectives:
            h = owner
            if counts is not None:
                count = list(counts)
                for m, weight in zip(self.counting, self.weights, strict=False):
                    if hypot(m.x - ax, m.y - ay) - m.radius <= lim:
                        count[m.side] += weight
                h = None if count[0] == count[1] else (0 if count[0] > count[1] else 1)
            if h is not None:
                score += 0.9 if h == side else -0.9
            if self.holes:
                pulls = list(pulls)
                for k, m in self.holes:
                    pulls[k] = 0.02 / (1.0 + ((m.x - ax) ** 2 + (m.y - ay) ** 2) ** 0.5 / 6.0)
            for add in pulls:
                score += add
        return score
