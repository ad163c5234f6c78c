"""The ``warband ladder`` command, which rates agents on the Elo scale from a round robin or tests one agent
against another with an SPRT.

``warband ladder RULESET --agents SPEC SPEC ...`` prints the ratings (see :mod:`warband.lab.ladder`); with
``--sprt ELO0,ELO1 --against BASE`` it plays one agent against another until the sequential test decides.

``--agents`` and ``--warbands`` take several values each (``--agents random heuristic mcts --warbands a.yaml
b.yaml``): a value after them that names a file (``.yaml``, ``.yml``, ``.json`` or an existing path) is a warband,
any other an agent spec.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from warband.cli.compare_cmd import _bar
from warband.cli.simulate_cmd import DEFAULT_DB, report_crashes
from warband.kernel.files import check_output_file
from warband.kernel.rng import MAX_SEED
from warband.lab.ladder import (
    LadderConfig,
    LadderError,
    check_ladder,
    parse_bounds,
    run_ladder,
    run_sprt,
    sample_warbands,
)
from warband.lab.ladder_report import write_ladder_report
from warband.lab.store import MEMORY, Store

FILE_SUFFIXES = (".yaml", ".yml", ".json")


def _split_extras(extras: list[str]) -> tuple[list[str], list[Path]]:
    """Extra values after ``--agents``/``--warbands``: files are warbands, the rest agent specs."""
    agents: list[str] = []
    files: list[Path] = []
    for value in extras:
        if value.lower().endswith(FILE_SUFFIXES) or Path(value).is_file():
            files.append(Path(value))
        else:
            agents.append(value)
    return agents, files


def ladder_table(s: dict[str, Any]) -> Table:
    table = Table(
        title=f"{s['ruleset']}: Elo ladder, {s['games']} games ({s['games_per_pair']} per run, seed {s['seed']})"
    )
    for name, justify in (
        ("#", "right"),
        ("agent", "left"),
        ("Elo", "right"),
        ("95% CI", "right"),
        ("games", "right"),
        ("score", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for n, a in enumerate(s["agents"], 1):
        table.add_row(
            str(n),
            a["agent"],
            f"{a['elo']:+.0f}",
            f"{a['ci95'][0]:+.0f} … {a['ci95'][1]:+.0f}",
            str(a["games"]),
            f"{100 * a['score_rate']:.0f}%",
        )
    pairs = " · ".join(f"{p['agent']}–{p['opponent']} {p['wins']}/{p['draws']}/{p['losses']}" for p in s["pairs"])
    table.caption = (
        f"{s['anchor']} held at 0; Bradley-Terry fit, 95% intervals from the observed information, "
        f"{s['prior_draws']:g} virtual draw per pair. W/D/L: {pairs}"
    )
    return table


def _announce_resume(stored: int, db: str) -> None:
    if stored:
        typer.echo(
            f"resumed from {db}: {stored} game(s) were already stored and not played again "
            "(another --db or --seed starts afresh)",
            err=True,
        )


def ladder_command(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `warband rulesets`).")],
    agents: Annotated[
        list[str],
        typer.Option("--agents", help="Agent specs (random, heuristic, mcts:iterations=200, ...); list them after it."),
    ],
    warbands: Annotated[
        list[Path] | None,
        typer.Option("--warbands", help="Warband files (default: the ruleset's samples); list them after it."),
    ] = None,
    games_per_pair: Annotated[
        int,
        typer.Option(
            "--games-per-pair",
            "-n",
            help="Games of each run; each pair of agents plays twice this on each pair of warbands.",
        ),
    ] = 2,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario file.")] = None,
    mirror: Annotated[
        bool, typer.Option("--mirror", help="Each warband plays only itself (mirror matches), not the others.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the ladder.")] = 1,
    db: Annotated[
        str, typer.Option("--db", help=f"SQLite file storing every game; '{MEMORY}' keeps none.")
    ] = DEFAULT_DB,
    out: Annotated[Path | None, typer.Option("--out", help="Write the HTML report (with its chart) here.")] = None,
    sprt: Annotated[
        str | None,
        typer.Option("--sprt", help="ELO0,ELO1: test the (single) agent of --agents against --against instead."),
    ] = None,
    against: Annotated[str | None, typer.Option("--against", help="The baseline agent of --sprt.")] = None,
    max_games: Annotated[int, typer.Option("--max-games", help="Stop an SPRT without a verdict here.")] = 2000,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes playing games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """Rate agents on the Elo scale from a round robin over warbands, sides swapped and seeds paired; or, with
    --sprt, decide with the fewest games whether one agent is stronger than another."""
    more_agents, more_files = _split_extras(list(ctx.args))
    files = [*(warbands or []), *more_files]
    config = LadderConfig(
        ruleset,
        tuple([*agents, *more_agents]),
        tuple(files) if files else sample_warbands(ruleset),
        games_per_pair,
        seed,
        scenario,
        mirror,
    )
    if out is not None:
        check_output_file(out, "--out")
    show = not as_json or sys.stderr.isatty()
    if sprt is not None:
        if against is None or len(config.agents) != 1:
            raise LadderError("--sprt tests one agent (--agents CANDIDATE) against one other (--against BASE)")
        elo0, elo1 = parse_bounds(sprt)
        check_ladder(replace(config, agents=(config.agents[0], against)))  # before a database is made
        with Store(db) as store, _bar("games", show) as hook:
            result = run_sprt(config, against, elo0, elo1, store, max_games, hook)
        _announce_resume(result.resumed, db)
        s = result.summary()
        if as_json:
            typer.echo(json.dumps(s))
        else:
            typer.echo(
                f"SPRT {result.candidate} vs {result.baseline}, H0 {elo0:g} / H1 {elo1:g} Elo, alpha = beta = 0.05: "
                f"LLR {s['llr']:.2f} (bounds {s['bounds'][0]:.2f}, {s['bounds'][1]:.2f}); {s['games']} games, "
                f"W/D/L {s['wins']}/{s['draws']}/{s['losses']}; pairs 0-2 points {s['pentanomial']}"
            )
            typer.echo(result.verdict_text())
        report_crashes(s["crashes"])
        return
    check_ladder(config)
    with Store(db) as store, _bar("games", show) as hook:
        ladder = run_ladder(config, store, workers, progress=hook)
    _announce_resume(ladder.resumed, db)
    summary = ladder.summary()
    if out is not None:
        summary["report"] = str(write_ladder_report(ladder, out))
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        Console().print(ladder_table(summary))
        if out is not None:
            typer.echo(f"report: {out}")
    report_crashes(summary["crashes"])


def register(app: typer.Typer) -> None:
    """Add ``ladder`` to ``app``."""
    app.command("ladder", context_settings={"allow_extra_args": True})(ladder_command)
