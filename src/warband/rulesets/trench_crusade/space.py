"""Where a model can move on the table (seed 000 §Actions: Move, Charge, Retreat, Dash; digest §7): checked moves
and their paths, climbs, jumps and drops, candidate destinations, the line of a Retreat, where a Charge ends. Pure
functions of a state; nothing here changes it (the steps that move models are in :mod:`.movement`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from warband.kernel import native
from warband.kernel.climbing import platform_under
from warband.kernel.errors import Reason
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import (
    clear_of_circles,
    corridor,
    toward,
    unit,
)
from warband.kernel.state import Model
from warband.kernel.values import value
from warband.rulesets.trench_crusade import abilities
from warband.rulesets.trench_crusade.context import Context
from warband.rulesets.trench_crusade.core import R, State
from warband.rulesets.trench_crusade.sight import engaged_with

_SOLID = frozenset(("impassable", "blocking"))
#: the compiled candidate loop (None: not built, or WARBAND_PURE=1; the Python loop of _move_candidates runs)
_straight_moves = native.load("warband.rulesets.trench_crusade._straight_moves")
_MEMO_LIMIT = 5_000  # placings of the models (each with its answers: envs, candidates, plans) kept at most
_MISS = object()


def _positions(state: State) -> tuple[tuple[float, float, float, bool], ...]:
    """Where every model stands (position, height, on the table or not): the part of the state :func:`_memo`'s
    answers depend on."""
    return tuple([(m.x, m.y, m.z, m.on_table) for m in state.models.values()])


#: The movement memo's answers for one placing of the models, by question.
Answers = dict[tuple[Any, ...], Any]


def _here(state: State) -> Answers:
    """The movement memo's answers for the models standing where they stand (:func:`_positions`), kept in the
    context: the movement questions below depend on nothing else of the state (the profiles and the table are
    the context's), and a lookahead asks them again on every clone of the same position. One lookup of the
    positions serves every question of a caller (a move's candidates, its env, the plan of the one chosen)."""
    memo = state.ctx.move_memo
    at = _positions(state)
    got: Answers | None = memo.get(at)
    if got is None:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        got = memo[at] = {}
    return got


def _memo(state: State, key: tuple[Any, ...], compute: Callable[[], Any], here: Answers | None = None) -> Any:
    """``compute()``, memoised on ``key`` among the answers for where every model stands (:func:`_here`, or
    ``here`` when the caller has them already)."""
    answers = _here(state) if here is None else here
    hit = answers.get(key, _MISS)
    if hit is _MISS:
        hit = answers[key] = compute()
    return hit


@value
class MovePlan:
    """A checked move: the path, what it costs and what it asks for (a climb roll, a fall, a jump)."""

    path: tuple[Vec, ...]
    cost: float
    end_z: float
    climb: float
    drop: float
    jump: bool
    dangerous: bool

    @property
    def end(self) -> Vec:
        return self.path[-1]


def _own_platform(table: Table, p: Vec) -> TerrainPiece | None:
    """The highest platform whose footprint holds ``p`` (the surface a model there stands on), if any: the
    kernel's climbing geometry (:func:`warband.kernel.climbing.platform_under`)."""
    return platform_under(table.platforms, p)


def _walk_solids(ctx: Context, start_platform: TerrainPiece | None) -> list[TerrainPiece]:
    """Pieces a walking model must go round: impassable and blocking terrain, obstacles too high to step over,
    and raised platforms other than the one it starts on (the one it ends on is dropped per destination)."""
    free = ctx.params["obstacle_free_height"]
    out = []
    for piece in ctx.table.terrain:
        if (
            piece.kind in _SOLID
            or (piece.kind == "obstacle" and piece.height > free + 1e-9)
            or (piece.kind == "platform" and piece.height > free + 1e-9 and piece is not start_platform)
        ):
            out.append(piece)
    return out


def _walk_solids_memo(ctx: Context, start_platform: TerrainPiece | None) -> list[TerrainPiece]:
    """:func:`_walk_solids`, kept in the context's movement memo per start platform (a fresh list each call)."""
    key = ("walk-solids", None if start_platform is None else start_platform.id)  # never one of _memo's keys
    got: tuple[TerrainPiece, ...] | None = ctx.move_memo.get(key)
    if got is None:
        got = ctx.move_memo[key] = tuple(_walk_solids(ctx, start_platform))
    return list(got)


def _difficult_extra(ctx: Context, m: Model) -> float:
    """What an inch of difficult terrain costs ``m`` beyond an inch (none with an ability that ignores it)."""
    return 0.0 if abilities.has_effect(m, "ignore_difficult") else float(ctx.params["difficult_cost"]) - 1.0


def _leg_cost(ctx: Context, m: Model) -> Callable[[Vec, Vec], float]:
    table = ctx.table
    extra = _difficult_extra(ctx, m)

    def cost(a: Vec, b: Vec) -> float:
        tr = table.trace(a, b)
        if not tr.crossings:
            return tr.length
        return tr.length + extra * tr.length_in("difficult")

    return cost


def _straight_clear(a: Vec, b: Vec, solids: list[TerrainPiece]) -> bool:
    minx, maxx = (a[0], b[0]) if a[0] < b[0] else (b[0], a[0])
    miny, maxy = (a[1], b[1]) if a[1] < b[1] else (b[1], a[1])
    for piece in solids:
        bx0, by0, bx1, by1 = piece.bbox
        if bx0 > maxx or bx1 < minx or by0 > maxy or by1 < miny:
            continue
        span = piece.clip(a, b)
        if span is not None and span[1] - span[0] > 1e-9:
            return False
    return True


#: Another model's base as a move sees it: (id, x, y, radius).
Base = tuple[str, float, float, float]


class MoveEnv:
    """What a move of one model is checked against, computed once per model and mode: the enemies (and which
    ones it starts within 1" of), the other bases, the zones its path may not cross and the solid terrain."""

    __slots__ = (
        "_bases",
        "_near",
        "circles",
        "enemies",
        "engaged",
        "gaps",
        "mode",
        "others",
        "rng",
        "solids",
        "start",
        "start_platform",
    )

    def __init__(self, state: State, m: Model, mode: str, target: Model | None = None) -> None:
        ctx = state.ctx
        self.mode = mode
        mx, my, r, side = m.x, m.y, m.radius, m.side
        self.start = (mx, my)
        self.rng = rng = float(ctx.params["engagement_range"])
        within = rng + 1e-9
        move = mode == "move"
        hypot = math.hypot
        # the other bases as (id, x, y, radius) taken now: an env is kept in the movement memo and serves every
        # state with the models where they stand now, and the models of this one may move later
        enemies: list[Base] = []
        gaps: list[float] = []  # gap(m, e) of each enemy
        others: list[Base] = []
        circles: list[tuple[Vec, float]] = []
        engaged: set[str] = set()
        # squared distances for the fast check of a destination (see ``quick_ok``)
        bases: list[tuple[float, float, float]] = []
        near: list[tuple[float, float, float, bool]] = []
        self.enemies, self.others, self.circles, self.engaged = enemies, others, circles, engaged
        self.gaps = gaps
        self._bases, self._near = bases, near
        # one pass over the models (each model's circle depends on its own engagement alone), every float as
        # before: gap(m, o) clamped at 0, the circles' and the squares' sums in the same order
        for o in state.models.values():
            if o is m or not o.on_table:
                continue
            ox, oy, orad = o.x, o.y, o.radius
            base = (o.id, ox, oy, orad)
            others.append(base)
            bases.append((ox, oy, (r + orad - 1e-6) ** 2))
            if o.side != side:
                enemies.append(base)
                d = hypot(mx - ox, my - oy) - r - orad
                d = d if d > 0.0 else 0.0
                gaps.append(d)
                close = d <= within
                if close:
                    engaged.add(o.id)
                near.append((ox, oy, (r + orad + rng + 1e-9) ** 2, close))
                if move and not close:
                    # only a Charge may enter within 1" of an enemy (digest §7), so the path keeps out
                    circles.append(((ox, oy), orad + r + rng))
                    continue
            if o is not target:
                circles.append(((ox, oy), orad + r))
        self.start_platform = _own_platform(ctx.table, self.start)
        self.solids = _walk_solids_memo(ctx, self.start_platform)

    def quick_ok(self, dest: Vec) -> bool:
        """True when no base overlaps ``dest`` and the engagement rule of the mode holds there: the common case of
        :func:`check_destination`, without building reasons."""
        x, y = dest
        for ox, oy, lim2 in self._bases:
            dx, dy = x - ox, y - oy
            if dx * dx + dy * dy < lim2:
                return False
        if self.mode == "move":
            for ex, ey, lim2, engaged in self._near:
                dx, dy = x - ex, y - ey
                if (dx * dx + dy * dy <= lim2) != engaged:
                    return False
        elif self.mode == "retreat":
            for ex, ey, lim2, _ in self._near:
                dx, dy = x - ex, y - ey
                if dx * dx + dy * dy <= lim2:
                    return False
        return True


def _env(state: State, m: Model, mode: str, target: Model | None, here: Answers) -> MoveEnv:
    """``MoveEnv(state, m, mode, target)``, kept in the movement memo (:func:`_memo`; ``here``: the answers where
    the models stand): an env reads only the models' positions, sides, bases and ids and the context, so one
    built for the options of a move (its candidates, a charge's spots) serves the plan of the move chosen, and
    every clone of the same position. Nothing changes an env once built."""
    aim = None if target is None else target.id
    got: MoveEnv = _memo(state, ("env", m.id, mode, aim), lambda: MoveEnv(state, m, mode, target), here)
    return got


def check_destination(state: State, m: Model, dest: Vec, mode: str, env: MoveEnv | None = None) -> list[Reason]:
    """Rules about where a model may end a move, whatever the path (seed 000 Move/Retreat; digest §7)."""
    env = env or MoveEnv(state, m, mode)
    table = state.ctx.table
    out: list[Reason] = []
    r = m.radius
    if not table.on_table(dest, r):
        out.append((f"{R}/move/table-edge", f"({dest[0]:.2f}, {dest[1]:.2f}) puts the base off the table"))
        return out
    for piece in state.ctx.solid_pieces:
        if piece.circle_overlaps(dest, r):
            out.append((f"{R}/move/impassable", f"the base would stand in {piece.kind} terrain {piece.id}"))
            return out
    if env.quick_ok(dest):
        return out
    for oid, ox, oy, orad in env.others:
        if math.hypot(dest[0] - ox, dest[1] - oy) < r + orad - 1e-6:
            out.append((f"{R}/move/bases-overlap", f"the base would overlap {oid}"))
            return out
    rng = env.rng
    if mode == "move":
        for eid, ex, ey, erad in env.enemies:
            near = _gap_at(dest, r, ex, ey, erad) <= rng + 1e-9
            if near and eid not in env.engaged:
                out.append((f"{R}/move/enter-engagement", f'only a Charge may move within 1" of an enemy ({eid})'))
            elif not near and eid in env.engaged:
                out.append((f"{R}/move/leave-engagement", f'a model within 1" of {eid} may only leave it by a Retreat'))
    elif mode == "retreat":
        for eid, ex, ey, erad in env.enemies:
            if _gap_at(dest, r, ex, ey, erad) <= rng + 1e-9:
                out.append((f"{R}/retreat/end-clear", f'a Retreat must end more than 1" from every enemy ({eid})'))
    return out


def _gap_at(p: Vec, r: float, x: float, y: float, radius: float) -> float:
    """:func:`warband.kernel.space.gap_at` to a base of ``radius`` at (``x``, ``y``): the same floats."""
    d = math.hypot(p[0] - x, p[1] - y) - r - radius
    return d if d > 0.0 else 0.0


def plan_move(
    state: State,
    m: Model,
    dest: Vec,
    allowance: float,
    mode: str = "move",
    target: Model | None = None,
    straight: bool = False,
    env: MoveEnv | None = None,
    climb_over: bool = True,
) -> MovePlan | list[Reason]:
    """Check a move of ``m`` to ``dest`` with ``allowance`` inches; return the plan or the broken rules.

    Difficult terrain costs ``difficult_cost`` per inch; obstacles up to ``obstacle_free_height`` are free;
    a step up higher than that is a sheer climb (its height counts against the allowance and needs a Risky
    roll, made by the caller); a drop of ``fall_height`` or more is a fall (seed 000 Move; digest §7).
    ``straight`` skips the search for a way round obstacles (used for generating candidates quickly). When no
    way round is in reach, the straight line may climb over the sheer surfaces of any piece but impassable
    terrain (seed 000 Move: 'your model can climb sheer surfaces'): each piece's height counts as climb
    (``climb_over`` False: never, for a charge)."""
    if env is None:
        here = _here(state)
        aim = None if target is None else (target.id, target.x, target.y, target.z)
        key = ("plan", m.id, m.x, m.y, m.z, dest, allowance, mode, aim, straight, climb_over)
        got: MovePlan | list[Reason] = _memo(
            state,
            key,
            lambda: _plan_move(
                state,
                m,
                dest,
                allowance,
                mode,
                target,
                straight,
                _env(state, m, mode, target, here),
                climb_over,
                clear=_listed(state, m, dest, allowance, mode, target, here),
            ),
            here,
        )
        return got if isinstance(got, MovePlan) else list(got)
    return _plan_move(state, m, dest, allowance, mode, target, straight, env, climb_over)


def _listed(
    state: State,
    m: Model,
    dest: Vec,
    allowance: float,
    mode: str,
    target: Model | None,
    here: Answers,
) -> bool:
    """Whether ``dest`` is one of the :func:`move_candidates` of ``m`` with ``allowance`` listed (and still in the
    memo) for the models standing where they stand (``here``: their answers): a candidate is kept only when the
    straight plan to it is made (``plan_move(..., straight=True)``, with the same env), so it passes
    :func:`check_destination` and its straight line is clear of solids and bases. The destination a Move's menu
    offered, chosen."""
    if mode != "move" or target is not None:
        return False
    got = here.get(("moves", m.id, m.x, m.y, m.z, allowance))
    return got is not None and dest in got


def _plan_move(
    state: State,
    m: Model,
    dest: Vec,
    allowance: float,
    mode: str,
    target: Model | None,
    straight: bool,
    env: MoveEnv | None,
    climb_over: bool,
    checked: bool = False,
    clear: bool = False,
) -> MovePlan | list[Reason]:
    """:func:`plan_move` itself (``checked``: the caller has found ``dest`` passes :func:`check_destination`;
    ``clear``: that, and the straight line to it is clear of the solids and the bases, see :func:`_listed`)."""
    env = env or MoveEnv(state, m, mode, target)
    if not (checked or clear):
        reasons = check_destination(state, m, dest, mode, env)
        if reasons:
            return reasons
    ctx = state.ctx
    table = ctx.table
    p = ctx.params
    start = env.start
    end_platform = _own_platform(table, dest)
    end_z = end_platform.height if end_platform is not None else 0.0
    solids = [x for x in env.solids if x is not end_platform] if end_platform is not None else env.solids
    path: list[Vec]
    dangerous = False
    over = 0.0
    if clear or (_straight_clear(start, dest, solids) and clear_of_circles(start, dest, env.circles)):
        path = [start, dest]
        tr = table.trace(start, dest)
        cost = tr.length
        if tr.crossings:
            cost += _difficult_extra(ctx, m) * tr.length_in("difficult")
            dangerous = any(c.piece.kind == "dangerous" for c in tr.crossings)
    elif straight:
        return [(f"{R}/move/no-path", "the straight line is blocked")]
    else:
        cost_fn = _leg_cost(ctx, m)
        walls = solids
        circles, solids = corridor(start, dest, allowance, env.circles, solids)
        found = table.shortest_path(
            start, dest, m.radius, solids, circles, cost=cost_fn, max_cost=allowance + 1e-6, cost_at_least_length=True
        )
        if found is None and climb_over:
            found, over = _climb_over(start, dest, walls, env, cost_fn)
        if found is None:
            return [(f"{R}/move/no-path", f'no path within {allowance:g}" reaches ({dest[0]:.2f}, {dest[1]:.2f})')]
        path, cost = found
        dangerous = any(
            c.piece.kind == "dangerous"
            for i in range(len(path) - 1)
            for c in table.trace(path[i], path[i + 1]).crossings
        )
    dz = end_z - m.z
    free = p["obstacle_free_height"]
    climb = (dz if dz > free + 1e-9 else 0.0) + over
    drop = -dz if dz < 0 else 0.0
    jump = False
    if m.z > free and end_z > free and abs(dz) <= free + 1e-9 and env.start_platform is not end_platform:
        jump = True
        span = _gap_length(table, start, dest)
        if span > p["jump_gap_fraction"] * m.data["movement"] + 1e-9:
            return [(f"{R}/move/jump-too-far", f"a gap of {span:.2f}\" is more than half the model's Movement")]
    total = cost + climb
    if total > allowance + 1e-6:
        return [(f"{R}/move/too-far", f'the move costs {total:.2f}" but the model may move {allowance:g}"')]
    return MovePlan(tuple(path), total, end_z, climb, drop, jump, dangerous)


def _climb_over(
    a: Vec, b: Vec, walls: list[TerrainPiece], env: MoveEnv, cost_fn: Callable[[Vec, Vec], float]
) -> tuple[tuple[list[Vec], float] | None, float]:
    """The straight line ``a -> b`` over the sheer sides of the pieces in its way (seed 000 Move: 'climb sheer
    surfaces'), or None when impassable terrain or a base is in the way: ((path, cost), inches climbed)."""
    if not clear_of_circles(a, b, env.circles):
        return None, 0.0
    up = 0.0
    for piece in walls:
        span = piece.clip(a, b)
        if span is None or span[1] - span[0] <= 1e-9:
            continue
        if piece.kind == "impassable":
            return None, 0.0
        up += piece.height
    return ([a, b], cost_fn(a, b)), up


def _gap_length(table: Table, a: Vec, b: Vec) -> float:
    tr = table.trace(a, b)
    covered = sum(c.s1 - c.s0 for c in tr.crossings if c.piece.kind == "platform")
    return max(0.0, tr.length - covered)


def _r2(p: Vec) -> Vec:
    return (round(p[0], 2), round(p[1], 2))


_CANDIDATE_SPACING = 0.5  # inches: candidate destinations closer than this to each other are one choice


def move_candidates(state: State, m: Model, allowance: float) -> list[Vec]:
    """A finite, deterministic set of sensible destinations for a Move: toward each enemy (stopping outside
    1"), onto the nearest objectives, into the cover of nearby terrain, onto reachable platforms, and eight
    compass points at full distance (each brought 40% closer if the full one is not allowed). A point within
    ``_CANDIDATE_SPACING`` of one already kept adds nothing and is skipped. Every candidate passes
    :func:`plan_move`."""
    here = _here(state)
    got: list[Vec] = _memo(
        state,
        ("moves", m.id, m.x, m.y, m.z, allowance),
        lambda: _move_candidates(state, m, allowance, env=_env(state, m, "move", None, here)),
        here,
    )
    return list(got)


def _move_candidates(
    state: State, m: Model, allowance: float, compiled: bool | None = None, env: MoveEnv | None = None
) -> list[Vec]:
    """:func:`move_candidates` itself. The loop over the raw points runs compiled when the extension
    ``_straight_moves`` is built (``compiled`` None; True or False forces one path: the property test compares
    them); the Python loop below is the reference, and the fallback (``WARBAND_PURE=1``,
    :mod:`warband.kernel.native`). ``env``: the move's :class:`MoveEnv` (mode "move"), when the caller has it."""
    ctx = state.ctx
    start = (m.x, m.y)
    pts: list[Vec] = []
    rng = ctx.params["engagement_range"]
    env = env or MoveEnv(state, m, "move")
    # the nearest three enemies: env's are standing_enemies(state, m) in order, with gap(m, e) each (a stable sort)
    gaps = env.gaps
    enemies = [env.enemies[i] for i in sorted(range(len(gaps)), key=gaps.__getitem__)[:3]]
    for _, ex, ey, er in enemies:
        d = math.hypot(ex - m.x, ey - m.y)
        if d <= 1e-9:
            continue
        stop = max(0.0, min(allowance, d - er - m.radius - rng - 0.05))
        if stop > 0.2:
            pts.append(toward(start, (ex, ey), stop))
    objectives = sorted(ctx.objectives, key=lambda o: math.hypot(o.at[0] - m.x, o.at[1] - m.y))[:3]
    for o in objectives:
        d = math.hypot(o.at[0] - m.x, o.at[1] - m.y)
        pts.append(o.at if d <= allowance else toward(start, o.at, allowance))
    threat = enemies[0] if enemies else None
    near = []
    for piece, c in _cover_centroids(ctx):
        d = math.hypot(c[0] - m.x, c[1] - m.y)
        if d <= allowance + 3:
            near.append((d, piece.id, piece, c))
    near.sort(key=lambda x: (x[0], x[1]))
    for _, _, piece, c in near[:4]:
        if piece.kind == "platform":
            pts.append(c)
        elif threat is not None:
            away = unit((c[0] - threat[1], c[1] - threat[2]))
            reach = piece.distance_to(c)  # 0 inside; step out past the far edge
            edge = _far_side(piece, c, away)
            pts.append((edge[0] + away[0] * (m.radius + 0.1 + reach), edge[1] + away[1] * (m.radius + 0.1 + reach)))
    for cos, sin in _COMPASS:
        pts.append((m.x + cos * allowance, m.y + sin * allowance))
    if compiled is None:
        compiled = _straight_moves is not None
    if compiled:
        return _compiled_loop(state, m, allowance, pts, env)
    out: list[Vec] = []
    table = ctx.table
    spacing2 = _CANDIDATE_SPACING**2
    reach = allowance + 1e-6  # plan_move's own tolerance
    mx, my = m.x, m.y
    for raw in pts:
        for shrink in (1.0, 0.6):
            cx, cy = round(mx + (raw[0] - mx) * shrink, 2), round(my + (raw[1] - my) * shrink, 2)  # as _r2
            cand = (cx, cy)
            if (cx - mx) ** 2 + (cy - my) ** 2 < spacing2 or _near_any(cx, cy, out, spacing2):
                break
            if not table.on_table(cand, m.radius):
                continue
            if math.hypot(cand[0] - m.x, cand[1] - m.y) > reach:
                continue  # a straight move costs at least its length: plan_move would refuse it as too far
            plan = plan_move(state, m, cand, allowance, straight=True, env=env)
            if isinstance(plan, MovePlan):
                out.append(cand)
                break
    return out


def _compiled_loop(state: State, m: Model, allowance: float, pts: list[Vec], env: MoveEnv) -> list[Vec]:
    """The candidate loop of :func:`_move_candidates` in C (``_straight_moves.Candidates.run``): the same kept
    points in the same order; a point it cannot settle outside rounding is asked of :func:`plan_move` here."""
    reach = allowance + 1e-6
    mx, my = m.x, m.y

    def ask(cand: Vec) -> bool:
        if math.hypot(cand[0] - mx, cand[1] - my) > reach:
            return False
        return isinstance(plan_move(state, m, cand, allowance, straight=True, env=env), MovePlan)

    got: list[Vec] = _loop(state, m, allowance, env, env._near, ask).run(pts, _CANDIDATE_SPACING**2)
    return got


def _loop(state: State, m: Model, allowance: float, env: MoveEnv, near: list[Any], ask: Any) -> Any:
    """The compiled loop's view of a move of ``m`` (``_straight_moves.Candidates``): the table, the model, the
    allowance and ``env``'s bases and circles, with ``near`` as its engagement circles (none for a Charge)."""
    assert _straight_moves is not None
    ctx = state.ctx
    sp = env.start_platform
    start_platform = -1 if sp is None else next(i for i, t in enumerate(ctx.table.terrain) if t is sp)
    return _straight_moves.Candidates(
        _terrain(ctx),
        m.x,
        m.y,
        m.z,
        m.radius,
        allowance,
        _difficult_extra(ctx, m),
        float(ctx.params["obstacle_free_height"]),
        start_platform,
        env._bases,
        near,
        env.circles,
        ask,
    )


_TERRAIN: dict[tuple[int, float], tuple[Table, Any]] = {}


def _terrain(ctx: Context) -> Any:
    """The table's terrain as the compiled loop's C arrays, per table and obstacle-free height (the walk solids
    of :func:`_walk_solids` but the start platform; ``ctx.solid_pieces``); shared by the games on one table."""
    free = float(ctx.params["obstacle_free_height"])
    key = (id(ctx.table), free)
    hit = _TERRAIN.get(key)
    if hit is None or hit[0] is not ctx.table:
        assert _straight_moves is not None
        pieces = list(ctx.table.terrain)
        solid = [any(p is q for q in ctx.solid_pieces) for p in pieces]
        walk_ids = {id(p) for p in _walk_solids(ctx, None)}
        walk = [id(p) in walk_ids for p in pieces]
        if len(_TERRAIN) >= 64:
            _TERRAIN.clear()
        hit = _TERRAIN[key] = (
            ctx.table,
            _straight_moves.Terrain(ctx.table.width, ctx.table.depth, pieces, solid, walk),
        )
    return hit[1]


#: the eight compass directions of the candidates at full distance (k * 45 degrees)
_COMPASS = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))


