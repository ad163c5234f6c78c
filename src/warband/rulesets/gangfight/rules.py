"""Gangfight: set-up, the Player's Turn and Action Points, every action, interrupts and combat (seed 004).

The game runs on the kernel's step machine: each pending step is a typed record declared once below, with who
decides and what it does (``docs/design/gangfight-steps.md`` §8). Interrupts are :class:`InterruptWindow` choices
of the non-active player, asked right after an enemy declaration that targets one of its models and before
anything moves or rolls (seed 004, Interrupts). Rule ids are ``gangfight/<area>/<rule>``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from warband.kernel import setup, steps
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.battlefield import controller
from warband.kernel.errors import Reason
from warband.kernel.events import (
    ActionTaken,
    Activated,
    DiceRolled,
    Event,
    GameEnded,
    Note,
    PhaseStarted,
    Removed,
    StatusChanged,
    TokensChanged,
)
from warband.kernel.geometry.distance import Vec
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.space import gap, overlapping
from warband.kernel.state import Model
from warband.kernel.steps import Choice, SteppedRules, push, replace_top
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import (
    GFAuto,
    GFChance,
    GFChoice,
    Plan,
    R,
    State,
    ap,
    density_between,
    en,
    enemies_of,
    in_close_combat,
    in_cover,
    incap,
    knocked,
    loaded,
    melee_weapon,
    move_away,
    move_candidates,
    place,
    plan_move,
    ranged_weapon,
    route_toward,
    set_ap,
    set_loaded,
    side_name,
    size,
    spend_use,
    standing,
    stat,
    threat,
    uses_left,
    visible,
)

TARGETED = ("charge", "fight", "power", "finesse", "slam", "fire", "bring-it-down", "on-my-mark")


def P(state: State, name: str) -> Any:
    return state.ctx.params[name]


def pint(state: State, name: str) -> int:
    return int(state.ctx.params[name])


def pfloat(state: State, name: str) -> float:
    return float(state.ctx.params[name])


def rules_of(state: State) -> gd.DiceRules:
    return gd.DiceRules.from_params(state.ctx.params)


def pool(state: State, n: int, tn: int) -> gd.PoolTest:
    return gd.pool_test(n, tn, rules_of(state))


def count(state: State, values: tuple[int, ...], tn: int) -> int:
    return gd.successes(values, tn, rules_of(state))


# =========================================================================================== set-up
def start_game(state: State, events: list[Event]) -> None:
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


def leader(state: State, side: int) -> Model:
    ms = state.side_models(side)
    return next((m for m in ms if m.data.get("leader")), ms[0])


@dataclass(frozen=True, slots=True)
class InitiativeRoll(GFChance):
    """Stage 1 (digest B1): an opposed IV test at TN 4 of the two leaders; a tie rolls again (``initiative_ties``).
    One roll of both pools, side A's dice first."""

    kind = "initiative"

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


@dataclass(frozen=True, slots=True)
class ChooseRole(setup.ChooseSide[State]):
    """The initiative winner picks Attacker or Defender (digest B1 Stages (1)): "attacker" makes itself the
    Attacker, "defender" the other side."""

    rules = R
    kind = "role"
    picks = ("attacker", "defender")
    by: int

    def chosen(self, state: State, attacker: int, events: list[Event]) -> None:
        state.vars["attacker"] = attacker
        events.append(Note(f"side {side_name(attacker)} is the Attacker", f"{R}/setup/role"))
        push(state, ChooseEdge(1 - attacker))


@dataclass(frozen=True, slots=True)
class ChooseEdge(setup.ChooseZone[State]):
    """The Defender picks its table edge (digest B1 Stages (1)); the Attacker deploys first."""

    rules = R
    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        events.append(Note(f"side {side_name(self.by)} takes edge {zone}", f"{R}/setup/edge"))
        state.vars["deployer"] = int(state.vars["attacker"])
        state.phase = "deploy"


@dataclass(frozen=True, slots=True)
class Deploy(setup.Deploy[State]):
    """Each side deploys its whole force within ``deployment_depth`` of its edge, the Attacker first (digest B1),
    model by model in roster order: the only choice is the spot (no piece is picked first)."""

    rules = R
    pick_then_place = False
    by: int

    def pieces(self, state: State, side: int) -> list[str]:
        return [m.id for m in state.side_models(side) if not m.on_table and not m.flags.get("out")]

    def _fits(self, state: State, m: Model, p: Vec) -> bool:
        return not self.problems(state, m.id, p)

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        return setup.deploy_spots(setup.zone_grid(zone, 8, 3), zone, lambda p: self._fits(state, m, p), first)

    def options(self, state: State) -> list[Action]:
        left = self.pieces(state, self.by)
        if not left:
            return []
        m = state.models[left[0]]
        return [Action("deploy", m.id, point=p) for p in self.spots(state, m.id)]

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        zone = state.ctx.zones[state.vars["zone_of"][m.side]]
        if not setup.wholly_inside(zone, at, m.radius):
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
        place(state, m, at, events)

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


# =========================================================================================== turns
def begin_turn(state: State, side: int, events: list[Event]) -> None:
    """The Player's Turn (seed 004, Action Points): each model generates AP equal to its IV; AP held back in
    its previous turn lapse now (``held_ap_lapse = own-turn-start``). A broken party, or one that saw a Hero fall,
    tests Bravery first (digest B1 Fear, B2 End)."""
    state.vars["active"] = side
    state.vars["active_model"] = None
    events.append(PhaseStarted(state.turn, f"side {side_name(side)}'s turn"))
    ms = [m for m in state.side_models(side) if standing(m)]
    for m in ms:
        set_ap(m, gd.action_points(stat(m, "IV"), state.ctx.params))
        m.flags["finished"] = False
        m.flags["activated"] = False
    total = len(state.side_models(side))
    broken = state.vars["lost"][side] >= float(P(state, "broken_fraction")) * total
    if broken or state.vars["bravery_due"][side]:
        due = list(state.vars["bravery_due"])
        due[side] = False
        state.vars["bravery_due"] = due
        for m in reversed(ms):
            push(state, BraveryRoll(m.id))


def bravery_wp(state: State, m: Model) -> int:
    """WP dice of a Bravery test: the leader's WP when within ``leader_wp_range`` of it (digest B1)."""
    lead = leader(state, m.side)
    wp = stat(m, "WP")
    if lead is not m and standing(lead) and gap(m, lead) <= pfloat(state, "leader_wp_range"):
        wp = max(wp, stat(lead, "WP"))
    return wp


