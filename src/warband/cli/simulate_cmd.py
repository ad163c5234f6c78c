"""``warband simulate``: many games between two warbands, with a win-rate table (or ``--json``).

Every input is checked before the first game (a bad file, ``--set`` name or agent exits 2 naming it); the
progress bar goes to stderr, so stdout holds only the table, or with ``--json`` exactly one JSON object.

Every finished game is stored in ``--db`` (SQLite) as it completes; the same command run again resumes the run
(plays only the games not yet stored), so Ctrl-C loses at most the games in progress.

A game that crashes is reported with its index, seed and the command that plays it again alone (``--game N``,
which shows the traceback); the run goes on and exits 1 at the end if any game crashed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from warband.cli.unmodelled import AllowUnmodelled, refuse_unmodelled
from warband.kernel.params import parse_assignments
from warband.kernel.rng import MAX_SEED
from warband.lab.backends import BACKENDS, Backend, default_workers, make_backend
from warband.lab.records import GameRecord, SimulationConfig
from warband.lab.simulate import Progress as ProgressHook
from warband.lab.simulate import check, default_agent, play_one, simulate
from warband.lab.store import MEMORY, Store

DEFAULT_DB = "warband-results.db"


@contextmanager
def progress_bar(total: int, label: str = "games", enabled: bool = True) -> Iterator[ProgressHook]:
    """A rich progress bar on stderr, as a :data:`~warband.lab.simulate.Progress` hook that also shows the
    running score (A wins, B wins, draws)."""
    if not enabled:
        yield lambda done, total, record: None
        return
    tally = {"a": 0, "b": 0, None: 0}
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=Console(stderr=True),
    )
    task = bar.add_task(label, total=total, score="")

    def hook(done: int, total: int, record: GameRecord) -> None:
        if record.crash is None:
            tally[record.winner] += 1
        bar.update(task, completed=done, score=f"A {tally['a']} · B {tally['b']} · draws {tally[None]}")

    with bar:
        yield hook


def summary_table(summary: dict[str, Any]) -> Table:
    """The summary of a run as a table: one row per side, then draws, games, decisions and speed."""
    seats = "sides swapped in odd games" if summary.get("swap_sides") else "warband A always first"
    table = Table(
        title=f"{summary['ruleset']} {summary['ruleset_version']}: {summary['games']} games, seed {summary['seed']}, "
        f"{seats}"
    )
    for name, justify in (
        ("side", "left"),
        ("warband", "left"),
        ("agent", "left"),
        ("wins", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for side in ("a", "b"):
        s = summary[side]
        low, high = s["ci95"]
        table.add_row(
            side.upper(), s["name"], s["agent"], str(s["wins"]), f"{s['win_rate']:.1%}", f"{low:.1%} – {high:.1%}"
        )
    table.add_section()
    table.add_row("", "draws", "", str(summary["draws"]), f"{summary['draw_rate']:.1%}", "")
    params = ", ".join(f"{k}={v}" for k, v in summary["params"].items()) or "defaults"
    resumed = f" ({summary['games_resumed']} already stored)" if summary.get("games_resumed") else ""
    crashed = f" · {len(summary['crashes'])} crashed" if summary.get("crashes") else ""
    stored = f" · run {summary['run_id']} in {summary['db']}" if summary.get("run_id") is not None else ""
    table.caption = (
        f"games {summary['games']}{resumed}{crashed} · decisions {summary['decisions']} · "
        f"{summary['games_per_s']:.2f} games/s · {summary['elapsed_s']:.1f} s · params: {params}{stored}"
    )
    return table


def simulate_command(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `warband rulesets`).")],
    a: Annotated[Path, typer.Option("--a", help="Warband file of side A (see `warband samples RULESET`).")],
    b: Annotated[Path, typer.Option("--b", help="Warband file of side B.")],
    scenario: Annotated[
        Path | None, typer.Option("--scenario", help="Scenario file (default: the ruleset's default scenario).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the run; game i uses a seed derived from it.")
    ] = 1,
    agent_a: Annotated[
        str | None,
        typer.Option("--agent-a", help="Agent spec of side A (default: heuristic if installed, else random)."),
    ] = None,
    agent_b: Annotated[str | None, typer.Option("--agent-b", help="Agent spec of side B.")] = None,
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a rule parameter, name=value (repeatable; see `warband params`)."),
    ] = None,
    log_dir: Annotated[
        Path | None, typer.Option("--log-dir", help="Write each game's log here as game-NNNNN.jsonl.")
    ] = None,
    swap_sides: Annotated[
        bool,
        typer.Option(
            "--swap-sides/--no-swap-sides",
            help="Odd games put warband B (and its agent) first (the default); --no-swap-sides keeps A first.",
        ),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            help="Processes playing games (default: every core); with --backend ray, games in flight "
            "(default: the cluster's CPUs). Results do not depend on it.",
        ),
    ] = None,
    db: Annotated[
        str, typer.Option("--db", help=f"SQLite file storing every game as it finishes; '{MEMORY}' keeps none.")
    ] = DEFAULT_DB,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume/--no-resume",
            help="Resume the run with the same "
            "configuration found in --db (play only its missing games); "
            "--no-resume starts a new run.",
        ),
    ] = True,
    backend: Annotated[
        str, typer.Option("--backend", help=f"Where games are played: {' or '.join(BACKENDS)}.")
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="Ray cluster address for --backend ray (default: start a local Ray runtime)."),
    ] = None,
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            min=0,
            help="Play only game N of this run, here, storing nothing; a crash shows its traceback "
            "(the replay command of a crashed game).",
        ),
    ] = None,
    allow_unmodelled: AllowUnmodelled = False,
) -> None:
    """Play GAMES games of A against B and report win rates with 95% confidence intervals."""
    config = SimulationConfig(
        ruleset=ruleset,
        roster_a=a,
        roster_b=b,
        scenario=scenario,
        games=games,
        seed=seed,
        agent_a=agent_a or default_agent(),
        agent_b=agent_b or default_agent(),
        params=parse_assignments(assignments or []),
        log_dir=log_dir,
        swap_sides=swap_sides,
    )
    local = workers if workers is not None else default_workers()
    runner = make_backend(backend, local if backend == "local" else workers, address)
    check(config)  # before the bar: a bad input leaves no half-drawn progress behind, and no database
    refuse_unmodelled(ruleset, [a, b], allow_unmodelled)
    if game is not None:
        if game >= games:
            raise typer.BadParameter(
                f"game {game} is not in a run of {games} game(s) (games are numbered 0 to {games - 1})",
                param_hint="--game",
            )
        _one_game(config, game)
        return
    with Store(db) as store:
        summary = _run(config, runner, store, resume, show=not as_json or sys.stderr.isatty())
    _announce_resume(summary, db)
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        Console().print(summary_table(summary))
        if log_dir is not None:
            typer.echo(f"logs: {log_dir}/game-00000.jsonl … game-{games - 1:05d}.jsonl")
    report_crashes(summary["crashes"])


def _one_game(config: SimulationConfig, index: int) -> None:
    """``--game N``: play game N of the run alone; an exception in it surfaces with its traceback."""
    record = play_one(config, index)
    who = "a draw" if record.winner is None else f"side {record.winner.upper()} wins"
    typer.echo(
        f"game {index} (seed {record.seed}): {who} - {record.reason}; score {record.score[0]}-"
        f"{record.score[1]} after {record.turns} turn(s)" + (f"; log {record.log}" if record.log else "")
    )


def _announce_resume(summary: dict[str, Any], db: str) -> None:
    """Say on stderr that games came from the store rather than being played, and from which file."""
    stored = summary["games_resumed"]
    if not stored:
        return
    where = f"{db} (the default results file in this folder)" if db == DEFAULT_DB else db
    typer.echo(
        f"resumed run {summary['run_id']} of {where}: {stored} game(s) were already stored and not played again "
        "(--no-resume starts a new run)",
        err=True,
    )


def report_crashes(crashes: list[dict[str, Any]]) -> None:
    """Name every crashed game (index, seed, error, replay command; ``warband compare`` adds the arm) on stderr
    and exit 1 if there was one. ``simulate``, ``compare`` and ``balance`` all end this way."""
    if not crashes:
        return
    typer.echo(f"{len(crashes)} game(s) crashed and are left out of the results:", err=True)
    for c in crashes:
        arm = f"{c['arm']}: " if c.get("arm") else ""
        typer.echo(f"  {arm}game {c['index']} (seed {c['seed']}): {c['error']}", err=True)
        typer.echo(f"    replay: {c['replay']}", err=True)
    raise typer.Exit(1)


def _run(config: SimulationConfig, runner: Backend, store: Store, resume: bool, show: bool) -> dict[str, Any]:
    """The run's summary; on Ctrl-C, say what was kept and how to go on, and exit 130."""
    try:
        with progress_bar(config.games, enabled=show) as hook:
            result = simulate(config, progress=hook, store=store, backend=runner, resume=resume)
    except KeyboardInterrupt:
        run_id = store.last_run_id
        kept = len(store.indices(run_id)) if run_id is not None else 0
        where = (
            "nothing is kept (--db :memory:)"
            if not store.persistent
            else (
                f"{kept} finished game(s) are stored in run {run_id} of {store.path}; run the same command again to "
                "play the rest"
            )
        )
        typer.echo(f"interrupted: {where}", err=True)
        raise typer.Exit(130) from None
    return result.summary()


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to ``app``."""
    app.command("simulate")(simulate_command)
