"""Unit Coherency (seed 002, Unit Coherency; digest §3.4 for the PROPOSED chain option): which models are out of
coherency, the formation slots round a leader (where followers stand after a deployment or a Move), and the new
coherency leader a unit designates when its leader dies."""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.events import Event, Note
from warband.kernel.geometry.distance import Vec, edge_distance
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTChoice, set_unit
from warband.rulesets.trenches_and_turbines.spots import Placement
from warband.rulesets.trenches_and_turbines.units import leader_of, members


def out_of_coherency(state: State, uid: str, where: Placement | None = None) -> list[str]:
    """Models of ``uid`` outside coherency: farther than the leader's command radius from the leader, or (digest
    §3.4, ``coherency_chain``) farther than the chain distance from every other model of the unit."""
    ms = members(state, uid)
    lead = leader_of(state, uid)
    if len(ms) < 2 or lead is None:
        return []
    if where:
        pos: dict[str, Vec] = {}
        for m in ms:
            at = where.get(m.id)
            pos[m.id] = (m.x, m.y) if at is None else (at[0], at[1])
    else:
        pos = {m.id: (m.x, m.y) for m in ms}
    cmd = float(lead.data["command"])
    chain = float(state.ctx.params["coherency_chain"])
    out = []
    lx, ly = pos[lead.id]
    lr = lead.radius
    hypot = math.hypot
    for m in ms:
        if m.id == lead.id:
            continue
        mx, my = pos[m.id]
        d = hypot(lx - mx, ly - my) - m.radius - lr  # the kernel's edge_distance, written out
        if (d if d > 0.0 else 0.0) > cmd + 1e-6:
            out.append(m.id)
            continue
        if chain > 0 and all(
            edge_distance(pos[m.id], m.radius, pos[o.id], o.radius) > chain + 1e-6 for o in ms if o.id != m.id
        ):
            out.append(m.id)
    return out


def out_of_coherency_now(state: State, uid: str) -> frozenset[str]:
    """:func:`out_of_coherency` where the models stand now, as a set; kept while nothing moves
    (:func:`spots.frozen_models`: every candidate move of a listing asks it)."""
    frozen = state.ctx.frozen
    if frozen is None or frozen.state is not state:
        return frozenset(out_of_coherency(state, uid))
    k = ("out-of-coherency", uid)
    hit: frozenset[str] | None = frozen.cache.get(k)
    if hit is None:
        hit = frozen.cache[k] = frozenset(out_of_coherency(state, uid))
    return hit


#: The directions of the slots round a leader: 8, 16 and 24 evenly spaced, ring by ring (computed once).
_RING_DIRS = tuple(
    tuple((math.cos(2 * math.pi * k / (8 * ring)), math.sin(2 * math.pi * k / (8 * ring))) for k in range(8 * ring))
    for ring in (1, 2, 3)
)


def follower_slots(lead_at: Vec, lead_r: float, r: float, spacing: float) -> list[Vec]:
    """The slots round a leader at ``lead_at`` for a follower of base radius ``r``: three rings (8, 16 and 24
    evenly spaced), each ``spacing`` farther out, the nearest just clear of the leader's base. The last answer is
    kept (a move plan asks it for each follower of a unit, with the same leader's spot and bases), so callers never
    change the list they get."""
    k = (lead_at, lead_r, r, spacing)
    last = _last_slots
    if last[0] == k:
        return last[1]
    x, y = lead_at
    slots = [(x + ox, y + oy) for ox, oy in _slot_offsets(lead_r, r, spacing)]
    _keep_slots((k, slots))
    return slots


#: :func:`follower_slots`' last question and answer (one tuple: a thread reads a whole pair or the other)
_last_slots: tuple[tuple[Vec, float, float, float] | None, list[Vec]] = (None, [])


def _keep_slots(pair: tuple[tuple[Vec, float, float, float], list[Vec]]) -> None:
    global _last_slots
    _last_slots = pair


_OFFSETS: dict[tuple[float, float, float], list[Vec]] = {}


def _slot_offsets(lead_r: float, r: float, spacing: float) -> list[Vec]:
    """The slots' offsets from the leader (each ring's distance times its directions), once per sizes."""
    k = (lead_r, r, spacing)
    hit = _OFFSETS.get(k)
    if hit is None:
        hit = []
        for ring, dirs in zip((1, 2, 3), _RING_DIRS, strict=True):
            dist = lead_r + r + spacing * ring - 0.5
            hit.extend((dist * c, dist * s) for c, s in dirs)
        if len(_OFFSETS) >= 256:
            _OFFSETS.clear()
        _OFFSETS[k] = hit
    return hit


@values.value
class NewLeader(TTChoice, kind="leader", about="unit"):
    """The unit that lost its leader picks a new coherency leader (seed 002, Unit Coherency)."""

    unit: str

    def options(self, state: State) -> list[Action]:
        return [Action("lead", m.id) for m in members(state, self.unit)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        set_unit(state, self.unit, leader=str(action.model))
        events.append(Note(f"{action.model} is now {self.unit}'s coherency leader", f"{R}/coherency/new-leader"))
