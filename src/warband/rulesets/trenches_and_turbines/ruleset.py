"""The ``trenches-and-turbines`` ruleset behind the kernel protocol (:class:`TrenchesAndTurbines`, the entry point):
the Actions chapter of Trenches and Turbines (seed 002) plus the PROPOSED core rules of the digest
(``../shared/rules/trenches-and-turbines.md`` §3), all numbers in ``params.toml``; a game's blank state, the result
and each model's fate (digest §3.3), and the faces' hooks (view, text, odds, evaluation)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from warband.kernel.actions import Action
from warband.kernel.context import Rosters
from warband.kernel.geometry.distance import base_radius
from warband.kernel.mission import ActionVocabulary
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.result import Fate, GameResult, ModelFate
from warband.kernel.ruleset import SteppedRuleset, new_state
from warband.kernel.state import GameState, Model
from warband.kernel.steps import SteppedRules
from warband.rulesets.trenches_and_turbines import missions
from warband.rulesets.trenches_and_turbines.actions import ACTIONS
from warband.rulesets.trenches_and_turbines.context import State, build_context
from warband.rulesets.trenches_and_turbines.machine import RULES
from warband.rulesets.trenches_and_turbines.roster import load_roster, unit_specs
from warband.rulesets.trenches_and_turbines.scoring import result_score


class TrenchesAndTurbines(SteppedRuleset):
    """Trenches and Turbines behind the kernel protocol."""

    id: ClassVar[str] = "trenches-and-turbines"
    version: ClassVar[str] = "0.7.0"
    title: ClassVar[str] = "Trenches and Turbines (Actions chapter, seed 002; PROPOSED core rules)"
    rules: ClassVar[SteppedRules[Any]] = RULES
    action_vocabulary: ClassVar[ActionVocabulary | None] = ActionVocabulary(
        kinds=frozenset(ACTIONS), statuses=frozenset(missions.STATUSES), ruleset="trenches-and-turbines"
    )
    faces: ClassVar[Mapping[str, str]] = {
        "explain": "warband.rulesets.trenches_and_turbines.render:explain_action",
        "search_evaluate": "warband.rulesets.trenches_and_turbines.evaluate:search_evaluate",
    }

    def evaluate(self, state: GameState[Any], side: int) -> float:
        """The ``evaluate`` face (``evaluate.py``'s ``evaluate``) called directly, without looking the face up and
        importing its module on every call: a heuristic game asks it tens of thousands of times."""
        from warband.rulesets.trenches_and_turbines.evaluate import evaluate

        return float(evaluate(state, side))

    def evaluate_destinations(self, state: GameState[Any], side: int, actions: Sequence[Action]) -> list[float] | None:
        """``evaluate`` after each destination of the Move or Shift being chosen (a unit's ``to`` / ``stay``
        actions), the unit stood where the rules' plan puts it and no rules run: the heuristic agent's static
        ranking of unit destinations (``evaluate.evaluate_destinations``); None for any other decision."""
        from warband.rulesets.trenches_and_turbines.evaluate import evaluate_destinations

        return evaluate_destinations(state, side, actions)

    def load_roster(self, path: Path) -> dict[str, Any]:
        return load_roster(path).model_dump(mode="json", exclude_none=True)

    def blank(self, params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int) -> State:
        act, cmd = int(params["default_act"]), float(params["default_command"])
        ctx = build_context(
            params, rosters, scenario, (unit_specs(rosters[0], act, cmd), unit_specs(rosters[1], act, cmd))
        )
        p = ctx.params
        models: list[Model] = []
        for uid in ctx.unit_order:
            spec = ctx.units[uid]
            for mid in spec["models"]:
                data = ctx.profiles[mid]
                height = float(p[f"size_height_{data['size']}"])
                models.append(
                    Model(
                        mid,
                        spec["side"],
                        spec["name"],
                        spec["name"],
                        base_radius(data["base_mm"]),
                        height,
                        data,
                        unit=uid,
                    )
                )
        return new_state(ctx, models, ctx.rosters, seed)

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        """One line per unit (its name and models); no points in this game's force files yet."""
        lines = tuple(RosterLine(str(u["name"]), int(u["models"])) for u in roster["units"])
        return RosterSummary(str(roster["name"]), None, sum(x.count for x in lines), len(lines), lines)

    def result(self, state: GameState[Any]) -> GameResult | None:
        if state.phase != "over":
            return None
        score = result_score(state)
        winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
        fates = tuple(model_fate(state, m) for m in state.models.values())
        return GameResult(winner, "victory points", score, state.turn, fates)

    def describe_action(self, state: GameState[Any], action: Action) -> str:
        return missions.describe(state, action)

    def render(self, state: GameState[Any]) -> str:
        from warband.kernel.view_text import render_view
        from warband.rulesets.trenches_and_turbines.render import render_table

        return render_view(self.view(state)) + "\n" + render_table(state)


def model_fate(state: GameState[Any], m: Model) -> ModelFate:
    """A model's fate in kernel terms. ``type`` is its unit's name (the force file's unit entry); ``points`` is 0:
    force files carry no points in this game yet (a unit's points, once they do, are split over its models).
    ``fate`` is ``out`` for a model off the table (``fled`` if the rules flagged it ``fled``: today a unit that
    flees off the table is removed like a casualty, so it reads ``out``); there is no Down state, so a damaged
    model on the table is ``in play`` with its ``damage``. ``kills`` are kept per unit, not per model: the unit's
    count in ``state.vars["unit_kills"]`` (enemy models its shots and fights removed, counted as each ends:
    ``attacks.credit_kills``) is shared out over its models, the first ones taking the remainder."""
    fate: Fate = "in play"
    if not m.on_table:
        fate = "fled" if m.flags.get("fled") else "out"
    kills = 0
    if m.unit is not None:
        unit_kills = int(state.vars.get("unit_kills", {}).get(m.unit, 0))
        members = sorted(mid for mid, other in state.models.items() if other.unit == m.unit)
        share, extra = divmod(unit_kills, len(members))
        kills = share + (1 if members.index(m.id) < extra else 0)
    return ModelFate(m.id, m.side, m.name, m.name, 0, m.unit, fate, kills, m.token("damage"))


__all__ = ["TrenchesAndTurbines", "model_fate"]
