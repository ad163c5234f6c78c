"""``warband replay LOG [--verify] [--quiet]``: re-play a game log, step by step.

Exit codes: 0 replayed (and, with ``--verify``, every decision, every seeded roll, the result and the final
fingerprint match, and the end line's header and steps digests prove the header and every step); 1 ``--verify``
found a divergence (the message names the line), a missing digest, or dice entered by hand ("NOT PROVEN": the
rest matches, but typed dice cannot be proven); 2 the log cannot be read
(not JSON, no header, an unknown ruleset), with a message naming the file and the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import ReplayError, WarbandError
from warband.kernel.events import Event
from warband.kernel.log import LogFile, read_log, replay, setup_problem
from warband.kernel.position import header_problems


def step_text(step: dict[str, Any]) -> str:
    """One logged step as a person reads it: the action taken or the dice rolled."""
    if "a" in step:
        try:
            return str(Action.from_json(step["a"]))
        except (KeyError, TypeError, ValueError):
            return f"action {step['a']!r}"
    return f"roll {step.get('r')} ({step.get('src', '?')}) for {step.get('d', '?')}"


def check_header(log: LogFile) -> None:
    """Fail early (exit 2) when the header names a ruleset that is not installed or cannot set up a game."""
    h = log.header
    try:
        rs = registry.get(str(h["ruleset"]))
    except WarbandError as exc:
        raise ReplayError(f"{log.source}: line 1: {exc}") from None
    problems = header_problems(log.source, h)
    if problems:
        shown = "; ".join(f"{p.place.removeprefix('header.')}: {p.message}" for p in problems[:5])
        raise ReplayError(f"{log.source}: line 1: the header's warbands or scenario break their rules: {shown}")
    try:
        Game.new(rs, h["rosters"], h["scenario"], int(h["seed"]), h["params"], record=False)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        detail = setup_problem(log, exc)
        raise ReplayError(f"{log.source}: line 1: cannot set up the game from the header: {detail}") from None


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def replay_command(
    log_file: Annotated[Path, typer.Argument(metavar="LOG", help="A game log written by play or simulate.")],
    verify: Annotated[bool, typer.Option("--verify", help="Check decisions, seeded rolls, result, state.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")] = False,
) -> None:
    """Re-play a game log; with --verify, check it against the rules (exit 1 on a divergence)."""
    try:
        log = read_log(log_file)
        check_header(log)
    except ReplayError as exc:
        raise _fail(str(exc), 2) from None
    by_line = dict(log.steps)

    def on_step(no: int, game: Game, events: list[Event]) -> None:
        if quiet:
            return
        typer.echo(f"line {no}: {step_text(by_line[no])}")
        for event in events:
            typer.echo(f"    {event.describe()}")

    try:
        game = replay(log, verify=verify, on_step=on_step)
    except ReplayError as exc:
        raise _fail(str(exc), 1 if verify else 2) from None
    result = game.result()
    if result is None:
        typer.echo(f"{len(log.steps)} steps replayed; the game is not over")
    else:
        who = "a draw" if result.winner is None else f"side {'AB'[result.winner]} wins"
        typer.echo(
            f"Result: {who} - {result.reason}; score {result.score[0]}-{result.score[1]} after {result.turns} turn(s)"
        )
    if verify:
        typer.echo(f"OK: {len(log.steps)} steps replayed, result and fingerprint match; header and steps digests match")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("replay")(replay_command)
