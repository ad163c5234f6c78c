"""Setting up the game: the initiative roll, Attacker and Defender, table edges and deployment.

Digest B1 Stages (1) Deployment & Initiative: an opposed IV test at TN 4 of the two leaders (``initiative_tn``;
a tie rolls again, ``initiative_ties``); the winner picks Attacker or Defender; the Defender picks its table edge;
the Attacker deploys its whole force first, then the Defender, each within 12" of its edge
(``deployment_depth``), and the Attacker acts first (digest B2 Turn, ``first_turn``). Design:
``docs/design/gangfight-steps.md`` §1.
"""

from __future__ import annotations

import math

from warband.kernel import setup as kernel_setup
from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, placements
from warband.kernel.geometry.distance import Vec
from warband.kernel.setup import deploy_spots, wholly_inside, zone_grid
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import (
    GFChance,
    P,
    R,
    State,
    count,
    leader,
    pint,
    place,
    pool,
    side_name,
    stat,
)
from warband.rulesets.gangfight.turn import begin_turn


def start_game(state: State, events: list[Event]) -> None:
    """The game's counters; every model's EN and AP tokens, its archaic weapons loaded or not as
    ``archaic_start_loaded`` says, its one-use items counted; then the initiative roll."""
    state.phase = "setup"
    state.vars.update(
        {
            "zone_of": [0, 1],
            "vp": [0, 0],
            "killed": [0, 0],
            "lost": [0, 0],
            "bravery_due": [False, False],
            "removed_objectives": [],
            "claimed": {},
            "active": 0,
            "active_model": None,
            "seq": 0,
            "decl": [],
            "turns_played": 0,
        }
    )
    for m in state.models.values():
        m.tokens["en"] = stat(m, "EN")
        m.tokens["ap"] = 0
        m.flags["loaded"] = {w["name"]: bool(P(state, "archaic_start_loaded")) for w in m.data["ranged"] if w["reload"]}
        uses: dict[str, int] = {}
        for w in m.data["ranged"]:
            if w.get("one_use"):
                uses[w["name"]] = int(w.get("count", 1))
        m.flags["uses"] = uses
    push(state, InitiativeRoll())


@values.value
class InitiativeRoll(GFChance, kind="initiative"):
    """Stage 1 (digest B1): an opposed IV test at TN 4 of the two leaders; a tie rolls again (``initiative_ties``).
    One roll of both pools, side A's dice first."""

    def _pools(self, state: State) -> tuple[gd.PoolTest, gd.PoolTest]:
        tn = pint(state, "initiative_tn")
        return (pool(state, stat(leader(state, 0), "IV"), tn), pool(state, stat(leader(state, 1), "IV"), tn))

    def dice(self, state: State) -> DiceSpec:
        a, b = self._pools(state)
        return DiceSpec(max(1, a.dice + b.dice), pint(state, "die_sides"), "initiative: leaders' IV (A's dice first)")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        a, b = self._pools(state)
        if a.dice + b.dice == 0:
            sa = sb = 0
            won = 0
        else:
            sa = count(state, values[: a.dice], a.tn)
            sb = count(state, values[a.dice :], b.tn)
            res = gd.opposed(sa, sb)
            if res == "tie":
                events.append(DiceRolled("initiative (A, B)", values, f"{sa} - {sb}: tie, roll again"))
                push(state, self)
                return
            won = 0 if res == "first" else 1
        events.append(DiceRolled("initiative (A, B)", values, f"{sa} - {sb}: side {side_name(won)} wins"))
        push(state, ChooseRole(won))


@values.value
class ChooseRole(kernel_setup.ChooseSide[State], kind="role"):
    """The initiative winner picks Attacker or Defender (digest B1 Stages (1)): "attacker" makes itself the
    Attacker, "defender" the other side."""

    picks = ("attacker", "defender")
    by: int

    def chosen(self, state: State, attacker: int, events: list[Event]) -> None:
        state.vars["attacker"] = attacker
        events.append(Note(f"side {side_name(attacker)} is the Attacker", f"{R}/setup/role"))
        push(state, ChooseEdge(1 - attacker))


@values.value
class ChooseEdge(kernel_setup.ChooseZone[State]):
    """The Defender picks its table edge (digest B1 Stages (1)); the Attacker deploys first."""

    zone_word = "edge"
    zone_rule = "setup/edge"
    by: int

    def first(self, state: State) -> int:
        return int(state.vars["attacker"])

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        kernel_setup.ChooseZone.chosen(self, state, zone, events)
        state.phase = "deploy"


@values.value
class Deploy(kernel_setup.Deploy[State]):
    """Each side deploys its whole force within ``deployment_depth`` of its edge, the Attacker first (digest B1),
    model by model in roster order: the only choice is the spot (no piece is picked first)."""

    pick_then_place = False
    by: int

    def pieces(self, state: State, side: int) -> list[str]:
        return [m.id for m in state.side_models(side) if not m.on_table and not m.flags.get("out")]

    def _fits(self, state: State, m: Model, p: Vec) -> bool:
        return not self.problems(state, m.id, p)

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        return deploy_spots(zone_grid(zone, 8, 3), zone, lambda p: self._fits(state, m, p), first)

    def options(self, state: State) -> list[Action]:
        left = self.pieces(state, self.by)
        if not left:
            return []
        m = state.models[left[0]]
        return [Action("deploy", m.id, point=p) for p in self.spots(state, m.id)]

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        if not wholly_inside(zone, at, m.radius):
            return [(f"{R}/deploy/zone", f"{m.id} must be wholly within its deployment zone")]
        for s in state.ctx.solid:
            if s.circle_overlaps(at, m.radius - 1e-6):
                return [(f"{R}/deploy/terrain", f"{m.id} cannot stand in {s.kind} terrain {s.id}")]
        for o in state.models.values():
            if o.on_table and math.hypot(at[0] - o.x, at[1] - o.y) < m.radius + o.radius - 1e-6:
                return [(f"{R}/deploy/overlap", f"{m.id} would overlap {o.id}")]
        return []

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        moved: list[Event] = []
        place(state, m, at, moved)
        events.extend(placements(moved))

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        assert action.model is not None and action.point is not None
        self.put(state, action.model, action.point, events)
        # the whole force of one side, then the other's (digest B1: "each deploys its whole force in turn")
        nxt = next((s for s in (self.by, 1 - self.by) if self.pieces(state, s)), None)
        if nxt is None:
            self.all_deployed(state, events)
        else:
            state.vars["deployer"] = nxt

    def all_deployed(self, state: State, events: list[Event]) -> None:
        state.phase = "turn"
        state.turn = 1
        first = int(state.vars["attacker"])
        if P(state, "first_turn") == "defender":
            first = 1 - first
        state.vars["first"] = first
        begin_turn(state, first, events)
