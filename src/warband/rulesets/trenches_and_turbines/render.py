"""Text faces of Trenches and Turbines: the table as units and status, and the odds an action starts."""

from __future__ import annotations

from warband.kernel.actions import Action
from warband.rulesets.trenches_and_turbines.coherency import out_of_coherency
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import side_name, succeeds, ustate
from warband.rulesets.trenches_and_turbines.missions import marks
from warband.rulesets.trenches_and_turbines.shooting import shoot_groups
from warband.rulesets.trenches_and_turbines.units import leader_of, members


def render_table(state: State) -> str:
    lines = [
        f"round {state.turn}/{state.ctx.rounds}, {state.phase}; VP A {state.vars['vp'][0]} - "
        f"B {state.vars['vp'][1]}; cards left {len(state.vars.get('deck', []))}"
    ]
    act = state.vars.get("active")
    if act:
        lines.append(f"active: {act} ({state.vars.get('left', 0)} action(s) left; done {state.vars.get('acts')})")
    for uid in state.ctx.unit_order:
        spec = state.ctx.units[uid]
        ms = members(state, uid)
        u = ustate(state, uid)
        flags = [k for k in ("prone", "routed", "overwatch", "activated", "leaderless") if u.get(k)]
        if u["pins"]:
            flags.append(f"pins {u['pins']}")
        lead = leader_of(state, uid)
        where = f"leader {lead.id} at ({lead.x:.1f},{lead.y:.1f})" if lead else ("destroyed" if not ms else "no leader")
        bad = out_of_coherency(state, uid)
        lines.append(
            f"  {side_name(spec['side'])} {uid:4} {spec['name']:<18} {len(ms)}/{len(spec['models'])} "
            f"models, {where} {' '.join(flags)}{' OUT OF COHERENCY: ' + ','.join(bad) if bad else ''}"
        )
    lines.extend(_marks_line(state))
    return "\n".join(lines)


def _marks_line(state: State) -> list[str]:
    """The objective markers, when the scenario's actions can claim, remove or place them."""
    if not state.ctx.missions:
        return []
    parts = []
    for oid, mark in marks(state).items():
        if mark["at"] is None:
            parts.append(f"{oid} off the table")
        else:
            owner = f" claimed by {side_name(int(mark['owner']))}" if mark["owner"] is not None else ""
            parts.append(f"{oid} at ({mark['at'][0]:.1f},{mark['at'][1]:.1f}){owner}")
    return ["  objectives: " + "; ".join(parts)] if parts else []


def explain_action(state: State, action: Action) -> str:
    """For a Shoot: the groups, their target numbers and the expected hits."""
    if action.kind != "shoot" or action.model is None or action.target is None or action.option is None:
        return ""
    groups = shoot_groups(state, action.model, action.target, action.option, False)
    params = state.ctx.params
    sides = int(params["die_sides"])
    parts = []
    for g in groups:
        p = sum(1 for v in range(1, sides + 1) if succeeds(params, v, g.tn)) / sides  # the rules' own d10 test
        parts.append(f"{g.n} dice at {g.tn} or less (~{g.n * p:.1f} hits)")
    return "; ".join(parts)
