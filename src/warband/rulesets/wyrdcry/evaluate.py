"""The heuristic's evaluation of a Wyrdcry position for one side (agents see only this number).

Fighters standing and their health left weigh most; dice in hand count too (docs: the heuristic "values dice
in hand"): a group is an ability the side may still use, a reaction die a Counter or Take Cover, a banked wyrd
die a better roll later. A small pull of the evaluated side's own fighters toward the enemy keeps it from
idling out of reach (it is not subtracted for the opponent: the two sides' distances would cancel and even
reward running away).
"""

from __future__ import annotations

from typing import Any

from warband.kernel.space import gap
from warband.kernel.state import GameState
from warband.rulesets.wyrdcry.core import pool, reaction_dice, standing, visible, wyrd_bank

#: A fighter still standing, on top of its health left (a fraction of 1): victory counts fighters out of action
#: (D §A9 [P] most_out), so finishing a wounded enemy is worth more than spreading damage.
STANDING_VALUE = 1.5
#: Value of dice in hand, in units of one fighter standing.
GROUP_VALUE = {2: 0.12, 3: 0.2, 4: 0.3}
REACTION_DIE_VALUE = 0.08
WYRD_DIE_VALUE = 0.1
#: An unspent Onslaught or Rampage bonus of a fighter with an enemy in reach (the attack it will make).
PENDING_ATTACK_BONUS = 0.25
#: Per inch between a fighter and its nearest enemy beyond its longest weapon's reach.
DISTANCE_WEIGHT = 0.02
#: Per enemy shot the evaluated side's fighters stand open to (a loaded ranged weapon in range and in sight).
EXPOSURE_WEIGHT = 0.0


def side_value(state: GameState[Any], side: int) -> float:
    value = 0.0
    for m in standing(state, side):
        health = int(m.data["health"])
        value += STANDING_VALUE + (health - m.token("damage")) / health
        if m.flags.get("status") == "active" and within_reach(state, m):
            attacked = any(a == "attack" and not b for a, b in m.flags.get("taken", []))
            bonus = int(m.flags.get("bonus_attacks", 0)) + (0 if attacked else int(m.flags.get("melee_bonus", 0)))
            value += PENDING_ATTACK_BONUS * bonus
    dice = pool(state, side)
    # singles still in the pool become reaction dice once the initiative is settled (D §A2.6)
    value += sum(GROUP_VALUE[g.size] for g in dice.groups) + REACTION_DIE_VALUE * len(dice.singles)
    value += REACTION_DIE_VALUE * reaction_dice(state, side) + WYRD_DIE_VALUE * wyrd_bank(state, side)
    return value


def within_reach(state: GameState[Any], m: Any) -> bool:
    reach = max((float(w["range"][1]) for w in m.data["attacks"] if w["type"] == "melee"), default=0.0)
    return any(gap(m, e) <= reach + 1e-9 for e in standing(state, 1 - m.side))


def evaluate(state: GameState[Any], side: int) -> float:
    if state.phase == "over":
        winner = state.vars.get("winner")
        if winner is not None:
            return 1000.0 if winner == side else -1000.0
    foes = standing(state, 1 - side)
    pull = sum(max(0.0, min(gap(m, e) for e in foes) - reach(m)) for m in standing(state, side)) if foes else 0.0
    mine = side_value(state, side) - side_value(state, 1 - side) - DISTANCE_WEIGHT * pull
    if EXPOSURE_WEIGHT:
        mine -= EXPOSURE_WEIGHT * exposure(state, side)
    return mine


def exposure(state: GameState[Any], side: int) -> int:
    """How many (enemy shooter, own fighter) pairs have the fighter in the loaded weapon's range and in sight
    (the shots the enemy may take next; cover and platforms lower it through line of sight)."""
    count = 0
    mine = standing(state, side)
    for e in standing(state, 1 - side):
        empty = e.flags.get("empty", [])
        for w in e.data["attacks"]:
            if w["type"] != "ranged" or w["weapon"] in empty:
                continue
            lo, hi = float(w["range"][0]), float(w["range"][1])
            for m in mine:
                if lo - 1e-9 <= gap(e, m) <= hi + 1e-9 and visible(state, e, m):
                    count += 1
    return count


def reach(m: Any) -> float:
    """How far the fighter's longest weapon reaches: a shooter in range of an enemy is pulled no closer."""
    return max((float(w["range"][1]) for w in m.data["attacks"]), default=0.0)
