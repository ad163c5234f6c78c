"""The actions (seed 003 paragraph 2 and "Bonus Actions"; digest ``wyrdcry.md`` §A4-A5): what the active fighter may
do, why anything else is refused, and what each action starts.

:class:`ActivationStep` is the standing decision of an activation: the menu (:func:`menu`: Move, Attack, Retreat,
Wait, Channel for a WIZARD, bonus actions, picking up and dropping treasure, abilities, ending the activation), the
refusals (:func:`action_reasons`, each naming its rule) and the dispatch (:func:`do_action`) to the rules of each
action: Move and Retreat (``movement.py``, Retreat's Strike Them Down window in ``reactions.py``), Attack
(``attacks.py``), abilities (``abilities.py``), treasure (``scenario.py``), Wait (a first-action Wait activates
again, S 14-16) and Channel (W, here: :func:`channel_options`, :func:`channel`, :class:`ChannelBacklash`).
"""

from __future__ import annotations

from warband.kernel import steps, values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, DiceRolled, Event, Note
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import factions as fx
from warband.rulesets.wyrdcry.abilities import UNIVERSAL_ABILITIES, ability_cost, ability_reasons, use_ability
from warband.rulesets.wyrdcry.activation import (
    ACTIONS,
    action_problem,
    add_taken,
    complete,
    end_activation,
    fighter_limits,
    taken,
)
from warband.rulesets.wyrdcry.attacks import attack_reasons, begin_attack
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    deal_damage,
    enemies_of,
    eng_range,
    engaged,
    has_kw,
    next_action,
    pool,
    set_pool,
    show_pool,
    standing,
    weapons,
)
from warband.rulesets.wyrdcry.factions import BankRoll
from warband.rulesets.wyrdcry.movement import MoveTo, allowance
from warband.rulesets.wyrdcry.reactions import ReactWindow, push_window
from warband.rulesets.wyrdcry.scenario import carrying, token_action, token_reasons


@values.value
class ActivationStep(steps.ModelMenu[State]):
    """The active fighter's choices: an action (S 4-6), an ability (S 7-13), a bonus action (S 6 aside), or
    ending the activation once both actions are taken."""

    wait_rule = "activation/who"
    wait_text = "{actor} is the active fighter: name it in the action"
    by: int
    model: str

    def actions(self) -> steps.ModelActions[State]:
        return MODEL_ACTIONS


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    """The active fighter's menu (S 4-13): every action, bonus action, treasure action and ability it might take. With
    ``only_legal`` (the decision's options) only the legal ones, and ``end`` once the activation may end or nothing else
    is left."""
    tries: list[Action] = []
    for kind in ("move", "retreat", "wait"):
        tries.append(Action(kind, m.id))
    for w in weapons(m):
        for e in enemies_of(state, m):
            tries.append(Action("attack", m.id, e.id, option=w["weapon"]))
            tries.append(Action("bonus-attack", m.id, e.id, option=w["weapon"]))
    pl = pool(state, m.side)
    if has_kw(m, "WIZARD") or not only_legal:
        tries.extend(Action("channel", m.id, option=o) for o in channel_options(state, m))
    if int(m.flags.get("bonus_retreats", 0)) > 0:
        tries.append(Action("bonus-retreat", m.id))
    for oid in state.vars.get("treasure") or {}:
        tries.append(Action("pick-up", m.id, option=oid))
    if carrying(state, m) or not only_legal:
        tries.append(Action("drop", m.id))
    for name in (*UNIVERSAL_ABILITIES, *fx.own_dice_abilities(m.data)):
        cost = ability_cost(state, name)
        for g in wd.payers(pl, cost) if only_legal else pl.groups:
            if name == "command":
                for f in standing(state, m.side):
                    if f.id != m.id:
                        tries.append(Action("ability", m.id, f.id, option=f"{name} {g.face}"))
            else:
                tries.append(Action("ability", m.id, option=f"{name} {g.face}"))
    if not only_legal:
        return [*tries, Action("end", m.id)]
    legal = [a for a in tries if not action_reasons(state, m, a)]
    if complete(state, m) or not any(a.kind in ("move", "retreat", "wait", "attack", "channel") for a in legal):
        legal.append(Action("end", m.id))
    return legal


