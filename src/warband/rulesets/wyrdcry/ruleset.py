"""The ``wyrdcry`` ruleset behind the kernel protocol (seed 003 combat phase; digests wyrdcry.md, wyrdcry-data.md):
the :class:`Wyrdcry` class, registered as the entry point ``wyrdcry``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from warband.kernel.context import Rosters
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.result import fate_by_order
from warband.kernel.ruleset import GameResult, SteppedRuleset, new_state
from warband.kernel.state import GameState, Model
from warband.kernel.steps import SteppedRules
from warband.rulesets.wyrdcry.round import RULES


class Wyrdcry(SteppedRuleset):
    """Wyrdcry behind the kernel protocol."""

    id: ClassVar[str] = "wyrdcry"
    version: ClassVar[str] = "0.4.0"
    title: ClassVar[str] = "Wyrdcry (seed 003 combat phase, Notion initiative and morale)"
    rules: ClassVar[SteppedRules[Any]] = RULES
    faces: ClassVar[Mapping[str, str]] = {
        "render": "warband.rulesets.wyrdcry.render:render",
        "explain": "warband.rulesets.wyrdcry.render:explain",
    }

    def load_scenario(self, path: Path) -> dict[str, Any]:
        """The kernel's scenario format, then Wyrdcry's own ``rules`` options (``scenario.py``)."""
        from warband.rulesets.wyrdcry.scenario import check_options

        doc = super().load_scenario(path)
        check_options(path, doc)
        return doc

    def load_roster(self, path: Path) -> dict[str, Any]:
        from warband.rulesets.wyrdcry.roster import load_warband

        return load_warband(path).model_dump(mode="json", exclude_none=True)

    def roster_points(self, roster: dict[str, Any]) -> int | None:
        from warband.rulesets.wyrdcry.roster import Warband, warband_points

        return warband_points(Warband.model_validate(roster))

    def blank(self, params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int) -> GameState[Any]:
        from warband.rulesets.wyrdcry.core import build_context

        ctx, cards = build_context(params, rosters, scenario, seed)
        radius, height = float(params["base_radius"]), float(params["model_height"])
        models = [
            Model(mid, side, card["name"], card["type"], radius, height, card)
            for side in (0, 1)
            for mid, card in zip(ctx.order[side], cards[side], strict=True)
        ]
        return new_state(ctx, models, rosters, seed)

    def result(self, state: GameState[Any]) -> GameResult | None:
        if state.phase != "over":
            return None
        from warband.rulesets.wyrdcry.scenario import score

        points = _fighter_points(state.ctx.rosters)
        models = tuple(
            fate_by_order(
                m, state.ctx.order, points, "out" if m.flags.get("status") == "out" else "in play", m.token("damage")
            )
            for m in state.models.values()
        )
        return GameResult(state.vars.get("winner"), str(state.vars.get("reason", "")), score(state), state.turn, models)

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        """One line per fighter entry (its name, count and gold coins for all of them); no units."""
        from warband.rulesets.wyrdcry.roster import Warband, fighter_points, load_data

        w = Warband.model_validate(roster)
        data = load_data()
        faction = data.factions.get(w.faction)
        lines = tuple(
            RosterLine(
                f.name or f.type, f.count, fighter_points(f, faction, w.options, data) * f.count if faction else None
            )
            for f in w.fighters
        )
        total = self.roster_points(roster)
        return RosterSummary(w.name, total, sum(f.count for f in w.fighters), None, lines, points_limit=w.points_limit)


__all__ = ["Wyrdcry"]


def _fighter_points(rosters: tuple[dict[str, Any], dict[str, Any]]) -> list[list[int]]:
    """Each fighter's gold coins, side by side in card order (``count`` expanded), for the lab's per-model
    statistics (data §5 prices, via the roster's own arithmetic)."""
    from warband.rulesets.wyrdcry.roster import Warband, fighter_points, load_data

    data = load_data()
    out: list[list[int]] = []
    for doc in rosters:
        w = Warband.model_validate(doc)
        faction = data.factions.get(w.faction)
        if faction is None:
            out.append([])
            continue
        out.append([fighter_points(f, faction, w.options, data) for f in w.fighters for _ in range(f.count)])
    return out
