"""Attacks, shared by Shoot and Fight (seed 002: Make Hit Rolls, Saves, Piercing and Armor Saves, Removing
Casualties, Casualty Removal; digest §3.1, §3.5-§3.6 for the PROPOSED numbers).

An attack is data on the stack: :class:`Attack` (the groups still to roll; :class:`Order` when the attacker
picks which group next), then chance steps :class:`Hits` and :class:`Saves`, then :class:`Damage` (one entry per
unsaved attack, each applied to a model the defender picks, :class:`Wound`). When the target's models have
different SVs the order is the other way round: :class:`Damage` holds every hit, the defender picks the model for
each, and a chance step :class:`ModelSave` rolls that attack's saves at that model's own SV."""

from __future__ import annotations

from dataclasses import replace

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, Removed, TokensChanged
from warband.kernel.records import Record
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, TTChance, TTChoice, d10s, side_of, succeeds, ustate
from warband.rulesets.trenches_and_turbines.cover import unit_cover
from warband.rulesets.trenches_and_turbines.units import leader_of, members


@values.value
class Group(Record):
    """Attacks rolled together (seed 002: attacks with different modifiers are rolled separately): ``n`` dice
    hitting on ``tn`` or less with ``weapon`` (its ``damage``, ``pen`` and ``blast``), made by ``models``
    models."""

    weapon: str
    tn: int
    n: int
    damage: int
    pen: int
    blast: int
    models: int


@values.value
class Attack(TTAuto, kind="attack"):
    """The groups of an attack by ``unit`` on ``target`` still to roll; ``tally`` is the vars key counting its
    casualties, ``cap`` the casualty cap (visible models) if any."""

    unit: str
    target: str
    groups: tuple[Group, ...]
    melee: bool
    tally: str
    cap: int | None
    cover_from: str | None

    def run(self, state: State, events: list[Event]) -> None:
        """Roll the next group; with several groups left (ranged), the attacking player picks the order."""
        if not members(state, self.target):
            return
        if len(self.groups) > 1 and not self.melee:
            push(state, Order(self))
            return
        run_group(state, self, 0, Attack)


@values.value
class Order(TTChoice, kind="order"):
    """The attacking player picks which group of a ranged attack is rolled next."""

    attack: Attack

    def subject(self) -> str | None:
        return self.attack.unit

    def options(self, state: State) -> list[Action]:
        return [Action("group", self.attack.unit, option=group_label(g)) for g in self.attack.groups]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        labels = [group_label(g) for g in self.attack.groups]
        run_group(state, self.attack, labels.index(str(action.option)), Order)


def group_label(g: Group) -> str:
    return f"{g.weapon} tn{g.tn} x{g.n}"


def push_attack(
    state: State,
    uid: str,
    tuid: str,
    groups: list[Group],
    melee: bool,
    tally: str,
    cap: int | None,
    cover_from: str | None,
) -> None:
    """Queue the groups of an attack by ``uid`` on ``tuid``; ``tally`` is the vars key counting casualties."""
    if groups:
        push(state, Attack(uid, tuid, tuple(groups), melee, tally, cap, cover_from))


def run_group(state: State, attack: Attack, i: int, again: type[Attack] | type[Order]) -> None:
    """Roll group ``i`` of ``attack`` now; the rest wait under it (``again``: as an Attack or an Order)."""
    g = attack.groups[i]
    rest = attack.groups[:i] + attack.groups[i + 1 :]
    if rest:
        left = replace(attack, groups=rest)
        # one group left: nothing to order, it is simply rolled next
        push(state, left if again is Attack or len(rest) == 1 else Order(left))
    push(state, Hits(attack.unit, attack.target, g, attack.melee, attack.tally, attack.cap, attack.cover_from))


@values.value
class Hits(TTChance, kind="hits"):
    """The hit rolls of one group."""

    unit: str
    target: str
    group: Group
    melee: bool
    tally: str
    cap: int | None
    cover_from: str | None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.group.n, f"hit rolls {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        resolve_hits(state, self, values, events)


