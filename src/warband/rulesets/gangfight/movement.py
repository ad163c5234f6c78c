"""Movement: Move, Run, and Jump/Climb with its falls.

Seed 004, Standard Actions: Move (MOV inches for 1 AP), Run (twice MOV, never through difficult terrain, and the
activation ends); Special Actions: Jump/Climb (at a sheer surface or between raised points: MOV dice at TN 4, each
success 1"; a ladder or rope is a Move). Digest B2 Jump/Climb (PROPOSED): falling short is a fall, 1 wound per full
3" (``fall_wound_per_inches``), ARM at TN 4 (``fall_armour_tn``). Paths, difficult ground and ladders are
:func:`.core.plan_move`; the charge move is :class:`.charge.ChargeMove`, the threat-range move of a Fight!
:class:`.attacks.FightGo`. Design: ``docs/design/gangfight-steps.md`` §3.
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.climbing import platform_under
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.setup import wholly_inside
from warband.kernel.space import overlapping
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.attacks import save_wounds
from warband.rulesets.gangfight.core import (
    GFChance,
    GFChoice,
    Plan,
    R,
    State,
    count,
    incap,
    move_candidates,
    pfloat,
    pint,
    place,
    plan_move,
    rules_of,
    stat,
)
from warband.rulesets.gangfight.turn import end_activation


# ------------------------------------------------------------------------------------------- Move and Run
@values.value
class Destination(GFChoice, kind="dest", about="model"):
    """Where a moving model goes (Move: MOV; Run: twice MOV, never through difficult terrain, and the activation
    ends, seed 004 Run). Any concrete point is checked against the table; the options are candidates."""

    model: str
    budget: float
    run: bool

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        pts = move_candidates(state, m, self.budget, self.run)
        return [*(Action("to", m.id, point=p) for p in pts), Action("stay", m.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        m = state.models[self.model]
        if action.model != m.id or action.kind not in ("to", "stay") or (action.kind == "to" and action.point is None):
            return [(f"{R}/move/destination", f"give a destination: 'to {m.id} @x,y' or 'stay {m.id}'")]
        if action.kind == "stay":
            return []
        assert action.point is not None
        plan = plan_move(state, m, action.point, self.budget, self.run)
        return [] if isinstance(plan, Plan) else plan

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.kind == "to" and action.point is not None:
            plan = plan_move(state, m, action.point, self.budget, self.run)
            assert isinstance(plan, Plan)
            place(state, m, action.point, events, plan.cost)
        if self.run:
            events.append(Note(f"{m.id} ran: its activation ends", f"{R}/run/ends"))
            end_activation(state, m, events)


# ------------------------------------------------------------------------------------------- Jump/Climb
def _platform_at(state: State, p: Vec) -> TerrainPiece | None:
    """The highest platform under ``p``, if any (the kernel's :func:`~warband.kernel.climbing.platform_under`)."""
    return platform_under(state.ctx.table.platforms, p)


def jump_plan(state: State, m: Model, p: Vec) -> tuple[float, str] | list[Reason]:
    """(inches the Jump/Climb check must cover, "climb" or "jump") for ``m`` to reach ``p``, or why not: a climb
    goes up a sheer platform from its foot (``climb_reach``), the height to cover; a jump leaves a raised point
    for another raised point or the ground, the gap to cover (seed 004, Jump/Climb). At most MOV inches across."""
    ctx = state.ctx
    r = m.radius
    if not ctx.table.on_table(p, r):
        return [(f"{R}/jump/table", f"{m.id} would leave the table")]
    dest = _platform_at(state, p)
    here = _platform_at(state, m.pos) if m.z > 0 else None
    if dest is not None and dest is here:
        return [(f"{R}/jump/same", "that point is on the platform the model stands on: a Move")]
    if dest is not None and dest.id not in ctx.ladders and not wholly_inside(dest, p, r):
        return [(f"{R}/jump/edge", f"{m.id}'s base must stand wholly on {dest.id}")]
    for piece in ctx.solid:
        if piece is not dest and piece is not here and piece.circle_overlaps(p, r - 1e-6):
            return [(f"{R}/jump/terrain", f"{m.id} cannot stand in {piece.kind} terrain {piece.id}")]
    if here is not None and dest is None and here.circle_overlaps(p, r - 1e-6):
        return [(f"{R}/jump/edge", f"{m.id}'s base must be clear of {here.id} when it lands")]
    if overlapping(state.models.values(), p, r, skip=lambda x: x.id == m.id or incap(x)) is not None:
        return [(f"{R}/jump/overlap", f"{m.id} would overlap another model")]
    across = math.hypot(p[0] - m.x, p[1] - m.y)
    if across > stat(m, "MOV") + 1e-9:
        return [(f"{R}/jump/far", f'a Jump/Climb covers at most {stat(m, "MOV")}" across')]
    h_to = dest.height if dest is not None else 0.0
    if here is None:
        if dest is None or dest.id in ctx.ladders or h_to <= m.z:
            return [(f"{R}/jump/needless", "nothing to climb there: a Move")]
        if dest.distance_to(m.pos) - r > pfloat(state, "climb_reach") + 1e-9:
            return [(f"{R}/jump/foot", f"{m.id} is not at the foot of {dest.id}")]
        return (h_to - m.z, "climb")
    tr = ctx.table.trace(m.pos, p)
    return (max(0.0, tr.length - tr.length_in("platform")), "jump")


def check_jump(state: State, m: Model, a: Action) -> list[Reason]:
    """Jump/Climb names a point the model can jump or climb to (:func:`jump_plan`)."""
    if a.point is None:
        return [(f"{R}/action/syntax", "declare 'jump MODEL @x,y'")]
    plan = jump_plan(state, m, a.point)
    return plan if isinstance(plan, list) else []


def start_jump(state: State, m: Model, p: Vec) -> None:
    """A declared Jump/Climb to ``p``: the check covers what :func:`jump_plan` says it must (seed 004, Jump/Climb)."""
    plan = jump_plan(state, m, p)
    assert isinstance(plan, tuple)
    pt = gd.jump_climb_pool(stat(m, "MOV"), state.ctx.params)
    push(state, JumpClimbRoll(m.id, p[0], p[1], plan[0], max(1, pt.dice)))


def jump_spots(state: State, m: Model) -> list[Vec]:
    """Candidate Jump/Climb destinations: the nearest standing point on each platform within reach, and when the
    model stands on a raised point, the ground just beyond its edge in eight directions."""
    out: list[Vec] = []
    mov = float(stat(m, "MOV"))
    here = _platform_at(state, m.pos) if m.z > 0 else None
    for piece in state.ctx.table.platforms:
        if piece is here or piece.distance_to(m.pos) > mov:
            continue
        cx, cy = (piece.bbox[0] + piece.bbox[2]) / 2, (piece.bbox[1] + piece.bbox[3]) / 2
        d = math.hypot(cx - m.x, cy - m.y)
        for k in range(1, int(mov / 0.25) + 1):
            f = min(1.0, k * 0.25 / d) if d > 1e-9 else 1.0
            q = (round(m.x + (cx - m.x) * f, 2), round(m.y + (cy - m.y) * f, 2))
            if wholly_inside(piece, q, m.radius):
                if not isinstance(jump_plan(state, m, q), list):
                    out.append(q)
                break
            if f >= 1.0:
                break
    if here is not None:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            for k in range(1, int(mov / 0.25) + 1):
                q = (round(m.x + dx * k * 0.25, 2), round(m.y + dy * k * 0.25, 2))
                if not here.circle_overlaps(q, m.radius):
                    if not isinstance(jump_plan(state, m, q), list):
                        out.append(q)
                    break
    return out


@values.value
class JumpClimbRoll(GFChance, kind="jump-climb", prompt="jump/climb"):
    """The Jump/Climb check: MOV dice at TN 4, each success 1" (seed 004). Short of what it needs, the model
    falls: 1 wound per full 3" of the drop, ARM at TN 4 (digest B2, PROPOSED): a failed climb stays at the
    foot, a failed jump lands on the ground along its line."""

    model: str
    x: float
    y: float
    need: float
    n: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), "jump/climb", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = gd.jump_climb_pool(stat(m, "MOV"), state.ctx.params)
        s = count(state, values[: pt.dice], pt.tn) if pt.dice > 0 else 0
        dist = gd.jump_climb_distance(s, state.ctx.params)
        ok = dist + 1e-9 >= self.need
        events.append(DiceRolled("jump/climb at 4+", values, f'{dist}" of {self.need:.1f}" needed', m.id))
        target = (self.x, self.y)
        if ok and not isinstance(jump_plan(state, m, target), list):
            place(state, m, target, events)
            return
        drop = m.z if m.z > 0 else min(float(dist), self.need)
        if m.z > 0:
            land = _landing(state, m, target)
            if land is None:
                events.append(Note(f"{m.id} fails and stays where it is", f"{R}/jump/fail"))
                return
            place(state, m, land, events)
        wounds = gd.fall_wounds(drop, state.ctx.params)
        events.append(Note(f'{m.id} falls {drop:.1f}": {wounds} wounds', f"{R}/jump/fall"))
        if wounds > 0:
            armour = gd.pool_test(stat(m, "ARM"), pint(state, "fall_armour_tn"), rules_of(state))
            save_wounds(state, m, armour, wounds, False)


def _landing(state: State, m: Model, toward_: Vec) -> Vec | None:
    """Where a failed jump lands: the first ground point along its line where the base fits."""
    for k in range(1, 41):
        f = k / 40
        q = (round(m.x + (toward_[0] - m.x) * f, 2), round(m.y + (toward_[1] - m.y) * f, 2))
        if _platform_at(state, q) is not None or not state.ctx.table.on_table(q, m.radius):
            continue
        if any(s.circle_overlaps(q, m.radius - 1e-6) for s in state.ctx.solid):
            continue
        if overlapping(state.models.values(), q, m.radius, skip=lambda x: x.id == m.id or incap(x)) is None:
            return q
    return None
