"""Attacks (digest ``wyrdcry.md`` §A5: targets, the hit table, modifiers, damage; §A6 damage; the Attack action of
seed 003's list): choosing a target, the numbers an attack rolls against, and an attack from its declaration to its
damage, with the faction rules that change it (data digest §4: Zeal, Sigmar's Blessing, Captain's Command,
Hunter's Eye, Hammer of Sigmar, Death Grip, Driven by Greed, Trick Shot, Armour of Faith, Stealthy).

An attack (:func:`begin_attack`) sets its hit rolls (:class:`HitRolls`) beneath the target's reaction window; the
hit rolls read the hit table (``rolls.py``) and carry a declared Counter or Take Cover (they are the
``reactions.Reactable`` of those two); then Sigmar's Blessing (:class:`BlessHit`), Take Cover's saves
(:class:`TakeCoverRoll`), and the damage (:func:`resolve_hits`, :func:`land_hits`), which a Troll Slayer's Deathwish
may answer first (:class:`LandHits`). Free attacks (Lead By Example, Deathwish) are :class:`FreeAttack`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push, replace_top, top
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.core import (
    R,
    State,
    WAuto,
    WChance,
    WChoice,
    enemies_of,
    eng_range,
    engaged,
    has_rule,
    hit_table,
    is_out,
    mighty,
    next_action,
    solids,
    standing,
    status,
    visible,
    weapon_named,
    weapons,
    wounds_left,
)
from warband.rulesets.wyrdcry.factions import blessed, command_token_bonus, has_trait, spend_blessing, zeal
from warband.rulesets.wyrdcry.reactions import (
    Reactable,
    ReactWindow,
    can_react,
    hurt,
    push_window,
    react_actions,
)


def attack_weapon(m: Model, name: str) -> dict[str, Any]:
    """The weapon ``m`` attacks with (named when the attack was declared, so ``m`` carries it)."""
    w = weapon_named(m, name)
    assert w is not None, name
    return w


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


def in_cover(state: State, a: Model, t: Model) -> bool:
    """D §A5: the line between the bases crosses a cover obstacle not within 1/2" of the attacker, or the
    target is on a platform 2"+ above the shooter."""
    p = state.ctx.params
    if has_trait(a.data, "trick-shot"):  # data §4.4: its targets never count as in cover
        return False
    if has_trait(t.data, "armour-of-faith"):  # data §4.2: always counts as in cover
        return True
    if has_trait(t.data, "stealthy") and gap(a, t) > float(p["stealthy_range"]) + 1e-9:
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


def attack_numbers(state: State, a: Model, t: Model, w: dict[str, Any]) -> tuple[int, int]:
    """The attacker's Fight (melee) or Shoot (ranged) and the target's Defense, each at least ``min_characteristic`` (D
    §A5 modifiers: Mighty, panicked, Parry, cover, flanked, Rampage; data §4: Accused and Zeal, Driven by Greed,
    Captain's Command tokens)."""
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


def begin_attack(state: State, m: Model, t: Model, wname: str, events: list[Event]) -> None:
    """An attack is declared (D §A5): the weapon's Attacks (plus Onslaught in melee, plus Driven by Greed), the
    next-attack bonuses of Hunter's Eye, Hammer of Sigmar, Death Grip and Driven by Greed taken up, Reload and One-use
    marked; its hit rolls wait beneath the target's reaction window."""
    w = attack_weapon(m, wname)
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


@values.value
class HitRolls(WChance, Reactable, kind="hit-rolls"):
    """D §A5: one D6 per Attack read on the hit table (Fight/Shoot against Defense); hits and crits deal the
    weapon's Damage values. A declared Counter or Take Cover is resolved here (D §A7)."""

    timings = ("melee", "ranged")
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
        w = attack_weapon(a, self.weapon)
        skill, defense = attack_numbers(state, a, t, w)
        band = rolls.hit_band(skill, defense)
        tally = rolls.tally(values, band, hit_table(state))
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

    def reactions(self, state: State, window: ReactWindow) -> list[Action]:
        """S 26-32, D §A7: the target may Counter a melee attack (not a Whipcrack weapon's) or Take Cover from a
        ranged attack when it is in cover, before the hit rolls; each at most once."""
        actor, t = state.models[window.actor], state.models[window.target]
        out: list[Action] = []
        if is_out(t) or not can_react(state, t, window.seq):
            return out
        w = weapon_named(actor, self.weapon)
        if window.timing == "melee" and not self.counter and w is not None and not has_rule(w, "Whipcrack"):
            out.extend(react_actions(state, t, actor, "counter", window.seq))
        if window.timing == "ranged" and not self.take_cover and in_cover(state, actor, t):
            out.extend(react_actions(state, t, actor, "take-cover", window.seq))
        return out

    def react(self, state: State, f: Model, name: str, window: ReactWindow, events: list[Event]) -> None:
        """Counter and Take Cover are marked on these hit rolls, which resolve them (:func:`land_hits`,
        :class:`TakeCoverRoll`)."""
        assert top(state) is self, top(state)
        replace_top(state, replace(self, counter=True) if name == "counter" else replace(self, take_cover=True))
        push_window(state, window)