def resolve_hits(state: State, step: Hits, values: tuple[int, ...], events: list[Event]) -> None:
    """Hits: each die at or under the modified target hits (seed 002, Make Hit Rolls); Blast(X) multiplies."""
    g = step.group
    hits = sum(1 for v in values if succeeds(state.ctx.params, v, g.tn))
    events.append(DiceRolled(f"{g.weapon} hit rolls (need {g.tn} or less)", values, f"{hits} hit(s)", step.unit))
    if g.blast > 1:
        hits = min(hits * g.blast, max(hits, len(members(state, step.target))))
    if not step.melee:
        shot = state.vars.get("shot") or {}
        state.vars["shot"] = {
            **shot,
            "hits": shot.get("hits", 0) + hits,
            "pen_hits": shot.get("pen_hits", 0) + (hits if g.pen > 0 else 0),
        }
    if hits == 0:
        return
    tuid = step.target
    if len({int(m.data["sv"]) for m in members(state, tuid)}) > 1:
        push_model_saves(state, step, hits)
        return
    tn = save_target(state, tuid, g.pen, step)
    push(state, Saves(step.unit, tuid, hits, g, tn, step.tally, step.cap))


@values.value
class SaveMods(Record):
    """What modifies each model's own save when the models of the target have different SVs: the Pen of the
    attack and the target's Cover."""

    pen: int
    cover: int


def push_model_saves(state: State, step: Hits, hits: int) -> None:
    """A unit whose models have different SVs: each hit goes to a model the defender picks (leader last), and
    that model's own save is rolled for it (seed 002, Saves: 'the target number for the save is equal to the
    models save (SV) characteristic'; Piercing: Pen comes off 'each Model's SV'; Removing Casualties: the
    defender chooses)."""
    g = step.group
    tuid = step.target
    save = SaveMods(g.pen, save_cover(state, tuid, step))
    push(state, Damage(tuid, (g.damage,) * hits, step.tally, step.cap, save))


def save_cover(state: State, tuid: str, step: Hits) -> int:
    """Cover for ranged attacks (prone in cover: +1 Cover); none in melee (seed 002, Saves; Go Prone)."""
    if step.melee:
        return 0
    shooters_left = members(state, step.unit)
    shooter = leader_of(state, step.unit) or (shooters_left[0] if shooters_left else None)
    cover = unit_cover(state, tuid, shooter)
    if cover > 0 and ustate(state, tuid)["prone"]:
        cover += int(state.ctx.params["prone_cover_bonus"])
    return cover


def save_target(state: State, tuid: str, pen: int, step: Hits) -> int:
    """SV minus Pen, plus Cover (:func:`save_cover`) (seed 002, Saves); the models of the unit share one SV here
    (else :func:`push_model_saves`)."""
    ms = members(state, tuid)
    sv = int(ms[0].data["sv"]) if ms else 0
    return sv - pen + save_cover(state, tuid, step)


@values.value
class Saves(TTChance, kind="saves"):
    """The saves of a group's hits at the unit's shared target number: ``hits`` x damage dice."""

    unit: str
    target: str
    hits: int
    group: Group
    tn: int
    tally: str
    cap: int | None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.hits * self.group.damage, f"saves {self.target}", self.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Each failure is 1 damage of that attack (seed 002, Saves)."""
        dmg = self.group.damage
        per_attack = []
        for i in range(self.hits):
            chunk = values[i * dmg : (i + 1) * dmg]
            per_attack.append(sum(1 for v in chunk if not succeeds(state.ctx.params, v, self.tn)))
        failed = sum(per_attack)
        events.append(DiceRolled(f"saves (need {self.tn} or less)", values, f"{failed} failed", self.target))
        todo = tuple(d for d in per_attack if d > 0)
        if todo:
            push(state, Damage(self.target, todo, self.tally, self.cap))


@values.value
class Damage(TTAuto, kind="damage"):
    """Unsaved attacks on ``target``, their damage in ``todo`` (one entry per attack), each to go to a model the
    defender picks; with ``save`` the model's own save is still to roll for each (different SVs)."""

    target: str
    todo: tuple[int, ...]
    tally: str
    cap: int | None
    save: SaveMods | None = None

    def run(self, state: State, events: list[Event]) -> None:
        opts = damage_options(state, self)
        if not opts:
            return
        if len(opts) == 1:
            take_attack(state, self, str(opts[0].model), events)
        else:
            push(state, Wound(self))


