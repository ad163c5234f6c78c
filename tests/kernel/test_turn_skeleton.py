"""The kernel's activation turn (``warband.kernel.turns``) on a tiny fake game: three models against one.

Side A fields a1, a2, a3 and side B b1, all on the table. An activation is ``activate X`` then ``end X``. The
sides alternate; a side with nothing ready passes to the other; the round ends when neither has anything ready;
the game is over after two rounds.
"""

from __future__ import annotations

from typing import Any

import pytest

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import Activated, Event, Note
from warband.kernel.rng import Rng
from warband.kernel.state import GameState, Model
from warband.kernel.steps import ActionMenu, Choice, OneDie
from warband.kernel.turns import Activate, Activation, Alternating

State = GameState[dict[str, Any]]
R = "toy"
TURN = Activation(active="on", to_act="next")


def ready_models(state: State, side: int) -> list[str]:
    return [m.id for m in state.side_models(side) if m.on_table and not m.flags.get("spent")]


@values.value
class Pick(Activate[State]):
    rules = R
    by: int

    def ready(self, state: State) -> list[str]:
        return ready_models(state, self.by)

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        TURN.begin(state, piece, self.by, events)

    def unready(self, state: State, piece: str) -> list[Reason]:
        return [(f"{R}/activation/spent", f"{piece} has acted this round")] if state.models[piece].flags else []


@values.value
class PickOrPass(Pick):
    """A game where a side may end its turn instead (``end-turn``)."""

    pass_kind = "end-turn"

    def pass_turn(self, state: State, events: list[Event]) -> None:
        state.vars["passed"] = self.by


@values.value
class Act(ActionMenu[State]):
    """The active model's menu: only ``end``. Its player is the model's side (the kernel's default)."""

    kind = "act"
    rules = R
    about = "model"
    model: str

    def menu(self, state: State, only_legal: bool) -> list[Action]:
        return [Action("end", self.model)]

    def check(self, state: State, action: Action) -> list[Reason]:
        return [] if action.kind == "end" else [(f"{R}/act", "only 'end'")]

    def act(self, state: State, action: Action, events: list[Event]) -> None:
        state.vars["ended"] = True


class Toy(Alternating[State]):
    activation = TURN

    def start_game(self, state: State, events: list[Event]) -> None:
        state.phase, state.turn = "activation", 1
        state.vars.update({"on": None, "next": 0, "rounds_ended": 0})

    def standing(self, state: State) -> Choice[State] | None:
        if state.phase == "deploy":
            return Act("a1")  # another phase's decision, the subclass's own
        return super().standing(state)

    def activate(self, side: int) -> Pick:
        return Pick(side)

    def menu(self, state: State, piece: str) -> Act:
        return Act(piece)

    def done(self, state: State, piece: str) -> bool:
        return bool(state.vars.get("ended")) or not state.models[piece].on_table

    def end_activation(self, state: State, piece: str, events: list[Event]) -> None:
        state.models[piece].flags["spent"] = True
        state.vars["ended"] = False
        super().end_activation(state, piece, events)

    def passes(self, state: State, side: int, events: list[Event]) -> None:
        events.append(Note(f"side {'AB'[side]} passes", f"{R}/pass"))

    def settle(self, state: State, events: list[Event]) -> bool:
        if not any(m.on_table for m in state.side_models(1)):
            state.phase = "over"
            return True
        return False

    def end_round(self, state: State, events: list[Event]) -> None:
        state.vars["rounds_ended"] += 1
        if state.turn >= 2:
            state.phase = "over"
            return
        state.turn += 1
        for m in state.models.values():
            m.flags.pop("spent", None)
        TURN.set_side(state, 0)  # who starts a round is the game's (an initiative roll...): here side A


def model(mid: str, side: int) -> Model:
    return Model(mid, side, mid, "toy", 0.5, 1.0, {}, on_table=True)


def fresh() -> tuple[Toy, State]:
    rules = Toy([Pick, Act])
    ms = [model("a1", 0), model("a2", 0), model("a3", 0), model("b1", 1)]
    state: State = GameState({}, {m.id: m for m in ms}, [], Rng(1))
    events: list[Event] = []
    rules.start_game(state, events)
    rules.run_auto(state, events)
    return rules, state


def activate_and_end(rules: Toy, state: State, piece: str) -> list[Event]:
    events = rules.apply(state, Action("activate", piece))
    return events + rules.apply(state, Action("end", piece))


