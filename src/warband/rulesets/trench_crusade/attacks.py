"""Ranged and melee attacks, Injury Rolls, Blood markers, Down and Out of Action (seed 000 §Success Rolls for
the hit and the critical; digest §4 Ranged attack, §5 Melee attack, §6 Injuries, markers and states, §9 keywords).

An attack is a chain of typed steps on the state's stack::

    Attack (auto) -> [SpendHit: the opponent spends the attacker's Blood] -> SuccessRoll (chance)
      -> AfterHit: for each model hit an Injury (auto) -> [SpendInjury: Blood or a Bloodbath]
      -> InjuryRoll (chance)
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, Removed, StatusChanged, TokensChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import ModelDecision, OneDie, pop, push, top
from warband.rulesets.trench_crusade import abilities
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.core import (
    AfterSuccess,
    R,
    State,
    SuccessRoll,
    TCAuto,
    TCChance,
    TCChoice,
    Vec,
    add_blood,
    amend_below,
    place,
    push_blessing,
    push_success,
    spend_markers,
    spendable,
    the_weapon,
    weapons,
)
from warband.rulesets.trench_crusade.keywords import (
    attack_count,
    blocks_charger,
    causes_fear,
    critical_injury_dice,
    extra_blood,
    golem_stands,
    has_kw,
    tough_unused,
)
from warband.rulesets.trench_crusade.odds import injury_odds, success_odds
from warband.rulesets.trench_crusade.scenario import check_wipe
from warband.rulesets.trench_crusade.sight import cover_piece, elevated_over, visible
from warband.rulesets.trench_crusade.wheel import fall_with, volunteer


# ------------------------------------------------------------------------------------------- markers and states
def make_down(state: State, m: Model, events: list[Event]) -> None:
    """Down (digest §6): -1 DICE, cannot move except by falling; a model's own activation ends if it goes Down."""
    if not m.flags.get("down"):
        m.flags["down"] = True
        events.append(StatusChanged(m.id, "Down", True))
    if state.vars.get("active") == m.id:
        state.vars["end_now"] = True


def take_out(state: State, m: Model, attacker: Model | None, events: list[Event]) -> None:
    """Out of Action: removed from the table (digest §6)."""
    m.on_table = False
    m.flags["out"] = True
    m.flags.pop("down", None)
    events.append(Removed(m.id, "Out of Action"))
    _free_swallowed(state, m, events)
    fall_with(state, m, events)  # Broken on the Wheel
    if attacker is not None:
        # a kill is an enemy taken out; a friend struck by a shot into a melee is counted apart (issue 23)
        key = "kills" if attacker.side != m.side else "friendly_kills"
        attacker.flags[key] = int(attacker.flags.get(key, 0)) + 1
        m.flags["taken_out_by"] = attacker.id
        if attacker.side == m.side:
            m.flags["friendly_fire"] = True
    if state.vars.get("active") == m.id:
        state.vars["end_now"] = True
    if attacker is m and abilities.has_effect(m, "self_out_no_morale"):  # Awaited
        m.flags["awaited"] = True
        events.append(
            Note(f"{m.id} was Awaited: its own Martyrdom Device counts for no Morale check", f"{R}/ability/awaited")
        )
    _bless_on_death(state, m, events)
    if attacker is not None and attacker.side == m.side and abilities.has_effect(attacker, "attack_friends"):
        flags = state.sides[m.side].flags  # Whip of God: +1 DICE to the side's next Morale check
        flags["morale_bonus"] = int(flags.get("morale_bonus", 0)) + 1
    elite_kill = attacker is not None and attacker.on_table and has_kw(m, "ELITE")
    if elite_kill and attacker is not None and abilities.has_effect(attacker, "leaves_on_elite_kill"):
        leave(state, attacker, "it took an enemy ELITE Out of Action (Law of Hell)", events)
    check_wipe(state, events)


def _free_swallowed(state: State, m: Model, events: list[Event]) -> None:
    """Devour the Guilty (swallow.py): a swallower taken out lets its victim out Down where it stood (ours); a
    victim taken out inside leaves its swallower's belly empty."""
    holder = state.models.get(str(m.flags.pop("swallowed_by", "")))
    if holder is not None:
        holder.flags.pop("swallowed", None)
    victim = state.models.get(str(m.flags.pop("swallowed", "")))
    if victim is not None:
        victim.flags.pop("swallowed_by", None)
        victim.on_table = True
        victim.x, victim.y, victim.z = m.x, m.y, m.z
        events.append(Note(f"{victim.id} falls out of {m.id}", f"{R}/ability/devour_the_guilty"))
        make_down(state, victim, events)


