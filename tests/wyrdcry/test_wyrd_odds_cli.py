"""``warband odds wyrdcry attack|initiative`` answer with the exact odds of the ruleset's odds functions (those are
checked against brute force in test_wyrd_attacks_and_odds.py); parameters set with ``--set`` reach them."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from warband.cli.main import app
from warband.rulesets.wyrdcry.odds import attack_odds, initiative_odds

runner = CliRunner()


def test_attack_command_prints_the_exact_damage_distribution() -> None:
    out = runner.invoke(
        app,
        ["odds", "wyrdcry", "attack", "--attacks", "3", "--skill", "3", "--defense", "3", "--damage", "1/2", "--json"],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == attack_odds(3, 3, 3, (1, 2))
    assert json.loads(out.output)["mean"] == "2"  # 3 dice: each hits on 4+ (1), crits on 6 (2): 3 x (2/6 + 2/6)


def test_initiative_command_and_a_bad_damage_value() -> None:
    out = runner.invoke(app, ["odds", "wyrdcry", "initiative", "--dice", "6", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == initiative_odds(6)
    assert json.loads(out.output)["p_win_vs_6"] == "1/2"
    bad = runner.invoke(
        app, ["odds", "wyrdcry", "attack", "--attacks", "1", "--skill", "3", "--defense", "3", "--damage", "two"]
    )
    assert bad.exit_code != 0 and "HIT/CRIT" in bad.output