def _cover_centroids(ctx: Context) -> list[tuple[TerrainPiece, Vec]]:
    """The pieces a Move may head into (cover and platforms) with their centroids, in terrain order: the same
    every call of a game, so kept in the context's movement memo."""
    got: list[tuple[TerrainPiece, Vec]] | None = ctx.move_memo.get(_COVER_KEY)
    if got is None:
        got = [(p, _centroid(p)) for p in ctx.table.terrain if p.id in ctx.cover_ids or p.kind == "platform"]
        ctx.move_memo[_COVER_KEY] = got
    return got


_COVER_KEY = ("cover-centroids",)  # a 1-tuple: never one of _memo's (question, positions) keys


def _near_any(x: float, y: float, pts: list[Vec], limit2: float) -> bool:
    """Whether some point of ``pts`` is nearer ``(x, y)`` than the square root of ``limit2``."""
    for q in pts:  # noqa: SIM110 - a loop, not any(<generator>): this runs for every candidate of every move
        if (x - q[0]) ** 2 + (y - q[1]) ** 2 < limit2:  # ** 2, not a product: the same floats as before
            return True
    return False


def _centroid(piece: TerrainPiece) -> Vec:
    xs = [q[0] for q in piece.polygon]
    ys = [q[1] for q in piece.polygon]
    return (sum(xs) / len(xs), sum(ys) / len(ys))


