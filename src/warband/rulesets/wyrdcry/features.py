"""Named features of a Wyrdcry position for one side, for the evaluation learned from games
(``Ruleset.features``, :mod:`warband.lab.fit`). Each is the side's value minus the enemy's, so
``features(state, 0) == -features(state, 1)``; the terms are the heuristic's own (:mod:`.evaluate`) read apart:

* ``standing``: fighters standing; ``health``: their health left, as fractions of their health;
  (victory counts fighters out of action, digest §A9 [P] ``most_out``);
* ``dice``: the heuristic's worth of ability groups and singles in hand (digest §A2.6);
* ``reaction_dice``, ``wyrd_bank``: reaction dice and banked wyrd dice held;
* ``objectives``: the heuristic's token value (digest §A9 treasure tokens), 0 in a scenario without them;
* ``exposure``: the heuristic's exposure term (over the enemy's loaded shooters with a fighter in range and in
  sight, the share of that fighter's health the best shot is expected to deal): what the side threatens minus
  what it faces, quartered;
* ``in_reach``: the side's fighters that can strike an enemy this round (the heuristic's ``ability_users``).
"""

from __future__ import annotations

from typing import Any

from warband.kernel.state import GameState
from warband.rulesets.wyrdcry.core import reaction_dice, standing, wyrd_bank
from warband.rulesets.wyrdcry.evaluate import ability_users, dice_value, exposure, objective_value, objectives_scenario


def features(state: GameState[Any], side: int) -> dict[str, float]:
    o = 1 - side
    up = [standing(state, s) for s in (0, 1)]
    health = [sum((int(m.data["health"]) - m.token("damage")) / int(m.data["health"]) for m in ms) for ms in up]
    objectives = 0.0
    if objectives_scenario(state):
        objectives = objective_value(state, side) - objective_value(state, o)
    return {
        "standing": float(len(up[side]) - len(up[o])),
        "health": health[side] - health[o],
        "dice": dice_value(state, side) - dice_value(state, o),
        "reaction_dice": float(reaction_dice(state, side) - reaction_dice(state, o)),
        "wyrd_bank": float(wyrd_bank(state, side) - wyrd_bank(state, o)),
        "objectives": objectives,
        "exposure": float(exposure(state, o) - exposure(state, side)) / 4.0,
        "in_reach": float(ability_users(state, side)[0] - ability_users(state, o)[0]),
    }
