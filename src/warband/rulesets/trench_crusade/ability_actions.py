"""Abilities that are actions of the menu, their outcomes, and their GOETIC and PUTRESCERE costs.

Effect kind ``ability_action`` in ``data/modelled.yaml``: the model takes the ability as an ACTION, at most once
an activation (``ability MODEL [TARGET] [Name]``), with a Success Roll (Risky where the ability says so, with its
+DICE), and on a success its ``outcome``:

=========  =========================================================================================
blood      the target gains ``count`` Blood markers (``critical_count`` on a Critical; ``count`` + 1
           against a model with one of ``keywords``): Goetic Gaze, Divine Judgement
aim        its ranged attacks get ``count`` +DICE for the rest of the activation: Aim
heal       the target (a friend within ``range``, or itself) loses D``count`` Blood markers: Laying On Hands
portal     (GOETIC-free, Risky) it is placed up to ``range`` inches away at a spot it sees, bringing, if its side
           says so, an enemy of base ``count`` mm or less it is fighting (kept where it stood beside it):
           :class:`PortalChoice`, Goetic Portal
detonate   (no roll, once a battle) the Martyrdom Device: BLAST ``range`` round it, +1 INJURY DICE within 1",
           itself ``count`` D6 all added (:func:`attacks.detonate`)
bless      the target (a friend within ``range``, or itself) gains a Blessing marker: God is With Us!
advance    friends within ``range`` not in melee each move up to ``count`` inches toward the nearest enemy it
           sees, as a charge moves (into base contact where it reaches; ours: the engine's best spot, the way a
           charge's first candidate is chosen): Loudspeakers
sacrament  the target (another friend within ``range``) gets, for its next activation, the gift its side chooses
           (``sacrament MODEL [hit|shrapnel|injury]``, :class:`SacramentChoice`): The Ammunition Sacrement
tend       the target (a friend within ``range``, or itself) stands up if it is Down, else loses ``count``
           Blood markers (ours: a Down friend stands rather than losing a marker): the Medi-Kit
rally      Down friends within ``range`` stand up at no cost: Enforced Orthodoxy
fortify    it counts as in cover until it moves: Fortify
hide       (touching sight-blocking terrain) it cannot be shot or charged until it moves or shoots or an
           enemy comes within ``range``: Hide
command    (no roll; once a turn) its activation ends and the opponent must activate the target next: On
           My Command!
puppet     the target (any model within ``range``) moves up to D6 inches in a straight line, the user's
           side choosing where: Puppet Master
free_retreat  a Retreat with no Melee Attacks against it: Shadow Walker
miasma     until its next activation, models within ``range`` count as in cover and lose elevation bonuses:
           Miasma of Pestilence
devour     the target (any model within ``range`` on a base of ``count`` mm or less) is swallowed: Devour
           the Guilty (swallow.py)
vomit      the swallowed model comes out Down within 1": Vomit (swallow.py)
demine     (Risky) the mine it touches is disarmed; on a failure it goes off: De-Mine (mines.py)
=========  =========================================================================================

GOETIC (X) and PUTRESCERE (X) (catalogue keywords) are what such an action costs instead of a roll: X Blood markers
taken from models that are neither DEMONIC nor BLACK GRAIL, or X Infection markers taken from models within 12" of
the caster (:func:`payers`; ours: the enemy's markers first, most first, then the caster's side's).
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged, TokensChanged
from warband.kernel.space import gap, overlapping
from warband.kernel.state import Model
from warband.kernel.steps import ModelDecision, OneDie, push
from warband.rulesets.trench_crusade import abilities
from warband.rulesets.trench_crusade.attacks import detonate
from warband.rulesets.trench_crusade.catalogue import load_catalogue
from warband.rulesets.trench_crusade.charge_spots import charge_end_z, charge_spots
from warband.rulesets.trench_crusade.core import (
    SACRAMENT_GIFTS,
    AfterSuccess,
    R,
    State,
    SuccessRoll,
    acts,
    add_act,
    add_blood,
    add_infection,
    model_dice,
    movement,
    place,
    push_success,
)
from warband.rulesets.trench_crusade.mines import demine_reasons, disarm, set_off
from warband.rulesets.trench_crusade.modelled import Effect
from warband.rulesets.trench_crusade.movement import Destination
from warband.rulesets.trench_crusade.sight import engaged_with, standing_enemies, visible
from warband.rulesets.trench_crusade.space import away_direction
from warband.rulesets.trench_crusade.swallow import (
    devour,
    devour_reasons,
    devour_terms,
    spit_out,
    vomit_reasons,
)


def ability_name(ability_id: str) -> str:
    return load_catalogue().name_of(ability_id)


def action_abilities(m: Model) -> list[tuple[str, Effect]]:
    """(ability id, its action) for each ability of ``m`` that is an action."""
    return [(a, fx) for a, fx, _ in _actions_of(m)]


def _actions_of(m: Model) -> tuple[tuple[str, Effect, str], ...]:
    """:func:`action_abilities` with each ability's name, kept per set of abilities (the catalogue's effects and
    names never change while a process runs): the menu lists and checks them after every step."""
    key = tuple(m.data.get("abilities", ()))
    got = _ACTIONS.get(key)
    if got is None:
        got = _ACTIONS[key] = tuple(
            (a, fx, ability_name(a)) for a in key for fx in abilities._effects_of(a) if fx.kind == "ability_action"
        )
    return got


_ACTIONS: dict[tuple[str, ...], tuple[tuple[str, Effect, str], ...]] = {}


def tries(state: State, m: Model) -> list[Action]:
    """Every ability action ``m`` might take (each target for one that has a target)."""
    out = []
    for _, fx, name in _actions_of(m):
        if fx.target == "self":
            out.append(Action("ability", m.id, option=name))
        else:
            for t in state.models.values():
                if t.on_table and _kind_ok(m, t, fx):
                    out.append(Action("ability", m.id, t.id, option=name))
    return out


def _kind_ok(m: Model, t: Model, fx: Effect) -> bool:
    return fx.target == "any" or (t.side != m.side) == (fx.target == "enemy")


def touching_cover(state: State, m: Model) -> bool:
    """Whether ``m``'s base touches terrain that blocks sight (within ``cover_contact``)."""
    reach = m.radius + float(state.ctx.params["cover_contact"])
    return any(p.blocks_los and p.circle_overlaps((m.x, m.y), reach) for p in state.ctx.table.terrain)