def _far_side(piece: TerrainPiece, c: Vec, away: Vec) -> Vec:
    """The point where a ray from the centroid along ``away`` leaves the footprint."""
    far = (c[0] + away[0] * 100, c[1] + away[1] * 100)
    span = piece.clip(c, far)
    if span is None:
        return c
    return (c[0] + (far[0] - c[0]) * span[1], c[1] + (far[1] - c[1]) * span[1])


def away_direction(state: State, m: Model) -> Vec:
    """'Directly away from its opponent' (seed 000 Retreat): away from the engaged enemies' centre."""
    engaged = engaged_with(state, m)
    if not engaged:
        return (1.0, 0.0)
    cx = sum(e.x for e in engaged) / len(engaged)
    cy = sum(e.y for e in engaged) / len(engaged)
    return unit((m.x - cx, m.y - cy))


def retreat_angle_ok(state: State, m: Model, dest: Vec, away: Vec) -> bool:
    v = (dest[0] - m.x, dest[1] - m.y)
    d = math.hypot(v[0], v[1])
    if d <= 1e-9:
        return False
    cos = (v[0] * away[0] + v[1] * away[1]) / d
    return cos >= math.cos(math.radians(state.ctx.params["retreat_angle"])) - 1e-9


_RETREAT_STEP = 0.1  # inches: how finely the reach of a Retreat along its line is measured


