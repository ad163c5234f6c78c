"""Pending steps as typed records, and the one machine that runs them for every ruleset.

A game is a stack of pending steps (DESIGN.md, "The kernel protocol"): a reaction, a roll, a choice of where to
move are data in the state, never a suspended Python frame, so any moment can be cloned, saved and searched.
Each kind of step is declared ONCE, as a frozen dataclass that carries its own behaviour:

* a :class:`Choice` names the side that decides (:meth:`Choice.player`), lists its options
  (:meth:`Choice.options`), says why any other action is refused (:meth:`Choice.reasons`) and applies the chosen
  one (:meth:`Choice.apply`);
* a :class:`Chance` names the dice (:meth:`Chance.dice`) and applies the values rolled (:meth:`Chance.roll`);
  :class:`OneDie` is the common case of one die for one purpose;
* an :class:`Auto` step runs as soon as it is on top (:meth:`Auto.run`).

:class:`SteppedRules` is the generic side of the kernel protocol (``decision``, ``legal_actions``,
``why_illegal``, ``apply``, ``roll``, ``run_auto``) over those records. A ruleset subclasses it with its table of
step kinds and three hooks: :meth:`SteppedRules.start_game` (the first steps), :meth:`SteppedRules.standing`
(the decision a player faces when nothing is pending: deploy, activate, pick an action) and
:meth:`SteppedRules.idle` (advance the turn when nothing is pending and nobody has a standing decision). The
activation turn most games share is written once on top of it, in :mod:`warband.kernel.turns`.

Records are JSON-native by construction: fields are ``str``, ``int``, ``float``, ``bool``, ``None``, tuples of
those, or nested frozen dataclasses (:class:`Record`). :func:`step_to_json` writes ``{"step": kind, field:
value...}`` with the field names as declared, so a position file stays readable; :meth:`SteppedRules.decode_step`
reads it back, checking every field.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from warband.kernel import refusals, values
from warband.kernel.actions import CHANCE, CHOICE, OVER, Action, Decision, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import Event
from warband.kernel.records import Step, StepError, decode_record
from warband.kernel.state import GameState, Model

S = TypeVar("S", bound="GameState[Any]")

#: Automatic steps in a row before the machine gives up (a rules bug, never a game state).
AUTO_LIMIT = 100_000


class Choice(Step, Generic[S]):
    """A step at which one side chooses an action. By default the side is the record's ``by`` field and the
    model or unit the decision is about is the field named by ``about``; steps that work them out override
    :meth:`player` / :meth:`subject`."""

    __slots__ = ()
    #: The field naming the model or unit the decision is about (``Decision.model``); "" for none.
    about: ClassVar[str] = ""
    #: Kinds of action this step is the moment of, whose refusals it explains itself (a reaction window's
    #: ``react``): the ruleset's word on when such an action is played (``SteppedRules.timings``) is not added.
    answers: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, *, about: str = "", **kwargs: Any) -> None:
        """``about=`` as a class keyword names the field the decision is about (see :class:`.records.Step`)."""
        super().__init_subclass__(**kwargs)
        if about:
            cls.about = about

    def player(self, state: S) -> int:
        """The side (0 or 1) that decides; for a reaction or an interrupt, the side that is not active."""
        return int(getattr(self, "by"))  # noqa: B009 - the field every such record declares

    def subject(self) -> str | None:
        """The model or unit the decision is about (``Decision.model``), if any."""
        value = getattr(self, self.about) if self.about else None
        return None if value is None else str(value)

    @abc.abstractmethod
    def options(self, state: S) -> list[Action]:
        """The legal choices in a deterministic order (destinations: a finite set of candidates)."""

    def reasons(self, state: S, action: Action) -> list[Reason]:
        """Every rule ``action`` breaks here; empty when legal. The default accepts exactly :meth:`options` and
        explains any other action in the player's words (:func:`.refusals.not_offered`); steps with rules of
        their own, or that take any point on the table (destinations), override it."""
        opts = self.options(state)
        if action in opts:
            return []
        prompt = self.prompt or self.kind
        return refusals.not_offered(self.rules, self.kind, prompt, self.player(state), self.subject(), action, opts)

    def tries(self, state: S) -> list[Action]:
        """What a player might try here, legal or not (``warband legal --explain``). Defaults to the options."""
        return self.options(state)

    @abc.abstractmethod
    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        """Carry out a legal choice (the step is already off the stack)."""


@values.value
class ModelDecision(Choice[S], about="model"):
    """A choice that side ``by`` makes about one model, ``model`` (a gift to pick, a bodyguard to send, markers to
    spend): the head such records share. A record adds its own fields after these two, so it is made
    ``Kind(model, by, ...)`` and written ``{"step": kind, "model": ..., "by": ..., ...}``."""

    model: str
    by: int


class ActionMenu(Choice[S]):
    """The standing decision of an activation: the active model or unit (the field named by ``about``) picks its
    next action, or ends its activation. A ruleset gives its menu (:meth:`menu`, legal only or everything one
    might try), the rules an action breaks (:meth:`check`) and what doing it means (:meth:`act`); naming another
    model or unit is refused with ``wait_rule`` / ``wait_text``."""

    __slots__ = ()
    kind = "action"
    #: Rule id (after the ruleset's prefix) and message when an action names another model or unit.
    wait_rule: ClassVar[str] = "activation/active-model"
    wait_text: ClassVar[str] = "{actor} is the activated model; {other} must wait"

    @abc.abstractmethod
    def menu(self, state: S, only_legal: bool) -> list[Action]:
        """The actions in a fixed order: the legal ones, or (``only_legal=False``) every one a player might try."""

    @abc.abstractmethod
    def check(self, state: S, action: Action) -> list[Reason]:
        """Every rule ``action`` of the active model or unit breaks now."""

    @abc.abstractmethod
    def act(self, state: S, action: Action, events: list[Event]) -> None:
        """Carry out a legal action."""

    def player(self, state: S) -> int:
        """The record's ``by`` field if it declares one, else the side of the active model (a game of units
        says whose unit it is)."""
        by = getattr(self, "by", None)
        return int(by) if by is not None else state.models[str(self.subject())].side

    def options(self, state: S) -> list[Action]:
        return self.menu(state, True)

    def tries(self, state: S) -> list[Action]:
        return self.menu(state, False)

    def reasons(self, state: S, action: Action) -> list[Reason]:
        actor = self.subject()
        if action.model != actor:
            text = self.wait_text.format(actor=actor, other=action.model)
            return [(f"{self.rules}/{self.wait_rule}", text)]
        return self.check(state, action)

    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        self.act(state, action, events)


@values.value
class ModelActions(Generic[S]):
    """What a model may do in its activation, as the ruleset's three functions of the state and the model: its
    menu (``only_legal``: the legal actions, else every one a player might try), the rules an action breaks (empty
    when legal), and doing it. A :class:`ModelMenu` asks them for the active model."""

    menu: Callable[[S, Model, bool], list[Action]]
    reasons: Callable[[S, Model, Action], list[Reason]]
    act: Callable[[S, Model, Action, list[Event]], None]


class ModelMenu(ActionMenu[S]):
    """An :class:`ActionMenu` of a game that activates models: the record's ``model`` field names the active
    model, and the ruleset's :class:`ModelActions` (:meth:`actions`) answer for it."""

    __slots__ = ()
    about = "model"
    model: str

    @abc.abstractmethod
    def actions(self) -> ModelActions[S]:
        """The ruleset's functions (a method, so that the module may define them below the step)."""

    def menu(self, state: S, only_legal: bool) -> list[Action]:
        return self.actions().menu(state, state.models[self.model], only_legal)

    def check(self, state: S, action: Action) -> list[Reason]:
        return self.actions().reasons(state, state.models[self.model], action)

    def act(self, state: S, action: Action, events: list[Event]) -> None:
        self.actions().act(state, state.models[self.model], action, events)


