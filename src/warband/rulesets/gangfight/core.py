"""What every Gangfight rules module shares: the context, the state type, the step bases, the parameters and dice
on the state, model helpers, the Action Sequence's bookkeeping and the table queries (movement, sight, close
combat) on the kernel's :mod:`warband.kernel.space` and :mod:`warband.kernel.geometry`.

Every other rules module imports this one; the package's ``__init__`` lists them in the order they build on each
other. Model ids are ``a1..aN`` / ``b1..bN`` in party order. Per-model state lives in ``Model.tokens`` (``ap``,
``en``) and ``Model.flags`` (``finished``, ``knocked``, ``incap``, ``loaded``, ``uses``, ``bulwark``,
``interrupted``); per-game state in ``state.vars`` (see ``docs/design/gangfight-steps.md`` §7).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.context import GameContext, Rosters, SideSpecs, context_fields, number_models
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Moved
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import clear_of_circles, gap, memo_sight, overlapping, walk_path
from warband.kernel.state import GameState, Model
from warband.kernel.steps import Auto, Chance, Choice
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.terms import DENSITIES, Density, Size
from warband.rulesets.gangfight.terrain import segment_clear

R = "gangfight"
SIDE_PREFIX = ("a", "b")


@dataclass(kw_only=True)
class Context(GameContext):
    """A Gangfight game's immutable part beyond the kernel's: the round limit, the model order, the density of
    the terrain (``rules:`` options of the scenario), its ladders (the kernel's ``ladder: true`` on a terrain
    piece) and the pieces that stop movement."""

    rounds: int
    seed: int
    order: tuple[tuple[str, ...], tuple[str, ...]]
    density: dict[str, str] = field(default_factory=dict)
    ladders: frozenset[str] = frozenset()
    solid: tuple[TerrainPiece, ...] = ()
    solid_run: tuple[TerrainPiece, ...] = ()

    def __post_init__(self) -> None:
        terrain = self.table.terrain
        blocked = ("impassable", "blocking")
        self.solid = tuple(
            p for p in terrain if p.kind in blocked or (p.kind == "platform" and p.id not in self.ladders)
        )
        self.solid_run = (*self.solid, *(p for p in terrain if p.kind == "difficult"))


State = GameState[Context]


#: The kernel's step bases over this game's state; a step's ``rules`` (the prefix of its refusals' rule ids) is
#: this package's ruleset id (:func:`warband.kernel.records.ruleset_of_module`).
GFChoice = Choice[State]
GFChance = Chance[State]
GFAuto = Auto[State]


def build_context(
    params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int, specs: SideSpecs
) -> Context:
    """The context of a game of these documents; ``specs`` are each side's model profiles in party order."""
    profiles, order = number_models(specs)
    opts = dict(scenario.get("rules") or {})
    density = {k.removeprefix("density."): str(v) for k, v in opts.items() if k.startswith("density.")}
    ladders = frozenset(str(t["id"]) for t in scenario.get("terrain", []) if t.get("ladder") is True)
    rounds = int(params["max_rounds"])
    return Context(
        **context_fields(params, rosters, scenario, profiles),
        rounds=rounds,
        seed=seed,
        order=order,
        density=density,
        ladders=ladders,
    )


# ------------------------------------------------------------------------------------------- parameters and dice
def P(state: State, name: str) -> Any:
    return state.ctx.params[name]


def pint(state: State, name: str) -> int:
    return int(state.ctx.params[name])


def pfloat(state: State, name: str) -> float:
    return float(state.ctx.params[name])


def rules_of(state: State) -> gd.DiceRules:
    return gd.DiceRules.from_params(state.ctx.params)


def pool(state: State, n: int, tn: int) -> gd.PoolTest:
    return gd.pool_test(n, tn, rules_of(state))


def count(state: State, values: tuple[int, ...], tn: int) -> int:
    return gd.successes(values, tn, rules_of(state))


# ------------------------------------------------------------------------------------------- models
def side_name(side: int) -> str:
    return "AB"[side]


def stat(m: Model, name: str) -> int:
    return int(m.data["profile"][name])


def size(m: Model) -> Size:
    s: Size = m.data["size"]
    return s


