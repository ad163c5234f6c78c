"""Trench Crusade: the turn, the Activation Phase and every action of seed 000 (with 001 as an option).

The game is a small interpreter over ``state.stack``: each pending step is a JSON-native dict whose ``t`` names
it. A step is either a decision (a side chooses, or chance rolls) or automatic (it runs as soon as it is on
top). :func:`decision`, :func:`legal_actions`, :func:`why_illegal`, :func:`apply` and :func:`roll` are the
ruleset's side of the kernel protocol; attacks and injuries live in :mod:`.attacks`, morale and victory in
:mod:`.morale`.

Rule ids are ``trench-crusade/<area>/<rule>``; the clause matrix ``docs/rules/trench-crusade.md`` maps every
seed sentence to them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from warband.kernel.actions import CHANCE, CHOICE, OVER, Action, Decision, DiceSpec
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    Moved,
    Note,
    PhaseStarted,
    StatusChanged,
)
from warband.kernel.geometry import TerrainPiece, segment_point_distance
from warband.kernel.state import GameState, Model
from warband.rulesets.trench_crusade import attacks, morale
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.space import (
    MovePlan,
    away_direction,
    charge_route,
    engaged_with,
    gap,
    move_candidates,
    plan_move,
    retreat_angle_ok,
    retreat_candidates,
    standing_enemies,
    visible,
)

R = "trench-crusade"
Reason = tuple[str, str]
MOVES = ("move", "charge", "retreat")


# ------------------------------------------------------------------------------------------- helpers
def side_name(side: int) -> str:
    return "AB"[side]


def has_kw(m: Model, kw: str) -> bool:
    return kw in m.data["keywords"]


def weapons(m: Model, mode: str) -> list[dict[str, Any]]:
    return [w for w in m.data["weapons"] if mode in w["modes"]]


def weapon_named(m: Model, name: str | None, mode: str) -> dict[str, Any] | None:
    for w in weapons(m, mode):
        if w["name"] == name:
            return w
    return None


def wkw(w: dict[str, Any], kw: str) -> bool:
    return kw in w["keywords"]


def is_down(m: Model) -> bool:
    return bool(m.flags.get("down", False))


def set_flag(m: Model, key: str, value: Any) -> None:
    m.flags[key] = value


def heavy_applies(m: Model, w: dict[str, Any] | None = None) -> bool:
    """HEAVY weapons (digest §9): no charge die, no shooting and moving in one activation; STRONG negates."""
    if has_kw(m, "STRONG"):
        return False
    if w is not None:
        return wkw(w, "HEAVY")
    return any(wkw(x, "HEAVY") for x in m.data["weapons"])


def movement(state: GameState, m: Model) -> float:
    """The Movement characteristic, halved in the activation a Down model stands up (digest §6 Down)."""
    mv = float(m.data["movement"])
    return mv / 2 if m.flags.get("stood") else mv


def can_activate(m: Model) -> bool:
    return m.on_table and not m.flags.get("activated", False)


def activatable(state: GameState, side: int) -> list[Model]:
    """Models of ``side`` that may still activate this turn (seed 000: at most once per Turn)."""
    return [m for m in state.models.values() if m.side == side and can_activate(m)]


def active_model(state: GameState) -> Model | None:
    mid = state.vars.get("active")
    return state.models[mid] if mid else None


def acts(state: GameState) -> list[str]:
    return list(state.vars.get("acts", []))


def add_act(state: GameState, kind: str) -> None:
    state.vars["acts"] = [*acts(state), kind]


def push(state: GameState, step: dict[str, Any]) -> None:
    state.stack = [*state.stack, step]


def pop(state: GameState) -> dict[str, Any]:
    step = state.stack[-1]
    state.stack = state.stack[:-1]
    return step


def top(state: GameState) -> dict[str, Any] | None:
    return state.stack[-1] if state.stack else None


def replace_top(state: GameState, step: dict[str, Any]) -> None:
    state.stack = [*state.stack[:-1], step]


def place(
    state: GameState, m: Model, p: tuple[float, float], z: float, events: list[Event], travelled: float | None = None
) -> None:
    start = (m.x, m.y)
    m.x, m.y, m.z = p[0], p[1], z
    dist = travelled if travelled is not None else math.hypot(p[0] - start[0], p[1] - start[1])
    events.append(Moved(m.id, start, p, dist))


def over(state: GameState) -> bool:
    return state.phase == "over"


# ------------------------------------------------------------------------------------------- success rolls
def push_success(
    state: GameState,
    model_id: str | None,
    purpose: str,
    plus: int,
    minus: int,
    risky: bool,
    payload: dict[str, Any],
    own_activation: bool,
) -> None:
    """Queue a Success Roll (seed 000 §Success Rolls): +DICE/-DICE cancel in pairs; two dice are kept.

    If the rolling model carries Blood markers, its opponent first decides how many to spend for -1 DICE each
    (digest §6 Blood markers). A Shaken warband's rolls are all Risky (digest §1)."""
    side = state.models[model_id].side if model_id else payload.get("side", 0)
    if state.sides[side].flags.get("shaken"):
        risky = True
    step = {
        "t": "roll",
        "k": "success",
        "purpose": purpose,
        "model": model_id,
        "plus": plus,
        "minus": minus,
        "risky": risky,
        "own": own_activation,
        "payload": payload,
        "side": side,
    }
    push(state, step)
    if model_id is not None and state.models[model_id].token("blood") > 0:
        push(state, {"t": "spend-hit", "model": model_id, "by": 1 - side})


