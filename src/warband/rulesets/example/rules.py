"""The example game, top to bottom: its context, the set-up, the round, the activation, the two actions, the end.

A deliberately small skirmish game to copy (``docs/new-ruleset.md`` walks through it). Its whole rulebook is the
clause matrix ``docs/rules/example.md``: each function below cites the numbered rule it implements. It runs on
the kernel's step machine: every pending decision or roll is a frozen dataclass on the state's stack, declared
once with who decides and what it does (:mod:`warband.kernel.steps`). The set-up steps are the kernel's
(:mod:`warband.kernel.setup`), and so is the alternating activation (:mod:`warband.kernel.turns`).

Rule ids are ``example/<area>/<rule>``: ``R`` below is the ruleset id, the one name to change in a copy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warband.kernel import setup, steps, turns, values
from warband.kernel.actions import Action
from warband.kernel.battlefield import controller, vp_winner
from warband.kernel.context import GameContext, Rosters, context_fields, number_models
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, DiceRolled, Event, GameEnded, Moved, Note, PhaseStarted, Removed
from warband.kernel.geometry.distance import Vec, base_radius
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.ruleset import new_state
from warband.kernel.setup import side_name
from warband.kernel.space import enemies, gap, overlapping, toward
from warband.kernel.state import GameState, Model

from .roster import profiles

R = "example"
#: Terrain no model may stand in or move through (rules 3 and 7).
SOLID = frozenset({"impassable", "blocking"})
#: Deployment spots offered across and along a zone (a player may name any other point in it).
DEPLOY_GRID = (8, 2)
#: Directions of the candidate moves offered besides those toward enemies and objectives (rule 7).
COMPASS = 8


# ------------------------------------------------------------------------------------------- the game's context
@dataclass(kw_only=True)
class Context(GameContext):
    """What never changes in a game: the kernel's fields plus the rounds to play and each side's model ids."""

    rounds: int
    order: tuple[tuple[str, ...], tuple[str, ...]]


State = GameState[Context]
#: Where the alternating turn keeps its bookkeeping in ``state.vars``: the active model, the side to act next.
ACTIVATION = turns.Activation(active="active", to_act="to_act")


def build(params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int) -> State:
    """Rule 1: each side's models, off the table, with their Wounds; the scenario's table and turns."""
    specs, order = number_models((profiles(rosters[0]), profiles(rosters[1])))
    ctx = Context(**context_fields(params, rosters, scenario, specs), rounds=int(scenario["turns"]), order=order)
    height = float(params["model_height"])
    models = []
    for side in (0, 1):
        for mid in order[side]:
            spec = specs[mid]
            m = Model(mid, side, spec["name"], spec["type"], base_radius(spec["base_mm"]), height, spec)
            m.tokens["wounds"] = int(spec["wounds"])
            models.append(m)
    return new_state(ctx, models, rosters, seed)


# ------------------------------------------------------------------------------------------- set-up
def start_game(state: State, events: list[Event]) -> None:
    """Rule 2: the game starts with a roll-off for the deployment zones."""
    state.phase = "setup"
    state.vars.update({"zone_of": [0, 1], "vp": [0, 0], "active": None, "to_act": 0, "acts": [], "end_now": False})
    steps.push(state, RollOff("deployment"))


@values.value
class RollOff(setup.RollOff[State]):
    """Rules 2 and 4: each side rolls a D6, the higher wins, a tie rolls again: for the deployment zones, or for
    the first activation of a round."""

    why: str

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        if self.why == "deployment":
            steps.push(state, ChooseZone(winner))
        else:
            begin_activations(state, winner, events)


@values.value
class ChooseZone(setup.ChooseZone[State]):
    """Rule 2: the roll-off winner picks a deployment zone; the other side deploys first."""

    by: int

    def chosen(self, state: State, zone: int, events: list[Event]) -> None:
        state.phase = "deploy"
        state.vars["deployer"] = 1 - self.by
        events.append(Note(f"side {side_name(1 - self.by)} deploys first", f"{R}/setup/first"))


@values.value
class Deploy(setup.Deploy[State]):
    """Rule 3: the sides take turns placing one model each wholly inside their own zone, where a model may stand
    (a side with none left lets the other finish). Pending with ``piece`` set, it asks where that model goes."""

    by: int
    piece: str = ""

    def pieces(self, state: State, side: int) -> list[str]:
        return [mid for mid in state.ctx.order[side] if not state.models[mid].on_table]

    def spots(self, state: State, piece: str, first: bool = False) -> list[Vec]:
        zone = own_zone(state, piece)

        def fits(p: Vec) -> bool:
            return not self.problems(state, piece, p)

        return setup.deploy_spots(setup.zone_grid(zone, *DEPLOY_GRID), zone, fits, first)

    def problems(self, state: State, piece: str, at: Vec) -> list[Reason]:
        m = state.models[piece]
        if not setup.wholly_inside(own_zone(state, piece), at, m.radius):
            return [(f"{R}/deploy/zone", f"{piece} must be placed wholly inside its deployment zone")]
        return standing_problems(state, m, at, "deploy")

    def put(self, state: State, piece: str, at: Vec, events: list[Event]) -> None:
        m = state.models[piece]
        m.on_table = True
        place(m, at, events)

    def all_deployed(self, state: State, events: list[Event]) -> None:
        start_round(state, events)


def own_zone(state: State, piece: str) -> TerrainPiece:
    return state.ctx.zones[state.vars["zone_of"][state.models[piece].side]]


def standing_problems(state: State, m: Model, p: Vec, area: str) -> list[Reason]:
    """Rules 3 and 7: a model stands wholly on the table, clear of other bases and of impassable and blocking
    terrain."""
    if not state.ctx.table.on_table(p, m.radius):
        return [(f"{R}/{area}/table", f"{m.id} must stand wholly on the table")]
    other = overlapping(state.models.values(), p, m.radius, lambda o: o.id == m.id)
    if other is not None:
        return [(f"{R}/{area}/overlap", f"{m.id} would overlap {other.id}")]
    for t in state.ctx.table.terrain:
        if t.kind in SOLID and t.circle_overlaps(p, m.radius):
            return [(f"{R}/{area}/terrain", f"{m.id} cannot stand in {t.kind} terrain {t.id}")]
    return []


def place(m: Model, p: Vec, events: list[Event]) -> None:
    start = m.pos
    m.x, m.y = p
    events.append(Moved(m.id, start, p, math.dist(start, p)))


# ------------------------------------------------------------------------------------------- the round
def start_round(state: State, events: list[Event]) -> None:
    """Rule 4: a round starts: every model on the table is ready again, and a roll-off says who activates
    first."""
    state.turn += 1
    state.phase = "initiative"
    events.append(PhaseStarted(state.turn, "Initiative"))
    for m in state.models.values():
        m.flags.pop("activated", None)
    steps.push(state, RollOff("initiative"))


def begin_activations(state: State, first: int, events: list[Event]) -> None:
    """Rule 4: the roll-off winner activates first; then the sides alternate (rule 5, :class:`ExampleRules`)."""
    state.phase = "activation"
    ACTIVATION.set_side(state, first)
    events.append(Note(f"side {side_name(first)} activates first", f"{R}/round/first"))
    events.append(PhaseStarted(state.turn, "Activation"))


def ready(state: State, side: int) -> list[str]:
    """Rule 5: a side's models on the table that have not activated this round."""
    return [m.id for m in state.side_models(side) if m.on_table and not m.flags.get("activated")]


