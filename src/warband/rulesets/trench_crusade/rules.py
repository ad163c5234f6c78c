"""Trench Crusade: the turn, the Activation Phase and every action of seed 000 (with 001 as an option).

The game runs on the kernel's step machine (:mod:`warband.kernel.steps`): each pending step is a typed record
declared once, below or in :mod:`.attacks` / :mod:`.morale`, with who decides and what it does. :class:`TCRules`
adds the standing decisions (deploy, activate, pick an action) and the turn loop. Attacks and injuries live in
:mod:`.attacks`, morale and victory in :mod:`.morale`, the Success Roll in :mod:`.core`.

Rule ids are ``trench-crusade/<area>/<rule>``; the clause matrix ``docs/rules/trench-crusade.md`` maps every
seed sentence to them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from warband.kernel import setup, steps
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    Note,
    PhaseStarted,
    StatusChanged,
)
from warband.kernel.space import gap, gap_at, overlapping
from warband.kernel.state import Model
from warband.kernel.steps import Choice, SteppedRules, pop, push, top
from warband.rulesets.trench_crusade import attacks, morale
from warband.rulesets.trench_crusade.core import (
    AfterSuccess,
    R,
    SpendHit,
    State,
    SuccessRoll,
    TCAuto,
    TCChance,
    TCChoice,
    Vec,
    activatable,
    active_model,
    acts,
    add_act,
    charge_allowance,
    has_kw,
    heavy_applies,
    is_down,
    model_dice,
    movement,
    over,
    place,
    push_success,
    set_flag,
    side_name,
    weapon_named,
    weapons,
    wkw,
)
from warband.rulesets.trench_crusade.space import (
    MovePlan,
    away_direction,
    charge_end_z,
    charge_spots,
    ends_in_reach,
    engaged_with,
    move_candidates,
    plan_move,
    retreat_angle_ok,
    retreat_candidates,
    retreat_reach,
    standing_enemies,
    visible,
)

MOVES = ("move", "charge", "retreat")


# ------------------------------------------------------------------------------------------- setup and turns
def start_game(state: State, events: list[Event]) -> None:
    state.phase = "deploy"
    state.vars.update({"zone_of": [0, 1], "vp": [0, 0], "acts": [], "active": None})
    push(state, RollOff("deployment"))


def start_turn(state: State, events: list[Event]) -> None:
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
        push(state, RollOff("initiative"))


def initiative_count(state: State, side: int) -> int:
    down_counts = state.ctx.params["initiative_counts_down"]
    return sum(1 for m in state.models.values() if m.side == side and m.on_table and (down_counts or not is_down(m)))


def begin_activation_phase(state: State, holder: int, events: list[Event]) -> None:
    """Seed 000: the side with the Initiative activates first."""
    state.vars["initiative"] = holder
    state.vars["next_side"] = holder
    state.phase = "activation"
    events.append(Note(f"side {side_name(holder)} has the Initiative", f"{R}/turn/initiative"))
    events.append(PhaseStarted(state.turn, "Activation"))
    choose_next_side(state, holder, events)


def choose_next_side(state: State, preferred: int, events: list[Event]) -> None:
    """Alternate; when one side has no model left to activate the other activates all its remaining models
    one after the other; when neither has, the Morale phase follows (seed 000 §Ending the Activation Phase)."""
    if activatable(state, preferred):
        state.vars["next_side"] = preferred
    elif activatable(state, 1 - preferred):
        state.vars["next_side"] = 1 - preferred
    else:
        morale.begin_morale_phase(state, events)


@dataclass(frozen=True, slots=True)
class RollOff(setup.RollOff[State]):
    """A roll-off (digest §1): for the deployment zone, or for the Initiative when the sides are level."""

    rules = R
    why: str

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        if self.why == "initiative":
            begin_activation_phase(state, winner, events)
        else:
            state.vars["rolloff_winner"] = winner
            push(state, ChooseZone(winner))


@dataclass(frozen=True, slots=True)
class ChooseZone(setup.ChooseZone[State]):
    """The roll-off winner picks a deployment zone (digest §1)."""

    rules = R
    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        events.append(Note(f"side {side_name(self.by)} takes deployment zone {zone}", f"{R}/deploy/zone"))
        state.vars["deployer"] = first_deployer(state)


# ------------------------------------------------------------------------------------------- deployment
@dataclass(frozen=True, slots=True)
class Deploy(setup.Deploy[State]):
    """Standing decision of the deployment: ``by`` places one of its models wholly inside its zone, clear of
    impassable, blocking and dangerous terrain and of other bases (digest §1 CNL). Pending with ``piece`` set,
    it asks where that model goes."""

    rules = R
    by: int
    piece: str = ""

    def pieces(self, state: State, side: int) -> list[str]:
        return [m.id for m in undeployed(state, side)]

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        grid = _zone_grid(state, m)
        clear = set(grid)  # the zone and the terrain already allow these: only the other bases are left to check

        def fits(p: Vec) -> bool:
            return not (_overlap_problems(state, m, p) if p in clear else deploy_problems(state, m, p))

        return setup.deploy_spots(grid, zone, fits, first)

    def spot_key(self, state: State, piece: str) -> object:
        return state.models[piece].radius  # one side's models with the same base have the same spots

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        return deploy_problems(state, state.models[piece], at)

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        place(state, m, at, state.ctx.table.surface_height(at), events)

    def all_deployed(self, state: State, events: list[Event]) -> None:
        start_turn(state, events)


def _zone_grid(state: State, m: Model) -> list[Vec]:
    """The 6 x 3 grid points of the model's zone where the zone and the terrain allow its base (the same all
    game: kept in the context's memo)."""
    zi = state.vars["zone_of"][m.side]
    key = ("deploy-grid", zi, m.radius)
    grid: list[Vec] | None = state.ctx.memo.get(key)
    if grid is None:
        grid = [p for p in setup.zone_grid(state.ctx.zones[zi], 6, 3) if not _zone_terrain_problems(state, m, p)]
        state.ctx.memo[key] = grid
    return grid