def success_spec(step: dict[str, Any]) -> DiceSpec:
    net = tcr.net_dice(step["plus"], step["minus"])
    return DiceSpec(tcr.dice_count(net), 6, f"{step['purpose']} success roll", step["model"])


def resolve_success(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    p = state.ctx.params
    net = tcr.net_dice(step["plus"], step["minus"])
    total = tcr.kept_total(values, net)
    result = tcr.success_result(total, p)
    label = f"{step['purpose']} ({'+' if net >= 0 else ''}{net} DICE{', risky' if step['risky'] else ''})"
    events.append(DiceRolled(label, values, f"{total}: {result}", step["model"]))
    ok = result != "failure"
    if not ok and step["risky"]:
        events.append(Note(f"{step['model'] or side_name(step['side'])} failed a Risky roll", f"{R}/success/risky"))
        if step["own"]:
            # seed 000: a failed Risky Success Roll ends the model's Activation at once.
            state.vars["end_now"] = True
    FOLLOW[step["purpose"]](state, step, result, events)


# ------------------------------------------------------------------------------------------- setup and turns
def start_game(state: GameState, events: list[Event]) -> None:
    state.phase = "deploy"
    state.vars.update({"zone_of": [0, 1], "vp": [0, 0], "acts": [], "active": None})
    push(state, {"t": "rolloff", "why": "deployment"})


def start_turn(state: GameState, events: list[Event]) -> None:
    """Initiative phase (digest §1): the side with fewer models holds the Initiative; a tie is a roll-off."""
    state.turn += 1
    state.phase = "initiative"
    events.append(PhaseStarted(state.turn, "Initiative"))
    for m in state.models.values():
        if m.flags.get("activated"):
            set_flag(m, "activated", False)
    counts = [initiative_count(state, s) for s in (0, 1)]
    if counts[0] != counts[1]:
        begin_activation_phase(state, 0 if counts[0] < counts[1] else 1, events)
    else:
        push(state, {"t": "rolloff", "why": "initiative"})


def initiative_count(state: GameState, side: int) -> int:
    down_counts = state.ctx.params["initiative_counts_down"]
    return sum(1 for m in state.models.values() if m.side == side and m.on_table and (down_counts or not is_down(m)))


def begin_activation_phase(state: GameState, holder: int, events: list[Event]) -> None:
    """Seed 000: the side with the Initiative activates first."""
    state.vars["initiative"] = holder
    state.vars["next_side"] = holder
    state.phase = "activation"
    events.append(Note(f"side {side_name(holder)} has the Initiative", f"{R}/turn/initiative"))
    events.append(PhaseStarted(state.turn, "Activation"))
    choose_next_side(state, holder, events)


def choose_next_side(state: GameState, preferred: int, events: list[Event]) -> None:
    """Alternate; when one side has no model left to activate the other activates all its remaining models
    one after the other; when neither has, the Morale phase follows (seed 000 §Ending the Activation Phase)."""
    if activatable(state, preferred):
        state.vars["next_side"] = preferred
    elif activatable(state, 1 - preferred):
        state.vars["next_side"] = 1 - preferred
    else:
        morale.begin_morale_phase(state, events)


def resolve_rolloff(state: GameState, step: dict[str, Any], values: tuple[int, ...], events: list[Event]) -> None:
    a, b = values
    events.append(
        DiceRolled(
            f"{step['why']} roll-off (A, B)",
            values,
            "tie: roll again" if a == b else f"side {side_name(0 if a > b else 1)} wins",
        )
    )
    if a == b:
        push(state, step)
        return
    winner = 0 if a > b else 1
    if step["why"] == "initiative":
        begin_activation_phase(state, winner, events)
    else:
        state.vars["rolloff_winner"] = winner
        push(state, {"t": "zone", "by": winner})


# ------------------------------------------------------------------------------------------- deployment
def deploy_points(state: GameState, m: Model) -> list[tuple[float, float]]:
    """Candidate spots for a model's deployment: a grid over its zone, wholly inside it (digest §1 CNL)."""
    zi = state.vars["zone_of"][m.side]
    key = ("deploy-grid", zi, m.radius)
    grid = state.ctx.memo.get(key)
    if grid is None:  # the spots where the zone and the terrain allow this base: the same all game
        zone = state.ctx.zones[zi]
        minx, miny, maxx, maxy = zone.bbox
        nx, ny = 6, 3
        grid = []
        for j in range(ny):
            for i in range(nx):
                p = (round(minx + (i + 0.5) * (maxx - minx) / nx, 2), round(miny + (j + 0.5) * (maxy - miny) / ny, 2))
                if not _zone_terrain_problems(state, m, p):
                    grid.append(p)
        state.ctx.memo[key] = grid
    return [p for p in grid if not _overlap_problems(state, m, p)]


def deploy_problems(state: GameState, m: Model, p: tuple[float, float]) -> list[Reason]:
    return _zone_terrain_problems(state, m, p) or _overlap_problems(state, m, p)


def _overlap_problems(state: GameState, m: Model, p: tuple[float, float]) -> list[Reason]:
    for o in state.models.values():
        if o.on_table and math.hypot(p[0] - o.x, p[1] - o.y) < m.radius + o.radius - 1e-6:
            return [(f"{R}/deploy/overlap", f"{m.id} would overlap {o.id}")]
    return []


def _zone_terrain_problems(state: GameState, m: Model, p: tuple[float, float]) -> list[Reason]:
    zone = state.ctx.zones[state.vars["zone_of"][m.side]]
    out: list[Reason] = []
    if not (zone.contains(p) and inset(zone, p) >= m.radius - 1e-9):
        out.append((f"{R}/deploy/zone", f"{m.id} must be placed wholly inside its deployment zone"))
        return out
    for piece in state.ctx.table.terrain:
        if piece.kind in ("impassable", "blocking", "dangerous") and piece.circle_overlaps(p, m.radius):
            out.append((f"{R}/deploy/terrain", f"{m.id} cannot be placed in {piece.kind} terrain {piece.id}"))
            return out
    return out


def inset(zone: TerrainPiece, p: tuple[float, float]) -> float:
    """Distance from a point inside a zone to the zone's boundary."""
    poly = zone.polygon
    return min(segment_point_distance(poly[i], poly[(i + 1) % len(poly)], p) for i in range(len(poly)))


def undeployed(state: GameState, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.side == side and not m.on_table and not m.flags.get("out")]


def next_deployer(state: GameState, last: int | None) -> int | None:
    if last is None:
        counts = [len(undeployed(state, s)) for s in (0, 1)]
        if counts[0] != counts[1]:
            return 0 if counts[0] > counts[1] else 1
        return int(state.vars.get("rolloff_winner", 0))
    for s in (1 - last, last):
        if undeployed(state, s):
            return s
    return None


# ------------------------------------------------------------------------------------------- activation
def begin_activation(state: GameState, m: Model, events: list[Event]) -> None:
    """Activate ``m``: a Down model stands (digest §6: Movement halved this activation); a model standing
    in dangerous terrain takes a Risky roll (digest §7)."""
    state.vars.update({"active": m.id, "acts": [], "shot_with": [], "end_now": False, "charged": None})
    events.append(Activated(m.id, m.side))
    if is_down(m):
        set_flag(m, "down", False)
        set_flag(m, "stood", True)
        events.append(StatusChanged(m.id, "Down", False))
        events.append(Note(f"{m.id} stands up: Movement halved this activation", f"{R}/down/stand"))
    if in_dangerous(state, (m.x, m.y)):
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, {}, True)


