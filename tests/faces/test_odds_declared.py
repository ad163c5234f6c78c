"""``warband odds`` is built from what each ruleset declares (OddsCommand data): a new ruleset's command shows
up as a sub-command with its options, ``--json`` and ``--set``; Trenches and Turbines' declaration keeps the
output of the hand-written command it replaces."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from typer.testing import CliRunner

import warband.rulesets
from warband.cli.odds_cmd import build_odds_app, odds_app
from warband.kernel import ruleset as registry
from warband.kernel.offers import Column, OddsCommand, OddsOption, OddsTable
from warband.kernel.params import ParamTable
from warband.rulesets.trench_crusade.ruleset import TrenchCrusade

runner = CliRunner()


TT_DIR = Path(warband.rulesets.__file__).parent / "trenches_and_turbines"


def _tt_odds() -> ModuleType:
    """Trenches and Turbines' odds module; read from its file when the package itself cannot be imported (while
    it is ported to the kernel step machine), since the odds need only the kernel."""
    try:
        from warband.rulesets.trenches_and_turbines import odds

        return odds
    except ImportError:
        path = TT_DIR / "odds.py"
        spec = importlib.util.spec_from_file_location("tt_odds_standalone", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


TT = _tt_odds()
TT_ODDS: tuple[OddsCommand, ...] = TT.ODDS_COMMANDS
shoot_damage = TT.shoot_damage


def _beat(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """P(one d12 at or above the success threshold, minus the bonus)."""
    need = int(params["success_threshold"]) - int(values["bonus"])
    p = Fraction(max(0, min(12, 13 - need)), 12)
    return OddsTable(
        f"d12 at {need}+",
        (Column("Result"), Column("Exact", "right")),
        (("P(beat)", f"{p.numerator}/{p.denominator}"),),
        {"beat": f"{p.numerator}/{p.denominator}", "mode": values["mode"]},
        ("a note",),
    )


class FakeGame(TrenchCrusade):
    """Trench Crusade's rules and parameters under another id, offering one odds command of its own."""

    id: ClassVar[str] = "fake-game"
    title: ClassVar[str] = "A fake game"

    def odds_commands(self) -> tuple[OddsCommand, ...]:
        return (
            OddsCommand(
                "beat",
                "Chance to beat the threshold.",
                (
                    OddsOption("bonus", int, "Added to the die.", 0, min=-3, max=3),
                    OddsOption("mode", str, "A choice.", "plain", choices=("plain", "fancy")),
                ),
                _beat,
            ),
        )


class TTOdds(TrenchCrusade):
    """A stand-in carrying Trenches and Turbines' declared odds and parameters (its ruleset may be unloadable
    while it is ported)."""

    id: ClassVar[str] = "tt-odds"
    params: ClassVar[ParamTable] = ParamTable.load(TT_DIR / "params.toml")

    def odds_commands(self) -> tuple[OddsCommand, ...]:
        return TT_ODDS


APP = build_odds_app({"fake-game": FakeGame(), "tt-odds": TTOdds()})


def _json(*args: str) -> Any:
    result = runner.invoke(APP, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_declared_command_is_a_sub_command() -> None:
    result = runner.invoke(APP, ["fake-game", "--help"])
    assert result.exit_code == 0 and "beat" in result.output
    result = runner.invoke(APP, ["fake-game", "beat", "--bonus", "1"])
    assert result.exit_code == 0, result.output
    for text in ("d12 at 6+", "P(beat)", "7/12", "a note"):
        assert text in result.stdout
    assert _json("fake-game", "beat", "--mode", "fancy") == {"beat": "1/2", "mode": "fancy"}


def test_set_changes_the_result() -> None:
    assert _json("fake-game", "beat")["beat"] == "1/2"
    assert _json("fake-game", "beat", "--set", "success_threshold=10")["beat"] == "1/4"
    bad = runner.invoke(APP, ["fake-game", "beat", "--set", "no_such_param=1"])
    assert bad.exit_code != 0


def test_options_are_checked() -> None:
    for args, hint in ((["--bonus", "4"], "--bonus"), (["--mode", "odd"], "--mode")):
        result = runner.invoke(APP, ["fake-game", "beat", *args])
        assert result.exit_code == 2 and hint in result.output


def test_every_registered_ruleset_offers_its_odds() -> None:
    for rid, cls in registry.available().items():
        commands = cls().odds_commands()
        if commands:
            result = runner.invoke(odds_app, [rid, "--help"])
            assert result.exit_code == 0
            assert all(c.name in result.output for c in commands)


def test_trenches_and_turbines_shoot_keeps_its_output() -> None:
    args = ["tt-odds", "shoot", "--attacks", "4", "--target", "5", "--save", "3", "--pen", "1", "--hp", "2"]
    dist = shoot_damage(4, 5, 3, 1, 1, 2)
    data = _json(*args)
    assert data == {
        "damage": {str(k): {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"} for k, p in dist.items()},
        "mean": float(dist.mean()),
    }
    text = runner.invoke(APP, args)
    assert text.exit_code == 0
    assert "4 attacks at 5, SV 3 Pen 1, D1" in text.stdout and f"mean damage {float(dist.mean()):.4f}" in text.stdout
    missing = runner.invoke(APP, ["tt-odds", "shoot", "--attacks", "4"])
    assert missing.exit_code == 2 and "--target" in missing.output
