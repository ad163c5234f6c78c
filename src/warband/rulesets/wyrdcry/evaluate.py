"""The heuristic's evaluation of a Wyrdcry position for one side (agents see only this number).

Fighters standing and their health left weigh most (a hired sword's standing less: victory and morale count
only the warband's own fighters, digest §A8, §A9); dice in hand count too (docs: the heuristic "values dice
in hand"): a group is an ability the side may still use, a reaction die a Counter or Take Cover, a banked wyrd
die a better roll later. Ability dice left at the end of the round are lost (digest §A2.6 [P],
``leftover_dice_discarded``) and each fighter uses one ability an activation (seed 003, para. 3), so only as
many groups count as the side has fighters still to use them: the last fighters of a round spend what is left.
A bonus an ability gave the active fighter and it has not used yet (Rush's extra inches, Onslaught's or a
faction ability's extra attack or damage) counts as the gain it is about to bring, so that the one-ply agent
sees why an ability is worth its dice.

Victory pressure (digest §A1, §A9 [P] ``sim_victory = most_out``: the side with more enemies out of action
after the last round wins, equal is a draw; the battle lasts ``battle_rounds``): the side's fighters are pulled
toward the nearest enemy they cannot yet reach, the harder the fewer rounds are left, so that the heuristic
closes in time to take fighters out instead of drifting to a low-kill draw. The pull is not subtracted for the
opponent (the two sides' distances would cancel and even reward running away). Early it is faint: with four or
five rounds to play there is time to close later, and a warband that marches across the open in the first
rounds gives the enemy's shooters (bows and handguns, 18"-24") rounds of shots while the enemy comes to it
anyway; in the last rounds it is what makes the heuristic strike. Measured (issue 21, heuristic against random
on the seven pairings it lost most, 56 games): a pull of 0.06 an inch in round 1 rising to 0.12 won 38, 0.12
throughout 33, 0.01 rising to 0.06 46; see ``docs/evaluation.md``. From the last regular round on, a side
that is not ahead on the score is pulled harder (it draws or loses unless it strikes now); one ahead keeps the
gentler pull and so what it has.

Exposure: each enemy shooter with a loaded ranged weapon and one of the side's fighters in range and in sight
costs the damage its best such shot is expected to do (exact odds of the hit table, digest §A5: its attacks,
Shoot against the target's Defense, damage per hit and crit), as a share of the target's health: the shots the
enemy may take next. A fighter crossing open ground toward shooters then prefers a line behind cover or out of
sight, and does not walk into the range of several shooters for an inch of ground.

The side's own shots count the same way in its favour (the best shot each of its shooters may take next), and
a ranged weapon left empty after a shot (Reload: a Wait action reloads it, seed 003 S 14-16) costs
:data:`EMPTY_WEAPON_VALUE`, so that a shooter reloads instead of carrying an empty crossbow to the end.

A fighter left part-way up a wall or platform side with no move left falls when its activation ends (digest
§A4, Climb): its expected fall damage (a D3 per full ``fall_inches_per_die`` climbed) counts as taken, so that
the one-ply lookahead, which stops before the activation ends, does not climb half-way for nothing.

Objectives (digest §A9: treasure tokens, a token is controlled by the side with more fighters within the
scenario's ``control_range``): in a scenario whose ``rules.victory`` is ``objectives`` each token the side
controls is worth its vp, and the side's fighters are pulled toward the tokens it does not control.
"""

from __future__ import annotations

import functools
import heapq
import math
from typing import Any, cast

from warband.kernel.space import gap
from warband.kernel.state import GameState, Model
from warband.rulesets.wyrdcry.climbing import climbed
from warband.rulesets.wyrdcry.core import pool, reaction_dice, standing, status, visible, wyrd_bank
from warband.rulesets.wyrdcry.odds import damage_distribution
from warband.rulesets.wyrdcry.rolls import fall_dice
from warband.rulesets.wyrdcry.scenario import control_range, objective_at, plays_for_objectives, score, token_holder