def in_dangerous(state: GameState, p: tuple[float, float]) -> bool:
    return any(x.kind == "dangerous" for x in state.ctx.table.pieces_at(p))


def model_dice(state: GameState, m: Model) -> tuple[int, int]:
    """(+DICE, -DICE) every Success Roll of ``m`` carries: -1 DICE while Down (digest §6)."""
    return (0, -state.ctx.params["down_dice"] if is_down(m) else 0)


def end_activation(state: GameState, events: list[Event]) -> None:
    m = active_model(state)
    if m is not None:
        set_flag(m, "activated", True)
        m.flags.pop("stood", None)
        m.flags.pop("dive", None)
        events.append(Note(f"{m.id}'s activation ends", f"{R}/activation/end"))
        side = m.side
    else:
        side = state.vars["next_side"]
    state.vars.update({"active": None, "acts": [], "shot_with": [], "end_now": False, "charged": None})
    if not over(state):
        choose_next_side(state, 1 - side, events)


# ------------------------------------------------------------------------------------------- the action menu
def _tries(state: GameState, m: Model, eng: list[Model], only_legal: bool) -> Iterator[Action]:
    enemies = standing_enemies(state, m)
    for kind in ("move", "dash", "retreat"):
        yield Action(kind, m.id)
    for e in enemies:
        yield Action("charge", m.id, e.id)
    for w in weapons(m, "ranged"):
        for e in enemies:
            yield Action("shoot", m.id, e.id, option=w["name"])
    for w in weapons(m, "melee"):
        for e in eng if only_legal else enemies:
            yield Action("fight", m.id, e.id, option=w["name"])
    if has_kw(m, "MEDIC") or not only_legal:
        for f in state.models.values():
            if f.side == m.side and f.on_table:
                yield Action("tend", m.id, f.id)


def menu(state: GameState, m: Model, only_legal: bool = True) -> list[Action]:
    """Every legal action for the active model, in a fixed order (``only_legal=False``: every action the
    model might try, legal or not, for explanations)."""
    eng = engaged_with(state, m)
    out = [a for a in _tries(state, m, eng, only_legal) if not only_legal or _legal(state, m, a, eng)]
    out.append(Action("end", m.id))
    return out


def _legal(state: GameState, m: Model, a: Action, eng: list[Model]) -> bool:
    """``not action_reasons(...)``, with the commonest refusal (a target out of reach) tested first and cheaply."""
    if a.target is not None and a.kind in ("charge", "shoot"):
        t = state.models[a.target]
        if a.kind == "charge":
            reach = float(state.ctx.params["charge_range"])
        else:
            w = weapon_named(m, a.option, "ranged")
            reach = float(w["range"] or 0.0) if w is not None else -1.0
        if gap(m, t) > reach + 1e-9:
            return False
    return not action_reasons(state, m, a, eng)