def _prize(att: Model, v: Model, events: list[Event]) -> None:
    """Prize Specimens (effect ``blessing_on_kill``): the attacker gains a Blessing marker for each such effect
    when its Melee Attack takes an enemy with one of the effect's keywords Out of Action."""
    for fx in abilities.effects(att, "blessing_on_kill"):
        if att.side != v.side and att.on_table and any(has_kw(v, k) for k in fx.keywords):
            att.tokens["blessing"] = att.token("blessing") + fx.count
            events.append(TokensChanged(att.id, "Blessing", fx.count, att.token("blessing")))


def leave(state: State, m: Model, why: str, events: list[Event]) -> None:
    """The model leaves the battle, not as a casualty (Law of Hell: it counts toward no Morale check)."""
    m.on_table = False
    m.flags["left"] = True
    m.flags.pop("down", None)
    events.append(Removed(m.id, f"leaves the battle: {why}"))
    if state.vars.get("active") == m.id:
        state.vars["end_now"] = True


def _bless_on_death(state: State, m: Model, events: list[Event]) -> None:
    """Dark Blessing (effect ``blessing_on_death``): a friend with the effect's keywords gains a Blessing marker;
    ours: the LEADER if it qualifies, else the first such model in warband order."""
    for fx in abilities.effects(m, "blessing_on_death"):
        friends = [
            f
            for f in state.models.values()
            if f.side == m.side and f.on_table and all(has_kw(f, k) for k in fx.keywords)
        ]
        if not friends:
            continue
        f = sorted(friends, key=lambda x: not has_kw(x, "LEADER"))[0]
        f.tokens["blessing"] = f.token("blessing") + 1
        events.append(TokensChanged(f.id, "Blessing", 1, f.token("blessing")))


# ------------------------------------------------------------------------------------------- declaring attacks
def begin_shoot(state: State, m: Model, t: Model, w: dict[str, Any], events: list[Event]) -> None:
    """A Ranged Attack; AUTOMATIC X makes X attacks at targets within ``automatic_spread`` of the first."""
    shots = attack_count(w, "AUTOMATIC")
    if shots > 1 and "SAME TARGET" in w["keywords"]:  # the lists' Automatic Rifle: every attack at the one target
        for _ in range(shots - 1):
            push(state, Attack(m.id, t.id, w["name"], "ranged", False, True))
    elif shots > 1:
        push(state, AutoNext(m.id, t.id, w["name"], shots - 1))
    push(state, Attack(m.id, t.id, w["name"], "ranged", False, True))


def begin_fight(state: State, m: Model, t: Model, wname: str, events: list[Event]) -> None:
    """A Melee Attack: CLEAVE X makes X attacks; a second melee weapon adds one off-hand attack (digest §5)."""
    w = the_weapon(m, wname, "melee")
    count = max(attack_count(w, "CLEAVE"), abilities.weapon_attacks(m, w))
    others = [x for x in weapons(m, "melee") if x is not w]
    steps = [Attack(m.id, t.id, w["name"], "melee", False, True) for _ in range(count)]
    if others:
        steps.append(Attack(m.id, t.id, others[0]["name"], "melee", True, True))
    for s in reversed(steps):
        push(state, s)


def begin_melee_attack(state: State, e: Model, t: Model, wname: str, events: list[Event], own_activation: bool) -> None:
    """One Melee Attack with one weapon (the strike against a Retreating model, digest §7)."""
    push(state, Attack(e.id, t.id, wname, "melee", False, own_activation))


