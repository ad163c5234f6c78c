"""The action menu (seed 002, Actions and List of Actions): the universal actions every unit may take, the rules
that refuse one for the active unit now (each action's own refusals live with the action), the standing decision of
an activation (:class:`ActionMenu`) and doing the chosen action. Rule ids are
``trenches-and-turbines/<area>/<rule>``."""

from __future__ import annotations

from warband.kernel import steps, values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, Event
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines import missions
from warband.rulesets.trenches_and_turbines.activation import spend
from warband.rulesets.trenches_and_turbines.charge import begin_charge, charge_reasons
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, side_of
from warband.rulesets.trenches_and_turbines.fight import FightGo, fight_reasons
from warband.rulesets.trenches_and_turbines.movement import Dest, move_reasons, push_shift, shift_reasons
from warband.rulesets.trenches_and_turbines.pins import shed, shed_first_reasons, shed_reasons
from warband.rulesets.trenches_and_turbines.prone import go_prone, prone_reasons, stand_reasons, stand_up
from warband.rulesets.trenches_and_turbines.reactions import go_on_overwatch, offer_reaction, overwatch_reasons
from warband.rulesets.trenches_and_turbines.shooting import begin_shoot, shoot_reasons, unit_weapons
from warband.rulesets.trenches_and_turbines.spots import frozen_models
from warband.rulesets.trenches_and_turbines.unit_moves import move_allow
from warband.rulesets.trenches_and_turbines.units import engaged_units, units_of

ACTIONS = ("move", "charge", "prone", "stand", "shoot", "fight", "shift", "shed", "overwatch", missions.KIND)


def menu(state: State, uid: str, only_legal: bool = True) -> list[Action]:
    tries = candidates(state, uid)
    eng = engaged_units(state, uid)
    with frozen_models(state):  # only checks follow: nothing moves
        out = [a for a in tries if not only_legal or not action_reasons(state, uid, a, eng, every=False)]
    out.append(Action("end", uid))
    return out


def candidates(state: State, uid: str) -> list[Action]:
    """Every action the unit might take, in the menu's order: the universal ones for each enemy unit and ranged
    weapon, then the scenario's. The universal part depends only on the unit, the enemy units on the table and
    the weapons, so it is built once per game for each of them (kept in the memo; actions are values, never
    changed, so menus may share them)."""
    side = state.ctx.units[uid]["side"]
    enemies = units_of(state, 1 - side)
    weapons = unit_weapons(state, uid)
    k = ("menu-tries", uid, tuple(enemies), tuple(weapons))
    memo = state.ctx.memo
    fixed: tuple[Action, ...] | None = memo.get(k)
    if fixed is None:
        fixed = memo[k] = tuple(_universal(uid, enemies, weapons))
    return [*fixed, *missions.candidates(state, uid)]


def _universal(uid: str, enemies: list[str], weapons: list[str]) -> list[Action]:
    out = [Action("move", uid), Action("shed", uid), Action("prone", uid), Action("stand", uid)]
    for e in enemies:
        out.append(Action("charge", uid, e, option="walking"))
        out.append(Action("charge", uid, e, option="running"))
    for w in weapons:
        out.extend(Action("shoot", uid, e, option=w) for e in enemies)
    out.extend(Action("fight", uid, e) for e in enemies)
    out.extend([Action("shift", uid), Action("overwatch", uid)])
    return out


def action_reasons(state: State, uid: str, a: Action, eng: list[str] | None = None, every: bool = True) -> list[Reason]:
    """Every rule of seed 002 (and digest §3) that forbids ``a`` for the active unit now; the menu, which asks
    only whether any does, passes ``every=False`` so that a costly check may be skipped once a cheap one refused
    (a Shoot's line of sight when no model has range, ``shooting.pick_target_reasons``)."""
    out: list[Reason] = []
    left = int(state.vars["left"])
    if a.kind == "end":
        return []
    if a.kind not in ACTIONS:
        return [(f"{R}/activation/unknown", f"{a.kind!r} is not an action of this game")]
    if left <= 0:
        out.append((f"{R}/activation/no-actions", "the unit has no actions left"))
    out.extend(shed_first_reasons(state, uid, a))
    eng = engaged_units(state, uid) if eng is None else eng
    if eng and a.kind in ("move", "charge", "shoot", "overwatch"):
        out.append((f"{R}/fight/engaged-only", "an engaged unit may only Fight or Shift (digest §3.9)"))
    out.extend(missions.forbidden(state, a))
    if out and not every:
        return out  # the menu asks only whether some rule refuses: the action's own checks may be costly
    if a.kind == "shoot":
        out.extend(shoot_reasons(state, uid, a, eng, every))
    else:
        out.extend(CHECKS[a.kind](state, uid, a, eng))
    return out


def mission_reasons(state: State, uid: str, a: Action, eng: list[str]) -> list[Reason]:
    """Mission-Based Actions (seed 002): the scenario's own requirements and limits."""
    return missions.reasons(state, uid, a)


CHECKS = {
    "move": move_reasons,
    "shed": shed_reasons,
    "prone": prone_reasons,
    "stand": stand_reasons,
    "charge": charge_reasons,
    "shoot": shoot_reasons,
    "fight": fight_reasons,
    "shift": shift_reasons,
    "overwatch": overwatch_reasons,
    missions.KIND: mission_reasons,
}


@values.value
class ActionMenu(steps.ActionMenu[State], about="unit"):
    """The standing decision of an activation (never stored): the active ``unit`` picks its next action, or
    ends its activation."""

    wait_rule = "activation/active-unit"
    wait_text = "{actor} is the active unit (its card was drawn); {other} must wait"
    unit: str

    def player(self, state: State) -> int:
        return side_of(state, self.unit)

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return menu(state, self.unit, only_legal=only_legal)

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_reasons(state, self.unit, action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        do_action(state, self.unit, action, events)


def do_action(state: State, uid: str, a: Action, events: list[Event]) -> None:
    """Perform the active unit's chosen action: it is declared (logged) first, then spent and performed (seed 002,
    Actions: "This unit is going to move"); the target of a Shoot or a Charge may then react before it resolves
    (seed 002, How to perform a reaction)."""
    events.append(ActionTaken(uid, str(a), side_of(state, uid)))
    k = a.kind
    if k == "end":
        state.vars["end_now"] = True
        return
    if k == "move":
        spend(state, uid, "move")
        push(state, Dest(uid, "move", move_allow(state, uid)))
    elif k == "shift":
        spend(state, uid, "shift")
        push_shift(state, uid)
    elif k == "shed":
        spend(state, uid, "shed")
        shed(state, uid, events)
    elif k == "prone":
        spend(state, uid, "prone")
        go_prone(state, uid, events)
    elif k == "stand":
        spend(state, uid, "stand")
        stand_up(state, uid, events)
    elif k == "overwatch":
        spend(state, uid, "overwatch")
        go_on_overwatch(state, uid, events)
    elif k == "shoot":
        begin_shoot(state, uid, str(a.target), str(a.option), events)
        offer_reaction(state, str(a.target), uid, "shoot")
    elif k == "charge":
        begin_charge(state, uid, str(a.target), str(a.option), events)
        offer_reaction(state, str(a.target), uid, "charge")
    elif k == "fight":
        spend(state, uid, "fight")
        push(state, FightGo(uid, str(a.target), False, 0))
    elif k == missions.KIND:
        spend(state, uid, f"{missions.KIND}:{a.option}", int(state.ctx.missions[str(a.option)]["cost"]))
        missions.perform(state, uid, a, events)