def payers(state: State, m: Model, fx: Effect) -> tuple[str, int, list[Model]]:
    """(marker, how many, the models that may pay) of a GOETIC or PUTRESCERE cost, in the order they pay."""
    if fx.goetic:
        pool = [
            x
            for x in state.models.values()
            if x.on_table and x.token("blood") > 0 and not ({"DEMONIC", "BLACK GRAIL"} & set(x.data["keywords"]))
        ]
        marker, need = "blood", fx.goetic
    else:
        reach = float(state.ctx.params["putrescere_range"])
        pool = [x for x in state.models.values() if x.on_table and x.token("infection") > 0 and gap(m, x) <= reach]
        marker, need = "infection", fx.putrescere
    pool.sort(key=lambda x: (x.side == m.side, -x.token(marker), x.id))
    return marker, need, pool


def _pay(state: State, m: Model, fx: Effect, events: list[Event]) -> None:
    marker, need, pool = payers(state, m, fx)
    for x in pool:
        k = min(need, x.token(marker))
        if marker == "blood":
            add_blood(state, x, -k, events)
        else:
            add_infection(state, x, -k, events)
        need -= k
        if need == 0:
            return


def _named(m: Model, name: str | None) -> tuple[str, Effect] | None:
    return next(((a, fx) for a, fx, called in _actions_of(m) if called == name), None)


def reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """Why ``m`` cannot take the ability action ``a`` now (its rule named)."""
    found = _named(m, a.option)
    if found is None:
        names = [ability_name(x) for x, _ in action_abilities(m)]
        return [(f"{R}/ability/unknown", f"{m.id} has no ability action {a.option!r} (has {names or 'none'})")]
    return _refusals(state, m, a, *found)


