"""A unit on the table: its models, its leader, whether it is a VEHICLE, its size, which units a side still has,
which unit is active, and base contact and gaps between units (seed 002, Unit Coherency; Fight: engaged; digest
§3.9 for sizes)."""

from __future__ import annotations

import math

from warband.kernel import turns
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import SIZE_RANK, State
from warband.rulesets.trenches_and_turbines.core import ustate


def members(state: State, uid: str) -> list[Model]:
    """The unit's models still on the table, in roster order (the original leader first). While the rules list
    candidates (:func:`spots.frozen_models`: nothing moves or dies) each unit's list is built once and shared by
    every check of the listing, so callers never change the list they get."""
    frozen = state.ctx.frozen
    if frozen is not None and frozen.state is state:
        kept: dict[str, list[Model]] = frozen.members
        hit = kept.get(uid)
        if hit is None:
            models = state.models
            hit = kept[uid] = [m for mid in state.ctx.units[uid]["models"] if (m := models[mid]).on_table]
        return hit
    models = state.models
    return [m for mid in state.ctx.units[uid]["models"] if (m := models[mid]).on_table]


def leader_of(state: State, uid: str) -> Model | None:
    lid = ustate(state, uid).get("leader")
    return state.models[lid] if lid and state.models[lid].on_table else None


def is_vehicle(state: State, uid: str) -> bool:
    return "VEHICLE" in state.ctx.units[uid]["keywords"]


def size_rank(m: Model) -> int:
    return SIZE_RANK[str(m.data["size"])]


def enemies_of(state: State, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.on_table and m.side != side]


def units_of(state: State, side: int) -> list[str]:
    units = state.ctx.units
    models = state.models
    return [
        u
        for u in state.ctx.unit_order
        if units[u]["side"] == side and any(models[mid].on_table for mid in units[u]["models"])
    ]


#: The activation's bookkeeping (the kernel's): the active unit in ``vars["active"]``; no side to act (the cards
#: say who activates).
ACTIVATION = turns.Activation(active="active", to_act=None)


def active(state: State) -> str | None:
    return ACTIVATION.piece(state)


def unit_gap(state: State, uid: str, other: str) -> float:
    """The least base gap between a model of ``uid`` and one of ``other`` (inf if either has none on the table):
    the kernel's ``gap`` over every pair, written out; asked once per candidate Shoot and Charge, so while the
    rules list a menu (:func:`spots.frozen_models`) each answer is kept for the rest of the listing."""
    frozen = state.ctx.frozen
    cache = frozen.cache if frozen is not None and frozen.state is state else None
    if cache is not None:
        hit: float | None = cache.get(("unit-gap", uid, other))
        if hit is not None:
            return hit
    theirs = members(state, other)
    best = math.inf
    hypot = math.hypot
    for a in members(state, uid):
        ax, ay, ar = a.x, a.y, a.radius
        for b in theirs:
            dx = ax - b.x
            # no nearer than this along x alone (hypot is never below |dx|; 1e-9 covers its last bit): skipped
            # when it cannot beat the best (speed only: the same answer)
            if (dx if dx >= 0.0 else -dx) - ar - b.radius >= best + 1e-9:
                continue
            d = hypot(dx, ay - b.y) - ar - b.radius
            if d <= 0.0:
                d = 0.0
            if d < best:
                best = d
    if cache is not None:
        cache[("unit-gap", uid, other)] = best
    return best


def engaged_units(state: State, uid: str) -> list[str]:
    """Enemy units in base-to-base contact with ``uid`` (seed 002, Fight: engaged)."""
    tol = state.ctx.params["contact_tolerance"]
    mine = members(state, uid)
    out: list[str] = []
    hypot = math.hypot
    for e in enemies_of(state, state.ctx.units[uid]["side"]):
        if e.unit in out:
            continue
        ex, ey, er = e.x, e.y, e.radius
        for m in mine:  # the kernel's gap(m, e) <= tol, written out (asked of every enemy for every menu)
            dx = m.x - ex
            if (dx if dx >= 0.0 else -dx) - m.radius - er > tol + 1e-9:
                continue  # farther than ``tol`` along x alone (hypot is never below |dx|): not in contact
            d = hypot(dx, m.y - ey) - m.radius - er
            if (d if d > 0.0 else 0.0) <= tol:
                out.append(str(e.unit))
                break
    return out


def in_contact(state: State, m: Model, enemy_uid: str) -> bool:
    tol = state.ctx.params["contact_tolerance"]
    return any(gap(m, e) <= tol for e in members(state, enemy_uid))
