"""Named features of a Gangfight position for one side, for the evaluation learned from games
(``Ruleset.features``, :mod:`warband.lab.fit`). Each is the side's value minus the enemy's, so
``features(state, 0) == -features(state, 1)``; the terms are the heuristic's own (:mod:`.evaluate`) read apart:

* ``material`` (tens of points): points of models in the fight weighted by EN left, loaded weapons
  (the heuristic's material term, seed 004);
* ``models_in_action``: models on the table and not incapacitated; ``knocked``: of them, knocked down;
* ``vp``: victory points held; ``objective_pressure``: the heuristic's pull toward objectives and enemies;
* ``held_ap``: the heuristic's worth of Action Points kept for Interrupts (seed 004);
* ``threatened``: enemy models that can reach one of the side's models next turn (a Move and a Charge! or a
  Move and its longest ranged weapon, the heuristic's ``_reach``), counted per (enemy, model) pair: a threat
  the side faces (negative) minus the threats it makes.
"""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.state import GameState, Model
from warband.rulesets.gangfight.core import incap, knocked
from warband.rulesets.gangfight.evaluate import _held, _material, _pressure, _reach


def _threats(state: GameState[Any], attackers: list[Model], targets: list[Model]) -> int:
    count = 0
    for e in attackers:
        r = _reach(state, e)
        count += sum(1 for m in targets if math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius <= r)
    return count


def features(state: GameState[Any], side: int) -> dict[str, float]:
    o = 1 - side
    live = [[m for m in state.side_models(s) if m.on_table and not incap(m)] for s in (0, 1)]
    vp = state.vars.get("vp", [0, 0])
    return {
        "material": (_material(state, side) - _material(state, o)) / 10.0,
        "models_in_action": float(len(live[side]) - len(live[o])),
        "knocked": float(sum(map(knocked, live[side])) - sum(map(knocked, live[o]))),
        "vp": float(int(vp[side]) - int(vp[o])),
        "objective_pressure": _pressure(state, side) - _pressure(state, o),
        "held_ap": _held(state, side) - _held(state, o),
        "threatened": float(_threats(state, live[side], live[o]) - _threats(state, live[o], live[side])) / 4.0,
    }
