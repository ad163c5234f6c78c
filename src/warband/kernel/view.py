"""The drawable view of a state: what any face (the web table, the terminal map) draws, as JSON-native data.

Every ruleset gets :func:`generic_view` for free (the table to scale, terrain by kind and height, deployment
zones, objectives, every model on the table as a circle of its base with its side, facing, tokens and flags as
badges and its profile as a tooltip); a ruleset enriches it in its own ``view.py`` through the helpers below.
The shape is documented in ``docs/view.md``; :data:`VIEW_VERSION` changes whenever the shape does.

The generic view reads only the kernel's :class:`~warband.kernel.state.GameState` fields and the validated
scenario document the game was set up from (``state.ctx.scenario``, a dict in the kernel's scenario format).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warband.kernel.state import GameState, Model

VIEW_VERSION = 1
SIDE_COLOURS = ("#2f6fd0", "#c8412e")
_SCALARS = (str, int, float, bool)


def scenario_of(state: GameState[Any]) -> Mapping[str, Any]:
    """The scenario document of the game (empty when the context does not carry one)."""
    doc = getattr(state.ctx, "scenario", None)
    return doc if isinstance(doc, Mapping) else {}


def badge(text: str, kind: str = "flag", tip: str = "") -> dict[str, str]:
    """One status badge drawn by a model: ``kind`` picks its colour (flag, token, bad, good, info)."""
    return {"text": text, "kind": kind, "tip": tip or text}


def _points(poly: Any) -> list[list[float]]:
    return [[float(x), float(y)] for x, y in poly]


def _terrain(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": str(t["id"]),
            "kind": str(t["kind"]),
            "height": float(t.get("height", 0.0)),
            "cover": bool(t.get("cover", False)),
            "blocks_los": bool(t.get("blocks_los", True)),
            "polygon": _points(t["polygon"]),
            "label": f'{t["id"]}: {t["kind"]}, height {float(t.get("height", 0.0)):g}"',
        }
        for t in doc.get("terrain", [])
    ]


def _objectives(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": str(o["id"]),
            "at": [float(o["at"][0]), float(o["at"][1])],
            "radius": float(o.get("radius", 3.0)),
            "vp": int(o.get("vp", 1)),
            "owner": None,
            "label": f"{o['id']} ({int(o.get('vp', 1))} VP)",
        }
        for o in doc.get("objectives", [])
    ]


def profile_lines(data: Mapping[str, Any]) -> list[list[str]]:
    """A model's profile as ``[name, value]`` rows in words (yes/no, ranges, items by their names; never a
    Python repr); false flags and empty lists are left out."""
    from warband.kernel.sheet import words

    rows: list[list[str]] = []
    for key, value in data.items():
        if key == "name" or value is False or value is None or value == [] or value == {}:
            continue
        if isinstance(value, (*_SCALARS, list, Mapping)):
            rows.append([str(key), words(value)])
    return rows


def model_badges(m: Model) -> list[dict[str, str]]:
    """Tokens with a count and flags that are true, as badges (the generic reading of a model's status)."""
    out = [badge(f"{name} {n}", "token") for name, n in sorted(m.tokens.items()) if n]
    out.extend(badge(name) for name, v in sorted(m.flags.items()) if v is True and name != "facing")
    return out


def model_view(m: Model) -> dict[str, Any]:
    facing = m.flags.get("facing")
    return {
        "id": m.id,
        "side": m.side,
        "name": m.name,
        "unit": m.unit,
        "x": m.x,
        "y": m.y,
        "z": m.z,
        "radius": m.radius,
        "height": m.height,
        "facing": float(facing) if isinstance(facing, int | float) and not isinstance(facing, bool) else None,
        "colour": SIDE_COLOURS[m.side % 2],
        "badges": model_badges(m),
        "tooltip": [["id", m.id], ["name", m.name], *profile_lines(m.data)],
    }


def _off_table(m: Model) -> dict[str, Any]:
    why = "out of action" if m.flags.get("out") else "off the table"
    return {"id": m.id, "side": m.side, "name": m.name, "why": why}


def generic_view(ruleset_id: str, state: GameState[Any]) -> dict[str, Any]:
    """The view every ruleset has without writing any code (see the module docstring)."""
    doc = scenario_of(state)
    table = doc.get("table", {})
    zones = [{"side": int(z["side"]), "polygon": _points(z["polygon"])} for z in doc.get("deployment", [])]
    return {
        "view_version": VIEW_VERSION,
        "ruleset": ruleset_id,
        "table": {"width": float(table.get("width", 48.0)), "depth": float(table.get("depth", 48.0)), "grid": 1.0},
        "status": [f"turn {state.turn}", f"phase {state.phase}"],
        "sides": [
            {"index": i, "name": s.name, "colour": SIDE_COLOURS[i % 2], "badges": []} for i, s in enumerate(state.sides)
        ],
        "terrain": _terrain(doc),
        "zones": zones,
        "objectives": _objectives(doc),
        "models": [model_view(m) for m in state.models.values() if m.on_table],
        "off_table": [_off_table(m) for m in state.models.values() if not m.on_table],
        "links": [],
    }


def models_by_id(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The view's model entries by id, to enrich them in place."""
    return {m["id"]: m for m in view["models"]}