def test_the_sides_alternate_one_activation_each() -> None:
    rules, state = fresh()
    d = rules.decision(state)
    assert (d.prompt, d.player) == ("activate", 0)
    assert rules.legal_actions(state) == [Action("activate", m) for m in ("a1", "a2", "a3")]
    events = rules.apply(state, Action("activate", "a2"))
    assert events == [Activated("a2", 0)]
    assert (state.vars["on"], state.vars["next"]) == ("a2", 0)
    d = rules.decision(state)
    assert (d.prompt, d.player, d.model) == ("act", 0, "a2")  # the active model's menu
    rules.apply(state, Action("end", "a2"))
    assert (state.vars["on"], state.vars["next"]) == (None, 1)  # the other side is to act
    assert (rules.decision(state).player, rules.legal_actions(state)) == (1, [Action("activate", "b1")])
    rules.apply(state, Action("activate", "b1"))
    assert (rules.decision(state).prompt, rules.decision(state).player) == ("act", 1)


def test_a_side_with_nothing_ready_passes_and_the_other_activates_the_rest() -> None:
    rules, state = fresh()
    activate_and_end(rules, state, "a1")
    events = activate_and_end(rules, state, "b1")
    assert Note("side B passes", "toy/pass") not in events
    events = activate_and_end(rules, state, "a2")  # B is to act and has nothing left: it passes back to A
    assert Note("side B passes", "toy/pass") in events
    assert (state.vars["next"], rules.decision(state).player) == (0, 0)
    assert rules.legal_actions(state) == [Action("activate", "a3")]


def test_the_round_ends_once_when_neither_side_has_anything_ready() -> None:
    rules, state = fresh()
    for piece in ("a1", "b1", "a2"):
        activate_and_end(rules, state, piece)
    assert state.vars["rounds_ended"] == 0
    activate_and_end(rules, state, "a3")
    assert (state.vars["rounds_ended"], state.turn) == (1, 2)
    assert rules.legal_actions(state) == [Action("activate", m) for m in ("a1", "a2", "a3")]  # everyone ready again
    for piece in ("a1", "b1", "a2", "a3"):
        activate_and_end(rules, state, piece)
    assert rules.decision(state).kind == "over"


def test_settle_comes_first_and_an_activation_ends_when_its_model_is_gone() -> None:
    rules, state = fresh()
    rules.apply(state, Action("activate", "a1"))
    state.models["a1"].on_table = False  # say the model fell: its activation is over at the next idle moment
    rules.run_auto(state, [])
    assert (state.vars["on"], state.vars["next"]) == (None, 1)
    state.models["b1"].on_table = False
    rules.run_auto(state, [])
    assert rules.decision(state).kind == "over"  # settle ended the game before anyone was asked


def test_other_phases_are_the_subclass_s_own() -> None:
    rules, state = fresh()
    state.phase = "deploy"
    assert rules.standing(state) == Act("a1")
    assert rules.idle(state, []) is False


def test_activate_refuses_with_the_rule_broken() -> None:
    rules, state = fresh()
    activate_and_end(rules, state, "a1")
    activate_and_end(rules, state, "b1")
    why = lambda a: rules.why_illegal(state, a)  # noqa: E731
    assert why(Action("activate", "a2")) == []
    assert why(Action("activate", "zz")) == [
        ("toy/activation/choose", "side A must activate one of its models ('activate MODEL')")
    ]
    assert why(Action("shoot", "a2"))[0][0] == "toy/activation/choose"
    assert why(Action("activate", "a2", "b1"))[0][0] == "toy/activation/choose"  # nothing else may come with it
    assert why(Action("activate", "b1")) == [("toy/activation/alternate", "it is side A's turn to activate a model")]
    assert why(Action("activate", "a1")) == [("toy/activation/spent", "a1 has acted this round")]
    state.models["a3"].on_table = False
    assert why(Action("activate", "a3")) == [("toy/activation/not-ready", "a3 cannot activate now")]
    assert rules.all_actions(state) == [Action("activate", m) for m in ("a1", "a2", "a3", "b1")]


def test_a_voluntary_pass_is_offered_and_applied_when_the_game_has_one() -> None:
    _, state = fresh()
    step = PickOrPass(0)
    assert step.options(state)[-1] == Action("end-turn")
    assert step.reasons(state, Action("end-turn")) == []
    assert step.reasons(state, Action("dance"))[0][1].endswith("or 'end-turn'")
    step.apply(state, Action("end-turn"), [])
    assert state.vars["passed"] == 0
    with pytest.raises(NotImplementedError):
        _PassWithoutRule(0).pass_turn(state, [])


@values.value
class _PassWithoutRule(Pick):
    pass_kind = "end-turn"