@values.value
class Activate(turns.Activate[State]):
    """Rule 5: the side to act activates one of its ready models."""

    by: int

    def ready(self, state: State) -> list[str]:
        return ready(state, self.by)

    def unready(self, state: State, piece: str) -> list[Reason]:
        if not state.models[piece].on_table:
            return [(f"{R}/activation/not-on-table", f"{piece} is not on the table")]
        return [(f"{R}/activation/once-per-round", f"{piece} has already activated this round")]

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        ACTIVATION.begin(state, piece, self.by, events)
        state.vars.update({"acts": [], "end_now": False})


# ------------------------------------------------------------------------------------------- the activation
@values.value
class ActionMenu(steps.ActionMenu[State], about="model"):
    """Rule 6: the active model's next action: a Move, an Attack, or the end of its activation."""

    model: str

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        m = state.models[self.model]
        tries = [Action("move", m.id, point=p) for p in move_candidates(state, m)]
        tries += [Action("attack", m.id, e.id) for e in enemies(state.models.values(), m)]
        if only_legal:
            tries = [a for a in tries if not action_problems(state, m, a)]
        return [*tries, Action("end", m.id)]

    def check(self, state: State, action: Action) -> list[Reason]:
        return action_problems(state, state.models[self.model], action)

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        events.append(ActionTaken(m.id, str(action), m.side))
        if action.kind == "end":
            state.vars["end_now"] = True
            return
        state.vars["acts"] = [*state.vars["acts"], action.kind]
        if action.kind == "move" and action.point is not None:
            place(m, action.point, events)
        else:
            steps.push(state, AttackRoll(m.id, str(action.target)))


