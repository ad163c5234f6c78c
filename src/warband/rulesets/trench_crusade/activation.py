"""Activating a model and its action menu (seed 000 §Activation Phase and §Actions): a side activates one of its
models not yet Activated this Turn (:class:`Activate`); a Down model stands, a model in dangerous terrain takes a
Risky roll (:func:`begin_activation`); then the model takes actions from its menu (:class:`ActionMenu`), each
at most once, and only one of Move, Charge or Retreat (:func:`action_reasons`). What each action requires is
:mod:`.actions`' :data:`~.actions.CHECKS`; the end of an activation and who activates next are :mod:`.turn`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from warband.kernel import steps, turns, values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, Activated, Event, Note, StatusChanged, TokensChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.rulesets.trench_crusade import abilities, ability_actions
from warband.rulesets.trench_crusade.actions import CHECKS, MOVES, do_action, target_open, weapon_may_shoot
from warband.rulesets.trench_crusade.core import (
    R,
    State,
    activatable,
    acts,
    add_blood,
    add_infection,
    is_down,
    model_dice,
    push_success,
    set_flag,
    weapon_named,
    weapons,
)
from warband.rulesets.trench_crusade.keywords import has_kw, heavy_applies
from warband.rulesets.trench_crusade.modelled import Effect
from warband.rulesets.trench_crusade.movement import AfterDangerous, in_dangerous
from warband.rulesets.trench_crusade.sight import engaged_with, standing_enemies
from warband.rulesets.trench_crusade.swallow import bleed_and_strike


# ------------------------------------------------------------------------------------------- activating a model
@values.value
class Activate(turns.Activate[State]):
    """Standing decision of the Activation Phase: ``side`` activates one of its models (seed 000). The kernel's
    activation decision refuses another side's model (``activation/alternate``) or anything but ``activate
    MODEL`` (``activation/choose``); :meth:`unready` says why one of the side's own models cannot."""

    by: int

    def ready(self, state: State) -> list[str]:
        ordered = commanded(state, self.by)  # On My Command!: the enemy chose the model to activate next
        return [ordered] if ordered is not None else [x.id for x in activatable(state, self.by)]

    def unready(self, state: State, piece: str) -> list[Reason]:
        return activate_reasons(state, state.models[piece])

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        begin_activation(state, state.models[piece], events)


def activate_reasons(state: State, m: Model) -> list[Reason]:
    """Why a model of the side to act cannot activate: it is off the table, or it has activated this Turn (seed
    000: at most once per Turn)."""
    if not m.on_table:
        return [(f"{R}/activation/not-on-table", f"{m.id} is not on the table")]
    if m.flags.get("activated"):
        return [(f"{R}/activation/once-per-turn", f"{m.id} has already been Activated this Turn")]
    ordered = commanded(state, m.side)
    if ordered is not None and m.id != ordered:
        return [(f"{R}/ability/on_my_command", f"On My Command!: {ordered} must activate next")]
    return []


def commanded(state: State, side: int) -> str | None:
    """On My Command!: the model of ``side`` the enemy chose to activate next, while it still may."""
    mid = state.vars.get("commanded")
    m = state.models.get(mid) if isinstance(mid, str) else None
    return m.id if m is not None and m.side == side and m.on_table and not m.flags.get("activated") else None


def _auras(state: State, kind: str) -> list[tuple[Model, list[Effect]]]:
    """The models with effects of ``kind`` and those effects, in the models' order: a model's abilities never
    change in a game, so the holders' ids are kept in the context's memo (the models are this state's)."""
    key = ("effect-holders", kind)
    held: list[str] | None = state.ctx.memo.get(key)
    if held is None:
        held = state.ctx.memo[key] = [f.id for f in state.models.values() if abilities.effects(f, kind)]
    return [(f, abilities.effects(f, kind)) for f in (state.models[x] for x in held)]