@values.value
class PickUnit(Activate[State]):
    """A drawn card of side ``by`` lets it pick one of its units with a card left (a game of units)."""

    kind = "pick"
    noun = "unit"
    rules = R
    by: int

    def ready(self, state: State) -> list[str]:
        return [u for u, side in state.vars["units"].items() if side == self.by]

    def side_of(self, state: State, piece: str) -> int | None:
        side = state.vars["units"].get(piece)
        return None if side is None else int(side)

    def pieces(self, state: State) -> list[str]:
        return list(state.vars["units"])

    def begin(self, state: State, piece: str, events: list[Event]) -> None:
        Activation(to_act=None).begin(state, piece, self.by, events)


def test_units_are_activated_by_their_ids_under_the_step_s_own_prompt() -> None:
    _, state = fresh()
    state.vars["units"] = {"rifles": 0, "tank": 1}
    step = PickUnit(1)
    assert step.kind == "pick" and step.options(state) == [Action("activate", "tank")]
    assert step.tries(state) == [Action("activate", "rifles"), Action("activate", "tank")]
    assert step.reasons(state, Action("activate", "rifles")) == [
        ("toy/activation/alternate", "it is side B's turn to activate a unit")
    ]
    assert step.reasons(state, Action("pick", "tank"))[0] == (
        "toy/activation/choose",
        "side B must activate one of its units ('activate UNIT')",
    )
    events: list[Event] = []
    step.apply(state, Action("activate", "tank"), events)
    assert (state.vars["active"], events) == ("tank", [Activated("tank", 1)])


def test_the_bookkeeping_lives_under_the_names_the_ruleset_gives() -> None:
    _, state = fresh()
    units = Activation(active="active_unit", to_act=None)  # a game of cards: no side to act is kept
    events: list[Event] = []
    units.begin(state, "u1", 1, events)
    assert (state.vars["active_unit"], units.piece(state), events) == ("u1", "u1", [Activated("u1", 1)])
    assert "to_act" not in state.vars
    with pytest.raises(KeyError):
        units.side(state)
    units.end(state)
    assert units.piece(state) is None


def test_a_game_saved_mid_activation_reads_back_the_same_decision() -> None:
    rules, state = fresh()
    rules.apply(state, Action("activate", "a3"))
    copy: State = GameState({}, {}, [], Rng(0))
    copy.load_json(state.to_json(), {m: {} for m in state.models}, rules.decode_step)
    assert rules.decision(copy) == rules.decision(state)
    assert rules.legal_actions(copy) == [Action("end", "a3")]


@values.value
class Scatter(OneDie[State]):
    kind = "scatter"
    rules = R
    model: str

    def faces(self, state: State) -> int:
        return 8

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        state.vars["scatter"] = values[0]


@values.value
class ExtraRound(OneDie[State]):
    kind = "extra-round"
    rules = R
    label = "extra round"

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        state.vars["extra"] = values[0] >= 4


def test_one_die_names_its_faces_purpose_and_model() -> None:
    _, state = fresh()
    assert Scatter("a1").dice(state) == DiceSpec(1, 8, "scatter", "a1")  # the kind when there is no label
    assert ExtraRound().dice(state) == DiceSpec(1, 6, "extra round", None)


class Rounds(Toy):
    """The toy game with a phase between rounds (``round_due``) in which the kernel starts the next round."""

    round_due = "between"

    def start_game(self, state: State, events: list[Event]) -> None:
        super().start_game(state, events)
        state.phase = "between"

    def start_round(self, state: State, events: list[Event]) -> None:
        state.vars["started"] = state.vars.get("started", 0) + 1
        state.phase = "activation"
        TURN.set_side(state, 1)


def test_the_machine_starts_a_round_when_idle_in_the_round_due_phase() -> None:
    rules = Rounds([Pick, Act])
    ms = [model("a1", 0), model("b1", 1)]
    state: State = GameState({}, {m.id: m for m in ms}, [], Rng(1))
    events: list[Event] = []
    rules.start_game(state, events)
    assert state.phase == "between"
    rules.run_auto(state, events)
    assert (state.phase, state.vars["started"]) == ("activation", 1)
    assert rules.legal_actions(state) == [Action("activate", "b1")]  # the side start_round named acts first


def test_a_round_due_phase_without_start_round_is_a_clear_error() -> None:
    class Forgot(Toy):
        round_due = "between"

    state: State = GameState({}, {"a1": model("a1", 0)}, [], Rng(1))
    state.phase = "between"
    with pytest.raises(NotImplementedError, match="round_due 'between'"):
        Forgot([Pick, Act]).idle(state, [])