def well_formed(a: Action) -> bool:
    """``move MODEL @x,y``, ``attack MODEL TARGET`` or ``end MODEL``, nothing more."""
    if a.option is not None:
        return False
    if a.kind == "move":
        return a.target is None and a.point is not None
    return a.kind in ("attack", "end") and (a.target is not None) == (a.kind == "attack") and a.point is None


def action_problems(state: State, m: Model, a: Action) -> list[Reason]:
    """Rule 6: every rule the active model's action ``a`` breaks: its form, once each, then the action's own."""
    if not well_formed(a):
        return [(f"{R}/activation/form", f"expected 'move {m.id} @x,y', 'attack {m.id} TARGET' or 'end {m.id}'")]
    if a.kind in state.vars["acts"]:
        return [(f"{R}/activation/once", f"{m.id} has already made its {a.kind} this activation")]
    if a.kind == "move":
        return move_problems(state, m, a.point or m.pos)
    return attack_problems(state, m, a.target) if a.kind == "attack" else []


def done(state: State, m: Model) -> bool:
    """Rule 6: the activation is over once the model has moved and attacked, or has moved with no enemy to
    attack, or its player ended it."""
    acts = state.vars["acts"]
    if state.vars["end_now"] or not m.on_table or ("move" in acts and "attack" in acts):
        return True
    if "move" not in acts:
        return False
    return not any(not attack_problems(state, m, e.id) for e in enemies(state.models.values(), m))


# ------------------------------------------------------------------------------------------- move
def move_problems(state: State, m: Model, p: Vec) -> list[Reason]:
    """Rule 7: a Move goes up to the model's Move in a straight line, not through impassable or blocking
    terrain, and ends where a model may stand. Any point is checked, not only the offered ones."""
    allowance = float(m.data["move"])
    if math.dist(m.pos, p) > allowance + 1e-9:
        return [
            (f"{R}/move/distance", f'{m.id} moves at most {allowance:g}"; that point is {math.dist(m.pos, p):.1f}"')
        ]
    blocked = state.ctx.table.segment_blocked(m.pos, p, SOLID)
    if blocked is not None:
        return [(f"{R}/move/path", f"{m.id} cannot move through {blocked.kind} terrain {blocked.id}")]
    return standing_problems(state, m, p, "move")


def move_candidates(state: State, m: Model) -> list[Vec]:
    """The destinations offered (rule 7): as far as the Move goes toward each enemy (stopping short of its base)
    and each objective, and in :data:`COMPASS` directions; only legal ones, each once."""
    reach = float(m.data["move"])
    goals = [(e.pos, e.radius + m.radius + 0.05) for e in enemies(state.models.values(), m)]
    goals += [(o.at, 0.0) for o in state.ctx.objectives]
    points = [toward(m.pos, at, max(0.0, min(reach, math.dist(m.pos, at) - stop))) for at, stop in goals]
    for k in range(COMPASS):
        angle = 2 * math.pi * k / COMPASS
        points.append((m.x + reach * math.cos(angle), m.y + reach * math.sin(angle)))
    out = list(dict.fromkeys((round(x, 2), round(y, 2)) for x, y in points))
    return [p for p in out if p != m.pos and not move_problems(state, m, p)]


# ------------------------------------------------------------------------------------------- attack
def attack_problems(state: State, m: Model, target: str | None) -> list[Reason]:
    """Rule 8: an Attack picks an enemy model on the table within ``attack_range`` (base to base) that the
    attacker can see."""
    t = state.models.get(target or "")
    if t is None or t.side == m.side or not t.on_table:
        return [(f"{R}/attack/target", f"{m.id} must attack an enemy model on the table")]
    reach = float(state.ctx.params["attack_range"])
    if gap(m, t) > reach + 1e-9:
        return [(f"{R}/attack/range", f'{t.id} is {gap(m, t):.1f}" away; an attack reaches {reach:g}"')]
    table = state.ctx.table
    if not table.can_see(m.pos, m.radius, m.z, m.height, t.pos, t.radius, t.z, t.height):
        return [(f"{R}/attack/sight", f"{m.id} cannot see {t.id}")]
    return []


