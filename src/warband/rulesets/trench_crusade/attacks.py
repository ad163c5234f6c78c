"""Ranged and melee attacks, Injury Rolls, Blood markers, Down and Out of Action (seed 000 §Success Rolls for
the hit and the critical; digest §4 Ranged attack, §5 Melee attack, §6 Injuries, markers and states, §9 keywords).

An attack is a chain of steps on the state's stack::

    attack (auto) -> [spend-hit: the opponent spends the attacker's Blood] -> hit roll (chance)
      -> for each model hit: injury (auto) -> [spend-injury: Blood or a Bloodbath] -> injury roll (chance)
"""

from __future__ import annotations

import math
from typing import Any

from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, Removed, StatusChanged, TokensChanged
from warband.kernel.state import GameState, Model
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.space import cover_piece, elevated_over, gap, visible

R = "trench-crusade"


def _rules() -> Any:
    from warband.rulesets.trench_crusade import rules

    return rules


# ------------------------------------------------------------------------------------------- markers and states
def add_blood(state: GameState, m: Model, delta: int, events: list[Event]) -> None:
    """Blood markers: at most ``blood_max`` per model (digest §6)."""
    before = m.token("blood")
    after = max(0, min(int(state.ctx.params["blood_max"]), before + delta))
    if after != before:
        m.tokens["blood"] = after
        events.append(TokensChanged(m.id, "Blood", after - before, after))


def make_down(state: GameState, m: Model, events: list[Event]) -> None:
    """Down (digest §6): -1 DICE, cannot move except by falling; a model's own activation ends if it goes Down."""
    if not m.flags.get("down"):
        m.flags["down"] = True
        events.append(StatusChanged(m.id, "Down", True))
    if state.vars.get("active") == m.id:
        state.vars["end_now"] = True


def take_out(state: GameState, m: Model, attacker: Model | None, events: list[Event]) -> None:
    """Out of Action: removed from the table (digest §6)."""
    m.on_table = False
    m.flags["out"] = True
    m.flags.pop("down", None)
    events.append(Removed(m.id, "Out of Action"))
    if attacker is not None:
        attacker.flags["kills"] = int(attacker.flags.get("kills", 0)) + 1
        m.flags["taken_out_by"] = attacker.id
    if state.vars.get("active") == m.id:
        state.vars["end_now"] = True
    from warband.rulesets.trench_crusade import morale

    morale.check_wipe(state, events)


# ------------------------------------------------------------------------------------------- declaring attacks
def begin_shoot(state: GameState, m: Model, t: Model, w: dict[str, Any], events: list[Event]) -> None:
    """A Ranged Attack; AUTOMATIC X makes X attacks at targets within ``automatic_spread`` of the first."""
    shots = int(w["values"].get("AUTOMATIC", 1)) if "AUTOMATIC" in w["keywords"] else 1
    if shots > 1:
        push(state, {"t": "auto-next", "att": m.id, "first": t.id, "w": w["name"], "more": shots - 1})
    push(state, attack_step(m, t, w["name"], "ranged", False, True))


def begin_fight(state: GameState, m: Model, t: Model, wname: str, events: list[Event]) -> None:
    """A Melee Attack: CLEAVE X makes X attacks; a second melee weapon adds one off-hand attack (digest §5)."""
    rules = _rules()
    w = rules.weapon_named(m, wname, "melee")
    count = int(w["values"].get("CLEAVE", 1)) if "CLEAVE" in w["keywords"] else 1
    others = [x for x in rules.weapons(m, "melee") if x is not w]
    steps = [attack_step(m, t, w["name"], "melee", False, True) for _ in range(count)]
    if others:
        steps.append(attack_step(m, t, others[0]["name"], "melee", True, True))
    for s in reversed(steps):
        push(state, s)


def begin_melee_attack(
    state: GameState, e: Model, t: Model, wname: str, events: list[Event], own_activation: bool
) -> None:
    """One Melee Attack with one weapon (the strike against a Retreating model, digest §7)."""
    push(state, attack_step(e, t, wname, "melee", False, own_activation))


def attack_step(m: Model, t: Model, wname: str, mode: str, offhand: bool, own: bool) -> dict[str, Any]:
    return {"t": "attack", "att": m.id, "tgt": t.id, "w": wname, "mode": mode, "offhand": offhand, "own": own}


def push(state: GameState, step: dict[str, Any]) -> None:
    state.stack = [*state.stack, step]


