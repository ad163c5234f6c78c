"""The scenario: Interact on its objectives, victory points and the end of the game.

Seed 004, Special Actions: Interact (a model acts on scenery: chests, doors, objectives; the scenario file's
``actions`` say what each needs and does). Digest B1 Stages (2)-(3): the Engagement table and Complications are
not public, so the scenario's objectives and actions stand in for them. Digest B2 End: the game ends at a
wipe-out or after ``max_rounds``; objectives, then points of enemy models incapacitated, decide the winner.
"""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.battlefield import controller
from warband.kernel.errors import Reason
from warband.kernel.events import Event, GameEnded, Note
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.rulesets.gangfight.core import R, State, enemies_of, incap, side_name


def scenario_action(state: State, name: str | None) -> dict[str, Any] | None:
    """The scenario's Interact action called ``name``, if it has one."""
    return next((x for x in state.ctx.scenario.get("actions", []) or [] if x["id"] == name), None)


def check_interact(state: State, m: Model, a: Action) -> list[Reason]:
    """Interact (seed 004): the scenario action exists, its objective is on the table, and the model meets each
    of its requirements (near the objective, no enemy near, the turns it is allowed in)."""
    act = scenario_action(state, a.option)
    if act is None:
        return [(f"{R}/interact/unknown", f"the scenario has no action {a.option!r}")]
    ob = next((o for o in state.ctx.objectives if o.id == a.target), None)
    if ob is None or ob.id in state.vars["removed_objectives"]:
        return [(f"{R}/interact/objective", f"{a.target} is not an objective on the table")]
    for req in act.get("requires", []):
        kind = req.get("kind")
        if kind == "near-objective":
            names = req.get("objectives") or []
            if names and ob.id not in names:
                return [(f"{R}/interact/objective", f"{act['id']} is not performed on {ob.id}")]
            d = math.hypot(m.x - ob.at[0], m.y - ob.at[1]) - m.radius
            if d > float(req.get("within", 1.0)) + 1e-9:
                return [(f"{R}/interact/near", f'{m.id} is not within {req.get("within")}" of {ob.id}')]
        elif kind == "no-enemy-within":
            if any(gap(m, e) <= float(req["within"]) for e in enemies_of(state, m)):
                return [(f"{R}/interact/enemy", f'{m.id} is within {req["within"]}" of an enemy')]
        elif kind == "turn" and not (int(req.get("first", 1)) <= state.turn <= int(req.get("last", 99))):
            return [(f"{R}/interact/turn", "not in this turn")]
    return []


def do_interact(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """The scenario action's effects: score VP, remove or claim an objective, end the model's activation."""
    act = scenario_action(state, a.option)
    assert act is not None
    for eff in act.get("effects", []):
        kind = eff.get("kind")
        if kind == "score":
            vp = list(state.vars["vp"])
            vp[m.side] += int(eff.get("vp", 1))
            state.vars["vp"] = vp
            events.append(Note(f"side {side_name(m.side)} scores {eff.get('vp', 1)} VP", f"{R}/interact/score"))
        elif kind == "remove-objective":
            oid = eff.get("objective") or a.target
            state.vars["removed_objectives"] = [*state.vars["removed_objectives"], oid]
        elif kind == "claim":
            oid = eff.get("objective") or a.target
            state.vars["claimed"] = {**state.vars["claimed"], oid: m.side}
        elif kind == "end-activation":
            m.flags["finished"] = True


def game_over(state: State, reason: str, events: list[Event]) -> None:
    """Digest B2 End: objectives, then points of enemy models incapacitated."""
    vp = list(state.vars["vp"])
    removed = set(state.vars["removed_objectives"])
    for ob in state.ctx.objectives:
        if ob.id in removed or ob.vp <= 0:
            continue
        who = controller(state.models.values(), ob.at, ob.radius, lambda m: 0 if incap(m) else 1)
        if who is None:
            who = state.vars["claimed"].get(ob.id)
        if who is not None:
            vp[int(who)] += ob.vp
    state.vars["vp"] = vp
    state.vars["end_reason"] = reason
    state.phase = "over"
    res = winner_of(state)
    events.append(GameEnded(res, reason, (vp[0], vp[1])))


def winner_of(state: State) -> int | None:
    """More VP wins; equal VP, more points of enemy models incapacitated; else a draw (digest B2 End)."""
    vp = state.vars["vp"]
    if vp[0] != vp[1]:
        return 0 if vp[0] > vp[1] else 1
    k = state.vars["killed"]
    if k[0] != k[1]:
        return 0 if k[0] > k[1] else 1
    return None