@values.value
class Wound(TTChoice, kind="wound"):
    """The defender picks the model that takes the next attack of ``damage``."""

    damage: Damage

    def player(self, state: State) -> int:
        return side_of(state, self.damage.target)

    def options(self, state: State) -> list[Action]:
        return damage_options(state, self.damage)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        take_attack(state, self.damage, str(action.model), events)


def damage_options(state: State, step: Damage) -> list[Action]:
    """The defender picks the model that takes the next attack's damage (seed 002, Removing Casualties: the
    defending player chooses; unit leaders are removed last if possible). A model designated leader after the
    leader's death leads for coherency only (seed 002, Unit Coherency): it is not kept for last."""
    tuid = step.target
    ms = members(state, tuid)
    lead = None if ustate(state, tuid).get("leaderless") else leader_of(state, tuid)
    pool = [m for m in ms if lead is None or m.id != lead.id] or ms
    hurt = [m for m in pool if m.token("damage") > 0]
    return [Action("wound", m.id) for m in (hurt + [m for m in pool if m not in hurt])]


def take_attack(state: State, step: Damage, mid: str, events: list[Event]) -> None:
    """The next attack goes to model ``mid``: its damage at once when the saves were rolled for the unit, else
    first the model's own save (:class:`ModelSave`, :func:`push_model_saves`)."""
    if step.save is None:
        apply_damage(state, step, mid, events)
        return
    m = state.models[mid]
    tn = int(m.data["sv"]) - step.save.pen + step.save.cover
    push(state, ModelSave(step, mid, tn, step.todo[0]))


@values.value
class ModelSave(TTChance, kind="msave"):
    """One attack's ``n`` save dice at the chosen ``model``'s own target number ``tn``."""

    damage: Damage
    model: str
    tn: int
    n: int

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, self.n, f"saves {self.model}", self.damage.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Each failure is 1 damage to the model (seed 002, Saves)."""
        failed = sum(1 for v in values if not succeeds(state.ctx.params, v, self.tn))
        target = self.damage.target
        events.append(DiceRolled(f"{self.model} saves (need {self.tn} or less)", values, f"{failed} failed", target))
        todo = self.damage.todo
        if failed > 0:
            apply_damage(state, replace(self.damage, todo=(failed, *todo[1:])), self.model, events)
        elif len(todo) > 1 and members(state, target):
            push(state, replace(self.damage, todo=todo[1:]))


def apply_damage(state: State, step: Damage, mid: str, events: list[Event]) -> None:
    """One attack's damage goes to one model; what a dead model cannot take falls off (seed 002, Saves: damage
    never carries over). The casualty cap (visible models) stops further removals (seed 002)."""
    m = state.models[mid]
    dmg, todo = step.todo[0], step.todo[1:]
    left = int(m.data["hp"]) - m.token("damage")
    take = min(dmg, left)
    tally = state.vars.get(step.tally) or {}
    kills = int(tally.get("kills", 0))
    if take >= left:
        remove(state, m, "casualty", events)
        kills += 1
        state.vars[step.tally] = {**tally, "kills": kills}
    else:
        m.tokens = {**m.tokens, "damage": m.token("damage") + take}
        events.append(TokensChanged(m.id, "damage", take, m.token("damage")))
    capped = step.cap is not None and kills >= step.cap
    if capped and todo:
        events.append(Note(f"casualty cap reached: no more than {step.cap} visible models", f"{R}/shoot/cap"))
    if todo and not capped and members(state, step.target):
        push(state, replace(step, todo=todo))


def credit_kills(state: State, uid: str, kills: int) -> None:
    """Count ``kills`` enemy models removed by unit ``uid``'s attack in ``state.vars["unit_kills"]`` (what the
    lab's per-model statistics read: the result shares a unit's count out over its models)."""
    if kills > 0:
        tally = dict(state.vars.get("unit_kills") or {})
        tally[uid] = int(tally.get(uid, 0)) + kills
        state.vars["unit_kills"] = tally


def remove(state: State, m: Model, reason: str, events: list[Event]) -> None:
    m.on_table = False
    m.flags = {**m.flags, "dead": True}
    events.append(Removed(m.id, reason))
