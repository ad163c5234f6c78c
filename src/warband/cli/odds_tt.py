"""``warband odds trenches-and-turbines``: exact damage distribution of a Shoot."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warband.kernel import ruleset as registry
from warband.kernel.params import parse_assignments
from warband.odds.trenches_and_turbines import shoot_damage

__all__ = ["tt_app"]

tt_app = typer.Typer(help="Trenches and Turbines: damage of a Shoot.", no_args_is_help=True)


@tt_app.command()
def shoot(
    attacks: Annotated[int, typer.Option("--attacks", min=0, max=60, help="Attack dice (d10).")],
    target: Annotated[int, typer.Option("--target", help="Modified Ranged: hit on this or less.")],
    save: Annotated[int, typer.Option("--save", help="SV of the target (plus Cover).")],
    pen: Annotated[int, typer.Option("--pen", min=0, help="Pen of the weapon.")] = 0,
    damage: Annotated[int, typer.Option("--damage", min=1, max=10, help="Damage per unsaved hit.")] = 1,
    hp: Annotated[int | None, typer.Option("--hp", min=1, help="HP per target model (excess falls off).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="Override a rule parameter (die_sides, natural_*): name=value.")
    ] = None,
) -> None:
    """Exact distribution of the damage dealt (fractions and decimals)."""
    params = registry.get("trenches-and-turbines").params.resolve(parse_assignments(settings or []))
    dist = shoot_damage(attacks, target, save, pen, damage, hp, params)
    mean = float(dist.mean())
    if as_json:
        payload = {str(k): {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"} for k, p in dist.items()}
        typer.echo(json.dumps({"damage": payload, "mean": mean}))
        return
    table = Table(title=f"{attacks} attacks at {target}, SV {save} Pen {pen}, D{damage}")
    table.add_column("Damage", justify="right")
    table.add_column("Exact", justify="right")
    table.add_column("Probability", justify="right")
    for k, p in dist.items():
        table.add_row(str(k), f"{p.numerator}/{p.denominator}", f"{float(p):.4f}")
    Console().print(table)
    Console().print(f"mean damage {mean:.4f}")
