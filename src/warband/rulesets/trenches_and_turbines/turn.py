"""The round and the activation deck (digest §3.2 Round and activation deck): the Start phase builds the deck (ACT
cards per unit), each drawn card activates its unit (or, with param ``deck = "player"``, lets its side pick), the
End phase discards Overwatch, scores and ends the game or starts the next round."""

from __future__ import annotations

from warband.kernel import turns, values
from warband.kernel.events import DiceRolled, Event, Note, PhaseStarted
from warband.kernel.steps import OneDie, push
from warband.rulesets.trenches_and_turbines.activation import begin_activation
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, set_unit, side_name, side_of, ustate
from warband.rulesets.trenches_and_turbines.reactions import discard_overwatch
from warband.rulesets.trenches_and_turbines.scoring import finish, score_objectives
from warband.rulesets.trenches_and_turbines.units import active, members, units_of


def start_round(state: State, events: list[Event]) -> None:
    """Start phase (digest §3.2): every unit on the table adds ACT cards to the deck."""
    state.turn += 1
    state.phase = "activation"
    events.append(PhaseStarted(state.turn, "Activation"))
    deck: list[str] = []
    for uid in state.ctx.unit_order:
        if members(state, uid):
            deck.extend([uid] * int(state.ctx.units[uid]["act"]))
            set_unit(state, uid, activated=False, acts_round=0, reactions=0)
    state.vars["deck"] = deck
    next_card(state, events)


def next_card(state: State, events: list[Event]) -> None:
    """Draw the next card (cards of units no longer on the table are skipped); an empty deck ends the round
    (digest §3.2)."""
    deck = [u for u in state.vars["deck"] if members(state, u)]
    state.vars["deck"] = deck
    if deck:
        push(state, Draw())
    else:
        end_round(state, events)


@values.value
class Draw(OneDie[State], kind="draw", label="activation card"):
    """Draw an activation card from the deck (one die with as many faces as cards)."""

    def faces(self, state: State) -> int:
        return len(state.vars["deck"])

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        card_drawn(state, values[0] - 1, events)


def card_drawn(state: State, index: int, events: list[Event]) -> None:
    """The card at ``index`` was drawn: its unit activates, or (param ``deck = "player"``) its side picks which
    of its units does (digest §3.2)."""
    deck = list(state.vars["deck"])
    uid = deck[index]
    if state.ctx.params["deck"] == "player":
        side = side_of(state, uid)
        events.append(DiceRolled("activation card", (index + 1,), f"a card of side {side_name(side)}"))
        push(state, Pick(side))
        return
    deck.pop(index)
    state.vars["deck"] = deck
    events.append(DiceRolled("activation card", (index + 1,), f"{uid} activates"))
    begin_activation(state, uid, events)


@values.value
class Pick(turns.Activate[State], kind="pick"):
    """A card of side ``by`` was drawn (param ``deck = "player"``): that side picks which of its units activates
    (the kernel's activation decision: ``activate UNIT``; refusals ``activation/choose``, ``/alternate``,
    ``/not-ready``)."""

    noun = "unit"
    by: int

    def ready(self, state: State) -> list[str]:
        return sorted({u for u in state.vars["deck"] if state.ctx.units[u]["side"] == self.by})

    def side_of(self, state: State, piece: str) -> int | None:
        unit = state.ctx.units.get(piece)
        return None if unit is None else int(unit["side"])

    def pieces(self, state: State) -> list[str]:
        return list(state.ctx.unit_order)

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        deck = list(state.vars["deck"])
        deck.remove(piece)
        state.vars["deck"] = deck
        begin_activation(state, piece, events)


def end_activation(state: State, events: list[Event]) -> None:
    """The active unit's activation ends (it counts as activated); the next card is drawn."""
    uid = active(state)
    if uid is not None:
        set_unit(state, uid, activated=True)
        events.append(Note(f"{uid}'s activation ends", f"{R}/activation/end"))
    state.vars.update({"active": None, "acts": [], "left": 0, "forbidden": {}})
    next_card(state, events)


def end_round(state: State, events: list[Event]) -> None:
    """End phase (digest §3.2, §3.3): discard Overwatch, score objectives, check whether the game ends."""
    discard_overwatch(state, events)
    score_objectives(state)
    alive = [any(not ustate(state, u)["routed"] for u in units_of(state, s)) for s in (0, 1)]
    if state.turn >= state.ctx.rounds or not all(alive):
        finish(state, events)
    else:
        start_round(state, events)
