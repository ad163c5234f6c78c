"""What every Trench Crusade rules module shares: the state type, the step bases, model helpers and the Success
Roll (seed 000 §Success Rolls), which attacks, moves and morale all ask for.

The rules modules form a one-way chain, each importing only modules to its left: ``core`` <- ``keywords``,
``sight`` <- ``space`` <- ``scenario`` <- ``morale`` <- ``attacks`` <- ``movement`` <- ``actions`` <-
``activation`` <- ``setup`` <- ``turn`` <- ``ruleset``. A Success Roll leaves what happens next to a continuation
step stored beneath it on the stack (:class:`AfterSuccess`), so this module needs none of the rules that react to
the result.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from warband.kernel import turns, values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Moved, Note, StatusChanged, TokensChanged
from warband.kernel.records import Step
from warband.kernel.space import gap
from warband.kernel.state import GameState, Model
from warband.kernel.steps import Auto, Chance, Choice, ModelDecision, pop, push
from warband.rulesets.trench_crusade import abilities
from warband.rulesets.trench_crusade import rolls as tcr
from warband.rulesets.trench_crusade.context import Context

R = "trench-crusade"
State = GameState[Context]
Vec = tuple[float, float]

#: The phase in which the next turn is due: after the deployment and after each Morale phase (the turn loop,
#: ``turn.TCRules.idle``, starts the next turn from it).
TURN_OVER = "turn-over"


#: The kernel's step bases over this game's state; a step's ``rules`` (the prefix of its refusals' rule ids) is
#: this package's ruleset id (:func:`warband.kernel.records.ruleset_of_module`).
TCChoice = Choice[State]
TCChance = Chance[State]
TCAuto = Auto[State]


# ------------------------------------------------------------------------------------------- models
def side_name(side: int) -> str:
    return "AB"[side]


def weapons(m: Model, mode: str) -> list[dict[str, Any]]:
    out = [w for w in m.data["weapons"] if mode in w["modes"]]
    gift = m.flags.get("sacrament_live")
    return [sacramental(w, str(gift)) for w in out] if gift and mode == "ranged" else out


#: The Ammunition Sacrement's gifts (``sacrament MODEL [gift]``) and what each does to the friend's guns.
SACRAMENT_GIFTS = {
    "hit": "+1 DICE to hit at range",
    "shrapnel": "SHRAPNEL and BLAST 2 on its guns",
    "injury": "+1 to its ranged Injury Rolls",
}


def sacramental(w: dict[str, Any], gift: str) -> dict[str, Any]:
    """The Ammunition Sacrement (catalogue ability): a ranged weapon of the blessed friend during its activation,
    with the gift: +1 DICE to hit, SHRAPNEL and BLAST 2 (ours: a larger BLAST stays), or +1 on its Injury Rolls
    (the weapon's injury modifier)."""
    if gift == "hit":
        return dict(w, dice=int(w["dice"]) + 1)
    if gift == "injury":
        return dict(w, injury_mod=int(w["injury_mod"]) + 1)
    kws = [*w["keywords"], *(k for k in ("SHRAPNEL", "BLAST") if k not in w["keywords"])]
    blast = max(2.0, float(w["values"].get("BLAST", 0)))
    return dict(w, keywords=kws, values={**w["values"], "BLAST": blast})


def weapon_named(m: Model, name: str | None, mode: str) -> dict[str, Any] | None:
    for w in weapons(m, mode):
        if w["name"] == name:
            return w
    return None


def the_weapon(m: Model, name: str | None, mode: str) -> dict[str, Any]:
    """The weapon a step already checked exists (a KeyError here is a rules bug)."""
    w = weapon_named(m, name, mode)
    if w is None:
        raise KeyError(f"{m.id} has no {mode} weapon {name!r}")
    return w


def is_down(m: Model) -> bool:
    return bool(m.flags.get("down", False))


def set_flag(m: Model, key: str, value: Any) -> None:
    m.flags[key] = value


def movement(state: State, m: Model) -> float:
    """The Movement characteristic, halved in the activation a Down model stands up (digest §6 Down)."""
    mv = float(m.data["movement"])
    return mv / 2 if m.flags.get("stood") else mv


def charge_allowance(state: State, m: Model, die: float) -> float:
    """Inches a charge may move (seed 000 Charge: the die plus the Movement Characteristic): the die is halved
    with the Movement in the activation a Down model stood up (digest §6), HEAVY rolls none (``die`` 0), and
    ``charge_move_cap`` (when above 0) caps the sum. The charge itself and the menu's odds both use this."""
    if m.flags.get("stood"):
        die = die / 2
    allowance = movement(state, m) + die
    cap = float(state.ctx.params["charge_move_cap"])
    return min(allowance, cap) if cap > 0 else allowance


def can_activate(m: Model) -> bool:
    return m.on_table and not m.flags.get("activated", False)


def activatable(state: State, side: int) -> list[Model]:
    """Models of ``side`` that may still activate this turn (seed 000: at most once per Turn)."""
    return [m for m in state.models.values() if m.side == side and can_activate(m)]


def any_activatable(state: State, side: int) -> bool:
    """``bool(activatable(state, side))``, stopping at the first (asked after every activation)."""
    for m in state.models.values():  # noqa: SIM110 - a loop, not any(<generator>): the hot path
        if m.side == side and m.on_table and not m.flags.get("activated", False):  # can_activate
            return True
    return False


#: The alternating activation's bookkeeping (the kernel's): the active model in ``vars["active"]``, the side to
#: activate next in ``vars["next_side"]``.
ACTIVATION = turns.Activation(active="active", to_act="next_side")


def active_model(state: State) -> Model | None:
    mid = ACTIVATION.piece(state)
    return state.models[mid] if mid else None


def acts(state: State) -> list[str]:
    return list(state.vars.get("acts", []))


def add_act(state: State, kind: str) -> None:
    state.vars["acts"] = [*acts(state), kind]


def model_dice(state: State, m: Model) -> tuple[int, int]:
    """(+DICE, -DICE) every Success Roll of ``m`` carries: -1 DICE while Down (digest §6)."""
    return (0, -state.ctx.params["down_dice"] if is_down(m) else 0)


def place(state: State, m: Model, p: Vec, z: float, events: list[Event], travelled: float | None = None) -> None:
    start = (m.x, m.y)
    m.x, m.y, m.z = p[0], p[1], z
    dist = travelled if travelled is not None else math.hypot(p[0] - start[0], p[1] - start[1])
    events.append(Moved(m.id, start, p, dist))
    if dist > 0:
        m.flags.pop("fortified", None)  # Fortify: in cover until it moves
    _reveal(state, m, events)


def _reveal(state: State, moved: Model, events: list[Event]) -> None:
    """Hide ends when the hidden model moves or an enemy comes within its range (the flag holds the range)."""
    for h in state.models.values():
        if h.flags.get("hidden") is None or not h.on_table:
            continue
        near = h.side != moved.side and moved.on_table and gap(h, moved) <= float(h.flags["hidden"]) + 1e-9
        if (h is moved and moved.on_table) or near:
            h.flags.pop("hidden", None)
            events.append(Note(f"{h.id} is no longer hidden", f"{R}/ability/hide"))


def over(state: State) -> bool:
    return state.phase == "over"


# ------------------------------------------------------------------------------------------- success rolls
class AfterSuccess(Step):
    """What a Success Roll leads to: stored beneath the roll, taken off and told the result (``failure``,
    ``success`` or ``critical``) when the dice fall."""

    __slots__ = ()

    @abc.abstractmethod
    def follow(self, state: State, roll: SuccessRoll, result: str, events: list[Event]) -> None:
        """Carry on after ``roll`` gave ``result``."""


@values.value
class SuccessRoll(TCChance, kind="success"):
    """A Success Roll (seed 000 §Success Rolls): +DICE and -DICE cancel in pairs; two dice are kept."""

    purpose: str
    model: str | None
    plus: int
    minus: int
    risky: bool
    own: bool
    side: int
    reroll: bool = False  # Eye of God's re-roll of a failed roll

    def dice(self, state: State) -> DiceSpec:
        net = tcr.net_dice(self.plus, self.minus)
        return DiceSpec(tcr.dice_count(net), 6, f"{self.purpose} success roll", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        net = tcr.net_dice(self.plus, self.minus)
        total = tcr.kept_total(values, net)
        result = tcr.success_result(total, state.ctx.params)
        label = f"{self.purpose} ({'+' if net >= 0 else ''}{net} DICE{', risky' if self.risky else ''})"
        events.append(DiceRolled(label, values, f"{total}: {result}", self.model))
        if self._eye_of_god(state, values, result, events):
            if self.reroll:
                result = "failure"
            else:
                return
        if result == "failure" and self.risky:
            who = self.model or side_name(self.side)
            events.append(Note(f"{who} failed a Risky roll", f"{R}/success/risky"))
            if self.own:
                # seed 000: a failed Risky Success Roll ends the model's Activation at once.
                state.vars["end_now"] = True
        then = pop(state)
        assert isinstance(then, AfterSuccess), then
        then.follow(state, self, result, events)

    def _eye_of_god(self, state: State, values: tuple[int, ...], result: str, events: list[Event]) -> bool:
        """Eye of God (catalogue ability, effect ``reroll_failure``): a failed roll of the model's own action is
        rolled again (ours: always, with the same DICE); any 1 on the re-roll knocks it Down and ends its
        activation (ours: and the action fails). True when the roll is taken again, or the re-roll had a 1."""
        m = state.models[self.model] if self.model is not None else None
        if m is None or not self.own or not abilities.has_effect(m, "reroll_failure"):
            return False
        rule = f"{R}/ability/eye_of_god"
        if not self.reroll:
            if result != "failure":
                return False
            events.append(Note(f"{m.id} re-rolls its failed {self.purpose} roll", rule))
            push(state, replace(self, reroll=True))
            return True
        if 1 in values:
            events.append(Note(f"a 1 on the re-roll: {m.id} is knocked Down and its activation ends", rule))
            if not m.flags.get("down"):
                m.flags["down"] = True
                events.append(StatusChanged(m.id, "Down", True))
            state.vars["end_now"] = True
            return True
        return False


@values.value
class SpendHit(ModelDecision[State], kind="spend-hit"):
    """Before a Success Roll of a model with Blood markers, its opponent spends any of them for -1 DICE each
    (digest §6 Blood markers)."""

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        return [Action("spend", m.id, option=str(k)) for k in range(spendable(m) + 1)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        k = int(action.option or 0)
        if k <= 0:
            return
        spend_markers(state, state.models[self.model], k, events)
        amend_below(state, SuccessRoll.kind, lambda roll: replace(roll, minus=roll.minus + k))


@values.value
class SpendBlessing(ModelDecision[State], kind="spend-blessing"):
    """BLESSING MARKER (catalogue keyword): before a Success Roll of its model (``injury`` False) or an Injury
    Roll against it (``injury`` True), its owner spends any of its Blessing markers, each +1 DICE on the roll or
    -1 INJURY DICE."""

    injury: bool = False

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        return [Action("bless", m.id, option=str(k)) for k in range(m.token("blessing") + 1)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        k = int(action.option or 0)
        if k <= 0:
            return
        m = state.models[self.model]
        m.tokens["blessing"] = m.token("blessing") - k
        events.append(TokensChanged(m.id, "Blessing", -k, m.token("blessing")))
        if self.injury:
            amend_below(state, "injury-roll", lambda roll: replace(roll, minus=roll.minus + k))
        else:
            amend_below(state, SuccessRoll.kind, lambda roll: replace(roll, plus=roll.plus + k))


def amend_below(state: State, kind: str, change: Callable[[Any], Step]) -> None:
    """Change the nearest step of ``kind`` pending beneath the top of the stack: the roll that markers spent
    before it change (several spending choices may wait above one roll)."""
    for i in range(len(state.stack) - 1, -1, -1):
        if state.stack[i].kind == kind:
            state.stack[i] = change(state.stack[i])
            return
    raise LookupError(f"no {kind} step pending")  # pragma: no cover - a rules bug


def push_blessing(state: State, m: Model, injury: bool) -> None:
    """Offer the owner of ``m`` its Blessing markers before the roll just pushed (BLESSING MARKER)."""
    if m.token("blessing") > 0:
        push(state, SpendBlessing(m.id, m.side, injury))


def push_success(
    state: State,
    model_id: str | None,
    purpose: str,
    plus: int,
    minus: int,
    risky: bool,
    then: AfterSuccess,
    own_activation: bool,
    side: int = 0,
    spend: bool = True,
) -> None:
    """Queue a Success Roll and what follows it. If the rolling model carries Blood markers, its opponent first
    decides how many to spend (digest §6). A Shaken warband's rolls are all Risky (digest §1). ``side`` names
    the rolling side when no model rolls (a Morale check); ``spend`` False: the opponent may not spend the
    model's Blood on this roll (Absolute Faith)."""
    side = state.models[model_id].side if model_id else side
    if model_id is not None and purpose != "attack":  # an attack's dice are attacks.attack_dice's
        m = state.models[model_id]
        extra = abilities.action_dice(m, purpose) + abilities.aura_dice(state, m)
        plus, minus = plus + max(0, extra), minus + max(0, -extra)
    if state.sides[side].flags.get("shaken"):
        risky = True
    push(state, then)
    push(state, SuccessRoll(purpose, model_id, plus, minus, risky, own_activation, side))
    if model_id is not None:
        # the owner's Blessing markers are offered after the opponent has spent the Blood (pushed first: asked last)
        push_blessing(state, state.models[model_id], injury=False)
        if spend and spendable(state.models[model_id]) > 0:
            push(state, SpendHit(model_id, 1 - side))


def spendable(m: Model) -> int:
    """Markers the opponent may spend on ``m``: its Blood and, spent like Blood (INFECTION MARKER), its
    Infection markers."""
    return m.token("blood") + m.token("infection")


def spend_markers(state: State, m: Model, k: int, events: list[Event]) -> None:
    """Spend ``k`` of ``m``'s markers: Blood first, then Infection (ours: the spender keeps the Infection
    markers, which grow, for last)."""
    blood = min(k, m.token("blood"))
    add_blood(state, m, -blood, events)
    add_infection(state, m, -(k - blood), events)


def add_infection(state: State, m: Model, delta: int, events: list[Event]) -> None:
    """INFECTION MARKER (catalogue keyword): at most ``infection_max`` per model, beside its Blood markers."""
    _add_markers(m, "infection", int(state.ctx.params["infection_max"]), delta, events)


def add_blood(state: State, m: Model, delta: int, events: list[Event]) -> None:
    """Blood markers: at most ``blood_max`` per model (digest §6)."""
    _add_markers(m, "blood", int(state.ctx.params["blood_max"]), delta, events)


def _add_markers(m: Model, token: str, cap: int, delta: int, events: list[Event]) -> None:
    before = m.token(token)
    after = max(0, min(cap, before + delta))
    if after != before:
        m.tokens[token] = after
        events.append(TokensChanged(m.id, token.title(), after - before, after))
