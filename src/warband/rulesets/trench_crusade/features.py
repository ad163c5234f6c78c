"""Named features of a Trench Crusade position for one side, for the evaluation learned from games
(``Ruleset.features``, :mod:`warband.lab.fit`). Each is the side's own count minus the enemy's, so
``features(state, 0) == -features(state, 1)``; the terms are the heuristic's own (:mod:`.evaluate`), read
apart so that a fit weighs them:

* ``points_standing``, ``points_down`` (hundreds of ducats): models standing, and Down (digest §6);
* ``models_out``: models taken Out of Action;
* ``blood``: Blood markers on the side's models (digest §6 Blood);
* ``vp``: victory points held; ``objectives``: the heuristic's projected control of the objectives, in VP
  (Claim No Man's Land, digest §1);
* ``threat``: expected damage (hundreds of ducats) the side's shooters and chargers can deal next activation,
  each at its best target (the heuristic's threat term: range, sight, cover, charge reach);
* ``to_activate``: standing models that have not yet activated this turn;
* ``morale``: the heuristic's morale cost (Shaken, the chance to fail the next Morale check), in ducats / 100.
"""

from __future__ import annotations

from warband.rulesets.trench_crusade.core import State
from warband.rulesets.trench_crusade.evaluate import (
    _morale_cost,
    _objectives,
    _scoring_turns_left,
    _threats,
)
from warband.rulesets.trench_crusade.evaluate_tables import VP_WORTH, static_tables


def features(state: State, side: int) -> dict[str, float]:
    st = static_tables(state)
    standing_pts = [0.0, 0.0]
    down_pts = [0.0, 0.0]
    out = [0, 0]
    hurt = [0, 0]
    blood = [0, 0]
    fresh = [0, 0]
    leader = [False, False]
    up = []
    standing = []
    for m in state.models.values():
        prof = st.profiles[m.id]
        s = m.side
        if not m.on_table:  # not yet deployed, or taken off the table (Out of Action: the ``out`` flag)
            out[s] += 1 if m.flags.get("out") else 0
            hurt[s] += 1
            continue
        up.append(m)
        blood[s] += int(m.tokens.get("blood", 0))
        if m.flags.get("down"):
            down_pts[s] += prof.points
            hurt[s] += 1
        else:
            standing_pts[s] += prof.points
            standing.append(m)
            leader[s] = leader[s] or prof.leader
            if not m.flags.get("activated"):
                fresh[s] += 1
    sign = 1.0 if side == 0 else -1.0
    o = 1 - side
    vp = state.vars.get("vp", [0, 0])
    objectives = sign * _objectives(st, state, standing, _scoring_turns_left(st, state)) / VP_WORTH
    t = _threats(st, up) if up else (0.0, 0.0)
    morale = [_morale_cost(st, state, s, hurt[s], leader[s]) for s in (0, 1)]
    return {
        "points_standing": (standing_pts[side] - standing_pts[o]) / 100.0,
        "points_down": (down_pts[side] - down_pts[o]) / 100.0,
        "models_out": float(out[side] - out[o]),
        "blood": float(blood[side] - blood[o]),
        "vp": float(vp[side] - vp[o]),
        "objectives": objectives,
        "threat": (t[side] - t[o]) / 100.0,
        "to_activate": float(fresh[side] - fresh[o]),
        "morale": (morale[o] - morale[side]) / 100.0,
    }
