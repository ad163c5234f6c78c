"""Set-up (digest §1, Claim No Man's Land deployment): the roll-off winner picks a deployment zone
(:class:`ChooseZone`; the roll-off itself is :class:`.turn.RollOff`, which also settles a level Initiative), then
the sides place one model each in turn, wholly inside their zones, the side with more models first
(:class:`Deploy`); INFILTRATORs last, hidden from the enemy (:func:`infiltration_problems`).
When both are on the table the first turn is due (:mod:`.turn`).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import Any

from warband.kernel import setup as kernel_setup
from warband.kernel import values
from warband.kernel.errors import Reason
from warband.kernel.events import Event, placements
from warband.kernel.space import overlapping
from warband.kernel.state import Model
from warband.rulesets.trench_crusade import abilities
from warband.rulesets.trench_crusade.core import TURN_OVER, R, State, Vec, place
from warband.rulesets.trench_crusade.keywords import has_kw


@values.value
class ChooseZone(kernel_setup.ChooseZone[State]):
    """The roll-off winner picks a deployment zone (digest §1)."""

    zone_rule = "deploy/zone"
    by: int

    def first(self, state: State) -> int:
        return first_deployer(state)


@values.value
class Deploy(kernel_setup.Deploy[State]):
    """Standing decision of the deployment: ``by`` places one of its models wholly inside its zone, clear of
    impassable, blocking and dangerous terrain and of other bases (digest §1 CNL). Pending with ``piece`` set,
    it asks where that model goes."""

    by: int
    piece: str = ""

    def pieces(self, state: State, side: int) -> list[str]:
        """The side's models still to deploy; INFILTRATORs only once every other model of both sides is down."""
        lates = _late_ids(state)
        rest = [m for m in undeployed(state, side) if m.id not in lates]
        if rest or any(m.id not in lates for m in undeployed(state, 1 - side)):
            return [m.id for m in rest]
        return [m.id for m in undeployed(state, side)]

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        if infiltrator(m):
            hidden = infiltration_spots(state, m, first)
            if hidden:
                return hidden
        edge = edge_spots(state, m) if edge_reach(m) is not None else []
        if edge and first:
            return edge[:1]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        grid = _zone_grid(state, m)
        clear = set(grid)  # the zone and the terrain already allow these: only the other bases are left to check
        r = m.radius
        # overlapping()'s test of each model on the table (it skips the others): the same floats, the sum of the
        # radii less 1e-6 taken once per model instead of once per point
        placed = [(o.x, o.y, r + o.radius - 1e-6) for o in state.models.values() if o.on_table]
        hypot = math.hypot

        def fits(p: Vec) -> bool:
            if p in clear:  # _overlap_problems: no base overlapped (touching is not overlapping)
                x, y = p
                for ox, oy, lim in placed:  # noqa: SIM110 - a loop, not all(<generator>): every point of a listing
                    if hypot(x - ox, y - oy) < lim:
                        return False
                return True
            return not deploy_problems(state, m, p)

        return edge + kernel_setup.deploy_spots(grid, zone, fits, first)

    def spot_key(self, state: State, piece: str) -> object:
        return state.models[piece].radius  # one side's models with the same base have the same spots

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        if edge_reach(m) is not None:  # Arabian Destrier: a table edge or, failing that, its zone
            edge = edge_problems(state, m, at)
            return edge if edge and deploy_problems(state, m, at) else []
        if infiltrator(m):
            out = infiltration_problems(state, m, at)
            if not out:
                return []
            if infiltration_spots(state, m, first=True):  # it can infiltrate: only a hidden spot will do
                return out
        return deploy_problems(state, m, at)

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        moved: list[Event] = []
        place(state, m, at, state.ctx.table.surface_height(at), moved)
        events.extend(placements(moved))

    def all_deployed(self, state: State, events: list[Event]) -> None:
        """Both warbands are on the table: the first turn is due (the turn loop starts it)."""
        state.phase = TURN_OVER


