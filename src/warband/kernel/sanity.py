"""Is a restored state a possible one? Checks every ruleset shares, run when a position is loaded.

A position file (or any ``Game.from_json`` input) may describe what no game can reach: a model off the table,
inside impassable terrain, on top of another, at NaN, 50" up in the air, on side 5, a model id given twice. Each
such problem is named with its place in the file (``state.models[3].x``) instead of surfacing later as a crash
or a silently wrong game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from warband.kernel.errors import Problem
from warband.kernel.geometry.table import Table

#: Terrain no base may stand in.
SOLID = ("impassable", "blocking")
#: Slack for positions written with rounded coordinates, inches.
TOLERANCE = 0.01


def raw_model_problems(file: str, state: Mapping[str, Any]) -> list[Problem]:
    """Problems visible in the JSON alone: duplicate ids, sides other than 0 and 1, coordinates that are not
    finite numbers."""
    out: list[Problem] = []
    seen: dict[str, int] = {}
    for i, m in enumerate(state.get("models", [])):
        if not isinstance(m, Mapping):
            continue
        place = f"state.models[{i}]"
        mid = m.get("id")
        if isinstance(mid, str):
            if mid in seen:
                out.append(Problem(file, f"{place}.id", f"{mid!r} is given twice (first at state.models[{seen[mid]}])"))
            seen.setdefault(mid, i)
        if m.get("side") not in (0, 1) or isinstance(m.get("side"), bool):
            out.append(Problem(file, f"{place}.side", f"expected side 0 (A) or 1 (B), found {m.get('side')!r}"))
        for key in ("x", "y", "z", "radius", "height"):
            v = m.get(key)
            if isinstance(v, int | float) and not isinstance(v, bool) and not math.isfinite(v):
                out.append(Problem(file, f"{place}.{key}", f"expected a finite number of inches, found {v!r}"))
    return out


#: The most of one token a model may carry (no rule gives more than a handful).
MAX_TOKENS = 1000
#: ``state.vars`` keys that name the model (or unit) acting now, in the bundled rulesets.
ACTIVE_KEYS = ("active", "active_model")


def state_problems(
    file: str, state: Mapping[str, Any], turns: Any, signed: frozenset[str] = frozenset()
) -> list[Problem]:
    """Problems of the state as a whole, visible in the JSON: not exactly two sides, a turn outside 0 to the
    scenario's turns + 1, a token count below 0 (unless the ruleset's rules let that token go negative:
    ``signed``) or absurd, the model or unit acting now not on the table."""
    out: list[Problem] = []
    sides = state.get("sides")
    if isinstance(sides, list) and len(sides) != 2:
        out.append(Problem(file, "state.sides", f"expected exactly 2 sides (A and B), found {len(sides)}"))
    turn = state.get("turn")
    if isinstance(turns, int) and isinstance(turn, int) and not 0 <= turn <= turns + 1:
        out.append(
            Problem(
                file, "state.turn", f"expected a turn from 0 to {turns + 1} (the scenario has {turns}), found {turn}"
            )
        )
    models = [m for m in state.get("models", []) if isinstance(m, Mapping)]
    for i, m in enumerate(models):
        for name, count in (m.get("tokens") or {}).items():
            low = -MAX_TOKENS if name in signed else 0
            if isinstance(count, int) and not low <= count <= MAX_TOKENS:
                out.append(
                    Problem(
                        file,
                        f"state.models[{i}].tokens.{name}",
                        f"expected {low} to {MAX_TOKENS} tokens, found {count}",
                    )
                )
    variables = state.get("vars")
    if isinstance(variables, Mapping):
        for key in ACTIVE_KEYS:
            acting = variables.get(key)
            if not isinstance(acting, str):
                continue
            mine = [m for m in models if acting in (m.get("id"), m.get("unit"))]
            if mine and not any(m.get("on_table") for m in mine):
                out.append(
                    Problem(
                        file,
                        f"state.vars.{key}",
                        f"{acting} acts now but is not on the table (off it or out of action)",
                    )
                )
    return out


def table_problems(file: str, table: Table, models: list[Mapping[str, Any]]) -> list[Problem]:
    """Problems of the models on the table: off its edge, inside impassable or blocking terrain, overlapping
    another base, standing higher than the surface under them."""
    out: list[Problem] = []
    placed: list[tuple[int, Mapping[str, Any]]] = []
    for i, m in enumerate(models):
        if not m.get("on_table"):
            continue
        place = f"state.models[{i}]"
        p, r = (float(m["x"]), float(m["y"])), float(m["radius"])
        if not all(math.isfinite(v) for v in (*p, r, float(m["z"]))):
            continue  # reported by raw_model_problems
        if not table.on_table(p, r - TOLERANCE):
            out.append(Problem(file, place, f"{m['id']} at ({p[0]:g}, {p[1]:g}) is off the table"))
            continue
        for piece in table.terrain:
            if piece.kind in SOLID and piece.circle_overlaps(p, max(0.0, r - TOLERANCE)):
                out.append(Problem(file, place, f"{m['id']} stands inside {piece.kind} terrain {piece.id}"))
                break
        z = float(m["z"])
        if z < -TOLERANCE or z > table.surface_height(p) + TOLERANCE:
            out.append(
                Problem(
                    file,
                    f"{place}.z",
                    f'{m["id"]} is at height {z:g}; the surface there is {table.surface_height(p):g}"',
                )
            )
        for j, o in placed:
            d = math.hypot(p[0] - float(o["x"]), p[1] - float(o["y"]))
            if d < r + float(o["radius"]) - TOLERANCE:
                out.append(Problem(file, place, f"{m['id']} overlaps {o['id']} (state.models[{j}])"))
                break
        placed.append((i, m))
    return out
