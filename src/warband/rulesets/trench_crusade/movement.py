"""The moves of seed 000 §Actions: Move, Dash, Retreat and Charge, as steps on the stack, with what a move may set
off: a climb or a jump (a Risky roll first, digest §7), a fall, dangerous terrain, a Diving Charge. Where a move
may go is asked of :mod:`.space`; the menu that offers the moves is :mod:`.activation`, their requirements
:mod:`.actions`.

A Move or a Dash asks for its destination (:class:`Destination`); a Retreat first lets every engaged enemy strike
(:class:`Strike`), then moves directly away (:class:`RetreatMove`); a Charge rolls its die (:class:`ChargeRoll`)
and asks where the charger ends (:class:`ChargeEnd`).
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note
from warband.kernel.space import gap_at
from warband.kernel.state import Model
from warband.kernel.steps import pop, push, top
from warband.rulesets.trench_crusade import abilities, attacks
from warband.rulesets.trench_crusade.charge_spots import charge_end_z, charge_spots, ends_in_reach
from warband.rulesets.trench_crusade.core import (
    AfterSuccess,
    R,
    State,
    SuccessRoll,
    TCAuto,
    TCChance,
    TCChoice,
    Vec,
    charge_allowance,
    is_down,
    model_dice,
    movement,
    place,
    push_success,
    set_flag,
    weapons,
)
from warband.rulesets.trench_crusade.keywords import has_kw, heavy_applies
from warband.rulesets.trench_crusade.sight import engaged_with
from warband.rulesets.trench_crusade.space import (
    MovePlan,
    away_direction,
    move_candidates,
    plan_move,
    retreat_angle_ok,
    retreat_candidates,
    retreat_reach,
)


# ------------------------------------------------------------------------------------------- starting a move
def begin_move(state: State, m: Model) -> None:
    """Seed 000 Move: up to the Movement Characteristic in any direction (no roll)."""
    push(state, Destination(m.id, "move", movement(state, m)))


def begin_dash(state: State, m: Model) -> None:
    """Seed 000 Dash: a Risky Success Roll first; success allows a Move (never a Charge or Retreat)."""
    push_success(state, m.id, "dash", *model_dice(state, m), True, AfterDash(m.id), True)


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
    if skirmishes(state, t):
        push(state, SkirmishRoll(t.id))


def skirmishes(state: State, t: Model) -> bool:
    """SKIRMISHER (catalogue keyword; digest §9): a charged model with it that is not in melee may first move D3
    inches, not into melee (once per charge: the charge asks once)."""
    return has_kw(t, "SKIRMISHER") and not engaged_with(state, t)


def into_melee(state: State, m: Model, p: Vec) -> bool:
    """Whether ``m`` standing at ``p`` would be within 1" of an enemy."""
    reach = float(state.ctx.params["engagement_range"])
    return any(
        e.on_table and e.side != m.side and gap_at(p, m.radius, e) <= reach + 1e-9 for e in state.models.values()
    )


@values.value
class SkirmishRoll(TCChance, kind="skirmish-roll", prompt="skirmish"):
    """SKIRMISHER: the D3 inches the charged model may move before the charger does."""

    model: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, int(state.ctx.params["skirmish_die_sides"]), "skirmish", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("skirmish die", values, f'{self.model} may move {values[0]}"', self.model))
        push(state, Destination(self.model, "skirmish", float(values[0])))


def push_charge_die(state: State, m: Model, t: Model) -> None:
    if heavy_applies(m):
        push(state, ChargeGo(m.id, t.id, 0))
    else:
        sides = [int(state.ctx.params["charge_die_sides"])]
        sides += [fx.count for fx in abilities.effects(m, "charge_die_sides")]  # Machine Armour: a D3
        push(state, ChargeRoll(m.id, t.id, min(sides)))


# ------------------------------------------------------------------------------------------- hazards
def after_move_hazards(state: State, m: Model, drop: float, dangerous: bool, events: list[Event]) -> None:
    """A drop of ``fall_height`` or more is a fall (digest §7); entering dangerous terrain is a Risky roll."""
    p = state.ctx.params
    if dangerous:
        own = state.vars.get("active") == m.id
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, AfterDangerous(m.id), own)
    if drop >= p["fall_height"] - 1e-9 and not has_kw(m, "FLYING") and not abilities.has_effect(m, "no_fall"):
        attacks.push_fall(state, m, drop, events)


def finish_move(state: State, m: Model, plan: MovePlan, events: list[Event]) -> None:
    place(state, m, plan.end, plan.end_z, events, plan.cost)
    after_move_hazards(state, m, plan.drop, plan.dangerous, events)


def in_dangerous(state: State, p: Vec) -> bool:
    """Whether ``p`` is in a dangerous piece (``table.pieces_at(p)``'s test, asked of the dangerous pieces only)."""
    return any(x.kind == "dangerous" and x.contains(p) for x in state.ctx.table.terrain)