# ------------------------------------------------------------------------------------------- the hit roll
def attack_dice(
    state: State, m: Model, t: Model, w: dict[str, Any], mode: str, offhand: bool
) -> tuple[int, int, list[str]]:
    """(+DICE, -DICE, reasons) of an attack's Success Roll (digest §4 Modifiers, §5 -1/+1 DICE)."""
    p = state.ctx.params
    # a PISTOL (the lists' Pistol / Revolver) is used in melee with the Ranged characteristic
    own = "ranged" if mode == "melee" and "PISTOL" in w["keywords"] else mode
    mods: list[tuple[int, str]] = [(int(m.data[own]), f"{own} characteristic"), (int(w["dice"]), w["name"])]
    if m.flags.get("down"):
        mods.append((int(p["down_dice"]), "attacker is Down"))
    kws = w["keywords"]
    if mode == "ranged":
        if long_range(state, m, t, w) and "SHOTGUN" not in kws:
            mods.append((int(p["long_range_dice"]), "long range"))
        covered = cover_piece(state.ctx, m, t) is not None or bool(t.flags.get("fortified")) or in_miasma(state, t)
        if "IGNORE COVER" not in kws and "GRENADE" not in kws and covered:
            mods.append((int(p["cover_dice"]), "target in cover"))
        if m.flags.get("aimed"):
            mods.append((int(m.flags["aimed"]), "Aim"))
        if elevated_over(state.ctx, m, t) and not in_miasma(state, m):
            mods.append((int(p["elevation_dice"]), "elevated"))
    else:
        if offhand and not abilities.has_effect(m, "no_offhand_penalty"):  # Martial Prowess: no penalty
            mods.append((int(p["offhand_dice"]), "off-hand weapon"))
        if causes_fear(t, m):
            mods.append((int(p["fear_dice"]), "target causes FEAR"))
        if cover_piece(state.ctx, m, t) is not None:
            mods.append((int(p["defended_obstacle_dice"]), "defended obstacle"))
        if m.flags.get("dive"):
            mods.append((int(p["dive_dice"]), "diving charge"))
        if blocks_charger(state, m, t):
            mods.append((int(p["block_dice"]), "target has BLOCK against a charger"))
    if m.flags.get("swallowed_by") == t.id:
        mods.append((int(p["devoured_attack_dice"]), "striking from inside its swallower"))
    mods.append((abilities.dice_against(t, mode), f"{t.id}'s ability against {mode} attacks"))
    mods.append((abilities.aura_dice(state, m), "an enemy's aura"))
    plus = sum(v for v, _ in mods if v > 0)
    minus = -sum(v for v, _ in mods if v < 0)
    return plus, minus, [f"{'+' if v > 0 else ''}{v} {why}" for v, why in mods if v]


def in_miasma(state: State, x: Model) -> bool:
    """Miasma of Pestilence: ``x`` stands within the range of a caster's miasma (in cover, no elevation bonus)."""
    return any(
        c.on_table and c.flags.get("miasma") is not None and gap(c, x) <= float(c.flags["miasma"]) + 1e-9
        for c in state.models.values()
    )


def long_range(state: State, m: Model, t: Model, w: dict[str, Any]) -> bool:
    """More than ``long_range_fraction`` of the weapon's range away (digest §4); grenades ignore it."""
    kws = w["keywords"]
    if "IGNORE LONG RANGE" in kws or "GRENADE" in kws:
        return False
    return gap(m, t) > float(w["range"] or 0) * float(state.ctx.params["long_range_fraction"]) + 1e-9


@values.value
class Attack(TCAuto, kind="attack"):
    """One attack of ``attacker`` on ``target`` with ``weapon`` (``mode`` ranged or melee); ``own``: made in the
    attacker's own activation (a failed Risky roll then ends it). Shooting into melee is settled once
    (``deflected``); ``injury_minus`` carries SHOTGUN's -1 INJURY DICE at long range."""

    attacker: str
    target: str
    weapon: str
    mode: str
    offhand: bool
    own: bool
    deflected: bool = False
    injury_minus: int = 0

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.attacker]
        t = state.models[self.target]
        inside = m.flags.get("swallowed_by") == t.id  # Devour the Guilty: the victim strikes from inside
        if (not m.on_table and not inside) or not t.on_table:
            events.append(Note(f"{m.id}'s attack on {t.id} is lost: a model is no longer on the table", ""))
            return
        w = the_weapon(m, self.weapon, self.mode)
        if self.mode == "ranged" and not self.deflected and self._into_melee(state, m, t):
            return
        step = self
        if self.mode == "ranged" and "SHOTGUN" in w["keywords"] and long_range(state, m, t, w):
            step = replace(self, injury_minus=1)  # digest §9 SHOTGUN: -1 INJURY DICE instead of -1 DICE at long range
        then = AfterHit(m.id, t.id, w["name"], self.mode, step.injury_minus)
        if "FLAMETHROWER" in w["keywords"]:
            events.append(Note(f"{m.id}'s {w['name']} hits {t.id} automatically", f"{R}/keyword/flamethrower"))
            then.hit(state, "success", events)
            return
        plus, minus, why = attack_dice(state, m, t, w, self.mode, self.offhand)
        if self.mode == "melee":
            m.flags.pop("dive", None)
        events.append(Note(f"{m.id} attacks {t.id} with {w['name']} ({', '.join(why) or 'no modifiers'})", ""))
        blood = not any(fx.mode in (None, self.mode) for fx in abilities.effects(m, "no_blood_spend"))
        push_success(state, m.id, "attack", plus, minus, "RISKY" in w["keywords"], then, self.own, spend=blood)

    def _into_melee(self, state: State, m: Model, t: Model) -> bool:
        """Shooting at a target within 1" of the shooter's friends (digest §4): roll first (True if so)."""
        friends = [
            f
            for f in state.models.values()
            if f.on_table
            and f.side == m.side
            and f is not m
            and gap(f, t) <= state.ctx.params["engagement_range"] + 1e-9
        ]
        if not friends:
            return False
        friend = min(friends, key=lambda f: (gap(f, t), f.id))
        push(state, replace(self, deflected=True))
        push(state, Deflect(m.id, friend.id))
        return True


