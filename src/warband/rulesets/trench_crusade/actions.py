"""The actions of seed 000 §Actions (Move, Charge, Retreat, Dash, Shoot, Fight, Other): what each requires of the
model, its target and its weapon, every refusal with its rule (:data:`CHECKS`), and taking it (:func:`do_action`).
The limits across one activation (once each, one of Move, Charge or Retreat) are :mod:`.activation`'s; the moves
themselves are :mod:`.movement`'s and the attacks :mod:`.attacks`'. An "Other" action of a profile (today MEDIC's
Tend Wounds) is one more entry in :data:`CHECKS` and one more branch of :func:`do_action`.
"""

from __future__ import annotations

from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import ActionTaken, Event, Note
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.trench_crusade import abilities, attacks
from warband.rulesets.trench_crusade.core import (
    R,
    State,
    TCAuto,
    acts,
    add_act,
    add_blood,
    the_weapon,
    weapon_named,
    weapons,
)
from warband.rulesets.trench_crusade.keywords import consume, consumed, has_kw, heavy_applies, not_assault, wkw
from warband.rulesets.trench_crusade.movement import begin_charge, begin_dash, begin_move, begin_retreat
from warband.rulesets.trench_crusade.sight import visible

#: The moving actions: at most one of them per activation (seed 000 §Actions).
MOVES = ("move", "charge", "retreat")