#: A fighter still standing, on top of its health left (a fraction of 1): victory counts fighters out of action
#: (D §A9 [P] most_out), so finishing a wounded enemy is worth more than spreading damage.
STANDING_VALUE = 1.5
#: The same for a hired sword: it fights for the side, but victory and morale count only the warband's own
#: fighters (D §A8, §A9: hired swords not counted), so taking one out scores nothing and losing one costs none.
HIRED_STANDING_VALUE = 0.5
#: Value of dice in hand, in units of one fighter standing.
GROUP_VALUE = {2: 0.12, 3: 0.2, 4: 0.3}
#: A group only a fighter still out of striking distance may use this round (a Rush toward the enemy at most).
FAR_GROUP_VALUE = 0.01
#: Inches beyond two moves and its longest weapon within which a fighter counts as able to strike this round.
STRIKE_SLACK = 2.0
REACTION_DIE_VALUE = 0.08
WYRD_DIE_VALUE = 0.1
#: An unspent bonus attack action (Rampage, Self-Flagellation) of a fighter with an enemy in reach: about the
#: damage one attack does, as a fraction of a fighter's health, plus its chance to take the target out.
PENDING_BONUS_ATTACK = 0.45
#: An unspent extra attack die on the melee attack still to make (Onslaught), with an enemy in reach.
PENDING_ATTACK_DIE = 0.15
#: An unspent "+N damage per hit" bonus (Hammer of Sigmar, Hunter's Eye), per point, with a target in reach.
PENDING_HIT_BONUS = 0.08
#: Per inch between a fighter and its nearest enemy beyond its longest weapon's reach, in the first round
#: (faint: there is time to close later, and the enemy's shooters would have rounds of shots meanwhile) ...
DISTANCE_WEIGHT = 0.01
#: ... and in the last regular round (linear in between): the fewer rounds left, the harder the side presses ...
DISTANCE_WEIGHT_LAST = 0.06
#: ... and harder still from the last regular round on while the side is not ahead on the score.
DISTANCE_WEIGHT_LEVEL = 0.12
#: Enemies (the nearest ones) a fighter's distance is averaged over, and the inches of the pull's soft cap.
PULL_NEAREST = 3
PULL_SCALE = 24.0
#: The route grid's cell (inches), how far from a wall or ruin a base's centre must stay, and how many enemy
#: cells' route fields are kept.
ROUTE_CELL = 1.0
ROUTE_CLEARANCE = 0.5
ROUTE_CACHE = 256
#: Per share of a fighter's health an enemy shooter's best shot is expected to take (in range and in sight).
EXPOSURE_WEIGHT = 0.33
#: Per ranged weapon of the side left empty (a Wait reloads it).
EMPTY_WEAPON_VALUE = 0.15
#: Per vp of a treasure token the side controls (objective scenarios only).
OBJECTIVE_VALUE = 0.6
#: Per inch between a token the side does not control and the side's nearest fighter (objective scenarios).
OBJECTIVE_PULL = 0.03


def side_value(state: GameState[Any], side: int, foe: bool = False) -> float:
    """What ``side`` has on the table and in hand; ``foe``: valued as the opponent of the side the evaluation is
    for (its dice in hand counted as usable by all its fighters still to act: :func:`dice_value`)."""
    value = 0.0
    for m in standing(state, side):
        health = int(m.data["health"])
        value += (HIRED_STANDING_VALUE if m.data.get("hired") else STANDING_VALUE) + (
            health - m.token("damage")
        ) / health
        if m.flags.get("status") == "active":
            value += pending_bonus(state, m)
            if m.flags.get("climbing") and moves_left(state, m) == 0:
                value -= fall_damage(state, m) / health
    value += dice_value(state, side, everyone_near=foe)
    value += REACTION_DIE_VALUE * reaction_dice(state, side) + WYRD_DIE_VALUE * wyrd_bank(state, side)
    return value - EMPTY_WEAPON_VALUE * sum(len(m.flags.get("empty", [])) for m in standing(state, side))


def fall_damage(state: GameState[Any], m: Model) -> float:
    """The damage a fighter still climbing is expected to take when it falls from where it clings (D §A4: a D3,
    ``fall_damage_die``, per full ``fall_inches_per_die``)."""
    p = state.ctx.params
    dice = fall_dice(climbed(m), float(p["fall_inches_per_die"]))
    return dice * (int(p["fall_damage_die"]) + 1) / 2


def pending_bonus(state: GameState[Any], m: Model) -> float:
    """The worth of the attack bonuses the active fighter has bought and not used yet, when it has something
    in reach to use them on."""
    value = 0.0
    if within_reach(state, m):
        attacked = any(a == "attack" and not b for a, b in m.flags.get("taken", []))
        dice = 0 if attacked else int(m.flags.get("melee_bonus", 0))
        value += PENDING_BONUS_ATTACK * int(m.flags.get("bonus_attacks", 0)) + PENDING_ATTACK_DIE * dice
        value += PENDING_HIT_BONUS * int(m.flags.get("next_melee_bonus", 0))
    if int(m.flags.get("next_ranged_bonus", 0)) and shot_in_reach(state, m):
        value += PENDING_HIT_BONUS * int(m.flags.get("next_ranged_bonus", 0))
    return value


