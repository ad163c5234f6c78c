"""What a declaration says once or takes from convention (issue 27: one line per step, no header every ruleset
repeats): a step declares its identity as class keywords (``kind=``, ``about=``, ``prompt=``, ``label=``,
``rules=``) and a step of a shipped ruleset takes its ``rules`` from the package it is declared in; a ruleset
package's ``params.toml`` and modules of the faces' names are its parameters and faces."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest

from warband.kernel import ruleset as kernel_ruleset
from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import Event
from warband.kernel.params import ParamTable
from warband.kernel.records import Step, decode_record, ruleset_of_module, step_to_json
from warband.kernel.state import GameState
from warband.kernel.steps import Choice, ModelDecision, OneDie
from warband.rulesets.example import Example

State = GameState[dict[str, Any]]


@values.value
class Pick(Choice[State], kind="pick", about="model", prompt="pick one", rules="toy"):
    """A choice declared with every keyword."""

    model: str
    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("pick", self.model)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        return None


@values.value
class Luck(OneDie[State], kind="luck", label="luck die"):
    """A die declared with keywords and no ``rules=``: a step outside a ruleset's package keeps ``"kernel"``."""

    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        return None


@values.value
class Again(Pick):
    """A subclass without keywords inherits its parent's identity."""


def test_class_keywords_set_the_identity_of_a_slotted_frozen_step() -> None:
    assert (Pick.kind, Pick.about, Pick.prompt, Pick.rules) == ("pick", "model", "pick one", "toy")
    assert (Luck.kind, Luck.label, Luck.rules, Luck.prompt) == ("luck", "luck die", "kernel", "")
    assert (Again.kind, Again.about, Again.rules) == ("pick", "model", "toy")
    step = Pick("a1", 0)
    assert not hasattr(step, "__dict__")  # still slotted: the keywords survive the dataclass's second class
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.model = "b1"  # type: ignore[misc]
    assert step.subject() == "a1"
    assert Luck("a2").dice(None) == DiceSpec(1, 6, "luck die", "a2")  # type: ignore[arg-type]
    assert [f.name for f in dataclasses.fields(Pick)] == ["model", "by"]  # keywords are not fields
    assert step_to_json(step) == {"step": "pick", "model": "a1", "by": 0}
    assert decode_record(Pick, {"step": "pick", "model": "a1", "by": 0}, "stack") == step


def test_ruleset_of_module_follows_the_package_name() -> None:
    assert ruleset_of_module("warband.rulesets.trench_crusade.attacks") == "trench-crusade"
    assert ruleset_of_module("warband.rulesets.example") == "example"
    assert ruleset_of_module("warband.kernel.setup") is None
    assert ruleset_of_module("tests.kernel.test_step_keywords") is None


@pytest.mark.parametrize("rid", ["example", *sorted(kernel_ruleset.available())])
def test_every_step_of_a_ruleset_prefixes_its_refusals_with_the_ruleset_id(rid: str) -> None:
    cls = Example if rid == "example" else kernel_ruleset.available()[rid]
    assert issubclass(cls, kernel_ruleset.SteppedRuleset)
    kinds: dict[str, type[Step]] = dict(cls.rules.kinds)
    assert kinds
    for kind, step in kinds.items():
        assert step.kind == kind
        if step.__module__.startswith("warband.rulesets."):
            assert step.rules == cls.id, (kind, step.__qualname__)


@pytest.mark.parametrize("rid", ["example", *sorted(kernel_ruleset.available())])
def test_a_ruleset_package_gives_its_params_and_faces_by_file_name(rid: str) -> None:
    cls = Example if rid == "example" else kernel_ruleset.available()[rid]
    here = Path(inspect.getfile(cls)).parent
    assert cls.params.specs == ParamTable.load(here / "params.toml").specs
    rs = cls()
    for hook, where in kernel_ruleset.PACKAGE_FACES.items():
        module = where.partition(":")[0]
        if (here / f"{module}.py").is_file():
            assert hook in cls.faces, (rid, hook)
        if hook in cls.faces:
            assert rs.face(hook) is not None, (rid, hook)  # every face it names resolves


class Plain(kernel_ruleset.Ruleset):
    """A ruleset declared outside a ruleset package (no ``params.toml`` beside it): it says everything itself."""

    id = "plain"
    version = "0"
    title = "plain"
    params = ParamTable([])
    faces: ClassVar[Mapping[str, str]] = {"render": "warband.rulesets.example.rules:build"}


def test_a_class_outside_a_ruleset_package_keeps_only_what_it_says() -> None:
    assert dict(Plain.faces) == {"render": "warband.rulesets.example.rules:build"}
    assert Plain.params.specs == {}


@values.value
class Gift(ModelDecision[State], kind="gift"):
    """A decision about one model with a field of its own after the shared head."""

    size: int = 1

    def options(self, state: State) -> list[Action]:
        return [Action("gift", self.model, option=str(self.size))]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        return None


def test_a_model_decision_starts_with_model_and_by() -> None:
    step = Gift("a1", 1, 3)
    assert [f.name for f in dataclasses.fields(Gift)] == ["model", "by", "size"]
    assert (Gift.about, step.subject(), step.player(None)) == ("model", "a1", 1)  # type: ignore[arg-type]
    assert step_to_json(step) == {"step": "gift", "model": "a1", "by": 1, "size": 3}
    assert not hasattr(step, "__dict__")


def test_a_class_made_where_no_file_is_keeps_only_what_it_says() -> None:
    made = cast(type[Plain], type("Made", (Plain,), {"__module__": "no.such.module"}))
    assert dict(made.faces) == dict(Plain.faces)
    assert made.params is Plain.params
