"""Gangfight at the terminal: a text table of the models (position, EN, AP, state) and the odds of an action."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Action
from warband.kernel.state import GameState
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight import odds
from warband.rulesets.gangfight.core import ap, en, in_cover, incap, knocked, melee_weapon, ranged_weapon, stat


def render_table(state: GameState[Any]) -> str:
    v = state.vars
    lines = [
        f"Gangfight - round {state.turn}/{state.ctx.rounds}, {state.phase}"
        + (f", side {'AB'[int(v.get('active', 0))]} to act" if state.phase == "turn" else ""),
        f"VP A {v.get('vp', [0, 0])[0]} - B {v.get('vp', [0, 0])[1]}; points taken A {v.get('killed', [0, 0])[0]} - "
        f"B {v.get('killed', [0, 0])[1]}",
    ]
    for side in (0, 1):
        lines.append(f"side {'AB'[side]}: {state.sides[side].name}")
        for m in state.side_models(side):
            if not m.on_table:
                where = "out" if m.flags.get("out") else "off table"
                lines.append(f"  {m.id:4} {m.name:24} {where}")
                continue
            tags = []
            if knocked(m):
                tags.append("knocked over")
            if incap(m):
                tags.append("incapacitated")
            if m.flags.get("finished"):
                tags.append("finished")
            if v.get("active_model") == m.id:
                tags.append("ACTIVE")
            lines.append(
                f"  {m.id:4} {m.name:24} ({m.x:5.1f},{m.y:5.1f}) EN {en(m)}/{stat(m, 'EN')} AP {ap(m)} "
                f"{m.data['rank'][0]}{m.data['size'][0]} {' '.join(tags)}"
            )
    return "\n".join(lines)


def explain_action(state: GameState[Any], action: Action) -> str:
    """Exact odds of the attack an action starts (expected wounds after armour)."""
    m = state.models.get(action.model or "")
    t = state.models.get(action.target or "")
    if m is None or t is None or action.kind not in ("fight", "power", "finesse", "fire"):
        return ""
    p = state.ctx.params
    if action.kind == "fire":
        w = ranged_weapon(m, action.option)
        if w is None:
            return ""
        dfn = stat(t, "DEF") + (int(p["cover_def"]) if in_cover(state, t) else 0)
        n, tn = stat(m, "MRK") + int(w["mrk"]), dfn
        dam, per = int(w["dam"]), 1
    else:
        w = melee_weapon(m)
        n, tn = stat(m, "ATT") + int(w["att"]), stat(t, "DEF")
        dam, per = stat(m, "DAM") + int(w["dam"]), gd.wounds_per_melee_hit(m.data["size"], p)
    test = gd.attack_pool(n, tn, p)
    dist = odds.attack(n, tn, stat(t, "ARM"), dam, per, p) if test.dice > 0 else None
    if dist is None:
        return "no dice"
    exp = sum(float(k) * float(v) for k, v in dist.items())
    kill = sum(float(v) for k, v in dist.items() if k >= en(t))
    return f"{test.dice} dice at {test.tn}+: expected {exp:.2f} wounds, {kill:.0%} to incapacitate {t.id}"