def dice_value(state: GameState[Any], side: int, everyone_near: bool = False) -> float:
    """Groups in hand, at most one for each fighter that may still use an ability this round, the best groups
    going to the fighters close enough to strike this round (worth their table value) and the rest to fighters
    still out of reach (worth :data:`FAR_GROUP_VALUE`: a Rush at most); singles still in the pool become
    reaction dice once the initiative is settled (D §A2.6).

    With ``everyone_near`` every fighter that may still use an ability counts as near: so the evaluation values
    the opponent's dice, which then do not depend on where the side the evaluation is for stands. Counted by
    the enemy's distance, each step toward the enemy's shooters (who strike from 24") handed the enemy the use
    of its dice in the one-ply lookahead's eyes: a Captain on its own edge would rather use both Moves to stay
    than step into their reach (issue 21, Hardy Company against Reikland Shots)."""
    dice = pool(state, side)
    near, far = ability_users(state, side)
    if everyone_near:
        near, far = near + far, 0
    groups = sorted((GROUP_VALUE[g.size] for g in dice.groups), reverse=True)
    value = sum(groups[:near]) + sum(min(FAR_GROUP_VALUE, g) for g in groups[near : near + far])
    return value + REACTION_DIE_VALUE * len(dice.singles)


def ability_users(state: GameState[Any], side: int) -> tuple[int, int]:
    """Fighters of ``side`` that may still use an ability this round (those still to activate, and the active
    one if it has not used its ability yet: seed 003, para. 3, one ability an activation), as (those that can
    reach an enemy this round: two moves and the longest weapon, those that cannot). Before the combat phase
    every standing fighter counts as near."""
    mine = standing(state, side)
    if state.phase != "combat":
        return len(mine), 0
    limit = int(state.ctx.params["abilities_per_activation"])
    foes = standing(state, 1 - side)
    near = far = 0
    for m in mine:
        st = status(m)
        if st in ("ready", "waiting") or (st == "active" and int(m.flags.get("abilities_used", 0)) < limit):
            strike = 2 * float(m.data["move"]) + reach(m) + STRIKE_SLACK
            if any(gap(m, e) <= strike for e in foes):
                near += 1
            else:
                far += 1
    return near, far


def moves_left(state: GameState[Any], m: Model) -> int:
    """Move actions the active fighter may still take this activation (seed 003: two actions, Move twice)."""
    p = state.ctx.params
    done = [a for a, b in m.flags.get("taken", []) if not b]
    actions = int(p["actions_per_activation"]) - len(done)
    moves = int(p["move_actions_per_activation"]) - sum(1 for a in done if a == "move")
    return max(0, min(actions, moves))


def within_reach(state: GameState[Any], m: Model) -> bool:
    reach = max((float(w["range"][1]) for w in m.data["attacks"] if w["type"] == "melee"), default=0.0)
    return any(gap(m, e) <= reach + 1e-9 for e in standing(state, 1 - m.side))


def shot_in_reach(state: GameState[Any], m: Model) -> bool:
    empty = m.flags.get("empty", [])
    return any(
        float(w["range"][0]) - 1e-9 <= gap(m, e) <= float(w["range"][1]) + 1e-9
        for w in m.data["attacks"]
        if w["type"] == "ranged" and w["weapon"] not in empty
        for e in standing(state, 1 - m.side)
    )


def pressure(state: GameState[Any], side: int) -> float:
    """The pull per inch for the battle round being played: it grows from :data:`DISTANCE_WEIGHT` in the
    first round to :data:`DISTANCE_WEIGHT_LAST` in the last regular one (digest §A1: ``battle_rounds``); from
    the last regular round on, a side not ahead on the score that decides the battle (enemies out of action, or
    victory points: :func:`.scenario.score`, digest §A9) is pulled with :data:`DISTANCE_WEIGHT_LEVEL`: level it
    draws and behind it loses unless it takes fighters out now, while a side ahead may keep what it has."""
    rounds = max(1, int(state.ctx.params["battle_rounds"]))
    t = min(1.0, max(0.0, (state.turn - 1) / max(1, rounds - 1)))
    weight = DISTANCE_WEIGHT + (DISTANCE_WEIGHT_LAST - DISTANCE_WEIGHT) * t
    if state.turn >= rounds:
        s = score(state)
        if s[side] <= s[1 - side]:
            weight = max(weight, DISTANCE_WEIGHT_LEVEL)
    return weight


