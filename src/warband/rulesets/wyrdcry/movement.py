"""Movement (digest ``wyrdcry.md`` §A4, W [R]: Move and Retreat): where a moving or retreating fighter may go and
how it gets there.

A Move goes up to the fighter's Move (plus Rush: :func:`allowance`) in straight legs, each rounded up
(``move_leg_rounding``: :func:`leg_cost`), round terrain and enemy bases; a Retreat goes ``retreat_distance`` and
ends clear of every enemy. :func:`move_plan` judges a destination and says how it is reached: walking (onto a
platform's top or down from it), climbing over walls, ending part-way up a side, or jumping across open space
(:class:`MovePlan`); what climbing costs and every fall are ``climbing.py``. The player picks the destination
at :class:`MoveTo` among candidates (toward the nearest enemies, round terrain, onto platforms, over walls, eight
directions, the centre: :func:`move_candidates`, :func:`climb_candidates`) or names any legal point.
"""

from __future__ import annotations

import math
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.climbing import foot_point, gap_across, over_point, platform_under, stands_on, touches
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.space import gap, gap_at, overlapping
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry.climbing import CLIMBABLE, JumpRoll, climb_rate, climbed, climbing, landed
from warband.rulesets.wyrdcry.core import R, State, Vec, WChoice, enemies_of, eng_range, is_out, place, solids


def allowance(state: State, m: Model) -> float:
    """A Move's inches: the fighter's Move plus Rush's (S 19)."""
    return float(m.data["move"]) + float(m.flags.get("move_bonus", 0))


def leg_cost(state: State) -> Any:
    """D §A4: a leg of a Move costs its length rounded up to ``move_leg_rounding`` inches."""
    step = float(state.ctx.params["move_leg_rounding"])

    def cost(p: Vec, q: Vec) -> float:
        d = math.hypot(q[0] - p[0], q[1] - p[1])
        return math.ceil(d / step - 1e-9) * step if step > 0 else d

    return cost


@values.value
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
    here = platform_under(solids(state), start) if m.z > 0 and held is None else None
    there = platform_under(solids(state), dest)
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
    left = allow - (rise * climb_rate(state, there) if there is not None and rise > 1e-9 else 0.0)
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
    """The offered destinations of a Move or Retreat (any legal point may be named too): toward the nearest enemies and
    round terrain toward the nearest, eight directions at full and half reach, onto platforms and over walls, toward the
    centre; each one legal (:func:`move_problems`)."""
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
    """For each of ``foes`` that terrain hides from the straight line: as far along the cheapest route round the terrain
    as the allowance pays for."""
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


@values.value
class MoveTo(WChoice, kind="destination", about="model"):
    """Where a moving or retreating fighter goes: the candidates, or any legal point of the table; ``[climb]``
    after a point ends the Move part-way up the wall or platform side beside it (D §A4)."""

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
