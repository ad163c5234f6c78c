"""``warband odds RULESET COMMAND``: exact roll odds, built from what each ruleset declares.

Every registered ruleset lists its odds commands as data (:meth:`Ruleset.odds_commands`, see
:mod:`warband.kernel.offers`); this module turns each into a typer command with its options, ``--json`` (the
command's data, printed as it is) and ``--set name=value`` (parameter overrides, resolved and checked by the
ruleset's parameter table before the odds are computed), and prints its :class:`OddsTable` with rich.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from warband.kernel import ruleset as registry
from warband.kernel.offers import OddsCommand, OddsOption, OddsTable
from warband.kernel.params import parse_assignments
from warband.kernel.ruleset import Ruleset

__all__ = ["build_odds_app", "odds_app", "print_table"]


def build_odds_app(rulesets: Mapping[str, Ruleset]) -> typer.Typer:
    """``warband odds`` with one sub-command group per ruleset that offers odds commands."""
    app = typer.Typer(help="Exact probabilities of game rolls.", no_args_is_help=True)
    for rid, rs in rulesets.items():
        commands = rs.odds_commands()
        if not commands:
            continue
        names = ", ".join(c.name for c in commands)
        group = typer.Typer(help=f"{rs.title}: {names}.", no_args_is_help=True)
        for command in commands:
            group.command(command.name, help=command.help)(_callback(rs, command))
        app.add_typer(group, name=rid)
    return app


def print_table(table: OddsTable, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(table.data))
        return
    out = Table(title=table.title)
    for column in table.columns:
        out.add_column(column.name, justify=column.justify)
    for row in table.rows:
        out.add_row(*row)
    console = Console()
    console.print(out)
    for note in table.notes:
        console.print(note)


def _callback(rs: Ruleset, command: OddsCommand) -> Callable[..., None]:
    """A function typer reads as the command: one keyword parameter per option, then ``--json`` and ``--set``."""

    def run(**kwargs: Any) -> None:
        as_json = bool(kwargs.pop("as_json"))
        settings = kwargs.pop("settings") or []
        values = {o.key: kwargs[o.key] for o in command.options}
        for option in command.options:
            why = option.check(values[option.key])
            if why is not None:
                raise typer.BadParameter(f"{why}.", param_hint=f"--{option.name}")
        params = rs.params.resolve(parse_assignments(settings))
        try:
            table = command.run(params, values)
        except ValueError as exc:  # a value the option's type admits but the command cannot read (e.g. '2/x')
            raise typer.BadParameter(str(exc)) from None
        print_table(table, as_json)

    parameters = [_parameter(o) for o in command.options]
    parameters.append(
        inspect.Parameter(
            "as_json",
            inspect.Parameter.KEYWORD_ONLY,
            default=False,
            annotation=Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")],
        )
    )
    parameters.append(
        inspect.Parameter(
            "settings",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[
                list[str] | None, typer.Option("--set", help="Override a rule parameter: name=value.")
            ],
        )
    )
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    run.__doc__ = command.help
    return run


def _parameter(option: OddsOption) -> inspect.Parameter:
    kind: Any = option.type if option.required or option.default is not None else option.type | None
    annotation = Annotated[kind, typer.Option(f"--{option.name}", help=option.help)]
    default = inspect.Parameter.empty if option.required else option.default
    return inspect.Parameter(option.key, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


odds_app = build_odds_app({rid: registry.get(rid) for rid in registry.available()})
