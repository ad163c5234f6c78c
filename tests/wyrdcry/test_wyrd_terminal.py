"""``warband play wyrdcry`` at the terminal (issue 12, done-when): two people type every answer, including the
reaction the game asks the non-active player for and the active fighter's ability, and with ``--dice manual``
they type every roll: the roll-off, the initiative dice and the hit rolls."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner
from wyrd_helpers import DATA

from warband.cli.main import app

# The two warbands face each other 4" apart on an open table, so the first activation can reach an enemy.
CLOSE = """\
name: close quarters
ruleset: wyrdcry
table: {width: 36, depth: 36}
turns: 4
deployment:
  - {side: 0, polygon: [[0, 14], [36, 14], [36, 17], [0, 17]]}
  - {side: 1, polygon: [[0, 18], [36, 18], [36, 21], [0, 21]]}
objectives: []
rules: {victory: most_out}
terrain: []
"""


def test_two_people_play_a_reaction_an_ability_and_type_the_initiative_dice(tmp_path: Path) -> None:
    scenario = tmp_path / "close.yaml"
    scenario.write_text(CLOSE)
    script = [
        "6 1",  # the deployment roll-off: side A wins
        "1",  # side A takes the first zone
        *["1"] * 15,  # every fighter on the first spot offered
        "1 2 3 4 4 4",  # side A's initiative dice: 3 singles and a [triple] of 4s
        "1 2 3 4 5 5",  # side B's: 4 singles, so B has the initiative
        "wyrd [done]",  # each keeps its wyrd die
        "wyrd [done]",
        "first [opponent]",  # B lets A activate first
        "activate a4",
        "ability a4 [onslaught 4]",  # the triple of 4s pays for Onslaught (a double)
        "move a4",
        "1",  # up to the Flagellant b4
        "attack a4 b4 [Axe]",
        "react b4 a4 [counter]",  # the person playing B answers the reaction
        "1 3 4 6",  # four hit rolls (Axe 3 + Onslaught 1): a crit, a hit, two misses and a 1
        "quit",
    ]
    out = CliRunner().invoke(
        app,
        ["play", "wyrdcry", "--a", str(DATA / "warbands" / "mercenaries_hardy_company.yaml"),
         "--b", str(DATA / "warbands" / "witch_hunters_pyre.yaml"), "--scenario", str(scenario),
         "--agent-a", "human", "--agent-b", "human", "--dice", "manual"],
        input="\n".join(script) + "\n",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "a4 (Warrior) uses Onslaught (value 4)" in out.output  # models are named beside their ids
    text = unnamed(out.output)
    assert "Roll 6d6 (initiative dice of side A)" in text
    assert "side A initiative dice rolled [1, 2, 3, 4, 4, 4] -> [triple 4s], single 1, single 2, single 3" in text
    assert "side B initiative dice rolled [1, 2, 3, 4, 5, 5] -> [double 5s], single 1" in text
    assert "Side B (The Pyre Wardens): first" in text  # the holder decides who activates first
    assert "a4 uses Onslaught (value 4)" in text
    assert "Side B (The Pyre Wardens): reaction" in text and "react b4 a4 [counter]" in text
    assert "Roll 4d6 (hit rolls (Axe))" in text
    assert "b4: +6 damage (now 6)" in text  # a hit (2) and a crit (4)
    assert "b4's Counter deals 3 damage to a4" in text  # a miss, and a 1 among the rolls
    assert "stopped before the end of the game" in text


def unnamed(text: str) -> str:
    """The terminal's text with the names beside model ids left out (``a4 (Warrior)`` -> ``a4``)."""
    return re.sub(r"\b([ab]\d+) \([^()]*\)", r"\1", text)