def _zone_grid(state: State, m: Model) -> list[Vec]:
    """The 6 x 3 grid points of the model's zone where the zone and the terrain allow its base (the same all
    game: kept in the context's memo, and across games on the same table and zone in :data:`_ZONE_GRIDS`)."""
    zi = state.vars["zone_of"][m.side]
    key = ("deploy-grid", zi, m.radius)
    grid: list[Vec] | None = state.ctx.memo.get(key)
    if grid is None:
        table = state.ctx.table
        zone = state.ctx.zones[zi]
        shared = (table.width, table.depth, tuple(table.terrain), zone, m.radius)
        grid = _ZONE_GRIDS.get(shared)
        if grid is None:
            grid = [p for p in kernel_setup.zone_grid(zone, 6, 3) if not _zone_terrain_problems(state, m, p)]
            if len(_ZONE_GRIDS) >= 64:
                _ZONE_GRIDS.clear()
            _ZONE_GRIDS[shared] = grid
        state.ctx.memo[key] = grid
    return grid


#: :func:`_zone_grid` per table (width, depth, terrain pieces), zone and base radius: what
#: :func:`_zone_terrain_problems` depends on, shared by the games of one process; emptied past 64 entries.
_ZONE_GRIDS: dict[tuple[Any, ...], list[Vec]] = {}


def deploy_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    return _zone_terrain_problems(state, m, p) or _overlap_problems(state, m, p)


def _overlap_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    o = overlapping(state.models.values(), p, m.radius)
    return [(f"{R}/deploy/overlap", f"{m.id} would overlap {o.id}")] if o is not None else []


def _ground_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    """Off the zone rules: terrain no model is placed in, or another base, at ``p``."""
    for piece in state.ctx.table.terrain:
        if piece.kind in ("impassable", "blocking", "dangerous") and piece.circle_overlaps(p, m.radius):
            return [(f"{R}/deploy/terrain", f"{m.id} cannot be placed in {piece.kind} terrain {piece.id}")]
    return _overlap_problems(state, m, p)


def _zone_terrain_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    zone = state.ctx.zones[state.vars["zone_of"][m.side]]
    if not kernel_setup.wholly_inside(zone, p, m.radius):
        return [(f"{R}/deploy/zone", f"{m.id} must be placed wholly inside its deployment zone")]
    for piece in state.ctx.table.terrain:
        if piece.kind in ("impassable", "blocking", "dangerous") and piece.circle_overlaps(p, m.radius):
            return [(f"{R}/deploy/terrain", f"{m.id} cannot be placed in {piece.kind} terrain {piece.id}")]
    return []


# ------------------------------------------------------------------------------------------- INFILTRATOR
def infiltrator(m: Model) -> bool:
    """INFILTRATOR (catalogue keyword; digest §9): it deploys after every other model, anywhere out of sight of
    the enemy and at least ``infiltrate_distance`` from it, or, where no such spot exists, in its own zone."""
    return has_kw(m, "INFILTRATOR")


def _late_ids(state: State) -> frozenset[str]:
    """The models that deploy last (:func:`late`): their keywords and abilities never change in a game, so the
    set is kept in the context's memo (the standing decision asks it of every model still to deploy)."""
    got: frozenset[str] | None = state.ctx.memo.get(_LATE_KEY)
    if got is None:
        got = state.ctx.memo[_LATE_KEY] = frozenset(m.id for m in state.models.values() if late(m))
    return got


_LATE_KEY = ("deploy-late",)


#: Inches between the candidate spots an INFILTRATOR is offered over the whole table.
INFILTRATE_STEP = 2.0


def infiltration_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    """Why ``m`` cannot infiltrate to ``p``: off the table, in terrain no model deploys in, on another base,
    too near an enemy or seen by one."""
    table = state.ctx.table
    rule = f"{R}/keyword/infiltrator"
    if not table.on_table(p, m.radius):
        return [(rule, f"{m.id} must be placed wholly on the table")]
    if clash := _ground_problems(state, m, p):
        return clash
    near = float(state.ctx.params["infiltrate_distance"])
    z = table.surface_height(p)
    for e in state.models.values():
        if e.side == m.side or not e.on_table:
            continue
        if math.hypot(e.x - p[0], e.y - p[1]) - e.radius - m.radius < near - 1e-9:
            return [(rule, f'an INFILTRATOR must be at least {near:g}" from every enemy; {e.id} is nearer')]
        if table.can_see(e.pos, e.radius, e.z, e.height, p, m.radius, z, m.height):
            return [(rule, f"an INFILTRATOR must be out of sight of every enemy; {e.id} would see it")]
    return []


