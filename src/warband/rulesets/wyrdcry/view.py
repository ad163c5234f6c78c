"""Wyrdcry's drawable view (``docs/view.md``): the kernel's generic view plus each fighter's activation state,
damage, Panicked / Accused and carried treasure; each side's ability dice, reaction dice and banked wyrd dice;
treasure tokens drawn where they lie or on their carrier; the round, initiative and victory points.

Only the accessor functions below read the state; when its layout changes, only they change."""

from __future__ import annotations

from typing import Any

from warband.kernel.state import GameState, Model
from warband.kernel.view import badge, generic_view, models_by_id
from warband.rulesets.wyrdcry.core import pool, reaction_dice, show_pool, status, wyrd_bank
from warband.rulesets.wyrdcry.scenario import carrying, plays_for_objectives, treasure_at, victory_points

State = GameState[Any]

_STATUS = {"activated": "activated", "waiting": "waiting (Wait)", "active": "activating"}


def model_badges(state: State, m: Model) -> list[dict[str, str]]:
    out = []
    st = status(m)
    if st in _STATUS:
        out.append(badge(_STATUS[st], "info", f"{m.id} is {_STATUS[st]} this battle round"))
    dmg = m.token("damage")
    if dmg:
        out.append(badge(f"damage {dmg}/{m.data['health']}", "bad", "damage points; out of action at its Health"))
    if m.flags.get("panicked"):
        out.append(badge("Panicked", "bad", "failed a panic test: -1 Fight and Shoot until the next round ends"))
    if m.flags.get("accused"):
        out.append(badge("Accused", "bad", "Accused by the Witch Hunters: easier to hit (data §4.3)"))
    for oid in carrying(state, m):
        out.append(badge(f"carries {oid}", "good", "a treasure token; dropped where the fighter falls"))
    return out


def side_badges(state: State, side: int) -> list[dict[str, str]]:
    return [
        badge(show_pool(pool(state, side)), "token", "ability dice left this battle round"),
        badge(f"reaction dice {reaction_dice(state, side)}", "token", "singles left over from initiative"),
        badge(f"wyrd dice {wyrd_bank(state, side)}", "token", "banked wyrd dice"),
    ]


def view(state: State) -> dict[str, Any]:
    v = generic_view("wyrdcry", state)
    by_id = models_by_id(v)
    for m in state.models.values():
        if m.id in by_id:
            by_id[m.id]["badges"] = model_badges(state, m)
    for side in v["sides"]:
        side["badges"] = side_badges(state, int(side["index"]))
    tokens = state.vars.get("treasure") or {}
    for o in v["objectives"]:
        if o["id"] in tokens:
            x, y = treasure_at(state, o["id"])
            o["at"] = [round(x, 3), round(y, 3)]
            carrier = tokens[o["id"]][2]
            if carrier:
                o["label"] = f"{o['id']} ({o['vp']} VP), carried by {carrier}"
    initiative = "AB"[int(state.vars.get("initiative", 0))]
    v["status"] = [f"round {state.turn}", f"phase {state.phase}", f"initiative {initiative}"]
    if plays_for_objectives(state):
        vp = victory_points(state)
        v["status"].append(f"VP A {vp[0]} - B {vp[1]}")
    for s, kind, x, y in state.vars.get("command_tokens") or []:
        v["status"].append(f"{kind.title()} token of side {'AB'[int(s)]} at ({x:g}, {y:g})")
    return v