@dataclass(frozen=True, slots=True)
class BraveryRoll(GFChance):
    """A Bravery test: WP dice at TN 3; this turn's AP = min(IV, successes) (digest B1 Fear, B2 End)."""

    kind = "bravery"
    model: str

    def _pool(self, state: State) -> gd.PoolTest:
        return pool(state, bravery_wp(state, state.models[self.model]), pint(state, "bravery_tn"))

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(max(1, self._pool(state).dice), pint(state, "die_sides"), "bravery", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = self._pool(state)
        s = count(state, values[: pt.dice], pt.tn)
        set_ap(m, gd.ap_after_bravery(stat(m, "IV"), s, state.ctx.params))
        events.append(DiceRolled("bravery", values, f"{s} successes: {ap(m)} AP", m.id))


def end_turn(state: State, events: list[Event]) -> None:
    side = int(state.vars["active"])
    for m in state.side_models(side):
        m.flags["finished"] = True
    if P(state, "held_ap_lapse") == "opponent-turn-end":
        for m in state.side_models(1 - side):
            set_ap(m, 0)
    state.vars["active_model"] = None
    state.vars["turns_played"] = int(state.vars["turns_played"]) + 1
    events.append(Note(f"side {side_name(side)} ends its turn", f"{R}/turn/end"))
    if side != int(state.vars["first"]):
        if state.turn >= state.ctx.rounds:
            game_over(state, f"{state.ctx.rounds} rounds played", events)
            return
        state.turn += 1
    begin_turn(state, 1 - side, events)


def game_over(state: State, reason: str, events: list[Event]) -> None:
    """Digest B2 End: objectives, then points of enemy models incapacitated."""
    vp = list(state.vars["vp"])
    removed = set(state.vars["removed_objectives"])
    for ob in state.ctx.objectives:
        if ob.id in removed or ob.vp <= 0:
            continue
        who = controller(state.models.values(), ob.at, ob.radius, lambda m: 0 if incap(m) else 1)
        if who is None:
            who = state.vars["claimed"].get(ob.id)
        if who is not None:
            vp[int(who)] += ob.vp
    state.vars["vp"] = vp
    state.vars["end_reason"] = reason
    state.phase = "over"
    res = winner_of(state)
    events.append(GameEnded(res, reason, (vp[0], vp[1])))


def winner_of(state: State) -> int | None:
    vp = state.vars["vp"]
    if vp[0] != vp[1]:
        return 0 if vp[0] > vp[1] else 1
    k = state.vars["killed"]
    if k[0] != k[1]:
        return 0 if k[0] > k[1] else 1
    return None


def remove_incapacitated(state: State, events: list[Event]) -> bool:
    """The exchange is over: incapacitated models leave the table; a Hero's fall makes its party test Bravery
    next turn (digest B1 Fear)."""
    gone = [m for m in state.models.values() if m.on_table and incap(m)]
    for m in gone:
        m.on_table = False
        m.flags["out"] = True
        lost = list(state.vars["lost"])
        lost[m.side] += 1
        state.vars["lost"] = lost
        killed = list(state.vars["killed"])
        killed[1 - m.side] += int(m.data["points"])
        state.vars["killed"] = killed
        if m.data["rank"] == "Hero":
            due = list(state.vars["bravery_due"])
            due[m.side] = True
            state.vars["bravery_due"] = due
        events.append(Removed(m.id, "incapacitated"))
        if state.vars.get("active_model") == m.id:
            state.vars["active_model"] = None
    return bool(gone)


# =========================================================================================== activation
def active_model(state: State) -> Model | None:
    mid = state.vars.get("active_model")
    return state.models[mid] if mid else None


def can_activate(state: State, m: Model) -> bool:
    return standing(m) and not m.flags.get("finished") and ap(m) >= 1


def end_activation(state: State, m: Model, events: list[Event]) -> None:
    """The model's activation ends; its AP left are held for interrupts in the opponent's turn (seed 004)."""
    m.flags["finished"] = True
    state.vars["active_model"] = None
    if standing(m):
        events.append(Note(f"{m.id}'s activation ends, {ap(m)} AP held", f"{R}/turn/hold"))


@dataclass(frozen=True, slots=True)
class Activate(GFChoice):
    """The active player picks the next model to activate (``activation_order = one-at-a-time``) or ends the turn."""

    kind = "activate"
    by: int

    def options(self, state: State) -> list[Action]:
        out = [Action("activate", m.id) for m in state.side_models(self.by) if can_activate(state, m)]
        return [*out, Action("end-turn")]

    def tries(self, state: State) -> list[Action]:
        return [*(Action("activate", m.id) for m in state.models.values()), Action("end-turn")]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.kind == "end-turn" and action.model is None:
            return []
        m = state.models.get(action.model or "")
        if action.kind != "activate" or m is None:
            return [(f"{R}/turn/choose", "activate a model ('activate MODEL') or 'end-turn'")]
        if m.side != self.by:
            return [(f"{R}/turn/whose", f"it is side {side_name(self.by)}'s turn")]
        if not standing(m):
            return [(f"{R}/turn/not-on-table", f"{m.id} is not on the table")]
        if m.flags.get("finished"):
            return [(f"{R}/turn/finished", f"{m.id} has finished its activation this turn")]
        if ap(m) < 1:
            return [(f"{R}/ap/none", f"{m.id} has no Action Points")]
        return []

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "end-turn":
            end_turn(state, events)
            return
        m = state.models[action.model or ""]
        state.vars["active_model"] = m.id
        m.flags["activated"] = True
        events.append(Activated(m.id, m.side))


# ------------------------------------------------------------------------------------------- the action menu
def charge_reach(state: State, m: Model) -> float:
    """The longest possible charge: MV plus one inch per MV die (PROPOSED: no target farther is legal)."""
    mv = stat(m, "MOV")
    return float(gd.charge_distance(mv, mv, state.ctx.params))


def _tries(state: State, m: Model) -> Iterator[Action]:
    yield Action("move", m.id)
    yield Action("run", m.id)
    yield Action("standup", m.id)
    foes = enemies_of(state, m)
    for e in foes:
        yield Action("charge", m.id, e.id)
    for e in foes:
        for k in ("fight", "power", "finesse", "slam"):
            yield Action(k, m.id, e.id)
    for w in m.data["ranged"]:
        yield Action("reload", m.id, option=w["name"])
        for e in foes:
            yield Action("fire", m.id, e.id, option=w["name"])
    for act in state.ctx.scenario.get("actions", []) or []:
        for ob in state.ctx.objectives:
            yield Action("interact", m.id, ob.id, option=act["id"])
    for q in jump_spots(state, m):
        yield Action("jump", m.id, point=q)
    yield Action("band", m.id, option="with-me")
    for e in foes:
        yield Action("band", m.id, e.id, option="bring-it-down")
        yield Action("band", m.id, e.id, option="on-my-mark")


def _quick_out(state: State, m: Model, a: Action) -> bool:
    """A cheap test that rejects most illegal targets before the full check (a target out of every reach)."""
    if a.target is None or a.kind == "interact":
        return False
    t = state.models.get(a.target)
    if t is None:
        return True
    g = gap(m, t)
    if a.kind == "charge":
        return g > charge_reach(state, m) + 1e-9
    if a.kind == "fire":
        w = ranged_weapon(m, a.option)
        return w is None or g > float(w["range"]) + 1e-9
    if a.kind == "band" and a.option == "on-my-mark":
        return not any(g <= float(w["range"]) + 1e-9 for w in m.data["ranged"])
    return g > threat(state, m, with_reach=True) + 1e-9


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    out = [
        a
        for a in _tries(state, m)
        if not only_legal or (not _quick_out(state, m, a) and not action_reasons(state, m, a))
    ]
    out.append(Action("end", m.id))
    return out


def has_action(state: State, m: Model) -> bool:
    """Whether the active model can do anything but end its activation (stops at the first legal action)."""
    return any(not _quick_out(state, m, a) and not action_reasons(state, m, a) for a in _tries(state, m))


def action_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    if a.kind == "end":
        return []
    check = CHECKS.get(a.kind)
    if check is None:
        return [(f"{R}/action/unknown", f"{a.kind!r} is not an action of this game")]
    cost = action_cost(state, a)
    out: list[Reason] = []
    if ap(m) < cost:
        out.append((f"{R}/ap/cost", f"{m.id} has {ap(m)} AP; {a.kind} costs {cost}"))
    if knocked(m) and a.kind != "standup":
        out.append((f"{R}/knocked/stand-up", f"{m.id} is knocked over: it must Stand Up first"))
    out.extend(check(state, m, a))
    return out


SPECIAL = ("power", "finesse", "slam", "interact", "jump")


def action_cost(state: State, a: Action) -> int:
    """AP an action costs: 1 for a Standard or Special Action (seed 004); a Banding leader pays
    ``banding_leader_ap`` (and the joiners' AP too when ``banding_join_payer = leader``, paid as they join)."""
    if a.kind == "band":
        return pint(state, "banding_leader_ap")
    return pint(state, "special_action_ap" if a.kind in SPECIAL else "standard_action_ap")


def _target(state: State, a: Action, area: str) -> tuple[Model | None, list[Reason]]:
    t = state.models.get(a.target or "")
    m = state.models.get(a.model or "")
    if t is None or m is None or not standing(t) or t.side == m.side:
        return None, [(f"{R}/{area}/target", f"{a.target} is not an enemy model on the table")]
    return t, []


def _check_plain(state: State, m: Model, a: Action) -> list[Reason]:
    if a.target is not None or a.option is not None or a.point is not None:
        return [(f"{R}/action/syntax", f"declare '{a.kind} {m.id}'")]
    return []


def _check_standup(state: State, m: Model, a: Action) -> list[Reason]:
    if not knocked(m):
        return [(f"{R}/standup/standing", f"{m.id} is not knocked over")]
    return _check_plain(state, m, a)


def _check_charge(state: State, m: Model, a: Action) -> list[Reason]:
    t, bad = _target(state, a, "charge")
    if t is None:
        return bad
    out: list[Reason] = []
    if gap(m, t) > charge_reach(state, m) + 1e-9:
        out.append((f"{R}/charge/range", f"{t.id} is beyond {m.id}'s longest charge ({charge_reach(state, m):g}\")"))
    elif not visible(state, m, t):
        out.append((f"{R}/charge/visible", f"{t.id} is not in line of sight of {m.id}"))
    return out


def _check_fight(state: State, m: Model, a: Action) -> list[Reason]:
    t, bad = _target(state, a, "fight")
    if t is None:
        return bad
    out: list[Reason] = []
    if gap(m, t) > threat(state, m, with_reach=True) + 1e-9:
        out.append((f"{R}/fight/range", f"{t.id} is not within {m.id}'s threat range"))
    if a.kind == "slam" and gd.slam_kind(size(m), size(t)) is None:
        out.append((f"{R}/slam/size", "only a Large or Huge model may Slam!"))
    return out


def _check_reload(state: State, m: Model, a: Action) -> list[Reason]:
    w = ranged_weapon(m, a.option)
    if w is None:
        return [(f"{R}/reload/weapon", f"{m.id} has no ranged weapon {a.option!r}")]
    if not w["reload"]:
        return [(f"{R}/reload/needless", f"{w['name']} needs no loading")]
    if loaded(m, w):
        return [(f"{R}/reload/loaded", f"{w['name']} is already loaded")]
    if uses_left(m, w) <= 0:
        return [(f"{R}/fire/used", f"{w['name']} is used up")]
    return []


def _check_fire(state: State, m: Model, a: Action) -> list[Reason]:
    w = ranged_weapon(m, a.option)
    if w is None:
        return [(f"{R}/fire/weapon", f"{m.id} has no ranged weapon {a.option!r}")]
    t, bad = _target(state, a, "fire")
    if t is None:
        return bad
    return fire_reasons(state, m, t, w)


def fire_reasons(state: State, m: Model, t: Model, w: dict[str, Any]) -> list[Reason]:
    out: list[Reason] = []
    if uses_left(m, w) <= 0:
        out.append((f"{R}/fire/used", f"{w['name']} is used up"))
    if not loaded(m, w):
        out.append((f"{R}/fire/loaded", f"{w['name']} must be loaded by a Reload action first"))
    if in_close_combat(state, m):
        out.append((f"{R}/fire/close-combat", f"{m.id} is in close combat and cannot fire"))
    if gap(m, t) > float(w["range"]) + 1e-9:
        out.append((f"{R}/fire/range", f"{t.id} is beyond {w['name']}'s {w['range']:g}\""))
    elif not visible(state, m, t):
        out.append((f"{R}/fire/visible", f"{t.id} is not in line of sight of {m.id}"))
    return out


def _check_interact(state: State, m: Model, a: Action) -> list[Reason]:
    act = next((x for x in state.ctx.scenario.get("actions", []) or [] if x["id"] == a.option), None)
    if act is None:
        return [(f"{R}/interact/unknown", f"the scenario has no action {a.option!r}")]
    ob = next((o for o in state.ctx.objectives if o.id == a.target), None)
    if ob is None or ob.id in state.vars["removed_objectives"]:
        return [(f"{R}/interact/objective", f"{a.target} is not an objective on the table")]
    for req in act.get("requires", []):
        kind = req.get("kind")
        if kind == "near-objective":
            names = req.get("objectives") or []
            if names and ob.id not in names:
                return [(f"{R}/interact/objective", f"{act['id']} is not performed on {ob.id}")]
            d = math.hypot(m.x - ob.at[0], m.y - ob.at[1]) - m.radius
            if d > float(req.get("within", 1.0)) + 1e-9:
                return [(f"{R}/interact/near", f'{m.id} is not within {req.get("within")}" of {ob.id}')]
        elif kind == "no-enemy-within":
            if any(gap(m, e) <= float(req["within"]) for e in enemies_of(state, m)):
                return [(f"{R}/interact/enemy", f'{m.id} is within {req["within"]}" of an enemy')]
        elif kind == "turn" and not (int(req.get("first", 1)) <= state.turn <= int(req.get("last", 99))):
            return [(f"{R}/interact/turn", "not in this turn")]
    return []


def _check_band(state: State, m: Model, a: Action) -> list[Reason]:
    return band_reasons(state, m, a)


def _check_jump_action(state: State, m: Model, a: Action) -> list[Reason]:
    return _check_jump(state, m, a)


CHECKS = {
    "move": _check_plain,
    "run": _check_plain,
    "standup": _check_standup,
    "charge": _check_charge,
    "fight": _check_fight,
    "power": _check_fight,
    "finesse": _check_fight,
    "slam": _check_fight,
    "reload": _check_reload,
    "fire": _check_fire,
    "interact": _check_interact,
    "band": _check_band,
    "jump": _check_jump_action,
}


@dataclass(frozen=True, slots=True)
class ChooseAction(steps.ActionMenu[State]):
    """The active model's next action (seed 004, Standard and Special Actions), or the end of its activation."""

    rules = R
    about = "model"
    wait_rule = "turn/active-model"
    wait_text = "{actor} is the active model"
    model: str

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return menu(state, state.models[self.model], only_legal=only_legal)

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_reasons(state, state.models[self.model], action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        do_action(state, state.models[self.model], action, events)


def declare(state: State) -> int:
    seq = int(state.vars["seq"]) + 1
    state.vars["seq"] = seq
    state.vars["decl"] = []
    return seq


def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        end_activation(state, m, events)
        return
    set_ap(m, ap(m) - action_cost(state, a))
    if a.kind == "move":
        push(state, Destination(m.id, float(stat(m, "MOV")), False))
    elif a.kind == "run":
        push(state, Destination(m.id, gd.run_distance(float(stat(m, "MOV")), state.ctx.params), True))
    elif a.kind == "standup":
        m.flags["knocked"] = False
        events.append(StatusChanged(m.id, "knocked over", False))
    elif a.kind == "reload":
        set_loaded(m, a.option or "", True)
        events.append(Note(f"{m.id} loads its {a.option}", f"{R}/reload/load"))
    elif a.kind == "charge":
        t = state.models[a.target or ""]
        declare(state)
        push(state, ChargeRoll(m.id, t.id, False, False))
        open_window(state, m, t, "charge")
    elif a.kind in ("fight", "power", "finesse", "slam"):
        t = state.models[a.target or ""]
        declare(state)
        push(state, FightGo(m.id, t.id, a.kind))
        open_window(state, m, t, "fight")
    elif a.kind == "fire":
        t = state.models[a.target or ""]
        declare(state)
        push(state, FireGo(m.id, t.id, a.option or "", 0, 0))
        w = ranged_weapon(m, a.option)
        if w is not None and w.get("area"):
            # every enemy model under the blast is targeted: one window each, in model-id order
            for x in reversed(under_blast(state, t.pos)):
                if x.side != m.side:
                    open_window(state, m, x, "area")
        else:
            open_window(state, m, t, "fire")
    elif a.kind == "interact":
        do_interact(state, m, a, events)
    elif a.kind == "band":
        push(state, BandNominate(m.id, a.option or "", a.target, (), m.side))
    elif a.kind == "jump" and a.point is not None:
        plan = jump_plan(state, m, a.point)
        assert isinstance(plan, tuple)
        pt = gd.jump_climb_pool(stat(m, "MOV"), state.ctx.params)
        push(state, JumpClimbRoll(m.id, a.point[0], a.point[1], plan[0], max(1, pt.dice)))


def do_interact(state: State, m: Model, a: Action, events: list[Event]) -> None:
    act = next(x for x in state.ctx.scenario.get("actions", []) if x["id"] == a.option)
    for eff in act.get("effects", []):
        kind = eff.get("kind")
        if kind == "score":
            vp = list(state.vars["vp"])
            vp[m.side] += int(eff.get("vp", 1))
            state.vars["vp"] = vp
            events.append(Note(f"side {side_name(m.side)} scores {eff.get('vp', 1)} VP", f"{R}/interact/score"))
        elif kind == "remove-objective":
            oid = eff.get("objective") or a.target
            state.vars["removed_objectives"] = [*state.vars["removed_objectives"], oid]
        elif kind == "claim":
            oid = eff.get("objective") or a.target
            state.vars["claimed"] = {**state.vars["claimed"], oid: m.side}
        elif kind == "end-activation":
            m.flags["finished"] = True


# =========================================================================================== movement
@dataclass(frozen=True, slots=True)
class Destination(GFChoice):
    """Where a moving model goes (Move: MOV; Run: twice MOV, never through difficult terrain, and the activation
    ends, seed 004 Run). Any concrete point is checked against the table; the options are candidates."""

    kind = "dest"
    about = "model"
    model: str
    budget: float
    run: bool

    def player(self, state: State) -> int:
        return state.models[self.model].side

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        pts = move_candidates(state, m, self.budget, self.run)
        return [*(Action("to", m.id, point=p) for p in pts), Action("stay", m.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        m = state.models[self.model]
        if action.model != m.id or action.kind not in ("to", "stay") or (action.kind == "to" and action.point is None):
            return [(f"{R}/move/destination", f"give a destination: 'to {m.id} @x,y' or 'stay {m.id}'")]
        if action.kind == "stay":
            return []
        assert action.point is not None
        plan = plan_move(state, m, action.point, self.budget, self.run)
        return [] if isinstance(plan, Plan) else plan

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.kind == "to" and action.point is not None:
            plan = plan_move(state, m, action.point, self.budget, self.run)
            assert isinstance(plan, Plan)
            place(state, m, action.point, events, plan.cost)
        if self.run:
            events.append(Note(f"{m.id} ran: its activation ends", f"{R}/run/ends"))
            end_activation(state, m, events)


# =========================================================================================== interrupts
def interrupt_options(state: State, t: Model, a: Model, trigger: str) -> list[Action]:
    out: list[Action] = []
    if trigger == "charge":
        out.append(Action("interrupt", t.id, a.id, option="counter-charge"))
        if not in_close_combat(state, t):
            out.append(Action("interrupt", t.id, a.id, option="flee"))
    out.append(Action("interrupt", t.id, a.id, option="bulwark"))
    if trigger == "area":
        out.append(Action("interrupt", t.id, a.id, option="dodge"))
    # Fight!: only a model already in close combat (seed 004, Interrupts: Fight!), that can reach the attacker
    reach = gap(t, a) <= max(0.0, threat(state, t, with_reach=True)) + 1e-9
    if trigger == "fight" and in_close_combat(state, t) and reach:
        out.append(Action("interrupt", t.id, a.id, option="fight"))
    for w in t.data["ranged"]:
        if not fire_reasons(state, t, a, w):
            out.append(Action("interrupt", t.id, a.id, option="fire:" + w["name"]))
    return out


def may_interrupt(state: State, t: Model) -> bool:
    """A targeted model with held AP (seed 004, Interrupts); not a knocked-over one (digest B2, PROPOSED)."""
    return standing(t) and not knocked(t) and ap(t) >= pint(state, "interrupt_ap")


def open_window(state: State, a: Model, t: Model, trigger: str) -> None:
    if may_interrupt(state, t) and t.flags.get("interrupted") != state.vars["seq"]:
        push(state, InterruptWindow(t.side, a.id, t.id, trigger))


@dataclass(frozen=True, slots=True)
class InterruptWindow(GFChoice):
    """The non-active player may spend a held AP of the targeted model on one Interrupt, declared before any
    model moves (seed 004, Interrupts): Counter-Charge, Flee!, Fire!, Bulwark, Fight!; or pass."""

    kind = "interrupt"
    about = "target"
    by: int
    attacker: str
    target: str
    trigger: str

    def options(self, state: State) -> list[Action]:
        t, a = state.models[self.target], state.models[self.attacker]
        return [Action("pass", t.id), *interrupt_options(state, t, a, self.trigger)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "pass":
            return
        t = state.models[self.target]
        set_ap(t, ap(t) - pint(state, "interrupt_ap"))
        t.flags["interrupted"] = state.vars["seq"]
        kind = action.option or ""
        events.append(Note(f"{t.id} interrupts: {kind}", f"{R}/interrupt/{kind.split(':')[0]}"))
        if kind == "bulwark":
            t.flags["bulwark"] = state.vars["seq"]
            return
        state.vars["decl"] = [*state.vars["decl"], [kind, t.id]]
        if kind.startswith("fire:") and self.trigger != "charge":
            # Fire! against any other action resolves after it (the action sequence: the declaring model first)
            below_action(state, FireBack(t.id, self.attacker, kind[5:]))
        if kind == "fight":
            below_action(state, StrikeBack(t.id, self.attacker))


def under_blast(state: State, centre: Vec) -> list[Model]:
    """Models whose base a blast of ``aoe_diameter`` centred on ``centre`` touches, friends included."""
    r = pfloat(state, "aoe_diameter") / 2
    return [
        x
        for x in state.models.values()
        if standing(x) and math.hypot(x.x - centre[0], x.y - centre[1]) - x.radius <= r + 1e-9
    ]


def below_action(state: State, step: GFAuto) -> None:
    """Put ``step`` just beneath the declared action (under any interrupt windows still open above it), so that
    it resolves after the action."""
    stack = list(state.stack)
    i = len(stack) - 1
    while i > 0 and isinstance(stack[i], InterruptWindow):
        i -= 1
    state.stack = [*stack[:i], step, *stack[i:]]


def declared(state: State, kind: str) -> list[str]:
    """Models that declared an interrupt of ``kind`` against the current action."""
    return [str(d[1]) for d in state.vars["decl"] if d[0] == kind or str(d[0]).startswith(kind + ":")]


@dataclass(frozen=True, slots=True)
class FireBack(GFAuto):
    """A Fire! interrupt resolving: a ranged attack at the declaring model; it fires even if the enemy action
    incapacitated it (PROPOSED, as the seed says for Counter-Charge and Fight!)."""

    kind = "fire-back"
    model: str
    target: str
    weapon: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        w = ranged_weapon(m, self.weapon)
        if w is None or not m.on_table or not standing(t):
            return
        start_ranged(state, m, t, w, 0, 0, events)


@dataclass(frozen=True, slots=True)
class StrikeBack(GFAuto):
    """A Fight! interrupt: after the active model's attack has fully resolved, the model attacks it, even if it
    was just incapacitated (seed 004, Fight! interrupt)."""

    kind = "strike-back"
    model: str
    target: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if m.on_table and standing(t) and gap(m, t) <= max(0.0, threat(state, m, True)) + 1e-9:
            start_melee(state, m, t, "fight", events, free=True)


# =========================================================================================== charge
@dataclass(frozen=True, slots=True)
class ChargeRoll(GFChance):
    """Charge! (seed 004): MV dice at 2+/4+/6+ for flat/light/dense terrain; +1" per success on top of MV."""

    kind = "charge-roll"
    prompt = "charge"
    model: str
    target: str
    counter: bool
    band: bool

    def _pool(self, state: State) -> gd.PoolTest:
        m, t = state.models[self.model], state.models[self.target]
        return gd.charge_pool(stat(m, "MOV"), density_between(state, m.pos, t.pos), state.ctx.params)

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(max(1, self._pool(state).dice), pint(state, "die_sides"), "charge", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = self._pool(state)
        s = count(state, values[: pt.dice], pt.tn) if pt.dice else 0
        dist = gd.charge_distance(stat(m, "MOV"), s, state.ctx.params)
        events.append(DiceRolled(f"charge at {pt.tn}+", values, f'{s} successes: {dist}"', m.id))
        push(state, ChargeMove(self.model, self.target, float(dist), self.counter, self.band))
        if not self.counter:
            # Fire! against a charge: after the charger's roll, before it moves (fire_interrupt_timing)
            for who in reversed(declared(state, "fire")):
                kind = next(str(d[0]) for d in state.vars["decl"] if d[1] == who)
                push(state, FireBack(who, self.model, kind[5:]))


@dataclass(frozen=True, slots=True)
class ChargeMove(GFAuto):
    """The charge move: the whole distance rolled toward the target, stopping at base contact; a failed charge
    still moves it (seed 004). Flee! moves the target away first; Counter-Charge resolves after."""

    kind = "charge-move"
    model: str
    target: str
    distance: float
    counter: bool
    band: bool

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if not standing(m) or not t.on_table:
            return
        fled = [] if self.counter else declared(state, "flee")
        if t.id in fled and standing(t):
            move_away(state, t, m, float(stat(t, "MOV")) * pint(state, "flee_multiplier"), events)
        left = route_toward(state, m, t, self.distance, events)
        reached = left <= 0.01
        events.append(
            Note(
                f"{m.id}'s charge {'reaches' if reached else 'falls short of'} {t.id}",
                f"{R}/charge/{'reach' if reached else 'short'}",
            )
        )
        counters = [] if self.counter else declared(state, "counter-charge")
        if self.counter:
            if standing(t) and gap(m, t) <= max(0.0, threat(state, m, True)) + 1e-9:
                start_melee(state, m, t, "fight", events, free=True)
            return
        if t.id in counters:
            if reached:
                # in tandem: the charger's attack first, then the counter-charger's, then removal (seed 004)
                push(state, StrikeBack(t.id, m.id))
            elif standing(t):
                push(state, ChargeRoll(t.id, m.id, True, False))
                return
        foes = [e for e in enemies_of(state, m) if gap(m, e) <= threat(state, m, True) + 1e-9]
        if foes and not self.band:  # With Me!: the free Fight! comes after the whole order (seed 004)
            push(state, FreeFight(m.id, m.side))


@dataclass(frozen=True, slots=True)
class FreeFight(GFChoice):
    """After a charge, a model with an enemy in its threat range may make a free Fight! (seed 004, Charge!)."""

    kind = "free-fight"
    about = "model"
    model: str
    by: int

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        foes = [e for e in enemies_of(state, m) if gap(m, e) <= threat(state, m, True) + 1e-9]
        if not standing(m):
            foes = []
        return [*(Action("fight", m.id, e.id) for e in foes), Action("decline", m.id)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "fight":
            m = state.models[self.model]
            start_melee(state, m, state.models[action.target or ""], "fight", events, free=True)


# =========================================================================================== fight and fire
@dataclass(frozen=True, slots=True)
class FightGo(GFAuto):
    """Fight! (and Power, Finesse, Slam!): the model moves up to its threat range into base contact, then
    attacks (seed 004, Fight!)."""

    kind = "fight-go"
    model: str
    target: str
    how: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if not standing(m) or not standing(t):
            return
        g = gap(m, t)
        if g > 0.01:
            route_toward(state, m, t, max(0.0, threat(state, m)), events)
        if gap(m, t) <= threat(state, m, True) + 1e-9:
            start_melee(state, m, t, self.how, events)
        else:
            events.append(Note(f"{m.id} cannot reach {t.id}", f"{R}/fight/range"))


def defence(state: State, t: Model, ranged: bool) -> int:
    d = stat(t, "DEF")
    if t.flags.get("bulwark") == state.vars["seq"]:
        d = gd.bulwark(d, state.ctx.params)
    if knocked(t):
        d += pint(state, "knocked_over_def")
    if ranged and in_cover(state, t):
        d += pint(state, "cover_def")
    return d


def start_melee(
    state: State, m: Model, t: Model, how: str, events: list[Event], free: bool = False, bonus: tuple[int, int] = (0, 0)
) -> None:
    """One melee attack: ATT (+ weapon) dice at TN = the target's DEF; each hit wounds by size; ARM at TN = DAM
    (digest B1 Melee)."""
    w = melee_weapon(m)
    att = stat(m, "ATT") + int(w["att"])
    dam = stat(m, "DAM") + int(w["dam"])
    tn = defence(state, t, False)
    att, dam = att + bonus[0], dam + bonus[1]
    if how == "power":
        att += pint(state, "power_attack_att")
        dam += pint(state, "power_attack_dam")
    elif how == "finesse":
        tn += pint(state, "finesse_attack_def")
        dam += pint(state, "finesse_attack_dam")
    wpr = gd.wounds_per_melee_hit(size(m), state.ctx.params)
    if how == "slam":
        att = stat(m, "ATT")
        wpr = 0
    pt = pool(state, att, tn)
    if pt.dice <= 0:
        events.append(Note(f"{m.id} has no dice to attack {t.id} with", f"{R}/combat/no-dice"))
        return
    push(state, AttackRoll(m.id, t.id, pt.dice, pt.tn, wpr, dam, how, bool(w.get("knockdown"))))


def start_ranged(state: State, m: Model, t: Model, w: dict[str, Any], mrk: int, dam: int, events: list[Event]) -> None:
    """One ranged attack: MRK (+ weapon) dice at TN = DEF (+1 in cover), one wound a hit, ARM at TN = the weapon's
    DAM (digest B2 Fire!). An archaic weapon is unloaded; a one-use item is spent."""
    if w["reload"]:
        set_loaded(m, w["name"], False)
    spend_use(m, w)
    pt = pool(state, stat(m, "MRK") + int(w["mrk"]) + mrk, defence(state, t, True))
    if pt.dice <= 0:
        events.append(Note(f"{m.id} has no dice to fire with", f"{R}/combat/no-dice"))
        return
    push(state, AttackRoll(m.id, t.id, pt.dice, pt.tn, 1, int(w["dam"]) + dam, "ranged", False))


@dataclass(frozen=True, slots=True)
class FireGo(GFAuto):
    """Fire! after the interrupt window: the attack (the shooter fires unless it is off the table)."""

    kind = "fire-go"
    model: str
    target: str
    weapon: str
    mrk: int
    dam: int

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        w = ranged_weapon(m, self.weapon)
        if w is None or not standing(m) or not standing(t):
            return
        if w.get("area"):
            start_area(state, m, t, w, events)
            return
        start_ranged(state, m, t, w, self.mrk, self.dam, events)


def start_area(state: State, m: Model, t: Model, w: dict[str, Any], events: list[Event]) -> None:
    """An Area of Effect (digest B2, PROPOSED): every model under the blast centred on the target is attacked
    separately, in model-id order (friends too)."""
    if w["reload"]:
        set_loaded(m, w["name"], False)
    spend_use(m, w)
    for x in reversed(under_blast(state, t.pos)):
        pt = pool(state, stat(m, "MRK") + int(w["mrk"]), defence(state, x, True))
        if pt.dice > 0:
            push(state, AttackRoll(m.id, x.id, pt.dice, pt.tn, 1, int(w["dam"]), "area", False))


@dataclass(frozen=True, slots=True)
class AttackRoll(GFChance):
    """The attack dice: successes are hits (a natural 1 fails; TN floor 2; TN above 6 drops dice)."""

    kind = "attack"
    attacker: str
    target: str
    n: int
    tn: int
    wounds_per_hit: int
    dam: int
    how: str
    knockdown: bool

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"{self.how} attack at {self.tn}+", self.attacker)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        t = state.models[self.target]
        hits = count(state, values, self.tn)
        events.append(DiceRolled(f"{self.how} attack at {self.tn}+", values, f"{hits} hits", self.attacker))
        if self.how == "slam":
            if hits > 0 and standing(t):
                knock_over(state, t, events)
                a = state.models[self.attacker]
                move_away(state, t, a, hits * pfloat(state, "slam_push_per_success"), events)
            return
        crits = gd.criticals(values, self.tn, rules_of(state))
        wounds = hits * self.wounds_per_hit + crits * pint(state, "critical_extra_wounds")
        knock = self.knockdown and any(v == pint(state, "knockdown_face") for v in values)
        if wounds <= 0:
            if knock and standing(t):
                knock_over(state, t, events)
            return
        pt = gd.armour_pool(stat(t, "ARM"), self.dam, state.ctx.params)
        if pt.dice <= 0:
            push(state, Soak(t.id, wounds, knock, 0))
        else:
            push(state, ArmourRoll(t.id, pt.dice, pt.tn, wounds, knock, 0))
        if self.how == "area" and t.id in declared(state, "dodge"):
            # Dodge (seed 004): an IV test at TN = the attacker's successes; each success joins the armour roll
            dp = gd.dodge_pool(stat(t, "IV"), hits, state.ctx.params)
            if dp.dice > 0:
                push(state, DodgeRoll(t.id, dp.dice, dp.tn))


@dataclass(frozen=True, slots=True)
class ArmourRoll(GFChance):
    """The target's ARM dice at TN = the attacker's DAM; each success negates a wound (digest B1 Melee)."""

    kind = "armour"
    target: str
    n: int
    tn: int
    wounds: int
    knock: bool
    dodge: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"armour at {self.tn}+", self.target)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        t = state.models[self.target]
        saved = count(state, values, self.tn)
        left = gd.wounds_after_armour(self.wounds, saved, self.dodge)
        extra = f" (+{self.dodge} dodged)" if self.dodge else ""
        events.append(DiceRolled(f"armour at {self.tn}+", values, f"{saved} saved{extra}, {left} wounds", t.id))
        take_wounds(state, t, left, self.knock, events)


@dataclass(frozen=True, slots=True)
class Soak(GFAuto):
    """Wounds on a model that rolls no armour dice (ARM 0), less any Dodge successes."""

    kind = "soak"
    target: str
    wounds: int
    knock: bool
    dodge: int

    def run(self, state: State, events: list[Event]) -> None:
        t = state.models[self.target]
        take_wounds(state, t, gd.wounds_after_armour(self.wounds, 0, self.dodge), self.knock, events)


@dataclass(frozen=True, slots=True)
class DodgeRoll(GFChance):
    """Dodge (seed 004): IV dice at TN = the Area of Effect attacker's successes against this model; the successes
    are added to the armour roll stored beneath."""

    kind = "dodge"
    model: str
    n: int
    tn: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), f"dodge at {self.tn}+", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        s = count(state, values, self.tn)
        events.append(DiceRolled(f"dodge at {self.tn}+", values, f"{s} successes soak wounds", self.model))
        below = state.stack[-1]
        if isinstance(below, ArmourRoll | Soak):
            replace_top(state, replace(below, dodge=s))


def take_wounds(state: State, t: Model, wounds: int, knock: bool, events: list[Event]) -> None:
    if wounds > 0:
        t.tokens["en"] = en(t) - wounds
        events.append(TokensChanged(t.id, "EN", -wounds, en(t)))
        if gd.is_incapacitated(en(t)) and not incap(t):
            t.flags["incap"] = True
            events.append(StatusChanged(t.id, "incapacitated", True))
    if knock and standing(t):
        knock_over(state, t, events)


def knock_over(state: State, t: Model, events: list[Event]) -> None:
    if not knocked(t):
        t.flags["knocked"] = True
        events.append(StatusChanged(t.id, "knocked over", True))


# =========================================================================================== banding
BAND_KINDS = ("with-me", "bring-it-down", "on-my-mark")


def engaged_with(state: State, m: Model, t: Model) -> bool:
    """In melee combat with ``t`` (Bring it Down!): base to base within ``close_combat_gap``, as a Fight! needs
    before it attacks (seed 004, Fight!: it moves to get base to base)."""
    return in_close_combat(state, m, t)


def mark_weapon(state: State, m: Model, t: Model) -> dict[str, Any] | None:
    """A loaded ranged weapon of ``m`` that may fire at ``t`` now (On my Mark!), the longest first."""
    ok = [w for w in m.data["ranged"] if not w.get("area") and not fire_reasons(state, m, t, w)]
    return max(ok, key=lambda w: (int(w["dam"]), float(w["range"])), default=None)


def member_reasons(state: State, kind: str, m: Model, target: str | None) -> list[Reason]:
    """What a band's kind asks of every member (the leader included): Bring it Down!: in close combat with the
    target; On my Mark!: a loaded ranged weapon with the target in range and sight, not in close combat."""
    if kind == "with-me":
        return []
    t = state.models.get(target or "")
    if t is None or not standing(t) or t.side == m.side:
        return [(f"{R}/band/target", f"{target} is not an enemy model on the table")]
    if kind == "bring-it-down" and not engaged_with(state, m, t):
        return [(f"{R}/band/same-target", f"{m.id} is not in close combat with {t.id}")]
    if kind == "on-my-mark" and mark_weapon(state, m, t) is None:
        return [(f"{R}/band/loaded", f"{m.id} has no loaded ranged weapon that can fire at {t.id}")]
    return []


def band_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    if a.option not in BAND_KINDS:
        return [(f"{R}/band/kind", f"a Banding Action is one of {', '.join(BAND_KINDS)}")]
    if a.option == "with-me" and a.target is not None:
        return [(f"{R}/action/syntax", "With Me! names no target: 'band MODEL [with-me]'")]
    out = member_reasons(state, a.option, m, a.target)
    if not out:
        probe = BandNominate(m.id, a.option, a.target, (), m.side)
        if not any(not join_reasons(state, probe, x) for x in state.side_models(m.side)):
            out.append((f"{R}/band/several", "no other model can join: a Banding Action takes several models"))
    return out


def join_reasons(state: State, step: BandNominate, x: Model) -> list[Reason]:
    """Seed 004, Banding Actions: up to four others within 6", of the leader's rank or lower, none that has
    finished its activation, each paying an additional AP."""
    lead = state.models[step.leader]
    if x.side != lead.side or not standing(x) or x.id == lead.id:
        return [(f"{R}/band/whose", f"{x.id} is not another model of the leader's party on the table")]
    if x.id in step.joined:
        return [(f"{R}/band/twice", f"{x.id} has already joined")]
    if not gd.banding_size_ok(len(step.joined) + 1, state.ctx.params):
        return [(f"{R}/band/size", "a Banding Action takes the leader and four others at most")]
    if gap(lead, x) > pfloat(state, "banding_range") + 1e-9:
        return [(f"{R}/band/range", f'{x.id} is not within {P(state, "banding_range")}" of {lead.id}')]
    if not gd.may_band(lead.data["rank"], x.data["rank"]):
        return [(f"{R}/band/rank", f"a {lead.data['rank']} cannot include a {x.data['rank']}")]
    if x.flags.get("finished"):
        return [(f"{R}/band/finished", f"{x.id} has finished its activation")]
    if knocked(x):
        return [(f"{R}/band/knocked", f"{x.id} is knocked over")]
    _, each = gd.banding_cost(len(step.joined) + 1, state.ctx.params)
    payer, cost = (x, each) if each > 0 else (lead, pint(state, "banding_join_ap"))
    if ap(payer) < cost:
        return [(f"{R}/band/ap", f"{payer.id} has no Action Point left to pay for {x.id} joining")]
    return member_reasons(state, step.band, x, step.target)


@dataclass(frozen=True, slots=True)
class BandNominate(GFChoice):
    """The leader nominates the models that join its Banding Action, one at a time, then says 'done'."""

    kind = "band"
    about = "leader"
    leader: str
    band: str
    target: str | None
    joined: tuple[str, ...]
    by: int

    def options(self, state: State) -> list[Action]:
        lead = state.models[self.leader]
        out = [Action("join", lead.id, x.id) for x in state.side_models(lead.side) if not join_reasons(state, self, x)]
        return [*out, Action("done", lead.id)] if self.joined or not out else out

    def tries(self, state: State) -> list[Action]:
        lead = state.models[self.leader]
        return [*(Action("join", lead.id, x.id) for x in state.models.values()), Action("done", lead.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.model != self.leader or action.kind not in ("join", "done"):
            return [(f"{R}/band/syntax", f"'join {self.leader} MODEL' or 'done {self.leader}'")]
        if action.kind == "done":
            if not self.joined and self.options(state) != [action]:
                return [(f"{R}/band/several", "nominate at least one other model (a Banding Action takes several)")]
            return []
        x = state.models.get(action.target or "")
        if x is None:
            return [(f"{R}/band/whose", f"{action.target} is not a model")]
        return join_reasons(state, self, x)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        lead = state.models[self.leader]
        if action.kind == "join":
            x = state.models[action.target or ""]
            _, each = gd.banding_cost(len(self.joined) + 1, state.ctx.params)
            payer = x if each > 0 else lead
            set_ap(payer, ap(payer) - (each if each > 0 else pint(state, "banding_join_ap")))
            events.append(Note(f"{x.id} joins {lead.id}'s {self.band}", f"{R}/band/join"))
            push(state, BandNominate(self.leader, self.band, self.target, (*self.joined, x.id), self.by))
            return
        execute_band(state, lead, self.band, self.target, self.joined, events)


def execute_band(
    state: State, lead: Model, kind: str, target: str | None, joined: tuple[str, ...], events: list[Event]
) -> None:
    """Carry out the band, then the leader's activation ends (seed 004: With Me!, Bring it Down!, On my Mark!)."""
    events.append(Note(f"{lead.id} leads {kind} with {len(joined)} others", f"{R}/band/{kind}"))
    end_activation(state, lead, events)
    members = (lead.id, *joined)
    if kind == "with-me":
        push(state, BandOrder(members, 0, lead.side))
        return
    t = state.models[target or ""]
    declare(state)
    push(state, BandAttack(lead.id, t.id, kind, members))
    open_window(state, lead, t, "fight" if kind == "bring-it-down" else "fire")


@dataclass(frozen=True, slots=True)
class BandAttack(GFAuto):
    """Bring it Down!: the leader's one melee attack at +1 ATT and +1 DAM per model involved; On my Mark!: its one
    ranged attack at +1 MRK and +1 DAM per model involved (seed 004). Every member's weapon is then unloaded
    (``on_my_mark_unloads_all``, PROPOSED)."""

    kind = "band-attack"
    leader: str
    target: str
    how: str
    members: tuple[str, ...]

    def run(self, state: State, events: list[Event]) -> None:
        lead, t = state.models[self.leader], state.models[self.target]
        if not standing(lead) or not standing(t):
            return
        joined = len(self.members) - 1
        if self.how == "bring-it-down":
            att, dam = gd.bring_it_down(0, 0, joined, state.ctx.params)
            start_melee(state, lead, t, "fight", events, bonus=(att, dam))
            return
        w = mark_weapon(state, lead, t)
        if w is None:
            events.append(Note(f"{lead.id} can no longer fire at {t.id}", f"{R}/band/loaded"))
            return
        if P(state, "on_my_mark_unloads_all"):
            for mid in self.members[1:]:
                x = state.models[mid]
                xw = mark_weapon(state, x, t)
                if xw is not None and xw["reload"]:
                    set_loaded(x, xw["name"], False)
        mrk, dam = gd.on_my_mark(0, 0, joined, state.ctx.params)
        start_ranged(state, lead, t, w, mrk, dam, events)


@dataclass(frozen=True, slots=True)
class BandOrder(GFChoice):
    """With Me!: each member in turn, the leader first, makes a Move or a Charge! (no AP of its own); when the
    order ends, each member in base to base contact with an enemy may make a free Fight! (seed 004)."""

    kind = "band-order"
    about = "model"
    members: tuple[str, ...]
    index: int
    by: int

    @property
    def model(self) -> str:
        return self.members[self.index]

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        if not standing(m) or knocked(m):
            return [Action("hold", m.id)]
        out = [Action("move", m.id)]
        for e in enemies_of(state, m):
            if gap(m, e) <= charge_reach(state, m) + 1e-9 and visible(state, m, e):
                out.append(Action("charge", m.id, e.id))
        return [*out, Action("hold", m.id)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if self.index + 1 < len(self.members):
            push(state, BandOrder(self.members, self.index + 1, self.by))
        else:
            push(state, BandFights(self.members, 0, self.by))
        if action.kind == "move":
            push(state, Destination(m.id, float(stat(m, "MOV")), False))
        elif action.kind == "charge":
            t = state.models[action.target or ""]
            declare(state)
            push(state, ChargeRoll(m.id, t.id, False, True))
            open_window(state, m, t, "charge")


@dataclass(frozen=True, slots=True)
class BandFights(GFAuto):
    """After With Me!'s order: the free Fight! of each member in base to base contact with an enemy, in order."""

    kind = "band-fights"
    members: tuple[str, ...]
    index: int
    by: int

    def run(self, state: State, events: list[Event]) -> None:
        for i in range(self.index, len(self.members)):
            m = state.models[self.members[i]]
            # seed 004, With Me!: only the models that end in base to base contact get the free Fight!
            if standing(m) and in_close_combat(state, m):
                if i + 1 < len(self.members):
                    push(state, BandFights(self.members, i + 1, self.by))
                push(state, FreeFight(m.id, self.by))
                return


# =========================================================================================== jump / climb
def _platform_at(state: State, p: Vec) -> TerrainPiece | None:
    best: TerrainPiece | None = None
    for piece in state.ctx.table.platforms:
        if piece.contains(p) and (best is None or piece.height > best.height):
            best = piece
    return best


def jump_plan(state: State, m: Model, p: Vec) -> tuple[float, str] | list[Reason]:
    """(inches the Jump/Climb check must cover, "climb" or "jump") for ``m`` to reach ``p``, or why not: a climb
    goes up a sheer platform from its foot (``climb_reach``), the height to cover; a jump leaves a raised point
    for another raised point or the ground, the gap to cover (seed 004, Jump/Climb). At most MOV inches across."""
    ctx = state.ctx
    r = m.radius
    if not ctx.table.on_table(p, r):
        return [(f"{R}/jump/table", f"{m.id} would leave the table")]
    dest = _platform_at(state, p)
    here = _platform_at(state, m.pos) if m.z > 0 else None
    if dest is not None and dest is here:
        return [(f"{R}/jump/same", "that point is on the platform the model stands on: a Move")]
    if dest is not None and dest.id not in ctx.ladders and not setup.wholly_inside(dest, p, r):
        return [(f"{R}/jump/edge", f"{m.id}'s base must stand wholly on {dest.id}")]
    for piece in ctx.solid:
        if piece is not dest and piece is not here and piece.circle_overlaps(p, r - 1e-6):
            return [(f"{R}/jump/terrain", f"{m.id} cannot stand in {piece.kind} terrain {piece.id}")]
    if here is not None and dest is None and here.circle_overlaps(p, r - 1e-6):
        return [(f"{R}/jump/edge", f"{m.id}'s base must be clear of {here.id} when it lands")]
    if overlapping(state.models.values(), p, r, skip=lambda x: x.id == m.id or incap(x)) is not None:
        return [(f"{R}/jump/overlap", f"{m.id} would overlap another model")]
    across = math.hypot(p[0] - m.x, p[1] - m.y)
    if across > stat(m, "MOV") + 1e-9:
        return [(f"{R}/jump/far", f'a Jump/Climb covers at most {stat(m, "MOV")}" across')]
    h_to = dest.height if dest is not None else 0.0
    if here is None:
        if dest is None or dest.id in ctx.ladders or h_to <= m.z:
            return [(f"{R}/jump/needless", "nothing to climb there: a Move")]
        if dest.distance_to(m.pos) - r > pfloat(state, "climb_reach") + 1e-9:
            return [(f"{R}/jump/foot", f"{m.id} is not at the foot of {dest.id}")]
        return (h_to - m.z, "climb")
    tr = ctx.table.trace(m.pos, p)
    return (max(0.0, tr.length - tr.length_in("platform")), "jump")


def _check_jump(state: State, m: Model, a: Action) -> list[Reason]:
    if a.point is None:
        return [(f"{R}/action/syntax", "declare 'jump MODEL @x,y'")]
    plan = jump_plan(state, m, a.point)
    return plan if isinstance(plan, list) else []


def jump_spots(state: State, m: Model) -> list[Vec]:
    """Candidate Jump/Climb destinations: the nearest standing point on each platform within reach, and when the
    model stands on a raised point, the ground just beyond its edge in eight directions."""
    out: list[Vec] = []
    mov = float(stat(m, "MOV"))
    here = _platform_at(state, m.pos) if m.z > 0 else None
    for piece in state.ctx.table.platforms:
        if piece is here or piece.distance_to(m.pos) > mov:
            continue
        cx, cy = (piece.bbox[0] + piece.bbox[2]) / 2, (piece.bbox[1] + piece.bbox[3]) / 2
        d = math.hypot(cx - m.x, cy - m.y)
        for k in range(1, int(mov / 0.25) + 1):
            f = min(1.0, k * 0.25 / d) if d > 1e-9 else 1.0
            q = (round(m.x + (cx - m.x) * f, 2), round(m.y + (cy - m.y) * f, 2))
            if setup.wholly_inside(piece, q, m.radius):
                if not isinstance(jump_plan(state, m, q), list):
                    out.append(q)
                break
            if f >= 1.0:
                break
    if here is not None:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            for k in range(1, int(mov / 0.25) + 1):
                q = (round(m.x + dx * k * 0.25, 2), round(m.y + dy * k * 0.25, 2))
                if not here.circle_overlaps(q, m.radius):
                    if not isinstance(jump_plan(state, m, q), list):
                        out.append(q)
                    break
    return out


@dataclass(frozen=True, slots=True)
class JumpClimbRoll(GFChance):
    """The Jump/Climb check: MOV dice at TN 4, each success 1" (seed 004). Short of what it needs, the model
    falls: 1 wound per full 3" of the drop, ARM at TN 4 (digest B2, PROPOSED): a failed climb stays at the
    foot, a failed jump lands on the ground along its line."""

    kind = "jump-climb"
    prompt = "jump/climb"
    model: str
    x: float
    y: float
    need: float
    n: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, pint(state, "die_sides"), "jump/climb", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = gd.jump_climb_pool(stat(m, "MOV"), state.ctx.params)
        s = count(state, values[: pt.dice], pt.tn) if pt.dice > 0 else 0
        dist = gd.jump_climb_distance(s, state.ctx.params)
        ok = dist + 1e-9 >= self.need
        events.append(DiceRolled("jump/climb at 4+", values, f'{dist}" of {self.need:.1f}" needed', m.id))
        target = (self.x, self.y)
        if ok and not isinstance(jump_plan(state, m, target), list):
            place(state, m, target, events)
            return
        drop = m.z if m.z > 0 else min(float(dist), self.need)
        if m.z > 0:
            land = _landing(state, m, target)
            if land is None:
                events.append(Note(f"{m.id} fails and stays where it is", f"{R}/jump/fail"))
                return
            place(state, m, land, events)
        wounds = gd.fall_wounds(drop, state.ctx.params)
        events.append(Note(f'{m.id} falls {drop:.1f}": {wounds} wounds', f"{R}/jump/fall"))
        if wounds > 0:
            ap_ = gd.pool_test(stat(m, "ARM"), pint(state, "fall_armour_tn"), rules_of(state))
            if ap_.dice > 0:
                push(state, ArmourRoll(m.id, ap_.dice, ap_.tn, wounds, False, 0))
            else:
                push(state, Soak(m.id, wounds, False, 0))


def _landing(state: State, m: Model, toward_: Vec) -> Vec | None:
    """Where a failed jump lands: the first ground point along its line where the base fits."""
    for k in range(1, 41):
        f = k / 40
        q = (round(m.x + (toward_[0] - m.x) * f, 2), round(m.y + (toward_[1] - m.y) * f, 2))
        if _platform_at(state, q) is not None or not state.ctx.table.on_table(q, m.radius):
            continue
        if any(s.circle_overlaps(q, m.radius - 1e-6) for s in state.ctx.solid):
            continue
        if overlapping(state.models.values(), q, m.radius, skip=lambda x: x.id == m.id or incap(x)) is None:
            return q
    return None


# =========================================================================================== the machine
class GangfightRules(SteppedRules[State]):
    """Gangfight on the kernel's step machine."""

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def standing(self, state: State) -> Choice[State] | None:
        if state.phase == "deploy":
            return Deploy(int(state.vars["deployer"]))
        if state.phase == "turn":
            m = active_model(state)
            return Activate(int(state.vars["active"])) if m is None else ChooseAction(m.id)
        return None

    def idle(self, state: State, events: list[Event]) -> bool:
        if state.phase != "turn":
            return False
        if remove_incapacitated(state, events):
            return True
        for side in (0, 1):
            if not any(standing(m) for m in state.side_models(side)):
                game_over(state, f"side {side_name(side)} wiped out", events)
                return True
        m = active_model(state)
        side = int(state.vars["active"])
        if m is not None:
            if not standing(m) or m.flags.get("finished") or ap(m) <= 0 or not has_action(state, m):
                end_activation(state, m, events)
                return True
            return False
        if not any(can_activate(state, x) for x in state.side_models(side)):
            end_turn(state, events)
            return True
        return False


STEPS = (
    InitiativeRoll,
    ChooseRole,
    ChooseEdge,
    Deploy,
    BraveryRoll,
    Activate,
    ChooseAction,
    Destination,
    InterruptWindow,
    FireBack,
    StrikeBack,
    ChargeRoll,
    ChargeMove,
    FreeFight,
    FightGo,
    FireGo,
    AttackRoll,
    ArmourRoll,
    BandNominate,
    BandAttack,
    BandOrder,
    BandFights,
    Soak,
    DodgeRoll,
    JumpClimbRoll,
)
RULES = GangfightRules(STEPS)
