"""The actions menu of the active model: what it may do, what each costs, and the declaration of each.

Seed 004, Actions and Action Points: Standard Actions (Move, Charge!, Fight!, Reload/Fire!, Run, Stand Up) and
Special Actions (Power Attack, Finesse Attack, Slam!, Interact, Jump/Climb) apply to a single model and cost 1 AP
(``standard_action_ap``, ``special_action_ap``); a Banding leader pays ``banding_leader_ap``. Digest B2 Knocked
over (PROPOSED): a knocked-over model must Stand Up before anything else. An action that targets an enemy opens
that model's interrupt window before anything moves or rolls (seed 004, Interrupts). Design:
``docs/design/gangfight-steps.md`` §3.

Each action's own rule is in the module named after it; this one lists them (:data:`CHECKS`, :func:`menu`) and
starts them (:func:`do_action`).
"""

from __future__ import annotations

from collections.abc import Iterator

from warband.kernel import steps, values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, Event, Note, StatusChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.attacks import (
    FightGo,
    FireGo,
    check_fight,
    check_fire,
    check_reload,
    under_blast,
)
from warband.rulesets.gangfight.banding import BandNominate, check_band
from warband.rulesets.gangfight.charge import check_charge, declare_charge
from warband.rulesets.gangfight.core import (
    R,
    State,
    ap,
    declare,
    enemies_of,
    knocked,
    pint,
    ranged_weapon,
    set_ap,
    set_loaded,
    stat,
    threat,
)
from warband.rulesets.gangfight.interrupts import open_window
from warband.rulesets.gangfight.movement import Destination, check_jump, jump_spots, start_jump
from warband.rulesets.gangfight.scenario import check_interact, do_interact
from warband.rulesets.gangfight.turn import end_activation


def _tries(state: State, m: Model) -> Iterator[Action]:
    """Every action the model might declare, legal or not, in the menu's order (the candidates of ``menu``)."""
    yield Action("move", m.id)
    yield Action("run", m.id)
    yield Action("standup", m.id)
    foes = enemies_of(state, m)
    for e in foes:
        yield Action("charge", m.id, e.id)
    for e in foes:
        for k in ("fight", "power", "finesse", "slam"):
            yield Action(k, m.id, e.id)
    for w in m.data["ranged"]:
        yield Action("reload", m.id, option=w["name"])
        for e in foes:
            yield Action("fire", m.id, e.id, option=w["name"])
    for act in state.ctx.scenario.get("actions", []) or []:
        for ob in state.ctx.objectives:
            yield Action("interact", m.id, ob.id, option=act["id"])
    for q in jump_spots(state, m):
        yield Action("jump", m.id, point=q)
    yield Action("band", m.id, option="with-me")
    for e in foes:
        yield Action("band", m.id, e.id, option="bring-it-down")
        yield Action("band", m.id, e.id, option="on-my-mark")


def _quick_out(state: State, m: Model, a: Action) -> bool:
    """A cheap test that rejects most illegal targets before the full check (a target out of every reach)."""
    if a.target is None or a.kind == "interact":
        return False
    t = state.models.get(a.target)
    if t is None:
        return True
    g = gap(m, t)
    if a.kind in ("charge", "fight", "power", "finesse", "slam"):
        return False  # declared at any enemy (in sight, for a charge): seed 004, Charge! and Fight!
    if a.kind == "fire":
        w = ranged_weapon(m, a.option)
        return w is None or g > float(w["range"]) + 1e-9
    if a.kind == "band" and a.option == "on-my-mark":
        return not any(g <= float(w["range"]) + 1e-9 for w in m.data["ranged"])
    return g > threat(state, m, with_reach=True) + 1e-9


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    """The model's actions (only the legal ones unless ``only_legal`` is false), then ``end``."""
    out = [
        a
        for a in _tries(state, m)
        if not only_legal or (not _quick_out(state, m, a) and not action_reasons(state, m, a))
    ]
    out.append(Action("end", m.id))
    return out


def has_action(state: State, m: Model) -> bool:
    """Whether the active model can do anything but end its activation (stops at the first legal action)."""
    return any(not _quick_out(state, m, a) and not action_reasons(state, m, a) for a in _tries(state, m))


def action_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """Every rule ``a`` breaks: its AP cost (seed 004: 1 AP), Stand Up first when knocked over (digest B2,
    PROPOSED), and the action's own check in :data:`CHECKS`."""
    if a.kind == "end":
        return []
    check = CHECKS.get(a.kind)
    if check is None:
        why = f"{a.kind!r} is not a Standard or Special Action the active model may declare (seed 004, Actions)"
        return [(f"{R}/action/unknown", why)]
    cost = action_cost(state, a)
    out: list[Reason] = []
    if ap(m) < cost:
        out.append((f"{R}/ap/cost", f"{m.id} has {ap(m)} AP; {a.kind} costs {cost}"))
    if knocked(m) and a.kind != "standup":
        out.append((f"{R}/knocked/stand-up", f"{m.id} is knocked over: it must Stand Up first"))
    out.extend(check(state, m, a))
    return out