def has_action(state: GameState, m: Model) -> bool:
    """Whether the active model has any legal action besides ending its activation (stops at the first)."""
    eng = engaged_with(state, m)
    return any(_legal(state, m, a, eng) for a in _tries(state, m, eng, True))


def all_actions(state: GameState) -> list[Action]:
    """What a player might try now, legal or not (the action menu unfiltered)."""
    step = top(state)
    m = active_model(state)
    if step is None and state.phase == "activation":
        if m is None:
            return [Action("activate", x.id) for x in state.models.values()]
        return menu(state, m, only_legal=False)
    return legal_actions(state)


def action_reasons(state: GameState, m: Model, a: Action, eng: list[Model] | None = None) -> list[Reason]:
    """Every rule of seed 000 (and 001 as the ``shoot_restriction`` option) that forbids ``a`` now."""
    done = acts(state)
    out: list[Reason] = []
    if a.kind != "end" and a.kind in done:
        out.append(
            (f"{R}/activation/once-each", f"{a.kind} was already taken this activation (each action at most once)")
        )
    if a.kind in MOVES:
        used = [k for k in MOVES if k in done]
        if used:
            out.append(
                (
                    f"{R}/activation/one-move",
                    f"already took a {used[0].title()} this activation: only one of Move, Charge or Retreat",
                )
            )
    check = CHECKS.get(a.kind)
    if check is None and a.kind != "end":
        out.append((f"{R}/activation/unknown", f"{a.kind!r} is not an action of this game"))
    elif check is not None:
        out.extend(check(state, m, a, engaged_with(state, m) if eng is None else eng))
    return out


