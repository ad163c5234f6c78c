"""Shooting, fighting, casualties, pins and Leadership (seed 002: Shoot, Saves, Removing Casualties, Fight,
Resolving the Fight Action; digest §3.5-§3.7, §3.9 for the PROPOSED numbers).

An attack is data on the stack: ``attack`` (the groups still to roll), then chance steps ``hits`` and
``saves``, then ``damage`` (one entry per unsaved attack, each applied to a model the defender picks). When the
target's models have different SVs the order is the other way round: ``damage`` holds every hit, the defender
picks the model for each, and a chance step ``msave`` rolls that attack's saves at that model's own SV.
"""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.events import DiceRolled, Event, Note, Removed, StatusChanged, TokensChanged
from warband.kernel.state import GameState, Model
from warband.rulesets.trenches_and_turbines.core import R, push, set_unit, succeeds, ustate
from warband.rulesets.trenches_and_turbines.space import (
    gap,
    in_contact,
    is_vehicle,
    leader_of,
    members,
    out_of_coherency,
    positions_key,
    sight,
    size_rank,
    unit_cover,
)


def ranged_weapons(m: Model) -> list[dict[str, Any]]:
    return list(m.data["weapons"])


def unit_weapons(state: GameState, uid: str) -> list[str]:
    names: list[str] = []
    for m in members(state, uid):
        for w in ranged_weapons(m):
            if w["name"] not in names:
                names.append(w["name"])
    return names


def weapon_of(m: Model, name: str) -> dict[str, Any] | None:
    for w in ranged_weapons(m):
        if w["name"] == name:
            return w
    return None


def indirect(w: dict[str, Any]) -> bool:
    """Indirect (digest §3.5 keyword default): no line of sight needed, ``indirect_hit_mod`` to hit, ignores
    Conceal."""
    return "Indirect" in w["keywords"]


def unit_fires_indirect(state: GameState, uid: str, wname: str) -> bool:
    """True when the unit's weapon ``wname`` is Indirect (for the models carrying it)."""
    return any(indirect(w) for m in members(state, uid) if (w := weapon_of(m, wname)) is not None)


# ------------------------------------------------------------------------------------------- shooting
def shooters(state: GameState, uid: str, tuid: str, wname: str, reaction: bool) -> list[tuple[Model, float, int]]:
    """(model, distance to the nearest target model it may shoot at, intervening Conceal) for every model that
    can shoot (seed 002, Who Can Shoot?: LoS to and range of at least one target model; out-of-coherency
    models only Move). A reaction Shoot needs no line of sight (seed 002, How to perform a reaction), nor does an
    Indirect weapon (digest §3.5; its Conceal is then 0: it ignores Conceal); range always counts."""
    out: list[tuple[Model, float, int]] = []
    bad = set(out_of_coherency(state, uid))
    key = positions_key(state)
    targets = members(state, tuid)
    for m in members(state, uid):
        w = weapon_of(m, wname)
        if w is None or m.id in bad:
            continue
        best: tuple[float, int] | None = None
        for t in targets:
            d = gap(m, t)
            if d > float(w["range"]) + 1e-9:
                continue
            c = 0 if reaction or indirect(w) else sight(state, m, t, key)
            if c is None:
                continue
            if best is None or (c, d) < (best[1], best[0]):
                best = (d, c)
        if best is not None:
            out.append((m, best[0], best[1]))
    return out


def visible_count(state: GameState, uid: str, tuid: str, reaction: bool, no_sight: bool = False) -> int:
    """Models of the target unit visible to at least one model of the attacker (the casualty cap). A Shoot that
    needs no line of sight (a reaction, ``reaction``; an Indirect weapon, ``no_sight``) counts every model."""
    if reaction or no_sight:
        return len(members(state, tuid))
    key = positions_key(state)
    ms = members(state, uid)
    return sum(1 for t in members(state, tuid) if any(sight(state, m, t, key) is not None for m in ms))


