"""The heuristic's evaluation of a Wyrdcry position for one side (agents see only this number).

Fighters standing and their health left weigh most; dice in hand count too (docs: the heuristic "values dice
in hand"): a group is an ability the side may still use, a reaction die a Counter or Take Cover, a banked wyrd
die a better roll later. A small pull toward the enemy keeps a side from idling out of reach.
"""

from __future__ import annotations

from typing import Any

from warband.kernel.space import gap
from warband.kernel.state import GameState
from warband.rulesets.wyrdcry.core import pool, reaction_dice, standing, wyrd_bank

#: Value of dice in hand, in units of one fighter standing.
GROUP_VALUE = {2: 0.12, 3: 0.2, 4: 0.3}
REACTION_DIE_VALUE = 0.08
WYRD_DIE_VALUE = 0.1
#: Per inch between a fighter and its nearest enemy.
DISTANCE_WEIGHT = 0.004


def side_value(state: GameState[Any], side: int) -> float:
    value = 0.0
    foes = standing(state, 1 - side)
    for m in standing(state, side):
        health = int(m.data["health"])
        value += 1.0 + (health - m.token("damage")) / health
        if foes:
            value -= DISTANCE_WEIGHT * min(gap(m, e) for e in foes)
    value += sum(GROUP_VALUE[g.size] for g in pool(state, side).groups)
    value += REACTION_DIE_VALUE * reaction_dice(state, side) + WYRD_DIE_VALUE * wyrd_bank(state, side)
    return value


def evaluate(state: GameState[Any], side: int) -> float:
    if state.phase == "over":
        winner = state.vars.get("winner")
        if winner is not None:
            return 1000.0 if winner == side else -1000.0
    return side_value(state, side) - side_value(state, 1 - side)
