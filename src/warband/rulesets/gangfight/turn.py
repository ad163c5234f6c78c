"""The Player's Turn: Action Points, activating models one at a time, holding AP, the end of a turn and a round.

Seed 004, Action Points: each model generates AP equal to its Initiative Value (IV); Actions and Action Points:
the player spends AP throughout its turn; Interrupts: AP held back are spent in the opponent's turn. Digest B2
Turn (PROPOSED): player turns alternate, the Attacker first (``first_turn``); held AP lapse at the model's next
own turn start (``held_ap_lapse``); a model acts until it ends its activation (``activation_order =
one-at-a-time``). Design: ``docs/design/gangfight-steps.md`` §2.
"""

from __future__ import annotations

from warband.kernel import turns, values
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note, PhaseStarted
from warband.kernel.state import Model
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import P, R, State, ap, set_ap, side_name, standing, stat
from warband.rulesets.gangfight.morale import bravery_tests
from warband.rulesets.gangfight.scenario import game_over


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
    bravery_tests(state, side, ms)


def end_turn(state: State, events: list[Event]) -> None:
    """The active player's turn ends: its models are finished (their AP held for interrupts); after the second
    player's turn the round ends, and after ``max_rounds`` rounds the game (digest B2 Turn, End)."""
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


#: The bookkeeping of the player's turn (the kernel's): the activated model in ``vars["active_model"]``, the side
#: whose turn it is in ``vars["active"]``.
ACTIVATION = turns.Activation(active="active_model", to_act="active")


def active_model(state: State) -> Model | None:
    """The model now activated, if any."""
    mid = ACTIVATION.piece(state)
    return state.models[mid] if mid else None


def can_activate(state: State, m: Model) -> bool:
    """A model on the table, not yet finished this turn, with an AP to spend."""
    return standing(m) and not m.flags.get("finished") and ap(m) >= 1


def end_activation(state: State, m: Model, events: list[Event]) -> None:
    """The model's activation ends; its AP left are held for interrupts in the opponent's turn (seed 004)."""
    m.flags["finished"] = True
    ACTIVATION.end(state)
    if standing(m):
        events.append(Note(f"{m.id}'s activation ends, {ap(m)} AP held", f"{R}/turn/hold"))


@values.value
class Activate(turns.Activate[State]):
    """The active player picks the next model to activate (``activation_order = one-at-a-time``) or ends the turn:
    the kernel's activation decision with a voluntary pass (``end-turn``); refusals ``turn/choose``,
    ``turn/whose`` and, for a model of its own, :meth:`unready`."""

    pass_kind = "end-turn"
    choose_rule = "turn/choose"
    whose_rule = "turn/whose"
    by: int

    def ready(self, state: State) -> list[str]:
        return [m.id for m in state.side_models(self.by) if can_activate(state, m)]

    def unready(self, state: State, piece: str) -> list[Reason]:
        m = state.models[piece]
        if not standing(m):
            return [(f"{R}/turn/not-on-table", f"{m.id} is not on the table")]
        if m.flags.get("finished"):
            return [(f"{R}/turn/finished", f"{m.id} has finished its activation this turn")]
        if ap(m) < 1:
            return [(f"{R}/ap/none", f"{m.id} has no Action Points")]
        return []

    def pass_turn(self, state: State, events: list[Event]) -> None:
        end_turn(state, events)

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        state.models[piece].flags["activated"] = True
        ACTIVATION.begin(state, piece, self.by, events)