def ap(m: Model) -> int:
    return m.token("ap")


def set_ap(m: Model, value: int) -> None:
    m.tokens["ap"] = max(0, value)


def en(m: Model) -> int:
    return m.tokens.get("en", stat(m, "EN"))


def knocked(m: Model) -> bool:
    return bool(m.flags.get("knocked", False))


def incap(m: Model) -> bool:
    return bool(m.flags.get("incap", False))


def standing(m: Model) -> bool:
    """On the table and not incapacitated."""
    return m.on_table and not incap(m)


def leader(state: State, side: int) -> Model:
    """The party leader (digest B1: at least one Hero leads the party): the model marked ``leader``, else the
    first."""
    ms = state.side_models(side)
    return next((m for m in ms if m.data.get("leader")), ms[0])


def threat(state: State, m: Model, with_reach: bool = False) -> float:
    """Threat range by size (digest B1 Size); a knocked-over model has none (digest B2, PROPOSED); a Reach weapon
    adds ``reach_bonus`` to the distance it attacks at."""
    if knocked(m):
        return -1.0
    t = gd.threat_range(size(m), state.ctx.params)
    if with_reach and any(w.get("reach") for w in m.data["melee"]):
        t += float(state.ctx.params["reach_bonus"])
    return t


def within_threat(state: State, m: Model, t: Model, touching: bool = False) -> bool:
    """``t`` is within ``m``'s threat range, a Reach weapon counted (seed 004, Fight!). With ``touching``, a model
    with no threat range (knocked over) still reaches a base it touches: an interrupt's strike back, a
    counter-charge's attack."""
    reach = threat(state, m, with_reach=True)
    if touching:
        reach = max(0.0, reach)
    return gap(m, t) <= reach + 1e-9


def foes_in_threat(state: State, m: Model) -> list[Model]:
    """The enemy models within ``m``'s threat range (the free Fight! after a charge, seed 004 Charge!)."""
    return [e for e in enemies_of(state, m) if within_threat(state, m, e)]


def melee_weapon(m: Model) -> dict[str, Any]:
    """The melee weapon a model fights with: its best (most ATT + DAM, then the first listed). Every model carries
    its free hand weapon (data digest §2 [P], ``free_weapon`` in the armoury); Unarmed only for a hand-made model
    that lists no melee weapon at all."""
    arms = list(m.data["melee"])
    if not arms:
        return {"name": "Unarmed", "att": -1, "dam": -1, "reach": False, "knockdown": False}
    best: dict[str, Any] = max(arms, key=lambda w: int(w["att"]) + int(w["dam"]))
    return best


def ranged_weapon(m: Model, name: str | None) -> dict[str, Any] | None:
    for w in m.data["ranged"]:
        if w["name"] == name:
            wd: dict[str, Any] = w
            return wd
    return None


def loaded(m: Model, w: dict[str, Any]) -> bool:
    """A weapon that needs no loading is always ready; an archaic one after a Reload (seed 004, Reload/Fire!)."""
    if not w["reload"]:
        return True
    return bool(m.flags.get("loaded", {}).get(w["name"], False))


def set_loaded(m: Model, name: str, value: bool) -> None:
    m.flags["loaded"] = {**m.flags.get("loaded", {}), name: value}


def uses_left(m: Model, w: dict[str, Any]) -> int:
    if not w.get("one_use"):
        return 1
    return int(m.flags.get("uses", {}).get(w["name"], 0))


def spend_use(m: Model, w: dict[str, Any]) -> None:
    if w.get("one_use"):
        uses = dict(m.flags.get("uses", {}))
        uses[w["name"]] = max(0, int(uses.get(w["name"], 0)) - 1)
        m.flags["uses"] = uses


def enemies_of(state: State, m: Model) -> list[Model]:
    return [e for e in state.models.values() if e.side != m.side and standing(e)]


def enemy_target(state: State, a: Action, area: str) -> tuple[Model | None, list[Reason]]:
    """The enemy model on the table that action ``a`` names, or why it names none (rule ``gangfight/AREA/target``)."""
    t = state.models.get(a.target or "")
    m = state.models.get(a.model or "")
    if t is None or m is None or not standing(t) or t.side == m.side:
        return None, [(f"{R}/{area}/target", f"{a.target} is not an enemy model on the table")]
    return t, []