# ------------------------------------------------------------------------------------------- the hit roll
def attack_dice(
    state: GameState, m: Model, t: Model, w: dict[str, Any], mode: str, offhand: bool
) -> tuple[int, int, list[str]]:
    """(+DICE, -DICE, reasons) of an attack's Success Roll (digest §4 Modifiers, §5 -1/+1 DICE)."""
    p = state.ctx.params
    mods: list[tuple[int, str]] = [(int(m.data[mode]), f"{mode} characteristic"), (int(w["dice"]), w["name"])]
    if m.flags.get("down"):
        mods.append((int(p["down_dice"]), "attacker is Down"))
    kws = w["keywords"]
    if mode == "ranged":
        if long_range(state, m, t, w) and "SHOTGUN" not in kws:
            mods.append((int(p["long_range_dice"]), "long range"))
        if "IGNORE COVER" not in kws and "GRENADE" not in kws and cover_piece(state.ctx, m, t) is not None:
            mods.append((int(p["cover_dice"]), "target in cover"))
        if elevated_over(state.ctx, m, t):
            mods.append((int(p["elevation_dice"]), "elevated"))
    else:
        if offhand:
            mods.append((int(p["offhand_dice"]), "off-hand weapon"))
        tk = t.data["keywords"]
        mk = m.data["keywords"]
        if "FEAR" in tk and "FEAR" not in mk and "NEGATE FEAR" not in mk:
            mods.append((int(p["fear_dice"]), "target causes FEAR"))
        if cover_piece(state.ctx, m, t) is not None:
            mods.append((int(p["defended_obstacle_dice"]), "defended obstacle"))
        if m.flags.get("dive"):
            mods.append((int(p["dive_dice"]), "diving charge"))
        if m.flags.get("charged_turn") == state.turn and any(
            "BLOCK" in x["keywords"] for x in t.data["weapons"] if "melee" in x["modes"]
        ):
            mods.append((int(p["block_dice"]), "target has BLOCK against a charger"))
    plus = sum(v for v, _ in mods if v > 0)
    minus = -sum(v for v, _ in mods if v < 0)
    return plus, minus, [f"{'+' if v > 0 else ''}{v} {why}" for v, why in mods if v]


def long_range(state: GameState, m: Model, t: Model, w: dict[str, Any]) -> bool:
    """More than ``long_range_fraction`` of the weapon's range away (digest §4); grenades ignore it."""
    kws = w["keywords"]
    if "IGNORE LONG RANGE" in kws or "GRENADE" in kws:
        return False
    return gap(m, t) > float(w["range"] or 0) * float(state.ctx.params["long_range_fraction"]) + 1e-9


