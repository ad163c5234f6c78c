"""The activation turn that skirmish games share, on the kernel's step machine (:mod:`warband.kernel.steps`).

Most skirmish games activate one model (or unit) at a time: a side picks one of its models that is still ready,
that model takes its actions, its activation ends, and someone activates next. Who that is differs: sides
alternate with a pass (Trench Crusade, Wyrdcry), a drawn card names a unit (Trenches and Turbines), or the side
whose turn it is activates until it has nothing left or ends its turn (Gangfight). Three small pieces, each
usable without the others:

* :class:`Activation` keeps the bookkeeping in ``state.vars`` (the active model or unit, the side to act) under
  names the ruleset picks, and does it (:meth:`~Activation.begin`, :meth:`~Activation.end`,
  :meth:`~Activation.hand_over`). It is plain data: a step in any module of the ruleset calls it, so no step
  needs the rules object (which is built from every step kind, and would make an import loop).
* :class:`Activate` is the standing decision "activate one of your ready models" (and optionally "or end your
  turn"): its options, every refusal with its rule id, and the start of the activation.
* :class:`Alternating` is a :class:`~warband.kernel.steps.SteppedRules` for alternating activation: in its phase
  the standing decision is the active model's menu, or :class:`Activate` for the side to act; when the machine is
  idle it ends an activation that is over, lets the other side act when the side to act has nothing ready (a
  pass), and ends the round when neither has. The ruleset fills in small hooks.

A game of activation cards uses :class:`Activation` (and :class:`Activate` for a card that lets its side pick
the unit) with its own draw; a game of action points in a player's turn uses :class:`Activation` and
:class:`Activate` with a voluntary pass (:attr:`Activate.pass_kind`) that ends the turn. Pieces are named by
their id (a model id, or a unit id for a game of units). Nothing here names a game.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Activated, Event
from warband.kernel.state import GameState
from warband.kernel.steps import Choice, SteppedRules

S = TypeVar("S", bound="GameState[Any]")


def side_name(side: int) -> str:
    return "AB"[side]


# ------------------------------------------------------------------------------------------- bookkeeping
@dataclass(frozen=True, slots=True)
class Activation:
    """Where an activation turn keeps its bookkeeping in ``state.vars``, and the bookkeeping itself.

    ``active`` names the key holding the id of the active model or unit (None between activations); ``to_act``
    the key holding the side that activates next (the active piece's side during an activation), or None for a
    game that keeps no such side. A ruleset makes one at module level, in the module its steps import."""

    active: str = "active"
    to_act: str | None = "to_act"

    def piece(self, state: GameState[Any]) -> str | None:
        """The id of the active model or unit, or None between activations."""
        value = state.vars.get(self.active)
        return str(value) if value else None

    def side(self, state: GameState[Any]) -> int:
        """The side that activates next (during an activation: the active piece's side)."""
        if self.to_act is None:
            raise KeyError("this game keeps no side to act (Activation.to_act is None)")
        return int(state.vars[self.to_act])

    def set_side(self, state: GameState[Any], side: int) -> None:
        if self.to_act is not None:
            state.vars[self.to_act] = side

    def begin(self, state: GameState[Any], piece: str, side: int, events: list[Event]) -> None:
        """``piece`` of ``side`` is now the active one (an ``Activated`` event says so)."""
        state.vars[self.active] = piece
        self.set_side(state, side)
        events.append(Activated(piece, side))

    def end(self, state: GameState[Any]) -> None:
        """No piece is active any more; who acts next is unchanged (see :meth:`hand_over`)."""
        state.vars[self.active] = None

    def hand_over(self, state: GameState[Any]) -> None:
        """Alternation: the other side is to act next. If it has nothing ready, :class:`Alternating` gives the
        turn back (a pass) or ends the round."""
        self.set_side(state, 1 - self.side(state))


# ------------------------------------------------------------------------------------------- the standing decision
class Activate(Choice[S]):
    """The standing decision of an activation phase: side ``by`` activates one of its ready models or units
    (``activate ID``), or, in a game that allows it, ends its turn instead (:attr:`pass_kind`).

    Subclasses are dataclasses with a ``by`` field. They say which pieces are ready (:meth:`ready`), what
    starting an activation means (:meth:`begin`, which calls :meth:`Activation.begin` and adds the game's own
    bookkeeping) and, optionally, why a piece of their own is not ready (:meth:`unready`, in the game's words).
    The rule ids of the refusals are class attributes, after the ruleset's prefix."""

    __slots__ = ()
    kind = "activate"
    #: The action kind of an activation (``activate ID``); the decision's prompt is the step's ``kind``.
    verb: ClassVar[str] = "activate"
    #: What a piece is called in messages ("model", "fighter", "unit").
    noun: ClassVar[str] = "model"
    #: The action kind of a voluntary pass ("end-turn"); "" when a side with a ready piece must activate one.
    pass_kind: ClassVar[str] = ""
    #: Rule ids: not an ``activate`` of a known piece; a piece of the other side; a piece that is not ready.
    choose_rule: ClassVar[str] = "activation/choose"
    whose_rule: ClassVar[str] = "activation/alternate"
    ready_rule: ClassVar[str] = "activation/not-ready"
    by: int

    @abc.abstractmethod
    def ready(self, state: S) -> list[str]:
        """The ids of side ``by``'s pieces that may activate now, in the order they are offered."""

    @abc.abstractmethod
    def begin(self, state: S, piece: str, events: list[Event]) -> None:
        """Start ``piece``'s activation (already checked)."""

    def pass_turn(self, state: S, events: list[Event]) -> None:
        """Side ``by`` passes voluntarily (:attr:`pass_kind`); a game that allows it says what follows."""
        raise NotImplementedError(f"{type(self).__name__} sets pass_kind but says nothing of what passing does")

    def side_of(self, state: S, piece: str) -> int | None:
        """The side of the piece named ``piece``, None if there is none (a model id by default)."""
        m = state.models.get(piece)
        return None if m is None else m.side

    def pieces(self, state: S) -> list[str]:
        """Every piece a player might name, ready or not (``warband legal --explain``): every model by default."""
        return list(state.models)

    def unready(self, state: S, piece: str) -> list[Reason]:
        """Why side ``by``'s ``piece`` cannot activate now, in the game's words; empty for the generic refusal."""
        return []

    def options(self, state: S) -> list[Action]:
        out = [Action(self.verb, p) for p in self.ready(state)]
        return [*out, Action(self.pass_kind)] if self.pass_kind else out

    def tries(self, state: S) -> list[Action]:
        out = [Action(self.verb, p) for p in self.pieces(state)]
        return [*out, Action(self.pass_kind)] if self.pass_kind else out

    def reasons(self, state: S, action: Action) -> list[Reason]:
        if action in self.options(state):
            return []
        who = side_name(self.by)
        side = self.side_of(state, action.model or "")
        plain = action.target is None and action.point is None and action.option is None
        if action.kind != self.verb or side is None or not plain:
            choose = f"side {who} must activate one of its {self.noun}s ('{self.verb} {self.noun.upper()}')"
            if self.pass_kind:
                choose += f" or '{self.pass_kind}'"
            return [(f"{self.rules}/{self.choose_rule}", choose)]
        if side != self.by:
            return [(f"{self.rules}/{self.whose_rule}", f"it is side {who}'s turn to activate a {self.noun}")]
        piece = str(action.model)
        return self.unready(state, piece) or [(f"{self.rules}/{self.ready_rule}", f"{piece} cannot activate now")]

    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        if self.pass_kind and action.kind == self.pass_kind:
            self.pass_turn(state, events)
        else:
            self.begin(state, str(action.model), events)


# ------------------------------------------------------------------------------------------- alternation
class SideStep(Protocol):
    """An :class:`Activate` step kind, made with the side to act (``Activate(side)``)."""

    def __call__(self, by: int, /) -> Activate[Any]: ...


class PieceStep(Protocol):
    """A step kind made with the active piece's id alone (``ActionMenu(model)``)."""

    def __call__(self, piece: str, /) -> Choice[Any]: ...


class Alternating(SteppedRules[S]):
    """Alternating activation with a pass, as a step machine: in the phase :attr:`phase`, the sides take turns
    activating one piece each; a side with nothing ready lets the other act (:meth:`passes`); when neither side
    has anything ready, the round ends (:meth:`end_round`).

    The ruleset's subclass gives its step kinds (as for any :class:`SteppedRules`), :attr:`activation`, and the
    hooks :meth:`activate`, :meth:`menu`, :meth:`done` and :meth:`end_round` (:meth:`end_activation`,
    :meth:`passes` and :meth:`settle` are optional). A game with a phase in which the next round is due (after the
    deployment, after a morale phase) names it :attr:`round_due` and starts the round in :meth:`start_round`.
    Other phases (deployment, a morale phase) are the subclass's own: it overrides :meth:`standing` and
    :meth:`idle` for them and calls ``super()`` for the rest. Starting the phase is the ruleset's too: set
    ``state.phase`` to :attr:`phase`, the side to act first (:meth:`Activation.set_side`) and no active piece."""

    #: The phase in which the sides alternate.
    phase: ClassVar[str] = "activation"
    #: Where the bookkeeping lives in ``state.vars``.
    activation: ClassVar[Activation] = Activation()
    #: The ruleset's :class:`Activate` step kind (made with the side to act), for the default :meth:`activate`.
    activate_step: ClassVar[SideStep | None] = None
    #: The ruleset's action menu step kind (made with the active piece's id), for the default :meth:`menu`.
    menu_step: ClassVar[PieceStep | None] = None
    #: The phase in which the next round is due (after the deployment, after a round's last phase): the machine,
    #: idle in it, starts the round (:meth:`start_round`). Empty for a game that starts each round itself.
    round_due: ClassVar[str] = ""

    # --- hooks ------------------------------------------------------------------------------------
    def activate(self, side: int) -> Activate[S]:
        """The standing decision of ``side`` when no piece is active (the ruleset's :class:`Activate` step): by
        default :attr:`activate_step` made with the side."""
        if self.activate_step is None:
            raise NotImplementedError(f"{type(self).__name__} names no activate_step and does not override activate")
        return self.activate_step(side)

    def menu(self, state: S, piece: str) -> Choice[S]:
        """The standing decision of the active piece (its next action; a :class:`~steps.ActionMenu` usually): by
        default :attr:`menu_step` made with the piece's id."""
        if self.menu_step is None:
            raise NotImplementedError(f"{type(self).__name__} names no menu_step and does not override menu")
        return self.menu_step(piece)

    @abc.abstractmethod
    def done(self, state: S, piece: str) -> bool:
        """Whether the active piece's activation is over (it said so, has no action left, or is gone)."""

    @abc.abstractmethod
    def end_round(self, state: S, events: list[Event]) -> None:
        """Neither side has anything ready: end the round (leave :attr:`phase`, or start a round in which a
        piece is ready again)."""

    def start_round(self, state: S, events: list[Event]) -> None:
        """Start the next round (its first phase, the side to act first): asked when the machine is idle in
        :attr:`round_due`; a ruleset that names that phase gives this."""
        raise NotImplementedError(f"{type(self).__name__} names round_due {self.round_due!r} but no start_round")

    def end_activation(self, state: S, piece: str, events: list[Event]) -> None:
        """End the activation that :meth:`done` found over: by default only the bookkeeping (no piece active,
        the other side to act); a ruleset adds its own (flags to clear, a note), or calls its own function."""
        self.activation.end(state)
        self.activation.hand_over(state)

    def passes(self, state: S, side: int, events: list[Event]) -> None:
        """``side`` has nothing ready and the other side has: the other side acts. Say so if the game does."""

    def settle(self, state: S, events: list[Event]) -> bool:
        """Asked first whenever the machine is idle in :attr:`phase`: settle what comes before anything else (a
        side wiped out, casualties to remove) and return True if something changed."""
        return False

    # --- the machine ------------------------------------------------------------------------------
    def ready(self, state: S, side: int) -> bool:
        """Whether ``side`` has a piece ready to activate (asked of its :meth:`activate` step)."""
        return bool(self.activate(side).ready(state))

    def standing(self, state: S) -> Choice[S] | None:
        if state.phase != self.phase:
            return super().standing(state)
        piece = self.activation.piece(state)
        return self.activate(self.activation.side(state)) if piece is None else self.menu(state, piece)

    def idle(self, state: S, events: list[Event]) -> bool:
        if self.round_due and state.phase == self.round_due:
            self.start_round(state, events)
            return True
        if state.phase != self.phase:
            return False
        if self.settle(state, events):
            return True
        piece = self.activation.piece(state)
        if piece is not None:
            if not self.done(state, piece):
                return False
            self.end_activation(state, piece, events)
            return True
        return self.next_side(state, events)

    def next_side(self, state: S, events: list[Event]) -> bool:
        """No piece is active: the side to act activates if it can (False: its standing decision waits); else
        the other side acts (a pass); else the round ends."""
        side = self.activation.side(state)
        if self.ready(state, side):
            return False
        if self.ready(state, 1 - side):
            self.passes(state, side, events)
            self.activation.set_side(state, 1 - side)
            return True
        self.end_round(state, events)
        return True
