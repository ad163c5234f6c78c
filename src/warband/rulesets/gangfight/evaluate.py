"""The heuristic agent's view of a Gangfight position: material (points weighted by EN left), victory points,
objective pressure, closing the distance, and Action Points kept for Interrupts. Higher is better for ``side``.

Held AP (seed 004, Action Points and Interrupts: AP not spent in the player's turn stay available to interrupt
the opponent's): a model within reach of an enemy (what that enemy could charge after a Move, or shoot after
one) has a use for an AP in the opponent's turn: Bulwark against any attack, Fire! back with a loaded weapon,
Counter-Charge, Flee! or Fight!. The first such AP is worth :data:`HELD_AP_FIRST` points, the second
:data:`HELD_AP_SECOND` (more are seldom used: one interrupt per enemy declaration); AP spent on an action lose
that worth, so the one-ply heuristic ends an activation with AP in hand when the next action gains less than
the interrupt it gives up, and spends an interrupt when its result is worth more than the AP. Only the judged
side's own held AP count (the evaluation is then not zero-sum; the mcts agent takes the difference of both
sides' evaluations)."""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.state import GameState, Model
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import ap, en, incap, knocked, loaded, size, stat, uses_left

#: Points a loaded archaic weapon adds to its model's worth.
LOADED_VALUE = 3.0
#: Points the first and the second AP a threatened model holds are worth (Interrupts; see the module doc).
HELD_AP_FIRST = 2.0
HELD_AP_SECOND = 1.0
#: A model holding a loaded ranged weapon gets this much more from its first held AP (a Fire! interrupt).
HELD_AP_FIRE = 1.0


def _reach(state: GameState[Any], e: Model) -> float:
    """How far from ``e`` a model can be and still be attacked by it next turn: a Move then the longest
    Charge! (MOV + one inch a die) and its threat range, or a Move then its longest ranged weapon."""
    params = state.ctx.params
    mov = stat(e, "MOV")
    melee = mov + gd.charge_distance(mov, mov, params) + gd.threat_range(size(e), params)
    shot = max((float(w["range"]) for w in e.data["ranged"]), default=0.0)
    return max(float(melee), mov + shot)


def _held(state: GameState[Any], side: int) -> float:
    """The worth of the AP the side's models hold for Interrupts (only models an enemy can reach)."""
    per_ap = int(state.ctx.params["interrupt_ap"])
    last = state.turn >= state.ctx.rounds and state.vars.get("first") == 1 - side
    if last and state.vars.get("active") == side:
        return 0.0  # the game's last turn: no opponent's turn follows to interrupt
    foes = [(f, _reach(state, f)) for f in state.side_models(1 - side) if f.on_table and not incap(f)]
    total = 0.0
    for m in state.side_models(side):
        if not m.on_table or incap(m) or knocked(m) or ap(m) < per_ap:
            continue
        if not any(math.hypot(m.x - f.x, m.y - f.y) - m.radius - f.radius <= r for f, r in foes):
            continue
        first = HELD_AP_FIRST + (
            HELD_AP_FIRE if any(loaded(m, w) and uses_left(m, w) > 0 for w in m.data["ranged"]) else 0.0
        )
        total += first + (HELD_AP_SECOND if ap(m) >= 2 * per_ap else 0.0)
    return total


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
    # only the side's own held AP: the enemy's would reward walking out of its reach just to make them idle
    return float(mat + 40.0 * (int(vp[side]) - int(vp[1 - side])) + press + _held(state, side))
