"""Activating a model and its action menu (seed 000 §Activation Phase and §Actions): a side activates one of its
models not yet Activated this Turn (:class:`Activate`); a Down model stands, a model in dangerous terrain takes a
Risky roll (:func:`begin_activation`); then the model takes actions from its menu (:class:`ActionMenu`), each
at most once, and only one of Move, Charge or Retreat (:func:`action_reasons`). What each action requires is
:mod:`.actions`' :data:`~.actions.CHECKS`; the end of an activation and who activates next are :mod:`.turn`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from warband.kernel import steps, turns
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Activated, Event, Note, StatusChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.actions import CHECKS, MOVES, do_action
from warband.rulesets.trench_crusade.core import (
    R,
    State,
    activatable,
    acts,
    is_down,
    model_dice,
    push_success,
    set_flag,
    weapon_named,
    weapons,
)
from warband.rulesets.trench_crusade.keywords import has_kw, heavy_applies
from warband.rulesets.trench_crusade.movement import AfterDangerous, in_dangerous
from warband.rulesets.trench_crusade.sight import engaged_with, standing_enemies


# ------------------------------------------------------------------------------------------- activating a model
@dataclass(frozen=True, slots=True)
class Activate(turns.Activate[State]):
    """Standing decision of the Activation Phase: ``side`` activates one of its models (seed 000). The kernel's
    activation decision refuses another side's model (``activation/alternate``) or anything but ``activate
    MODEL`` (``activation/choose``); :meth:`unready` says why one of the side's own models cannot."""

    rules = R
    by: int

    def ready(self, state: State) -> list[str]:
        return [x.id for x in activatable(state, self.by)]

    def unready(self, state: State, piece: str) -> list[Reason]:
        return activate_reasons(state.models[piece])

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        begin_activation(state, state.models[piece], events)


def activate_reasons(m: Model) -> list[Reason]:
    """Why a model of the side to act cannot activate: it is off the table, or it has activated this Turn (seed
    000: at most once per Turn)."""
    if not m.on_table:
        return [(f"{R}/activation/not-on-table", f"{m.id} is not on the table")]
    if m.flags.get("activated"):
        return [(f"{R}/activation/once-per-turn", f"{m.id} has already been Activated this Turn")]
    return []


def begin_activation(state: State, m: Model, events: list[Event]) -> None:
    """Activate ``m``: a Down model stands (digest §6: Movement halved this activation); a model standing
    in dangerous terrain takes a Risky roll (digest §7)."""
    state.vars.update({"active": m.id, "acts": [], "shot_with": [], "end_now": False, "charged": None})
    events.append(Activated(m.id, m.side))
    if is_down(m):
        set_flag(m, "down", False)
        set_flag(m, "stood", True)
        events.append(StatusChanged(m.id, "Down", False))
        events.append(Note(f"{m.id} stands up: Movement halved this activation", f"{R}/down/stand"))
    if in_dangerous(state, (m.x, m.y)):
        push_success(state, m.id, "dangerous", *model_dice(state, m), True, AfterDangerous(m.id), True)


# ------------------------------------------------------------------------------------------- the action menu
@dataclass(frozen=True, slots=True)
class ActionMenu(steps.ModelMenu[State]):
    """Standing decision of an activated model: its next action (seed 000 §Actions)."""

    rules = R
    model: str

    def actions(self) -> steps.ModelActions[State]:
        return MODEL_ACTIONS


def _tries(state: State, m: Model, eng: list[Model], only_legal: bool) -> Iterator[Action]:
    """Every action ``m`` might take, in the menu's order (``only_legal``: leave out those it plainly cannot)."""
    enemies = standing_enemies(state, m)
    for kind in ("move", "dash", "retreat"):
        yield Action(kind, m.id)
    for e in enemies:
        yield Action("charge", m.id, e.id)
    for w in weapons(m, "ranged"):
        for e in enemies:
            yield Action("shoot", m.id, e.id, option=w["name"])
    for w in weapons(m, "melee"):
        for e in eng if only_legal else enemies:
            yield Action("fight", m.id, e.id, option=w["name"])
    if has_kw(m, "MEDIC") or not only_legal:
        for f in state.models.values():
            if f.side == m.side and f.on_table:
                yield Action("tend", m.id, f.id)


def menu(state: State, m: Model, only_legal: bool = True) -> list[Action]:
    """Every legal action for the active model, in a fixed order (``only_legal=False``: every action the
    model might try, legal or not, for explanations)."""
    eng = engaged_with(state, m)
    out = [a for a in _tries(state, m, eng, only_legal) if not only_legal or _legal(state, m, a, eng)]
    out.append(Action("end", m.id))
    return out


def _legal(state: State, m: Model, a: Action, eng: list[Model]) -> bool:
    """``not action_reasons(...)``, stopping at the first refusal found, with the commonest ones (a target out of
    reach, a model within 1" of an enemy, an action already taken) tested first and cheaply: the menu and
    :func:`has_action` ask it of every action the model might try, after every step."""
    kind = a.kind
    if a.target is not None and kind in ("charge", "shoot"):
        if eng:
            return False  # _check_charge and _check_shoot: not within 1" of an enemy
        t = state.models[a.target]
        if kind == "charge":
            reach = float(state.ctx.params["charge_range"])
        else:
            w = weapon_named(m, a.option, "ranged")
            reach = float(w["range"] or 0.0) if w is not None else -1.0
        if gap(m, t) > reach + 1e-9:
            return False
    # the activation-wide refusals of action_reasons, in its order
    done = state.vars.get("acts", ())
    if kind != "end" and kind in done:
        return False
    if kind in MOVES and any(k in done for k in MOVES):
        return False
    if (kind in MOVES or kind == "dash") and _heavy_then_move(state, m):
        return False
    check = CHECKS.get(kind)
    if check is None:
        return kind == "end"
    return not check(state, m, a, eng)


def has_action(state: State, m: Model) -> bool:
    """Whether the active model has any legal action besides ending its activation (stops at the first)."""
    eng = engaged_with(state, m)
    return any(_legal(state, m, a, eng) for a in _tries(state, m, eng, True))


def action_reasons(state: State, m: Model, a: Action, eng: list[Model] | None = None) -> list[Reason]:
    """Every rule of seed 000 (and 001 as the ``shoot_restriction`` option) that forbids ``a`` now."""
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
MODEL_ACTIONS: steps.ModelActions[State] = steps.ModelActions(menu, action_reasons, do_action)
