"""Interrupts in the opponent's turn: the interrupt window and the Fire! and Fight! interrupts' attacks.

Seed 004, Interrupts: AP held back in a player's own turn are spent in the opponent's turn to interrupt an action;
interrupts are the only actions possible there, must be declared before any model moves, and only a targeted
model may declare one: Counter-Charge, Dodge, Flee!, Fire!, Bulwark, Fight!. The Action Sequence: the model that
declared the action acts first. Digest B2 Interrupts (PROPOSED): 1 AP each (``interrupt_ap``), at most one per
model per enemy action, none by a knocked-over model. Design: ``docs/design/gangfight-steps.md`` §5, §6.

The window opens in :func:`open_window` right after a declaration (:mod:`.actions`, :mod:`.charge`,
:mod:`.banding`). Counter-Charge and Flee! resolve in the charge (:class:`.charge.ChargeMove`), Dodge in the attack
roll (:class:`.attacks.AttackRoll`), Bulwark in :func:`.attacks.defence`; Fire! and Fight! below.
"""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight.attacks import fire_reasons, start_melee, start_ranged
from warband.rulesets.gangfight.core import (
    GFAuto,
    GFChoice,
    R,
    State,
    ap,
    in_close_combat,
    knocked,
    pint,
    ranged_weapon,
    set_ap,
    standing,
    within_threat,
)


def interrupt_options(state: State, t: Model, a: Model, trigger: str) -> list[Action]:
    """The interrupts ``t`` may declare against ``a``'s action (``trigger``: charge, fight, fire or area), seed 004
    Interrupts: Counter-Charge and Flee! against a charge (no Flee! out of close combat, PROPOSED), Bulwark against
    anything, Dodge under an Area of Effect, Fight! when already in close combat, Fire! with a weapon that may fire."""
    out: list[Action] = []
    if trigger == "charge":
        out.append(Action("interrupt", t.id, a.id, option="counter-charge"))
        if not in_close_combat(state, t):
            out.append(Action("interrupt", t.id, a.id, option="flee"))
    out.append(Action("interrupt", t.id, a.id, option="bulwark"))
    if trigger == "area":
        out.append(Action("interrupt", t.id, a.id, option="dodge"))
    # Fight!: only a model already in close combat (seed 004, Interrupts: Fight!), that can reach the attacker
    if trigger == "fight" and in_close_combat(state, t) and within_threat(state, t, a, touching=True):
        out.append(Action("interrupt", t.id, a.id, option="fight"))
    for w in t.data["ranged"]:
        if not fire_reasons(state, t, a, w):
            out.append(Action("interrupt", t.id, a.id, option="fire:" + w["name"]))
    return out


def may_interrupt(state: State, t: Model) -> bool:
    """A targeted model with held AP (seed 004, Interrupts); not a knocked-over one (digest B2, PROPOSED)."""
    return standing(t) and not knocked(t) and ap(t) >= pint(state, "interrupt_ap")


def open_window(state: State, a: Model, t: Model, trigger: str) -> None:
    """Right after ``a`` declares an action targeting ``t``, before anything moves or rolls: ``t``'s interrupt
    window, if it may interrupt and has not interrupted this action yet."""
    if may_interrupt(state, t) and t.flags.get("interrupted") != state.vars["seq"]:
        push(state, InterruptWindow(t.side, a.id, t.id, trigger))