def deploy_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    return _zone_terrain_problems(state, m, p) or _overlap_problems(state, m, p)


def _overlap_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    o = overlapping(state.models.values(), p, m.radius)
    return [(f"{R}/deploy/overlap", f"{m.id} would overlap {o.id}")] if o is not None else []


def _zone_terrain_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    zone = state.ctx.zones[state.vars["zone_of"][m.side]]
    if not setup.wholly_inside(zone, p, m.radius):
        return [(f"{R}/deploy/zone", f"{m.id} must be placed wholly inside its deployment zone")]
    for piece in state.ctx.table.terrain:
        if piece.kind in ("impassable", "blocking", "dangerous") and piece.circle_overlaps(p, m.radius):
            return [(f"{R}/deploy/terrain", f"{m.id} cannot be placed in {piece.kind} terrain {piece.id}")]
    return []


def undeployed(state: State, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.side == side and not m.on_table and not m.flags.get("out")]


def first_deployer(state: State) -> int:
    """The side with more models deploys first; level sides: the roll-off winner (digest §1)."""
    counts = [len(undeployed(state, s)) for s in (0, 1)]
    if counts[0] != counts[1]:
        return 0 if counts[0] > counts[1] else 1
    return int(state.vars.get("rolloff_winner", 0))


# ------------------------------------------------------------------------------------------- activation
def begin_activation(state: State, m: Model, events: list[Event]) -> None:
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
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, AfterDangerous(m.id), True)


def in_dangerous(state: State, p: Vec) -> bool:
    return any(x.kind == "dangerous" for x in state.ctx.table.pieces_at(p))


def end_activation(state: State, events: list[Event]) -> None:
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
def _tries(state: State, m: Model, eng: list[Model], only_legal: bool) -> Iterator[Action]:
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


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    """Every legal action for the active model, in a fixed order (``only_legal=False``: every action the
    model might try, legal or not, for explanations)."""
    eng = engaged_with(state, m)
    out = [a for a in _tries(state, m, eng, only_legal) if not only_legal or _legal(state, m, a, eng)]
    out.append(Action("end", m.id))
    return out


