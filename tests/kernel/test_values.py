"""Value classes (issue 26): built without the frozen-dataclass detour, yet equal, hashed, printed, copied and
pickled as frozen dataclasses are, and (in the suite's strict mode) refusing any change after construction."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from warband.kernel import values
from warband.kernel.actions import Action, Decision, DiceSpec


@dataclasses.dataclass(frozen=True, slots=True)
class _FrozenAction:
    kind: str
    model: str | None = None
    target: str | None = None
    point: tuple[float, float] | None = None
    option: str | None = None


def test_the_suite_runs_strict() -> None:
    assert values.STRICT


def test_an_action_behaves_as_the_frozen_dataclass_it_was() -> None:
    a = Action("shoot", "a1", "b2", (1.5, 2.0), "Rifle")
    f = _FrozenAction("shoot", "a1", "b2", (1.5, 2.0), "Rifle")
    assert hash(a) == hash(f) == hash(("shoot", "a1", "b2", (1.5, 2.0), "Rifle"))
    assert repr(a) == repr(f).replace("_FrozenAction", "Action")
    assert a == Action("shoot", "a1", "b2", (1.5, 2.0), "Rifle")
    assert a != Action("shoot", "a1", "b2", (1.5, 2.0), "Pistol")
    assert a != f  # equality is per class, as a dataclass's
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
    assert dataclasses.replace(a, option="Pistol") == Action("shoot", "a1", "b2", (1.5, 2.0), "Pistol")
    assert [x.name for x in dataclasses.fields(a)] == ["kind", "model", "target", "point", "option"]
    with pytest.raises(TypeError):
        _ = a < a  # type: ignore[operator]  # no ordering, as before


@pytest.mark.parametrize(
    "thing", [Action("move", "a1"), Decision("choice", "action", 0, "a1"), DiceSpec(2, 6, "to hit")]
)
def test_values_refuse_changes(thing: object) -> None:
    name = dataclasses.fields(thing)[0].name  # type: ignore[arg-type]
    before = hash(thing)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(thing, name, "changed")
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(thing, name)
    assert hash(thing) == before


def test_the_guard_refuses_only_a_second_assignment() -> None:
    @values.guard
    @dataclasses.dataclass(slots=True)
    class Pair:
        a: int
        b: int

    p = Pair(1, 2)
    assert (p.a, p.b) == (1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.b = 3