def action_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """Every rule the active fighter's ``a`` breaks now (S 4-16, D §A4-A5): ending before its actions are taken, an
    action not in the list, Channel by a fighter that is no WIZARD, a bonus action it was not given, the seed's limits,
    a Move within 1" of an enemy or a Retreat without one, and the Attack's targets."""
    lim = fighter_limits(state, m)
    done = taken(m)
    if a.kind == "end":
        if complete(state, m):
            return []
        if any(x.kind in ("move", "retreat", "wait", "attack", "channel") for x in menu(state, m)):
            return [
                (f"{R}/activation/two-actions", f"{m.id} must take {lim.actions} actions before its activation ends")
            ]
        return []
    if a.kind == "ability":
        return ability_reasons(state, m, a)
    if a.kind in ("pick-up", "drop"):
        return token_reasons(state, m, a)
    bonus = a.kind in ("bonus-attack", "bonus-retreat")
    name = a.kind[len("bonus-") :] if bonus else a.kind
    if name not in ACTIONS or (name == "channel" and bonus):
        return [
            (
                f"{R}/activation/unknown",
                f"{a.kind!r} is not an action of this game (move, attack, retreat, wait, channel)",
            )
        ]
    if name == "channel":
        if not has_kw(m, "WIZARD"):
            return [(f"{R}/channel/wizard", f"only a WIZARD may take the Channel action; {m.id} is not one")]
        if a.option not in channel_options(state, m):
            offered = ", ".join(channel_options(state, m)) or "none"
            return [(f"{R}/channel/option", f"Channel cannot do {a.option!r} now (it can: {offered})")]
    if bonus and name == "attack" and int(m.flags.get("bonus_attacks", 0)) <= 0:
        return [(f"{R}/activation/bonus", f"{m.id} has no bonus attack action to take (Rampage gives one)")]
    if bonus and name == "retreat" and int(m.flags.get("bonus_retreats", 0)) <= 0:
        return [(f"{R}/activation/bonus", f"{m.id} has no bonus Retreat to take (Disengage gives one)")]
    why = action_problem(done, name, bonus, lim)
    if why is not None:
        rule = "same-action" if bonus else ("once-each" if "at most" in why else "two-actions")
        return [(f"{R}/activation/{rule}", why)]
    if name == "move":
        if engaged(state, m):
            return [(f"{R}/move/engaged", f'{m.id} is within {eng_range(state):g}" of an enemy: it cannot Move')]
        return []
    if name == "retreat":
        if not engaged(state, m):
            return [(f"{R}/retreat/not-engaged", f'{m.id} is not within {eng_range(state):g}" of an enemy')]
        return []
    if name in ("wait", "channel"):
        return []
    return attack_reasons(state, m, a)


def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """Take ``a`` (already checked): number it for reactions (S 32), note it as taken and start its rules. A Wait
    reloads a weapon and ends the activation; as the first action the fighter activates again later (S 14-16)."""
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        end_activation(state, events)
        return
    if a.kind == "ability":
        use_ability(state, m, a, events)
        return
    if a.kind in ("pick-up", "drop"):
        token_action(state, m, a, events)
        return
    bonus = a.kind in ("bonus-attack", "bonus-retreat")
    name = a.kind[len("bonus-") :] if bonus else a.kind
    seq = next_action(state)
    first = not [t for t in taken(m) if not t.bonus]
    add_taken(m, name, bonus)
    if bonus:
        key = "bonus_attacks" if name == "attack" else "bonus_retreats"
        m.flags[key] = int(m.flags.get(key, 0)) - 1
    if name == "move":
        push(state, MoveTo(m.side, m.id, "move", allowance(state, m)))
    elif name == "retreat":
        push(state, MoveTo(m.side, m.id, "retreat", float(state.ctx.params["retreat_distance"])))
        push_window(state, ReactWindow(1 - m.side, "retreat", m.id, "", seq))
    elif name == "channel":
        channel(state, m, str(a.option), events)
    elif name == "wait":
        empty = list(m.flags.get("empty", []))
        if empty:
            m.flags["empty"] = empty[1:]
            events.append(Note(f"{m.id} reloads {empty[0]}", f"{R}/weapon/reload"))
        if first:
            m.flags["wait_first"] = True  # S 14-16: it activates again later in this phase
        strategize = int(m.flags.pop("strategize", 0))
        end_activation(state, events)
        if strategize:
            push(state, BankRoll(m.id, strategize, "Strategize"))
    else:
        begin_attack(state, m, state.models[a.target or ""], a.option or "", events)