@values.value
class Deflect(OneDie[State], kind="deflect", label="shooting into melee"):
    """Shooting into melee (digest §4): on 1-3 the shot must target the friend (lost if it cannot be)."""

    model: str
    friend: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        if values[0] > state.ctx.params["into_melee_redirect_max"]:
            events.append(DiceRolled("shooting into melee", values, "the shot goes at the enemy", self.model))
            return
        attack = top(state)
        assert isinstance(attack, Attack), attack
        m = state.models[self.model]
        f = state.models[self.friend]
        w = the_weapon(m, attack.weapon, "ranged")
        ok = visible(state.ctx, m, f) and gap(m, f) <= float(w["range"] or 0) + 1e-9
        events.append(
            DiceRolled(
                "shooting into melee",
                values,
                f"the shot must target {f.id}" + ("" if ok else ": it cannot, so the shot is lost"),
                self.model,
            )
        )
        pop(state)
        if ok:
            push(state, replace(attack, target=f.id))


@values.value
class AfterHit(AfterSuccess, kind="after-hit"):
    """What an attack's Success Roll leads to: the Injury Rolls of every model hit."""

    attacker: str
    target: str
    weapon: str
    mode: str
    injury_minus: int = 0

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        self.hit(state, result, events)

    def hit(self, state: State, result: str, events: list[Event]) -> None:
        """A hit wounds: every model hit takes an Injury Roll; a critical adds INJURY DICE (seed 000; §9
        CRITICAL, BLAST)."""
        if result == "failure":
            return
        p = state.ctx.params
        m = state.models[self.attacker]
        t = state.models[self.target]
        w = the_weapon(m, self.weapon, self.mode)
        crit = 0
        if result == "critical":
            crit = critical_injury_dice(w, p)
        victims = [t]
        if "BLAST" in w["keywords"]:
            victims.extend(_blast_victims(state, m, t, float(w["values"].get("BLAST", 0))))
            radius = float(w["values"].get("BLAST", 0))
            events.append(Note(f'BLAST {radius:g}": {", ".join(v.id for v in victims)} hit', f"{R}/keyword/blast"))
        fringe = 1 if "BLAST FRINGE" in w["keywords"] else 0  # the lists' Grenades: the others at -1 INJURY DICE
        for v in reversed(victims):
            minus = self.injury_minus + (fringe if v is not t else 0)
            push(state, Injury(m.id, v.id, w["name"], self.mode, crit, injury_minus=minus))
        if "BLAST" not in w["keywords"] and bodyguards(state, t):
            push(state, Bodyguard(t.id, t.side))


def bodyguards(state: State, t: Model) -> list[Model]:
    """Pilgrim Bodyguard (effect ``bodyguard``): friends within 1" of ``t`` that may take a hit meant for it (when
    ``t`` has one of the effect's keywords)."""
    reach = float(state.ctx.params["engagement_range"])
    return [
        g
        for g in state.models.values()
        if g.side == t.side
        and g is not t
        and g.on_table
        and gap(g, t) <= reach + 1e-9
        and any(any(k in t.data["keywords"] for k in fx.keywords) for fx in abilities.effects(g, "bodyguard"))
    ]