@values.value
class AttackRoll(steps.OneDie[State], kind="attack-roll", label="attack"):
    """Rule 8: one D6; a roll of the attacker's Skill or more hits and removes ``damage`` Wounds from the target."""

    model: str
    target: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        skill = int(m.data["skill"])
        hit = values[0] >= skill
        events.append(DiceRolled(f"attack on {t.id} (hits on {skill}+)", values, "hit" if hit else "miss", m.id))
        if hit:
            wound(state, t, int(state.ctx.params["damage"]), events)


def wound(state: State, t: Model, n: int, events: list[Event]) -> None:
    """Rules 8 and 9: a model with no Wounds left is taken out of action, and the other side scores
    ``vp_per_kill``."""
    t.tokens["wounds"] = max(0, t.token("wounds") - n)
    if t.token("wounds") > 0:
        return
    t.on_table = False
    t.flags["out"] = True
    events.append(Removed(t.id, "out of action"))
    score(state, 1 - t.side, int(state.ctx.params["vp_per_kill"]), f"takes {t.id} out of action", events)


# ------------------------------------------------------------------------------------------- the end
def score(state: State, side: int, vp: int, why: str, events: list[Event]) -> None:
    vps = list(state.vars["vp"])
    vps[side] += vp
    state.vars["vp"] = vps
    events.append(Note(f"side {side_name(side)} {why}: +{vp} VP", f"{R}/end/vp"))


def score_objectives(state: State, events: list[Event]) -> None:
    """Rule 10: at the end of each round, each objective scores its VP for the side with more models within its
    radius."""
    for ob in state.ctx.objectives:
        side = controller(state.models.values(), ob.at, ob.radius, lambda m: 1)
        if side is not None:
            score(state, side, ob.vp, f"holds {ob.id}", events)


def game_over(state: State, winner: int | None, reason: str, events: list[Event]) -> None:
    state.phase = "over"
    state.vars.update({"winner": winner, "reason": reason})
    events.append(GameEnded(winner, reason, (state.vars["vp"][0], state.vars["vp"][1])))


class ExampleRules(turns.Alternating[State]):
    """The example game on the kernel's alternating turn: its steps for deploying, activating and the action menu
    are named (the kernel makes them), and the rest is the hooks of :class:`~warband.kernel.turns.Alternating`."""

    activation = ACTIVATION
    deploy_step = Deploy
    activate_step = Activate
    menu_step = ActionMenu

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def done(self, state: State, piece: str) -> bool:
        return done(state, state.models[piece])

    def end_activation(self, state: State, piece: str, events: list[Event]) -> None:
        """Rule 5: the model has activated this round; the other side is to act."""
        state.models[piece].flags["activated"] = True
        state.vars.update({"acts": [], "end_now": False})
        events.append(Note(f"{piece}'s activation ends", f"{R}/activation/end"))
        super().end_activation(state, piece, events)

    def passes(self, state: State, side: int, events: list[Event]) -> None:
        """Rule 5: a side with no ready model passes; the other side activates its remaining models."""
        events.append(Note(f"side {side_name(side)} has no ready model: it passes", f"{R}/activation/pass"))

    def settle(self, state: State, events: list[Event]) -> bool:
        """Rule 11: a side with no model left on the table loses at once."""
        for side in (0, 1):
            if not any(m.on_table for m in state.side_models(side)):
                game_over(state, 1 - side, f"side {side_name(side)} has no model left", events)
                return True
        return False

    def end_round(self, state: State, events: list[Event]) -> None:
        """Rules 10 and 11: objectives score; after the scenario's last round the side with more VP wins."""
        score_objectives(state, events)
        if state.turn >= state.ctx.rounds:
            game_over(state, vp_winner(state.vars["vp"]), f"{state.ctx.rounds} rounds played", events)
        else:
            start_round(state, events)


RULES = ExampleRules([RollOff, ChooseZone, Deploy, Activate, ActionMenu, AttackRoll])
