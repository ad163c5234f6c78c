"""Activation: the seed's limits on what a fighter does when activated, and activations in play.

Source: seed ``003_9e9dcd26291534cd.txt`` (S), paragraphs 1-3 and the asides "Bonus Actions" and "Wait Actions
and Abilities" (clauses 1-16 of ``docs/rules/wyrdcry.md``); the action names come from digest ``wyrdcry.md``
§A4-A5 (the Notion list is lost). The limits are pure functions of the actions taken (:func:`action_problem`,
:func:`ability_problem`, :func:`activation_complete`), fed the parameters by :func:`limits`; then the steps of
an activation: the player picks a fighter (:class:`Activate`), it activates (:func:`begin_activation`) and its
activation ends (:func:`end_activation`), perhaps handing on to the fighter Command picked
(:class:`CommandActivation`, S 23). What the active fighter may do meanwhile is ``actions.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal, cast

from warband.kernel import turns, values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import factions as fx
from warband.rulesets.wyrdcry.climbing import climb_end_fall
from warband.rulesets.wyrdcry.core import (
    ACTIVATION,
    R,
    State,
    WChoice,
    active_model,
    damage,
    is_out,
    pool,
    set_pool,
    show_pool,
    side_name,
    status,
    to_activate,
)
from warband.rulesets.wyrdcry.factions import IndomitableRoll

# ------------------------------------------------------------------------------------------- the limits (pure)
ActionName = Literal["move", "attack", "retreat", "wait", "channel"]

#: The actions a fighter may take (digest §A4-A5: Move, Attack, Retreat, Wait; Channel for a Wizard).
ACTIONS: Final[tuple[ActionName, ...]] = ("move", "attack", "retreat", "wait", "channel")


@values.value
class Taken:
    """An action already taken this activation, and whether it was a bonus action."""

    action: ActionName
    bonus: bool = False


@dataclass(frozen=True, slots=True)
class Limits:
    """The seed's numbers (params ``actions_per_activation``, ``move_actions_per_activation``,
    ``same_action_limit``, ``abilities_per_activation``)."""

    actions: int = 2
    moves: int = 2
    same_action: int = 2
    abilities: int = 1


def action_problem(taken: Sequence[Taken], action: ActionName, bonus: bool, limits: Limits = Limits()) -> str | None:
    """Why the fighter may not take ``action`` now, or ``None``.

    S para. 2: an activation has 2 actions; each action once, Move twice. S "Bonus Actions": bonus actions are
    unlimited, but no action is taken more than twice in all (bonus or not). Bonus actions do not use up the 2
    actions nor count against the once-each rule (our reading: the aside only adds the twice-in-all cap).
    """
    same = sum(1 for t in taken if t.action == action)
    if same >= limits.same_action:
        return f"expected an action taken fewer than {limits.same_action} times, found {action} taken {same} times"
    if bonus:
        return None
    normal = [t.action for t in taken if not t.bonus]
    if len(normal) >= limits.actions:
        return f"expected fewer than {limits.actions} actions taken, found {len(normal)}"
    once = limits.moves if action == "move" else 1
    if normal.count(action) >= once:
        return f"expected {action} at most {once} time(s) as an action, found it taken {normal.count(action)}"
    return None


def activation_complete(taken: Sequence[Taken], limits: Limits = Limits()) -> bool:
    """Whether both actions are taken (S para. 2: a fighter takes 2 actions; a Wait as 1st action ends this
    activation early, digest §A4, and the engine handles it)."""
    return sum(1 for t in taken if not t.bonus) >= limits.actions


def ability_problem(used_this_activation: int, limits: Limits = Limits()) -> str | None:
    """Why no further ability may be used in this activation, or ``None`` (S para. 3: 1 ability per
    activation; S "Wait Actions and Abilities": a second activation from a Wait counts afresh, so the engine
    resets the count when the fighter activates again)."""
    if used_this_activation >= limits.abilities:
        return f"expected at most {limits.abilities} ability per activation, found {used_this_activation} used"
    return None


def must_pass(unactivated: int) -> bool:
    """A player with no fighter left to activate must pass (S para. 1)."""
    return unactivated == 0


def combat_phase_over(unactivated_a: int, unactivated_b: int) -> bool:
    """The combat phase ends once both players have activated all their fighters (S para. 1)."""
    return unactivated_a == 0 and unactivated_b == 0


# ------------------------------------------------------------------------------------------- in play
def limits(state: State) -> Limits:
    """The limits with this game's parameters."""
    p = state.ctx.params
    return Limits(
        int(p["actions_per_activation"]),
        int(p["move_actions_per_activation"]),
        int(p["same_action_limit"]),
        int(p["abilities_per_activation"]),
    )


