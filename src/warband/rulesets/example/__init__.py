"""The ``example`` ruleset: a deliberately small skirmish game, the one ``docs/new-ruleset.md`` walks through and
a fifth game copies. It is not installed as an entry point (``warband rulesets`` does not list it); the tests
register it (``warband.kernel.ruleset.registered``) and run it through the same conformance suite as the games.

Where things are:

* ``rules.py``    the whole game: its context, set-up, the round, the activation, Move, Attack and the end
* ``roster.py``   the warband file format; ``data/`` two sample warbands and the default scenario
* ``evaluate.py`` how good a position is, for the agents
* ``params.toml`` every number of the rules; ``docs/rules/example.md`` the rulebook and its clause matrix
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from warband.kernel.actions import Action
from warband.kernel.context import Rosters
from warband.kernel.dice import die
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.result import GameResult, ModelFate
from warband.kernel.ruleset import SteppedRuleset
from warband.kernel.state import GameState, Model
from warband.kernel.steps import SteppedRules
from warband.kernel.view_text import render_view

from . import roster, rules


class Example(SteppedRuleset):
    """The example game behind the kernel protocol."""

    id: ClassVar[str] = rules.R
    version: ClassVar[str] = "0.1.0"
    title: ClassVar[str] = "Example skirmish (the small game of docs/new-ruleset.md)"
    rules: ClassVar[SteppedRules[Any]] = rules.RULES

    # --- files (samples: data/warbands and data/scenarios, beside this module) -------------------------
    def load_roster(self, path: Path) -> dict[str, Any]:
        return roster.load_warband(path, self.id).model_dump(mode="json")

    def describe_roster(self, doc: dict[str, Any]) -> RosterSummary:
        w = roster.Warband.model_validate(doc)
        lines = tuple(RosterLine(e.name, e.count) for e in w.models)
        return RosterSummary(w.name, None, sum(e.count for e in w.models), None, lines)

    # --- the game ----------------------------------------------------------------------------------
    def blank(self, params: Mapping[str, Any], rosters: Rosters, scenario: dict[str, Any], seed: int) -> GameState[Any]:
        return rules.build(params, rosters, scenario, seed)

    def result(self, state: GameState[Any]) -> GameResult | None:
        if state.phase != "over":
            return None
        vp = state.vars["vp"]
        fates = tuple(fate(m) for m in state.models.values())
        return GameResult(state.vars["winner"], state.vars["reason"], (vp[0], vp[1]), state.turn, fates)

    # --- faces -------------------------------------------------------------------------------------
    def render(self, state: GameState[Any]) -> str:
        return render_view(self.view(state))

    def explain(self, state: GameState[Any], action: Action) -> str:
        """The odds of an attack (rule 8): one D6 against the attacker's Skill."""
        m = state.models.get(action.model or "")
        if action.kind != "attack" or m is None:
            return ""
        skill = int(m.data["skill"])
        p = sum((q for face, q in die(6).items() if face >= skill), Fraction(0))
        return f"hits on {skill}+: {p} ({float(p):.0%})"


def fate(m: Model) -> ModelFate:
    """A model at the end of the game: out of action or in play, and the Wounds it lost (no points here)."""
    lost = int(m.data["wounds"]) - m.token("wounds")
    return ModelFate(
        m.id, m.side, m.name, str(m.data["type"]), 0, fate="out" if m.flags.get("out") else "in play", damage=lost
    )


__all__ = ["Example"]
