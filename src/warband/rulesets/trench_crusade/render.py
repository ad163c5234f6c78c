"""The terminal face of Trench Crusade: a text map of the table and the odds of an action before it is taken."""

from __future__ import annotations

import math

from warband.kernel.actions import Action
from warband.kernel.space import gap
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.attacks import attack_dice, attack_preview
from warband.rulesets.trench_crusade.charge_spots import charge_spots
from warband.rulesets.trench_crusade.core import State, charge_allowance, model_dice, weapon_named
from warband.rulesets.trench_crusade.keywords import heavy_applies
from warband.rulesets.trench_crusade.odds import success_odds

_GLYPH = {
    "difficult": "~",
    "dangerous": "!",
    "impassable": "X",
    "obstacle": "=",
    "blocking": "#",
    "platform": "^",
    "open": ".",
}
_COLS_PER_INCH = 2


def render_table(state: State) -> str:
    """A map at 1 row per inch and 2 columns per inch; models show as their ids, objectives as ``()``."""
    ctx = state.ctx
    table = ctx.table
    w = math.ceil(table.width) * _COLS_PER_INCH
    h = math.ceil(table.depth)
    grid = [[" "] * w for _ in range(h)]
    for row in range(h):
        for col in range(w):
            p = ((col + 0.5) / _COLS_PER_INCH, row + 0.5)
            pieces = table.pieces_at(p)
            if pieces:
                grid[row][col] = _GLYPH.get(pieces[-1].kind, "?")
    for o in ctx.objectives:
        r, c = int(o.at[1]), int(o.at[0] * _COLS_PER_INCH)
        for dc, ch in ((-1, "("), (0, ")")):
            if 0 <= r < h and 0 <= c + dc < w:
                grid[r][c + dc] = ch
    for m in state.models.values():
        if not m.on_table:
            continue
        label = m.id.upper() if m.side == 0 else m.id
        if m.flags.get("down"):
            label = label + "_"
        r, c = min(h - 1, int(m.y)), int(m.x * _COLS_PER_INCH)
        for i, ch in enumerate(label):
            if 0 <= c + i < w:
                grid[r][c + i] = ch
    lines = ["+" + "-" * w + "+"]
    lines.extend("|" + "".join(row) + f"| {y}" for y, row in reversed(list(enumerate(grid))))
    lines.append("+" + "-" * w + "+")
    vp = state.vars.get("vp", [0, 0])
    lines.append(
        f"turn {state.turn}/{ctx.turns}  phase {state.phase}  VP A {vp[0]} - B {vp[1]}   "
        "(A models in capitals; _ = Down; ~ difficult ! dangerous X impassable = obstacle # blocking "
        "^ platform () objective)"
    )
    for side in (0, 1):
        flags = state.sides[side].flags
        status = " SHAKEN" if flags.get("shaken") else ""
        lines.append(f"side {'AB'[side]}: {state.sides[side].name}{status}")
        for m in state.side_models(side):
            where = (
                f"({m.x:.1f}, {m.y:.1f}, z {m.z:.0f})"
                if m.on_table
                else ("out of action" if m.flags.get("out") else "not deployed")
            )
            marks = []
            if m.flags.get("down"):
                marks.append("Down")
            for token, label in (("blood", "Blood"), ("infection", "Infection"), ("blessing", "Blessing")):
                if m.token(token):
                    marks.append(f"{label} {m.token(token)}")
            if m.flags.get("activated"):
                marks.append("activated")
            lines.append(f"  {m.id:4} {m.name:28} {where:24} {' '.join(marks)}")
    return "\n".join(lines)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def explain_action(state: State, a: Action) -> str:
    """The odds of the rolls an action starts: to hit and to injure for attacks, the Risky roll of a Dash,
    the chance that a Charge reaches."""
    m = state.models.get(a.model or "")
    if m is None:
        return ""
    p = state.ctx.params
    if a.kind in ("shoot", "fight", "strike") and a.target in state.models:
        t = state.models[a.target]
        mode = "ranged" if a.kind == "shoot" else "melee"
        w = weapon_named(m, a.option, mode)
        if w is None:
            return ""
        _, _, why = attack_dice(state, m, t, w, mode, False)
        odds = attack_preview(state, m, t, w, mode)
        net = int(odds["net"])
        return (
            f"{net:+d} DICE ({', '.join(why) or 'no modifiers'}): hit {_pct(float(odds['hit']))}, "
            f"critical {_pct(float(odds['critical']))}; Down {_pct(float(odds['down']))}, "
            f"Out of Action {_pct(float(odds['out']))}"
        )
    if a.kind == "dash":
        odds = success_odds(tcr.net_dice(*model_dice(state, m)), p)
        return f"Risky roll: success {_pct(float(odds['success']))}; failure ends the activation"
    if a.kind == "charge" and a.target in state.models:
        t = state.models[a.target]
        sides = int(p["charge_die_sides"])
        faces = [0] if heavy_applies(m) else list(range(1, sides + 1))

        def reaches(d: int) -> bool:
            return charge_spots(state, m, t, charge_allowance(state, m, d), first_only=True).reached

        if not reaches(faces[-1]):
            best = f"a {sides}" if faces[-1] else "its Movement (HEAVY: no charge die)"
            return f'cannot reach {t.id} even with {best} ({gap(m, t):.1f}" away)'
        reach = sum(1 for d in range(1, sides + 1) if reaches(min(d, faces[-1])))
        return f"charge reaches {t.id} on {reach} of {sides} die results ({_pct(reach / sides)})"
    return ""
