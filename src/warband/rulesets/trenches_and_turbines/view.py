"""Trenches and Turbines' drawable view: the kernel's generic view plus units (each model tagged with its
unit, a coherency line from every model to its leader, red when out of coherency), pins, prone, overwatch,
routed, activated, damage, claimed objective markers, the round and the victory points (``docs/view.md``).

Only the accessor functions below read the state; when the state's layout changes, only they change."""

from __future__ import annotations

from typing import Any

from warband.kernel.state import GameState, Model
from warband.kernel.view import badge, generic_view, models_by_id
from warband.rulesets.trenches_and_turbines.context import Context

UNIT_FLAGS = ("prone", "routed", "overwatch", "activated", "leaderless")


State = GameState[Context]


def unit_ids(state: State) -> list[str]:
    return list(state.ctx.unit_order)


def unit_spec(state: State, uid: str) -> dict[str, Any]:
    spec: dict[str, Any] = state.ctx.units[uid]
    return spec


def unit_status(state: State, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = state.vars["u"][uid]
    return u


def leader(state: State, uid: str) -> Model | None:
    lid = unit_status(state, uid).get("leader")
    m = state.models.get(lid) if isinstance(lid, str) else None
    return m if m is not None and m.on_table else None


def out_of_coherency(state: State, uid: str) -> set[str]:
    from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency as rule

    return set(rule(state, uid))


def damage(m: Model) -> int:
    return m.token("damage")


def markers(state: State) -> dict[str, dict[str, Any]]:
    """Objective markers moved or claimed by scenario actions: ``{id: {"at": [x, y] | None, "owner": side}}``."""
    found: dict[str, dict[str, Any]] = state.vars.get("marks") or {}
    return found


def victory_points(state: State) -> tuple[int, int]:
    vp = state.vars.get("vp", [0, 0])
    return int(vp[0]), int(vp[1])


def rounds(state: State) -> int:
    return state.ctx.rounds


def cards_left(state: State) -> int:
    return len(state.vars.get("deck", []))


def unit_badges(status: dict[str, Any]) -> list[dict[str, str]]:
    out = [badge(flag, "bad" if flag in ("routed", "prone") else "info") for flag in UNIT_FLAGS if status.get(flag)]
    if status.get("pins"):
        out.append(badge(f"pins {status['pins']}", "token", "pin markers: penalties to act"))
    return out


def _model_badges(m: Model, unit_marks: list[dict[str, str]], lead: Model | None) -> list[dict[str, str]]:
    """The unit's status is drawn once, by its leader; every model shows its own damage."""
    out = [badge("leader", "good"), *unit_marks] if lead is not None and lead.id == m.id else []
    if damage(m):
        out.append(badge(f"damage {damage(m)}/{m.data.get('hp', '?')}", "bad"))
    return out


def _unit_into(state: State, uid: str, v: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> None:
    spec, status, lead = unit_spec(state, uid), unit_status(state, uid), leader(state, uid)
    marks = unit_badges(status)
    loose = out_of_coherency(state, uid)
    for mid in spec["models"]:
        entry = by_id.get(mid)
        if entry is None:
            continue
        m = state.models[mid]
        entry["badges"] = _model_badges(m, marks, lead)
        entry["tooltip"].insert(2, ["unit", f"{uid} {spec['name']}"])
        if marks:
            entry["tooltip"].insert(3, ["unit status", ", ".join(b["text"] for b in marks)])
        if lead is not None and mid != lead.id:
            v["links"].append(
                {"kind": "coherency", "from": [m.x, m.y], "to": [lead.x, lead.y], "ok": mid not in loose, "unit": uid}
            )


def _markers_into(state: State, v: dict[str, Any]) -> None:
    moved = markers(state)
    kept = []
    for o in v["objectives"]:
        mark = moved.get(o["id"])
        if mark is not None and mark.get("at") is None:
            continue
        if mark is not None:
            o["at"], o["owner"] = [float(mark["at"][0]), float(mark["at"][1])], mark.get("owner")
        kept.append(o)
    v["objectives"] = kept


def view(state: State) -> dict[str, Any]:
    v = generic_view("trenches-and-turbines", state)
    by_id = models_by_id(v)
    for uid in unit_ids(state):
        _unit_into(state, uid, v, by_id)
    _markers_into(state, v)
    vp = victory_points(state)
    v["status"] = [
        f"round {state.turn}/{rounds(state)}",
        f"phase {state.phase}",
        f"VP A {vp[0]} - B {vp[1]}",
        f"cards left {cards_left(state)}",
    ]
    active = state.vars.get("active")
    if active:
        v["status"].append(f"active unit {active} ({state.vars.get('left', 0)} action(s) left)")
    return v
