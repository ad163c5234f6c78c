"""Trench Crusade's drawable view: the kernel's generic view plus Down, Blood markers, activated models, a
Shaken side, the turn and the victory points (``docs/view.md``).

Only the accessor functions below read the state; when the state's layout changes, only they change."""

from __future__ import annotations

from typing import Any

from warband.kernel.state import GameState, Model
from warband.kernel.view import badge, generic_view, models_by_id
from warband.rulesets.trench_crusade.context import Context

State = GameState[Context]


def is_down(m: Model) -> bool:
    return bool(m.flags.get("down"))


def blood_markers(m: Model) -> int:
    return m.token("blood")


def is_activated(m: Model) -> bool:
    return bool(m.flags.get("activated"))


def side_shaken(state: State, side: int) -> bool:
    return bool(state.sides[side].flags.get("shaken"))


def victory_points(state: State) -> tuple[int, int]:
    vp = state.vars.get("vp", [0, 0])
    return int(vp[0]), int(vp[1])


def turns(state: State) -> int:
    return state.ctx.turns


def model_badges(m: Model) -> list[dict[str, str]]:
    out = []
    if is_down(m):
        out.append(badge("Down", "bad", "Down: the model lies prone until it stands"))
    if blood_markers(m):
        out.append(badge(f"Blood {blood_markers(m)}", "token", "Blood markers: add dice to rolls against it"))
    if m.token("infection"):
        out.append(badge(f"Infection {m.token('infection')}", "token", "Infection markers: spent like Blood; grow"))
    if m.token("blessing"):
        out.append(badge(f"Blessing {m.token('blessing')}", "token", "Blessing markers: its side spends them"))
    if is_activated(m):
        out.append(badge("activated", "info", "has activated this turn"))
    return out


def view(state: State) -> dict[str, Any]:
    v = generic_view("trench-crusade", state)
    by_id = models_by_id(v)
    for m in state.models.values():
        if m.id in by_id:
            by_id[m.id]["badges"] = model_badges(m)
            by_id[m.id]["down"] = is_down(m)
    for side in v["sides"]:
        if side_shaken(state, side["index"]):
            side["badges"] = [badge("Shaken", "bad", "the side has lost its nerve (morale)")]
    vp = victory_points(state)
    v["status"] = [f"turn {state.turn}/{turns(state)}", f"phase {state.phase}", f"VP A {vp[0]} - B {vp[1]}"]
    return v
