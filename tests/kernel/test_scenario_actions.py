"""Scenario actions (``actions:`` in a scenario file): the schema, its cross-checks and the ruleset vocabulary.

Every bad file names the file and the place of each problem, all problems at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from warband.kernel import ruleset as registry
from warband.kernel.errors import ScenarioError
from warband.kernel.mission import EFFECT_KINDS, REQUIREMENT_KINDS, ActionVocabulary
from warband.kernel.scenario import load_scenario

VOCAB = ActionVocabulary(
    kinds=frozenset({"move", "shoot", "charge", "mission"}), statuses=frozenset({"pinned", "routed", "prone"})
)


def secure() -> dict[str, Any]:
    return {
        "id": "secure-intel",
        "name": "Secure the Intel",
        "text": "Within 1 inch of a cache: score 2 VP, remove it; no Shoot afterwards.",
        "requires": [
            {"kind": "near-objective", "objectives": ["o"], "within": 1},
            {"kind": "no-enemy-within", "within": 1},
            {"kind": "unit-is-not", "statuses": ["pinned", "routed"]},
        ],
        "limits": [{"per": "activation"}],
        "effects": [{"kind": "score", "vp": 2}, {"kind": "remove-objective"}],
        "forbids": ["shoot"],
    }


def every_kind() -> dict[str, Any]:
    return {
        "id": "plant-beacon",
        "name": "Plant the Beacon",
        "text": "In the enemy zone, prone, not having moved, from turn 2: place the beacon and claim it.",
        "cost": 2,
        "requires": [
            {"kind": "in-zone", "zone": "enemy", "models": "all"},
            {"kind": "unit-is", "statuses": ["prone"]},
            {"kind": "not-done", "actions": ["move", "secure-intel"]},
            {"kind": "turn", "first": 2, "last": 4},
        ],
        "limits": [{"per": "game", "scope": "side", "times": 1}, {"per": "turn", "times": 2}],
        "effects": [
            {"kind": "place-objective", "objective": "beacon"},
            {"kind": "claim", "objective": "beacon"},
            {"kind": "end-activation"},
        ],
        "forbids": ["charge", "mission"],
    }


def doc() -> dict[str, Any]:
    return {
        "name": "Test",
        "ruleset": "test-game",
        "table": {"width": 36, "depth": 36},
        "turns": 4,
        "deployment": [
            {"side": 0, "polygon": [[0, 0], [36, 0], [36, 6], [0, 6]]},
            {"side": 1, "polygon": [[0, 30], [36, 30], [36, 36], [0, 36]]},
        ],
        "objectives": [
            {"id": "o", "at": [18, 18]},
            {"id": "beacon", "at": [0, 0], "vp": 3, "on_table": False},
        ],
        "actions": [secure(), every_kind()],
    }


def write(tmp_path: Path, d: Any, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(d) if name.endswith(".json") else yaml.safe_dump(d), encoding="utf-8")
    return p


def problems(tmp_path: Path, d: Any, vocabulary: ActionVocabulary | None = None) -> dict[str, str]:
    path = write(tmp_path, d)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path, vocabulary)
    assert all(p.file == str(path) for p in exc.value.problems)
    return {p.place: p.message for p in exc.value.problems}


def test_every_requirement_and_effect_kind_loads_with_defaults(tmp_path: Path) -> None:
    scn = load_scenario(write(tmp_path, doc()), VOCAB)
    kinds = {r.kind for a in scn.actions for r in a.requires}
    effects = {e.kind for a in scn.actions for e in a.effects}
    assert kinds == set(REQUIREMENT_KINDS)
    assert effects == set(EFFECT_KINDS)
    dumped = scn.model_dump(mode="json")
    assert dumped["actions"][0]["cost"] == 1  # the default cost
    assert dumped["actions"][0]["limits"] == [
        {"per": "activation", "scope": "unit", "times": 1, "each_objective": False}
    ]
    assert dumped["objectives"][0]["on_table"] is True
    assert load_scenario(write(tmp_path, dumped, "again.json"), VOCAB).actions == scn.actions


def test_scenario_without_actions_still_loads(tmp_path: Path) -> None:
    d = doc()
    del d["actions"]
    d["objectives"] = d["objectives"][:1]
    assert load_scenario(write(tmp_path, d)).actions == []


def test_unknown_requirement_and_effect_kinds_name_their_place(tmp_path: Path) -> None:
    d = doc()
    d["actions"][0]["requires"][1] = {"kind": "within-enemy", "within": 1}
    d["actions"][0]["effects"][0] = {"kind": "win-game"}
    d["actions"][1]["requires"][0] = {"zone": "own"}
    got = problems(tmp_path, d)
    assert set(got) == {"actions[0].requires[1]", "actions[0].effects[0]", "actions[1].requires[0]"}
    assert "'within-enemy'" in got["actions[0].requires[1]"] and "near-objective" in got["actions[0].requires[1]"]
    assert "'win-game'" in got["actions[0].effects[0]"] and "remove-objective" in got["actions[0].effects[0]"]
    assert "'kind'" in got["actions[1].requires[0]"]


def test_bad_fields_are_placed_without_the_union_tag(tmp_path: Path) -> None:
    d = doc()
    d["actions"][0]["requires"][0]["within"] = -1
    d["actions"][0]["effects"][0]["vp"] = 0
    d["actions"][0]["cost"] = -1
    d["actions"][0]["id"] = "Secure Intel"
    d["actions"][1]["requires"][3] = {"kind": "turn", "first": 3, "last": 2}
    d["actions"][1]["limits"][0]["per"] = "week"
    d["actions"][1]["bonus"] = 1
    got = problems(tmp_path, d)
    assert set(got) >= {
        "actions[0].requires[0].within",
        "actions[0].effects[0].vp",
        "actions[0].cost",
        "actions[0].id",
        "actions[1].requires[3]",
        "actions[1].limits[0].per",
        "actions[1].bonus",
    }
    assert "slug" in got["actions[0].id"] and "'Secure Intel'" in got["actions[0].id"]
    assert "last >= first" in got["actions[1].requires[3]"]


def test_references_to_missing_objectives_are_errors(tmp_path: Path) -> None:
    d = doc()
    d["actions"][0]["requires"][0]["objectives"] = ["o", "cache-9"]
    d["actions"][1]["effects"][1]["objective"] = "becon"
    got = problems(tmp_path, d)
    assert set(got) == {"actions[0].requires[0].objectives[1]", "actions[1].effects[1].objective"}
    assert (
        "'cache-9'" in got["actions[0].requires[0].objectives[1]"]
        and "beacon, o" in got["actions[1].effects[1].objective"]
    )


def test_cross_checks_of_actions(tmp_path: Path) -> None:
    d = doc()
    d["actions"].append({**secure(), "name": "again"})  # the same id
    d["actions"][0]["requires"].append({"kind": "near-objective"})  # a second target
    d["actions"][1]["effects"].append({"kind": "remove-objective"})  # no target objective to remove
    d["actions"][1]["limits"].append({"per": "game", "each_objective": True})  # no objective to count by
    d["objectives"].append({"id": "stash", "at": [5, 5], "on_table": False})  # nothing ever places it
    d["objectives"][0]["id"] = "o 1"  # a target must be one word of the notation
    d["actions"][0]["requires"][0]["objectives"] = ["o 1"]
    d["actions"][2]["requires"][0]["objectives"] = ["o 1"]
    got = problems(tmp_path, d)
    assert set(got) == {
        "actions[2].id",
        "actions[0].requires[3]",
        "actions[1].effects[3]",
        "actions[1].limits[2].each_objective",
        "objectives[2].on_table",
        "objectives[0].id",
    }
    assert "unique" in got["actions[2].id"]
    assert "at most one near-objective" in got["actions[0].requires[3]"]
    assert "'stash'" in got["objectives[2].on_table"]


def test_vocabulary_checks_kinds_statuses_and_ids(tmp_path: Path) -> None:
    d = doc()
    d["actions"][0]["forbids"] = ["shoot", "dance"]
    d["actions"][0]["requires"][2]["statuses"] = ["pinned", "sleepy"]
    d["actions"][1]["requires"][2]["actions"] = ["move", "secure"]
    got = problems(tmp_path, d, VOCAB)
    assert set(got) == {
        "actions[0].forbids[1]",
        "actions[0].requires[2].statuses[1]",
        "actions[1].requires[2].actions[1]",
    }
    assert "'dance'" in got["actions[0].forbids[1]"] and "secure-intel" in got["actions[0].forbids[1]"]
    assert "'sleepy'" in got["actions[0].requires[2].statuses[1]"]
    clash = doc()
    clash["actions"][0]["id"] = "shoot"
    clash["actions"][1]["requires"][2]["actions"] = ["move"]
    assert set(problems(tmp_path, clash, VOCAB)) == {"actions[0].id"}
    assert load_scenario(write(tmp_path, d)).actions  # no vocabulary: names are not checked


def test_a_ruleset_without_scenario_actions_refuses_them(tmp_path: Path) -> None:
    rs = registry.get("trench-crusade")
    assert rs.action_vocabulary is None
    with pytest.raises(ScenarioError) as exc:
        rs.load_scenario(write(tmp_path, {**doc(), "ruleset": "trench-crusade"}))
    (p,) = exc.value.problems
    assert p.place == "actions" and "'trench-crusade'" in p.message


def test_action_problems_are_reported_with_the_other_problems(tmp_path: Path) -> None:
    d = doc()
    d["turns"] = "four"
    d["actions"][0]["requires"][0]["objectives"] = ["nowhere"]
    d["actions"][1]["effects"][0] = {"kind": "explode"}
    got = problems(tmp_path, d, VOCAB)
    assert {"turns", "actions[1].effects[0]", "actions[0].requires[0].objectives[0]"} <= set(got)