def _check_move(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    if a.target is not None or a.option is not None or a.point is not None:
        return [(f"{R}/activation/syntax", "declare 'move MODEL', then give the destination")]
    return []


def _check_dash(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    return _check_move(state, m, a, eng)


def _check_retreat(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    if not eng:
        return [(f"{R}/retreat/not-engaged", 'a Retreat is only for a model within 1" of an enemy')]
    return []


def _check_charge(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    p = state.ctx.params
    out: list[Reason] = []
    t = state.models.get(a.target or "")
    if t is None or not t.on_table or t.side == m.side:
        return [(f"{R}/charge/target", f"{a.target} is not an enemy model on the table")]
    if eng:
        out.append(
            (f"{R}/charge/engaged", 'a model already within 1" of an enemy cannot Charge (it may Fight or Retreat)')
        )
    if gap(m, t) > p["charge_range"] + 1e-9:
        out.append(
            (f"{R}/charge/range", f'{t.id} is {gap(m, t):.1f}" away: the target must be within {p["charge_range"]:g}"')
        )
    if not visible(state.ctx, m, t):
        out.append((f"{R}/charge/visible", f"{t.id} is not visible to {m.id}"))
    if any(not_assault(m, w) for w in state.vars.get("shot_with", [])):
        out.append(
            (
                f"{R}/activation/shoot-then-charge",
                "this model has Shot with a weapon without ASSAULT this activation, so it cannot Charge",
            )
        )
    return out


def not_assault(m: Model, wname: str) -> bool:
    w = weapon_named(m, wname, "ranged")
    return w is None or not wkw(w, "ASSAULT")


def _check_shoot(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    p = state.ctx.params
    out: list[Reason] = []
    w = weapon_named(m, a.option, "ranged")
    if w is None:
        names = [x["name"] for x in weapons(m, "ranged")]
        return [(f"{R}/shoot/weapon", f"{m.id} has no ranged weapon {a.option!r} (has {names or 'none'})")]
    t = state.models.get(a.target or "")
    if t is None or not t.on_table or t.side == m.side:
        return [(f"{R}/shoot/target", f"{a.target} is not an enemy model on the table")]
    if eng:
        out.append((f"{R}/shoot/engaged", 'a model within 1" of an enemy cannot Shoot'))
    done = acts(state)
    if not wkw(w, "ASSAULT"):
        if "charge" in done:
            out.append(
                (
                    f"{R}/activation/shoot-after-charge",
                    "this model Charged this activation: it may only Shoot with an ASSAULT weapon",
                )
            )
        if "fight" in done and p["shoot_restriction"] == "000":
            out.append(
                (
                    f"{R}/activation/shoot-after-fight",
                    "this model Fought this activation: it may only Shoot with an ASSAULT weapon (seed 000)",
                )
            )
    if heavy_applies(m, w) and any(k in done for k in (*MOVES, "dash")):
        out.append((f"{R}/keyword/heavy", f"{w['name']} is HEAVY: no Shoot in an activation with a move"))
    rng = w["range"] or 0.0
    d = gap(m, t)
    if d > rng + 1e-9:
        out.append((f"{R}/shoot/range", f'{t.id} is {d:.1f}" away, beyond {w["name"]}\'s {rng:g}"'))
    if not visible(state.ctx, m, t):
        out.append((f"{R}/shoot/visible", f"{t.id} is not in line of sight of {m.id}"))
    return out


def _check_fight(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    p = state.ctx.params
    out: list[Reason] = []
    w = weapon_named(m, a.option, "melee")
    if w is None:
        names = [x["name"] for x in weapons(m, "melee")]
        return [(f"{R}/fight/weapon", f"{m.id} has no melee weapon {a.option!r} (has {names or 'none'})")]
    t = state.models.get(a.target or "")
    if t is None or not t.on_table or t.side == m.side:
        return [(f"{R}/fight/target", f"{a.target} is not an enemy model on the table")]
    if gap(m, t) > p["engagement_range"] + 1e-9:
        out.append((f"{R}/fight/range", f'{t.id} is not within 1" of {m.id}'))
    elif not visible(state.ctx, m, t):
        out.append((f"{R}/fight/visible", f"{t.id} is not in line of sight of {m.id}"))
    if p["shoot_restriction"] == "000" and any(not_assault(m, x) for x in state.vars.get("shot_with", [])):
        out.append(
            (
                f"{R}/activation/shoot-then-fight",
                "this model has Shot with a weapon without ASSAULT this activation, so it cannot Fight (seed 000)",
            )
        )
    return out


def _check_tend(state: GameState, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    f = state.models.get(a.target or "")
    if not has_kw(m, "MEDIC"):
        return [(f"{R}/other/tend", f"{m.id} has no 'Tend Wounds' action (needs MEDIC)")]
    if f is None or not f.on_table or f.side != m.side:
        return [(f"{R}/other/tend", f"{a.target} is not a friendly model on the table")]
    if f.token("blood") == 0:
        return [(f"{R}/other/tend", f"{f.id} has no Blood markers to remove")]
    if f is not m and gap(m, f) > state.ctx.params["engagement_range"] + 1e-9:
        return [(f"{R}/other/tend", f'{f.id} is not within 1" of {m.id}')]
    return []


CHECKS = {
    "move": _check_move,
    "dash": _check_dash,
    "retreat": _check_retreat,
    "charge": _check_charge,
    "shoot": _check_shoot,
    "fight": _check_fight,
    "tend": _check_tend,
}


# ------------------------------------------------------------------------------------------- doing actions
def do_action(state: GameState, m: Model, a: Action, events: list[Event]) -> None:
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        state.vars["end_now"] = True
        return
    add_act(state, a.kind)
    if a.kind == "move":
        push(state, {"t": "dest", "model": m.id, "mode": "move", "allow": movement(state, m)})
    elif a.kind == "dash":
        # seed 000 Dash: a Risky Success Roll first; success allows a Move (never a Charge or Retreat).
        push_success(state, m.id, "dash", *model_dice(state, m), True, {}, True)
    elif a.kind == "retreat":
        begin_retreat(state, m, events)
    elif a.kind == "charge":
        begin_charge(state, m, state.models[a.target or ""], events)
    elif a.kind == "shoot":
        w = weapon_named(m, a.option, "ranged")
        assert w is not None
        state.vars["shot_with"] = [*state.vars.get("shot_with", []), w["name"]]
        attacks.begin_shoot(state, m, state.models[a.target or ""], w, events)
        if wkw(w, "RELOAD"):
            push(state, {"t": "end-after", "why": "RELOAD"})
    elif a.kind == "fight":
        attacks.begin_fight(state, m, state.models[a.target or ""], a.option or "", events)
    elif a.kind == "tend":
        f = state.models[a.target or ""]
        attacks.add_blood(state, f, -int(state.ctx.params["medic_heal"]), events)


def begin_retreat(state: GameState, m: Model, events: list[Event]) -> None:
    """Seed 000 Retreat: each enemy within 1" makes a Melee Attack first (digest §7: one attack, one weapon);
    if the model is taken Down or Out of Action it is not moved; else it moves directly away."""
    away = away_direction(state, m)
    push(state, {"t": "retreat-move", "model": m.id, "away": list(away)})
    for e in reversed(engaged_with(state, m)):
        arms = weapons(e, "melee")
        if len(arms) == 1:
            attacks.begin_melee_attack(state, e, m, arms[0]["name"], events, own_activation=False)
        elif arms:  # the opponent picks the one weapon it strikes with
            push(state, {"t": "strike", "model": e.id, "target": m.id, "by": e.side})


def begin_charge(state: GameState, m: Model, t: Model, events: list[Event]) -> None:
    """Seed 000 Charge: roll a die, add Movement, move toward the target (HEAVY: no die, digest §9)."""
    state.vars["charged"] = t.id
    set_flag(m, "charged_turn", state.turn)
    free = state.ctx.params["obstacle_free_height"]
    if t.z - m.z > free + 1e-9:
        # The route ends in a sheer climb: seed 000 Move: a Risky roll first.
        push(state, {"t": "charge-go", "model": m.id, "target": t.id, "die": None})
        push_success(state, m.id, "climb", *model_dice(state, m), True, {"charge": t.id}, True)
        return
    push_charge_die(state, m, t)


def push_charge_die(state: GameState, m: Model, t: Model) -> None:
    if heavy_applies(m):
        push(state, {"t": "charge-go", "model": m.id, "target": t.id, "die": 0})
    else:
        push(
            state,
            {"t": "roll", "k": "charge", "model": m.id, "target": t.id, "sides": state.ctx.params["charge_die_sides"]},
        )


def charge_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    m = state.models[step["model"]]
    t = state.models[step["target"]]
    if not (m.on_table and t.on_table):
        return
    die = step["die"] or 0
    if m.flags.get("stood"):
        die = die / 2
    allowance = movement(state, m) + die
    cap = state.ctx.params["charge_move_cap"]
    if cap > 0:
        allowance = min(allowance, cap)
    route = charge_route(state, m, t, allowance)
    place(state, m, route.end, route.end_z, events)
    p = state.ctx.params
    if route.reached:
        events.append(Note(f"{m.id} charges home against {t.id} and may Fight", f"{R}/charge/reach"))
        if route.drop >= p["dive_min_height"] - 1e-9 and not has_kw(m, "FLYING"):
            push_success(state, m.id, "diving charge", *model_dice(state, m), True, {"drop": route.drop}, True)
            return
    else:
        events.append(Note(f"{m.id}'s charge falls short of {t.id} ({allowance:g}\")", f"{R}/charge/short"))
    after_move_hazards(state, m, route.drop, in_dangerous(state, route.end), events)


def after_move_hazards(state: GameState, m: Model, drop: float, dangerous: bool, events: list[Event]) -> None:
    """A drop of ``fall_height`` or more is a fall (digest §7); entering dangerous terrain is a Risky roll."""
    p = state.ctx.params
    if dangerous:
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, {}, state.vars.get("active") == m.id)
    if drop >= p["fall_height"] - 1e-9 and not has_kw(m, "FLYING"):
        attacks.push_fall(state, m, drop, events)


def do_destination(state: GameState, step: dict[str, Any], a: Action, events: list[Event]) -> None:
    m = state.models[step["model"]]
    if a.kind == "stay" or a.point is None:
        events.append(Note(f"{m.id} stays where it is", ""))
        return
    mode = "retreat" if step["mode"] == "retreat" else "move"
    plan = plan_move(state, m, a.point, step["allow"], mode)
    assert isinstance(plan, MovePlan)
    if plan.climb > 0 or plan.jump:
        # seed 000 Move: climbing a sheer surface needs a passed Risky roll first (digest §7: jumps too).
        push(state, {"t": "move-go", "model": m.id, "point": list(a.point), "allow": step["allow"], "mode": mode})
        push_success(
            state,
            m.id,
            "jump" if plan.jump else "climb",
            *model_dice(state, m),
            True,
            {"point": list(a.point)},
            state.vars.get("active") == m.id,
        )
        return
    finish_move(state, m, plan, events)


def finish_move(state: GameState, m: Model, plan: MovePlan, events: list[Event]) -> None:
    place(state, m, plan.end, plan.end_z, events, plan.cost)
    after_move_hazards(state, m, plan.drop, plan.dangerous, events)


def destination_options(state: GameState, step: dict[str, Any]) -> list[Action]:
    m = state.models[step["model"]]
    if step["mode"] == "retreat":
        pts = retreat_candidates(state, m, step["allow"], (step["away"][0], step["away"][1]))
    else:
        pts = move_candidates(state, m, step["allow"])
    return [Action("to", m.id, point=p) for p in pts] + [Action("stay", m.id)]


def destination_reasons(state: GameState, step: dict[str, Any], a: Action) -> list[Reason]:
    m = state.models[step["model"]]
    if a.model != m.id or a.kind not in ("to", "stay") or (a.kind == "to" and a.point is None):
        return [(f"{R}/move/destination", f"give a destination for {m.id}: 'to {m.id} @x,y' or 'stay {m.id}'")]
    if a.kind == "stay":
        return []
    assert a.point is not None
    mode = "retreat" if step["mode"] == "retreat" else "move"
    out: list[Reason] = []
    if mode == "retreat" and not retreat_angle_ok(state, m, a.point, (step["away"][0], step["away"][1])):
        out.append((f"{R}/retreat/direction", "a Retreat moves directly away from the enemy"))
    plan = plan_move(state, m, a.point, step["allow"], mode)
    if not isinstance(plan, MovePlan):
        out.extend(plan)
    return out


# ------------------------------------------------------------------------------------------- follow-ups of rolls
def follow_dash(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    if result != "failure":
        m = state.models[step["model"]]
        push(state, {"t": "dest", "model": m.id, "mode": "dash", "allow": movement(state, m)})


def follow_climb(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    go = top(state)
    if go is None:
        return
    if result == "failure":
        pop(state)  # the move-go / charge-go: the model stays where it is
        if step["purpose"] == "jump":
            dest = go["point"]
            attacks.fall_from_jump(state, state.models[step["model"]], (dest[0], dest[1]), events)
        return
    if go["t"] == "charge-go":
        pop(state)
        m = state.models[go["model"]]
        push_charge_die(state, m, state.models[go["target"]])


def follow_dangerous(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    """Digest §7 Dangerous: a failed Risky roll means an Injury Roll (and the activation ends)."""
    if result == "failure":
        m = state.models[step["model"]]
        attacks.push_injury(state, None, m, {"source": "dangerous terrain"}, events)


def follow_dive(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    """Digest §7 Diving Charge: failure -> Down plus the fall injury; success -> +1 DICE next melee attack."""
    m = state.models[step["model"]]
    if result == "failure":
        attacks.make_down(state, m, events)
        attacks.push_fall(state, m, step["payload"]["drop"], events)
    else:
        set_flag(m, "dive", True)


def follow_attack(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    attacks.after_hit_roll(state, step, result, events)


def follow_morale(state: GameState, step: dict[str, Any], result: str, events: list[Event]) -> None:
    morale.after_morale_roll(state, step, result, events)


FOLLOW = {
    "dash": follow_dash,
    "climb": follow_climb,
    "jump": follow_climb,
    "dangerous": follow_dangerous,
    "diving charge": follow_dive,
    "attack": follow_attack,
    "morale": follow_morale,
}


# ------------------------------------------------------------------------------------------- automatic steps
def run_auto(state: GameState, events: list[Event]) -> None:
    """Run automatic steps and phase changes until a side or chance must decide, or the game is over."""
    for _ in range(10_000):
        if over(state):
            state.stack = []
            return
        step = top(state)
        if step is None:
            if not idle(state, events):
                return
            continue
        handler = AUTO.get(step["t"])
        if handler is None:
            return
        pop(state)
        handler(state, step, events)
    raise RuntimeError("automatic steps did not settle")  # pragma: no cover - a rules bug


def idle(state: GameState, events: list[Event]) -> bool:
    """Nothing is pending: advance the activation or the phase. True if something changed."""
    if state.phase == "activation":
        m = active_model(state)
        if m is None:
            return False
        if state.vars.get("end_now") or not m.on_table or is_down(m):
            end_activation(state, events)
            return True
        if not has_action(state, m):
            end_activation(state, events)
            return True
        return False
    if state.phase == "morale":
        return morale.morale_idle(state, events)
    if state.phase == "deploy" and not state.stack:
        return False
    return False


def auto_retreat_move(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    m = state.models[step["model"]]
    if not m.on_table or is_down(m):
        events.append(Note(f"{m.id} is not moved: the attack took it Down or Out of Action", f"{R}/retreat/stopped"))
        return
    push(state, {"t": "dest", "model": m.id, "mode": "retreat", "allow": movement(state, m), "away": step["away"]})


def auto_charge_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    charge_go(state, step, events)


def auto_move_go(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    m = state.models[step["model"]]
    plan = plan_move(state, m, (step["point"][0], step["point"][1]), step["allow"], step["mode"])
    if isinstance(plan, MovePlan):
        finish_move(state, m, plan, events)


def auto_end_after(state: GameState, step: dict[str, Any], events: list[Event]) -> None:
    events.append(Note("RELOAD: the activation ends after the Shoot", f"{R}/keyword/reload"))
    state.vars["end_now"] = True


AUTO = {
    "retreat-move": auto_retreat_move,
    "charge-go": auto_charge_go,
    "move-go": auto_move_go,
    "end-after": auto_end_after,
    "attack": attacks.auto_attack,
    "injury": attacks.auto_injury,
    "auto-next": attacks.auto_next,
}


# ------------------------------------------------------------------------------------------- the protocol
def decision(state: GameState) -> Decision:
    if over(state):
        return Decision(OVER, "over")
    step = top(state)
    if step is not None:
        t = step["t"]
        if t == "roll":
            return Decision(CHANCE, step["k"], dice=roll_spec(state, step))
        if t == "rolloff":
            return Decision(CHANCE, "roll-off", dice=DiceSpec(2, 6, f"{step['why']} roll-off"))
        by = step.get("by")
        if by is None:
            by = state.models[step["model"]].side
        return Decision(CHOICE, t, player=int(by), model=step.get("model"))
    if state.phase == "deploy":
        return Decision(CHOICE, "deploy", player=int(state.vars["deployer"]))
    m = active_model(state)
    if m is None:
        return Decision(CHOICE, "activate", player=int(state.vars["next_side"]))
    return Decision(CHOICE, "action", player=m.side, model=m.id)


def roll_spec(state: GameState, step: dict[str, Any]) -> DiceSpec:
    k = step["k"]
    if k == "success":
        return success_spec(step)
    if k == "charge":
        return DiceSpec(1, step["sides"], "charge", step["model"])
    if k == "injury":
        return attacks.injury_spec(step)
    if k == "deflect":
        return DiceSpec(1, 6, "shooting into melee", step["model"])
    raise KeyError(k)


def legal_actions(state: GameState) -> list[Action]:
    step = top(state)
    if step is not None:
        return STEP_OPTIONS[step["t"]](state, step)
    if state.phase == "deploy":
        side = int(state.vars["deployer"])
        by_radius: dict[float, list[tuple[float, float]]] = {}
        out: list[Action] = []
        for m in undeployed(state, side):
            if m.radius not in by_radius:
                by_radius[m.radius] = deploy_points(state, m)
            out.extend(Action("deploy", m.id, point=p) for p in by_radius[m.radius])
        return out
    active = active_model(state)
    if active is None:
        return [Action("activate", x.id) for x in activatable(state, int(state.vars["next_side"]))]
    return menu(state, active)


def why_illegal(state: GameState, a: Action) -> list[Reason]:
    d = decision(state)
    step = top(state)
    if step is not None:
        if step["t"] == "dest":
            return destination_reasons(state, step, a)
        if a in STEP_OPTIONS[step["t"]](state, step):
            return []
        return [
            (
                f"{R}/decision/{step['t']}",
                "expected one of: " + ", ".join(str(x) for x in STEP_OPTIONS[step["t"]](state, step)),
            )
        ]
    if state.phase == "deploy":
        m = state.models.get(a.model or "")
        if a.kind != "deploy" or m is None or a.point is None:
            return [(f"{R}/deploy/syntax", "deploy a model: 'deploy MODEL @x,y'")]
        if m.side != d.player or m.on_table:
            return [(f"{R}/deploy/whose", f"{m.id} is not an undeployed model of side {side_name(d.player or 0)}")]
        return deploy_problems(state, m, a.point)
    active = active_model(state)
    if active is None:
        return activate_reasons(state, a, int(state.vars["next_side"]))
    if a.model != active.id:
        return [(f"{R}/activation/active-model", f"{active.id} is the activated model; {a.model} must wait")]
    return action_reasons(state, active, a)


def activate_reasons(state: GameState, a: Action, side: int) -> list[Reason]:
    m = state.models.get(a.model or "")
    if a.kind != "activate" or m is None:
        return [
            (f"{R}/activation/choose", f"side {side_name(side)} must activate one of its models ('activate MODEL')")
        ]
    if m.side != side:
        return [(f"{R}/activation/alternate", f"it is side {side_name(side)}'s turn to activate a model")]
    if not m.on_table:
        return [(f"{R}/activation/not-on-table", f"{m.id} is not on the table")]
    if m.flags.get("activated"):
        return [(f"{R}/activation/once-per-turn", f"{m.id} has already been Activated this Turn")]
    return []


def _opt_zone(state: GameState, step: dict[str, Any]) -> list[Action]:
    return [Action("zone", option=str(z)) for z in (0, 1)]


def _opt_spend_hit(state: GameState, step: dict[str, Any]) -> list[Action]:
    m = state.models[step["model"]]
    return [Action("spend", m.id, option=str(k)) for k in range(m.token("blood") + 1)]


def _opt_strike(state: GameState, step: dict[str, Any]) -> list[Action]:
    e = state.models[step["model"]]
    return [Action("strike", e.id, step["target"], option=w["name"]) for w in weapons(e, "melee")]


STEP_OPTIONS = {
    "zone": _opt_zone,
    "spend-hit": _opt_spend_hit,
    "spend-injury": attacks.spend_injury_options,
    "dest": destination_options,
    "strike": _opt_strike,
    "auto-target": attacks.auto_target_options,
    "morale-fail": morale.morale_fail_options,
}


def apply(state: GameState, a: Action) -> list[Event]:
    events: list[Event] = []
    step = top(state)
    if step is not None:
        pop(state)
        t = step["t"]
        if t == "zone":
            zone = int(a.option or 0)
            winner = step["by"]
            state.vars["zone_of"] = [zone, 1 - zone] if winner == 0 else [1 - zone, zone]
            events.append(Note(f"side {side_name(winner)} takes deployment zone {zone}", f"{R}/deploy/zone"))
            state.vars["deployer"] = next_deployer(state, None)
        elif t == "spend-hit":
            attacks.spend_on_roll(state, step, int(a.option or 0), events)
        elif t == "spend-injury":
            attacks.spend_on_injury(state, step, a, events)
        elif t == "dest":
            do_destination(state, step, a, events)
        elif t == "strike":
            e = state.models[step["model"]]
            attacks.begin_melee_attack(
                state, e, state.models[step["target"]], a.option or "", events, own_activation=False
            )
        elif t == "auto-target":
            attacks.choose_auto_target(state, step, a, events)
        elif t == "morale-fail":
            morale.after_morale_choice(state, step, a, events)
    elif state.phase == "deploy":
        m = state.models[a.model or ""]
        assert a.point is not None
        m.on_table = True
        place(state, m, a.point, state.ctx.table.surface_height(a.point), events)
        nxt = next_deployer(state, m.side)
        if nxt is None:
            start_turn(state, events)
        else:
            state.vars["deployer"] = nxt
    else:
        actor = active_model(state)
        if actor is None:
            begin_activation(state, state.models[a.model or ""], events)
        else:
            do_action(state, actor, a, events)
    run_auto(state, events)
    return events


def roll(state: GameState, values: tuple[int, ...]) -> list[Event]:
    events: list[Event] = []
    step = pop(state)
    if step["t"] == "rolloff":
        resolve_rolloff(state, step, values, events)
    elif step["k"] == "success":
        resolve_success(state, step, values, events)
    elif step["k"] == "charge":
        events.append(DiceRolled("charge die", values, f'+{values[0]}"', step["model"]))
        push(state, {"t": "charge-go", "model": step["model"], "target": step["target"], "die": values[0]})
    elif step["k"] == "injury":
        attacks.resolve_injury(state, step, values, events)
    elif step["k"] == "deflect":
        attacks.resolve_deflect(state, step, values, events)
    run_auto(state, events)
    return events