def in_close_combat(state: State, m: Model, other: Model | None = None) -> bool:
    """Base to base with an enemy (``close_combat_gap``): no firing (seed 004, Reload/Fire!)."""
    lim = float(state.ctx.params["close_combat_gap"]) + 0.01
    if other is not None:
        return gap(m, other) <= lim
    return any(gap(m, e) <= lim for e in enemies_of(state, m))


def visible(state: State, a: Model, b: Model) -> bool:
    t = state.ctx.table

    def see(x: Model, y: Model) -> bool:
        return t.can_see(x.pos, x.radius, x.z, x.height, y.pos, y.radius, y.z, y.height)

    return memo_sight(state.ctx.memo, a, b, see)


def in_cover(state: State, m: Model) -> bool:
    return any(p.id in state.ctx.cover_ids for p in state.ctx.table.pieces_at(m.pos))


def density_between(state: State, a: Vec, b: Vec) -> Density:
    """The Charge! terrain (seed 004: flat 2+, light 4+, dense 6+): the densest piece the straight line crosses
    (``charge_terrain = densest-on-path``) or the one the charger stands on (``at-start``)."""
    ctx = state.ctx
    if ctx.params["charge_terrain"] == "at-start":
        pieces = [p.id for p in ctx.table.pieces_at(a)]
    else:
        pieces = [c.piece.id for c in ctx.table.trace(a, b).crossings]
    best: Density = "flat"
    for pid in pieces:
        for d in DENSITIES:
            if ctx.density.get(pid) == d and DENSITIES.index(d) > DENSITIES.index(best):
                best = d
    return best


def place(state: State, m: Model, p: Vec, events: list[Event], travelled: float | None = None) -> None:
    start = m.pos
    m.x, m.y = p
    m.z = state.ctx.table.surface_height(p)
    dist = travelled if travelled is not None else math.hypot(p[0] - start[0], p[1] - start[1])
    events.append(Moved(m.id, start, p, round(dist, 3)))


# ------------------------------------------------------------------------------------------- the action sequence
def declare(state: State) -> int:
    """A new action is declared (seed 004, The Action Sequence): it gets the next number, and no interrupt is yet
    declared against it; a model interrupts an action at most once (``flags["interrupted"]`` holds its number)."""
    seq = int(state.vars["seq"]) + 1
    state.vars["seq"] = seq
    state.vars["decl"] = []
    return seq


def declared(state: State, kind: str) -> list[str]:
    """Models that declared an interrupt of ``kind`` against the current action."""
    return [str(d[1]) for d in state.vars["decl"] if d[0] == kind or str(d[0]).startswith(kind + ":")]


# ------------------------------------------------------------------------------------------- movement
def _leg_cost(state: State, a: Vec, b: Vec) -> float:
    """Inches a leg costs: difficult ground counts double (the kernel's trace measures it)."""
    tr = state.ctx.table.trace(a, b)
    return tr.length + tr.length_in("difficult")


@values.value
class Plan:
    path: tuple[Vec, ...]
    cost: float


