"""The ``trench-crusade`` ruleset behind the kernel protocol: :class:`TrenchCrusade`, registered under the entry
point group ``warband.rulesets``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from warband.kernel.actions import Action
from warband.kernel.builder import ListBuilder
from warband.kernel.geometry.distance import base_radius
from warband.kernel.offers import OddsCommand, RosterSummary
from warband.kernel.params import ParamTable
from warband.kernel.rng import Rng
from warband.kernel.ruleset import GameResult, SteppedRuleset
from warband.kernel.state import GameState, Model, SideState
from warband.kernel.steps import SteppedRules
from warband.rulesets.trench_crusade import scenario, turn
from warband.rulesets.trench_crusade.context import Context, build_context, model_height
from warband.rulesets.trench_crusade.render import explain_action, render_table
from warband.rulesets.trench_crusade.roster import (
    TCRoster,
    describe_roster,
    load_roster,
    model_specs,
    roster_points,
    unmodelled,
)

_HERE = Path(__file__).parent


class TrenchCrusade(SteppedRuleset):
    """Trench Crusade behind the kernel protocol."""

    id: ClassVar[str] = "trench-crusade"
    version: ClassVar[str] = "1.2.0"
    title: ClassVar[str] = "Trench Crusade (v1.0 activation rules, seed 000)"
    params: ClassVar[ParamTable] = ParamTable.load(_HERE / "params.toml")
    rules: ClassVar[SteppedRules[Any]] = turn.RULES

    def data_dir(self) -> Path:
        return _HERE / "data"

    def load_roster(self, path: Path) -> dict[str, Any]:
        return load_roster(path).model_dump(mode="json", exclude_none=True)

    def roster_points(self, roster: dict[str, Any]) -> int | None:
        return roster_points(TCRoster.model_validate(roster))

    def _context(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
    ) -> Context:
        specs = (model_specs(TCRoster.model_validate(rosters[0])), model_specs(TCRoster.model_validate(rosters[1])))
        return build_context(params, rosters, scenario, seed, specs)

    def blank(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
    ) -> GameState[Context]:
        ctx = self._context(params, rosters, scenario, seed)
        models: dict[str, Model] = {}
        for side in (0, 1):
            for mid in ctx.order[side]:
                spec = ctx.specs[mid]
                models[mid] = Model(
                    mid,
                    side,
                    spec["name"],
                    spec["type"],
                    base_radius(spec["base_mm"]),
                    model_height(ctx, spec["base_mm"]),
                    spec["data"],
                )
        sides = [SideState(str(ctx.rosters[s].get("name", f"side {'AB'[s]}"))) for s in (0, 1)]
        return GameState(ctx, models, sides, Rng(seed))

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        return describe_roster(TCRoster.model_validate(roster))

    def unmodelled(self, roster: dict[str, Any]) -> list[str]:
        return unmodelled(TCRoster.model_validate(roster))

    def list_builder(self) -> ListBuilder:
        from warband.rulesets.trench_crusade.builder import TCListBuilder

        return TCListBuilder()

    def odds_commands(self) -> tuple[OddsCommand, ...]:
        from warband.rulesets.trench_crusade.odds import ODDS_COMMANDS

        return ODDS_COMMANDS

    def result(self, state: GameState[Any]) -> GameResult | None:
        return scenario.result(state)

    def evaluate(self, state: GameState[Any], side: int) -> float:
        from warband.rulesets.trench_crusade.evaluate import evaluate

        return evaluate(state, side)

    def evaluate_points(
        self, state: GameState[Any], side: int, model_id: str, points: Sequence[tuple[float, float]]
    ) -> list[float]:
        """``evaluate`` with the model standing at each point in turn, computed incrementally (the heuristic
        agent's ranking of destinations); the same values as moving the model and calling ``evaluate``."""
        from warband.rulesets.trench_crusade.evaluate import evaluate_points

        return evaluate_points(state, side, model_id, points)

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        from warband.rulesets.trench_crusade.view import view

        return view(state)

    def render(self, state: GameState[Any]) -> str:
        return render_table(state)

    def explain(self, state: GameState[Any], action: Action) -> str:
        return explain_action(state, action)