def legal_tries(state: State, m: Model) -> list[Action]:
    """``[a for a in tries(state, m) if not reasons(state, m, a)]``, each ability looked up once, not once per
    action (:func:`_named`: the first ability of the action's name), and its refusals that name no target
    (:func:`_own_refusals`) asked once, not once per target."""
    out = []
    first: dict[str, tuple[str, Effect]] = {}
    for ab, fx, name in _actions_of(m):
        first.setdefault(name, (ab, fx))
    for _, fx, name in _actions_of(m):
        named = first[name]
        if _own_refusals(state, m, name, *named):
            continue
        if fx.target == "self":
            a = Action("ability", m.id, option=name)
            if not _target_refusals(state, m, a, *named):
                out.append(a)
        else:
            for t in state.models.values():
                if t.on_table and _kind_ok(m, t, fx):
                    a = Action("ability", m.id, t.id, option=name)
                    if not _target_refusals(state, m, a, *named):
                        out.append(a)
    return out


def _refusals(state: State, m: Model, a: Action, ab: str, fx: Effect) -> list[Reason]:
    """:func:`reasons` once the ability ``a`` names is found: ``ab`` and its action ``fx``."""
    return _own_refusals(state, m, a.option, ab, fx) or _target_refusals(state, m, a, ab, fx)


def _own_refusals(state: State, m: Model, option: str | None, ab: str, fx: Effect) -> list[Reason]:
    """The refusals of :func:`_refusals` that name no target (the same for every target of the ability action
    ``option``): already taken, the outcome's own conditions, a GOETIC or PUTRESCERE cost."""
    rule = f"{R}/ability/{ab}"
    if f"ability:{ab}" in acts(state):
        return [(rule, f"{option} was already taken this activation")]
    if fx.outcome == "fortify" and engaged_with(state, m):
        return [(rule, f'{option} is not for a model within 1" of an enemy')]
    if fx.outcome == "hide" and not touching_cover(state, m):
        return [(rule, f"{option} needs {m.id} touching terrain that blocks sight")]
    if fx.outcome == "command" and m.flags.get("commanded_turn") == state.turn:
        return [(rule, f"{option} is once a turn")]
    if fx.goetic or fx.putrescere:
        marker, need, pool = payers(state, m, fx)
        have = sum(x.token(marker) for x in pool)
        if have < need:
            cost = f"GOETIC ({need})" if fx.goetic else f"PUTRESCERE ({need})"
            return [(rule, f"{option} costs {cost}: {need} {marker.title()} markers to spend, {have} to be had")]
    if fx.outcome == "free_retreat":
        if not engaged_with(state, m):
            return [(rule, f'{option} is a Retreat: only for a model within 1" of an enemy')]
        if any(k in acts(state) for k in ("move", "charge", "retreat")):
            return [(rule, f"{option} is a Retreat: only one of Move, Charge or Retreat")]
    if fx.outcome == "vomit" and (why := vomit_reasons(m)):
        return why
    if fx.outcome == "demine" and (why := demine_reasons(state, m, str(option))):
        return why
    return []


def _target_refusals(state: State, m: Model, a: Action, ab: str, fx: Effect) -> list[Reason]:
    """The refusals of :func:`_refusals` about the target of ``a`` (none for an ability on the model itself)."""
    rule = f"{R}/ability/{ab}"
    if fx.target == "self":
        return [] if a.target in (None, m.id) else [(rule, f"{a.option} has no target")]
    t = state.models.get(a.target or "")
    if t is None or not t.on_table or not _kind_ok(m, t, fx):
        who = {"enemy": "an enemy", "friend": "a friendly", "any": "a"}[fx.target]
        return [(rule, f"{a.option} needs {who} model on the table")]
    if fx.outcome == "detonate" and ab in m.flags.get("consumed", []):
        return [(rule, f"{a.option} is CONSUMABLE and {m.id} has already set it off")]
    if fx.outcome == "devour" and (why := devour_reasons(m, t, fx.count)):
        return why
    if fx.outcome == "sacrament" and t is m:
        return [(rule, f"{a.option} blesses another friend's guns, not its own")]
    if fx.outcome == "command" and t.flags.get("activated"):
        return [(rule, f"{t.id} has already activated this turn")]
    if t is not m and gap(m, t) > fx.range + 1e-9:
        return [(rule, f'{t.id} is beyond the {fx.range:g}" of {a.option}')]
    if fx.sight and t is not m and not visible(state.ctx, m, t):
        return [(rule, f"{t.id} is not in line of sight of {m.id}")]
    return []