# ------------------------------------------------------------------------------------------- requirements
def _check_move(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Move and Dash: never for a model within 1" of an enemy (seed 000 Retreat: 'You can only move a model that
    is within 1" of an enemy by taking a Retreat Action')."""
    if a.target is not None or a.option is not None or a.point is not None:
        return [(f"{R}/activation/syntax", f"declare '{a.kind} MODEL', then give the destination")]
    if eng:
        near = ", ".join(e.id for e in eng)
        return [(f"{R}/move/engaged", f'{m.id} is within 1" of {near}: it can only be moved by a Retreat')]
    return []


def _check_dash(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    return _check_move(state, m, a, eng)


def _check_retreat(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Seed 000 Retreat: only for a model within 1" of an enemy."""
    if not eng:
        return [(f"{R}/retreat/not-engaged", 'a Retreat is only for a model within 1" of an enemy')]
    holders = [e.id for e in eng if abilities.has_effect(e, "no_retreat_from")]
    if holders:
        return [(f"{R}/ability/no-retreat", f"{holders[0]} holds {m.id} fast: it cannot Retreat from it")]
    return []


def _check_charge(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Seed 000 Charge: an enemy visible to the model and within 12" of it; not from within 1" of an enemy
    (digest §7); not after Shooting without ASSAULT (seed 000 Shoot)."""
    p = state.ctx.params
    out: list[Reason] = []
    t = _enemy(state, m, a)
    if t is None:
        return _not_an_enemy(a, "charge")
    out += _hidden(t, "charged")
    if eng:
        out.append(
            (f"{R}/charge/engaged", 'a model already within 1" of an enemy cannot Charge (it may Fight or Retreat)')
        )
    if gap(m, t) > p["charge_range"] + 1e-9:
        out.append(
            (f"{R}/charge/range", f'{t.id} is {gap(m, t):.1f}" away: the target must be within {p["charge_range"]:g}"')
        )
    if not visible(state.ctx, m, t):
        out.append((f"{R}/charge/visible", f"{t.id} is not visible to {m.id}"))
    if any(not_assault(m, w) for w in state.vars.get("shot_with", [])):
        out.append(
            (
                f"{R}/activation/shoot-then-charge",
                "this model has Shot with a weapon without ASSAULT this activation, so it cannot Charge",
            )
        )
    return out


def _check_shoot(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Seed 000 Shoot: a Ranged Attack with a ranged weapon, at an enemy in range and in sight, by a model more
    than 1" from the enemy; with a Charge (seed 000: or a Fight) in the activation only with ASSAULT; HEAVY."""
    found = _armed_at_enemy(state, m, a, "ranged", "shoot")
    if isinstance(found, list):
        return found
    return shoot_refusals(state, m, found[0], found[1], eng)


def shoot_refusals(state: State, m: Model, w: dict[str, Any], t: Model, eng: list[Model]) -> list[Reason]:
    """:func:`_check_shoot` once the weapon ``w`` (the first ranged weapon of ``m`` of the Shoot's name) and the
    enemy ``t`` (on the table) are found: every refusal but a missing weapon or target."""
    p = state.ctx.params
    out: list[Reason] = []
    out += _used_up(m, w) + _hidden(t, "shot") + _one_mode(state, w, "fought")
    if eng:
        out.append((f"{R}/shoot/engaged", 'a model within 1" of an enemy cannot Shoot'))
    done = acts(state)
    if not wkw(w, "ASSAULT"):
        if "charge" in done:
            out.append(
                (
                    f"{R}/activation/shoot-after-charge",
                    "this model Charged this activation: it may only Shoot with an ASSAULT weapon",
                )
            )
        if "fight" in done and p["shoot_restriction"] == "000":
            out.append(
                (
                    f"{R}/activation/shoot-after-fight",
                    "this model Fought this activation: it may only Shoot with an ASSAULT weapon (seed 000)",
                )
            )
    if heavy_applies(m, w) and any(k in done for k in (*MOVES, "dash")):
        out.append((f"{R}/keyword/heavy", f"{w['name']} is HEAVY: no Shoot in an activation with a move"))
    rng = w["range"] or 0.0
    d = gap(m, t)
    if d > rng + 1e-9:
        out.append((f"{R}/shoot/range", f'{t.id} is {d:.1f}" away, beyond {w["name"]}\'s {rng:g}"'))
    if not visible(state.ctx, m, t):
        out.append((f"{R}/shoot/visible", f"{t.id} is not in line of sight of {m.id}"))
    return out


def weapon_may_shoot(state: State, m: Model, w: dict[str, Any]) -> bool:
    """The refusals of :func:`shoot_refusals` that depend on the weapon ``w`` and the activation alone, for a
    model not within 1" of an enemy: none applies (not CONSUMABLE and used up, not ONE MODE and fought with, an
    ASSAULT weapon after a Charge or (seed 000) a Fight, no HEAVY weapon after a move; seed 000 Shoot, digest
    §9). ``not shoot_refusals(state, m, w, t, [])`` is this and :func:`target_open` and the range test."""
    if consumed(m, w):
        return False
    done = state.vars.get("acts", ())
    if wkw(w, "ONE MODE") and f"fought:{w['name']}" in done:
        return False
    if not wkw(w, "ASSAULT"):
        if "charge" in done:
            return False
        if "fight" in done and state.ctx.params["shoot_restriction"] == "000":
            return False
    return not (heavy_applies(m, w) and any(k in done for k in (*MOVES, "dash")))


def target_open(state: State, m: Model, t: Model) -> bool:
    """The refusals of :func:`shoot_refusals` that depend on the enemy ``t`` alone: it is not hidden (Hide) and
    ``m`` sees it (seed 000 Shoot: 'in line of sight')."""
    return not abilities.hidden(t) and visible(state.ctx, m, t)


def _check_fight(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Seed 000 Fight: a Melee Attack with a melee weapon at an enemy within 1" (and in sight, digest §5); seed
    000: not after Shooting without ASSAULT. Whip of God (effect ``attack_friends``): a friend within 1" too."""
    friend = state.models.get(a.target or "")
    if friend is not None and friend.side == m.side and friend is not m and friend.on_table:
        if abilities.has_effect(m, "attack_friends") and weapon_named(m, a.option, "melee") is not None:
            found: tuple[dict[str, Any], Model] | list[Reason] = (weapon_named(m, a.option, "melee") or {}, friend)
        else:
            found = _not_an_enemy(a, "fight")
    else:
        found = _armed_at_enemy(state, m, a, "melee", "fight")
    if isinstance(found, list):
        return found
    t = found[1]
    p = state.ctx.params
    out: list[Reason] = _used_up(m, found[0]) + _one_mode(state, found[0], "shot")
    if gap(m, t) > p["engagement_range"] + 1e-9:
        out.append((f"{R}/fight/range", f'{t.id} is not within 1" of {m.id}'))
    elif not visible(state.ctx, m, t):
        out.append((f"{R}/fight/visible", f"{t.id} is not in line of sight of {m.id}"))
    if p["shoot_restriction"] == "000" and any(not_assault(m, x) for x in state.vars.get("shot_with", [])):
        out.append(
            (
                f"{R}/activation/shoot-then-fight",
                "this model has Shot with a weapon without ASSAULT this activation, so it cannot Fight (seed 000)",
            )
        )
    return out


def _check_tend(state: State, m: Model, a: Action, eng: list[Model]) -> list[Reason]:
    """Seed 000 Other: MEDIC's Tend Wounds removes Blood markers from a friend within 1" (or itself)."""
    f = state.models.get(a.target or "")
    if not has_kw(m, "MEDIC"):
        return [(f"{R}/other/tend", f"{m.id} has no 'Tend Wounds' action (needs MEDIC)")]
    if f is None or not f.on_table or f.side != m.side:
        return [(f"{R}/other/tend", f"{a.target} is not a friendly model on the table")]
    if f.token("blood") == 0:
        return [(f"{R}/other/tend", f"{f.id} has no Blood markers to remove")]
    if has_kw(f, "GOLEM"):
        return [(f"{R}/keyword/golem", f"{f.id} is a GOLEM: its own side cannot remove its Blood markers")]
    if f is not m and gap(m, f) > state.ctx.params["engagement_range"] + 1e-9:
        return [(f"{R}/other/tend", f'{f.id} is not within 1" of {m.id}')]
    return []


def _one_mode(state: State, w: dict[str, Any], done: str) -> list[Reason]:
    """ONE MODE (ours, for Vengeful Scripture): a weapon used as ranged or as melee, not both in one activation."""
    if wkw(w, "ONE MODE") and f"{done}:{w['name']}" in acts(state):
        used, now = ("as a melee", "Shoot") if done == "fought" else ("as a ranged", "Fight")
        why = f"{w['name']} was used {used} attack this activation: it cannot {now} with it too"
        return [(f"{R}/keyword/one-mode", why)]
    return []


def _hidden(t: Model, what: str) -> list[Reason]:
    """Hide: a hidden model cannot be shot or charged."""
    return [(f"{R}/ability/hide", f"{t.id} is hidden: it cannot be {what}")] if abilities.hidden(t) else []


def _used_up(m: Model, w: dict[str, Any]) -> list[Reason]:
    """CONSUMABLE: a single-use weapon already used this battle cannot be used again."""
    if consumed(m, w):
        return [(f"{R}/keyword/consumable", f"{w['name']} is CONSUMABLE and {m.id} has already used it this battle")]
    return []


def _enemy(state: State, m: Model, a: Action) -> Model | None:
    """The model ``a`` targets when it is an enemy of ``m`` on the table."""
    t = state.models.get(a.target or "")
    return None if t is None or not t.on_table or t.side == m.side else t


def _not_an_enemy(a: Action, action: str) -> list[Reason]:
    return [(f"{R}/{action}/target", f"{a.target} is not an enemy model on the table")]


def _armed_at_enemy(
    state: State, m: Model, a: Action, mode: str, action: str
) -> tuple[dict[str, Any], Model] | list[Reason]:
    """The ``mode`` weapon of ``m`` that ``a`` names and the enemy it targets, or the refusal (``action``'s rule):
    no such weapon, no such enemy."""
    w = weapon_named(m, a.option, mode)
    if w is None:
        names = [x["name"] for x in weapons(m, mode)]
        return [
            (f"{R}/{action}/weapon", f"{m.id} has no {mode} weapon {a.option!r} (it has {', '.join(names) or 'none'})")
        ]
    t = _enemy(state, m, a)
    return _not_an_enemy(a, action) if t is None else (w, t)


#: What each action of the menu requires, by action kind (every refusal with its rule).
CHECKS = {
    "move": _check_move,
    "dash": _check_dash,
    "retreat": _check_retreat,
    "charge": _check_charge,
    "shoot": _check_shoot,
    "fight": _check_fight,
    "tend": _check_tend,
}


# ------------------------------------------------------------------------------------------- taking an action
def do_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """Take action ``a`` (already checked) with the active model ``m``: ``end`` ends the activation."""
    events.append(ActionTaken(m.id, str(a), m.side))
    if a.kind == "end":
        state.vars["end_now"] = True
        return
    add_act(state, a.kind)
    if a.kind == "move":
        begin_move(state, m)
    elif a.kind == "dash":
        begin_dash(state, m)
    elif a.kind == "retreat":
        begin_retreat(state, m, events)
    elif a.kind == "charge":
        begin_charge(state, m, state.models[a.target or ""], events)
    elif a.kind == "shoot":
        w = weapon_named(m, a.option, "ranged")
        assert w is not None
        state.vars["shot_with"] = [*state.vars.get("shot_with", []), w["name"]]
        add_act(state, f"shot:{w['name']}")
        consume(m, w)
        m.flags.pop("hidden", None)  # Hide ends when it shoots
        attacks.begin_shoot(state, m, state.models[a.target or ""], w, events)
        if wkw(w, "RELOAD"):
            push(state, EndAfter("RELOAD"))
    elif a.kind == "fight":
        consume(m, the_weapon(m, a.option, "melee"))
        add_act(state, f"fought:{a.option}")
        attacks.begin_fight(state, m, state.models[a.target or ""], a.option or "", events)
    elif a.kind == "tend":
        f = state.models[a.target or ""]
        add_blood(state, f, -int(state.ctx.params["medic_heal"]), events)


@values.value
class EndAfter(TCAuto, kind="end-after"):
    """RELOAD (digest §9): the activation ends after the Shoot."""

    why: str

    def run(self, state: State, events: list[Event]) -> None:
        events.append(Note("RELOAD: the activation ends after the Shoot", f"{R}/keyword/reload"))
        state.vars["end_now"] = True
