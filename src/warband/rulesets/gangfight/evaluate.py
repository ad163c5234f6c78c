"""The heuristic agent's view of a Gangfight position: material (points weighted by EN left), victory points,
objective pressure and closing the distance. Higher is better for ``side``."""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.state import GameState
from warband.rulesets.gangfight.core import en, incap, knocked, loaded, stat

#: Points a loaded archaic weapon adds to its model's worth.
LOADED_VALUE = 3.0


def _material(state: GameState[Any], side: int) -> float:
    total = 0.0
    for m in state.side_models(side):
        if not m.on_table or incap(m):
            continue
        frac = max(0, en(m)) / max(1, stat(m, "EN"))
        value = float(m.data["points"]) * (0.5 + 0.5 * frac)
        if knocked(m):
            value *= 0.85
        # a loaded weapon is a shot in hand: worth a little, so that a Reload now pays for a Fire! later
        value += LOADED_VALUE * sum(1 for w in m.data["ranged"] if w["reload"] and loaded(m, w))
        total += value
    return total


def _pressure(state: GameState[Any], side: int) -> float:
    """Objectives held (distance of the nearest model to each) and how close the side's models are to enemies."""
    mine = [m for m in state.side_models(side) if m.on_table and not incap(m)]
    foes = [m for m in state.side_models(1 - side) if m.on_table and not incap(m)]
    removed = set(state.vars.get("removed_objectives", []))
    score = 0.0
    for ob in state.ctx.objectives:
        if ob.id in removed:
            continue
        if mine:
            d = min(math.hypot(m.x - ob.at[0], m.y - ob.at[1]) for m in mine)
            score += (ob.vp + 0.5) * 3.0 / (1.0 + d / 4)
    if mine and foes:
        avg = sum(min(math.hypot(m.x - f.x, m.y - f.y) for f in foes) for m in mine) / len(mine)
        score += 2.0 / (1.0 + avg / 6)
    return score


def evaluate(state: GameState[Any], side: int) -> float:
    vp = state.vars.get("vp", [0, 0])
    mat = _material(state, side) - _material(state, 1 - side)
    press = _pressure(state, side) - _pressure(state, 1 - side)
    return float(mat + 40.0 * (int(vp[side]) - int(vp[1 - side])) + press)