def shoot_groups(state: GameState, uid: str, tuid: str, wname: str, reaction: bool) -> list[dict[str, Any]]:
    """The Shoot's attacks, grouped by their target number (seed 002: attacks with different modifiers are
    rolled separately; like attacks may be grouped)."""
    p = state.ctx.params
    us = ustate(state, uid)
    ts = ustate(state, tuid)
    prior = int(state.vars.get("prior", 0))
    first = not state.vars.get("acts")
    tgt = members(state, tuid)
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for m, d, conceal in shooters(state, uid, tuid, wname, reaction):
        w = weapon_of(m, wname)
        assert w is not None
        kws = w["keywords"]
        mod = -int(p["prior_action_penalty"]) * prior
        if not reaction:
            if d <= float(w["range"]) / 2:
                mod += int(p["short_range_mod"])
            elif "OPTICS" not in kws:
                mod += int(p["long_range_mod"])
        c = conceal + (int(p["prone_conceal"]) if ts["prone"] else 0)
        if "OPTICS" in kws:
            c = max(0, c - int(p["optics_conceal_reduction"]))
        if indirect(w):
            c = 0
            mod += int(p["indirect_hit_mod"])
        mod -= c
        if us["prone"]:
            mod += int(p["prone_ranged_bonus"])
        if ts["prone"]:
            near = d <= float(p["prone_target_distance"])
            mod += int(p["prone_target_near_mod"] if near else p["prone_target_far_mod"])
        size = str(tgt[0].data["size"]) if tgt else "M"
        if size != "M" and f"size_mod_{size}" in p:
            mod += int(p[f"size_mod_{size}"])
        attacks = int(w["attacks"])
        if "Semi-Automatic" in kws and first and not reaction:
            attacks += int(p["semi_auto_first_bonus"])
        tn = int(m.data["ranged"]) + mod
        k = (w["name"], tn)
        g = groups.setdefault(
            k,
            {
                "weapon": w["name"],
                "tn": tn,
                "n": 0,
                "damage": int(w["damage"]),
                "pen": int(w["pen"]),
                "blast": int(w.get("blast", 0)),
                "models": 0,
            },
        )
        groups[k] = {**g, "n": g["n"] + attacks, "models": g["models"] + 1}
    return list(groups.values())


# ------------------------------------------------------------------------------------------- fighting
def fighters(state: GameState, uid: str, enemy: str) -> list[Model]:
    """Models that fight (seed 002, The Fight Process): within their unit's coherency or in base contact."""
    bad = set(out_of_coherency(state, uid))
    return [m for m in members(state, uid) if m.id not in bad or in_contact(state, m, enemy)]


def melee_groups(state: GameState, uid: str, enemy: str, bonus: int) -> list[dict[str, Any]]:
    p = state.ctx.params
    routed = ustate(state, uid)["routed"]
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for m in fighters(state, uid, enemy):
        skill = int(m.data["melee"])
        if routed:
            skill = math.floor(skill * float(p["routed_melee_factor"]))
        w = m.data["melee_weapon"]
        tn = skill + bonus
        k = (tn, w["damage"], w["pen"])
        g = groups.setdefault(
            k,
            {
                "weapon": w["name"],
                "tn": tn,
                "n": 0,
                "damage": int(w["damage"]),
                "pen": int(w["pen"]),
                "blast": 0,
                "models": 0,
            },
        )
        groups[k] = {**g, "n": g["n"] + int(m.data["attacks"]), "models": g["models"] + 1}
    return [g for g in groups.values() if g["n"] > 0]


# ------------------------------------------------------------------------------------------- attacks
def push_attack(
    state: GameState,
    uid: str,
    tuid: str,
    groups: list[dict[str, Any]],
    melee: bool,
    tally: str,
    cap: int | None,
    cover_from: str | None,
) -> None:
    """Queue the groups of an attack by ``uid`` on ``tuid``; ``tally`` is the vars key counting casualties."""
    if groups:
        push(
            state,
            {
                "t": "attack",
                "unit": uid,
                "target": tuid,
                "groups": groups,
                "melee": melee,
                "tally": tally,
                "cap": cap,
                "cover_from": cover_from,
            },
        )