# ------------------------------------------------------------------------------------------- movement steps
@values.value
class Destination(TCChoice, kind="dest", about="model"):
    """Where a moving model goes (``mode``: move, dash or retreat; ``allow`` inches; ``away`` the direction of a
    Retreat): any concrete point is checked against the real table, the options are candidates."""

    model: str
    mode: str
    allow: float
    away: Vec | None = None
    by: int | None = None

    def player(self, state: State) -> int:
        """The moving model's side, or the side whose ability moves it (Puppet Master)."""
        return state.models[self.model].side if self.by is None else self.by

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        if self.mode == "retreat" and self.away is not None:
            # seed 000 Retreat: the model is moved; it stays only when the table lets it go nowhere
            pts = retreat_candidates(state, m, self.allow, self.away)
            return [Action("to", m.id, point=p) for p in pts] or [Action("stay", m.id)]
        pts = move_candidates(state, m, self.allow)
        if self.mode == "skirmish":
            pts = [p for p in pts if not into_melee(state, m, p)]
        if self.mode == "puppet":  # one direction: a straight line
            pts = [p for p in pts if isinstance(plan_move(state, m, p, self.allow, straight=True), MovePlan)]
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
        if self.mode == "skirmish" and into_melee(state, m, a.point):
            out.append((f"{R}/keyword/skirmisher", 'a SKIRMISHER moves away from a charge, not within 1" of an enemy'))
        kind = "retreat" if self.mode == "retreat" else "move"
        plan = plan_move(state, m, a.point, self.allow, kind, straight=self.mode == "puppet")
        if not isinstance(plan, MovePlan):
            out.extend(plan)
        return out

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.kind == "stay" or action.point is None:
            events.append(Note(f"{m.id} stays where it is", ""))
            return
        mode = "retreat" if self.mode == "retreat" else "move"
        plan = plan_move(state, m, action.point, self.allow, mode, straight=self.mode == "puppet")
        assert isinstance(plan, MovePlan)
        if (plan.climb > 0 and not abilities.has_effect(m, "free_climb")) or plan.jump:
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


@values.value
class MoveGo(TCAuto, kind="move-go"):
    """A move to ``point`` that waited for its climb or jump roll (it is dropped if that roll failed)."""

    model: str
    point: Vec
    allow: float
    mode: str

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        plan = plan_move(state, m, self.point, self.allow, self.mode)
        if isinstance(plan, MovePlan):
            finish_move(state, m, plan, events)


@values.value
class RetreatMove(TCAuto, kind="retreat-move"):
    """After the enemies' strikes, a Retreating model still standing moves directly away (seed 000 Retreat)."""

    model: str
    away: Vec

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        if not m.on_table or is_down(m):
            note = f"{m.id} is not moved: the attack took it Down or Out of Action"
            events.append(Note(note, f"{R}/retreat/stopped"))
            return
        push(state, Destination(m.id, "retreat", movement(state, m), self.away))


@values.value
class Strike(TCChoice, kind="strike", about="model"):
    """Seed 000 Retreat: 'Your opponent can make a Melee Attack against the Retreating model': each engaged
    enemy's side chooses to strike, with the one melee weapon it picks (digest §7), or to let it go."""

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


@values.value
class ChargeRoll(TCChance, kind="charge-roll", prompt="charge"):
    """The charge die (seed 000 Charge: 'roll a dice, add the result to your model's Movement')."""

    model: str
    target: str
    sides: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self._count(state), self.sides, "charge", self.model)

    def _count(self, state: State) -> int:
        """Dice rolled, the highest kept: one, or more by an ability (Shock Charge: the higher of two)."""
        return max([fx.count for fx in abilities.effects(state.models[self.model], "charge_dice")] or [1])

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        die = max(values)
        events.append(DiceRolled("charge die", values, f'+{die}"', self.model))
        push(state, ChargeGo(self.model, self.target, die))


@values.value
class ChargeGo(TCAuto, kind="charge-go"):
    """The charge move toward ``target``: Movement plus the ``die`` (None while a climb roll is pending; 0 for
    HEAVY), halved in the activation a Down model stood up (digest §6)."""

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


@values.value
class ChargeEnd(TCChoice, kind="charge-end", about="model", prompt="dest"):
    """Where the charging model ends (seed 000 Charge: 'move it towards the target'): the charging player picks
    any spot the ``allowance`` reaches within 1" of the target when one exists (``reached``), else a spot at
    least as close to it as the engine's (``closest``). ``spots`` are the candidates, the engine's best first;
    any other concrete point is checked against the table."""

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


# ------------------------------------------------------------------------------------------- after success rolls
@values.value
class AfterDash(AfterSuccess, kind="after-dash"):
    """Seed 000 Dash: a passed Risky roll allows a Move."""

    model: str

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        if result != "failure":
            m = state.models[self.model]
            push(state, Destination(m.id, "dash", movement(state, m) * abilities.dash_factor(m)))


@values.value
class AfterClimb(AfterSuccess, kind="after-climb"):
    """A climb or a jump (seed 000 Move; digest §7): the move or charge waiting beneath goes ahead on a pass;
    on a failure it is dropped and a failed jump falls into the gap."""

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


@values.value
class AfterDangerous(AfterSuccess, kind="after-dangerous"):
    """Digest §7 Dangerous: a failed Risky roll means an Injury Roll (and the activation ends)."""

    model: str

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        if result == "failure":
            attacks.push_injury(state, state.models[self.model], "dangerous terrain")


@values.value
class AfterDive(AfterSuccess, kind="after-dive"):
    """Digest §7 Diving Charge: failure -> Down plus the fall injury; success -> +1 DICE next melee attack."""

    model: str
    drop: float

    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        m = state.models[self.model]
        if result == "failure":
            attacks.make_down(state, m, events)
            attacks.push_fall(state, m, self.drop, events)
        else:
            set_flag(m, "dive", True)


MOVEMENT_STEPS = (
    Destination,
    MoveGo,
    RetreatMove,
    Strike,
    ChargeRoll,
    SkirmishRoll,
    ChargeGo,
    ChargeEnd,
    AfterDash,
    AfterClimb,
    AfterDangerous,
    AfterDive,
)