def begin_activation(state: State, m: Model, events: list[Event]) -> None:
    """Activate ``m`` (and, in a FIRETEAM, its partner with it: :func:`team_of`)."""
    state.vars.update({"active": m.id, "acts": [], "shot_with": [], "end_now": False, "charged": None})
    state.vars.pop("commanded", None)
    p = partner(state, m)
    if p is not None:
        state.vars["team"] = {"members": [m.id, p.id], "saved": {}, "done": []}
        events.append(Note(f"{m.id} and {p.id} activate together as a FIRETEAM", f"{R}/keyword/fireteam"))
    start_part(state, m, events)
    if p is None and followers(state, m):
        steps.push(state, FollowerChoice(m.id, m.side))


def followers(state: State, m: Model) -> list[Model]:
    """Faithful Followers (catalogue ability, effect ``activate_with_friend``): the friends within the effect's
    range, on the table and not yet activated this turn, that may activate together with ``m``."""
    found = abilities.effects(m, "activate_with_friend")
    if not found:
        return []  # (no reach: a gap is never negative)
    reach = max(fx.range for fx in found)
    return [
        f
        for f in state.models.values()
        if f.side == m.side and f is not m and f.on_table and not f.flags.get("activated") and gap(m, f) <= reach + 1e-9
    ]