def take(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """Take the ability action ``a`` (already checked): its Success Roll, then :class:`AfterAbility`."""
    found = _named(m, a.option)
    assert found is not None
    ab, fx = found
    add_act(state, f"ability:{ab}")
    plus, minus = model_dice(state, m)
    if fx.characteristic is not None:
        own = int(m.data[fx.characteristic])
        plus, minus = plus + max(0, own), minus + max(0, -own)
    plus, minus = plus + max(0, fx.dice), minus + max(0, -fx.dice)
    risky = fx.risky
    if fx.outcome == "devour":
        extra, risky = devour_terms(state, m, state.models[a.target or m.id])
        plus += extra
    events.append(Note(f"{m.id} uses {a.option}", f"{R}/ability/{ab}"))
    if fx.goetic or fx.putrescere:
        _pay(state, m, fx, events)
    if fx.outcome == "free_retreat":
        add_act(state, "retreat")
    then = AfterAbility(m.id, ab, a.target or m.id)
    if not fx.roll:
        then.follow(state, None, "success", events)
        return
    push_success(state, m.id, ab, plus, minus, risky, then, True)


@values.value
class AfterAbility(AfterSuccess, kind="after-ability"):
    """An ability action's outcome on a success (a Critical for ``critical_count``)."""

    model: str
    ability: str
    target: str

    def follow(self, state: State, roll: SuccessRoll | None, result: str, events: list[Event]) -> None:
        m = state.models[self.model]
        t = state.models[self.target]
        fx = next(f for a, f in action_abilities(m) if a == self.ability)
        if result == "failure":
            if fx.outcome == "demine" and m.on_table:
                set_off(state, m, events)
            return
        if fx.outcome == "blood" and t.on_table:
            n = fx.critical_count if result == "critical" and fx.critical_count else fx.count
            if any(k in t.data["keywords"] for k in fx.keywords):
                n += 1
            add_blood(state, t, n, events)
        elif fx.outcome == "aim":
            m.flags["aimed"] = fx.count
        elif fx.outcome == "heal":
            push(state, HealRoll(t.id, fx.count))
        elif fx.outcome == "tend" and t.on_table:
            if t.flags.pop("down", None):
                events.append(StatusChanged(t.id, "Down", False))
            else:
                add_blood(state, t, -fx.count, events)
        elif fx.outcome == "sacrament" and t.on_table:
            push(state, SacramentChoice(t.id, m.side))
        elif fx.outcome == "portal" and m.on_table:
            push(state, PortalChoice(m.id, m.side, fx.range, fx.count))
        elif fx.outcome == "detonate" and m.on_table:
            m.flags["consumed"] = [*m.flags.get("consumed", []), self.ability]  # CONSUMABLE: once a battle
            detonate(state, m, fx.range, float(state.ctx.params["engagement_range"]), fx.count, events)
        elif fx.outcome == "bless" and t.on_table:
            t.tokens["blessing"] = t.token("blessing") + 1
            events.append(TokensChanged(t.id, "Blessing", 1, t.token("blessing")))
        elif fx.outcome == "advance":
            _advance(state, m, fx, events)
        elif fx.outcome == "rally":
            for f in state.models.values():
                if f.side == m.side and f.on_table and f.flags.get("down") and gap(m, f) <= fx.range + 1e-9:
                    f.flags.pop("down", None)
                    events.append(StatusChanged(f.id, "Down", False))
        elif fx.outcome == "fortify":
            m.flags["fortified"] = True
            events.append(Note(f"{m.id} is fortified: in cover until it moves", f"{R}/ability/{self.ability}"))
        elif fx.outcome == "hide":
            m.flags["hidden"] = fx.range
            events.append(Note(f"{m.id} hides: it cannot be shot or charged", f"{R}/ability/{self.ability}"))
        elif fx.outcome == "command":
            m.flags["commanded_turn"] = state.turn
            state.vars["commanded"] = t.id
            state.vars["end_now"] = True
            events.append(Note(f"{t.id} must activate next", f"{R}/ability/{self.ability}"))
        elif fx.outcome == "puppet" and t.on_table:
            push(state, PuppetRoll(t.id, m.side))
        elif fx.outcome == "free_retreat":
            push(state, Destination(m.id, "retreat", movement(state, m), away_direction(state, m)))
        elif fx.outcome == "devour" and t.on_table and m.on_table:
            devour(state, m, t, events)
        elif fx.outcome == "vomit" and m.flags.get("swallowed"):
            spit_out(state, m, events)
        elif fx.outcome == "demine" and m.on_table:
            disarm(state, m, events)
        elif fx.outcome == "miasma":
            m.flags["miasma"] = fx.range
            events.append(Note(f"miasma around {m.id} until its next activation", f"{R}/ability/{self.ability}"))


def _advance(state: State, m: Model, fx: Effect, events: list[Event]) -> None:
    """Loudspeakers: each friend within ``fx.range`` of ``m``, not in melee, moves up to ``fx.count`` inches
    toward the nearest enemy it sees, counting as charging (it ends in base contact where it reaches)."""
    for f in sorted(state.models.values(), key=lambda x: x.id):
        if f.side != m.side or f is m or not f.on_table or gap(m, f) > fx.range + 1e-9 or engaged_with(state, f):
            continue
        seen = [e for e in standing_enemies(state, f) if visible(state.ctx, f, e)]
        if not seen:
            continue
        t = min(seen, key=lambda e: (gap(f, e), e.id))
        found = charge_spots(state, f, t, float(fx.count))
        if found.spots and found.spots[0] != (f.x, f.y):
            spot = found.spots[0]
            events.append(Note(f"{f.id} surges toward {t.id}", f"{R}/ability/loudspeakers"))
            place(state, f, spot, charge_end_z(state, f, spot), events)


@values.value
class HealRoll(OneDie[State], kind="heal-roll", prompt="heal", label="healing"):
    """The D``sides`` Blood markers a healing ability removes."""

    model: str
    sides: int

    def faces(self, state: State) -> int:
        return self.sides

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("healing", values, f"{values[0]} Blood markers removed", self.model))
        add_blood(state, state.models[self.model], -values[0], events)


