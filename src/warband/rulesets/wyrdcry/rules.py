"""Wyrdcry: set-up, the battle round (initiative, combat, morale phases), activations, actions, abilities and
reactions of seed 003, on the kernel's step machine (docs/design/wyrdcry-steps.md is the plan).

Rule ids are ``wyrdcry/<area>/<rule>``; the clause matrix ``docs/rules/wyrdcry.md`` maps every seed sentence
to them. Every number comes from ``state.ctx.params``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from warband.kernel import setup, steps
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.battlefield import ObjectivePoint, controller
from warband.kernel.errors import Reason
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    GameEnded,
    Note,
    PhaseStarted,
    StatusChanged,
    TokensChanged,
)
from warband.kernel.geometry.distance import segment_point_distance
from warband.kernel.space import gap, gap_at, overlapping
from warband.kernel.state import Model
from warband.kernel.steps import Choice, SteppedRules, push, replace_top, top
from warband.rulesets.wyrdcry import activation as act
from warband.rulesets.wyrdcry import attacks as atk
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import factions as fx
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    Vec,
    WAuto,
    WChance,
    WChoice,
    active_model,
    add_taken,
    add_wyrd,
    damage,
    deal_damage,
    enemies_of,
    eng_range,
    engaged,
    fighters,
    has_kw,
    has_rule,
    hit_table,
    is_out,
    large_set,
    limits,
    mighty,
    place,
    pool,
    reaction_dice,
    set_pool,
    show_pool,
    side_name,
    standing,
    status,
    taken,
    to_activate,
    visible,
    wounds_left,
    wyrd_bank,
)

UNIVERSAL_ABILITIES = ("rush", "onslaught", "respite", "command", "rampage")


# =========================================================================================== set-up
def start_game(state: State, events: list[Event]) -> None:
    state.phase = "setup"
    state.vars.update({"zone_of": [0, 1], "active": None, "command_next": None, "action_seq": 0, "to_act": 0})
    state.vars["treasure"] = treasure_tokens(state)
    state.vars["command_tokens"] = []
    for m in state.models.values():
        m.flags["status"] = "ready"
    push(state, RollOff("deployment"))


@dataclass(frozen=True, slots=True)
class RollOff(setup.RollOff[State]):
    """A roll-off (D §A9 set-up; D §A2.1 initiative tie; D §A2.5 a tie after wyrd dice)."""

    rules = R
    why: str

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        if self.why == "deployment":
            push(state, ChooseZone(winner))
        elif self.why == "initiative":
            initiative_won(state, winner, events)
        else:
            initiative_settled(state, winner, events)


@dataclass(frozen=True, slots=True)
class ChooseZone(setup.ChooseZone[State]):
    """The roll-off winner picks its edge (D §A9); [P] the other side deploys first."""

    rules = R
    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        events.append(Note(f"side {side_name(self.by)} takes deployment zone {zone}", f"{R}/setup/zone"))
        state.vars["deployer"] = 1 - self.by


@dataclass(frozen=True, slots=True)
class Deploy(setup.Deploy[State]):
    """Standing decision of deployment: alternate placing fighters wholly inside the own zone (within 3" of
    the own edge, D §A9), clear of terrain and other bases. Fighters go in roster order, so the only choice is
    the spot (no piece is picked first)."""

    rules = R
    pick_then_place = False
    by: int

    def pieces(self, state: State, side: int) -> list[str]:
        return [m.id for m in fighters(state, side) if not m.on_table and not is_out(m)]

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        grid = setup.zone_grid(zone, 12, 2)
        return setup.deploy_spots(grid, zone, lambda p: not self.problems(state, piece, p), first)

    def options(self, state: State) -> list[Action]:
        left = self.pieces(state, self.by)
        if not left:
            return []
        first = left[0]  # fighters deploy in roster order [P]; the spot is the choice
        return [Action("deploy", first, point=p) for p in self.spots(state, first)]

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        if not setup.wholly_inside(zone, at, m.radius):
            return [(f"{R}/setup/zone", f"{m.id} must be placed wholly inside its deployment zone")]
        for t in state.ctx.table.terrain:
            if t.kind != "open" and t.circle_overlaps(at, m.radius):
                return [(f"{R}/setup/terrain", f"{m.id} cannot be placed on {t.kind} terrain {t.id}")]
        o = overlapping(state.models.values(), at, m.radius, lambda x: x.id == m.id)
        if o is not None:
            return [(f"{R}/setup/overlap", f"{m.id} would overlap {o.id}")]
        return []

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        m.x, m.y = at
        m.z = state.ctx.table.surface_height(at)
        events.append(Note(f"{m.id} deployed at ({at[0]:g}, {at[1]:g})", f"{R}/setup/deploy"))

    def all_deployed(self, state: State, events: list[Event]) -> None:
        start_round(state, events)


# =========================================================================================== initiative phase
def start_round(state: State, events: list[Event]) -> None:
    """D §A1: a battle round is the initiative, combat and morale phases."""
    state.turn += 1
    state.phase = "initiative"
    state.vars.update({"active": None, "command_next": None})
    events.append(PhaseStarted(state.turn, "Initiative"))
    for m in state.models.values():
        if not is_out(m):
            m.flags.update({"status": "ready", "taken": [], "abilities_used": 0, "lost_actions": 0})
    push(state, DecideInitiative())
    push(state, InitiativeRoll(1))
    push(state, InitiativeRoll(0))


@dataclass(frozen=True, slots=True)
class InitiativeRoll(WChance):
    """D §A2.1: each player rolls the initiative dice (6 D6, or a faction option's count); they sort into
    singles and [double]/[triple]/[quad] groups (D §A2.2, param ``large_set`` for 5-6 alike)."""

    kind = "initiative-dice"
    side: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(state.ctx.initiative_dice[self.side], 6, f"initiative dice of side {side_name(self.side)}")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        p = wd.group_roll(values, large_set(state))
        set_pool(state, self.side, p)
        events.append(DiceRolled(f"side {side_name(self.side)} initiative dice", values, show_pool(p)))


@dataclass(frozen=True, slots=True)
class DecideInitiative(WAuto):
    """D §A2.1: most singles takes the initiative; a tie is a roll-off."""

    kind = "decide-initiative"

    def run(self, state: State, events: list[Event]) -> None:
        singles = [len(pool(state, s).singles) for s in (0, 1)]
        winner = wd.initiative_winner(*singles)
        if winner is None:
            events.append(Note(f"both sides have {singles[0]} singles: roll-off", f"{R}/initiative/tie"))
            push(state, RollOff("initiative"))
        else:
            initiative_won(state, winner, events)


def initiative_won(state: State, holder: int, events: list[Event]) -> None:
    """D §A2.3-2.5: wyrd dice (initiative player first), Channeling, spending wyrd dice, then re-deciding."""
    state.vars["initiative"] = holder
    events.append(Note(f"side {side_name(holder)} has the initiative", f"{R}/initiative/most-singles"))
    n = int(state.ctx.params["wyrd_dice_per_round"])
    for s in (holder, 1 - holder):
        add_wyrd(state, s, n)
    state.vars["singles_before"] = [len(pool(state, s).singles) for s in (0, 1)]
    push(state, Redecide())
    push(state, WyrdTurn(1 - holder))
    push(state, WyrdTurn(holder))
    push(state, ChannelTurn(1 - holder))
    push(state, ChannelTurn(holder))


def channelers(state: State, side: int) -> list[Model]:
    return [m for m in standing(state, side) if has_kw(m, "WIZARD") or has_kw(m, "PRIEST")]


@dataclass(frozen=True, slots=True)
class ChannelTurn(WAuto):
    """D §A2.4: a warband with a Wizard or Priest may channel (asked only when it has one)."""

    kind = "channel-turn"
    side: int

    def run(self, state: State, events: list[Event]) -> None:
        if channelers(state, self.side):
            push(state, ChannelChoice(self.side))


@dataclass(frozen=True, slots=True)
class ChannelChoice(WChoice):
    """D §A2.4: the player picks a Wizard or Priest to roll the Channeling die, or skips."""

    kind = "channel"
    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("channel", m.id) for m in channelers(state, self.by)] + [Action("channel", option="skip")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.model is not None:
            push(state, ChannelRoll(action.model))


@dataclass(frozen=True, slots=True)
class ChannelRoll(FighterD6):
    """D §A2.4: above the round number banks a wyrd die; a 1 bars that fighter's spell-book abilities."""

    kind = "channel-roll"
    label = "channeling"
    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        p = state.ctx.params
        m = state.models[self.model]
        c = wd.channel(values[0], state.turn, int(p["channel_fail_face"]))
        gained = int(p["channel_wyrd_dice"]) if c.wyrd_dice else 0
        add_wyrd(state, m.side, gained)
        if c.spellbook_blocked:
            m.flags["spellbook_blocked"] = True
        outcome = f"+{gained} wyrd" if gained else "no wyrd die"
        events.append(
            DiceRolled("channeling", values, outcome + (", spell-book barred" if c.spellbook_blocked else ""), m.id)
        )


@dataclass(frozen=True, slots=True)
class WyrdTurn(WAuto):
    """D §A2.3: a player with banked wyrd dice decides how to spend them (asked only when it has some)."""

    kind = "wyrd-turn"
    side: int

    def run(self, state: State, events: list[Event]) -> None:
        if wyrd_bank(state, self.side) > 0 and wd.wyrd_options(pool(state, self.side)):
            push(state, SpendWyrd(self.side))


@dataclass(frozen=True, slots=True)
class SpendWyrd(WChoice):
    """D §A2.3: a wyrd die adds a single or upgrades a single or group one step; bankable, so ``done`` keeps
    the rest for later rounds."""

    kind = "wyrd"
    by: int

    def options(self, state: State) -> list[Action]:
        out = []
        for use in wd.wyrd_options(pool(state, self.by)):
            word = "add" if isinstance(use, wd.AddSingle) else "upgrade"
            out.append(Action("wyrd", option=f"{word} {use.face}"))
        return [*out, Action("wyrd", option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done":
            return
        word, face = str(action.option).split()
        use: wd.WyrdUse = wd.AddSingle(int(face)) if word == "add" else wd.Upgrade(int(face))
        p = wd.apply_wyrd(pool(state, self.by), use)
        set_pool(state, self.by, p)
        state.sides[self.by].flags["wyrd"] = wyrd_bank(state, self.by) - 1
        events.append(
            Note(
                f"side {side_name(self.by)} spends a wyrd die ({action.option}): {show_pool(p)}", f"{R}/initiative/wyrd"
            )
        )
        push(state, WyrdTurn(self.by))


@dataclass(frozen=True, slots=True)
class Redecide(WAuto):
    """D §A2.5: when singles changed, initiative is decided afresh (a tie: roll-off)."""

    kind = "redecide"

    def run(self, state: State, events: list[Event]) -> None:
        before = state.vars.get("singles_before", [0, 0])
        after = [len(pool(state, s).singles) for s in (0, 1)]
        holder = wd.redecide_initiative(int(state.vars["initiative"]), (before[0], before[1]), (after[0], after[1]))
        if holder is None:
            events.append(Note("singles changed and are level: roll-off", f"{R}/initiative/redecide"))
            push(state, RollOff("redecide"))
        else:
            initiative_settled(state, holder, events)


def initiative_settled(state: State, holder: int, events: list[Event]) -> None:
    """D §A2.6: leftover singles become reaction dice; the initiative holder picks who activates first (S 2)."""
    if holder != state.vars.get("initiative"):
        events.append(Note(f"side {side_name(holder)} now has the initiative", f"{R}/initiative/redecide"))
    state.vars["initiative"] = holder
    for s in (0, 1):
        p = pool(state, s)
        state.sides[s].flags["reaction_dice"] = wd.reaction_dice(p)
        set_pool(state, s, wd.AbilityDice((), p.groups))
    push(state, FirstActivation(holder))


@dataclass(frozen=True, slots=True)
class FirstActivation(setup.ChooseSide[State]):
    """S 2: the player with initiative decides which player makes the first activation ("me" or "opponent")."""

    rules = R
    kind = "first"
    by: int

    def chosen(self, state: State, first: int, events: list[Event]) -> None:
        state.vars["to_act"] = first
        state.phase = "combat"
        events.append(PhaseStarted(state.turn, "Combat"))
        events.append(Note(f"side {side_name(first)} activates first", f"{R}/combat/first"))


# =========================================================================================== combat phase
@dataclass(frozen=True, slots=True)
class Activate(WChoice):
    """S 1: the players take turns activating fighters (a waiting fighter activates again, S 15)."""

    kind = "activate"
    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("activate", m.id) for m in to_activate(state, self.by)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        begin_activation(state, state.models[action.model or ""], events)


def begin_activation(state: State, m: Model, events: list[Event]) -> None:
    """An activation starts: a waiting fighter keeps its first action (the Wait) and may use an ability afresh
    (S 15); a ready one starts with no action taken."""
    if status(m) != "waiting":
        m.flags["taken"] = []
    m.flags.update({"status": "active", "abilities_used": 0, "move_bonus": 0, "melee_bonus": 0, "bonus_attacks": 0})
    m.flags.update({"took_out": False, "token_actions": []})
    state.vars["active"] = m.id
    state.vars["to_act"] = m.side
    events.append(Activated(m.id, m.side))
    if fx.has_trait(m.data, "indomitable") and damage(m) > 0:
        push(state, IndomitableRoll(m.id))


def end_activation(state: State, events: list[Event]) -> None:
    m = active_model(state)
    state.vars["active"] = None
    if m is None:
        return
    side = m.side
    climb_end_fall(state, m, events)
    channeled = set(m.flags.pop("channeled", []))
    if channeled:
        pl = pool(state, side)
        left = wd.AbilityDice(pl.singles, tuple(g for g in pl.groups if g.face not in channeled))
        if left != pl:
            set_pool(state, side, left)
            events.append(Note(f"channeled dice not spent by {m.id} are lost: {show_pool(left)}", f"{R}/channel/use"))
    if not is_out(m):
        waiting = bool(m.flags.pop("wait_first", False))
        m.flags["status"] = "waiting" if waiting else "done"
        if not waiting:
            m.flags["taken"] = []
    for k in (
        "move_bonus",
        "melee_bonus",
        "bonus_attacks",
        "bonus_retreats",
        "next_ranged_bonus",
        "next_melee_bonus",
        "death_grip",
        "strategize",
        "greed",
        "took_out",
        "token_actions",
    ):
        m.flags.pop(k, None)
    events.append(Note(f"{m.id}'s activation ends", f"{R}/activation/end"))
    nxt = state.vars.get("command_next")
    state.vars["command_next"] = None
    if nxt and status(state.models[nxt]) == "ready" and state.models[nxt].on_table:
        push(state, CommandActivation(side, nxt))
        return
    state.vars["to_act"] = 1 - side


@dataclass(frozen=True, slots=True)
class CommandActivation(WChoice):
    """S 23 (Command): the picked fighter may activate immediately after this activation ends."""

    kind = "command-activation"
    about = "model"
    by: int
    model: str

    def options(self, state: State) -> list[Action]:
        return [Action("activate", self.model), Action("decline", self.model)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "activate":
            begin_activation(state, state.models[self.model], events)
        else:
            state.vars["to_act"] = 1 - self.by


def fighter_limits(state: State, m: Model) -> act.Limits:
    """The seed's limits, less an action Death Grip took from this fighter this round (data §4.3)."""
    lim = limits(state)
    lost = int(m.flags.get("lost_actions", 0))
    return replace(lim, actions=max(1, lim.actions - lost)) if lost else lim


def complete(state: State, m: Model) -> bool:
    return act.activation_complete(taken(m), fighter_limits(state, m))


@dataclass(frozen=True, slots=True)
class ActivationStep(steps.ActionMenu[State]):
    """The active fighter's choices: an action (S 4-6), an ability (S 7-13), a bonus action (S 6 aside), or
    ending the activation once both actions are taken."""

    rules = R
    about = "model"
    wait_rule = "activation/who"
    wait_text = "{actor} is the active fighter: name it in the action"
    by: int
    model: str

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return menu(state, state.models[self.model], only_legal=only_legal)

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_reasons(state, state.models[self.model], action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        do_action(state, state.models[self.model], action, events)


def allowance(state: State, m: Model) -> float:
    return float(m.data["move"]) + float(m.flags.get("move_bonus", 0))


def weapons(m: Model, kind: str | None = None) -> list[dict[str, Any]]:
    return [w for w in m.data["attacks"] if kind is None or w["type"] == kind]


def weapon_named(m: Model, name: str | None) -> dict[str, Any] | None:
    return next((w for w in m.data["attacks"] if w["weapon"] == name), None)


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
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


def ability_cost(state: State, name: str) -> wd.Cost:
    """A universal ability's cost is a parameter (seed table); a faction ability's is in the data (§4)."""
    cost = str(state.ctx.params[f"cost_{name}"]) if name in UNIVERSAL_ABILITIES else fx.cost_of(name)
    assert cost in wd.COST_SIZES
    return cost  # type: ignore[return-value]


def action_reasons(state: State, m: Model, a: Action) -> list[Reason]:
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
    if name not in act.ACTIONS or (name == "channel" and bonus):
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
    why = act.action_problem(done, name, bonus, lim)
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


@dataclass(frozen=True, slots=True)
class ChannelBacklash(FighterD6):
    """D §A4 (W): after channeling a D6: ``channel_out_face`` or less takes the wizard out of action; up to
    ``channel_damage_to`` it takes ``channel_backlash_damage`` damage ([P]: the digest's "X"); else it is safe."""

    kind = "channel-backlash"
    label = "channel backlash"
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


def attack_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """D §A5 targets: a visible enemy within the weapon's range; an enemy within 1" must be chosen; a ranged
    attack cannot target an enemy within 1" of a friendly fighter; Reload and One-use weapons."""
    w = weapon_named(m, a.option)
    if w is None:
        return [(f"{R}/attack/weapon", f"{m.id} has no weapon {a.option!r}")]
    t = state.models.get(a.target or "")
    if t is None or t.side == m.side or not t.on_table or is_out(t):
        return [(f"{R}/attack/target", f"{a.target} is not an enemy fighter on the table")]
    out: list[Reason] = []
    if w["weapon"] in m.flags.get("empty", []):
        out.append((f"{R}/weapon/reload", f"{w['weapon']} is empty: a Wait action reloads it"))
    if w["weapon"] in m.flags.get("used_one_use", []):
        out.append((f"{R}/weapon/one-use", f"{w['weapon']} is One-use and was used this battle"))
    lo, hi = float(w["range"][0]), float(w["range"][1])
    d = gap(m, t)
    if d > hi + 1e-9 or d < lo - 1e-9:
        out.append((f"{R}/attack/range", f'{t.id} is {d:.1f}" away: {w["weapon"]} reaches {lo:g}-{hi:g}"'))
        return out
    near = engaged(state, m)
    if near and t not in near:
        out.append(
            (f"{R}/attack/engaged-target", f'an enemy is within {eng_range(state):g}" of {m.id}: it must be the target')
        )
    if w["type"] == "ranged" and any(
        gap(t, f) <= eng_range(state) + 1e-9 for f in standing(state, m.side) if f.id != m.id
    ):
        out.append((f"{R}/attack/ranged-friendly", f'{t.id} is within {eng_range(state):g}" of a friendly fighter'))
    if not visible(state, m, t):
        out.append((f"{R}/attack/visible", f"{t.id} is not visible to {m.id}"))
    return out


def ability_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """S 7-13 and the universal abilities' own conditions (S 19-25)."""
    try:
        name, face_text = str(a.option).split()
        face = int(face_text)
    except ValueError:
        return [(f"{R}/ability/syntax", "use an ability as 'ability FIGHTER [TARGET] [name face]'")]
    if name not in UNIVERSAL_ABILITIES:
        why_not = faction_ability_problem(m, name)
        if why_not is not None:
            return [why_not]
    why = act.ability_problem(int(m.flags.get("abilities_used", 0)), limits(state))
    if why is not None:
        return [(f"{R}/ability/one-per-activation", why)]
    cost = ability_cost(state, name)
    g = pool(state, m.side).group_at(face)
    if g is None:
        return [(f"{R}/ability/dice", f"side {side_name(m.side)} has no group of {face}s to discard")]
    if not wd.can_pay(g, cost):
        return [(f"{R}/ability/cost", f"{name} needs a [{cost}] (or higher), found a [{g.name}] of {face}s")]
    p = state.ctx.params
    if name == "respite" and any(gap(m, e) <= float(p["respite_enemy_range"]) + 1e-9 for e in enemies_of(state, m)):
        return [(f"{R}/ability/respite", f'Respite cannot be used within {p["respite_enemy_range"]:g}" of an enemy')]
    if name == "command":
        f = state.models.get(a.target or "")
        if f is None or f.side != m.side or f.id == m.id or is_out(f) or not f.on_table:
            return [(f"{R}/ability/command", "Command picks another friendly fighter on the table")]
        if status(f) != "ready":
            return [(f"{R}/ability/command", f"{f.id} has already activated this battle round")]
        if gap(m, f) > float(p["command_range"]) + 1e-9:
            return [(f"{R}/ability/command", f'{f.id} is not within {p["command_range"]:g}" of {m.id}')]
        if not visible(state, m, f):
            return [(f"{R}/ability/command", f"{f.id} is not visible to {m.id}")]
    elif a.target is not None:
        return [(f"{R}/ability/syntax", f"{name} names no target")]
    if name == "disengage" and not engaged(state, m):
        return [(f"{R}/ability/disengage", f'Disengage needs an enemy within {eng_range(state):g}" of {m.id}')]
    if name == "hammer-of-sigmar" and not any("Warhammer" in w["weapon"] for w in weapons(m, "melee")):
        return [(f"{R}/ability/hammer-of-sigmar", f"Hammer of Sigmar needs a Warhammer; {m.id} carries none")]
    if name == "lead-by-example":
        if not m.flags.get("took_out"):
            return [
                (
                    f"{R}/ability/lead-by-example",
                    f"Lead By Example is used after taking an enemy out of action: {m.id} has not this activation",
                )
            ]
        if not led_henchmen(state, m, ()):
            return [(f"{R}/ability/lead-by-example", f"no visible friendly HENCHMAN within reach of {m.id} can act")]
    if name == "driven-by-greed" and not greedy(state, m):
        return [
            (
                f"{R}/ability/driven-by-greed",
                f'Driven by Greed needs {m.id} to carry treasure or be within {p["treasure_range"]:g}" of it',
            )
        ]
    return []


def faction_ability_problem(m: Model, name: str) -> Reason | None:
    """Data §4: a fighter uses the abilities on its own card; traits act by themselves; a spell-book ability is
    barred for the round after a Channeling roll of 1 (D §A2.4)."""
    own = list(m.data.get("abilities", []))
    if name not in own:
        mine = ", ".join([*UNIVERSAL_ABILITIES, *fx.own_dice_abilities(m.data)])
        return (f"{R}/ability/unknown", f"{name!r} is not an ability {m.id} can use (it can use: {mine})")
    if name in fx.PENDING:
        return (f"{R}/ability/pending", f"{name} cannot be played: {fx.PENDING[name]}")
    if name not in fx.DICE_ABILITIES:
        return (f"{R}/ability/trait", f"{name} is a trait of {m.id}: it applies by itself, no dice are spent")
    if fx.is_spellbook(name) and m.flags.get("spellbook_blocked"):
        return (f"{R}/ability/spellbook", f"{m.id} rolled a 1 when channeling: no spell-book ability this round")
    return None


def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
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
    state.vars["action_seq"] = int(state.vars.get("action_seq", 0)) + 1
    first = not [t for t in taken(m) if not t.bonus]
    add_taken(m, name, bonus)
    if bonus:
        key = "bonus_attacks" if name == "attack" else "bonus_retreats"
        m.flags[key] = int(m.flags.get(key, 0)) - 1
    if name == "move":
        push(state, MoveTo(m.side, m.id, "move", allowance(state, m)))
    elif name == "retreat":
        push(state, MoveTo(m.side, m.id, "retreat", float(state.ctx.params["retreat_distance"])))
        push_window(state, ReactWindow(1 - m.side, "retreat", m.id, "", int(state.vars["action_seq"])))
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


# ------------------------------------------------------------------------------------------- abilities
def use_ability(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """S 7-13: discard the dice (a higher group pays a lower cost, discarded whole); value = the face."""
    p = state.ctx.params
    name, face_text = str(a.option).split()
    newpool, value = wd.pay(pool(state, m.side), ability_cost(state, name), int(face_text))
    set_pool(state, m.side, newpool)
    m.flags["abilities_used"] = int(m.flags.get("abilities_used", 0)) + 1
    events.append(Note(f"{m.id} uses {name.title()} (value {value})", f"{R}/ability/{name}"))
    if name == "rush":
        m.flags["move_bonus"] = int(m.flags.get("move_bonus", 0)) + int(p["rush_move_bonus"])
    elif name == "onslaught":
        m.flags["melee_bonus"] = int(m.flags.get("melee_bonus", 0)) + int(p["onslaught_attacks_bonus"])
    elif name == "respite":
        before = damage(m)
        after = atk.remove_damage(before, value)
        m.tokens["damage"] = after
        events.append(TokensChanged(m.id, "damage", after - before, after))
    elif name == "command":
        state.vars["command_next"] = a.target
    elif name == "rampage":
        m.flags["bonus_attacks"] = int(m.flags.get("bonus_attacks", 0)) + int(p["rampage_bonus_attacks"])
        m.flags["rampaged"] = True
        events.append(StatusChanged(m.id, "Rampage (-Defense)", True))
    elif fx.is_spellbook(name) and denouncers(state, m, name):
        # data §4.4 Denounce: the enemy may react before the magical ability takes effect; its dice are spent
        state.vars["action_seq"] = int(state.vars.get("action_seq", 0)) + 1
        push(state, MagicEffect(m.id, name, value))
        push_window(state, ReactWindow(1 - m.side, "magic", m.id, name, int(state.vars["action_seq"])))
    else:
        use_faction_ability(state, m, name, value, events)


def add_zeal(state: State, side: int, n: int, events: list[Event]) -> None:
    """Data §4.3: the Witch Hunters' warband counter (from 0, [P])."""
    zeal = int(state.sides[side].flags.get("zeal", 0)) + n
    state.sides[side].flags["zeal"] = zeal
    events.append(Note(f"side {side_name(side)} Zeal {zeal} (+{n})", f"{R}/faction/zeal"))


def zeal(state: State, m: Model) -> int | None:
    """The Zeal of a WITCH HUNTERS fighter's warband, None for any other fighter."""
    return int(state.sides[m.side].flags.get("zeal", 0)) if has_kw(m, "WITCH HUNTERS") else None


def use_faction_ability(state: State, m: Model, name: str, value: int, events: list[Event]) -> None:
    """Data §4.1-4.4: the effects of the faction abilities the engine plays (X = value, X/2 rounded up)."""
    p = state.ctx.params
    half = fx.half_up(value)
    reach = float(p["faction_ability_range"])
    if name == "hunters-eye":  # next ranged attack: +1 damage per hit and critical hit
        m.flags["next_ranged_bonus"] = int(m.flags.get("next_ranged_bonus", 0)) + 1
    elif name == "hammer-of-sigmar":  # next melee attack this activation: +X/2 per hit and critical hit
        m.flags["next_melee_bonus"] = int(m.flags.get("next_melee_bonus", 0)) + half
    elif name == "death-grip":  # next melee attack: a hit costs the target an action
        m.flags["death_grip"] = True
    elif name == "words-of-healing":  # X/2 off each friendly within range (this fighter too)
        for f in standing(state, m.side):
            if gap(m, f) <= reach + 1e-9 or f.id == m.id:
                before = damage(f)
                after = atk.remove_damage(before, half)
                if after != before:
                    f.tokens["damage"] = after
                    events.append(TokensChanged(f.id, "damage", after - before, after))
    elif name == "soulfire":  # X/2 to each visible enemy within range; X to VAMPIRE, DAEMON, THRALL
        for e in list(enemies_of(state, m)):
            if gap(m, e) <= reach + 1e-9 and visible(state, m, e):
                full = any(has_kw(e, k) for k in fx.SOULFIRE_FULL)
                hurt(state, e, m, value if full else half, f"{m.id}'s Soulfire", events)
    elif name == "self-flagellation":  # X/2 damage to itself, Zeal +1, then a free attack
        add_zeal(state, m.side, 1, events)
        if not deal_damage(state, m, half, f"{m.id}'s Self-Flagellation", events):
            m.flags["bonus_attacks"] = int(m.flags.get("bonus_attacks", 0)) + 1
    elif name == "strategize":  # if it Waits this activation: X dice, each 4+ banks a wyrd die
        m.flags["strategize"] = value
    elif name == "blessed-sight":  # a die per visible enemy within X inches, each 4+ banks a wyrd die
        n = sum(1 for e in enemies_of(state, m) if gap(m, e) <= value + 1e-9 and visible(state, m, e))
        if n:
            push(state, BankRoll(m.id, n, "Blessed Sight"))
    elif name == "condemn":  # up to X/2 visible enemies without one get an Accused token
        push(state, Accuse(m.side, m.id, half))
    elif name == "disengage":  # a free Retreat
        m.flags["bonus_retreats"] = int(m.flags.get("bonus_retreats", 0)) + 1
    elif name == "captain-command":  # a Seize or Hold token within 12" until the round ends
        push(state, PlaceCommandToken(m.side, m.id))
    elif name == "lead-by-example":  # up to 2 visible friendly HENCHMEN within 6": a free move or attack each
        push(state, LeadChoice(m.side, m.id, int(p["lead_by_example_fighters"]), ()))
    elif name == "driven-by-greed":  # next melee attack: +1 Fight and +1 Attacks
        m.flags["greed"] = True


def hurt(state: State, t: Model, by: Model, amount: int, why: str, events: list[Event]) -> bool:
    """Damage ``t`` and, when it goes out of action, open the reactions that moment names (Martyrdom, Sudden
    Accusation: data §4.2-4.3) for ``t``'s player."""
    out = deal_damage(state, t, amount, why, events)
    if out:
        if by.side != t.side:
            by.flags["took_out"] = True  # Lead By Example (data §4.1): "after taking an enemy out"
        push_window(state, ReactWindow(t.side, "out", by.id, t.id, int(state.vars.get("action_seq", 0))))
    elif amount > 0:
        edge_check(state, t)  # D §A4: damaged near a platform's edge
    return out


@dataclass(frozen=True, slots=True)
class BankRoll(WChance):
    """Strategize and Blessed Sight (data §4.1-4.2): each die of ``wyrd_roll_from``+ banks a wyrd die."""

    kind = "bank-roll"
    model: str
    n: int
    what: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, 6, self.what, self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        gained = sum(1 for v in values if v >= int(state.ctx.params["wyrd_roll_from"]))
        add_wyrd(state, m.side, gained)
        events.append(DiceRolled(self.what, values, f"+{gained} wyrd dice banked", m.id))


@dataclass(frozen=True, slots=True)
class Accuse(WChoice):
    """Condemn (data §4.3): the player picks up to ``left`` visible enemies without an Accused token, one at a
    time; Zeal +1 each (+``condemn_heavy_zeal`` for a WIZARD, DAEMON or VAMPIRE)."""

    kind = "accuse"
    by: int
    model: str
    left: int

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        out = [
            Action("accuse", m.id, e.id)
            for e in enemies_of(state, m)
            if not e.flags.get("accused") and visible(state, m, e)
        ]
        return [*out, Action("accuse", m.id, option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done" or action.target is None:
            return
        e = state.models[action.target]
        e.flags["accused"] = True
        events.append(StatusChanged(e.id, "Accused", True))
        heavy = any(has_kw(e, k) for k in fx.CONDEMN_HEAVY)
        add_zeal(state, self.by, int(state.ctx.params["condemn_heavy_zeal"]) if heavy else 1, events)
        if self.left > 1:
            push(state, Accuse(self.by, self.model, self.left - 1))


@dataclass(frozen=True, slots=True)
class IndomitableRoll(WChance):
    """Indomitable (data §4.4, Troll Slayer): a D3 of damage removed when it activates."""

    kind = "indomitable"
    model: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, int(state.ctx.params["indomitable_die"]), "indomitable", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        before = damage(m)
        after = atk.remove_damage(before, values[0])
        m.tokens["damage"] = after
        events.append(DiceRolled("indomitable", values, f"{before - after} damage removed", m.id))
        if after != before:
            events.append(TokensChanged(m.id, "damage", after - before, after))


# ------------------------------------------------------------------------------------------- treasure
def treasure_tokens(state: State) -> dict[str, list[Any]]:
    """Driven by Greed (data §4.1) needs treasure: in a scenario whose rules let a fighter carry a token
    (``carry_limit``, digest §A9 "carry 1"), each objective marker is a treasure token, kept as [x, y, carrier]
    (the carrier's id, or None when it lies on the table)."""
    if carry_limit(state) <= 0:
        return {}
    return {o.id: [float(o.at[0]), float(o.at[1]), None] for o in state.ctx.objectives}


def scenario_rules(state: State) -> dict[str, Any]:
    """The scenario's Wyrdcry options (``rules``, checked at load by ``scenario.py``)."""
    return dict(state.ctx.scenario.get("rules") or {})


def carry_limit(state: State) -> int:
    return int(scenario_rules(state).get("carry_limit", 0) or 0)


def control_range(state: State) -> float:
    """Digest §A9: a marker is held by the side with more fighters within this of it (scenario ``control_range``)."""
    return float(scenario_rules(state).get("control_range", 1.0))


def treasure_at(state: State, oid: str) -> Vec:
    """Where a treasure token is: on its carrier, or where it lies."""
    x, y, carrier = state.vars["treasure"][oid]
    if carrier:
        c = state.models[carrier]
        return (c.x, c.y)
    return (float(x), float(y))


def carrying(state: State, m: Model) -> list[str]:
    return [oid for oid, t in (state.vars.get("treasure") or {}).items() if t[2] == m.id]


def near_treasure(state: State, m: Model, oid: str) -> bool:
    """Digest §A9: a token within ``treasure_range`` of any part of the fighter's base."""
    x, y = treasure_at(state, oid)
    return math.hypot(x - m.x, y - m.y) - m.radius <= float(state.ctx.params["treasure_range"]) + 1e-9


def token_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """Digest §A4 (W [R]): picking up and dropping a token are free actions (not counted among the two); a
    fighter carries at most ``carry_limit``; a BEAST takes no scenario actions (data §3). [P] each of the two at
    most once per activation, so an activation always ends."""
    done = list(m.flags.get("token_actions", []))
    tokens = state.vars.get("treasure") or {}
    if a.kind == "drop":
        if not carrying(state, m):
            return [(f"{R}/treasure/drop", f"{m.id} carries no treasure")]
        if "drop" in done:
            return [(f"{R}/treasure/once", f"{m.id} has already dropped treasure this activation ([P])")]
        return []
    oid = str(a.option)
    if oid not in tokens:
        there = ", ".join(tokens) or "none in this scenario"
        return [(f"{R}/treasure/unknown", f"{a.option!r} is not a treasure token (tokens: {there})")]
    if has_kw(m, "BEAST"):
        return [(f"{R}/treasure/beast", f"{m.id} is a BEAST: it takes no scenario actions (data §3)")]
    if tokens[oid][2] is not None:
        return [(f"{R}/treasure/carried", f"{oid} is carried by {tokens[oid][2]}")]
    if len(carrying(state, m)) >= carry_limit(state):
        return [(f"{R}/treasure/carry-limit", f"{m.id} already carries {carry_limit(state)} token(s)")]
    if not near_treasure(state, m, oid):
        r = float(state.ctx.params["treasure_range"])
        return [(f"{R}/treasure/range", f'{a.option} is not within {r:g}" of {m.id}')]
    if "pick-up" in done:
        return [(f"{R}/treasure/once", f"{m.id} has already picked up treasure this activation ([P])")]
    return []


def token_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    tokens = dict(state.vars["treasure"])
    m.flags["token_actions"] = [*m.flags.get("token_actions", []), a.kind]
    if a.kind == "pick-up":
        oid = str(a.option)
        x, y, _ = tokens[oid]
        tokens[oid] = [x, y, m.id]
        events.append(Note(f"{m.id} picks up treasure {oid}", f"{R}/treasure/pick-up"))
    else:
        for oid in carrying(state, m):
            tokens[oid] = [m.x, m.y, None]
            events.append(Note(f"{m.id} drops treasure {oid}", f"{R}/treasure/drop"))
    state.vars["treasure"] = tokens


def greedy(state: State, m: Model) -> bool:
    """Driven by Greed's condition (data §4.1): carrying treasure or within ``treasure_range`` of a token."""
    return bool(carrying(state, m)) or any(near_treasure(state, m, oid) for oid in state.vars.get("treasure") or {})


# ------------------------------------------------------------------------------------------- Captain's Command
def command_token_bonus(state: State, side: int, mode: str, t: Model) -> int:
    """Captain's Command (data §4.1): a Seize token of ``side`` adds ``seize_bonus`` to Fight and Shoot against a
    target within ``command_token_reach`` of it; a Hold token adds ``hold_bonus`` to the Defense (and Bravery) of
    ``side``'s fighters that close. Tokens of one kind do not add up ([P])."""
    p = state.ctx.params
    reach = float(p["command_token_reach"])
    for s, kind, x, y in state.vars.get("command_tokens") or []:
        if int(s) == side and kind == mode and math.hypot(t.x - x, t.y - y) - t.radius <= reach + 1e-9:
            return int(p["seize_bonus" if mode == "seize" else "hold_bonus"])
    return 0


@dataclass(frozen=True, slots=True)
class PlaceCommandToken(WChoice):
    """Captain's Command (data §4.1): the player places a Seize or a Hold token within ``command_token_range`` of
    the Captain, until the battle round ends. Offered spots: the Captain's own and every fighter's on the table
    within range (a token is placed by a fighter, friend or foe, it is meant to help or hinder)."""

    kind = "command-token"
    about = "model"
    by: int
    model: str

    def spots(self, state: State) -> list[Vec]:
        m = state.models[self.model]
        r = float(state.ctx.params["command_token_range"])
        out: list[Vec] = []
        for f in sorted((m, *[x for x in state.models.values() if x.on_table and not is_out(x)]), key=lambda x: x.id):
            q = (round(f.x, 2), round(f.y, 2))
            if math.hypot(q[0] - m.x, q[1] - m.y) - m.radius <= r + 1e-9 and q not in out:
                out.append(q)
        return out

    def options(self, state: State) -> list[Action]:
        return [Action("token", self.model, option=k, point=q) for k in ("seize", "hold") for q in self.spots(state)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        assert action.point is not None
        x, y = action.point
        state.vars["command_tokens"] = [*(state.vars.get("command_tokens") or []), [self.by, action.option, x, y]]
        events.append(Note(f"{self.model} places a {action.option} token at ({x:g}, {y:g})", f"{R}/ability/command"))


# ------------------------------------------------------------------------------------------- Lead By Example
def led_henchmen(state: State, m: Model, chosen: tuple[str, ...]) -> list[Model]:
    """Lead By Example (data §4.1): visible friendly HENCHMEN within ``lead_by_example_range`` of ``m``, not yet
    given their free action."""
    r = float(state.ctx.params["lead_by_example_range"])
    return [
        f
        for f in standing(state, m.side)
        if f.id != m.id
        and f.id not in chosen
        and has_kw(f, "HENCHMAN")
        and gap(m, f) <= r + 1e-9
        and visible(state, m, f)
    ]


def free_attacks(state: State, f: Model) -> list[Action]:
    """The attacks ``f`` could make now (targets as for the Attack action, D §A5)."""
    tries = [Action("attack", f.id, e.id, option=w["weapon"]) for w in weapons(f) for e in enemies_of(state, f)]
    return [a for a in tries if not attack_reasons(state, f, a)]


@dataclass(frozen=True, slots=True)
class LeadChoice(WChoice):
    """Lead By Example: the player picks up to ``left`` henchmen one at a time, each with a free move or a free
    attack, taken at once in the middle of the leader's activation; or stops."""

    kind = "lead"
    about = "model"
    by: int
    model: str
    left: int
    chosen: tuple[str, ...]

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        out: list[Action] = []
        for f in led_henchmen(state, m, self.chosen):
            if not engaged(state, f):
                out.append(Action("lead", m.id, f.id, option="move"))
            if free_attacks(state, f):
                out.append(Action("lead", m.id, f.id, option="attack"))
        return [*out, Action("lead", m.id, option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done" or action.target is None:
            return
        f = state.models[action.target]
        events.append(Note(f"{self.model} leads by example: {f.id} takes a free {action.option}", f"{R}/ability/lead"))
        if self.left > 1:
            push(state, LeadChoice(self.by, self.model, self.left - 1, (*self.chosen, f.id)))
        state.vars["action_seq"] = int(state.vars.get("action_seq", 0)) + 1
        if action.option == "move":
            push(state, MoveTo(f.side, f.id, "move", allowance(state, f)))
        else:
            push(state, FreeAttack(f.side, f.id, "Lead By Example"))


@dataclass(frozen=True, slots=True)
class FreeAttack(WChoice):
    """A free attack (Lead By Example, data §4.1; Deathwish, data §4.4): the player picks the weapon and target
    as for the Attack action, or lets it go. It is not one of the fighter's actions."""

    kind = "free-attack"
    about = "model"
    by: int
    model: str
    why: str

    def options(self, state: State) -> list[Action]:
        f = state.models[self.model]
        if is_out(f):
            return [Action("attack", f.id, option="skip")]
        return [*free_attacks(state, f), Action("attack", f.id, option="skip")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.target is None:
            return
        f = state.models[self.model]
        state.vars["action_seq"] = int(state.vars.get("action_seq", 0)) + 1
        events.append(Note(f"{f.id} makes a free attack ({self.why})", f"{R}/ability/free-attack"))
        begin_attack(state, f, state.models[action.target], str(action.option), events)


# ------------------------------------------------------------------------------------------- Sigmar's Blessing
def blessed(state: State, m: Model) -> bool:
    """Sigmar's Blessing (data §4.2: every fighter of the Sisters, not a hired sword [P]) with a banked wyrd die
    to spend."""
    return (
        fx.BLESSING in fx.faction_traits(state.ctx.factions[m.side])
        and not m.data.get("hired")
        and wyrd_bank(state, m.side) >= int(state.ctx.params["blessing_wyrd_dice"])
    )


def spend_blessing(state: State, m: Model, what: str, events: list[Event]) -> None:
    n = int(state.ctx.params["blessing_wyrd_dice"])
    state.sides[m.side].flags["wyrd"] = wyrd_bank(state, m.side) - n
    events.append(Note(f"{m.id} spends {n} banked wyrd die: Sigmar's Blessing {what}", f"{R}/ability/blessing"))


@dataclass(frozen=True, slots=True)
class BlessTest(WChoice):
    """Sigmar's Blessing (data §4.2): before a Bravery test (a panic test, or the leader's morale test) the
    player may spend a banked wyrd die to pass it without rolling."""

    kind = "blessing-test"
    about = "model"
    by: int
    model: str
    test: str

    def options(self, state: State) -> list[Action]:
        return [Action("blessing", self.model, option="pass"), Action("blessing", self.model, option="roll")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.option == "pass":
            spend_blessing(state, m, f"passes the {self.test} test", events)
            return
        push(state, MoraleTest(self.by) if self.test == "morale" else PanicTest(m.id))


# ------------------------------------------------------------------------------------------- Denounce
def magic_targets(state: State, m: Model, name: str) -> list[Model]:
    """The fighters a magical (spell-book) ability targets: Soulfire the visible enemies in range, Words of
    Healing the friends in range (the caster too), Hammer of Sigmar the caster itself (data §4.2)."""
    reach = float(state.ctx.params["faction_ability_range"])
    if name == "soulfire":
        return [e for e in enemies_of(state, m) if gap(m, e) <= reach + 1e-9 and visible(state, m, e)]
    if name == "words-of-healing":
        return [f for f in standing(state, m.side) if f.id == m.id or gap(m, f) <= reach + 1e-9]
    return [m]


def denouncers(state: State, caster: Model, name: str) -> list[Model]:
    """Enemy fighters with Denounce (data §4.4) that see a fighter the ability targets within
    ``denounce_range``."""
    r = float(state.ctx.params["denounce_range"])
    targets = magic_targets(state, caster, name)
    return [
        f
        for f in enemies_of(state, caster)
        if "denounce" in f.data.get("abilities", [])
        and any(gap(f, t) <= r + 1e-9 and (t.id == f.id or visible(state, f, t)) for t in targets)
    ]


@dataclass(frozen=True, slots=True)
class MagicEffect(WAuto):
    """A magical ability's effect, waiting beneath the enemy's chance to Denounce it."""

    kind = "magic-effect"
    model: str
    name: str
    value: int

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        if not is_out(m):
            use_faction_ability(state, m, self.name, self.value, events)


@dataclass(frozen=True, slots=True)
class DenounceRoll(FighterD6):
    """Denounce (data §4.4): a D6 over the priest's Bravery cancels the magical ability (its dice stay spent)."""

    kind = "denounce-roll"
    label = "denounce"
    model: str
    caster: str
    name: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        bravery = int(state.models[self.model].data["bravery"])
        cancelled = values[0] > bravery
        events.append(DiceRolled("denounce", values, "cancelled" if cancelled else "no effect", self.model))
        if cancelled:
            state.stack = [s for s in state.stack if not (isinstance(s, MagicEffect) and s.model == self.caster)]
            events.append(Note(f"{self.caster}'s {self.name} is cancelled", f"{R}/reaction/denounce"))


# ------------------------------------------------------------------------------------------- movement
CLIMBABLE = ("platform", "obstacle")
"""Terrain kinds a fighter climbs (D §A4 Climb: obstacles; a platform's side the same way)."""


def solids(state: State) -> list[Any]:
    key = "solids"
    found = state.ctx.memo.get(key)
    if found is None:
        found = state.ctx.memo[key] = [t for t in state.ctx.table.terrain if t.kind != "open"]
    return list(found)


def leg_cost(state: State) -> Any:
    step = float(state.ctx.params["move_leg_rounding"])

    def cost(p: Vec, q: Vec) -> float:
        d = math.hypot(q[0] - p[0], q[1] - p[1])
        return math.ceil(d / step - 1e-9) * step if step > 0 else d

    return cost


def platform_under(state: State, p: Vec) -> Any:
    """The tallest platform whose footprint holds ``p``, or None."""
    best = None
    for t in solids(state):
        if t.kind == "platform" and t.contains(p) and (best is None or t.height > best.height):
            best = t
    return best


def stands_on(piece: Any, p: Vec, r: float) -> bool:
    """Whether a base of radius ``r`` at ``p`` stands wholly on ``piece``'s top."""
    return all(piece.contains((p[0] + dx, p[1] + dy)) for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)))


def ladders(state: State) -> frozenset[str]:
    """Ids of the pieces with a ladder: the kernel scenario's ``ladder: true`` on a platform or obstacle."""
    found = state.ctx.memo.get("ladders")
    if found is None:
        terrain = state.ctx.scenario.get("terrain", [])
        found = state.ctx.memo["ladders"] = frozenset(str(t["id"]) for t in terrain if t.get("ladder") is True)
    return frozenset(found)


def climb_rate(state: State, piece: Any) -> float:
    """D §A4 (W): inches of Move per inch climbed: ``climb_cost`` (double), ``ladder_climb_cost`` by a ladder."""
    p = state.ctx.params
    return float(p["ladder_climb_cost"] if piece.id in ladders(state) else p["climb_cost"])


def climbing(state: State, m: Model) -> Any:
    """The wall or platform side ``m`` is part-way up (it ended a Move climbing, D §A4), or None."""
    pid = m.flags.get("climbing")
    return next((t for t in solids(state) if t.id == pid), None) if pid else None


def climbed(m: Model) -> float:
    """Inches a fighter part-way up a side has climbed (flag ``climbed``; its base stays at the foot, ``z`` on
    the ground below, so the table and position files see it where it stands)."""
    return float(m.flags.get("climbed", 0.0)) if m.flags.get("climbing") else 0.0


def touches(piece: Any, p: Vec, q: Vec, r: float) -> bool:
    """Whether a base of radius ``r`` sliding straight from ``p`` to ``q`` meets ``piece``."""
    if piece.clip(p, q) is not None:
        return True
    lim = r - 1e-7
    if piece.distance_to(p) < lim or piece.distance_to(q) < lim:
        return True
    return any(segment_point_distance(p, q, v) < lim for v in piece.polygon)


def gap_across(a: Any, b: Any, p: Vec, q: Vec) -> tuple[float, Vec]:
    """The inches of the straight line ``p -> q`` over neither footprint (a jump's open space, D §A4) and the
    middle of that open stretch (where a failed jump falls)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    ia, ib = a.clip(p, q), b.clip(p, q)
    t0 = ia[1] if ia is not None else 0.0
    t1 = ib[0] if ib is not None else 1.0
    inside = sum((iv[1] - iv[0]) * length for iv in (ia, ib) if iv is not None)
    mid = (t0 + t1) / 2
    return max(0.0, length - inside), (p[0] + (q[0] - p[0]) * mid, p[1] + (q[1] - p[1]) * mid)


def edge_point(piece: Any, p: Vec) -> tuple[float, Vec, Vec]:
    """For ``p`` inside a convex footprint: the distance to its nearest edge, the nearest point of that edge and
    the outward unit normal there."""
    best: tuple[float, Vec, Vec] = (math.inf, p, (0.0, 0.0))
    pts = piece.polygon
    n = len(pts)
    sign = 0.0
    for i in range(n):  # the winding, to point the normals outward
        a, b = pts[i], pts[(i + 1) % n]
        sign += a[0] * b[1] - b[0] * a[1]
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        ln2 = ex * ex + ey * ey
        if ln2 <= 0:
            continue
        t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ln2))
        c = (a[0] + ex * t, a[1] + ey * t)
        d = math.hypot(p[0] - c[0], p[1] - c[1])
        if d < best[0]:
            ln = math.sqrt(ln2)
            normal = (ey / ln, -ex / ln) if sign > 0 else (-ey / ln, ex / ln)
            best = (d, c, normal)
    return best


def foot_point(piece: Any, p: Vec, r: float, inside: bool = False) -> Vec:
    """Beside ``piece``'s side nearest ``p``: a base's centre a quarter inch clear of it (``inside``: just on
    its top instead)."""
    if piece.contains(p):
        _, c, nrm = edge_point(piece, p)
    else:
        best = min(
            (
                (segment_point_distance(a, b, p), a, b)
                for a, b in zip(piece.polygon, (*piece.polygon[1:], piece.polygon[0]), strict=True)
            ),
            key=lambda x: x[0],
        )
        _, a, b = best
        ex, ey = b[0] - a[0], b[1] - a[1]
        ln2 = ex * ex + ey * ey or 1.0
        t = max(0.0, min(1.0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ln2))
        c = (a[0] + ex * t, a[1] + ey * t)
        d = math.hypot(p[0] - c[0], p[1] - c[1]) or 1.0
        nrm = ((p[0] - c[0]) / d, (p[1] - c[1]) / d)
    off = -(r + 0.1) if inside else r + 0.25
    return (round(c[0] + nrm[0] * off, 2), round(c[1] + nrm[1] * off, 2))


@dataclass(frozen=True, slots=True)
class MovePlan:
    """How a legal Move reaches its destination (D §A4): ``walk`` (round terrain, onto a platform's top or down
    from it), ``over`` (climbing straight over walls), ``climb`` (ending part-way up ``piece`` at height ``z``)
    or ``jump`` (across ``gap`` inches of open space between two platforms; a failed jump falls at ``fall_at``).
    ``drop``: inches come down on the far side of a wall."""

    kind: str
    piece: str = ""
    z: float = 0.0
    drop: float = 0.0
    gap: float = 0.0
    fall_at: Vec = (0.0, 0.0)


def move_problems(state: State, m: Model, dest: Vec, mode: str, allow: float, climb: bool = False) -> list[Reason]:
    """Every rule a Move or Retreat of ``m`` to ``dest`` breaks (see :func:`move_plan`)."""
    plan = move_plan(state, m, dest, mode, allow, climb)
    return plan if isinstance(plan, list) else []


def move_plan(
    state: State, m: Model, dest: Vec, mode: str, allow: float, climb: bool = False
) -> MovePlan | list[Reason]:
    """D §A4: straight legs rounded up; not through terrain (bar open ground) or enemy bases; never overlapping
    another base; a Retreat ends more than 1" from every enemy. Climbing (W): each inch up a wall or a
    platform's side costs ``climb_cost`` inches (``ladder_climb_cost`` by a ladder); a Move may end part-way up
    (``climb``: at a point within ``climb_tolerance`` of the side) and the next Move climbs on; a Move climbs
    straight over walls and jumps down the far side. Jumping: the drop is not counted; from one platform to
    another across open space the jump is one straight leg (its D6 beyond half Move: ``JumpRoll``). A drop over
    ``safe_drop`` is a fall (``MoveTo.apply``). A Retreat never climbs or jumps (X)."""
    rule = f"{R}/{mode}"
    table = state.ctx.table
    start = (m.x, m.y)
    if not table.on_table(dest, m.radius):
        return [(f"{rule}/table", "the destination is off the table")]
    held = climbing(state, m)
    here = platform_under(state, start) if m.z > 0 and held is None else None
    there = platform_under(state, dest)
    if there is not None and not stands_on(there, dest, m.radius):
        there = None  # half on, half off: refused below as ending on the terrain
    if climb:
        there = None
        if mode != "move":
            return [(f"{rule}/climb", "a Retreat cannot climb")]
    for t in solids(state):
        if (there is None or t.id != there.id) and t.circle_overlaps(dest, m.radius):
            return [
                (f"{rule}/terrain", f"{m.id} cannot end on {t.kind} terrain {t.id}: only wholly on a platform's top")
            ]
    o = overlapping(state.models.values(), dest, m.radius, lambda x: x.id == m.id or is_out(x))
    if o is not None:
        return [(f"{rule}/overlap", f"{m.id} would overlap {o.id}")]
    if mode == "retreat":
        r = eng_range(state)
        if any(gap_at(dest, m.radius, e) <= r + 1e-9 for e in enemies_of(state, m)):
            return [(f"{rule}/end-clear", f'a Retreat must end more than {r:g}" from every enemy')]
    circles = [((e.x, e.y), e.radius + m.radius) for e in enemies_of(state, m)]
    if mode == "retreat":
        circles = []  # a retreat leaves the enemy it is engaged with
    cost = leg_cost(state)
    if climb:
        return climb_plan(state, m, dest, allow, held, here, circles)
    if held is not None and there is not None and there.id != held.id:
        return [(f"{rule}/climb", f"{m.id} is climbing {held.id}: it climbs on up it or comes down")]
    top = float(there.height) if there is not None else 0.0
    rise = max(0.0, top - m.z - climbed(m))
    if rise > 1e-9 and mode == "retreat":
        return [(f"{rule}/climb", "a Retreat cannot climb")]
    left = allow - (rise * climb_rate(state, there) if rise > 1e-9 else 0.0)
    if left < -1e-9:
        return [(f"{rule}/climb", f"climbing {rise:g}\" costs more than {m.id}'s movement")]
    if here is not None and there is not None and here.id != there.id:
        gap, mid = gap_across(here, there, start, dest)
        if gap > 1e-9:
            if mode == "retreat":
                return [(f"{rule}/jump", "a Retreat cannot jump")]
            others = [t for t in solids(state) if t.id not in (here.id, there.id)]
            path = table.shortest_path(start, dest, m.radius, others, circles, cost, left + 1e-9, True)
            if path is None or len(path[0]) != 2:
                return [(f"{rule}/jump", f'a jump is one straight leg within the {left:g}" of movement left')]
            return MovePlan("jump", there.id, gap=gap, fall_at=mid)
    passable = {t.id for t in (here, there, held) if t is not None and t.kind == "platform"}
    walls = [t for t in solids(state) if t.id not in passable]
    path = table.shortest_path(start, dest, m.radius, walls, circles, cost, left + 1e-9, True)
    if path is not None:
        return MovePlan("walk")
    if mode == "move" and here is None and there is None:
        over = over_plan(state, m, dest, left, held, walls, circles)
        if over is not None:
            return over
    return [(f"{rule}/distance", f'{m.id} cannot reach that point with {left:g}" of movement')]


def over_plan(
    state: State, m: Model, dest: Vec, left: float, held: Any, walls: list[Any], circles: list[tuple[Vec, float]]
) -> MovePlan | None:
    """D §A4 (W) Climb: straight over the walls on the line (each inch up at the climb rate, the part already
    climbed by a fighter on its side not paid again), down the far side as a jump (the drop not counted)."""
    start = (m.x, m.y)
    crossed = [t for t in walls if touches(t, start, dest, m.radius)]
    if not crossed or any(t.kind != "obstacle" or t.height <= 0 for t in crossed):
        return None
    if held is not None and [t.id for t in crossed] != [held.id]:
        return None
    rest = [t for t in walls if t not in crossed]
    cost = leg_cost(state)
    climb = sum(max(0.0, t.height - climbed(m)) * climb_rate(state, t) for t in crossed)
    path = state.ctx.table.shortest_path(start, dest, m.radius, rest, circles, cost, left - climb + 1e-9, True)
    if path is None or len(path[0]) != 2:
        return None
    return MovePlan("over", crossed[-1].id, drop=max(float(t.height) for t in crossed))


def climb_plan(
    state: State, m: Model, dest: Vec, allow: float, held: Any, here: Any, circles: list[tuple[Vec, float]]
) -> MovePlan | list[Reason]:
    """D §A4 (W): a Move that ends part-way up a wall or a platform's side, at ``dest`` beside it (within
    ``climb_tolerance``), as high as the movement left pays for; the fighter carries on with its next Move (and
    falls if its activation ends first, ``climb_end_fall``)."""
    rule = f"{R}/move/climb"
    tol = float(state.ctx.params["climb_tolerance"])
    if here is not None:
        return [(rule, f"{m.id} stands on {here.id}: it climbs up from the ground or a wall's side")]
    near = [
        t
        for t in solids(state)
        if t.kind in CLIMBABLE and t.height > 1e-9 and t.distance_to(dest) - m.radius <= tol + 1e-9
    ]
    if held is not None:
        near = [t for t in near if t.id == held.id]
    if not near:
        what = f"the side of {held.id}" if held is not None else "a wall or platform side"
        return [(rule, f'{m.id} must stay within {tol:g}" of {what} to climb')]
    piece = min(near, key=lambda t: (t.distance_to(dest), t.id))
    z0 = climbed(m) if held is not None else 0.0
    if piece.height - z0 <= 1e-9:
        return [(rule, f"{m.id} is already at the top of {piece.id}")]
    walls = [t for t in solids(state)]
    cost = leg_cost(state)
    path = state.ctx.table.shortest_path((m.x, m.y), dest, m.radius, walls, circles, cost, allow + 1e-9, True)
    if path is None:
        return [(f"{R}/move/distance", f'{m.id} cannot reach that point with {allow:g}" of movement')]
    left = allow - path[1]
    if left <= 1e-9:
        return [(rule, f"{m.id} has no movement left to climb")]
    z = min(float(piece.height), z0 + left / climb_rate(state, piece))
    return MovePlan("climb", piece.id, z=round(z, 4))


def move_candidates(state: State, m: Model, mode: str, allow: float) -> list[Vec]:
    out: list[Vec] = []
    reach = math.floor(allow)
    if mode == "move":
        for e in sorted(enemies_of(state, m), key=lambda e: gap(m, e))[:4]:
            d = math.hypot(e.x - m.x, e.y - m.y)
            stop = m.radius + e.radius + 0.5
            go = min(reach, d - stop)
            if go > 0.5 and d > 0:
                out.append((m.x + (e.x - m.x) * go / d, m.y + (e.y - m.y) * go / d))
        out.extend(approach_points(state, m, allow))
    for k in range(8):
        ang = k * math.pi / 4
        for dist in (reach, reach / 2):
            out.append((m.x + dist * math.cos(ang), m.y + dist * math.sin(ang)))
    if mode == "move":
        held = climbing(state, m)
        for t in solids(state):
            if held is not None and t.id != held.id:
                continue
            if t.kind == "platform":
                x0, y0, x1, y1 = t.bbox
                out.append(((x0 + x1) / 2, (y0 + y1) / 2))  # climbing onto a platform's top
                out.append(foot_point(t, (m.x, m.y), m.radius, inside=True))  # just over the near edge
            elif t.kind == "obstacle" and t.height > 0 and t.distance_to((m.x, m.y)) <= reach + m.radius:
                out.append(over_point(t, (m.x, m.y), m.radius))  # over the wall
    cx, cy = state.ctx.table.width / 2, state.ctx.table.depth / 2
    d = math.hypot(cx - m.x, cy - m.y)
    if d > 0.5:
        go = min(reach, d)
        out.append((m.x + (cx - m.x) * go / d, m.y + (cy - m.y) * go / d))
    seen: set[Vec] = set()
    good: list[Vec] = []
    for p in out:
        q = (round(p[0], 2), round(p[1], 2))
        if q not in seen:
            seen.add(q)
            if not move_problems(state, m, q, mode, allow):
                good.append(q)
    return good


def over_point(piece: Any, p: Vec, r: float) -> Vec:
    """The point straight across ``piece`` from ``p`` (through its nearest side), a quarter inch clear of it."""
    c = foot_point(piece, p, 0.0)
    d = math.hypot(c[0] - p[0], c[1] - p[1])
    if d <= 1e-9:
        return c
    ux, uy = (c[0] - p[0]) / d, (c[1] - p[1]) / d
    far = (p[0] + ux * (d + 100.0), p[1] + uy * (d + 100.0))
    iv = piece.clip(p, far)
    t1 = iv[1] if iv is not None else 0.0
    ex = (p[0] + (far[0] - p[0]) * t1, p[1] + (far[1] - p[1]) * t1)
    return (round(ex[0] + ux * (r + 0.25), 2), round(ex[1] + uy * (r + 0.25), 2))


def climb_candidates(state: State, m: Model, allow: float) -> list[Vec]:
    """Offered part-way climbs (D §A4): beside the nearest side of each wall or platform in reach (or, for a
    fighter already climbing, where it is)."""
    held = climbing(state, m)
    out: list[Vec] = []
    if held is not None:
        out.append((m.x, m.y))
    else:
        reach = math.floor(allow)
        for t in solids(state):
            if t.kind in CLIMBABLE and t.height > 0 and t.distance_to((m.x, m.y)) <= reach + m.radius:
                out.append(foot_point(t, (m.x, m.y), m.radius))
    return [q for q in dict.fromkeys(out) if not move_problems(state, m, q, "move", allow, climb=True)]


def approach_points(state: State, m: Model, allow: float, nearest: int = 1) -> list[Vec]:
    """Offered destinations on the way round terrain toward the nearest enemies: the cheapest route to a point
    just short of base contact, followed as far as the allowance pays for its legs (each leg rounded up,
    D §A4). Candidates only; ``move_problems`` still judges each."""
    foes = sorted(enemies_of(state, m), key=lambda e: gap(m, e))[:nearest]
    memo = state.ctx.memo.setdefault("approach", {})
    key = (m.id, m.x, m.y, allow, tuple((e.id, e.x, e.y) for e in enemies_of(state, m)))
    found = memo.get(key)
    if found is None:
        if len(memo) > 4000:
            memo.clear()
        found = memo[key] = approach_walk(state, m, allow, foes)
    return list(found)


def blocked(state: State, m: Model, goal: Vec) -> bool:
    """Whether terrain stands on the straight line from ``m`` to ``goal``."""
    return any(c.piece.kind != "open" for c in state.ctx.table.trace((m.x, m.y), goal).crossings)


def approach_walk(state: State, m: Model, allow: float, foes: list[Model]) -> list[Vec]:
    step = float(state.ctx.params["move_leg_rounding"])
    cost = leg_cost(state)
    out: list[Vec] = []
    for e in foes:
        d = math.hypot(e.x - m.x, e.y - m.y)
        stop = m.radius + e.radius + 0.5
        if d <= stop + 0.5:
            continue
        goal = (e.x + (m.x - e.x) * stop / d, e.y + (m.y - e.y) * stop / d)
        if not blocked(state, m, goal):
            continue  # the straight candidate toward it already serves
        # the route round terrain only (enemy bases are few and move_problems re-checks the real path)
        found = state.ctx.table.shortest_path((m.x, m.y), goal, m.radius, solids(state))
        if found is None:
            continue
        left = allow
        at = (m.x, m.y)
        for q in found[0][1:]:
            c = cost(at, q)
            if c <= left + 1e-9:
                left -= c
                at = q
                continue
            length = math.hypot(q[0] - at[0], q[1] - at[1])
            part = (math.floor(left / step + 1e-9) * step if step > 0 else left) - 0.02  # room for rounding
            if part > 0 and length > 0:
                at = (at[0] + (q[0] - at[0]) * part / length, at[1] + (q[1] - at[1]) * part / length)
            break
        if at != (m.x, m.y):
            out.append(at)
    return out


@dataclass(frozen=True, slots=True)
class MoveTo(WChoice):
    """Where a moving or retreating fighter goes: the candidates, or any legal point of the table; ``[climb]``
    after a point ends the Move part-way up the wall or platform side beside it (D §A4)."""

    kind = "destination"
    about = "model"
    by: int
    model: str
    mode: str
    allow: float

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        spots = move_candidates(state, m, self.mode, self.allow)
        out = [Action(self.mode, m.id, point=p) for p in spots]
        if self.mode == "move":
            out.extend(Action("move", m.id, point=p, option="climb") for p in climb_candidates(state, m, self.allow))
        if self.mode == "move" or not out:
            out.append(Action(self.mode, m.id, option="stay"))
        return out

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.kind != self.mode or action.model != self.model:
            return [(f"{R}/{self.mode}/syntax", f"give the destination: '{self.mode} {self.model} @x,y' or '[stay]'")]
        if action.option == "stay" and action.point is None:
            if self.mode == "retreat" and any(o.point is not None for o in self.options(state)):
                return [(f"{R}/retreat/end-clear", "a Retreat must end clear of every enemy: pick a point")]
            return []
        if action.point is None or action.option not in (None, "climb"):
            return [(f"{R}/{self.mode}/syntax", f"give the destination: '{self.mode} {self.model} @x,y [climb]'")]
        m = state.models[self.model]
        return move_problems(state, m, action.point, self.mode, self.allow, action.option == "climb")

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.point is None:
            return
        m = state.models[self.model]
        plan = move_plan(state, m, action.point, self.mode, self.allow, action.option == "climb")
        if isinstance(plan, list):  # pragma: no cover - reasons() refused it
            return
        before = m.z + climbed(m)
        if plan.kind == "climb":
            place(m, action.point, events, state)
            m.flags["climbing"] = plan.piece
            m.flags["climbed"] = plan.z
            events.append(Note(f'{m.id} climbs to {plan.z:g}" up {plan.piece} and clings on', f"{R}/move/climb"))
            return
        if plan.kind == "jump":
            half = math.ceil(self.allow / 2 - 1e-9)
            events.append(Note(f'{m.id} jumps {plan.gap:.1f}" across open space', f"{R}/move/jump"))
            if plan.gap > half + 1e-9:
                push(state, JumpRoll(m.id, action.point, plan.fall_at))
                return
        place(m, action.point, events, state)
        landed(state, m, max(before - m.z, plan.drop), events)


def landed(state: State, m: Model, drop: float, events: list[Event]) -> None:
    """D §A4 (W): coming down further than ``safe_drop`` is a fall (where ``m`` now is)."""
    if drop > float(state.ctx.params["safe_drop"]) + 1e-9:
        events.append(Note(f'{m.id} drops {drop:g}": a fall', f"{R}/move/fall"))
        fall(state, m, drop, (m.x, m.y))


def fall(state: State, m: Model, drop: float, at: Vec) -> None:
    """D §A4 (W) Fall: the opponent puts the fighter down near ``at`` (``FallLanding``), then it takes a D3 per
    full ``fall_inches_per_die`` fallen (``FallRoll``)."""
    m.flags.pop("climbing", None)
    m.flags.pop("climbed", None)
    n = atk.fall_dice(drop, float(state.ctx.params["fall_inches_per_die"]))
    push(state, FallLanding(1 - m.side, m.id, at, n))


def landing_problems(state: State, m: Model, p: Vec, at: Vec) -> list[Reason]:
    """A landing spot: on the ground (clear of every piece but open ground), on the table, overlapping no base,
    within ``fall_landing_range`` of where the fighter fell (PROPOSED)."""
    rule = f"{R}/move/fall-landing"
    reach = float(state.ctx.params["fall_landing_range"])
    if math.hypot(p[0] - at[0], p[1] - at[1]) > reach + 1e-9:
        return [(rule, f'the landing spot must be within {reach:g}" of {at[0]:g},{at[1]:g}')]
    if not state.ctx.table.on_table(p, m.radius):
        return [(rule, "the landing spot is off the table")]
    for t in solids(state):
        if t.circle_overlaps(p, m.radius):
            return [(rule, f"a falling fighter lands on the ground, not on {t.kind} terrain {t.id}")]
    o = overlapping(state.models.values(), p, m.radius, lambda x: x.id == m.id or is_out(x))
    if o is not None:
        return [(rule, f"{m.id} would overlap {o.id}")]
    return []


def landing_spots(state: State, m: Model, at: Vec) -> list[Vec]:
    """Offered landing spots: ``at`` and two rings round it within ``fall_landing_range``."""
    reach = float(state.ctx.params["fall_landing_range"])
    pts = [at] + [
        (at[0] + d * math.cos(k * math.pi / 4), at[1] + d * math.sin(k * math.pi / 4))
        for d in (reach / 2, reach)
        for k in range(8)
    ]
    rounded = dict.fromkeys((round(x, 2), round(y, 2)) for x, y in pts)
    return [p for p in rounded if not landing_problems(state, m, p, at)]


def nearest_ground(state: State, m: Model, at: Vec) -> list[Vec]:
    """With no room within ``fall_landing_range`` (a crowd, a wall): the nearest free ground, widening by half
    inches up to 6" ([P]: the digest does not say)."""
    for k in range(1, 13):
        d = k * 0.5
        ring = [
            (round(at[0] + d * math.cos(i * math.pi / 8), 2), round(at[1] + d * math.sin(i * math.pi / 8), 2))
            for i in range(16)
        ]
        found = [p for p in ring if not landing_problems(state, m, p, p)]
        if found:
            return found
    return []


@dataclass(frozen=True, slots=True)
class FallLanding(WChoice):
    """D §A4 (W) Fall: the opponent of the falling fighter picks where it lands (on the ground near where it
    fell; with no room there it stays where it fell); then the fall's damage is rolled."""

    kind = "landing"
    about = "model"
    by: int
    model: str
    at: Vec
    n: int

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        spots = landing_spots(state, m, self.at) or nearest_ground(state, m, self.at)
        if not spots:
            return [Action("land", m.id, option="here")]
        return [Action("land", m.id, point=p) for p in spots]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.kind != "land" or action.model != self.model:
            return [(f"{R}/move/fall-landing", f"give the landing spot: 'land {self.model} @x,y'")]
        if action.point is None:
            if action.option == "here" and self.options(state) == [action]:
                return []
            return [(f"{R}/move/fall-landing", f"give the landing spot: 'land {self.model} @x,y'")]
        found = landing_problems(state, state.models[self.model], action.point, self.at)
        if found and action in self.options(state):
            return []  # no room within range: the nearest free ground offered instead
        return found

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        place(m, action.point if action.point is not None else self.at, events, state)
        events.append(Note(f"{m.id} lands at {m.x:g},{m.y:g}", f"{R}/move/fall-landing"))
        if self.n:
            push(state, FallRoll(m.id, self.n))


@dataclass(frozen=True, slots=True)
class FallRoll(WChance):
    """D §A4 (W): a fall deals a D3 (``fall_damage_die``) of damage per full ``fall_inches_per_die`` fallen."""

    kind = "fall"
    model: str
    n: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, int(state.ctx.params["fall_damage_die"]), "fall damage", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("fall damage", values, f"{sum(values)} damage", self.model))
        deal_damage(state, state.models[self.model], sum(values), "a fall", events)


@dataclass(frozen=True, slots=True)
class JumpRoll(FighterD6):
    """D §A4 (W) Jump: a jump across open space longer than half the fighter's Move (rounded up) needs a D6; on
    ``jump_fall_face`` or less it falls into the gap (from its height), else it lands where it meant to."""

    kind = "jump"
    label = "jump"
    model: str
    to: Vec
    fall_at: Vec

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        failed = values[0] <= int(state.ctx.params["jump_fall_face"])
        events.append(DiceRolled("jump", values, "a fall" if failed else "made it", m.id))
        if failed:
            events.append(Note(f'{m.id} falls {m.z:g}" into the gap', f"{R}/move/jump"))
            fall(state, m, m.z, self.fall_at)
            return
        before = m.z
        place(m, self.to, events, state)
        landed(state, m, before - m.z, events)


def climb_end_fall(state: State, m: Model, events: list[Event]) -> None:
    """D §A4 (W) Climb: a fighter still climbing when its activation ends falls from the height it reached."""
    if m.flags.get("climbing") and not is_out(m):
        up = climbed(m)
        events.append(Note(f'{m.id} is still climbing as its activation ends: it falls {up:g}"', f"{R}/move/climb"))
        fall(state, m, up, (m.x, m.y))


def edge_check(state: State, m: Model) -> None:
    """D §A4 (W): a fighter damaged while within ``edge_distance`` of the edge of the platform it stands on
    rolls a D6 (``EdgeRoll``)."""
    if is_out(m) or m.z <= 0 or m.flags.get("climbing"):
        return
    piece = platform_under(state, (m.x, m.y))
    if piece is None:
        return
    d, _, _ = edge_point(piece, (m.x, m.y))
    if d - m.radius <= float(state.ctx.params["edge_distance"]) + 1e-9:
        push(state, EdgeRoll(m.id))


@dataclass(frozen=True, slots=True)
class EdgeRoll(FighterD6):
    """D §A4 (W): damaged near a platform's edge, the fighter falls off on ``edge_fall_face`` or less: it drops
    from the platform's height just beyond the nearest edge."""

    kind = "edge"
    label = "edge"
    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        piece = platform_under(state, (m.x, m.y)) if m.on_table and m.z > 0 else None
        failed = piece is not None and values[0] <= int(state.ctx.params["edge_fall_face"])
        events.append(DiceRolled("edge", values, "falls off the edge" if failed else "keeps its footing", m.id))
        if piece is None or not failed:
            return
        _, c, nrm = edge_point(piece, (m.x, m.y))
        out = (round(c[0] + nrm[0] * (m.radius + 0.25), 2), round(c[1] + nrm[1] * (m.radius + 0.25), 2))
        events.append(Note(f'{m.id} falls {m.z:g}" off {piece.id}', f"{R}/move/edge-fall"))
        fall(state, m, m.z, out)


# ------------------------------------------------------------------------------------------- attacks
def in_cover(state: State, a: Model, t: Model) -> bool:
    """D §A5: the line between the bases crosses a cover obstacle not within 1/2" of the attacker, or the
    target is on a platform 2"+ above the shooter."""
    p = state.ctx.params
    if fx.has_trait(a.data, "trick-shot"):  # data §4.4: its targets never count as in cover
        return False
    if fx.has_trait(t.data, "armour-of-faith"):  # data §4.2: always counts as in cover
        return True
    if fx.has_trait(t.data, "stealthy") and gap(a, t) > float(p["stealthy_range"]) + 1e-9:
        r = eng_range(state)
        if any(x.kind == "obstacle" and x.distance_to((t.x, t.y)) <= t.radius + r + 1e-9 for x in solids(state)):
            return True  # data §4.4: within 1" of an obstacle, against a shooter over 6" away
    if t.z - a.z >= float(p["cover_platform_height"]) - 1e-9:
        return True
    near = float(p["cover_obstacle_distance"])
    for c in state.ctx.table.trace((a.x, a.y), (t.x, t.y)).crossings:
        piece = c.piece
        if (
            piece.id in state.ctx.cover_ids
            and piece.kind != "platform"
            and piece.distance_to((a.x, a.y)) > a.radius + near
        ):
            return True
    return False


def flanked(state: State, a: Model, t: Model) -> bool:
    """D §A5: a friendly of the attacker other than the attacker is within 1" of the target."""
    r = eng_range(state)
    return any(f.id != a.id and gap(f, t) <= r + 1e-9 for f in standing(state, a.side))


def begin_attack(state: State, m: Model, t: Model, wname: str, events: list[Event]) -> None:
    w = weapon_named(m, wname)
    assert w is not None
    melee = w["type"] == "melee"
    n = int(w["attacks"]) + (int(m.flags.get("melee_bonus", 0)) if melee else 0)
    # Hunter's Eye / Hammer of Sigmar / Death Grip / Driven by Greed name "the next" attack of their kind
    # (data §4.1-4.3)
    m.flags["hit_extra"] = int(m.flags.pop("next_melee_bonus" if melee else "next_ranged_bonus", 0))
    m.flags["grip"] = bool(m.flags.pop("death_grip", False)) if melee else False
    greed = bool(m.flags.pop("greed", False)) if melee else False
    m.flags["greed_fight"] = int(state.ctx.params["greed_fight_bonus"]) if greed else 0
    n += int(state.ctx.params["greed_attacks_bonus"]) if greed else 0
    if has_rule(w, "Reload"):
        m.flags["empty"] = [*m.flags.get("empty", []), wname]
    if has_rule(w, "One-use"):
        m.flags["used_one_use"] = [*m.flags.get("used_one_use", []), wname]
    seq = int(state.vars["action_seq"])
    push(state, HitRolls(m.id, t.id, wname, n, False, False, seq))
    push_window(state, ReactWindow(t.side, "melee" if melee else "ranged", m.id, t.id, seq))


def attack_numbers(state: State, a: Model, t: Model, w: dict[str, Any]) -> tuple[int, int]:
    p = state.ctx.params
    melee = w["type"] == "melee"
    floor = int(p["min_characteristic"])
    base = int(a.data["fight"] if melee else a.data["shoot"])
    panicked = int(a.flags.get("panicked", 0)) >= state.turn
    accused = 1 if zeal(state, a) is not None and t.flags.get("accused") else 0  # Zeal 0+ (data §4.3)
    skill = base + mighty(w) + accused - (int(p["panicked_penalty"]) if panicked else 0)
    skill += int(a.flags.get("greed_fight", 0)) + command_token_bonus(state, a.side, "seize", t)
    skill = max(floor, skill)
    d = int(t.data["defense"]) + command_token_bonus(state, t.side, "hold", t)
    tz = zeal(state, t)
    if tz is not None and tz >= int(p["zeal_frenzy_from"]):
        d -= 1
    if melee and any(has_rule(x, "Parry") for x in weapons(t, "melee")):
        d += int(p["parry_bonus"])
    if (not melee or p["cover_vs_melee"]) and in_cover(state, a, t):
        d += int(p["cover_bonus"])
    if melee and flanked(state, a, t):
        d -= int(p["flanked_penalty"])
    if t.flags.get("rampaged"):
        d -= int(p["rampage_defense_penalty"])
    return skill, max(floor, d)


@dataclass(frozen=True, slots=True)
class HitRolls(WChance):
    """D §A5: one D6 per Attack read on the hit table (Fight/Shoot against Defense); hits and crits deal the
    weapon's Damage values. A declared Counter or Take Cover is resolved here (D §A7)."""

    kind = "hit-rolls"
    attacker: str
    target: str
    weapon: str
    n: int
    counter: bool
    take_cover: bool
    seq: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, 6, f"hit rolls ({self.weapon})", self.attacker)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        a, t = state.models[self.attacker], state.models[self.target]
        w = weapon_named(a, self.weapon)
        assert w is not None
        skill, defense = attack_numbers(state, a, t, w)
        band = atk.hit_band(skill, defense)
        tally = atk.tally(values, band, hit_table(state))
        hits, crits = tally.hits, tally.crits
        if has_rule(w, "Unreliable") and 1 in values:
            hits = crits = 0
        hits, crits = zeal_conversions(state, a, t, hits, crits)
        events.append(
            DiceRolled(
                f"hit rolls {skill} vs Defense {defense} ({band})", values, f"{hits} hit(s), {crits} crit(s)", a.id
            )
        )
        if blessed(state, a) and hits:
            push(state, BlessHit(a.side, a.id, t.id, self.weapon, hits, crits, self.counter, self.take_cover, values))
            return
        after_hit_roll(state, a, t, w, hits, crits, self.counter, self.take_cover, values, events)


def after_hit_roll(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    hits: int,
    crits: int,
    counter: bool,
    take_cover: bool,
    rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    """What follows the hit roll (and Sigmar's Blessing): a declared Take Cover rolls for the crits, then the
    damage."""
    if take_cover and crits:
        push(state, TakeCoverRoll(a.id, t.id, w["weapon"], hits, crits, counter, rolls))
        return
    resolve_hits(state, a, t, w, hits, crits, counter, rolls, events)


@dataclass(frozen=True, slots=True)
class BlessHit(WChoice):
    """Sigmar's Blessing (data §4.2): after its hit roll a Sister may spend a banked wyrd die to turn one hit into
    a critical hit."""

    kind = "blessing-hit"
    about = "model"
    by: int
    model: str
    target: str
    weapon: str
    hits: int
    crits: int
    counter: bool
    take_cover: bool
    rolls: tuple[int, ...]

    def options(self, state: State) -> list[Action]:
        return [Action("blessing", self.model, option="crit"), Action("blessing", self.model, option="no")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        a, t = state.models[self.model], state.models[self.target]
        w = weapon_named(a, self.weapon)
        assert w is not None
        hits, crits = self.hits, self.crits
        if action.option == "crit":
            spend_blessing(state, a, "turns a hit into a critical hit", events)
            hits, crits = hits - 1, crits + 1
        after_hit_roll(state, a, t, w, hits, crits, self.counter, self.take_cover, self.rolls, events)


def zeal_conversions(state: State, a: Model, t: Model, hits: int, crits: int) -> tuple[int, int]:
    """Data §4.3 Zeal [P] cumulative: from ``zeal_crit_from`` a WITCH HUNTERS attacker turns one hit on an
    Accused target into a critical hit; from ``zeal_guard_from`` a WITCH HUNTERS target turns one critical hit
    into a hit."""
    p = state.ctx.params
    az, tz = zeal(state, a), zeal(state, t)
    if az is not None and az >= int(p["zeal_crit_from"]) and t.flags.get("accused") and hits:
        hits, crits = hits - 1, crits + 1
    if tz is not None and tz >= int(p["zeal_guard_from"]) and crits:
        hits, crits = hits + 1, crits - 1
    return hits, crits


@dataclass(frozen=True, slots=True)
class TakeCoverRoll(WChance):
    """Take Cover (D §A7): one D6 per critical hit; on 4+ it becomes a normal hit."""

    kind = "take-cover-roll"
    attacker: str
    target: str
    weapon: str
    hits: int
    crits: int
    counter: bool
    rolls: tuple[int, ...]

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.crits, 6, "take cover", self.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        saved = atk.take_cover(self.crits, values, int(state.ctx.params["take_cover_save"]))
        events.append(DiceRolled("take cover", values, f"{saved} crit(s) become hits", self.target))
        a, t = state.models[self.attacker], state.models[self.target]
        w = weapon_named(a, self.weapon)
        assert w is not None
        resolve_hits(state, a, t, w, self.hits + saved, self.crits - saved, self.counter, self.rolls, events)


def resolve_hits(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    hits: int,
    crits: int,
    counter: bool,
    rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    extra = int(a.flags.pop("hit_extra", 0))
    grip = bool(a.flags.pop("grip", False)) and hits + crits > 0
    dmg = hits * (int(w["damage"][0]) + extra) + crits * (int(w["damage"][1]) + extra)
    seq = int(state.vars.get("action_seq", 0))
    if (
        w["type"] == "melee"
        and dmg >= wounds_left(t)
        and "deathwish" in t.data.get("abilities", [])
        and react_actions(state, t, a, "deathwish", seq)
    ):
        # data §4.4 Deathwish: the blow would take the Slayer out; it may first make a free attack
        push(state, LandHits(a.id, t.id, w["weapon"], dmg, grip, counter, rolls))
        push(state, ReactWindow(t.side, "deathwish", a.id, t.id, seq))
        return
    land_hits(state, a, t, w, dmg, grip, counter, rolls, events)


@dataclass(frozen=True, slots=True)
class LandHits(WAuto):
    """The damage of an attack, dealt after the target's Deathwish free attack (data §4.4)."""

    kind = "land-hits"
    attacker: str
    target: str
    weapon: str
    dmg: int
    grip: bool
    counter: bool
    rolls: tuple[int, ...]

    def run(self, state: State, events: list[Event]) -> None:
        a, t = state.models[self.attacker], state.models[self.target]
        w = weapon_named(a, self.weapon)
        assert w is not None
        land_hits(state, a, t, w, self.dmg, self.grip, self.counter, self.rolls, events)


def land_hits(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    dmg: int,
    grip: bool,
    counter: bool,
    rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    hurt(state, t, a, dmg, f"{a.id}'s {w['weapon']}", events)
    if grip and not is_out(t):
        if status(t) == "ready" and not t.flags.get("lost_actions"):
            t.flags["lost_actions"] = 1
            events.append(StatusChanged(t.id, "Death Grip (one action fewer this round)", True))
        else:
            hurt(state, t, a, int(state.ctx.params["death_grip_damage"]), f"{a.id}'s Death Grip", events)
    if counter:
        p = state.ctx.params
        skill, defense = attack_numbers(state, a, t, w) if not is_out(t) else (1, 1)
        band = atk.hit_band(skill, defense)
        back = atk.counter_damage(
            rolls, band, hit_table(state), int(p["counter_damage"]), int(p["counter_damage_on_one"])
        )
        if back:
            events.append(Note(f"{t.id}'s Counter deals {back} damage to {a.id}", f"{R}/reaction/counter"))
            hurt(state, a, t, back, f"{t.id}'s Counter", events)
    a.flags.pop("greed_fight", None)


# ------------------------------------------------------------------------------------------- reactions
def payments(state: State, f: Model, seq: int) -> list[str]:
    """How ``f`` may pay for a reaction now: ``die`` (reaction dice, S 28-30) and, for a fighter with Sigmar's
    Blessing, ``wyrd`` (a banked wyrd die instead, data §4.2); none once it reacted to this enemy action."""
    limit = int(state.ctx.params["reactions_per_enemy_action"])
    seen = f.flags.get("reacted", [0, 0])
    used = int(seen[1]) if int(seen[0]) == seq else 0
    if used >= limit:
        return []
    out = ["die"] if reaction_dice(state, f.side) >= int(state.ctx.params["reaction_cost"]) else []
    if blessed(state, f):
        out.append("wyrd")
    return out


def can_react(state: State, f: Model, seq: int) -> bool:
    return bool(payments(state, f, seq))


def react_actions(state: State, f: Model, other: Model, name: str, seq: int) -> list[Action]:
    """The reaction ``name`` of ``f`` (against or about ``other``), once per way it can be paid: ``[name]`` with a
    reaction die, ``[name wyrd]`` with a banked wyrd die (Sigmar's Blessing)."""
    return [
        Action("react", f.id, other.id, option=name if pay == "die" else f"{name} wyrd")
        for pay in payments(state, f, seq)
    ]


@dataclass(frozen=True, slots=True)
class ReactWindow(WChoice):
    """S 26-32: at the moment a reaction names, the non-active player may declare one, paying reaction dice;
    at most one reaction per fighter for each enemy action. Asked again until it declines or none is left."""

    kind = "react"
    prompt = "reaction"
    by: int
    timing: str
    actor: str
    target: str
    seq: int

    def eligible(self, state: State) -> list[Action]:
        actor = state.models[self.actor]
        out: list[Action] = []
        if self.timing == "out":
            return out_reactions(state, actor, state.models[self.target], self.seq)
        if is_out(actor):
            return out
        if self.timing in ("melee", "ranged"):
            t = state.models[self.target]
            if is_out(t) or not can_react(state, t, self.seq):
                return out
            beneath = pending_hits(state)
            if beneath is None:
                return out
            w = weapon_named(actor, beneath.weapon)
            if self.timing == "melee" and not beneath.counter and w is not None and not has_rule(w, "Whipcrack"):
                out.extend(react_actions(state, t, actor, "counter", self.seq))
            if self.timing == "ranged" and not beneath.take_cover and in_cover(state, actor, t):
                out.extend(react_actions(state, t, actor, "take-cover", self.seq))
        elif self.timing == "retreat":
            for e in engaged(state, actor):
                if visible(state, e, actor):
                    out.extend(react_actions(state, e, actor, "strike-them-down", self.seq))
        elif self.timing == "deathwish":
            t = state.models[self.target]
            if not is_out(t):
                out.extend(react_actions(state, t, actor, "deathwish", self.seq))
        elif self.timing == "magic":
            for f in denouncers(state, actor, self.target):
                out.extend(react_actions(state, f, actor, "denounce", self.seq))
        return out

    def options(self, state: State) -> list[Action]:
        return [*self.eligible(state), Action("no-reaction")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "react":
            return
        f = state.models[action.model or ""]
        p = state.ctx.params
        name, _, pay = str(action.option).partition(" ")
        if pay == "wyrd":
            spend_blessing(state, f, f"reacts ({name}) without a reaction die", events)
        else:
            state.sides[f.side].flags["reaction_dice"] = reaction_dice(state, f.side) - int(p["reaction_cost"])
        seen = f.flags.get("reacted", [0, 0])
        used = int(seen[1]) if int(seen[0]) == self.seq else 0
        f.flags["reacted"] = [self.seq, used + 1]
        events.append(Note(f"{f.id} reacts: {name}", f"{R}/reaction/{name}"))
        if name == "deathwish":  # data §4.4: a free attack before the blow lands
            push(state, FreeAttack(f.side, f.id, "Deathwish"))
        elif name == "denounce":  # data §4.4: a D6 over the priest's Bravery cancels the magical ability
            push(state, DenounceRoll(f.id, self.actor, self.target))
        elif name in fx.REACTIONS:
            faction_reaction(state, f, state.models[action.target or ""], name, events)
            push_window(state, self)
        elif name in ("counter", "take-cover"):
            beneath = top(state)
            assert isinstance(beneath, HitRolls), beneath
            if name == "counter":
                replace_top(state, replace(beneath, counter=True))
            else:
                replace_top(state, replace(beneath, take_cover=True))
            push_window(state, self)
        else:
            push_window(state, self)
            push(state, StrikeRoll(f.id, self.actor))


def out_reactions(state: State, killer: Model, fallen: Model, seq: int) -> list[Action]:
    """Reactions at the moment ``fallen`` is taken out of action by ``killer`` (data §4.2-4.3): Martyrdom by
    the fallen fighter itself (every Sister), Sudden Accusation by a friend with it on its card that can see
    both."""
    out: list[Action] = []
    if "martyrdom" in fx.faction_reactions(state.ctx.factions[fallen.side]):
        out.extend(react_actions(state, fallen, killer, "martyrdom", seq))
    if not killer.on_table or killer.flags.get("accused"):
        return out
    for f in standing(state, fallen.side):
        if (
            "sudden-accusation" in f.data.get("abilities", [])
            and visible(state, f, killer)
            and visible(state, f, fallen)
        ):
            out.extend(react_actions(state, f, killer, "sudden-accusation", seq))
    return out


def faction_reaction(state: State, f: Model, other: Model, name: str, events: list[Event]) -> None:
    """Martyrdom banks wyrd dice (HENCHMAN ``martyrdom_wyrd_dice``, HERO one more, LEADER two more); Sudden
    Accusation makes the enemy Accused and adds 1 Zeal (data §4.2-4.3)."""
    if name == "martyrdom":
        n = int(state.ctx.params["martyrdom_wyrd_dice"]) + has_kw(f, "HERO") + has_kw(f, "LEADER")
        add_wyrd(state, f.side, n)
        events.append(Note(f"{f.id}'s Martyrdom banks {n} wyrd dice", f"{R}/reaction/martyrdom"))
    else:
        other.flags["accused"] = True
        events.append(StatusChanged(other.id, "Accused", True))
        add_zeal(state, f.side, 1, events)


def pending_hits(state: State) -> HitRolls | None:
    """The attack whose hit rolls a reaction window comes before."""
    return next((s for s in reversed(state.stack) if isinstance(s, HitRolls)), None)


def push_window(state: State, w: ReactWindow) -> None:
    """Ask the reacting player only when some fighter of theirs may react now."""
    if w.eligible(state):
        push(state, w)


@dataclass(frozen=True, slots=True)
class StrikeRoll(WChance):
    """Strike Them Down (D §A7): a D6 of 4+ deals D6 damage to the retreating enemy (two dice: the test and
    the damage); a retreater taken out of action does not move."""

    kind = "strike-roll"
    striker: str
    target: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(2, 6, "strike them down (test, damage)", self.striker)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        dmg = atk.strike_them_down(values[0], values[1], int(state.ctx.params["strike_them_down_from"]))
        events.append(DiceRolled("strike them down", values, f"{dmg} damage", self.striker))
        t = state.models[self.target]
        if hurt(state, t, state.models[self.striker], dmg, f"{self.striker}'s Strike Them Down", events):
            state.stack = [
                s
                for s in state.stack
                if not (
                    isinstance(s, (MoveTo, ReactWindow))
                    and self.target in (getattr(s, "model", ""), getattr(s, "actor", ""))
                )
            ]


# =========================================================================================== morale and round end
def start_morale(state: State, events: list[Event]) -> None:
    state.phase = "morale"
    events.append(PhaseStarted(state.turn, "Morale"))
    holder = int(state.vars.get("initiative", 0))
    push(state, RoundEnd())
    push(state, PanicTurn(holder))
    for s in (1 - holder, holder):
        if needs_morale(state, s):
            who = tester(state, s)
            if who is not None and blessed(state, who) and not auto_pass(state, who):
                push(state, BlessTest(s, who.id, "morale"))  # Sigmar's Blessing (data §4.2)
            else:
                push(state, MoraleTest(s))


def warband_size(state: State, side: int) -> tuple[int, int]:
    """(fighters, out of action), hired swords not counted (D §A8)."""
    mine = [m for m in fighters(state, side) if not m.data.get("hired")]
    return len(mine), sum(1 for m in mine if is_out(m))


def needs_morale(state: State, side: int) -> bool:
    n, out = warband_size(state, side)
    return (
        bool(n)
        and out >= n * float(state.ctx.params["morale_out_fraction"]) - 1e-9
        and not state.sides[side].flags.get("wavering")
    )


def tester(state: State, side: int) -> Model | None:
    alive = standing(state, side)
    leader = next((m for m in alive if has_kw(m, "LEADER")), None)
    if leader is not None:
        return leader
    heroes = sorted((m for m in alive if has_kw(m, "HERO")), key=lambda m: (int(m.data["bravery"]), m.id))
    return heroes[0] if heroes else None


@dataclass(frozen=True, slots=True)
class MoraleTest(WChance):
    """D §A8: once half the warband is out of action, a D6 against the leader's Bravery (else the bravest
    hero's; none fails). Failing with half (rounded up) out withdraws the warband: the opponent wins."""

    kind = "morale-test"
    side: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(int(state.ctx.params["morale_test_dice"]), 6, f"morale test of side {side_name(self.side)}")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        who = tester(state, self.side)
        passed = who is not None and (auto_pass(state, who) or atk.bravery_test(max(values), panic_bravery(state, who)))
        events.append(DiceRolled(f"morale ({who.id if who else 'no hero'})", values, "passed" if passed else "failed"))
        if passed:
            return
        n, out = warband_size(state, self.side)
        if out >= math.ceil(n * float(state.ctx.params["withdraw_out_fraction"]) - 1e-9):
            state.sides[self.side].flags["withdrawn"] = True
            for m in standing(state, self.side):
                m.on_table = False
            finish(state, 1 - self.side, f"side {side_name(self.side)} withdrew", events)
        else:
            state.sides[self.side].flags["wavering"] = True


def must_test_panic(state: State, m: Model) -> bool:
    """D §A8: fighters of a wavering warband, and those within ``fear_range`` of a TERRIFYING enemy."""
    if state.sides[m.side].flags.get("wavering"):
        return True
    r = float(state.ctx.params["fear_range"])
    return any(has_kw(e, "TERRIFYING") and gap(m, e) <= r + 1e-9 for e in enemies_of(state, m))


def panic_bravery(state: State, m: Model) -> int:
    """A fighter's Bravery for a panic test, or its LEADER's within ``leader_bravery_range`` (data §3 LEADER);
    one better near a visible friend with Voice of Sigmar (data §4.3, within ``voice_range``)."""
    best = int(m.data["bravery"])
    r = float(state.ctx.params["leader_bravery_range"])
    voice = float(state.ctx.params["voice_range"])
    better = 0
    for f in standing(state, m.side):
        if has_kw(f, "LEADER") and f.id != m.id and gap(m, f) <= r + 1e-9:
            best = min(best, int(f.data["bravery"]))
        if fx.has_trait(f.data, "voice-of-sigmar") and f.id != m.id and gap(m, f) <= voice + 1e-9:
            better = 1 if visible(state, f, m) else better
    better += command_token_bonus(state, m.side, "hold", m)  # Captain's Command: Hold (data §4.1)
    return max(1, best - better)


def auto_pass(state: State, m: Model) -> bool:
    """Zeal ``zeal_frenzy_from``+: WITCH HUNTERS fighters pass Bravery tests automatically (data §4.3)."""
    z = zeal(state, m)
    return z is not None and z >= int(state.ctx.params["zeal_frenzy_from"])


@dataclass(frozen=True, slots=True)
class PanicTurn(WAuto):
    """D §A8: panic tests, initiative player first, one fighter after another."""

    kind = "panic-turn"
    first: int

    def run(self, state: State, events: list[Event]) -> None:
        if state.phase == "over":
            return
        tested = set(state.vars.get("panic_tested", []))
        for s in (self.first, 1 - self.first):
            for m in standing(state, s):
                if m.id not in tested and must_test_panic(state, m):
                    state.vars["panic_tested"] = [*tested, m.id]
                    push(state, PanicTurn(self.first))
                    sure = fx.has_trait(m.data, "unshakeable") or auto_pass(state, m)
                    if blessed(state, m) and not sure:
                        push(state, BlessTest(m.side, m.id, "panic"))  # Sigmar's Blessing (data §4.2)
                    else:
                        push(state, PanicTest(m.id))
                    return
        state.vars["panic_tested"] = []


@dataclass(frozen=True, slots=True)
class PanicTest(FighterD6):
    """D §A8 [P]: a D6 at or above Bravery passes; a fail panics the fighter (-1 Fight and Shoot) until the end
    of the next battle round (the test is taken at the end of this one)."""

    kind = "panic-test"
    label = "panic test"
    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        passed = fx.has_trait(m.data, "unshakeable") or auto_pass(state, m)
        passed = passed or atk.bravery_test(values[0], panic_bravery(state, m))
        events.append(DiceRolled("panic test", values, "passed" if passed else "panicked", m.id))
        if not passed:
            m.flags["panicked"] = state.turn + 1
            events.append(StatusChanged(m.id, "Panicked", True))


@dataclass(frozen=True, slots=True)
class RoundEnd(WAuto):
    """End of the round: leftover dice discarded [P]; Rampage's -1 Defense ends; then the next round, the
    extra-round roll or the end of the battle (D §A1, §A9 [P])."""

    kind = "round-end"

    def run(self, state: State, events: list[Event]) -> None:
        p = state.ctx.params
        if p["leftover_dice_discarded"]:
            for s in (0, 1):
                set_pool(state, s, wd.AbilityDice((), ()))
                state.sides[s].flags["reaction_dice"] = 0
        if scores_each_round(state):
            score_objectives(state, events)  # the scenario scores at the end of each battle round
        state.vars["command_tokens"] = []  # Captain's Command lasts until the round ends (data §4.1)
        for m in state.models.values():
            for k in ("rampaged", "spellbook_blocked"):
                m.flags.pop(k, None)
            if int(m.flags.get("panicked", 0)) <= state.turn:
                m.flags.pop("panicked", None)
        last = int(p["battle_rounds"])
        if state.turn < last or state.vars.get("extra_round"):
            if state.turn < last:
                start_round(state, events)
                return
            finish_by_score(state, events)
        elif state.turn == last and int(p["extra_round_from"]) <= 6:
            push(state, ExtraRound())
        else:
            finish_by_score(state, events)


@dataclass(frozen=True, slots=True)
class ExtraRound(WChance):
    """D §A1 (W): after the last round a D6; on ``extra_round_from``+ one more round is played."""

    kind = "extra-round"

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, 6, "extra round")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        more = values[0] >= int(state.ctx.params["extra_round_from"])
        events.append(DiceRolled("extra round", values, "one more round" if more else "the battle ends"))
        if more:
            state.vars["extra_round"] = True
            start_round(state, events)
        else:
            finish_by_score(state, events)


def out_counts(state: State) -> tuple[int, int]:
    """Enemy fighters each side has taken out of action."""
    return (warband_size(state, 1)[1], warband_size(state, 0)[1])


def plays_for_objectives(state: State) -> bool:
    """D §A9 "the scenario sets the victory conditions": ``rules.victory: objectives`` (treasure_hunt.yaml)."""
    return scenario_rules(state).get("victory") == "objectives"


def victory_points(state: State) -> tuple[int, int]:
    vp = state.vars.get("vp") or [0, 0]
    return int(vp[0]), int(vp[1])


def score(state: State) -> tuple[int, int]:
    """The game's score: victory points in a scenario played for objectives, else enemies out of action."""
    return victory_points(state) if plays_for_objectives(state) else out_counts(state)


def token_holder(state: State, oid: str, at: Vec) -> int | None:
    """Who a token scores for (D §A9): its carrier's side while carried; on the ground, the side with more
    fighters (not out of action) within the scenario's ``control_range`` of it, nobody when level."""
    carrier = ((state.vars.get("treasure") or {}).get(oid) or [None, None, None])[2]
    if carrier:
        return int(state.models[carrier].side)
    return controller(state.models.values(), at, control_range(state), lambda m: 0 if is_out(m) else 1)


def objective_at(state: State, o: ObjectivePoint) -> Vec:
    """Where an objective is now: a treasure token where it lies or on its carrier (:func:`treasure_at`), any
    other marker where the scenario put it."""
    if o.id in (state.vars.get("treasure") or {}):
        return treasure_at(state, o.id)
    return (float(o.at[0]), float(o.at[1]))


def score_objectives(state: State, events: list[Event]) -> None:
    """The scenario's scoring (treasure_hunt.yaml, D §A9 [P]): each objective scores its ``vp`` for the side
    holding it (see :func:`token_holder`) where it is now (:func:`objective_at`)."""
    vp = list(victory_points(state))
    for o in state.ctx.objectives:
        who = token_holder(state, o.id, objective_at(state, o))
        if who is not None and o.vp > 0:
            vp[who] += o.vp
            events.append(Note(f"side {side_name(who)} scores {o.vp} VP for {o.id}", f"{R}/scenario/score"))
    state.vars["vp"] = vp


def scores_each_round(state: State) -> bool:
    return plays_for_objectives(state) and bool(scenario_rules(state).get("score_each_round"))


def finish_by_score(state: State, events: list[Event]) -> None:
    """The battle ends after its rounds (D §A9). Played for objectives: more victory points wins (scored at the end
    if not each round); level on victory points, or with no objectives, ``sim_victory = most_out`` [P]: more
    enemies out of action wins; equal is a draw."""
    if plays_for_objectives(state):
        if not scores_each_round(state):
            score_objectives(state, events)
        vp = victory_points(state)
        if vp[0] != vp[1]:
            finish(state, 0 if vp[0] > vp[1] else 1, "more victory points", events)
            return
    s = out_counts(state)
    winner = None if s[0] == s[1] else (0 if s[0] > s[1] else 1)
    level = "level on victory points; " if plays_for_objectives(state) else ""
    finish(state, winner, level + ("more enemies out of action" if winner is not None else "level: a draw"), events)


def finish(state: State, winner: int | None, reason: str, events: list[Event]) -> None:
    state.phase = "over"
    state.vars["winner"] = winner
    state.vars["reason"] = reason
    events.append(GameEnded(winner, reason, score(state)))


# =========================================================================================== the machine
class WyrdcryRules(SteppedRules[State]):
    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def standing(self, state: State) -> Choice[State] | None:
        if state.phase == "setup":
            deployer = int(state.vars.get("deployer", 0))
            return Deploy(deployer)
        if state.phase != "combat":
            return None
        m = active_model(state)
        if m is not None:
            return ActivationStep(m.side, m.id)
        return Activate(int(state.vars["to_act"]))

    def idle(self, state: State, events: list[Event]) -> bool:
        if state.phase != "combat":
            return False
        for s in (0, 1):
            if not standing(state, s):
                finish(state, 1 - s, f"side {side_name(s)} has no fighter left", events)
                return True
        m = active_model(state)
        if m is not None:
            if is_out(m) or (complete(state, m) and menu(state, m) == [Action("end", m.id)]):
                end_activation(state, events)
                return True
            return False
        side = int(state.vars["to_act"])
        if to_activate(state, side):
            return False
        if to_activate(state, 1 - side):
            events.append(Note(f"side {side_name(side)} has activated all its fighters: it passes", f"{R}/combat/pass"))
            state.vars["to_act"] = 1 - side
            return True
        start_morale(state, events)
        return True


ALL_STEP_KINDS = (
    RollOff,
    ChooseZone,
    Deploy,
    InitiativeRoll,
    DecideInitiative,
    ChannelTurn,
    ChannelChoice,
    ChannelRoll,
    WyrdTurn,
    SpendWyrd,
    Redecide,
    FirstActivation,
    Activate,
    ActivationStep,
    CommandActivation,
    MoveTo,
    HitRolls,
    TakeCoverRoll,
    ReactWindow,
    StrikeRoll,
    BankRoll,
    Accuse,
    ChannelBacklash,
    FallRoll,
    FallLanding,
    JumpRoll,
    EdgeRoll,
    IndomitableRoll,
    BlessHit,
    LandHits,
    PlaceCommandToken,
    LeadChoice,
    FreeAttack,
    BlessTest,
    MagicEffect,
    DenounceRoll,
    MoraleTest,
    PanicTurn,
    PanicTest,
    RoundEnd,
    ExtraRound,
)

RULES = WyrdcryRules(ALL_STEP_KINDS)
