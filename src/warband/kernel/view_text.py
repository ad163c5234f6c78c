"""A text picture of a drawable view (``docs/view.md``) for the terminal: the table at 2 columns and 1 row per
inch with terrain by kind, objectives and every model by its id, then each side's models with their badges.
It reads only the view, so every ruleset that has a view has a map."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

GLYPH = {
    "difficult": "~",
    "dangerous": "!",
    "impassable": "X",
    "obstacle": "=",
    "blocking": "#",
    "platform": "^",
    "open": ".",
}
COLS_PER_INCH = 2
LEGEND = (
    "(A models in capitals; _ = Down; ~ difficult ! dangerous X impassable = obstacle # blocking ^ platform "
    "() objective)"
)


def inside(poly: Sequence[Sequence[float]], x: float, y: float) -> bool:
    """Even-odd test of a point in a polygon."""
    hit = False
    j = len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def _put(grid: list[list[str]], row: int, col: int, text: str) -> None:
    if not 0 <= row < len(grid):
        return
    for i, ch in enumerate(text):
        if 0 <= col + i < len(grid[row]):
            grid[row][col + i] = ch


def _terrain_grid(view: Mapping[str, Any]) -> list[list[str]]:
    w = math.ceil(view["table"]["width"]) * COLS_PER_INCH
    h = math.ceil(view["table"]["depth"])
    grid = [[" "] * w for _ in range(h)]
    for t in view["terrain"]:
        glyph = GLYPH.get(t["kind"], "?")
        for row in range(h):
            for col in range(w):
                if inside(t["polygon"], (col + 0.5) / COLS_PER_INCH, row + 0.5):
                    grid[row][col] = glyph
    return grid


def model_label(m: Mapping[str, Any]) -> str:
    label = str(m["id"]).upper() if m["side"] == 0 else str(m["id"])
    return label + "_" if m.get("down") else label


def _grid_lines(view: Mapping[str, Any]) -> list[str]:
    grid = _terrain_grid(view)
    h = len(grid)
    for o in view["objectives"]:
        _put(grid, int(o["at"][1]), int(o["at"][0] * COLS_PER_INCH) - 1, "()")
    for m in view["models"]:
        _put(grid, min(h - 1, int(m["y"])), int(m["x"] * COLS_PER_INCH), model_label(m))
    width = len(grid[0]) if grid else 0
    lines = ["+" + "-" * width + "+"]
    lines.extend("|" + "".join(row) + f"| {y}" for y, row in reversed(list(enumerate(grid))))
    lines.append("+" + "-" * width + "+")
    return lines


def _badges(entry: Mapping[str, Any]) -> str:
    return " ".join(b["text"] for b in entry.get("badges", []))


def _side_lines(view: Mapping[str, Any], side: Mapping[str, Any]) -> list[str]:
    loose = {ln["from"][0] * 1e6 + ln["from"][1] for ln in view["links"] if not ln.get("ok", True)}
    marks = f" {_badges(side).upper()}" if side.get("badges") else ""
    lines = [f"side {'AB'[side['index']]}: {side['name']}{marks}"]
    for m in view["models"]:
        if m["side"] != side["index"]:
            continue
        where = f"({m['x']:.1f}, {m['y']:.1f}, z {m['z']:.0f})"
        unit = f" [{m['unit']}]" if m.get("unit") else ""
        coherent = " OUT OF COHERENCY" if m["x"] * 1e6 + m["y"] in loose else ""
        lines.append(f"  {m['id']:4} {m['name']:28} {where:24} {_badges(m)}{unit}{coherent}".rstrip())
    lines.extend(f"  {o['id']:4} {o['name']:28} {o['why']}" for o in view["off_table"] if o["side"] == side["index"])
    return lines


def render_view(view: Mapping[str, Any]) -> str:
    """The whole picture: map, status line with legend, and each side's models."""
    lines = _grid_lines(view)
    lines.append("  ".join(view["status"]) + "   " + LEGEND)
    for side in view["sides"]:
        lines.extend(_side_lines(view, side))
    return "\n".join(lines)
