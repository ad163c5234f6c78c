"""``warband odds``: exact roll odds.

``odds_app`` is mounted by the main CLI as ``warband odds``; each game gets a
sub-command (``warband odds trench-crusade success --dice 1``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warband.cli.odds_tt import tt_app
from warband.rulesets.trench_crusade import odds as tc_odds

__all__ = ["odds_app"]

odds_app = typer.Typer(help="Exact probabilities of game rolls.", no_args_is_help=True)
tc = typer.Typer(help="Trench Crusade: Success Rolls and Injury Rolls.", no_args_is_help=True)
odds_app.add_typer(tc, name="trench-crusade")
odds_app.add_typer(tt_app, name="trenches-and-turbines")

MAX_DICE = 6
MAX_MODIFIER = 10


def _exact(p: Fraction) -> str:
    """Always ``a/b`` (also ``0/1`` and ``1/1``), in lowest terms."""
    return f"{p.numerator}/{p.denominator}"


def _emit(title: str, odds: dict[str, Fraction], labels: dict[str, str], as_json: bool) -> None:
    if as_json:
        payload = {key: {"p": float(p), "exact": _exact(p)} for key, p in odds.items()}
        typer.echo(json.dumps(payload))
        return
    table = Table(title=title)
    table.add_column("Result")
    table.add_column("Exact", justify="right")
    table.add_column("Probability", justify="right")
    for key, p in odds.items():
        table.add_row(labels[key], _exact(p), f"{float(p):.4f} ({float(p):.2%})")
    Console().print(table)


def _check_range(value: int, limit: int, name: str) -> int:
    if not -limit <= value <= limit:
        raise typer.BadParameter(f"must be between -{limit} and +{limit}, got {value}.", param_hint=name)
    return value


DiceOption = Annotated[
    int,
    typer.Option(
        "--dice",
        help=f"Net +DICE (positive) or -DICE (negative), -{MAX_DICE}..{MAX_DICE}.",
    ),
]
InjuryDiceOption = Annotated[
    int,
    typer.Option(
        "--injury-dice",
        help=f"Net INJURY DICE (positive adds, negative removes), -{MAX_DICE}..{MAX_DICE}.",
    ),
]
ModifierOption = Annotated[
    int,
    typer.Option(
        "--modifier",
        help=f"Total INJURY MODIFIER (negatives already capped), -{MAX_MODIFIER}..{MAX_MODIFIER}.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@tc.command()
def success(dice: DiceOption = 0, as_json: JsonOption = False) -> None:
    """Chance that a Success Roll fails, succeeds (criticals included) or is critical."""
    _check_range(dice, MAX_DICE, "--dice")
    odds = tc_odds.success_odds(dice)
    _emit(
        f"Success Roll, {dice:+d} DICE",
        odds,
        {"failure": "P(failure)", "success": "P(success)", "critical": "P(critical)"},
        as_json,
    )


@tc.command()
def injury(
    injury_dice: InjuryDiceOption = 0,
    modifier: ModifierOption = 0,
    as_json: JsonOption = False,
) -> None:
    """Chance of each Injury Roll result: none, minor hit, down, out of action."""
    _check_range(injury_dice, MAX_DICE, "--injury-dice")
    _check_range(modifier, MAX_MODIFIER, "--modifier")
    odds = tc_odds.injury_odds(injury_dice, modifier)
    _emit(
        f"Injury Roll, {injury_dice:+d} INJURY DICE, modifier {modifier:+d}",
        odds,
        {"none": "P(no effect)", "minor": "P(minor hit)", "down": "P(down)", "out": "P(out of action)"},
        as_json,
    )