def taken(m: Model) -> list[Taken]:
    """The actions ``m`` has taken this activation (fighter flag ``taken``)."""
    return [Taken(cast(ActionName, a), bool(b)) for a, b in m.flags.get("taken", [])]


def add_taken(m: Model, action: str, bonus: bool) -> None:
    """Note ``action`` as taken this activation (a bonus action or not)."""
    m.flags["taken"] = [*m.flags.get("taken", []), [action, bonus]]


@values.value
class Activate(turns.Activate[State]):
    """S 1: the players take turns activating fighters (a waiting fighter activates again, S 15); the refusals
    are the kernel's activation decision's (``activation/choose``, ``/alternate``, ``/not-ready``)."""

    noun = "fighter"
    by: int

    def ready(self, state: State) -> list[str]:
        return [m.id for m in to_activate(state, self.by)]

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        begin_activation(state, state.models[piece], events)

    def reasons(self, state: State, action: Action) -> list[Reason]:
        """A ``pass`` while fighters are left to activate names its rule (S 1: a player passes only once all its
        fighters have activated); anything else is the kernel's activation refusal."""
        if action.kind == "pass" and action.model is None:
            left = ", ".join(self.ready(state))
            why = f"side {side_name(self.by)} passes only once all its fighters have activated; still to go: {left}"
            return [(f"{R}/activation/pass", why)]
        return turns.Activate.reasons(self, state, action)


def begin_activation(state: State, m: Model, events: list[Event]) -> None:
    """An activation starts: a waiting fighter keeps its first action (the Wait) and may use an ability afresh
    (S 15); a ready one starts with no action taken."""
    if status(m) != "waiting":
        m.flags["taken"] = []
    m.flags.update({"status": "active", "abilities_used": 0, "move_bonus": 0, "melee_bonus": 0, "bonus_attacks": 0})
    m.flags.update({"took_out": False, "token_actions": []})
    ACTIVATION.begin(state, m.id, m.side, events)
    if fx.has_trait(m.data, "indomitable") and damage(m) > 0:
        push(state, IndomitableRoll(m.id))


def end_activation(state: State, events: list[Event]) -> None:
    """The active fighter's activation ends: a climber still climbing falls (D §A4), channeled dice not spent are lost
    (D §A4 W), a first-action Wait leaves it waiting (S 14-15) and the activation's bonuses end; then the fighter
    Command picked may activate (S 23), else the other side activates (S 1)."""
    m = active_model(state)
    ACTIVATION.end(state)
    if m is None:
        return
    side = m.side
    climb_end_fall(state, m, events)
    channeled = set(m.flags.pop("channeled", []))
    if channeled:
        pl = pool(state, side)
        left = wd.AbilityDice(pl.singles, tuple(g for g in pl.groups if g.face not in channeled))
        if left != pl:
            set_pool(state, side, left)
            events.append(Note(f"channeled dice not spent by {m.id} are lost: {show_pool(left)}", f"{R}/channel/use"))
    if not is_out(m):
        waiting = bool(m.flags.pop("wait_first", False))
        m.flags["status"] = "waiting" if waiting else "done"
        if not waiting:
            m.flags["taken"] = []
    for k in (
        "move_bonus",
        "melee_bonus",
        "bonus_attacks",
        "bonus_retreats",
        "next_ranged_bonus",
        "next_melee_bonus",
        "death_grip",
        "strategize",
        "greed",
        "took_out",
        "token_actions",
    ):
        m.flags.pop(k, None)
    events.append(Note(f"{m.id}'s activation ends", f"{R}/activation/end"))
    nxt = state.vars.get("command_next")
    state.vars["command_next"] = None
    if nxt and status(state.models[nxt]) == "ready" and state.models[nxt].on_table:
        push(state, CommandActivation(side, nxt))
        return
    ACTIVATION.set_side(state, 1 - side)


@values.value
class CommandActivation(WChoice, kind="command-activation", about="model"):
    """S 23 (Command): the picked fighter may activate immediately after this activation ends."""

    by: int
    model: str

    def options(self, state: State) -> list[Action]:
        return [Action("activate", self.model), Action("decline", self.model)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind == "activate":
            begin_activation(state, state.models[self.model], events)
        else:
            state.vars["to_act"] = 1 - self.by


def fighter_limits(state: State, m: Model) -> Limits:
    """The seed's limits, less an action Death Grip took from this fighter this round (data §4.3)."""
    lim = limits(state)
    lost = int(m.flags.get("lost_actions", 0))
    return replace(lim, actions=max(1, lim.actions - lost)) if lost else lim


def complete(state: State, m: Model) -> bool:
    """Whether the fighter has taken all its actions (S 2, less any Death Grip took)."""
    return activation_complete(taken(m), fighter_limits(state, m))