class Chance(Step, Generic[S]):
    """A step at which dice are rolled (chance is a player)."""

    __slots__ = ()

    @abc.abstractmethod
    def dice(self, state: S) -> DiceSpec:
        """The dice to roll."""

    @abc.abstractmethod
    def roll(self, state: S, values: tuple[int, ...], events: list[Event]) -> None:
        """Apply the values rolled (the step is already off the stack)."""


class OneDie(Chance[S]):
    """A chance step that rolls one die: :attr:`label` names it on the prompt and in the log, :meth:`faces` says
    how many faces it has (a d6 unless the game says otherwise), and the record's ``model`` field, when it
    declares one, names the model it is rolled for. The subclass says what the face does (:meth:`Chance.roll`)."""

    __slots__ = ()
    #: What the die is for ("extra round", "shooting into melee"); the step's kind if empty.
    label: ClassVar[str] = ""

    def __init_subclass__(cls, *, label: str = "", **kwargs: Any) -> None:
        """``label=`` as a class keyword names what the die is for (see :class:`.records.Step`)."""
        super().__init_subclass__(**kwargs)
        if label:
            cls.label = label

    def faces(self, state: S) -> int:
        return 6

    def dice(self, state: S) -> DiceSpec:
        model = getattr(self, "model", None)
        return DiceSpec(1, self.faces(state), self.label or self.kind, None if model is None else str(model))


