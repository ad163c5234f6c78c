"""The battle round and the machine that plays the battle (digest ``wyrdcry.md`` §A1: a round is the initiative,
combat and morale phases; seed 003 paragraph 1: the combat phase's alternating activations and passing).

:class:`WyrdcryRules` is the kernel's step machine for Wyrdcry, :data:`RULES` its one instance with every step kind
(:data:`ALL_STEP_KINDS`). The battle runs: set-up (``setup.py``, from :func:`start_game`), then rounds of the
initiative phase (``initiative.py``), the combat phase (the players take turns activating fighters, ``activation.py``
and ``actions.py``; a player with nobody left to activate passes; it ends when both have activated everything) and
the morale phase with the round's end (``morale.py``), until the battle ends (``scenario.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from warband.kernel import turns
from warband.kernel.actions import Action
from warband.kernel.events import Event, Note
from warband.kernel.steps import push
from warband.rulesets.wyrdcry.abilities import DenounceRoll, LeadChoice, MagicEffect
from warband.rulesets.wyrdcry.actions import ActivationStep, ChannelBacklash, menu
from warband.rulesets.wyrdcry.activation import Activate, CommandActivation, complete, end_activation
from warband.rulesets.wyrdcry.attacks import BlessHit, FreeAttack, HitRolls, LandHits, TakeCoverRoll
from warband.rulesets.wyrdcry.climbing import EdgeRoll, FallLanding, FallRoll, JumpRoll
from warband.rulesets.wyrdcry.core import ACTIVATION, R, State, is_out, side_name, standing
from warband.rulesets.wyrdcry.factions import Accuse, BankRoll, IndomitableRoll, PlaceCommandToken
from warband.rulesets.wyrdcry.initiative import (
    ChannelChoice,
    ChannelRoll,
    ChannelTurn,
    DecideInitiative,
    FirstActivation,
    InitiativeRoll,
    Redecide,
    RollOff,
    SpendWyrd,
    WyrdTurn,
    start_round,
)
from warband.rulesets.wyrdcry.morale import (
    BlessTest,
    ExtraRound,
    MoraleTest,
    PanicTest,
    PanicTurn,
    RoundEnd,
    Withdraw,
    start_morale,
)
from warband.rulesets.wyrdcry.movement import MoveTo
from warband.rulesets.wyrdcry.reactions import ReactWindow, StrikeRoll
from warband.rulesets.wyrdcry.scenario import finish, treasure_tokens
from warband.rulesets.wyrdcry.setup import DEPLOYED, ChooseZone, Deploy


def start_game(state: State, events: list[Event]) -> None:
    """The battle starts with set-up (D §A9): every fighter ready, the scenario's treasure tokens laid out, and the
    roll-off for deployment zones."""
    state.phase = "setup"
    state.vars.update({"zone_of": [0, 1], "active": None, "command_next": None, "action_seq": 0, "to_act": 0})
    state.vars["treasure"] = treasure_tokens(state)
    state.vars["command_tokens"] = []
    for m in state.models.values():
        m.flags["status"] = "ready"
    push(state, RollOff("deployment"))


class WyrdcryRules(turns.Alternating[State]):
    """Wyrdcry on the kernel's step machine: the first steps, the deployment, and the combat phase on the kernel's
    alternating activation (S 1: the players take turns activating fighters; a side with nobody left to activate
    passes, :meth:`passes`; when both have activated everything the morale phase starts, :meth:`end_round`; a side
    with nobody left loses, :meth:`settle`). When deployment is done the first round starts."""

    phase = "combat"
    activation = ACTIVATION
    deploy_step = Deploy
    deploy_phase = "setup"
    activate_step = Activate
    round_due = DEPLOYED

    #: When each kind of answer is given (seed 003, digest A5-A8), for refusals at another moment.
    timings: ClassVar[Mapping[str, str]] = {
        "react": (
            "a reaction (seed 003 S 26-32) is declared by the enemy of the acting fighter at the moment it names"
            " (before hit rolls, a Retreat, a spell, a fighter taken out), paying a reaction die; once that moment"
            " has passed it can no longer be declared"
        ),
        "no-reaction": "'no-reaction' declines a reaction window, which opens only at a reaction's moment",
        "pass": "a player passes only once all its fighters have activated this round (seed 003 S 1)",
        "activate": "a fighter is activated in the combat phase, when no fighter of its side is active",
        "withdraw": "a warband withdraws only in the morale phase, once half of it (rounded up) is out of action",
        "carry-on": "carrying on answers the morale phase's offer to withdraw",
    }

    def start_game(self, state: State, events: list[Event]) -> None:
        start_game(state, events)

    def menu(self, state: State, piece: str) -> ActivationStep:
        return ActivationStep(state.models[piece].side, piece)

    def done(self, state: State, piece: str) -> bool:
        """The fighter is out, or has taken its actions and has nothing left but to end its activation."""
        m = state.models[piece]
        return is_out(m) or (complete(state, m) and menu(state, m) == [Action("end", m.id)])

    def end_activation(self, state: State, piece: str, events: list[Event]) -> None:
        end_activation(state, events)

    def passes(self, state: State, side: int, events: list[Event]) -> None:
        events.append(Note(f"side {side_name(side)} has activated all its fighters: it passes", f"{R}/combat/pass"))

    def settle(self, state: State, events: list[Event]) -> bool:
        for s in (0, 1):
            if not standing(state, s):
                finish(state, 1 - s, f"side {side_name(s)} has no fighter left", events)
                return True
        return False

    def end_round(self, state: State, events: list[Event]) -> None:
        start_morale(state, events)

    def start_round(self, state: State, events: list[Event]) -> None:
        start_round(state, events)


ALL_STEP_KINDS = (
    RollOff,
    ChooseZone,
    Deploy,
    InitiativeRoll,
    DecideInitiative,
    ChannelTurn,
    ChannelChoice,
    ChannelRoll,
    WyrdTurn,
    SpendWyrd,
    Redecide,
    FirstActivation,
    Activate,
    ActivationStep,
    CommandActivation,
    MoveTo,
    HitRolls,
    TakeCoverRoll,
    ReactWindow,
    StrikeRoll,
    BankRoll,
    Accuse,
    ChannelBacklash,
    FallRoll,
    FallLanding,
    JumpRoll,
    EdgeRoll,
    IndomitableRoll,
    BlessHit,
    LandHits,
    PlaceCommandToken,
    LeadChoice,
    FreeAttack,
    BlessTest,
    MagicEffect,
    DenounceRoll,
    MoraleTest,
    Withdraw,
    PanicTurn,
    PanicTest,
    RoundEnd,
    ExtraRound,
)


RULES = WyrdcryRules(ALL_STEP_KINDS)