def infiltration_spots(state: State, m: Model, first: bool = False) -> list[Vec]:
    """The spots of a grid over the whole table where ``m`` may infiltrate, spread apart (at most
    ``kernel_setup.FINE_SPOTS``); with ``first`` only the first of them (``spread`` keeps the first point first),
    the search stopping there."""
    r = m.radius
    models = state.models.values()
    if first:
        hit = next((spot for spot, p in _hidden_ground(state, m) if overlapping(models, p, r) is None), None)
        return [] if hit is None else [hit]
    ok = [spot for spot, p in _hidden_ground(state, m) if overlapping(models, p, r) is None]
    return kernel_setup.spread(ok, kernel_setup.FINE_SPOTS)


def _hidden_ground(state: State, m: Model) -> list[tuple[Vec, Vec]]:
    """The points of :func:`_infiltration_ground` that pass :func:`infiltration_problems`' enemy tests (far
    enough from every enemy, seen by none): (rounded spot, point). The enemies stand still while the
    INFILTRATORs deploy one by one, and the standing decision, the spot's menu and its check all ask, so they are
    kept in the context's memo per enemy positions and the base's size and height."""
    enemies = [e for e in state.models.values() if e.side != m.side and e.on_table]
    r = m.radius
    key = ("infiltrate-hidden", r, m.height, tuple([(e.x, e.y, e.z, e.radius, e.height) for e in enemies]))
    got: list[tuple[Vec, Vec]] | None = state.ctx.memo.get(key)
    if got is None:
        table = state.ctx.table
        near = float(state.ctx.params["infiltrate_distance"])
        ground = _infiltration_ground(state, m)
        close = _near_enemies(ground, [(e.x, e.y, e.radius) for e in enemies], r, near - 1e-9)
        got = []
        see = table.can_see
        eyes = [(e.pos, e.radius, e.z, e.height) for e in enemies]
        mh = m.height
        for i, (spot, (x, y), z) in enumerate(ground):
            # the cheap distance test first for every enemy, then sight (a loop, not any(<generator>): it runs for
            # every point of the grid and every enemy)
            if i in close:
                continue
            p = (x, y)
            for pos, er, ez, eh in eyes:
                if see(pos, er, ez, eh, p, r, z, mh):
                    break
            else:
                got.append((spot, p))
        state.ctx.memo[key] = got
    return got


def _near_enemies(
    ground: list[tuple[Vec, Vec, float]], enemies: list[tuple[float, float, float]], r: float, bound: float
) -> set[int]:
    """The indices of the ``ground`` points nearer an enemy (x, y, radius) than ``bound`` from a base of radius
    ``r`` (``math.hypot(ex - x, ey - y) - er - r < bound``). Only the points in each enemy's band of x (the
    ground is in order of x: the grid's columns) and within its reach in y are measured: a point nearer than
    ``bound`` is within ``bound + er + r`` along each axis, and the band's slack covers the rounding."""
    xs = [p[0] for _, p, _ in ground]
    hypot = math.hypot
    out: set[int] = set()
    for ex, ey, er in enemies:
        lim = bound + er + r + _BAND_SLACK
        for i in range(bisect_left(xs, ex - lim), bisect_right(xs, ex + lim)):
            x, y = ground[i][1]
            if abs(y - ey) <= lim and hypot(ex - x, ey - y) - er - r < bound:
                out.add(i)
    return out


_BAND_SLACK = 1e-6  # inches: above the rounding of a distance on a table


