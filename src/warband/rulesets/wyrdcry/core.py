"""What every Wyrdcry rules module shares: the context, the state type, the step bases and fighter helpers.

The rules modules import each other one way only, from the ground up: ``core``; ``scenario`` and ``factions``
(what the other rules consult); ``climbing`` and ``movement``; ``reactions``, then ``attacks`` (whose steps the
reactions answer, see ``reactions.Reactable``); ``activation``, ``abilities`` and ``actions``; ``setup``,
``initiative`` and ``morale``; ``round`` (the machine) on top. The pure groundwork (:mod:`.dice`, :mod:`.rolls`,
the limits in :mod:`.activation`) is fed the resolved parameters from ``state.ctx.params``, never its own defaults.
Per-game state lives in ``state.vars`` (round, initiative, the active fighter), each side's ``flags`` (the
ability-dice pool, reaction dice, banked wyrd dice) and each fighter's ``flags`` / ``tokens`` (status, actions
taken, damage); see docs/design/wyrdcry-steps.md §1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from warband.kernel import turns
from warband.kernel.context import GameContext, Rosters, context_fields, number_models
from warband.kernel.events import Event, Moved, Note, Removed, TokensChanged
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import gap, memo_sight
from warband.kernel.state import GameState, Model
from warband.kernel.steps import Auto, Chance, Choice, OneDie
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import rolls

R = "wyrdcry"
SIDE_PREFIX = ("a", "b")
Vec = tuple[float, float]


@dataclass(kw_only=True)
class Context(GameContext):
    """A Wyrdcry game's fixed part beyond the kernel's: the seed, fighter ids in roster order, each fighter's
    card (type, keywords, profile with armour, attacks, abilities) and each side's faction and options."""

    seed: int
    order: tuple[tuple[str, ...], tuple[str, ...]]
    factions: tuple[str, str]
    options: tuple[tuple[str, ...], tuple[str, ...]]
    initiative_dice: tuple[int, int]


State = GameState[Context]


#: The kernel's step bases over this game's state; a step's ``rules`` (the prefix of its refusals' rule ids) is
#: this package's ruleset id (:func:`warband.kernel.records.ruleset_of_module`).
WChoice = Choice[State]
WChance = Chance[State]
WAuto = Auto[State]


class FighterD6(OneDie[State]):
    """A chance step that rolls one D6 for one fighter (``model``), logged as its ``label`` (the kernel's
    :class:`~warband.kernel.steps.OneDie`); the subclass (a dataclass with a ``model`` field) says what the face
    does in ``roll``."""

    __slots__ = ()
    model: str


def side_name(side: int) -> str:
    return "AB"[side]