def _legal(state: State, m: Model, a: Action, eng: list[Model]) -> bool:
    """``not action_reasons(...)``, stopping at the first refusal found, with the commonest ones (a target out of
    reach, a model within 1" of an enemy, an action already taken) tested first and cheaply: the menu and
    :func:`has_action` ask it of every action the model might try, after every step."""
    kind = a.kind
    if a.target is not None and kind in ("charge", "shoot"):
        if eng:
            return False  # _check_charge and _check_shoot: not within 1" of an enemy
        t = state.models[a.target]
        if kind == "charge":
            reach = float(state.ctx.params["charge_range"])
        else:
            w = weapon_named(m, a.option, "ranged")
            reach = float(w["range"] or 0.0) if w is not None else -1.0
        if gap(m, t) > reach + 1e-9:
            return False
    # the activation-wide refusals of action_reasons, in its order
    done = state.vars.get("acts", ())
    if kind != "end" and kind in done:
        return False
    if kind in MOVES and any(k in done for k in MOVES):
        return False
    if (kind in MOVES or kind == "dash") and _heavy_then_move(state, m):
        return False
    check = CHECKS.get(kind)
    if check is None:
        return kind == "end"
    return not check(state, m, a, eng)


def has_action(state: State, m: Model) -> bool:
    """Whether the active model has any legal action besides ending its activation (stops at the first)."""
    eng = engaged_with(state, m)
    return any(_legal(state, m, a, eng) for a in _tries(state, m, eng, True))


def action_reasons(state: State, m: Model, a: Action, eng: list[Model] | None = None) -> list[Reason]:
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
    if a.kind in (*MOVES, "dash"):
        out.extend(_heavy_then_move(state, m))
    check = CHECKS.get(a.kind)
    if check is None and a.kind != "end":
        out.append((f"{R}/activation/unknown", f"{a.kind!r} is not an action of this game"))
    elif check is not None:
        out.extend(check(state, m, a, engaged_with(state, m) if eng is None else eng))
    return out


def _heavy_then_move(state: State, m: Model) -> list[Reason]:
    """HEAVY (digest §9): no shooting and moving in the same activation, in either order; this is the
    shoot-then-move half (``_check_shoot`` refuses the other)."""
    for name in state.vars.get("shot_with", []):
        w = weapon_named(m, name, "ranged")
        if w is not None and heavy_applies(m, w):
            return [(f"{R}/keyword/heavy", f"{name} is HEAVY and was fired this activation: no move after it")]
    return []