def pull(state: GameState[Any], side: int) -> float:
    """How far the side's fighters stand beyond their weapons' reach from the enemy, in inches, softly capped.

    Per fighter: the mean over its :data:`PULL_NEAREST` nearest enemies of the inches beyond its longest
    weapon's reach, measured along the ground round walls and ruins (:func:`route`; the active fighter's
    unspent Rush inches, one per move it may still make, counted as covered), passed through
    ``S * (1 - exp(-d / S))`` with ``S`` = :data:`PULL_SCALE`: near the enemy an inch counts fully, far away
    less. Both keep the term small next to a fighter's worth, so that taking the adjacent enemy out (its
    neighbours are farther) or losing a straggler never looks good for the pull."""
    foes = standing(state, 1 - side)
    if not foes:
        return 0.0
    total = 0.0
    k = min(PULL_NEAREST, len(foes))
    w, d = len_cells(state)
    fields = [(route_field(state, e), e.x, e.y, e.radius) for e in foes]
    for m in standing(state, side):
        r = reach(m)
        cx = min(w - 1, max(0, int(m.x / ROUTE_CELL)))
        cy = min(d - 1, max(0, int(m.y / ROUTE_CELL)))
        cell = cy * w + cx
        # from the cell's centre to the fighter: added to the route's length from the enemy to the cell
        off = math.hypot(m.x - (cx + 0.5) * ROUTE_CELL, m.y - (cy + 0.5) * ROUTE_CELL) - m.radius
        gaps = sorted(max(0.0, route(field, cell, off, m, ex, ey, er) - r) for field, ex, ey, er in fields)[:k]
        far = sum(gaps) / k
        if m.flags.get("status") == "active":
            far = max(0.0, far - float(m.flags.get("move_bonus", 0)) * moves_left(state, m))
        total += PULL_SCALE * (1.0 - math.exp(-far / PULL_SCALE))
    return total


def route(field: list[float] | None, cell: int, off: float, m: Model, ex: float, ey: float, er: float) -> float:
    """The gap between fighter ``m`` and an enemy at (ex, ey) with base radius ``er`` along the ground: the
    enemy's route field at ``m``'s cell plus ``off`` (the way from the cell's centre to ``m``'s base edge),
    less the enemy's base; never less than the straight gap (nor when no route is known)."""
    straight = math.hypot(m.x - ex, m.y - ey) - m.radius - er
    if field is None:
        return straight
    via = field[cell]
    if via == math.inf:
        return straight
    return max(straight, via + off - er)


def len_cells(state: GameState[Any]) -> tuple[int, int]:
    """Columns and rows of the route grid over the table."""
    found = state.ctx.memo.get("eval-route-size")
    if found is None:
        table = state.ctx.table
        found = state.ctx.memo["eval-route-size"] = (
            max(1, math.ceil(table.width / ROUTE_CELL)),
            max(1, math.ceil(table.depth / ROUTE_CELL)),
        )
    return cast("tuple[int, int]", found)


def blocked_cells(state: GameState[Any]) -> list[bool]:
    """Cells of the route grid a fighter's base cannot stand in: within a base's radius of a wall or a ruin
    (obstacle and blocking terrain, digest §A4: a move does not go through terrain); platforms are climbed."""
    memo = state.ctx.memo
    found = memo.get("eval-route-blocked")
    if found is None:
        w, d = len_cells(state)
        pieces = [t for t in state.ctx.table.terrain if t.kind in ("obstacle", "blocking")]
        found = []
        for cy in range(d):
            for cx in range(w):
                p = ((cx + 0.5) * ROUTE_CELL, (cy + 0.5) * ROUTE_CELL)
                found.append(any(t.contains(p) or t.distance_to(p) < ROUTE_CLEARANCE for t in pieces))
        memo["eval-route-blocked"] = found
    return list(found)


