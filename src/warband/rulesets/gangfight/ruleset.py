"""The ``gangfight`` ruleset behind the kernel protocol (seed 004): the :class:`Gangfight` Ruleset class, its
parties turned into model profiles, and a game's result. The rules it runs are :data:`.machine.RULES`; the
package's ``__init__`` says where each part of the rules lives.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from warband.kernel.context import Rosters
from warband.kernel.mission import ActionVocabulary
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.result import fate_by_order
from warband.kernel.ruleset import GameResult, SteppedRuleset, new_state
from warband.kernel.state import GameState, Model
from warband.kernel.steps import SteppedRules
from warband.rulesets.gangfight import DATA_DIR
from warband.rulesets.gangfight.core import State, build_context, en, stat
from warband.rulesets.gangfight.machine import RULES
from warband.rulesets.gangfight.roster import (
    GFParty,
    effective_profile,
    load_armoury,
    load_party,
    model_points,
    party_points,
    resolve_model,
)
from warband.rulesets.gangfight.scenario import winner_of
from warband.rulesets.gangfight.terrain import load_gangfight_scenario

VOCABULARY = ActionVocabulary(
    kinds=frozenset({"move", "run", "charge", "fight", "power", "finesse", "slam", "fire", "reload", "standup"}),
    statuses=frozenset(),
    supported=True,
    ruleset="gangfight",
)


def model_specs(party: GFParty, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One static profile per model of the party (``count`` expanded): what the rules read from ``Model.data``."""
    arm = load_armoury()
    out: list[dict[str, Any]] = []
    for entry in party.models:
        r = resolve_model(entry)
        if r is None:  # pragma: no cover - load_party refused it already
            continue
        prof = effective_profile(r, params)
        melee: list[dict[str, Any]] = []
        ranged: list[dict[str, Any]] = []
        for name in entry.weapons:
            w = arm.weapon(name)
            if w is None:
                continue
            d = w.model_dump(mode="json")
            if "range" in d:
                same = next((x for x in ranged if x["name"] == name), None)
                if same is not None:
                    same["count"] = int(same.get("count", 1)) + 1
                    continue
                d["count"] = 1
                ranged.append(d)
            elif all(x["name"] != name for x in melee):
                melee.append(d)
        free = arm.free_melee()
        if not any(x.get("natural") or x["name"] == free.name for x in melee):
            # data digest §2 [P]: every model also carries its free hand weapon (a bow-only model fights with it)
            melee.append(free.model_dump(mode="json"))
        for i in range(entry.count):
            label = entry.display_name if entry.count == 1 else f"{entry.display_name} {i + 1}"
            out.append(
                {
                    "name": label,
                    "type": entry.type,
                    "rank": r.rank,
                    "size": r.size,
                    "points": model_points(r, arm, params),
                    "leader": bool(entry.leader),
                    "profile": prof.model_dump(mode="json"),
                    "melee": [dict(x) for x in melee],
                    "ranged": [dict(x) for x in ranged],
                }
            )
    return out


class Gangfight(SteppedRuleset):
    """Gangfight (seed 004) on the kernel's step machine."""

    id: ClassVar[str] = "gangfight"
    version: ClassVar[str] = "0.3.0"
    title: ClassVar[str] = "Gangfight (seed 004: AP, interrupts, banding)"
    rules: ClassVar[SteppedRules[Any]] = RULES
    action_vocabulary: ClassVar[ActionVocabulary | None] = VOCABULARY
    #: a model hit past 0 EN keeps the deficit (digest gangfight.md, Melee: EN <= 0 is incapacitated)
    signed_tokens: ClassVar[frozenset[str]] = frozenset({"en"})
    faces: ClassVar[Mapping[str, str]] = {
        "render": "warband.rulesets.gangfight.render:render_table",
        "explain": "warband.rulesets.gangfight.render:explain_action",
    }

    def data_dir(self) -> Path:
        return DATA_DIR

    def samples(self) -> dict[str, list[dict[str, str]]]:
        """Party files live in ``data/parties`` (the kernel's name for them is ``warbands``)."""
        out: dict[str, list[dict[str, str]]] = {}
        for kind, folder in (("warbands", "parties"), ("scenarios", "scenarios")):
            out[kind] = [
                {"name": self.sample_name(p), "path": str(p)} for p in sorted((DATA_DIR / folder).glob("*.y*ml"))
            ]
        return out

    def load_roster(self, path: Path) -> dict[str, Any]:
        return load_party(path).model_dump(mode="json", exclude_none=True)

    def load_scenario(self, path: Path) -> dict[str, Any]:
        load_gangfight_scenario(path)  # density and ladder options, every problem at once
        return super().load_scenario(path)

    def roster_points(self, roster: dict[str, Any]) -> int | None:
        return party_points(GFParty.model_validate(roster))

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        """One line per model entry (its name, count and points for all of them); no units in this game."""
        party = GFParty.model_validate(roster)
        lines = []
        for entry in party.models:
            r = resolve_model(entry)
            lines.append(RosterLine(entry.display_name, entry.count, model_points(r) * entry.count if r else 0))
        models = sum(e.count for e in party.models)
        return RosterSummary(party.name, self.roster_points(roster), models, None, tuple(lines))

    def blank(self, params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int) -> State:
        specs = (
            model_specs(GFParty.model_validate(rosters[0]), params),
            model_specs(GFParty.model_validate(rosters[1]), params),
        )
        ctx = build_context(params, rosters, scenario, seed, specs)
        models: list[Model] = []
        for side in (0, 1):
            for mid in ctx.order[side]:
                spec = ctx.profiles[mid]
                key = str(spec["size"]).lower()
                radius = float(params[f"volume_{key}_width"]) / 2
                height = float(params[f"volume_{key}_height"])
                models.append(Model(mid, side, spec["name"], spec["type"], radius, height, spec))
        return new_state(ctx, models, rosters, seed)

    def result(self, state: GameState[Any]) -> GameResult | None:
        if state.phase != "over":
            return None
        vp = state.vars["vp"]
        points = _model_points(state.ctx.rosters, state.ctx.params)
        fates = tuple(
            fate_by_order(
                m,
                state.ctx.order,
                points,
                "out" if m.flags.get("out") else "down" if m.flags.get("knocked") else "in play",
                max(0, stat(m, "EN") - en(m)),
            )
            for m in state.models.values()
        )
        return GameResult(
            winner_of(state), str(state.vars.get("end_reason", "")), (int(vp[0]), int(vp[1])), state.turn, fates
        )


__all__ = ["Gangfight"]


def _model_points(rosters: tuple[dict[str, Any], dict[str, Any]], params: Mapping[str, Any]) -> list[list[int]]:
    """Each model's points, side by side in model order (``count`` expanded), for the lab's statistics."""
    out: list[list[int]] = []
    for doc in rosters:
        party = GFParty.model_validate(doc)
        side: list[int] = []
        for entry in party.models:
            r = resolve_model(entry)
            side.extend([model_points(r) if r else 0] * entry.count)
        out.append(side)
    return out