class Auto(Step, Generic[S]):
    """A step that runs as soon as it is on top of the stack."""

    __slots__ = ()

    @abc.abstractmethod
    def run(self, state: S, events: list[Event]) -> None:
        """Do it (the step is already off the stack)."""


# ------------------------------------------------------------------------------------------- the stack
def push(state: GameState[Any], step: Step) -> None:
    """Put ``step`` on top (the stack is replaced, never mutated: clones share it)."""
    state.stack = [*state.stack, step]


def pop(state: GameState[Any]) -> Step:
    step = state.stack[-1]
    state.stack = state.stack[:-1]
    return step


def top(state: GameState[Any]) -> Step | None:
    return state.stack[-1] if state.stack else None


def replace_top(state: GameState[Any], step: Step) -> None:
    state.stack = [*state.stack[:-1], step]


# ------------------------------------------------------------------------------------------- the machine
class StepFor(Protocol):
    """A step kind made from a side alone (``Deploy(by)``), as :attr:`SteppedRules.deploy_step` names it."""

    def __call__(self, by: int, /) -> Choice[Any]: ...


class SteppedRules(Generic[S]):
    """The kernel protocol over a stack of typed steps; a ruleset gives its step kinds and its hooks."""

    #: The standing decision of the deployment (a :class:`~warband.kernel.setup.Deploy` step kind), faced in
    #: :attr:`deploy_phase` by the side in ``state.vars["deployer"]`` (the set-up's convention); None for a game
    #: that deploys some other way.
    deploy_step: ClassVar[StepFor | None] = None
    deploy_phase: ClassVar[str] = "deploy"
    #: The moment each action kind belongs to, in the player's words (``"react": "a reaction is declared when an
    #: enemy action offers one"``): a refusal of an action tried at another moment says when it is played.
    timings: ClassVar[Mapping[str, str]] = {}

    def __init__(self, kinds: Iterable[type[Step]]) -> None:
        table: dict[str, type[Step]] = {}
        for k in kinds:
            if not k.kind or k.kind in table:
                raise ValueError(f"step kind {k.kind!r} of {k.__name__} is empty or declared twice")
            table[k.kind] = k
        self.kinds: Mapping[str, type[Step]] = table

    # --- hooks a ruleset provides -----------------------------------------------------------------
    @abc.abstractmethod
    def start_game(self, state: S, events: list[Event]) -> None:
        """Put the game's first steps on the stack (the kernel then runs the automatic ones)."""

    def standing(self, state: S) -> Choice[S] | None:
        """The decision a player faces when nothing is pending and :meth:`idle` has nothing to advance (deploy
        a model, activate one, pick an action), as a step that is not stored on the stack. By default the
        deployment's (:attr:`deploy_step`), else none: a ruleset adds its other phases' and calls this for the rest."""
        if self.deploy_step is not None and state.phase == self.deploy_phase:
            return self.deploy_step(int(state.vars.get("deployer", 0)))
        return None

    @abc.abstractmethod
    def idle(self, state: S, events: list[Event]) -> bool:
        """Nothing is pending: advance the game if it must move on (end an activation, start the next phase or
        turn) and return True; return False when a player now faces the :meth:`standing` decision."""

    def over(self, state: S) -> bool:
        return state.phase == "over"

    # --- the protocol -----------------------------------------------------------------------------
    def current(self, state: S) -> Step | None:
        """The step that decides now: the top of the stack, else the standing decision."""
        return state.stack[-1] if state.stack else self.standing(state)

    def decision(self, state: S) -> Decision:
        if self.over(state):
            return Decision(OVER, "over")
        step = self.current(state)
        if isinstance(step, Chance):
            return Decision(CHANCE, step.prompt or step.kind, dice=step.dice(state))
        if isinstance(step, Choice):
            return Decision(CHOICE, step.prompt or step.kind, player=step.player(state), model=step.subject())
        raise RuntimeError(f"no decision at state {state.state_id}: {step!r}")  # pragma: no cover - rules bug

    def _choice(self, state: S) -> Choice[S]:
        step = self.current(state)
        if not isinstance(step, Choice):
            raise RuntimeError(f"no choice is pending at state {state.state_id}")  # pragma: no cover
        return step

    def legal_actions(self, state: S) -> list[Action]:
        return self._choice(state).options(state)

    def all_actions(self, state: S) -> list[Action]:
        return self._choice(state).tries(state)

    def owner(self, state: S, name: str | None) -> int | None:
        """The side of the model (or unit) an action names, None when it names none of them."""
        m = state.models.get(name or "")
        return None if m is None else m.side

    def why_illegal(self, state: S, action: Action) -> list[Reason]:
        """The step's own reasons, preceded by whose decision it is when the action names a model of the side that
        is not deciding, and by the moment the action's kind belongs to when it is tried at another one."""
        step = self._choice(state)
        reasons = step.reasons(state, action)
        if not reasons:
            return reasons
        out: list[Reason] = []
        player = step.player(state)
        side = self.owner(state, action.model)
        named = any(f"side {refusals.side_label(player)}" in text for _, text in reasons)
        options = step.options(state)
        if side is not None and side != player and not named and all(o.model != action.model for o in options):
            prompt = step.prompt or step.kind
            out.append(refusals.whose_decision(step.rules, prompt, player, step.subject(), action, side))
        when = self.timings.get(action.kind)
        if when and action.kind not in step.answers and all(o.kind != action.kind for o in options):
            out.append((f"{step.rules}/timing/{action.kind}", f"'{action.kind}' is played at another moment: {when}"))
        return [*out, *(r for r in reasons if r not in out)]

    def apply(self, state: S, action: Action) -> list[Event]:
        events: list[Event] = []
        step = self._choice(state)
        if state.stack and state.stack[-1] is step:
            pop(state)
        step.apply(state, action, events)
        self.run_auto(state, events)
        return events

    def roll(self, state: S, values: tuple[int, ...]) -> list[Event]:
        events: list[Event] = []
        step = pop(state)
        if not isinstance(step, Chance):
            raise RuntimeError(f"no roll is pending at state {state.state_id}")  # pragma: no cover
        step.roll(state, values, events)
        self.run_auto(state, events)
        return events

    def run_auto(self, state: S, events: list[Event]) -> None:
        """Run automatic steps and advance the game until a side or chance must decide, or it is over."""
        for _ in range(AUTO_LIMIT):
            if self.over(state):
                state.stack = []
                return
            step = state.stack[-1] if state.stack else None
            if step is None:
                if not self.idle(state, events):
                    return  # a standing decision waits
                continue
            if not isinstance(step, Auto):
                return
            pop(state)
            step.run(state, events)
        raise RuntimeError("automatic steps did not settle")  # pragma: no cover - a rules bug

    # --- files ------------------------------------------------------------------------------------
    def decode_step(self, data: Any, where: str = "stack") -> Step:
        """A step from its JSON (``{"step": kind, ...fields}``); StepError names the place and the problem."""
        if not isinstance(data, Mapping) or not isinstance(data.get("step"), str):
            raise StepError(f"{where}: expected an object with a 'step' kind")
        cls = self.kinds.get(data["step"])
        if cls is None:
            raise StepError(f"{where}: unknown step kind {data['step']!r} (known: {', '.join(sorted(self.kinds))})")
        record = decode_record(cls, data, where)
        assert isinstance(record, Step)
        return record