def route_field(state: GameState[Any], e: Model) -> list[float] | None:
    """Distances along the ground from enemy ``e``'s cell to every cell of the route grid (8 neighbours,
    round blocked cells), cached by cell; None when ``e`` stands in a blocked cell."""
    w, d = len_cells(state)
    cx = min(w - 1, max(0, int(e.x / ROUTE_CELL)))
    cy = min(d - 1, max(0, int(e.y / ROUTE_CELL)))
    memo = state.ctx.memo.setdefault("eval-route-fields", {})
    start = cy * w + cx
    if start in memo:
        return cast("list[float] | None", memo[start])
    blocked = blocked_cells(state)
    if blocked[start]:
        memo[start] = None
        return None
    dist = [math.inf] * (w * d)
    dist[start] = 0.0
    heap = [(0.0, start)]
    steps = [(dx, dy, ROUTE_CELL * math.hypot(dx, dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    while heap:
        du, u = heapq.heappop(heap)
        if du > dist[u]:
            continue
        ux, uy = u % w, u // w
        for dx, dy, cost in steps:
            vx, vy = ux + dx, uy + dy
            if not (0 <= vx < w and 0 <= vy < d):
                continue
            v = vy * w + vx
            if blocked[v] or (dx and dy and (blocked[uy * w + vx] or blocked[vy * w + ux])):
                continue
            nd = du + cost
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    if len(memo) >= ROUTE_CACHE:
        memo.clear()
    memo[start] = dist
    return dist


def evaluate(state: GameState[Any], side: int) -> float:
    if state.phase == "over":
        winner = state.vars.get("winner")
        if winner is not None:
            return 1000.0 if winner == side else -1000.0
    mine = side_value(state, side) - side_value(state, 1 - side, foe=True) - pressure(state, side) * pull(state, side)
    if EXPOSURE_WEIGHT:
        mine -= EXPOSURE_WEIGHT * (exposure(state, side) - exposure(state, 1 - side))
    if objectives_scenario(state):
        mine += objective_value(state, side)
    return mine


def objectives_scenario(state: GameState[Any]) -> bool:
    return bool(state.ctx.objectives) and plays_for_objectives(state)


def objective_value(state: GameState[Any], side: int) -> float:
    """Tokens held for minus against, as the scenario scores them (:func:`rules.token_holder` where the token
    is now: a carried token for its carrier's side, one on the ground for the side with more fighters within the
    ``control_range``, digest §A9), and the pull of the side's nearest fighter toward each token it does not
    hold (toward its carrier when the enemy carries it)."""
    radius = control_range(state)
    mine = standing(state, side)
    value = 0.0
    for o in state.ctx.objectives:
        x, y = objective_at(state, o)
        who = token_holder(state, o.id, (x, y))
        if who == side:
            value += OBJECTIVE_VALUE * o.vp
            continue
        if who is not None:
            value -= OBJECTIVE_VALUE * o.vp
        if mine:
            d = min(math.hypot(m.x - x, m.y - y) - m.radius for m in mine)
            value -= OBJECTIVE_PULL * o.vp * max(0.0, d - radius)
    return value


def exposure(state: GameState[Any], side: int) -> float:
    """Over the enemy's shooters, the share of a fighter's health the best shot each may take at one of the
    side's fighters (a loaded ranged weapon, the target in range and in sight) is expected to deal: the shots
    the enemy may take next (cover and platforms lower it through line of sight)."""
    total = 0.0
    mine = standing(state, side)
    for e in standing(state, 1 - side):
        empty = e.flags.get("empty", [])
        shots = []
        for w in e.data["attacks"]:
            if w["type"] != "ranged" or w["weapon"] in empty:
                continue
            lo, hi = float(w["range"][0]), float(w["range"][1])
            for m in mine:
                if lo - 1e-9 <= gap(e, m) <= hi + 1e-9:
                    shots.append((shot_share(e, w, m), m))
        shots.sort(key=lambda t: -t[0])
        total += next((share for share, m in shots if visible(state, e, m)), 0.0)
    return total


def shot_share(shooter: Model, weapon: dict[str, Any], target: Model) -> float:
    """The damage one shot of ``weapon`` is expected to deal ``target``, as a share of its health left."""
    left = max(1, int(target.data["health"]) - target.token("damage"))
    dmg = weapon["damage"]
    mean = mean_damage(int(weapon["attacks"]), int(shooter.data["shoot"]), int(target.data["defense"]), dmg[0], dmg[1])
    return min(1.0, mean / left)


@functools.lru_cache(maxsize=1024)
def mean_damage(attacks: int, skill: int, defense: int, hit: int, crit: int) -> float:
    """Mean damage of one attack action (exact odds, the default hit table; :mod:`.odds`)."""
    return float(damage_distribution(attacks, skill, defense, (hit, crit)).mean())


def reach(m: Any) -> float:
    """How far the fighter's longest weapon reaches: a shooter in range of an enemy is pulled no closer."""
    return max((float(w["range"][1]) for w in m.data["attacks"]), default=0.0)
