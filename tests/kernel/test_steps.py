"""The kernel's step machine: typed step records declared once per kind, their JSON, and the generic protocol."""

from __future__ import annotations

from typing import Any

import pytest

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import Event, Note
from warband.kernel.records import Record, StepError, step_to_json
from warband.kernel.rng import Rng
from warband.kernel.state import GameState
from warband.kernel.steps import Auto, Chance, Choice, SteppedRules, pop, push

State = GameState[dict[str, Any]]


@values.value
class Pair(Record):
    a: int
    b: float


@values.value
class Pick(Choice[State]):
    kind = "pick"
    rules = "toy"
    by: int
    labels: tuple[str, ...]
    pair: Pair | None = None

    def player(self, state: State) -> int:
        return self.by

    def options(self, state: State) -> list[Action]:
        return [Action("pick", option=x) for x in self.labels]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        state.vars["picked"] = [*state.vars.get("picked", []), action.option]


@values.value
class Roll(Chance[State]):
    kind = "roll"
    rules = "toy"
    n: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, 6, "toy roll")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        state.vars["rolled"] = list(values)
        push(state, Pick(0 if sum(values) % 2 else 1, ("x", "y")))


@values.value
class Say(Auto[State]):
    kind = "say"
    rules = "toy"
    text: str

    def run(self, state: State, events: list[Event]) -> None:
        events.append(Note(self.text, "toy/say"))


class Toy(SteppedRules[State]):
    def start_game(self, state: State, events: list[Event]) -> None:
        state.phase = "play"
        push(state, Roll(2))
        push(state, Say("hello"))

    def idle(self, state: State, events: list[Event]) -> bool:
        state.phase = "over"
        return True


def fresh() -> tuple[Toy, State]:
    rules = Toy([Pick, Roll, Say])
    state: State = GameState({}, {}, [], Rng(1))
    events: list[Event] = []
    rules.start_game(state, events)
    rules.run_auto(state, events)
    assert [type(e) for e in events] == [Note]
    return rules, state


def test_the_machine_runs_auto_steps_then_asks_chance_then_the_player_it_names() -> None:
    rules, state = fresh()
    d = rules.decision(state)
    assert (d.kind, d.prompt, d.dice) == ("chance", "roll", DiceSpec(2, 6, "toy roll"))
    rules.roll(state, (2, 3))  # odd: side 0 picks
    d = rules.decision(state)
    assert (d.kind, d.prompt, d.player) == ("choice", "pick", 0)
    assert rules.legal_actions(state) == [Action("pick", option="x"), Action("pick", option="y")]
    assert rules.why_illegal(state, Action("pick", option="z")) == [
        (
            "toy/pick/choice",
            "now side A decides 'pick': 'pick [z]' is not among the 'pick' choices: 'pick [x]', 'pick [y]'",
        )
    ]
    rules.apply(state, Action("pick", option="y"))
    assert state.vars["picked"] == ["y"]
    assert rules.decision(state).kind == "over"  # idle ended the game once nothing was pending


def test_steps_round_trip_through_json_with_their_field_names() -> None:
    rules = Toy([Pick, Roll, Say])
    step = Pick(1, ("a", "b"), Pair(3, 2.5))
    data = step_to_json(step)
    assert data == {"step": "pick", "by": 1, "labels": ["a", "b"], "pair": {"a": 3, "b": 2.5}}
    assert rules.decode_step(data) == step
    assert rules.decode_step({"step": "pick", "by": 1, "labels": []}) == Pick(1, ())  # defaults fill in
    assert rules.decode_step({"step": "roll", "n": 2}) == Roll(2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"step": "dance"}, "unknown step kind 'dance'"),
        ({"kind": "pick"}, "expected an object with a 'step' kind"),
        ({"step": "pick", "labels": []}, "stack.by: missing"),
        ({"step": "pick", "by": "1", "labels": []}, "stack.by: expected int"),
        ({"step": "pick", "by": True, "labels": []}, "stack.by: expected int"),
        ({"step": "pick", "by": 1, "labels": [1]}, "stack.labels[0]: expected str"),
        ({"step": "pick", "by": 1, "labels": [], "pair": {"a": 1}}, "stack.pair"),
        ({"step": "pick", "by": 1, "labels": [], "colour": "red"}, "unknown field(s) colour"),
        ("pick", "expected an object"),
    ],
)
def test_a_malformed_step_names_the_place_and_the_problem(data: object, message: str) -> None:
    rules = Toy([Pick, Roll, Say])
    with pytest.raises(
        StepError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")
    ):
        rules.decode_step(data)


def test_a_kind_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Toy([Pick, Pick])


def test_the_stack_is_replaced_not_mutated_so_clones_share_it_safely() -> None:
    _, state = fresh()
    other = state.clone()
    push(state, Say("x"))
    assert len(other.stack) == len(state.stack) - 1
    assert pop(state) == Say("x")
    assert state.to_json()["stack"] == [{"step": "roll", "n": 2}]