def auto_attack(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """Roll the next group; with several groups left (ranged), the attacking player picks the order."""
    if not members(state, step["target"]):
        return
    groups = step["groups"]
    if len(groups) > 1 and not step["melee"]:
        push(state, {**step, "t": "order", "by": state.ctx.units[step["unit"]]["side"]})
        return
    run_group(state, step, 0)


def run_group(state: GameState, step: dict[str, Any], i: int) -> None:
    groups = step["groups"]
    g = groups[i]
    rest = groups[:i] + groups[i + 1 :]
    if rest:
        push(state, {**step, "groups": rest})
    push(
        state,
        {
            "t": "hits",
            "unit": step["unit"],
            "target": step["target"],
            "g": g,
            "melee": step["melee"],
            "tally": step["tally"],
            "cap": step["cap"],
            "cover_from": step["cover_from"],
        },
    )


def order_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    return [Action("group", step["unit"], option=f"{g['weapon']} tn{g['tn']} x{g['n']}") for g in step["groups"]]


def choose_order(state: GameState, step: dict[str, Any], a: Action) -> None:
    labels = [str(x.option) for x in order_options(state, step)]
    run_group(state, step, labels.index(str(a.option)))


def resolve_hits(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """Hits: each die at or under the modified target hits (seed 002, Make Hit Rolls); Blast(X) multiplies."""
    g = step["g"]
    hits = sum(1 for v in values if succeeds(state, v, g["tn"]))
    events.append(
        DiceRolled(f"{g['weapon']} hit rolls (need {g['tn']} or less)", values, f"{hits} hit(s)", step["unit"])
    )
    if g["blast"] > 1:
        hits = min(hits * g["blast"], max(hits, len(members(state, step["target"]))))
    if not step["melee"]:
        shot = state.vars.get("shot") or {}
        state.vars["shot"] = {
            **shot,
            "hits": shot.get("hits", 0) + hits,
            "pen_hits": shot.get("pen_hits", 0) + (hits if g["pen"] > 0 else 0),
        }
    if hits == 0:
        return
    tuid = step["target"]
    if len({int(m.data["sv"]) for m in members(state, tuid)}) > 1:
        push_model_saves(state, step, hits)
        return
    push(
        state,
        {
            "t": "saves",
            "unit": step["unit"],
            "target": tuid,
            "hits": hits,
            "g": g,
            "tn": save_target(state, tuid, g["pen"], step),
            "tally": step["tally"],
            "cap": step["cap"],
        },
    )


def push_model_saves(state: GameState, step: dict[str, Any], hits: int) -> None:
    """A unit whose models have different SVs: each hit goes to a model the defender picks (leader last), and
    that model's own save is rolled for it (seed 002, Saves: 'the target number for the save is equal to the
    models save (SV) characteristic'; Piercing: Pen comes off 'each Model's SV'; Removing Casualties: the
    defender chooses)."""
    g = step["g"]
    tuid = step["target"]
    push(
        state,
        {
            "t": "damage",
            "target": tuid,
            "todo": [int(g["damage"])] * hits,
            "tally": step["tally"],
            "cap": step["cap"],
            "by": state.ctx.units[tuid]["side"],
            "save": {"pen": int(g["pen"]), "cover": save_cover(state, tuid, step)},
        },
    )


def save_cover(state: GameState, tuid: str, step: dict[str, Any]) -> int:
    """Cover for ranged attacks (prone in cover: +1 Cover); none in melee (seed 002, Saves; Go Prone)."""
    if step["melee"]:
        return 0
    shooters_left = members(state, step["unit"])
    shooter = leader_of(state, step["unit"]) or (shooters_left[0] if shooters_left else None)
    cover = unit_cover(state, tuid, shooter)
    if cover > 0 and ustate(state, tuid)["prone"]:
        cover += int(state.ctx.params["prone_cover_bonus"])
    return cover


def save_target(state: GameState, tuid: str, pen: int, step: dict[str, Any]) -> int:
    """SV minus Pen, plus Cover (:func:`save_cover`) (seed 002, Saves); the models of the unit share one SV here
    (else :func:`push_model_saves`)."""
    ms = members(state, tuid)
    sv = int(ms[0].data["sv"]) if ms else 0
    return sv - pen + save_cover(state, tuid, step)


def resolve_saves(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """hits x damage save dice; each failure is 1 damage of that attack (seed 002, Saves)."""
    dmg = step["g"]["damage"]
    per_attack = []
    for i in range(step["hits"]):
        chunk = values[i * dmg : (i + 1) * dmg]
        per_attack.append(sum(1 for v in chunk if not succeeds(state, v, step["tn"])))
    failed = sum(per_attack)
    events.append(DiceRolled(f"saves (need {step['tn']} or less)", values, f"{failed} failed", step["target"]))
    todo = [d for d in per_attack if d > 0]
    if todo:
        push(
            state,
            {
                "t": "damage",
                "target": step["target"],
                "todo": todo,
                "tally": step["tally"],
                "cap": step["cap"],
                "by": state.ctx.units[step["target"]]["side"],
            },
        )


def damage_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    """The defender picks the model that takes the next attack's damage (seed 002, Removing Casualties: the
    defending player chooses; unit leaders are removed last if possible)."""
    tuid = step["target"]
    ms = members(state, tuid)
    lead = leader_of(state, tuid)
    pool = [m for m in ms if lead is None or m.id != lead.id] or ms
    hurt = [m for m in pool if m.token("damage") > 0]
    return [Action("wound", m.id) for m in (hurt + [m for m in pool if m not in hurt])]


def take_attack(state: GameState, step: dict[str, Any], mid: str, events: list[Event]) -> None:
    """The next attack goes to model ``mid``: its damage at once when the saves were rolled for the unit, else
    first the model's own save (``msave``, :func:`push_model_saves`)."""
    if "save" not in step:
        apply_damage(state, step, mid, events)
        return
    m = state.models[mid]
    tn = int(m.data["sv"]) - int(step["save"]["pen"]) + int(step["save"]["cover"])
    push(state, {**step, "t": "msave", "model": mid, "tn": tn, "n": int(step["todo"][0])})


def resolve_model_save(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """One attack's saves at the chosen model's own target; each failure is 1 damage to it (seed 002, Saves)."""
    failed = sum(1 for v in values if not succeeds(state, v, step["tn"]))
    mid = step["model"]
    events.append(DiceRolled(f"{mid} saves (need {step['tn']} or less)", values, f"{failed} failed", step["target"]))
    rest = {k: v for k, v in step.items() if k not in ("model", "tn", "n")}
    todo = list(step["todo"])
    if failed > 0:
        apply_damage(state, {**rest, "t": "damage", "todo": [failed, *todo[1:]]}, mid, events)
    elif len(todo) > 1 and members(state, step["target"]):
        push(state, {**rest, "t": "damage", "todo": todo[1:]})


def apply_damage(state: GameState, step: dict[str, Any], mid: str, events: list[Event]) -> None:
    """One attack's damage goes to one model; what a dead model cannot take falls off (seed 002, Saves: damage
    never carries over). The casualty cap (visible models) stops further removals (seed 002)."""
    m = state.models[mid]
    todo = list(step["todo"])
    dmg = todo.pop(0)
    left = int(m.data["hp"]) - m.token("damage")
    take = min(dmg, left)
    tally = state.vars.get(step["tally"]) or {}
    kills = int(tally.get("kills", 0))
    if take >= left:
        remove(state, m, "casualty", events)
        kills += 1
        state.vars[step["tally"]] = {**tally, "kills": kills}
    else:
        m.tokens = {**m.tokens, "damage": m.token("damage") + take}
        events.append(TokensChanged(m.id, "damage", take, m.token("damage")))
    capped = step["cap"] is not None and kills >= step["cap"]
    if capped and todo:
        events.append(Note(f"casualty cap reached: no more than {step['cap']} visible models", f"{R}/shoot/cap"))
    if todo and not capped and members(state, step["target"]):
        push(state, {**step, "t": "damage", "todo": todo})


def auto_damage(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    opts = damage_options(state, step)
    if not opts:
        return
    if len(opts) == 1:
        take_attack(state, step, str(opts[0].model), events)
    else:
        push(state, {**step, "t": "wound"})


def remove(state: GameState, m: Model, reason: str, events: list[Event]) -> None:
    m.on_table = False
    m.flags = {**m.flags, "dead": True}
    events.append(Removed(m.id, reason))


# ------------------------------------------------------------------------------------------- pins and Leadership
def add_pins(state: GameState, uid: str, n: int, events: list[Event]) -> None:
    """Pins (digest §3.7): capped; a unit with pins at least its unmodified Leadership is Routed; a pinned unit
    goes prone (param ``pin_forces_prone``; never a VEHICLE)."""
    p = state.ctx.params
    if n <= 0 or not members(state, uid):
        return
    u = ustate(state, uid)
    pins = min(int(p["pin_cap"]), u["pins"] + n)
    set_unit(state, uid, pins=pins)
    events.append(TokensChanged(uid, "pin", pins - u["pins"], pins))
    if p["pin_forces_prone"] and not is_vehicle(state, uid) and not u["prone"]:
        set_unit(state, uid, prone=True, prone_by_pin=True)
        events.append(StatusChanged(uid, "prone (pinned)", True))
    if pins >= leadership_base(state, uid) and not is_vehicle(state, uid):
        rout(state, uid, events)


def leadership_base(state: GameState, uid: str) -> int:
    ms = members(state, uid)
    lead = leader_of(state, uid) or (ms[0] if ms else None)
    return int(lead.data["leadership"]) if lead else 0


def leadership_target(state: GameState, uid: str, extra: int) -> int:
    """Leadership minus 1 per pin, minus the leaderless penalty, minus ``extra`` (digest §3.7)."""
    p = state.ctx.params
    u = ustate(state, uid)
    tn = leadership_base(state, uid) - int(p["pin_leadership_mod"]) * int(u["pins"]) - extra
    if u.get("leaderless"):
        tn -= int(p["leaderless_mod"])
    return tn


def push_leadership(state: GameState, uid: str, why: str, extra: int, flee_from: str | None = None) -> None:
    """A Leadership check; ``flee_from``: the unit that won the Fight this check is for (a fail then flees)."""
    step = {"t": "ld", "unit": uid, "why": why, "tn": leadership_target(state, uid, extra)}
    push(state, {**step, "flee_from": flee_from} if flee_from else step)


def resolve_leadership(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    uid = step["unit"]
    ok = succeeds(state, values[0], step["tn"])
    events.append(
        DiceRolled(
            f"{step['why']} Leadership check (need {step['tn']} or less)", values, "passed" if ok else "failed", uid
        )
    )
    if not ok and members(state, uid):
        if is_vehicle(state, uid):
            set_unit(state, uid, shaken=int(state.ctx.params["vehicle_shaken_actions"]))
            events.append(StatusChanged(uid, "Shaken", True))
        else:
            rout(state, uid, events)
            flee_after_fight(state, step, events)


def flee_after_fight(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """Digest §3.9: the loser of a Fight that fails its Leadership is Routed and makes a full Move away (param
    ``fight_loss_flee``: 'away' from the winner, to its own 'edge', or 'none'); seed 002 has the winner Shift
    first, so the flee comes after the Shift."""
    mode = str(state.ctx.params["fight_loss_flee"])
    if not step.get("flee_from") or mode == "none":
        return
    push(state, {"t": "flee", "unit": step["unit"], "away": step["flee_from"] if mode == "away" else None})


def rout(state: GameState, uid: str, events: list[Event]) -> None:
    """Routed, and treated as pinned (seed 002, Resolving the Fight Action)."""
    u = ustate(state, uid)
    if u["routed"]:
        return
    set_unit(state, uid, routed=True, overwatch=False, pins=max(1, u["pins"]))
    events.append(StatusChanged(uid, "Routed", True))


def casualty_checks(state: GameState, uid: str, events: list[Event]) -> None:
    """After casualties: loss of the leader (a new coherency leader, seed 002, Unit Coherency; the LOSS OF
    LEADER test, digest §3.7) and the first drop to half strength (digest §3.7)."""
    p = state.ctx.params
    ms = members(state, uid)
    if not ms:
        return
    u = ustate(state, uid)
    if u["leader"] is not None and not state.models[u["leader"]].on_table:
        set_unit(state, uid, leaderless=True)
        events.append(Note(f"{uid} lost its leader", f"{R}/coherency/loss-of-leader"))
        push_leadership(state, uid, "loss of leader", int(p["loss_of_leader_mod"]))
        if len(ms) == 1:
            set_unit(state, uid, leader=ms[0].id)
        else:
            set_unit(state, uid, leader=None)
            push(state, {"t": "leader", "unit": uid, "by": state.ctx.units[uid]["side"]})
    if p["half_strength_test"] and not u["half_tested"] and len(ms) * 2 <= u["start"] and u["start"] > 1:
        set_unit(state, uid, half_tested=True)
        push_leadership(state, uid, "half strength", 0)


def leader_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    return [Action("lead", m.id) for m in members(state, step["unit"])]


def strongest_size(state: GameState, uid: str) -> int:
    return max((size_rank(m) for m in members(state, uid)), default=0)