def after_hit_roll(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    hits: int,
    crits: int,
    counter: bool,
    take_cover: bool,
    hit_rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    """What follows the hit roll (and Sigmar's Blessing): a declared Take Cover rolls for the crits, then the
    damage."""
    if take_cover and crits:
        push(state, TakeCoverRoll(a.id, t.id, w["weapon"], hits, crits, counter, hit_rolls))
        return
    resolve_hits(state, a, t, w, hits, crits, counter, hit_rolls, events)


@values.value
class BlessHit(WChoice, kind="blessing-hit", about="model"):
    """Sigmar's Blessing (data §4.2): after its hit roll a Sister may spend a banked wyrd die to turn one hit into
    a critical hit."""

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
        w = attack_weapon(a, self.weapon)
        hits, crits = self.hits, self.crits
        if action.option == "crit":
            spend_blessing(state, a, "turns a hit into a critical hit", events)
            hits, crits = hits - 1, crits + 1
        after_hit_roll(state, a, t, w, hits, crits, self.counter, self.take_cover, self.rolls, events)


@values.value
class TakeCoverRoll(WChance, kind="take-cover-roll"):
    """Take Cover (D §A7): one D6 per critical hit; on 4+ it becomes a normal hit."""

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
        saved = rolls.take_cover(self.crits, values, int(state.ctx.params["take_cover_save"]))
        events.append(DiceRolled("take cover", values, f"{saved} crit(s) become hits", self.target))
        a, t = state.models[self.attacker], state.models[self.target]
        w = attack_weapon(a, self.weapon)
        resolve_hits(state, a, t, w, self.hits + saved, self.crits - saved, self.counter, self.rolls, events)


def resolve_hits(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    hits: int,
    crits: int,
    counter: bool,
    hit_rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    """The damage of the hits and crits (D §A5: the weapon's two Damage values, plus Hunter's Eye or Hammer of Sigmar
    per hit): a melee blow that would take a Troll Slayer out first waits for its Deathwish (data §4.4)."""
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
        push(state, LandHits(a.id, t.id, w["weapon"], dmg, grip, counter, hit_rolls))
        push(state, ReactWindow(t.side, "deathwish", a.id, t.id, seq))
        return
    land_hits(state, a, t, w, dmg, grip, counter, hit_rolls, events)


@values.value
class LandHits(WAuto, Reactable, kind="land-hits"):
    """The damage of an attack, dealt after the target's Deathwish free attack (data §4.4)."""

    timings = ("deathwish",)
    attacker: str
    target: str
    weapon: str
    dmg: int
    grip: bool
    counter: bool
    rolls: tuple[int, ...]

    def run(self, state: State, events: list[Event]) -> None:
        a, t = state.models[self.attacker], state.models[self.target]
        w = attack_weapon(a, self.weapon)
        land_hits(state, a, t, w, self.dmg, self.grip, self.counter, self.rolls, events)

    def reactions(self, state: State, window: ReactWindow) -> list[Action]:
        """Deathwish (data §4.4): the Troll Slayer this blow would take out of action, before it lands."""
        t = state.models[window.target]
        return [] if is_out(t) else react_actions(state, t, state.models[window.actor], "deathwish", window.seq)

    def react(self, state: State, f: Model, name: str, window: ReactWindow, events: list[Event]) -> None:
        """Deathwish: a free attack before the blow lands."""
        push(state, FreeAttack(f.side, f.id, "Deathwish"))


def land_hits(
    state: State,
    a: Model,
    t: Model,
    w: dict[str, Any],
    dmg: int,
    grip: bool,
    counter: bool,
    hit_rolls: tuple[int, ...],
    events: list[Event],
) -> None:
    """Deal the attack's damage (D §A6), then Death Grip's lost action or damage (data §4.3) and a declared Counter's
    damage to the attacker (D §A7)."""
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
        band = rolls.hit_band(skill, defense)
        back = rolls.counter_damage(
            hit_rolls, band, hit_table(state), int(p["counter_damage"]), int(p["counter_damage_on_one"])
        )
        if back:
            events.append(Note(f"{t.id}'s Counter deals {back} damage to {a.id}", f"{R}/reaction/counter"))
            hurt(state, a, t, back, f"{t.id}'s Counter", events)
    a.flags.pop("greed_fight", None)


def free_attacks(state: State, f: Model) -> list[Action]:
    """The attacks ``f`` could make now (targets as for the Attack action, D §A5)."""
    tries = [Action("attack", f.id, e.id, option=w["weapon"]) for w in weapons(f) for e in enemies_of(state, f)]
    return [a for a in tries if not attack_reasons(state, f, a)]


@values.value
class FreeAttack(WChoice, kind="free-attack", about="model"):
    """A free attack (Lead By Example, data §4.1; Deathwish, data §4.4): the player picks the weapon and target
    as for the Attack action, or lets it go. It is not one of the fighter's actions."""

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
        next_action(state)
        events.append(Note(f"{f.id} makes a free attack ({self.why})", f"{R}/ability/free-attack"))
        begin_attack(state, f, state.models[action.target], str(action.option), events)