def _check_move(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Move and Dash: never for a model within 1" of an enemy (seed 000 Retreat: 'You can only move a model that
    is within 1" of an enemy by taking a Retreat Action')."""
    if a.target is not None or a.option is not None or a.point is not None:
        return [(f"{R}/activation/syntax", f"declare '{a.kind} MODEL', then give the destination")]
    if eng:
        near = ", ".join(e.id for e in eng)
        return [(f"{R}/move/engaged", f'{m.id} is within 1" of {near}: it can only be moved by a Retreat')]
    return []


def _check_dash(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    return _check_move(state, m, a, eng)


def _check_retreat(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    if not eng:
        return [(f"{R}/retreat/not-engaged", 'a Retreat is only for a model within 1" of an enemy')]
    return []


def _check_charge(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
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


def _check_shoot(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
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


def _check_fight(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
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


def _check_tend(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
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
def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        state.vars["end_now"] = True
        return
    add_act(state, a.kind)
    if a.kind == "move":
        push(state, Destination(m.id, "move", movement(state, m)))
    elif a.kind == "dash":
        # seed 000 Dash: a Risky Success Roll first; success allows a Move (never a Charge or Retreat).
        push_success(state, m.id, "dash", *model_dice(state, m), True, AfterDash(m.id), True)
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
            push(state, EndAfter("RELOAD"))
    elif a.kind == "fight":
        attacks.begin_fight(state, m, state.models[a.target or ""], a.option or "", events)
    elif a.kind == "tend":
        f = state.models[a.target or ""]
        attacks.add_blood(state, f, -int(state.ctx.params["medic_heal"]), events)


def begin_retreat(state: State, m: Model, events: list[Event]) -> None:
    """Seed 000 Retreat: each enemy within 1" makes a Melee Attack first (digest §7: one attack, one weapon);
    if the model is taken Down or Out of Action it is not moved; else it moves directly away."""
    away = away_direction(state, m)
    push(state, RetreatMove(m.id, away))
    for e in reversed(engaged_with(state, m)):
        if weapons(e, "melee"):  # the opponent may strike (with the one weapon it picks) or decline
            push(state, Strike(e.id, m.id, e.side))


def begin_charge(state: State, m: Model, t: Model, events: list[Event]) -> None:
    """Seed 000 Charge: roll a die, add Movement, move toward the target (HEAVY: no die, digest §9)."""
    state.vars["charged"] = t.id
    set_flag(m, "charged_turn", state.turn)
    free = state.ctx.params["obstacle_free_height"]
    if t.z - m.z > free + 1e-9:
        # The route ends in a sheer climb: seed 000 Move: a Risky roll first.
        push(state, ChargeGo(m.id, t.id, None))
        push_success(state, m.id, "climb", *model_dice(state, m), True, AfterClimb(m.id, False), True)
        return
    push_charge_die(state, m, t)


def push_charge_die(state: State, m: Model, t: Model) -> None:
    if heavy_applies(m):
        push(state, ChargeGo(m.id, t.id, 0))
    else:
        push(state, ChargeRoll(m.id, t.id, int(state.ctx.params["charge_die_sides"])))


def after_move_hazards(state: State, m: Model, drop: float, dangerous: bool, events: list[Event]) -> None:
    """A drop of ``fall_height`` or more is a fall (digest §7); entering dangerous terrain is a Risky roll."""
    p = state.ctx.params
    if dangerous:
        own = state.vars.get("active") == m.id
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, AfterDangerous(m.id), own)
    if drop >= p["fall_height"] - 1e-9 and not has_kw(m, "FLYING"):
        attacks.push_fall(state, m, drop, events)


def finish_move(state: State, m: Model, plan: MovePlan, events: list[Event]) -> None:
    place(state, m, plan.end, plan.end_z, events, plan.cost)
    after_move_hazards(state, m, plan.drop, plan.dangerous, events)


# ------------------------------------------------------------------------------------------- movement steps
@dataclass(frozen=True, slots=True)
class Destination(TCChoice):
    """Where a moving model goes (``mode``: move, dash or retreat; ``allow`` inches; ``away`` the direction of a
    Retreat): any concrete point is checked against the real table, the options are candidates."""

    kind = "dest"
    about = "model"
    model: str
    mode: str
    allow: float
    away: Vec | None = None

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        if self.mode == "retreat" and self.away is not None:
            # seed 000 Retreat: the model is moved; it stays only when the table lets it go nowhere
            pts = retreat_candidates(state, m, self.allow, self.away)
            return [Action("to", m.id, point=p) for p in pts] or [Action("stay", m.id)]
        pts = move_candidates(state, m, self.allow)
        return [Action("to", m.id, point=p) for p in pts] + [Action("stay", m.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        m = state.models[self.model]
        a = action
        if a.model != m.id or a.kind not in ("to", "stay") or (a.kind == "to" and a.point is None):
            return [(f"{R}/move/destination", f"give a destination for {m.id}: 'to {m.id} @x,y' or 'stay {m.id}'")]
        retreat = self.mode == "retreat" and self.away is not None
        if a.kind == "stay":
            if retreat and self.options(state)[0].kind == "to":
                return [(f"{R}/retreat/must-move", f"a Retreat moves {m.id} directly away: staying put is no Retreat")]
            return []
        assert a.point is not None
        out: list[Reason] = []
        if retreat and self.away is not None:
            out.extend(retreat_point_reasons(state, m, a.point, self.allow, self.away))
        plan = plan_move(state, m, a.point, self.allow, "retreat" if self.mode == "retreat" else "move")
        if not isinstance(plan, MovePlan):
            out.extend(plan)
        return out

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.kind == "stay" or action.point is None:
            events.append(Note(f"{m.id} stays where it is", ""))
            return
        mode = "retreat" if self.mode == "retreat" else "move"
        plan = plan_move(state, m, action.point, self.allow, mode)
        assert isinstance(plan, MovePlan)
        if plan.climb > 0 or plan.jump:
            # seed 000 Move: climbing a sheer surface needs a passed Risky roll first (digest §7: jumps too).
            push(state, MoveGo(m.id, action.point, self.allow, mode))
            purpose = "jump" if plan.jump else "climb"
            own = state.vars.get("active") == m.id
            push_success(state, m.id, purpose, *model_dice(state, m), True, AfterClimb(m.id, plan.jump), own)
            return
        finish_move(state, m, plan, events)


def retreat_point_reasons(state: State, m: Model, p: Vec, allow: float, away: Vec) -> list[Reason]:
    """Seed 000 Retreat: 'directly away from its opponent' (within ``retreat_angle``) and 'a number of inches
    equal to its Movement Characteristic': the full distance along that line unless the table stops it."""
    if not retreat_angle_ok(state, m, p, away):
        return [(f"{R}/retreat/direction", "a Retreat moves directly away from the enemy")]
    v = (p[0] - m.x, p[1] - m.y)
    d = math.hypot(*v)
    reach = retreat_reach(state, m, allow, (v[0] / d, v[1] / d))
    if d < reach - RETREAT_SLACK:
        why = f'a Retreat moves the full {allow:g}" unless the table stops it ({reach:.1f}" possible, {d:.1f}" given)'
        return [(f"{R}/retreat/full-distance", why)]
    return []


RETREAT_SLACK = 0.15  # inches a Retreat may fall short of its measured reach (the reach is measured in 0.1" steps)


@dataclass(frozen=True, slots=True)
class MoveGo(TCAuto):
    """A move to ``point`` that waited for its climb or jump roll (it is dropped if that roll failed)."""

    kind = "move-go"
    model: str
    point: Vec
    allow: float
    mode: str

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        plan = plan_move(state, m, self.point, self.allow, self.mode)
        if isinstance(plan, MovePlan):
            finish_move(state, m, plan, events)


@dataclass(frozen=True, slots=True)
class RetreatMove(TCAuto):
    """After the enemies' strikes, a Retreating model still standing moves directly away (seed 000 Retreat)."""

    kind = "retreat-move"
    model: str
    away: Vec

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        if not m.on_table or is_down(m):
            note = f"{m.id} is not moved: the attack took it Down or Out of Action"
            events.append(Note(note, f"{R}/retreat/stopped"))
            return
        push(state, Destination(m.id, "retreat", movement(state, m), self.away))


@dataclass(frozen=True, slots=True)
class Strike(TCChoice):
    """Seed 000 Retreat: 'Your opponent can make a Melee Attack against the Retreating model': each engaged
    enemy's side chooses to strike, with the one melee weapon it picks (digest §7), or to let it go."""

    kind = "strike"
    about = "model"
    model: str
    target: str
    by: int

    def options(self, state: State) -> list[Action]:
        e = state.models[self.model]
        strikes = [Action("strike", e.id, self.target, option=w["name"]) for w in weapons(e, "melee")]
        return [*strikes, Action("decline", e.id, self.target)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        e = state.models[self.model]
        if action.kind == "decline":
            events.append(Note(f"{e.id} lets {self.target} retreat without a Melee Attack", f"{R}/retreat/strike"))
            return
        target = state.models[self.target]
        attacks.begin_melee_attack(state, e, target, action.option or "", events, own_activation=False)


@dataclass(frozen=True, slots=True)
class ChargeRoll(TCChance):
    """The charge die (seed 000 Charge: 'roll a dice, add the result to your model's Movement')."""

    kind = "charge-roll"
    prompt = "charge"
    model: str
    target: str
    sides: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, self.sides, "charge", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("charge die", values, f'+{values[0]}"', self.model))
        push(state, ChargeGo(self.model, self.target, values[0]))


@dataclass(frozen=True, slots=True)
class ChargeGo(TCAuto):
    """The charge move toward ``target``: Movement plus the ``die`` (None while a climb roll is pending; 0 for
    HEAVY), halved in the activation a Down model stood up (digest §6)."""

    kind = "charge-go"
    model: str
    target: str
    die: int | None

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        t = state.models[self.target]
        if not (m.on_table and t.on_table):
            return
        allowance = charge_allowance(state, m, self.die or 0)
        found = charge_spots(state, m, t, allowance)
        push(state, ChargeEnd(m.id, t.id, allowance, found.spots, found.reached, found.closest))


@dataclass(frozen=True, slots=True)
class ChargeEnd(TCChoice):
    """Where the charging model ends (seed 000 Charge: 'move it towards the target'): the charging player picks
    any spot the ``allowance`` reaches within 1" of the target when one exists (``reached``), else a spot at
    least as close to it as the engine's (``closest``). ``spots`` are the candidates, the engine's best first;
    any other concrete point is checked against the table."""

    kind = "charge-end"
    prompt = "dest"
    about = "model"
    model: str
    target: str
    allowance: float
    spots: tuple[Vec, ...]
    reached: bool
    closest: float

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def options(self, state: State) -> list[Action]:
        return [Action("to", self.model, point=p) for p in self.spots]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        m = state.models[self.model]
        if action.model != m.id or action.kind != "to" or action.point is None:
            return [(f"{R}/charge/destination", f"give where the charge of {m.id} ends: 'to {m.id} @x,y'")]
        if action.point in self.spots:
            return []
        plan = plan_move(state, m, action.point, self.allowance, "charge", climb_over=False)
        if not isinstance(plan, MovePlan):
            return plan
        t = state.models[self.target]
        g = gap_at(action.point, m.radius, t)
        if self.reached and not ends_in_reach(state, m, t, action.point, plan.end_z):
            return [(f"{R}/charge/end-within-1", f'the charge can reach {t.id}: it must end within 1" of it')]
        if not self.reached and g > self.closest + 1e-6:
            return [
                (
                    f"{R}/charge/as-close",
                    f'the charge must end as close to {t.id} as the table allows ({self.closest:.2f}")',
                )
            ]
        return []

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        t = state.models[self.target]
        assert action.point is not None
        start_z = m.z
        plan = plan_move(state, m, action.point, self.allowance, "charge", climb_over=False)
        if isinstance(plan, MovePlan):
            place(state, m, plan.end, plan.end_z, events, plan.cost)
            dangerous = plan.dangerous or in_dangerous(state, plan.end)
        else:  # the engine's own spot at the end of a walked route
            place(state, m, action.point, charge_end_z(state, m, action.point), events)
            dangerous = in_dangerous(state, action.point)
        drop = max(0.0, start_z - m.z)
        p = state.ctx.params
        if ends_in_reach(state, m, t, (m.x, m.y), m.z):
            events.append(Note(f"{m.id} charges home against {t.id} and may Fight", f"{R}/charge/reach"))
            if drop >= p["dive_min_height"] - 1e-9 and not has_kw(m, "FLYING"):
                dice = model_dice(state, m)
                push_success(state, m.id, "diving charge", *dice, True, AfterDive(m.id, drop), True)
                return
        else:
            events.append(Note(f"{m.id}'s charge falls short of {t.id} ({self.allowance:g}\")", f"{R}/charge/short"))
        after_move_hazards(state, m, drop, dangerous, events)


@dataclass(frozen=True, slots=True)
class EndAfter(TCAuto):
    """RELOAD (digest §9): the activation ends after the Shoot."""

    kind = "end-after"
    why: str

    def run(self, state: State, events: list[Event]) -> None:
        events.append(Note("RELOAD: the activation ends after the Shoot", f"{R}/keyword/reload"))
        state.vars["end_now"] = True


# ------------------------------------------------------------------------------------------- after success rolls
@dataclass(frozen=True, slots=True)
class AfterDash(AfterSuccess):
    """Seed 000 Dash: a passed Risky roll allows a Move."""

    kind = "after-dash"
    model: str

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        if result != "failure":
            m = state.models[self.model]
            push(state, Destination(m.id, "dash", movement(state, m)))


@dataclass(frozen=True, slots=True)
class AfterClimb(AfterSuccess):
    """A climb or a jump (seed 000 Move; digest §7): the move or charge waiting beneath goes ahead on a pass;
    on a failure it is dropped and a failed jump falls into the gap."""

    kind = "after-climb"
    model: str
    jump: bool

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        go = top(state)
        if go is None:
            return
        if result == "failure":
            pop(state)  # the move-go / charge-go: the model stays where it is
            if self.jump and isinstance(go, MoveGo):
                attacks.fall_from_jump(state, state.models[self.model], go.point, events)
            return
        if isinstance(go, ChargeGo):
            pop(state)
            push_charge_die(state, state.models[go.model], state.models[go.target])


@dataclass(frozen=True, slots=True)
class AfterDangerous(AfterSuccess):
    """Digest §7 Dangerous: a failed Risky roll means an Injury Roll (and the activation ends)."""

    kind = "after-dangerous"
    model: str

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        if result == "failure":
            attacks.push_injury(state, state.models[self.model], "dangerous terrain")


@dataclass(frozen=True, slots=True)
class AfterDive(AfterSuccess):
    """Digest §7 Diving Charge: failure -> Down plus the fall injury; success -> +1 DICE next melee attack."""

    kind = "after-dive"
    model: str
    drop: float

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        m = state.models[self.model]
        if result == "failure":
            attacks.make_down(state, m, events)
            attacks.push_fall(state, m, self.drop, events)
        else:
            set_flag(m, "dive", True)


# ------------------------------------------------------------------------------------------- standing decisions
@dataclass(frozen=True, slots=True)
class Activate(TCChoice):
    """Standing decision of the Activation Phase: ``side`` activates one of its models (seed 000)."""

    kind = "activate"
    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("activate", x.id) for x in activatable(state, self.by)]

    def tries(self, state: State) -> list[Action]:
        return [Action("activate", x.id) for x in state.models.values()]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        return activate_reasons(state, action, self.by)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        begin_activation(state, state.models[action.model or ""], events)


@dataclass(frozen=True, slots=True)
class ActionMenu(steps.ActionMenu[State]):
    """Standing decision of an activated model: its next action (seed 000 §Actions)."""

    rules = R
    about = "model"
    model: str

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return menu(state, state.models[self.model], only_legal=only_legal)

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_reasons(state, state.models[self.model], action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        do_action(state, state.models[self.model], action, events)


def activate_reasons(state: State, a: Action, side: int) -> list[Reason]:
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


# ------------------------------------------------------------------------------------------- the turn loop
class TCRules(SteppedRules[State]):
    """Trench Crusade on the kernel's step machine."""

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def standing(self, state: State) -> Choice[State] | None:
        if state.phase == "deploy":
            return Deploy(int(state.vars["deployer"]))
        if state.phase == "activation":
            m = active_model(state)
            return Activate(int(state.vars["next_side"])) if m is None else ActionMenu(m.id)
        return None

    def idle(self, state: State, events: list[Event]) -> bool:
        """Nothing is pending: end the activation when it is over, take the Morale phase's next check, or
        start the next turn. True if something changed."""
        if state.phase == "activation":
            m = active_model(state)
            if m is None:
                return False
            if state.vars.get("end_now") or not m.on_table or is_down(m) or not has_action(state, m):
                end_activation(state, events)
                return True
            return False
        if state.phase == "morale":
            return morale.morale_idle(state, events)
        if state.phase == morale.TURN_OVER:
            start_turn(state, events)
            return True
        return False


STEPS = (
    RollOff,
    ChooseZone,
    Deploy,
    Activate,
    ActionMenu,
    Destination,
    MoveGo,
    RetreatMove,
    Strike,
    ChargeRoll,
    ChargeGo,
    ChargeEnd,
    EndAfter,
    AfterDash,
    AfterClimb,
    AfterDangerous,
    AfterDive,
    SuccessRoll,
    SpendHit,
    *attacks.ATTACK_STEPS,
    *morale.MORALE_STEPS,
)
RULES = TCRules(STEPS)
