"""Set-up (digest ``wyrdcry.md`` §A9, W [R]; the kernel's set-up steps): the roll-off winner picks its deployment
zone and the other side deploys first; fighters are placed one at a time, alternating, in roster order, each wholly
inside its own zone and clear of terrain and other bases.

The battle starts in ``round.py`` (``start_game``: the deployment roll-off, ``initiative.RollOff``); once every
fighter is placed the phase is :data:`DEPLOYED` and the machine starts the first battle round. Not modelled: the
three search parties and "within 3\" of a party-mate" (docs/design/wyrdcry-steps.md).
"""

from __future__ import annotations

from warband.kernel import setup as kernel_setup
from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.space import overlapping
from warband.rulesets.wyrdcry.core import R, State, Vec, fighters, is_out

#: The phase between the last fighter placed and the first battle round (``round.py`` starts the round from it).
DEPLOYED = "deployed"


@values.value
class ChooseZone(kernel_setup.ChooseZone[State]):
    """The roll-off winner picks its edge (D §A9); [P] the other side deploys first."""

    by: int


@values.value
class Deploy(kernel_setup.Deploy[State]):
    """Standing decision of deployment: alternate placing fighters wholly inside the own zone (within 3" of
    the own edge, D §A9), clear of terrain and other bases. Fighters go in roster order, so the only choice is
    the spot (no piece is picked first)."""

    pick_then_place = False
    by: int

    def pieces(self, state: State, side: int) -> list[str]:
        return [m.id for m in fighters(state, side) if not m.on_table and not is_out(m)]

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        grid = kernel_setup.zone_grid(zone, 12, 2)
        return kernel_setup.deploy_spots(grid, zone, lambda p: not self.problems(state, piece, p), first)

    def options(self, state: State) -> list[Action]:
        left = self.pieces(state, self.by)
        if not left:
            return []
        first = left[0]  # fighters deploy in roster order [P]; the spot is the choice
        return [Action("deploy", first, point=p) for p in self.spots(state, first)]

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        if not kernel_setup.wholly_inside(zone, at, m.radius):
            return [(f"{R}/setup/zone", f"{m.id} must be placed wholly inside its deployment zone")]
        for t in state.ctx.table.terrain:
            if t.kind != "open" and t.circle_overlaps(at, m.radius):
                return [(f"{R}/setup/terrain", f"{m.id} cannot be placed on {t.kind} terrain {t.id}")]
        o = overlapping(state.models.values(), at, m.radius, lambda x: x.id == m.id)
        if o is not None:
            return [(f"{R}/setup/overlap", f"{m.id} would overlap {o.id}")]
        return []

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        m.x, m.y = at
        m.z = state.ctx.table.surface_height(at)
        events.append(Note(f"{m.id} deployed at ({at[0]:g}, {at[1]:g})", f"{R}/setup/deploy"))

    def all_deployed(self, state: State, events: list[Event]) -> None:
        state.phase = DEPLOYED  # the machine (round.py) starts the first battle round from here