@values.value
class PuppetRoll(OneDie[State], kind="puppet-roll", prompt="puppet", label="puppet"):
    """Puppet Master: the D6 inches the target may be moved, then where (the user's side chooses)."""

    model: str
    by: int

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        events.append(DiceRolled("puppet", values, f'{self.model} may be moved {values[0]}"', self.model))
        push(state, Destination(self.model, "puppet", float(values[0]), by=self.by))


@values.value
class SacramentChoice(ModelDecision[State], kind="sacrament"):
    """The Ammunition Sacrement: the user's side picks the gift ``model`` gets for its next activation."""

    def options(self, state: State) -> list[Action]:
        return [Action("sacrament", self.model, option=g) for g in SACRAMENT_GIFTS]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.kind == "sacrament" and action.model == self.model and action.option in SACRAMENT_GIFTS:
            return []
        gifts = "; ".join(f"{k}: {v}" for k, v in SACRAMENT_GIFTS.items())
        return [(f"{R}/ability/the_ammunition_sacrement", f"choose the gift for {self.model}'s guns ({gifts})")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        gift = str(action.option)
        state.models[self.model].flags["sacrament"] = gift
        why = f"{self.model}'s guns are blessed for its activation: {SACRAMENT_GIFTS[gift]}"
        events.append(Note(why, f"{R}/ability/the_ammunition_sacrement"))


#: Rings (inches from the caster) and directions of the spots Goetic Portal offers (any other point is checked).
_PORTAL_RINGS, _PORTAL_ANGLES = (2.0, 4.0, 6.0), 12


@values.value
class PortalChoice(ModelDecision[State], kind="portal"):
    """Goetic Portal: where the caster reappears (``to MODEL @x,y``; ``to MODEL ENEMY @x,y`` brings the enemy it
    is fighting, of base ``size`` mm or less, kept where it stood beside it), or ``stay MODEL``."""

    reach: float
    size: int

    def _bring(self, state: State) -> list[Model]:
        m = state.models[self.model]
        return [e for e in engaged_with(state, m) if e.radius * 2 * 25.4 <= self.size + 0.5]  # base in mm

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        out = []
        for ring in _PORTAL_RINGS:
            for k in range(_PORTAL_ANGLES):
                a = 2 * math.pi * k / _PORTAL_ANGLES
                p = (round(m.x + ring * math.cos(a), 2), round(m.y + ring * math.sin(a), 2))
                for e in [None, *self._bring(state)]:
                    if not self._problems(state, p, e):
                        out.append(Action("to", m.id, e.id if e is not None else None, point=p))
        return [*out, Action("stay", m.id)]

    def _problems(self, state: State, p: tuple[float, float], e: Model | None) -> list[str]:
        m = state.models[self.model]
        table = state.ctx.table
        if math.hypot(p[0] - m.x, p[1] - m.y) > self.reach + 1e-9:
            return [f'{p} is more than {self.reach:g}" from {m.id}']
        if not state.ctx.table.line_of_sight((m.x, m.y), m.z + m.height * 0.5, p, table.surface_height(p) + 0.5):
            return [f"{m.id} does not see {p}"]
        moved = {m.id} | ({e.id} if e is not None else set())
        bodies = [(m, p)] + ([(e, (p[0] + e.x - m.x, p[1] + e.y - m.y))] if e is not None else [])
        for body, at in bodies:
            if not table.on_table(at, body.radius):
                return [f"{body.id} would be off the table"]
            if any(
                x.kind in ("impassable", "blocking", "dangerous") and x.circle_overlaps(at, body.radius)
                for x in table.terrain
            ):
                return [f"{body.id} would stand in terrain no model is placed in"]
            if overlapping(state.models.values(), at, body.radius, lambda o: o.id in moved) is not None:
                return [f"{body.id} would overlap another model"]
        return []

    def reasons(self, state: State, action: Action) -> list[Reason]:
        rule = f"{R}/ability/goetic_portal"
        if (
            action.model != self.model
            or action.kind not in ("to", "stay")
            or (action.kind == "to" and action.point is None)
        ):
            return [
                (
                    rule,
                    f"say where {self.model} reappears: 'to {self.model} @x,y' (an enemy it brings as the target)"
                    f" or 'stay {self.model}'",
                )
            ]
        if action.kind == "stay":
            return []
        e = state.models.get(action.target or "")
        if action.target is not None and (e is None or e not in self._bring(state)):
            return [
                (rule, f"{action.target} is not an enemy of base {self.size}mm or less that {self.model} is fighting")
            ]
        assert action.point is not None
        return [(rule, why) for why in self._problems(state, action.point, e)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "to" or action.point is None:
            return
        m = state.models[self.model]
        e = state.models.get(action.target or "")
        p = action.point
        rule = f"{R}/ability/goetic_portal"
        if e is not None:
            q = (p[0] + e.x - m.x, p[1] + e.y - m.y)
            place(state, e, q, state.ctx.table.surface_height(q), events)
            events.append(Note(f"{m.id} drags {e.id} through the portal", rule))
        place(state, m, p, state.ctx.table.surface_height(p), events)
        events.append(Note(f"{m.id} steps through a Goetic Portal", rule))


ABILITY_STEPS = (AfterAbility, HealRoll, PuppetRoll, SacramentChoice, PortalChoice)