@values.value
class FollowerChoice(steps.ModelDecision[State], kind="follower"):
    """Faithful Followers: as ``model`` activates, its side names a friend within 1" to activate together with it
    (``follow MODEL FRIEND``) or none (``decline MODEL``). The pair is a team like a FIRETEAM's, except that
    ``model`` acts first: the friend's part starts when ``model``'s ends (no ``switch``)."""

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        return [Action("follow", m.id, f.id) for f in followers(state, m)] + [Action("decline", m.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action in self.options(state):
            return []
        names = ", ".join(f.id for f in followers(state, state.models[self.model]))
        why = f'{self.model} may activate together with a friend within 1" that has not activated ({names}), or none'
        return [(f"{R}/ability/faithful_followers", why)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "follow" or action.target is None:
            return
        state.vars["team"] = {"members": [self.model, action.target], "saved": {}, "done": [], "follow": True}
        why = f"{action.target} activates together with {self.model}, after it (Faithful Followers)"
        events.append(Note(why, f"{R}/ability/faithful_followers"))


def start_part(state: State, m: Model, events: list[Event]) -> None:
    """The start of ``m``'s activation: a Down model stands (digest §6: Movement halved this activation); a model
    carrying Infection markers gains one (INFECTION MARKER); a model standing in dangerous terrain takes a Risky
    roll (digest §7)."""
    events.append(Activated(m.id, m.side))
    m.flags.pop("miasma", None)  # Miasma of Pestilence lasts until its caster's next activation
    if any(  # Onwards, Christian Soldiers!: a friend (or itself) with the aura within its range
        gap(f, m) <= fx.range + 1e-9
        for f, auras in _auras(state, "fearless_aura")
        if f.side == m.side and f.on_table
        for fx in auras
    ):
        m.flags["fearless"] = True
    if m.flags.get("sacrament"):  # The Ammunition Sacrement's gift holds for its (next) activation
        m.flags["sacrament_live"] = m.flags.pop("sacrament")
    for fx in abilities.effects(m, "heal_on_activation"):  # Miracle of Regeneration
        add_blood(state, m, -fx.count, events)
    if abilities.has_effect(m, "blood_to_blessing") and m.token("blood") > 0:  # Blessed Stigmata
        add_blood(state, m, -1, events)
        m.tokens["blessing"] = m.token("blessing") + 1
        events.append(TokensChanged(m.id, "Blessing", 1, m.token("blessing")))
    if is_down(m):
        set_flag(m, "down", False)
        set_flag(m, "stood", True)
        events.append(StatusChanged(m.id, "Down", False))
        events.append(Note(f"{m.id} stands up: Movement halved this activation", f"{R}/down/stand"))
    bleed_and_strike(state, m, events)  # Devour the Guilty: the victim inside bleeds and strikes
    if m.token("infection") > 0:
        # INFECTION MARKER (catalogue keyword): a model that activates carrying any gains more
        add_infection(state, m, int(state.ctx.params["infection_growth"]), events)
    if in_dangerous(state, (m.x, m.y)):
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, AfterDangerous(m.id), True)


# ------------------------------------------------------------------------------------------- FIRETEAM
def pair_fireteams(models: Iterable[Model]) -> None:
    """FIRETEAM (catalogue keyword; New Antioch Fireteams): the two models of a side with the same ``fireteam``
    number are partners (the warband file names the teams; ``warband validate`` checks they are pairs)."""
    teams: dict[tuple[int, int], list[Model]] = {}
    for m in models:
        if m.data.get("fireteam") is not None:
            teams.setdefault((m.side, int(m.data["fireteam"])), []).append(m)
    for pair in teams.values():
        if len(pair) == 2:
            # in place: a model's data is its profile in the context (``ctx.profiles``), which a restored game
            # (``Game.from_json``: a resumed web table, an agent in a worker, a replay) gives its models again
            for m, other in (pair, pair[::-1]):
                m.data["partner"] = other.id
                m.data["keywords"] = [*m.data["keywords"], "FIRETEAM"]


def partner(state: State, m: Model) -> Model | None:
    """The FIRETEAM partner of ``m`` that may activate with it: on the table and not yet activated this turn."""
    pid = m.data.get("partner")
    p = state.models.get(pid) if pid else None
    return p if p is not None and p.on_table and not p.flags.get("activated") else None


def team_of(state: State) -> dict[str, Any] | None:
    """The FIRETEAM activating now: ``members`` (the two ids), ``saved`` (the bookkeeping of the member not in
    control), ``done`` (members whose part is over)."""
    team = state.vars.get("team")
    return team if isinstance(team, dict) else None


def team_other(state: State, m: Model) -> Model | None:
    """The partner ``m`` may hand control to now: in the team activating, on the table, its part not over."""
    team = team_of(state)
    if team is None or m.id not in team["members"]:
        return None
    other = state.models[next(x for x in team["members"] if x != m.id)]
    return other if other.on_table and other.id not in team["done"] else None


def may_switch(state: State, m: Model) -> Model | None:
    """The partner ``m`` may hand control to by the menu's ``switch``: only after ``m`` took an action since it
    got control (so that handing back and forth always makes progress); never in a Faithful Followers pair."""
    team = team_of(state)
    other = team_other(state, m)
    if team is None or other is None or team.get("follow") or len(acts(state)) <= int(team.get("acts_at", 0)):
        return None
    return other


def switch_to(state: State, m: Model, other: Model, events: list[Event]) -> None:
    """FIRETEAM: the two members interleave their actions: hand control from ``m`` to ``other`` (each keeps the
    actions it took; the first hand-over starts the partner's activation). The team's record is replaced, never
    changed in place (clones of the state share it)."""
    team = team_of(state)
    assert team is not None
    saved = dict(team["saved"])
    saved[m.id] = {k: state.vars.get(k) for k in ("acts", "shot_with", "charged")}
    resumed = saved.pop(other.id, None)
    state.vars.update({"team": {**team, "saved": saved}, "active": other.id, "end_now": False})
    events.append(Note(f"{m.id} hands over to {other.id} (FIRETEAM)", f"{R}/keyword/fireteam"))
    if resumed is None:
        state.vars.update({"acts": [], "shot_with": [], "charged": None})
        start_part(state, other, events)
    else:
        state.vars.update(resumed)
    state.vars["team"] = {**state.vars["team"], "acts_at": len(acts(state))}


def end_part(state: State, m: Model) -> tuple[bool, list[str]]:
    """FIRETEAM: ``m``'s part of the team's activation is over. Returns (hand over to the partner, the other
    members whose activation ends with it): a chosen end (or nothing left to do) hands over while the partner's
    part is not over; a forced end (a failed Risky roll, Down, Out of Action) stops both."""
    team = team_of(state)
    assert team is not None
    chosen = bool(state.vars.pop("part_over", False))
    forced = (bool(state.vars.get("end_now")) and not chosen) or not m.on_table or is_down(m)
    done = [*team["done"], m.id]
    state.vars["team"] = {**team, "done": done}
    if team_other(state, m) is not None and not forced:
        return True, []
    state.vars.pop("team", None)
    return False, [x for x in team["members"] if x != m.id and x not in done]


# ------------------------------------------------------------------------------------------- the action menu
@values.value
class ActionMenu(steps.ModelMenu[State]):
    """Standing decision of an activated model: its next action (seed 000 §Actions)."""

    model: str

    def actions(self) -> steps.ModelActions[State]:
        return MODEL_ACTIONS


def _tries(state: State, m: Model, eng: list[Model], only_legal: bool) -> Iterator[Action]:
    """Every action ``m`` might take, in the menu's order (``only_legal``: leave out those it plainly cannot: the
    kinds :func:`_shut_kinds` refuses as a whole, a Charge or Shoot within 1" of an enemy, a Fight at a model not
    within 1", a Tend without MEDIC; what is left :func:`_legal` decides one by one)."""
    shut = _shut_kinds(state, m) if only_legal else frozenset()
    aimed = not (only_legal and eng)  # _check_charge, _check_shoot: not within 1" of an enemy
    enemies = standing_enemies(state, m) if aimed else []
    for kind in ("move", "dash", "retreat"):
        if kind not in shut:
            yield Action(kind, m.id)
    if aimed and "charge" not in shut:
        for e in enemies:
            yield Action("charge", m.id, e.id)
    if aimed and "shoot" not in shut:
        for w in weapons(m, "ranged"):
            for e in enemies:
                yield Action("shoot", m.id, e.id, option=w["name"])
    yield from _tail_tries(state, m, eng, only_legal, shut, enemies)


def _tail_tries(
    state: State, m: Model, eng: list[Model], only_legal: bool, shut: frozenset[str | None], enemies: list[Model]
) -> Iterator[Action]:
    """The end of :func:`_tries`' list, after the moves, Charges and Shoots: Fights, ability actions, Tends."""
    yield from _fight_tries(state, m, eng, only_legal, shut, enemies)
    if "ability" not in shut:
        yield from ability_actions.tries(state, m)
    yield from _tend_tries(state, m, only_legal, shut)


def _fight_tries(
    state: State, m: Model, eng: list[Model], only_legal: bool, shut: frozenset[str | None], enemies: list[Model]
) -> Iterator[Action]:
    """:func:`_tries`' Fights: each melee weapon at each enemy (``only_legal``: within 1") and Whip of God friend."""
    if "fight" not in shut:
        whipped = _whipped(state, m)
        for w in weapons(m, "melee"):
            for e in [*(eng if only_legal else enemies), *whipped]:
                yield Action("fight", m.id, e.id, option=w["name"])


def _tend_tries(state: State, m: Model, only_legal: bool, shut: frozenset[str | None]) -> Iterator[Action]:
    """:func:`_tries`' Tends (``only_legal``: by a MEDIC only): each friend on the table."""
    if (has_kw(m, "MEDIC") or not only_legal) and "tend" not in shut:
        for f in state.models.values():
            if f.side == m.side and f.on_table:
                yield Action("tend", m.id, f.id)


def _shut_kinds(state: State, m: Model) -> frozenset[str | None]:
    """The kinds of action ``m`` cannot take at all now, the first refusals of :func:`_legal` (in the order of
    :func:`action_reasons`): one taken this activation (seed 000: each action at most once), a second of Move,
    Charge or Retreat (seed 000: only one of them), one its ability forbids (Dignified Conduct: no Dash)."""
    done = state.vars.get("acts", ())
    barred = abilities.barred_actions(m)
    if not done:
        return barred
    shut = frozenset(done)  # with the records of weapons and abilities used ("fought:Rifle"), never a kind
    if any(k in shut for k in MOVES):
        shut |= _MOVES
    return shut | barred if barred else shut


_MOVES = frozenset(MOVES)


def _whipped(state: State, m: Model) -> list[Model]:
    """Whip of God (effect ``attack_friends``): the friends within 1" that ``m`` may Fight too."""
    if not abilities.has_effect(m, "attack_friends"):
        return []
    reach = float(state.ctx.params["engagement_range"])
    return [
        f for f in state.models.values() if f.side == m.side and f is not m and f.on_table and gap(m, f) <= reach + 1e-9
    ]


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    """Every legal action for the active model, in a fixed order (``only_legal=False``: every action the
    model might try, legal or not, for explanations)."""
    if only_legal:
        # the legal menu, [a for a in _tries(state, m, eng, True) if _legal_open(state, m, a, eng)]: see _legal_iter
        enemies, gaps, eng = _enemy_gaps(state, m)
        out = list(_legal_iter(state, m, eng, (), enemies, gaps))
    else:
        eng = engaged_with(state, m)
        out = list(_tries(state, m, eng, False))
    other = may_switch(state, m)
    if other is not None:
        out.append(Action("switch", m.id, other.id))
    out.append(Action("end", m.id))
    return out


def _enemy_gaps(state: State, m: Model) -> tuple[list[Model], list[float], list[Model]]:
    """In one pass over the models: the enemies on the table (``standing_enemies``), the gap to each (``gap``,
    clamped at 0) and those within the engagement range (``engaged_with``), the same floats and orders: the
    engagement test is ``enemies_within``'s, on the unclamped gap (the range is never negative, params.toml)."""
    side, x, y, r = m.side, m.x, m.y, m.radius
    dist = state.ctx.params["engagement_range"]
    if dist < 0.0:  # not a legal parameter; enemies_within's other branch
        return standing_enemies(state, m), [gap(m, e) for e in standing_enemies(state, m)], engaged_with(state, m)
    lim = dist + 1e-9
    hypot = math.hypot
    enemies: list[Model] = []
    gaps: list[float] = []
    eng: list[Model] = []
    for e in state.models.values():
        if e.on_table and e.side != side:
            d = hypot(x - e.x, y - e.y) - r - e.radius
            enemies.append(e)
            gaps.append(d if d > 0.0 else 0.0)
            if d <= lim:
                eng.append(e)
    return enemies, gaps, eng


def _legal_iter(
    state: State,
    m: Model,
    eng: list[Model],
    skip: tuple[str, ...] = (),
    standing: list[Model] | None = None,
    standing_gaps: list[float] | None = None,
) -> Iterator[Action]:
    """The legal actions of :func:`_tries` (``only_legal``) in its order, with the range test of every Charge and
    Shoot (most of them: one per weapon and enemy) made from each enemy's gap, measured once, before the action
    is built; the other tests are :func:`_legal_open`'s (:func:`_legal_rest`). Kinds in ``skip`` are left out
    (:func:`has_action` has tested them)."""
    shut = _shut_kinds(state, m)
    if skip:
        shut = shut.union(skip)
    for kind in ("move", "dash", "retreat"):
        if kind not in shut:
            a = Action(kind, m.id)
            if _legal_rest(state, m, a, eng):
                yield a
    # _check_charge, _check_shoot: not within 1" of an enemy. ``standing`` and ``standing_gaps``: the enemies
    # on the table and their gaps when the caller has them (:func:`_enemy_gaps`)
    enemies = [] if eng else standing_enemies(state, m) if standing is None else standing
    charge = "charge" not in shut
    shoot = "shoot" not in shut
    if enemies and (charge or shoot):
        gaps = [gap(m, e) for e in enemies] if standing_gaps is None else standing_gaps
        if charge:
            reach = float(state.ctx.params["charge_range"])
            for e, g in zip(enemies, gaps, strict=True):
                if g > reach + 1e-9:
                    continue
                a = Action("charge", m.id, e.id)
                if _legal_rest(state, m, a, eng):
                    yield a
        if shoot:
            ranged = weapons(m, "ranged")
            named: dict[str, dict[str, Any]] = {}
            for w in ranged:
                named.setdefault(w["name"], w)  # weapon_named: the first of the name
            # _legal_rest of a Shoot: _check_shoot with its weapon and enemy (on the table) found, not within 1"
            # of an enemy (no ``eng`` here): shoot_refusals' weapon tests, asked once per weapon name, and its
            # target's (not hidden, in sight), asked once per enemy in some weapon's range
            may: dict[str, bool] = {}
            open_: dict[str, bool] = {}
            for w in ranged:
                first = named[w["name"]]
                ok = may.get(w["name"])
                if ok is None:
                    ok = may[w["name"]] = weapon_may_shoot(state, m, first)
                if not ok:
                    continue
                reach = float(first["range"] or 0.0)
                for e, g in zip(enemies, gaps, strict=True):
                    if g > reach + 1e-9:
                        continue
                    seen = open_.get(e.id)
                    if seen is None:
                        seen = open_[e.id] = target_open(state, m, e)
                    if seen:
                        yield Action("shoot", m.id, e.id, option=w["name"])
    yield from (a for a in _fight_tries(state, m, eng, True, shut, enemies) if _legal_open(state, m, a, eng))
    if "ability" not in shut:
        yield from ability_actions.legal_tries(state, m)  # _legal_open of an ability: its reasons alone
    yield from (a for a in _tend_tries(state, m, True, shut) if _legal_open(state, m, a, eng))


def _legal(state: State, m: Model, a: Action, eng: list[Model]) -> bool:
    """``not action_reasons(...)``, stopping at the first refusal found, with the commonest ones (a target out of
    reach, a model within 1" of an enemy, an action already taken) tested first and cheaply: the menu and
    :func:`has_action` ask it of every action the model might try, after every step."""
    kind = a.kind
    if _barred(m, kind):
        return False
    if eng and a.target is not None and kind in ("charge", "shoot"):
        return False  # _check_charge and _check_shoot: not within 1" of an enemy
    # the activation-wide refusals of action_reasons, in its order
    done = state.vars.get("acts", ())
    if kind != "end" and kind in done:
        return False
    if kind in MOVES and any(k in done for k in MOVES):
        return False
    return _legal_open(state, m, a, eng)


def _legal_open(state: State, m: Model, a: Action, eng: list[Model]) -> bool:
    """:func:`_legal` of a try that ``_tries(only_legal=True)`` lists: its kind is not one :func:`_shut_kinds`
    refuses (barred by an ability, taken this activation, a second of Move, Charge or Retreat) and it is no Charge
    or Shoot within 1" of an enemy, so the refusals left are tested (in the cheapest order: the answer is the
    same, every test being pure)."""
    kind = a.kind
    if a.target is not None and kind in ("charge", "shoot"):
        t = state.models[a.target]
        if kind == "charge":
            reach = float(state.ctx.params["charge_range"])
        else:
            w = weapon_named(m, a.option, "ranged")
            reach = float(w["range"] or 0.0) if w is not None else -1.0
        if gap(m, t) > reach + 1e-9:
            return False
    return _legal_rest(state, m, a, eng)


def _legal_rest(state: State, m: Model, a: Action, eng: list[Model]) -> bool:
    """:func:`_legal_open` after the range test of a Charge or Shoot (passed, or none to make)."""
    kind = a.kind
    if (kind in MOVES or kind == "dash") and _heavy_then_move(state, m):
        return False
    if kind == "ability":
        return not ability_actions.reasons(state, m, a)
    check = CHECKS.get(kind)
    if check is None:
        return kind == "end"
    return not check(state, m, a, eng)


def _barred(m: Model, kind: str) -> list[Reason]:
    """An action the model's ability forbids it (Dignified Conduct: it cannot Dash)."""
    if kind in abilities.barred_actions(m):
        return [(f"{R}/ability/no-action", f"{m.id} may not {kind.title()}: an ability of its profile forbids it")]
    return []


def has_action(state: State, m: Model) -> bool:
    """Whether the active model has any legal action besides ending its activation (stops at the first).

    The menu's answer (any of :func:`_tries` passing :func:`_legal`; ``switch`` and ``end`` aside), asked after
    every step of an activation, so tried cheapest first: a Move or Dash (no target) when not within 1" of an
    enemy, a Retreat when within, then the rest in the menu's order (the menu's own :func:`_legal_iter`, up to its
    first action). The order does not change the answer: :func:`_legal` is a pure test, and the menu's order is
    kept where it matters, in :func:`menu`."""
    eng = engaged_with(state, m)
    first = ("retreat",) if eng else ("move", "dash")  # _check_move, _check_retreat
    for kind in first:
        if _legal(state, m, Action(kind, m.id), eng):
            return True
    return next(_legal_iter(state, m, eng, first), None) is not None


def action_reasons(state: State, m: Model, a: Action, eng: list[Model] | None = None) -> list[Reason]:
    """Every rule of seed 000 (and 001 as the ``shoot_restriction`` option) that forbids ``a`` now."""
    barred = _barred(m, a.kind)
    if barred:
        return barred
    if a.kind == "ability":
        return ability_actions.reasons(state, m, a)
    if a.kind == "switch":
        other = team_other(state, m)
        if other is None or a.target != other.id:
            return [(f"{R}/keyword/fireteam", f"{m.id} has no FIRETEAM partner {a.target} left to hand over to")]
        if may_switch(state, m) is None:
            return [(f"{R}/keyword/fireteam", f"{m.id} hands over to {other.id} only after taking an action")]
        return []
    done = acts(state)
    out: list[Reason] = []
    if a.kind != "end" and a.kind in done:
        out.append(
            (f"{R}/activation/once-each", f"{a.kind} was already taken this activation (each action at most once)")
        )
    if a.kind in MOVES:
        used = [k for k in MOVES if k in done]
        if used:
            out.append(
                (
                    f"{R}/activation/one-move",
                    f"already took a {used[0].title()} this activation: only one of Move, Charge or Retreat",
                )
            )
    if a.kind in (*MOVES, "dash"):
        out.extend(_heavy_then_move(state, m))
    check = CHECKS.get(a.kind)
    if check is None and a.kind != "end":
        out.append((f"{R}/activation/unknown", f"{a.kind!r} is not an action of this game"))
    elif check is not None:
        out.extend(check(state, m, a, engaged_with(state, m) if eng is None else eng))
    return out


def _heavy_then_move(state: State, m: Model) -> list[Reason]:
    """HEAVY (digest §9): no shooting and moving in the same activation, in either order; this is the
    shoot-then-move half (``_check_shoot`` refuses the other)."""
    for name in state.vars.get("shot_with", []):
        w = weapon_named(m, name, "ranged")
        if w is not None and heavy_applies(m, w):
            return [(f"{R}/keyword/heavy", f"{name} is HEAVY and was fired this activation: no move after it")]
    return []


#: The activated model's menu, the rules of each action and doing it (:class:`ActionMenu`).
def take_action(state: State, m: Model, action: Action, events: list[Event]) -> None:
    """Take the checked action ``action`` of the active model: a FIRETEAM hand-over (``switch``), an ability
    action (``ability``), or one of the game's actions (:func:`.actions.do_action`)."""
    if action.kind == "switch":
        switch_to(state, m, state.models[action.target or ""], events)
        return
    if action.kind == "ability":
        events.append(ActionTaken(m.id, str(action), m.side))
        ability_actions.take(state, m, action, events)
        return
    if action.kind == "end" and team_of(state) is not None:
        state.vars["part_over"] = True  # FIRETEAM: a chosen end hands over (end_part)
    do_action(state, m, action, events)


MODEL_ACTIONS: steps.ModelActions[State] = steps.ModelActions(menu, action_reasons, take_action)