def auto_attack(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    rules = _rules()
    m = state.models[step["att"]]
    t = state.models[step["tgt"]]
    if not m.on_table or not t.on_table:
        events.append(Note(f"{m.id}'s attack on {t.id} is lost: a model is no longer on the table", ""))
        return
    w = rules.weapon_named(m, step["w"], step["mode"])
    if step["mode"] == "ranged" and not step.get("deflect_done"):
        friends = [
            f
            for f in state.models.values()
            if f.on_table
            and f.side == m.side
            and f is not m
            and gap(f, t) <= state.ctx.params["engagement_range"] + 1e-9
        ]
        if friends:
            friend = min(friends, key=lambda f: (gap(f, t), f.id))
            push(state, {**step, "deflect_done": True})
            push(state, {"t": "roll", "k": "deflect", "model": m.id, "friend": friend.id})
            return
    if step["mode"] == "ranged" and "SHOTGUN" in w["keywords"] and long_range(state, m, t, w):
        step = {**step, "inj_minus": 1}  # digest §9 SHOTGUN: -1 INJURY DICE instead of -1 DICE at long range
    if "FLAMETHROWER" in w["keywords"]:
        events.append(Note(f"{m.id}'s {w['name']} hits {t.id} automatically", f"{R}/keyword/flamethrower"))
        after_hit_roll(state, {"payload": step}, "success", events)
        return
    plus, minus, why = attack_dice(state, m, t, w, step["mode"], step["offhand"])
    if step["mode"] == "melee":
        m.flags.pop("dive", None)
    events.append(Note(f"{m.id} attacks {t.id} with {w['name']} ({', '.join(why) or 'no modifiers'})", ""))
    rules.push_success(state, m.id, "attack", plus, minus, "RISKY" in w["keywords"], step, step["own"])


def resolve_deflect(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """Shooting into melee (digest §4): on 1-3 the shot must target the friend (lost if it cannot be)."""
    p = state.ctx.params
    attack = state.stack[-1]
    if values[0] > p["into_melee_redirect_max"]:
        events.append(DiceRolled("shooting into melee", values, "the shot goes at the enemy", step["model"]))
        return
    rules = _rules()
    m = state.models[step["model"]]
    f = state.models[step["friend"]]
    w = rules.weapon_named(m, attack["w"], "ranged")
    ok = visible(state.ctx, m, f) and gap(m, f) <= float(w["range"] or 0) + 1e-9
    events.append(
        DiceRolled(
            "shooting into melee",
            values,
            f"the shot must target {f.id}" + ("" if ok else ": it cannot, so the shot is lost"),
            step["model"],
        )
    )
    state.stack = state.stack[:-1]
    if ok:
        push(state, {**attack, "tgt": f.id})


def after_hit_roll(state: GameState, roll_step: dict[str, Any], result: str, events: list[Event]) -> None:
    """A hit wounds: every model hit takes an Injury Roll; a critical adds INJURY DICE (seed 000; §9 CRITICAL,
    BLAST)."""
    if result == "failure":
        return
    rules = _rules()
    p = state.ctx.params
    step = roll_step["payload"]
    m = state.models[step["att"]]
    t = state.models[step["tgt"]]
    w = rules.weapon_named(m, step["w"], step["mode"])
    crit = 0
    if result == "critical":
        crit = int(p["critical_keyword_injury_dice"] if "CRITICAL" in w["keywords"] else p["critical_injury_dice"])
    victims = [t]
    if "BLAST" in w["keywords"]:
        radius = float(w["values"].get("BLAST", 0))
        centre = (t.x, t.y)
        for o in state.models.values():
            if o is t or not o.on_table or o is m:
                continue
            near = math.hypot(o.x - t.x, o.y - t.y) - o.radius <= radius + 1e-9
            if near and state.ctx.table.line_of_sight(centre, t.z + 0.5, (o.x, o.y), o.z + 0.5 * o.height):
                victims.append(o)
        events.append(Note(f'BLAST {radius:g}": {", ".join(v.id for v in victims)} hit', f"{R}/keyword/blast"))
    for v in reversed(victims):
        push(
            state,
            {
                "t": "injury",
                "att": m.id,
                "victim": v.id,
                "w": w["name"],
                "mode": step["mode"],
                "crit": crit,
                "inj_minus": int(step.get("inj_minus", 0)),
            },
        )


# ------------------------------------------------------------------------------------------- auto targets
def auto_next(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    if step["more"] <= 0:
        return
    opts = auto_target_options(state, step)
    if not opts:
        events.append(Note("AUTOMATIC: no target left within reach", f"{R}/keyword/automatic"))
        return
    if len(opts) == 1:
        choose_auto_target(state, step, opts[0], events)
        return
    push(state, {**step, "t": "auto-target", "by": state.models[step["att"]].side, "model": step["att"]})


def auto_target_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    """AUTOMATIC X (digest §9): the next target is within ``automatic_spread`` of the first target."""
    rules = _rules()
    m = state.models[step["att"]]
    first = state.models[step["first"]]
    w = rules.weapon_named(m, step["w"], "ranged")
    if not m.on_table:
        return []
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


def choose_auto_target(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    m = state.models[step["att"]]
    t = state.models[a.target or ""]
    nxt = {k: v for k, v in step.items() if k not in ("by", "model")}
    nxt.update({"t": "auto-next", "more": step["more"] - 1})
    push(state, nxt)
    push(state, attack_step(m, t, step["w"], "ranged", False, True))


# ------------------------------------------------------------------------------------------- Blood spending
def spend_on_roll(state: GameState, step: dict[str, Any], k: int, events: list[Event]) -> None:
    """The opponent spends ``k`` of the model's Blood markers: -1 DICE each on this Success Roll (digest §6)."""
    if k <= 0:
        return
    m = state.models[step["model"]]
    add_blood(state, m, -k, events)
    roll = state.stack[-1]
    state.stack = [*state.stack[:-1], {**roll, "minus": roll["minus"] + k}]


def spend_injury_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    p = state.ctx.params
    v = state.models[step["model"]]
    n = v.token("blood")
    out = [Action("spend", v.id, option=str(k)) for k in range(n + 1)]
    cost = p["bloodbath_cost_down"] if v.flags.get("down") else p["bloodbath_cost"]
    if n >= cost:
        out.append(Action("bloodbath", v.id))
    return out


def spend_on_injury(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    """+1 INJURY DICE per Blood marker spent, or a Bloodbath: 3D6 all added (digest §6)."""
    p = state.ctx.params
    v = state.models[step["model"]]
    roll = state.stack[-1]
    if a.kind == "bloodbath":
        cost = int(p["bloodbath_cost_down"] if v.flags.get("down") else p["bloodbath_cost"])
        add_blood(state, v, -cost, events)
        events.append(Note(f"Bloodbath against {v.id}", f"{R}/injury/bloodbath"))
        dice = int(p["deadly_dice"] if roll.get("deadly") else p["bloodbath_dice"])
        state.stack = [*state.stack[:-1], {**roll, "all": dice}]
        return
    k = int(a.option or 0)
    if k > 0:
        add_blood(state, v, -k, events)
        state.stack = [*state.stack[:-1], {**roll, "plus": roll["plus"] + k}]


# ------------------------------------------------------------------------------------------- injuries
def push_injury(
    state: GameState, attacker: Model | None, victim: Model, info: dict[str, Any], events: list[Event]
) -> None:
    push(
        state,
        {
            "t": "injury",
            "att": attacker.id if attacker else None,
            "victim": victim.id,
            "w": None,
            "mode": None,
            "crit": 0,
            **info,
        },
    )


def push_fall(state: GameState, m: Model, drop: float, events: list[Event]) -> None:
    """Falling (digest §7): an Injury Roll with +1 INJURY DICE per full ``fall_injury_step`` inches."""
    dice = int(drop // state.ctx.params["fall_injury_step"])
    events.append(Note(f'{m.id} falls {drop:.1f}"', f"{R}/move/fall"))
    push_injury(state, None, m, {"fall": dice, "source": "fall"}, events)


def fall_from_jump(state: GameState, m: Model, dest: tuple[float, float], events: list[Event]) -> None:
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
    _rules().place(state, m, spot, table.surface_height(spot), events)
    if drop >= state.ctx.params["fall_height"] - 1e-9 and "FLYING" not in m.data["keywords"]:
        push_fall(state, m, drop, events)


def auto_injury(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    """Set up the Injury Roll: INJURY DICE from a critical, a melee hit on a Down target and falls; the
    INJURY MODIFIERS of armour and weapon, negatives capped (digest §6)."""
    rules = _rules()
    p = state.ctx.params
    v = state.models[step["victim"]]
    if not v.on_table:
        return
    att = state.models[step["att"]] if step.get("att") else None
    w = rules.weapon_named(att, step["w"], step["mode"]) if att and step.get("w") else None
    plus = int(step.get("crit", 0)) + int(step.get("fall", 0))
    if step.get("mode") == "melee" and v.flags.get("down"):
        plus += int(p["down_melee_injury_dice"])
    mods = []
    if w is None or "IGNORE ARMOUR" not in w["keywords"]:
        mods.append(int(v.data["armour"]))
    if w is not None:
        mods.append(int(w["injury_mod"]))
    modifier = tcr.injury_modifier(mods, p) if step.get("source") is None else 0
    shrapnel = bool(w is not None and any(k in w["keywords"] for k in ("SHRAPNEL", "FIRE", "GAS")))
    deadly = w is not None and "DEADLY" in w["keywords"]
    roll = {
        "t": "roll",
        "k": "injury",
        "model": v.id,
        "att": step.get("att"),
        "plus": plus,
        "minus": int(step.get("inj_minus", 0)),
        "mod": modifier,
        "all": int(p["deadly_dice"] - 1) if deadly else 0,
        "deadly": deadly,
        "shrapnel": shrapnel,
        "source": step.get("source") or (w or {}).get("name"),
    }
    push(state, roll)
    if v.token("blood") > 0:
        push(state, {"t": "spend-injury", "model": v.id, "by": 1 - v.side})


def injury_spec(step: dict[str, Any]) -> DiceSpec:
    if step["all"]:
        return DiceSpec(int(step["all"]), 6, "Bloodbath injury roll", step["model"])
    net = tcr.net_dice(step["plus"], step["minus"])
    return DiceSpec(tcr.dice_count(net), 6, "injury roll", step["model"])


def resolve_injury(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    """Apply the injury table (digest §6): minor hit +1 Blood; Down +1 Blood (+2 if already Down); Out of
    Action removes the model, except that TOUGH turns the first one into Down."""
    p = state.ctx.params
    v = state.models[step["model"]]
    net = tcr.net_dice(step["plus"], step["minus"])
    total = tcr.injury_total(values, net, step["mod"], all_dice=bool(step["all"]))
    result = tcr.injury_result(total, p)
    events.append(
        DiceRolled(
            f"injury roll ({step['source']}, {net:+d} INJURY DICE, {step['mod']:+d})",
            values,
            f"{total}: {result}",
            v.id,
        )
    )
    att = state.models[step["att"]] if step.get("att") else None
    if result == "minor":
        add_blood(state, v, 1, events)
    elif result == "down":
        add_blood(state, v, 2 if v.flags.get("down") else 1, events)
        make_down(state, v, events)
    elif result == "out":
        if "TOUGH" in v.data["keywords"] and not v.flags.get("tough_used"):
            v.flags["tough_used"] = True
            events.append(Note(f"{v.id} is TOUGH: Out of Action becomes Down", f"{R}/keyword/tough"))
            add_blood(state, v, 2 if v.flags.get("down") else 1, events)
            make_down(state, v, events)
        else:
            take_out(state, v, att, events)
    if step.get("shrapnel") and v.on_table:
        add_blood(state, v, 1, events)
