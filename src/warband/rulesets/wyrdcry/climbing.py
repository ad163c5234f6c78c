"""Climbing, jumping and falling (digest ``wyrdcry.md`` §A4, W [R]: Climb, Jump, Fall): the rules of Wyrdcry on the
kernel's geometry of platforms and walls (``warband.kernel.climbing``).

What a climb costs (``climb_cost``, ``ladder_climb_cost`` by a ladder: :func:`climb_rate`), a fighter part-way up a
side (fighter flags ``climbing`` and ``climbed``: :func:`climbing`, :func:`climbed`), and every way down: a drop
over ``safe_drop`` (:func:`landed`), a failed jump (:class:`JumpRoll`), still climbing when the activation ends
(:func:`climb_end_fall`), damaged near a platform's edge (:func:`edge_check`, :class:`EdgeRoll`); then the
opponent's landing spot (:class:`FallLanding`) and a D3 per full ``fall_inches_per_die`` fallen
(:class:`FallRoll`). Which Moves climb, jump or walk is ``movement.py``.
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.climbing import edge_point, foot_point, platform_under
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import overlapping
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    Vec,
    WChance,
    WChoice,
    deal_damage,
    is_out,
    place,
    solids,
)

CLIMBABLE = ("platform", "obstacle")
"""Terrain kinds a fighter climbs (D §A4 Climb: obstacles; a platform's side the same way)."""


def ladders(state: State) -> frozenset[str]:
    """Ids of the pieces with a ladder: the kernel scenario's ``ladder: true`` on a platform or obstacle."""
    found = state.ctx.memo.get("ladders")
    if found is None:
        terrain = state.ctx.scenario.get("terrain", [])
        found = state.ctx.memo["ladders"] = frozenset(str(t["id"]) for t in terrain if t.get("ladder") is True)
    return frozenset(found)


def climb_rate(state: State, piece: TerrainPiece) -> float:
    """D §A4 (W): inches of Move per inch climbed: ``climb_cost`` (double), ``ladder_climb_cost`` by a ladder."""
    p = state.ctx.params
    return float(p["ladder_climb_cost"] if piece.id in ladders(state) else p["climb_cost"])


def climbing(state: State, m: Model) -> TerrainPiece | None:
    """The wall or platform side ``m`` is part-way up (it ended a Move climbing, D §A4), or None."""
    pid = m.flags.get("climbing")
    return next((t for t in solids(state) if t.id == pid), None) if pid else None


def climbed(m: Model) -> float:
    """Inches a fighter part-way up a side has climbed (flag ``climbed``; its base stays at the foot, ``z`` on
    the ground below, so the table and position files see it where it stands)."""
    return float(m.flags.get("climbed", 0.0)) if m.flags.get("climbing") else 0.0


def landed(state: State, m: Model, drop: float, events: list[Event]) -> None:
    """D §A4 (W): coming down further than ``safe_drop`` is a fall (where ``m`` now is)."""
    if drop > float(state.ctx.params["safe_drop"]) + 1e-9:
        events.append(Note(f'{m.id} drops {drop:g}": a fall', f"{R}/move/fall"))
        fall(state, m, drop, (m.x, m.y))


def fall(state: State, m: Model, drop: float, at: Vec) -> None:
    """D §A4 (W) Fall: the opponent puts the fighter down near ``at`` (``FallLanding``), then it takes a D3 per
    full ``fall_inches_per_die`` fallen (``FallRoll``)."""
    m.flags.pop("climbing", None)
    m.flags.pop("climbed", None)
    n = rolls.fall_dice(drop, float(state.ctx.params["fall_inches_per_die"]))
    push(state, FallLanding(1 - m.side, m.id, at, n))


def landing_problems(state: State, m: Model, p: Vec, at: Vec) -> list[Reason]:
    """A landing spot: on the ground (clear of every piece but open ground), on the table, overlapping no base,
    within ``fall_landing_range`` of where the fighter fell (PROPOSED)."""
    rule = f"{R}/move/fall-landing"
    reach = float(state.ctx.params["fall_landing_range"])
    if math.hypot(p[0] - at[0], p[1] - at[1]) > reach + 1e-9:
        return [(rule, f'the landing spot must be within {reach:g}" of {at[0]:g},{at[1]:g}')]
    if not state.ctx.table.on_table(p, m.radius):
        return [(rule, "the landing spot is off the table")]
    for t in solids(state):
        if t.circle_overlaps(p, m.radius):
            return [(rule, f"a falling fighter lands on the ground, not on {t.kind} terrain {t.id}")]
    o = overlapping(state.models.values(), p, m.radius, lambda x: x.id == m.id or is_out(x))
    if o is not None:
        return [(rule, f"{m.id} would overlap {o.id}")]
    return []


def landing_spots(state: State, m: Model, at: Vec) -> list[Vec]:
    """Offered landing spots: ``at`` and two rings round it within ``fall_landing_range``."""
    reach = float(state.ctx.params["fall_landing_range"])
    pts = [at] + [
        (at[0] + d * math.cos(k * math.pi / 4), at[1] + d * math.sin(k * math.pi / 4))
        for d in (reach / 2, reach)
        for k in range(8)
    ]
    rounded = dict.fromkeys((round(x, 2), round(y, 2)) for x, y in pts)
    return [p for p in rounded if not landing_problems(state, m, p, at)]


def nearest_ground(state: State, m: Model, at: Vec) -> list[Vec]:
    """With no room within ``fall_landing_range`` (a crowd, a wall): the nearest free ground, widening by half
    inches up to 6" ([P]: the digest does not say)."""
    for k in range(1, 13):
        d = k * 0.5
        ring = [
            (round(at[0] + d * math.cos(i * math.pi / 8), 2), round(at[1] + d * math.sin(i * math.pi / 8), 2))
            for i in range(16)
        ]
        found = [p for p in ring if not landing_problems(state, m, p, p)]
        if found:
            return found
    return []


@values.value
class FallLanding(WChoice, kind="landing", about="model"):
    """D §A4 (W) Fall: the opponent of the falling fighter picks where it lands (on the ground near where it
    fell; with no room there it stays where it fell); then the fall's damage is rolled."""

    by: int
    model: str
    at: Vec
    n: int

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        spots = landing_spots(state, m, self.at) or nearest_ground(state, m, self.at)
        if not spots:
            return [Action("land", m.id, option="here")]
        return [Action("land", m.id, point=p) for p in spots]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.kind != "land" or action.model != self.model:
            return [(f"{R}/move/fall-landing", f"give the landing spot: 'land {self.model} @x,y'")]
        if action.point is None:
            if action.option == "here" and self.options(state) == [action]:
                return []
            return [(f"{R}/move/fall-landing", f"give the landing spot: 'land {self.model} @x,y'")]
        found = landing_problems(state, state.models[self.model], action.point, self.at)
        if found and action in self.options(state):
            return []  # no room within range: the nearest free ground offered instead
        return found

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        place(m, action.point if action.point is not None else self.at, events, state)
        events.append(Note(f"{m.id} lands at {m.x:g},{m.y:g}", f"{R}/move/fall-landing"))
        if self.n:
            push(state, FallRoll(m.id, self.n))


@values.value
class FallRoll(WChance, kind="fall"):
    """D §A4 (W): a fall deals a D3 (``fall_damage_die``) of damage per full ``fall_inches_per_die`` fallen."""

    model: str
    n: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, int(state.ctx.params["fall_damage_die"]), "fall damage", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("fall damage", values, f"{sum(values)} damage", self.model))
        deal_damage(state, state.models[self.model], sum(values), "a fall", events)


