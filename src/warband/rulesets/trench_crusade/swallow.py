"""Devour the Guilty and Vomit (the Sin Eater, Heretic Legion; ../shared/data/trench-crusade/keywords.yaml).

Devour the Guilty (outcome ``devour``): an ACTION against a model within ``range`` inches on a base of ``count`` mm
or less; Risky against an enemy, and against a friend at ``devour_friend_dice`` +DICE and not Risky. On a success
the victim is swallowed: off the table (so a casualty for Morale, as a Down model counts), carried inside its
swallower. Each time the swallower activates (ours: the victim has no activation of its own while inside) the
victim bleeds ``devour_bleed`` Blood markers, then may strike its swallower with one Melee Attack at
``devoured_attack_dice`` DICE (ours: it always does, with its first melee weapon, which costs it nothing).

Vomit (outcome ``vomit``): an ACTION at +4 DICE that spits the victim out Down with its base within 1" of the
swallower's (ours: the first free spot round it, nearest the table's centre first). If the swallower is taken
out of action the victim is spat out Down where it stood (ours).
"""

from __future__ import annotations

import math

from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note, Removed
from warband.kernel.space import overlapping
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trench_crusade.attacks import Attack, make_down
from warband.rulesets.trench_crusade.core import R, State, add_blood, place, weapons

RULE = f"{R}/ability/devour_the_guilty"
VOMIT = f"{R}/ability/vomit"


def base_mm(m: Model) -> float:
    return m.radius * 2 * 25.4


def devour_reasons(m: Model, t: Model, size: int) -> list[Reason]:
    """Why ``m`` cannot swallow ``t`` (its base, itself, a belly already full)."""
    if t is m:
        return [(RULE, f"{m.id} cannot swallow itself")]
    if m.flags.get("swallowed"):
        return [(RULE, f"{m.id} already holds {m.flags['swallowed']} inside")]
    if base_mm(t) > size + 0.5:
        return [(RULE, f"{t.id} is on a {base_mm(t):.0f}mm base: only a model of {size}mm or less is swallowed")]
    return []


def vomit_reasons(m: Model) -> list[Reason]:
    return [] if m.flags.get("swallowed") else [(VOMIT, f"{m.id} has swallowed no model to spit out")]


def devour_terms(state: State, m: Model, t: Model) -> tuple[int, bool]:
    """(+DICE, Risky) of Devour the Guilty: a friend is swallowed more easily and without risk."""
    if t.side == m.side:
        return int(state.ctx.params["devour_friend_dice"]), False
    return 0, True


def devour(state: State, m: Model, t: Model, events: list[Event]) -> None:
    """The victim goes inside ``m``: off the table, carried at its swallower's spot."""
    t.on_table = False
    t.flags.pop("down", None)
    t.flags["swallowed_by"] = m.id
    m.flags["swallowed"] = t.id
    t.x, t.y, t.z = m.x, m.y, m.z
    events.append(Removed(t.id, f"swallowed by {m.id}"))
    events.append(Note(f"{m.id} devours {t.id}", RULE))


def _spot(state: State, m: Model, t: Model) -> tuple[float, float] | None:
    """The first free spot with ``t``'s base within 1" of ``m``'s, nearest the table's centre first."""
    table = state.ctx.table
    cx, cy = table.width / 2, table.depth / 2
    spots = []
    for ring in (0.05, 0.5, 0.95):
        r = m.radius + t.radius + ring
        for k in range(16):
            a = 2 * math.pi * k / 16
            spots.append((round(m.x + r * math.cos(a), 2), round(m.y + r * math.sin(a), 2)))
    spots.sort(key=lambda p: (math.hypot(p[0] - cx, p[1] - cy), p))
    for p in spots:
        if not table.on_table(p, t.radius):
            continue
        if any(x.kind in ("impassable", "blocking") and x.circle_overlaps(p, t.radius) for x in table.terrain):
            continue
        if overlapping(state.models.values(), p, t.radius, lambda o: o.id == t.id) is None:
            return p
    return None


def spit_out(state: State, m: Model, events: list[Event]) -> None:
    """Vomit: the victim comes out Down with its base within 1" of ``m``'s."""
    t = state.models[str(m.flags.pop("swallowed"))]
    t.flags.pop("swallowed_by", None)
    p = _spot(state, m, t)
    if p is None:
        m.flags["swallowed"] = t.id
        t.flags["swallowed_by"] = m.id
        events.append(Note(f"no room round {m.id} to spit {t.id} out", VOMIT))
        return
    t.on_table = True
    place(state, t, p, state.ctx.table.surface_height(p), events)
    events.append(Note(f"{m.id} spits {t.id} out", VOMIT))
    make_down(state, t, events)


def bleed_and_strike(state: State, m: Model, events: list[Event]) -> None:
    """At the start of the swallower's activation: its victim bleeds, then strikes from inside."""
    vid = m.flags.get("swallowed")
    if not vid:
        return
    t = state.models[str(vid)]
    add_blood(state, t, int(state.ctx.params["devour_bleed"]), events)
    events.append(Note(f"{t.id} bleeds inside {m.id}", RULE))
    melee = weapons(t, "melee")
    if melee and t.flags.get("swallowed_by") == m.id:
        push(state, Attack(t.id, m.id, melee[0]["name"], "melee", False, False))
