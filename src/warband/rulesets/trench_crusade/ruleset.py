"""The ``trench-crusade`` ruleset behind the kernel protocol: :class:`TrenchCrusade`, registered under the entry
point group ``warband.rulesets``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pydantic

from warband.kernel.builder import ListBuilder
from warband.kernel.context import Rosters
from warband.kernel.errors import Problem
from warband.kernel.geometry.distance import base_radius
from warband.kernel.offers import RosterSummary
from warband.kernel.roster import problems_from_validation
from warband.kernel.ruleset import GameResult, SteppedRuleset, new_state
from warband.kernel.state import GameState, Model
from warband.kernel.steps import SteppedRules
from warband.rulesets.trench_crusade import scenario, turn
from warband.rulesets.trench_crusade.activation import pair_fireteams
from warband.rulesets.trench_crusade.context import Context, build_context, model_height
from warband.rulesets.trench_crusade.mines import check_mines, lay_mines
from warband.rulesets.trench_crusade.roster import (
    TCRoster,
    describe_roster,
    load_roster,
    model_specs,
    roster_points,
    unmodelled,
)
from warband.rulesets.trench_crusade.wheel import strap


class TrenchCrusade(SteppedRuleset):
    """Trench Crusade behind the kernel protocol."""

    id: ClassVar[str] = "trench-crusade"
    version: ClassVar[str] = "1.3.1"
    title: ClassVar[str] = "Trench Crusade (v1.0 activation rules, seed 000)"
    rules: ClassVar[SteppedRules[Any]] = turn.RULES
    faces: ClassVar[Mapping[str, str]] = {
        "holder": "warband.rulesets.trench_crusade.scenario:controller",
        "render": "warband.rulesets.trench_crusade.render:render_table",
        "explain": "warband.rulesets.trench_crusade.render:explain_action",
    }

    def load_roster(self, path: Path) -> dict[str, Any]:
        return load_roster(path).model_dump(mode="json", exclude_none=True)

    def roster_points(self, roster: dict[str, Any]) -> int | None:
        return roster_points(TCRoster.model_validate(roster))

    def stored_roster_problems(self, file: str, roster: dict[str, Any]) -> list[Problem]:
        """A stored warband holds its catalogue models written out: it is checked as a :class:`TCRoster` (every
        number in its range, every field known), each problem with its place."""
        try:
            TCRoster.model_validate(roster)
        except pydantic.ValidationError as exc:
            return problems_from_validation(file, exc)
        return []

    def blank(
        self, params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int
    ) -> GameState[Context]:
        specs = (model_specs(TCRoster.model_validate(rosters[0])), model_specs(TCRoster.model_validate(rosters[1])))
        ctx = build_context(params, rosters, scenario, seed, specs)
        models = [
            Model(
                mid,
                side,
                spec["name"],
                spec["type"],
                base_radius(spec["base_mm"]),
                model_height(ctx, spec["base_mm"]),
                spec["data"],
            )
            for side in (0, 1)
            for mid in ctx.order[side]
            for spec in [ctx.specs[mid]]
        ]
        pair_fireteams(models)
        strap(models)  # Broken on the Wheel
        state = new_state(ctx, models, ctx.rosters, seed)
        lay_mines(state, scenario)
        return state

    def load_scenario(self, path: Path) -> dict[str, Any]:
        """The kernel's scenario format, then the mines its ``rules`` may lay (``mines.py``)."""
        doc = super().load_scenario(path)
        check_mines(path, doc)
        return doc

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        return describe_roster(TCRoster.model_validate(roster))

    def unmodelled(self, roster: dict[str, Any]) -> list[str]:
        return unmodelled(TCRoster.model_validate(roster))

    def list_builder(self) -> ListBuilder:
        from warband.rulesets.trench_crusade.builder import TCListBuilder

        return TCListBuilder()

    def result(self, state: GameState[Any]) -> GameResult | None:
        return scenario.result(state)

    def evaluate(self, state: GameState[Any], side: int) -> float:
        """The ``evaluate`` face (``evaluate.py``'s ``evaluate``, as :meth:`Ruleset.evaluate` finds it), without
        looking the face up and importing its module on every call: a heuristic game asks it thousands of times."""
        return float(_evaluation().evaluate(state, side))

    def evaluate_points(
        self, state: GameState[Any], side: int, model_id: str, points: Sequence[tuple[float, float]]
    ) -> list[float]:
        """``evaluate`` with the model standing at each point in turn, computed incrementally (the heuristic
        agent's ranking of destinations); the same values as moving the model and calling ``evaluate``."""
        values: list[float] = _evaluation().evaluate_points(state, side, model_id, points)
        return values


_EVALUATION: list[ModuleType] = []


def _evaluation() -> ModuleType:
    """The evaluation module, imported on first use (a game without an agent that evaluates never loads it)."""
    if not _EVALUATION:
        _EVALUATION.append(importlib.import_module("warband.rulesets.trench_crusade.evaluate"))
    return _EVALUATION[0]