@values.value
class JumpRoll(FighterD6, kind="jump", label="jump"):
    """D §A4 (W) Jump: a jump across open space longer than half the fighter's Move (rounded up) needs a D6; on
    ``jump_fall_face`` or less it falls into the gap (from its height), else it lands where it meant to."""

    model: str
    to: Vec
    fall_at: Vec

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        failed = values[0] <= int(state.ctx.params["jump_fall_face"])
        events.append(DiceRolled("jump", values, "a fall" if failed else "made it", m.id))
        if failed:
            events.append(Note(f'{m.id} falls {m.z:g}" into the gap', f"{R}/move/jump"))
            fall(state, m, m.z, self.fall_at)
            return
        before = m.z
        place(m, self.to, events, state)
        landed(state, m, before - m.z, events)


def climb_end_fall(state: State, m: Model, events: list[Event]) -> None:
    """D §A4 (W) Climb: a fighter still climbing when its activation ends falls from the height it reached."""
    if m.flags.get("climbing") and not is_out(m):
        up = climbed(m)
        events.append(Note(f'{m.id} is still climbing as its activation ends: it falls {up:g}"', f"{R}/move/climb"))
        fall(state, m, up, (m.x, m.y))


def edge_check(state: State, m: Model) -> None:
    """D §A4 (W): a fighter damaged while within ``edge_distance`` of the edge of the platform it stands on
    rolls a D6 (``EdgeRoll``)."""
    if is_out(m) or m.z <= 0 or m.flags.get("climbing"):
        return
    piece = platform_under(solids(state), (m.x, m.y))
    if piece is None:
        return
    d, _, _ = edge_point(piece, (m.x, m.y))
    if d - m.radius <= float(state.ctx.params["edge_distance"]) + 1e-9:
        push(state, EdgeRoll(m.id))


@values.value
class EdgeRoll(FighterD6, kind="edge", label="edge"):
    """D §A4 (W): damaged near a platform's edge, the fighter falls off on ``edge_fall_face`` or less: it drops
    from the platform's height just beyond the nearest edge."""

    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        piece = platform_under(solids(state), (m.x, m.y)) if m.on_table and m.z > 0 else None
        failed = piece is not None and values[0] <= int(state.ctx.params["edge_fall_face"])
        events.append(DiceRolled("edge", values, "falls off the edge" if failed else "keeps its footing", m.id))
        if piece is None or not failed:
            return
        events.append(Note(f'{m.id} falls {m.z:g}" off {piece.id}', f"{R}/move/edge-fall"))
        fall(state, m, m.z, foot_point(piece, (m.x, m.y), m.radius))  # just beyond the nearest edge
