"""The ``warband`` command: one typer app; each command group lives in its own module and registers here.

Exit codes: 0 success, 1 a check that failed (``replay --verify`` divergence), 2 bad input (a malformed file,
an unknown ruleset or parameter, an illegal action) with a message naming the file and place, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from warband.cli import (
    build_cmd,
    compare_cmd,
    fit_cmd,
    info_cmd,
    ladder_cmd,
    legal_cmd,
    play_cmd,
    replay_cmd,
    report_cmd,
    serve_cmd,
    simulate_cmd,
)
from warband.cli.odds_cmd import odds_app
from warband.kernel.errors import WarbandError

app = typer.Typer(
    name="warband",
    help="Rules engine, simulator and digital table for tabletop skirmish wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(odds_app, name="odds")
for module in (
    info_cmd,
    build_cmd,
    play_cmd,
    simulate_cmd,
    replay_cmd,
    legal_cmd,
    report_cmd,
    compare_cmd,
    ladder_cmd,
    fit_cmd,
    serve_cmd,
):
    module.register(app)


def run() -> None:
    """Console-script entry point: bad input becomes exit code 2 with a one-line message."""
    try:
        app()
    except WarbandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    run()
