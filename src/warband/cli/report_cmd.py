"""``warband report DB``: a run's results as a self-contained HTML report with charts (see
:mod:`warband.lab.report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from warband.kernel.files import check_output_dir
from warband.lab.report import WEB_TABLE, write_report


def report_command(
    db: Annotated[Path, typer.Argument(help="Results database written by `warband simulate --db`.")],
    run: Annotated[int | None, typer.Option("--run", help="Run id (default: the latest run).")] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for index.html, its charts and game logs.")] = Path(
        "report"
    ),
    web_base: Annotated[
        str,
        typer.Option("--web-base", help="Address of `warband serve` for the replay links ('' for relative links)."),
    ] = WEB_TABLE,
) -> None:
    """Write an HTML report of one run: win rates, game length, first-player advantage, model types and the
    most lopsided games with replay commands."""
    check_output_dir(out, "--out")
    report = write_report(db, out, run, web_base)
    typer.echo(f"report of run {report.run.id} ({report.run.names[0]} vs {report.run.names[1]}): {report.index}")
    for line in report.takeaways:
        typer.echo(f"  {line}")
    for log in report.logs:
        typer.echo(f"  replay: warband replay {log} --verify")


def register(app: typer.Typer) -> None:
    """Add ``report`` to ``app``."""
    app.command("report")(report_command)