def retreat_reach(state: State, m: Model, allowance: float, direction: Vec, env: MoveEnv | None = None) -> float:
    """How far ``m`` can Retreat in a straight line along ``direction`` (at most ``allowance``): the full
    Movement unless the table (its edge, terrain, bases, an enemy's 1") stops it (seed 000 Retreat)."""
    env = env or MoveEnv(state, m, "retreat")
    d = allowance
    while d > _RETREAT_STEP / 2:
        p = (m.x + direction[0] * d, m.y + direction[1] * d)
        if isinstance(plan_move(state, m, p, allowance, "retreat", straight=True, env=env), MovePlan):
            return d
        d -= _RETREAT_STEP
    return 0.0


def retreat_candidates(state: State, m: Model, allowance: float, away: Vec) -> list[Vec]:
    """Destinations directly away (and off it by up to ``retreat_angle`` either way), each as far as the
    Movement or the table allows along its line."""
    here = _here(state)
    got: list[Vec] = _memo(
        state,
        ("retreats", m.id, m.x, m.y, m.z, allowance, away),
        lambda: _retreat_candidates(state, m, allowance, away, _env(state, m, "retreat", None, here)),
        here,
    )
    return list(got)


def _retreat_candidates(state: State, m: Model, allowance: float, away: Vec, env: MoveEnv) -> list[Vec]:
    out: list[Vec] = []
    tol = math.radians(state.ctx.params["retreat_angle"])
    base = math.atan2(away[1], away[0])
    for ang in (base, base + tol * 0.9, base - tol * 0.9):
        direction = (math.cos(ang), math.sin(ang))
        reach = retreat_reach(state, m, allowance, direction, env)
        cand = _r2((m.x + direction[0] * reach, m.y + direction[1] * reach))
        ok = reach > 0 and cand not in out and retreat_angle_ok(state, m, cand, away)
        if ok and isinstance(plan_move(state, m, cand, allowance, "retreat", env=env), MovePlan):
            out.append(cand)
    return out