def plan_move(
    state: State, m: Model, p: Vec, budget: float, run: bool, straight_only: bool = False
) -> Plan | list[Reason]:
    """A legal route for ``m`` to ``p`` within ``budget`` inches: on the table, clear of other bases and of
    blocking, impassable and ladderless platform terrain (a sheer face is Jump/Climb's); difficult ground costs
    double; a Run may not enter difficult terrain (seed 004, Run)."""
    ctx = state.ctx
    if not ctx.table.on_table(p, m.radius):
        return [(f"{R}/move/table", f"{m.id} would leave the table")]
    o = overlapping(state.models.values(), p, m.radius, skip=lambda x: x.id == m.id or incap(x))
    if o is not None:
        return [(f"{R}/move/overlap", f"{m.id} would overlap {o.id}")]
    solids = ctx.solid_run if run else ctx.solid
    for piece in solids:
        if piece.circle_overlaps(p, m.radius - 1e-6):
            if piece.kind == "platform":  # a sheer face: up or across it is Jump/Climb's (seed 004, Jump/Climb)
                why = f"{piece.id} has no ladder or stairs: {m.id} gets onto it only by a Jump/Climb action"
                return [(f"{R}/move/jump-climb", why)]
            rule = "run/difficult" if run and piece.kind == "difficult" else "move/terrain"
            return [(f"{R}/{rule}", f"{m.id} cannot end in {piece.kind} terrain {piece.id}")]
    circles = [(o.pos, o.radius + m.radius) for o in state.models.values() if o.id != m.id and standing(o)]
    if straight_only:
        blocked = any(_near(x, m.pos, p, m.radius) and not segment_clear(x, m.pos, p, m.radius) for x in solids)
        if blocked or not clear_of_circles(m.pos, p, circles):
            return [(f"{R}/move/route", f"no straight route for {m.id}")]
        path: tuple[Vec, ...] = (m.pos, p)
    else:
        found = ctx.table.shortest_path(
            m.pos,
            p,
            m.radius,
            solids,
            circles,
            cost=lambda a, b: _leg_cost(state, a, b),
            max_cost=budget + 1e-6,
            cost_at_least_length=True,
        )
        if found is None:
            what = " without entering difficult terrain" if run else ""
            rule = "run/difficult" if run else "move/reach"
            return [(f"{R}/{rule}", f'{m.id} cannot reach that point within {budget:g}"{what}')]
        path = tuple(found[0])
    cost = sum(_leg_cost(state, path[i], path[i + 1]) for i in range(len(path) - 1))
    if cost > budget + 1e-6:
        rule = "run/difficult" if run else "move/reach"
        return [(f"{R}/{rule}", f'{m.id} would need {cost:.1f}" of movement; it has {budget:g}"')]
    return Plan(path, cost)


def _near(piece: TerrainPiece, a: Vec, b: Vec, r: float) -> bool:
    """Whether ``piece``'s bounding box comes within ``r`` of the segment's bounding box (a cheap pre-test)."""
    x0, y0, x1, y1 = piece.bbox
    return not (
        x1 < min(a[0], b[0]) - r or x0 > max(a[0], b[0]) + r or y1 < min(a[1], b[1]) - r or y0 > max(a[1], b[1]) + r
    )


DIRECTIONS = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))


def move_candidates(state: State, m: Model, budget: float, run: bool) -> list[Vec]:
    """A finite menu of destinations: the full and half budget in eight directions, and toward the nearest
    enemies and each objective (each checked by :func:`plan_move`)."""
    out: list[Vec] = []
    targets: list[Vec] = []
    for dx, dy in DIRECTIONS:
        for f in (1.0, 0.5):
            targets.append((m.x + dx * budget * f, m.y + dy * budget * f))
    foes = sorted(enemies_of(state, m), key=lambda e: gap(m, e))[:2]
    for e in foes:
        d = math.hypot(e.x - m.x, e.y - m.y)
        reach = min(budget, max(0.0, d - m.radius - e.radius - 0.01))
        if d > 1e-9 and reach > 0.05:
            targets.append((m.x + (e.x - m.x) * reach / d, m.y + (e.y - m.y) * reach / d))
    for ob in state.ctx.objectives:
        d = math.hypot(ob.at[0] - m.x, ob.at[1] - m.y)
        reach = min(budget, d)
        if d > 0.5:
            targets.append((m.x + (ob.at[0] - m.x) * reach / d, m.y + (ob.at[1] - m.y) * reach / d))
    for t in targets:
        q = (round(t[0], 2), round(t[1], 2))
        if q in out:
            continue
        plan = plan_move(state, m, q, budget, run, straight_only=True)
        if isinstance(plan, Plan):
            out.append(q)
    return out


#: Inches a route toward an enemy may run beyond the distance moved and still be followed round terrain; an enemy
#: farther than that by every route is approached along the straight line (a charge or a Fight! that cannot arrive).
ROUTE_SLACK = 4.0