@values.value
class Bodyguard(ModelDecision[State], kind="bodyguard"):
    """Pilgrim Bodyguard: the hit's side chooses whether a bodyguard takes the hit meant for ``model`` (not BLAST)."""

    def options(self, state: State) -> list[Action]:
        t = state.models[self.model]
        return [Action("guard", g.id, t.id) for g in bodyguards(state, t)] + [Action("decline", t.id)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "guard" or action.model is None:
            return
        guard = action.model
        events.append(Note(f"{guard} takes the hit meant for {self.model}", f"{R}/ability/pilgrim_bodyguard"))
        amend_below(state, Injury.kind, lambda inj: replace(inj, victim=guard))


def _blast_victims(state: State, m: Model, t: Model, radius: float) -> list[Model]:
    """The models other than the target a BLAST hits: within ``radius`` of it and in its sight (digest §9)."""
    centre = (t.x, t.y)
    out = []
    for o in state.models.values():
        if o is t or not o.on_table or o is m:
            continue
        near = math.hypot(o.x - t.x, o.y - t.y) - o.radius <= radius + 1e-9
        if near and state.ctx.table.line_of_sight(centre, t.z + 0.5, (o.x, o.y), o.z + 0.5 * o.height):
            out.append(o)
    return out


# ------------------------------------------------------------------------------------------- auto targets
@values.value
class AutoNext(TCAuto, kind="auto-next"):
    """AUTOMATIC X (digest §9): ``more`` attacks left, each at a target within ``automatic_spread`` of
    ``first``."""

    attacker: str
    first: str
    weapon: str
    more: int

    def run(self, state: State, events: list[Event]) -> None:
        if self.more <= 0:
            return
        opts = auto_target_options(state, self.attacker, self.first, self.weapon)
        if not opts:
            events.append(Note("AUTOMATIC: no target left within reach", f"{R}/keyword/automatic"))
            return
        if len(opts) == 1:
            self.target(state, opts[0])
            return
        push(state, AutoTarget(self.attacker, self.first, self.weapon, self.more, state.models[self.attacker].side))

    def target(self, state: State, a: Action) -> None:
        m = state.models[self.attacker]
        t = state.models[a.target or ""]
        push(state, replace(self, more=self.more - 1))
        push(state, Attack(m.id, t.id, self.weapon, "ranged", False, True))


@values.value
class AutoTarget(TCChoice, kind="auto-target", about="attacker"):
    """The shooter picks the next AUTOMATIC target when more than one is within reach."""

    attacker: str
    first: str
    weapon: str
    more: int
    by: int

    def options(self, state: State) -> list[Action]:
        return auto_target_options(state, self.attacker, self.first, self.weapon)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        AutoNext(self.attacker, self.first, self.weapon, self.more).target(state, action)


def auto_target_options(state: State, attacker: str, first_id: str, weapon: str) -> list[Action]:
    """AUTOMATIC X (digest §9): the next target is within ``automatic_spread`` of the first target."""
    m = state.models[attacker]
    first = state.models[first_id]
    if not m.on_table:
        return []
    w = the_weapon(m, weapon, "ranged")
    spread = float(state.ctx.params["automatic_spread"])
    out = []
    for e in state.models.values():
        if e.side == m.side or not e.on_table:
            continue
        if math.hypot(e.x - first.x, e.y - first.y) - e.radius - first.radius > spread + 1e-9:
            continue
        if gap(m, e) <= float(w["range"] or 0) + 1e-9 and visible(state.ctx, m, e):
            out.append(Action("target", m.id, e.id, option=w["name"]))
    return out


# ------------------------------------------------------------------------------------------- injuries
@values.value
class Injury(TCAuto, kind="injury"):
    """An Injury Roll to set up for ``victim``: from an attack (``attacker``, ``weapon``, ``mode``, ``crit``
    INJURY DICE from a critical) or from the table (``source``: a fall, dangerous terrain; ``fall`` extra
    INJURY DICE)."""

    attacker: str | None
    victim: str
    weapon: str | None
    mode: str | None
    crit: int
    injury_minus: int = 0
    fall: int = 0
    source: str | None = None

    def run(self, state: State, events: list[Event]) -> None:
        """The INJURY DICE from a critical, a melee hit on a Down target and falls; the INJURY MODIFIERS of
        armour and weapon, negatives capped (digest §6)."""
        v = state.models[self.victim]
        strapped = volunteer(state, v)  # Broken on the Wheel: the volunteer takes the shrine's injuries
        if strapped is not None:
            events.append(
                Note(
                    f"{strapped.id}, strapped to {v.id}'s wheel, is hit first",
                    "trench-crusade/ability/broken_on_the_wheel",
                )
            )
            v = strapped
        elif not v.on_table:
            return
        att = state.models[self.attacker] if self.attacker else None
        w = the_weapon(att, self.weapon, self.mode or "") if att and self.weapon else None
        plus, modifier, all_dice = injury_terms(state, v, w, self.mode, self.crit + self.fall)
        more, less = weapon_injury_dice(w)
        against = abilities.injury_dice_against(v, w["keywords"] if w is not None else None)
        against += abilities.injury_dice_for(att, v, self.mode) if att is not None else 0
        more, less = more + max(0, against), less + max(0, -against)
        plus += more
        if self.source is not None:
            modifier = 0
        shrapnel = bool(extra_blood(w, v))
        deadly = w is not None and "DEADLY" in w["keywords"]
        source = self.source or (w["name"] if w is not None else None)
        push(
            state,
            InjuryRoll(
                v.id,
                self.attacker,
                plus,
                self.injury_minus + less,
                modifier,
                all_dice,
                deadly,
                shrapnel,
                source,
                melee=self.mode == "melee",
            ),
        )
        push_blessing(state, v, injury=True)
        if spendable(v) > 0:
            push(state, SpendInjury(v.id, 1 - v.side))


def weapon_injury_dice(w: dict[str, Any] | None) -> tuple[int, int]:
    """(+INJURY DICE, -INJURY DICE) of the weapon itself: the v1.6 lists' "+1 injury DICE" modifier (catalogue
    ``injury_dice``), extra dice on the Injury Roll kept two (highest or lowest), not a flat modifier."""
    d = int(w.get("injury_dice", 0)) if w is not None else 0
    return max(0, d), max(0, -d)


def injury_terms(
    state: State, v: Model, w: dict[str, Any] | None, mode: str | None, extra: int
) -> tuple[int, int, int]:
    """(+INJURY DICE, capped INJURY MODIFIER, dice all added) of an Injury Roll on ``v`` (digest §6): ``extra``
    dice (a critical, a fall) plus one for a melee hit on a Down target; armour unless IGNORE ARMOUR, the
    weapon's modifier; DEADLY rolls ``deadly_dice - 1`` dice all added."""
    p = state.ctx.params
    plus = extra
    if mode == "melee" and v.flags.get("down"):
        plus += int(p["down_melee_injury_dice"])
    mods = []
    pierce = w is not None and "CRITICAL PIERCES" in w["keywords"] and extra > 0 and mode == "ranged"
    if (w is None or "IGNORE ARMOUR" not in w["keywords"]) and not pierce:
        mods.append(int(v.data["armour"]))
    if w is not None:
        mods.append(int(w["injury_mod"]))
        if "INJURY PER BLOOD" in w["keywords"]:  # Vengeful Scripture: +1 per Blood marker on the model hit
            mods.append(v.token("blood"))
    deadly = w is not None and "DEADLY" in w["keywords"]
    return plus, tcr.injury_modifier(mods, p), int(p["deadly_dice"] - 1) if deadly else 0


def attack_preview(state: State, m: Model, t: Model, w: dict[str, Any], mode: str) -> dict[str, Fraction]:
    """The exact odds of one attack of ``m`` on ``t`` with ``w`` as the game resolves it now (the 'odds before
    an action'): the hit and the critical (FLAMETHROWER: always a plain hit), then the Injury Roll with the
    critical's extra INJURY DICE, a Down target's die in melee, SHOTGUN at long range, armour (IGNORE
    ARMOUR), DEADLY, and TOUGH (or GOLEM) turning a first Out of Action into Down. Keys ``hit``, ``critical``, ``down``,
    ``out``, ``net`` (the DICE). Blood markers the opponent may spend are choices, not counted."""
    p = state.ctx.params
    if "FLAMETHROWER" in w["keywords"]:
        net, hit = 0, {"failure": Fraction(0), "success": Fraction(1), "critical": Fraction(0)}
    else:
        plus, minus, _ = attack_dice(state, m, t, w, mode, False)
        net = tcr.net_dice(plus, minus)
        hit = success_odds(net, p)
    minus_inj = 1 if mode == "ranged" and "SHOTGUN" in w["keywords"] and long_range(state, m, t, w) else 0
    more, less = weapon_injury_dice(w)
    minus_inj += less
    crit_dice = critical_injury_dice(w, p)
    tough = tough_unused(t) or golem_stands(t, False)
    out: dict[str, Fraction] = {"hit": hit["success"], "critical": hit["critical"], "down": Fraction(0)}
    out["out"] = Fraction(0)
    for chance, extra in ((hit["success"] - hit["critical"], 0), (hit["critical"], crit_dice)):
        plus_inj, modifier, all_dice = injury_terms(state, t, w, mode, extra)
        plus_inj += more
        if all_dice:
            inj = injury_odds(0, modifier, all_dice, p)
        else:
            inj = injury_odds(tcr.net_dice(plus_inj, minus_inj), modifier, params=p)
        down, gone = inj["down"], inj["out"]
        if tough:
            down, gone = down + gone, Fraction(0)
        out["down"] += chance * down
        out["out"] += chance * gone
    out["net"] = Fraction(net)
    return out


@values.value
class SpendInjury(ModelDecision[State], kind="spend-injury"):
    """Before an Injury Roll on a model with Blood markers, its opponent spends them: +1 INJURY DICE each, or
    a Bloodbath (digest §6)."""

    def options(self, state: State) -> list[Action]:
        p = state.ctx.params
        v = state.models[self.model]
        n = spendable(v)
        out = [Action("spend", v.id, option=str(k)) for k in range(n + 1)]
        cost = p["bloodbath_cost_down"] if v.flags.get("down") else p["bloodbath_cost"]
        if n >= cost:
            out.append(Action("bloodbath", v.id))
        return out

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        """+1 INJURY DICE per Blood marker spent, or a Bloodbath: 3D6 all added (digest §6)."""
        p = state.ctx.params
        v = state.models[self.model]
        if action.kind == "bloodbath":
            cost = int(p["bloodbath_cost_down"] if v.flags.get("down") else p["bloodbath_cost"])
            spend_markers(state, v, cost, events)
            events.append(Note(f"Bloodbath against {v.id}", f"{R}/injury/bloodbath"))

            def bath(roll: InjuryRoll) -> InjuryRoll:
                dice = int(p["deadly_dice"] if roll.deadly else p["bloodbath_dice"])
                return replace(roll, all_dice=dice, bloodbath=True)

            amend_below(state, InjuryRoll.kind, bath)
            return
        k = int(action.option or 0)
        if k > 0:
            spend_markers(state, v, k, events)
            amend_below(state, InjuryRoll.kind, lambda roll: replace(roll, plus=roll.plus + k))


@values.value
class InjuryRoll(TCChance, kind="injury-roll", prompt="injury"):
    """The Injury Roll (digest §6): 2D6 with +/- INJURY DICE keeping two, or ``all_dice`` dice all added (a
    Bloodbath, DEADLY), plus the modifier."""

    model: str
    attacker: str | None
    plus: int
    minus: int
    mod: int
    all_dice: int
    deadly: bool
    shrapnel: bool
    source: str | None
    bloodbath: bool = False
    melee: bool = False  # a Melee Attack's roll (Prize Specimens)

    def dice(self, state: State) -> DiceSpec:
        if self.all_dice:
            return DiceSpec(self.all_dice, 6, "Bloodbath injury roll", self.model)
        net = tcr.net_dice(self.plus, self.minus)
        return DiceSpec(tcr.dice_count(net), 6, "injury roll", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Apply the injury table (digest §6): minor hit +1 Blood; Down +1 Blood (+2 if already Down); Out of
        Action removes the model, except that TOUGH turns the first one into Down."""
        p = state.ctx.params
        v = state.models[self.model]
        net = tcr.net_dice(self.plus, self.minus)
        total = tcr.injury_total(values, net, self.mod, all_dice=bool(self.all_dice))
        result = tcr.injury_result(total, p)
        label = f"injury roll ({self.source}, {net:+d} INJURY DICE, {self.mod:+d})"
        events.append(DiceRolled(label, values, f"{total}: {result}", v.id))
        att = state.models[self.attacker] if self.attacker else None
        if result == "minor":
            add_blood(state, v, 1, events)
        elif result == "down" and abilities.has_effect(v, "down_to_minor"):  # Machine Armour
            events.append(
                Note(f"{v.id}'s Machine Armour turns the Down result into a Minor Hit", f"{R}/item/machine_armour")
            )
            add_blood(state, v, 1, events)
        elif result == "down":
            add_blood(state, v, 2 if v.flags.get("down") else 1, events)
            make_down(state, v, events)
        elif result == "out" and abilities.has_effect(v, "ignore_out_once") and not v.flags.get("out_ignored"):
            v.flags["out_ignored"] = True
            events.append(Note(f"{v.id} ignores the Out of Action result (once a battle)", f"{R}/ability/ignore-out"))
        elif result == "out":
            if golem_stands(v, self.bloodbath) or tough_unused(v):
                if golem_stands(v, self.bloodbath):
                    events.append(Note(f"{v.id} is a GOLEM: Out of Action becomes Down", f"{R}/keyword/golem"))
                else:
                    v.flags["tough_used"] = True
                    events.append(Note(f"{v.id} is TOUGH: Out of Action becomes Down", f"{R}/keyword/tough"))
                add_blood(state, v, 2 if v.flags.get("down") else 1, events)
                make_down(state, v, events)
            else:
                take_out(state, v, att, events)
                if self.melee and att is not None:
                    _prize(att, v, events)
        if self.shrapnel and v.on_table:
            add_blood(state, v, 1, events)


def detonate(state: State, m: Model, radius: float, near: float, dice: int, events: list[Event]) -> None:
    """Martyrdom Device (item, CONSUMABLE, BLAST 3): every other model within ``radius`` that the blast reaches
    takes an Injury Roll from ``m`` (one INJURY DICE more within ``near``, ours: of its base); ``m`` itself rolls
    ``dice`` D6 all added, with its armour."""
    victims = _blast_victims(state, m, m, radius)
    events.append(
        Note(
            f"{m.id} sets off its Martyrdom Device: {', '.join(v.id for v in victims) or 'no one'} hit",
            f"{R}/item/martyrdom_device",
        )
    )
    _, modifier, _ = injury_terms(state, m, None, None, 0)
    push(state, InjuryRoll(m.id, m.id, 0, 0, modifier, dice, False, False, "Martyrdom Device"))
    for v in reversed(victims):
        push(state, Injury(m.id, v.id, None, None, 0, fall=1 if gap(m, v) <= near + 1e-9 else 0))


def push_injury(state: State, victim: Model, source: str, fall: int = 0) -> None:
    """An Injury Roll from the table, not an attack (a fall, dangerous terrain)."""
    push(state, Injury(None, victim.id, None, None, 0, fall=fall, source=source))


def push_fall(state: State, m: Model, drop: float, events: list[Event]) -> None:
    """Falling (digest §7): an Injury Roll with +1 INJURY DICE per full ``fall_injury_step`` inches."""
    dice = int(drop // state.ctx.params["fall_injury_step"])
    events.append(Note(f'{m.id} falls {drop:.1f}"', f"{R}/move/fall"))
    push_injury(state, m, "fall", fall=dice)


def fall_from_jump(state: State, m: Model, dest: Vec, events: list[Event]) -> None:
    """A failed jump (digest §7): the model falls into the gap and takes the fall."""
    table = state.ctx.table
    start = (m.x, m.y)
    tr = table.trace(start, dest)
    spot = start
    for c in tr.crossings:
        if c.piece.kind == "platform" and c.piece.contains(start):
            frac = min(1.0, (c.s1 + m.radius + 0.05) / tr.length) if tr.length > 0 else 0.0
            spot = (start[0] + (dest[0] - start[0]) * frac, start[1] + (dest[1] - start[1]) * frac)
            break
    drop = m.z - table.surface_height(spot)
    place(state, m, spot, table.surface_height(spot), events)
    no_fall = "FLYING" in m.data["keywords"] or abilities.has_effect(m, "no_fall")
    if drop >= state.ctx.params["fall_height"] - 1e-9 and not no_fall:
        push_fall(state, m, drop, events)


ATTACK_STEPS = (Bodyguard, Attack, Deflect, AfterHit, AutoNext, AutoTarget, Injury, SpendInjury, InjuryRoll)