def _infiltration_ground(state: State, m: Model) -> list[tuple[Vec, Vec, float]]:
    """The points of the infiltration grid where a base of ``m``'s size is wholly on the table and out of the
    terrain no model is placed in (``_ground_problems``' terrain test): (rounded spot, point, surface height).
    They depend on the table and the base alone, so they are kept in the context's memo, and across games on the
    same table (its size and terrain pieces, compared by value) in :data:`_GROUND`."""
    key = ("infiltrate-ground", m.radius)
    got: list[tuple[Vec, Vec, float]] | None = state.ctx.memo.get(key)
    if got is not None:
        return got
    table = state.ctx.table
    shared = (table.width, table.depth, tuple(table.terrain), m.radius)
    got = _GROUND.get(shared)
    if got is None:
        nx, ny = int(table.width // INFILTRATE_STEP), int(table.depth // INFILTRATE_STEP)
        grid = [((i + 0.5) * table.width / nx, (j + 0.5) * table.depth / ny) for i in range(nx) for j in range(ny)]
        forbidden = [p for p in table.terrain if p.kind in ("impassable", "blocking", "dangerous")]
        got = [
            ((round(x, 2), round(y, 2)), (x, y), table.surface_height((x, y)))
            for x, y in grid
            if table.on_table((x, y), m.radius) and not any(p.circle_overlaps((x, y), m.radius) for p in forbidden)
        ]
        if len(_GROUND) >= 64:
            _GROUND.clear()
        _GROUND[shared] = got
    state.ctx.memo[key] = got
    return got


#: :func:`_infiltration_ground` per table (width, depth, terrain pieces) and base radius, shared by the games of
#: one process (the bench, the lab's workers play the same table again and again); emptied past 64 tables.
_GROUND: dict[tuple[Any, ...], list[tuple[Vec, Vec, float]]] = {}


# ------------------------------------------------------------------------------------------- Arabian Destrier
def edge_reach(m: Model) -> float | None:
    """Arabian Destrier (catalogue ability, effect ``edge_deploy``): the inches it must keep from every enemy when
    it deploys on a table edge; None for a model without it."""
    found = abilities.effects(m, "edge_deploy")
    return max(fx.range for fx in found) if found else None


def late(m: Model) -> bool:
    """Deploys once every other model is down: an INFILTRATOR, or a model that may deploy on a table edge (ours:
    with the infiltrators)."""
    return infiltrator(m) or edge_reach(m) is not None


#: How near a table edge (inches, from the base's rim) a model deploying on an edge must stand.
EDGE_TOUCH = 0.5


def edge_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    """Why ``m`` cannot deploy on a table edge at ``p``: off the table, not touching an edge, in terrain no model
    deploys in, on another base, or nearer an enemy than its reach (else it deploys in its zone)."""
    table = state.ctx.table
    rule = f"{R}/ability/arabian_destrier"
    if not table.on_table(p, m.radius):
        return [(rule, f"{m.id} must be placed wholly on the table")]
    rim = min(p[0] - m.radius, table.width - p[0] - m.radius, p[1] - m.radius, table.depth - p[1] - m.radius)
    if rim > EDGE_TOUCH + 1e-9:
        return [(rule, f'{m.id} deploys in its zone or touching a table edge (within {EDGE_TOUCH:g}" of it)')]
    if clash := _ground_problems(state, m, p):
        return clash
    reach = edge_reach(m) or 0.0
    for e in state.models.values():
        if e.side != m.side and e.on_table and math.hypot(e.x - p[0], e.y - p[1]) - e.radius - m.radius < reach - 1e-9:
            return [(rule, f'on a table edge {m.id} must be at least {reach:g}" from every enemy; {e.id} is nearer')]
    return []


def edge_spots(state: State, m: Model) -> list[Vec]:
    """Spots along the four table edges where ``m`` may deploy, spread apart."""
    table = state.ctx.table
    r = m.radius
    out: list[Vec] = []
    for i in range(int(table.width // INFILTRATE_STEP) + 1):
        x = min(max(i * INFILTRATE_STEP, r), table.width - r)
        out += [(x, r), (x, table.depth - r)]
    for j in range(int(table.depth // INFILTRATE_STEP) + 1):
        y = min(max(j * INFILTRATE_STEP, r), table.depth - r)
        out += [(r, y), (table.width - r, y)]
    ok = [(round(x, 2), round(y, 2)) for x, y in dict.fromkeys(out) if not edge_problems(state, m, (x, y))]
    return kernel_setup.spread(ok, kernel_setup.FINE_SPOTS)


def undeployed(state: State, side: int) -> list[Model]:
    return [
        m
        for m in state.models.values()
        if m.side == side and not m.on_table and not m.flags.get("out") and not m.flags.get("on_wheel")
    ]


def first_deployer(state: State) -> int:
    """The side with more models deploys first; level sides: the roll-off winner (digest §1)."""
    counts = [len(undeployed(state, s)) for s in (0, 1)]
    side = int(state.vars.get("rolloff_winner", 0))
    if counts[0] != counts[1]:
        side = 0 if counts[0] > counts[1] else 1
    if all(late(m) for m in undeployed(state, side)):
        return 1 - side  # a warband of INFILTRATORs waits for the other to deploy
    return side
