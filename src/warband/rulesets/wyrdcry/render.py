"""The terminal face of Wyrdcry: a text map, each side's dice, and the odds of an attack before it is made."""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.state import GameState
from warband.rulesets.wyrdcry.core import pool, reaction_dice, show_pool, status, wyrd_bank

_GLYPH = {"obstacle": "=", "blocking": "#", "platform": "^", "open": "."}
_COLS = 2


def render(state: GameState[Any]) -> str:
    """1 row per inch, 2 columns per inch; side A's fighters in capitals; dice and damage below."""
    table = state.ctx.table
    w, h = math.ceil(table.width) * _COLS, math.ceil(table.depth)
    grid = [[" "] * w for _ in range(h)]
    for row in range(h):
        for col in range(w):
            pieces = table.pieces_at(((col + 0.5) / _COLS, row + 0.5))
            if pieces:
                grid[row][col] = _GLYPH.get(pieces[-1].kind, "?")
    for m in state.models.values():
        if m.on_table:
            label = m.id.upper() if m.side == 0 else m.id
            r, c = min(h - 1, int(m.y)), int(m.x * _COLS)
            for i, ch in enumerate(label):
                if 0 <= c + i < w:
                    grid[r][c + i] = ch
    lines = ["+" + "-" * w + "+"]
    lines += ["|" + "".join(row) + f"| {y}" for y, row in reversed(list(enumerate(grid)))]
    lines.append("+" + "-" * w + "+")
    lines.append(f"round {state.turn}  phase {state.phase}  initiative {'AB'[int(state.vars.get('initiative', 0))]}")
    for s in (0, 1):
        lines.append(
            f"side {'AB'[s]}: {show_pool(pool(state, s))}; reaction dice {reaction_dice(state, s)}; "
            f"wyrd dice {wyrd_bank(state, s)}"
        )
    for oid, (x, y, carrier) in (state.vars.get("treasure") or {}).items():
        where = f"carried by {carrier}" if carrier else f"at ({x:g}, {y:g})"
        lines.append(f"treasure {oid} {where}")
    for s, kind, x, y in state.vars.get("command_tokens") or []:
        lines.append(f"{kind.title()} token of side {'AB'[int(s)]} at ({x:g}, {y:g}) until the round ends")
    for m in state.models.values():
        lines.append(f"  {m.id} {m.name}: {status(m)}, damage {m.token('damage')}/{m.data['health']}")
    return "\n".join(lines)


def explain(state: GameState[Any], action: Action) -> str:
    """The damage odds of an attack (exact, from :mod:`.odds`)."""
    if action.kind not in ("attack", "bonus-attack") or action.model is None or action.target is None:
        return ""
    from warband.rulesets.wyrdcry.attacks import attack_numbers
    from warband.rulesets.wyrdcry.core import hit_table, weapon_named
    from warband.rulesets.wyrdcry.odds import damage_distribution

    a, t = state.models[action.model], state.models.get(action.target)
    w = weapon_named(a, action.option)
    if w is None or t is None:
        return ""
    skill, defense = attack_numbers(state, a, t, w)
    n = int(w["attacks"]) + (int(a.flags.get("melee_bonus", 0)) if w["type"] == "melee" else 0)
    dist = damage_distribution(
        n,
        skill,
        defense,
        (int(w["damage"][0]), int(w["damage"][1])),
        unreliable="Unreliable" in w.get("rules", []),
        table=hit_table(state),
    )
    left = int(t.data["health"]) - t.token("damage")
    p_out = sum(float(p) for v, p in dist.items() if v >= left)
    mean = sum(float(p) * v for v, p in dist.items())
    return f"{skill} vs Defense {defense}: mean damage {mean:.2f}, P(out of action) {p_out:.0%}"
