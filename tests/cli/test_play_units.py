"""A whole Trenches and Turbines game at the terminal: a person gives the orders of side A's units and answers the
opponent's reaction prompts (issue: the second ruleset through every face)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry


def test_human_plays_units_and_answers_reactions_to_the_end() -> None:
    rs = registry.get("trenches-and-turbines")
    wb = {Path(w["path"]).name: w["path"] for w in rs.samples()["warbands"]}
    result = CliRunner().invoke(
        app,
        [
            "play",
            "trenches-and-turbines",
            "--a",
            wb["iron_legion.yaml"],
            "--b",
            wb["turbine_guard.yaml"],
            "--agent-a",
            "human",
            "--agent-b",
            "random",
            "--seed",
            "3",
        ],
        input="1\n" * 3000,  # always the first numbered choice
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Side A (Iron Legion Company): react" in out  # a reaction prompt put to the person
    # the person's answer (the first choice: Go Prone) is carried out on the unit it names
    # (each id is followed by the model's name: "a1 (Rifle Section)")
    named = r"(?: \([^)]*\))?"
    chosen = re.search(rf"^  react (a\d+){named} b\d+{named} \[prone\]$", out, re.M)
    assert chosen is not None, out[-2000:]
    assert re.search(rf"{chosen.group(1)}{named} is now prone", out)
    assert "Result: " in out