def channel_options(state: State, m: Model) -> list[str]:
    """D §A4 (W) Channel: add a [double] of ``channel_double_face``, upgrade a group one step, or raise a
    group's face by ``channel_face_bonus`` (at most 6); never onto a face another group or single shows."""
    p = state.ctx.params
    pl = pool(state, m.side)
    faces = pl.faces()
    out: list[str] = []
    if int(p["channel_double_face"]) not in faces:
        out.append("double")
    for g in pl.groups:
        if g.size < 4:
            out.append(f"upgrade {g.face}")
        raised = min(wd.DIE_FACES, g.face + int(p["channel_face_bonus"]))
        if raised != g.face and raised not in faces:
            out.append(f"raise {g.face}")
    return out


def channel(state: State, m: Model, option: str, events: list[Event]) -> None:
    """Apply a Channel action's effect; the group it made or changed must be spent this activation (D §A4 W:
    "use that activation"; [P] what is left of it is discarded when the activation ends); then the backlash."""
    p = state.ctx.params
    pl = pool(state, m.side)
    if option == "double":
        face = int(p["channel_double_face"])
        groups = (*pl.groups, wd.Group(2, face))
    else:
        word, face_text = option.split()
        old = int(face_text)
        if word == "upgrade":
            face = old
            groups = tuple(wd.Group(g.size + 1, g.face, g.upgraded) if g.face == old else g for g in pl.groups)
        else:
            face = min(wd.DIE_FACES, old + int(p["channel_face_bonus"]))
            groups = tuple(wd.Group(g.size, face, g.upgraded) if g.face == old else g for g in pl.groups)
    new = wd.AbilityDice(pl.singles, tuple(sorted(groups, key=lambda g: (g.size, g.face))))
    set_pool(state, m.side, new)
    m.flags["channeled"] = [*m.flags.get("channeled", []), face]
    events.append(Note(f"{m.id} channels ({option}): {show_pool(new)}", f"{R}/channel/effect"))
    push(state, ChannelBacklash(m.id))


@values.value
class ChannelBacklash(FighterD6, kind="channel-backlash", label="channel backlash"):
    """D §A4 (W): after channeling a D6: ``channel_out_face`` or less takes the wizard out of action; up to
    ``channel_damage_to`` it takes ``channel_backlash_damage`` damage ([P]: the digest's "X"); else it is safe."""

    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        p = state.ctx.params
        m = state.models[self.model]
        v = values[0]
        if v <= int(p["channel_out_face"]):
            events.append(DiceRolled("channel backlash", values, "out of action", m.id))
            deal_damage(state, m, int(m.data["health"]), "channel backlash", events)
        elif v <= int(p["channel_damage_to"]):
            events.append(DiceRolled("channel backlash", values, f"{p['channel_backlash_damage']} damage", m.id))
            deal_damage(state, m, int(p["channel_backlash_damage"]), "channel backlash", events)
        else:
            events.append(DiceRolled("channel backlash", values, "safe", m.id))


#: The active fighter's menu, the rules of each action and doing it (:class:`ActivationStep`).
MODEL_ACTIONS: steps.ModelActions[State] = steps.ModelActions(menu, action_reasons, do_action)