SPECIAL = ("power", "finesse", "slam", "interact", "jump")


def action_cost(state: State, a: Action) -> int:
    """AP an action costs: 1 for a Standard or Special Action (seed 004); a Banding leader pays
    ``banding_leader_ap`` (and the joiners' AP too when ``banding_join_payer = leader``, paid as they join)."""
    if a.kind == "band":
        return pint(state, "banding_leader_ap")
    return pint(state, "special_action_ap" if a.kind in SPECIAL else "standard_action_ap")


def check_plain(state: State, m: Model, a: Action) -> list[Reason]:
    """Move and Run name only the model: the destination comes after (:class:`.movement.Destination`)."""
    if a.target is not None or a.option is not None or a.point is not None:
        return [(f"{R}/action/syntax", f"declare '{a.kind} {m.id}'")]
    return []


def check_standup(state: State, m: Model, a: Action) -> list[Reason]:
    """Stand Up (seed 004): only a knocked-over model."""
    if not knocked(m):
        return [(f"{R}/standup/standing", f"{m.id} is not knocked over")]
    return check_plain(state, m, a)


CHECKS = {
    "move": check_plain,
    "run": check_plain,
    "standup": check_standup,
    "charge": check_charge,
    "fight": check_fight,
    "power": check_fight,
    "finesse": check_fight,
    "slam": check_fight,
    "reload": check_reload,
    "fire": check_fire,
    "interact": check_interact,
    "band": check_band,
    "jump": check_jump,
}


@values.value
class ChooseAction(steps.ModelMenu[State]):
    """The active model's next action (seed 004, Standard and Special Actions), or the end of its activation."""

    wait_rule = "turn/active-model"
    wait_text = "{actor} is the active model"
    model: str

    def actions(self) -> steps.ModelActions[State]:
        return MODEL_ACTIONS


def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """The active model declares ``a`` and pays its AP; the step that carries it out is pushed."""
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        end_activation(state, m, events)
        return
    set_ap(m, ap(m) - action_cost(state, a))
    if a.kind == "move":
        push(state, Destination(m.id, float(stat(m, "MOV")), False))
    elif a.kind == "run":
        push(state, Destination(m.id, gd.run_distance(float(stat(m, "MOV")), state.ctx.params), True))
    elif a.kind == "standup":
        m.flags["knocked"] = False
        events.append(StatusChanged(m.id, "knocked over", False))
    elif a.kind == "reload":
        set_loaded(m, a.option or "", True)
        events.append(Note(f"{m.id} loads its {a.option}", f"{R}/reload/load"))
    elif a.kind == "charge":
        declare_charge(state, m, state.models[a.target or ""])
    elif a.kind in ("fight", "power", "finesse", "slam"):
        declare_fight(state, m, state.models[a.target or ""], a.kind)
    elif a.kind == "fire":
        declare_fire(state, m, state.models[a.target or ""], a.option or "")
    elif a.kind == "interact":
        do_interact(state, m, a, events)
    elif a.kind == "band":
        push(state, BandNominate(m.id, a.option or "", a.target, (), m.side))
    elif a.kind == "jump" and a.point is not None:
        start_jump(state, m, a.point)


def declare_fight(state: State, m: Model, t: Model, how: str) -> None:
    """Fight! (or Power Attack, Finesse Attack, Slam!) declared at ``t``: the threat-range move and the attack
    (:class:`.attacks.FightGo`) wait beneath ``t``'s interrupt window (seed 004, Interrupts)."""
    declare(state)
    push(state, FightGo(m.id, t.id, how))
    open_window(state, m, t, "fight")


def declare_fire(state: State, m: Model, t: Model, weapon: str) -> None:
    """Fire! declared at ``t``: the attack (:class:`.attacks.FireGo`) waits beneath the interrupt window of the
    target, or of every enemy model under an Area of Effect's blast, in model-id order (digest B2 AoE)."""
    declare(state)
    push(state, FireGo(m.id, t.id, weapon, 0, 0))
    w = ranged_weapon(m, weapon)
    if w is not None and w.get("area"):
        for x in reversed(under_blast(state, t.pos)):
            if x.side != m.side:
                open_window(state, m, x, "area")
    else:
        open_window(state, m, t, "fire")


#: The active model's menu, the rules of each action and doing it (:class:`ChooseAction`).
MODEL_ACTIONS: steps.ModelActions[State] = steps.ModelActions(menu, action_reasons, do_action)
