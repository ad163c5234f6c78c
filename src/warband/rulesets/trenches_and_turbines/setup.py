"""Set-up (digest §3.2): the d10 roll-off, the winner's deployment zone, and alternating deployment of whole units
round their leaders, every base wholly inside its zone; the first round starts when both sides are deployed."""

from __future__ import annotations

from warband.kernel import setup, values
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note, placements
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines import missions
from warband.rulesets.trenches_and_turbines.coherency import follower_slots
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, side_name
from warband.rulesets.trenches_and_turbines.spots import Placement, frozen_models, spot_problem
from warband.rulesets.trenches_and_turbines.turn import start_round
from warband.rulesets.trenches_and_turbines.unit_moves import place_unit
from warband.rulesets.trenches_and_turbines.units import is_vehicle


def start_game(state: State, events: list[Event]) -> None:
    """Set-up (digest §3.2): d10 roll-off, the winner picks an edge, players alternate deploying units."""
    state.phase = "deploy"
    u = {}
    for uid, spec in state.ctx.units.items():
        u[uid] = {
            "leader": spec["models"][0],
            "pins": 0,
            "prone": False,
            "routed": False,
            "overwatch": False,
            "activated": False,
            "acts_round": 0,
            "reactions": 0,
            "start": len(spec["models"]),
            "half_tested": False,
            "leaderless": False,
            "shaken": 0,
        }
    state.vars.update({"u": u, "vp": [0, 0], "deck": [], "active": None, "acts": [], "zone_of": [0, 1]})
    state.vars["marks"] = missions.initial_marks(state.ctx)
    push(state, Rolloff())


@values.value
class Rolloff(setup.RollOff[State]):
    """The set-up roll-off (digest §3.2): a d10 each, the higher picks a deployment zone; a tie rolls again."""

    why: str = "set-up"

    def sides(self, state: State) -> int:
        return int(state.ctx.params["die_sides"])

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        push(state, Zone(winner))


@values.value
class Zone(setup.ChooseZone[State]):
    """The winner of the roll-off (``by``) takes a deployment zone and deploys first."""

    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        state.vars["deployer"] = self.by
        note = f"side {side_name(self.by)} takes deployment zone {zone} and deploys first"
        events.append(Note(note, f"{R}/setup/edge"))


def undeployed(state: State, side: int) -> list[str]:
    """The units of ``side`` still to deploy."""
    return [
        u
        for u in state.ctx.unit_order
        if state.ctx.units[u]["side"] == side
        and not state.models[state.ctx.units[u]["models"][0]].on_table
        and not state.models[state.ctx.units[u]["models"][0]].flags.get("dead")
    ]


def _inside_table(state: State, zone: TerrainPiece, radius: float) -> dict[Vec, bool]:
    """The kernel's ``setup.wholly_inside`` answers for bases of ``radius`` in ``zone``, by spot, remembered per
    game (one dict in the memo per zone and radius): a zone never moves and deployment asks it of the same grid
    spots again and again."""
    k = ("inside", id(zone), radius)  # the zones live as long as the context that holds this memo
    memo = state.ctx.memo
    hit: dict[Vec, bool] | None = memo.get(k)
    if hit is None:
        hit = memo[k] = {}
    return hit


def deploy_plan(state: State, uid: str, p: Vec) -> Placement | list[Reason]:
    """The unit in formation round its leader at ``p``, every base wholly inside its zone."""
    zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[uid]["side"]]]
    ids = state.ctx.units[uid]["models"]
    placed: Placement = {}
    lead = state.models[ids[0]]
    slots = [p, *follower_slots(p, lead.radius, lead.radius, float(state.ctx.params["deploy_spacing"]))]
    # A model with the base of the model before it (and no SCALABLE limit by size, digest §3.11) takes the first
    # fitting slot after that model's: every earlier slot failed it for reasons that hold for this one too (outside
    # the zone, off the table, in impassable terrain, on another base: the same radius, and the models placed
    # since only add bases), and that model's slot now holds a base (speed only: the same slots).
    same_reasons = not state.ctx.params["scalable_small_only"]
    start = 0
    before: float | None = None
    for mid in ids:
        m = state.models[mid]
        if not same_reasons or m.radius != before:
            start = 0
        before = m.radius
        inside = _inside_table(state, zone, m.radius)
        for i in range(start, len(slots)):
            s = slots[i]
            within = inside.get(s)
            if within is None:
                within = inside[s] = setup.wholly_inside(zone, s, m.radius)
            if within and spot_problem(state, m, s, placed, ids, 0.0) is None:
                placed[mid] = (s[0], s[1], state.ctx.table.surface_height(s))
                start = i + 1
                break
        else:
            return [(f"{R}/setup/zone", f"{uid} does not fit in its deployment zone at {p[0]:g},{p[1]:g}")]
    return placed


@values.value
class Deploy(setup.Deploy[State]):
    """The standing decision of the set-up: side ``by`` deploys one of its units round its leader,
    then the sides alternate (digest §3.2). Pending with ``piece`` set, it asks where that unit goes."""

    noun = "unit"
    by: int
    piece: str = ""

    def pieces(self, state: State, side: int) -> list[str]:
        return undeployed(state, side)

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        zone = state.ctx.zones[state.vars["zone_of"][state.ctx.units[piece]["side"]]]
        k = ("coarse-grid", id(zone))  # the zones live as long as the context that holds this memo
        coarse: list[Vec] | None = state.ctx.memo.get(k)
        if coarse is None:  # the same grid for every unit deployed in the zone (read only)
            coarse = state.ctx.memo[k] = setup.zone_grid(zone, 8, 2)
        with frozen_models(state):  # only checks follow: nothing moves
            return setup.deploy_spots(coarse, zone, lambda q: isinstance(deploy_plan(state, piece, q), dict), first)

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        plan = deploy_plan(state, piece, at)
        return plan if isinstance(plan, list) else []

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        plan = deploy_plan(state, piece, at)
        assert isinstance(plan, dict)
        cy = state.ctx.table.depth / 2
        for mid in plan:
            m = state.models[mid]
            m.on_table = True
            if is_vehicle(state, piece):
                m.flags = {**m.flags, "facing": 90.0 if plan[mid][1] < cy else 270.0}
        moved: list[Event] = []
        place_unit(state, plan, moved)
        events.extend(placements(moved))

    def all_deployed(self, state: State, events: list[Event]) -> None:
        start_round(state, events)