def route_toward(state: State, m: Model, t: Model, dist: float, events: list[Event]) -> float:
    """Move ``m`` up to ``dist`` inches toward ``t``, stopping at base contact (a charge, a threat move):
    along the kernel's shortest route round terrain and other bases, difficult ground at double; returns the gap
    left. When no route reaches the enemy within ``dist`` + :data:`ROUTE_SLACK` (it cannot arrive: seed 004, a
    failed charge still moves the whole distance, a Fight! that cannot reach simply moves its threat range), the
    model moves straight toward it as far as the line allows (PROPOSED)."""
    ctx = state.ctx
    d = math.hypot(t.x - m.x, t.y - m.y)
    if d <= 1e-9 or dist <= 0:
        return gap(m, t)
    contact = m.radius + t.radius + 0.001
    goal = (t.x + (m.x - t.x) * contact / d, t.y + (m.y - t.y) * contact / d)
    if gap(m, t) > dist + ROUTE_SLACK:  # every route is longer than the straight line: no search needed
        straight_toward(state, m, t, dist, events)
        return gap(m, t)
    circles = [(o.pos, o.radius + m.radius) for o in state.models.values() if o.id not in (m.id, t.id) and standing(o)]
    found = ctx.table.shortest_path(
        m.pos,
        goal,
        m.radius,
        ctx.solid,
        circles,
        cost=lambda a, b: _leg_cost(state, a, b),
        max_cost=dist + ROUTE_SLACK,
        cost_at_least_length=True,
    )
    if found is None:
        straight_toward(state, m, t, min(dist, max(0.0, gap(m, t) - 0.001)), events)
        return gap(m, t)
    path = found[0]
    end = walk_path(path, dist, lambda a, b: _leg_cost(state, a, b))
    end = _settle(state, m, path, end)
    if end != m.pos:
        place(state, m, end, events)
    return gap(m, t)


def _settle(state: State, m: Model, path: list[Vec], end: Vec) -> Vec:
    """Back along the straight line to the start until the base overlaps nobody and stands on the table."""
    start = m.pos
    p = end
    for k in range(41):
        f = 1.0 - k / 40
        p = (start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)
        if k == 0:
            p = end
        if (
            state.ctx.table.on_table(p, m.radius)
            and overlapping(state.models.values(), p, m.radius, skip=lambda x: x.id == m.id or incap(x)) is None
            and not any(s.circle_overlaps(p, m.radius - 1e-6) for s in state.ctx.solid)
        ):
            return (round(p[0], 3), round(p[1], 3))
    return start


def straight_toward(state: State, m: Model, t: Model, dist: float, events: list[Event]) -> None:
    """Straight toward ``t`` up to ``dist`` inches, stopped short of terrain it may not enter and other bases."""
    dx, dy = t.x - m.x, t.y - m.y
    d = math.hypot(dx, dy)
    if d <= 1e-9 or dist <= 0:
        return
    ux, uy = dx / d, dy / d
    steps = max(1, int(dist / 0.25))
    for k in range(steps, 0, -1):  # the farthest point of the line that a straight move reaches
        q = (round(m.x + ux * dist * k / steps, 3), round(m.y + uy * dist * k / steps, 3))
        if isinstance(plan_move(state, m, q, dist + 0.01, run=False, straight_only=True), Plan):
            place(state, m, q, events)
            return


def move_away(state: State, m: Model, frm: Model, dist: float, events: list[Event]) -> None:
    """Directly away from ``frm`` up to ``dist`` inches (Flee!): the straight line, stopped short of terrain it
    may not enter, the table edge and other bases."""
    dx, dy = m.x - frm.x, m.y - frm.y
    d = math.hypot(dx, dy)
    ux, uy = (dx / d, dy / d) if d > 1e-9 else (0.0, 1.0 if m.side == 0 else -1.0)
    best = m.pos
    steps = max(1, int(dist / 0.25))
    for k in range(1, steps + 1):
        q = (m.x + ux * dist * k / steps, m.y + uy * dist * k / steps)
        plan = plan_move(state, m, q, dist, run=False, straight_only=True)
        if not isinstance(plan, Plan):
            break
        best = q
    if best != m.pos:
        place(state, m, (round(best[0], 3), round(best[1], 3)), events)