@values.value
class InterruptWindow(GFChoice, kind="interrupt", about="target"):
    """The non-active player may spend a held AP of the targeted model on one Interrupt, declared before any
    model moves (seed 004, Interrupts): Counter-Charge, Flee!, Fire!, Bulwark, Fight!; or pass."""

    answers = frozenset({"interrupt", "pass"})
    by: int
    attacker: str
    target: str
    trigger: str

    def options(self, state: State) -> list[Action]:
        t, a = state.models[self.target], state.models[self.attacker]
        return [Action("pass", t.id), *interrupt_options(state, t, a, self.trigger)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action in self.options(state):
            return []
        return window_reasons(state, self, action)

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


TRIGGERS = {"charge": "Charge!", "fight": "Fight!", "fire": "Fire!", "area": "Area of Effect attack"}


def window_reasons(state: State, w: InterruptWindow, a: Action) -> list[Reason]:
    """Why ``a`` is not an interrupt ``w``'s model may declare now, each naming its rule (seed 004, Interrupts):
    interrupts are the only actions in the opponent's turn, declared before any model moves; only the targeted
    model interrupts, once per enemy action; each interrupt answers its own kind of action."""
    what = f"{w.attacker}'s {TRIGGERS.get(w.trigger, w.trigger)}"
    if a.kind not in ("interrupt", "pass"):
        why = (
            f"{w.target} may only interrupt {what} now ('interrupt {w.target} {w.attacker} [KIND]') or pass: in the"
            " opponent's turn held AP buy interrupts alone, declared before any model moves"
        )
        return [(f"{R}/interrupt/only", why)]
    if a.model != w.target:
        who = state.models.get(a.model or "")
        if who is not None and who.flags.get("interrupted") == state.vars["seq"]:
            return [(f"{R}/interrupt/once", f"{who.id} has interrupted this action already: one interrupt each")]
        return [(f"{R}/interrupt/targeted", f"only the targeted model may interrupt: {what} targets {w.target}")]
    if a.kind == "pass":
        return [(f"{R}/interrupt/pass", f"pass with 'pass {w.target}'")]
    if a.target != w.attacker:
        return [
            (
                f"{R}/interrupt/against",
                f"{w.target}'s interrupt answers {what}: 'interrupt {w.target} {w.attacker} [KIND]'",
            )
        ]
    t, m = state.models[w.target], state.models[w.attacker]
    kind = a.option or ""
    if kind in ("counter-charge", "flee") and w.trigger != "charge":
        name = "a Counter-Charge" if kind == "counter-charge" else "Flee!"
        return [(f"{R}/interrupt/{kind}", f"{name} answers only a Charge!, and {what} is not one")]
    if kind == "flee":
        return [(f"{R}/interrupt/flee", f"{t.id} is in close combat: it cannot Flee! (PROPOSED)")]
    if kind == "dodge":
        return [(f"{R}/interrupt/dodge", f"Dodge answers only an Area of Effect attack, and {what} is not one")]
    if kind == "fight":
        if not in_close_combat(state, t):
            return [(f"{R}/interrupt/fight", f"a Fight! interrupt needs {t.id} already in close combat")]
        return [(f"{R}/interrupt/fight", f"a Fight! interrupt answers a Fight! by a model {t.id} can reach")]
    if kind.startswith("fire:"):
        weapon = ranged_weapon(t, kind[5:])
        if weapon is None:
            return [(f"{R}/interrupt/fire", f"{t.id} carries no ranged weapon {kind[5:]!r} to Fire! with")]
        return [(rule, f"Fire! interrupt: {text}") for rule, text in fire_reasons(state, t, m, weapon)]
    known = "counter-charge, flee, bulwark, dodge, fight, fire:WEAPON"
    return [(f"{R}/interrupt/kind", f"{kind!r} is not an interrupt; the interrupts are {known}")]


def below_action(state: State, step: GFAuto) -> None:
    """Put ``step`` just beneath the declared action (under any interrupt windows still open above it), so that
    it resolves after the action."""
    stack = list(state.stack)
    i = len(stack) - 1
    while i > 0 and isinstance(stack[i], InterruptWindow):
        i -= 1
    state.stack = [*stack[:i], step, *stack[i:]]


@values.value
class FireBack(GFAuto, kind="fire-back"):
    """A Fire! interrupt resolving: a ranged attack at the declaring model; it fires even if the enemy action
    incapacitated it (PROPOSED, as the seed says for Counter-Charge and Fight!)."""

    model: str
    target: str
    weapon: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        w = ranged_weapon(m, self.weapon)
        if w is None or not m.on_table or not standing(t):
            return
        start_ranged(state, m, t, w, 0, 0, events)


@values.value
class StrikeBack(GFAuto, kind="strike-back"):
    """A Fight! interrupt: after the active model's attack has fully resolved, the model attacks it, even if it
    was just incapacitated (seed 004, Fight! interrupt)."""

    model: str
    target: str

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if m.on_table and standing(t) and within_threat(state, m, t, touching=True):
            start_melee(state, m, t, "fight", events, free=True)