# ------------------------------------------------------------------------------------------- context
def fighter_cards(roster: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One static card per fighter (``count`` expanded), Defense including armour (data §2)."""
    from warband.rulesets.wyrdcry.roster import load_data

    catalogue = load_data().catalogue
    out: list[dict[str, Any]] = []
    for f in roster["fighters"]:
        armour = 0
        for name in f.get("armour", []):
            item = catalogue.armour_item(name)
            armour += item.defense if item is not None else 0
        for _ in range(int(f.get("count", 1))):
            out.append(
                {
                    "type": f["type"],
                    "name": f.get("name") or f["type"],
                    "keywords": list(f.get("keywords", [])),
                    "move": int(f["move"]),
                    "fight": int(f["fight"]),
                    "shoot": int(f["shoot"]),
                    "defense": int(f["defense"]) + armour,
                    "health": int(f["health"]),
                    "bravery": int(f["bravery"]),
                    "abilities": list(f.get("abilities", [])),
                    "attacks": [dict(a) for a in f["attacks"]],
                    "hired": bool(f.get("hired", False)),
                }
            )
    return out


def build_context(
    params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int
) -> tuple[Context, list[list[dict[str, Any]]]]:
    from warband.rulesets.wyrdcry.roster import load_data

    cards = [fighter_cards(rosters[0]), fighter_cards(rosters[1])]
    profiles, order = number_models((cards[0], cards[1]))
    dice_counts: list[int] = []
    factions = load_data().factions
    for side in (0, 1):
        n = int(params["initiative_dice"])
        faction = factions.get(str(rosters[side].get("faction")))
        chosen = set(rosters[side].get("options", []))
        for o in faction.options.choices if faction is not None else []:
            if o.id in chosen and o.initiative_dice is not None:
                n = o.initiative_dice
        dice_counts.append(n)
    ctx = Context(
        **context_fields(params, rosters, scenario, profiles),
        seed=seed,
        order=order,
        factions=(str(rosters[0].get("faction")), str(rosters[1].get("faction"))),
        options=(tuple(rosters[0].get("options", [])), tuple(rosters[1].get("options", []))),
        initiative_dice=(dice_counts[0], dice_counts[1]),
    )
    return ctx, cards


# ------------------------------------------------------------------------------------------- parameters
def hit_table(state: State) -> rolls.HitTable:
    key = "hit-table"
    table = state.ctx.memo.get(key)
    if table is None:
        table = state.ctx.memo[key] = rolls.table_from_params(state.ctx.params)
    return cast(rolls.HitTable, table)


def large_set(state: State) -> wd.LargeSet:
    return cast(wd.LargeSet, str(state.ctx.params["large_set"]))


def eng_range(state: State) -> float:
    return float(state.ctx.params["engagement_range"])


def solids(state: State) -> list[TerrainPiece]:
    """The terrain pieces other than open ground (what a base cannot end on, and what a fighter climbs)."""
    key = "solids"
    found = state.ctx.memo.get(key)
    if found is None:
        found = state.ctx.memo[key] = [t for t in state.ctx.table.terrain if t.kind != "open"]
    return list(found)


# ------------------------------------------------------------------------------------------- dice pools
def pool(state: State, side: int) -> wd.AbilityDice:
    raw = state.sides[side].flags.get("pool") or {"singles": [], "groups": []}
    return wd.AbilityDice(
        tuple(int(f) for f in raw["singles"]), tuple(wd.Group(int(s), int(f), bool(u)) for s, f, u in raw["groups"])
    )


def set_pool(state: State, side: int, p: wd.AbilityDice) -> None:
    state.sides[side].flags["pool"] = {
        "singles": list(p.singles),
        "groups": [[g.size, g.face, g.upgraded] for g in p.groups],
    }


def show_pool(p: wd.AbilityDice) -> str:
    parts = [f"[{g.name} {g.face}s]" for g in p.groups] + [f"single {f}" for f in p.singles]
    return ", ".join(parts) or "no dice"


def wyrd_bank(state: State, side: int) -> int:
    return int(state.sides[side].flags.get("wyrd", 0))


def add_wyrd(state: State, side: int, n: int) -> None:
    cap = int(state.ctx.params["wyrd_bank_max"])
    total = wyrd_bank(state, side) + n
    state.sides[side].flags["wyrd"] = min(total, cap) if cap > 0 else total


def reaction_dice(state: State, side: int) -> int:
    return int(state.sides[side].flags.get("reaction_dice", 0))


# ------------------------------------------------------------------------------------------- fighters
def status(m: Model) -> str:
    return str(m.flags.get("status", "ready"))


def is_out(m: Model) -> bool:
    return status(m) == "out"


def has_kw(m: Model, kw: str) -> bool:
    return kw in m.data["keywords"]


def fighters(state: State, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.side == side]


def standing(state: State, side: int) -> list[Model]:
    return [m for m in state.models.values() if m.side == side and m.on_table and not is_out(m)]


def to_activate(state: State, side: int) -> list[Model]:
    """Fighters of ``side`` still to activate this round: ready ones and those waiting after a Wait (S 15)."""
    return [m for m in standing(state, side) if status(m) in ("ready", "waiting")]


#: The alternating activation's bookkeeping (the kernel's): the active fighter in ``vars["active"]``, the side to
#: activate next in ``vars["to_act"]``.
ACTIVATION = turns.Activation(active="active", to_act="to_act")


def active_model(state: State) -> Model | None:
    mid = ACTIVATION.piece(state)
    return state.models[mid] if mid else None


def damage(m: Model) -> int:
    return m.token("damage")


def wounds_left(m: Model) -> int:
    return int(m.data["health"]) - damage(m)


def warband_size(state: State, side: int) -> tuple[int, int]:
    """(fighters, out of action), hired swords not counted (D §A8)."""
    mine = [m for m in fighters(state, side) if not m.data.get("hired")]
    return len(mine), sum(1 for m in mine if is_out(m))


def next_action(state: State) -> int:
    """Number a newly declared action (or free action): the id reactions are counted against (S 32)."""
    seq = int(state.vars.get("action_seq", 0)) + 1
    state.vars["action_seq"] = seq
    return seq


def enemies_of(state: State, m: Model) -> list[Model]:
    return [e for e in state.models.values() if e.side != m.side and e.on_table and not is_out(e)]


def engaged(state: State, m: Model) -> list[Model]:
    r = eng_range(state)
    return [e for e in enemies_of(state, m) if gap(m, e) <= r + 1e-9]


def visible(state: State, a: Model, b: Model) -> bool:
    """True line of sight (the kernel's table), remembered per position."""
    table = state.ctx.table

    def see(x: Model, y: Model) -> bool:
        return table.can_see((x.x, x.y), x.radius, x.z, x.height, (y.x, y.y), y.radius, y.z, y.height)

    return memo_sight(state.ctx.memo, a, b, see)


def place(m: Model, p: Vec, events: list[Event], state: State) -> None:
    start = (m.x, m.y)
    m.x, m.y = p
    m.z = state.ctx.table.surface_height(p)
    m.flags.pop("climbing", None)  # D §A4: a fighter put anywhere is no longer part-way up a wall
    m.flags.pop("climbed", None)
    events.append(Moved(m.id, start, p, math.hypot(p[0] - start[0], p[1] - start[1])))


def deal_damage(state: State, m: Model, amount: int, why: str, events: list[Event]) -> bool:
    """Allocate damage one point at a time (D §A6); at Health the fighter is out of action (removed). Returns
    whether it went out of action."""
    if amount <= 0 or is_out(m):
        return False
    before = damage(m)
    total, out = rolls.apply_damage(before, int(m.data["health"]), amount)
    m.tokens["damage"] = total
    events.append(TokensChanged(m.id, "damage", total - before, total))
    if out:
        m.flags["status"] = "out"
        m.on_table = False
        m.flags["taken"] = []
        events.append(Removed(m.id, f"out of action ({why})"))
        events.append(Note(f"{m.id} is out of action", f"{R}/damage/out-of-action"))
        if state.vars.get("command_next") == m.id:
            state.vars["command_next"] = None
        tokens = state.vars.get("treasure") or {}
        for oid, (_, _, carrier) in tokens.items():
            if carrier == m.id:  # digest §A6: a carried token is dropped where the fighter fell
                state.vars["treasure"] = {**state.vars["treasure"], oid: [m.x, m.y, None]}
                events.append(Note(f"{m.id} drops treasure {oid}", f"{R}/treasure/drop"))
    return out


def weapons(m: Model, kind: str | None = None) -> list[dict[str, Any]]:
    return [w for w in m.data["attacks"] if kind is None or w["type"] == kind]


def weapon_named(m: Model, name: str | None) -> dict[str, Any] | None:
    return next((w for w in m.data["attacks"] if w["weapon"] == name), None)


def weapon_rules(w: Mapping[str, Any]) -> list[str]:
    return [str(r) for r in w.get("rules", [])]


def mighty(w: Mapping[str, Any]) -> int:
    for r in weapon_rules(w):
        if r.startswith("Mighty"):
            parts = r.split()
            return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 1
    return 0


def has_rule(w: Mapping[str, Any], rule: str) -> bool:
    return rule in weapon_rules(w)
